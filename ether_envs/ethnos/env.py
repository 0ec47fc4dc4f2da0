"""Ethnos (1st edition) — PettingZoo AEC environment.

| | |
|---|---|
| Import | `ether_envs.make("ethnos", num_players=4)` or `pettingzoo.make("aec", "ether/ethnos-v0")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `agents = ["player_0", ..., "player_{n-1}"]`, clockwise seating |
| Agents (count) | 2 to 6 |
| Action shape | (1,) |
| Action values | Discrete(346) |
| Observation shape | `{"observation": (1445,) float32, "action_mask": (346,) int8}` |
| Observation values | [0, 1] |

Players recruit Allies from twelve fantasy tribes and play them in bands of one
tribe or one Kingdom colour; a band may place a Control marker in the Kingdom of
its Leader's colour, and only the Leader's tribe power applies. Kingdoms, bands
and tribe boards score at the end of each Age, which ends when the third Dragon
is drawn from the deck: three Ages (two with 2-3 players). Most Glory wins.
Rules: ``RULES.md`` beside this file (rulebook map and assumptions ``ETH-A*``).

## Configuration
`num_players` (2-6, default 4), `tribes` (names, or None for a random draw of 6,
or 5 with 2-3 players), `glory_tokens` ("S4" | "S1", ETH-A1), `giant_take_glory`
(default 2, ETH-A4), `orc_cash_in` (default True, ETH-A5), `first_player_tie`
("revealer" | "after_revealer", ETH-A6), plus the env options `render_mode`
("ansi" | "human"), `illegal_action` ("raise" | "lose") and `max_steps`.
See :class:`~ether_envs.ethnos.rules.Config`.

## Observation
Seat-relative (index 0 = the observer, then the others clockwise), padded to 6
seats, all values in [0, 1]. Card vectors are counts over the 67 card *kinds*
(`kind = rank * 6 + colour` for the eleven coloured tribes, 66 = Skeleton; see
`components.KIND_NAMES`) divided by the copies of each kind.
`env.unwrapped.observation_layout()` returns these slices:

| Slice | Name | Shape | Range | Meaning |
|---|---|---|---|---|
| 0-66 | hand | (67,) | [0, 1] | observer's hand by kind / copies of the kind (Elves' kept cards excluded) |
| 67-133 | kept | (67,) | [0, 1] | observer's cards kept so far with an Elf Leader (KEEP phase), by kind / copies |
| 134-200 | face_up | (67,) | [0, 1] | face-up Allies by kind / copies |
| 201-267 | band | (67,) | [0, 1] | the band being formed by kind / copies |
| 268-669 | known_hand | (6, 67) | [0, 1] | per relative seat: cards known to be in that hand (taken from the face-up row) / copies |
| 670-675 | hand_size | (6,) | [0, 1] | per relative seat: cards in hand, min(size, 20) / 20 |
| 676-679 | deck | (4,) | [0, 1] | cards left in the deck / 159, then Dragons revealed (thermometer of 3) |
| 680-685 | turn_player | (6,) | [0, 1] | relative seat whose turn it is |
| 686-691 | current_player | (6,) | [0, 1] | relative seat to act (zeros at the end) |
| 692-702 | phase | (11,) | [0, 1] | one-hot: turn, face_up, leader, build, marker, centaur, merfolk, wizard, keep, orc, over |
| 703-768 | band_leader | (66,) | [0, 1] | the Leader kind of the band being formed or just played, one-hot |
| 769-770 | band_key | (2,) | [0, 1] | its key: tribe band, colour band |
| 771-771 | band_size | (1,) | [0, 1] | cards in the band being formed or just played / 10 |
| 772-777 | marker_options | (6,) | [0, 1] | Kingdoms where the pending band marker may go |
| 778-780 | pending | (3,) | [0, 1] | Merfolk free markers to place / 4, Elves keep limit / 10, Control marker placed by this band |
| 781-1350 | seats | (6, 95) | [0, 1] | per relative seat: bands played this Age (cards by kind, leaders by tribe, their Glory), Control markers per Kingdom, supply, Glory, Merfolk position, Orc Horde spaces; see observation.SEAT_FEATURES |
| 1351-1386 | trolls | (6, 6) | [0, 1] | Troll token of value 1..6: holder, relative seat one-hot |
| 1387-1393 | giant | (7,) | [0, 1] | Giant token holder (relative seat one-hot), then its band size / 10 |
| 1394-1399 | first_player | (6,) | [0, 1] | relative seat that began this Age |
| 1400-1417 | glory_tokens | (6, 3) | [0, 1] | each Kingdom's Glory tokens I, II, III / 10 (III absent with 2-3 players) |
| 1418-1429 | tribes | (12,) | [0, 1] | tribes in play |
| 1430-1432 | age | (3,) | [0, 1] | current Age one-hot |
| 1433-1433 | last_age | (1,) | [0, 1] | 1 in the last Age of the game |
| 1434-1438 | num_players | (5,) | [0, 1] | one-hot 2..6 |
| 1439-1444 | seat_present | (6,) | [0, 1] | 1 for seats in the game |

Hidden information: a player sees its own hand, the face-up Allies, every band on
the table and the band being formed, every board, track and token, the number of
cards in each hand and in the deck, and the Dragons revealed. Of another hand it
sees only the cards that player took from the face-up row and has not been seen
to play or discard (`known_hand`). Never the deck order, the Dragons' places or
other cards in hand. `State.resample_hidden(player, rng)` redeals exactly these.

## Actions
One `Discrete(346)` for every player count. A turn is a short sequence of
decisions by the same agent (the AEC env selects it again):

| Ids | Block | Index meaning |
|---|---|---|
| 0 | RECRUIT_DECK | recruit the top card of the Ally deck (Dragons are revealed and redrawn) |
| 1 | RECRUIT_FACE_UP | recruit a face-up Ally (then TAKE_FACE_UP chooses which) |
| 2 | PLAY_BAND | play a band (then START_*_BAND chooses its key and Leader); also the Centaurs' extra band |
| 3-69 | TAKE_FACE_UP | take a face-up Ally of kind 0..66 (see components.KIND_NAMES) |
| 70-135 | START_TRIBE_BAND | start a band of the Leader's tribe, Leader = a card of kind 0..65 |
| 136-201 | START_COLOUR_BAND | start a band of the Leader's colour (Kingdom), Leader = a card of kind 0..65 |
| 202-268 | ADD_TO_BAND | add a card of kind 0..66 from your hand to the band being formed |
| 269 | END_BAND | the band is complete: resolve the Control marker and the Leader's power |
| 270-275 | PLACE_MARKER | place a Control marker in Kingdom 0..5 (band, Wingfolk or Merfolk checkpoint) |
| 276-342 | KEEP_CARD | Elves: keep a card of kind 0..66 instead of discarding it |
| 343 | END_KEEP | Elves: discard the rest of your hand |
| 344 | USE_POWER | Wizards: draw X cards; end of Age: cash in your Orc Horde markers |
| 345 | DECLINE | decline the optional step offered (marker, Centaurs' band, Merfolk marker, Wizards, Orcs) |

A band is chosen as a key + Leader, then its other cards one at a time, then an
explicit end: `PLAY_BAND`, then `START_TRIBE_BAND(leader)` (every card must be of
the Leader's tribe, or a Skeleton) or `START_COLOUR_BAND(leader)` (every card of
the Leader's colour, or a Skeleton), then `ADD_TO_BAND(kind)` per card (identical
cards are one kind, so the order of identical cards does not matter; at most 10
cards), then `END_BAND`. Every legal band is reachable this way, and `N` stays
small. Worked examples (kind ids from `components.KIND_NAMES`):

* Recruit the top of the deck: `[0]`. Elves are tribe rank 2, so Elves/Blue is
  kind 2*6+0 = 12 and Elves/Red is 2*6+5 = 17; take the face-up Elves/Red:
  `[1, 3 + 17] = [1, 20]`.
* Play Elves/Red (Leader) + Elves/Blue as a tribe band:
  `[2, 70 + 17, 202 + 12, 269] = [2, 87, 214, 269]`, then `270 + 5 = 275`
  (marker in Red) or `345` (decline), then the Elves' `KEEP_CARD`s and `343`.
* A Red colour band led by Dwarves/Red (kind 11) with Giants/Red (kind 23) and a
  Skeleton (kind 66): `[2, 136 + 11, 202 + 23, 202 + 66, 269] = [2, 147, 225, 268, 269]`.
* Decoding: `block, index = env.unwrapped.game.codec.decode(action)`;
  `env.unwrapped.action_to_str(87)` is `"START_TRIBE_BAND(Elves/Red)"`.

The top-level choice (`RECRUIT_DECK`, `RECRUIT_FACE_UP`, `PLAY_BAND`) mirrors the
rulebook's "recruit an Ally, or play a band" and keeps random play's games short.

## Action mask
`obs["action_mask"]` is 1 exactly on `env.unwrapped.legal_actions()` for the
agent to act and all zeros for the others and at the end. With 10 cards in hand
only `PLAY_BAND` is legal (unless no band can be formed: ETH-A7).

## Rewards
Zero-sum at the end: the winners (most Glory, then most Control markers on the
board, then the largest bands of the last Age) share +1, the others share -1;
all 0 in a full tie. `infos[agent]` at the end holds `scores` (Glory),
`winners` and `glory_by_source` (kingdoms, bands, giant_take, giant_age,
merfolk, orcs).

## Termination / truncation
The game ends after the last Age's scoring. `max_steps` (default: a bound no
game reaches) truncates every agent.

## Version history
* v0: first release (2026-11-30); unchanged since. See CHANGELOG.md.
"""

from ..core.aec import BoardGameEnv, wrap
from .rules import Game


class raw_env(BoardGameEnv):
    """Ethnos AEC env without wrappers (see the module docstring)."""

    metadata = {"name": "ethnos_v0", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}
    game_class = Game


def env(**kwargs):
    """The wrapped env (``OrderEnforcingWrapper``; ``TerminateIllegalWrapper`` if
    ``illegal_action="lose"``). Keyword arguments: see the module docstring."""
    return wrap(raw_env(**kwargs))
