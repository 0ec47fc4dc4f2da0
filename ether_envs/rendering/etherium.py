"""Picture of an Etherium state (800 x 800), the neutral (public) view of ``ansi``.

Left: the board (ETM-A1) as four sectors around the Ether terrain, each
City - Mountain - Forest - Mine - Ether along a ray, the three level rings
drawn as circles; boxes in their Move colours (Mountain yellow, Forest green,
Mine red, Ether blue; ``RULES.md``), a seat's City in its colour; units as markers in their player's colour with their level inside
(circle: Gatherer, diamond: Soldier); the box of a conflict being resolved
ringed red. Right: season (card and text), the seasons revealed so far,
initiative order, who acts and the decision kind, the action being performed,
Flash deck and discard sizes, Victory tokens left. Bottom: one row per player:
tribe, prestige, resources, unit levels, Flash card count (their types are
hidden), Ability, Victory tokens, and the program (hidden tokens as "?" until
the reveal, then the Action-board spaces, the current step outlined).
"""

from __future__ import annotations

import textwrap

import math

from ..etherium import components as C
from ..etherium import rules as R
from . import INK, MUTED, PLAYER_COLORS, Canvas, tint

SIZE = (800, 800)

TERRAIN_COLORS = {C.MOUNTAIN: "#e0b84a", C.FOREST: "#4f9a4a", C.MINE: "#c8553d", C.ETHER_TERRAIN: "#3f6fbf",
                  C.CITY: "#b8b2a3"}
"""Box colours: the Move colours of the Action board (yellow, green, red, blue) and grey Cities."""
RESOURCE_COLORS = ("#8d5a2b", "#9a9a9a", "#5d6d7e", "#3f6fbf", "#e0a800")
"""Wood, Stone, Metal, Ether, Booster cube colours."""
CENTRE = (262.0, 478.0)
RADIUS = {C.MINE: 76.0, C.FOREST: 152.0, C.MOUNTAIN: 226.0, C.CITY: 292.0}
BOX = 52.0


def box_xy(box: int) -> tuple[float, float]:
    """Centre of ``box`` in the picture: sector i on the ray at 225 - 90 i degrees."""
    if box == C.ETHER_BOX:
        return CENTRE
    sector = box % C.NUM_SECTORS
    angle = math.radians(225 - 90 * sector)
    r = RADIUS[C.BOX_TERRAIN[box]]
    return CENTRE[0] + r * math.cos(angle), CENTRE[1] + r * math.sin(angle)


def draw(s, cv: Canvas) -> None:
    """Draw state ``s`` on canvas ``cv`` (see the module docstring)."""
    n = s.num_players
    card = s.season_card()
    season = f"season {s.season + 1}/7: {C.SEASON_NAMES[card]}" if card >= 0 else "setup"
    cv.header("Etherium", f"{n} players  |  {season}  |  phase: {R.PHASE_NAMES[s.phase].replace('_', ' ')}"
              f"  |  decision {len(s.history)}")
    _draw_board(s, cv)
    _draw_side(s, cv)
    _draw_players(s, cv)
    if s.is_terminal():
        ws = s.winners()
        who = " and ".join(f"player_{w}" for w in ws)
        # in the free lower right of the side panel: the legend under the board stays readable
        cv.box(536, 262, 256, 62, face="#2b2d42", edge="#2b2d42", radius=8, alpha=0.92, z=6)
        cv.text(664, 306, "Game over", size=14, color="white", ha="center", weight="bold", z=7)
        cv.text(664, 280, f"{who} win{'s' if len(ws) == 1 else ''} with {s.score(ws[0])} prestige", size=10.5,
                color="white", ha="center", z=7)


def _draw_board(s, cv: Canvas) -> None:
    g = s.game
    cx, cy = CENTRE
    for t in (C.MINE, C.FOREST, C.MOUNTAIN):  # the level rings
        r = RADIUS[t]
        pts = [(cx + r * math.cos(a / 60 * 2 * math.pi), cy + r * math.sin(a / 60 * 2 * math.pi)) for a in range(61)]
        cv.line([p[0] for p in pts], [p[1] for p in pts], color="#b9b3a4", lw=3, z=0.8)
    for a, b in C.BOARD_EDGES:
        if C.BOX_TERRAIN[a] != C.BOX_TERRAIN[b]:  # radial edges (ring edges are the circles)
            (x0, y0), (x1, y1) = box_xy(a), box_xy(b)
            cv.line([x0, x1], [y0, y1], color="#b9b3a4", lw=3, z=0.8)
    city_owner = {c: p for p, c in enumerate(g.cities)}
    fight = s.battle.box if s.battle is not None else -1
    for box in range(C.NUM_BOXES):
        x, y = box_xy(box)
        t = C.BOX_TERRAIN[box]
        color = TERRAIN_COLORS[t]
        owner = city_owner.get(box, -1) if t == C.CITY else -1
        if owner >= 0:
            color = PLAYER_COLORS[owner]
        cv.box(x - BOX / 2, y - BOX / 2, BOX, BOX, face=tint(color, 0.45), edge=color, lw=2, radius=8, z=1)
        label = C.TERRAIN_NAMES[t] if owner < 0 else f"City p{owner}"
        cv.text(x, y + BOX / 2 - 8, label, size=7, ha="center", weight="bold", color="#333333", z=4)
        if box == fight:
            cv.box(x - BOX / 2 - 5, y - BOX / 2 - 5, BOX + 10, BOX + 10, face="none", edge="#c0392b", lw=3,
                   radius=10, z=5)
        # units: one column per seat, Gatherer above Soldier
        for p in range(s.num_players):
            for u in (C.GATHERER, C.SOLDIER):
                if s.pos[p][u] != box:
                    continue
                ux = x - BOX / 2 + 8 + p * 12
                uy = y + 1 - u * 16
                if u == C.GATHERER:
                    cv.circle(ux, uy, 6.5, face=PLAYER_COLORS[p], edge="white", lw=0.8, z=5)
                else:
                    cv.polygon([(ux, uy + 8), (ux + 7, uy), (ux, uy - 8), (ux - 7, uy)], face=PLAYER_COLORS[p],
                               edge="white", lw=0.8, z=5)
                cv.text(ux, uy, str(s.lvl[p][u]), size=6.5, color="white", ha="center", weight="bold", z=6)
    cv.text(16, 226, "circle: Gatherer, diamond: Soldier, number: its level (one column per player); "
            "red ring: a conflict", size=8, color=MUTED)
    cv.text(16, 213, "elevation: Mine 0, Ether and Forest 1, Mountain and City 2; rings: the level roads",
            size=8, color=MUTED)


def _draw_side(s, cv: Canvas) -> None:
    x, y = 540, 716
    card = s.season_card()
    cv.text(x, y, "Season", size=10, color=MUTED)
    cv.text(x + 58, y, C.SEASON_NAMES[card] if card >= 0 else "-", size=13, weight="bold")
    y -= 20
    if card >= 0:
        text = C.SEASON_TEXT[card].split(": ", 1)[-1]
        for line in textwrap.wrap(text, 40):
            cv.text(x, y, line, size=8.5)
            y -= 13
    # the seven seasons: revealed ones named
    y -= 6
    for i in range(C.NUM_SEASONS):
        sx = x + i * 35
        shown = i <= s.season
        face = "#2b2d42" if i == s.season else ("#d9d5ca" if shown else "#efece4")
        cv.box(sx, y - 11, 31, 22, face=face, edge="#b9b3a4", lw=0.8, radius=4)
        name = C.SEASON_NAMES[s.seasons[i]] if shown else "?"
        short = "N" if name == "Night" else (name[:3] + name[-1] if shown else "?")
        cv.text(sx + 15.5, y, short, size=7, ha="center",
                color="white" if i == s.season else INK)
    y -= 30
    cv.text(x, y, "Initiative", size=10, color=MUTED)
    y -= 19
    to_act = s.current_player()
    for p in s.order:
        tribe = C.TRIBES[s.tribe[p]].name if s.tribe[p] >= 0 else "?"
        cv.player_tag(x + 4, y, p, f"player_{p} ({tribe})", size=10, active=(p == to_act))
        y -= 18
    y -= 6
    if to_act >= 0:
        cv.text(x, y, "To act", size=10, color=MUTED)
        cv.player_tag(x + 50, y, to_act, f"player_{to_act}", size=9.5)
        cv.text(x + 50, y - 16, "decides: " + R.DECISION_NAMES[s.decision() - R.D_FIRST].replace("_", " "), size=9)
        y -= 36
    seat, space = s.acting
    if seat >= 0:
        cv.text(x, y, f"performing: player_{seat} {C.SPACE_NAMES[space]}", size=9)
        y -= 16
    if s.battle is not None:
        cv.text(x, y, f"conflict at {C.BOX_NAMES[s.battle.box]}", size=9, color="#c0392b", weight="bold")
        y -= 16
    y -= 6
    cv.text(x, y, f"Flash deck {len(s.deck)}   discard {sum(s.discard)}", size=9)
    y -= 16
    cv.text(x, y, "Victory tokens left", size=9, color=MUTED)
    left = [f"{name} {k}" for name, k in zip(C.VT_NAMES, s.vt_supply)]
    for j in range(0, len(left), 3):
        y -= 15
        cv.text(x, y, "   ".join(left[j:j + 3]), size=8.5)


def _draw_players(s, cv: Canvas) -> None:
    n = s.num_players
    row_h = 192 / n
    top = 198
    cv.line([12, cv.width - 12], [top + 4, top + 4], color="#cfcabd", lw=1)
    winners = s.winners() if s.is_terminal() else []
    to_act = s.current_player()
    for p in range(n):
        y = top - p * row_h
        if p == to_act:
            cv.box(8, y - row_h + 3, cv.width - 16, row_h - 4, face="#ece8dc", edge="none", radius=6, z=0.6)
        tribe = C.TRIBES[s.tribe[p]].name if s.tribe[p] >= 0 else "tribe ?"
        cv.player_tag(26, y - 12, p, f"player_{p} {tribe}", active=(p == to_act), size=9.5)
        cv.text(30, y - 32, str(s.score(p)), size=15, weight="bold")
        cv.text(62, y - 32, "prestige" + (" \u2605" if p in winners else ""), size=8.5,
                color="#c9a227" if p in winners else MUTED)
        # resources as cubes with counts
        for r in range(5):
            rx = 186 + r * 34
            cv.box(rx, y - 19, 13, 13, face=RESOURCE_COLORS[r], edge=INK, lw=0.5, radius=2)
            cv.text(rx + 17, y - 12.5, str(s.res[p][r]), size=9)
        lv = s.lvl[p]
        cv.text(186, y - 33, f"Gath {lv[0]}  Sold {lv[1]}  Guard {lv[2]}  Guide {lv[3]}", size=8)
        ability = C.ABILITIES[s.ability[p]].name if s.ability[p] >= 0 else "-"
        vts = ", ".join(f"{k} {C.VT_NAMES[i]}" for i, k in enumerate(s.vt[p]) if k) or "-"
        cv.text(392, y - 12.5, f"Flash cards {s.hand_size(p)}   Ability {ability}", size=8)
        cv.text(392, y - 33, f"VT: {vts}", size=8)
        # program: token slots
        prog = s.program[p]
        for k in range(s.ntok[p]):
            px = 572 + k * 36
            done = k < len(prog)
            current = s.revealed and k == s.step
            face = "#ffffff" if done else "#efece4"
            cv.box(px, y - 38, 33, 30, face=face, edge="#c0392b" if current else "#b9b3a4",
                   lw=2 if current else 0.8, radius=4)
            if done:
                label = _space_short(prog[k]) if s.revealed else "?"
                cv.text(px + 16.5, y - 23, label, size=7, ha="center")
    cv.text(572, top + 14, "program (hidden until the reveal)", size=7.5, color=MUTED)


_SHORT = {"Mountain": "Mount.", "Gatherer": "Gath.", "Soldier": "Sold.", "Etherization": "Ether.",
          "Ability": "Abil.", "Booster": "Boost."}


def _space_short(space: int) -> str:
    """Two-line short name of an Action-board space (fits a token slot)."""
    action, arg = C.SPACES[space]
    if action == C.MOVE:
        return f"Move\n{C.COLOUR_NAMES[arg]}"
    if action == C.GATHER:
        name = C.TERRAIN_NAMES[arg]
        return f"Gather\n{_SHORT.get(name, name)}"
    if action == C.UPGRADE:
        name = C.UNIT_NAMES[arg]
        return f"Incr.\n{_SHORT.get(name, name)}"
    if action == C.TRANSFORM:
        name = C.TRANSFORM_NAMES[arg]
        return f"Transf.\n{_SHORT.get(name, name)}"
    return f"Connect\n{arg + 1}"
