"""The browser app's sessions: a game being played (:class:`PlaySession`), a game record
being watched (:class:`ReplaySession`), and the table of both (:class:`Sessions`).

Games, agents and what each seat is shown; no HTTP here (:mod:`webapp.app` serves these).
A refused request raises :class:`AppError` with the HTTP status it maps to.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import re
import secrets
import sys
import threading
import time
from pathlib import Path
from typing import Any

import ether_envs

from . import explain
from .specs import SpecRefused, check_budget, check_spec, split_opponents
from .views import (RENDER_LOCK, board_targets, config_value, cut, jsonable, png_bytes, private_text, returns,
                    seat_lines, seed_text, short)

MAX_GAMES = 64
MAX_REPLAYS = 16
"""How many games and replays the server keeps. A replay: the least recently used goes
first; a game: see :meth:`Sessions.new_game` (finished, then idle games go first)."""
IDLE_AFTER = 15 * 60
"""Seconds without a request after which a game counts as idle (it may then make room for a
new one before the games in progress do)."""
MAX_REPLAY_ACTIONS = 20_000
"""Most actions a replayed record may hold: far above any real game (the longest of 500
seeds per game is 1,295 decisions: Ethnos, docs/records.md), while a record of a game
configured to run for ever (``max_rounds=20000``) would take minutes and gigabytes."""
CHECKPOINT_EVERY = 32
"""A replay keeps a clone of every ``CHECKPOINT_EVERY``-th position; any other is rebuilt
from the nearest earlier one (at most ``CHECKPOINT_EVERY - 1`` actions). The clones are kept
without their ``history`` (it is the record's actions: :meth:`ReplaySession.state_at` puts it
back), so they take the same memory however long the game."""
PNG_CACHE = 24
"""Pictures of replay positions kept per replay."""
MAX_SEED = 2**63 - 1
"""Largest seed accepted (a deal's seed is a whole number 0..MAX_SEED)."""


class AppError(Exception):
    """A request the app refuses: ``status`` (the HTTP status) and a message for the page.

    Attributes:
        status: 400 (bad input), 404 (no such game, replay or position), 409 (a stale
            page, or the game is over), 413 (a body too large), 500 (an agent failed).
        message: what went wrong, in words a person can act on (echoed values cut short).
        headers: extra response headers (e.g. ``Allow`` with a 405).
    """

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = int(status)
        self.message = message
        self.headers = headers or {}


def bad(message: str) -> AppError:
    """A 400 :class:`AppError`."""
    return AppError(400, message)


def read_json(body: bytes, what: str) -> Any:
    """``body`` (UTF-8 JSON text) parsed.

    Raises:
        AppError: (400) not UTF-8 or not JSON, nested too deeply, or a number of more
            digits than Python reads (4300), naming ``what`` the body should be.
    """
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise bad(f"{what} must be JSON: {e}") from None
    except RecursionError:
        raise bad(f"{what} must be JSON: malformed JSON (nested too deeply)") from None
    except ValueError as e:  # int("9" * 5000): Python reads at most 4300 digits
        raise bad(f"{what}: a number has more than {sys.get_int_max_str_digits()} digits, more than this server "
                  f"reads ({cut(str(e).split(';')[0], 120)})") from None


def whole_number(value: Any, what: str, allowed: str = "") -> int:
    """``value`` (a JSON number or a string of digits) as an int; at most 20 digits are read.

    Raises:
        AppError: (400) anything else, naming ``what``, the value (cut short) and ``allowed``.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**20:
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*-?[0-9]{1,20}\s*", value):
        return int(value)
    raise bad(f"{what} must be a whole number{' ' + allowed if allowed else ''}, got {short(value, 40)}")


# ---- a game being played -------------------------------------------------------------------
class PlaySession:
    """One person playing one seat against agents.

    Args:
        game: registered game name.
        config: the game's configuration (keyword arguments of ``load_game``).
        seat: the person's seat, 0-based.
        opponents: agent specs of the other seats: one string separated by ``;`` or a
            list of strings, given to the other seats in turn order (as ``ether-envs play
            --opponents``). Fewer specs than other seats are used in turn again
            (``"heuristic"``: every other seat; ``"heuristic;random"`` for three: heuristic,
            random, heuristic); more specs than other seats is refused. A 1-player game has
            no other seat: the field is then not used (empty or not).
        seed: the deal's seed (0..:data:`MAX_SEED`); agent ``p`` is seeded ``seed + 1 + p``.
            ``None``: a secret seed drawn by the server (:func:`secrets.randbelow`), not
            shown in the view (it would let a person rebuild the deal and see every hidden
            card); it appears only in the game record, once the game is over.
        weights_dir: the folder agents may load files from (``--allow-weights-dir``);
            ``None``: specs naming a file are refused (:mod:`webapp.specs`).

    Raises:
        AppError: (400) unknown game, bad configuration, seat, seed or agent spec, a spec
            the server refuses (``python:``, a file outside ``weights_dir``), or a search
            budget over its kind's cap (:data:`webapp.specs.SEARCH_CAPS`).
    """

    kind = "play"

    def __init__(self, game: str, config: dict[str, Any], seat: int, opponents: Any, seed: int | None,
                 weights_dir: Path | None = None):
        from agents import make_agent

        if game not in ether_envs.GAMES:
            raise bad(f"unknown game {short(game)}; the games are {', '.join(ether_envs.list_games())}")
        try:
            self.game = ether_envs.load_game(game, **config)
        except (ValueError, TypeError) as e:
            raise bad(f"bad configuration for {game}: {cut(str(e), 300)}") from None
        n = self.game.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise bad(f"your seat must be 0..{n - 1} for {n} players, got {short(seat)}")
        self.secret_seed = seed is None
        if seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise bad(f"the seed must be a whole number 0..2**63-1 (or empty for a secret deal), got {short(seed)}")
        others = [p for p in range(n) if p != seat]
        try:
            specs = split_opponents(opponents, len(others))
        except SpecRefused as e:
            raise bad(str(e)) from None
        if len(specs) > len(others):
            raise bad(f"opponents: {len(specs)} agent specs for {len(others)} other "
                      f"seat{'s' if len(others) != 1 else ''} "
                      f"({', '.join(f'player_{p}' for p in others)}); give at most {len(others)}, "
                      "separated by ';' (fewer are used in turn again)")
        self.agents = {}
        for i, p in enumerate(others):
            spec = specs[i % len(specs)]
            try:
                check_spec(spec, weights_dir)
                agent = make_agent(spec, self.game, seed=(seed + 1 + p) % 2**64)
                check_budget(spec, agent)
            except SpecRefused as e:
                raise bad(str(e)) from None
            except (ValueError, FileNotFoundError, ImportError) as e:
                raise bad(f"agent spec {short(spec)} for player_{p}: {cut(str(e), 600)}") from None
            self.agents[p] = agent
        self.name, self.seat, self.seed = game, seat, seed
        self.labels = ["you" if p == seat else self.agents[p].name for p in range(n)]
        self.state = self.game.new_initial_state(seed=seed)
        self.log: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.thinking = False  # the agents are choosing their moves (advance)
        self.used = time.monotonic()  # when a request last asked for this game (Sessions)
        self.id = ""
        self._board: tuple[int, bytes] | None = None  # (version, PNG) of the last picture
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
            AppError: (500) an agent failed or chose an illegal move; the moves made
                before it stay, the position is a legal one.
        """
        s = self.state
        self.thinking = True
        try:
            while not s.is_terminal() and s.current_player() != self.seat:
                p = s.current_player()
                agent = self.agents[p]
                try:
                    a = int(agent.act(s, p))
                    seen = s.public_action_string(a, self.seat)
                    s.apply_action(a)
                except Exception as e:  # an agent's fault, not the person's
                    raise AppError(500, f"player_{p}'s agent ({agent.name}) failed: {type(e).__name__}: {e}") from None
                self.log.append({"n": len(s.history), "player": p, "who": f"player_{p} ({agent.name})", "move": seen})
        finally:
            self.thinking = False

    @property
    def started(self) -> bool:
        """Whether the person has made a move in this game."""
        return any(entry["player"] == self.seat for entry in self.log)

    def move(self, action: Any, version: Any) -> None:
        """The person's move ``action`` (an action id), posted from the page state
        ``version``; then the agents' replies (:meth:`advance`).

        Raises:
            AppError: 409 when ``version`` is not the current one (a stale page) or the
                game is over; 400 when ``action`` is not one of the person's legal moves.
                The game is unchanged then.
        """
        s = self.state
        if isinstance(version, bool) or not isinstance(version, int):
            raise bad(f"a move needs the page's version (the number of moves made), got {short(version)}")
        if version != self.version:
            raise AppError(409, f"this page is out of date: it shows the game after {short(version)} moves, but "
                                f"{self.version} have been made (in another tab or window?). "
                                "The page now shows the current position; choose your move again.")
        if s.is_terminal():
            raise AppError(409, "the game is over: no more moves")
        if s.current_player() != self.seat:
            raise AppError(409, f"it is player_{s.current_player()}'s turn, not yours")
        legal = s.legal_actions()
        if isinstance(action, bool) or not isinstance(action, int) or action not in legal:
            raise bad(f"illegal move {short(action)}: not one of your {len(legal)} legal moves now "
                      f"(action ids {', '.join(map(str, legal))})")
        seen = s.public_action_string(action, self.seat)
        s.apply_action(action)
        self.log.append({"n": len(s.history), "player": self.seat, "who": f"you (player_{self.seat})", "move": seen})
        self.advance()

    def record_name(self) -> str:
        """The file name the game record is offered under: ``GAME_seedSEED.json``, or
        ``GAME_ID.json`` for a secret deal."""
        return f"{self.name}_{self.id}.json" if self.secret_seed else f"{self.name}_seed{self.seed}.json"

    def view(self) -> dict[str, Any]:
        """What the person's seat may see now (JSON-able): built only from
        ``observation_string(seat)``, ``public_action_string(., seat)``, the log of
        moves as the seat saw them, and at the end ``end_reason`` and the returns;
        ``targets``: where a click on the public picture makes one of ``moves``
        (:func:`~webapp.views.board_targets`).
        ``seed`` is a string of digits (exact in JavaScript), ``None`` for a secret deal."""
        s, seat = self.state, self.seat
        over = s.is_terminal()
        your_turn = not over and s.current_player() == seat
        legal = s.legal_actions() if your_turn else []
        moves = [{"action": int(a), "name": s.public_action_string(a, seat)} for a in legal]
        view = {
            "kind": "play", "id": self.id, "game": self.name, "title": self.game.spec.title,
            "config": jsonable(dataclasses.asdict(self.game.config)),
            "seed": None if self.secret_seed else seed_text(self.seed), "secret_seed": self.secret_seed,
            "utility": self.game.utility(),
            "seat": seat, "players": [f"player_{p} ({label})" for p, label in enumerate(self.labels)],
            "version": self.version, "over": over, "your_turn": your_turn,
            "to_move": None if over else int(s.current_player()),
            "moves": moves, "private": private_text(s, seat), "text": s.observation_string(seat),
            "log": list(self.log), "end_reason": s.end_reason(), "returns": returns(s) if over else None,
            "board": f"/api/play/{self.id}/board.png?v={self.version}",
            "targets": board_targets(s, legal),
            "record": f"/api/play/{self.id}/record.json", "record_name": self.record_name(),
        }
        explain.annotate_view(view, s, seat)  # decision, notes, readable_private, moves' label and help
        self.published = view
        return view

    def board_png(self, version: str | None = None) -> bytes:
        """The public picture of the current position (PNG; the last one is kept).

        Never waits on thinking agents: while they choose their moves, the last picture
        drawn is answered if it is of move ``version`` (or ``version`` is ``None``), else
        409. Pictures (of every game) are drawn one at a time; only the drawing waits for
        its turn (:data:`~webapp.views.RENDER_LOCK`), and a request that waited while the
        game moved on is answered 409 rather than drawn (the page asks for the newest).

        Raises:
            AppError: (409) ``version`` (as sent by the page) is no longer the game's, or
                the agents are thinking and no picture of ``version`` is kept;
                (400) ``version`` is not a whole number.
        """
        if version is not None and not re.fullmatch(r"[0-9]{1,9}", version):
            raise bad(f"board.png?v= must be the move number the page shows (a whole number), got {short(version)}")
        while not self.lock.acquire(timeout=0.05):  # held briefly (a view), or for long (thinking agents)
            if self.thinking:
                kept = self._board
                if kept is not None and version in (None, str(kept[0])):
                    return kept[1]
                raise AppError(409, f"picture of move {version} asked for, but the agents are making their "
                                    "moves: reload the page once they have moved")
        try:
            if version is not None and version != str(self.version):
                raise AppError(409, f"picture of move {version} asked for, but the game is at move "
                                    f"{self.version}: reload the page")
            v = self.version
            if self._board is not None and self._board[0] == v:
                return self._board[1]
            snapshot = self.state.clone()
        finally:
            self.lock.release()
        with RENDER_LOCK:  # one picture at a time (matplotlib)
            if version is not None and self.version != v:  # the game moved on while this waited
                raise AppError(409, f"picture of move {version} asked for, but the game is at move "
                                    f"{self.version}: reload the page")
            data = png_bytes(snapshot)
        self._board = (v, data)  # one assignment: read without the lock above
        return data

    def record(self):
        """The game record (:class:`~ether_envs.records.GameRecord`), the person's seat
        labelled ``human``.

        Raises:
            AppError: (409) the game is not over (the record holds every seat's secrets).
        """
        from ether_envs.records import record_from_state

        if not self.state.is_terminal():
            raise AppError(409, "the game record is offered once the game is over: it holds every "
                                "seat's secrets (the seed and every move)")
        labels = ["human" if p == self.seat else label for p, label in enumerate(self.labels)]
        return record_from_state(self.state, self.seed, players=labels, source="ether-envs serve")


# ---- a replay -------------------------------------------------------------------------------
class ReplaySession:
    """A game record opened for watching.

    Loading replays every action once, checks it against the record (legal moves, final
    scores, returns and end), names each move as every seat saw it and keeps a clone of
    every :data:`CHECKPOINT_EVERY`-th position (without its ``history``); pictures are drawn
    on demand.

    Args:
        record: the record as parsed JSON (a dict).

    Raises:
        AppError: (400) not a game record, unknown game, bad configuration or seed, more
            than :data:`MAX_REPLAY_ACTIONS` actions (or more than the game's
            ``max_game_length()``), an illegal action, or a replay that ends differently
            from the record.
    """

    kind = "replay"

    def __init__(self, record: Any):
        from ether_envs.records import GameRecord

        if not isinstance(record, dict):
            raise bad(f"not a game record: expected a JSON object, got {type(record).__name__}")
        actions = record.get("actions")
        if isinstance(actions, list) and len(actions) > MAX_REPLAY_ACTIONS:  # before reading them
            raise bad(f"the record has {len(actions)} actions; this server replays at most {MAX_REPLAY_ACTIONS} "
                      "(the longest real games are about 1,300 decisions)")
        try:
            rec = GameRecord.from_dict(record)
        except (ValueError, TypeError) as e:
            raise bad(cut(str(e), 600)) from None
        if rec.game not in ether_envs.GAMES:
            raise bad(f"the record is of an unknown game {short(rec.game)}; the games are "
                      f"{', '.join(ether_envs.list_games())}")
        if not isinstance(rec.config, dict):
            raise bad(f"the record's config must be a JSON object, got {short(rec.config)}")
        try:
            game = ether_envs.load_game(rec.game, **rec.config)
            state = game.new_initial_state(seed=rec.seed)
        except (ValueError, TypeError) as e:
            raise bad(f"the record's game cannot be set up: {cut(str(e), 300)}") from None
        if not isinstance(rec.actions, list) or len(rec.actions) > game.max_game_length():
            raise bad(f"the record's actions must be a list of at most {game.max_game_length()} action ids")
        n = game.num_players
        self.game, self.record, self.id = game, rec, ""
        self.movers: list[int] = []
        self.names: list[list[str]] = [[] for _ in range(n)]  # names[q][i]: action i as seat q saw it
        self.checkpoints = [self._checkpoint(state)]
        for i, a in enumerate(rec.actions):
            if isinstance(a, bool) or not isinstance(a, int):
                raise bad(f"the record does not replay: action {i} is {short(a)}, not an action id")
            p = state.current_player()
            try:
                for q in range(n):
                    self.names[q].append(state.public_action_string(a, q))
                state.apply_action(a)
            except ValueError as e:
                raise bad(f"the record does not replay: action {i} ({short(a)}) is illegal: "
                          f"{cut(str(e), 300)}") from None
            self.movers.append(p)
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self.checkpoints.append(self._checkpoint(state))
        got = ([float(v) for v in state.scores()], [float(v) for v in state.returns()], bool(state.is_terminal()))
        want = (list(rec.scores), list(rec.returns), rec.terminal)
        if got != want:
            raise bad(f"the replay differs from the record: (scores, returns, end) replayed {short(got, 300)}, "
                      f"recorded {short(want, 300)}")
        self.final = state
        self.end_reason = state.end_reason()
        self.lock = threading.Lock()
        self._pngs: collections.OrderedDict[int, bytes] = collections.OrderedDict()

    @staticmethod
    def _checkpoint(state):
        """A clone of ``state`` without its ``history`` (the record's actions up to it):
        kept whole, the checkpoints of a game of N actions would hold N**2 / 64 ids."""
        clone = state.clone()
        clone.history = []
        return clone

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
        m = re.fullmatch(r"player_([0-9]{1,6})", view)
        if not m or int(m.group(1)) >= self.game.num_players:
            raise bad(f"unknown view {short(view)}: one of {', '.join(self.views())}")
        return int(m.group(1))

    def state_at(self, i: int):
        """Position ``i`` (0 = the start), rebuilt from the nearest checkpoint (a new state
        of the caller's own).

        Raises:
            AppError: (404) no such position.
        """
        if not 0 <= i < self.num_frames:
            raise AppError(404, f"no position {i}: the replay has positions 0..{self.num_frames - 1}")
        with self.lock:  # cloning touches the original's lazily shared generator state
            if i == self.num_frames - 1:
                return self.final.clone()
            k = i // CHECKPOINT_EVERY
            s = self.checkpoints[k].clone()
        s.history = list(self.record.actions[:k * CHECKPOINT_EVERY])  # as the game had it (see _checkpoint)
        for a in self.record.actions[k * CHECKPOINT_EVERY:i]:
            s.apply_action(a)
        return s

    def summary(self, view: str | None = None) -> dict[str, Any]:
        """The replay's moves as ``view`` saw them (``player_K``; ``all``: each move as
        its own player saw it), with the record's summary (``seed`` as a string of digits)."""
        seat = self._view(view)
        rec = self.record
        names = [self.names[p if seat is None else seat][i] for i, p in enumerate(self.movers)]
        labels = rec.players if isinstance(rec.players, list) and len(rec.players) == self.game.num_players \
            else ["?"] * self.game.num_players
        return explain.annotate_summary({  # each move's label
            "kind": "replay", "id": self.id, "game": rec.game, "title": self.game.spec.title,
            "config": jsonable(dataclasses.asdict(self.game.config)), "seed": seed_text(rec.seed),
            "players": [f"player_{p} ({label})" for p, label in enumerate(labels)],
            "frames": self.num_frames, "view": view or "all", "views": self.views(),
            "moves": [{"player": p, "name": name} for p, name in zip(self.movers, names)],
            "scores": rec.scores, "returns": rec.returns, "terminal": rec.terminal,
            "end_reason": self.end_reason,
        })

    def frame(self, i: int, view: str | None = None) -> dict[str, Any]:
        """Position ``i``'s text as ``view`` saw it: a seat's ``observation_string``, or
        (``all``) the public board and every seat's private information."""
        seat = self._view(view)
        s = self.state_at(i)
        if seat is not None:
            text, private = s.observation_string(seat), private_text(s, seat)
        else:
            private = "\n".join(seat_lines(private_text(s, q), q) for q in range(self.game.num_players))
            text = s.render_text() + "\n" + private
        return explain.annotate_frame({"i": i, "view": view or "all", "text": text, "private": private,
                                       "to_move": None if s.is_terminal() else int(s.current_player()),
                                       "end_reason": s.end_reason(),
                                       "picture": f"/api/replay/{self.id}/frame/{i}.png"}, s)  # decision, notes

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


# ---- the table of sessions ------------------------------------------------------------------
class Sessions:
    """The games and replays a server holds, by id.

    Args:
        weights_dir: the folder agents may load files from (``--allow-weights-dir``;
            ``None``: no agent spec may name a file).

    Attributes:
        games: ``{id: PlaySession}``, least recently used first: at most :data:`MAX_GAMES`;
            a new game makes room by dropping a finished game, else an idle one, before
            a game in progress (:meth:`new_game`).
        replays: ``{id: ReplaySession}`` (the :data:`MAX_REPLAYS` most recently used).
    """

    def __init__(self, weights_dir: str | Path | None = None):
        self.weights_dir = None if weights_dir is None else Path(weights_dir).resolve()
        self.games: collections.OrderedDict[str, PlaySession] = collections.OrderedDict()
        self.replays: collections.OrderedDict[str, ReplaySession] = collections.OrderedDict()
        self._lock = threading.Lock()

    def _add(self, table: collections.OrderedDict, session, limit: int) -> str:
        with self._lock:
            sid = secrets.token_hex(6)
            session.id = sid
            table[sid] = session
            while len(table) > limit:
                table.pop(self._to_drop(table, sid))
        return sid

    @staticmethod
    def _to_drop(table: collections.OrderedDict, new: str) -> str:
        """The id to drop from a full ``table`` (least recently used first) to make room for
        the session ``new``: a replay, the least recently used; a game, the least recently
        used of the first kind there is of: finished games; idle games (no request for
        :data:`IDLE_AFTER` seconds, or the person has not moved yet); any game."""
        others = [sid for sid in table if sid != new]
        if not isinstance(table[new], PlaySession):
            return others[0]
        now = time.monotonic()
        for drop in (lambda g: g.state.is_terminal(),
                     lambda g: now - g.used >= IDLE_AFTER or not g.started):
            sid = next((sid for sid in others if drop(table[sid])), None)
            if sid is not None:
                return sid
        return others[0]

    def _get(self, table: collections.OrderedDict, sid: str, what: str):
        with self._lock:
            session = table.get(sid)
            if session is None:
                kept = (f"at most {MAX_GAMES} games, dropping finished and idle ones first" if what == "game"
                        else f"the {MAX_REPLAYS} most recent")
                raise AppError(404, f"no {what} with id {short(sid)} on this server (it keeps {kept}; "
                                    "was the server restarted?). Start a new one.")
            table.move_to_end(sid)
            session.used = time.monotonic()
            return session

    def game(self, sid: str) -> PlaySession:
        """The game ``sid``. Raises AppError (404) when there is none."""
        return self._get(self.games, sid, "game")

    def replay(self, sid: str) -> ReplaySession:
        """The replay ``sid``. Raises AppError (404) when there is none."""
        return self._get(self.replays, sid, "replay")

    def new_game(self, form: Any) -> PlaySession:
        """A new game from the form ``{game, config, seat, opponents, seed}``
        (``config``: ``{field: text}``, each text read by :func:`webapp.views.config_value`;
        ``seat`` and ``seed``: whole numbers or strings of digits; ``seed`` absent,
        ``null`` or empty: a secret seed, see :class:`PlaySession`).

        When :data:`MAX_GAMES` games are kept already, one is dropped to make room (its
        page then gets 404): the least recently used finished game; if none is finished,
        the least recently used idle game (no request for :data:`IDLE_AFTER` seconds, or
        the person has not made a move); if none is idle, the least recently used game.

        Raises:
            AppError: (400) a bad form (see :class:`PlaySession`).
        """
        if not isinstance(form, dict):
            raise bad("a new game needs a JSON object {game, config, seat, opponents, seed}")
        config = form.get("config") or {}
        if not isinstance(config, dict):
            raise bad(f"config must be an object of field: value, got {short(config)}")
        try:
            config = {str(k): config_value(v) if isinstance(v, str) else v for k, v in config.items()}
        except ValueError as e:  # a number of more than 4300 digits, or JSON nested too deeply
            raise bad(f"config: {e}") from None
        seed = form.get("seed")
        if seed is not None and not (isinstance(seed, str) and not seed.strip()):
            seed = whole_number(seed, "the seed", "0..2**63-1 (or empty for a secret deal)")
        else:
            seed = None  # a secret deal
        game = form.get("game", "")
        session = PlaySession(game if isinstance(game, str) else str(game), config,
                              whole_number(form.get("seat", 0), "seat"), form.get("opponents", "random"), seed,
                              weights_dir=self.weights_dir)
        session.id = "pending"
        session.advance()  # the agents before the person's first turn
        self._add(self.games, session, MAX_GAMES)
        return session

    def new_replay(self, body: bytes) -> ReplaySession:
        """A replay of the game record ``body`` (JSON text).

        Raises:
            AppError: (400) not JSON, or not a record that replays.
        """
        session = ReplaySession(read_json(body, "a game record"))
        self._add(self.replays, session, MAX_REPLAYS)
        return session
