"""Aetherspire (1-4 players, co-operative). See ``env.py`` for the env docs and ``RULES.md``."""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
