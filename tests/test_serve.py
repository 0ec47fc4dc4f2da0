"""``ether-envs serve`` at the HTTP level (the browser app, ``webapp/``: Starlette on
uvicorn), with the standard library's client against a server on a free port.

The person is sent only what their seat may see: at their decisions, the other seats'
secrets are redrawn (``resample_hidden``) and every answer (the view, the picture) must
stay byte-identical. Bad input gets a clear message and an HTTP error status, and leaves
the game as it was. The browser tests are in ``test_serve_browser.py``.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import numpy as np
import pytest

import ether_envs
from ether_envs import rendering
from ether_envs.records import record_episode
from training import cli
from webapp import app as S
from webapp import cli as serve_cli
from webapp import sessions, specs, views

pytest.importorskip("matplotlib")
pytest.importorskip("uvicorn")

SECRET_CONFIGS = [  # one configuration per game with the most secrets of its conformance configs
    ("aethermon_collect", {"num_players": 3, "artefacts": "triples", "hidden_artefacts": True,
                           "redistribute_artefacts": True}),
    ("ethnos", {"num_players": 3}),
    ("etherium", {"num_players": 3}),
    ("ether_wars", {"num_players": 3, "favours": "advanced", "max_rounds": 1}),
    ("aetherspire", {"num_players": 2, "difficulty": 4}),
]


@pytest.fixture(scope="module")
def server():
    srv = S.Server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def call(server, method: str, path: str, body=None) -> tuple[int, bytes]:
    """``(status, body bytes)`` of one request (JSON-encoded ``body`` unless bytes)."""
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    req = urllib.request.Request(server.url.rstrip("/") + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def ok(server, method, path, body=None, status=200) -> dict:
    code, data = call(server, method, path, body)
    assert code == status, data
    return json.loads(data)


def error(server, method, path, body=None) -> tuple[int, str]:
    """``(status, message)`` of a refused request."""
    code, data = call(server, method, path, body)
    assert code >= 400, data[:300]
    return code, json.loads(data)["error"]


def new_game(server, game, config, seat=1, opponents="random", seed=0) -> dict:
    form = {"game": game, "config": {k: json.dumps(v) if not isinstance(v, str) else v for k, v in config.items()},
            "seat": seat, "opponents": opponents, "seed": seed}
    return ok(server, "POST", "/api/play", form, status=201)


# ---- the page ------------------------------------------------------------------------------
def test_page_and_catalogue(server):
    code, page = call(server, "GET", "/")
    assert code == 200 and b"Start the game" in page and b"Open the replay" in page
    assert b"http://" not in page and b"https://" not in page  # nothing fetched from the network
    games = ok(server, "GET", "/api/games")["games"]
    assert [g["name"] for g in games] == ether_envs.list_games()
    ethnos = next(g for g in games if g["name"] == "ethnos")
    assert {"name": "num_players", "default": "4"} in ethnos["fields"]
    assert {"name": "tribes", "default": "null"} in ethnos["fields"]


def test_cli_has_serve():
    args = cli.build_parser().parse_args(["serve", "--port", "0"])
    assert args.port == 0 and args.host == "127.0.0.1" and args.func is serve_cli.run_from_args


# ---- hidden information ------------------------------------------------------------------------
@pytest.mark.parametrize("game,config", SECRET_CONFIGS, ids=[g for g, _ in SECRET_CONFIGS])
def test_every_answer_to_the_person_is_the_same_whatever_the_others_hold(server, game, config):
    """A whole game through HTTP; at each of the person's decisions the others' secrets are
    redrawn and the view must be byte-identical (the picture too, at one decision mid-game)."""
    seat = 1
    rng = np.random.default_rng(3)
    v = new_game(server, game, config, seat=seat)
    session = server.app.game(v["id"])
    path = f"/api/play/{v['id']}"
    decisions, pictures = 0, 0
    while True:
        view = call(server, "GET", path)
        with_picture = decisions == 4 or (v["over"] and pictures == 0)
        picture = call(server, "GET", v["board"]) if with_picture else None
        real = session.state
        try:
            for _ in range(2 if not with_picture else 1):
                with session.lock:
                    session.state = real.resample_hidden(seat, rng)
                assert call(server, "GET", path) == view, f"{game}: the view changed with the others' secrets"
                if with_picture:
                    assert call(server, "GET", v["board"]) == picture, f"{game}: the picture changed"
                    pictures += 1
        finally:
            with session.lock:
                session.state = real
        assert view[0] == 200 and (picture is None or picture[0] == 200)
        if v["over"]:
            break
        decisions += 1
        assert v["your_turn"] and v["moves"]
        choice = v["moves"][rng.integers(len(v["moves"]))]
        v = ok(server, "POST", f"{path}/move", {"version": v["version"], "action": choice["action"]})
    assert pictures >= 1 and decisions > 3
    assert v["end_reason"] and len(v["returns"]) == config["num_players"]
    assert all(e["who"].startswith(("you (player_1)", "player_")) for e in v["log"])
    rec = json.loads(call(server, "GET", f"{path}/record.json")[1])
    assert rec["players"][seat] == "human" and len(rec["actions"]) == v["version"]
    assert ether_envs.replay(rec).history == session.state.history


@pytest.mark.parametrize("game,config", [SECRET_CONFIGS[0], SECRET_CONFIGS[-1]], ids=["aethermon_collect", "aetherspire"])
def test_the_board_targets_are_legal_moves_and_the_same_whatever_the_others_hold(server, game, config):
    """Item 15: the view's ``targets`` (where a click on the picture makes a move) are boxes of
    legal moves inside the picture, none when it is not the person's turn, and they do not change
    when the others' secrets are redrawn."""
    seat, rng = 1, np.random.default_rng(1)
    v = new_game(server, game, config, seat=seat)
    session = server.app.game(v["id"])
    path = f"/api/play/{v['id']}"
    w, h = rendering.picture_size(game)
    with_targets = 0
    while not v["over"] and with_targets < 4:
        targets = v["targets"]
        assert v["your_turn"] or not targets
        assert {t["action"] for t in targets} <= {m["action"] for m in v["moves"]}
        assert all(0 <= t["x"] <= t["x"] + t["w"] <= w and 0 <= t["y"] <= t["y"] + t["h"] <= h for t in targets)
        if targets:
            with_targets += 1
            real = session.state
            try:
                for _ in range(2):
                    with session.lock:
                        session.state = real.resample_hidden(seat, rng)
                    assert ok(server, "GET", path)["targets"] == targets, f"{game}: the targets changed"
            finally:
                with session.lock:
                    session.state = real
        choice = v["moves"][rng.integers(len(v["moves"]))]
        v = ok(server, "POST", f"{path}/move", {"version": v["version"], "action": choice["action"]})
    assert with_targets >= 2


def test_secret_moves_of_the_others_are_redacted(server):
    """Etherium: the others' PROGRAM moves are shown as hidden Action tokens."""
    v = new_game(server, "etherium", {"num_players": 2}, seat=1)
    for _ in range(3):
        if v["over"]:
            break
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    theirs = [e["move"] for e in v["log"] if e["player"] == 0 and e["move"].startswith("PROGRAM")]
    mine = [e["move"] for e in v["log"] if e["player"] == 1 and e["move"].startswith("PROGRAM")]
    assert theirs and set(theirs) == {"PROGRAM(hidden Action token)"}
    assert mine and "hidden" not in mine[0]
    assert "your program: 1: " in v["private"]


# ---- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize("form,status,message", [
    ({"game": "chess"}, 400, "unknown game 'chess'; the games are aethermon_collect, ethnos"),
    ({"game": "ethnos", "config": {"num_players": "9"}}, 400, "bad configuration for ethnos: ethnos config: num_players must be 2..6"),
    ({"game": "ethnos", "config": {"colour": "red"}}, 400, "bad configuration for ethnos"),
    ({"game": "ethnos", "seat": 4}, 400, "your seat must be 0..3 for 4 players, got 4"),
    ({"game": "ethnos", "seat": "first"}, 400, "seat must be a whole number, got 'first'"),
    ({"game": "ethnos", "seed": -1}, 400, "the seed must be a whole number 0..2**63-1 (or empty for a secret deal), got -1"),
    ({"game": "ethnos", "seed": "9" * 5000}, 400, "the seed must be a whole number 0..2**63-1"),
    ({"game": "ethnos", "seed": 2**63}, 400, f"the seed must be a whole number 0..2**63-1 (or empty for a secret deal), got {2**63}"),
    ({"game": "ethnos", "seat": "1" * 5000}, 400, "seat must be a whole number, got '1111"),
    ({"game": "ethnos", "opponents": "ppo:/etc"}, 400, "agent spec 'ppo:/etc': this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "pretrained:path=/etc"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "random:foo"}, 400, "agent spec 'random:foo': random takes no options (write just 'random')"),
    ({"game": "ethnos", "opponents": "heuristic:x=1"}, 400, "heuristic takes no options"),
    ({"game": "ethnos", "config": {"num_players": "2"}, "opponents": "random;random"}, 400,
     "opponents: 2 agent specs for 1 other seats (player_1); give at most 1"),
    ({"game": "ethnos", "opponents": f"mcts:simulations={specs.SEARCH_CAPS['mcts'] + 1}"}, 400,
     f"a search of {specs.SEARCH_CAPS['mcts'] + 1} simulations per move is more than this server allows for mcts "
     f"({specs.SEARCH_CAPS['mcts']}"),
    ({"game": "ethnos", "opponents": f"mcts:{specs.SEARCH_CAPS['mcts'] + 1}"}, 400, "more than this server allows"),
    ({"game": "ethnos", "opponents": f"az:simulations={specs.SEARCH_CAPS['az'] + 1}"}, 400,
     f"more than this server allows for az ({specs.SEARCH_CAPS['az']}"),
    ({"game": "ethnos", "opponents": "grandmaster"}, 400, "agent spec 'grandmaster' for player_1: unknown agent kind"),
    ({"game": "ethnos", "opponents": "random;"}, 400, "an agent spec is empty"),
    ({"game": "ethnos", "opponents": "mcts:simulations=0"}, 400, "agent spec 'mcts:simulations=0'"),
    ({"game": "ethnos", "opponents": "pretrained:path=nowhere.npz"}, 400, "agent spec 'pretrained:path=nowhere.npz'"),
    ({"game": "ethnos", "opponents": "pretrained:path=3"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "az:path=/etc/passwd"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "az:8,1.5,/etc/passwd"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "rllib:/tmp"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": "ppo"}, 400, "this server loads no files named by a page"),
    ({"game": "ethnos", "opponents": 3}, 400, "opponents must be agent specs as a string separated by ';' or a list"),
    ({"game": "ethnos", "opponents": ["random", 3]}, 400, "opponents must be agent specs"),
    ({"game": "ethnos", "opponents": ["random", "grandmaster"]}, 400, "agent spec 'grandmaster' for player_2"),
    ([1, 2], 400, "a new game needs a JSON object"),
])
def test_a_bad_new_game_form_is_refused_clearly(server, form, status, message):
    code, text = error(server, "POST", "/api/play", form)
    assert code == status and message in text


def test_bad_requests_get_clear_errors(server):
    assert error(server, "POST", "/api/play", b"{not json") == (400, "the new-game form must be JSON: "
                                                                      "Expecting property name enclosed in double "
                                                                      "quotes: line 1 column 2 (char 1)")
    code, text = error(server, "GET", "/api/play/0123456789ab")
    assert code == 404 and "no game with id '0123456789ab'" in text
    code, text = error(server, "GET", "/api/replay/nope/frame/0")
    assert code == 404 and "no replay with id 'nope'" in text
    code, text = error(server, "GET", "/api/nothing")
    assert code == 404 and "no API route GET '/api/nothing'" in text
    code, text = error(server, "GET", "/favicon.ico")
    assert code == 404 and "open / for the app" in text
    code, text = error(server, "DELETE", "/api/games")
    assert code == 405
    code, text = error(server, "POST", "/api/replay", b"x" * (S.MAX_BODY + 1))
    assert code == 413 and "the request body must be" in text


def test_python_specs_are_refused_they_would_run_code_on_the_server(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evil_agent.py").write_text("raise SystemExit('imported on the server')\n")
    for opponents in ["python:evil_agent:policy", ["random", " Python:evil_agent:policy,x=1"]]:
        code, text = error(server, "POST", "/api/play", {"game": "ethnos", "config": {"num_players": "3"},
                                                         "opponents": opponents})
        assert code == 400 and "this server does not run python: agents" in text, text
    import sys
    assert "evil_agent" not in sys.modules


def test_opponents_may_be_a_list_of_specs(server):
    v = new_game(server, "ethnos", {"num_players": 3}, seat=0, opponents=["heuristic", "random"])
    assert v["players"][1:] == ["player_1 (heuristic)", "player_2 (random)"]


def test_illegal_and_stale_moves_leave_the_game_as_it_was(server):
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    path = f"/api/play/{v['id']}"
    before = call(server, "GET", path)
    legal = [m["action"] for m in v["moves"]]
    illegal = next(a for a in range(1000) if a not in legal)
    for move, status, message in [
        ({"version": v["version"], "action": illegal}, 400, f"illegal move {illegal}: not one of your {len(legal)} legal moves"),
        ({"version": v["version"], "action": "MOVE(c3)"}, 400, "illegal move 'MOVE(c3)'"),
        ({"version": v["version"], "action": True}, 400, "illegal move True"),
        ({"version": v["version"]}, 400, "illegal move None"),
        ({"action": legal[0]}, 400, "a move needs the page's version"),
        ({"version": v["version"] + 5, "action": legal[0]}, 409, "this page is out of date"),
        ([legal[0]], 400, "a move is a JSON object"),
    ]:
        code, text = error(server, "POST", f"{path}/move", move)
        assert (code, message) == (status, message) and message in text
        assert call(server, "GET", path) == before  # nothing changed
    code, text = error(server, "GET", f"{path}/record.json")
    assert code == 409 and "once the game is over" in text
    code, text = error(server, "GET", f"{path}/board.png?v={v['version'] + 1}")
    assert code == 409 and "reload the page" in text


def test_a_second_tab_cannot_move_from_an_old_position(server):
    """Two tabs show the same game; the first to move wins, the other is told the page is
    out of date (409) and its move is not made."""
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    path = f"/api/play/{v['id']}"
    first = ok(server, "POST", f"{path}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    code, text = error(server, "POST", f"{path}/move", {"version": v["version"], "action": v["moves"][-1]["action"]})
    assert code == 409 and f"after {v['version']} moves, but {first['version']} have been made" in text
    assert json.loads(call(server, "GET", path)[1]) == first


def test_simultaneous_moves_from_two_tabs_make_one_move(server):
    v = new_game(server, "ethnos", {"num_players": 2}, seat=0, seed=1)
    path = f"/api/play/{v['id']}/move"
    results = []

    def post(action):
        results.append(call(server, "POST", path, {"version": v["version"], "action": action}))

    threads = [threading.Thread(target=post, args=(m["action"],)) for m in v["moves"][:2]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(code for code, _ in results) == [200, 409]
    made = json.loads(next(body for code, body in results if code == 200))
    assert [e for e in made["log"] if e["player"] == 0][:1] and made["version"] > v["version"]
    assert json.loads(call(server, "GET", f"/api/play/{v['id']}")[1]) == made


def test_a_move_after_the_end_is_refused(server):
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, opponents="heuristic")
    while not v["over"]:
        last = v
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    code, text = error(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": last["moves"][0]["action"]})
    assert code == 409 and text == "the game is over: no more moves"
    assert "every player took a turn in a row without collecting" in v["end_reason"]


# ---- replays -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ether_wars_record():
    rng = np.random.default_rng(0)
    return record_episode("ether_wars", lambda s: s.legal_actions()[rng.integers(len(s.legal_actions()))],
                          seed=2, players=["random", "human"], num_players=2, max_rounds=1)


def test_replay_steps_through_a_record(server, ether_wars_record):
    rec = ether_wars_record
    s = ok(server, "POST", "/api/replay", rec.to_json().encode(), status=201)
    n = len(rec.actions)
    assert s["frames"] == n + 1 and len(s["moves"]) == n and s["view"] == "all"
    assert s["views"] == ["player_0", "player_1", "all"] and s["players"] == ["player_0 (random)", "player_1 (human)"]
    as_0 = ok(server, "GET", f"/api/replay/{s['id']}?view=player_0")["moves"]
    # "all": every move as its own player saw it (in full); a seat's view redacts the others' secrets
    assert any("hidden" in m["name"] for m in as_0 if m["player"] == 1)
    assert not any("hidden" in m["name"] for m in s["moves"])
    assert [m["name"] for m in as_0 if m["player"] == 0] == [m["name"] for m in s["moves"] if m["player"] == 0]
    states = list(ether_envs.records.replay_states(rec))
    for i in (0, 1, n // 2, n):
        f = ok(server, "GET", f"/api/replay/{s['id']}/frame/{i}?view=player_1")
        assert f["text"] == states[i].observation_string(1)
        assert f["private"] == views.private_text(states[i], 1)
        every = ok(server, "GET", f"/api/replay/{s['id']}/frame/{i}")
        assert every["text"].startswith(states[i].render_text()) and "player_0: " in every["private"]
    assert f["end_reason"] == states[-1].end_reason() != ""
    code, png = call(server, "GET", f"/api/replay/{s['id']}/frame/{n}.png")
    assert code == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    assert call(server, "GET", f"/api/replay/{s['id']}/frame/{n}.png") == (200, png)  # cached, the same
    code, text = error(server, "GET", f"/api/replay/{s['id']}/frame/{n + 1}")
    assert code == 404 and f"positions 0..{n}" in text
    code, text = error(server, "GET", f"/api/replay/{s['id']}/frame/{n + 1}.png")
    assert code == 404
    code, text = error(server, "GET", f"/api/replay/{s['id']}/frame/1?view=player_7")
    assert code == 400 and "unknown view 'player_7': one of player_0, player_1, all" in text


def test_a_finished_game_opens_as_a_replay(server):
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=1, opponents="heuristic")
    while not v["over"]:
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][-1]["action"]})
    code, rec = call(server, "GET", f"/api/play/{v['id']}/record.json")
    assert code == 200
    s = ok(server, "POST", "/api/replay", rec, status=201)
    assert s["frames"] == v["version"] + 1 and s["players"][1] == "player_1 (human)"
    assert [m["name"] for m in ok(server, "GET", f"/api/replay/{s['id']}?view=player_1")["moves"]] == \
        [e["move"] for e in v["log"]]


@pytest.mark.parametrize("mutate,message", [
    (lambda r: "not json", "a game record must be JSON"),
    (lambda r: [1, 2], "not a game record: expected a JSON object, got list"),
    (lambda r: {k: v for k, v in r.items() if k != "seed"}, "not a game record: missing keys ['seed']"),
    (lambda r: {**r, "colour": 1}, "unknown keys ['colour']"),
    (lambda r: {**r, "game": "chess"}, "the record is of an unknown game 'chess'"),
    (lambda r: {**r, "config": {"num_players": 9}}, "the record's game cannot be set up: ether_wars config"),
    (lambda r: {**r, "config": [1]}, "game record field 'config' must be an object of configuration fields, got [1]"),
    (lambda r: {**r, "seed": "x"}, "game record field 'seed' must be a whole number 0..2**64-1, got 'x'"),
    (lambda r: {**r, "seed": 10**30}, "game record field 'seed' must be a whole number 0..2**64-1"),
    (lambda r: {**r, "scores": 5}, "game record field 'scores' must be a list of numbers, got 5"),
    (lambda r: {**r, "returns": ["x", 1]}, "game record field 'returns' must be a list of numbers: item 0 is 'x'"),
    (lambda r: {**r, "terminal": "yes"}, "game record field 'terminal' must be true or false, got 'yes'"),
    (lambda r: {**r, "players": 3}, "game record field 'players' must be a list of strings, got 3"),
    (lambda r: {**r, "metadata": []}, "game record field 'metadata' must be an object, got []"),
    (lambda r: {**r, "game": 3}, "game record field 'game' must be a game name (a string), got 3"),
    (lambda r: {**r, "format": "nope"}, "game record field 'format' must be a whole number (this ether_envs writes 1), got 'nope'"),
    (lambda r: {**r, "actions": r["actions"][:5] + [10**6]}, "the record does not replay: action 5 (1000000) is illegal"),
    (lambda r: {**r, "actions": r["actions"][:3] + ["MOVE"]}, "game record field 'actions' must be a list of action ids (whole numbers): item 3 is 'MOVE'"),
    (lambda r: {**r, "actions": "abc"}, "game record field 'actions' must be a list of action ids (whole numbers), got 'abc'"),
    (lambda r: {**r, "scores": [123.0, -5.0]}, "the replay differs from the record"),
    (lambda r: {**r, "format": 99}, "record format 99 is newer"),
])
def test_a_malformed_record_is_refused_clearly(server, ether_wars_record, mutate, message):
    bad = mutate(ether_wars_record.to_dict())
    code, text = error(server, "POST", "/api/replay", json.dumps(bad).encode() if bad != "not json" else b"not json")
    assert code == 400 and message in text


def test_a_900_decision_replay_opens_without_drawing_a_picture(server, monkeypatch):
    """Issue 19: frames are drawn on demand, so opening a long record (a random 4-player
    Ethnos game of 900 decisions) replays its actions and draws nothing until a picture is
    asked for; then exactly that one is drawn. (How long it takes is measured, not tested:
    see docs/playing.md.)"""
    from ether_envs.rendering.__main__ import random_record

    drawn = []
    real = sessions.png_bytes
    monkeypatch.setattr(sessions, "png_bytes", lambda state: drawn.append(state) or real(state))
    rec = random_record("ethnos", 4, num_players=4)
    assert len(rec.actions) == 900
    s = ok(server, "POST", "/api/replay", rec.to_json().encode(), status=201)
    assert s["frames"] == 901
    text = ok(server, "GET", f"/api/replay/{s['id']}/frame/900?view=player_2")
    assert drawn == [] and text
    code, png = call(server, "GET", f"/api/replay/{s['id']}/frame/900.png")
    assert code == 200 and png.startswith(b"\x89PNG") and len(drawn) == 1 and drawn[0].is_terminal()


def test_the_cli_refuses_a_bad_record_or_a_busy_port(tmp_path, capsys):
    import socket

    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert cli.main(["serve", "--port", "0", "--replay", str(bad)]) == 2
    assert f"ether-envs serve: error: {bad}: not a game record: expected a JSON object" in capsys.readouterr().err
    assert cli.main(["serve", "--port", "0", "--replay", str(tmp_path / "missing.json")]) == 2
    assert "No such file or directory" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert cli.main(["serve", "--port", str(port)]) == 2
    assert f"ether-envs serve: error: cannot listen on 127.0.0.1:{port}: " in capsys.readouterr().err


def test_pretrained_and_search_opponents(server):
    """Any agent spec plays the other seats: the shipped network, or MCTS."""
    for spec in ("pretrained", "mcts:simulations=5"):
        v = new_game(server, "aethermon_collect", {}, seat=0, opponents=spec)
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
        assert v["players"][1] == f"player_1 ({spec})"
        assert any(e["who"] == f"player_1 ({spec})" for e in v["log"]) or v["over"]


# ---- issue 19 (tester's findings): no 500s, no hanging connections --------------------------------
def raw(server, data: bytes, timeout: float = 30.0) -> bytes:
    """Send ``data`` on a new connection; everything the server answers until it closes."""
    import socket

    host, port = server.server_address[:2]
    with socket.create_connection((host, port), timeout=timeout) as sock:
        sock.sendall(data)
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
    return out


def test_huge_numbers_and_deep_json_get_400_not_500(server, ether_wars_record):
    code, text = error(server, "POST", "/api/play", b"[" * 100000)
    assert code == 400 and text == "the new-game form must be JSON: malformed JSON (nested too deeply)"
    code, text = error(server, "POST", "/api/replay", b"{\"a\":" * 50000)
    assert code == 400 and "malformed JSON" in text
    s = ok(server, "POST", "/api/replay", ether_wars_record.to_json().encode(), status=201)
    n = s["frames"] - 1
    for suffix in ("", ".png"):
        code, text = error(server, "GET", f"/api/replay/{s['id']}/frame/{'9' * 5000}{suffix}")
        assert code == 404 and f"positions are numbered 0..{n}" in text and len(text) < 200
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    code, text = error(server, "GET", f"/api/play/{v['id']}/board.png?v=abc")
    assert code == 400 and "board.png?v= must be the move number the page shows (a whole number), got 'abc'" in text


def test_methods_get_405_with_allow_and_head_answers_like_get(server):
    import http.client

    host, port = server.server_address[:2]
    for method, path, allow in [("PUT", "/", "GET, HEAD"), ("DELETE", "/", "GET, HEAD"), ("PATCH", "/", "GET, HEAD"),
                                ("OPTIONS", "/api/games", "GET, HEAD"), ("TRACE", "/", "GET, HEAD"),
                                ("GET", "/api/play", "POST"), ("PATCH", "/api/replay", "POST")]:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        conn.request(method, path)
        r = conn.getresponse()
        body = json.loads(r.read())
        conn.close()
        assert (r.status, r.getheader("Allow")) == (405, allow), (method, path)
        assert body["error"] == f"method {method} is not allowed for {path!r}: use {allow.replace(', ', ' or ')}"
    code, text = error(server, "PUT", "/nowhere")
    assert code == 404 and "no page '/nowhere' here" in text
    conn = http.client.HTTPConnection(host, port, timeout=30)
    conn.request("HEAD", "/")
    r = conn.getresponse()
    assert r.status == 200 and r.read() == b"" and int(r.getheader("Content-Length")) == len(S.PAGE.read_bytes())
    conn.request("GET", "/")  # the same connection goes on
    assert conn.getresponse().read() == S.PAGE.read_bytes()
    conn.close()


def test_a_40_mb_body_gets_413_and_a_bad_content_length_400(server):
    import http.client

    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    t = time.perf_counter()
    conn.request("POST", "/api/replay", body=b"x" * (40 * 1024 * 1024))
    r = conn.getresponse()
    body = json.loads(r.read())
    conn.close()
    assert r.status == 413 and body["error"].startswith(f"the request body must be 0..{S.MAX_BODY} bytes, got 41943040")
    assert time.perf_counter() - t < 30
    for length in (b"abc", b"-5", b"9" * 40):
        answer = raw(server, b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: " + length + b"\r\n\r\n{}")
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:100]
        assert b"a malformed HTTP request" in answer
        assert f"Content-Length must be the body's size in bytes, 0..{S.MAX_BODY}".encode() in answer
    assert ok(server, "GET", "/api/games")["games"]  # the server goes on


def test_a_request_that_stops_half_way_is_dropped_after_the_timeout():
    srv = S.Server("127.0.0.1", 0, quiet=True, request_timeout=1)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        host = f"127.0.0.1:{srv.server_address[1]}".encode()
        for data in (b"POST /api/play HTTP/1.1\r\nHost: " + host + b"\r\nContent-Length: 100\r\n\r\n{\"ga",  # short body
                     b"GET / HTTP/1.1\r\nHost: " + host + b"\r\n",  # unfinished headers
                     b""):  # nothing at all
            t = time.perf_counter()
            assert raw(srv, data, timeout=20) == b""  # closed, nothing answered
            assert time.perf_counter() - t < 10
    finally:
        srv.shutdown()
        srv.server_close()


def test_the_view_does_not_wait_on_a_thinking_agent(server):
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, opponents="mcts:simulations=5")
    session = server.app.game(v["id"])
    agent, release, thinking = session.agents[1], threading.Event(), threading.Event()
    act = agent.act

    def slow_act(state, player):
        thinking.set()
        release.wait(60)
        return act(state, player)

    agent.act = slow_act
    results = []
    t = threading.Thread(target=lambda: results.append(
        call(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})))
    t.start()
    try:
        assert thinking.wait(60)
        start = time.perf_counter()
        seen = ok(server, "GET", f"/api/play/{v['id']}")
        assert time.perf_counter() - start < 5
        assert seen == v  # the last view sent: the position before the move
    finally:
        release.set()
        t.join(60)
    assert results[0][0] == 200 and json.loads(results[0][1])["version"] > v["version"]
    assert ok(server, "GET", f"/api/play/{v['id']}") == json.loads(results[0][1])


def test_without_a_seed_the_deal_is_secret_until_the_record(server):
    form = {"game": "aethermon_collect", "config": {"num_players": "2"}, "seat": 0, "opponents": "heuristic"}
    for seed in (None, "", "  "):
        v = ok(server, "POST", "/api/play", form if seed is None else {**form, "seed": seed}, status=201)
        assert v["seed"] is None and v["secret_seed"] is True
    assert len({server.app.game(v["id"]).seed, server.app.game(ok(server, "POST", "/api/play", form, status=201)["id"]).seed}) == 2
    while not v["over"]:
        assert v["seed"] is None
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    assert v["seed"] is None
    rec = json.loads(call(server, "GET", f"/api/play/{v['id']}/record.json")[1])
    assert rec["seed"] == server.app.game(v["id"]).seed and 0 <= rec["seed"] <= sessions.MAX_SEED
    assert ether_envs.replay(rec).history == server.app.game(v["id"]).state.history
    shown = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, seed=12)
    assert shown["seed"] == "12" and shown["secret_seed"] is False


def test_fewer_specs_than_seats_are_used_in_turn_again(server):
    v = new_game(server, "ethnos", {"num_players": 4}, seat=0, opponents="heuristic;random")
    assert v["players"][1:] == ["player_1 (heuristic)", "player_2 (random)", "player_3 (heuristic)"]


def test_the_every_seat_replay_view_names_the_seat_on_each_line(server, ether_wars_record):
    s = ok(server, "POST", "/api/replay", ether_wars_record.to_json().encode(), status=201)
    every = ok(server, "GET", f"/api/replay/{s['id']}/frame/0")["private"]
    assert "you are" not in every
    assert every.split("\n") and all(line.startswith(("player_0: ", "player_1: ")) for line in every.split("\n"))
    assert views.seat_lines("you are player_1; your hand: A\nyour program: -", 1) == \
        "player_1: your hand: A\nplayer_1: your program: -"
    assert views.seat_lines("", 0) == "player_0: -"


def test_the_catalogue_says_which_games_are_co_operative(server):
    games = {g["name"]: g for g in ok(server, "GET", "/api/games")["games"]}
    assert games["aetherspire"]["utility"] == "identical" and games["ethnos"]["utility"] == "zero_sum"


def test_the_cli_refuses_a_bad_port_a_directory_and_an_unbindable_host(tmp_path, capsys):
    for port in ("-1", "70000", "http"):
        with pytest.raises(SystemExit) as e:
            cli.build_parser().parse_args(["serve", "--port", port])
        assert e.value.code == 2
        assert f"argument --port: port must be 0..65535, got {port!r}" in capsys.readouterr().err
    assert cli.main(["serve", "--port", "0", "--replay", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == f"ether-envs serve: error: {tmp_path} is a directory, not a game record file (RECORD.json)\n"
    assert cli.main(["serve", "--host", "203.0.113.7", "--port", "0"]) == 2  # an address not on this machine
    assert "ether-envs serve: error: cannot listen on 203.0.113.7:0: " in capsys.readouterr().err


# ---- issue 27: the tester's bugs -------------------------------------------------------------------
def play_to_the_end(server, v: dict) -> dict:
    while not v["over"]:
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    return v


@pytest.mark.parametrize("seed", [9007199254740993, 680802867637252887])
@pytest.mark.parametrize("sent_as", [str, int])
def test_a_seed_above_2_to_the_53_reaches_the_page_exactly(server, seed, sent_as):
    """Bug 1: JavaScript numbers are exact only to 2**53, so every seed the page receives is
    a string of digits; the page may send it as a string or a number. The record's download
    name and content, and the replay of the record, hold the same seed."""
    form = {"game": "aethermon_collect", "config": {"num_players": "2"}, "seat": 0, "opponents": "heuristic",
            "seed": sent_as(seed)}
    code, raw_view = call(server, "POST", "/api/play", form)
    assert code == 201 and f'"seed": "{seed}"'.encode() in raw_view
    v = play_to_the_end(server, json.loads(raw_view))
    assert v["seed"] == str(seed) and v["record_name"] == f"aethermon_collect_seed{seed}.json"
    req = urllib.request.Request(server.url.rstrip("/") + v["record"])
    with urllib.request.urlopen(req, timeout=60) as r:
        disposition, text = r.headers["Content-Disposition"], r.read()
    assert disposition == f'attachment; filename="aethermon_collect_seed{seed}.json"'
    assert json.loads(text)["seed"] == seed and f'"seed": {seed}'.encode() in text
    s = ok(server, "POST", "/api/replay", text, status=201)
    assert s["seed"] == str(seed)
    assert ok(server, "GET", f"/api/replay/{s['id']}")["seed"] == str(seed)


@pytest.mark.parametrize("opponents", ["", None, "random", []])
def test_a_1_player_aetherspire_game_starts_and_plays(server, opponents):
    """Bug 2: a 1-player game has no other seat, so the opponents field is not used (empty,
    absent or not)."""
    form = {"game": "aetherspire", "config": {"num_players": "1"}, "seat": 0, "seed": 4}
    if opponents is not None:
        form["opponents"] = opponents
    v = ok(server, "POST", "/api/play", form, status=201)
    assert v["players"] == ["player_0 (you)"] and v["your_turn"] and v["moves"]
    for _ in range(3):
        v = ok(server, "POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": v["moves"][0]["action"]})
    assert all(e["player"] == 0 for e in v["log"]) and len(v["log"]) == 3


def test_a_number_of_more_than_4300_digits_in_any_body_gets_400(server, ether_wars_record):
    """Bug 3: Python reads at most 4,300 digits of a JSON number; more is a 400 naming the
    problem, in the new-game form, a move, a game record and a configuration field's text."""
    huge = "9" * 5000
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    record = ether_wars_record.to_json()
    for path, body, what in [
        ("/api/play", f'{{"game": "ethnos", "seed": {huge}}}', "the new-game form"),
        ("/api/play", f'{{"game": "ethnos", "config": {{"num_players": {huge}}}}}', "the new-game form"),
        (f"/api/play/{v['id']}/move", f'{{"version": {v["version"]}, "action": {huge}}}', "a move"),
        ("/api/replay", record.replace('"seed": 2', f'"seed": {huge}'), "a game record"),
        ("/api/replay", record.replace('"actions": [', f'"actions": [{huge}, '), "a game record"),
    ]:
        code, text = error(server, "POST", path, body.encode())
        assert code == 400 and text.startswith(f"{what}: a number has more than 4300 digits"), text
        assert len(text) < 300
    code, text = error(server, "POST", "/api/play", {"game": "ethnos", "config": {"num_players": huge}})
    assert code == 400 and "config: a number has more than 4300 digits" in text
    assert ok(server, "GET", f"/api/play/{v['id']}") == v  # the game is as it was


def test_huge_values_are_echoed_cut_short(server, ether_wars_record):
    """Bug 4: a value echoed in an error message is cut to a short prefix with its length:
    a 1 MB value gets an answer of a few hundred bytes."""
    mb = "x" * 1_000_000
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    rec = ether_wars_record.to_dict()
    for method, path, body in [
        ("POST", "/api/play", {"game": mb}),
        ("POST", "/api/play", {"game": "ethnos", "opponents": mb}),
        ("POST", "/api/play", {"game": "ethnos", "opponents": "mcts:" + mb}),
        ("POST", "/api/play", {"game": "ethnos", "opponents": [mb, "random"]}),
        ("POST", "/api/play", {"game": "ethnos", "opponents": "random;;" + mb}),
        ("POST", "/api/play", {"game": "ethnos", "seat": mb}),
        ("POST", "/api/play", {"game": "ethnos", "seed": mb}),
        ("POST", "/api/play", {"game": "ethnos", "config": {"tribes": mb}}),
        ("POST", "/api/play", {"game": "ethnos", "config": {mb: 1}}),
        ("POST", "/api/play", {"game": "ethnos", "config": mb}),
        ("POST", f"/api/play/{v['id']}/move", {"version": v["version"], "action": mb}),
        ("POST", f"/api/play/{v['id']}/move", {"version": mb, "action": 0}),
        ("POST", "/api/replay", {**rec, "game": mb}),
        ("POST", "/api/replay", {**rec, "players": mb}),
        ("POST", "/api/replay", {**rec, "actions": [mb]}),
        ("GET", f"/api/play/{'a' * 100_000}", None),
        ("GET", f"/api/play/{v['id']}/board.png?v={'a' * 100_000}", None),
    ]:
        code, data = call(server, method, path, body)
        assert 400 <= code < 500 and len(data) < 1200, (path, str(body)[:80], code, len(data), data[:300])
        assert "x" * 1000 not in json.loads(data)["error"]
    assert views.short("x" * 1000) == "'" + "x" * 59 + "… (1002 characters)"


# ---- issue 27: a server a web page can't abuse ---------------------------------------------------
def request(server, method, path, body=None, headers=None) -> tuple[int, dict]:
    import http.client

    host, port = server.server_address[:2]
    conn = http.client.HTTPConnection(host, port, timeout=60)
    conn.request(method, path, body=None if body is None else json.dumps(body).encode(),
                 headers={"Content-Type": "application/json", **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, json.loads(data) if data.startswith(b"{") else {}


def test_the_host_header_must_name_this_server(server):
    """Security 7: DNS rebinding (a page of evil.example whose name now points at
    127.0.0.1) reaches the server with its own name in Host: refused with 421."""
    port = server.server_address[1]
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"localhost.evil.example:{port}", ""):
        code, body = request(server, "GET", "/api/games", headers={"Host": host})
        assert code == 421 and "this server answers only to" in body["error"], host
        assert f"127.0.0.1:{port}" in body["error"]
    before = len(server.app.games)
    code, body = request(server, "POST", "/api/play", {"game": "ethnos"}, headers={"Host": f"evil.example:{port}"})
    assert code == 421 and len(server.app.games) == before
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}"):
        assert request(server, "GET", "/api/games", headers={"Host": host})[0] == 200
    assert S.allowed_hosts("::1", 80) == ["localhost:80", "localhost", "127.0.0.1:80", "127.0.0.1", "[::1]:80", "[::1]"]
    assert S.allowed_hosts("0.0.0.0", 8000) == ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"]
    assert "myhost:8000" in S.allowed_hosts("MyHost", 8000)


def test_a_page_of_another_origin_cannot_change_anything(server):
    """Security 7: a state-changing request sent by a page of another site (its Origin) gets
    403 and changes nothing; the server's own page (same origin) and clients that send no
    Origin (scripts) go on working."""
    port = server.server_address[1]
    form = {"game": "aethermon_collect", "config": {"num_players": "2"}, "seat": 0, "seed": 1}
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0)
    before = (len(server.app.games), len(server.app.replays), ok(server, "GET", f"/api/play/{v['id']}"))
    for origin in ("http://evil.example", "null", f"http://evil.example:{port}", f"https://127.0.0.1:{port}",
                   f"http://127.0.0.1:{port + 1}"):
        for path, body in [("/api/play", form), (f"/api/play/{v['id']}/move",
                                                 {"version": v["version"], "action": v["moves"][0]["action"]}),
                           ("/api/replay", {})]:
            code, answer = request(server, "POST", path, body, headers={"Origin": origin})
            assert code == 403 and "a request from another origin" in answer["error"], (origin, path)
    assert (len(server.app.games), len(server.app.replays), ok(server, "GET", f"/api/play/{v['id']}")) == before
    for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
        code, answer = request(server, "POST", "/api/play", form, headers={"Origin": origin, "Host": origin[7:]})
        assert code == 201 and answer["your_turn"]
    assert request(server, "GET", "/api/games", headers={"Origin": "http://evil.example"})[0] == 200  # reads nothing secret


def test_agent_specs_naming_files_are_refused_without_saying_whether_they_exist(server, tmp_path):
    """Security 8: without --allow-weights-dir no spec may name a file, and the message is
    the same whether the file exists, is a folder or is missing."""
    real = tmp_path / "real.npz"
    real.write_bytes(b"x")
    messages = set()
    for path in (str(real), str(tmp_path), str(tmp_path / "missing.npz"), "/etc/passwd"):
        for kind in ("ppo:{}", "ppo:path={}", "pretrained:path={}", "az:path={}", "rllib:{}", "rllib:checkpoint={}"):
            spec = kind.format(path)
            code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": spec})
            assert code == 400 and "this server loads no files named by a page" in text
            assert "--allow-weights-dir DIR" in text
            messages.add(text.replace(views.short(spec), "SPEC"))
    assert len(messages) == 1, messages
    for spec in ("pretrained", "pretrained:zoo=1", "az:simulations=2", "az:simulations=2,zoo=1"):  # shipped nets
        v = new_game(server, "ethnos", {}, seat=0, opponents=spec)
        assert v["players"][1] == f"player_1 ({spec})"


def test_allow_weights_dir_loads_files_under_it_only(tmp_path):
    """Security 8: with --allow-weights-dir DIR, files under DIR load; a path outside it
    (absolute, through '..' or through a symlink) is refused, existing or not."""
    import shutil

    allowed = tmp_path / "weights"
    allowed.mkdir()
    shipped = ether_envs.__file__.replace("ether_envs/__init__.py", "agents/weights/aethermon_collect.npz")
    shutil.copy(shipped, allowed / "net.npz")
    outside = tmp_path / "outside.npz"
    shutil.copy(shipped, outside)
    (allowed / "link.npz").symlink_to(outside)
    srv = S.Server("127.0.0.1", 0, quiet=True, weights_dir=allowed)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        assert ok(srv, "GET", "/api/games")["files_allowed"] is True
        for spec in (f"pretrained:path={allowed / 'net.npz'}", f"az:simulations=2,path={allowed / 'net.npz'}",
                     f"pretrained:{allowed / 'net.npz'}"):
            v = new_game(srv, "aethermon_collect", {}, seat=0, opponents=spec)
            assert v["players"][1] == f"player_1 ({spec})"
        refused = set()
        for path in (outside, allowed / ".." / "outside.npz", allowed / "link.npz", tmp_path / "missing.npz",
                     allowed / ".." / "missing.npz", allowed):
            spec = f"pretrained:path={path}"
            code, text = error(srv, "POST", "/api/play", {"game": "aethermon_collect", "opponents": spec})
            assert code == 400 and "is not under the folder this server loads files from" in text, text
            refused.add(text.replace(views.short(spec), "SPEC").replace(views.short(str(path)), "PATH"))
        assert len(refused) == 1, refused
        code, text = error(srv, "POST", "/api/play", {"game": "aethermon_collect",
                                                       "opponents": f"pretrained:path={allowed / 'missing.npz'}"})
        assert code == 400 and "missing.npz" in text  # inside the folder, the agent's own message
    finally:
        srv.shutdown()
        srv.server_close()


def test_search_budgets_are_capped_per_kind_and_the_form_is_told(server):
    """Security 9: the catalogue tells the form the cap of each search kind; a budget up
    to it builds, one above it is refused naming the cap."""
    data = ok(server, "GET", "/api/games")
    assert data["search_caps"] == specs.SEARCH_CAPS and data["files_allowed"] is False
    assert set(specs.SEARCH_CAPS) == {"mcts", "az", "openspiel"}
    for kind, spec in (("mcts", "mcts:simulations={}"), ("az", "az:simulations={}")):
        cap = specs.SEARCH_CAPS[kind]
        v = new_game(server, "ethnos", {}, seat=0, opponents=spec.format(cap))
        assert v["players"][1] == f"player_1 ({spec.format(cap)})"
        code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": spec.format(cap + 1)})
        assert code == 400 and f"a search of {cap + 1} simulations per move is more than this server allows for " \
                               f"{kind} ({cap}" in text


def test_openspiel_budgets_count_rollouts_and_worlds(server):
    pytest.importorskip("pyspiel")
    cap = specs.SEARCH_CAPS["openspiel"]
    half = cap // 2 + 1
    for spec in (f"openspiel:mcts:simulations={cap + 1}", f"openspiel:mcts:simulations={half},rollouts=2",
                 f"openspiel:ismcts:simulations={cap + 1}"):
        code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": spec})
        assert code == 400 and f"more than this server allows for openspiel ({cap}" in text, text


def test_the_cli_takes_allow_weights_dir_and_python_m_webapp_runs(tmp_path, capsys):
    args = cli.build_parser().parse_args(["serve", "--allow-weights-dir", str(tmp_path)])
    assert args.allow_weights_dir == str(tmp_path)
    assert cli.main(["serve", "--port", "0", "--allow-weights-dir", str(tmp_path / "nope")]) == 2
    assert f"--allow-weights-dir {tmp_path / 'nope'}: not a folder" in capsys.readouterr().err
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "webapp", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "--allow-weights-dir" in out.stdout and "usage: python -m webapp" in out.stdout
