"""Monsters & Magic, chapter 1: Playing the Game (seed 002), in our own words.

## Dice

Dice are written ``NdS`` (N dice of S sides) with an optional ``+M``/``-M``. Rules may
step a die's size up or down along ``1d2 1d4 1d6 1d8 1d10 1d12 2d6 3d4`` (one step is
about +1 to the average). ``d%`` is two d10s read as tens and ones, with ``00`` = 100; a
die with an odd number of faces is an even die of twice the faces, halved and rounded up.
See [`dice_notation`][companion.rulesets.monsters_and_magic.dice_notation].

Dice are used for ability checks (a d20), damage (the weapon's or spell's die, plus the
ability the attack used), random tables, and the occasional percentage chance (succeed
when the d% shows the chance or less).

## Abilities and checks

A PC has four abilities: **Focus** (deep thought; precise weapons may use it), **Power**
(body and mind; weapon attacks), **Cunning** (quick decisions; added to AC in light or
medium armor; agile weapons may use it) and **Luck** (fortune; used beyond your skills).
Monsters add their challenge rating instead.

An ability check is 1d20 + ability + modifiers, read on the results table: natural 20 a
critical hit, 18+ a strong hit, 10-17 a weak hit, under 10 a miss, natural 1 a critical
miss. Group checks, advantage, DCs and effect steps are in
[`ability_checks`][companion.rulesets.monsters_and_magic.ability_checks] and
[`group_checks`][companion.rulesets.monsters_and_magic.group_checks].

## The character in play

Ongoing, forward and hold modifiers; threads of fate; action points and reactions;
fatigue, exhaustion, hit points, dying; conditions and statuses; rests: one tracker,
[`Adventurer`][companion.rulesets.monsters_and_magic.adventurer.Adventurer], plus the
GM's threads ([`GameMaster`][companion.rulesets.monsters_and_magic.adventurer.GameMaster]).
The pure rules behind it:
[`threads_of_fate`][companion.rulesets.monsters_and_magic.threads_of_fate],
[`action_points`][companion.rulesets.monsters_and_magic.action_points],
[`fatigue_and_exhaustion`][companion.rulesets.monsters_and_magic.fatigue_and_exhaustion],
[`harm_and_healing`][companion.rulesets.monsters_and_magic.harm_and_healing],
[`death_and_dying`][companion.rulesets.monsters_and_magic.death_and_dying],
[`conditions_and_statuses`][companion.rulesets.monsters_and_magic.conditions_and_statuses],
[`rest_and_recovery`][companion.rulesets.monsters_and_magic.rest_and_recovery].

## Exploration and travel

Light, senses, concealment and cover
([`perception`][companion.rulesets.monsters_and_magic.perception]) act on the sheet: the
cover a character takes counts in its AC, and a check says what it is made against (a
concealment, or the light) and the cover of an attack's target; falling deals 1d6 per
10 feet; long-distance travel counts hexes per travel period by pace or vehicle
([`travel`][companion.rulesets.monsters_and_magic.travel]).

Bonds (a statement of an imbalance with a value, resolved once a session) and reputation
(a point per major action with a group, an ongoing modifier with its members) are kept on
the [`Adventurer`][companion.rulesets.monsters_and_magic.adventurer.Adventurer] sheet.
Proficiencies, talents, languages, carrying capacity, loadouts, initiative, mounted and
underwater combat are described in the chapter but give no mechanic that survives the
cut-offs beyond what is listed above; they are not modelled.

## Interpretations

The seed stops many sentences mid-way. Every cut-off sentence found, and the reading
chosen (each is tested):

1. Die scale printed run together (``1d21d41d6...``): the eight sizes 1d2-3d4; stepping
   past either end is refused.
2. Percentage chance "equal to or less than what you rolled": succeed when d% ≤ the chance.
3. Critical Hit "...strong hit. Gain": gain the Inspired status.
4. Critical Miss "Gain 2 XP and": 2 XP, and the GM gains 1 thread of fate.
5. Group checks "makes an appropriate": ability check; strong hits that cancel misses
   still count; ties go to the lowest result.
6. "advantage or disadvantage on an": 2d20 keep higher/lower; both cancel; no stacking.
7. "Difficulty Class (DC) Sometimes an": a DC moves the weak-hit line (default 10);
   a strong hit is DC + 8.
8. "techniques, spells, or feats may tell you to take": ongoing / forward / hold as listed.
9. "threads equal to your": your LUCK, at least 1.
10. "At the end of a long rest, you regain": every thread.
11. "Whenever you spend a": the GM's threads (reroll a check, a monster's thread power, an
    unexpected change to a scene).
12. "A PC's" (proficiency bonus), "Whenever an" (talents), "you can add your"
    (equipment): not modelled.
13. "bonds and reputation": a bond moves by one, up or down, when it is resolved at the
    end of a session; reputation moves by one per major action (both on the sheet).
14. "called their" (speed), "using hexes instead of ranges or", "make a group" (travel
    check), "Each" (pace), "forage ... making a group", "They have one" (vehicles): not
    modelled beyond the two travel tables.
15. Overland table misaligned: by default the last filled cell of each row is its
    exhaustion (no pace has a check modifier); the literal reading (blank or "-" = 0) is
    kept beside it ([`travel`][companion.rulesets.monsters_and_magic.travel]).
16. Weight & carrying capacity, loadout counts ("stuff has", "Each", "Your", "a number
    of"): not modelled.
17. "make a" (initiative), "you have 3" (AP): 3 action points per turn.
18. Ready an Action "(mark any": not modelled.
19. Basic techniques with cut-off descriptions: costs kept, descriptions summarised as far
    as printed.
20. Attacking "make an appropriate", "forces a creature to make a", ranged "making your",
    mounted "You can use the", "it can only use the": not modelled (underwater attacks: 31).
21. "two pools that they draw from," (HP and fatigue), "A PC's" (HP), "Some creatures will
    have an" (AC), "temporary": damage is reduced by AC, then halved (rounded down) or
    doubled; temporary HP are lost first and do not add up (the higher amount is kept).
22. "Whenever you need to mark a": fatigue that does not fit spills into exhaustion; 5
    fatigue and 6 exhaustion boxes by default.
23. "your second and third exhaustion bestows a": an ability-check penalty following
    Fibonacci (0, 0, 1, 1, 2, 3, 5 for 0-6 marks).
24. "For monsters, they receive": not modelled.
25. "someone performs an action that lets you recover": a long rest, or an ally's action
    (`Adventurer.ally_helps_recover`), wakes a PC knocked out by exhaustion.
26. "3-deathsave" / "healed at least": 3 deathsave stabilize; healed at least 1 HP.
27. "make a" (each dying turn): a luck check with the sheet's modifiers (a miss gives XP
    like any check's; the bare reading, LUCK and the exhaustion penalty only, is kept as
    an option); strong hit stabilizes, weak hit 1 deathsave, miss 1 exhaustion, critical
    miss 2.
28. "If you take damage wile dying, mark": 1 exhaustion per hit; damage to a stable
    creature makes it dying again.
29. Conditions "or" (detonation alternative) and statuses "or give them": not modelled;
    extending either adds one turn end (6 seconds out of combat).
30. Frightened is treated as Weakened while the sheet shows it (the source assumed
    perceived).
31. Underwater "Attacks with are made with disadvantage unless the creature has a": an
    attack roll underwater has disadvantage unless the attacker has a swimming speed
    (`Adventurer.set_underwater`); fire damage is resisted underwater.
"""

from __future__ import annotations

from companion.rulesets.monsters_and_magic.ability_checks import (
    AbilityCheck,
    AbilityCheckResult,
    Tier,
    step_result,
    thresholds,
    tier_of,
)
from companion.rulesets.monsters_and_magic.adventurer import ABILITIES, Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.dice_notation import (
    DIE_SCALE,
    odd_die_distribution,
    percent_chance,
    percentile_distribution,
    step_die,
)
from companion.rulesets.monsters_and_magic.group_checks import (
    group_odds,
    group_result,
    roll_group,
)
from companion.rulesets.monsters_and_magic.party import Party

__all__ = [
    "ABILITIES",
    "DIE_SCALE",
    "AbilityCheck",
    "AbilityCheckResult",
    "Adventurer",
    "GameMaster",
    "Party",
    "Tier",
    "group_odds",
    "group_result",
    "odd_die_distribution",
    "percent_chance",
    "percentile_distribution",
    "roll_group",
    "step_die",
    "step_result",
    "thresholds",
    "tier_of",
]
