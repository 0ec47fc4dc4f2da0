"""Rulebook "Ending the Game" (and the Boxing Gloves clarification)."""

import numpy as np
import pytest

from ether_envs.aethermon_collect import rules as R
from ether_envs.aethermon_collect.rules import Game, State

from .builders import assert_cannot, card, finish, move, play, position, use

M1, M2, M3 = (card("Moonlit", "trio", k) for k in (1, 2, 3))
S4 = card("Sunstruck", "single")


def test_end_competitive_every_player_turn_without_collecting_game_over():
    """Ending the Game: "The competitive game ends after each player has had a consecutive turn without
    collecting an Aethermon"."""
    s = position(board={"e5": M1}, token="c3")
    play(s, move("c1"))
    assert not s.is_terminal()
    play(s, move("a1"))
    assert s.is_terminal() and s.legal_actions() == []


def test_end_competitive_one_turn_without_collecting_game_continues():
    """Ending the Game (competitive): one player's turn without collecting does not end the game."""
    s = position(board={"e5": M1, "c1": M2}, token="c3")
    play(s, move("a3"))
    assert not s.is_terminal() and s.current_player() == 1


def test_end_competitive_collection_resets_consecutive_turns_continues():
    """Ending the Game: the turns without collecting must be consecutive; a collection starts the count
    again (AC-A8)."""
    s = position(board={"a5": M1, "e5": M2}, token="c3")
    play(s, move("a3"))  # player 0: nothing
    play(s, move("a5"))  # player 1 collects
    play(s, move("b5"))  # player 0: nothing
    assert not s.is_terminal()
    play(s, move("b1"))  # player 1: nothing: each has now had a turn without collecting
    assert s.is_terminal()


def test_end_competitive_three_players_needs_all_three_turns():
    """Ending the Game: "each player" — in a 3-player game all three turns without collecting."""
    s = position(num_players=3, board={"f6": M1}, token="a1")
    play(s, move("a2"), move("a3"))
    assert not s.is_terminal()
    play(s, move("a4"))
    assert s.is_terminal()


def test_end_boxing_gloves_skipped_turn_counts_as_without_collecting():
    """Ending the Game: "If a player skips their turn by using the 'Boxing Gloves' Artefact, the turn skipped
    still counts as a turn without selecting an Aethermon"."""
    s = position(board={"e5": M1, "c1": M2}, token="c3", held={1: ["gloves"]})
    play(s, move("a3"))  # player 0: nothing
    play(s, use("gloves"))  # player 1 skips
    assert s.is_terminal()


def test_end_stopwatch_extra_turn_counts_as_a_turn_without_collecting():
    """Ending the Game with the Stopwatch (AC-A8): the extra turn, on which nothing can be collected, counts
    as a turn without collecting."""
    s = position(board={"c1": M1, "a1": M2, "e5": M3}, token="c3", held={0: ["stopwatch"]})
    play(s, use("stopwatch"), move("c1"))  # collects
    play(s, move("a1"))  # extra turn: nothing collected
    assert not s.is_terminal() and s.current_player() == 1
    play(s, move("b1"))  # player 1: nothing
    assert s.is_terminal()


def test_end_cooperative_any_turn_without_collecting_game_over():
    """Ending the Game: "The co-operative game ends when any turn is completed without collecting an
    Aethermon"."""
    s = position(mode="cooperative", num_players=3, board={"f6": M1, "a3": M2}, token="a1")
    play(s, move("a3"))
    assert not s.is_terminal()
    play(s, move("b3"))
    assert s.is_terminal()


def test_end_terminal_no_action_accepted():
    """Ending the Game: after the end nobody acts (no legal action; any action raises)."""
    s = finish(position(board={"e5": M1}, token="c3"))
    assert s.legal_actions() == [] and s.legal_actions_mask().sum() == 0
    assert_cannot(s, move("c1"))


def test_end_returns_zero_before_end_and_final_after():
    """Ending the Game / Scoring: returns are given at the end only."""
    s = position(board={"c1": S4}, token="c3")
    assert np.array_equal(s.returns(), [0, 0])
    play(s, move("c1"))
    finish(s)
    assert np.array_equal(s.returns(), [1, -1])


def test_end_a_collection_after_two_turns_without_collecting_still_starts_the_count_again():
    """Ending the Game (AC-A8): player 0 has two turns in a row without collecting (a Stopwatch
    extra turn), then player 1 collects: that collection starts the count again for everyone, so
    player 0 collecting and player 1 not collecting does not end the game. (Caught the
    ``True in streak`` idiom, which tests ``== 1``: had the streak counted turns, the 2 of player 0
    would have hidden it from the reset and the game would have ended here.)"""
    s = position(board={"a5": M1, "e5": M2, "a3": M3}, token="c3", held={0: ["stopwatch"]})
    play(s, use("stopwatch"), move("c1"))  # player 0: nothing
    play(s, move("a1"))  # player 0's extra turn: nothing
    assert s.current_player() == 1 and s.streak == [True, False]
    play(s, move("a5"))  # player 1 collects
    assert not any(s.streak)
    play(s, move("e5"))  # player 0 collects
    play(s, move("e1"))  # player 1: nothing
    assert not s.is_terminal() and s.current_player() == 0
    play(s, move("a1"))  # player 0: nothing: each has had a turn without collecting since
    assert s.is_terminal()


@pytest.mark.parametrize("config", Game.conformance_configs, ids=str)
def test_end_random_games_end_exactly_when_the_rulebook_says(config, monkeypatch):
    """Ending the Game, checked on random games against a tally kept here from each turn's outcome
    (independent of how ``State`` records it): competitive, the game ends after the first turn by
    which every player has had a turn without collecting since the last collection (AC-A8);
    co-operative, after the first turn without collecting."""
    turns = []
    real_end_turn = State._end_turn

    def end_turn(self):
        turns.append((self.turn_player, self.collected))
        real_end_turn(self)

    monkeypatch.setattr(State, "_end_turn", end_turn)
    game = Game(**config)
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state(seed)
        turns.clear()
        passed = set()  # seats with a turn without collecting since the last collection
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            while turns:
                seat, collected = turns.pop(0)
                if collected:
                    passed.clear()
                else:
                    passed.add(seat)
                ended = not collected if game.cooperative else len(passed) == game.num_players
                assert state.phase in (R.SATCHEL, R.OVER) if ended else state.phase not in (R.SATCHEL, R.OVER)
        assert ended
