"""Declarative facts about a game (OpenSpiel's ``GameType`` + ``GameInfo``)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game is, independent of any one configuration.

    Attributes:
        name: registry name, e.g. ``"aethermon_collect"``.
        version: env version; bumped on any change to rules, observation layout,
            action codec or reward (``ether/<name>-v<version>``).
        min_players, max_players: supported player counts (inclusive).
        information: ``"perfect"`` or ``"imperfect"`` (some configurations may
            still be perfect; see ``Game.has_hidden_information``).
        chance: ``"none"`` or ``"sampled"`` (chance outcomes are drawn from the
            state's ``numpy.random.Generator`` inside ``apply_action``).
        utility: ``"zero_sum"`` (competitive), ``"identical"`` (cooperative) or
            ``"general"``; may depend on the configured mode.
        title: the published title, for humans.
    """

    name: str
    version: int
    min_players: int
    max_players: int
    information: str
    chance: str
    utility: str
    title: str
