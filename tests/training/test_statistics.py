"""Tournament statistics on cases with a known answer."""

import math

import numpy as np
import pytest

from training.evaluate import credit, mean_interval, pairings_for, run_tournament, wilson_interval


@pytest.mark.parametrize("k,n,low,high", [
    (50, 100, 0.4038, 0.5962),   # textbook values (z = 1.96)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_interval_no_games_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval_known_values():
    mean, half = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert half == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2, rel=1e-6)
    assert mean_interval([7.0]) == (7.0, 0.0)


def test_credit_win_tie_loss():
    assert credit(np.array([1.0, -1.0]), 0) == 1.0
    assert credit(np.array([1.0, -1.0]), 1) == 0.0
    assert credit(np.array([0.0, 0.0]), 1) == 0.5
    assert credit(np.array([0.5, 0.5, -1.0]), 0) == 0.5
    assert credit(np.array([0.0, 0.0, 0.0]), 2) == pytest.approx(1 / 3)


def test_pairings_round_robin_and_focal():
    assert pairings_for(["a", "b", "c"], focal=False) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairings_for(["a", "b", "c"], focal=True) == [("a", "b"), ("a", "c")]


def test_agent_against_itself_is_near_half_and_seats_rotate():
    """Random vs random on 100 paired deals: ~50%, with 50% inside the Wilson interval;
    every deal is played once with the agent in each seat."""
    res = run_tournament("aethermon_collect", ["random", "random"], pairings=[("random", "random")], deals=100,
                         seed=0, progress=False)
    r = res.pairing("random", "random")
    assert r.games == 200
    assert r.win_low < 0.5 < r.win_high
    assert abs(r.win_rate - 0.5) < 0.08
    seats = {(g["deal"], g["agent_seat"]) for g in res.games}
    assert seats == {(d, s) for d in range(100) for s in range(2)}


def test_three_player_rotation_and_paired_seeds():
    res = run_tournament("aethermon_collect", ["heuristic", "random"], config={"num_players": 3}, deals=4, seed=9,
                         progress=False)
    games = res.games
    assert len(games) == 12
    assert {g["agent_seat"] for g in games} == {0, 1, 2}
    for d in range(4):
        assert {g["game_seed"] for g in games if g["deal"] == d} == {9 + d}
    r = res.pairing("heuristic", "random")
    assert r.credit == pytest.approx(sum(g["credit"] for g in games))
    assert res.ratings["heuristic"]["elo"] > res.ratings["random"]["elo"] == 0.0


def test_tournament_is_reproducible():
    a = run_tournament("aethermon_collect", ["mcts:simulations=5", "random"], deals=2, seed=3, progress=False)
    b = run_tournament("aethermon_collect", ["mcts:simulations=5", "random"], deals=2, seed=3, progress=False)
    assert a.games == b.games


def test_parallel_tournament_gives_identical_results(tmp_path):
    """Games spread over 2 worker processes: the same games, win rates, scores, ratings and game
    records as in one process (per-game seeds come from the game's index, never the worker)."""
    kw = dict(game_name="aethermon_collect", specs=["heuristic", "random", "mcts:simulations=4"],
              config={"num_players": 3}, deals=2, seed=11, progress=False)
    one = run_tournament(**kw, workers=1, records_dir=tmp_path / "w1")
    two = run_tournament(**kw, workers=2, records_dir=tmp_path / "w2")
    assert len(one.games) == 3 * 2 * 3 and one.games == two.games
    assert one.ratings == two.ratings
    timing = {"seconds", "steps_per_second"}
    for a, b in zip(one.pairings, two.pairings, strict=True):
        da, db = vars(a), vars(b)
        assert {k: v for k, v in da.items() if k not in timing} == {k: v for k, v in db.items() if k not in timing}
    files = sorted(p.name for p in (tmp_path / "w1").glob("*.json"))
    assert len(files) == 18 and files == sorted(p.name for p in (tmp_path / "w2").glob("*.json"))
    for name in files:
        assert (tmp_path / "w1" / name).read_text() == (tmp_path / "w2" / name).read_text()
    with pytest.raises(ValueError, match="workers"):
        run_tournament("aethermon_collect", ["random", "random"], deals=1, workers=0, progress=False)


def test_the_same_matchup_plays_identical_games_wherever_it_sits_in_the_tournament():
    """Opponents are seeded from the matchup, deal, seat and player: reordering the pairings (or
    adding others) leaves every game of a matchup unchanged."""
    kw = dict(game_name="aethermon_collect", specs=[], deals=3, seed=5, progress=False)
    pairs = [("mcts:simulations=4", "random"), ("heuristic", "random"), ("mcts:simulations=4", "heuristic")]
    first = run_tournament(**kw, pairings=pairs)
    moved = run_tournament(**kw, pairings=[pairs[2], pairs[1], pairs[0]])
    alone = run_tournament(**kw, pairings=[pairs[2]])

    def games(res, pair):
        return [g for g in res.games if (g["agent"], g["opponent"]) == pair]

    for pair in pairs:
        assert games(first, pair) == games(moved, pair)
    assert games(alone, pairs[2]) == games(first, pairs[2])
    # the seeds name the matchup: swapping the roles gives other seeds
    from training.evaluate import agent_seed

    assert agent_seed(5, "a", "b", 0, 0, 1) != agent_seed(5, "b", "a", 0, 0, 1)


def test_ratings_count_every_seat_of_a_multiseat_opponent():
    """The researcher's case: in 3-player games an agent winning 71% against two random seats
    (fair share 33%) is rated above random; exactly at fair share it is rated equal."""
    from training.rating import Outcomes, fit_ratings

    out = Outcomes()
    out.add_pairing("ppo", "random", 3, 900, 0.711 * 900)
    out.add_pairing("ppo", "mcts", 3, 900, 300)
    r = fit_ratings(out, fixed={"random": 0.0})
    assert r["ppo"] > 200 and r["ppo"] > r["random"] == 0.0
    assert r["mcts"] == pytest.approx(r["ppo"], abs=5)
