"""Checks, Plot Points, Strain & Wounds (seed 004), in our own words.

## Checks

When the outcome is uncertain and something is at stake, the GM asks for a check. A
check rolls d20s and takes the circumstances into account. Making one:

1. **Roll the d20s** for the ability that fits the situation. A *weak* ability rolls two
   d20 and keeps the lower; an *average* one rolls a single d20; a *strong* one rolls two
   and keeps the higher.
2. **Add proficiency** in the skill or tool used, if the character has it.
3. **Roll the advantage or disadvantage die** and add it (advantage) or subtract it
   (disadvantage). Each advantage cancels one disadvantage, and the net count picks the
   die: more of them, a bigger die, from a d4 for one up to a d12 for five or more.
4. **Compare.** A static check succeeds when the result is at least the difficulty; in a
   contest the higher result wins.
5. **Margin.** Result minus difficulty (or minus the opponent's result); negative on a
   failure or a loss.

See [`PlotCheck`][companion.rulesets.plot_points.checks.PlotCheck] for the exact chances.

## Plot points

The table shares one plot point per player, the GM included. Each point is either
*lucky* or *unlucky*; spending a point turns it over (lucky → unlucky, unlucky → lucky).

- A player who fails a check may spend a lucky point to retry it.
- A player who succeeds may spend an unlucky point to reroll it (and risk failing).
- The GM may spend unlucky points to reroll a check, passed or failed, and to make a
  player reroll a check, but only if that player has not used any plot points on it.

## Special dice results

When the d20 comes up 1, a lucky point turns unlucky; on a 20, an unlucky point turns
lucky. If there is no point of the needed kind, the GM may substitute another setback or
reward. (Plot points are meant as an open alternative to the GM quietly fudging rolls;
anything they cannot fix is better settled by the table together.)

## Strain & wounds

*Strain* is minor stress or injury; a long rest removes all of it, and every 4 strain
becomes 1 wound. *Wounds* are serious physical or mental injuries that last until they
heal: after each long rest the character makes one check per wound (difficulty 10
Fortitude by default) and each success heals that wound.

The more wounds, the worse off the character: from 1 to 4 wounds merely *Exhausted*,
then *Injured* (failed checks add strain), *Severely Injured* (every check adds strain),
*Dying* (every check adds strain, a failed one more), and at 16 a *Near-Death
Experience*.

A character withstands 15 wounds; the 16th brings the near-death experience.

## In code

- [`checks`][companion.rulesets.plot_points.checks]: `PlotCheck` (exact chance, contests,
  rolls), `advantage_die`, `ABILITY_DICE`.
- [`session`][companion.rulesets.plot_points.session]: `PlotPointSession`, the tracker
  for a table (plot points, the check in play, contests, every character's strain and
  wounds).
- [`wounds`][companion.rulesets.plot_points.wounds]: `Character`, `wound_tier`.
- [`lookup`][companion.rulesets.plot_points.lookup]: the lookup tables (ability dice,
  advantage dice, wound tiers) read from `lookup_tables.toml`.

The tables themselves, with exact success chances, are on the generated
[success chances][chance-of-success] page. The seed's "When Checks Don't Help" heading has
no text, so there is nothing to implement for it. The choices made where the seed is
silent are marked *Interpretation* in those pages.
"""

from __future__ import annotations

from companion.rulesets.plot_points.checks import (
    PlotCheck,
    PlotCheckResult,
    advantage_die,
    net_advantage,
)
from companion.rulesets.plot_points.lookup import (
    ABILITIES,
    ABILITY_DICE,
    ADVANTAGE_DICE,
    WOUND_TIERS,
    WoundTier,
)
from companion.rulesets.plot_points.session import CheckInPlay, CheckOutcome, PlotPointSession
from companion.rulesets.plot_points.wounds import (
    MAX_WOUNDS,
    STRAIN_PER_WOUND,
    Character,
    strain_from_check,
    wound_tier,
)

__all__ = [
    "ABILITIES",
    "ABILITY_DICE",
    "ADVANTAGE_DICE",
    "MAX_WOUNDS",
    "STRAIN_PER_WOUND",
    "WOUND_TIERS",
    "Character",
    "CheckInPlay",
    "CheckOutcome",
    "PlotCheck",
    "PlotCheckResult",
    "PlotPointSession",
    "WoundTier",
    "advantage_die",
    "net_advantage",
    "strain_from_check",
    "wound_tier",
]
