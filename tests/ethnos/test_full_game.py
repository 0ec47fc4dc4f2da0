"""A whole 2-player game (two Ages) on rigged decks, checked against a hand-computed score."""

import numpy as np

from ether_envs.ethnos import components as C
from ether_envs.ethnos import rules as R
from .builders import DRAGON, band_actions, kind, new_state, play, rig

TRIBES = ("Dwarves", "Elves", "Giants", "Merfolk", "Trolls")
BLUE, GRAY, GREEN, ORANGE, PURPLE, RED = range(6)
DR, DB, DG = kind("Dwarves", "Red"), kind("Dwarves", "Blue"), kind("Dwarves", "Gray")
DGREEN = kind("Dwarves", "Green")
GG, TG, TR = kind("Giants", "Green"), kind("Trolls", "Green"), kind("Trolls", "Red")
ER, EG, EB = kind("Elves", "Red"), kind("Elves", "Gray"), kind("Elves", "Blue")
MB = kind("Merfolk", "Blue")


def test_full_game_two_players_hand_computed_final_score():
    """
    Tokens (I, II): Blue 0/2, Gray 2/2, Green 4/4, Orange 6/6, Purple 8/8, Red 8/10.

    Age I (p0 first)
      p0 recruits Dwarves/Gray from the deck.
      p1 plays Giants/Green + Giants/Green + Trolls/Green (colour band, 3 cards): marker in
         Green (3 > 0 markers there); Giant token: +2.
      p0 plays Dwarves x4 (Dwarves/Red leader): marker in Red.
      p1 recruits Trolls/Red.  p0 draws a Dragon (1st), then Elves/Blue.
      p1 plays Trolls/Red alone: 2 players, 1 card is not more than the 1 marker in Red:
         no marker; Troll token 1.
      p0 recruits Merfolk/Blue face up.  p1 draws Dragons 2 and 3: the Age ends.
      Scoring: Red I (8) -> p0; Green I (4) -> p1; Giant (2-3 players, Age I) 2 -> p1;
      bands: p0 Dwarves 4 cards scores as 5 -> 10; p1 3 cards -> 3, 1 card -> 0.
      p0 = 8 + 10 = 18; p1 = 2 + 4 + 2 + 3 = 11.  Least Glory starts Age II: p1.

    Age II (rigged deal)
      p1 plays Elves/Red + Elves/Red + Elves/Gray: marker in Red (3 > 1 marker there);
         Elves keep 1 card (Giants/Green).
      p0 plays Merfolk/Blue x2 + Elves/Blue (colour band): marker in Blue; Merfolk 0 -> 3,
         checkpoint 3: free marker in Purple.
      p1 recruits Trolls/Red face up.  p0 recruits Dwarves/Green from the deck.
      p1 plays Giants/Green alone: no marker (1 is not more than the 1 marker in Green);
         Giant token +2; Trolls/Red discarded.
      p0 draws the three Dragons: the game ends.
      Kingdoms, 2 players Age II: Blue only p0 -> 0 + 2; Green only p1 -> 4 + 4;
      Purple only p0 -> 8 + 8; Red tie 1-1 (no Trolls) -> II (10) + 0 split: 5 each.
      Giant (Age II, small side) 5 -> p1; Merfolk (Age II, small side) 3 -> p0;
      bands: p0 3 cards -> 3; p1 3 cards -> 3, 1 card -> 0.
      p0 = 2 + 16 + 5 + 3 + 3 = 29; p1 = 8 + 5 + 2 + 5 + 3 = 23.

    Final: p0 18 + 29 = 47, p1 11 + 23 = 34; p0 wins.
    """
    s = new_state(num_players=2, tribes=TRIBES, seed=0)
    tokens = [[0, 2], [2, 2], [4, 4], [6, 6], [8, 8], [8, 10]]
    rig(s, glory_tokens=tokens, hands={0: [DR, DR, DB], 1: [GG, GG, TG]}, face_up=[ER, MB],
        deck=[DG, TR, DRAGON, EB, DRAGON, DRAGON], turn=0)
    s.first_player = 0
    # ---- Age I
    play(s, R.RECRUIT_DECK)
    play(s, *band_actions(GG, [GG, TG], colour=True), R.MARKER0 + GREEN)
    assert s.glory.tolist() == [0, 2] and s.giant_holder == 1
    play(s, *band_actions(DR, [DR, DB, DG]), R.MARKER0 + RED)
    play(s, R.RECRUIT_DECK)
    play(s, R.RECRUIT_DECK)
    assert s.dragons == 1 and s.hands[0, EB] == 1
    play(s, *band_actions(TR))
    assert s.troll_owner.tolist() == [1, -1, -1, -1, -1, -1] and s.markers[1, RED] == 0
    play(s, R.RECRUIT_FACE_UP, R.TAKE0 + MB)
    play(s, R.RECRUIT_DECK)
    # ---- Age II begins: scores of Age I, first player, then a rigged deal
    assert s.age == 2 and s.revealer == 1
    assert s.glory.tolist() == [18, 11]
    assert s.glory_by_source.tolist() == [[8, 10, 0, 0, 0, 0], [4, 3, 2, 2, 0, 0]]
    assert s.turn_player == s.first_player == 1
    assert (s.troll_owner == -1).all() and s.giant_holder == -1
    rig(s, hands={0: [MB, MB, EB], 1: [ER, ER, EG, GG]}, face_up=[TR],
        deck=[DGREEN, DRAGON, DRAGON, DRAGON], turn=1)
    play(s, *band_actions(ER, [ER, EG]), R.MARKER0 + RED)
    assert s.phase == R.KEEP and s.keep_limit == 3
    play(s, R.KEEP0 + GG)
    assert s.hands[1].tolist() == [1 if k == GG else 0 for k in range(C.NUM_KINDS)]
    play(s, *band_actions(MB, [MB, EB], colour=True), R.MARKER0 + BLUE)
    assert s.merfolk[0] == 3 and s.phase == R.MERFOLK
    play(s, R.MARKER0 + PURPLE)
    play(s, R.RECRUIT_FACE_UP, R.TAKE0 + TR)
    play(s, R.RECRUIT_DECK)
    play(s, *band_actions(GG))
    assert s.giant_holder == 1 and s.face_up[TR] == 1
    play(s, R.RECRUIT_DECK)
    # ---- end of the game
    assert s.is_terminal()
    assert s.glory.tolist() == [47, 34]
    assert s.glory_by_source.tolist() == [[8 + 23, 10 + 3, 0, 0, 3, 0], [4 + 13, 3 + 3, 2 + 2, 2 + 5, 0, 0]]
    assert s.winners() == [0] and s.returns().tolist() == [1.0, -1.0]
    assert s.legal_actions() == []


def test_full_game_random_seeded_glory_adds_up_and_cards_conserved():
    """Seeded random games: Glory equals the sum of its sources; every Age's cards are
    accounted for (hands + face-up + deck + bands) at every step."""
    for n in (2, 5):
        s = new_state(num_players=n, seed=7)
        rng = np.random.default_rng(7)
        while not s.is_terminal():
            live = s.hands.sum() + s.kept.sum() + s.face_up.sum() + s.band.sum() + s.band_cards.sum()
            deck = s.deck[: s.deck_len]
            assert live + (deck != C.DRAGON).sum() == len(s.age_cards)
            assert (deck == C.DRAGON).sum() + s.dragons == 3
            assert (s.known <= s.hands + s.kept).all()  # kept: only the turn player has any
            legal = s.legal_actions()
            s.apply_action(legal[rng.integers(len(legal))])
        assert (s.glory == s.glory_by_source.sum(axis=1)).all()
        assert s.age == s.game.num_ages
