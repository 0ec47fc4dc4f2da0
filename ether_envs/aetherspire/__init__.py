"""Aetherspire (1-4 players, co-operative): build four elemental spires before the invaders
overrun the fortress. See ``env.py`` for the env docs and ``RULES.md`` for the rulebook map.

Files:

- ``components.py``: the component data and every constant, each beside its rulebook
  quote or assumption id: elements and dice, the 38 floor tiles and their slot tables
  (``NEEDS``, ``ROOMS``, ...), spells, characters, fiends, adaptations, the invader
  track and the bonus tokens. The one place a variant changes (e.g. ``DICE_ROLLED``, the
  number of supply dice: ``tests/aetherspire/test_variants.py``).
- ``codec.py``: the action codec (``CODEC``: blocks, action ids <-> names), the first
  action id of each block, the phases and the pending-step kinds.
- ``rules.py``: ``Config``, ``Game``, ``State``: fields, setup, ``clone`` (every list
  field copied; ``_clone_shared``/``_clone_rebuilt`` for the generic clone check), the
  fortress queries, legal actions and their resolution, turn structure, end and scoring,
  hidden information (``_redraw_hidden``).
- ``effects.py``: ``EffectRules``, the mixin of ``State`` for rulebook "Build step" (build
  a floor, cast a spell, complete a spire, special actions): spells, character triggers,
  floors, spires, bonuses and the state changes they are made of.
- ``fast.py``: the fast paths (stamps; the fortress caches ``FortressStructure``,
  ``FortressView`` and their update; the star-blocking cache ``StarBlocked``; the
  pillar-placement table; the build step's main choice ``build_options`` and its
  ``trigger_usable``), each tested against its plain rule in
  ``tests/aetherspire/test_fast_path.py``.
- ``observation.py``: the observation encoder; ``text.py``: what each seat is shown
  as text; ``env.py``: the PettingZoo env and its documentation.
- ``RULES.md``: rulebook clauses -> code -> tests, and the assumptions (``ASP-A<n>``).
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
