"""The wilderness app: a route planner and the watch-by-watch journey.

Every rule is the core's ([companion.rulesets.cairn_srd.wilderness][]): the app calls the
moves of a [Journey][companion.rulesets.cairn_srd.wilderness.Journey] and shows what they
say. The route planner adds legs from the travel tables and shows each leg's duration;
the watch procedure runs as five numbered buttons, each enabled only when the procedure
allows it. With the party's sheets, *Copy to sheets* carries Fatigue and Deprived onto
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.rulesets.cairn_srd import wilderness as wd
from companion.rulesets.cairn_srd.burden import TAGS, slots_used
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.wilderness import Journey
from companion.widgets.base import (
    SaveLoad,
    app_box,
    bind,
    check_box,
    int_box,
    name_box,
    offer,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, labelled
from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.seat_controls import (
    act,
    member_key,
    seat_refusal,
    show_undo,
    table_move,
    undo,
)

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["WildernessApp"]


def _dropdown(options: list[str] | tuple[str, ...], name: str) -> widgets.Dropdown:
    box = widgets.Dropdown(tooltip=name.replace("-pick", "").replace("-", " ").capitalize(),
                           options=list(options), value=options[0],
                           layout=widgets.Layout(width="auto", max_width="100%"))
    box.add_class(f"tc-select-{name}")
    return box


class WildernessApp(CairnAppBase):
    """Plan a route and travel it watch by watch.

    ``party``: the characters who travel (the campaign hands its party here); each joins
    the journey with their present Fatigue. Without one, travellers are added by name.
    ``journey``: an existing [Journey][companion.rulesets.cairn_srd.wilderness.Journey].
    Every roll (travel, supply, lookout, camp, the event check) takes a roll mode and can
    be entered from real dice ([common][companion.widgets.cairn_srd.common]).
    """

    dice_hint = "d6"

    def __init__(self, party: list[Character] | None = None, journey: Journey | None = None,
                 *, seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.party: list[Character] = party if party is not None else []
        self.journey = journey if journey is not None else Journey()
        j = self.journey
        # Each character this page's seat may bring joins (a player's: their own).
        # One named table move: the sheets' Fatigue and Deprived read where it is made.
        travelling = {t.name.lower() for t in j.party}
        joining = [c for c in self.party if c.name.lower() not in travelling
                   and seat_refusal(j, "add_traveller", {"name": c.name}) is None]
        if joining:
            table_move([j, *joining], "cairn_srd.wilderness.join_party", {
                "journey": member_key(j), "characters": [member_key(c) for c in joining]})

        # -- route planner -----------------------------------------------------------
        self.path = _dropdown(tuple(wd.path_types()), "path")
        self.distance = _dropdown(tuple(wd.distances()), "distance")
        self.terrain = _dropdown(tuple(wd.terrains()), "terrain")
        self.sea = int_box("Open sea", 0, "sea", 0, wd.OPEN_SEA_MAX)
        self.water = check_box("By water", "water")
        self.dest = name_box("To", "", "dest", max_len=wd.MAX_NAME, required=False,
                             placeholder="next point", width="200px")
        self.route = widgets.HTML()
        self.vehicle = check_box("With a vehicle", "vehicle")
        self.add_leg_button = self.btn("Add leg", self.add_leg, "add-leg")

        # -- travellers ----------------------------------------------------------------
        self.who = name_box("Name", "", "traveller", max_len=wd.MAX_NAME,
                            required=False, width="200px")
        self.rations = int_box("Rations", 3, "rations", 0, 999)
        self.mounts = int_box("Mounts", 0, "mounts", 0, wd.MAX_PARTY)
        self.feed = int_box("Feed", 0, "feed", 0, 999)
        self.vehicles = int_box("Vehicles", 0, "vehicles", 0, wd.MAX_VEHICLES)
        # What the picked member's beasts of burden and vehicles carry (the rules count it).
        self.vehicles_button = self.btn("Bring vehicles", self.bring_vehicles, "bring-vehicles")
        self.cargo_item = name_box("Cargo", "", "cargo-item", max_len=wd.MAX_NAME,
                                   required=False, placeholder="an item", width="200px")
        self.cargo_tag = _dropdown(TAGS, "cargo-tag")
        self.load_button = self.btn("Load", self.load_cargo, "load-cargo")
        self.cargo_index = int_box("Entry #", 1, "cargo-index", 1, 200)
        self.unload_button = self.btn("Unload", self.unload_cargo, "unload-cargo")
        self.add_traveller_button = self.btn("Add traveller", self.add_traveller,
                                             "add-traveller")
        self.people = widgets.HTML()
        self.copy_button = self.btn("Copy to sheets", self.copy_to_sheets, "copy-sheets")

        # -- the watch -------------------------------------------------------------------
        self.board = widgets.HTML()
        self.winter_button = self.btn("Winter", self.toggle_winter, "winter")
        self.weather = name_box("Weather", "", "weather", max_len=wd.MAX_TEXT, required=False,
                                placeholder="fair", width="200px")
        self.weather_watches = int_box("+watches", 0, "weather-watches", 0, 3)
        self.weather_button = self.btn("1 · Weather", self.set_weather, "weather", "primary")
        self.action = _dropdown([a for a in wd.ACTIONS if a != "lookout"], "action")
        self.lit = check_box("Carrying light", "lit")
        self.choose_button = self.btn("2 · Choose", self.choose, "choose")
        self.have = int_box("Have (0-3)", 2, "have", 0, 3)
        self.modifier = int_box("Modifier", 0, "modifier", -5, 5)
        self.navigate = check_box("Navigate", "navigate")
        self.navigate.value = True
        self.travel_button = self.btn("3 · Travel", self.travel, "travel")
        self.found = name_box("Found", "", "found", max_len=wd.MAX_TEXT, required=False,
                              width="200px")
        self.explore_button = self.btn("3 · Explore", self.explore, "explore")
        self.member = _dropdown(["—"], "member")
        self.carrier = _dropdown(["—"], "carrier")
        self.activity = _dropdown(wd.SUPPLY_ACTIVITIES, "activity")
        self.bought = int_box("Buy", 0, "bought", 0, 999)
        self.component = _dropdown(["—", *wd.foraged_components()], "component")
        self.steps_up = int_box("Yield steps up", 0, "steps-up", 0, 4)
        self.supply_button = self.btn("3 · Supply", self.supply, "supply")
        self.lookout_button = self.btn("Lookout", self.lookout, "lookout")
        self.meal = _dropdown(wd.MEALS, "meal")
        self.awake = widgets.SelectMultiple(tooltip="Awake on watch", options=[], rows=3,
                                            layout=widgets.Layout(width="auto"))
        self.awake.add_class("tc-select-awake")
        self.harsh = check_box("Winter or foul weather", "harsh")
        # The camp's amenities are the party's own, apart from the weather: a
        # well-equipped winter camp rests (camp_gives_rest decides).
        self.fire = check_box("Fire", "fire")
        self.bedding = check_box("Bedding", "bedding")
        self.shelter = check_box("Shelter", "shelter")
        self.fire.value = self.bedding.value = self.shelter.value = True
        self.graze = check_box("Mounts graze", "graze")
        self.camp_button = self.btn("3 · Make camp", self.make_camp, "camp")
        self.torches = int_box("Torches", 0, "torches", 0, 99)
        self.oil = int_box("Oil", 0, "oil", 0, 99)
        self.light_button = self.btn("4 · Mark light", self.mark_light, "light")
        self.event_button = self.btn("5 · Event die", self.event, "event")
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.file = SaveLoad(j, "cairn-journey.json", what="journey")

        app_box(
            cairn_css(),
            widgets.HTML(el("h3", "Route")),
            row(labelled("Path", self.path), labelled("Distance", self.distance),
                labelled("Terrain", self.terrain)),
            row(self.sea, self.water, self.vehicle, self.dest, self.add_leg_button),
            self.route,
            widgets.HTML(el("h3", "Party")),
            self.people,
            row(self.who, self.rations, self.mounts, self.feed, self.vehicles,
                self.add_traveller_button),
            row(self.copy_button),
            row(labelled("Who", self.carrier), self.vehicles_button, self.cargo_item,
                labelled("Tag", self.cargo_tag), self.load_button, self.cargo_index,
                self.unload_button),
            widgets.HTML(el("h3", "Watch")),
            self.board,
            row(self.winter_button),
            row(self.weather, self.weather_watches, self.weather_button),
            row(labelled("Action", self.action), self.lit, self.choose_button),
            row(self.have, self.modifier, self.navigate, self.travel_button),
            row(self.found, self.explore_button),
            row(labelled("Who", self.member), labelled("Activity", self.activity),
                labelled("Component", self.component), self.steps_up, self.bought,
                self.supply_button, self.lookout_button),
            row(labelled("Meal", self.meal), labelled("Awake all night", self.awake),
                self.harsh, self.fire, self.bedding, self.shelter, self.graze,
                self.camp_button),
            row(self.torches, self.oil, self.light_button, self.event_button,
                self.undo_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        self.add_traveller_button.layout.display = "none" if self.party else ""
        bind(j, self.render, error=self.error)

    # -- actions -------------------------------------------------------------------------

    def add_leg(self) -> None:
        plan = act(self.journey, "add_leg", self.path.value, self.distance.value,
                   self.terrain.value, self.sea.read(), self.water.value, self.dest.read(),
                   bool(self.vehicle.value))
        self.show(f"Leg added: {plan}")

    def add_traveller(self) -> None:
        name = self.who.read()
        act(self.journey, "add_traveller", name, self.rations.read(), self.mounts.read(),
                                   self.feed.read(), vehicles=self.vehicles.read())
        self.show(f"{name} joins the party")

    def bring_vehicles(self) -> None:
        act(self.journey, "bring_vehicles", str(self.carrier.value), self.vehicles.read())
        self.show(self.journey.log[-1].summary)

    def load_cargo(self) -> None:
        act(self.journey, "load_cargo", str(self.carrier.value), self.cargo_item.read(),
            str(self.cargo_tag.value))
        self.cargo_item.value = ""
        self.show(self.journey.log[-1].summary)

    def unload_cargo(self) -> None:
        act(self.journey, "unload_cargo", str(self.carrier.value), self.cargo_index.read() - 1)
        self.show(self.journey.log[-1].summary)

    def copy_to_sheets(self) -> None:
        # The sheets this seat may change (a player's: their own), in one table move: all
        # stored together, or, should one be refused the seat, none.
        sheets = [c for c in self.party if seat_refusal(c, "add_fatigue", {}) is None]
        notes = table_move([self.journey, *sheets], "cairn_srd.wilderness.apply_to_sheets", {
            "journey": member_key(self.journey),
            "characters": [member_key(c) for c in sheets]})
        self.show("Sheets: " + ("; ".join(notes) if notes else "already up to date"))

    def toggle_winter(self) -> None:
        act(self.journey, "set_winter", not self.journey.winter)
        self.show(self.journey.log[-1].summary)

    def set_weather(self) -> None:
        act(self.journey, "set_weather", self.weather.read(), self.weather_watches.read())
        self.show(self.journey.log[-1].summary)

    def choose(self) -> None:
        act(self.journey, "choose", self.action.value, lit=self.lit.value)
        self.show(self.journey.log[-1].summary)

    def travel(self) -> None:
        navigate, have, modifier = self.navigate.value, self.have.read(), self.modifier.read()
        self.roll("travel a watch", (self.journey, "travel", {
            "navigate": navigate, "have": have, "modifier": modifier}))

    def explore(self) -> None:
        self.show(act(self.journey, "explore", self.found.read()))

    def supply(self) -> None:
        who, activity, have = self.member.value, self.activity.value, self.have.read()
        bought, steps_up = self.bought.read(), self.steps_up.read()
        component = "" if self.component.value == "—" else self.component.value
        self.roll(f"{who}: {activity}", (self.journey, "supply", {
            "name": who, "activity": activity, "have": have, "steps_up": steps_up,
            "component": component, "bought": bought}))

    def lookout(self) -> None:
        who, have, modifier = self.member.value, self.have.read(), self.modifier.read()
        self.roll(f"{who}: lookout", (self.journey, "lookout", {
            "name": who, "have": have, "modifier": modifier}),
                  lambda result: f"{who} on lookout: {result}")

    def make_camp(self) -> None:
        awake, meal, harsh = list(self.awake.value), self.meal.value, self.harsh.value
        have, modifier, graze = self.have.read(), self.modifier.read(), self.graze.value
        fire, bedding, shelter = self.fire.value, self.bedding.value, self.shelter.value
        self.roll("make camp", (self.journey, "make_camp", {
            "sleepless": awake, "meal": meal, "cook_have": have, "cook_modifier": modifier,
            "graze": graze, "harsh": harsh, "fire": fire, "bedding": bedding,
            "shelter": shelter}))

    def mark_light(self) -> None:
        self.show(act(self.journey, "mark_light", self.torches.read(), self.oil.read()))

    def event(self) -> None:
        self.roll("event check", self.journey.event_check)

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.journey).summary}")

    # -- rendering -----------------------------------------------------------------------

    def render(self) -> None:
        j = self.journey
        if j.legs:
            plan = wd.plan_route(j.legs)
            rows = (el("tr", el("td", "✓" if i <= j.leg else i), el("td", p.leg.path),
                       el("td", p.leg.distance), el("td", p.leg.terrain), el("td", p.watches))
                    for i, p in enumerate(plan.legs, 1))
            self.route.value = frag(
                el("table", el("tr", (el("th", h) for h in ("#", "Path", "Distance", "Terrain",
                                                            "Watches"))),
                   rows, class_="tc-grid tc-route"),
                el("div", "Total ", el("b", plan.watches), f" watches, about {plan.leagues} "
                   "leagues, ", el("b", plan.days), " days", class_="tc-stats tc-route-total"))
        else:
            self.route.value = el("div", "No route yet.", class_="tc-stats tc-route-total")
        self.people.value = frag(
            el("div", join((_traveller_html(t) for t in j.party), el("br")),
               class_="tc-stats tc-people"),
            el("small", f"Meat {j.meat} · foraged {j.forage}"
               + (" · " + ", ".join(j.components) if j.components else "")))
        leg = j.current
        where = ("arrived" if j.arrived else
                 f"leg {j.leg + 1}: {j.progress}/{j.leg_watches} watches" if leg else
                 "no route")
        self.board.value = el(
            "div", el("b", f"Day {j.day}"), f", {wd.WATCH_NAMES[j.watch]} watch"
            f"{' (dark)' if j.dark else ''} · next: ", el("b", j.next_step),
            f" · {where} · {j.watches_left} watches left",
            j.last_event and frag(el("br"), f"Last event: {j.last_event}"),
            class_="tc-stats tc-watch", data_step=j.step)
        names = [t.name for t in j.party]
        offer(self.member, names or ["—"])  # a pick stays when someone joins
        offer(self.carrier, names or ["—"])
        for carrier_button in (self.vehicles_button, self.load_button, self.unload_button):
            carrier_button.disabled = not names
        offer(self.awake, names)
        self.weather_button.disabled = not j.allowed("set_weather")
        self.choose_button.disabled = not j.allowed("choose")
        self.travel_button.disabled = not j.allowed("travel")
        self.explore_button.disabled = not j.allowed("explore")
        self.supply_button.disabled = not j.allowed("supply") or not names
        self.camp_button.disabled = not j.allowed("make_camp") or not names
        self.lookout_button.disabled = not j.allowed("lookout") or not names
        self.light_button.disabled = not j.allowed("mark_light")
        self.event_button.disabled = not j.allowed("event_check")
        show_undo(self.undo_button, j)
        self.copy_button.disabled = not self.party
        self.winter_button.description = "End winter" if j.winter else "Winter"


def _traveller_html(t: wd.Traveller) -> Markup:
    """One traveller's line: rations, mounts, Fatigue, and the cargo their beasts carry."""
    cargo = None
    if t.cargo_slots:
        listed = ", ".join(f"#{i} {c.label}" for i, c in enumerate(t.cargo, 1))
        cargo = frag(el("br"), el(
            "span", f"cargo {slots_used(t.cargo)}/{t.cargo_slots} slots"
            + (f": {listed}" if t.cargo else ""),
            class_="tc-cargo", data_slots=slots_used(t.cargo), data_room=t.cargo_slots))
    return frag(el("b", t.name), f": Rations {t.rations} · mounts {t.mounts} · feed {t.feed} · "
                f"Fatigue {t.fatigue}" + (" · Deprived" if t.deprived else "")
                + (f" · vehicles {t.vehicles}" if t.vehicles else ""), cargo)
