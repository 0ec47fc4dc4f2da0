"""Rulebook "Fin d'Ère", "Fin de partie" and the 2-3-player changes (research §1.2, §1.4, §1.11)."""

import numpy as np
import pytest

from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R
from .builders import DRAGON, band_actions, kind, new_state, play, rig

TOKENS3 = [[0, 4, 10]] * 6  # I, II, III in every Kingdom
TOKENS2 = [[2, 8]] * 6


def kingdom_glory(n, age, markers, tokens, trolls=None):
    s = rig(new_state(num_players=n), glory_tokens=tokens)
    s.age = age
    s.markers[:] = 0
    s.markers[:, 0] = markers  # Kingdom 0 only
    if trolls:
        for value, seat in trolls.items():
            s.troll_owner[value - 1] = seat
    s.glory[:] = 0
    s.score_kingdoms()
    return s.glory.tolist()


def test_kingdom_age_one_most_markers_wins_token_one():
    assert kingdom_glory(4, 1, [3, 2, 0, 1], TOKENS3) == [0, 0, 0, 0]
    assert kingdom_glory(4, 1, [3, 2, 0, 1], [[6, 8, 10]] * 6) == [6, 0, 0, 0]


def test_kingdom_age_two_first_wins_two_second_wins_one():
    assert kingdom_glory(4, 2, [1, 3, 2, 0], [[2, 4, 10]] * 6) == [0, 4, 2, 0]


def test_kingdom_age_three_first_second_third():
    assert kingdom_glory(4, 3, [1, 3, 2, 0], [[2, 4, 10]] * 6) == [2, 10, 4, 0]


def test_kingdom_no_markers_scores_nothing():
    assert kingdom_glory(4, 3, [0, 3, 0, 0], [[2, 4, 10]] * 6) == [0, 10, 0, 0]


def test_kingdom_tie_glory_added_and_split_rounded_down():
    """Age III: two tied for first share III + II; the next player is third."""
    assert kingdom_glory(4, 3, [3, 3, 1, 0], [[2, 5, 10]] * 6) == [7, 7, 2, 0]
    assert kingdom_glory(4, 2, [2, 2, 2, 0], [[2, 5, 10]] * 6) == [2, 2, 2, 0]  # (5 + 2 + 0) / 3


def test_kingdom_tie_broken_by_troll_tokens():
    """Research §1.4 / §1.8: the higher Troll total ranks higher."""
    assert kingdom_glory(4, 2, [2, 2, 0, 0], [[2, 5, 10]] * 6, trolls={3: 1}) == [2, 5, 0, 0]


def test_kingdom_two_players_age_two_winner_takes_highest_second_nothing():
    assert kingdom_glory(2, 2, [3, 1], TOKENS2) == [8, 0]


def test_kingdom_two_players_age_two_lone_player_takes_both():
    assert kingdom_glory(2, 2, [0, 1], TOKENS2) == [0, 10]


def test_kingdom_two_players_age_one_normal():
    assert kingdom_glory(2, 1, [1, 2], TOKENS2) == [0, 2]


def test_kingdom_three_players_age_two_scored_normally():
    assert kingdom_glory(3, 2, [1, 3, 2], TOKENS2) == [0, 8, 2]


def test_kingdom_scoring_over_ages_markers_stay():
    """Markers remain between Ages; each Age scores the Kingdoms again."""
    s = rig(new_state(num_players=4), glory_tokens=[[2, 4, 10]] * 6, markers={0: [1, 0, 0, 0, 0, 0],
                                                                           1: [2, 0, 0, 0, 0, 0]})
    rig(s, deck=[DRAGON], dragons=2, turn=3)
    play(s, R.RECRUIT_DECK)
    assert s.glory_by_source[:, R.S_KINGDOMS].tolist() == [0, 2, 0, 0]
    assert s.markers[:, 0].tolist() == [1, 2, 0, 0]
    rig(s, deck=[DRAGON], dragons=2, turn=3)
    play(s, R.RECRUIT_DECK)
    assert s.glory_by_source[:, R.S_KINGDOMS].tolist() == [2, 2 + 4, 0, 0]
    rig(s, deck=[DRAGON], dragons=2, turn=3)
    play(s, R.RECRUIT_DECK)
    assert s.is_terminal()
    assert s.glory_by_source[:, R.S_KINGDOMS].tolist() == [2 + 4, 6 + 10, 0, 0]


@pytest.mark.parametrize("size,glory", [(1, 0), (2, 1), (3, 3), (4, 6), (5, 10), (6, 15), (9, 15)])
def test_band_glory_by_size(size, glory):
    assert R.band_glory(kind("Elves", "Red"), size, 0) == glory


def test_band_glory_dwarves_plus_one_skeletons_removed():
    assert R.band_glory(kind("Dwarves", "Red"), 5, 0) == 15
    assert R.band_glory(kind("Elves", "Red"), 5, 2) == 3


def test_end_of_age_hands_discarded_and_bands_reshuffled():
    s = rig(new_state(), hands={0: [kind("Elves", "Red")] * 3, 1: [kind("Elves", "Blue")]}, turn=0)
    play(s, *band_actions(kind("Elves", "Red"), [kind("Elves", "Red")]), R.DECLINE, R.END_KEEP)
    rig(s, deck=[DRAGON], dragons=2, turn=1)
    play(s, R.RECRUIT_DECK)
    assert s.age == 2 and s.hands.sum() == 4 and s.face_up.sum() == 8
    assert s.bands == [[], [], [], []]
    assert s.hands.sum() + s.face_up.sum() + s.deck_len - 3 == len(s.age_cards)


def test_giant_age_glory_by_age_and_board_side():
    assert C.GIANT_AGE_GLORY == {"large": (2, 4, 6), "small": (2, 5)}
    s = rig(new_state(num_players=3, tribes=("Centaurs", "Dwarves", "Elves", "Giants", "Wizards")), turn=0)
    s.age, s.giant_holder, s.giant_size = 2, 1, 3
    rig(s, deck=[DRAGON], dragons=2, turn=0)
    play(s, R.RECRUIT_DECK)
    assert s.glory_by_source[1, R.S_GIANT_AGE] == 5


def test_first_player_next_age_least_glory():
    s = rig(new_state(), turn=0)
    s.glory[:] = [5, 3, 4, 9]
    assert s.next_first_player() == 1


def test_first_player_tie_higher_troll_total():
    s = rig(new_state(), turn=0)
    s.glory[:] = [3, 3, 4, 3]
    s.troll_owner[:] = [0, 3, -1, -1, -1, -1]
    s.revealer = 0
    assert s.next_first_player() == 3


def test_first_player_tie_clockwise_from_third_dragon_revealer():
    """ETH-A6: the revealer counts first (``first_player_tie="revealer"``)."""
    s = rig(new_state(), turn=0)
    s.glory[:] = [3, 3, 4, 3]
    s.revealer = 3
    assert s.next_first_player() == 3
    s.revealer = 2
    assert s.next_first_player() == 3
    s = rig(new_state(first_player_tie="after_revealer"), turn=0)
    s.glory[:] = [3, 3, 4, 3]
    s.revealer = 3
    assert s.next_first_player() == 0


def test_first_player_set_when_age_begins():
    s = rig(new_state(), turn=0)
    s.glory[:] = [5, 3, 4, 9]
    rig(s, deck=[DRAGON], dragons=2, turn=2)
    play(s, R.RECRUIT_DECK)
    assert s.first_player == s.turn_player == s.current_player() == int(np.argmin(s.glory))


def _finished(glory, markers, bands):
    s = rig(new_state(num_players=3, tribes=("Centaurs", "Dwarves", "Elves", "Giants", "Wizards")))
    s.glory[:] = glory
    s.markers[:] = 0
    s.markers[:, 0] = markers
    s.bands = [[R.Band(kind("Elves", "Red"), b, 0) for b in bs] for bs in bands]
    s.phase = R.OVER
    return s


def test_end_of_game_most_glory_wins():
    s = _finished([10, 12, 3], [0, 0, 0], [[], [], []])
    assert s.winners() == [1] and s.returns().tolist() == [-0.5, 1.0, -0.5]


def test_end_of_game_tie_most_control_markers():
    s = _finished([12, 12, 3], [2, 3, 0], [[], [], []])
    assert s.winners() == [1]


def test_end_of_game_tie_largest_band_of_last_age_then_next():
    s = _finished([12, 12, 3], [2, 2, 0], [[5, 2], [5, 3], []])
    assert s.winners() == [1]
    s = _finished([12, 12, 3], [2, 2, 0], [[5, 2, 1], [5, 2], []])
    assert s.winners() == [0]


def test_end_of_game_full_tie_shared_win():
    s = _finished([12, 12, 3], [2, 2, 0], [[4], [4], [9]])
    assert s.winners() == [0, 1] and s.returns().tolist() == [0.5, 0.5, -1.0]
