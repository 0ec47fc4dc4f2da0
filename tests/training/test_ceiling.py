"""The perfect-information yardstick of Aetherspire (training/ceiling.py)."""

import pytest

import ether_envs
from agents import AGENT_KINDS
from training import ceiling


def test_perfect_information_search_reads_the_true_state_and_is_no_agent_spec(monkeypatch):
    game = ether_envs.load_game("aetherspire")
    state = game.new_initial_state(seed=3)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
    cls = type(state)

    def no_determinization(self, player, rng):
        raise AssertionError("the perfect-information search drew a determinization")

    monkeypatch.setattr(cls, "resample_hidden", no_determinization)
    search = ceiling.PerfectInformationSearch(game, rollouts=1)
    assert search.act(state, state.current_player()) in state.legal_actions()
    assert "perfect" not in " ".join(AGENT_KINDS)


def test_ceiling_rows_and_table(tmp_path, capsys):
    rows = ceiling.main(["--agents", "heuristic", "--difficulties", "1", "2", "--deals", "1", "--workers", "1",
                         "--rollouts", "1", "--out", str(tmp_path)])
    assert [(r["difficulty"], r["team"], r["cheats"]) for r in rows] == [
        (1, "heuristic", False), (1, ceiling.PERFECT, True), (2, "heuristic", False),
        (2, ceiling.PERFECT, True)]
    assert (tmp_path / "ceiling_2p.csv").exists()
    text = (tmp_path / "ceiling_2p.md").read_text()
    assert "sees hidden tiles and the bag: not an agent" in text and "| team | difficulty 1 | difficulty 2 |" in text


def test_ceiling_refuses_a_bad_difficulty(tmp_path):
    with pytest.raises(SystemExit):
        ceiling.main(["--difficulties", "9", "--deals", "1", "--out", str(tmp_path)])


def test_a_shipped_net_is_skipped_where_it_refuses_the_configuration():
    """The shipped nets play difficulty 1 only: at difficulty 2 the team is skipped with a line,
    not a crash (they raise a plain ValueError, not ModelMismatchError)."""
    lines = []
    rows = ceiling.run(["pretrained"], [2], deals=1, workers=1, log=lines.append, perfect=False)
    assert rows == [] and "difficulty 2, 2 players: pretrained: skipped" in lines[0]


def test_ceiling_refuses_repeated_agents_and_a_file_as_out(tmp_path):
    with pytest.raises(SystemExit):
        ceiling.main(["--agents", "heuristic", "heuristic", "--deals", "1", "--out", str(tmp_path)])
    (tmp_path / "f").write_text("")
    with pytest.raises(SystemExit):
        ceiling.main(["--agents", "heuristic", "--deals", "1", "--out", str(tmp_path / "f")])
