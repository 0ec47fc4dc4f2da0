"""Rulebook "Contents", "Setup" and "Reveal a New Season"."""

import pytest

from ether_envs.etherium import Game
from ether_envs.etherium import components as C
from ether_envs.etherium import rules as R

from .builders import act, make, set_season


def test_contents_counts_match_rulebook():
    """Contents: 44 Flash cards, 14 Ability tokens (7 x 2), 12 + 1 seasons, 17 boxes, 33 Victory tokens."""
    assert len(C.FLASH_DECK) == 44
    assert C.NUM_ABILITIES * C.ABILITY_COPIES == 14
    assert C.NUM_SEASON_CARDS == 13
    assert C.NUM_BOXES == 17
    assert [C.BOX_TERRAIN.count(t) for t in range(5)] == [4, 4, 4, 1, 4]
    assert sum(C.VT_SUPPLY) == 33 and C.VT_SUPPLY == (10, 10, 6, 4, 3)


def test_setup_season_deck_night_first_six_different_colours():
    """Setup 3: Night face up first, then 6 different coloured seasons in random order."""
    for seed in range(5):
        s = make(seed=seed)
        assert s.seasons[0] == C.NIGHT
        colours = [c // 2 for c in s.seasons[1:]]
        assert sorted(colours) == list(range(6))


def test_setup_tribe_levels_resources_and_units_on_mountain():
    """Setup 4-5: unit levels and resources per tribe; Gatherer and Soldier on the Mountain before the City."""
    s = make(("Reces", "Ertis", "Psolos", "Hivalia"))
    for p, name in enumerate(("Reces", "Ertis", "Psolos", "Hivalia")):
        tribe = C.TRIBES[C.TRIBE_BY_NAME[name]]
        assert s.lvl[p] == list(tribe.levels)
        assert s.pos[p] == [C.mountain_box(p), C.mountain_box(p)]
    assert s.res[0] == [1, 1, 2, 0, 0]
    assert s.hand_size(1) >= 1 + 1  # Ertis: 1 setup card + the Night draw


def test_setup_four_action_tokens_first_season():
    """Setup 7: the 4 first Action tokens; tokens 5 and 6 aside."""
    s = make()
    while s.decision() != R.D_PROGRAM:
        s.apply_action(s.legal_actions()[0])
    assert s.ntok == [4, 4]


def test_setup_tribe_chosen_by_action_and_taken_tribe_unavailable():
    """Setup 4: each player chooses a tribe (tribe_selection='choose')."""
    s = Game(num_players=3, tribe_selection="choose").new_initial_state(0)
    assert s.current_player() == 0 and s.decision() == R.D_TRIBE
    s.apply_action(act("CHOOSE_TRIBE", C.ERTIS))
    assert s.current_player() == 1
    assert act("CHOOSE_TRIBE", C.ERTIS) not in s.legal_actions()
    with pytest.raises(ValueError):
        s.apply_action(act("CHOOSE_TRIBE", C.ERTIS))
    s.apply_action(act("CHOOSE_TRIBE", C.RECES))
    s.apply_action(act("CHOOSE_TRIBE", C.HIVALIA))
    assert s.tribe == [C.ERTIS, C.RECES, C.HIVALIA]
    assert s.lvl[0] == list(C.TRIBES[C.ERTIS].levels)


def test_config_rejects_bad_values():
    with pytest.raises(ValueError):
        Game(num_players=5)
    with pytest.raises(ValueError):
        Game(num_players=2, tribes=("Reces", "Reces"))
    with pytest.raises(ValueError):
        Game(num_players=2, tribe_selection="draft")


def test_season_initiative_ertis_before_hivalia_and_reces_first_in_reces_season():
    """Reveal a New Season, 2: Ertis season: Ertis > Hivalia > ...; Reces season: Reces 1st, Ertis 2nd."""
    s = make(("Reces", "Psolos", "Ertis", "Hivalia"))
    set_season(s, 2)  # Ertis A
    assert [s.tribe[p] for p in s.order] == [C.ERTIS, C.HIVALIA, C.PSOLOS, C.RECES]
    assert s.affinity == 2
    set_season(s, 0)  # Reces A
    assert [s.tribe[p] for p in s.order][:2] == [C.RECES, C.ERTIS]
    assert s.affinity == 0


def test_season_night_has_random_initiative_and_no_affinity():
    s = make(("Reces", "Psolos", "Ertis"))
    assert s.season == 0 and s.season_card() == C.NIGHT
    assert sorted(s.order) == [0, 1, 2] and s.order == s.night_order
    assert s.affinity == -1


def test_seven_seasons_then_game_ends():
    """End of the Game: 7 seasons, Night first, then final scoring."""
    s = make()
    seen = []
    while not s.is_terminal():
        if not seen or seen[-1] != s.season:
            seen.append(s.season)
        s.apply_action(s.legal_actions()[0])
    assert seen == list(range(7))
    assert s.legal_actions() == []


def test_season_initiative_both_cards_of_a_colour_fit_both_rulebook_examples():
    """Both Season cards of a tribe are "that tribe's season" (ETM-A4): on Reces A and B,
    "the Recesian tribe is first ... followed by the Ertis tribe who is second"; on Ertis A
    and B, "the Ertis tribe have a higher initiative than the Hivalia tribe, who have a higher
    initiative than the Meinas tribe" (Meinas is only a colour here: its place in the cycle)."""
    s = make(("Reces", "Psolos", "Ertis", "Hivalia"))
    for card in (0, C.RECES_B):
        set_season(s, card)
        assert [s.tribe[p] for p in s.order] == [C.RECES, C.ERTIS, C.HIVALIA, C.PSOLOS], C.SEASON_NAMES[card]
    for card in (2, C.ERTIS_B):
        set_season(s, card)
        assert [s.tribe[p] for p in s.order] == [C.ERTIS, C.HIVALIA, C.PSOLOS, C.RECES], C.SEASON_NAMES[card]
    cycle = C.SEASON_COLOURS.index
    assert cycle("Ertis") < cycle("Hivalia") < cycle("Meinas")  # the base cycle runs Ertis -> Hivalia -> Meinas
    for colour in range(C.NUM_COLOURS):  # every colour: one order on both cards, its own tribe first
        assert C.season_initiative_tribes(2 * colour) == C.season_initiative_tribes(2 * colour + 1)
        if C.COLOUR_TRIBE[colour] >= 0:
            assert C.season_initiative_tribes(2 * colour)[0] == C.COLOUR_TRIBE[colour]


@pytest.mark.parametrize("tribes,expected", [
    (("Reces", "Ertis", "Psolos"), ["Reces", "Ertis", "Psolos"]),
    (("Reces", "Ertis", "Psolos", "Hivalia"), ["Reces", "Ertis", "Hivalia", "Psolos"]),
])
def test_season_initiative_issue_reproducer_reces_b_puts_ertis_second(tribes, expected):
    """The issue's game: seed 0, always the first legal action; season 5 is Reces B, and on it
    Ertis is second (it was Reces, Psolos, Ertis / Reces, Psolos, Hivalia, Ertis)."""
    s = Game(num_players=len(tribes), tribes=tribes).new_initial_state(0)
    while s.season < 4:
        s.apply_action(s.legal_actions()[0])
    assert s.season_card() == C.RECES_B
    assert [tribes[p] for p in s.order] == expected
