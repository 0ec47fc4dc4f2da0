"""Ether Wars (2-4 players, dice placement and area control): place dice on the board's
areas, resolve each area (combat, extraction, market, factory, channelling Ether, Silo raids)
and be the first to hold enough Ether. See ``env.py`` for the env docs and ``RULES.md`` for
the rulebook map and the state machine.

Files:

- ``components.py``: the component data and every constant, each beside its rulebook quote
  or assumption id: areas, resources and extraction costs, dice, factions, ability cards,
  Events, Favours, token pools. The one place a variant changes.
- ``codec.py``: the action codec (``CODEC``: blocks, action ids <-> names), the decision
  kinds, the phases, the favour-window kinds, the resolution stages and modes.
- ``rules.py``: ``Config``, ``Game``, ``State``: fields, setup, clone, the round structure
  (``_phase_step``), the legal actions of each decision (``_legal_by_rule``) and their
  effects (``_apply_action``), the end, hidden information.
- ``favours.py``: ``FavourRules``, the mixin of ``State`` for rulebook "Favours": the favour
  windows (the open window is a ``FavourWindow``).
- ``resolution.py``: ``ResolutionRules``, the mixin of ``State`` for rulebook "Resolution":
  combat, extraction, channelling, Silo raids, market, factory (the area being resolved is
  an ``AreaResolution``).
- ``fast.py``: the fast paths (placement bit masks, the legal-action cache, the area action
  table), each tested against its plain rule in ``tests/ether_wars/test_fast_path.py``.
- ``observation.py``: the observation encoder; ``text.py``: what each seat is shown as
  text; ``env.py``: the PettingZoo env and its documentation.
- ``RULES.md``: rulebook clauses -> code -> tests, the state machine and the assumptions
  (``EW-A<n>``).
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
