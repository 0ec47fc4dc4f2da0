"""The Monte Carlo rollout search agent ``rollout`` (agents/rollout.py); that it searches only
determinizations is checked with the other agents in test_agents.py."""

import numpy as np
import pytest

import ether_envs
from agents import make_agent
from agents.rollout import RolloutAgent
from training.evaluate import play_game

GAMES = ether_envs.list_games()


@pytest.mark.parametrize("name", GAMES)
def test_rollout_plays_a_legal_game(name):
    """One rollout per action (random base on the long card games, to stay quick) finishes a game
    against the heuristic; play_game raises on an illegal action."""
    game = ether_envs.load_game(name)
    base = "heuristic" if name in ("aethermon_collect", "aetherspire") else "random"
    n = game.num_players
    agents = [make_agent(f"rollout:rollouts=1,base={base}" if p == 0 else "heuristic", game, seed=p)
              for p in range(n)]
    if name in ("ethnos", "ether_wars", "etherium"):  # long games: the first decisions only
        state = game.new_initial_state(seed=9)
        for _ in range(30):
            if state.is_terminal():
                break
            p = state.current_player()
            a = agents[p].act(state, p)
            assert a in state.legal_actions()
            state.apply_action(a)
        return
    returns, _, steps = play_game(game, agents, seed=9)
    assert returns.shape == (n,) and steps > 0


def decision_state(game, seed: int, min_legal: int = 2):
    state = game.new_initial_state(seed=seed)
    while len(state.legal_actions()) < min_legal:
        state.apply_action(state.legal_actions()[0])
    return state


def test_rollout_same_seed_same_decision_and_the_state_is_untouched():
    game = ether_envs.load_game("aethermon_collect", num_players=3, hidden_artefacts=True)
    state = decision_state(game, 2)
    before = ether_envs.core.snapshot(state)
    p = state.current_player()
    values = [make_agent("rollout:rollouts=3", game, seed=4).action_values(state, p) for _ in range(2)]
    assert values[0] == values[1]
    assert set(values[0]) == set(state.legal_actions())
    assert ether_envs.core.snapshot(state) == before


def test_rollout_decision_does_not_depend_on_the_others_hidden_cards(ethnos_hidden_twins):
    """Information hygiene: two states that differ only in what the mover cannot see get the same
    values from the same seed (the fixture says why this is checked on Ethnos)."""
    game, state, other, p = ethnos_hidden_twins
    values = [make_agent("rollout:rollouts=1,base=random", game, seed=5).action_values(s, p) for s in (state, other)]
    assert len(values[0]) > 1
    assert values[0] == values[1]


def test_rollout_values_are_return_plus_weighted_score_margin():
    """A finished game's value: the return plus score_weight x the margin (own score minus the best
    other in a competitive game; the team's score in Aetherspire)."""
    game = ether_envs.load_game("aethermon_collect")
    agent = RolloutAgent(game, score_weight=0.5)
    state = game.new_initial_state(seed=1)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    r, sc = state.returns(), state.scores()
    assert agent.value(state, 0) == pytest.approx(r[0] + 0.5 * (sc[0] - sc[1]))
    assert RolloutAgent(game, score_weight=0).value(state, 1) == pytest.approx(r[1])
    coop = ether_envs.load_game("aetherspire")
    s = coop.new_initial_state(seed=1)
    heur = make_agent("heuristic", coop, seed=0)
    while not s.is_terminal():
        s.apply_action(heur.act(s, s.current_player()))
    assert RolloutAgent(coop).value(s, 1) == pytest.approx(s.returns()[1] + 0.1 * s.spires())


def test_rollout_plays_an_action_of_best_value():
    """The move is an action with the best mean rollout value (the same seed gives the same values)."""
    game = ether_envs.load_game("aethermon_collect")
    state = decision_state(game, 3, min_legal=3)
    p = state.current_player()
    agent = make_agent("rollout:rollouts=2", game, seed=1)
    values = agent.action_values(state, p)
    agent.seed(1)
    a = agent.act(state, p)
    assert values[a] == max(values.values())


@pytest.mark.parametrize("spec, match", [
    ("rollout:rollouts=0", "rollouts must be an int >= 1, got 0"),
    ("rollout:rollouts=1.5", "rollouts must be an int >= 1, got 1.5"),
    ("rollout:base=mcts", "base must be one of heuristic, random, got 'mcts'"),
    ("rollout:score_weight=-1", "score_weight must be a finite number >= 0, got -1"),
    ("rollout:score_weight=inf", "score_weight must be a finite number >= 0"),
    ("rollout:depth=2", "bad arguments in agent spec"),
])
def test_rollout_bad_specs_raise_value_errors_naming_the_value(spec, match):
    with pytest.raises(ValueError, match=match.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec, ether_envs.load_game("aetherspire"))


def test_rollout_refuses_a_finished_game_and_a_player_not_to_move():
    game = ether_envs.load_game("aetherspire")
    state = decision_state(game, 5)
    agent = make_agent("rollout:rollouts=1", game, seed=0)
    other = 1 - state.current_player()
    with pytest.raises(ValueError, match=f"agent 'rollout:rollouts=1': player {other} is not to move here"):
        agent.act(state, other)
    heur = make_agent("heuristic", game, seed=0)
    while not state.is_terminal():
        state.apply_action(heur.act(state, state.current_player()))
    with pytest.raises(ValueError, match="the game is over"):
        agent.action_values(state, 0)
