"""``ether-envs serve``: play the games and watch game records in a web browser.

    ether-envs serve                       # http://127.0.0.1:8000/
    ether-envs serve --port 8080 --replay game.json

A small local web app on the standard library's ``http.server`` (no other dependency
beyond the ``render`` extra for the pictures). One page (``serve_page.html``, plain HTML
and JavaScript, nothing fetched from the network) talks to a JSON API:

* **Play**: a person picks a game, its configuration, a seat and the agent specs of the
  other seats (``random``, ``heuristic``, ``pretrained``, ``mcts:simulations=N``, ... as
  for ``ether-envs play``; several separated by ``;``, at most one per other seat, fewer
  used in turn again; a search agent may use at most :data:`MAX_SIMULATIONS` = 5,000
  simulations per move) and optionally the deal's seed (without one, the server draws a
  secret seed, kept out of the view: a known seed rebuilds the deal's hidden cards; the
  game record, offered once the game is over, holds it), then plays by clicking the legal moves, named in the game's
  own terms. Everything sent to the person is built from their seat's view only: the
  public picture (``render_rgb``), the seat's text view (``observation_string``), the
  moves as the seat sees them (``public_action_string``), and at the end why the game
  ended (``end_reason``) and the returns. The game record (which holds every secret) is
  offered only once the game is over.
* **Replay**: open a game record (JSON, :mod:`ether_envs.records`) and step or scrub
  through it, as any seat saw it or with every seat's secrets. Loading replays the
  actions once and keeps a clone every :data:`CHECKPOINT_EVERY` actions; each frame's
  picture is drawn only when asked for.

Every game has an id and a move counter (``version``: the number of moves made); a move
posted from an older page state (another tab, a double click) is refused with HTTP 409.
Bad input gets HTTP 400 (bad form, illegal move, malformed record, bad ``Content-Length``),
404 (unknown game id or URL), 405 (a method the path does not take; with ``Allow``), 409
(stale move, game over) or 413 (a body over :data:`MAX_BODY`), with ``{"error": message}``;
the page shows the message and the game in progress is left as it was. ``HEAD`` is
answered as ``GET`` without the body. A request whose headers or body have not arrived
within :data:`REQUEST_TIMEOUT` (30) seconds is dropped. While the agents think after a
move, ``GET /api/play/ID`` answers at once with the last view sent (the position before
the move).

The API (all JSON unless said otherwise)::

    GET  /                                   the page (HTML)
    GET  /api/games                          the games, their configuration fields and defaults
    POST /api/play     {game, config, seat, opponents, seed?} -> 201, the new game's view
    GET  /api/play/ID                        the person's view of game ID
    POST /api/play/ID/move  {version, action}                 -> the view after the agents' replies
    GET  /api/play/ID/board.png?v=VERSION    the public picture (PNG)
    GET  /api/play/ID/record.json            the game record, once the game is over
    POST /api/replay   (a game record)                        -> 201, the replay's moves
    GET  /api/replay/ID?view=V               moves as seen by V (``player_K`` or ``all``)
    GET  /api/replay/ID/frame/I?view=V       the text view of position I (0 = the start)
    GET  /api/replay/ID/frame/I.png          the picture of position I (PNG)

The app has no accounts or passwords: it listens on 127.0.0.1 unless ``--host`` says
otherwise, and anyone who can reach it can play every game on it.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import io
import json
import re
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import ether_envs
from training.evaluate import parse_config_value

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
MAX_BODY = 8 * 1024 * 1024
"""Largest request body accepted (bytes): a game record of the longest games is ~30 KiB."""
MAX_GAMES = 64
MAX_REPLAYS = 16
"""How many games and replays the server keeps (the least recently used go first)."""
CHECKPOINT_EVERY = 32
"""A replay keeps a clone of every ``CHECKPOINT_EVERY``-th position; any other is rebuilt
from the nearest earlier one (at most ``CHECKPOINT_EVERY - 1`` actions)."""
PNG_CACHE = 24
"""Pictures of replay positions kept per replay."""
MAX_SEED = 2**63 - 1
"""Largest seed accepted (a deal's seed is a whole number 0..MAX_SEED)."""
MAX_SIMULATIONS = 5000
"""Largest search budget of an agent the server builds: ``mcts`` and ``openspiel:*``
``simulations`` (times ``rollouts`` and ``worlds`` where given); larger is refused (400),
so that no agent thinks for minutes on the server's CPU."""
REQUEST_TIMEOUT = 30
"""Seconds the server waits for a request's headers or body before it drops the
connection (a client that stops half-way holds no thread for longer)."""
MAX_DRAIN = 64 * 1024 * 1024
"""A body larger than :data:`MAX_BODY` is read and discarded up to this many bytes, so
that the client receives the 413 answer (beyond it, the connection is closed unread)."""

PAGE = Path(__file__).with_name("serve_page.html")
_RENDER_LOCK = threading.RLock()  # matplotlib is not thread-safe: one picture at a time


class HTTPError(Exception):
    """An error answered to the client: ``status`` and a message for the page.

    Attributes:
        status: the HTTP status code (400, 404, 405, 409, 413, 500).
        message: what went wrong, in words a person can act on.
        headers: extra response headers (e.g. ``Allow`` with a 405).
    """

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = int(status)
        self.message = message
        self.headers = headers or {}


def _bad(message: str) -> HTTPError:
    return HTTPError(400, message)


REFUSED_KINDS = ("python",)
"""Agent kinds the server refuses (``python:`` imports and runs a module's code)."""


# ---- what a seat sees --------------------------------------------------------------------
def private_text(state, seat: int) -> str:
    """The lines of ``state.observation_string(seat)`` after the public board
    (``render_text``): the seat's own private information ("" when it holds none)."""
    obs = state.observation_string(seat)
    public = state.render_text()
    return obs[len(public):].strip("\n") if obs.startswith(public) else obs


def png_bytes(state) -> bytes:
    """The public picture of ``state`` (``render_rgb``) as PNG bytes (deterministic:
    the same position gives the same bytes).

    Raises:
        ImportError: matplotlib or pillow is missing (the ``render`` extra).
        ValueError: the game has no drawing module.
    """
    from PIL import Image

    from ether_envs.rendering import render_rgb

    with _RENDER_LOCK:  # re-entrant: callers may hold it already
        rgb = render_rgb(state)
    buf = io.BytesIO()
    Image.fromarray(rgb).save(buf, format="PNG", compress_level=3)
    return buf.getvalue()


def _returns(state) -> list[float]:
    return [round(float(r), 6) for r in state.returns()]


def game_catalogue() -> list[dict[str, Any]]:
    """What the new-game form offers: every registered game with its title, player
    counts, ``utility`` in its default configuration (``"identical"``: co-operative, the
    other seats are team-mates) and configuration fields (name and default, written as
    the form takes it)."""
    out = []
    for name in ether_envs.list_games():
        game = ether_envs.load_game(name)
        fields = [{"name": f.name, "default": config_text(getattr(game.config, f.name))}
                  for f in dataclasses.fields(game.config)]
        out.append({"name": name, "title": game.spec.title, "min_players": game.spec.min_players,
                    "max_players": game.spec.max_players, "utility": game.utility(), "fields": fields})
    return out


def config_text(value: Any) -> str:
    """A configuration value as the form shows it: strings bare, the rest as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, tuple):
        value = list(value)
    return json.dumps(value)


# ---- a game being played -------------------------------------------------------------------
class PlaySession:
    """One person playing one seat against agents.

    Args:
        game: registered game name.
        config: the game's configuration (keyword arguments of ``load_game``).
        seat: the person's seat, 0-based.
        opponents: agent spec of the other seats; several separated by ``;``, given to
            the other seats in turn order (as ``ether-envs play --opponents``). Fewer
            specs than other seats are used in turn again (``"heuristic"``: every other
            seat; ``"heuristic;random"`` for three: heuristic, random, heuristic); more
            specs than other seats is refused.
        seed: the deal's seed (0..:data:`MAX_SEED`); agent ``p`` is seeded ``seed + 1 + p``.
            ``None``: a secret seed drawn by the server (:func:`secrets.randbelow`), not
            shown in the view (it would let a person rebuild the deal and see every hidden
            card); it appears only in the game record, once the game is over.

    Raises:
        HTTPError: (400) unknown game, bad configuration, seat, seed or agent spec, an
            agent whose search is larger than :data:`MAX_SIMULATIONS`, or a ``python:`` spec
            (:data:`REFUSED_KINDS`: it would import and run code on the server).
    """

    kind = "play"

    def __init__(self, game: str, config: dict[str, Any], seat: int, opponents: str, seed: int | None):
        from agents import make_agent

        if game not in ether_envs.GAMES:
            raise _bad(f"unknown game {game!r}; the games are {', '.join(ether_envs.list_games())}")
        try:
            self.game = ether_envs.load_game(game, **config)
        except (ValueError, TypeError) as e:
            raise _bad(f"bad configuration for {game}: {e}") from None
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise _bad(f"your seat must be 0..{n - 1} for {n} players, got {seat!r}")
        self.secret_seed = seed is None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise _bad(f"the seed must be a whole number 0..2**63-1 (or empty for a secret deal), got {seed!r}")
        specs = [s.strip() for s in str(opponents).split(";")]
        if not all(specs):
            raise _bad(f"opponents: an agent spec is empty in {opponents!r} (e.g. random, heuristic, "
                       "pretrained, mcts:simulations=200; several separated by ';')")
        others = [p for p in range(n) if p != seat]
        if len(specs) > len(others):
            raise _bad(f"opponents: {len(specs)} agent specs for {len(others)} other seats "
                       f"({', '.join(f'player_{p}' for p in others)}); give at most {len(others)}, "
                       "separated by ';' (fewer are used in turn again)")
        for spec in specs:
            if spec.partition(":")[0].strip().lower() in REFUSED_KINDS:
                raise _bad(f"agent spec {spec!r}: this server does not run python: agents (they import and run "
                           "a module's code on the server); play your own agent with ether-envs play or "
                           "ether-envs evaluate on your machine")
        self.agents = {}
        for i, p in enumerate(others):
            spec = specs[i % len(specs)]
            try:
                agent = make_agent(spec, self.game, seed=(seed + 1 + p) % 2**64)
            except (ValueError, FileNotFoundError, ImportError) as e:
                raise _bad(f"agent spec {spec!r} for player_{p}: {e}") from None
            budget = _search_budget(agent)
            if budget > MAX_SIMULATIONS:
                raise _bad(f"agent spec {spec!r} for player_{p}: a search of {budget} simulations per move is "
                           f"more than this server allows ({MAX_SIMULATIONS})")
            self.agents[p] = agent
        self.name, self.seat, self.seed = game, seat, seed
        self.labels = ["you" if p == seat else self.agents[p].name for p in range(n)]
        self.state = self.game.new_initial_state(seed=seed)
        self.log: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.id = ""
        self._board: tuple[Any, int, bytes] | None = None  # (state object, version, PNG) of the last picture
        self.published: dict[str, Any] | None = None  # the last view sent (served while the agents think)

    def current_view(self) -> dict[str, Any]:
        """The view now, or, while a move is being made (the agents are thinking), the
        last view published: a GET never waits on a thinking agent."""
        if not self.lock.acquire(blocking=False):
            if self.published is not None:
                return self.published
            self.lock.acquire()
        try:
            return self.view()
        finally:
            self.lock.release()

    @property
    def version(self) -> int:
        """The number of moves made so far (the page sends it back with a move)."""
        return len(self.state.history)

    def advance(self) -> None:
        """Let the agents move until it is the person's turn or the game is over.

        Raises:
            HTTPError: (500) an agent failed or chose an illegal move; the moves made
                before it stay, the position is a legal one.
        """
        s = self.state
        while not s.is_terminal() and s.current_player() != self.seat:
            p = s.current_player()
            agent = self.agents[p]
            try:
                a = int(agent.act(s, p))
                seen = s.public_action_string(a, self.seat)
                s.apply_action(a)
            except Exception as e:  # an agent's fault, not the person's
                raise HTTPError(500, f"player_{p}'s agent ({agent.name}) failed: {type(e).__name__}: {e}") from None
            self.log.append({"n": len(s.history), "player": p, "who": f"player_{p} ({agent.name})", "move": seen})

    def move(self, action: Any, version: Any) -> None:
        """The person's move ``action`` (an action id), posted from the page state
        ``version``; then the agents' replies (:meth:`advance`).

        Raises:
            HTTPError: 409 when ``version`` is not the current one (a stale page) or the
                game is over; 400 when ``action`` is not one of the person's legal moves.
                The game is unchanged then.
        """
        s = self.state
        if isinstance(version, bool) or not isinstance(version, int):
            raise _bad(f"a move needs the page's version (the number of moves made), got {version!r}")
        if version != self.version:
            raise HTTPError(409, f"this page is out of date: it shows the game after {version} moves, but "
                                 f"{self.version} have been made (in another tab or window?). "
                                 "The page now shows the current position; choose your move again.")
        if s.is_terminal():
            raise HTTPError(409, "the game is over: no more moves")
        if s.current_player() != self.seat:
            raise HTTPError(409, f"it is player_{s.current_player()}'s turn, not yours")
        legal = s.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise _bad(f"illegal move {action!r}: not one of your {len(legal)} legal moves now "
                       f"(action ids {', '.join(map(str, legal))})")
        seen = s.public_action_string(action, self.seat)
        s.apply_action(action)
        self.log.append({"n": len(s.history), "player": self.seat, "who": f"you (player_{self.seat})", "move": seen})
        self.advance()

    def view(self) -> dict[str, Any]:
        """What the person's seat may see now (JSON-able): built only from
        ``observation_string(seat)``, ``public_action_string(., seat)``, the log of
        moves as the seat saw them, and at the end ``end_reason`` and the returns."""
        s, seat = self.state, self.seat
        over = s.is_terminal()
        your_turn = not over and s.current_player() == seat
        moves = ([{"action": int(a), "name": s.public_action_string(a, seat)} for a in s.legal_actions()]
                 if your_turn else [])
        view = {
            "kind": "play", "id": self.id, "game": self.name, "title": self.game.spec.title,
            "config": _jsonable(dataclasses.asdict(self.game.config)),
            "seed": None if self.secret_seed else self.seed, "secret_seed": self.secret_seed,
            "utility": self.game.utility(),
            "seat": seat, "players": [f"player_{p} ({label})" for p, label in enumerate(self.labels)],
            "version": self.version, "over": over, "your_turn": your_turn,
            "to_move": None if over else int(s.current_player()),
            "moves": moves, "private": private_text(s, seat), "text": s.observation_string(seat),
            "log": list(self.log), "end_reason": s.end_reason(), "returns": _returns(s) if over else None,
            "board": f"/api/play/{self.id}/board.png?v={self.version}",
        }
        self.published = view
        return view

    def board_png(self, version: str | None = None) -> bytes:
        """The public picture of the current position (PNG; the last one is kept).

        Pictures are drawn one at a time; a request that waited for its turn while the
        game moved on is answered 409 rather than drawn (the page asks for the newest).

        Raises:
            HTTPError: (409) ``version`` (as sent by the page) is no longer the game's.
        """
        if version is not None and not re.fullmatch(r"\d{1,9}", version):
            raise _bad(f"board.png?v= must be the move number the page shows (a whole number), got {version!r}")
        with _RENDER_LOCK:
            with self.lock:
                if version is not None and version != str(self.version):
                    raise HTTPError(409, f"picture of move {version} asked for, but the game is at move "
                                         f"{self.version}: reload the page")
                state, v = self.state, self.version
                if self._board is not None and self._board[0] is state and self._board[1] == v:
                    return self._board[2]
                snapshot = state.clone()
            data = png_bytes(snapshot)
            with self.lock:
                self._board = (state, v, data)
            return data

    def record(self):
        """The game record (:class:`~ether_envs.records.GameRecord`), the person's seat
        labelled ``human``.

        Raises:
            HTTPError: (409) the game is not over (the record holds every seat's secrets).
        """
        from ether_envs.records import record_from_state

        if not self.state.is_terminal():
            raise HTTPError(409, "the game record is offered once the game is over: it holds every "
                                 "seat's secrets (the seed and every move)")
        labels = ["human" if p == self.seat else label for p, label in enumerate(self.labels)]
        return record_from_state(self.state, self.seed, players=labels, source="ether-envs serve")


def _jsonable(x: Any) -> Any:
    from ether_envs.records import _jsonable as j

    return j(x)


def _seat_lines(text: str, seat: int) -> str:
    """Seat ``seat``'s private ``text`` with each line prefixed ``player_K: `` (and the
    seat's own "you are player_K" dropped), for the every-seat view of a replay."""
    text = re.sub(rf"^you are player_{seat}(?:[;,]\s*|\s*$)", "", text.strip("\n"))
    return "\n".join(f"player_{seat}: {line}" for line in (text.split("\n") if text else ["-"]))


def _search_budget(agent) -> int:
    """Simulations per move of a search agent (``mcts``, ``openspiel:*``; times its
    ``rollouts`` and ``worlds``), 0 for any other."""
    sims = getattr(agent, "simulations", None)
    if not isinstance(sims, int):
        return 0
    extra = getattr(agent, "_kwargs", {}) or {}
    factor = 1
    for key in ("rollouts", "worlds"):
        v = extra.get(key, 1)
        factor *= v if isinstance(v, int) and v > 1 else 1
    return sims * factor


# ---- a replay -------------------------------------------------------------------------------
class ReplaySession:
    """A game record opened for watching.

    Loading replays every action once, checks it against the record (legal moves, final
    scores, returns and end), names each move as every seat saw it and keeps a clone of
    every :data:`CHECKPOINT_EVERY`-th position; pictures are drawn on demand.

    Args:
        record: the record as parsed JSON (a dict).

    Raises:
        HTTPError: (400) not a game record, unknown game, bad configuration or seed, an
            illegal action, or a replay that ends differently from the record.
    """

    kind = "replay"

    def __init__(self, record: Any):
        from ether_envs.records import GameRecord

        if not isinstance(record, dict):
            raise _bad(f"not a game record: expected a JSON object, got {type(record).__name__}")
        try:
            rec = GameRecord.from_dict(record)
        except (ValueError, TypeError) as e:
            raise _bad(str(e)) from None
        if rec.game not in ether_envs.GAMES:
            raise _bad(f"the record is of an unknown game {rec.game!r}; the games are "
                       f"{', '.join(ether_envs.list_games())}")
        if not isinstance(rec.config, dict):
            raise _bad(f"the record's config must be a JSON object, got {rec.config!r}")
        try:
            game = ether_envs.load_game(rec.game, **rec.config)
            state = game.new_initial_state(seed=rec.seed)
        except (ValueError, TypeError) as e:
            raise _bad(f"the record's game cannot be set up: {e}") from None
        if not isinstance(rec.actions, list) or len(rec.actions) > game.max_game_length():
            raise _bad(f"the record's actions must be a list of at most {game.max_game_length()} action ids")
        n = game.num_players
        self.game, self.record, self.id = game, rec, ""
        self.movers: list[int] = []
        self.names: list[list[str]] = [[] for _ in range(n)]  # names[q][i]: action i as seat q saw it
        self.checkpoints = [state.clone()]
        for i, a in enumerate(rec.actions):
            if isinstance(a, bool) or not isinstance(a, int):
                raise _bad(f"the record does not replay: action {i} is {a!r}, not an action id")
            p = state.current_player()
            try:
                for q in range(n):
                    self.names[q].append(state.public_action_string(a, q))
                state.apply_action(a)
            except ValueError as e:
                raise _bad(f"the record does not replay: action {i} ({a}) is illegal: {e}") from None
            self.movers.append(p)
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(state.clone())
        got = ([float(v) for v in state.scores()], [float(v) for v in state.returns()], bool(state.is_terminal()))
        want = (list(rec.scores), list(rec.returns), rec.terminal)
        if got != want:
            raise _bad(f"the replay differs from the record: (scores, returns, end) replayed {got}, recorded {want}")
        self.final = state
        self.end_reason = state.end_reason()
        self.lock = threading.Lock()
        self._pngs: collections.OrderedDict[int, bytes] = collections.OrderedDict()

    @property
    def num_frames(self) -> int:
        """Positions in the replay: the start, then one after each action."""
        return len(self.record.actions) + 1

    def views(self) -> list[str]:
        """The views a replay can be watched in: each seat's, then ``all``."""
        return [f"player_{q}" for q in range(self.game.num_players)] + ["all"]

    def _view(self, view: str | None) -> int | None:
        """Seat of ``view`` (``None`` for ``all``)."""
        if view in (None, "", "all"):
            return None
        m = re.fullmatch(r"player_(\d+)", view)
        if not m or int(m.group(1)) >= self.game.num_players:
            raise _bad(f"unknown view {view!r}: one of {', '.join(self.views())}")
        return int(m.group(1))

    def state_at(self, i: int):
        """Position ``i`` (0 = the start), rebuilt from the nearest checkpoint (a new state
        of the caller's own).

        Raises:
            HTTPError: (404) no such position.
        """
        if not 0 <= i < self.num_frames:
            raise HTTPError(404, f"no position {i}: the replay has positions 0..{self.num_frames - 1}")
        with self.lock:  # cloning touches the original's lazily shared generator state
            if i == self.num_frames - 1:
                return self.final.clone()
            k = i // CHECKPOINT_EVERY
            s = self.checkpoints[k].clone()
        for a in self.record.actions[k * CHECKPOINT_EVERY:i]:
            s.apply_action(a)
        return s

    def summary(self, view: str | None = None) -> dict[str, Any]:
        """The replay's moves as ``view`` saw them (``player_K``; ``all``: each move as
        its own player saw it), with the record's summary."""
        seat = self._view(view)
        rec = self.record
        names = [self.names[p if seat is None else seat][i] for i, p in enumerate(self.movers)]
        labels = rec.players if isinstance(rec.players, list) and len(rec.players) == self.game.num_players \
            else ["?"] * self.game.num_players
        return {
            "kind": "replay", "id": self.id, "game": rec.game, "title": self.game.spec.title,
            "config": _jsonable(dataclasses.asdict(self.game.config)), "seed": rec.seed,
            "players": [f"player_{p} ({label})" for p, label in enumerate(labels)],
            "frames": self.num_frames, "view": view or "all", "views": self.views(),
            "moves": [{"player": p, "name": name} for p, name in zip(self.movers, names)],
            "scores": rec.scores, "returns": rec.returns, "terminal": rec.terminal,
            "end_reason": self.end_reason,
        }

    def frame(self, i: int, view: str | None = None) -> dict[str, Any]:
        """Position ``i``'s text as ``view`` saw it: a seat's ``observation_string``, or
        (``all``) the public board and every seat's private information."""
        seat = self._view(view)
        s = self.state_at(i)
        if seat is not None:
            text, private = s.observation_string(seat), private_text(s, seat)
        else:
            private = "\n".join(_seat_lines(private_text(s, q), q) for q in range(self.game.num_players))
            text = s.render_text() + "\n" + private
        return {"i": i, "view": view or "all", "text": text, "private": private,
                "to_move": None if s.is_terminal() else int(s.current_player()), "end_reason": s.end_reason(),
                "picture": f"/api/replay/{self.id}/frame/{i}.png"}

    def png(self, i: int) -> bytes:
        """The picture of position ``i`` (drawn on first request, then cached)."""
        with self.lock:
            if i in self._pngs:
                self._pngs.move_to_end(i)
                return self._pngs[i]
        data = png_bytes(self.state_at(i))
        with self.lock:
            self._pngs[i] = data
            while len(self._pngs) > PNG_CACHE:
                self._pngs.popitem(last=False)
        return data


# ---- the app --------------------------------------------------------------------------------
class App:
    """The sessions and the routes, independent of the HTTP server.

    Attributes:
        games: ``{id: PlaySession}`` (the :data:`MAX_GAMES` most recently used).
        replays: ``{id: ReplaySession}`` (the :data:`MAX_REPLAYS` most recently used).
    """

    def __init__(self):
        self.games: collections.OrderedDict[str, PlaySession] = collections.OrderedDict()
        self.replays: collections.OrderedDict[str, ReplaySession] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _add(self, table: collections.OrderedDict, session, limit: int) -> str:
        with self._lock:
            sid = secrets.token_hex(6)
            session.id = sid
            table[sid] = session
            while len(table) > limit:
                table.popitem(last=False)
        return sid

    def _get(self, table: collections.OrderedDict, sid: str, what: str):
        with self._lock:
            session = table.get(sid)
            if session is None:
                raise HTTPError(404, f"no {what} with id {_short(sid)} on this server (it keeps the "
                                     f"{MAX_GAMES if what == 'game' else MAX_REPLAYS} most recent; "
                                     "was the server restarted?). Start a new one.")
            table.move_to_end(sid)
            return session

    def game(self, sid: str) -> PlaySession:
        """The game ``sid``. Raises HTTPError (404) when there is none."""
        return self._get(self.games, sid, "game")

    def replay(self, sid: str) -> ReplaySession:
        """The replay ``sid``. Raises HTTPError (404) when there is none."""
        return self._get(self.replays, sid, "replay")

    def new_game(self, form: Any) -> PlaySession:
        """A new game from the form ``{game, config, seat, opponents, seed}``
        (``config``: ``{field: text}``, each text read by :func:`parse_config_value`;
        ``seed`` absent, ``null`` or empty: a secret seed, see :class:`PlaySession`).

        Raises:
            HTTPError: (400) a bad form (see :class:`PlaySession`).
        """
        if not isinstance(form, dict):
            raise _bad("a new game needs a JSON object {game, config, seat, opponents, seed}")
        config = form.get("config") or {}
        if not isinstance(config, dict):
            raise _bad(f"config must be an object of field: value, got {config!r}")
        config = {str(k): parse_config_value(v) if isinstance(v, str) else v for k, v in config.items()}
        seed = form.get("seed")
        if seed is not None and not (isinstance(seed, str) and not seed.strip()):
            seed = _int(seed, "the seed", "0..2**63-1 (or empty for a secret deal)")
        else:
            seed = None  # a secret deal
        session = PlaySession(str(form.get("game", "")), config, _int(form.get("seat", 0), "seat"),
                              _opponents(form.get("opponents", "random")), seed)
        session.id = "pending"
        session.advance()  # the agents before the person's first turn
        self._add(self.games, session, MAX_GAMES)
        return session

    def new_replay(self, body: bytes) -> ReplaySession:
        """A replay of the game record ``body`` (JSON text).

        Raises:
            HTTPError: (400) not JSON, or not a record that replays.
        """
        session = ReplaySession(_json(body, "a game record"))
        self._add(self.replays, session, MAX_REPLAYS)
        return session

    # -- routing -------------------------------------------------------------------------
    def handle(self, method: str, target: str, body: bytes = b"") -> tuple[int, str, bytes, dict[str, str]]:
        """Answer one request: ``(status, content type, body, extra headers)``; errors are
        ``{"error": message}`` with their status. ``HEAD`` is answered as ``GET`` (the
        HTTP handler sends no body)."""
        try:
            return (*self._route("GET" if method == "HEAD" else method, target, body), {})
        except HTTPError as e:
            return (*_json_reply({"error": e.message, "status": e.status}, e.status), e.headers)
        except ImportError as e:
            return (*_json_reply({"error": f"the pictures need the render extra: {e}", "status": 500}, 500), {})
        except Exception as e:  # a bug: say so in the page rather than drop the connection
            return (*_json_reply({"error": f"internal error: {type(e).__name__}: {e}", "status": 500}, 500), {})

    @staticmethod
    def allowed(parts: list[str]) -> tuple[str, ...]:
        """The methods of the route ``parts`` (the path split at ``/``); () for no route."""
        read = ("GET", "HEAD")
        if parts in (["" ], ["index.html"]):
            return read
        if parts[:1] != ["api"] or len(parts) < 2:
            return ()
        route = parts[1:]
        if route == ["games"]:
            return read
        if route in (["play"], ["replay"]):
            return ("POST",)
        if route[0] == "play" and len(route) == 3 and route[2] == "move":
            return ("POST",)
        if route[0] == "play" and (len(route) == 2 or (len(route) == 3 and route[2] in ("board.png", "record.json"))):
            return read
        if route[0] == "replay" and (len(route) == 2 or (len(route) == 4 and route[2] == "frame")):
            return read
        return ()

    def _route(self, method: str, target: str, body: bytes) -> tuple[int, str, bytes]:
        url = urlsplit(target)
        path = url.path.rstrip("/") or "/"
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = path.strip("/").split("/")
        allowed = self.allowed(parts)
        if allowed and method not in allowed:
            raise HTTPError(405, f"method {method} is not allowed for {_short(url.path)}: use {' or '.join(allowed)}",
                            {"Allow": ", ".join(allowed)})
        get, post = method == "GET", method == "POST"
        if path in ("/", "/index.html") and get:
            return 200, "text/html; charset=utf-8", PAGE.read_bytes()
        if parts[0] != "api" or len(parts) < 2:
            raise HTTPError(404, f"no page {_short(url.path)} here: open / for the app")
        route = parts[1:]
        if route == ["games"] and get:
            return _json_reply({"games": game_catalogue()})
        if route == ["play"] and post:
            session = self.new_game(_json(body, "the new-game form"))
            with session.lock:
                return _json_reply(session.view(), 201)
        if route[0] == "play" and len(route) >= 2:
            session = self.game(route[1])
            rest = route[2:]
            if rest == [] and get:
                return _json_reply(session.current_view())
            if rest == ["move"] and post:
                form = _json(body, "a move")
                if not isinstance(form, dict):
                    raise _bad("a move is a JSON object {version, action}")
                with session.lock:
                    session.move(form.get("action"), form.get("version"))
                    return _json_reply(session.view())
            if rest == ["board.png"] and get:
                return 200, "image/png", session.board_png(query.get("v"))
            if rest == ["record.json"] and get:
                with session.lock:
                    rec = session.record()
                return 200, "application/json", rec.to_json(indent=1).encode()
        if route == ["replay"] and post:
            session = self.new_replay(body)
            return _json_reply(session.summary(), 201)
        if route[0] == "replay" and len(route) >= 2:
            session = self.replay(route[1])
            rest = route[2:]
            if rest == [] and get:
                return _json_reply(session.summary(query.get("view")))
            if len(rest) == 2 and rest[0] == "frame" and get:
                m = re.fullmatch(r"(\d{1,12})(\.png)?", rest[1])
                if not m:
                    raise HTTPError(404, f"no position {_short(rest[1])}: positions are numbered "
                                         f"0..{session.num_frames - 1}")
                i = int(m.group(1))
                if m.group(2):
                    session.state_at(i)  # 404 for a position out of range
                    return 200, "image/png", session.png(i)
                return _json_reply(session.frame(i, query.get("view")))
        raise HTTPError(404, f"no API route {method} {_short(url.path)}")


def _short(text: str, limit: int = 60) -> str:
    """``repr(text)``, cut to about ``limit`` characters (a message never echoes a huge value)."""
    r = repr(text)
    return r if len(r) <= limit else f"{r[:limit - 10]}... ({len(text)} characters)"


def _opponents(value: Any) -> str:
    """The ``opponents`` field: one string of agent specs separated by ``;``, or a list of
    spec strings (joined with ``;``).

    Raises:
        HTTPError: (400) anything else, e.g. a number or a list holding a non-string.
    """
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return ";".join(value)
    raise _bad(f"opponents must be agent specs as a string separated by ';' or a list of strings "
               f"(e.g. \"heuristic;random\" or [\"heuristic\", \"random\"]), got {value!r}")


def _int(value: Any, what: str, allowed: str = "") -> int:
    """``value`` (a JSON number or a string of digits) as an int; at most 20 digits are read.

    Raises:
        HTTPError: (400) anything else, naming ``what``, the value and ``allowed``.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**20:
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?\d{1,20}\s*", value):
        return int(value)
    text = repr(value)
    text = text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"
    raise _bad(f"{what} must be a whole number{' ' + allowed if allowed else ''}, got {text}")


def _json(body: bytes, what: str) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _bad(f"{what} must be JSON: {e}") from None
    except RecursionError:
        raise _bad(f"{what} must be JSON: malformed JSON (nested too deeply)") from None


def _json_reply(obj: Any, status: int = 200) -> tuple[int, str, bytes]:
    return status, "application/json", json.dumps(obj).encode("utf-8")


# ---- HTTP ------------------------------------------------------------------------------------
class Handler(BaseHTTPRequestHandler):
    """Passes each request to the server's :class:`App`; logs only errors unless the
    server is verbose.

    A request must arrive within :data:`REQUEST_TIMEOUT` seconds (headers and body);
    ``HEAD`` is answered as ``GET`` without the body; PUT, DELETE, PATCH, OPTIONS and
    TRACE get 405 with an ``Allow`` header where the path exists (404 where it does not).
    """

    server: "Server"
    protocol_version = "HTTP/1.1"
    timeout = REQUEST_TIMEOUT

    def _answer(self, method: str) -> None:
        body = b""
        if method != "POST" and (self.headers.get("Content-Length", "0").strip() not in ("", "0")
                                 or "Transfer-Encoding" in self.headers):
            self.close_connection = True  # a body we do not read: the connection cannot be reused
        if method == "POST":
            text = self.headers.get("Content-Length", "0").strip()
            if not re.fullmatch(r"\d{1,15}", text):
                self.close_connection = True
                self._send(*_json_reply({"error": f"bad Content-Length {_short(text)}: it must be the body's "
                                                  f"size in bytes, 0..{MAX_BODY}", "status": 400}, 400),
                           {"Connection": "close"})
                return
            length = int(text)
            if length > MAX_BODY:
                self.close_connection = True
                self._send(*_json_reply({"error": f"the request body must be 0..{MAX_BODY} bytes, got {length} "
                                                  f"(a game record is far smaller)", "status": 413}, 413),
                           {"Connection": "close"})
                self._drain(length)
                return
            body = self.rfile.read(length)
            if len(body) < length:  # the client closed the connection half-way
                self.close_connection = True
                return
        status, ctype, data, headers = self.server.app.handle(method, self.path, body)
        self._send(status, ctype, b"" if method == "HEAD" else data, headers, length=len(data))

    def _drain(self, length: int) -> None:
        """Read and discard up to :data:`MAX_DRAIN` bytes of a refused body (so that the
        client, still sending, receives the answer rather than a reset connection)."""
        left = min(length, MAX_DRAIN)
        try:
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 20))
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:  # the client gave up, or the timeout
            pass

    def _send(self, status: int, ctype: str, data: bytes, headers: dict[str, str] | None = None,
              length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data) if length is None else length))
        self.send_header("Cache-Control", "no-store")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        try:
            self.wfile.write(data)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the page moved on (e.g. a newer picture)
            self.close_connection = True

    def do_GET(self) -> None:  # noqa: N802 (http.server's names)
        self._answer("GET")

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer("HEAD")

    def do_POST(self) -> None:  # noqa: N802
        self._answer("POST")

    def do_PUT(self) -> None:  # noqa: N802
        self._answer("PUT")

    def do_DELETE(self) -> None:  # noqa: N802
        self._answer("DELETE")

    def do_PATCH(self) -> None:  # noqa: N802
        self._answer("PATCH")

    def do_OPTIONS(self) -> None:  # noqa: N802
        self._answer("OPTIONS")

    def do_TRACE(self) -> None:  # noqa: N802
        self._answer("TRACE")

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        if self.server.verbose or (isinstance(code, int) and code >= 400) or str(code).startswith(("4", "5")):
            super().log_request(code, size)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        if self.server.quiet:
            return
        super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    """The HTTP server of an :class:`App` (one thread per request).

    Args:
        host, port: where to listen (port 0: a free port; see ``server_port``).
        app: the app (default: a new, empty one).
        verbose: log every request (default: only errors).
        quiet: log nothing.

    Raises:
        OSError: the address is in use or cannot be bound.
    """

    daemon_threads = True

    def __init__(self, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, app: App | None = None,
                 verbose: bool = False, quiet: bool = False):
        self.app = app or App()
        self.verbose, self.quiet = verbose, quiet
        super().__init__((host, port), Handler)

    @property
    def url(self) -> str:
        """The app's address, e.g. ``http://127.0.0.1:8000/``."""
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, replays: list[str] | None = None,
          verbose: bool = False, print_fn: Callable[[str], None] = print) -> None:
    """Run the app until interrupted (Ctrl-C).

    Args:
        host, port: where to listen (default 127.0.0.1:8000; port 0: any free port).
        replays: game record files to open as replays at start (their addresses are printed).
        verbose: log every request.

    Raises:
        ValueError: a record in ``replays`` does not replay, or the address cannot be
            bound (e.g. the port is in use).
        FileNotFoundError: a record file is missing.
    """
    app = App()
    opened = []
    for path in replays or []:
        if Path(path).is_dir():
            raise ValueError(f"{path} is a directory, not a game record file (RECORD.json)")
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise
        except OSError as e:
            raise ValueError(f"cannot read {path}: {e.strerror or e}") from None
        try:
            opened.append(app.new_replay(data))
        except HTTPError as e:
            raise ValueError(f"{path}: {e.message}") from None
    try:
        server = Server(host, port, app, verbose=verbose)
    except OSError as e:
        raise ValueError(f"cannot listen on {host}:{port}: {e} (choose another --port)") from None
    print_fn(f"ether-envs serve: open {server.url} in a browser (Ctrl-C to stop)")
    for session in opened:
        print_fn(f"  replay of {session.record.game}: {server.url}#replay/{session.id}")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print_fn("stopped")
    finally:
        server.server_close()


def _port(text: str) -> int:
    """``--port``: a whole number 0..65535 (argparse reports the error)."""
    if not re.fullmatch(r"\s*\d{1,5}\s*", text) or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"port must be 0..65535, got {text!r}")
    return int(text)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``ether-envs serve`` options."""
    p.add_argument("--host", default=DEFAULT_HOST,
                   help="address to listen on (default 127.0.0.1: this machine only; the app has no passwords)")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--replay", action="append", default=[], metavar="RECORD.json",
                   help="open a game record as a replay at start (repeatable); its address is printed")
    p.add_argument("--verbose", action="store_true", help="log every request (default: only errors)")


def run_from_args(args: argparse.Namespace) -> None:
    """``ether-envs serve`` with parsed arguments."""
    serve(args.host, args.port, replays=args.replay, verbose=args.verbose)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m training.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    run_from_args(parser.parse_args())
