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
    Piece("decision_args", (3,), 0, 1, "choices left (gain/lose/steal/discard) / 8, window plays / 6, "
          "Etherization cubes paid / 5"),
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


class Encoder:
    """Writes :data:`LAYOUT` for one observer; reads only what that seat may see."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game
        n = game.num_players
        self._buf, self._v = LAYOUT.new_buffer()
        self._rel = [[(q - p) % n for q in range(n)] for p in range(n)]
        self._boxes = []
        for p in range(n):
            b = np.zeros((NB, 10), dtype=np.float32)
            for x in range(NB):
                b[x, C.BOX_TERRAIN[x]] = 1
                b[x, 5] = C.BOX_ELEVATION[x] / 2
                o = game.city_owner[x]
                if o >= 0:
                    b[x, 6 + self._rel[p][o]] = 1
            self._boxes.append(b)
        self._num_players = np.eye(3, dtype=np.float32)[n - 2]

    def encode(self, s, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """``player``'s view of state ``s``: float32, shape ``(LAYOUT.size,)``, values
        in [0, 1]. Written into ``out`` when given, else a new array."""
        n = self.game.num_players
        v = self._v
        self._buf[:] = 0
        rel = self._rel[player]
        v["boxes"][:] = self._boxes[player]
        v["num_players"][:] = self._num_players
        units, levels, resources, tribes = v["units"], v["levels"], v["resources"], v["tribes"]
        for q in range(n):
            r = rel[q]
            units[s.pos[q][0], r, 0] = 1
            units[s.pos[q][1], r, 1] = 1
            levels[r] = s.lvl[q]
            resources[r] = s.res[q]
            if s.tribe[q] >= 0:
                tribes[r, s.tribe[q]] = 1
            v["hand_sizes"][r] = sum(s.hand[q])
            if s.ability[q] >= 0:
                v["abilities"][r, s.ability[q]] = 1
            v["victory_tokens"][r] = s.vt[q]
            v["scores"][r] = min(s.score(q), MAX_VP)
            v["action_tokens"][r] = s.ntok[q]
            v["programmed"][r] = len(s.program[q])
            if s.revealed or q == player:
                prog = v["programs"][r]
                for k, sp in enumerate(s.program[q]):
                    prog[k, sp] = 1
            b = v["season_bonuses"][r]
            b[0] = min(s.march[q], 4)
            b[1] = min(s.harvest[q], 4)
            b[2] = min(s.craft[q], 4)
            b[3] = s.first_move[q] * 4
        levels *= 0.25
        resources *= 1 / 16
        v["hand_sizes"] *= 1 / 44
        v["victory_tokens"] /= _VT_SUPPLY
        v["scores"] *= 1 / MAX_VP
        v["action_tokens"] *= 1 / 6
        v["programmed"] *= 1 / 6
        v["season_bonuses"] *= 0.25
        v["hand"][:] = s.hand[player]
        v["hand"] /= _COPIES
        v["deck"][0] = len(s.deck) / 44
        v["discard"][:] = s.discard
        v["discard"] /= _COPIES
        v["ability_supply"][:] = s.ability_supply
        v["ability_supply"] *= 0.5
        v["vt_supply"][:] = s.vt_supply
        v["vt_supply"] /= _VT_SUPPLY
        if s.season >= 0:
            v["season"][s.season] = 1
            v["season_card"][s.seasons[s.season]] = 1
            v["seasons_seen"][s.seasons[:s.season + 1]] = 1
        for k, q in enumerate(s.order):
            v["initiative"][rel[q], k] = 1
        if s.affinity >= 0:
            v["affinity"][rel[s.affinity]] = 1
        if s.step >= 0:
            v["step"][s.step] = 1
        if s.acting[0] >= 0:
            v["acting"][rel[s.acting[0]]] = 1
            v["acting"][MAX_PLAYERS + s.acting[1]] = 1
        v["phase"][s.phase] = 1
        if s.stack and s.phase != R.P_OVER:
            t = s.stack[-1]
            v["current_player"][rel[t[1]]] = 1
            k = t[0] - R.D_FIRST
            v["decision"][k] = 1
            args = v["decision_args"]
            if t[0] == R.D_WINDOW:
                v["window"][t[2]] = 1
                args[1] = t[3] / C.MAX_PLAYS_PER_WINDOW
            elif t[0] in (R.D_GAIN, R.D_SPEND, R.D_DISCARD):
                args[0] = min(t[2], 8) / 8
            elif t[0] == R.D_TAKE:
                args[0] = min(t[3], 8) / 8
                v["decision_target"][rel[t[2]]] = 1
            elif t[0] == R.D_SPOIL:
                v["decision_target"][rel[t[2]]] = 1
            elif t[0] == R.D_ETHERIZE:
                args[2] = t[2] / 5
        if s.roll_player >= 0:
            roll = v["roll"]
            roll[rel[s.roll_player]] = 1
            for d in s.roll_dice:
                roll[MAX_PLAYERS + d - 1] += 1 / 6
            roll[MAX_PLAYERS + 6] = min(s.roll_bonus, 20) / 20
            roll[MAX_PLAYERS + 7] = 1 if s.roll_ability else 0
        b = s.battle
        if b is not None:
            v["battle"][b[0]] = 1
            v["battle"][NB + b[1]] = 1
            bs = v["battle_seats"]
            for i, q in enumerate(b[2]):
                r = rel[q]
                bs[r, 0] = 1
                bs[r, 1] = 1 if b[3][i] == C.GUARD else 0
                if b[4][i] >= 0:
                    bs[r, 2] = 1
                    bs[r, 3] = min(b[4][i], 60) / 60
                bs[r, 4] = 1 if b[5][i] else 0
        if out is None:
            return self._buf.copy()
        out[:] = self._buf
        return out

