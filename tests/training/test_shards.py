"""A tournament split into shards (``evaluate --shard I/N``) and pooled again (``merge``)."""

import json

import pytest

from training import cli
from training.evaluate import load_results, merge_results, parse_shard, run_tournament, shard_deals

TIMING = {"seconds", "steps_per_second"}
KW = dict(game_name="aethermon_collect", specs=["heuristic", "random", "mcts:simulations=4"], deals=5, seed=7,
          progress=False)


def _untimed(pairings):
    return [{k: v for k, v in vars(p).items() if k not in TIMING} for p in pairings]


def test_shard_deals_are_contiguous_blocks_that_cover_the_tournament_once():
    assert shard_deals(5) == [0, 1, 2, 3, 4]
    blocks = [shard_deals(10, (i, 3)) for i in (1, 2, 3)]
    assert blocks == [[0, 1, 2], [3, 4, 5], [6, 7, 8, 9]]
    for deals, n in [(200, 8), (7, 7), (13, 4)]:
        got = [d for i in range(1, n + 1) for d in shard_deals(deals, (i, n))]
        assert got == list(range(deals))
        sizes = {len(shard_deals(deals, (i, n))) for i in range(1, n + 1)}
        assert max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("deals,shard,match", [
    (5, (0, 2), "1 <= i <= n <= deals"), (5, (3, 2), "1 <= i <= n <= deals"), (2, (1, 3), "1 <= i <= n <= deals"),
    (0, None, "deals must be an int >= 1"), (5, ("a", 2), "two ints"), (5, (1,), "two ints"),
])
def test_shard_deals_refuses_bad_shards(deals, shard, match):
    with pytest.raises(ValueError, match=match):
        shard_deals(deals, shard)


def test_parse_shard():
    assert parse_shard("3/8") == (3, 8) and parse_shard("1/1") == (1, 1)
    for bad in ["3", "0/2", "3/2", "a/b", "1/", "/2", "-1/2", "1/ 2", "+1/2", "1_0/20", "\uff11/2", "1/2/3", ""]:
        with pytest.raises(ValueError, match="I/N"):
            parse_shard(bad)


def test_merged_shards_equal_the_whole_tournament(tmp_path):
    """Three shards, played in any order and merged: the same games, win rates, scores and ratings
    as the unsharded round robin (only the timings differ)."""
    whole = run_tournament(**KW)
    folders = []
    for i in (2, 3, 1):
        part = run_tournament(**KW, shard=(i, 3), out_dir=tmp_path / f"s{i}")
        assert part.shard_count == 3 and part.shards == [i] and part.deals == 5
        assert {g["deal"] for g in part.games} == set(shard_deals(5, (i, 3)))
        folders.append(tmp_path / f"s{i}")
    merged = merge_results(folders)
    assert merged.games == whole.games
    assert _untimed(merged.pairings) == _untimed(whole.pairings)
    assert merged.ratings == whole.ratings
    assert merged.shards == [1, 2, 3] and merged.shard_count == 3
    parts = [load_results(f) for f in folders]
    for k in range(len(whole.pairings)):
        assert merged.pairings[k].seconds == pytest.approx(sum(p.pairings[k].seconds for p in parts))


def test_merge_refuses_what_is_not_one_complete_tournament(tmp_path):
    kw = dict(game_name="aethermon_collect", specs=["heuristic", "random"], deals=3, seed=1, progress=False)
    for i in (1, 2, 3):
        run_tournament(**kw, shard=(i, 3), out_dir=tmp_path / f"s{i}")
    run_tournament(**{**kw, "seed": 2}, shard=(3, 3), out_dir=tmp_path / "other_seed")
    run_tournament(**kw, out_dir=tmp_path / "whole")
    s = [tmp_path / f"s{i}" for i in (1, 2, 3)]
    with pytest.raises(ValueError, match=r"shards \[2\] of 3 are missing"):
        merge_results([s[0], s[2]])
    part = merge_results([s[0], s[2]], partial=True)
    assert part.shards == [1, 3] and {g["deal"] for g in part.games} == {0, 2}
    assert part.pairings[0].games == 4
    with pytest.raises(ValueError, match="given twice"):
        merge_results([s[0], s[1], s[2], s[0]])
    with pytest.raises(ValueError, match="seed 2 != 1"):
        merge_results([s[0], s[1], tmp_path / "other_seed"])
    with pytest.raises(ValueError, match="unsharded"):
        merge_results([tmp_path / "whole", s[0]])
    with pytest.raises(ValueError, match="no tournament results"):
        merge_results([tmp_path / "nowhere"])
    with pytest.raises(ValueError, match="give the output folders"):
        merge_results([])


def test_shard_and_merge_on_the_command_line(tmp_path, capsys):
    for i in (1, 2):
        rc = cli.main(["evaluate", "aethermon_collect", "heuristic", "random", "--deals", "3", "--shard", f"{i}/2",
                       "--out", str(tmp_path / f"s{i}"), "--no-progress"])
        assert rc == 0
    out = capsys.readouterr().out
    assert "results of shard 1/2 (deal indices 0-0 of 0-2)" in out
    assert "results of shard 2/2 (deal indices 1-2 of 0-2)" in out
    rc = cli.main(["merge", str(tmp_path / "s2"), str(tmp_path / "s1"), "--out", str(tmp_path / "all")])
    assert rc == 0
    assert "2 of 2 shards (6 games) pooled" in capsys.readouterr().out
    res = json.loads((tmp_path / "all" / "results.json").read_text())
    assert res["pairings"][0]["games"] == 6 and res["shards"] == [1, 2]
    assert (tmp_path / "all" / "games.csv").read_text().count("\n") == 7
    assert cli.main(["merge", str(tmp_path / "s1"), "--out", str(tmp_path / "x")]) == 2
    assert "shards [2] of 2 are missing" in capsys.readouterr().err
    assert cli.main(["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "s1")]) == 2
    assert "is one of the shards' folders" in capsys.readouterr().err
    rc = cli.main(["evaluate", "aethermon_collect", "heuristic", "random", "--deals", "1", "--out",
                   str(tmp_path / "whole"), "--no-progress"])
    assert rc == 0 and f"results written to {tmp_path / 'whole'}/" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        cli.main(["evaluate", "aethermon_collect", "heuristic", "random", "--shard", "3/2", "--out", str(tmp_path)])
    assert "I/N with 1 <= I <= N" in capsys.readouterr().err


def test_merge_refuses_damaged_or_tampered_shards(tmp_path):
    """A results.json that is not a tournament's, or a shard whose games are not exactly its deals'
    (every pairing, deal and seat once), is refused with the file named; nothing is merged."""
    kw = dict(game_name="aethermon_collect", specs=["heuristic", "random"], deals=4, seed=1, progress=False)
    for i in (1, 2):
        run_tournament(**kw, shard=(i, 2), out_dir=tmp_path / f"s{i}")
    good = json.loads((tmp_path / "s1" / "results.json").read_text())

    def broken(name, data):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "results.json").write_text(data if isinstance(data, str) else json.dumps(data))
        return folder

    damaged = {
        "not_json": "{ cut off",
        "null": None,
        "a_list": [1, 2],
        "no_pairings": {k: v for k, v in good.items() if k != "pairings"},
        "game_without_agent": {**good, "games": [{k: v for k, v in g.items() if k != "agent"} for g in good["games"]]},
        "text_shard_count": {**good, "shard_count": "2"},
    }
    for name, data in damaged.items():
        with pytest.raises(ValueError, match=rf"{name}/results.json is not a tournament's results.json"):
            merge_results([broken(name, data), tmp_path / "s2"], partial=True)
    tampered = {
        "too_few_games": {**good, "games": good["games"][:1]},
        "relabelled": {**json.loads((tmp_path / "s2" / "results.json").read_text()), "shards": [1]},
    }
    for name, data in tampered.items():
        with pytest.raises(ValueError, match=r"does not hold exactly the games of shards \[1\] of 2"):
            merge_results([broken(name, data), tmp_path / "s2"])
