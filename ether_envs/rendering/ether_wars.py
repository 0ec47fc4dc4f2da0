"""Picture of an Ether Wars state (960 x 800), the neutral (public) view of ``ansi``.

Left: the board's areas, four to a row: the Extraction areas (Biosphere and the
three Limited areas), the Ether Fault, the Market (with the resource tokens left
in the box) and the Factory, then one Silo per player in its owner's colour.
In each area, one row per player present, in order of arrival: Units as a
square die in the player's colour with their count, the Hero as an "H" die,
the player's Mercenary as a die with its initial, the Ether die as "E"; the
area being resolved is ringed red. Right: round, phase, the Event card, who
decides what, the open Favour window, deck sizes, the Ether die, the six
Mercenaries (owner and where they are), and the dice rolled in the area being
resolved (each Unit die's counted pips, Hero, Captain, extra dice, total;
"powered up" when the hollow pips count). Bottom: each player's sheet: faction,
ability card (face up once revealed, "?" while secret, "-" before choosing),
Protein, Charge, Coltan, Plasma, Crystal, Ether (and the Ether needed to win),
Units on the sheet and in reserve, where the Hero is, and the NUMBER of Favours
in hand (their kinds are hidden).
"""

from __future__ import annotations

import textwrap

from ..ether_wars import components as C
from ..ether_wars.codec import DECISION_NAMES, MODES, M_NONE, PHASE_NAMES, PLACEMENT, WINDOW_NAMES
from . import INK, MUTED, PLAYER_COLORS, Canvas, tint

SIZE = (960, 800)

AREA_COLORS = ("#6aa84f", "#8d6e63", "#c0504d", "#4aa3c8", "#7b4fbf", "#d9a441", "#7f8c8d")
"""Biosphere, Coltan Mine, Plasma Chasm, Crystal Sea, Ether Fault, Market, Factory."""
RESOURCE_COLORS = ("#6aa84f", "#8d6e63", "#c0504d", "#4aa3c8", "#7b4fbf")
"""Protein, Coltan, Plasma, Crystal, Ether token colours."""
SHORT_RES = ("P", "Co", "Pl", "Cr", "E")
ETHER_DIE_COLOR = "#7b4fbf"
BOARD_X, AREA_W, AREA_H, GAP = 12, 150, 156, 6
ROW_TOPS = (738, 576, 414)
RED = "#c0392b"
POWER = "#f1c40f"
"""The mark of powered-up Units (their hollow pips count)."""


def draw(s, cv: Canvas) -> None:
    """Draw state ``s`` on canvas ``cv`` (see the module docstring)."""
    n = s.game.num_players
    cv.header("Ether Wars", f"{n} players  |  round {s.round}  |  phase: {PHASE_NAMES[s.phase].replace('_', ' ')}"
              f"  |  first player_{s.first}  |  {s.game.ether_to_win} Ether to win  |  decision {len(s.history)}")
    _draw_board(s, cv)
    _draw_side(s, cv)
    _draw_sheets(s, cv)
    if s.is_terminal():
        text = (f"Game over: player_{s.winner} wins with {s.res[s.winner][C.ETHER]} Ether" if s.winner >= 0
                else "Game over: round limit reached, no winner")
        # in the free space under the Mercenaries: the legend and the sheets stay readable
        head, _, rest = text.partition(": ")
        cv.box(640, 262, 308, 62, face="#2b2d42", edge="#2b2d42", radius=8, alpha=0.92, z=6)
        cv.text(794, 306, head, size=14, color="white", ha="center", weight="bold", z=7)
        cv.text(794, 280, rest, size=10.5, color="white", ha="center", z=7)


# ---- board ------------------------------------------------------------------------
def _area_xy(a: int) -> tuple[float, float]:
    """Bottom-left corner of area ``a``'s box."""
    if a < 4:
        row, col = 0, a
    elif a < C.SILO0:
        row, col = 1, a - 4
    else:
        row, col = 2, a - C.SILO0
    return BOARD_X + col * (AREA_W + GAP), ROW_TOPS[row] - AREA_H


def _dice_in(s, p: int, a: int) -> list[tuple[str, str]]:
    """``p``'s dice in area ``a`` as (label, kind) pairs, kind in unit/hero/merc/ether."""
    dice = []
    if s.units_at[p][a]:
        dice.append((str(s.units_at[p][a]), "unit"))
    if s.hero_at[p] == a:
        dice.append(("H", "hero"))
    m = s.hired[p]
    if m >= 0 and s.merc_at[m] == a:
        dice.append((C.MERCENARIES[m].name[:2], "merc"))
    if a == C.ETHER_FAULT and s.ether_placed and s.ether_ctrl == p:
        dice.append(("E", "ether"))
    return dice


def _die(cv: Canvas, x: float, y: float, label: str, kind: str, color: str, size: float = 20) -> None:
    """A die icon centred on (x, y)."""
    h = size / 2
    if kind == "unit":
        cv.box(x - h, y - h, size, size, face=color, edge=INK, lw=0.8, radius=3, z=5)
        cv.text(x, y, label, size=8.5, color="white", ha="center", weight="bold", z=6)
    elif kind == "hero":
        cv.box(x - h, y - h, size, size, face=tint(color, 0.35), edge=color, lw=2.2, radius=3, z=5)
        cv.text(x, y, label, size=8.5, color=INK, ha="center", weight="bold", z=6)
    elif kind == "merc":
        cv.box(x - h, y - h, size, size, face="white", edge=color, lw=2.2, radius=3, z=5)
        cv.text(x, y, label, size=7, color=INK, ha="center", weight="bold", z=6)
    elif kind == "face":  # a rolled die: its counted pips
        cv.box(x - h, y - h, size, size, face="white", edge=color, lw=2, radius=3, z=5)
        cv.text(x, y, label, size=8.5, color=INK, ha="center", weight="bold", z=6)
    else:  # the Ether die
        cv.box(x - h, y - h, size, size, face=ETHER_DIE_COLOR, edge=color, lw=2.2, radius=3, z=5)
        cv.text(x, y, label, size=8.5, color="white", ha="center", weight="bold", z=6)


def _draw_board(s, cv: Canvas) -> None:
    n = s.game.num_players
    resolving = s.resolving.area if s.resolving is not None else -1
    for a in range(C.SILO0 + n):
        x, y = _area_xy(a)
        if a >= C.SILO0:
            owner = a - C.SILO0
            color, name = PLAYER_COLORS[owner], f"Silo of player_{owner}"
        else:
            color, name = AREA_COLORS[a], C.AREAS[a]
        cv.box(x, y, AREA_W, AREA_H, face=tint(color, 0.8), edge=color, lw=1.8, radius=8, z=1)
        cv.box(x, y + AREA_H - 22, AREA_W, 22, face=color, edge=color, lw=0, radius=8, z=1.1)
        cv.text(x + 8, y + AREA_H - 11, name, size=9, color="white", weight="bold")
        if a in C.LIMITED:
            cv.text(x + AREA_W - 6, y + 24, "Limited", size=7, color=color, ha="right", weight="bold")
        if a == resolving:
            cv.box(x - 4, y - 4, AREA_W + 8, AREA_H + 8, face="none", edge=RED, lw=3, radius=10, z=4)
        # one row per player present, in order of arrival (then the others with dice there)
        seats = list(s.arrival[a]) + [q for q in range(n) if q not in s.arrival[a] and _dice_in(s, q, a)]
        ry = y + AREA_H - 40
        for q in seats:
            dice = _dice_in(s, q, a)
            if not dice:
                continue
            cv.circle(x + 12, ry, 5.5, face=PLAYER_COLORS[q], edge=INK, lw=0.6, z=4)
            for k, (label, kind) in enumerate(dice):
                _die(cv, x + 34 + k * 25, ry, label, kind, PLAYER_COLORS[q])
                if kind == "unit" and s.revealed and s.powered(q, a):  # ability cards are face up
                    cv.circle(x + 34 + k * 25 + 10, ry + 10, 4.5, face=POWER, edge=INK, lw=0.6, z=7)
            ry -= 26
        if a in C.EXTRACTION_AREAS:
            r = C.AREA_RESOURCE[a]
            cost = s.game.extraction_cost[r]
            cv.text(x + 8, y + 10, f"{C.RESOURCES[r]}: {cost} pip{'s' if cost > 1 else ''} each", size=7,
                    color="#444444")
        elif a == C.MARKET:
            stock = ("in the box: " + "  ".join(f"{SHORT_RES[r]} {s.bank(r)}" for r in range(2)) + "\n"
                     + "  ".join(f"{SHORT_RES[r]} {s.bank(r)}" for r in range(2, 5)))
            cv.text(x + 8, y + 5, stock, size=7, color="#444444", va="bottom", linespacing=1.3)
        elif a == C.ETHER_FAULT:
            cv.text(x + 8, y + 10, "channel Ether", size=7, color="#444444")
        elif a == C.FACTORY:
            cv.text(x + 8, y + 10, "clone Units", size=7, color="#444444")
        else:
            owner = a - C.SILO0
            cv.text(x + 8, y + 10, "raid: " + " ".join(f"{SHORT_RES[r]}{s.res[owner][r]}" for r in range(5)),
                    size=7, color="#444444")
    lx, ly = BOARD_X, ROW_TOPS[2] - AREA_H - 14
    cv.text(lx, ly, "dice: filled square = Units (count), H = Hero, two letters = Mercenary, "
            "E = Ether die; yellow dot: powered up; rows in order of arrival; red ring: the area being resolved", size=7.5, color=MUTED)


# ---- side panel ---------------------------------------------------------------------
def _draw_side(s, cv: Canvas) -> None:
    x, y = 640, 726
    cv.text(x, y, f"Round {s.round}", size=13, weight="bold")
    cv.text(x + 112, y, PHASE_NAMES[s.phase].replace("_", " "), size=12)
    y -= 24
    # the Event card
    if s.event >= 0:
        ev = C.EVENTS[s.event]
        lines = textwrap.wrap(ev.text, 44)
        h = 24 + 12 * len(lines)
        cv.box(x, y - h + 10, 306, h, face="#efe6f7", edge=ETHER_DIE_COLOR, lw=1.2, radius=5)
        cv.text(x + 8, y, f"Event: {ev.name}", size=9.5, weight="bold")
        cv.text(x + 8, y - 9, "\n".join(lines), size=8, va="top", linespacing=1.1)
        y -= h + 8
    else:
        cv.text(x, y, "Event: -", size=9.5, color=MUTED)
        y -= 20
    to_act = s.current_player()
    if to_act >= 0 and not s.is_terminal():
        cv.text(x, y, "To act", size=10, color=MUTED)
        cv.player_tag(x + 62, y, to_act, f"player_{to_act}: {DECISION_NAMES[s.decision].replace('_', ' ')}",
                      size=9.5, active=True)
        y -= 18
    if s.window is not None:
        cv.text(x, y, f"Favour window open ({WINDOW_NAMES[s.window.kind]})", size=8.5)
        y -= 15
    cv.text(x, y, f"Favour deck {len(s.fdeck)}  discard {len(s.fdiscard)}   Event deck {len(s.edeck)}", size=8.5)
    y -= 15
    if s.ether_ctrl >= 0:
        where = "in the Ether Fault" if s.ether_placed else "on the sheet"
        cv.text(x, y, f"Ether die: player_{s.ether_ctrl}, {where}", size=8.5)
    else:
        cv.text(x, y, "Ether die: nobody", size=8.5)
    y -= 22
    # the Mercenaries
    cv.text(x, y, "Mercenaries", size=10, color=MUTED)
    y -= 16
    for m, merc in enumerate(C.MERCENARIES):
        owner = s.merc_owner[m]
        cv.box(x, y - 8, 16, 16, face="white", edge=PLAYER_COLORS[owner] if owner >= 0 else "#b9b3a4",
               lw=2 if owner >= 0 else 0.8, radius=3)
        cv.text(x + 8, y, merc.name[:2], size=6.5, ha="center", weight="bold")
        cv.text(x + 22, y, merc.name, size=8.5)
        cv.box(x + 80, y - 5, 10, 10, face=RESOURCE_COLORS[merc.colour], edge=INK, lw=0.4, radius=2)
        if owner >= 0:
            where = C.AREAS[s.merc_at[m]] if s.merc_at[m] >= 0 else "sheet"
            cv.text(x + 98, y, f"player_{owner}, {where}", size=8.5, color=PLAYER_COLORS[owner])
        else:
            cv.text(x + 98, y, "for hire", size=8.5, color=MUTED)
        y -= 17
    y -= 6
    _draw_roll(s, cv, x, y)


def _draw_roll(s, cv: Canvas, x: float, y: float) -> None:
    resolving = s.resolving
    if resolving is None:
        return
    a = resolving.area
    mode = MODES[resolving.mode]
    cv.text(x, y, f"Resolving: {C.AREAS[a]}" + (f" ({mode})" if resolving.mode != M_NONE else ""), size=10,
            color=RED, weight="bold")
    y -= 20
    for q in resolving.participants:
        faces = resolving.faces[q]
        rolled = faces or resolving.hero[q] >= 0 or resolving.captain[q] >= 0 or resolving.extra_pips[q]
        if not rolled:
            continue
        cv.circle(x + 6, y, 5.5, face=PLAYER_COLORS[q], edge=INK, lw=0.6, z=4)
        dx = x + 22
        for f in faces[:9]:
            _die(cv, dx, y, str(s.unit_pips(q, f)), "face", PLAYER_COLORS[q], size=17)
            dx += 20
        if len(faces) > 9:
            cv.text(dx - 4, y, f"+{len(faces) - 9}", size=7.5)
            dx += 16
        if resolving.hero[q] >= 0:
            h = resolving.hero[q]
            _die(cv, dx, y, str(C.HERO_FULL[h]) + ("*" if C.HERO_CHARGE[h] else ""), "hero", PLAYER_COLORS[q], 17)
            dx += 20
        if resolving.captain[q] >= 0:
            _die(cv, dx, y, str(C.MERCENARIES[C.CAPTAIN].faces[resolving.captain[q]]), "merc", PLAYER_COLORS[q], 17)
            cv.text(dx, y - 13, "Ca", size=6, ha="center", color=MUTED)
            dx += 20
        extra = resolving.extra_pips[q] + resolving.bonus[q]
        note = f"+{extra} " if extra else ""
        note += f"= {s.roll_score(q)}"
        if s.revealed and s.powered(q, a):
            note += "  powered up"
        cv.text(dx, y, note, size=8.5, weight="bold")
        y -= 22
    cv.text(x, y, "white: Unit dice rolled, their counted pips; H: Hero, * = a\n"
            "Charge icon; +: Defender, Ether die and bonuses; = the total", size=7, color=MUTED)


# ---- player sheets -------------------------------------------------------------------
def _draw_sheets(s, cv: Canvas) -> None:
    n = s.game.num_players
    top = 212
    cv.line([12, cv.width - 12], [top + 4, top + 4], color="#cfcabd", lw=1)
    heads = [(200, "ability card"), (340, "Protein"), (400, "Charge"), (460, "Coltan"), (520, "Plasma"),
             (580, "Crystal"), (640, "Ether"), (726, "Units sheet/reserve"), (834, "Hero"), (918, "Favours")]
    for hx, label in heads:
        cv.text(hx, top - 6, label, size=7.5, color=MUTED)
    row_h = 186 / 4
    to_act = s.current_player()
    need = s.game.ether_to_win
    for p in range(n):
        y = top - 26 - p * row_h
        if p == to_act and not s.is_terminal():
            cv.box(8, y - row_h / 2 + 4, cv.width - 16, row_h - 6, face="#ece8dc", edge="none", radius=6, z=0.6)
        fac = C.FACTIONS[s.faction[p]] if s.faction[p] >= 0 else "faction ?"
        cv.player_tag(26, y, p, f"player_{p} {fac}", active=(p == to_act and not s.is_terminal()), size=9.5)
        if s.ability[p] < 0:
            card = "-"
        elif s.revealed:
            card = C.ABILITIES[s.faction[p] * C.CARDS_PER_FACTION + s.ability[p]].name
        else:
            card = "?"
        cv.box(196, y - 10, 120, 20, face="white" if card != "?" else "#d9d5ca", edge="#b9b3a4", lw=0.8, radius=4)
        cv.text(256, y, card, size=9, ha="center", weight="bold" if card != "-" else "normal")
        r = s.res[p]
        cols = [(340, str(r[C.PROTEIN]), RESOURCE_COLORS[0]), (400, str(s.charge[p]), "#e0a800"),
                (460, str(r[C.COLTAN]), RESOURCE_COLORS[1]), (520, str(r[C.PLASMA]), RESOURCE_COLORS[2]),
                (580, str(r[C.CRYSTAL]), RESOURCE_COLORS[3])]
        for cx, val, color in cols:
            cv.box(cx, y - 6, 12, 12, face=color, edge=INK, lw=0.5, radius=2)
            cv.text(cx + 17, y, val, size=10)
        # Ether: pips towards the goal
        for k in range(need):
            cv.circle(645 + k * 10, y, 4.2, face=RESOURCE_COLORS[4] if k < r[C.ETHER] else "white",
                      edge=RESOURCE_COLORS[4], lw=1)
        if r[C.ETHER] > need:
            cv.text(640 + need * 10, y, f"+{r[C.ETHER] - need}", size=8)
        cv.text(726, y, f"{s.home_units[p]} / {s.reserve[p]}  board {sum(s.units_at[p])}", size=8.5)
        hero = C.AREAS[s.hero_at[p]] if s.hero_at[p] >= 0 else "sheet"
        if s.hero_at[p] >= C.SILO0:
            hero = f"Silo p{s.hero_at[p] - C.SILO0}"
        cv.text(832, y, hero, size=7.5)
        cv.text(918, y, f"{sum(s.hand[p])}" + (" passed" if s.passed[p] and s.phase == PLACEMENT else ""),
                size=9)
