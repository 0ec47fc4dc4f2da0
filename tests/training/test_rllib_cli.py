"""``ether-envs train --backend rllib`` without Ray installed: a clear error, not a traceback
(runs with or without the distributed extra)."""

import sys

from training import cli


def test_train_backend_rllib_without_ray_exits_2_naming_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray.rllib", None)  # import ray.rllib -> ImportError
    assert cli.main(["train", "aethermon_collect", "--backend", "rllib", "--iterations", "1"]) == 2
    err = capsys.readouterr().err
    assert "needs Ray RLlib" in err and "[distributed]" in err


def test_train_parser_default_backend_is_sb3_and_rllib_options_parse():
    ns = cli.build_parser().parse_args(["train", "ethnos", "--backend", "rllib", "--address", "auto",
                                        "--num-env-runners", "3", "--minibatch-size", "128"])
    assert (ns.backend, ns.address, ns.num_env_runners, ns.minibatch_size) == ("rllib", "auto", 3, 128)
    assert cli.build_parser().parse_args(["train", "ethnos"]).backend == "sb3"
