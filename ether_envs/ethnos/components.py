"""Ethnos (1st edition) component data: tribes, kingdoms, Ally cards, tokens and
scoring tables.

Facts from the rulebook cite its section; facts from the public research notes
cite them as ``research §1.x`` (FOUND facts); choices among conflicting or
missing sources are assumptions with an id listed in ``RULES.md`` (``ETH-A<n>``).

Cards are handled by *kind*: two Ally cards of the same tribe and the same
Kingdom colour are identical for every rule, so a hand, the face-up row or a
band is a vector of counts over the 67 kinds::

    kind = rank * 6 + colour    for the 11 coloured tribes (rank: their order in TRIBES, Skeletons skipped)
    kind = 66                   for Skeletons (no colour)
"""

from __future__ import annotations

import numpy as np

# ---- Tribes (rulebook: 12 tribes; English-edition names) ---------------------
TRIBES: tuple[str, ...] = (
    "Centaurs", "Dwarves", "Elves", "Giants", "Halflings", "Merfolk",
    "Minotaurs", "Orcs", "Skeletons", "Trolls", "Wingfolk", "Wizards",
)
NUM_TRIBES = len(TRIBES)
(CENTAURS, DWARVES, ELVES, GIANTS, HALFLINGS, MERFOLK,
 MINOTAURS, ORCS, SKELETONS, TROLLS, WINGFOLK, WIZARDS) = range(NUM_TRIBES)

LEADER_POWERS: dict[str, str] = {  # research §1.1 (FOUND), paraphrased; X = cards in the band
    "Centaurs": "If this band placed a Control marker, you may play another band before discarding.",
    "Dwarves": "At the end of the Age this band scores as X + 1 cards.",
    "Elves": "Instead of discarding your whole hand, you may keep up to X cards.",
    "Giants": "If this is the biggest band led by a Giant this Age, take the Giant token (and its Glory).",
    "Halflings": "This band places no Control marker (24 cards: 4 per colour).",
    "Merfolk": "Advance X spaces on the Merfolk track; each checkpoint reached gives a free Control marker.",
    "Minotaurs": "For placing a Control marker this band counts as X + 1 cards.",
    "Orcs": "Put a marker on the space of your Orc Horde board matching the Leader's colour.",
    "Skeletons": "Cannot be Leader; wild in any band; removed before band scoring.",
    "Trolls": "Take the unclaimed Troll token of value X, or else the highest one below X.",
    "Wingfolk": "You may place your Control marker in any Kingdom.",
    "Wizards": "Draw X cards from the deck (beyond the hand limit; Dragons count).",
}

# ---- Kingdoms (rulebook: 6 Kingdoms, one per card colour; research §1.10 colours) ----
KINGDOMS: tuple[str, ...] = ("Blue", "Gray", "Green", "Orange", "Purple", "Red")
NUM_KINGDOMS = len(KINGDOMS)

# ---- Card kinds ----------------------------------------------------------------
COLOURED_TRIBES: tuple[int, ...] = tuple(t for t in range(NUM_TRIBES) if t != SKELETONS)
SKELETON_KIND = len(COLOURED_TRIBES) * NUM_KINGDOMS  # 66
NUM_KINDS = SKELETON_KIND + 1  # 67
NUM_LEADER_KINDS = SKELETON_KIND  # 66: a Skeleton never leads (research §1.9)
DRAGON = NUM_KINDS  # 67: value of a Dragon card in the deck array

KIND_TRIBE = np.array([t for t in COLOURED_TRIBES for _ in range(NUM_KINGDOMS)] + [SKELETONS], dtype=np.int64)
KIND_COLOUR = np.array([c for _ in COLOURED_TRIBES for c in range(NUM_KINGDOMS)] + [-1], dtype=np.int64)
# research §1.9 / §1.10: 12 cards per tribe, 2 per colour; Halflings 24 (4 per colour); Skeletons 12, no colour
KIND_COPIES = np.array([4 if t == HALFLINGS else 2 for t in KIND_TRIBE[:SKELETON_KIND]] + [12], dtype=np.int64)
TRIBE_KINDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(int(k) for k in np.flatnonzero(KIND_TRIBE == t)) for t in range(NUM_TRIBES)
)
KIND_NAMES: tuple[str, ...] = tuple(
    "Skeleton" if k == SKELETON_KIND else f"{TRIBES[KIND_TRIBE[k]]}/{KINGDOMS[KIND_COLOUR[k]]}"
    for k in range(NUM_KINDS)
)
TRIBE_CARDS = {t: int(sum(KIND_COPIES[k] for k in TRIBE_KINDS[t])) for t in range(NUM_TRIBES)}
NUM_ALLY_CARDS = sum(TRIBE_CARDS.values())  # 156
NUM_DRAGONS = 3  # rulebook components

# ---- Rule constants (rulebook) ---------------------------------------------------
HAND_LIMIT = 10  # "Votre main est limitée à 10 cartes"
MAX_BAND = 10  # "un groupe de 1 à 10 cartes"
MARKERS_PER_PLAYER = 26  # "156 marqueurs de Contrôle, 26 par couleur"
TRIBES_IN_PLAY = {2: 5, 3: 5, 4: 6, 5: 6, 6: 6}  # rulebook setup 4 and 2-3-player changes
MIN_PLAYERS, MAX_PLAYERS = 2, 6  # rulebook "2 à 6 joueurs"
NUM_AGES = {2: 2, 3: 2, 4: 3, 5: 3, 6: 3}  # rulebook "trois Ères (deux dans une partie à 2-3 joueurs)"
MAX_AGES = max(NUM_AGES.values())  # 3


def board_side(num_players: int) -> str:
    """Merfolk board / Giant token side (rulebook "Mise en place" 5): ``"large"`` in the game of
    ``MAX_AGES`` Ages (4-6 players), ``"small"`` in the shorter game (2-3 players)."""
    return "large" if NUM_AGES[num_players] == MAX_AGES else "small"


def uses_4plus_glory_tokens(num_players: int) -> bool:
    """Rulebook "Mise en place" 2: the six "4+" Glory tokens are removed in the game of fewer Ages
    (2-3 players); with them each Kingdom has one token per Age."""
    return NUM_AGES[num_players] == MAX_AGES

# ---- Band Glory by size (research §1.2, FOUND); index = size, 6+ -> 15 ----------
BAND_GLORY = (0, 0, 1, 3, 6, 10, 15)

# ---- Glory tokens (research §1.3, PARTIAL -> ETH-A1) ------------------------------
GLORY_TOKENS_4PLUS = (0, 4, 4, 6, 6, 10)  # the six "4+" tokens (FOUND in S1 and S4)
GLORY_TOKEN_SETS = {  # the other twelve (used by every player count)
    "S4": (0, 2, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10),  # default: symmetric 2-3-4-4-3-2 full set
    "S1": (0, 2, 2, 4, 4, 6, 6, 6, 8, 8, 8, 10),
}
MAX_GLORY_TOKEN = 10

# ---- Troll tokens (research §1.8, FOUND) ------------------------------------------
TROLL_TOKENS = (1, 2, 3, 4, 5, 6)

# ---- Merfolk track (research §1.5, PARTIAL -> ETH-A2) ------------------------------
MERFOLK_CHECKPOINTS = (3, 7, 12, 18)
MERFOLK_TRACK_END = 18  # advances stop at the last space (ETH-A3)
MERFOLK_AGE_GLORY = {"large": (1, 2, 4), "small": (1, 3)}  # board side: 4-6 players / 2-3 players

# ---- Giant token (research §1.7, PARTIAL -> ETH-A4) ---------------------------------
GIANT_TAKE_GLORY = 2
GIANT_AGE_GLORY = {"large": (2, 4, 6), "small": (2, 5)}  # token side: 4-6 players / 2-3 players

# ---- Orc Horde board (research §1.6, PARTIAL -> ETH-A5); index = markers ------------
ORC_GLORY = (0, 1, 3, 6, 10, 15, 20)

# ---- Validation of the counts the rulebook fixes -----------------------------------
assert NUM_KINDS == 67 and NUM_ALLY_CARDS == 156
assert all(TRIBE_CARDS[t] == (24 if t == HALFLINGS else 12) for t in range(NUM_TRIBES))
assert len(GLORY_TOKENS_4PLUS) + len(GLORY_TOKEN_SETS["S4"]) == 18 == 3 * NUM_KINGDOMS
assert all(len(s) == 12 for s in GLORY_TOKEN_SETS.values())
assert len(TROLL_TOKENS) == 6
assert tuple(NUM_AGES) == tuple(TRIBES_IN_PLAY) == tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
# one Glory token per Kingdom and Age, and one Merfolk / Giant end-of-Age Glory per Age, on each side
assert all(len(GLORY_TOKEN_SETS[s]) + (len(GLORY_TOKENS_4PLUS) if uses_4plus_glory_tokens(n) else 0)
           == NUM_AGES[n] * NUM_KINGDOMS for s in GLORY_TOKEN_SETS for n in NUM_AGES)
assert all(len(MERFOLK_AGE_GLORY[board_side(n)]) == len(GIANT_AGE_GLORY[board_side(n)]) == NUM_AGES[n]
           for n in NUM_AGES)
assert len(MERFOLK_AGE_GLORY["large"]) == len(GIANT_AGE_GLORY["large"]) == MAX_AGES
