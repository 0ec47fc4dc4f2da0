"""Aetherspire — PettingZoo AEC environment.

| | |
|---|---|
| Import | `ether_envs.make("aetherspire", num_players=1..4, difficulty=1..4)` or `pettingzoo.make("aec", "ether/aetherspire-v1")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `agents = ["player_0", ..., "player_{n-1}"]`, clockwise seating; 1 agent in the solo game |
| Agents (count) | 1, 2, 3 or 4 |
| Action shape | (1,) |
| Action values | Discrete(687) |
| Observation shape | `{"observation": (9715,) float32, "action_mask": (687,) int8}` |
| Observation values | [0, 1] |

A cooperative 3-D tile-placement and tower-defence game: the heroes build four
spires (four floors of one element, one above the other) while invaders drawn
from a bag infest the fortress and attack the aethercore. Each turn: supply
(draw a floor tile, optional exchange, 3 invaders to the elemental wheel as
shards, roll 5 dice), build (place pillars with dice, build floors, cast
spells with shards, complete spires, character actions; any order, as often
as allowed), invasion (advance the invader track, awaken aether fiends, place
the drawn invaders). Rules: ``RULES.md`` beside this file (rulebook map and
assumptions ``ASP-A*``). The fortress representation (per tile id, space slot
``tile*8+k`` and room slot ``tile*3+r``) is pictured in ``rules.py``.

## Configuration
`num_players` (1-4, default 2), `difficulty` (1-4, default 1; rulebook
"Difficulty Modes"), `characters` (names or None = dealt at random),
`fiend_level` (0 random per element, or the level set 1-4), `adaptations`
(0-4 dealt), `jump` (track spaces down / extra cores), `start_tile` (setup
steps 11-12), `reward` ("win" | "score"), plus the env options `render_mode`
("ansi" | "human"), `illegal_action` ("raise" | "lose") and `max_steps`.
See :class:`~ether_envs.aetherspire.rules.Config`.

## Observation
Seat-relative (index 0 = the observer, then the others clockwise), padded to 4
seats, all values in [0, 1]. `env.unwrapped.observation_layout()` returns these
slices:

| Slice | Name | Shape | Range | Meaning |
|---|---|---|---|---|
| 0-2469 | tiles | (38, 65) | [0, 1] | per tile id: where it is, side, level (/10, capped at 1), what it lies on, spire, size, standard-side elements; see observation.TILE_FEATURES |
| 2470-7637 | spaces | (304, 17) | [0, 1] | per space tile*8+k: exists in the fortress, open, pillar, invader element, die requirement masks (printed); see observation.SPACE_FEATURES |
| 7638-9005 | rooms | (114, 12) | [0, 1] | per room slot tile*3+r: exists, open, complete, covered by a floor, size, element mask, holds a spire topper; see observation.ROOM_FEATURES |
| 9006-9010 | dice | (5,) | [0, 1] | unused dice per face (earth, air, fire, water, star) / 8 |
| 9011-9015 | reroll_marks | (5,) | [0, 1] | dice marked for the reroll per face / 8 |
| 9016-9019 | shards | (4,) | [0, 1] | shards on the elemental wheel per element / 10 |
| 9020-9023 | bag | (4,) | [0, 1] | invaders in the bag per element / 10 (order hidden) |
| 9024-9027 | aside | (4,) | [0, 1] | invaders set aside on defeated fiends per element / 10 |
| 9028-9031 | incoming | (4,) | [0, 1] | invaders drawn and still to enter (or to be placed), per element / 10 |
| 9032-9035 | walls | (4,) | [0, 1] | wall of each element standing |
| 9036-9036 | cores | (1,) | [0, 1] | aethercore tokens / 5 |
| 9037-9037 | pillar_supply | (1,) | [0, 1] | pillar cubes left / 50 |
| 9038-9061 | track | (24,) | [0, 1] | invader track token space one-hot (0 Start .. 23 Lose) |
| 9062-9064 | stack_sizes | (3,) | [0, 1] | tiles left in the small, medium, large stacks / 16 |
| 9065-9108 | fiends | (4, 11) | [0, 1] | per element: track slot, level (if face-up or fixed set), level unknown, awake, defeated |
| 9109-9136 | adaptations | (4, 7) | [0, 1] | per element: adaptation tucked under its fiend, then completed |
| 9137-9140 | bonus_used | (4,) | [0, 1] | spire completion bonus tokens used |
| 9141-9200 | characters | (4, 15) | [0, 1] | per relative seat: character one-hot |
| 9201-9204 | seat_present | (4,) | [0, 1] | 1 for seats in the game |
| 9205-9208 | turn_player | (4,) | [0, 1] | relative seat of the active player (zeros at the end) |
| 9209-9213 | phase | (5,) | [0, 1] | one-hot: setup, supply, build, invasion, over |
| 9214-9241 | step | (28,) | [0, 1] | pending step one-hot (index 0: the build step's main choice); see codec.STEP_NAMES |
| 9242-9545 | step_space | (304,) | [0, 1] | space of the pending step (pillar being paid for, invader being moved) |
| 9546-9583 | step_tile | (38,) | [0, 1] | reserve tile being built, or floor tile being topped |
| 9584-9697 | step_room | (114,) | [0, 1] | room chosen by the pending Ice Beam |
| 9698-9701 | step_element | (4,) | [0, 1] | element of the invader entering / being set aside, or of the spire being completed |
| 9702-9703 | step_count | (2,) | [0, 1] | pending step counters / 8 (remaining targets, die index) |
| 9704-9705 | flags | (2,) | [0, 1] | reroll-any used this turn, Anchored free pillar used this turn |
| 9706-9709 | difficulty | (4,) | [0, 1] | difficulty one-hot 1..4 |
| 9710-9713 | num_players | (4,) | [0, 1] | one-hot 1..4 |
| 9714-9714 | turns | (1,) | [0, 1] | turns played / 30 |

Everything on the table is public. Hidden: the order of the invader bag and of
the tile stacks (their contents are known by count), and, with random fiend
sets (`fiend_level=0`), the level of a dormant aether fiend.

## Actions
One `Discrete(687)` for every player count. Spaces are `tile*8 + k` (k-th
pillar space of the tile's face-up side), room slots `tile*3 + r`; tile ids
are in `components.TILES` (small 0-15, medium 16-27, large 28-37).

| Ids | Block | Index meaning |
|---|---|---|
| 0 | END_BUILD | end the build step (the invasion step follows) |
| 1 | PASS | decline an optional choice (no exchange, stop crystallizing, ...) |
| 2-4 | DRAW | draw a floor tile of size 0 small / 1 medium / 2 large, standard side up |
| 5-7 | DRAW_MULTI | draw a floor tile of size 0/1/2 multi side up (Floor Crafting 3rd shard, bonus, multi_supply passive) |
| 8-45 | EXCHANGE | discard reserve tile t to the bottom of its stack and draw a new one of its size |
| 46-349 | SPACE | space tile*8+k: in the build step place a pillar there by discarding dice; in a pending choice the target space (invader, pillar, destination) |
| 350-354 | DIE | use/discard one unused die showing face 0 earth, 1 air, 2 fire, 3 water, 4 star |
| 355-359 | REROLL | reroll any (once per turn): mark one more unused die of face f |
| 360 | ROLL | reroll the marked dice |
| 361-398 | BUILD | build floor tile t from the reserve (then choose where) |
| 399-401 | FOUNDATION | place the chosen large floor on empty foundation 0..2 |
| 402-515 | ROOM | place the chosen floor, or the spire topper, on room slot tile*3+room |
| 516-520 | SPELL | cast 0 Mudslide, 1 Ice Beam, 2 Lava Bomb, 3 Firestorm, 4 Floor Crafting |
| 521-524 | SHARD | spend / set aside one shard of element e |
| 525-676 | SPIRE | complete the spire of element e (index tile*4+e) topped on floor tile (then ROOM: the small room the topper goes in, where the floor has several) |
| 677-680 | BONUS | choose spire completion bonus 0..3 |
| 681 | TRIGGER | use your character's trigger action |
| 682 | FREE_PILLAR | Anchored (completed): place 1 pillar ignoring requirements (once per turn) |
| 683-686 | ELEMENT | choose element e: the next invader to enter, or the wall to restore |

Multi-part actions are short sequences of decisions by the same agent, e.g. a
pillar: `SPACE(s)` then one `DIE(face)` per die the space needs; a floor:
`BUILD(t)` then `FOUNDATION(f)` or `ROOM(r)`; Floor Crafting: `SPELL(4)`,
`SHARD(e)` twice, `DRAW(size)` or `DRAW_MULTI(size)` (+ a 3rd `SHARD`), then
`EXCHANGE(t)` or `PASS`; a spire: `SPIRE(t*4+e)`, then `ROOM(r)`, the small
room of the top floor the spire topper goes in (ASP-A13). A step with a single
option is resolved automatically. Example: placing a pillar on space 2 of tile 33 is action
`46 + 33*8 + 2 = 312`; paying it with a star die is then action `350 + 4 = 354`.

## Action mask
`obs["action_mask"][a] == 1` iff action `a` is legal for this agent now; all
zeros for agents not to act and at the end.

## Rewards
Terminal only and identical for every agent (the team's result).
`reward="win"` (default): +1 when the fourth spire topper is placed, -1 on a
loss. `reward="score"` (ASP-A20): 1.0 on a win, else spires completed / 4.
`infos[agent]` at the end holds `scores` (spires completed), `won`,
`loss_reason` ("aethercore" | "invader track" | "no pillars") and `spires`.

## Termination and truncation
The game ends immediately on the win or on a loss (last aethercore token
destroyed; track token on the Lose space; no pillar cubes at the start of a
turn). `max_steps` (default: a bound no game reaches) truncates every agent.

## Version history
* v0: first release (2026-11-30).
* v1 (2026-12-04): a spire topper closes only the small room it stands in (ASP-A13; observation
  9,600 -> 9,715) and chance is drawn in batches, which changed every seeded deal. See CHANGELOG.md.
"""

from ..core.aec import BoardGameEnv, wrap
from .rules import Game


class raw_env(BoardGameEnv):
    """Aetherspire AEC env without wrappers (see the module docstring)."""

    metadata = {"name": "aetherspire_v1", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}
    game_class = Game


def env(**kwargs):
    """The wrapped env (``OrderEnforcingWrapper``; ``TerminateIllegalWrapper`` if
    ``illegal_action="lose"``). Keyword arguments: see the module docstring."""
    return wrap(raw_env(**kwargs))
