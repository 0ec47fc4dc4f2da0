"""Ether Wars observation encoder (seat-relative, padded to 4 seats, values in [0, 1]).

Relative seat 0 is the observer, then the others clockwise; area indices 7..10
are the Silos of relative seats 0..3 (as in the action codec). Hidden from the
observer: the other players' Favour hands (only their sizes are shown), draft
packs, ability cards chosen but not yet revealed, and deck orders.
"""

from __future__ import annotations

import numpy as np

from ..core import ObservationLayout, Piece
from . import components as C
from . import resolution as RS
from . import rules as R

P4 = C.MAX_PLAYERS
NA = C.NUM_AREAS
NF = C.NUM_FAVOURS
STACK = 8

PIECES = [
    Piece("num_players", (3,), 0, 1, "one-hot 2, 3, 4 players"),
    Piece("seat_present", (P4,), 0, 1, "1 for seats in the game"),
    Piece("first_player", (P4,), 0, 1, "relative seat holding the first player marker"),
    Piece("current_player", (P4,), 0, 1, "relative seat deciding now (zeros at the end)"),
    Piece("phase", (len(R.PHASE_NAMES),), 0, 1, "one-hot: " + ", ".join(R.PHASE_NAMES)),
    Piece("decision", (len(R.DECISION_NAMES),), 0, 1, "kind of the pending decision, one-hot (rules.DECISION_NAMES)"),
    Piece("round", (1,), 0, 1, "round / max_rounds"),
    Piece("event", (C.NUM_EVENTS,), 0, 1, "Event card in play, one-hot (components.EVENTS)"),
    Piece("faction", (P4, 4), 0, 1, "per relative seat: faction one-hot"),
    Piece("ability", (P4, 5), 0, 1, "per relative seat: ability card 0..3 one-hot if visible (own, or revealed), "
          "then 'has chosen this round'"),
    Piece("resources", (P4, C.NUM_RES), 0, 1, "per relative seat: Protein, Coltan, Plasma, Crystal, Ether / box pool"),
    Piece("ether_progress", (P4,), 0, 1, "per relative seat: Ether / Ether needed to win"),
    Piece("charge", (P4,), 0, 1, "per relative seat: Charges / 20"),
    Piece("units", (P4, 2), 0, 1, "per relative seat: Units on the sheet / 10, in reserve / 10"),
    Piece("board_units", (P4, NA), 0, 1, "per relative seat and area: Units on the board / 10"),
    Piece("hero", (P4, NA + 1), 0, 1, "per relative seat: Hero area one-hot, last = on the sheet"),
    Piece("mercenaries", (C.NUM_MERCS, P4 + NA + 1), 0, 1, "per Mercenary: owner relative seat one-hot, then area "
          "one-hot, last = on its owner's sheet"),
    Piece("ether_die", (P4 + 1,), 0, 1, "controller relative seat one-hot, then 'placed in the Ether Fault'"),
    Piece("placed", (P4, NA), 0, 1, "per relative seat: areas placed in this round"),
    Piece("arrival", (NA, P4), 0, 1, "per area and relative seat: (arrival rank + 1) / 4, 0 if absent"),
    Piece("seat_flags", (P4, 7), 0, 1, "per relative seat: passed Placement, Contract, Priestess rerolls / 3, "
          "Medic free shields / 2, channelled, extra Ether used, Aggressive silo condition"),
    Piece("hand", (NF,), 0, 1, "own Favour hand per kind / 4"),
    Piece("hand_sizes", (P4,), 0, 1, "per relative seat: Favours in hand / 22"),
    Piece("draft_pack", (NF,), 0, 1, "own draft pack per kind / 5 (advanced preparation)"),
    Piece("favour_discard", (NF,), 0, 1, "discarded Favours per kind / 4"),
    Piece("decks", (2,), 0, 1, "Favour deck size / 22, Event deck size / 16"),
    Piece("event_discard", (C.NUM_EVENTS,), 0, 1, "discarded Events per kind / 2"),
    Piece("placement", (NA + 1,), 0, 1, "area chosen this placement turn one-hot, then dice added / 10"),
    Piece("move_pick", (3 * NA,), 0, 1, "die picked to move (kind*11 + area), one-hot"),
    Piece("rc_area", (NA,), 0, 1, "area being resolved, one-hot"),
    Piece("rc_stage", (len(RS.STAGES),), 0, 1, "resolution stage one-hot (resolution.STAGES)"),
    Piece("rc_mode", (len(RS.MODES),), 0, 1, "resolution mode one-hot (resolution.MODES)"),
    Piece("rc_resolver", (P4,), 0, 1, "relative seat resolving the area"),
    Piece("rc_parts", (P4,), 0, 1, "relative seats rolling in this combat / extraction"),
    Piece("rc_faces", (P4, 6), 0, 1, "per relative seat: rolled Unit dice per face / 10"),
    Piece("rc_hero", (P4, 6), 0, 1, "per relative seat: Hero face one-hot"),
    Piece("rc_captain", (P4, 6), 0, 1, "per relative seat: Captain face one-hot"),
    Piece("rc_numbers", (P4, 5), 0, 1, "per relative seat: Defender+Ether die pips / 12, boosts / 20, "
          "score / 80, injuries pending / 10, Assassin hits / 10"),
    Piece("rc_winner", (P4,), 0, 1, "combat winner, one-hot"),
    Piece("rc_misc", (6,), 0, 1, "thief/assassin/gain picks left / 10, raid points / 80, purchases left / 2, "
          "purchase credit / 40, free shields / 4, skills queued / 4"),
    Piece("rc_target", (C.NUM_RES,), 0, 1, "purchase target resource one-hot"),
    Piece("window", (len(R.WINDOW_NAMES) + P4,), 0, 1, "open favour window kind one-hot, then its seat (injury)"),
    Piece("stack", (STACK, P4 + NF + 1), 0, 1, "favour stack from the bottom: player relative seat, kind, cancelled"),
    Piece("smuggle_target", (P4,), 0, 1, "Smuggler target relative seat"),
]
LAYOUT = ObservationLayout(PIECES)
OFF = {p.name: LAYOUT.slices[p.name].start for p in PIECES}
SHAPE = {p.name: p.shape for p in PIECES}


class Encoder:
    """Writes ``state``'s observation for ``player`` into a float32 buffer."""

    layout = LAYOUT

    def __init__(self, game):
        self.game = game

    def encode(self, s, player: int, out: np.ndarray) -> None:
        n = s.game.num_players
        idx: list[int] = []
        val: list[float] = []

        def put(name, i, v=1.0):
            idx.append(OFF[name] + i)
            val.append(v)

        def rel(q):
            return (q - player) % n

        def rarea(a):
            return s.rel_area(player, a)

        put("num_players", n - 2)
        for q in range(n):
            put("seat_present", q)
        put("first_player", rel(s.first))
        over = s.phase == R.OVER
        if not over:
            put("current_player", rel(s.pp))
        put("phase", s.phase)
        put("decision", s.pk)
        put("round", 0, min(1.0, s.round / s.game.config.max_rounds))
        if s.event >= 0:
            put("event", s.event)
        for q in range(n):
            r = rel(q)
            if s.faction[q] >= 0:
                put("faction", r * 4 + s.faction[q])
            if s.ability[q] >= 0:
                if q == player or s.revealed:
                    put("ability", r * 5 + s.ability[q])
                put("ability", r * 5 + 4)
            for k in range(C.NUM_RES):
                if s.res[q][k]:
                    put("resources", r * C.NUM_RES + k, s.res[q][k] / C.POOL[k])
            put("ether_progress", r, min(1.0, s.res[q][C.ETHER] / s.game.ether_to_win))
            put("charge", r, s.charge[q] / C.CHARGE_POOL)
            put("units", r * 2, s.home_units[q] / 10)
            put("units", r * 2 + 1, s.reserve[q] / 10)
            for a in range(NA):
                if s.units_at[q][a]:
                    put("board_units", r * NA + rarea(a), s.units_at[q][a] / 10)
                if s.placed[q] >> a & 1:
                    put("placed", r * NA + rarea(a))
            put("hero", r * (NA + 1) + (rarea(s.hero_at[q]) if s.hero_at[q] >= 0 else NA))
            flags = (s.passed[q], s.contract[q], min(1.0, s.rerolls[q] / 3), s.medic_free[q] / 2,
                     s.channelled[q], s.extra_used[q], s.aggr_silo[q])
            for j, f in enumerate(flags):
                if f:
                    put("seat_flags", r * 7 + j, float(f))
            put("hand_sizes", r, sum(s.hand[q]) / 22)
        w = P4 + NA + 1
        for m in range(C.NUM_MERCS):
            o = s.merc_owner[m]
            if o >= 0:
                put("mercenaries", m * w + rel(o))
                put("mercenaries", m * w + P4 + (rarea(s.merc_at[m]) if s.merc_at[m] >= 0 else NA))
        if s.ether_ctrl >= 0:
            put("ether_die", rel(s.ether_ctrl))
        if s.ether_placed:
            put("ether_die", P4)
        for a in range(NA):
            for k, q in enumerate(s.arrival[a]):
                put("arrival", rarea(a) * P4 + rel(q), (k + 1) / 4)
        for f in range(NF):
            if s.hand[player][f]:
                put("hand", f, min(1.0, s.hand[player][f] / 4))
            c = s.packs[player].count(f)
            if c:
                put("draft_pack", f, c / 5)
            c = s.fdiscard.count(f)
            if c:
                put("favour_discard", f, min(1.0, c / 4))
        put("decks", 0, len(s.fdeck) / len(C.FAVOUR_DECK))
        put("decks", 1, len(s.edeck) / len(C.EVENT_DECK))
        for e in s.ediscard:
            put("event_discard", e, 0.5)
        if s.pk == R.K_ADD and s.add_area >= 0:
            put("placement", rarea(s.add_area))
            put("placement", NA, s.add_count / 10)
        if s.pk == R.K_MOVE_TO:
            kind, a = divmod(s.move_pick, NA)
            put("move_pick", kind * NA + rarea(s.abs_area(s.pp, a)))
        rc = s.rc
        if rc is not None:
            put("rc_area", rarea(rc["area"]))
            put("rc_stage", rc["stage"])
            put("rc_mode", rc["mode"])
            put("rc_resolver", rel(rc["resolver"]))
            for q in rc["parts"]:
                put("rc_parts", rel(q))
            inj = {q: k for q, k in rc["inj"]}
            for q in range(n):
                r = rel(q)
                for f in rc["faces"][q]:
                    put("rc_faces", r * 6 + f, 0.1)
                if rc["hero"][q] >= 0:
                    put("rc_hero", r * 6 + rc["hero"][q])
                if rc["capt"][q] >= 0:
                    put("rc_captain", r * 6 + rc["capt"][q])
                nums = (rc["extra"][q] / 12, rc["boost"][q] / 20, rc["score"][q] / 80, inj.get(q, 0) / 10,
                        rc["hits"][q] / 10)
                for j, v in enumerate(nums):
                    if v:
                        put("rc_numbers", r * 5 + j, min(1.0, v))
            if rc["winner"] >= 0:
                put("rc_winner", rel(rc["winner"]))
            misc = (rc["left"] / 10, rc["raid"] / 80, rc["purchases"] / 2, rc["credit"] / 40,
                    rc["free_shields"] / 4, len(rc["skills"]) / 4)
            for j, v in enumerate(misc):
                if v:
                    put("rc_misc", j, min(1.0, v))
            if rc["target"] >= 0:
                put("rc_target", rc["target"])
        if s.gain_left > 0 and rc is None:
            put("rc_misc", 0, min(1.0, s.gain_left / 10))
        win = s.win
        if win is not None:
            put("window", win["kind"])
            if win["seat"] >= 0:
                put("window", len(R.WINDOW_NAMES) + rel(win["seat"]))
            sw = P4 + NF + 1
            for j, (q, f, c) in enumerate(win["stack"][:STACK]):
                put("stack", j * sw + rel(q))
                put("stack", j * sw + P4 + f)
                if c:
                    put("stack", j * sw + P4 + NF)
            if win["target"] >= 0:
                put("smuggle_target", rel(win["target"]))
        out[:] = 0.0
        out[idx] = val
