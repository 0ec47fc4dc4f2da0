"""``ether-envs serve`` in a real browser: Debian's ``chromium`` driven by Selenium through
``chromium-driver`` (installed by ``make test`` / ``.ci/run``; these tests are skipped, with
the reason, where chromium, chromedriver or selenium is missing).

A whole game of each of the five games is played by clicking its move buttons, a long
replay is stepped and scrubbed to its end, and bad input (an unknown agent spec, a
malformed record, a move from a second tab that is out of date) shows its message in the
page. The page must fit a 1280 x 800 window. A person can read it (issue 27): the picture
zooms until its smallest text is 11 px and fills a 1920 x 1080 window, cards and moves say
what they do, the decision is named, hands read "1 Gray Giant", an Aetherspire space says
where it is, a message moves nothing, the new-game form has a control per option, the
replay's keys work after "View as", and a move is made by clicking its square on the board.

Run as a script, it redraws the screenshots of docs/playing.md, one per game::

    python tests/test_serve_browser.py    # notebooks/images/serve_<game>.png, serve_replay.png
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from webapp import app as S  # noqa: E402
import chromium_driver  # noqa: E402  (tests/ is on the path)
from chromium_driver import why_no_browser  # noqa: E402

try:
    from selenium.webdriver.common.by import By
except ImportError:  # the tests are skipped (WHY)
    By = None

WINDOW = (1280, 800)

# small configurations, so that a whole game takes few clicks (the person clicks the first
# move mostly, and now and then another one)
GAMES = [
    ("aethermon_collect", {"num_players": "2"}),
    ("ethnos", {"num_players": "2"}),
    ("etherium", {"num_players": "2"}),
    ("ether_wars", {"num_players": "2", "max_rounds": "1"}),
    ("aetherspire", {"num_players": "2"}),
]
SCREENSHOTS = [  # (game, config, clicks before the screenshot, opponents)
    ("aethermon_collect", {"num_players": "3"}, 4, "heuristic"),
    ("ethnos", {"num_players": "3"}, 30, "heuristic"),
    ("etherium", {"num_players": "3"}, 14, "heuristic"),
    ("ether_wars", {"num_players": "3"}, 12, "heuristic"),
    ("aetherspire", {"num_players": "3"}, 12, "heuristic"),
]


def _why_no_browser() -> str | None:
    why = why_no_browser()
    if why is not None:
        return why
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "the pictures need the render extra (matplotlib, pillow)"
    return None


WHY = _why_no_browser()
pytestmark = [pytest.mark.skipif(WHY is not None, reason=WHY or ""),
              pytest.mark.xdist_group("browser")]  # one browser for the module under -n


# ---- fixtures ----------------------------------------------------------------------------------
def start_server() -> S.Server:
    srv = S.Server("127.0.0.1", 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


def start_browser(profile: str):
    return chromium_driver.start_browser(profile, WINDOW)


@pytest.fixture(scope="module")
def server():
    srv = start_server()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser():
    with tempfile.TemporaryDirectory(prefix="ether-envs-chromium-") as profile:
        driver = start_browser(profile)
        try:
            yield driver
        finally:
            driver.quit()


# ---- helpers -----------------------------------------------------------------------------------
def wait(driver, condition, timeout: float = 300.0, what: str = "the page"):
    """Poll ``condition(driver)`` (a JavaScript expression when a str) until truthy (the
    timeout is long: on a busy 2-core machine a picture has taken a minute to draw)."""
    from selenium.webdriver.support.ui import WebDriverWait

    check = (lambda d: d.execute_script("return " + condition)) if isinstance(condition, str) else condition
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.02).until(check)
    except Exception as e:
        raise AssertionError(f"timed out waiting for {what}: {condition}; message: {message(driver)!r}") from e


def message(driver) -> str:
    return driver.execute_script("const b = document.getElementById('message-box') || document.getElementById('message'); "
                                 "return b.hidden ? '' : document.getElementById('message').textContent;")


def open_app(driver, server, hash_: str = "new") -> None:
    driver.get(server.url + "#" + hash_)
    wait(driver, "document.body.dataset.ready === 'true'", what="the page to load")


def start_game(driver, game: str, config: dict[str, str], seat: int = 0, opponents: str = "random",
               seed: int | None = 0) -> None:
    """Fill in the new-game form and click "Start the game" (``seed=None``: the seed
    field left empty, a secret deal)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "new-game")).select_by_value(game)
    for key, value in config.items():
        field = driver.find_element(By.ID, f"cfg-{key}")
        field.clear()
        field.send_keys(value)
    Select(driver.find_element(By.ID, "new-seat")).select_by_value(str(seat))
    for field_id, value in (("new-opponents", opponents), ("new-seed", "" if seed is None else str(seed))):
        field = driver.find_element(By.ID, field_id)
        if not field.is_enabled():  # no opponents in a solo game
            continue
        field.clear()
        field.send_keys(value)
    driver.find_element(By.ID, "new-start").click()


_PLAY_STATE = """
    const p = document.getElementById('play');
    return {shown: !p.hidden, id: p.dataset.id, version: p.dataset.version, over: p.dataset.over,
            busy: p.dataset.busy, moves: [...document.querySelectorAll('#moves button')].map(b => b.textContent)};"""


def play_state(driver) -> dict:
    """The play section's state: id, version, over, busy, and the move buttons' labels."""
    return driver.execute_script(_PLAY_STATE)


def wait_for_my_turn(driver, version=None) -> dict:
    """Wait until the page shows a position other than ``version`` where the person may
    move (or the game is over); returns :func:`play_state` (one round trip per poll)."""
    js = ("(() => { const p = document.getElementById('play');"
          " const ready = !p.hidden && p.dataset.busy === 'false' && p.dataset.version !== " + json.dumps(str(version)) +
          " && (p.dataset.over === 'true' || document.querySelectorAll('#moves button:not(:disabled)').length > 0);"
          " if (!ready) return null; return (() => {" + _PLAY_STATE + "})(); })()")
    return wait(driver, js, what="the person's turn")


def click_move(driver, index: int) -> None:
    """Click the ``index``-th move button (a real click, through chromedriver)."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, f"#moves button:nth-child({index + 1})").click()


def wait_for_picture(driver, img_id: str, timeout: float = 300.0) -> None:
    wait(driver, f"(() => {{ const i = document.getElementById('{img_id}'); return i.complete && "
                 f"i.naturalWidth > 0 && i.dataset.loaded === 'true' && i.getAttribute('src') === i.dataset.want; }})()",
         timeout, what=f"the picture #{img_id}")


def fits_the_window(driver) -> bool:
    return driver.execute_script("const e = document.documentElement; return e.scrollWidth <= innerWidth && "
                                 "e.scrollHeight <= innerHeight;")


def play_by_clicking(driver, rng, max_clicks: int | None = None) -> int:
    """Click moves until the game ends (or ``max_clicks``): the first move mostly, a random
    one every fourth decision. Returns the number of clicks."""
    st, clicks = wait_for_my_turn(driver), 0
    while st["over"] != "true" and (max_clicks is None or clicks < max_clicks):
        k = len(st["moves"])
        click_move(driver, int(rng.integers(k)) if clicks % 4 == 3 else 0)
        clicks += 1
        st = wait_for_my_turn(driver, st["version"])
    return clicks


# ---- tests -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game,config", GAMES, ids=[g for g, _ in GAMES])
def test_a_whole_game_played_by_clicking(server, browser, game, config):
    from selenium.webdriver.common.by import By

    open_app(browser, server)
    start_game(browser, game, config, seat=1, opponents="random", seed=3)
    st = wait_for_my_turn(browser)
    assert st["shown"] and not message(browser), message(browser)
    assert fits_the_window(browser), "the play page does not fit a 1280 x 800 window"
    clicks = play_by_clicking(browser, np.random.default_rng(0))
    assert clicks >= 2
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("The game is over: ") and "Returns: player_0 " in status
    session = server.app.game(st["id"])
    assert session.state.is_terminal() and status == "The game is over: " + session.state.end_reason() + \
        ". Returns: " + ", ".join(f"player_{p} {'+' if r >= 0 else ''}{r:g}" for p, r in enumerate(session.view()["returns"]))
    wait_for_picture(browser, "board")
    assert browser.find_element(By.ID, "board").get_attribute("src").endswith(f"v={session.version}")
    log = browser.find_elements(By.CSS_SELECTOR, "#log li")
    assert len(log) == len(session.log) and sum("you (player_1)" in li.text for li in log) == clicks
    assert browser.find_element(By.ID, "watch").is_displayed()
    assert not message(browser) and fits_the_window(browser)


def test_a_long_replay_is_stepped_and_scrubbed_to_its_end(server, browser, tmp_path):
    """The 900-decision Ethnos record: open it from a file, step, drag the slider, then to the end."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from ether_envs.records import save_record
    from ether_envs.rendering.__main__ import random_record

    path = save_record(random_record("ethnos", 4, num_players=4), tmp_path / "ethnos.json")
    open_app(browser, server, "open")
    browser.find_element(By.ID, "record-file").send_keys(str(path))
    t = time.perf_counter()
    browser.find_element(By.ID, "open-record").click()
    wait(browser, "document.getElementById('replay').dataset.shown === '0'", what="the replay to open")
    loaded = time.perf_counter() - t
    print(f"900-decision replay opened in the browser in {loaded:.2f} s")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#replay-moves li")) == 901
    browser.find_element(By.ID, "r-next").click()
    browser.find_element(By.ID, "r-next").click()
    wait(browser, "document.getElementById('replay').dataset.shown === '2'", what="position 2")
    assert browser.find_element(By.ID, "position").text.startswith("position 2 of 900, after move 2: player_")
    slider = browser.find_element(By.ID, "slider")
    ActionChains(browser).click_and_hold(slider).move_by_offset(-slider.size["width"] // 2 + 5, 0) \
        .move_by_offset(slider.size["width"] // 3, 0).move_by_offset(slider.size["width"] // 3, 0).release().perform()
    scrubbed = int(browser.find_element(By.ID, "replay").get_attribute("data-pos"))
    assert 450 < scrubbed < 900
    slider.send_keys(Keys.END)
    wait(browser, "document.getElementById('replay').dataset.shown === '900'", what="the last position")
    wait_for_picture(browser, "frame")
    assert browser.find_element(By.ID, "frame").get_attribute("src").endswith("/frame/900.png")
    assert browser.find_element(By.ID, "position").text.startswith("position 900 of 900, after move 900")
    assert "the game ended: player_" in browser.execute_script("return document.getElementById('replay-text').textContent")
    assert fits_the_window(browser)
    Select(browser.find_element(By.ID, "r-view")).select_by_value("player_1")
    wait(browser, "document.getElementById('replay-private-title').textContent === 'Private information of player_1'",
         what="the view of player_1")
    assert "you are player_1; your hand:" in browser.find_element(By.ID, "replay-private").text
    assert not message(browser)


def test_bad_input_is_shown_in_the_page(server, browser, tmp_path):
    from selenium.webdriver.common.by import By

    open_app(browser, server)
    start_game(browser, "ethnos", {"num_players": "2"}, opponents="grandmaster")
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 400: agent spec 'grandmaster' for player_1: unknown agent kind")

    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "ethnos", "seed": 0}')
    open_app(browser, server, "open")
    browser.find_element(By.ID, "record-file").send_keys(str(bad))
    browser.find_element(By.ID, "open-record").click()
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 400: not a game record: missing keys ['actions', 'config', ")

    open_app(browser, server, "play/0123456789ab")  # a game this server does not have
    wait(browser, lambda d: message(d).startswith("Error 404"), what="the error message")
    assert message(browser).startswith("Error 404: no game with id '0123456789ab' on this server")
    assert browser.find_element(By.ID, "new-start").is_displayed()


def test_a_second_tab_is_told_its_page_is_out_of_date(server, browser):
    from selenium.webdriver.common.by import By

    open_app(browser, server)
    start_game(browser, "aethermon_collect", {"num_players": "2"}, seat=0)
    first = wait_for_my_turn(browser)
    tab1 = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        open_app(browser, server, f"play/{first['id']}")
        assert wait_for_my_turn(browser)["version"] == first["version"]
        click_move(browser, 0)
        moved = wait_for_my_turn(browser, first["version"])
    finally:
        browser.close()
        browser.switch_to.window(tab1)
    click_move(browser, len(first["moves"]) - 1)  # from the old position
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 409: this page is out of date")
    now = wait_for_my_turn(browser, first["version"])  # the page shows the current position
    assert now["version"] == moved["version"] == str(server.app.game(first["id"]).version)
    assert browser.find_element(By.ID, "log").text.count("you (player_0)") == 1


# ---- a page a person can read (issue 27, items 5 and 10-14) --------------------------------------
def smallest_text_px(game: str) -> float:
    """Height in pixels of the natural picture of the smallest text ``game``'s drawing code asks
    for: the least ``size=`` (points) in ``ether_envs/rendering/<game>.py`` and the Canvas
    helpers of ``ether_envs/rendering/__init__.py``, times DPI / 72."""
    from ether_envs import rendering

    rendering_dir = ROOT / "ether_envs" / "rendering"
    text = (rendering_dir / f"{game}.py").read_text() + (rendering_dir / "__init__.py").read_text()
    return min(float(x) for x in re.findall(r"\bsize=([0-9]+(?:\.[0-9]+)?)\b", text)) * rendering.DPI / 72


_PICTURE = """
    const i = document.getElementById(arguments[0]), v = i.parentElement, r = i.getBoundingClientRect(),
          q = v.getBoundingClientRect();
    return {w: r.width, h: r.height, nw: i.naturalWidth, nh: i.naturalHeight, vw: v.clientWidth, vh: v.clientHeight,
            vleft: q.left, vtop: q.top, vbottom: q.bottom, sw: v.scrollWidth, sh: v.scrollHeight};"""


def picture_geometry(driver, img_id: str = "board") -> dict:
    """The picture's rendered and natural size and its pane (``vw``, ``vh``: the pane's inner size)."""
    return driver.execute_script(_PICTURE, img_id)


@pytest.fixture
def window_1920(browser):
    """The browser window at 1920 x 1080 for one test (then back to 1280 x 800)."""
    browser.set_window_size(1920, 1080)
    try:
        yield browser
    finally:
        browser.set_window_size(*WINDOW)


@pytest.mark.parametrize("game", [g for g, _ in GAMES])
def test_the_picture_zooms_until_its_smallest_text_is_11_px(server, browser, game):
    """Item 10: at 1280 x 800 the picture fits its pane (as large as the pane allows); a click on it
    zooms to where the smallest text the drawing code uses is at least 11 px high, the picture
    scrolled in its pane (the page still fits the window); a second click fits it again."""
    open_app(browser, server)
    start_game(browser, game, {"num_players": "2"}, seat=0, seed=5)
    wait_for_my_turn(browser)
    wait_for_picture(browser, "board")
    fit = picture_geometry(browser)
    scale = fit["h"] / fit["nh"]
    assert fit["w"] <= fit["vw"] + 1 and fit["h"] <= fit["vh"] + 1, fit
    assert max(fit["w"] / fit["vw"], fit["h"] / fit["vh"]) > 0.97, f"the picture does not use its pane: {fit}"
    px = smallest_text_px(game)
    assert scale * px < 11, "the fitted picture is readable already: this test no longer tests the zoom"
    browser.find_element(By.ID, "board").click()
    zoomed = picture_geometry(browser)
    assert zoomed["h"] / zoomed["nh"] * px >= 11, f"{game}: smallest text {px:.2f} px x {zoomed['h'] / zoomed['nh']:.3f}"
    assert abs(zoomed["w"] / zoomed["nw"] - zoomed["h"] / zoomed["nh"]) < 0.01  # not distorted
    assert zoomed["sw"] > zoomed["vw"] or zoomed["sh"] > zoomed["vh"]  # scrolled in its pane
    assert fits_the_window(browser)
    browser.find_element(By.ID, "board").click()
    assert picture_geometry(browser)["h"] == fit["h"]
    browser.find_element(By.XPATH, "//div[@id='board-tools']/button[text()='Readable']").click()
    assert picture_geometry(browser)["h"] / fit["nh"] * px >= 11


def test_the_picture_grows_with_a_1920_window(server, window_1920):
    """Item 10: at 1920 x 1080 the fitted picture fills its pane, larger than its natural size."""
    browser = window_1920
    open_app(browser, server)
    start_game(browser, "aethermon_collect", {"num_players": "2"}, seat=0, seed=5)
    wait_for_my_turn(browser)
    wait_for_picture(browser, "board")
    g = picture_geometry(browser)
    assert g["w"] > g["nw"] and g["h"] > g["nh"], g
    assert max(g["w"] / g["vw"], g["h"] / g["vh"]) > 0.97, g
    assert fits_the_window(browser)


def test_the_view_as_menu_gives_the_keys_back_to_the_replay(server, browser, tmp_path):
    """Item 5: after choosing in "View as", Home and the arrows step the replay, not the menu."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    from ether_envs.records import record_episode, save_record

    rng = np.random.default_rng(1)
    rec = record_episode("ether_wars", lambda s: s.legal_actions()[rng.integers(len(s.legal_actions()))],
                         seed=4, num_players=2, max_rounds=1)
    n = len(rec.actions)
    open_app(browser, server, "open")
    browser.find_element(By.ID, "record-file").send_keys(str(save_record(rec, tmp_path / "r.json")))
    browser.find_element(By.ID, "open-record").click()
    wait(browser, "document.getElementById('replay').dataset.shown === '0'", what="the replay to open")
    browser.find_element(By.ID, "r-last").click()
    Select(browser.find_element(By.ID, "r-view")).select_by_value("player_1")
    wait(browser, "document.getElementById('replay-private-title').textContent === 'Private information of player_1'",
         what="the view of player_1")
    for key, pos in [(Keys.ARROW_LEFT, n - 1), (Keys.HOME, 0), (Keys.ARROW_RIGHT, 1), (Keys.END, n)]:
        ActionChains(browser).send_keys(key).perform()
        assert browser.find_element(By.ID, "replay").get_attribute("data-pos") == str(pos), key
        assert Select(browser.find_element(By.ID, "r-view")).first_selected_option.get_attribute("value") == "player_1"
    wait(browser, f"document.getElementById('replay').dataset.shown === '{n}'", what="the last position")
    assert browser.find_element(By.ID, "r-view").get_attribute("value") == "player_1"


def click_until(driver, want, prefer: tuple[str, ...] = (), max_clicks: int = 40) -> dict:
    """Click moves until ``want(moves)`` holds (the labels of the move buttons): the first move
    whose label starts with one of ``prefer``, else the first one."""
    st = wait_for_my_turn(driver)
    for _ in range(max_clicks):
        if st["over"] != "true" and want(st["moves"]):
            return st
        assert st["over"] != "true", "the game ended first"
        click_move(driver, next((k for k, m in enumerate(st["moves"]) if m.startswith(prefer)), 0) if prefer else 0)
        st = wait_for_my_turn(driver, st["version"])
    raise AssertionError(f"no such moves in {max_clicks} clicks; the last: {st['moves']}")


def test_cards_moves_and_the_decision_are_explained(server, browser):
    """Item 11: each Favour and ability card the person holds or may play says what it does (a
    note under the private information, a move's title), the decision is named above the moves,
    and an Ethnos hand reads "1 Red Centaur, 2 Gray Giants"."""
    from ether_envs.ether_wars import components as EW
    from webapp import explain

    open_app(browser, server)
    start_game(browser, "ether_wars", {"num_players": "2"}, seat=0, seed=3)
    st = click_until(browser, lambda moves: any(m.startswith(("ABILITY(", "PLAY_FAVOUR(")) for m in moves))
    session = server.app.game(st["id"])
    assert browser.find_element(By.ID, "decision").text == "You decide: " + explain.decision(session.state)
    private = browser.find_element(By.ID, "private").text
    notes = browser.find_element(By.ID, "notes").text
    held = [f for f in EW.FAVOURS if f.name in private]
    assert held, private
    for f in held:
        assert f"{f.name}: " in notes and f.text in notes, (f.name, notes)
    for b in browser.find_elements(By.CSS_SELECTOR, "#moves button"):
        title = b.get_attribute("title")
        assert title, f"the move {b.text} says nothing of what it does"
        for card in [*EW.FAVOURS, *EW.ABILITIES]:
            if f"({card.name}" in b.text:
                assert card.text in title, (b.text, title)

    open_app(browser, server)
    start_game(browser, "ethnos", {"num_players": "2"}, seat=0, seed=3)
    st = wait_for_my_turn(browser)
    private = browser.find_element(By.ID, "private").text
    hand = re.search(r"your hand: (.*)", private).group(1)
    assert re.fullmatch(r"\d+ (Blue|Gray|Green|Orange|Purple|Red) \w+(, \d+ (Blue|Gray|Green|Orange|Purple|Red) \w+)*",
                        hand), hand
    assert browser.find_element(By.ID, "decision").text == "You decide: recruit an Ally or play a band"
    assert "Leader power" in browser.find_element(By.ID, "notes").text
    st = click_until(browser, lambda moves: any(m.startswith("TAKE_FACE_UP(") for m in moves), ("RECRUIT_FACE_UP",))
    label = next(m for m in st["moves"] if m.startswith("TAKE_FACE_UP("))
    assert re.fullmatch(r"TAKE_FACE_UP\((Blue|Gray|Green|Orange|Purple|Red) \w+\)|TAKE_FACE_UP\(Skeleton\)", label), label


def test_aetherspire_space_moves_say_where_the_space_is(server, browser):
    """Item 12: a SPACE move names its tile and the number the picture writes under the space's
    square (tests/rendering/test_space_numbers.py), then the floor's level and foundation."""
    open_app(browser, server)
    start_game(browser, "aetherspire", {"num_players": "2"}, seat=0, seed=2)
    st = click_until(browser, lambda moves: any(m.startswith("SPACE(") for m in moves))
    spaces = [m for m in st["moves"] if m.startswith("SPACE(")]
    for m in spaces:
        assert re.fullmatch(r"SPACE\(tile #\d+, space [0-7]: [^:]+, L\d (on|above) foundation [0-2]\)", m), m


_TARGETS = """
    const r = document.getElementById('board').getBoundingClientRect(), box = document.getElementById('board-targets');
    return box.hidden ? [] : [...box.querySelectorAll('button')].map((b) => {
      const q = b.getBoundingClientRect(), s = getComputedStyle(b);
      return {action: +b.dataset.action, label: b.getAttribute('aria-label'), title: b.title, x: q.left - r.left,
              y: q.top - r.top, w: q.width, h: q.height, border: s.borderTopStyle + ' ' + s.borderTopWidth};
    });"""


def shown_targets(driver) -> list[dict]:
    """The outlined boxes over the board: action, label, title and place relative to the picture."""
    return driver.execute_script(_TARGETS)


def test_a_move_is_made_by_clicking_its_square_on_the_board(server, browser):
    """Item 15: the squares the Group Token may move to are outlined over the picture, where the
    picture draws them (fitted and zoomed), each named by its move's label; a click on one makes
    that move as its button does (the log shows it)."""
    open_app(browser, server)
    start_game(browser, "aethermon_collect", {"num_players": "2"}, seat=0, seed=3)
    st = click_until(browser, lambda moves: any(m.startswith("MOVE(") for m in moves))
    wait_for_picture(browser, "board")
    boxes = wait(browser, lambda d: shown_targets(d) or None, what="the outlined squares")
    session = server.app.game(st["id"])
    view = session.view()
    targets = {t["action"]: t for t in view["targets"]}
    labels = {m["action"]: m["label"] for m in view["moves"]}
    assert sorted(b["action"] for b in boxes) == sorted(targets) and targets
    assert all(labels[a].startswith("MOVE(") for a in targets)
    for zoom in ("fit", "+"):
        if zoom == "+":
            browser.find_element(By.XPATH, "//div[@id='board-tools']/button[text()='+']").click()
            boxes = shown_targets(browser)
        g = picture_geometry(browser)
        scale = g["w"] / g["nw"]
        for b in boxes:
            t = targets[b["action"]]
            assert b["label"] == labels[b["action"]] and b["title"].startswith(b["label"])
            assert b["border"] == "solid 2px", b  # outlined
            for k in ("x", "y", "w", "h"):
                assert abs(b[k] - t[k] * scale) < 1.5, (zoom, k, b, t, scale)
    browser.find_element(By.XPATH, "//div[@id='board-tools']/button[text()='Fit']").click()
    chosen = boxes[-1]["action"]
    version = int(st["version"])
    browser.find_element(By.CSS_SELECTOR, f"#board-targets button[data-action='{chosen}']").click()
    wait_for_my_turn(browser, st["version"])
    assert session.state.history[version] == chosen
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert f"{version + 1}. you (player_0): {labels[chosen]}" in log, (labels[chosen], log[-3:])
    assert not message(browser)


def test_an_error_message_moves_nothing_on_the_page(server, browser):
    """Item 13: a message floats over the page: the board keeps its place and size, the page fits."""
    open_app(browser, server)
    start_game(browser, "etherium", {"num_players": "2"}, seat=0, seed=1)
    st = wait_for_my_turn(browser)
    wait_for_picture(browser, "board")
    before = picture_geometry(browser)
    browser.execute_script("move(-1)")  # an illegal move: 400, and the page reloads the game
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 400: ")
    wait_for_my_turn(browser, None)
    after = picture_geometry(browser)
    assert (after["vtop"], after["vbottom"], after["h"]) == (before["vtop"], before["vbottom"], before["h"])
    assert fits_the_window(browser)
    browser.find_element(By.ID, "message-close").click()
    assert not message(browser)
    assert play_state(browser)["version"] == st["version"]


def option_control(driver, name: str) -> dict:
    return driver.execute_script("""
        const c = document.getElementById('cfg-' + arguments[0]), cell = c.parentElement, h = cell.querySelector('.help');
        return {tag: c.tagName, type: c.type || null, min: c.getAttribute('min'), max: c.getAttribute('max'),
                checked: c.checked === undefined ? null : c.checked, value: c.value === undefined ? null : c.value,
                options: c.tagName === 'SELECT' ? [...c.options].map(o => o.value) : null,
                boxes: [...c.querySelectorAll('input[type=checkbox]')].map(i => i.value),
                seats: c.dataset.perSeat ? c.querySelectorAll('select').length : null,
                help: h ? h.textContent : ''};""", name)


def test_the_new_game_form_has_a_control_that_fits_each_option(server, browser):
    """Item 14: a number (with its range) per int option, a checkbox per bool, a choice list per
    enumerated str, checkboxes or one choice per seat for a list; each with its line of the
    Config docstring; raw JSON only in the advanced field. Item 9: the form says the caps."""
    from selenium.webdriver.support.ui import Select

    import ether_envs
    from webapp import explain, specs

    browser.get("about:blank")
    open_app(browser, server)
    caps = browser.find_element(By.ID, "caps-help").text
    assert all(f"{kind} {cap}" in caps for kind, cap in specs.SEARCH_CAPS.items()), caps
    for name in ether_envs.list_games():
        Select(browser.find_element(By.ID, "new-game")).select_by_value(name)
        for o in explain.config_options(ether_envs.load_game(name)):
            c = option_control(browser, o["name"])
            doc = re.sub(r"^\d+\s*\.\.\s*\d+\s*\.?\s*", "", o["help"])
            assert o["help"] and doc in c["help"], (name, o["name"], c["help"])
            if o["kind"] == "int":
                assert c["type"] == "number" and c["value"] == ("" if o["default"] is None else str(o["default"]))
                assert (c["min"], c["max"]) == tuple(None if v is None else str(v) for v in (o["min"], o["max"]))
            elif o["kind"] == "bool" and not o["nullable"]:
                assert c["type"] == "checkbox" and c["checked"] == o["default"]
            elif o["kind"] in ("bool", "choice"):
                values = [True, False] if o["kind"] == "bool" else o["choices"]
                assert c["tag"] == "SELECT" and c["options"] == [""] * o["nullable"] + [json.dumps(v) for v in values]
            elif o["kind"] == "list":
                assert o["choices"], o
                assert c["boxes"] == o["choices"] or c["seats"] == int(
                    browser.execute_script("return document.getElementById('new-seat').options.length")), (o, c)
            else:
                raise AssertionError(f"{name}.{o['name']}: a text field ({o['kind']})")
    # the controls make the configuration; the advanced JSON replaces an option
    Select(browser.find_element(By.ID, "new-game")).select_by_value("aethermon_collect")
    browser.find_element(By.ID, "cfg-hidden_artefacts").click()
    Select(browser.find_element(By.ID, "cfg-artefacts")).select_by_value('"triples"')
    browser.find_element(By.CSS_SELECTOR, "#cfg-artefact_pool input[value=net]").click()
    start_game(browser, "aethermon_collect", {"num_players": "3"}, seat=0, opponents="random")
    st = wait_for_my_turn(browser)
    cfg = server.app.game(st["id"]).game.config
    assert (cfg.num_players, cfg.hidden_artefacts, cfg.artefacts) == (3, True, "triples") and "net" not in cfg.artefact_pool
    open_app(browser, server)
    Select(browser.find_element(By.ID, "new-game")).select_by_value("ether_wars")
    browser.execute_script("document.getElementById('advanced').open = true")
    browser.find_element(By.ID, "cfg-json").send_keys('{"max_rounds": 2, "favours": "advanced"}')
    start_game(browser, "ether_wars", {}, seat=1)
    st = wait_for_my_turn(browser)
    cfg = server.app.game(st["id"]).game.config
    assert (cfg.max_rounds, cfg.favours) == (2, "advanced")
    open_app(browser, server)
    Select(browser.find_element(By.ID, "new-game")).select_by_value("ether_wars")
    browser.execute_script("document.getElementById('advanced').open = true")
    browser.find_element(By.ID, "cfg-json").send_keys('{"max_rounds": 2')
    browser.find_element(By.ID, "new-start").click()
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 400: the advanced configuration is not JSON")


def test_a_solo_game_and_a_seed_above_2_53_from_the_page(server, browser):
    """Items 1 and 2: a 1-player Aetherspire game starts from the form (no opponents asked), and
    a seed above 2**53 is shown and named exactly."""
    open_app(browser, server)
    start_game(browser, "aetherspire", {"num_players": "1"}, seat=0, opponents="", seed=9007199254740993)
    st = wait_for_my_turn(browser)
    assert not message(browser), message(browser)
    assert "seed 9007199254740993: you are player_0" in browser.find_element(By.ID, "play-title").text
    assert server.app.game(st["id"]).seed == 9007199254740993
    assert browser.find_element(By.ID, "record-link").get_attribute("download") == \
        "aetherspire_seed9007199254740993.json"


# ---- screenshots (python tests/test_serve_browser.py) ---------------------------------------------
def write_screenshots(out: Path = ROOT / "notebooks" / "images") -> list[Path]:
    """One screenshot of the page per game, mid-game (``serve_<game>.png``), and one of a
    replay (``serve_replay.png``), in a 1280 x 800 window."""
    if WHY:
        raise SystemExit(f"cannot take screenshots: {WHY}")
    out.mkdir(parents=True, exist_ok=True)
    srv = start_server()
    written = []
    with tempfile.TemporaryDirectory(prefix="ether-envs-chromium-") as profile:
        driver = start_browser(profile)
        try:
            for game, config, clicks, opponents in SCREENSHOTS:
                open_app(driver, srv)
                start_game(driver, game, config, seat=0, opponents=opponents, seed=1)
                play_by_clicking(driver, np.random.default_rng(1), max_clicks=clicks)
                wait_for_picture(driver, "board", timeout=300)
                path = out / f"serve_{game}.png"
                driver.save_screenshot(str(path))
                written.append(path)
                print(path)
            # and the replay page: the 900-decision Ethnos record halfway, as player_0 saw it
            from selenium.webdriver.common.by import By
            from selenium.webdriver.support.ui import Select

            from ether_envs.records import save_record
            from ether_envs.rendering.__main__ import random_record

            with tempfile.TemporaryDirectory() as tmp:
                record = save_record(random_record("ethnos", 4, num_players=4), Path(tmp) / "ethnos.json")
                open_app(driver, srv, "open")
                driver.find_element(By.ID, "record-file").send_keys(str(record))
                driver.find_element(By.ID, "open-record").click()
                wait(driver, "document.getElementById('replay').dataset.shown === '0'", what="the replay")
            Select(driver.find_element(By.ID, "r-view")).select_by_value("player_0")
            driver.execute_script("goTo(450)")
            wait(driver, "document.getElementById('replay').dataset.shown === '450'", what="position 450")
            wait_for_picture(driver, "frame", timeout=300)
            path = out / "serve_replay.png"
            driver.save_screenshot(str(path))
            written.append(path)
            print(path)
        finally:
            driver.quit()
            srv.shutdown()
            srv.server_close()
    return written


if __name__ == "__main__":
    write_screenshots()


def test_a_secret_deal_by_default_and_the_team_mates_label(server, browser):
    """The seed field starts empty: the deal's seed is secret (not in the page); Aetherspire
    (co-operative) asks for team-mates' agents."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get("about:blank")  # a fresh page: the form as first shown
    open_app(browser, server)
    assert browser.find_element(By.ID, "new-seed").get_attribute("value") == ""
    assert browser.find_element(By.CSS_SELECTOR, "label[for=new-seed]").text == "Seed (leave empty for a secret deal)"
    Select(browser.find_element(By.ID, "new-game")).select_by_value("aetherspire")
    assert browser.find_element(By.ID, "new-opponents-label").text == "Team-mates' agents (agent spec)"
    Select(browser.find_element(By.ID, "new-game")).select_by_value("ethnos")
    assert browser.find_element(By.ID, "new-opponents-label").text == "Opponents (agent spec)"
    start_game(browser, "aethermon_collect", {"num_players": "2"}, seat=0, seed=None)
    st = wait_for_my_turn(browser)
    title = browser.find_element(By.ID, "play-title").text
    secret = server.app.game(st["id"]).seed
    assert "a secret deal: you are player_0" in title and str(secret) not in browser.page_source
    one = browser.execute_script("showGame(Object.assign({}, game, {moves: game.moves.slice(0, 1)}));"
                                 "return document.getElementById('status').textContent;")
    assert one == "Your move: your only legal move is below."


def test_the_replay_answers_the_keys_named_beside_its_buttons(server, browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    from ether_envs.records import record_episode, save_record

    rng = np.random.default_rng(0)
    rec = record_episode("ether_wars", lambda s: s.legal_actions()[rng.integers(len(s.legal_actions()))],
                         seed=2, num_players=2, max_rounds=1)
    n = len(rec.actions)
    open_app(browser, server, "open")
    browser.find_element(By.ID, "record-file").send_keys(str(save_record(rec, tmp_path / "r.json")))
    browser.find_element(By.ID, "open-record").click()
    wait(browser, "document.getElementById('replay').dataset.shown === '0'", what="the replay to open")
    assert browser.find_element(By.ID, "r-keys").text == "keys: Home, \u2190, space (play/pause), \u2192, End"
    browser.execute_script("document.activeElement.blur()")
    for key, pos in [(Keys.END, n), (Keys.ARROW_LEFT, n - 1), (Keys.HOME, 0), (Keys.ARROW_RIGHT, 1)]:
        ActionChains(browser).send_keys(key).perform()
        assert browser.find_element(By.ID, "replay").get_attribute("data-pos") == str(pos), key
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert browser.find_element(By.ID, "r-play").text == "Pause"
    ActionChains(browser).send_keys(Keys.SPACE).perform()
    assert browser.find_element(By.ID, "r-play").text == "Play"


def test_a_num_players_that_is_not_json_shows_the_servers_message_and_1_player_is_singular(server, browser):
    """Aetherspire with Players = 1 and the advanced JSON {"num_players": "x"}: Start did
    nothing (an uncaught SyntaxError in the page); now the server's message is shown. A
    1-player game's title says "1 player", not "1 players"."""
    from selenium.webdriver.support.ui import Select

    open_app(browser, server)
    Select(browser.find_element(By.ID, "new-game")).select_by_value("aetherspire")
    field = browser.find_element(By.ID, "cfg-num_players")
    field.clear()
    field.send_keys("1")
    browser.execute_script("document.getElementById('advanced').open = true")
    browser.find_element(By.ID, "cfg-json").send_keys('{"num_players": "x"}')
    browser.find_element(By.ID, "new-start").click()
    wait(browser, lambda d: message(d), what="the error message")
    assert message(browser).startswith("Error 400: ") and "num_players" in message(browser), message(browser)
    browser.find_element(By.ID, "cfg-json").clear()
    start_game(browser, "aetherspire", {"num_players": "1"}, seat=0, opponents="", seed=3)
    wait_for_my_turn(browser)
    assert "Aetherspire, 1 player, seed 3" in browser.find_element(By.ID, "play-title").text
