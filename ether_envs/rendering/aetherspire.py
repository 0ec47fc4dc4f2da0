"""Picture of an Aetherspire state (1000 x 800), the neutral (public) view of ``ansi``.

Top: the invader track (Start, the 22 numbered spaces with how many invaders
enter there, Lose), the space of its token drawn black, and the four fiend slots under their
awakening spaces: each fiend's element (public, ASP-A12), its level once face up
(``L?`` while face-down with random levels), dormant / awake / defeated, and the
adaptation tucked under it. Left: the fortress, a side view per foundation: each
floor is a bar at its level, split into its rooms (outlined in the room's
element colour, multi rooms in violet), a floor standing on the room it was
built on; each pillar space is a small square marked with what it needs
(element initial, ``*`` star only, ``A`` any die; doubled for a two-die space),
filled grey when it holds a pillar, with a dot in the element colour of an
invader on it, and under it its number ``k`` in the tile (0, 1, ... from the left:
the ``space k`` of ``SPACE(#<tile> ..., space k)``, the tile's number ``#<tile>``
written at its top left); the pillar spaces, rooms and foundations are click targets
(``Canvas.target``) of their SPACE, ROOM and FOUNDATION actions. The spire topper of a
completed spire is a crown of the
spire's element over the small room it stands in (ASP-A13). Right: the
aethercore (tokens out of 5) and the four walls (crossed out when destroyed),
the elemental wheel with its shards (and the tokens set aside on defeated
fiends), invaders drawn still to enter, the unused
dice (crossed when marked for a reroll), the reserve (one chip per tile: size,
element, multi side), the counts of the bag, the three tile stacks and the
pillars left (never their order), the spire completion bonus tokens, and the
characters (the player to act marked). The header gives the difficulty, the
turn, whose turn and the phase and pending step. A banner gives the result.
"""

from __future__ import annotations

from ..aetherspire import codec as K
from ..aetherspire import components as C
from . import INK, MUTED, PLAYER_COLORS, Canvas, tint

SIZE = (1000, 800)

ELEMENT_COLORS = ("#8c5a2b", "#56B4E9", "#D7382F", "#1f4fa8")
"""earth, air, fire, water (``components.ELEMENTS``)."""
STAR_COLOR = "#c9a227"
MULTI_COLOR = "#8e6bbf"
FACE_COLORS = ELEMENT_COLORS + (STAR_COLOR,)
SIZE_LETTER = ("S", "M", "L")
_WEIGHT = (1, 2, 3)  # horizontal share of a room by the size of floor it holds
SPACE_LABEL_SIZE = 7.0
"""Font size (points) of a space's number under its square: no smaller than the picture's
other small text (6.5 the tile's number, 5.5-6.5 the dice a space needs)."""
SPACE_LABEL_COLOR = "#444444"


def _mask_color(mask: int) -> str:
    if mask == C.MULTI:
        return MULTI_COLOR
    for e in range(4):
        if mask >> e & 1:
            return ELEMENT_COLORS[e]
    return MUTED


def _need_label(need: tuple[int, ...]) -> str:
    out = []
    for m in need:
        if m == 0b11111:
            out.append("A")
        elif m == 1 << C.STAR:
            out.append("*")
        else:
            out.append(next(C.ELEMENTS[e][0].upper() for e in range(4) if m >> e & 1))
    return "".join(out)


def _step_name(s) -> str:
    if s.phase == K.OVER:
        return "game over"
    if s.queue:
        return K.STEP_NAMES[s.queue[-1][0]].replace("_", " ")
    return "main choice" if s.phase == K.BUILD else "-"


def draw(s, cv: Canvas) -> None:
    """Draw state ``s`` on canvas ``cv`` (see the module docstring)."""
    cfg = s.game.config
    n = s.num_players
    ch = s.character()
    sub = (f"difficulty {cfg.difficulty}   turn {s.turns + 1}   player_{s.turn_player} ({ch.name}) to act   "
           f"phase {K.PHASE_NAMES[s.phase]}   step: {_step_name(s)}")
    y0 = cv.header(f"Aetherspire  \u2014  {n} player{'s' if n > 1 else ''}, co-operative", sub)
    _draw_track(s, cv, y0)
    _draw_fortress(s, cv)
    _draw_side(s, cv)
    if s.phase == K.OVER:
        k = s.spires()
        won = s.outcome > 0
        color = "#2e7d32" if won else "#b03a2e"
        line = f"{k} spire{'s' if k != 1 else ''} completed" + ("" if won else f"; lost by the {s.loss_reason}")
        # in the free lower right, so that the fortress and the panel stay visible
        cv.box(648, 70, 340, 60, face=color, edge=color, radius=8, alpha=0.92, z=6)
        cv.text(818, 110, "WON" if won else "LOST", size=16, color="white", ha="center", weight="bold", z=7)
        cv.text(818, 84, line, size=10, color="white", ha="center", z=7)


# ---- invader track and fiends ---------------------------------------------------
def _draw_track(s, cv: Canvas, y0: float) -> None:
    y = y0 - 34
    x0, w = 16, 40.5
    cv.text(x0, y + 22, "Invader track (numbers: invaders entering; violet: a fiend awakens; black: the token)", size=10, color=MUTED)
    for i in range(C.LOSE_SPACE + 1):
        x = x0 + i * w
        if i == 0:
            label, face = "Start", "#e6e2d6"
        elif i == C.LOSE_SPACE:
            label, face = "Lose", "#e8b4ad"
        else:
            label, face = str(C.TRACK_COUNTS[i]), "#f0ede4" if i not in C.AWAKEN_SPACES else "#ddd6f0"
        here = i == s.track  # the black track token: the space drawn dark
        cv.box(x, y - 13, w - 4, 26, face="#222222" if here else face, edge="black" if here else "#b9b3a4",
               lw=2 if here else 0.8, radius=4)
        cv.text(x + (w - 4) / 2, y, label, size=8 if len(label) > 2 else 10, ha="center",
                color="white" if here else INK, weight="bold" if here else "normal")
    # fiend slots under their awakening spaces
    fy = y - 64
    for k, sp in enumerate(C.AWAKEN_SPACES):
        e = s.slot_element[k]
        x = x0 + sp * w + (w - 4) / 2 - 62
        cv.line([x + 62, x + 62], [y - 13, fy + 44], color="#b9b3a4", lw=1)
        known = s.fiend_known(e)
        state = "defeated" if s.defeated[e] else ("awake" if s.awake[e] else "dormant")
        col = ELEMENT_COLORS[e]
        face = "#d9d9d9" if s.defeated[e] else (tint(col, 0.35) if s.awake[e] else tint(col, 0.8))
        cv.box(x, fy, 124, 44, face=face, edge=col, lw=2 if s.awake[e] and not s.defeated[e] else 1,
               style="-" if s.awake[e] or s.defeated[e] else "--", radius=5)
        lv = f"L{s.fiend_level[e]}" if known else "L?"
        cv.text(x + 6, fy + 32, f"{C.ELEMENTS[e]} fiend {lv}", size=9, weight="bold")
        name = C.FIEND_LEVELS[s.fiend_level[e]][0] if known else "face down"
        cv.text(x + 6, fy + 19, f"{state}: {name}", size=7.5)
        if s.adaptation[e] >= 0:
            a = C.ADAPTATIONS[s.adaptation[e]].name
            cv.text(x + 6, fy + 7, f"adaptation {a}" + (" (done)" if s.adapted_done[e] else ""), size=7.5,
                    color="#5a3d8a")


# ---- the fortress ---------------------------------------------------------------
FORT_X, FORT_Y, FORT_W, FORT_TOP = 30, 24, 594, 628
"""The fortress's box: the level labels L1, L2, ... stand left of it (away from the character list)."""


def _draw_fortress(s, cv: Canvas) -> None:
    col_w = FORT_W / C.NUM_FOUNDATIONS
    top_level = max([lv for lv in s.level] + [4])
    base = FORT_Y + 26
    lvl_h = min(62.0, (FORT_TOP - 14 - base) / top_level)
    cv.text(FORT_X, FORT_TOP + 4, "Fortress (side view: floors stand on the room below; #tile, space 0, 1, ...)",
            size=10, color=MUTED)
    for lv in range(1, top_level + 1):
        yy = base + (lv - 1) * lvl_h
        cv.text(FORT_X - 3, yy + lvl_h / 2, f"L{lv}", size=7.5, color=MUTED, ha="right")
    for f in range(C.NUM_FOUNDATIONS):
        x = FORT_X + f * col_w + 6
        w = col_w - 12
        cv.box(x, FORT_Y, w, 22, face="#b5ad9c", edge="#8a8270", radius=3)
        cv.text(x + w / 2, FORT_Y + 11, f"foundation {f}", size=8.5, ha="center", color="white", weight="bold")
        cv.target(K.FOUNDATION0 + f, x, FORT_Y, w, 22)  # a click: put the chosen large floor there
        t = s.found_tile[f]
        if t >= 0:
            _draw_tile(s, cv, t, x, w, base, lvl_h)


def _draw_tile(s, cv: Canvas, t: int, x: float, w: float, base: float, lvl_h: float) -> None:
    sd = s.side[t]
    y = base + (s.level[t] - 1) * lvl_h
    h = lvl_h - 6
    tile_col = _mask_color(C.TILE_ELEMENTS[t][sd])
    cv.box(x, y, w, h, face=tint(tile_col, 0.75), edge=tile_col, lw=1.4, radius=3, z=1)
    label = f"#{t} {SIZE_LETTER[C.TILE_SIZE[t]]}" + (" multi" if sd else "")
    cv.text(x + 3, y + h - 7, label, size=6.5, color=INK, z=4)
    rooms = C.TILE_ROOMS[sd][t]
    total = sum(_WEIGHT[room.size] for room in rooms) or 1
    rx = x + 2
    for slot, size, mask, spaces in rooms:
        rw = (w - 4) * _WEIGHT[size] / total
        cv.box(rx + 1, y + 2, rw - 2, h - 13, face="white", edge=_mask_color(mask), lw=1.1, radius=2, z=1.5,
               style="-" if s.room_tile[slot] < 0 else ":")
        cv.target(K.ROOM0 + slot, rx + 1, y + 2, rw - 2, h - 13)  # a click: the chosen floor goes here
        if spaces:
            q = min(15.0, (rw - 6) / len(spaces) - 2, h - 19)
            gap = (rw - len(spaces) * q) / (len(spaces) + 1)
            for k, sp in enumerate(spaces):
                qx = rx + gap + k * (q + gap)
                qy = y + 2 + (h - 13 - q) / 2
                filled = s.pillar[sp]
                cv.box(qx, qy, q, q, face="#7d7d7d" if filled else "#f4f2ec", edge=INK, lw=0.6, radius=1.5, z=2)
                cv.target(K.SPACE0 + sp, qx, qy, q, q)  # a click: a pillar here, or this space as a target
                if not filled:
                    cv.text(qx + q / 2, qy + q / 2, _need_label(C.NEEDS[sd][sp]), size=5.5 if q < 12 else 6.5,
                            ha="center", color="#555555", z=3)
                inv = s.invader[sp]
                if inv >= 0:
                    cv.circle(qx + q / 2, qy + q / 2, q * 0.42, face=ELEMENT_COLORS[inv], edge="black", lw=0.9, z=4)
                # its number in the tile (SPACE(#t ..., space k)), midway between the square and the room's edge
                cv.text(qx + q / 2, (y + 2 + qy) / 2, str(sp % C.MAX_SPACES), size=SPACE_LABEL_SIZE, ha="center",
                        color=SPACE_LABEL_COLOR, z=3)
        else:
            cv.text(rx + rw / 2, y + (h - 11) / 2 + 2, C.TILE_EFFECT[t].replace("_", " "), size=6, ha="center",
                    color="#555555", z=3)
        u = s.room_tile[slot]
        if u >= 0:
            _draw_tile(s, cv, u, rx + 1, rw - 2, base, lvl_h)
        if slot == s.topper_room[t]:  # the spire topper, over the small room it stands in
            cx = rx + rw / 2
            cv.polygon([(cx - 12, y + h + 1), (cx - 12, y + h + 9), (cx - 6, y + h + 4), (cx, y + h + 11),
                        (cx + 6, y + h + 4), (cx + 12, y + h + 9), (cx + 12, y + h + 1)],
                       face=ELEMENT_COLORS[s.topped[t]], edge=INK, lw=0.8, z=6)
        rx += rw


# ---- the side panel -------------------------------------------------------------
def _draw_side(s, cv: Canvas) -> None:
    x = 650
    y = 620
    # aethercore and walls
    cv.text(x, y, "Aethercore", size=10, color=MUTED)
    for k in range(C.MAX_CORES):
        on = k < s.cores
        cv.circle(x + 86 + k * 20, y, 7, face="#f2c14e" if on else "#ece8dc", edge=INK if on else "#b9b3a4", lw=0.8)
    cv.text(x + 190, y, f"{s.cores}/{C.MAX_CORES}", size=9)
    y -= 24
    cv.text(x, y, "Walls", size=10, color=MUTED)
    for e in range(4):
        wx = x + 50 + e * 66
        up = s.walls[e]
        cv.box(wx, y - 9, 60, 18, face=ELEMENT_COLORS[e] if up else "#f4f2ec", edge=ELEMENT_COLORS[e], lw=1.2,
               radius=2, style="-" if up else "--")
        cv.text(wx + 30, y, C.ELEMENTS[e], size=8, ha="center", color="white" if up else MUTED,
                weight="bold" if up else "normal")
        if not up:
            cv.line([wx + 2, wx + 58], [y - 8, y + 8], color="#b03a2e", lw=1.2)
    # elemental wheel
    y -= 34
    cv.text(x, y, "Elemental wheel (shards)", size=10, color=MUTED)
    cx, cy, r = x + 48, y - 52, 40
    quads = [(90, 180), (0, 90), (180, 270), (270, 360)]  # earth top-left, air top-right, fire bottom-left, water
    import math
    for e, (a0, a1) in enumerate(quads):
        cv.wedge(cx, cy, r, a0, a1, face=tint(ELEMENT_COLORS[e], 0.45), edge="white", lw=1.5, z=2)
        mid = math.radians((a0 + a1) / 2)
        cv.text(cx + 0.55 * r * math.cos(mid), cy + 0.55 * r * math.sin(mid), str(s.shards[e]), size=11,
                ha="center", weight="bold")
    lx = x + 104
    for e in range(4):
        ly = y - 22 - e * 16
        cv.circle(lx + 5, ly, 5, face=ELEMENT_COLORS[e], edge=INK, lw=0.5)
        aside = f", {s.aside[e]} set aside" if s.aside[e] else ""
        cv.text(lx + 14, ly, f"{C.ELEMENTS[e]} {s.shards[e]}{aside}", size=8.5)
    inc = ", ".join(C.ELEMENTS[e] for e in s.incoming) or "none"
    cv.text(lx, y - 92, f"to enter: {inc}", size=8.5)
    # dice
    y -= 120
    cv.text(x, y, "Dice", size=10, color=MUTED)
    dx = x + 40
    for f in range(5):
        for k in range(s.dice[f]):
            cv.box(dx, y - 11, 22, 22, face=tint(FACE_COLORS[f], 0.2), edge=INK, lw=0.8, radius=4)
            cv.text(dx + 11, y, "\u2605" if f == C.STAR else C.ELEMENTS[f][0].upper(), size=10, ha="center",
                    color="white", weight="bold")
            if k < s.marks[f]:
                cv.line([dx + 2, dx + 20], [y - 9, y + 9], color=INK, lw=1.2, z=5)
            dx += 26
    if not any(s.dice):
        cv.text(dx, y, "none", size=9)
    # reserve
    y -= 30
    cv.text(x, y, f"Reserve ({len(s.reserve)} tiles)", size=10, color=MUTED)
    y -= 20
    for j, t in enumerate(s.reserve[:30]):
        px = x + (j % 10) * 34
        py = y - (j // 10) * 22
        col = _mask_color(C.TILE_ELEMENTS[t][s.side[t]])
        cv.box(px, py - 9, 31, 18, face=tint(col, 0.55), edge=col, lw=1, radius=3)
        cv.text(px + 15.5, py, f"{SIZE_LETTER[C.TILE_SIZE[t]]}{'m' if s.side[t] else ''}{t}", size=7, ha="center")
    y -= 22 * max(1, (min(len(s.reserve), 30) + 9) // 10) + 6
    # counts (never orders)
    st = s.stacks
    cv.text(x, y, f"Bag {len(s.bag)}   tile stacks S {len(st[C.SMALL])} M {len(st[C.MEDIUM])} "
                  f"L {len(st[C.LARGE])}   pillars left {s.pillar_supply()}", size=9)
    y -= 20
    cv.text(x, y, "Bonus tokens", size=8.5)
    for b, bonus in enumerate(C.BONUSES):
        bx = x + 84 + b * 62
        used = s.bonus_used[b]
        cv.box(bx, y - 8, 58, 16, face="#e6e2d6" if used else "#fff4cc", edge="#b9b3a4" if used else STAR_COLOR,
               lw=1, radius=3)
        cv.text(bx + 29, y, bonus.key, size=7.5, ha="center", color=MUTED if used else INK)
        if used:  # flipped: already taken
            cv.line([bx + 4, bx + 54], [y, y], color=MUTED, lw=1, z=5)
    y -= 18
    flags = [k for k, v in (("reroll used", s.reroll_used), ("anchored used", s.anchored_used)) if v]
    cv.text(x, y, f"Spires completed {s.spires()}/4" + ("   " + ", ".join(flags) if flags else ""), size=9,
            weight="bold")
    # characters
    y -= 26
    cv.text(x, y, "Characters", size=10, color=MUTED)
    to_act = s.current_player()
    for p in range(s.num_players):
        y -= 19
        c = s.character(p)
        cv.player_tag(x + 14, y, p, f"player_{p}: {c.name} ({C.ELEMENTS[c.element]})", active=(p == to_act),
                      size=8.5)
        cv.text(cv.width - 10, y, f"upgrade: {c.upgrade.replace('_', ' ')}", size=7, color=MUTED, ha="right")
