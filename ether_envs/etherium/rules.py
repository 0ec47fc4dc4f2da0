"""Etherium rules engine (numpy only).

Rulebook sections are quoted by their headings (``rulebook "Connect"``);
assumptions by id (``ETM-A<n>``, listed in ``RULES.md``).

The game is driven by an explicit *agenda*: ``State.stack`` is a stack of
small :class:`~.codec.Task` records ``(kind, player, a, b)``. Automatic tasks (reveal a season,
perform a programmed action, detect conflicts, roll dice, ...) run as soon as
they reach the top; decision tasks stay on top until ``player`` chooses one of
their options (an action id). Effects push further tasks above the current one,
so nested choices (a Connection result that makes you lose 4 resources, a
pillage in the middle of an action step) resolve in the rulebook's order, and
a clone is just a copy of plain lists. See ``RULES.md`` "State machine".
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import mul

import numpy as np

from ..core import Game as _Game, GameSpec, State as _State, TERMINAL, build_config, check_int, win_loss_returns
from . import components as C
from . import fast
from .actions import ActionRules
from .codec import (  # noqa: F401  (the codec's names are read as rules.X too, e.g. by the heuristic agent)
    ABILITY0, BLOCK_OF, CODEC, CONFLICT0, COUNT0, D_ABILITY, D_CARDS, D_CHOOSE_CONFLICT, D_CONNECT_DICE,
    D_CONNECT_RESULT, D_DISCARD, D_ETHERIZE, D_FIRST, D_GAIN, D_GATHER, D_MEINAS, D_MOVE, D_PROGRAM, D_REROLL,
    D_RETREAT, D_SPEND, D_SPOIL, D_TAKE, D_TARGET, D_TRIBE, D_WINDOW, DECISION_NAMES, DISCARD0, FLASH0, GAIN0,
    INDEX_OF, MOVE0, NUM_DECISIONS, P_OVER, P_PERFORM, P_PLAY, P_PROGRAM, P_REVEAL, P_SEASON_END, P_SETUP, PASS,
    PHASE_NAMES, PROGRAM0, REROLL0, RESULT0, RETREAT0, SPEND0, SPOIL0, T_ACT, T_BATTLE_RESOLVE, T_BATTLE_ROLL,
    T_CONFLICT_AT, T_CONFLICTS, T_CONNECT_ROLL, T_DRAW, T_END, T_EXEC, T_PROGRAM_START, T_ROLL_DONE, T_SEASON,
    T_SEASON_END, T_SETUP, T_STEP, TAKE0, TARGET0, TRIBE0, USE_ABILITY, W_ACTION, W_CONFLICT, W_CONNECT, W_SEASON,
    WINDOW_CARDS, WINDOW_NAMES, Task)
from .conflicts import Battle, ConflictRules

TRIBE_SELECTIONS = ("random", "choose")
_PROGRAM_IDS = [PROGRAM0 + sp for sp in range(C.NUM_SPACES)]  # the PROGRAM ids of every space


@dataclass(frozen=True)
class Config:
    """Etherium configuration (all keyword arguments of ``make``/``load_game``).

    Attributes:
        num_players: 2..4 (rulebook).
        tribes: tribe names per seat (e.g. ``("Reces", "Ertis")``); ``None`` =
            ``tribe_selection`` decides (rulebook "Setup" 4: chosen or random).
        tribe_selection: ``"random"`` (drawn from the seed, default) or
            ``"choose"`` (seats 0, 1, ... each pick one with ``CHOOSE_TRIBE``).
    """

    num_players: int = 2
    tribes: tuple[str, ...] | None = None
    tribe_selection: str = "random"

    def __post_init__(self):
        def bad(msg):
            raise ValueError(f"etherium config: {msg}")

        if not isinstance(self.num_players, int) or not 2 <= self.num_players <= 4:
            bad(f"num_players must be 2, 3 or 4, got {self.num_players!r}")
        if self.tribe_selection not in TRIBE_SELECTIONS:
            bad(f"tribe_selection must be one of {TRIBE_SELECTIONS}, got {self.tribe_selection!r}")
        if self.tribes is not None:
            tr = tuple(self.tribes)
            if len(tr) != self.num_players or len(set(tr)) != len(tr) or any(t not in C.TRIBE_BY_NAME for t in tr):
                bad(f"tribes must be {self.num_players} distinct names from {list(C.TRIBE_BY_NAME)}, got {tr}")
            object.__setattr__(self, "tribes", tr)
            if self.tribe_selection == "choose":
                bad("give either tribes=... or tribe_selection='choose', not both")


class Game(_Game):
    """Etherium, configured (see :class:`Config`)."""

    spec = GameSpec(name="etherium", version=1, min_players=2, max_players=4, information="imperfect",
                    chance="sampled", utility="zero_sum", title="Etherium")
    codec = CODEC
    conformance_configs = (
        {"num_players": 2}, {"num_players": 3}, {"num_players": 4},
        {"num_players": 2, "tribe_selection": "choose"},
    )
    """Configurations the conformance suite runs: every player count and both tribe selections."""

    def __init__(self, **config):
        self.config = build_config(Config, config, "etherium")
        self.num_players = self.config.num_players
        self.cities = C.CITIES_BY_PLAYERS[self.num_players]
        # box -> owning seat for Cities in play, -1 otherwise (ETM-A2)
        self.city_owner = [-1] * C.NUM_BOXES
        for p, c in enumerate(self.cities):
            self.city_owner[C.city_box(c)] = p
        self.move_tables: dict[tuple[int, int, int, int, int], fast.MoveTable] = {}
        """Move options by (seat, colour, free steps, Gatherer box, Soldier box): ``fast.move_table``."""
        from .observation import Encoder

        self.encoder = Encoder(self)

    def max_game_length(self) -> int:
        """A loose upper bound on decisions (a safety valve for truncation).

        Per season: reveal <= 3n, phase-3 windows <= 19n (MAX_PLAYS_PER_WINDOW
        = 6 plays, 2 choices each, PASS), programming <= MAX_TOKENS * n,
        hand-limit discards <= NUM_FLASH_CARDS (44); per programmed action
        (<= MAX_TOKENS * n): its window <= 13 and its choices <= 49 (an
        Etherization pays at most 48 cubes); per action step (<= MAX_TOKENS) at
        most 3n conflicts of n rollers, each roll <= 22 decisions, re-rolled at
        most TIE_REROLL_LIMIT = 10 times (ETM-A14), plus retreats and spoils.
        """
        n = self.num_players
        per_conflict = C.TIE_REROLL_LIMIT * n * 22 + n + 5
        window = C.MAX_PLAYS_PER_WINDOW * 3 + 1  # each play: the card and up to 2 choices; then PASS
        per_season = (3 * n + window * n + C.MAX_TOKENS * n + C.NUM_FLASH_CARDS + C.MAX_TOKENS * n * 62
                      + C.MAX_TOKENS * 3 * n * per_conflict)
        return n + C.NUM_SEASONS * per_season

    def new_initial_state(self, seed: int | None = None) -> "State":
        return State(self, check_int("seed", seed, 0))


class State(ActionRules, ConflictRules, _State):
    """Etherium state. Per-seat fields are lists indexed by seat.

    Attributes:
        rng: the state's ``numpy.random.Generator`` (all chance).
        tribe: tribe id per seat (-1 while being chosen).
        res: per seat ``[Wood, Stone, Metal, Ether, Booster]`` cubes (public).
        lvl: per seat ``[Gatherer, Soldier, Guard, Guide]`` levels (Guide 0 = none).
        pos: per seat ``[Gatherer box, Soldier box]``.
        hand: per seat, Flash cards held per type (hidden from the others).
        deck: Flash card types, drawn from the end (hidden order); discard: counts per type.
        vt: per seat Victory tokens ``[Soldier, Ether, Connection, Booster, Pillage]``; vt_supply.
        ability: Ability id per seat (-1 none); ability_supply: copies left per Ability.
        seasons: the 7 season cards in order (``seasons[0]`` = Night); season: index revealed (-1 before).
        night_order: Night initiative (seats); order: current initiative order (seats).
        affinity: seat with the current season's affinity, or -1.
        program: per seat, the Action-board spaces of tokens 1, 2, ... (hidden until the reveal).
        ntok: per seat, Action tokens usable this season.
        revealed: programs are revealed (phase 5); step: action step being performed (0-based).
        march, harvest, craft, first_move: per seat, season bonuses waiting for the next
            Move / Gather / upgrade (Season cards "March", "Harvest", "Craft"; T6 A).
        stack: the agenda, a list of :class:`~.codec.Task` (see the module docstring);
            legal: options of the top decision.
        acting: ``(seat, space)`` of the programmed action being performed, or ``(-1, -1)``.
        roll_*: the die roll being modified (roller, dice, bonus, Ertis-rerolled flags, ability used).
        battle: the conflict being resolved (a :class:`~.conflicts.Battle`), or None.
        phase: season phase for the observation (``PHASE_NAMES``).
    """

    _clone_shared = ("legal",)
    """Fields whose lists ``clone()`` shares with the original: ``legal`` is only ever replaced."""

    def __init__(self, game: Game, seed: int | None):
        self.game = game
        cfg = game.config
        n = game.num_players
        self.rng = np.random.default_rng(seed)
        self.history: list[int] = []
        rng = self.rng
        # Season deck (rulebook "Setup" 3): Night first, one card of each of the 6 colours, shuffled
        sides = rng.integers(2, size=C.NUM_COLOURS).tolist()
        colours = rng.permutation(C.NUM_COLOURS).tolist()
        self.seasons = [C.NIGHT] + [c * 2 + sides[c] for c in colours]
        self.night_order = rng.permutation(n).tolist()  # ETM-A4
        deck = C.FLASH_DECK
        self.deck = [deck[i] for i in rng.permutation(len(deck)).tolist()]
        self.discard = [0] * C.NUM_FLASH_TYPES
        if cfg.tribes is not None:
            self.tribe = [C.TRIBE_BY_NAME[t] for t in cfg.tribes]
        elif cfg.tribe_selection == "random":
            self.tribe = rng.permutation(C.NUM_TRIBES)[:n].tolist()
        else:
            self.tribe = [-1] * n
        self.res = [[0] * 5 for _ in range(n)]
        self.lvl = [[1, 1, 1, 0] for _ in range(n)]
        self.pos = [[C.mountain_box(c)] * 2 for c in game.cities]  # rulebook "Setup" 5
        self.hand = [[0] * C.NUM_FLASH_TYPES for _ in range(n)]
        self.vt = [[0] * 5 for _ in range(n)]
        self.vt_supply = list(C.VT_SUPPLY)
        self.ability = [-1] * n
        self.ability_supply = [C.ABILITY_COPIES] * C.NUM_ABILITIES
        self.season = -1
        self.order = list(range(n))
        self.affinity = -1
        self.program = [[] for _ in range(n)]
        self.ntok = [C.BASE_TOKENS] * n
        self.revealed = False
        self.step = -1
        self.march = [0] * n
        self.harvest = [0] * n
        self.craft = [0] * n
        self.first_move = [0] * n
        self.acting = (-1, -1)
        self.roll_player = -1
        self.roll_dice: list[int] = []
        self.roll_power: list[bool] = []
        self.roll_bonus = 0
        self.roll_ability = False
        self.battle = None
        self.phase = P_SETUP
        self.legal: list[int] = []
        self.stack = [Task(T_SEASON, -1, 0), Task(T_SETUP, -1)]
        if self.tribe[0] < 0:
            self.stack += [Task(D_TRIBE, p) for p in reversed(range(n))]
        self._run()

    # ---- clone -------------------------------------------------------------
    _LIST_FIELDS = ("history", "seasons", "night_order", "deck", "discard", "tribe", "vt_supply", "ability",
                    "ability_supply", "order", "ntok", "march", "harvest", "craft", "first_move", "roll_dice",
                    "roll_power", "stack")
    """Fields holding a list of immutable items (ints, bools, :class:`~.codec.Task`), copied by ``clone()``."""
    _NESTED_FIELDS = ("res", "lvl", "pos", "hand", "vt", "program")
    """Fields holding one list per seat, copied two levels deep by ``clone()``."""

    def clone(self) -> "State":
        """An independent copy: every field; the lists copied (:attr:`_LIST_FIELDS`,
        :attr:`_NESTED_FIELDS`, the ``battle``), ``legal`` shared (``_clone_shared``); the
        generator's state is copied lazily."""
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        for k in self._LIST_FIELDS:
            d[k] = d[k][:]
        for k in self._NESTED_FIELDS:
            d[k] = [x[:] for x in d[k]]
        if self.battle is not None:
            d["battle"] = self.battle.copy()
        self._share_rng_state(s)
        return s

    # ---- public queries ------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == P_OVER:
            return TERMINAL
        return self.stack[-1].player

    def is_terminal(self) -> bool:
        return self.phase == P_OVER

    def _legal_actions(self) -> list[int]:
        return self.legal  # read-only here: State.legal_actions copies it

    def _is_legal(self, action: int) -> bool:
        return action in self.legal

    def decision(self) -> int:
        """Kind of the pending decision (``D_*``), or -1 at the end."""
        return self.stack[-1].kind if self.stack else -1

    def reserve(self, r: int) -> int:
        """Cubes of resource ``r`` left in the reserve (rulebook "Resources": limited)."""
        return C.CUBES_PER_COLOUR - sum([x[r] for x in self.res])

    def hand_size(self, p: int) -> int:
        return sum(self.hand[p])

    def hand_limit(self, p: int) -> int:
        return C.HAND_LIMIT + (1 if self.ability[p] == C.A_ARCHIVIST else 0)

    def season_card(self) -> int:
        return self.seasons[self.season] if self.season >= 0 else -1

    def score(self, p: int) -> int:
        """Prestige (rulebook "End of the Game"): Victory tokens, Ability, Guide level,
        1 per 2 Ether cubes."""
        a = self.ability[p]
        return (sum(map(mul, self.vt[p], C.VT_POINTS))
                + (C.ABILITIES[a].vp if a >= 0 else 0) + self.lvl[p][C.GUIDE] + self.res[p][C.ETHER] // C.ETHER_PER_PRESTIGE)

    def tiebreak(self, p: int) -> int:
        """Rulebook "Ether": other resources break ties (ETM-A15: every cube left over)."""
        return sum(self.res[p][:3]) + self.res[p][C.BOOSTER] + self.res[p][C.ETHER] % C.ETHER_PER_PRESTIGE

    def scores(self) -> np.ndarray:
        return np.array([self.score(p) for p in range(self.num_players)], dtype=np.float64)

    def winners(self) -> list[int]:
        key = [(self.score(p), self.tiebreak(p)) for p in range(self.num_players)]
        best = max(key)
        return [p for p in range(self.num_players) if key[p] == best]

    def _terminal_returns(self) -> np.ndarray:
        return win_loss_returns(self.winners(), self.num_players)

    def final_info(self) -> dict:
        return {"winners": self.winners(), "tribes": [C.TRIBES[t].name for t in self.tribe]}

    # ---- the agenda driver -----------------------------------------------------
    def _run(self) -> None:
        """Run automatic tasks until a decision with options is on top."""
        stack = self.stack
        while stack:
            t = stack[-1]
            k = t.kind
            if k >= D_FIRST:
                opts = _OPTIONS[k](self, t)
                # a Flash window with only PASS is still offered to a player holding a card (ETM-A10)
                if opts and (k != D_WINDOW or len(opts) > 1 or any(self.hand[t.player])):
                    self.legal = opts
                    return
                stack.pop()
                continue
            stack.pop()
            _HANDLERS[k](self, t)
        self.legal = []
        self.phase = P_OVER

    def _apply_action(self, action: int) -> None:
        t = self.stack[-1]
        _DECIDE[t.kind](self, t, BLOCK_OF[action], INDEX_OF[action], action)
        self._run()

    def _replace_top(self, t) -> None:
        self.stack[-1] = t

    def _count_down(self, t) -> None:
        """Decisions taken ``n`` times (gain/lose/steal/discard): one done."""
        if t.a > 1:
            self.stack[-1] = Task(t.kind, t.player, t.a - 1, t.b)
        else:
            self.stack.pop()

    # ---- options of each decision ----------------------------------------------
    def _options(self, t) -> list[int]:
        return _OPTIONS[t.kind](self, t)

    def _opt_tribe(self, t):
        taken = set(self.tribe)
        return [TRIBE0 + i for i in range(C.NUM_TRIBES) if i not in taken]

    def _opt_window(self, t):
        p, window, plays = t.player, t.a, t.b
        out = [PASS]
        h = self.hand[p]
        if plays < C.MAX_PLAYS_PER_WINDOW:
            for c in WINDOW_CARDS[window]:
                if h[c] and (c != C.F_SHIELD or not self.battle.shields[self._battle_index(p)]) \
                        and (c != C.F_REROLL or self.roll_dice):
                    out.append(FLASH0 + c)
        if window >= W_CONNECT:
            if self.tribe[p] == C.ERTIS:  # rulebook Ertis "Power": re-roll a 1 or a 2 (ETM-A28)
                for face in C.ERTIS_REROLL_FACES:
                    if any(d == face and not u for d, u in zip(self.roll_dice, self.roll_power)):
                        out.append(REROLL0 + face - 1)
            if not self.roll_ability and self._ability_usable(p, window):
                out.append(USE_ABILITY)
        return out

    def _ability_usable(self, p: int, window: int) -> bool:
        a = self.ability[p]
        if a == C.A_WARLORD and window == W_CONFLICT:
            return self.res[p][C.METAL] > 0 and self.battle.units[self._battle_index(p)] == C.SOLDIER
        if a == C.A_ORACLE and window == W_CONNECT:
            return self.res[p][C.WOOD] > 0
        return False

    def _opt_gain(self, t):
        """Basic resources left in the reserve (none: the gain is skipped); an optional
        gain (``t.b`` = 1: "may gain", "can take", "lets you take"; ETM-A33) also offers
        PASS, which takes no more."""
        out = [GAIN0 + r for r in C.BASIC if self.reserve(r) > 0]
        if out and t.b:
            out.insert(0, PASS)
        return out

    def _opt_spend(self, t):
        r = self.res[t.player]
        return [SPEND0 + i for i in C.BASIC if r[i] > 0]

    def _opt_take(self, t):
        r = self.res[t.a]
        return [TAKE0 + i for i in C.BASIC if r[i] > 0]

    def _opt_discard(self, t):
        h = self.hand[t.player]
        return [DISCARD0 + c for c in range(C.NUM_FLASH_TYPES) if h[c]]

    def _opt_meinas(self, t):
        h = self.hand[t.player]
        if not any(h):
            return []
        return [PASS] + [DISCARD0 + c for c in range(C.NUM_FLASH_TYPES) if h[c]]

    def program_spaces(self, p: int) -> list[int]:
        """Free spaces for ``p``'s next token (rulebook "Program Actions": one token per
        space; "Connect": at most two a season, ETM-A9: Connect 2 after Connect 1;
        T6 B: one Connect)."""
        return [a - PROGRAM0 for a in self._opt_program(Task(D_PROGRAM, p))]

    def _opt_program(self, t):
        used = self.program[t.player]
        out = _PROGRAM_IDS.copy()
        for sp in used:  # one token per space
            out.remove(PROGRAM0 + sp)
        for before, sp in zip(C.CONNECT_SPACES, C.CONNECT_SPACES[1:]):
            # Connect k + 1 only after Connect k (ETM-A9); a single Connect under T6 B
            if sp not in used and (before not in used or self.season_card() == C.T6_B):
                out.remove(PROGRAM0 + sp)
        return out

    # ---- reveal a season (rulebook "1- Reveal a New Season") ------------------
    def _h_setup(self, t):
        """Rulebook "Setup" 4: unit levels and resources per tribe (ETM-A3)."""
        for p, tr in enumerate(self.tribe):
            tribe = C.TRIBES[tr]
            self.lvl[p] = list(tribe.levels)
            self.res[p] = list(tribe.resources)
            self._draw(p, tribe.flash_cards)

    def _h_season(self, t):
        s = t.a
        n = self.num_players
        self.season = s
        card = self.seasons[s]
        self.phase = P_REVEAL
        if card == C.NIGHT:
            self.order = self.night_order[:]
            self.affinity = -1
        else:
            seat_of = {tr: p for p, tr in enumerate(self.tribe)}
            self.order = [seat_of[tr] for tr in C.season_initiative_tribes(card) if tr in seat_of]
            aff = C.COLOUR_TRIBE[card // 2]
            self.affinity = seat_of.get(aff, -1)
        self.program = [[] for _ in range(n)]
        self.revealed = False
        self.step = -1
        self.march = [0] * n
        self.harvest = [0] * n
        self.craft = [0] * n
        self.first_move = [1 if card == C.T6_A else 0] * n
        st = self.stack
        st.append(Task(T_SEASON_END, -1, s))
        st.append(Task(T_STEP, -1))
        st.append(Task(T_PROGRAM_START, -1))
        for p in reversed(self.order):
            st.append(Task(D_WINDOW, p, W_SEASON))
        st.append(Task(T_DRAW, -1))
        # ability triggers, then the season's optional reveal action, in initiative order
        for p in reversed(self.order):
            if self.ability[p] == C.A_RESOURCE:  # "lets you take 1 basic resource": optional (ETM-A33)
                st.append(Task(D_GAIN, p, 1, 1))
        if card == C.MEINAS_B:
            for p in reversed(self.order):
                st.append(Task(D_MEINAS, p))

    def _h_draw(self, t):
        """Rulebook "2- Draw a Flash Card" (+ Archivist, Meinas A)."""
        extra = 1 if self.season_card() == C.MEINAS_A else 0
        for p in self.order:
            self._draw(p, 1 + extra + (1 if self.ability[p] == C.A_ARCHIVIST else 0))
        self.phase = P_PLAY

    def _draw(self, p: int, k: int) -> int:
        """Draw ``k`` Flash cards; an empty deck is rebuilt from the shuffled discard pile."""
        got = 0
        for _ in range(k):
            if not self.deck:
                if not any(self.discard):
                    break
                pile = [c for c in range(C.NUM_FLASH_TYPES) for _ in range(self.discard[c])]
                self.deck = [pile[i] for i in self.rng.permutation(len(pile)).tolist()]
                self.discard = [0] * C.NUM_FLASH_TYPES
            self.hand[p][self.deck.pop()] += 1
            got += 1
        return got

    def cards_available(self) -> int:
        return len(self.deck) + sum(self.discard)

    # ---- program (rulebook "4- Program Actions") ---------------------------------
    def _h_program_start(self, t):
        self.phase = P_PROGRAM
        for p in range(self.num_players):
            self.ntok[p] = C.BASE_TOKENS + min(self.res[p][C.BOOSTER], C.MAX_TOKENS - C.BASE_TOKENS)  # rulebook "Booster"
        for p in reversed(self.order):  # sequential hidden commits in initiative order (ETM-A21)
            self.stack.append(Task(D_PROGRAM, p))

    # ---- perform (rulebook "5- Reveal and Perform Actions") --------------------
    def _h_step(self, t):
        k = t.a
        self.phase = P_PERFORM
        self.revealed = True
        actors = [p for p in self.order if len(self.program[p]) > k]
        if not actors:
            self.step = -1
            self.acting = (-1, -1)
            return
        self.step = k
        st = self.stack
        st.append(Task(T_STEP, -1, k + 1))
        st.append(Task(T_CONFLICTS, -1))
        for p in reversed(actors):
            st.append(Task(T_ACT, p, k))

    def _h_act(self, t):
        p = t.player
        space = self.program[p][t.a]
        self.acting = (p, space)
        self.stack.append(Task(T_EXEC, p, space))
        self.stack.append(Task(D_WINDOW, p, W_ACTION))

    # ---- season end and game end -------------------------------------------------
    def _h_season_end(self, t):
        s = t.a
        self.phase = P_SEASON_END
        self.acting = (-1, -1)
        if s + 1 >= C.NUM_SEASONS:
            self.stack.append(Task(T_END, -1))
            return
        self.stack.append(Task(T_SEASON, -1, s + 1))
        for p in reversed(self.order):  # rulebook "Draw a Flash Card": hand limit at season change (ETM-A26)
            excess = self.hand_size(p) - self.hand_limit(p)
            if excess > 0:
                self.stack.append(Task(D_DISCARD, p, excess))

    def _h_end(self, t):
        self.stack.clear()

    # ---- decisions ---------------------------------------------------------------
    def _d_tribe(self, t, block, i, a):
        self.tribe[t.player] = i
        self.stack.pop()

    def _d_window(self, t, block, i, a):
        p = t.player
        if a == PASS:
            self.stack.pop()
            return
        if block == "REROLL_DIE":  # Ertis power
            for j, d in enumerate(self.roll_dice):
                if d == i + 1 and not self.roll_power[j]:
                    self.roll_dice[j] = int(self.rng.integers(1, C.DIE_FACES + 1))
                    self.roll_power[j] = True
                    break
            return
        if a == USE_ABILITY:
            self.res[p][C.METAL if self.ability[p] == C.A_WARLORD else C.WOOD] -= 1
            self.roll_bonus += 1
            self.roll_ability = True
            return
        self._replace_top(Task(t.kind, p, t.a, t.b + 1))
        self.hand[p][i] -= 1
        self._play_flash(p, i)
        self.discard[i] += 1  # rulebook: "Discard them once resolved"

    def _play_flash(self, p: int, c: int) -> None:
        """Flash card effects (ETM-A5, ETM-A6)."""
        if c == C.F_PLUS1:
            self.roll_bonus += 1
        elif c == C.F_PLUS2:
            self.roll_bonus += 2
        elif c == C.F_REROLL:
            self.stack.append(Task(D_REROLL, p))
        elif c == C.F_RESOURCE:
            self.stack.append(Task(D_GAIN, p, 1))
        elif c == C.F_SHIELD:
            self.battle.shields[self._battle_index(p)] = True
        elif c == C.F_EXTRA_DIE:
            self.roll_dice.append(int(self.rng.integers(1, C.DIE_FACES + 1)))
            self.roll_power.append(False)
        elif c == C.S_TWO_RESOURCES:
            self.stack.append(Task(D_GAIN, p, 2))
        elif c == C.S_ETHER:
            self.gain_ether(p, 1)
        elif c == C.S_MARCH:
            self.march[p] += 1
        elif c == C.S_HARVEST:
            self.harvest[p] += 1
        elif c == C.S_CRAFT:
            self.craft[p] += 1
        else:
            self._draw(p, 2)

    def _d_gain(self, t, block, i, a):
        if a == PASS:  # an optional gain declined (ETM-A33)
            self.stack.pop()
            return
        self.res[t.player][i] += 1
        self._count_down(t)

    def _d_spend(self, t, block, i, a):
        self.res[t.player][i] -= 1
        self._count_down(t)

    def _d_take(self, t, block, i, a):
        self.res[t.a][i] -= 1
        self.res[t.player][i] += 1
        if t.b > 1:
            self.stack[-1] = Task(t.kind, t.player, t.a, t.b - 1)
        else:
            self.stack.pop()

    def _d_discard(self, t, block, i, a):
        self.hand[t.player][i] -= 1
        self.discard[i] += 1
        self._count_down(t)

    def _d_meinas(self, t, block, i, a):
        self.stack.pop()
        if a != PASS:  # Meinas B (ETM-A4): discard 1 Flash card to gain 1 basic resource
            self.hand[t.player][i] -= 1
            self.discard[i] += 1
            self.stack.append(Task(D_GAIN, t.player, 1))

    def _d_program(self, t, block, i, a):
        p = t.player
        self.program[p].append(i)
        if len(self.program[p]) >= self.ntok[p]:
            self.stack.pop()

    # ---- hidden information ----------------------------------------------------------
    def _redraw_hidden(self, player: int, rng: np.random.Generator) -> None:
        """Redraw what ``player`` cannot see: the other hands and the deck order
        (same hand sizes), the unrevealed season cards (their A/B sides and
        order), and the other players' programs before the reveal."""
        n = self.num_players
        others = [q for q in range(n) if q != player]
        pool = list(self.deck)
        for q in others:
            for c in range(C.NUM_FLASH_TYPES):
                pool += [c] * self.hand[q][c]
        pool = [pool[int(i)] for i in rng.permutation(len(pool))]
        for q in others:
            k = self.hand_size(q)
            h = [0] * C.NUM_FLASH_TYPES
            for c in pool[:k]:
                h[c] += 1
            self.hand[q] = h
            pool = pool[k:]
        self.deck = pool
        future = self.seasons[self.season + 1:] if self.season >= 0 else self.seasons[1:]
        if future:
            colours = [c // 2 for c in future]
            perm = rng.permutation(len(colours))
            sides = rng.integers(2, size=len(colours))
            self.seasons = self.seasons[:len(self.seasons) - len(future)] + [
                colours[int(j)] * 2 + int(sd) for j, sd in zip(perm, sides)]
        if not self.revealed:  # a random legal program of the same length
            for q in others:
                k = len(self.program[q])
                self.program[q] = []
                for _ in range(k):
                    opts = self.program_spaces(q)
                    self.program[q].append(opts[int(rng.integers(len(opts)))])
        if self.stack and self.stack[-1].kind >= D_FIRST:
            self.legal = self._options(self.stack[-1])

    # ---- text views: what a seat is shown (text.py) -------------------------------
    def _observation_string(self, player: int) -> str:
        from .text import seat_text
        return seat_text(self, player)

    def _public_action_string(self, action: int, observer: int) -> str:
        from .text import public_action_string
        return public_action_string(self, action, observer)

    def _end_reason(self) -> str:
        from .text import end_reason
        return end_reason(self)

    # ---- text picture --------------------------------------------------------------
    def render_text(self) -> str:
        """Neutral (public) view: season, initiative, units, resources, tokens."""
        n = self.num_players
        card = self.season_card()
        lines = [f"Etherium  {n} players  season {self.season + 1}/7: "
                 f"{C.SEASON_NAMES[card] if card >= 0 else '-'}  phase: {PHASE_NAMES[self.phase]}"]
        lines.append("initiative: " + " > ".join(f"player_{p}" for p in self.order))
        for p in range(n):
            tr = C.TRIBES[self.tribe[p]].name if self.tribe[p] >= 0 else "?"
            r = self.res[p]
            lv = self.lvl[p]
            prog = ([C.SPACE_NAMES[s] for s in self.program[p]] if self.revealed
                    else [f"{len(self.program[p])} hidden"])
            marker = ">" if p == self.current_player() else " "
            lines.append(
                f"{marker} player_{p} {tr:<7} VP {self.score(p):>2}  W{r[0]} S{r[1]} M{r[2]} E{r[3]} B{r[4]}  "
                f"G{lv[0]}@{C.BOX_NAMES[self.pos[p][0]]} S{lv[1]}@{C.BOX_NAMES[self.pos[p][1]]} "
                f"Guard{lv[2]} Guide{lv[3]}  cards {self.hand_size(p)}  tokens {self.ntok[p]}  "
                f"program: {', '.join(prog) or '-'}")
        if self.phase == P_OVER:
            lines.append(f"game over: winners {['player_%d' % w for w in self.winners()]}")
        else:
            lines.append(f"to act: player_{self.current_player()} ({DECISION_NAMES[self.decision() - D_FIRST]})")
        return "\n".join(lines)



_HANDLERS = {
    T_SETUP: State._h_setup, T_SEASON: State._h_season, T_DRAW: State._h_draw,
    T_PROGRAM_START: State._h_program_start, T_STEP: State._h_step, T_ACT: State._h_act,
    T_EXEC: State._h_exec, T_CONNECT_ROLL: State._h_connect_roll, T_CONFLICTS: State._h_conflicts,
    T_CONFLICT_AT: State._h_conflict_at, T_BATTLE_ROLL: State._h_battle_roll, T_ROLL_DONE: State._h_roll_done,
    T_BATTLE_RESOLVE: State._h_battle_resolve, T_SEASON_END: State._h_season_end, T_END: State._h_end,
}
_HANDLERS = [_HANDLERS[k] for k in range(len(_HANDLERS))]
_OPTIONS = {
    D_TRIBE: State._opt_tribe, D_WINDOW: State._opt_window, D_GAIN: State._opt_gain, D_SPEND: State._opt_spend,
    D_TAKE: State._opt_take, D_DISCARD: State._opt_discard, D_MEINAS: State._opt_meinas,
    D_PROGRAM: State._opt_program, D_MOVE: State._opt_move, D_ETHERIZE: State._opt_etherize,
    D_CARDS: State._opt_cards, D_ABILITY: State._opt_ability, D_CONNECT_DICE: State._opt_connect_dice,
    D_CONNECT_RESULT: State._opt_connect_result, D_TARGET: State._opt_target, D_REROLL: State._opt_reroll,
    D_SPOIL: State._opt_spoil, D_CHOOSE_CONFLICT: State._opt_choose_conflict, D_RETREAT: State._opt_retreat,
    D_GATHER: State._opt_gather,
}
_DECIDE = {
    D_TRIBE: State._d_tribe, D_WINDOW: State._d_window, D_GAIN: State._d_gain, D_SPEND: State._d_spend,
    D_TAKE: State._d_take, D_DISCARD: State._d_discard, D_MEINAS: State._d_meinas, D_PROGRAM: State._d_program,
    D_MOVE: State._d_move, D_ETHERIZE: State._d_etherize, D_CARDS: State._d_cards, D_ABILITY: State._d_ability,
    D_CONNECT_DICE: State._d_connect_dice, D_CONNECT_RESULT: State._d_connect_result, D_TARGET: State._d_target,
    D_REROLL: State._d_reroll, D_SPOIL: State._d_spoil, D_CHOOSE_CONFLICT: State._d_choose_conflict,
    D_RETREAT: State._d_retreat, D_GATHER: State._d_gather,
}
_OPTIONS = [None] * D_FIRST + [_OPTIONS[k] for k in range(D_FIRST, D_FIRST + NUM_DECISIONS)]
_DECIDE = [None] * D_FIRST + [_DECIDE[k] for k in range(D_FIRST, D_FIRST + NUM_DECISIONS)]
