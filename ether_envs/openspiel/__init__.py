"""The five games inside OpenSpiel (the optional extra ``openspiel``: ``pip install 'ether-envs[openspiel]'``).

Importing this module registers every ether-envs game with OpenSpiel as ``python_ether_<game>``
(``import ether_envs`` alone never imports ``pyspiel``)::

    import pyspiel
    import ether_envs.openspiel  # registers python_ether_aethermon_collect, ..._ethnos, ...

    game = pyspiel.load_game("python_ether_ethnos(num_players=3)")
    state = game.new_initial_state()
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)  # (serialize=True needs GetRNGState, which Python games lack)

**Game parameters** are the game's config fields (``ether_envs.load_game`` keywords) plus
``rng_seed``. A tuple field is a string of ``+``-separated items
(``tribes=Reces+Ertis``); an ``int | None`` or ``bool | None`` field is an int, -1 meaning
``None`` (the configuration's own default; a ``bool`` takes 0 or 1); a ``str | None`` or
``tuple | None`` field is a string, empty meaning ``None``. :func:`game_string` writes the
string of a configuration.

**Declared per configuration** (``game.get_type()``, ``game.num_distinct_actions()`` ...):
sequential dynamics; ``SAMPLED_STOCHASTIC`` chance (the engines draw chance inside
``apply_action``: no chance nodes, ``max_chance_outcomes() == 0``); perfect or imperfect
information as ``Game.has_hidden_information()`` says; utility from ``Game.utility()``
(zero-sum, general-sum or identical) with :func:`utility_range` as min/max utility (and a
utility sum of 0 when zero-sum); terminal rewards; ``max_game_length()``;
``num_distinct_actions()``. The *registered* type (``pyspiel.registered_games()``) is that of
the default configuration.

**Observations** (OpenSpiel's observer API, ``make_observation(game)``): the tensor is the
engine's seat-relative observation, the same numbers as the PettingZoo env's
``observation``, with the observation layout's pieces as ``dict``; the string is the engine's
per-seat text view ``State.observation_string(player)`` where the engine has it, else the
non-zero entries of the observation listed by piece. Perfect-recall information states
(``information_state_string/tensor``) are not provided: they would need every past
observation of every seat kept per state, which is not cheap; ISMCTS keys its nodes by
observation strings instead.

**States**: ``clone()`` goes through the engine's ``clone()``; ``resample_from_infostate(player,
sampler)`` through ``resample_hidden`` (a determinization: hidden cards, hidden deck orders and
the chance generator redrawn); ``serialize()``/``game.deserialize_state()`` through game records
(``ether_envs.records``: the seed and the actions, replayed), or the pickled engine state for
a determinization.

**Seeding** (deterministic from OpenSpiel's side): the ``k``-th initial state a loaded game
hands out (``game.new_initial_state()``, counted when first used) is deal ``rng_seed + k``,
the same deal as ``ether_envs.load_game(...).new_initial_state(seed=rng_seed + k)``, as
``env.reset(seed=rng_seed + k)`` and as deal ``k`` of ``ether-envs evaluate --seed rng_seed``;
``game.new_initial_state(seed=s)`` (Python) gives deal ``s``.

**Bots**: :class:`ISMCTSBot` and :class:`DeterminizedMCTSBot` (see :mod:`ether_envs.openspiel.bots`)
search determinizations only; as agents: ``openspiel:ismcts:...`` and ``openspiel:mcts:...``
(``agents.make_agent``). Our agents as OpenSpiel bots are on the agents' side
(``agents/openspiel_bots.py``): ``ether_envs`` imports nothing from the packages above it.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("ether_envs.openspiel needs OpenSpiel: pip install 'ether-envs[openspiel]' "
                      f"(the open_spiel package, imported as pyspiel): {e}") from e

import ether_envs

from .bots import DeterminizedMCTSBot, ISMCTSBot
from .bridge import (LIST_SEP, PREFIX, SEED_PARAM, UNSET, EtherGame, EtherObserver, EtherState,
                     config_from_params, game_class, game_info, game_string, game_type, load_game,
                     params_from_config, parameter_specification, register, utility_range)

SHORT_NAMES = tuple(register(name) for name in ether_envs.list_games())
"""The registered OpenSpiel short names, one per game."""

__all__ = ["DeterminizedMCTSBot", "EtherGame", "EtherObserver", "EtherState", "ISMCTSBot", "LIST_SEP",
           "PREFIX", "SEED_PARAM", "SHORT_NAMES", "UNSET", "config_from_params", "game_class", "game_info",
           "game_string", "game_type", "load_game", "params_from_config", "parameter_specification", "register",
           "utility_range"]


def __getattr__(name: str):
    if name == "AgentBot":  # it moved up a layer (ether_envs never imports it)
        raise AttributeError("ether_envs.openspiel.AgentBot moved to the agents package "
                             "(module agents.openspiel_bots)")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
