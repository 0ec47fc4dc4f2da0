"""Aethermon: Collect component data: elements, the 48 Aethermon cards, the
Artefacts, grid sizes and co-operative targets.

Everything the rulebook does not print is an assumption with an id listed in
``RULES.md`` (``AC-A<n>``); rulebook facts cite the rulebook section.
"""

from __future__ import annotations

from dataclasses import dataclass

# ---- Elements (rulebook "Set up the Grid": 8 Elements of 6 Aethermon each) ----
ELEMENTS: tuple[str, ...] = (
    "Moonlit", "Sunstruck", "Sky", "Earth", "Fire", "Water", "Nature", "Thunder",
)  # names: AC-A1 (the sister game's eight elements, research notes §4)
CARDS_PER_ELEMENT = 6  # rulebook


@dataclass(frozen=True, slots=True)
class Card:
    """One Aethermon card.

    Attributes:
        card_id: 0..47, ``element_id * 6 + slot``.
        element_id: index into ``ELEMENTS``.
        value: printed point value (1..4).
        set_id: 0..15 (``element_id * 2 + line``), or -1 for an Aethermon in no set.
        set_size: 3, 2, or 1 for no set.
        stage: 1-based position in its evolution line.
    """

    card_id: int
    element_id: int
    value: int
    set_id: int
    set_size: int
    stage: int

    @property
    def name(self) -> str:
        e = ELEMENTS[self.element_id]
        if self.set_size == 1:
            return f"{e} single ({self.value})"
        line = "trio" if self.set_size == 3 else "duo"
        return f"{e} {line} {self.stage}/{self.set_size} ({self.value})"


# AC-A2: every element has the same six cards: a 3-card evolution line worth
# 1, 2, 3 (complete: 12 — the rulebook's "sets of three are worth 12 points"),
# a 2-card line worth 2, 3 (complete: 10) and one Aethermon in no set worth 4.
# Per element: 15 base points, 26 with both sets complete.
#                 (value, line, set_size, stage); line 0 = trio, 1 = duo, -1 = none
_ELEMENT_CARDS = ((1, 0, 3, 1), (2, 0, 3, 2), (3, 0, 3, 3), (2, 1, 2, 1), (3, 1, 2, 2), (4, -1, 1, 1))
assert len(_ELEMENT_CARDS) == CARDS_PER_ELEMENT
MAX_STAGE = max(stage for _, _, _, stage in _ELEMENT_CARDS)  # 3: the longest evolution line (AC-A2)

CARDS: tuple[Card, ...] = tuple(
    Card(e * CARDS_PER_ELEMENT + k, e, value, e * 2 + line if line >= 0 else -1, size, stage)
    for e in range(len(ELEMENTS))
    for k, (value, line, size, stage) in enumerate(_ELEMENT_CARDS)
)
NUM_CARDS = len(CARDS)  # 48
NUM_SETS = 2 * len(ELEMENTS)  # 16
SET_CARDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(c.card_id for c in CARDS if c.set_id == s) for s in range(NUM_SETS)
)
MAX_CARD_VALUE = 4
ELEMENT_MAX_POINTS = 26
"""Most points one Element's six cards score: 15 in values, 26 with both sets complete (AC-A2)."""

# per-card tables, read by card id
CARD_VALUE: tuple[int, ...] = tuple(c.value for c in CARDS)
CARD_SET: tuple[int, ...] = tuple(c.set_id for c in CARDS)
"""Set of each card (-1: in no set)."""
SET_VALUE: tuple[int, ...] = tuple(sum(CARDS[m].value for m in cards) for cards in SET_CARDS)
"""Points of each set's cards (scored again once the set is complete: rulebook "Scoring")."""
SET_OTHERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in SET_CARDS[c.set_id] if m != c.card_id) if c.set_id >= 0 else () for c in CARDS)
"""The other cards of each card's set (empty for an Aethermon in no set)."""

# ---- Grid ("Set up the Grid" table) ----------------------------------------
#            players: (elements, side, centre vacant)
GRID_BY_PLAYERS = {2: (4, 5, True), 3: (6, 6, False), 4: (8, 7, True)}
COOP_2P_GRID = GRID_BY_PLAYERS[4]  # "2-Player Co-operative: set grid and Group Token as a 4-player game"
MAX_SIDE = 7
MAX_SQUARES = MAX_SIDE * MAX_SIDE

# ---- Co-operative targets (rulebook "Co-operative Targets") ----------------
TARGET_LEVELS = ("great", "impressive", "heroic", "legendary")
COOP_TARGETS = {
    2: {"great": 105, "impressive": 120, "heroic": 135, "legendary": 142},
    3: {"great": 90, "impressive": 105, "heroic": 115, "legendary": 120},
    4: {"great": 120, "impressive": 135, "heroic": 150, "legendary": 160},
}

# ---- Artefacts ("Drafting Artefacts", "Using Artefacts") ----------------------
# timing: when the owner may use it (each at most once):
#   "turn"     – on the owner's turn before the Group Token moves; some replace the move
#   "post_move" – on the owner's turn, right after the Group Token moved
#   "game_end" – at final scoring
PRE_MOVE, POST_MOVE, GAME_END = "turn", "post_move", "game_end"


@dataclass(frozen=True, slots=True)
class Artefact:
    """Attributes: artefact_id (0..11), key, name, timing, text, source."""

    artefact_id: int
    key: str
    name: str
    timing: str
    text: str
    source: str


ARTEFACTS: tuple[Artefact, ...] = tuple(Artefact(i, *row) for i, row in enumerate((
    ("beetle", "Wind-up Beetle", PRE_MOVE,
     "Instead of moving, collect one Aethermon orthogonally adjacent to the Group Token.",
     "name: rulebook; 'adjacent' = orthogonal: rulebook clarification; effect: AC-A6"),
    ("gloves", "Boxing Gloves", PRE_MOVE,
     "Skip your turn (it counts as a turn without collecting an Aethermon).",
     "rulebook clarification"),
    ("compass", "Compass", PRE_MOVE,
     "This turn, move the Group Token diagonally any number of squares instead of a rook's move.", "AC-A6"),
    ("grappling_hook", "Grappling Hook", PRE_MOVE,
     "This turn, move the Group Token like a chess knight instead of a rook's move.", "AC-A6"),
    ("lantern", "Lantern", PRE_MOVE,
     "Before your move, step the Group Token one square orthogonally (onto a card or an empty square) "
     "without collecting; then make your move.", "AC-A6"),
    ("net", "Net", POST_MOVE,
     "After your move, also collect one Aethermon orthogonally adjacent to the Group Token that "
     "belongs to a set you have started.", "AC-A6"),
    ("trade_token", "Trade Token", PRE_MOVE,
     "Before your move, swap one Aethermon in your collection with one on the grid.", "AC-A6"),
    ("stopwatch", "Stopwatch", PRE_MOVE,
     "Take an extra turn after this one; you cannot collect on the extra turn.", "AC-A6"),
    ("fence", "Fence", POST_MOVE,
     "After your move: the next player may not move along the row the Group Token is on.", "AC-A6"),
    ("mirror", "Mirror", PRE_MOVE,
     "Use the effect of the Artefact most recently used by an opponent (at that Artefact's time).", "AC-A6"),
    ("magnet", "Magnet", PRE_MOVE,
     "Before your move, put the Group Token on any empty square (collecting nothing).", "AC-A6"),
    ("satchel", "Satchel", GAME_END,
     "At final scoring, one of your incomplete 2-card sets counts as complete (its cards are doubled).",
     "AC-A6"),
)))
ARTEFACT_BY_KEY = {a.key: a for a in ARTEFACTS}
NUM_ARTEFACTS = len(ARTEFACTS)  # 12 (AC-A5)
MAX_GROUPS = 4  # one group per player
ARTEFACTS_PER_GROUP = 2  # rulebook "Drafting Artefacts": random pairs
ARTEFACTS_PER_GROUP_TRIPLES = 3  # rulebook variant "3 Artefacts": groups of three
MAX_ARTEFACTS_PER_GROUP = max(ARTEFACTS_PER_GROUP, ARTEFACTS_PER_GROUP_TRIPLES)
(BEETLE, GLOVES, COMPASS, GRAPPLING_HOOK, LANTERN, NET, TRADE_TOKEN, STOPWATCH, FENCE, MIRROR, MAGNET,
 SATCHEL) = (ARTEFACT_BY_KEY[k].artefact_id for k in (
    "beetle", "gloves", "compass", "grappling_hook", "lantern", "net", "trade_token", "stopwatch", "fence",
    "mirror", "magnet", "satchel"))
"""Artefact ids (an Artefact's id is also the id of its effect, which a Mirror copies)."""
ARTEFACT_TIMING: tuple[str, ...] = tuple(a.timing for a in ARTEFACTS)

# ---- Validation of the counts the rulebook fixes ------------------------------
assert NUM_CARDS == len(ELEMENTS) * CARDS_PER_ELEMENT == 48
assert all(sum(CARDS[c].value for c in cards) == 6 for cards in SET_CARDS if len(cards) == 3)
assert ELEMENT_MAX_POINTS == sum(CARD_VALUE[:CARDS_PER_ELEMENT]) + SET_VALUE[0] + SET_VALUE[1]
for _players, (_elements, _side, _vacant) in GRID_BY_PLAYERS.items():
    assert _elements * CARDS_PER_ELEMENT == _side * _side - int(_vacant), _players
