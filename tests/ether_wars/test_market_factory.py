"""Rulebook "Purchasing" (Market) and "Cloning" (Factory)."""

import pytest

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C

from .builders import A, act, at_phase, legal_names, new_state, place, start_resolution


def market(abilities=None, event="quiet_day"):
    s = at_phase(new_state(2), codec.RESOLUTION, abilities, event)
    s.first = 0
    place(s, 0, C.MARKET, units=1)
    place(s, 1, C.BIOSPHERE, units=1)  # keeps the phase open after seat 0's turn
    return s


def test_purchasing_example_one_protein_and_one_coltan_buy_one_plasma():
    s = market()
    s.res[0][C.COLTAN] = 1
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    assert s.decision == codec.K_MARKET
    act(s, "RESOURCE", C.PLASMA)
    assert s.decision == codec.K_PAY and "DONE" not in legal_names(s)
    act(s, "PAY", C.PROTEIN)
    assert "DONE" not in legal_names(s)
    act(s, "PAY", C.COLTAN)
    act(s, "DONE")
    assert s.res[0][:4] == [19, 0, 1, 0]


def test_purchasing_example_one_crystal_buys_one_coltan():
    s = market()
    s.res[0][C.CRYSTAL] = 1
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    act(s, "RESOURCE", C.COLTAN)
    act(s, "PAY", C.CRYSTAL)
    act(s, "DONE")
    assert s.res[0][C.COLTAN] == 1 and s.res[0][C.CRYSTAL] == 0


def test_purchasing_ether_cannot_be_bought():
    s = market()
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    assert "RESOURCE(Ether)" not in legal_names(s)
    with pytest.raises(ValueError):
        s.apply_action(A("RESOURCE", C.ETHER))


def test_purchasing_crystal_draws_a_favour_and_two_purchases_at_most():
    s = market()
    s.res[0][C.CRYSTAL] = 3
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    act(s, "MARKET_FAVOUR")
    act(s, "MARKET_FAVOUR")
    assert sum(s.hand[0]) == 2 and s.res[0][C.CRYSTAL] == 1
    assert s.decision == codec.K_RESOLVE and s.decider == 1  # no third purchase: the Market is done


def test_purchasing_hero_domination_blocks_players_without_hero():
    s = market()
    place(s, 1, C.MARKET, hero=True)
    s.res[0][C.CRYSTAL] = 3
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    assert s.decision == codec.K_RESOLVE and s.decider == 1 and sum(s.hand[0]) == 0


def test_purchasing_vai_trader_buys_at_extraction_cost():
    s = market(abilities=[None, None])
    s.faction[0], s.ability[0] = C.VAI, 1  # Trader
    s.res[0][C.PROTEIN] = 20
    start_resolution(s, [0])
    act(s, "RESOLVE", C.MARKET)
    act(s, "RESOURCE", C.CRYSTAL)
    for _ in range(3):
        act(s, "PAY", C.PROTEIN)
    act(s, "DONE")
    assert s.res[0][C.CRYSTAL] == 1 and s.res[0][C.PROTEIN] == 17


def test_market_one_die_per_player_per_round():
    s = at_phase(new_state(2), codec.PLACEMENT)
    place(s, 0, C.MARKET, units=1)
    assert not s.can_put(0, C.MARKET, 1, moving=True)


def factory(protein=20, reserve=5, ability=None, faction=None):
    s = at_phase(new_state(2), codec.RESOLUTION)
    s.first = 0
    if ability is not None:
        s.faction[0], s.ability[0] = faction, ability
    s.res[0][C.PROTEIN] = protein
    s.reserve[0] = reserve
    place(s, 0, C.FACTORY, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    return start_resolution(s, [0])


def test_cloning_four_protein_per_unit_from_reserve():
    s = factory()
    act(s, "RESOLVE", C.FACTORY)
    act(s, "CLONE")
    act(s, "CLONE")
    assert s.home_units[0] == 4 + 2 and s.reserve[0] == 3 and s.res[0][C.PROTEIN] == 12
    act(s, "DONE")


def test_cloning_never_more_than_ten_units():
    s = factory(reserve=1)
    act(s, "RESOLVE", C.FACTORY)
    act(s, "CLONE")
    assert s.reserve[0] == 0 and s.decider == 1  # no Unit left to clone: the Factory is done


def test_cloning_needs_four_protein():
    s = factory(protein=3)
    act(s, "RESOLVE", C.FACTORY)
    assert s.decider == 1 and s.reserve[0] == 5


def test_cloning_ripper_replicate_costs_three_protein():
    s = factory(protein=3, ability=2, faction=C.RIPPER)
    act(s, "RESOLVE", C.FACTORY)
    act(s, "CLONE")
    assert s.res[0][C.PROTEIN] == 0 and s.reserve[0] == 4
