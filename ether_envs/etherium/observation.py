"""Etherium observation encoder (seat-relative, padded to 4 seats).

Index 0 of every per-seat piece is the observer, then the other seats in seat
order after it; seats beyond the player count are zero. Hidden from the
observer: the other players' Flash cards (only their number is shown), the
deck order, the unrevealed season cards, and the other players' programs until
the reveal (only how many tokens they have placed).
"""

from __future__ import annotations

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from . import rules as R

MAX_PLAYERS = 4
NB = C.NUM_BOXES
NF = C.NUM_FLASH_TYPES
MAX_VP = 80.0

PIECES = [
    Piece("units", (NB, MAX_PLAYERS, 2), 0, 1, "per box: relative seat's Gatherer / Soldier is there"),
    Piece("boxes", (NB, 10), 0, 1, "per box (static): terrain one-hot (Mountain, Forest, Mine, Ether, City), "
          "elevation / 2, City of relative seat (4)"),
    Piece("levels", (MAX_PLAYERS, 4), 0, 1, "per relative seat: Gatherer, Soldier, Guard, Guide level / 4"),
    Piece("resources", (MAX_PLAYERS, 5), 0, 1, "per relative seat: Wood, Stone, Metal, Ether, Booster / 16"),
    Piece("tribes", (MAX_PLAYERS, C.NUM_TRIBES), 0, 1, "per relative seat: tribe one-hot (Reces, Psolos, Ertis, Hivalia)"),
    Piece("hand", (NF,), 0, 1, "observer's Flash cards per type / copies of that type"),
    Piece("hand_sizes", (MAX_PLAYERS,), 0, 1, "per relative seat: Flash cards held / 44"),
    Piece("deck", (1,), 0, 1, "cards in the Flash deck / 44"),
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
    Piece("action_tokens", (MAX_PLAYERS,), 0, 1, "per relative seat: Action tokens this season / 6"),
    Piece("programs", (MAX_PLAYERS, C.MAX_TOKENS, C.NUM_SPACES), 0, 1,
          "per relative seat and token 1..6: programmed space one-hot (others only after the reveal)"),
    Piece("programmed", (MAX_PLAYERS,), 0, 1, "per relative seat: tokens placed / 6"),
    Piece("step", (C.MAX_TOKENS,), 0, 1, "action step being performed, one-hot"),
    Piece("acting", (MAX_PLAYERS + C.NUM_SPACES,), 0, 1, "relative seat performing an action, then its space"),
    Piece("season_bonuses", (MAX_PLAYERS, 4), 0, 1, "per relative seat: March, Harvest, Craft waiting (/4), "
          "T6 A free step"),
    Piece("phase", (len(R.PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(R.PHASE_NAMES)),
    Piece("decision", (R.NUM_DECISIONS,), 0, 1, "pending decision kind one-hot: " + ", ".join(R.DECISION_NAMES)),
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
_QUARTER = _f32_table(np.arange(8, dtype=np.float32) * np.float32(0.25))  # levels, season bonuses
_SIXTEENTH = _f32_table(np.arange(C.CUBES_PER_COLOUR + 1, dtype=np.float32) * np.float32(1 / 16))
_HAND_SIZE = _f32_table(np.arange(len(C.FLASH_DECK) + 1, dtype=np.float32) * np.float32(1 / 44))
_SIXTH = _f32_table(np.arange(C.MAX_TOKENS + 1, dtype=np.float32) * np.float32(1 / 6))
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
_VT0, _VT1, _VT2, _VT3, _VT4 = _PER_VT
_VP0, _VP1, _VP2, _VP3, _VP4, _ABILITY_VP = R._VP0, R._VP1, R._VP2, R._VP3, R._VP4, R._ABILITY_VP  # State.score's

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
_COUNTED = (R.D_GAIN, R.D_SPEND, R.D_DISCARD, R.D_GATHER)


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
        # per observer, per seat q: (q, relative seat, its offsets in the per-seat pieces)
        self._seats = [tuple((q, r, O_UNITS + r * 2, O_LEVELS + r * 4, O_RES + r * 5,
                              O_TRIBES + r * C.NUM_TRIBES, O_ABIL + r * C.NUM_ABILITIES, O_VT + r * 5,
                              O_PROGS + r * _PROG_ROW, O_BONUS + r * 4)
                             for q, r in enumerate(rel[p])) for p in range(n)]
        self._scratch = np.zeros(LAYOUT.size, dtype=np.float32)
        self._scratch_mv = memoryview(self._scratch)

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``, values
        in [0, 1]. Written into ``out`` when given, else a new array."""
        if out is None:
            out = np.empty(LAYOUT.size, dtype=np.float32)
        template = self._templates[player]
        try:  # write straight into ``out`` when it is a writable float32 vector of the right size
            m = memoryview(out)
            m[:] = template
            direct = True
        except (TypeError, ValueError):
            m = self._scratch_mv
            m[:] = template
            direct = False
        rel = self._rel[player]
        revealed = s.revealed
        pos_, lvl_, res_, tribe_, hand_, ability_, vt_ = s.pos, s.lvl, s.res, s.tribe, s.hand, s.ability, s.vt
        ntok_, program_, march_, harvest_, craft_, first_ = s.ntok, s.program, s.march, s.harvest, s.craft, \
            s.first_move
        for q, r, ou, ol, ores, otr, oab, ovt, opr, obo in self._seats[player]:
            pos = pos_[q]
            m[ou + pos[0] * _UNIT_ROW] = 1.0
            m[ou + pos[1] * _UNIT_ROW + 1] = 1.0
            a, b, c, d = lvl_[q]
            m[ol] = _QUARTER[a]
            m[ol + 1] = _QUARTER[b]
            m[ol + 2] = _QUARTER[c]
            if d:
                m[ol + 3] = _QUARTER[d]
            res = res_[q]
            a, b, c, d, e = res
            if a:
                m[ores] = _SIXTEENTH[a]
            if b:
                m[ores + 1] = _SIXTEENTH[b]
            if c:
                m[ores + 2] = _SIXTEENTH[c]
            if d:
                m[ores + 3] = _SIXTEENTH[d]
            if e:
                m[ores + 4] = _SIXTEENTH[e]
            x = tribe_[q]
            if x >= 0:
                m[otr + x] = 1.0
            m[O_HAND_SIZES + r] = _HAND_SIZE[sum(hand_[q])]
            x = ability_[q]
            if x >= 0:
                m[oab + x] = 1.0
            t = vt_[q]
            a, b, c, d, e = t
            if a:
                m[ovt] = _VT0[a]
            if b:
                m[ovt + 1] = _VT1[b]
            if c:
                m[ovt + 2] = _VT2[c]
            if d:
                m[ovt + 3] = _VT3[d]
            if e:
                m[ovt + 4] = _VT4[e]
            score = (a * _VP0 + b * _VP1 + c * _VP2 + d * _VP3 + e * _VP4 + (_ABILITY_VP[x] if x >= 0 else 0)
                     + lvl_[q][C.GUIDE] + res[C.ETHER] // 2)  # State.score
            m[O_SCORES + r] = _SCORE[score if score < _MAX_SCORE else _MAX_SCORE]
            m[O_TOKENS + r] = _SIXTH[ntok_[q]]
            prog = program_[q]
            if prog:
                m[O_PROGRAMMED + r] = _SIXTH[len(prog)]
                if revealed or q == player:
                    for k, sp in enumerate(prog):
                        m[opr + k * C.NUM_SPACES + sp] = 1.0
            x = march_[q]
            if x:
                m[obo] = _QUARTER[x if x < 4 else 4]
            x = harvest_[q]
            if x:
                m[obo + 1] = _QUARTER[x if x < 4 else 4]
            x = craft_[q]
            if x:
                m[obo + 2] = _QUARTER[x if x < 4 else 4]
            if first_[q]:
                m[obo + 3] = _QUARTER[first_[q] * 4]
        c = 0
        for x in hand_[player]:
            if x:
                m[O_HAND + c] = _PER_COPY[c][x]
            c += 1
        m[O_DECK] = len(s.deck) / 44
        c = 0
        for x in s.discard:
            if x:
                m[O_DISCARD + c] = _PER_COPY[c][x]
            c += 1
        c = O_ABIL_SUPPLY
        for x in s.ability_supply:
            if x:
                m[c] = _HALF[x]
            c += 1
        a, b, c, d, e = s.vt_supply
        m[O_VT_SUPPLY] = _VT0[a]
        m[O_VT_SUPPLY + 1] = _VT1[b]
        m[O_VT_SUPPLY + 2] = _VT2[c]
        m[O_VT_SUPPLY + 3] = _VT3[d]
        m[O_VT_SUPPLY + 4] = _VT4[e]
        season = s.season
        if season >= 0:
            m[O_SEASON + season] = 1.0
            seasons = s.seasons
            m[O_SEASON_CARD + seasons[season]] = 1.0
            for k in range(season + 1):
                m[O_SEEN + seasons[k]] = 1.0
        k = O_INIT
        for q in s.order:
            m[k + rel[q] * MAX_PLAYERS] = 1.0
            k += 1
        if s.affinity >= 0:
            m[O_AFF + rel[s.affinity]] = 1.0
        if s.step >= 0:
            m[O_STEP + s.step] = 1.0
        acting = s.acting
        if acting[0] >= 0:
            m[O_ACTING + rel[acting[0]]] = 1.0
            m[O_ACTING + MAX_PLAYERS + acting[1]] = 1.0
        phase = s.phase
        m[O_PHASE + phase] = 1.0
        stack = s.stack
        if stack and phase != R.P_OVER:
            t = stack[-1]
            kind = t[0]
            m[O_CURRENT + rel[t[1]]] = 1.0
            m[O_DECISION + kind - R.D_FIRST] = 1.0
            if kind == R.D_WINDOW:
                m[O_WINDOW + t[2]] = 1.0
                if t[3]:
                    m[O_ARGS + 1] = t[3] / C.MAX_PLAYS_PER_WINDOW
            elif kind in _COUNTED:
                m[O_ARGS] = min(t[2], 8) / 8
            elif kind == R.D_TAKE:
                m[O_ARGS] = min(t[3], 8) / 8
                m[O_TARGET + rel[t[2]]] = 1.0
            elif kind == R.D_SPOIL:
                m[O_TARGET + rel[t[2]]] = 1.0
            elif kind == R.D_ETHERIZE:
                m[O_ARGS + 2] = t[2] / 5
        if s.roll_player >= 0:
            m[O_ROLL + rel[s.roll_player]] = 1.0
            dice = s.roll_dice
            for face in range(1, 7):
                k = dice.count(face)
                if k:
                    m[O_ROLL + MAX_PLAYERS + face - 1] = _DICE[k]
            m[O_ROLL + MAX_PLAYERS + 6] = min(s.roll_bonus, 20) / 20
            if s.roll_ability:
                m[O_ROLL + MAX_PLAYERS + 7] = 1.0
        b = s.battle
        if b is not None:
            m[O_BATTLE + b[0]] = 1.0
            m[O_BATTLE + NB + b[1]] = 1.0
            units, totals, shields = b[3], b[4], b[5]
            for i, q in enumerate(b[2]):
                o = O_BSEATS + rel[q] * 5
                m[o] = 1.0
                if units[i] == C.GUARD:
                    m[o + 1] = 1.0
                if totals[i] >= 0:
                    m[o + 2] = 1.0
                    m[o + 3] = min(totals[i], 60) / 60
                if shields[i]:
                    m[o + 4] = 1.0
        if not direct:
            out[:] = self._scratch
        return out
