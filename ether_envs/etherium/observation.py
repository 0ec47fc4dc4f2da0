"""Etherium observation encoder (seat-relative, padded to 4 seats).

Index 0 of every per-seat piece is the observer, then the other seats in seat
order after it; seats beyond the player count are zero. Hidden from the
observer: the other players' Flash cards (only their number is shown), the
deck order, the unrevealed season cards, and the other players' programs until
the reveal (only how many tokens they have placed).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from .codec import D_DISCARD, D_ETHERIZE, D_FIRST, D_GAIN, D_GATHER, D_SPEND, D_SPOIL, D_TAKE, D_WINDOW, DECISION_NAMES, \
    NUM_DECISIONS, P_OVER, PHASE_NAMES

MAX_PLAYERS = 4
NB = C.NUM_BOXES
NF = C.NUM_FLASH_TYPES
MAX_VP = 80.0
_DECK_SIZE = C.NUM_FLASH_CARDS  # 44
_BONUS_SHOWN_MAX = 4  # observation scale: season bonuses waiting are shown / 4, clipped at 4

PIECES = [
    Piece("units", (NB, MAX_PLAYERS, 2), 0, 1, "per box: relative seat's Gatherer / Soldier is there"),
    Piece("boxes", (NB, 10), 0, 1, "per box (static): terrain one-hot (Mountain, Forest, Mine, Ether, City), "
          "elevation / 2, City of relative seat (4)"),
    Piece("levels", (MAX_PLAYERS, 4), 0, 1, f"per relative seat: Gatherer, Soldier, Guard, Guide level / {C.MAX_LEVEL}"),
    Piece("resources", (MAX_PLAYERS, 5), 0, 1, f"per relative seat: Wood, Stone, Metal, Ether, Booster / {C.CUBES_PER_COLOUR}"),
    Piece("tribes", (MAX_PLAYERS, C.NUM_TRIBES), 0, 1, "per relative seat: tribe one-hot (Reces, Psolos, Ertis, Hivalia)"),
    Piece("hand", (NF,), 0, 1, "observer's Flash cards per type / copies of that type"),
    Piece("hand_sizes", (MAX_PLAYERS,), 0, 1, f"per relative seat: Flash cards held / {_DECK_SIZE}"),
    Piece("deck", (1,), 0, 1, f"cards in the Flash deck / {_DECK_SIZE}"),
    Piece("discard", (NF,), 0, 1, "Flash discard pile per type / copies (public, ETM-A27)"),
    Piece("abilities", (MAX_PLAYERS, C.NUM_ABILITIES), 0, 1, "per relative seat: Ability token held"),
    Piece("ability_supply", (C.NUM_ABILITIES,), 0, 1, "Ability tokens left per kind / 2"),
    Piece("victory_tokens", (MAX_PLAYERS, 5), 0, 1, "per relative seat: Soldier, Ether, Connection, Booster, "
          "Pillage tokens / supply"),
    Piece("vt_supply", (5,), 0, 1, "Victory tokens left per kind / supply"),
    Piece("scores", (MAX_PLAYERS,), 0, 1, "per relative seat: prestige / 80 (clipped)"),
    Piece("season", (C.NUM_SEASONS,), 0, 1, "season index one-hot (0 = Night)"),
    Piece("season_card", (C.NUM_SEASON_CARDS,), 0, 1, "current season card one-hot (colour*2 + A/B; 12 = Night)"),
    Piece("seasons_seen", (C.NUM_SEASON_CARDS,), 0, 1, "season cards revealed so far"),
    Piece("initiative", (MAX_PLAYERS, MAX_PLAYERS), 0, 1, "per relative seat: rank in the initiative order, one-hot"),
    Piece("affinity", (MAX_PLAYERS,), 0, 1, "relative seat with the season's affinity"),
    Piece("action_tokens", (MAX_PLAYERS,), 0, 1, f"per relative seat: Action tokens this season / {C.MAX_TOKENS}"),
    Piece("programs", (MAX_PLAYERS, C.MAX_TOKENS, C.NUM_SPACES), 0, 1,
          f"per relative seat and token 1..{C.MAX_TOKENS}: programmed space one-hot (others only after the reveal)"),
    Piece("programmed", (MAX_PLAYERS,), 0, 1, f"per relative seat: tokens placed / {C.MAX_TOKENS}"),
    Piece("step", (C.MAX_TOKENS,), 0, 1, "action step being performed, one-hot"),
    Piece("acting", (MAX_PLAYERS + C.NUM_SPACES,), 0, 1, "relative seat performing an action, then its space"),
    Piece("season_bonuses", (MAX_PLAYERS, 4), 0, 1, f"per relative seat: March, Harvest, Craft waiting (/{_BONUS_SHOWN_MAX}), "
          "T6 A free step"),
    Piece("phase", (len(PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
    Piece("decision", (NUM_DECISIONS,), 0, 1, "pending decision kind one-hot: " + ", ".join(DECISION_NAMES)),
    Piece("window", (4,), 0, 1, "Flash window kind: phase 3, before an action, Connect roll, conflict roll"),
    Piece("decision_args", (3,), 0, 1, "choices left (gain/lose/steal/discard) or most cubes (gather) / 8, "
          "window plays / 6, Etherization cubes paid / 5"),
    Piece("decision_target", (MAX_PLAYERS,), 0, 1, "relative seat being robbed (steal, siege spoils)"),
    Piece("current_player", (MAX_PLAYERS,), 0, 1, "relative seat deciding now (zeros at the end)"),
    Piece("roll", (MAX_PLAYERS + 6 + 2,), 0, 1, "die roll being modified: roller relative seat, dice per face / 6, "
          "bonus / 20, paid Ability used"),
    Piece("battle", (NB + 2,), 0, 1, "conflict being resolved: box one-hot, assault / siege"),
    Piece("battle_seats", (MAX_PLAYERS, 5), 0, 1, "per relative seat in the conflict: in it, rolls with Guard, "
          "has rolled, total / 60, Shield played"),
    Piece("num_players", (3,), 0, 1, "one-hot 2, 3, 4"),
]
LAYOUT = ObservationLayout(PIECES)
_COPIES = np.array([c.copies for c in C.FLASH_CARDS], dtype=np.float32)
_VT_SUPPLY = np.array(C.VT_SUPPLY, dtype=np.float32)


def _f32_table(values) -> tuple[float, ...]:
    """Python floats equal to the float32 values (so a float32 store is exact)."""
    return tuple(float(x) for x in np.asarray(values, dtype=np.float32))


# Value tables: each entry is the float32 the piece's scaling gives (computed with
# numpy in float32, as a vectorised "piece *= scale" would), looked up by count.
_LEVEL = _f32_table(np.arange(C.MAX_LEVEL + 1, dtype=np.float32) * np.float32(1 / C.MAX_LEVEL))
_BONUS = _f32_table(np.arange(_BONUS_SHOWN_MAX + 1, dtype=np.float32) * np.float32(1 / _BONUS_SHOWN_MAX))
_CUBES = _f32_table(np.arange(C.CUBES_PER_COLOUR + 1, dtype=np.float32) * np.float32(1 / C.CUBES_PER_COLOUR))
_HAND_SIZE = _f32_table(np.arange(_DECK_SIZE + 1, dtype=np.float32) * np.float32(1 / _DECK_SIZE))
_TOKENS = _f32_table(np.arange(C.MAX_TOKENS + 1, dtype=np.float32) * np.float32(1 / C.MAX_TOKENS))
_SCORE = _f32_table(np.arange(int(MAX_VP) + 1, dtype=np.float32) * np.float32(1 / MAX_VP))
_PER_COPY = tuple(_f32_table(np.arange(c.copies + 1, dtype=np.float32) / np.float32(c.copies))
                  for c in C.FLASH_CARDS)  # hand and discard, per card type
_PER_VT = tuple(_f32_table(np.arange(max(C.VT_SUPPLY) + 1, dtype=np.float32) / np.float32(k))
                for k in C.VT_SUPPLY)  # victory tokens and their supply, per kind
_HALF = _f32_table(np.arange(C.ABILITY_COPIES + 1, dtype=np.float32) * np.float32(0.5))


def _dice_table() -> tuple[float, ...]:
    acc, out = np.float32(0), [0.0]
    for _ in range(12):
        acc = np.float32(acc + np.float32(1 / 6))  # "roll[face] += 1/6" in float32, once per die
        out.append(float(acc))
    return tuple(out)


_DICE = _dice_table()

_O = {name: sl.start for name, sl in LAYOUT.slices.items()}
O_UNITS, O_LEVELS, O_RES, O_TRIBES, O_HAND, O_HAND_SIZES, O_DECK, O_DISCARD = (
    _O[k] for k in ("units", "levels", "resources", "tribes", "hand", "hand_sizes", "deck", "discard"))
O_ABIL, O_ABIL_SUPPLY, O_VT, O_VT_SUPPLY, O_SCORES, O_SEASON, O_SEASON_CARD, O_SEEN = (
    _O[k] for k in ("abilities", "ability_supply", "victory_tokens", "vt_supply", "scores", "season",
                    "season_card", "seasons_seen"))
O_INIT, O_AFF, O_TOKENS, O_PROGS, O_PROGRAMMED, O_STEP, O_ACTING, O_BONUS = (
    _O[k] for k in ("initiative", "affinity", "action_tokens", "programs", "programmed", "step", "acting",
                    "season_bonuses"))
O_PHASE, O_DECISION, O_WINDOW, O_ARGS, O_TARGET, O_CURRENT, O_ROLL, O_BATTLE, O_BSEATS = (
    _O[k] for k in ("phase", "decision", "window", "decision_args", "decision_target", "current_player",
                    "roll", "battle", "battle_seats"))
_PROG_ROW = C.MAX_TOKENS * C.NUM_SPACES  # programs: entries per relative seat
_UNIT_ROW = MAX_PLAYERS * 2  # units: entries per box
_MAX_SCORE = int(MAX_VP)
_COUNTED = (D_GAIN, D_SPEND, D_DISCARD, D_GATHER)


def _store(entries: memoryview, offset: int, counts, table) -> None:
    """``entries[offset + i] = table[x]`` for each non-zero count ``x = counts[i]`` (the zeros are
    the template's)."""
    for i, x in enumerate(counts):
        if x:
            entries[offset + i] = table[x]


def _store_per_kind(entries: memoryview, offset: int, counts, tables) -> None:
    """As :func:`_store`, each entry with its own table (``tables[i]``)."""
    for i, x in enumerate(counts):
        if x:
            entries[offset + i] = tables[i][x]


class _SeatOffsets(NamedTuple):
    """Where one seat's entries go in an observer's view: the seat, its relative seat, and
    the offsets of its rows of the per-seat pieces."""

    seat: int
    rel: int
    units: int
    levels: int
    resources: int
    tribes: int
    abilities: int
    victory_tokens: int
    programs: int
    bonuses: int


class Encoder:
    """Writes :data:`LAYOUT` for one observer; reads only what that seat may see.

    The static part (the ``boxes`` piece seen from each seat, ``num_players``) is
    kept per observer as a template; ``encode`` copies it into the output and sets
    the few non-zero entries of the rest with scalar stores through a
    ``memoryview`` (much cheaper than numpy item or slice writes), taking every
    scaled value from the float32 tables above.
    """

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = game.num_players
        rel = [[(q - p) % n for q in range(n)] for p in range(n)]
        self._rel = rel
        self._templates = []
        for p in range(n):
            buf, v = LAYOUT.new_buffer()
            b = v["boxes"]
            for x in range(NB):
                b[x, C.BOX_TERRAIN[x]] = 1
                b[x, 5] = C.BOX_ELEVATION[x] / 2
                o = game.city_owner[x]
                if o >= 0:
                    b[x, 6 + rel[p][o]] = 1
            v["num_players"][:] = np.eye(3, dtype=np.float32)[n - 2]
            self._templates.append(memoryview(buf.tobytes()).cast("f"))
        # per observer, per seat q: where q's entries go in the per-seat pieces
        self._seats = [tuple(_SeatOffsets(q, r, O_UNITS + r * 2, O_LEVELS + r * 4, O_RES + r * 5,
                                          O_TRIBES + r * C.NUM_TRIBES, O_ABIL + r * C.NUM_ABILITIES, O_VT + r * 5,
                                          O_PROGS + r * _PROG_ROW, O_BONUS + r * 4)
                             for q, r in enumerate(rel[p])) for p in range(n)]
        self._scratch = np.zeros(LAYOUT.size, dtype=np.float32)
        self._scratch_entries = memoryview(self._scratch)

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``, values
        in [0, 1]. Written into ``out`` when given, else a new array."""
        if out is None:
            out = np.empty(LAYOUT.size, dtype=np.float32)
        template = self._templates[player]
        try:  # write straight into ``out`` when it is a writable float32 vector of the right size
            entries = memoryview(out)
            entries[:] = template
            direct = True
        except (TypeError, ValueError):
            entries = self._scratch_entries
            entries[:] = template
            direct = False
        rel = self._rel[player]
        revealed = s.revealed
        for q, r, units, levels, resources, tribes, abilities, victory_tokens, programs, bonuses \
                in self._seats[player]:
            pos = s.pos[q]
            entries[units + pos[C.GATHERER] * _UNIT_ROW] = 1.0
            entries[units + pos[C.SOLDIER] * _UNIT_ROW + 1] = 1.0
            for i, x in enumerate(s.lvl[q]):
                if x:
                    entries[levels + i] = _LEVEL[x]
            for i, x in enumerate(s.res[q]):
                if x:
                    entries[resources + i] = _CUBES[x]
            if s.tribe[q] >= 0:
                entries[tribes + s.tribe[q]] = 1.0
            entries[O_HAND_SIZES + r] = _HAND_SIZE[s.hand_size(q)]
            if s.ability[q] >= 0:
                entries[abilities + s.ability[q]] = 1.0
            for i, x in enumerate(s.vt[q]):
                if x:
                    entries[victory_tokens + i] = _PER_VT[i][x]
            entries[O_SCORES + r] = _SCORE[min(s.score(q), _MAX_SCORE)]
            entries[O_TOKENS + r] = _TOKENS[s.ntok[q]]
            prog = s.program[q]
            if prog:
                entries[O_PROGRAMMED + r] = _TOKENS[len(prog)]
                if revealed or q == player:
                    for k, sp in enumerate(prog):
                        entries[programs + k * C.NUM_SPACES + sp] = 1.0
            for i, x in enumerate((s.march[q], s.harvest[q], s.craft[q])):  # season bonuses waiting, clipped
                if x:
                    entries[bonuses + i] = _BONUS[x if x < _BONUS_SHOWN_MAX else _BONUS_SHOWN_MAX]
            if s.first_move[q]:  # the T6 A free step
                entries[bonuses + 3] = 1.0
        _store_per_kind(entries, O_HAND, s.hand[player], _PER_COPY)
        entries[O_DECK] = len(s.deck) / _DECK_SIZE
        _store_per_kind(entries, O_DISCARD, s.discard, _PER_COPY)
        _store(entries, O_ABIL_SUPPLY, s.ability_supply, _HALF)
        _store_per_kind(entries, O_VT_SUPPLY, s.vt_supply, _PER_VT)
        season = s.season
        if season >= 0:
            entries[O_SEASON + season] = 1.0
            seasons = s.seasons
            entries[O_SEASON_CARD + seasons[season]] = 1.0
            for k in range(season + 1):
                entries[O_SEEN + seasons[k]] = 1.0
        k = O_INIT
        for q in s.order:
            entries[k + rel[q] * MAX_PLAYERS] = 1.0
            k += 1
        if s.affinity >= 0:
            entries[O_AFF + rel[s.affinity]] = 1.0
        if s.step >= 0:
            entries[O_STEP + s.step] = 1.0
        acting = s.acting
        if acting[0] >= 0:
            entries[O_ACTING + rel[acting[0]]] = 1.0
            entries[O_ACTING + MAX_PLAYERS + acting[1]] = 1.0
        phase = s.phase
        entries[O_PHASE + phase] = 1.0
        stack = s.stack
        if stack and phase != P_OVER:
            t = stack[-1]
            kind = t.kind
            entries[O_CURRENT + rel[t.player]] = 1.0
            entries[O_DECISION + kind - D_FIRST] = 1.0
            if kind == D_WINDOW:  # a: the window, b: cards played in it
                entries[O_WINDOW + t.a] = 1.0
                if t.b:
                    entries[O_ARGS + 1] = t.b / C.MAX_PLAYS_PER_WINDOW
            elif kind in _COUNTED:  # a: choices left (gather: most cubes)
                entries[O_ARGS] = min(t.a, 8) / 8
            elif kind == D_TAKE:  # a: the seat robbed, b: choices left
                entries[O_ARGS] = min(t.b, 8) / 8
                entries[O_TARGET + rel[t.a]] = 1.0
            elif kind == D_SPOIL:  # a: the seat besieged
                entries[O_TARGET + rel[t.a]] = 1.0
            elif kind == D_ETHERIZE:  # a: cubes paid toward the next Ether
                entries[O_ARGS + 2] = t.a / 5
        if s.roll_player >= 0:
            entries[O_ROLL + rel[s.roll_player]] = 1.0
            dice = s.roll_dice
            for face in range(1, 7):
                k = dice.count(face)
                if k:
                    entries[O_ROLL + MAX_PLAYERS + face - 1] = _DICE[k]
            entries[O_ROLL + MAX_PLAYERS + 6] = min(s.roll_bonus, 20) / 20
            if s.roll_ability:
                entries[O_ROLL + MAX_PLAYERS + 7] = 1.0
        b = s.battle
        if b is not None:
            entries[O_BATTLE + b.box] = 1.0
            entries[O_BATTLE + NB + b.kind] = 1.0
            units, totals, shields = b.units, b.totals, b.shields
            for i, q in enumerate(b.seats):
                o = O_BSEATS + rel[q] * 5
                entries[o] = 1.0
                if units[i] == C.GUARD:
                    entries[o + 1] = 1.0
                if totals[i] >= 0:
                    entries[o + 2] = 1.0
                    entries[o + 3] = min(totals[i], 60) / 60
                if shields[i]:
                    entries[o + 4] = 1.0
        if not direct:
            out[:] = self._scratch
        return out
