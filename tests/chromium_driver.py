"""Debian's chromium driven by Selenium, for the browser tests (``test_serve_browser.py``,
``test_docs_site.py``): the flags, the reason to skip where it is missing, and a driver."""

from __future__ import annotations

import shutil

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--disable-dev-shm-usage", "--hide-scrollbars"]
"""Headless, and nothing that reaches the network (this machine's network is closed)."""


def why_no_browser() -> str | None:
    """Why the browser tests cannot run here (selenium, chromium or chromedriver missing), or None."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    for exe, pkg in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if shutil.which(exe) is None:
            return f"{exe} is not installed (apt-get install {pkg}; make test installs it where apt-get works)"
    return None


def start_browser(profile: str, window: tuple[int, int]):
    """A Chromium driver with a fresh profile folder and a window of ``window`` pixels."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={profile}", f"--window-size={window[0]},{window[1]}"]:
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=shutil.which("chromedriver")))
    driver.set_window_size(*window)
    return driver
