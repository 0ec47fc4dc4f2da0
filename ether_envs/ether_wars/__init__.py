"""Ether Wars (2-4 players, dice placement and area control). See ``env.py`` for the env docs and ``RULES.md``.

Files:

* ``components.py``: component data (areas, resources, dice, factions, ability cards,
  Events, Favours, token pools) and every constant, each beside its rulebook quote or
  assumption id; the one place a variant changes.
* ``codec.py``: the action codec (blocks, action ids <-> names), decision kinds, phases,
  favour-window kinds, resolution stages and modes, as plain named constants.
* ``rules.py``: ``Config``, ``Game`` and ``State``: fields, setup, the round structure
  (``_phase_step``), the legal actions of each decision (``_legal_by_rule``) and their
  effects (``_apply_action``), the end, hidden information, ``clone``.
* ``favours.py``: ``FavourRules`` (rulebook "Favours"), the favour windows, a mixin of
  ``State``; the open window is a ``FavourWindow``.
* ``resolution.py``: ``ResolutionRules`` (rulebook "Resolution": combat, extraction,
  channelling, Silo raids, market, factory), a mixin of ``State``; the area being
  resolved is an ``AreaResolution``.
* ``fast.py``: the engine's fast paths (placement bit masks, the legal-action cache, the
  area action table), each tested against the plain rule in
  ``tests/ether_wars/test_fast_path.py``.
* ``observation.py``: the observation encoder; ``text.py``: what each seat is shown as
  text; ``env.py``: the PettingZoo AEC env and its docs; ``RULES.md``: rulebook clauses
  -> code -> tests, the state machine and the assumptions ``EW-A<n>``.
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
