"""Rulebook "Tour": recruit an Ally or play a band; Control markers; discard."""

import pytest

from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R
from .builders import DRAGON, SKELETON, band_actions, kind, new_state, play, rig

ELF_R, ELF_B, ELF_G = kind("Elves", "Red"), kind("Elves", "Blue"), kind("Elves", "Green")
DWARF_R, DWARF_B = kind("Dwarves", "Red"), kind("Dwarves", "Blue")
GIANT_R = kind("Giants", "Red")
RED = C.KINGDOMS.index("Red")
BLUE = C.KINGDOMS.index("Blue")


def _illegal(state, action):
    assert action not in state.legal_actions()
    with pytest.raises(ValueError):
        state.apply_action(action)


def test_recruit_face_up_takes_the_card_and_it_is_not_replaced():
    s = rig(new_state(), hands={0: [ELF_R]}, face_up=[DWARF_R, GIANT_R], turn=0)
    play(s, R.RECRUIT_FACE_UP, R.TAKE0 + DWARF_R)
    assert s.hands[0, DWARF_R] == 1 and s.face_up[DWARF_R] == 0 and s.face_up.sum() == 1
    assert s.known[0, DWARF_R] == 1  # everyone saw it taken
    assert s.turn_player == 1 and s.phase == R.TURN


def test_recruit_face_up_absent_when_row_empty():
    s = rig(new_state(), hands={0: [ELF_R]}, face_up=[], turn=0)
    _illegal(s, R.RECRUIT_FACE_UP)


def test_recruit_deck_takes_the_top_card():
    s = rig(new_state(), hands={0: []}, deck=[GIANT_R, ELF_B, DRAGON, DRAGON, DRAGON], turn=0)
    play(s, R.RECRUIT_DECK)
    assert s.hands[0].tolist() == [1 if k == GIANT_R else 0 for k in range(C.NUM_KINDS)]
    assert s.known[0].sum() == 0 and s.deck_len == 4


def test_recruit_deck_dragon_is_revealed_and_another_card_drawn():
    s = rig(new_state(), hands={0: []}, deck=[DRAGON, ELF_B, DRAGON, DRAGON], turn=0)
    play(s, R.RECRUIT_DECK)
    assert s.dragons == 1 and s.hands[0, ELF_B] == 1 and s.age == 1


def test_third_dragon_ends_the_age_at_once():
    s = rig(new_state(), hands={0: [ELF_R], 1: [ELF_B]}, deck=[ELF_G, DRAGON, GIANT_R], dragons=2, turn=1)
    play(s, R.RECRUIT_DECK, R.RECRUIT_DECK)  # p1 takes ELF_G; p2 reveals the third Dragon
    assert s.age == 2 and s.revealer == 2
    assert s.dragons == 0  # a new Age began with a fresh deck


def test_hand_limit_ten_must_play_a_band():
    s = rig(new_state(), hands={0: [ELF_R] * 2 + [DWARF_R] * 2 + [GIANT_R] * 2 + [ELF_B] * 2 + [DWARF_B] * 2},
            face_up=[ELF_G], turn=0)
    assert s.legal_actions() == [R.PLAY_BAND]
    _illegal(s, R.RECRUIT_DECK)
    _illegal(s, R.RECRUIT_FACE_UP)


def test_hand_limit_all_skeletons_may_still_recruit():
    """ETH-A7: ten Skeletons form no band (no Leader), so the player may recruit."""
    s = rig(new_state(tribes=("Skeletons", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")),
            hands={0: [SKELETON] * 10}, turn=0)
    assert R.PLAY_BAND not in s.legal_actions()
    assert R.RECRUIT_DECK in s.legal_actions()


def test_skeleton_cannot_lead_a_band():
    s = rig(new_state(tribes=("Skeletons", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")),
            hands={0: [SKELETON, ELF_R]}, turn=0)
    play(s, R.PLAY_BAND)
    assert s.legal_actions() == [R.START_TRIBE0 + ELF_R, R.START_COLOUR0 + ELF_R]
    assert R.CODEC.size - R.START_TRIBE0 > SKELETON  # no start id is a Skeleton
    assert all(a - R.START_TRIBE0 != SKELETON for a in s.legal_actions())


def test_band_tribe_band_takes_same_tribe_or_skeletons_only():
    s = rig(new_state(tribes=("Skeletons", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")),
            hands={0: [ELF_R, ELF_B, DWARF_R, SKELETON]}, turn=0)
    play(s, R.PLAY_BAND, R.START_TRIBE0 + ELF_R)
    assert s.legal_actions() == [R.ADD0 + ELF_B, R.ADD0 + SKELETON, R.END_BAND]
    _illegal(s, R.ADD0 + DWARF_R)


def test_band_colour_band_takes_same_colour_or_skeletons_only():
    s = rig(new_state(tribes=("Skeletons", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")),
            hands={0: [ELF_R, ELF_B, DWARF_R, SKELETON]}, turn=0)
    play(s, R.PLAY_BAND, R.START_COLOUR0 + ELF_R)
    assert s.legal_actions() == [R.ADD0 + DWARF_R, R.ADD0 + SKELETON, R.END_BAND]
    _illegal(s, R.ADD0 + ELF_B)


def test_band_at_most_ten_cards():
    s = rig(new_state(num_players=4, tribes=("Halflings", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")),
            hands={0: [kind("Halflings", c) for c in C.KINGDOMS for _ in range(2)]}, turn=0)
    play(s, R.PLAY_BAND, R.START_TRIBE0 + kind("Halflings", "Red"))
    for _ in range(9):
        a = [x for x in s.legal_actions() if x != R.END_BAND][0]
        s.apply_action(a)
    assert s.band_size == 10 and s.legal_actions() == [R.END_BAND]


def test_marker_placed_in_leader_kingdom_when_band_bigger_than_own_markers():
    s = rig(new_state(), hands={0: [DWARF_R, ELF_R]}, markers={0: [0, 0, 0, 0, 0, 1]}, turn=0)
    play(s, *band_actions(DWARF_R, [ELF_R], colour=True))
    assert s.phase == R.MARKER and s.legal_actions() == [R.MARKER0 + RED, R.DECLINE]
    play(s, R.MARKER0 + RED)
    assert s.markers[0, RED] == 2 and s.supply[0] == C.MARKERS_PER_PLAYER - 2


def test_marker_not_placed_when_band_not_bigger_than_own_markers():
    """The k-th marker in a Kingdom needs a band of at least k cards."""
    s = rig(new_state(), hands={0: [DWARF_R, ELF_R, ELF_B]}, markers={0: [0, 0, 0, 0, 0, 2]}, turn=0)
    play(s, *band_actions(DWARF_R, [ELF_R], colour=True))
    assert s.markers[0, RED] == 2 and s.phase == R.TURN and s.turn_player == 1
    assert s.face_up[ELF_B] >= 1  # the rest of the hand was discarded face up


def test_marker_other_players_markers_do_not_count_with_3_players():
    s = rig(new_state(num_players=3, tribes=("Centaurs", "Dwarves", "Elves", "Giants", "Wizards")),
            hands={0: [DWARF_R]}, markers={1: [0, 0, 0, 0, 0, 3], 2: [0, 0, 0, 0, 0, 2]}, turn=0)
    play(s, *band_actions(DWARF_R))
    assert s.legal_actions() == [R.MARKER0 + RED, R.DECLINE]


def test_marker_two_players_band_must_exceed_all_markers_in_kingdom():
    """2 players: more cards than all Control markers in that Kingdom, both players'."""
    s = rig(new_state(num_players=2, tribes=("Centaurs", "Dwarves", "Elves", "Giants", "Wizards")),
            hands={0: [DWARF_R, ELF_R]}, markers={1: [0, 0, 0, 0, 0, 2]}, turn=0)
    play(s, *band_actions(DWARF_R, [ELF_R], colour=True))
    assert s.markers[0, RED] == 0 and s.phase == R.TURN  # 2 cards, 2 markers there: none
    s = rig(new_state(num_players=2, tribes=("Centaurs", "Dwarves", "Elves", "Giants", "Wizards")),
            hands={0: [DWARF_R, ELF_R, GIANT_R]}, markers={1: [0, 0, 0, 0, 0, 2]}, turn=0)
    play(s, *band_actions(DWARF_R, [ELF_R, GIANT_R], colour=True))
    assert s.legal_actions() == [R.MARKER0 + RED, R.DECLINE]


def test_marker_may_be_declined():
    s = rig(new_state(), hands={0: [DWARF_R]}, turn=0)
    play(s, *band_actions(DWARF_R), R.DECLINE)
    assert s.markers[0].sum() == 0 and s.supply[0] == C.MARKERS_PER_PLAYER


def test_marker_not_placed_when_supply_empty():
    s = rig(new_state(), hands={0: [DWARF_R]}, turn=0)
    s.supply[0] = 0
    play(s, *band_actions(DWARF_R))
    assert s.phase == R.TURN and s.markers[0].sum() == 0


def test_discard_rest_of_hand_face_up_after_band():
    s = rig(new_state(), hands={0: [DWARF_R, ELF_B, GIANT_R]}, face_up=[], turn=0)
    play(s, *band_actions(DWARF_R), R.MARKER0 + RED)
    assert s.hands[0].sum() == 0
    assert s.face_up[ELF_B] == 1 and s.face_up[GIANT_R] == 1
    assert s.band_list(0) == [(DWARF_R, 1, 0)] and s.band_cards[0, DWARF_R] == 1


def test_band_start_needs_card_in_hand():
    s = rig(new_state(), hands={0: [DWARF_R]}, turn=0)
    play(s, R.PLAY_BAND)
    _illegal(s, R.START_TRIBE0 + ELF_R)
