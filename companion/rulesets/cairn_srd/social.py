"""Information gathering and social interaction.

**Knowledge**: common knowledge is simply known (barring a reason); specialised knowledge
tied to a character's background or skills may be known: roll the die of fate; esoteric
knowledge needs an expert or research (a skill test).

**Perception** is never rolled: the obvious is seen, the half-hidden gives vague
impressions, the hidden is found only by interacting with it.

**NPCs** act consistently. Their *want* comes from the fiction or a d10
(``cairn_npc_want``); their *disposition* from the fiction or 2d6
(``cairn_npc_disposition``), shown through behaviour, words and reputation. Bribes,
arguments, appeasement or flattery move a disposition one level. When a tactic might
fail, it is a 2-in-6 (5+) test with situational bonuses; a failed approach never works on
that NPC again. At an impasse, violence is one option among truces, new demands or a
retreat with a threat.

Social check procedure: (1) the PCs say what they want; (2) the referee sets the NPC's
want and disposition; (3) they interact, rolling the 5+ test when in doubt; (4) resolve,
or start over with new tactics.

Interpretation: a doubtful tactic that succeeds moves the NPC's disposition one level
toward friendly (as a bribe or flattery would); one that fails leaves it where it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal

from companion import tables
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rule_rolls import RuleCall, declare
from companion.rulesets.cairn_srd.fixed_tables import rows
from companion.rulesets.cairn_srd.saves import FateResult, die_of_fate
from companion.rulesets.cairn_srd.skills import SkillResult, skill_test

Knowledge = Literal["common", "specialized", "esoteric"]


def dispositions() -> list[str]:
    """The disposition levels, worst first (the rows of ``cairn_npc_disposition``)."""
    return rows("cairn_npc_disposition", "Disposition")


@dataclass(frozen=True)
class NPCReaction:
    want_roll: int
    want: str
    want_detail: str
    disposition_roll: int
    disposition: str

    @property
    def level(self) -> int:
        return dispositions().index(self.disposition)

    def __str__(self) -> str:
        return (f"wants {self.want} (d10 = {self.want_roll}: {self.want_detail}); "
                f"disposition 2d6 = {self.disposition_roll}: {self.disposition}")


def roll_npc(*, rng: random.Random | None = None, seed: int | None = None) -> NPCReaction:
    """Roll an NPC's want (d10) and disposition (2d6)."""
    r = make_rng(seed, rng)
    want = tables.get("cairn_npc_want").roll(rng=r)
    disp = tables.get("cairn_npc_disposition").roll(rng=r)
    assert isinstance(want.roll, int) and isinstance(disp.roll, int)
    return NPCReaction(want.roll, want.values["Want"], want.values["Description"], disp.roll,
                       disp.values["Disposition"])


def find_disposition(text: str) -> str:
    """A disposition level named in full or by its first word (``hostile``, ``friendly``).

    >>> find_disposition("friendly")
    'Friendly, eager, kind, polite, helpful'
    """
    want = text.strip().lower()
    for level in dispositions():
        first = level.split(",")[0].split(" ")[0].lower()
        if want in (level.lower(), first):
            return level
    names = ", ".join(level.split(",")[0].split(" ")[0].lower() for level in dispositions())
    raise RuleError(f"Social Interaction: no disposition “{text.strip()[:40]}” ({names})")


def shift_disposition(disposition: str, steps: int) -> str:
    """Move a disposition up (positive) or down by whole levels, stopping at the ends."""
    levels = dispositions()
    if disposition not in levels:
        raise RuleError(f"Social Interaction: unknown disposition “{disposition}”")
    return levels[max(0, min(len(levels) - 1, levels.index(disposition) + steps))]


def social_check(modifier: int = 0, *, rng: random.Random | None = None,
                 seed: int | None = None) -> SkillResult:
    """A doubtful tactic: the 2-in-6 (5+) test with situational ``modifier``."""
    return skill_test(2, modifier, rng=rng, seed=seed)


def knowledge_check(kind: str, *, rng: random.Random | None = None,
                    seed: int | None = None) -> str | FateResult:
    """Does the PC know it? Common: yes; specialised: the die of fate; esoteric: research."""
    if kind == "common":
        return "known (common knowledge)"
    if kind == "specialized":
        return die_of_fate(rng=make_rng(seed, rng))
    if kind == "esoteric":
        return "unknown: seek an expert or research it (a skill test)"
    raise RuleError(f"Knowledge Checks: kind is common, specialized or esoteric, not “{kind}”")


def perceive(visibility: str) -> str:
    """What the PCs perceive of something ``obvious``, ``obscured`` or ``hidden``."""
    answers = {
        "obvious": "seen, unless there is a good reason not",
        "obscured": "a vague impression only",
        "hidden": "nothing, unless they interact with or investigate it",
    }
    if visibility not in answers:
        raise RuleError(f"Perception Checks: obvious, obscured or hidden, not “{visibility}”")
    return answers[visibility]


def _social_declared(args: dict[str, Any], rng: random.Random) -> tuple[str, SkillResult]:
    shift_disposition(str(args["before"]), 0)  # an unknown disposition is refused
    return str(args["before"]), social_check(args["modifier"], rng=rng)


def _social_text(value: tuple[str, SkillResult]) -> str:
    before, result = value
    if result.success:
        return f"{result}; disposition now {shift_disposition(before, 1)}"
    return f"{result}; still {before}: this approach never works on them again"


def social_call(modifier: int, before: str) -> RuleCall:
    """A doubtful tactic on an NPC whose disposition is ``before`` (it moves no tracker)
    as a declared rule roll ([companion.rule_rolls][]); its value is ``(before, result)``."""
    return RuleCall("cairn_srd.social.social_check", {"modifier": modifier, "before": before})


def _fate_declared(args: dict[str, Any], rng: random.Random) -> FateResult:
    if args != {}:
        raise RuleError("Knowledge Checks: a specialised check takes no arguments")
    answer = knowledge_check("specialized", rng=rng)
    assert isinstance(answer, FateResult)
    return answer


def _fate_text(answer: FateResult) -> str:
    return f"{answer}: {'known' if answer.favourable else 'not known'}"


#: A specialised knowledge check (the die of fate) as a declared rule roll.
KNOWLEDGE_CALL = "cairn_srd.social.specialised_knowledge"

declare("cairn_srd.social.social_check", _social_declared,
        lambda value: {"roll": value[1].roll, "success": value[1].success}, _social_text)
declare(KNOWLEDGE_CALL, _fate_declared,
        lambda answer: {"roll": answer.roll, "favourable": answer.favourable}, _fate_text)
