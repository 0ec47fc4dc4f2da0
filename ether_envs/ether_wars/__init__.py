"""Ether Wars (2-4 players, dice placement and area control). See ``env.py`` for the env docs and ``RULES.md``."""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
