"""Mass combat and naval vessels: the attack matrix beside a ship's sheet.

[AttackMatrixPanel][companion.widgets.cairn_srd.vessels.AttackMatrixPanel] shows how an
attack changes across scales (read from ``data/rules.toml`` through
[attack_effect][companion.rulesets.cairn_srd.mass_combat.attack_effect]);
[VesselPanel][companion.widgets.cairn_srd.vessels.VesselPanel] runs one
[Vessel][companion.rulesets.cairn_srd.mass_combat.Vessel]: damage to its hull (STR), sails
(DEX) or crew (CTRL), direct when a fleet attacks it, boarding after Critical Damage,
repairs with their cost, rest at port, and its cargo (4 slots in the hold, 6 on the decks:
stow and unload).
[MassCombatApp][companion.widgets.cairn_srd.vessels.MassCombatApp] puts them side by side
(stacked on a phone).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.rulesets.cairn_srd import mass_combat
from companion.rulesets.cairn_srd.mass_combat import Vessel
from companion.rulesets.cairn_srd.saves import MAX_SCORE
from companion.widgets.base import (
    SaveLoad,
    app_box,
    bind,
    disable_for,
    first_bad_box,
    int_box,
    name_box,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, labelled
from companion.widgets.markup import el, frag
from companion.widgets.rolls import NamedMove
from companion.widgets.seat_controls import act, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["AttackMatrixPanel", "MassCombatApp", "VesselPanel"]

PARTS = {"STR": "hull", "DEX": "sails", "CTRL": "crew"}
MAX_CREW = 100_000
"""The largest crew the crew-size box takes (a fleet's flagship, generously)."""
MAX_COST = 10**9
"""The largest vessel cost the repair box takes (in silver)."""


class AttackMatrixPanel(widgets.VBox):
    """The attack matrix: the row is the attacker's scale, the column the defender's."""

    def __init__(self) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        scales = mass_combat.scales()
        head = el("tr", el("th", "attacker / defender"), (el("th", d) for d in scales))
        body = (el("tr", el("th", a),
                   (el("td", mass_combat.attack_effect(a, d)) for d in scales))
                for a in scales)
        # It scrolls sideways on a phone: tabindex lets a keyboard reach it to scroll it.
        self.table = widgets.HTML(el(
            "div", el("table", head, body, class_="tc-grid tc-matrix"), tabindex=0,
            style="overflow-x:auto;max-width:100%"))
        self.children = (widgets.HTML(el("b", "Attack matrix")), self.table)


class VesselPanel(widgets.VBox):
    """One ship's stats and the moves on it; a move the rules refuse now is disabled."""

    def __init__(self, vessel: Vessel, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-vessel")
        self.vessel, self.app = vessel, app
        self.stats = widgets.HTML()
        self.amount = int_box("Damage", 4, "ship-damage", 0, 99, width="110px")
        self.part = widgets.Dropdown(tooltip="Part",
                                     options=[(f"{k} ({v})", k) for k, v in PARTS.items()],
                                     value="STR", layout=widgets.Layout(width="130px"))
        self.part.add_class("tc-ship-part")
        # A fleet's attack on a ship is direct damage (the attack matrix): past Guard and Armor.
        self.direct = widgets.Checkbox(value=False, description="direct (skips Guard, Armor)",
                                       indent=False, layout=widgets.Layout(width="auto"))
        self.direct.add_class("tc-ship-direct")
        self.damage_button = app.btn("Hit the ship", self.hit, "ship-hit", "danger")
        self.boarders = name_box("Boarders", "Boarders", "boarders", max_len=40,
                                 width="200px")
        self.board_button = app.btn("Board", self.board, "ship-board")
        self.cost = int_box("Ship cost", 1000, "ship-cost", 0, MAX_COST, width="160px")
        self.repair_buttons = {key: app.btn(f"Repair {key}", self._repair(key),
                                            f"ship-repair-{key.lower()}")
                               for key in PARTS}
        self.port_button = app.btn("Rest at port", self.rest, "ship-port")
        self.cargo = name_box("Cargo", "", "cargo", max_len=40, required=False,
                              placeholder="cargo to stow", width="200px")
        self.place = widgets.Dropdown(tooltip="Where the cargo goes",
                                      options=[("hold", "hold"), ("decks", "decks")],
                                      value="hold", layout=widgets.Layout(width="100px"))
        self.place.add_class("tc-cargo-place")
        self.stow_button = app.btn("Stow", self.stow, "cargo-stow")
        self.cargo_rows = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self._shown_cargo: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self.children = (
            self.stats,
            row(self.amount, labelled("Part", self.part), self.direct, self.damage_button),
            row(self.boarders, self.board_button),
            row(self.cost, *self.repair_buttons.values()),
            row(self.port_button),
            widgets.HTML(el("b", "Cargo")),
            row(self.cargo, labelled("in the", self.place), self.stow_button),
            self.cargo_rows,
        )
        for box in (self.amount, self.cost, self.boarders, self.cargo):
            box.observe(lambda _c: self.render(), "value")
        self.place.observe(lambda _c: self.render(), "value")

    def stow(self) -> None:
        act(self.vessel, "load_cargo", self.cargo.read(), self.place.value)
        self.cargo.value = ""
        self.app.show(self.vessel.log[-1].summary)

    def _unload(self, place: str, index: int) -> Callable[[], None]:
        def unload() -> None:
            act(self.vessel, "unload_cargo", place, index)
            self.app.show(self.vessel.log[-1].summary)
        return unload

    def _render_cargo(self) -> None:
        v = self.vessel
        shown = (tuple(v.hold), tuple(v.decks))
        if shown == self._shown_cargo:
            return  # the same rows: rebuilding them would drop a tap in flight
        self._shown_cargo = shown
        rows: list[widgets.Widget] = []
        for place, items in (("hold", v.hold), ("decks", v.decks)):
            for i, item in enumerate(items):
                rows.append(row(widgets.HTML(frag(f"{item} ", el("small", f"({place})"))),
                                self.app.btn("Unload", self._unload(place, i),
                                             f"unload-{place}-{i}")))
        self.cargo_rows.children = tuple(rows) or (
            widgets.HTML(el("span", "No cargo aboard.", class_="tc-side")),)

    def hit(self) -> None:
        amount, part, direct = self.amount.read(), self.part.value, bool(self.direct.value)
        self.app.draw_and_show(
            f"{self.vessel.name}: {amount} {'direct ' if direct else ''}damage to {part}",
            (self.vessel, "take_damage", {"amount": amount, "target": part, "direct": direct}))

    def board(self) -> None:
        self.app.show(act(self.vessel, "board", self.boarders.read()))

    def _repair(self, key: str) -> Callable[[], None]:
        def repair() -> None:
            cost = mass_combat.repair_cost(self.cost.read())
            act(self.vessel, "repair", key)
            self.app.show(f"{self.vessel.name}: {key} repaired to "
                          f"{getattr(self.vessel, PARTS[key])} (workers plus "
                          f"{_silver(cost)} silver of materials)")
        return repair

    def rest(self) -> None:
        act(self.vessel, "rest_at_port")
        self.app.show(f"{self.vessel.name} rests at port: Guard {self.vessel.guard}")

    def render(self) -> None:
        v = self.vessel
        state = []
        if v.boardable:
            state.append("may be boarded")
        for part in PARTS.values():
            if getattr(v, part) == 0:
                state.append({"hull": "sinking", "sails": "immobile",
                              "crew": "surrenders or panics"}[part])
        self.stats.value = el(
            "div", el("b", v.name), f" ({', '.join(state) or 'seaworthy'})", el("br"),
            f"Guard {v.guard}/{v.guard_max} · Armor {v.armor}", el("br"),
            f"STR hull {v.hull}/{v.hull_max} · DEX sails {v.sails}/{v.sails_max} · "
            f"CTRL crew {v.crew}/{v.crew_max}", el("br"),
            f"hold {len(v.hold)}/{mass_combat.HOLD_SLOTS} · decks "
            f"{len(v.decks)}/{mass_combat.DECK_SLOTS}", class_="tc-stats")
        disable_for(self.damage_button, first_bad_box(self.amount))
        disable_for(self.board_button, first_bad_box(self.boarders) or (
            None if v.boardable else "only after Critical Damage to the ship"))
        bad_cost = first_bad_box(self.cost)
        for key, btn in self.repair_buttons.items():
            disable_for(btn, bad_cost or (None if key in v.damaged else f"{key} is not damaged"))
        disable_for(self.port_button,
                    None if v.guard < v.guard_max else "Guard is already full")
        room = {"hold": mass_combat.HOLD_SLOTS - len(v.hold),
                "decks": mass_combat.DECK_SLOTS - len(v.decks)}
        disable_for(self.stow_button, first_bad_box(self.cargo) or (
            "name the cargo first" if not self.cargo.value.strip() else
            None if room[self.place.value] > 0 else f"the {self.place.value} is full"))
        self._render_cargo()


def _silver(cost: Fraction) -> str:
    return str(cost.numerator) if cost.denominator == 1 else f"{float(cost):,.2f}"


class MassCombatApp(CairnAppBase):
    """The attack matrix beside a ship: hit its parts, board it, repair it, rest at port.

    A hit (with its Critical Damage save) takes a roll mode and can be entered from real
    dice ([common][companion.widgets.cairn_srd.common])."""

    dice_hint = "d20"

    def __init__(self, vessel: Vessel | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.vessel = vessel if vessel is not None else Vessel(name="Gull")
        self.matrix = AttackMatrixPanel()
        self.panel = VesselPanel(self.vessel, self)
        self.undo_button = self.btn("Undo", self.undo, "undo")
        # Who moves first against another ship: the higher DEX (sailing_order).
        self.rival = name_box("Other ship", "Rival", "rival", max_len=40, required=False,
                              width="160px")
        self.rival_dex = int_box("its DEX", 10, "rival-dex", 0, MAX_SCORE, width="120px")
        self.order = widgets.HTML()
        for box in (self.rival, self.rival_dex):
            box.observe(lambda _c: self.render_order(), "value")
        # How many sail her decides how she fights: a boat's crew is a detachment.
        self.crew_size = int_box("Crew size", 30, "crew-size", 1, MAX_CREW, width="140px")
        self.scale = widgets.HTML()
        self.crew_size.observe(lambda _c: self.render_scale(), "value")
        self.file = SaveLoad(self.vessel, "cairn-vessel.json", what="ship")
        side = widgets.HBox([self.matrix, self.panel],
                            layout=widgets.Layout(flex_flow="row wrap", max_width="100%",
                                                  grid_gap="12px"))
        app_box(cairn_css(), side, row(self.undo_button), self.error, self.outcome,
                self.seed_row, row(self.rival, self.rival_dex), self.order,
                row(self.crew_size, self.scale), self.file, box=self)
        bind(self.vessel, self.render, error=self.error)

    def draw_and_show(self, label: str, action: NamedMove) -> None:
        """Make the roll ``action`` (a vessel's move, named: ``(vessel, "move", {args})``)
        through the roll controls and show what it says."""
        self.roll(label, action)

    def undo(self) -> None:
        event = undo(self.vessel)
        self.show(f"Undone: {event.summary}")

    def render(self) -> None:
        self.panel.render()
        disable_for(self.undo_button, None if self.vessel.can_undo else "nothing to undo")
        self.render_order()
        self.render_scale()

    def render_scale(self) -> None:
        """The scale the crew size makes the vessel fight at (the attack matrix's row)."""
        if first_bad_box(self.crew_size) is not None:
            self.scale.value = ""
            return
        scale = mass_combat.vessel_scale(self.crew_size.read())
        self.scale.value = el("span", "fights as a ", el("b", scale),
                              f" (a crew of {mass_combat.SHIP_CREW}+ makes a ship)",
                              class_="tc-side tc-scale")

    def render_order(self) -> None:
        """Which ship moves first (the sails are the ship's DEX)."""
        if first_bad_box(self.rival, self.rival_dex) is not None:
            self.order.value = el("div", el("i", "Fix the box above."),
                                  class_="tc-side tc-order")
            return
        v, rival = self.vessel, self.rival.read() or "Rival"
        if rival == v.name:
            rival += " (other)"
        groups = mass_combat.sailing_order({v.name: v.sails, rival: self.rival_dex.read()})
        text = " then ".join(" and ".join(g) + (" together" if len(g) > 1 else "")
                             for g in groups) or "neither ship can move"
        still = [n for n, d in ((v.name, v.sails), (rival, self.rival_dex.read())) if not d]
        self.order.value = el("div", f"Moves first: {text}",
                              still and f" ({', '.join(still)}: DEX 0, immobile)",
                              class_="tc-side tc-order")
