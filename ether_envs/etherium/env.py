"""Etherium — PettingZoo AEC environment.

| | |
|---|---|
| Import | `ether_envs.make("etherium", **config)` or `pettingzoo.make("aec", "ether/etherium-v1")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `agents = ["player_0", ..., "player_{n-1}"]` |
| Agents (count) | 2, 3 or 4 |
| Action shape | (1,) |
| Action values | Discrete(164) |
| Observation shape | `{"observation": (1109,) float32, "action_mask": (164,) int8}` |
| Observation values | [0, 1] |

A programming game on a 3-D board of 17 boxes (4 Cities, 4 Mountains, 4
Forests, 4 Mines, the central Ether terrain). Over 7 seasons (Night first) each
player secretly programs 4 to 6 Action tokens (Move, Gather, Increase Unit
Level, Transform Ether, Connect); then the tokens are revealed and performed
one step at a time in the season's initiative order, with conflicts (pillage,
assault, siege) resolved after every step. The most prestige wins. Rules:
``RULES.md`` beside this file (rulebook map, state machine, assumptions
``ETM-A*``).

## Configuration
`num_players` (2-4, default 2), `tribes` (tuple of tribe names per seat, or
None), `tribe_selection` ("random" | "choose": seats pick with `CHOOSE_TRIBE`),
plus the env options `render_mode` ("ansi" | "human"), `illegal_action`
("raise" | "lose") and `max_steps`. See
:class:`~ether_envs.etherium.rules.Config`.

## How a season is played (every choice is an action)
1. Reveal: automatic; then optional reveal actions (Meinas B) and Ability
   triggers (Resource) in initiative order (`DISCARD_FLASH`/`PASS`, `GAIN_RESOURCE`).
2. Draw: automatic.
3. Play Flash cards: each player in initiative order gets a window
   (`PLAY_FLASH` ... then `PASS`).
4. Program: each player in initiative order commits its tokens one at a time
   (`PROGRAM`); nobody's observation shows another player's program until all
   are placed (secret simultaneous programming done as sequential hidden commits).
5. Perform: step 1 for every player in initiative order, conflicts, step 2,
   ... Before each of its actions a player holding a Flash card gets a window.
   The action's choices follow: `MOVE_UNIT` (unit and destination box),
   `PASS`/`CHOOSE_COUNT` (Gather: none or 1..level cubes, "up to their level"),
   `SPEND_RESOURCE`/`PASS` (Etherization), `CHOOSE_COUNT` (cards bought,
   Connect dice), `CHOOSE_ABILITY`, `CHOOSE_RESULT` (Connect, using part of the
   Guide), `GAIN_RESOURCE`/`SPEND_RESOURCE`/`TAKE_RESOURCE`/`TARGET_PLAYER`/
   `DISCARD_FLASH` (effects; `PASS` ends a gain the rulebook makes optional).
   Conflicts: `CHOOSE_CONFLICT` (order), a roll window per roll (`PLAY_FLASH`,
   `REROLL_DIE`, `USE_ABILITY`, `PASS`), `SIEGE_SPOIL`, `RETREAT_TO`. An
   action that cannot be performed (a Gather from an empty reserve included)
   offers one `GAIN_RESOURCE` or `PASS`.

Flash-card windows (ETM-A10): phase 3 (Season cards and the Resource card),
before each of your actions (Resource card), after each of your die rolls
(dice cards, Resource, Shield in conflicts). A window is offered whenever the
player holds at least one Flash card (or, in a roll window, can use its
Ertis re-roll or paid Ability), so being asked reveals nothing about the hand.

## Observation
Seat-relative (index 0 = the observer, then the following seats in seat
order), padded to 4 seats, all values in [0, 1].
`env.unwrapped.observation_layout()` returns these slices:

| Slice | Name | Shape | Range | Meaning |
|---|---|---|---|---|
| 0-135 | units | (17, 4, 2) | [0, 1] | per box: relative seat's Gatherer / Soldier is there |
| 136-305 | boxes | (17, 10) | [0, 1] | per box (static): terrain one-hot (Mountain, Forest, Mine, Ether, City), elevation / 2, City of relative seat (4) |
| 306-321 | levels | (4, 4) | [0, 1] | per relative seat: Gatherer, Soldier, Guard, Guide level / 4 |
| 322-341 | resources | (4, 5) | [0, 1] | per relative seat: Wood, Stone, Metal, Ether, Booster / 16 |
| 342-357 | tribes | (4, 4) | [0, 1] | per relative seat: tribe one-hot (Reces, Psolos, Ertis, Hivalia) |
| 358-369 | hand | (12,) | [0, 1] | observer's Flash cards per type / copies of that type |
| 370-373 | hand_sizes | (4,) | [0, 1] | per relative seat: Flash cards held / 44 |
| 374-374 | deck | (1,) | [0, 1] | cards in the Flash deck / 44 |
| 375-386 | discard | (12,) | [0, 1] | Flash discard pile per type / copies (public, ETM-A27) |
| 387-414 | abilities | (4, 7) | [0, 1] | per relative seat: Ability token held |
| 415-421 | ability_supply | (7,) | [0, 1] | Ability tokens left per kind / 2 |
| 422-441 | victory_tokens | (4, 5) | [0, 1] | per relative seat: Soldier, Ether, Connection, Booster, Pillage tokens / supply |
| 442-446 | vt_supply | (5,) | [0, 1] | Victory tokens left per kind / supply |
| 447-450 | scores | (4,) | [0, 1] | per relative seat: prestige / 80 (clipped) |
| 451-457 | season | (7,) | [0, 1] | season index one-hot (0 = Night) |
| 458-470 | season_card | (13,) | [0, 1] | current season card one-hot (colour*2 + A/B; 12 = Night) |
| 471-483 | seasons_seen | (13,) | [0, 1] | season cards revealed so far |
| 484-499 | initiative | (4, 4) | [0, 1] | per relative seat: rank in the initiative order, one-hot |
| 500-503 | affinity | (4,) | [0, 1] | relative seat with the season's affinity |
| 504-507 | action_tokens | (4,) | [0, 1] | per relative seat: Action tokens this season / 6 |
| 508-963 | programs | (4, 6, 19) | [0, 1] | per relative seat and token 1..6: programmed space one-hot (others only after the reveal) |
| 964-967 | programmed | (4,) | [0, 1] | per relative seat: tokens placed / 6 |
| 968-973 | step | (6,) | [0, 1] | action step being performed, one-hot |
| 974-996 | acting | (23,) | [0, 1] | relative seat performing an action, then its space |
| 997-1012 | season_bonuses | (4, 4) | [0, 1] | per relative seat: March, Harvest, Craft waiting (/4), T6 A free step |
| 1013-1019 | phase | (7,) | [0, 1] | one-hot: setup, reveal, play_flash, program, perform, season_end, over |
| 1020-1039 | decision | (20,) | [0, 1] | pending decision kind one-hot: choose_tribe, flash_window, gain_resources, lose_resources, steal_resources, discard_flash, season_reveal_action, program, move, etherization, buy_cards, choose_ability, connect_dice, connect_result, steal_target, reroll_die, siege_spoil, choose_conflict, retreat, gather_amount |
| 1040-1043 | window | (4,) | [0, 1] | Flash window kind: phase 3, before an action, Connect roll, conflict roll |
| 1044-1046 | decision_args | (3,) | [0, 1] | choices left (gain/lose/steal/discard) or most cubes (gather) / 8, window plays / 6, Etherization cubes paid / 5 |
| 1047-1050 | decision_target | (4,) | [0, 1] | relative seat being robbed (steal, siege spoils) |
| 1051-1054 | current_player | (4,) | [0, 1] | relative seat deciding now (zeros at the end) |
| 1055-1066 | roll | (12,) | [0, 1] | die roll being modified: roller relative seat, dice per face / 6, bonus / 20, paid Ability used |
| 1067-1085 | battle | (19,) | [0, 1] | conflict being resolved: box one-hot, assault / siege |
| 1086-1105 | battle_seats | (4, 5) | [0, 1] | per relative seat in the conflict: in it, rolls with Guard, has rolled, total / 60, Shield played |
| 1106-1108 | num_players | (3,) | [0, 1] | one-hot 2, 3, 4 |

Hidden from the observer: the other players' Flash cards (their number is
shown), the deck order, the season cards not yet revealed, and the other
players' programs until the reveal (only how many tokens they have placed).
`State.resample_hidden(player, rng)` redraws exactly these.

## Actions
One `Discrete(164)` for every player count.

| Ids | Block | Index meaning |
|---|---|---|
| 0-3 | CHOOSE_TRIBE | setup with tribe_selection='choose': take tribe 0..3 (Reces, Psolos, Ertis, Hivalia) |
| 4 | PASS | end a Flash-card window / decline an optional reveal action / stop Etherization / take no more of an optional gain / Gather none of the level's cubes |
| 5-16 | PLAY_FLASH | play a Flash card of type 0..11 from your hand (components.FLASH_CARDS) |
| 17-19 | GAIN_RESOURCE | take 1 basic resource (Wood, Stone, Metal) from the reserve |
| 20-22 | SPEND_RESOURCE | lose / pay 1 of your basic resources (Wood, Stone, Metal) |
| 23-25 | TAKE_RESOURCE | steal 1 basic resource (Wood, Stone, Metal) from the player being robbed |
| 26-37 | DISCARD_FLASH | discard a Flash card of type 0..11 |
| 38-56 | PROGRAM | put your next Action token on Action-board space 0..18 (components.SPACES) |
| 57-90 | MOVE_UNIT | Move: unit (0 Gatherer, 1 Soldier) * 17 + destination box |
| 91-96 | CHOOSE_COUNT | a number 1..6 (Flash cards bought; Connect dice with affinity; Gather: cubes of the level taken) |
| 97-103 | CHOOSE_ABILITY | Transform Ether: Ability token 0..6 (components.ABILITIES) |
| 104-115 | CHOOSE_RESULT | Connect: final result 1..12 (roll + part of your Guide level) |
| 116-118 | TARGET_PLAYER | Connect result 5: steal from the player 1..3 seats after you |
| 119-124 | REROLL_DIE | re-roll one of your dice showing face 1..6 (Ertis power or a Re-roll card) |
| 125 | USE_ABILITY | use your Ability's paid roll bonus (Warlord: 1 Metal; Oracle: 1 Wood) for +1 |
| 126-129 | SIEGE_SPOIL | won siege: 0 steal 2 Ether, 1 steal 1 Booster, 2 steal 4 basic, 3 reduce the Guide |
| 130-146 | CHOOSE_CONFLICT | resolve the conflict on box 0..16 next |
| 147-163 | RETREAT_TO | retreat your defeated unit to box 0..16 |

Example: programming "Move to blue" is `PROGRAM` index 3, action
41; moving the Gatherer (unit 0) to the Ether box
(16) is `MOVE_UNIT` index 16, action 73; the
Soldier (unit 1) to Mountain0 (box 4) is index 21, action
78. Boxes: 0-3 Cities, 4-7 Mountains, 8-11
Forests, 12-15 Mines, 16 Ether (components.BOX_NAMES); with 2 players the
seats use Cities 0 and 2.

## Action mask
`obs["action_mask"][a] == 1` iff action `a` is legal for this agent now; all
zeros for agents not to act and at the end.

## Rewards
Terminal only: winners share +1, losers share -1 (zero-sum). The winner has
the most prestige; ties are broken by the most resource cubes left (ETM-A15),
then shared. `infos[agent]` at the end holds `scores`, `winners` and `tribes`.

## Termination and truncation
The game ends after the last action of the 7th season. `max_steps` (default:
a bound no game reaches) truncates every agent.

## Version history
* v0: first release (2026-11-30).
* v1 (2026-12-04): rule changes made after v0 was registered (ETM-A4 initiative, ETM-A30 Gather
  up to the level, ETM-A31 forced spoils, Gather from an empty reserve); sizes unchanged. See CHANGELOG.md.
"""

from ..core.aec import BoardGameEnv, wrap
from .rules import Game


class raw_env(BoardGameEnv):
    """Etherium AEC env without wrappers (see the module docstring)."""

    metadata = {"name": "etherium_v1", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}
    game_class = Game


def env(**kwargs):
    """The wrapped env (``OrderEnforcingWrapper``; ``TerminateIllegalWrapper`` if
    ``illegal_action="lose"``). Keyword arguments: see the module docstring."""
    return wrap(raw_env(**kwargs))
