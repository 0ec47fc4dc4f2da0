"""Hidden information: what each seat sees, and ``resample_hidden`` (ETH-A10)."""

import numpy as np

import ether_envs
from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R
from ether_envs.ethnos.observation import SEAT_FEATURES
from .builders import DRAGON, band_actions, kind, new_state, play, rig

ELF_R, ELF_B, GIANT_G = kind("Elves", "Red"), kind("Elves", "Blue"), kind("Giants", "Green")


def _views(state, player):
    return state.game.encoder.layout.views(state.observation_tensor(player))


def test_observation_shows_own_hand_not_others():
    s = rig(new_state(), hands={0: [ELF_R], 1: [ELF_B, GIANT_G]}, turn=0)
    v0 = _views(s, 0)
    assert v0["hand"][ELF_R] == 0.5 and v0["hand"].sum() == 0.5
    assert v0["hand_size"][1] == 2 / 20  # seat 1 is relative seat 1 for observer 0
    v1 = _views(s, 1)
    assert v1["hand"][ELF_B] == 0.5 and v1["hand"][GIANT_G] == 0.5 and v1["hand"][ELF_R] == 0
    assert v1["hand_size"][3] == 1 / 20  # seat 0 is relative seat 3 for observer 1


def test_observation_changing_hidden_card_leaves_others_view_unchanged():
    s = rig(new_state(), hands={1: [ELF_B]}, turn=0)
    before = s.observation_tensor(0)
    rig(s, hands={1: [GIANT_G]})
    assert np.array_equal(s.observation_tensor(0), before)
    assert not np.array_equal(s.observation_tensor(1), before)


def test_face_up_card_taken_stays_known_in_hand():
    s = rig(new_state(), hands={0: [ELF_R]}, face_up=[GIANT_G], turn=0)
    play(s, R.RECRUIT_FACE_UP, R.TAKE0 + GIANT_G)
    assert _views(s, 1)["known_hand"][3, GIANT_G] == 0.5  # seat 0 seen from seat 1
    rng = np.random.default_rng(0)
    for _ in range(20):
        alt = s.resample_hidden(1, rng)
        assert alt.hands[0, GIANT_G] >= 1
        assert alt.hands.sum(axis=1).tolist() == s.hands.sum(axis=1).tolist()
        assert np.array_equal(alt.hands[1], s.hands[1])


def test_resample_redraws_other_hands_and_deck_preserving_totals():
    s = ether_envs.load_game("ethnos", num_players=4).new_initial_state(seed=3)
    rng = np.random.default_rng(1)
    seen = set()
    for _ in range(10):
        alt = s.resample_hidden(0, rng)
        assert np.array_equal(alt.hands[0], s.hands[0]) and np.array_equal(alt.face_up, s.face_up)
        total = alt.hands[1:].sum(axis=0) + np.bincount(alt.deck[: alt.deck_len][alt.deck[: alt.deck_len] < C.NUM_KINDS],
                                                         minlength=C.NUM_KINDS)
        ref = s.hands[1:].sum(axis=0) + np.bincount(s.deck[: s.deck_len][s.deck[: s.deck_len] < C.NUM_KINDS],
                                                     minlength=C.NUM_KINDS)
        assert np.array_equal(total, ref)
        seen.add(alt.deck[: alt.deck_len].tobytes())
    assert len(seen) > 1


def test_resample_dragons_stay_in_possible_places():
    s = ether_envs.load_game("ethnos", num_players=4).new_initial_state(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(20):
        alt = s.resample_hidden(2, rng)
        where = np.flatnonzero(alt.deck[: alt.deck_len] == C.DRAGON)
        assert len(where) == 3 and where.max() < s.dragon_zone


def test_resample_after_dragon_revealed_keeps_remaining_count():
    s = rig(new_state(), hands={0: []}, deck=[ELF_R, DRAGON, ELF_B, GIANT_G, DRAGON, DRAGON], turn=0)
    play(s, R.RECRUIT_DECK, R.RECRUIT_DECK)  # seat 1 reveals a Dragon and takes ELF_B
    alt = s.resample_hidden(0, np.random.default_rng(0))
    assert s.dragons == 1 and (alt.deck[: alt.deck_len] == C.DRAGON).sum() == 2


def test_resample_during_elves_keep_keeps_counts():
    s = rig(new_state(), hands={0: [ELF_R, ELF_R, GIANT_G, ELF_B]}, turn=0)
    play(s, *band_actions(ELF_R, [ELF_R]), R.DECLINE, R.KEEP0 + GIANT_G)
    obs = s.observation_tensor(1)
    alt = s.resample_hidden(1, np.random.default_rng(0))
    assert alt.kept.sum() == 1 and alt.hand_size(0) == s.hand_size(0)
    assert np.array_equal(alt.observation_tensor(1), obs)


def test_bands_and_band_in_progress_are_public():
    s = rig(new_state(), hands={0: [ELF_R, ELF_B]}, turn=0)
    play(s, R.PLAY_BAND, R.START_TRIBE0 + ELF_R)
    v = _views(s, 2)
    assert v["band"][ELF_R] == 0.5 and v["band_leader"][ELF_R] == 1 and v["band_key"].tolist() == [1, 0]
    play(s, R.ADD0 + ELF_B, R.END_BAND, R.MARKER0 + C.KINGDOMS.index("Red"))
    v = _views(s, 2)
    col = SEAT_FEATURES.index
    assert v["seats"][2, col(f"band_cards_{ELF_R}")] == 0.5  # seat 0 seen from seat 2
    assert v["seats"][2, col("markers_Red")] == np.float32(1 / 26)
    assert v["seats"][2, col("band_leaders_Elves")] == np.float32(0.1)
    assert v["seats"][2, col("band_glory")] == np.float32(1 / 150)  # 2 cards: 1 Glory


def test_observation_slow_pieces_match_a_fresh_encoder():
    """The cached slow pieces equal those of an encoder with an empty cache, at every step."""
    game = ether_envs.load_game("ethnos", num_players=3)
    s = game.new_initial_state(seed=9)
    rng = np.random.default_rng(9)
    steps = 0
    while not s.is_terminal() and steps < 600:
        for p in range(3):
            fresh = type(game.encoder)(game)
            assert np.array_equal(s.observation_tensor(p), fresh.encode(s, p, np.zeros(game.observation_size(), np.float32)))
        legal = s.legal_actions()
        s.apply_action(legal[rng.integers(len(legal))])
        steps += 1
