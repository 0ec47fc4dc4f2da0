"""The batch-fitted top-1 Plackett-Luce ratings and the anchored placement (training/rating.py)."""

import math

import numpy as np
import pytest

from training.rating import ELO, Outcomes, fit_ratings, outcomes_from_games, place_agent, win_probability


def test_two_player_fit_matches_choix_on_tie_free_data():
    """Our weighted fit and choix's maximum-likelihood top-1 fit agree (no prior, no ties)."""
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(0)
    strength = [0.0, 1.0, 2.0, -0.5]
    names = ["a", "b", "c", "d"]
    data, out = [], Outcomes()
    for _ in range(3000):
        i, j = rng.choice(4, 2, replace=False)
        won = rng.random() < 1 / (1 + math.exp(strength[j] - strength[i]))
        w, l = (i, j) if won else (j, i)
        data.append((int(w), [int(l)]))
        out.add([names[i], names[j]], [1.0 if won else 0.0, 0.0 if won else 1.0])
    theirs = choix.opt_top1(4, data, alpha=0)
    ours = fit_ratings(out, fixed={"a": 0.0}, prior_games=0)
    for k, name in enumerate(names):
        assert ours[name] == pytest.approx((theirs[k] - theirs[0]) * ELO, abs=0.5)


def test_multiplayer_fit_counts_an_agent_in_two_seats_twice():
    """3-player games of a against two seats of b, a winning 60%: the fit is the closed form
    log(2 * 0.6 / 0.4) (choix's top-1 fit cannot say that b fills two seats: it gives 104)."""
    out = Outcomes()
    for won in [True] * 60 + [False] * 40:
        out.add(["a", "b", "b"], [1, 0, 0] if won else [0, 1, 0])
    ours = fit_ratings(out, fixed={"b": 0.0}, prior_games=0)
    assert ours["a"] == pytest.approx(math.log(2 * 0.6 / 0.4) * ELO, abs=0.5)


def test_ties_are_split_like_the_win_credit():
    out = Outcomes()
    for _ in range(50):
        out.add(["a", "b"], [0.5, 0.5])
    assert fit_ratings(out, fixed={"b": 0.0})["a"] == pytest.approx(0.0, abs=1e-6)


def test_a_perfect_record_gets_a_finite_rating():
    out = Outcomes()
    out.add_pairing("heuristic", "random", 2, 400, 400)
    r = fit_ratings(out, fixed={"random": 0.0})["heuristic"]
    assert 500 < r < 2000 and math.isfinite(r)


def test_the_order_of_games_does_not_matter():
    games = [(["a", "b"], [1, 0]), (["b", "a"], [1, 0]), (["a", "c", "c"], [0, 0, 1]), (["c", "a", "c"], [0, 1, 0])]
    one, two = Outcomes(), Outcomes()
    for seats, c in games:
        one.add(seats, c)
    for seats, c in reversed(games):
        two.add(seats, c)
    assert fit_ratings(one, {"a": 0.0}) == pytest.approx(fit_ratings(two, {"a": 0.0}))


def test_placement_against_fixed_anchors_recovers_the_rating():
    """An agent that wins as often as the model predicts for rating 300 is placed near 300, inside
    its interval; the anchors do not move."""
    anchors = {"random": 0.0, "heuristic": 250.0, "search": 400.0}
    games = {a: [1.0] * round(100 * win_probability(300.0, r, 3)) + [0.0] * (100 - round(100 * win_probability(300.0, r, 3)))
             for a, r in anchors.items()}
    p = place_agent(games, anchors, players=3, reps=300)
    assert p.low < p.rating < p.high
    assert p.rating == pytest.approx(300, abs=40)
    assert place_agent(games, anchors, players=3, reps=300) == p  # deterministic


def test_placement_errors():
    with pytest.raises(ValueError, match="no stored rating"):
        place_agent({"nobody": [1.0]}, {"random": 0.0}, players=2)
    with pytest.raises(ValueError, match="no games"):
        place_agent({"random": []}, {"random": 0.0}, players=2)
    with pytest.raises(ValueError, match="sum to 1"):
        Outcomes().add(["a", "b"], [1, 1])


def test_outcomes_from_tournament_games_counts_the_opponents_seats():
    rows = [{"agent": "a", "opponent": "b", "agent_seat": s, "returns": [1.0 if k == s else -1.0 for k in range(3)]}
            for s in range(3)]
    out = outcomes_from_games(rows)
    assert dict(out.counts) == {("a", "b", "b"): 3.0}
    assert out.credit[("a", "b", "b")]["a"] == 3.0


def test_bad_inputs_are_refused_and_unconnected_agents_are_not_rated():
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        Outcomes().add(["a", "b"], [1.5, -0.5])
    with pytest.raises(ValueError, match="credit <= games"):
        Outcomes().add_pairing("a", "b", 2, 1.0, 3.0)
    with pytest.raises(ValueError, match=r"in \[0, 1\]"):
        place_agent({"random": [2.0]}, {"random": 0.0}, players=2)
    out = Outcomes()
    out.add_pairing("a", "random", 2, 10, 5)
    out.add_pairing("c", "d", 2, 10, 7)       # c and d never meet random, nor anyone who did
    with pytest.raises(ValueError, match=r"never met a fixed agent"):
        fit_ratings(out, fixed={"random": 0.0})


def test_a_perfect_or_constant_record_still_gets_an_interval():
    """The parametric bootstrap draws from the observed rate pulled towards 1/2 by one virtual game,
    so constant results (all wins against random) do not give a zero-width interval."""
    p = place_agent({"random": [1.0] * 100}, {"random": 0.0}, players=2)
    assert p.low < p.rating and p.high >= p.rating
    q = place_agent({"random": [1.0] * 100, "heuristic": [0.0] * 100}, {"random": 0.0, "heuristic": 500.0}, players=2)
    assert q.low < q.rating < q.high
