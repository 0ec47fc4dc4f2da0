"""Aethermon: Collect (2-4 players, competitive or co-operative). See ``env.py`` for the env docs and ``RULES.md``."""

from .rules import Config, Game, State

__all__ = ["Config", "Game", "State"]
