"""Settlements (optional rule): the hazard die, upheavals, conditions, shifts and rumours.

In a city campaign a settlement makes its own trouble. For every downtime cycle the party
spends in one, the referee rolls the **settlement hazard die** (d6, table
``cairn_settlement_hazard``): 1 an NPC comes calling; 2 **signs**, a shift foreshadowed or
a rumour heard; 3 a **shift**, something unique to the place changes (examples in
``cairn_settlement_shift``); 4 a **condition**, a dramatic upheaval (``cairn_settlement_upheaval``)
strikes and leaves a settlement condition; 5 **depletion**, one or more conditions end;
6 **advantage**, nothing happens.

The six **conditions**: *Insecurity* (people are edgy and suspicious), *Food shortage*,
*Disease* (quarantine and death), *Famine* (food gone far and wide), *Drought* (water gone
far and wide) and *Destruction* (damaged works needing repair). A condition lasts until
the party deals with it (which may be impossible) or a depletion ends it. Conditions
colour the fiction and raise prices, counted in d10s (2d10, 3d10...).

**Rumours** come from the places and factions nearby, and every one should be something
the party can act on. They are of four kinds (``cairn_rumour_kind``): local colour
(general knowledge or history), opportunities (bounties, rewards, favours), challenges
(threats that could pay) and mysteries (secrets and strange phenomena).

Interpretation: on *signs* both a shift (the one foreshadowed) and a kind of rumour are
rolled; the referee uses either. On *condition* one of the upheaval's possible
conditions is drawn, each alike; an upheaval with none (an ally dies, a setback to the
party) leaves no condition. On *depletion* the oldest condition ends (the referee may end
more by hand).

Interpretation: "increased prices should be measured in d10 (2d10, 3d10...)" is read as
one d10 per condition in force, rolled as a percentage added to the price (2 conditions:
+2d10 %, 2 to 20 % dearer). Why: the seed names no unit, and a flat rise in silver
would weigh on a cheap purchase far more than on a dear one, where a percentage raises
every price alike. One die per condition because
the seed's examples count dice upward and the conditions are the only thing the rule
counts. [price_rise_odds][companion.rulesets.cairn_srd.settlements.price_rise_odds]
gives the exact spread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from companion import dice, tables
from companion.dice import Distribution
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.fixed_tables import data_file, read_row
from companion.state import state_field

HAZARD_TABLE = "cairn_settlement_hazard"
UPHEAVAL_TABLE = "cairn_settlement_upheaval"
SHIFT_TABLE = "cairn_settlement_shift"
RUMOUR_TABLE = "cairn_rumour_kind"
HAZARD_KINDS = ("encounter", "signs", "shift", "condition", "depletion", "advantage")
"""What each face of the hazard die brings, face 1 first."""


def conditions() -> dict[str, str]:
    """The six settlement conditions and what each means."""
    return {k: v for k, v in data_file("downtime")["conditions"].items() if k != "section"}


def upheaval_conditions(face: int) -> list[str]:
    """The conditions upheaval ``face`` may inflict (none for 5 and 6)."""
    text = read_row(UPHEAVAL_TABLE, face)["Possible Conditions"]
    known = conditions()
    out = [c.strip() for c in text.split(",") if c.strip() in known]
    return out


def price_rise_dice(active: int) -> str:
    """The dice of the price rise (in percent) with ``active`` conditions in force."""
    if not 0 <= active <= len(conditions()):
        raise RuleError(f"Settlement Conditions: 0-{len(conditions())} conditions, not {active}")
    return f"{active}d10" if active else "0"


def price_rise_odds(active: int) -> Distribution:
    """Exact chances of each price rise (in percent) with ``active`` conditions in force.

    >>> price_rise_odds(2).p(20), price_rise_odds(0).p(0)
    (Fraction(1, 100), Fraction(1, 1))
    """
    return dice.odds(price_rise_dice(active))


def condition_odds() -> dict[str, Fraction]:
    """Exact chance that one hazard roll inflicts each condition (upheaval, then draw)."""
    odds = dict.fromkeys(conditions(), Fraction(0))
    p_condition = Fraction(1, 6)
    for face in range(1, 7):
        possible = upheaval_conditions(face)
        for c in possible:
            odds[c] += p_condition * Fraction(1, 6) / len(possible)
    return odds


@dataclass
class SettlementState:
    """A settlement's name and the conditions in force, oldest first."""

    name: str = state_field("", max_len=40)
    conditions: list[str] = state_field(default_factory=list, max_len=6)

    def check_state(self) -> None:
        known = conditions()
        for c in self.conditions:
            if c not in known:
                raise StateError(f"field 'conditions': “{c[:40]}” is not a settlement condition")
        if len(set(self.conditions)) != len(self.conditions):
            raise StateError("field 'conditions' names a condition twice")


@dataclass(frozen=True)
class HazardResult:
    roll: int
    kind: str
    text: str
    details: tuple[str, ...]
    added: str = ""
    ended: str = ""

    def __str__(self) -> str:
        extra = ("; " + "; ".join(self.details)) if self.details else ""
        return f"hazard d6 = {self.roll}: {self.kind}{extra}"


def roll_hazard(settlement: SettlementState, *, rng: random.Random | None = None,
                seed: int | None = None) -> HazardResult:
    """Roll the hazard die for ``settlement`` and apply a condition gained or ended."""
    r = make_rng(seed, rng)
    res = tables.get(HAZARD_TABLE).roll(rng=r)
    face = res.roll if isinstance(res.roll, int) else sum(res.roll)
    kind = HAZARD_KINDS[face - 1]
    details: list[str] = []
    added = ended = ""
    if kind == "signs":
        shift = tables.get(SHIFT_TABLE).roll(rng=r).values["Settlement Shift"]
        rumour = tables.get(RUMOUR_TABLE).roll(rng=r).values["Kind"]
        details += [f"foreshadowed shift: {shift}", f"or a rumour: {rumour}"]
    elif kind == "shift":
        details.append("shift: " + tables.get(SHIFT_TABLE).roll(rng=r).values["Settlement Shift"])
    elif kind == "condition":
        up = tables.get(UPHEAVAL_TABLE).roll(rng=r)
        up_face = up.roll if isinstance(up.roll, int) else sum(up.roll)
        details.append(f"upheaval d6 = {up_face}: {up.values['Upheaval']}")
        possible = upheaval_conditions(up_face)
        if possible:
            pick = possible[dice.roll(f"1d{len(possible)}", rng=r).total - 1]
            if pick in settlement.conditions:
                details.append(f"{pick} (already in force)")
            else:
                settlement.conditions.append(pick)
                added = pick
                details.append(f"condition: {pick}")
        else:
            details.append("no condition")
    elif kind == "depletion":
        if settlement.conditions:
            ended = settlement.conditions.pop(0)
            details.append(f"{ended} ends")
        else:
            details.append("no condition to end")
    return HazardResult(face, kind, res.values["Event"], tuple(details), added, ended)


def roll_rumour_kind(*, rng: random.Random | None = None, seed: int | None = None) -> str:
    """A kind of rumour and what it means."""
    values = tables.get(RUMOUR_TABLE).roll(rng=make_rng(seed, rng)).values
    return f"{values['Kind']}: {values['Meaning']}"


LIBRARY_ONLY: dict[str, str] = {
    "price_rise_odds": "exact odds behind price_rise_dice (the app shows the dice); for the "
                       "API and its doctest",
    "condition_odds": "exact settlement-condition odds for the site's travel reference page",
}

__all__ = ["HAZARD_KINDS", "HazardResult", "SettlementState", "condition_odds", "conditions",
           "price_rise_dice", "price_rise_odds", "roll_hazard", "roll_rumour_kind",
           "upheaval_conditions"]
