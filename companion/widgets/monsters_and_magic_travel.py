"""Monsters & Magic travel planner and falling damage.

``TravelApp`` plans a journey in hexes (overland at a pace, mounted or not, or in a sea or
air vehicle) under either reading of the misaligned overland table, and rolls falling
damage for a height — all from
[travel][companion.rulesets.monsters_and_magic.travel] and
[harm_and_healing][companion.rulesets.monsters_and_magic.harm_and_healing].

With a party (the campaign's ``Adventurer`` sheets) the road is played on the sheets: a
travel period marks the pace's exhaustion on each character, the group check is each
character's own ability check with the pace's modifier (a miss earns XP, a critical miss
feeds the GM's threads, as any check) read by the group-check rules, foraging adds the
supplies the group earned to each sheet, and falling damage is taken by whoever fell.
Before the roll, the exact odds of the damage that fall leaves once the faller's AC has
taken its share (issue 30: falling damage less AC is a reading, see
[harm_and_healing][companion.rulesets.monsters_and_magic.harm_and_healing]).

Usage in a notebook::

    from companion.widgets.monsters_and_magic_travel import TravelApp
    TravelApp()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.dice.render import percent
from companion.errors import CompanionError, RuleError
from companion.rulesets.monsters_and_magic.harm_and_healing import (
    falling_damage_dice,
    falling_damage_odds,
    falling_distance,
    falling_distance_computed,
    falling_distance_differs,
)
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.travel import (
    READINGS,
    TravelPlan,
    overland_paces,
    plan_journey,
    vehicles,
)
from companion.widgets.base import (
    ErrorLine,
    app_box,
    button,
    draw_seed,
    int_box,
    one_line,
    row,
)
from companion.widgets.markup import details_html, el
from companion.widgets.rolls import RollControls
from companion.widgets.seat_controls import table_move

if TYPE_CHECKING:

    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

__all__ = ["TravelApp"]

#: The abilities a group check can use.
_ABILITIES = ("focus", "power", "cunning", "luck")

_OVERLAND = "overland"


class TravelApp(widgets.VBox):
    """Hexes, travel periods, exhaustion and foraging; falling damage and distance.

    ``party()`` hands back the table (a ``Party``: the characters' sheets and the GM's
    threads) whose sheets the road changes; without it the app only plans and rolls.
    """

    def __init__(self, *, seed_source: Callable[[], int] = draw_seed,
                 party: Callable[[], Party] | None = None,
                 controls: RollControls | None = None) -> None:
        super().__init__()
        self.add_class("tc-travel-app")
        self.seed_source = seed_source
        self.party = party
        self.error = e = ErrorLine()
        # The roll mode and "I rolled it myself" for the group checks, foraging and falls
        # (the campaign passes controls for its viewer; alone, every roll is public).
        self.controls = controls if controls is not None else RollControls(
            seed_source=seed_source, hint="1d20 each", name="travel")
        self.hexes = int_box("Hexes", 6, "hexes", 1, 10_000)
        self.how = widgets.Dropdown(options=[_OVERLAND, *(v.name for v in vehicles())],
                                    value=_OVERLAND, description="By",
                                    layout=widgets.Layout(width="220px"))
        self.how.add_class("tc-pick-by")
        self.speed = widgets.Dropdown(options=[p.speed for p in overland_paces()],
                                      value="Normal", description="Pace",
                                      layout=widgets.Layout(width="200px"))
        self.speed.add_class("tc-pick-pace")
        self.mounted = widgets.Checkbox(value=False, description="mounted or drawn vehicle",
                                        indent=False)
        self.reading = widgets.Dropdown(options=list(READINGS), value=READINGS[0],
                                        description="Table reading",
                                        style={"description_width": "initial"},
                                        layout=widgets.Layout(width="260px"))
        self.reading.add_class("tc-pick-reading")
        self.plan = widgets.HTML()
        self.feet = int_box("Feet fallen", 30, "feet", 0, 1_000_000)
        self.turns = int_box("Turns falling", 1, "turns", 1, 100)
        self.fall = button("Roll falling damage", self.roll_fall, error=e, name="fall")
        self.fall_result = widgets.HTML()
        self.fall_odds = widgets.HTML()  # the damage left after AC, before the roll
        self.distance = widgets.HTML()
        # The party on the road (its sheets).
        self.sheets = widgets.HTML()
        self.ability = widgets.Dropdown(options=list(_ABILITIES), value="focus",
                                        description="Check with",
                                        style={"description_width": "initial"},
                                        layout=widgets.Layout(width="190px"))
        self.ability.add_class("tc-pick-ability")
        self.period = button("Travel a period", self.travel_period, error=e, name="period")
        self.group = button("Group check", self.group_check, error=e, name="group")
        self.forage = button("Forage", self.forage_now, error=e, name="forage")
        self.road = widgets.HTML()
        self.faller = widgets.Dropdown(options=[("nobody: just roll", "")], value="",
                                       description="Who fell",
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.faller.add_class("tc-pick-faller")
        party_parts: list[widgets.Widget] = []
        if party is not None:
            party_parts = [widgets.HTML(el("b", "The party on the road")), self.sheets,
                           row(self.ability, self.period, self.group, self.forage),
                           self.road]
        app_box(
            widgets.HTML(el("b", "Travel planner")),
            row(self.hexes, self.how, self.speed),
            row(self.mounted, self.reading),
            self.plan,
            self.controls,
            *party_parts,
            widgets.HTML(el("b", "Falling")),
            row(self.feet, *([self.faller] if party is not None else []), self.fall),
            self.fall_odds,
            self.fall_result,
            row(self.turns),
            self.distance,
            e,
            box=self,
        )
        self._watched: set[int] = set()
        for box in (self.hexes, self.how, self.speed, self.mounted, self.reading):
            box.observe(lambda _ch: self.render_plan(), names="value")
        self.turns.observe(lambda _ch: self.render_distance(), names="value")
        self.feet.observe(lambda _ch: self.render_hint(), names="value")
        self.feet.observe(lambda _ch: self.render_fall_odds(), names="value")
        self.faller.observe(lambda _ch: self.render_fall_odds(), names="value")
        self.render_plan()
        self.render_distance()
        self.render_party()

    def _plan_args(self) -> dict[str, Any]:
        """The journey planned in the boxes above, as a table move's JSON arguments."""
        return {"hexes": self.hexes.read(), "speed": str(self.speed.value),
                "mounted": bool(self.mounted.value),
                "by_vehicle": None if self.how.value == _OVERLAND else str(self.how.value),
                "reading": str(self.reading.value)}

    def journey(self) -> TravelPlan:
        """The journey planned in the boxes above."""
        vehicle = None if self.how.value == _OVERLAND else str(self.how.value)
        return plan_journey(self.hexes.read(), speed=str(self.speed.value),
                            mounted=bool(self.mounted.value), by_vehicle=vehicle,
                            reading=str(self.reading.value))

    def render_plan(self) -> None:
        if not self.hexes.valid:
            self.plan.value = el("div", el("i", "Fix the hexes above."))
            return
        vehicle = None if self.how.value == _OVERLAND else str(self.how.value)
        self.speed.disabled = self.mounted.disabled = vehicle is not None
        p = self.journey()
        self.plan.value = el("div", p.describe(), class_="tc-plan", data_periods=p.periods,
                             data_hours=p.hours, data_exhaustion=p.exhaustion)
        self.forage.disabled = not p.can_forage

    def render_hint(self) -> None:
        """Say what dice the rolls take: a d20 per character's check, the fall's d6s."""
        n = len(self.characters())
        checks = f"checks {n}×1d20" if n else "checks 1d20 each"
        fall = falling_damage_dice(self.feet.read()) if self.feet.valid else "0"
        self.controls.set_hint(checks + (f", fall {fall}" if fall != "0" else ""))

    # -- the party on the road -----------------------------------------------------------

    def _table(self) -> Party:
        if self.party is None:  # the app alone plans and rolls; the road needs sheets
            raise RuleError("Travel: nobody in the party yet")
        return self.party()

    def characters(self) -> list[Adventurer]:
        """The party's characters now (none without a party)."""
        return list(self.party().characters) if self.party is not None else []

    def render_party(self) -> None:
        """Show each sheet's road numbers (and follow the sheets: a move on any screen)."""
        self.render_hint()
        self.render_fall_odds()  # a sheet's AC may have moved
        if self.party is None:
            return
        party = self.characters()
        for a in party:
            if id(a) not in self._watched:
                self._watched.add(id(a))
                a.on_change(lambda _a: self.render_party())
        options = [("nobody: just roll", ""), *((a.name, a.name) for a in party)]
        if list(self.faller.options) != options:
            keep = self.faller.value
            self.faller.options = options
            self.faller.value = keep if keep in [k for _, k in options] else ""
        if not party:
            self.sheets.value = el("p", "Nobody in the party yet: add adventurers in the "
                                   "Table Companion.", class_="tc-empty")
            return
        self.sheets.value = el("ul", (
            el("li", el("b", a.name), f" · HP {a.hp}/{a.max_hp} · exhaustion "
               f"{a.exhaustion}/{a.max_exhaustion} · supplies {a.supplies}",
               data_name=a.name, data_exhaustion=a.exhaustion, data_supplies=a.supplies,
               data_hp=a.hp) for a in party), class_="tc-road")

    def _show(self, kind: str, text: str, notes: list[str], *, how: str = "",
              **data: object) -> None:
        """``text``, then ``how`` (a seed folded under details), the notes as a list."""
        self.road.value = el(
            "div", text, how and (" (", how, ")"),
            notes and el("ul", (el("li", n) for n in notes)),
            class_=f"tc-road-result tc-{kind}", attrs={f"data-{k}": v for k, v in data.items()})

    def travel_period(self) -> None:
        """One travel period: each character marks the pace's exhaustion."""
        plan = self.journey()
        party = self._table()
        # One named table move: every sheet's exhaustion stored together, or none.
        done = table_move(party.characters, "monsters_and_magic.party.travel_period",
                          self._plan_args())
        if not done["marked"]:
            self._show("period", f"one period {plan.how}: no exhaustion to mark", [],
                       exhaustion=0)
            return
        self._show("period", f"one period {plan.how}: {plan.exhaustion} exhaustion marked by "
                   + ", ".join(done["marked"]), done["notes"], exhaustion=plan.exhaustion)

    def _group(self, label: str, forage: bool) -> None:
        """The party's group check (each character's own check, with the pace's modifier),
        rolled through the controls; foraging then adds the supplies to each sheet."""
        party = self._table()
        self.journey()  # a bad box refuses here, before the roll
        ability = str(self.ability.value)
        party.able("roll_check", ability)  # nobody able: refused before the roll is set up
        # One named table move: every sheet's check, the GM's threads and the supplies.
        out = self.controls.run_table(
            f"{label} ({ability})", [*party.characters, party.gm],
            "monsters_and_magic.party.road_check",
            {**self._plan_args(), "ability": ability, "forage": forage})
        kind = "forage" if forage else "group"
        if out.value is None:
            self.road.value = el("div", out.hidden_html(), class_=f"tc-road-result tc-{kind}")
            return
        done = out.value
        how = "real dice" if out.physical else details_html(f"seed {out.seed}")
        data: dict[str, object] = {"tier": done.tier.label, "seed": out.seed or ""}
        if forage:
            data["found"] = done.found
        self._show(kind, f"{label}: {done}", list(done.left_out), how=how, **data)

    def group_check(self) -> None:
        """The party's group check on the road (each character's own check)."""
        self._group("group check", forage=False)

    def forage_now(self) -> None:
        """Forage at the slow pace on foot: a group check, then supplies for each (the
        party refuses it off that pace)."""
        self._group("foraging", forage=True)

    def render_fall_odds(self) -> None:
        """The exact odds of the damage the fall leaves: the chosen faller's AC (the
        sheet's, cover and all) takes its share first; nobody chosen, none."""
        if not self.feet.valid:
            self.fall_odds.value = ""
            return
        feet = self.feet.read()
        dice = falling_damage_dice(feet)
        who = str(self.faller.value)
        faller = next((a for a in self.characters() if a.name == who), None)
        ac = faller.effective_ac if faller is not None else 0
        who_ac = f"{dice} less AC {ac}" + (f" ({faller.name})" if faller else "")
        if dice == "0":
            text = f"{feet} feet: no damage"
        else:
            try:
                taken = falling_damage_odds(feet, ac=ac)
            except CompanionError as exc:  # a fall too long for exact odds: said, not raised
                text = f"{who_ac}: {one_line(exc)}"
            else:
                text = (f"{who_ac}: no damage {percent(taken.p(0))} · average "
                        f"{float(taken.mean):.2f} · at most {taken.max}")
        self.fall_odds.value = el("div", text, class_="tc-fall-odds", data_ac=ac)

    def render_distance(self) -> None:
        if not self.turns.valid:
            self.distance.value = ""
            return
        turns = self.turns.read()
        computed = falling_distance_computed(turns)
        text = f"after {turns} turn{'s' * (turns != 1)}: {float(computed):,.0f} feet (physics)"
        if turns <= 3:
            flag = " — the seed's number is off" if falling_distance_differs(turns) else ""
            text += f"; the seed prints {falling_distance(turns):,} feet{flag}"
        self.distance.value = el("div", text, class_="tc-fall-distance")

    def roll_fall(self) -> None:
        feet = self.feet.read()
        who = str(self.faller.value)
        faller = next((a for a in self.characters() if a.name == who), None)
        if who and faller is None:
            raise RuleError(f"Falling: {who} is no longer in the party")
        if falling_damage_dice(feet) == "0":
            self.fall_result.value = el("div", "no damage", class_="tc-fall", data_total=0)
            return
        label = f"falling {feet} feet" + (f" ({who})" if who else "")
        # One named table move: the dice, and the damage on the faller's sheet.
        out = self.controls.run_table(label, [faller] if faller is not None else [],
                                      "monsters_and_magic.party.fall",
                                      {"feet": feet, "who": faller})
        if out.value is None:
            self.fall_result.value = el("div", out.hidden_html(), class_="tc-fall")
            return
        how = "real dice" if out.physical else details_html(f"seed {out.seed}")
        self.fall_result.value = el("div", f"{out.value} ", el("small", "(", how, ")"),
                                    class_="tc-fall", data_total=out.value.total)
