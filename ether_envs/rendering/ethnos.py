"""Picture of an Ethnos state (1000 x 900), the neutral (public) view of ``ansi``.

Header: Age, player count, tribes in play, Ally deck size, Dragons revealed.
Top: the six Kingdoms, each with its Glory tokens (those that score at the end
of this Age in gold, ``"Fin d'Ère"``) and one bar per player with that player's
Control markers there. Middle left: who acts and what they decide, the band
being formed (it is played face up), and the face-up Allies grouped by kind
(``x2``: two copies). Middle right: the Merfolk track (checkpoints ringed,
one pawn per player), the six Troll tokens (filled in the holder's colour) and
the Giant token (holder and band size). Bottom: one row per player: Glory (a
star for the winners), hand SIZE only (never the cards), markers left in the
supply, Merfolk position, Troll tokens, the Orc Horde board (six spaces by
Kingdom colour, filled when a marker is on it) and the bands played this Age
(Leader's tribe and Kingdom colour, cards; ``(1 Sk)``: Skeletons among them). A banner gives
the result at the end.
"""

from __future__ import annotations

from ..ethnos import components as C
from ..ethnos import rules as R
from . import INK, MUTED, PLAYER_COLORS, Canvas, tint

SIZE = (1000, 900)

KINGDOM_COLORS = ("#2f62c8", "#7d7d7d", "#3a9244", "#ee8421", "#8a4fc0", "#d2322b")
"""One colour per Kingdom (``components.KINGDOMS``: Blue, Gray, Green, Orange, Purple, Red)."""
SKELETON_COLOR = "#b8b2a2"
GOLD = "#c9a227"
TRIBE_SHORT = ("Centaur", "Dwarf", "Elf", "Giant", "Halfling", "Merfolk",
               "Minotaur", "Orc", "Skeleton", "Troll", "Wingfolk", "Wizard")
"""Short (singular) tribe names, ``TRIBE_SHORT[tribe]``."""

_DECIDES = {
    R.TURN: "recruit an Ally or play a band",
    R.FACE_UP: "which face-up Ally to recruit",
    R.LEADER: "the Leader and key (tribe or colour) of the band",
    R.BUILD: "add cards to the band, or end it",
    R.MARKER: "where to place the Control marker",
    R.CENTAUR: "Centaurs: play another band?",
    R.MERFOLK: "Merfolk: place a checkpoint marker",
    R.WIZARD: "Wizards: draw cards?",
    R.KEEP: "Elves: which cards to keep",
    R.ORC: "Orcs: cash in the Horde markers?",
}


def _plural(m: int, word: str) -> str:
    return f"{m} {word}" + ("" if m == 1 else "s")


def _kind_color(k: int) -> str:
    c = int(C.KIND_COLOUR[k])
    return SKELETON_COLOR if c < 0 else KINGDOM_COLORS[c]


def _kind_tribe(k: int) -> str:
    return TRIBE_SHORT[int(C.KIND_TRIBE[k])]


def draw(s, cv: Canvas) -> None:
    """Draw state ``s`` (an ``ether_envs.ethnos.State``) on canvas ``cv`` (see the module docstring)."""
    g = s.game
    n = s.num_players
    tribes = ", ".join(C.TRIBES[t] for t in s.tribes)
    y0 = cv.header(f"Ethnos   Age {s.age}/{g.num_ages}",
                   f"{n} players   tribes: {tribes}   Ally deck {s.deck_len}   "
                   f"Dragons revealed {s.dragons}/{C.NUM_DRAGONS}")
    _draw_kingdoms(s, cv, y0)
    _draw_status(s, cv)
    _draw_tracks(s, cv)
    _draw_players(s, cv)
    if s.is_terminal():
        win = s.winners()
        names = " and ".join(f"player_{w}" for w in win)
        # under the status line (empty at the end), left of the Merfolk track: the legend above,
        # the track's title and the face-up row stay readable
        cv.box(12, 560, 616, 36, face="#2b2d42", edge="#2b2d42", radius=8, alpha=0.92, z=6)
        cv.text(320, 578, f"Game over: {names} win{'s' if len(win) == 1 else ''} with {int(s.glory[win[0]])} Glory",
                size=13, color="white", ha="center", weight="bold", z=7)


# ---- Kingdoms ---------------------------------------------------------------------------
def _draw_kingdoms(s, cv: Canvas, y0: float) -> None:
    n = s.num_players
    w, gap, x0 = 158, 6, 12
    top = y0 - 8
    h = 196
    most = max(1, int(s.markers.max()))
    cv.text(cv.width - 12, top - h - 9, "gold: the Glory tokens that score at the end of this Age; "
            "bars: each player's Control markers", size=7.5, color=MUTED, ha="right")
    for k in range(C.NUM_KINGDOMS):
        x = x0 + k * (w + gap)
        col = KINGDOM_COLORS[k]
        cv.box(x, top - h, w, h, face=tint(col, 0.85), edge=col, lw=1.5, radius=8)
        cv.box(x, top - 24, w, 24, face=col, edge=col, lw=0, radius=8, z=1.1)
        cv.text(x + 8, top - 12, C.KINGDOMS[k], size=10.5, color="white", weight="bold")
        cv.text(x + w - 8, top - 12, _plural(int(s.markers[:, k].sum()), "marker"), size=8, color="white", ha="right")
        # Glory tokens: in Age a the first a (ascending) score
        toks = [int(t) for t in s.glory_tokens[k]]
        for i, t in enumerate(toks):
            tx = x + 20 + i * 30
            scoring = i < s.age
            cv.circle(tx, top - 44, 12, face=GOLD if scoring else "#efe9d6", edge=INK if scoring else "#b9b3a4",
                      lw=0.8)
            cv.text(tx, top - 44, str(t), size=9, ha="center", weight="bold", color=INK if scoring else MUTED, z=5)
        # one bar per player
        row = min(20, 124 / n)
        for p in range(n):
            y = top - 72 - p * row
            m = int(s.markers[p, k])
            cv.circle(x + 12, y, min(6, row / 2 - 1), face=PLAYER_COLORS[p], edge=INK, lw=0.6)
            bw = (w - 58) * m / most
            if m:
                cv.box(x + 22, y - row * 0.3, bw, row * 0.6, face=PLAYER_COLORS[p], edge="none", radius=2)
            if m:  # no label for 0 (texts are the slow part of a picture)
                cv.text(x + 26 + bw, y, str(m), size=8.5, weight="bold")


# ---- status: who acts, the band being formed, the face-up row ----------------------------
def _mini_card(cv: Canvas, x: float, y: float, k: int, count: str = "", w: float = 62, h: float = 34) -> None:
    col = _kind_color(k)
    cv.box(x, y, w, h, face=tint(col, 0.6), edge=col, lw=1.2, radius=4)
    cv.box(x, y + h - 11, w, 11, face=col, edge=col, lw=0, radius=4, z=1.1)
    cv.text(x + w / 2, y + (h - 11) / 2, _kind_tribe(k) + (f" {count}" if count else ""), size=7.5,
            ha="center", weight="bold")


def _draw_status(s, cv: Canvas) -> None:
    x, top = 12, 616
    to_act = s.current_player()
    if to_act >= 0:
        cv.player_tag(x + 6, top, to_act, f"player_{to_act} to act", active=True, size=10.5)
        cv.text(x + 160, top, "decides: " + _DECIDES[s.phase], size=10)
        if s.phase != R.ORC and s.turn_player != to_act:
            cv.text(x + 420, top, f"(turn of player_{s.turn_player})", size=9, color=MUTED)
    y = top - 22
    if s.phase == R.BUILD or s.band.any():
        key = "colour" if s.key_colour else "tribe"
        leader = C.KIND_NAMES[s.leader] if s.leader >= 0 else "-"
        cv.text(x, y, f"band being formed ({key} band, Leader {leader}, {int(s.band.sum())} cards):",
                size=9, color=MUTED)
        bx = x
        for k in [int(k) for k in s.band.nonzero()[0]][:10]:
            _mini_card(cv, bx, y - 36, k, f"x{int(s.band[k])}" if s.band[k] > 1 else "", w=58, h=26)
            bx += 62
    elif s.phase == R.MARKER:
        cv.text(x, y, "marker may go to: " + ", ".join(C.KINGDOMS[k] for k in s.marker_options), size=9)
    if s.phase == R.MERFOLK:
        cv.text(x, y, f"Merfolk checkpoint markers still to place: {s.free_markers}", size=9)
    if s.phase == R.KEEP:
        cv.text(x, y, f"Elves: keep up to {s.keep_limit} cards (kept {int(s.kept.sum())})", size=9)
    # face-up Allies, grouped by kind
    fy = 530
    kinds = [int(k) for k in s.face_up.nonzero()[0]]
    cv.text(x, fy + 6, f"Face-up Allies ({int(s.face_up.sum())} cards)", size=10, weight="bold")
    per_row, cw, ch = 9, 64, 34
    shown = kinds[: per_row * 4]
    for i, k in enumerate(shown):
        cx = x + (i % per_row) * (cw + 4)
        cy = fy - 14 - ch - (i // per_row) * (ch + 5)
        c = int(s.face_up[k])
        _mini_card(cv, cx, cy, k, f"x{c}" if c > 1 else "", w=cw, h=ch)
    if len(kinds) > len(shown):
        cv.text(x + 8, fy - 14 - 4 * (ch + 5) - 4, f"+ {len(kinds) - len(shown)} more kinds", size=8, color=MUTED)
    if not kinds:
        cv.text(x, fy - 30, "none", size=9, color=MUTED)


# ---- tracks and tokens ----------------------------------------------------------------------
def _draw_tracks(s, cv: Canvas) -> None:
    n = s.num_players
    x0, top = 640, 616
    merfolk_in = C.MERFOLK in s.tribes
    cv.text(x0, top, "Merfolk track" + ("" if merfolk_in else "  (Merfolk not in play)"), size=10,
            weight="bold", color=INK if merfolk_in else MUTED)
    sp = 18.5
    ty = top - 80
    for i in range(C.MERFOLK_TRACK_END + 1):
        sx = x0 + i * sp
        ring = i in C.MERFOLK_CHECKPOINTS
        cv.box(sx, ty - 8, sp - 2, 16, face="#dcecf2" if merfolk_in else "#efece4",
               edge=INK if ring else "#b9b3a4", lw=1.6 if ring else 0.6, radius=3)
        if ring or i == 0:
            cv.text(sx + (sp - 2) / 2, ty - 16, str(i), size=6.5, ha="center", color=MUTED)
    for p in range(n):  # pawns stacked above their space
        pos = int(s.merfolk[p])
        stack = sum(1 for q in range(p) if int(s.merfolk[q]) == pos)
        cv.circle(x0 + pos * sp + (sp - 2) / 2, ty + 15 + stack * 8, 4, face=PLAYER_COLORS[p], edge=INK, lw=0.6)
    glory = "/".join(str(v) for v in s.game.merfolk_glory)
    cv.text(x0, ty - 30, f"checkpoints {', '.join(map(str, C.MERFOLK_CHECKPOINTS))} give a marker; "
            f"furthest scores {glory} by Age", size=7.5, color=MUTED)
    # Troll tokens
    yt = ty - 58
    trolls_in = C.TROLLS in s.tribes
    cv.text(x0, yt, "Troll tokens", size=10, weight="bold", color=INK if trolls_in else MUTED)
    for i, v in enumerate(C.TROLL_TOKENS):
        o = int(s.troll_owner[i])
        cx = x0 + 112 + i * 30
        cv.circle(cx, yt, 11, face=PLAYER_COLORS[o] if o >= 0 else "white", edge=INK, lw=0.8)
        cv.text(cx, yt, str(v), size=9, ha="center", weight="bold", color="white" if o >= 0 else INK, z=5)
    # Giant token
    yg = yt - 34
    giants_in = C.GIANTS in s.tribes
    cv.text(x0, yg, "Giant token", size=10, weight="bold", color=INK if giants_in else MUTED)
    if s.giant_holder >= 0:
        cv.player_tag(x0 + 96, yg, s.giant_holder, f"player_{s.giant_holder} (band of {s.giant_size})", size=9.5)
    else:
        cv.text(x0 + 100, yg, "unclaimed", size=9, color=MUTED)
    age_glory = "/".join(str(v) for v in s.game.giant_glory)
    cv.text(x0, yg - 18, f"holder scores {age_glory} by Age", size=7.5, color=MUTED)


# ---- players ----------------------------------------------------------------------------------
def _draw_players(s, cv: Canvas) -> None:
    n = s.num_players
    top = 330
    row_h = min(62, (top - 10) / n)
    cv.line([12, cv.width - 12], [top + 12, top + 12], color="#cfcabd", lw=1)
    orcs_in = C.ORCS in s.tribes
    cv.text(272, top + 2, "Orc Horde" + ("" if orcs_in else " (not in play)"), size=7.5, color=MUTED)
    cv.text(402, top + 2, "bands this Age (Leader, cards)", size=7.5, color=MUTED)
    winners = s.winners() if s.is_terminal() else []
    to_act = s.current_player()
    for p in range(n):
        y = top - p * row_h
        if p == to_act:
            cv.box(8, y - row_h + 6, cv.width - 16, row_h - 4, face="#ece8dc", edge="none", radius=6, z=0.6)
        cv.player_tag(26, y - 10, p, f"player_{p}", active=(p == to_act), size=10)
        star = " \u2605" if p in winners else ""
        cv.text(118, y - 10, f"{int(s.glory[p])} Glory{star}", size=11, weight="bold",
                color="#9a7a10" if p in winners else INK)
        trolls = [v for v, o in zip(C.TROLL_TOKENS, s.troll_owner) if o == p]
        extra = (f"  Trolls {'+'.join(map(str, trolls))}" if trolls else "") + \
                ("  Giant" if s.giant_holder == p else "")
        cv.text(20, y - 30, f"hand {s.hand_size(p)}   supply {int(s.supply[p])}   Merfolk {int(s.merfolk[p])}"
                + extra, size=8.5)
        # Orc Horde board: six spaces by Kingdom colour
        for k in range(C.NUM_KINGDOMS):
            ox = 272 + k * 19
            on = bool(s.orc[p, k])
            cv.box(ox, y - 18, 16, 16, face=KINGDOM_COLORS[k] if on else tint(KINGDOM_COLORS[k], 0.8),
                   edge=KINGDOM_COLORS[k] if orcs_in else "#cfcabd", lw=0.8, radius=3, alpha=1 if orcs_in else 0.4)
            if on:
                cv.circle(ox + 8, y - 10, 4, face=PLAYER_COLORS[p], edge="white", lw=0.8, z=5)
        # bands
        bands = s.band_list(p)
        bw, per = 56, 9
        for i, (leader, size, skel) in enumerate(bands[:per]):
            bx = 402 + i * (bw + 4)
            col = _kind_color(leader)
            cv.box(bx, y - 34, bw, 30, face=tint(col, 0.6), edge=col, lw=1.2, radius=4)
            cv.box(bx, y - 13, bw, 9, face=col, edge=col, lw=0, radius=3, z=1.1)
            cv.text(bx + bw / 2, y - 8.5, _kind_tribe(leader), size=6.5, color="white", ha="center", weight="bold")
            cv.text(bx + bw / 2, y - 23, str(size) + (f" ({skel} Sk)" if skel else ""), size=9.5, ha="center",
                    weight="bold")
        if len(bands) > per:
            cv.text(402 + per * (bw + 4), y - 19, f"+{len(bands) - per}", size=9)
        if not bands:
            cv.text(402, y - 19, "-", size=9, color=MUTED)
