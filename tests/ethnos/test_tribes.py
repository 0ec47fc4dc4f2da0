"""Research §1.1: the twelve Leader powers (one test or more per tribe)."""

import pytest

from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R
from .builders import DRAGON, SKELETON, band_actions, kind, new_state, play, rig

RED, BLUE, GREEN = (C.KINGDOMS.index(c) for c in ("Red", "Blue", "Green"))


def K(tribe, colour="Red"):
    return kind(tribe, colour)


def state_with(tribes, n=4, **kw):
    return rig(new_state(num_players=n, tribes=tribes), **kw)


T6 = ("Centaurs", "Dwarves", "Elves", "Giants", "Merfolk", "Wizards")
T6B = ("Halflings", "Minotaurs", "Orcs", "Skeletons", "Trolls", "Wingfolk")


def _end_age(s, seat):
    """Make ``seat``'s next deck draw reveal the third Dragon."""
    rig(s, deck=[DRAGON], dragons=2, turn=seat)
    play(s, R.RECRUIT_DECK)


# ---- Centaurs ------------------------------------------------------------------------
def test_centaurs_after_marker_may_play_another_band():
    s = state_with(T6, hands={0: [K("Centaurs"), K("Elves", "Blue"), K("Dwarves", "Blue")]}, turn=0)
    play(s, *band_actions(K("Centaurs")), R.MARKER0 + RED)
    assert s.phase == R.CENTAUR and s.legal_actions() == [R.PLAY_BAND, R.DECLINE]
    play(s, *band_actions(K("Elves", "Blue"), [K("Dwarves", "Blue")], colour=True), R.MARKER0 + BLUE)
    assert s.markers[0, RED] == 1 and s.markers[0, BLUE] == 1 and len(s.band_list(0)) == 2
    assert s.turn_player == 1


def test_centaurs_without_marker_no_extra_band():
    s = state_with(T6, hands={0: [K("Centaurs"), K("Elves", "Blue")]}, turn=0)
    play(s, *band_actions(K("Centaurs")), R.DECLINE)
    assert s.phase == R.TURN and s.turn_player == 1 and s.face_up[K("Elves", "Blue")] >= 1


def test_centaurs_extra_band_may_be_declined():
    s = state_with(T6, hands={0: [K("Centaurs"), K("Elves", "Blue")]}, turn=0)
    play(s, *band_actions(K("Centaurs")), R.MARKER0 + RED, R.DECLINE)
    assert s.turn_player == 1 and len(s.band_list(0)) == 1


# ---- Dwarves -------------------------------------------------------------------------
def test_dwarves_band_scores_as_one_card_more():
    s = state_with(T6, hands={0: [K("Dwarves")] * 2, 1: [K("Elves")] * 2}, turn=0)
    play(s, *band_actions(K("Dwarves"), [K("Dwarves")]), R.DECLINE)
    play(s, *band_actions(K("Elves"), [K("Elves")]), R.DECLINE)
    _end_age(s, 2)
    assert s.glory_by_source[0, R.S_BANDS] == C.BAND_GLORY[3]  # 2 cards score as 3
    assert s.glory_by_source[1, R.S_BANDS] == C.BAND_GLORY[2]


# ---- Elves -----------------------------------------------------------------------------
def test_elves_keep_up_to_band_size_cards():
    s = state_with(T6, hands={0: [K("Elves")] * 2 + [K("Giants", "Blue"), K("Dwarves", "Green"), K("Wizards")]},
                   face_up=[], turn=0)
    play(s, *band_actions(K("Elves"), [K("Elves")]), R.DECLINE)
    assert s.phase == R.KEEP and s.keep_limit == 2
    assert s.legal_actions() == sorted(R.KEEP0 + k for k in (K("Giants", "Blue"), K("Dwarves", "Green"), K("Wizards"))) + [R.END_KEEP]
    play(s, R.KEEP0 + K("Giants", "Blue"), R.KEEP0 + K("Wizards"))  # the limit ends the choice
    assert s.hands[0].sum() == 2 and s.hands[0, K("Giants", "Blue")] == 1 and s.hands[0, K("Wizards")] == 1
    assert s.face_up.sum() == 1 and s.face_up[K("Dwarves", "Green")] == 1
    assert s.turn_player == 1


def test_elves_may_keep_fewer():
    s = state_with(T6, hands={0: [K("Elves"), K("Giants", "Blue")]}, face_up=[], turn=0)
    play(s, *band_actions(K("Elves")), R.DECLINE, R.END_KEEP)
    assert s.hands[0].sum() == 0 and s.face_up[K("Giants", "Blue")] == 1


def test_elves_kept_card_known_only_if_seen_taken():
    """Cards taken face up stay known in the hand unless seen discarded (ETH-A10)."""
    s = state_with(T6, hands={0: [K("Elves"), K("Elves")]}, face_up=[K("Giants", "Blue")], turn=0)
    s.turn_player = 0
    play(s, R.RECRUIT_FACE_UP, R.TAKE0 + K("Giants", "Blue"))
    rig(s, turn=0)
    play(s, *band_actions(K("Elves"), [K("Elves")]), R.DECLINE, R.KEEP0 + K("Giants", "Blue"))
    assert s.hands[0, K("Giants", "Blue")] == 1 and s.known[0, K("Giants", "Blue")] == 1


# ---- Giants ------------------------------------------------------------------------------
def test_giants_biggest_giant_band_takes_token_and_glory():
    s = state_with(T6, hands={0: [K("Giants")] * 2, 1: [K("Giants", "Blue")] * 2, 2: [K("Giants", "Green")] * 3},
                   turn=0)
    play(s, *band_actions(K("Giants"), [K("Giants")]), R.DECLINE)
    assert s.giant_holder == 0 and s.glory[0] == C.GIANT_TAKE_GLORY
    play(s, *band_actions(K("Giants", "Blue"), [K("Giants", "Blue")]), R.DECLINE)
    assert s.giant_holder == 0 and s.glory[1] == 0  # a tie does not take the token
    play(s, *band_actions(K("Giants", "Green"), [K("Giants", "Green")] * 2), R.DECLINE)
    assert s.giant_holder == 2 and s.giant_size == 3 and s.glory[2] == 2


def test_giants_holder_scores_at_end_of_age_and_token_returns():
    s = state_with(T6, hands={0: [K("Giants")]}, turn=0)
    play(s, *band_actions(K("Giants")), R.DECLINE)
    _end_age(s, 1)
    assert s.glory_by_source[0, R.S_GIANT_AGE] == C.GIANT_AGE_GLORY["large"][0]
    assert s.giant_holder == -1 and s.giant_size == 0  # new Age


def test_giants_take_glory_is_configurable():
    s = rig(new_state(tribes=T6, giant_take_glory=3), hands={0: [K("Giants")]}, turn=0)
    play(s, *band_actions(K("Giants")), R.DECLINE)
    assert s.glory[0] == 3


# ---- Halflings ------------------------------------------------------------------------------
def test_halflings_band_places_no_marker():
    s = state_with(T6B, hands={0: [K("Halflings")] * 3}, turn=0)
    play(s, *band_actions(K("Halflings"), [K("Halflings")] * 2))
    assert s.markers[0].sum() == 0 and s.phase == R.TURN and s.turn_player == 1


def test_halflings_not_leader_other_leader_places_marker():
    s = state_with(T6B, hands={0: [K("Halflings"), K("Orcs")]}, turn=0)
    play(s, *band_actions(K("Orcs"), [K("Halflings")], colour=True))
    assert s.phase == R.MARKER


# ---- Merfolk ----------------------------------------------------------------------------------
def test_merfolk_advance_and_checkpoint_gives_free_marker_anywhere():
    s = state_with(T6, hands={0: [K("Merfolk")] * 3}, turn=0)
    play(s, *band_actions(K("Merfolk"), [K("Merfolk")] * 2), R.MARKER0 + RED)
    assert s.merfolk[0] == 3 and s.phase == R.MERFOLK
    assert s.legal_actions() == [R.MARKER0 + k for k in range(6)] + [R.DECLINE]
    play(s, R.MARKER0 + GREEN)
    assert s.markers[0, GREEN] == 1 and s.markers[0, RED] == 1 and s.turn_player == 1


def test_merfolk_passing_two_checkpoints_gives_two_markers():
    s = state_with(T6, hands={0: [K("Merfolk")] * 5}, turn=0)
    s.merfolk[0] = 2
    play(s, *band_actions(K("Merfolk"), [K("Merfolk")] * 4), R.DECLINE)
    assert s.merfolk[0] == 7 and s.free_markers == 2
    play(s, R.MARKER0 + BLUE, R.DECLINE)
    assert s.markers[0].sum() == 1 and s.turn_player == 1


def test_merfolk_track_stops_at_last_space():
    s = state_with(T6, hands={0: [K("Merfolk")] * 3}, turn=0)
    s.merfolk[0] = 17
    play(s, *band_actions(K("Merfolk"), [K("Merfolk")] * 2), R.DECLINE, R.DECLINE)
    assert s.merfolk[0] == C.MERFOLK_TRACK_END


def test_merfolk_furthest_player_scores_at_end_of_age_ties_split():
    s = state_with(T6, turn=0)
    s.merfolk[:] = [5, 5, 2, 0]
    _end_age(s, 0)
    assert s.glory_by_source[:, R.S_MERFOLK].tolist() == [0, 0, 0, 0]  # 1 Glory split two ways, rounded down
    s = state_with(T6, turn=0)
    s.merfolk[:] = [5, 6, 2, 0]
    s.age = 2
    _end_age(s, 0)
    assert s.glory_by_source[:, R.S_MERFOLK].tolist() == [0, 2, 0, 0]


# ---- Minotaurs -----------------------------------------------------------------------------------
def test_minotaurs_count_one_more_card_for_marker():
    s = state_with(T6B, hands={0: [K("Minotaurs")]}, markers={0: [0, 0, 0, 0, 0, 1]}, turn=0)
    play(s, *band_actions(K("Minotaurs")))
    assert s.legal_actions() == [R.MARKER0 + RED, R.DECLINE]  # 1 card counts as 2 > 1 marker


def test_minotaurs_plus_one_does_not_change_band_glory():
    s = state_with(T6B, hands={0: [K("Minotaurs")] * 2}, turn=0)
    play(s, *band_actions(K("Minotaurs"), [K("Minotaurs")]), R.DECLINE)
    _end_age(s, 1)
    assert s.glory_by_source[0, R.S_BANDS] == C.BAND_GLORY[2]


# ---- Orcs ----------------------------------------------------------------------------------------
def test_orcs_marker_on_horde_board_space_of_leader_colour_once():
    s = state_with(T6B, hands={0: [K("Orcs"), K("Orcs")]}, turn=0)
    play(s, *band_actions(K("Orcs")), R.DECLINE)
    assert s.orc[0, RED] and s.supply[0] == C.MARKERS_PER_PLAYER - 1
    rig(s, hands={0: [K("Orcs")]}, turn=0)
    play(s, *band_actions(K("Orcs")), R.DECLINE)
    assert s.orc[0].sum() == 1  # that space is already filled


def test_orcs_cash_in_at_end_of_non_final_age():
    s = state_with(T6B, turn=0)
    s.orc[0, :3] = True
    s.orc[2, :1] = True
    _end_age(s, 1)
    assert s.phase == R.ORC and s.decider == 2  # from the Dragon revealer (seat 1) clockwise
    play(s, R.DECLINE)
    assert s.decider == 0
    play(s, R.USE_POWER)
    assert s.glory_by_source[0, R.S_ORCS] == C.ORC_GLORY[3] and not s.orc[0].any()
    assert s.orc[2].sum() == 1 and s.age == 2  # declined markers stay for the next Age


def test_orcs_scored_automatically_at_end_of_last_age():
    s = state_with(T6B, turn=0)
    s.age = 3
    s.orc[1, :] = True
    _end_age(s, 0)
    assert s.is_terminal() and s.glory_by_source[1, R.S_ORCS] == C.ORC_GLORY[6] == 20


def test_orcs_cash_in_disabled_by_config():
    s = rig(new_state(tribes=T6B, orc_cash_in=False), turn=0)
    s.orc[0, :2] = True
    _end_age(s, 0)
    assert s.age == 2 and s.phase == R.TURN and s.orc[0].sum() == 2


# ---- Skeletons ------------------------------------------------------------------------------------
def test_skeletons_removed_before_band_scoring():
    s = state_with(T6B, hands={0: [K("Trolls"), SKELETON, SKELETON]}, turn=0)
    play(s, *band_actions(K("Trolls"), [SKELETON, SKELETON]), R.DECLINE)
    assert s.band_list(0) == [(K("Trolls"), 3, 2)]
    _end_age(s, 1)
    assert s.glory_by_source[0, R.S_BANDS] == C.BAND_GLORY[1] == 0


def test_skeletons_count_for_marker_and_powers():
    s = state_with(T6B, hands={0: [K("Trolls"), SKELETON]}, markers={0: [0, 0, 0, 0, 0, 1]}, turn=0)
    play(s, *band_actions(K("Trolls"), [SKELETON]), R.MARKER0 + RED)
    assert s.markers[0, RED] == 2 and s.troll_owner[1] == 0  # X = 2 takes the "2" token


# ---- Trolls ----------------------------------------------------------------------------------------
def test_trolls_take_token_of_band_size_else_highest_below():
    s = state_with(T6B, hands={0: [K("Trolls")] * 3, 1: [K("Trolls", "Blue")] * 2 + [SKELETON],
                               2: [K("Trolls", "Green")]}, turn=0)
    play(s, *band_actions(K("Trolls"), [K("Trolls")] * 2), R.DECLINE)
    assert s.troll_owner.tolist() == [-1, -1, 0, -1, -1, -1]
    play(s, *band_actions(K("Trolls", "Blue"), [K("Trolls", "Blue"), SKELETON]), R.DECLINE)
    assert s.troll_owner.tolist() == [-1, 1, 0, -1, -1, -1]  # 3 taken: the 2
    play(s, *band_actions(K("Trolls", "Green")), R.DECLINE)
    assert s.troll_owner[0] == 2 and s.troll_total(2) == 1


def test_trolls_no_free_token_at_or_below_takes_nothing():
    s = state_with(T6B, hands={0: [K("Trolls")]}, turn=0)
    s.troll_owner[0] = 3
    play(s, *band_actions(K("Trolls")), R.DECLINE)
    assert s.troll_total(0) == 0


def test_trolls_tokens_return_at_end_of_age():
    s = state_with(T6B, turn=0)
    s.troll_owner[:] = [0, 1, -1, -1, -1, -1]
    _end_age(s, 0)
    assert (s.troll_owner == -1).all()


# ---- Wingfolk -----------------------------------------------------------------------------------
def test_wingfolk_marker_in_any_kingdom_that_band_size_allows():
    s = state_with(T6B, hands={0: [K("Wingfolk")] * 2}, markers={0: [2, 1, 0, 0, 0, 0]}, turn=0)
    play(s, *band_actions(K("Wingfolk"), [K("Wingfolk")]))
    assert s.legal_actions() == [R.MARKER0 + k for k in (1, 2, 3, 4, 5)] + [R.DECLINE]  # not Blue: 2 there
    play(s, R.MARKER0 + 3)
    assert s.markers[0, 3] == 1


# ---- Wizards ------------------------------------------------------------------------------------
def test_wizards_draw_band_size_cards_after_the_discard():
    """The draws come after the discard (ETH-A11): the drawn cards stay in hand."""
    s = state_with(T6, hands={0: [K("Wizards")] * 2 + [K("Giants")]}, face_up=[],
                   deck=[K("Elves")] * 3 + [DRAGON] * 3, turn=0)
    play(s, *band_actions(K("Wizards"), [K("Wizards")]), R.DECLINE)
    assert s.phase == R.WIZARD and s.legal_actions() == [R.USE_POWER, R.DECLINE]
    play(s, R.USE_POWER)
    assert s.hands[0].tolist() == [2 if k == K("Elves") else 0 for k in range(C.NUM_KINDS)]
    assert s.face_up[K("Giants")] == 1 and s.deck_len == 4 and s.turn_player == 1


def test_wizards_dragon_drawn_is_revealed_and_redrawn_third_ends_age():
    s = state_with(T6, hands={0: [K("Wizards")] * 3}, deck=[DRAGON, K("Elves"), DRAGON, K("Dwarves")],
                   dragons=1, turn=0)
    play(s, *band_actions(K("Wizards"), [K("Wizards")] * 2), R.DECLINE, R.USE_POWER)
    assert s.age == 2 and s.revealer == 0  # Dragon, Elf, Dragon: the third Dragon ends the Age


def test_wizards_power_may_be_declined():
    s = state_with(T6, hands={0: [K("Wizards")]}, deck=[K("Elves")] + [DRAGON] * 3, turn=0)
    play(s, *band_actions(K("Wizards")), R.DECLINE, R.DECLINE)
    assert s.deck_len == 4 and s.hands[0].sum() == 0


@pytest.mark.parametrize("tribe", C.TRIBES)
def test_every_tribe_has_a_power_text(tribe):
    assert C.LEADER_POWERS[tribe]
