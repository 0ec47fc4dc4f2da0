"""Aethermon: Collect heuristic: greedy one-turn look-ahead a person would play.

For each legal action: play it on a copy, finish the rest of the own turn
greedily (post-move Artefacts, pending targets), then score the result as

    own (team) score gain  -  LOOKAHEAD * best immediate gain it leaves the next player
                           -  ARTEFACT_COST * Artefacts spent

(the next player's gain counts positively when that player is a partner:
co-operative mode or "2 vs 2"). A move that ends the game is worth +-100 by
its outcome. Gains include set completion (a completed set doubles all its
cards; rulebook "Scoring"). Artefacts are used only when they pay more than
ARTEFACT_COST over the best plain move. Drafting takes the group with the
highest sum of ``DRAFT_VALUE``. Ties are broken at random by ``rng``.

With hidden Artefacts the look-ahead runs on ``state.resample_hidden(player,
rng)``, so it sees only what ``player`` may see.
"""

from __future__ import annotations

import numpy as np

from ether_envs.aethermon_collect import components as C
from ether_envs.aethermon_collect import rules as R

LOOKAHEAD = 1.0
"""Weight of the best immediate gain left to the next player."""
ARTEFACT_COST = 1.5
"""Points an Artefact must earn over the best plain move to be worth spending."""
END_VALUE = 100.0
"""Value of ending the game as a winner (minus for a loser)."""
DRAFT_VALUE = {
    "net": 3.0, "beetle": 3.0, "trade_token": 3.0, "satchel": 3.0, "magnet": 2.5, "compass": 2.0,
    "grappling_hook": 2.0, "lantern": 2.0, "mirror": 1.5, "fence": 1.5, "stopwatch": 1.0, "gloves": 1.0,
}
_DRAFT_VALUE_BY_ID = np.array([DRAFT_VALUE[a.key] for a in C.ARTEFACTS])


def heuristic_action(state, player: int, rng: np.random.Generator) -> int:
    """The greedy action for ``player`` (who must be to act) in ``state``."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return int(legal[0])
    if state.game.has_hidden_information():
        state = state.resample_hidden(player, rng)
    if state.phase == R.DRAFT:
        values = [float(_DRAFT_VALUE_BY_ID[state.groups[a - R.DRAFT0]].sum()) for a in legal]
    else:
        values = [_action_value(state, player, a) for a in legal]
    best = max(values)
    ties = [a for a, v in zip(legal, values) if v >= best - 1e-9]
    return int(ties[int(rng.integers(len(ties)))])


def _team_score(state, p: int) -> float:
    return float(state.team_score(p))


def _is_partner(state, p: int, q: int) -> bool:
    cfg = state.game.config
    return cfg.cooperative or q == p or (cfg.teams and (q - p) % 2 == 0)


def _is_artefact(a: int) -> bool:
    return R.USE0 <= a < R.USE0 + C.NUM_ARTEFACTS


def _apply(state, a: int):
    s = state.clone()
    s.apply_action(a)
    return s


def _finish_turn(s, p: int) -> tuple[object, int]:
    """Play the rest of ``p``'s decisions greedily by own gain; returns (state, Artefacts used).

    ``s`` is the caller's own copy: it is played on (the last action tried at each decision is
    applied to it rather than to a copy, as nothing reads it after)."""
    used = 0
    for _ in range(12):
        if s.is_terminal() or s.current_player() != p:
            break
        base = _team_score(s, p)
        best = None
        legal = s.legal_actions()
        last = len(legal) - 1
        for i, a in enumerate(legal):
            t = s if i == last else s.clone()
            t.apply_action(a)
            v = _team_score(t, p) - base - (ARTEFACT_COST if _is_artefact(a) else 0.0)
            if best is None or v > best[0]:
                best = (v, a, t)
        used += _is_artefact(best[1])
        s = best[2]
    return s, used


def _collect_gain(s, q: int, card: int) -> float:
    """Points ``q`` gains by collecting ``card`` (its value, plus the whole set if it completes it)."""
    gain = float(C.CARD_VALUE[card])
    owner = s.owner
    if C.CARD_SET[card] >= 0 and all(owner[m] == q for m in C.SET_OTHERS[card]):
        gain += C.SET_VALUE[C.CARD_SET[card]]
    return gain


def _best_reply_gain(s) -> float:
    """Best immediate collecting gain of the player to act (plain rook moves only)."""
    if s.is_terminal() or s.phase != R.TURN:
        return 0.0
    q = s.current_player()
    best = 0.0
    for a in s.legal_actions():
        if a >= R.MOVE0 + R.SQ:
            continue
        card = int(s.board[a - R.MOVE0])
        if card >= 0 and s.can_collect(q, card):
            best = max(best, _collect_gain(s, q, card))
    return best


def _action_value(state, p: int, a: int) -> float:
    s = _apply(state, a)
    s, used = _finish_turn(s, p)
    used += _is_artefact(a)
    gain = _team_score(s, p) - _team_score(state, p)
    if s.is_terminal():
        if state.game.config.cooperative:
            return gain
        return (END_VALUE if p in s.winners() else -END_VALUE) + gain
    q = s.current_player()
    reply = _best_reply_gain(s)
    sign = 1.0 if _is_partner(state, p, q) else -1.0
    return gain + sign * LOOKAHEAD * reply - ARTEFACT_COST * used
