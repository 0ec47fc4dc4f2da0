"""MaskablePPO self-play training, tournaments and the ``ether-envs`` command line.

* :mod:`training.train` — the trainer (``ether-envs train``).
* :mod:`training.evaluate` — tournaments between agent specs (``ether-envs evaluate``).
* :mod:`training.selfplay` — the opponent pool (random, heuristic, frozen snapshots).
* :mod:`training.cli` — the console script.
"""
