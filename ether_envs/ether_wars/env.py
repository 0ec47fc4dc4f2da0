"""Ether Wars — PettingZoo AEC environment.

| | |
|---|---|
| Import | `ether_envs.make("ether_wars", num_players=2..4)` or `pettingzoo.make("aec", "ether/ether_wars-v1")` |
| Actions | Discrete |
| Parallel API | No |
| Agents | `agents = ["player_0", ..., "player_{n-1}"]`, clockwise seating |
| Agents (count) | 2, 3 or 4 |
| Action shape | (1,) |
| Action values | Discrete(157) |
| Observation shape | `{"observation": (764,) float32, "action_mask": (157,) int8}` |
| Observation values | [0, 1] |

A dice-placement and area-control game: each round players draw an Event, secretly
pick a Faction ability card, hire Mercenaries, place their Unit, Hero and Mercenary
dice on the board's areas, move them with Coltan, and resolve each area (combat,
extraction, the Market, the Factory, channelling Ether in the Ether Fault, raiding
Silos). The first player to hold 7 / 6 / 5 Ether (2 / 3 / 4 players) wins at once.
Rules: ``RULES.md`` beside this file (rulebook map, state machine, assumptions ``EW-A*``).

## Configuration
`num_players` (2-4, default 2), `favours` ("beginner": 3 Favours each | "advanced":
draft 5, keep 3), `max_rounds` (default 60; no recorded game has come near it:
random play ends in 9-12 rounds on average, 22 at most in 180 games), plus the env options
`render_mode` ("ansi" | "human"), `illegal_action` ("raise" | "lose") and
`max_steps`. See :class:`~ether_envs.ether_wars.rules.Config`.

## Observation
Seat-relative (index 0 = the observer, then the others clockwise), padded to 4
seats; Silo areas are relative too (area 7 = own Silo, 8 = next seat's, ...). All
values in [0, 1]. `env.unwrapped.observation_layout()` returns these slices:

| Slice | Name | Shape | Range | Meaning |
|---|---|---|---|---|
| 0-2 | num_players | (3,) | [0, 1] | one-hot 2, 3, 4 players |
| 3-6 | seat_present | (4,) | [0, 1] | 1 for seats in the game |
| 7-10 | first_player | (4,) | [0, 1] | relative seat holding the first player marker |
| 11-14 | current_player | (4,) | [0, 1] | relative seat deciding now (zeros at the end) |
| 15-22 | phase | (8,) | [0, 1] | one-hot: preparation, new_day, mercenaries, placement, movement, resolution, maintenance, over |
| 23-50 | decision | (28,) | [0, 1] | kind of the pending decision, one-hot (codec.DECISION_NAMES) |
| 51-51 | round | (1,) | [0, 1] | round / max_rounds |
| 52-59 | event | (8,) | [0, 1] | Event card in play, one-hot (components.EVENTS) |
| 60-75 | faction | (4, 4) | [0, 1] | per relative seat: faction one-hot |
| 76-95 | ability | (4, 5) | [0, 1] | per relative seat: ability card 0..3 one-hot if visible (own, or revealed), then 'has chosen this round' |
| 96-115 | resources | (4, 5) | [0, 1] | per relative seat: Protein, Coltan, Plasma, Crystal, Ether / box pool |
| 116-119 | ether_progress | (4,) | [0, 1] | per relative seat: Ether / Ether needed to win |
| 120-123 | charge | (4,) | [0, 1] | per relative seat: Charges / 20 |
| 124-131 | units | (4, 2) | [0, 1] | per relative seat: Units on the sheet / 10, in reserve / 10 |
| 132-175 | board_units | (4, 11) | [0, 1] | per relative seat and area: Units on the board / 10 |
| 176-223 | hero | (4, 12) | [0, 1] | per relative seat: Hero area one-hot, last = on the sheet |
| 224-319 | mercenaries | (6, 16) | [0, 1] | per Mercenary: owner relative seat one-hot, then area one-hot, last = on its owner's sheet |
| 320-324 | ether_die | (5,) | [0, 1] | controller relative seat one-hot, then 'placed in the Ether Fault' |
| 325-368 | placed | (4, 11) | [0, 1] | per relative seat: areas placed in this round |
| 369-412 | arrival | (11, 4) | [0, 1] | per area and relative seat: (arrival rank + 1) / 4, 0 if absent |
| 413-440 | seat_flags | (4, 7) | [0, 1] | per relative seat: passed Placement, Contract, Priestess rerolls / 3, Medic free shields / 2, channelled, extra Ether used, Aggressive silo condition |
| 441-446 | hand | (6,) | [0, 1] | own Favour hand per kind / 4 |
| 447-450 | hand_sizes | (4,) | [0, 1] | per relative seat: Favours in hand / 22 |
| 451-456 | draft_pack | (6,) | [0, 1] | own draft pack per kind / 5 (advanced preparation) |
| 457-462 | favour_discard | (6,) | [0, 1] | discarded Favours per kind / 4 |
| 463-464 | decks | (2,) | [0, 1] | Favour deck size / 22, Event deck size / 16 |
| 465-472 | event_discard | (8,) | [0, 1] | discarded Events per kind / 2 |
| 473-484 | placement | (12,) | [0, 1] | area chosen this placement turn one-hot, then dice added / 10 |
| 485-517 | move_pick | (33,) | [0, 1] | die picked to move (kind*11 + area), one-hot |
| 518-528 | rc_area | (11,) | [0, 1] | area being resolved, one-hot |
| 529-543 | rc_stage | (15,) | [0, 1] | resolution stage one-hot (codec.STAGES) |
| 544-549 | rc_mode | (6,) | [0, 1] | resolution mode one-hot (codec.MODES) |
| 550-553 | rc_resolver | (4,) | [0, 1] | relative seat resolving the area |
| 554-557 | rc_parts | (4,) | [0, 1] | relative seats rolling in this combat / extraction |
| 558-581 | rc_faces | (4, 6) | [0, 1] | per relative seat: rolled Unit dice per face / 10 |
| 582-605 | rc_hero | (4, 6) | [0, 1] | per relative seat: Hero face one-hot |
| 606-629 | rc_captain | (4, 6) | [0, 1] | per relative seat: Captain face one-hot |
| 630-649 | rc_numbers | (4, 5) | [0, 1] | per relative seat: Defender+Ether die pips / 12, boosts / 20, score / 80, injuries pending / 10, Assassin hits / 10 |
| 650-653 | rc_winner | (4,) | [0, 1] | combat winner, one-hot |
| 654-659 | rc_misc | (6,) | [0, 1] | thief/assassin/gain picks left / 10, raid points / 80, purchases left / 2, purchase credit / 40, free shields / 4, skills queued / 4 |
| 660-664 | rc_target | (5,) | [0, 1] | purchase target resource one-hot |
| 665-671 | window | (7,) | [0, 1] | open favour window kind one-hot, then its seat (injury) |
| 672-759 | stack | (8, 11) | [0, 1] | favour stack from the bottom: player relative seat, kind, cancelled |
| 760-763 | smuggle_target | (4,) | [0, 1] | Smuggler target relative seat |

Hidden from the observer: the other players' Favour hands (sizes only) and draft
packs, ability cards chosen this round before all have chosen, and the order of
both decks. `state.resample_hidden(player, rng)` redraws exactly these (and reseeds all
future chance: dice not rolled yet are dropped).

## Actions
One `Discrete(157)` for every player count. Areas are 0 Biosphere, 1 Coltan Mine,
2 Plasma Chasm, 3 Crystal Sea, 4 Ether Fault, 5 Market, 6 Factory, 7..10 the Silos
of relative seats 0..3; seats in actions are relative to the actor.

| Ids | Block | Index meaning |
|---|---|---|
| 0-3 | FACTION | Preparation: choose faction 0..3 (Human, Dracon, VAI, Ripper) |
| 4-9 | KEEP_FAVOUR | advanced draft: keep a Favour of kind 0..5 from your pack |
| 10-15 | DISCARD_FAVOUR | advanced draft: discard a Favour of kind 0..5 |
| 16-19 | ABILITY | New Day: choose your Faction ability card 0..3 (components.ABILITIES, faction*4+i) |
| 20-25 | HIRE | Mercenaries: hire Mercenary 0..5 |
| 26-31 | PLAY_FAVOUR | play a Favour of kind 0..5 in a favour window |
| 32-42 | AREA | area 0..10 (7+k = Silo of relative seat k): Placement target, Movement destination (paid in Coltan), Fertile target |
| 43-53 | AREA_CHARGE | Movement destination paid with 1 Charge (Human Tactician) |
| 54-57 | ADD_DIE | Placement: add one die of kind 0..3 (unit, hero, mercenary, ether die) to the chosen area |
| 58-90 | MOVE_DIE | Movement: pick a die of kind k (unit, hero, mercenary) in area i: k*11+i |
| 91-101 | RESOLVE | Resolution: resolve your dice in area 0..10 next |
| 102-125 | UNIT_DIE | a rolled Unit die: relative seat s, face f (1..6) as s*6+f-1 (Priestess reroll, Human Hero Skill) |
| 126-129 | SEAT | relative seat 0..3 (Dracon Hero Skill, Assassin injury, Smuggler) |
| 130-140 | SHIELD | shield 0..10 of your injured Units |
| 141-145 | RESOURCE | resource 0..4 (Protein, Coltan, Plasma, Crystal, Ether): raid/steal/gain/purchase target |
| 146-149 | PAY | Market: pay one Protein/Coltan/Plasma/Crystal towards the purchase |
| 150 | MARKET_FAVOUR | Market: pay 1 Crystal to draw a Favour |
| 151 | CLONE | Factory: pay 4 Protein for a Unit from your reserve |
| 152 | CHARGE_BOOST | combat window: pay 1 Charge for +1 (Aggressive) or +2 (Commander) |
| 153 | EXTRA_ETHER | after Channelling: pay 2 Crystal for 1 more Ether (once a round) |
| 154 | CONDUIT | VAI Conduit: pay 2 Charge for 1 more Ether after Channelling |
| 155 | DONE | finish the current step (placement turn, movement, rerolls, raid, purchase, market, factory) |
| 156 | PASS | decline (no hire, pass placement for the round, no favour, no skill, no extra Ether) |

Every choice is an action, asked one at a time. A Placement turn is `AREA(a)`
then `ADD_DIE` one die at a time and `DONE` (or `PASS` for the round); a move is
`MOVE_DIE` then `AREA`/`AREA_CHARGE`; a Market purchase is `RESOURCE(target)`,
then `PAY` one resource at a time and `DONE`. Favours are played in favour
windows (`PLAY_FAVOUR` or `PASS`; `Cancel` only in response). The pending
decision kind is in the observation's `decision` piece.

Examples: in a 2-player game, putting two Units in the Plasma Chasm is
`AREA(Plasma Chasm)`=34, `ADD_DIE(unit)`=54 twice, `DONE`=155; attacking the
next player's Silo is `AREA(Silo +1)`=40.

## Action mask
`obs["action_mask"][a] == 1` iff action `a` is legal for this agent now; all
zeros for agents not to act and at the end.

## Rewards
Terminal only: the winner +1, the others share -1 (zero-sum). At `max_rounds`
the game stops with every return 0 and `infos[agent]["truncated"] = True`.
`infos[agent]` at the end holds `scores` (Ether), `winner`, `truncated`, `rounds`.

## Termination and truncation
The game ends the moment a player reaches the Ether target (rulebook "Objective
of the Game"), or after `max_rounds` rounds (EW-A13). `max_steps` (default: a
bound no game reaches) truncates every agent.

## Version history
* v0: first release (2026-11-30).
* v1 (2026-12-04): rule changes made after v0 was registered (EW-A27 the VAI Hero Skill may take
  Ether, EW-A9 the Drone/Assassin/Thief exemption covers moves); sizes unchanged. See CHANGELOG.md.
"""

from ..core.aec import BoardGameEnv, wrap
from .rules import Game


class raw_env(BoardGameEnv):
    """Ether Wars AEC env without wrappers (see the module docstring)."""

    metadata = {"name": "ether_wars_v1", "render_modes": ["human", "ansi"],
                "is_parallelizable": False, "render_fps": 1}
    game_class = Game


def env(**kwargs):
    """The wrapped env (``OrderEnforcingWrapper``; ``TerminateIllegalWrapper`` if
    ``illegal_action="lose"``). Keyword arguments: see the module docstring."""
    return wrap(raw_env(**kwargs))
