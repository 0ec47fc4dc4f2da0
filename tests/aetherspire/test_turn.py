"""Rulebook "Turn order", "Solo rules", "Supply step", "Reroll any number of dice",
"End of turn"."""

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire.rules import Game

from .builders import a, act, legal, scenario, set_dice


def _supply_state(num_players=2, **cfg):
    s = Game(num_players=num_players, difficulty=2, **cfg).new_initial_state(0)
    assert s.phase == K.SUPPLY
    return s


def test_supply_draw_tile_any_size_standard_side_into_reserve():
    s = _supply_state()
    assert s.legal_actions() == [a("DRAW", 0), a("DRAW", 1), a("DRAW", 2)]
    top = s.stacks[C.MEDIUM][0]
    act(s, "DRAW", C.MEDIUM)
    assert s.reserve == [top] and s.side[top] == 0
    # then the optional exchange
    assert s.legal_actions() == sorted([a("PASS"), a("EXCHANGE", top)])


def test_supply_exchange_puts_tile_on_bottom_and_draws_same_size():
    s = _supply_state()
    act(s, "DRAW", C.SMALL)
    t = s.reserve[0]
    nxt = s.stacks[C.SMALL][0]
    act(s, "EXCHANGE", t)
    assert s.reserve == [nxt] and s.stacks[C.SMALL][-1] == t and s.stack_known[C.SMALL] == 1


def test_supply_three_invaders_to_wheel_as_shards_and_five_dice():
    s = _supply_state()
    bag = len(s.bag)
    act(s, "DRAW", C.LARGE)
    act(s, "PASS")
    assert s.phase == K.BUILD
    assert sum(s.shards) == 3 and len(s.bag) == bag - 3
    assert sum(s.dice) == 5


def test_supply_multi_supply_passive_may_draw_multi_side():
    """Architect passive (ASP-A5)."""
    s = _supply_state(characters=("Architect", "Geomancer"))
    assert legal(s, "DRAW_MULTI", C.SMALL)
    act(s, "DRAW_MULTI", C.SMALL)
    assert s.side[s.reserve[0]] == 1


def test_reroll_any_once_per_turn_marked_dice_only():
    s = scenario()
    set_dice(s, earth=2, star=1)
    assert legal(s, "REROLL", C.EARTH) and not legal(s, "REROLL", C.AIR)
    act(s, "REROLL", C.EARTH)
    assert s.reroll_used
    # mark the second earth die, not a third
    act(s, "REROLL", C.EARTH)
    assert not legal(s, "REROLL", C.EARTH) and legal(s, "REROLL", C.STAR)
    act(s, "ROLL")
    assert sum(s.dice) == 3 and s.dice[C.STAR] >= 1 and s.marks == [0] * 5
    assert not any(legal(s, "REROLL", f) for f in range(5))


def test_end_of_turn_discards_dice_keeps_reserve_and_shards_next_player_left():
    s = scenario(num_players=3)
    set_dice(s, fire=2)
    s.shards[0] = 2
    s.bag.remove(0), s.bag.remove(0)
    s.reserve = [0]
    s.stacks[0].remove(0)
    s.reroll_used = True
    act(s, "END_BUILD")
    assert s.turn_player == 1 and s.phase == K.SUPPLY and s.current_player() == 1
    assert s.dice == [0] * 5 and s.shards[0] >= 2 and s.reserve == [0] and not s.reroll_used


def test_solo_same_player_every_turn():
    s = scenario(num_players=1)
    act(s, "END_BUILD")
    assert s.turn_player == 0 and s.phase == K.SUPPLY
    env_agents = __import__("ether_envs").make("aetherspire", num_players=1).possible_agents
    assert env_agents == ["player_0"]
