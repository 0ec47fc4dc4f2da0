"""Aethermon: Collect (2-4 players, competitive or co-operative): move the shared Group Token
like a rook and collect the Aethermon it lands on. See ``env.py`` for the env docs and
``RULES.md`` for the rulebook map.

Files:

- ``components.py``: the component data and every constant, each beside its rulebook quote
  or assumption id: the Elements, the 48 Aethermon cards and their sets (with per-card
  tables: ``CARD_VALUE``, ``CARD_SET``, ``SET_VALUE``, ``SET_OTHERS``), the 12 Artefacts
  (ids ``BEETLE`` .. ``SATCHEL``, their timing), the grid sizes, the co-operative targets.
  The one place a variant changes.
- ``codec.py``: the action codec (``CODEC``: blocks, action ids <-> names; ``DECODED``), the
  first action id of each block, square names, the phases and ``TRADE_TAKE``.
- ``rules.py``: ``Config``, ``Game``, ``State``: fields, setup (turn order, grid, draft),
  clone, legal actions (``_legal_by_rule``), the turn (``_apply_by_rule``, ``_arrive``,
  ``_collect``, the Artefacts' effects), the end (``_end_turn``: the no-collecting
  ``streak``) and scoring (``rescored``, ``winners``), hidden information.
- ``fast.py``: the fast paths (``legal_actions``, ``is_legal``, ``use_actions``,
  ``effect_applicable``, ``apply_action`` for a rook move, the incremental scores, the
  journals the incremental encoder reads), each tested against its plain rule in
  ``tests/aethermon_collect/test_fast_path.py`` and ``test_observation_cache.py``.
- ``observation.py``: the (incremental) observation encoder; ``text.py``: what each seat is
  shown as text; ``env.py``: the PettingZoo env and its documentation.
- ``RULES.md``: rulebook clauses -> code -> tests, and the assumptions (``AC-A<n>``).
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
