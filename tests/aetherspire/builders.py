"""Scenario builders for Aetherspire tests: exact positions on a blank build step.

Tile ids (components.TILES): small 4e..4e+3 (e = 0 earth, 1 air, 2 fire, 3 water;
+0/+1 [E][E], +2 [E][*], +3 special tile without rooms), medium 16+3e (+0/+1 one
medium room [E][E][E][*], +2 two small rooms), large 28+2e (one large room,
space 5 needs two dice) and 29+2e (divided), 36 earth/water, 37 fire/air.
Spaces are ``tile*8+k``, room slots ``tile*3+r``, foundations ``-2-f``.
"""

from ether_envs.aetherspire import codec as K
from ether_envs.aetherspire import components as C
from ether_envs.aetherspire.codec import CODEC
from ether_envs.aetherspire.rules import Game

EARTH, AIR, FIRE, WATER, STAR = 0, 1, 2, 3, 4


def sp(t: int, k: int) -> int:
    return t * C.MAX_SPACES + k


def room(t: int, r: int) -> int:
    return t * C.MAX_ROOMS + r


def found(f: int) -> int:
    return -2 - f


def scenario(num_players=1, difficulty=2, characters=None, seed=0, **cfg):
    """A state on a blank build step of player 0: empty fortress, full sorted
    stacks, sorted full bag, no dice, no shards, nothing pending."""
    chars = characters or ("Geomancer", "Stormcaller", "Pyromancer", "Tidebinder")[:num_players]
    s = Game(num_players=num_players, difficulty=difficulty, characters=chars, **cfg).new_initial_state(seed)
    s.queue = []
    s.phase = K.BUILD
    s.turn_player = 0
    s.reserve = []
    s.side = [0] * C.NUM_TILES
    s.stacks = [list(C.TILES_BY_SIZE[z]) for z in range(3)]
    s.stack_known = [0, 0, 0]
    s.found_tile = [-1] * 3
    s.room_tile = [-1] * C.NUM_ROOM_SLOTS
    s.base_of = [-1] * C.NUM_TILES
    s.level = [0] * C.NUM_TILES
    s.pillar = [0] * C.NUM_SPACE_SLOTS
    s.invader = [-1] * C.NUM_SPACE_SLOTS
    s.pillars_used = 0
    s.bag = sorted([e for e in range(4) for _ in range(10)])
    s.shards = [0] * 4
    s.dice = [0] * 5
    s.incoming = []
    s.track = 0
    s.awake = [False] * 4
    return touch(s)


def touch(s):
    """Invalidate caches after editing a state by hand (``State.invalidate_caches`` renews every
    stamp and drops every cached list)."""
    s.invalidate_caches()
    return s


def fortress_contents(view) -> tuple:
    """A ``fast.FortressView``'s lists, without its stamp (to compare two views)."""
    return view.open_spaces, view.invader_spaces, view.free_spaces, view.buildable_rooms, view.spire_options


def floor(s, t: int, where: int, side: int = 0):
    """Put tile ``t`` in the fortress (no placement effect)."""
    for st in s.stacks:
        if t in st:
            st.remove(t)
    if t in s.reserve:
        s.reserve.remove(t)
    s.side[t] = side
    phase, s.phase = s.phase, K.SETUP
    s._place_floor(t, where)
    s.phase = phase
    return touch(s)


def reserve(s, t: int, side: int = 0):
    for st in s.stacks:
        if t in st:
            st.remove(t)
    s.side[t] = side
    s.reserve = sorted(s.reserve + [t])
    return touch(s)


def pillars(s, *spaces):
    for q in spaces:
        s.pillar[q] = 1
        s.pillars_used += 1
    return touch(s)


def invaders(s, placed: dict):
    """Put invaders ``{space: element}`` taken from the bag."""
    for q, e in placed.items():
        s.bag.remove(e)
        s.invader[q] = e
    return touch(s)


def fill_room(s, slot: int):
    """A pillar on every space of room ``slot`` (a completed room)."""
    t = slot // C.MAX_ROOMS
    return pillars(s, *C.ROOMS[s.side[t]][slot].spaces)


def next_draws(s, *elements):
    """Make the next invaders drawn from the bag be ``elements`` (in order)."""
    for e in elements:
        s.bag.remove(e)
    s.bag += list(reversed(elements))
    return touch(s)


def give_shards(s, *elements):
    for e in elements:
        s.bag.remove(e)
        s.shards[e] += 1
    return touch(s)


def set_dice(s, earth=0, air=0, fire=0, water=0, star=0):
    s.dice = [earth, air, fire, water, star]
    return touch(s)


def a(block: str, i: int = 0) -> int:
    return CODEC.encode(block, i)


def act(s, block: str, i: int = 0):
    s.apply_action(a(block, i))
    return s


def legal(s, block: str, i: int = 0) -> bool:
    return a(block, i) in s.legal_actions()
