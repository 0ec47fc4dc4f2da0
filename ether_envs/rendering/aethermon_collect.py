"""Picture of an Aethermon: Collect state (800 x 800), the neutral (public) view of ``ansi``.

Top left: the grid, one card per square in its Element's colour with its value
and set line (``trio 2/3``: 2nd card of a 3-card set; ``duo 1/2``; ``single``),
a dot in a card's corner in the colour of the player holding a card of its set
(the co-operative set rule), the Group Token as a thick black ring with a black
disc, dashed outlines on the squares the Group Token may go to now (its moves,
or the corners while it is being placed), Artefacts lying on the grid (variant
"Redistribute"), and the Fence's row dashed red; each square is a click target
(``Canvas.target``) of the MOVE, TARGET_SQUARE and PLACE_TOKEN actions that name
it. Right: phase, who acts and what they decide, turn order, pending Artefact
effect, Fence and 2-player co-op axes, draft groups, co-operative team score and
targets, the Elements in play.
Bottom: one row per player with score (a star for the winners), collection
(sorted by Element and set; cards of complete or Satchel sets outlined in gold)
and Artefacts (used ones greyed; "hidden Artefact" while hidden and unused).
A banner gives the result at the end.
"""

from __future__ import annotations

from ..aethermon_collect import components as C
from ..aethermon_collect.codec import COLUMN_LETTERS
from ..aethermon_collect import rules as R
from . import INK, MUTED, PLAYER_COLORS, Canvas

SIZE = (800, 800)

ELEMENT_COLORS = {
    "Moonlit": "#7b68c8", "Sunstruck": "#f28c28", "Sky": "#5fb8e8", "Earth": "#9a6a3a",
    "Fire": "#d7382f", "Water": "#2a5db0", "Nature": "#3f9a4a", "Thunder": "#d4c21a",
}
"""One colour per Element (``components.ELEMENTS``)."""
SET_LABEL = {3: "trio", 2: "duo", 1: "single"}
GOLD = "#c9a227"


def _artefact_label(s, a: int, short: bool = False) -> str:
    """An Artefact's name in the public view ("hidden Artefact" while hidden and
    unused); ``short``: its first word, to fit on a square."""
    if s.game.config.hidden_artefacts and not s.art_used[a]:
        return "Artefact ?" if short else "hidden Artefact"
    name = C.ARTEFACTS[a].name
    return name.split()[0] if short else name


def _set_owner(s, card: int) -> int:
    """Seat holding a card of ``card``'s set, or -1."""
    st = C.CARDS[card].set_id
    if st < 0:
        return -1
    for m in C.SET_CARDS[st]:
        if s.owner[m] >= 0:
            return s.owner[m]
    return -1


def draw(s, cv: Canvas) -> None:
    """Draw state ``s`` on canvas ``cv`` (see the module docstring)."""
    g = s.game
    cfg = g.config
    n = s.num_players
    to_act = s.current_player()
    mode = cfg.mode + (" 2 vs 2" if cfg.teams else "")
    if cfg.uses_artefacts:
        mode += f", Artefacts: {cfg.artefacts}" + (", hidden" if cfg.hidden_artefacts else "") \
            + (", redistribute" if cfg.redistribute_artefacts else "")
    elif cfg.mode == "competitive":
        mode += ", no Artefacts"
    cv.header("Aethermon: Collect", f"{n} players, {mode}  |  move {len(s.history)}")
    _draw_grid(s, cv)
    _draw_side(s, cv, to_act)
    _draw_players(s, cv, to_act)
    if s.is_terminal():
        if cfg.cooperative:
            reached = s.target_reached()
            msg = f"Game over: team score {sum(s.score_cache)}, " + (
                f"target reached: {reached}" if reached else "no target reached")
        else:
            ws = s.winners()
            who = " and ".join(f"player_{w}" for w in ws)
            msg = f"Game over: {who} win{'s' if len(ws) == 1 else ''} with {int(s.team_scores()[ws[0]])} points"
        cv.banner(msg, 257)


def _draw_grid(s, cv: Canvas) -> None:
    g = s.game
    side = g.side
    x0, top, span = 44, 716, 440
    cell = span / side
    pad = max(2.0, cell * 0.05)
    value_size, label_size = (24, 7.5) if side >= 7 else (28, 8.5) if side == 6 else (32, 10)
    for c in range(side):
        cv.text(x0 + (c + 0.5) * cell, top + 12, COLUMN_LETTERS[c], size=10, color=MUTED, ha="center")
    for r in range(side):
        cv.text(x0 - 12, top - (r + 0.5) * cell, str(r + 1), size=10, color=MUTED, ha="center")
    legal_moves = set()  # squares the Group Token may be moved or put on now
    if s.phase in (R.TURN, R.PENDING):
        legal_moves = {a - R.MOVE0 for a in s.legal_actions() if R.MOVE0 <= a < R.MOVE0 + C.MAX_SQUARES}
    elif s.phase == R.PLACE_TOKEN:
        legal_moves = set(g.corners)
    for sq in g.grid_squares:
        r, c = divmod(sq, C.MAX_SIDE)
        x, y = x0 + c * cell + pad, top - (r + 1) * cell + pad
        w = cell - 2 * pad
        card = s.board[sq]
        if card >= 0:
            k = C.CARDS[card]
            color = ELEMENT_COLORS[C.ELEMENTS[k.element_id]]
            line = SET_LABEL[k.set_size] + (f" {k.stage}/{k.set_size}" if k.set_size > 1 else "")
            cv.card(x, y, w, w, color, title=C.ELEMENTS[k.element_id], value=str(k.value), caption=line,
                    title_size=label_size, value_size=value_size, caption_size=label_size)
            holder = _set_owner(s, card)
            if holder >= 0:
                cv.circle(x + w * 0.88, y + w * 0.62, w * 0.07, face=PLAYER_COLORS[holder], edge="white",
                          lw=0.8, z=3)
        else:
            cv.box(x, y, w, w, face="#e4e0d6", edge="#d0cbbd", lw=1, radius=w * 0.1)
            a = s.art_square[sq]
            if a >= 0:  # variant "Redistribute Artefacts" (AC-A7)
                cv.box(x + w * 0.12, y + w * 0.3, w * 0.76, w * 0.4, face="#fff4c2", edge=GOLD, lw=1.2,
                       radius=4, z=2)
                cv.text(x + w / 2, y + w / 2, _artefact_label(s, a, short=True), size=label_size - 1,
                        ha="center", z=4)
        cv.target(R.MOVE0 + sq, x, y, w, w)  # a click on the square: move the Group Token there,
        cv.target(R.TARGET0 + sq, x, y, w, w)  # or take its card (an Artefact's target),
        if sq in g.corners:  # or put the Group Token there at the start
            cv.target(R.PLACE0 + g.corners.index(sq), x, y, w, w)
        if sq in legal_moves:
            cv.box(x - pad * 0.5, y - pad * 0.5, w + pad, w + pad, face="none", edge="#111111", lw=1.8,
                   radius=w * 0.12, style="--", z=4.5)
        if sq == s.token:
            cv.box(x - pad * 0.6, y - pad * 0.6, w + pad * 1.2, w + pad * 1.2, face="none", edge="#111111",
                   lw=4, radius=w * 0.12, z=5)
            cv.circle(x + w * 0.13, y + w * 0.45, w * 0.08, face="#111111", edge="white", lw=1.2, z=6)
    if s.fence_row >= 0:
        yf = top - (s.fence_row + 0.5) * cell
        cv.line([x0 - 4, x0 + side * cell + 4], [yf, yf], color="#c0392b", lw=3, style="--", z=5.5)
    if s.is_terminal():
        return  # the result banner takes the legend's place
    cv.text(x0 - 20, top - span - 13, "card: Element, value, set line (trio 2/3 = 2nd card of a 3-card set); "
            "dot: player holding a card of its set;", size=8, color=MUTED)
    cv.text(x0 - 20, top - span - 26, "thick ring + disc: Group Token; dashed outline: where the Group Token "
            "may move now", size=8, color=MUTED)


def _draw_side(s, cv: Canvas, to_act: int) -> None:
    g = s.game
    cfg = g.config
    n = s.num_players
    x, y = 524, 716
    cv.text(x, y, "Phase", size=10, color=MUTED)
    cv.text(x + 52, y, R.PHASE_NAMES[s.phase].replace("_", " "), size=13, weight="bold")
    y -= 26
    if to_act >= 0:
        what = {R.PLACE_TOKEN: "puts the Group Token on a corner", R.DRAFT: "takes an Artefact group",
                R.TURN: "moves the Group Token", R.PENDING: "chooses the Artefact's target",
                R.POST_MOVE: "may use an Artefact or end the turn",
                R.SATCHEL: "chooses the Satchel's set"}[s.phase]
        cv.player_tag(x + 4, y, to_act, f"player_{to_act} to act", active=True)
        cv.text(x + 23, y - 17, what, size=9.5)
        y -= 40
    if s.phase == R.PENDING:
        e = s.pending
        name = "Trade Token (take a card)" if e == R.TRADE_TAKE else C.ARTEFACTS[e].name
        cv.text(x, y, f"pending: {name}", size=10.5)
        y -= 20
    if s.no_collect_turn:
        cv.text(x, y, "Stopwatch extra turn: no collecting", size=10)
        y -= 20
    if s.fence_row >= 0:
        cv.text(x, y, f"Fence: player_{s.fence_seat} may not move", size=10, color="#c0392b")
        cv.text(x, y - 15, f"along row {s.fence_row + 1}", size=10, color="#c0392b")
        y -= 34
    if any(a >= 0 for a in s.axis):
        cv.text(x, y, "axes: " + ", ".join(f"p{p} {'horiz.' if a == 0 else 'vert.'}"
                                           for p, a in enumerate(s.axis) if a >= 0), size=10)
        y -= 20
    y -= 4
    cv.text(x, y, "Turn order", size=10, color=MUTED)
    y -= 20
    for i in range(n):
        p = (s.first_player + i) % n
        label = f"player_{p}" + (" (first)" if i == 0 else "") + (
            f"  team {'A' if p % 2 == 0 else 'B'}" if cfg.teams else "")
        cv.player_tag(x + 4, y, p, label, size=10)
        y -= 19
    if s.phase in (R.PLACE_TOKEN, R.DRAFT) and s.groups:
        y -= 6
        cv.text(x, y, "Artefact groups", size=10, color=MUTED)
        y -= 19
        for gi, grp in enumerate(s.groups):
            o = s.group_owner[gi]
            names = ("?, " * len(grp))[:-2] if cfg.hidden_artefacts else ", ".join(C.ARTEFACTS[a].name for a in grp)
            cv.text(x, y, f"{gi}: {names}", size=8.5 if len(grp) < 3 else 7.5)
            cv.text(x + 256, y, "free" if o < 0 else f"p{o}", size=8.5, ha="right",
                    color=MUTED if o < 0 else PLAYER_COLORS[o], weight="bold")
            y -= 16
    if cfg.cooperative:
        y -= 6
        total = sum(s.score_cache)
        cv.text(x, y, f"Team score {total}", size=11, weight="bold")
        y -= 18
        targets = C.COOP_TARGETS[n]
        for j, lvl in enumerate(C.TARGET_LEVELS):
            reached = total >= targets[lvl]
            cv.text(x + (j % 2) * 132, y - (j // 2) * 15, f"{lvl} {targets[lvl]}" + (" \u2713" if reached else ""),
                    size=9, color=INK if reached else MUTED, weight="bold" if reached else "normal")
        y -= 34
    y = min(y - 8, 420)
    cv.text(x, y, "Elements in play", size=10, color=MUTED)
    y -= 18
    for j, e in enumerate(s.elements):
        name = C.ELEMENTS[e]
        xx, yy = x + (j % 2) * 132, y - (j // 2) * 18
        cv.box(xx, yy - 6, 14, 12, face=ELEMENT_COLORS[name], edge=INK, lw=0.5, radius=2)
        cv.text(xx + 20, yy, name, size=9)


def _draw_players(s, cv: Canvas, to_act: int) -> None:
    g = s.game
    cfg = g.config
    n = s.num_players
    row_h = 216 / n
    winners = s.winners() if s.is_terminal() and not cfg.cooperative else []
    top = 236
    cv.line([12, cv.width - 12], [top + 4, top + 4], color="#cfcabd", lw=1)
    for p in range(n):
        y = top - p * row_h
        mid = y - row_h / 2
        if p == to_act:
            cv.box(8, y - row_h + 3, cv.width - 16, row_h - 4, face="#ece8dc", edge="none", radius=6, z=0.6)
        cv.player_tag(26, y - 14, p, active=(p == to_act))
        cv.text(26, y - 38, str(s.score(p)), size=18, weight="bold")
        cv.text(72, y - 38, "points", size=9, color=MUTED)
        if p in winners:
            cv.text(124, y - 38, "\u2605", size=16, color=GOLD, ha="center")
        # collection: grouped by Element then set, as mini cards
        cards = sorted(s.collections[p])
        avail_w = 430
        per_row = max(1, min(len(cards), int(avail_w // 17)))
        mini_w = min(20.0, avail_w / max(per_row, 1) - 2)
        lines = max(1, -(-len(cards) // per_row)) if cards else 1
        mini_h = min(28.0, (row_h - 10) / lines - 3)
        for j, card in enumerate(cards):
            k = C.CARDS[card]
            color = ELEMENT_COLORS[C.ELEMENTS[k.element_id]]
            complete = k.set_id >= 0 and (all(s.owner[m] == p for m in C.SET_CARDS[k.set_id])
                                          or s.satchel_set[p] == k.set_id)
            cx = 140 + (j % per_row) * (mini_w + 2)
            cy = y - 6 - (j // per_row + 1) * (mini_h + 3)
            cv.box(cx, cy, mini_w, mini_h, face=color, edge=GOLD if complete else "white",
                   lw=2 if complete else 0.5, radius=2.5, z=2)
            cv.text(cx + mini_w / 2, cy + mini_h / 2, str(k.value), size=min(9.0, mini_h * 0.45), color="white",
                    ha="center", weight="bold", z=3)
        if not cards:
            cv.text(140, mid, "no Aethermon yet", size=9, color=MUTED)
        if cfg.uses_artefacts:
            mine = [a for a in range(C.NUM_ARTEFACTS) if s.art_owner[a] == p]
            mine.sort(key=lambda a: cfg.hidden_artefacts and not s.art_used[a])  # hidden last: no order by id
            lines_a = [(_artefact_label(s, a), s.art_used[a]) for a in mine] or [("no Artefacts", True)]
            step = min(14.0, (row_h - 8) / max(len(lines_a), 1))
            for j, (name, used) in enumerate(lines_a):
                cv.text(600, y - 10 - j * step, name + (" (used)" if used and name != "no Artefacts" else ""),
                        size=min(9.0, step * 0.68), color=MUTED if used else INK)
