"""Ethnos (1st edition, 2-6 players). See ``env.py`` for the env docs and ``RULES.md``."""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
