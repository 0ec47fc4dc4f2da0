"""The documentation site as a newcomer sees it: built with MkDocs in strict mode into a
temporary folder, served over HTTP on 127.0.0.1, and read in a real browser (Debian's
``chromium`` driven by Selenium through ``chromium-driver``, installed by ``make test`` /
``.ci/run``; the browser tests are skipped, with the reason, where chromium, chromedriver or
selenium is missing; the whole module is skipped where mkdocs is, the ``docs`` extra).

From the landing page (README.md, brought in by ``docs/hooks.py``) the links to the five game
pages, the API reference and a notebook are followed: each game page shows its picture, its
header table and the action and observation tables that ``ether_envs.docs`` generates; the API
reference reaches rendered docstrings; the notebook shows its committed outputs. A crawl without
the browser visits every page reachable from ``/`` and checks that every link and picture in the
generated HTML (theme, notebooks, mkdocstrings included) answers 200.
"""

from __future__ import annotations

import functools
import html.parser
import http.server
import importlib.util
import os
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import NamedTuple

import pytest

import ether_envs
from ether_envs import docs
from chromium_driver import start_browser, why_no_browser

ROOT = Path(__file__).resolve().parents[1]
GAMES = ether_envs.list_games()
WINDOW = (1280, 800)  # wide enough for Material's navigation sidebar



WHY = why_no_browser()
needs_browser = pytest.mark.skipif(WHY is not None, reason=WHY or "")
pytestmark = pytest.mark.xdist_group("docs_site")  # one build of the site, one browser, under -n


# ---- fixtures ----------------------------------------------------------------------------------
class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002
        pass


class _QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # the browser dropped a connection: fine
            super().handle_error(request, client_address)


class Site(NamedTuple):
    url: str  # http://127.0.0.1:PORT/
    folder: Path  # the built site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site, built strictly into a temporary folder and served over HTTP."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("mkdocs is not installed (the docs extra: pip install -e '.[docs]', part of dev)")
    out = tmp_path_factory.mktemp("site")
    # not --quiet: MkDocs then hides the warnings, and strict mode never counts them
    build = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                           cwd=ROOT, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
                           capture_output=True, text=True, timeout=300)
    if build.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed (exit {build.returncode}):\n{build.stdout}{build.stderr}",
                    pytrace=False)
    server = _QuietServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield Site(f"http://127.0.0.1:{server.server_address[1]}/", out)
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def browser():
    with tempfile.TemporaryDirectory(prefix="ether-envs-chromium-") as profile:
        driver = start_browser(profile, WINDOW)
        driver.set_page_load_timeout(120)
        try:
            yield driver
        finally:
            driver.quit()


# ---- helpers -----------------------------------------------------------------------------------
def wait(driver, script: str, what: str, timeout: float = 60.0):
    """Poll the JavaScript expression ``script`` until truthy; returns its value."""
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script("return " + script))
    except Exception as e:
        raise AssertionError(f"timed out waiting for {what} on {driver.current_url}: {script}") from e


def open_landing_page(driver, site: Site) -> None:
    driver.get(site.url)
    wait(driver, "document.readyState === 'complete'", "the landing page to load")
    assert urllib.parse.urlparse(driver.current_url).path == "/", driver.current_url


def _paths(page: str) -> list[str]:
    """The URL paths (from the site's root, directory URLs as ``.../index.html``) that the page
    built from ``page`` (docs-relative source: ``games/ethnos.md``, ``api/index.md``,
    ``notebooks/01_quickstart.ipynb``) may have: ``use_directory_urls`` on or off."""
    stem = page.rsplit(".", 1)[0]
    if stem == "index" or stem.endswith("/index"):
        return [f"/{stem}.html"]
    return [f"/{stem}/index.html", f"/{stem}.html"]


_AT = "(p => p.endsWith('/') ? p + 'index.html' : p)"  # a URL path, directory URLs as .../index.html


def links_to(driver, page: str) -> list[dict]:
    """The links of the current page to the site page built from ``page`` (``games/ethnos.md``),
    fragments ignored: ``[{href, shown, in_content}]``, the ones in the page's text first."""
    found = driver.execute_script(f"""
        const want = arguments[0], at = {_AT};
        return [...document.querySelectorAll('a[href]')]
            .filter(a => a.origin === location.origin && want.includes(at(a.pathname)))
            .map(a => ({{href: a.getAttribute('href'), in_content: a.closest('article') !== null,
                        shown: a.offsetParent !== null && a.getClientRects().length > 0}}));""", _paths(page))
    return sorted(found, key=lambda link: not link["in_content"])


def follow(driver, page: str) -> None:
    """Follow the current page's link to the page built from ``page``: click it where the link is
    shown (the page's text first, then the navigation), else go to its href as written."""
    from selenium.webdriver.common.by import By

    links = links_to(driver, page)
    assert links, f"{driver.current_url} has no link to the page {page}"
    before = driver.current_url
    shown = [link for link in links if link["shown"]]
    if shown:
        anchors = [a for a in driver.find_elements(By.CSS_SELECTOR, f'a[href="{shown[0]["href"]}"]')
                   if a.is_displayed()]
        anchors.sort(key=lambda a: not driver.execute_script("return arguments[0].closest('article') !== null", a))
        anchors[0].click()
    else:
        driver.get(urllib.parse.urljoin(before, links[0]["href"]))
    wait(driver, f"{_paths(page)!r}.includes({_AT}(location.pathname)) && document.readyState === 'complete'",
         f"the page {page} (followed from {before})")


def header_cells(table_markdown: str) -> list[str]:
    """The column names of a generated Markdown table (its first line)."""
    return [c.strip() for c in table_markdown.split("\n")[0].strip().strip("|").split("|")]


def body_rows(table_markdown: str) -> int:
    return len(table_markdown.strip().split("\n")) - 2


_TABLES = """
    return [...document.querySelectorAll('article table')].map(t => ({
        head: [...t.querySelectorAll('thead th')].map(th => th.textContent.trim()),
        rows: t.querySelectorAll('tbody tr').length,
        text: t.textContent}));"""


# ---- tests in the browser ----------------------------------------------------------------------
@needs_browser
def test_the_landing_page_links_every_game_page_the_api_reference_and_a_notebook(site, browser):
    open_landing_page(browser, site)
    assert browser.execute_script("return document.querySelector('article h1') !== null")
    missing = [page for page in [f"games/{g}.md" for g in GAMES] + ["api/index.md", "notebooks/01_quickstart.ipynb"]
               if not links_to(browser, page)]
    assert not missing, f"the landing page has no link to {missing}"


@needs_browser
@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_shows_its_picture_and_tables(site, browser, game):
    open_landing_page(browser, site)
    follow(browser, f"games/{game}.md")
    name = ether_envs.load_game(game).spec.title
    short = name.split(" (")[0]  # "Ethnos (1st edition)": the page may say just "Ethnos"
    title, h1 = browser.title, browser.execute_script("return document.querySelector('article h1').textContent")
    assert short in title and short in h1, f"the page's title {title!r} / heading {h1!r} do not name {name!r}"

    picture = f"/notebooks/images/{game}.png"
    state = wait(browser, f"""(() => {{
        const imgs = [...document.querySelectorAll('article img')]
            .filter(i => new URL(i.src).pathname.endsWith({picture!r}));
        if (!imgs.length) return {{found: false}};
        const i = imgs[0];
        return i.complete ? {{found: true, width: i.naturalWidth, shown: i.getClientRects().length > 0}} : null;
    }})()""", f"the picture {picture}")
    assert state["found"], f"the page has no <img> of {picture}"
    assert state["width"] > 0, f"the picture {picture} did not load (naturalWidth 0)"
    assert state["shown"], f"the picture {picture} is not displayed"

    tables = browser.execute_script(_TABLES)
    spec = ether_envs.load_game(game).spec
    headers = [t for t in tables if "PettingZoo id" in t["text"] and "Action space" in t["text"]]
    assert headers, "the page has no header table (with rows 'PettingZoo id' and 'Action space')"
    assert f"ether/{game}-v{spec.version}" in headers[0]["text"]
    generated = docs.generated(game)
    for kind in ("actions", "observation"):
        want = header_cells(generated[kind])
        matching = [t for t in tables if t["head"] == want]
        assert matching, f"the page has no {kind} table with the columns {want}; its tables' columns: " \
                         f"{[t['head'] for t in tables]}"
        assert matching[0]["rows"] == body_rows(generated[kind]), \
            f"the {kind} table has {matching[0]['rows']} rows, the generated one {body_rows(generated[kind])}"


@needs_browser
def test_the_api_reference_shows_rendered_docstrings(site, browser):
    open_landing_page(browser, site)
    follow(browser, "api/index.md")
    pages = sorted(p.stem for p in (ROOT / "docs" / "api").glob("*.md") if p.stem != "index")
    unlisted = [p for p in pages if not [link for link in links_to(browser, f"api/{p}.md") if link["in_content"]]]
    assert not unlisted, f"the API reference's index does not list the pages {unlisted}"
    follow(browser, "api/ether_envs.md")
    make = browser.execute_script("""
        const h = document.getElementById('ether_envs.make');
        if (h === null) return null;
        const sig = h.parentElement.querySelector('.doc-signature');
        return {doc: h.classList.contains('doc'), signature: sig ? sig.textContent.trim() : '',
                text: h.parentElement.textContent};""")
    assert make is not None, "the page has no element with id ether_envs.make"
    assert make["doc"], "#ether_envs.make is not a mkdocstrings object (class 'doc')"
    assert make["signature"].startswith("make(name: str"), make["signature"]
    assert "Raises:" in make["text"]


@needs_browser
def test_a_notebook_page_shows_its_committed_outputs(site, browser):
    open_landing_page(browser, site)
    follow(browser, "notebooks/01_quickstart.ipynb")
    wait(browser, "[...document.querySelectorAll('.jp-RenderedImage img')].every(i => i.complete)",
         "the output pictures")
    out = browser.execute_script("""return {
        images: [...document.querySelectorAll('.jp-RenderedImage img')].filter(i => i.naturalWidth > 0).length,
        texts: [...document.querySelectorAll('.jp-RenderedText')].filter(t => t.textContent.trim()).length};""")
    assert out["images"] >= 1, "the notebook page shows no output picture"
    assert out["texts"] >= 1, "the notebook page shows no output text"


# ---- the crawl, without the browser ------------------------------------------------------------
class _Links(html.parser.HTMLParser):
    """The URLs a page refers to: <a href>, <img src>, <link href>, <script src>."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        key = {"a": "href", "link": "href", "img": "src", "script": "src"}.get(tag)
        if key and attrs.get(key):
            self.urls.append(attrs[key])


def test_every_page_is_reachable_and_every_link_and_picture_answers(site):
    """From ``/``, following links: every page of the built site is reached, and every internal
    link, picture, stylesheet and script of every page (theme, notebooks, mkdocstrings included)
    answers 200. External links are not followed."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # 127.0.0.1, never a proxy
    host = urllib.parse.urlparse(site.url).netloc
    seen: dict[str, str] = {site.url: "(start)"}  # URL -> the first page that refers to it
    todo, broken, pages = [site.url], [], set()
    while todo:
        url = todo.pop()
        try:
            with opener.open(url, timeout=60) as r:
                kind = r.headers.get_content_type()
                body = r.read() if kind == "text/html" else b""
        except urllib.error.HTTPError as e:
            broken.append(f"{url} ({e.code}), linked from {seen[url]}")
            continue
        if kind != "text/html":
            continue
        path = urllib.parse.urlparse(url).path
        pages.add(path + "index.html" if path.endswith("/") else path)
        parser = _Links()
        parser.feed(body.decode("utf-8", "replace"))
        for ref in parser.urls:
            target = urllib.parse.urljoin(url, ref)
            parts = urllib.parse.urlparse(target)
            if parts.scheme not in ("http", "https") or parts.netloc != host:
                continue  # external, mailto:, data:, javascript:
            target = urllib.parse.urldefrag(target).url
            if target not in seen:
                seen[target] = url
                todo.append(target)
    built = {"/" + p.relative_to(site.folder).as_posix() for p in site.folder.rglob("*.html")} - {"/404.html"}
    print(f"crawled {len(pages)} pages, {len(seen)} URLs")
    problems = [f"{len(broken)} broken links or pictures:"] + sorted(broken) if broken else []
    if built - pages:
        problems += [f"{len(built - pages)} pages not reachable by links from /:"] + sorted(built - pages)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)
