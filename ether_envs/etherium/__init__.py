"""Etherium (2-4 players, secret simultaneous programming): over seven seasons, program
Action tokens, then move, gather, upgrade, transform Ether and connect, and fight over the
boxes of the board. See ``env.py`` for the env docs and ``RULES.md`` for the rulebook map
and the state machine.

Files:

- ``components.py``: the component data and every constant, each beside its rulebook quote
  or assumption id: the board (boxes, terrains, elevations, Cities), tribes, season cards,
  Flash cards, Ability tokens, Victory tokens, the Action board. The one place a variant
  changes.
- ``codec.py``: the action codec (``CODEC``: blocks, action ids <-> names; ``BLOCK_OF``,
  ``INDEX_OF``), the first action id of each block, the agenda's ``Task`` record and task
  kinds (``T_*`` automatic, ``D_*`` decisions), the Flash-card windows and the season
  phases.
- ``rules.py``: ``Config``, ``Game``, ``State``: fields, setup, clone, the agenda driver
  (``_run``, ``_apply_action``), the options of each decision, the season (reveal, draw,
  program, perform, season end), scoring (``score``, ``winners``), hidden information.
- ``actions.py``: ``ActionRules``, the mixin of ``State`` for rulebook "Actions": Move Unit,
  Gather Resources, Increase Unit Level, Transform Ether, Connect, and their decisions.
- ``conflicts.py``: ``ConflictRules``, the mixin of ``State`` for rulebook "Conflicts":
  detection, pillage, assault, siege (the conflict being resolved is a ``Battle``), ties,
  retreats, siege spoils.
- ``fast.py``: the fast path (the Move tables kept per game), tested against its plain rule
  in ``tests/etherium/test_fast_path.py``.
- ``observation.py``: the observation encoder; ``text.py``: what each seat is shown as
  text; ``env.py``: the PettingZoo env and its documentation.
- ``RULES.md``: rulebook clauses -> code -> tests, the state machine and the assumptions
  (``ETM-A<n>``).
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
