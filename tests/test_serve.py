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
     "opponents: 2 agent specs for 1 other seat (player_1); give at most 1"),
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


def hold_agent(agent, seconds: float) -> tuple[threading.Event, threading.Event]:
    """Make ``agent`` hold each decision until ``release`` is set (at most ``seconds``);
    ``thinking`` is set when it starts one. Returns ``(release, thinking)``."""
    release, thinking, act = threading.Event(), threading.Event(), agent.act

    def slow_act(state, player):
        thinking.set()
        release.wait(seconds)
        return act(state, player)

    agent.act = slow_act
    return release, thinking


def test_the_view_does_not_wait_on_a_thinking_agent(server):
    v = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, opponents="mcts:simulations=5")
    session = server.app.game(v["id"])
    release, thinking = hold_agent(session.agents[1], 60)
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
    assert code == 400 and text.startswith("config: ") and "more than 4300 digits" in text
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
    assert set(specs.SEARCH_CAPS) == {"mcts", "az", "openspiel", "rollout"}
    for kind, spec, unit in (("mcts", "mcts:simulations={}", "simulations per move"),
                             ("az", "az:simulations={}", "simulations per move"),
                             ("rollout", "rollout:rollouts={}", "rollouts per legal action")):
        cap = specs.SEARCH_CAPS[kind]
        v = new_game(server, "ethnos", {}, seat=0, opponents=spec.format(cap))
        assert v["players"][1] == f"player_1 ({spec.format(cap)})"
        code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": spec.format(cap + 1)})
        assert code == 400 and f"a search of {cap + 1} {unit} is more than this server allows for " \
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


# ---- issue 27, tester's findings: long replays, pictures while agents think, full tables ----
def passing_record(max_rounds: int):
    """An Ether Wars record where every seat passes whenever it may: about 14 actions a round."""
    def pass_first(s):
        legal = s.legal_actions()
        return next((a for a in legal if "PASS" in s.action_to_string(a)), legal[-1])

    return record_episode("ether_wars", pass_first, seed=1, num_players=2, max_rounds=max_rounds)


def test_a_record_over_the_action_cap_is_refused_before_it_is_replayed(server, ether_wars_record, monkeypatch):
    """A record of a game set to run for ever (280,000 legal actions) took 41.6 s and 9.8 GB
    to open; now a record of more than MAX_REPLAY_ACTIONS actions gets a 400 naming the cap,
    before the game is even set up."""
    monkeypatch.setattr(ether_envs, "load_game", lambda *a, **k: pytest.fail("the record was replayed"))
    too_long = {**ether_wars_record.to_dict(), "config": {"num_players": 2, "max_rounds": 20000},
                "actions": [0] * (sessions.MAX_REPLAY_ACTIONS + 1)}
    code, text = error(server, "POST", "/api/replay", json.dumps(too_long).encode())
    assert code == 400 and text.startswith(f"the record has {sessions.MAX_REPLAY_ACTIONS + 1} actions; this server "
                                           f"replays at most {sessions.MAX_REPLAY_ACTIONS}")
    assert sessions.MAX_REPLAY_ACTIONS >= 10 * 1295  # the longest of 500 games of any game (docs/records.md)


def test_a_long_replay_keeps_its_checkpoints_without_history(server):
    """The checkpoints (one per CHECKPOINT_EVERY positions) held the whole history each: N**2/64
    action ids for N actions. Now they hold none, and a position rebuilt from one is the
    game's own, history included."""
    rec = passing_record(200)
    n = len(rec.actions)
    assert 2000 < n <= sessions.MAX_REPLAY_ACTIONS
    replay = sessions.ReplaySession(rec.to_dict())
    assert len(replay.checkpoints) == n // sessions.CHECKPOINT_EVERY + 1
    assert all(c.history == [] for c in replay.checkpoints)
    wanted = {0, 1, 31, 32, 33, n // 2, n - 1, n}
    for i, state in enumerate(ether_envs.records.replay_states(rec)):
        if i in wanted:
            got = replay.state_at(i)
            assert got.history == state.history and got.render_text() == state.render_text()
            assert got.observation_string(1) == state.observation_string(1)
    s = ok(server, "POST", "/api/replay", rec.to_json().encode(), status=201)
    assert s["frames"] == n + 1 and len(s["moves"]) == n


def test_a_thinking_agent_does_not_hold_up_another_games_picture(server):
    """board.png took the one drawing lock before the game's own: a picture request of a game
    whose agents were thinking held every other game's pictures until they had moved. Now a
    picture request never waits on thinking agents (the kept picture of the page's move, or
    409), and another game's picture is drawn meanwhile."""
    slow = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, opponents="random")
    other = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, opponents="random", seed=1)
    code, before = call(server, "GET", slow["board"])
    assert code == 200
    session = server.app.game(slow["id"])
    release, thinking = hold_agent(session.agents[1], 300)
    answers = {}

    def fetch(name, *args):
        answers[name] = call(server, *args)

    mover = threading.Thread(target=fetch, args=("move", "POST", f"/api/play/{slow['id']}/move",
                                                 {"version": slow["version"], "action": slow["moves"][0]["action"]}))
    mover.start()
    try:
        assert thinking.wait(60)
        for name, path in [("same", slow["board"]),
                           ("newer", f"/api/play/{slow['id']}/board.png?v={slow['version'] + 1}"),
                           ("other", other["board"])]:
            t = threading.Thread(target=fetch, args=(name, "GET", path), daemon=True)
            t.start()
            t.join(30)  # (three of them: under the client's 120 s timeout of the move)
        assert answers.get("same") == (200, before)  # the kept picture of the move the page shows
        assert answers.get("newer", (0,))[0] == 409 and b"agents are making their moves" in answers["newer"][1]
        assert answers.get("other", (0,))[0] == 200 and answers["other"][1].startswith(b"\x89PNG")
        assert mover.is_alive() and "move" not in answers  # all that while, the agent was thinking
    finally:
        release.set()
        mover.join(60)
    assert answers["move"][0] == 200


def test_a_new_game_makes_room_by_dropping_finished_then_idle_games(monkeypatch):
    """64 new games pushed out a game in progress. Now a full table drops the least recently
    used finished game, else the least recently used idle one (no request for IDLE_AFTER
    seconds, or the person has not moved), and only then the least recently used game."""
    monkeypatch.setattr(sessions, "MAX_GAMES", 3)
    table = sessions.Sessions()
    form = {"game": "aethermon_collect", "config": {"num_players": "2"}, "seat": 0, "opponents": "random"}

    def start(moves: int | None = 1):  # a new game where the person makes ``moves`` moves (None: to the end)
        g = table.new_game({**form, "seed": len(table.games)})
        while (moves is None or moves > 0) and not g.state.is_terminal():
            g.move(g.state.legal_actions()[0], g.version)
            moves = None if moves is None else moves - 1
        return g

    def kept():
        return set(table.games)

    a, b, c = start(), start(None), start()
    assert b.state.is_terminal() and not a.state.is_terminal()
    d = start(0)  # a (least recently used) is in progress; b is over: b goes
    assert kept() == {a.id, c.id, d.id}
    c.used -= sessions.IDLE_AFTER  # c is idle by time; d (not moved in) is idle too, c is used less recently
    e = start(0)
    assert kept() == {a.id, d.id, e.id}
    f = start()  # d and e: the person has not moved; d is the least recently used of them
    assert kept() == {a.id, e.id, f.id}
    e.move(e.state.legal_actions()[0], e.version)
    table.game(a.id)  # a is used again: e is now the least recently used, and no game is over or idle
    g = start()
    assert kept() == {a.id, f.id, g.id}
    code_text = pytest.raises(sessions.AppError, table.game, e.id).value
    assert code_text.status == 404 and "dropping finished and idle ones first" in code_text.message


# ---- issue 27: the tester's third round (fixes-b) -------------------------------------------------
def test_a_config_value_nested_too_deeply_gets_400_not_500(server):
    """A config text of 5,000 '[' made json.loads raise RecursionError (HTTP 500):
    parse_config_value turns it into a ValueError, so the answer is a short 400."""
    code, data = call(server, "POST", "/api/play", {"game": "ethnos", "config": {"num_players": "[" * 5000}})
    assert code == 400 and len(data) < 1200, (code, data[:300])


def test_a_zip_that_is_not_an_sb3_model_is_refused_with_400(tmp_path):
    """``ppo:DIR/x.npz`` (a zip, not an SB3 model) under --allow-weights-dir gave 500
    ("AssertionError: No data found in the saved file"): now a 400 naming the file."""
    pytest.importorskip("sb3_contrib")
    np.savez(tmp_path / "x.npz", a=np.zeros(3))
    srv = S.Server("127.0.0.1", 0, quiet=True, weights_dir=tmp_path)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        with pytest.warns(UserWarning):  # a plain zip: only its spaces could be checked
            code, text = error(srv, "POST", "/api/play", {"game": "ethnos", "opponents": f"ppo:{tmp_path / 'x.npz'}"})
        assert code == 400 and f"{tmp_path / 'x.npz'} is not a Stable-Baselines3 model zip" in text, text
    finally:
        srv.shutdown()
        srv.server_close()


def test_a_url_over_the_limit_gets_414_json(server):
    """A 1 MB path is refused 414 with a JSON message whether it reaches the app (one read)
    or h11 stops reading it; a path a little over MAX_URL too; headers alike get 431."""
    port = server.server_address[1]
    for n in (S.MAX_URL + 10, 100_000, 1_000_000):
        out = raw(server, f"GET /api/play/{'x' * n} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        head, _, body = out.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 414 "), (n, head[:100])
        assert b"x-frame-options: DENY" in head
        message = json.loads(body)
        assert message["status"] == 414 and "more than this server reads" in message["error"] and len(body) < 400
    assert call(server, "GET", "/api/play/" + "x" * (S.MAX_URL - 100))[0] == 404  # under the limit: the usual 404
    out = raw(server, f"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Big: {'y' * 1_000_000}\r\n\r\n".encode())
    head, _, body = out.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 ") and "headers are more than" in json.loads(body)["error"]


def _guard_call(app, path: str, verbose: bool = False):
    """Run the Guard over ``app`` for one GET of ``path``: ``(status, body)``."""
    import asyncio

    sent = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode("utf-8"), "query_string": b"",
             "headers": [(b"host", b"127.0.0.1:8000")], "client": ("127.0.0.1", 5)}
    guard = S.Guard(app, S.allowed_hosts("127.0.0.1", 8000), verbose=verbose)
    asyncio.run(guard(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"), start


def test_a_500_is_json_and_its_log_line_names_the_exception(server, capfd, monkeypatch):
    """A bug outside the endpoints (an exception through the Guard) is answered with a
    JSON 500, and the log line of any 500 names the exception's type and message."""
    async def broken(scope, receive, send):
        raise RuntimeError("the broken part")

    status, body, _ = _guard_call(broken, "/api/games")
    assert status == 500 and json.loads(body)["error"] == "internal error: RuntimeError: the broken part"
    err = capfd.readouterr().err
    assert '"GET /api/games" 500: RuntimeError: the broken part\n' in err, err
    srv = S.Server("127.0.0.1", 0)  # logs refused requests
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        monkeypatch.setattr(sessions.Sessions, "replay", lambda self, sid: 1 / 0)
        code, text = error(srv, "GET", "/api/replay/abc")
        assert code == 500 and text == "internal error: ZeroDivisionError: division by zero"
        time.sleep(0.2)
        assert '"GET /api/replay/abc" 500: internal error: ZeroDivisionError: division by zero' in capfd.readouterr().err
    finally:
        srv.shutdown()
        srv.server_close()


def test_the_request_log_line_escapes_control_characters(capfd):
    """A path holding a newline wrote a fake second log line
    (``/api/play/x%0a127.0.0.1%20-%20%22GET%20/admin%22%20200``): control characters and
    quotes are escaped, one request is one line."""
    async def not_found(scope, receive, send):
        await S.error_reply(404, "no")(scope, receive, send)

    _guard_call(not_found, '/api/play/x\n127.0.0.1 - "GET /admin" 200\x1b[2J')
    err = capfd.readouterr().err
    assert err == '127.0.0.1 - "GET /api/play/x\\n127.0.0.1 - \\"GET /admin\\" 200\\x1b[2J" 404\n', err
    assert S.log_safe("a\rb\\c\x7f") == "a\\rb\\\\c\\x7f"


def test_only_ascii_digits_number_a_replay_position(server, ether_wars_record):
    """``/frame/１`` (a fullwidth digit) was read as position 1: positions are ASCII digits."""
    s = ok(server, "POST", "/api/replay", ether_wars_record.to_dict(), status=201)
    assert ok(server, "GET", f"/api/replay/{s['id']}/frame/1")["i"] == 1
    for position in ("１", "١", "１.png", "²"):
        code, text = error(server, "GET", f"/api/replay/{s['id']}/frame/{urllib.parse.quote(position)}")
        assert code == 404 and "(ASCII digits)" in text, (position, text)


def test_echoed_values_are_cut_before_the_message_so_its_list_of_allowed_values_survives(server):
    """A 1 MB agent spec or config key was echoed into the message before it was cut, so the
    list of allowed values at its end was lost: the value is cut first."""
    mb = "x" * 1_000_000
    code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": mb})
    assert code == 400 and f"an agent spec is at most {specs.MAX_SPEC} characters, got 1000000" in text
    assert "random, heuristic, mcts" in text
    code, text = error(server, "POST", "/api/play", {"game": "ethnos", "opponents": "y" * 400})
    assert code == 400 and "unknown agent kind" in text and "known: random, heuristic, mcts" in text, text
    code, text = error(server, "POST", "/api/play", {"game": "ethnos", "config": {mb: 1}})
    assert code == 400 and "valid keys: ['first_player_tie'" in text and len(text) < 400, text
    code, text = error(server, "POST", "/api/play", {"game": "ethnos", "config": {"num_players": mb}})
    assert code == 400 and "config num_players must be an int, got 'xxx" in text and len(text) < 400, text


def test_every_answer_forbids_framing(server):
    """Clickjacking: no other site may show the page in a frame (every answer, refusals too)."""
    for path in ("/", "/api/games", "/nope", "/api/play/nope"):
        req = urllib.request.Request(server.url.rstrip("/") + path)
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                headers = r.headers
        except urllib.error.HTTPError as e:
            headers = e.headers
        assert headers["X-Frame-Options"] == "DENY", path
        assert headers["Content-Security-Policy"] == "frame-ancestors 'none'", path
    head = raw(server, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n").partition(b"\r\n\r\n")[0]
    assert head.startswith(b"HTTP/1.1 400 ") and b"x-frame-options: DENY" in head


def test_a_wildcard_host_prints_an_address_that_opens_and_a_bad_host_is_named(monkeypatch, capsys):
    """``--host 0.0.0.0`` printed http://0.0.0.0:PORT/, which the Host check answers 421:
    the printed address is 127.0.0.1's, with a line on --host for other machines. A name
    that does not resolve is named as such, not "choose another --port"."""
    def stop(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(S.Server, "serve_forever", stop)
    lines = []
    serve_cli.serve("0.0.0.0", 0, print_fn=lines.append)
    assert lines[0].startswith("ether-envs serve: open http://127.0.0.1:") and "0.0.0.0:" not in lines[0], lines
    assert "--host <the name or address they use>" in lines[1], lines
    assert cli.main(["serve", "--host", "no-such-host.invalid", "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert "the --host name cannot be resolved" in err and "choose another --port" not in err, err
