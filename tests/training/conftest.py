import os

import pytest


@pytest.fixture(scope="session")
def shared_tmp(tmp_path_factory):
    """A folder shared by all xdist workers of this test session (the session's own temp folder
    without xdist). Use with a ``filelock.FileLock`` to build something once per session."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
