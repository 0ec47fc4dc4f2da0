"""Etherium (2-4 players, secret simultaneous programming). See ``env.py`` for the env docs and ``RULES.md``."""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
