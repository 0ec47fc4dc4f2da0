"""``ether-envs serve`` at the HTTP level (``training/serve.py``), with the standard
library's client against a server on a free port.

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
from ether_envs.records import record_episode
from training import cli
from training import serve as S

pytest.importorskip("matplotlib")

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
    assert args.port == 0 and args.host == "127.0.0.1" and args.func is S.run_from_args


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
    ({"game": "ethnos", "opponents": "ppo:/etc"}, 400, "agent spec 'ppo:/etc' for player_1: /etc is a directory, not a model file"),
    ({"game": "ethnos", "opponents": "pretrained:path=/etc"}, 400, "/etc is a directory, not a weight file"),
    ({"game": "ethnos", "opponents": "random:foo"}, 400, "agent spec 'random:foo': random takes no options (write just 'random')"),
    ({"game": "ethnos", "opponents": "heuristic:x=1"}, 400, "heuristic takes no options"),
    ({"game": "ethnos", "config": {"num_players": "2"}, "opponents": "random;random"}, 400,
     "opponents: 2 agent specs for 1 other seats (player_1); give at most 1"),
    ({"game": "ethnos", "opponents": f"mcts:simulations={S.MAX_SIMULATIONS + 1}"}, 400,
     f"a search of {S.MAX_SIMULATIONS + 1} simulations per move is more than this server allows ({S.MAX_SIMULATIONS})"),
    ({"game": "ethnos", "opponents": f"mcts:{S.MAX_SIMULATIONS + 1}"}, 400, "more than this server allows"),
    ({"game": "ethnos", "opponents": "grandmaster"}, 400, "agent spec 'grandmaster' for player_1: unknown agent kind"),
    ({"game": "ethnos", "opponents": "random;"}, 400, "an agent spec is empty"),
    ({"game": "ethnos", "opponents": "mcts:simulations=0"}, 400, "agent spec 'mcts:simulations=0'"),
    ({"game": "ethnos", "opponents": "pretrained:path=nowhere.npz"}, 400, "agent spec 'pretrained:path=nowhere.npz'"),
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
        assert f["private"] == S.private_text(states[i], 1)
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
    real = S.png_bytes
    monkeypatch.setattr(S, "png_bytes", lambda state: drawn.append(state) or real(state))
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
        assert b"bad Content-Length" in answer and f"0..{S.MAX_BODY}".encode() in answer


def test_a_request_that_stops_half_way_is_dropped_after_the_timeout(monkeypatch):
    monkeypatch.setattr(S.Handler, "timeout", 1)
    srv = S.Server("127.0.0.1", 0, quiet=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        for data in (b"POST /api/play HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"ga",  # short body
                     b"GET / HTTP/1.1\r\nHost: x\r\n"):  # unfinished headers
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
    assert rec["seed"] == server.app.game(v["id"]).seed and 0 <= rec["seed"] <= S.MAX_SEED
    assert ether_envs.replay(rec).history == server.app.game(v["id"]).state.history
    shown = new_game(server, "aethermon_collect", {"num_players": 2}, seat=0, seed=12)
    assert shown["seed"] == 12 and shown["secret_seed"] is False


def test_fewer_specs_than_seats_are_used_in_turn_again(server):
    v = new_game(server, "ethnos", {"num_players": 4}, seat=0, opponents="heuristic;random")
    assert v["players"][1:] == ["player_1 (heuristic)", "player_2 (random)", "player_3 (heuristic)"]


def test_the_every_seat_replay_view_names_the_seat_on_each_line(server, ether_wars_record):
    s = ok(server, "POST", "/api/replay", ether_wars_record.to_json().encode(), status=201)
    every = ok(server, "GET", f"/api/replay/{s['id']}/frame/0")["private"]
    assert "you are" not in every
    assert every.split("\n") and all(line.startswith(("player_0: ", "player_1: ")) for line in every.split("\n"))
    assert S._seat_lines("you are player_1; your hand: A\nyour program: -", 1) == \
        "player_1: your hand: A\nplayer_1: your program: -"
    assert S._seat_lines("", 0) == "player_0: -"


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
