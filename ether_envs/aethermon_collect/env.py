"""Aethermon: Collect — PettingZoo AEC environment.

| | |
|---|---|
| Import | `ether_envs.make("aethermon_collect", **config)` or `pettingzoo.make("aec", "ether/aethermon_collect-v0")` |
| Actions | Discrete |
| Parallel API | No |
| Manual control | `ether-envs play aethermon_collect` |
| Agents | `agents = ["player_0", ..., "player_{n-1}"]`, clockwise seating |
| Agents (count) | 2, 3 or 4 |
| Action shape | (1,) |
| Action values | Discrete(183) |
| Observation shape | `{"observation": (2197,) float32, "action_mask": (183,) int8}` |
| Observation values | [0, 1] |

A set-collection game with shared movement: on each turn the player moves the
Group Token like a chess rook across a grid of Aethermon cards and collects the
card it lands on. Complete sets score double. Competitive players draft
single-use Artefacts; co-operative players combine scores to reach a target.
Rules: ``RULES.md`` beside this file (rulebook map and assumptions ``AC-A*``).

Who starts is decided by the rulebook's dealing procedure (the seeded deal);
the observation's ``first_player`` piece says who it is.

## Configuration
`num_players` (2-4, default 2), `mode` ("competitive" | "cooperative"),
`elements` (names, or None for random), `artefacts` ("pairs" | "triples" |
"none"), `artefact_pool`, `hidden_artefacts`, `teams` (2 vs 2),
`redistribute_artefacts`, `target` (co-op level), `reward` ("win" | "score"),
plus the env options `render_mode` ("ansi" | "human" | "rgb_array": an 800x800x3 uint8 picture), `illegal_action`
("raise" | "lose") and `max_steps`. See :class:`~ether_envs.aethermon_collect.rules.Config`.

## Observation
Seat-relative (index 0 = the observer, then the others clockwise), padded to 4
seats, all values in [0, 1]. `env.unwrapped.observation_layout()` returns these
slices:

| Slice | Name | Shape | Range | Meaning |
|---|---|---|---|---|
| 0-1616 | squares | (49, 33) | [0, 1] | per square (row*7+col): in_grid, token, card_present, card_value (/4), element one-hot (8), line trio/duo/none, card_stage (/3), set_held_by relative seat (4), artefact_present, artefact identity one-hot (12, if known); see observation.SQUARE_FEATURES |
| 1617-1808 | collections | (4, 48) | [0, 1] | per relative seat: cards collected (card id) |
| 1809-1812 | scores | (4,) | [0, 1] | per relative seat: current score / 208 |
| 1813-1816 | seat_present | (4,) | [0, 1] | 1 for seats in the game |
| 1817-1820 | first_player | (4,) | [0, 1] | relative seat first in turn order, one-hot |
| 1821-1824 | current_player | (4,) | [0, 1] | relative seat deciding now, one-hot (zeros at the end) |
| 1825-1828 | turn_player | (4,) | [0, 1] | relative seat whose turn it is, one-hot |
| 1829-1835 | phase | (7,) | [0, 1] | one-hot: place_token, draft, turn, pending, post_move, satchel, over |
| 1836-1848 | pending_effect | (13,) | [0, 1] | Artefact effect awaiting its target (12 = Trade Token take) |
| 1849-1896 | trade_card | (48,) | [0, 1] | card chosen to give by a pending Trade Token |
| 1897-1944 | artefacts_held | (4, 12) | [0, 1] | per relative seat: unused Artefacts held, if known |
| 1945-1948 | artefacts_held_unknown | (4,) | [0, 1] | per relative seat: unused Artefacts held but unknown / 12 |
| 1949-1996 | artefacts_used | (4, 12) | [0, 1] | per relative seat: Artefacts used (public) |
| 1997-2044 | draft_groups | (4, 12) | [0, 1] | Artefact groups: contents known to the observer |
| 2045-2048 | draft_groups_unknown | (4,) | [0, 1] | Artefact groups: unknown contents / 3 |
| 2049-2064 | draft_groups_taken | (4, 4) | [0, 1] | relative seat that took each group |
| 2065-2076 | leftover_artefacts | (12,) | [0, 1] | leftover (undrafted) Artefacts known to the observer |
| 2077-2077 | leftover_unknown | (1,) | [0, 1] | leftover Artefacts of unknown identity / 12 |
| 2078-2089 | last_opponent_artefact | (12,) | [0, 1] | effect a Mirror would copy for the observer, one-hot |
| 2090-2093 | no_collect_streak | (4,) | [0, 1] | relative seats that had a turn without collecting since the last collection |
| 2094-2096 | turn_flags | (3,) | [0, 1] | collected this turn, Stopwatch extra turn now, extra turn next |
| 2097-2107 | fence | (11,) | [0, 1] | Fence: forbidden row one-hot, then the relative seat it binds |
| 2108-2115 | axis | (4, 2) | [0, 1] | 2-player co-op axis per relative seat: horizontal / vertical |
| 2116-2120 | mode | (5,) | [0, 1] | cooperative, teams, hidden artefacts, redistribute, triples |
| 2121-2123 | num_players | (3,) | [0, 1] | one-hot 2, 3, 4 |
| 2124-2131 | elements_in_play | (8,) | [0, 1] | elements used in this game |
| 2132-2132 | coop_target | (1,) | [0, 1] | co-operative target score / 208 (0 in competitive games) |
| 2133-2196 | satchel_sets | (4, 16) | [0, 1] | per relative seat: set counted complete by a Satchel |

Everything is public except the Artefacts' identities under `hidden_artefacts`:
a player knows its own, those in the groups it saw when it drafted, and every
Artefact once used.

## Actions
One `Discrete(183)` for every player count (the 7x7 frame is the
largest grid). Squares are `row * 7 + col`, named `a1` (top-left) .. `g7`.

| Ids | Block | Index meaning |
|---|---|---|
| 0-48 | MOVE | move the Group Token to square row*7+col (rook move; or the move an active Compass/Grappling Hook/Lantern/Magnet allows) |
| 49-52 | PLACE_TOKEN | 3 players: the last player puts the Group Token on corner 0..3 (top-left, top-right, bottom-left, bottom-right) |
| 53-56 | DRAFT | take Artefact group 0..3 |
| 57-68 | USE_ARTEFACT | use your Artefact 0..11 (see components.ARTEFACTS) |
| 69-117 | TARGET_SQUARE | square targeted by Wind-up Beetle, Net or Trade Token |
| 118-165 | GIVE_CARD | Trade Token: the collected Aethermon 0..47 to give back |
| 166-181 | SATCHEL_SET | Satchel: the set 0..15 (element*2 + line) that counts as complete |
| 182 | END_TURN | end your turn without using an after-move Artefact |

Examples: on a 5x5 grid with the token on the centre `c3` (square 16), moving
to `c1` (square 2) is action 2; moving right to `e3` is action 18. Using the
Compass (Artefact 2) is action 59, then `MOVE` to a diagonal square.

A turn is one `MOVE`, optionally preceded by `USE_ARTEFACT` decisions (and
their `MOVE`/`TARGET_SQUARE`/`GIVE_CARD` follow-ups); after the move, a player
holding a usable Net or Fence chooses `USE_ARTEFACT` or `END_TURN`.

## Action mask
`obs["action_mask"][a] == 1` iff action `a` is legal for this agent now; all
zeros for agents not to act and at the end.

## Rewards
Terminal only. Competitive, `reward="win"` (default): winners share +1,
losers share -1 (a tie is broken by the rulebook: the player latest in turn
order wins; in 2 vs 2 the partners share the win). `reward="score"`: each
player's final score (team score in 2 vs 2). Co-operative (default
`reward="score"`): every agent gets the team score divided by its maximum
(26 per element), in [0, 1]; `reward="win"`: +1 if the team reached `target`,
else -1. `infos[agent]` at the end holds `scores`, `team_scores`, and
`winners` or `target_reached`.

## Termination and truncation
The game ends as the rulebook says (competitive: once every player has had a
turn without collecting since the last collection; co-operative: after any
turn without collecting). `max_steps` (default: a bound no game reaches)
truncates every agent.

## Version history
* v0: first release (2026-11-30); unchanged since. See CHANGELOG.md.
"""

from ..core.aec import BoardGameEnv, wrap
from .rules import Game


class raw_env(BoardGameEnv):
    """Aethermon: Collect AEC env without wrappers (see the module docstring)."""

    metadata = {"name": "aethermon_collect_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}
    game_class = Game


def env(**kwargs):
    """The wrapped env (``OrderEnforcingWrapper``; ``TerminateIllegalWrapper`` if
    ``illegal_action="lose"``). Keyword arguments: see the module docstring."""
    return wrap(raw_env(**kwargs))
