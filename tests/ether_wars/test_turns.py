"""Turn order inside phases (rulebook "Placement", "Movement" 1, "Resolution" 1), multi-player
combat, the undefended Silo (EW-A16), and what the observation hides."""

import numpy as np

from ether_envs.ether_wars import codec
from ether_envs.ether_wars import components as C
from ether_envs.ether_wars import observation as O

from .builders import act, at_phase, face, new_state, place, start_resolution

F1, F2, F3 = face(1), face(2), face(3)


def test_placement_turns_go_clockwise_from_the_first_player():
    s = at_phase(new_state(3), codec.PLACEMENT)
    s.first = 1
    s.turn = 0
    s._next_placer()
    seats = []
    for _ in range(3):
        seats.append(s.decider)
        act(s, "AREA", C.BIOSPHERE)
        act(s, "ADD_DIE", 0)
        act(s, "DONE")
    assert seats == [1, 2, 0]


def test_movement_each_player_finishes_before_the_next():
    s = at_phase(new_state(2), codec.MOVEMENT)
    s.first = 0
    s.res[0][C.COLTAN] = s.res[1][C.COLTAN] = 2
    place(s, 0, C.BIOSPHERE, units=2)
    place(s, 1, C.BIOSPHERE, units=1)
    s.queue = s.order()
    s._advance()
    act(s, "MOVE_DIE", C.BIOSPHERE)
    act(s, "AREA", C.MARKET)
    assert s.decider == 0
    act(s, "MOVE_DIE", C.BIOSPHERE)
    act(s, "AREA", C.FACTORY)
    assert s.decider == 1  # seat 0 has no Coltan left: seat 1 moves now


def test_resolution_player_resolves_all_areas_before_the_next_player():
    s = at_phase(new_state(2), codec.RESOLUTION)
    s.first = 1
    place(s, 0, C.BIOSPHERE, units=1)
    place(s, 1, C.BIOSPHERE, units=1)
    place(s, 1, C.COLTAN_MINE, units=1)
    start_resolution(s, [F1, F2, F3])
    assert s.decider == 1
    act(s, "RESOLVE", C.BIOSPHERE)
    assert s.decider == 1
    act(s, "RESOLVE", C.COLTAN_MINE)
    assert s.decider == 0


def test_combat_three_players_every_loser_injured_by_its_own_difference():
    s = at_phase(new_state(3), codec.RESOLUTION)
    s.first = 0
    place(s, 0, C.ETHER_FAULT, units=3)
    place(s, 1, C.ETHER_FAULT, units=2)
    place(s, 2, C.ETHER_FAULT, units=2)
    start_resolution(s, [F3, F3, F3, F1, F1, F2, F3])  # 9 vs 2 vs 5
    act(s, "RESOLVE", C.ETHER_FAULT)
    assert s.res[0][C.ETHER] == 1 and s.ether_ctrl == 0
    assert s.reserve[1] == 5 + 2 and s.reserve[2] == 5 + 2  # 7 // 2 = 3 capped at 2; 4 // 2 = 2


def test_silo_undefended_attacker_raids_with_its_full_score():
    s = at_phase(new_state(2), codec.RESOLUTION)
    s.first = 0
    s.res[0][C.CRYSTAL] = 2
    place(s, 1, C.SILO0, units=2)
    start_resolution(s, [F2, F2])  # 4 points: one Crystal (cost 3 + 1)
    act(s, "RESOLVE", C.SILO0 + 1)
    assert s.decision == codec.K_RAID
    act(s, "RESOURCE", C.CRYSTAL)
    assert s.res[1][C.CRYSTAL] == 1 and s.res[0][C.CRYSTAL] == 1


def test_hidden_information_other_hands_not_in_observation_sizes_are():
    s = new_state(3)
    s.hand = [[1, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0], [0, 0, 0, 3, 0, 0]]
    obs = s.observation_tensor(0)
    hand = obs[O.LAYOUT.slices["hand"]]
    sizes = obs[O.LAYOUT.slices["hand_sizes"]]
    assert list(hand) == [0.25, 0, 0, 0, 0, 0]
    assert np.allclose(sizes[:3] * 22, [1, 2, 3])
    alt = s.resample_hidden(0, np.random.default_rng(0))
    assert alt.hand[0] == s.hand[0] and [sum(h) for h in alt.hand] == [1, 2, 3]
