"""The env docstring's tables are the generated ones; RULES.md lists every assumption id used in code."""

import pathlib
import re

import ether_envs
from ether_envs.docs import regenerate_hint
from ether_envs.ether_wars import env as E


def test_docs_env_docstring_tables_match_codec_and_layout():
    game = ether_envs.load_game("ether_wars")
    assert game.codec.table_markdown() in E.__doc__, regenerate_hint("ether_wars")
    assert game.layout.table_markdown() in E.__doc__, regenerate_hint("ether_wars")


def test_docs_every_assumption_id_in_code_is_listed_in_rules_md():
    pkg = pathlib.Path(E.__file__).parent
    code = "".join(p.read_text() for p in pkg.glob("*.py"))
    rules = (pkg / "RULES.md").read_text()
    used = set(re.findall(r"EW-A\d+", code))
    listed = set(re.findall(r"\| (EW-A\d+) \|", rules))
    assert used and used <= listed
