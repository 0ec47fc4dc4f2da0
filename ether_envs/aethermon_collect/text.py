"""What a seat of Aethermon: Collect is shown as text (``State.observation_string``,
``public_action_string``, ``end_reason``).

Everything is public except, in the variant "Hidden Artefacts", which Artefact is
which until it is used: a seat knows the Artefacts it holds and those it looked at
while drafting (``State.known``). No move is secret: a drafted group is seen taken
(its Artefacts face down), and an Artefact is shown when used.
"""

from __future__ import annotations

from . import components as C
from . import rules as R


def seat_text(s, player: int) -> str:
    """The public ``render_text`` plus the hidden Artefacts ``player`` knows."""
    text = s.render_text()
    if not s.game.config.hidden_artefacts:
        return text
    known = s.known[player]
    mine, seen = [], []
    for a in range(C.NUM_ARTEFACTS):
        if not known[a] or s.art_used[a]:  # a used Artefact is face up for everyone
            continue
        name = C.ARTEFACTS[a].name
        if s.art_owner[a] == player:
            mine.append(name)
        elif s.art_owner[a] >= 0:
            seen.append(f"{name} (player_{s.art_owner[a]})")
        elif a in s.art_square:
            seen.append(f"{name} (on {R.square_name(s.art_square.index(a))})")
        elif any(a in grp and s.group_owner[g] < 0 for g, grp in enumerate(s.groups)):
            g = next(g for g, grp in enumerate(s.groups) if a in grp)
            seen.append(f"{name} (group {g})")
        else:
            seen.append(f"{name} (left over)")
    lines = [text, f"you are player_{player}; your hidden Artefacts: {', '.join(mine) or '-'}"]
    if seen:
        lines.append("hidden Artefacts you have seen: " + ", ".join(seen))
    return "\n".join(lines)


def public_action_string(s, action: int, observer: int) -> str:
    """Every move is public; a drafted group is named with the Artefacts ``observer`` knows in it."""
    if R.DRAFT0 <= action < R.DRAFT0 + 4:
        g = action - R.DRAFT0
        names = [C.ARTEFACTS[a].name if s.known[observer][a] else "face down" for a in s.groups[g]]
        return f"DRAFT(group {g}: {', '.join(names)})"
    return s.action_to_string(action)


def end_reason(s) -> str:
    """Rulebook "Ending the Game" (AC-A8) and the result."""
    cfg = s.game.config
    if cfg.cooperative:
        total = sum(s.score_cache)
        return (f"player_{s.turn_player} took a turn without collecting an Aethermon; team score {total}, "
                f"highest target reached: {s.target_reached() or 'none'}")
    ws = s.winners()
    points = int(s.team_scores()[ws[0]])
    return (f"every player took a turn in a row without collecting an Aethermon; "
            f"{' and '.join(f'player_{w}' for w in ws)} win{'s' if len(ws) == 1 else ''} with {points} points")
