"""Ethnos (1st edition, 2-6 players): recruit Allies, play bands of one tribe or one
Kingdom, place Control markers and score Glory over two or three Ages. See ``env.py`` for
the env docs and ``RULES.md`` for the rulebook map.

Files:

- ``components.py``: the component data and every constant, each beside its rulebook quote,
  research note or assumption id: tribes, card kinds and copies, Kingdoms, Glory tokens,
  the band table, the Merfolk track, the Orc Horde, the Troll and Giant tokens. The one
  place a variant changes (or the ``Config``).
- ``codec.py``: the action codec (``CODEC``: blocks, action ids <-> names), the first action
  id of each block, the decisions of a turn and the phases.
- ``rules.py``: ``Config``, ``Game``, ``State``: fields (the ``cards`` and ``tally`` tables
  and their views), setup of an Age, clone, legal actions, the turn (recruiting, bands,
  Control markers, the Leaders' powers, the discard), the end of an Age and its scoring,
  the end of the game, hidden information.
- ``fast.py``: the fast paths (card counts kept in step with the ``cards`` rows, the journal
  of changed cells the incremental encoder replays, the clones' shared generator), each
  tested against its plain rule in ``tests/ethnos/test_fast_path.py`` and
  ``test_observation_cache.py``.
- ``observation.py``: the (incremental) observation encoder; ``text.py``: what each seat is
  shown as text; ``env.py``: the PettingZoo env and its documentation.
- ``RULES.md``: rulebook clauses -> code -> tests, and the assumptions (``ETH-A<n>``).
"""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
