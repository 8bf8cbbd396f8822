"""Rest & recovery: short, long and extended rests and their downtime activities.

- **Short rest** (1 hour): choose two activities. No more than 3 short rests in a row
  without a long rest. Tend to Wounds (up to 2 supply, each heals 1/4 of total HP), Clear
  Fatigue (2), Gather Supplies (focus roll: weak hit 1 supply, strong hit 2), Prepare.
- **Long rest** (8 hours): choose two. Tend to Wounds (any supply), Clear Fatigue (all,
  and each supply spent recovers 1 exhaustion), Gather Supplies, Take Watch (a focus roll
  against a secret DC), Prepare, Work on a Project, Daily Preparations.
- **Extended rest** (12 hours, at most 1 hour of strenuous activity): choose one.
  Recuperate (all HP, all fatigue, 2 exhaustion), Level Up, Work on a Project (count down
  twice, +2 forward on its rolls), Get a Job.

Prepare makes you *prepared* (the status); preparing the same thing with party members
instead gives each 2 *prepared* hold until a long rest, spent one for one to become
prepared. Hold lasts until a long rest, so a long rest ends all hold.

Interpretation: "At the end of a long rest, you regain ..." (threads of fate) is cut off;
read as regaining every thread. An extended rest is longer than a long rest and also
ends with what a long rest's end gives (threads back, hold ended, the short-rest count
reset). A quarter of total HP is rounded down, at least 1 per supply. Each character
chooses their own activities: tending an ally's wounds is the tender's Tend to Wounds, one
of the tender's two (the patient's are untouched), and one Tend to Wounds heals one
creature, yourself or an ally. The activities'
text is data (``data/rules.toml``).

>>> sorted(activities("extended"))
['Get a Job', 'Level Up', 'Recuperate', 'Work on a Project']
"""

from __future__ import annotations

from typing import Any, Literal

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section

__all__ = ["RestKind", "activities", "activity_name", "heal_per_supply", "rest_rules"]

RestKind = Literal["short", "long", "extended"]


def rest_rules(kind: str) -> dict[str, Any]:
    """``hours``, ``choose``, ``activities`` (and ``max_in_a_row`` for short rests)."""
    rests: dict[str, Any] = section("rests")
    if kind not in rests:
        raise RuleError(f"Rest & Recovery: no {kind!r} rest (short, long, extended)")
    block: dict[str, Any] = rests[kind]
    return block


def activities(kind: str) -> dict[str, str]:
    """Activity name -> what it does, for one kind of rest."""
    return dict(rest_rules(kind)["activities"])


def activity_name(kind: str, text: str) -> str:
    """The seed's spelling of an activity of this rest, or a RuleError naming the choices."""
    known = activities(kind)
    for name in known:
        if name.lower() == text.strip().lower():
            return name
    article = "an" if kind[:1] in ("a", "e", "i", "o", "u") else "a"
    raise RuleError(f"Rest & Recovery: {text!r} is not {article} {kind} rest activity "
                    f"({', '.join(known)})")


def heal_per_supply(max_hp: int) -> int:
    """HP one supply heals when tending wounds: a quarter of total HP, rounded down, ≥ 1."""
    return max(1, max_hp // 4)
