"""The pictures at the end of a game (issue 27, item 13): the result ("Game over ...") covers no
text, and the legend lines stay; Aetherspire's level labels L1, L2, ... stand away from the
character list. Checked on the drawn artists' extents (matplotlib), not on pixels."""

from __future__ import annotations

import numpy as np
import pytest

import ether_envs

pytest.importorskip("matplotlib")

LEGENDS = {  # a legend line each picture keeps at the end
    "ethnos": "gold: the Glory tokens that score at the end of this Age",
    "etherium": "circle: Gatherer, diamond: Soldier, number: its level",
    "ether_wars": "dice: filled square = Units (count), H = Hero",
}
RESULT_Z = 6
"""zorder of the result's box (its text is drawn above it)."""


def drawn(state):
    """The picture of ``state`` as a drawn Canvas and its renderer (artists and their extents)."""
    from ether_envs import rendering

    module = rendering._drawing(state.game.spec.name)
    cv = rendering.Canvas(*getattr(module, "SIZE", rendering.DEFAULT_SIZE))
    module.draw(state, cv)
    cv.fig.canvas.draw()
    return cv, cv.fig.canvas.get_renderer()


def final_state(game: str, num_players: int, seed: int = 2):
    s = ether_envs.load_game(game, num_players=num_players).new_initial_state(seed=seed)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
    return s


@pytest.mark.parametrize("game", sorted(LEGENDS))
@pytest.mark.parametrize("num_players", [2, 4])
def test_the_result_covers_no_text_and_the_legend_stays(game, num_players):
    from matplotlib.patches import FancyBboxPatch

    cv, renderer = drawn(final_state(game, num_players))
    boxes = [a.get_window_extent(renderer) for a in cv.ax.patches
             if isinstance(a, FancyBboxPatch) and a.get_zorder() >= RESULT_Z]
    assert boxes, "no result box drawn at the end"
    texts = [t for t in cv.ax.texts if t.get_text().strip() and t.get_zorder() < RESULT_Z]
    covered = [t.get_text() for t in texts for b in boxes if t.get_window_extent(renderer).overlaps(b)]
    assert not covered, f"{game}: the result covers {covered}"
    assert any(t.get_text().startswith(LEGENDS[game]) for t in texts), f"{game}: the legend is gone at the end"


def test_aetherspire_level_labels_stand_away_from_the_character_list():
    cv, renderer = drawn(final_state("aetherspire", 4))
    levels = [t.get_window_extent(renderer) for t in cv.ax.texts if t.get_text() in {f"L{k}" for k in range(1, 9)}]
    characters = [t.get_window_extent(renderer) for t in cv.ax.texts
                  if t.get_text().startswith(("player_", "upgrade:", "\u25B6", "Characters"))]
    assert levels and characters
    gap = min(max(c.x0 - lv.x1, lv.x0 - c.x1) for lv in levels for c in characters)
    assert gap >= 40, f"the level labels are {gap:.0f} px from the character list"
