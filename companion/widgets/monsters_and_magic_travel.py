"""Monsters & Magic travel planner and falling damage.

``TravelApp`` plans a journey in hexes (overland at a pace, mounted or not, or in a sea or
air vehicle) under either reading of the misaligned overland table, and rolls falling
damage for a height — all from
[travel][companion.rulesets.monsters_and_magic.travel] and
[harm_and_healing][companion.rulesets.monsters_and_magic.harm_and_healing].

Usage in a notebook::

    from companion.widgets.monsters_and_magic_travel import TravelApp
    TravelApp()
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from companion.dice import roll
from companion.rulesets.monsters_and_magic.harm_and_healing import (
    falling_damage_dice,
    falling_distance,
    falling_distance_computed,
    falling_distance_differs,
)
from companion.rulesets.monsters_and_magic.travel import (
    READINGS,
    overland_paces,
    plan_journey,
    vehicles,
)
from companion.widgets.base import ErrorLine, app_box, button, draw_seed, escape, int_box, row

__all__ = ["TravelApp"]

_OVERLAND = "overland"


class TravelApp(widgets.VBox):
    """Hexes, travel periods, exhaustion and foraging; falling damage and distance."""

    def __init__(self, *, seed_source: Callable[[], int] = draw_seed) -> None:
        super().__init__()
        self.seed_source = seed_source
        self.error = e = ErrorLine()
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
        self.distance = widgets.HTML()
        app_box(
            widgets.HTML("<b>Travel planner</b>"),
            row(self.hexes, self.how, self.speed),
            row(self.mounted, self.reading),
            self.plan,
            widgets.HTML("<b>Falling</b>"),
            row(self.feet, self.fall),
            self.fall_result,
            row(self.turns),
            self.distance,
            e,
            box=self,
        )
        for box in (self.hexes, self.how, self.speed, self.mounted, self.reading):
            box.observe(lambda _ch: self.render_plan(), names="value")
        self.turns.observe(lambda _ch: self.render_distance(), names="value")
        self.render_plan()
        self.render_distance()

    def render_plan(self) -> None:
        if not self.hexes.valid:
            self.plan.value = "<div><i>Fix the hexes above.</i></div>"
            return
        vehicle = None if self.how.value == _OVERLAND else str(self.how.value)
        self.speed.disabled = self.mounted.disabled = vehicle is not None
        p = plan_journey(self.hexes.read(), speed=str(self.speed.value),
                         mounted=bool(self.mounted.value), by_vehicle=vehicle,
                         reading=str(self.reading.value))
        self.plan.value = (f'<div class="tc-plan" data-periods="{p.periods}" '
                           f'data-hours="{p.hours}" data-exhaustion="{p.exhaustion}">'
                           f"{escape(p.describe())}</div>")

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
        self.distance.value = f'<div class="tc-fall-distance">{escape(text)}</div>'

    def roll_fall(self) -> None:
        dice = falling_damage_dice(self.feet.read())
        if dice == "0":
            self.fall_result.value = '<div class="tc-fall" data-total="0">no damage</div>'
            return
        seed = self.seed_source()
        rolled = roll(dice, seed=seed)
        self.fall_result.value = (f'<div class="tc-fall" data-total="{rolled.total}">'
                                  f"{escape(dice)}: {escape(rolled)} <small>(seed {seed})"
                                  "</small></div>")
