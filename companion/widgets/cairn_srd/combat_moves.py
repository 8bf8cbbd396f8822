"""Combat moves beyond the attack: a maneuver, escaping the fight, marking a combatant by
the fiction (a foe surrenders or flees, an NPC is stabilised), damage from outside an
attack (direct or environmental, typed in), and what the fight owes
the sheets of player characters it has no sheet for (scars, a maneuver's Fatigue, critical
kills for weapon mastery), each marked written once the player has.

Composed into [CombatApp][companion.widgets.cairn_srd.combat.CombatApp]. A party member in
a linked fight ([Tracker.link][companion.state.Tracker.link]) owes
nothing: the fight's moves are its sheet's own.
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from companion.rulesets.cairn_srd import combat
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.cairn_srd.saves import ABILITIES
from companion.widgets.base import bind, disable_for, first_bad_box, int_box, row
from companion.widgets.cairn_srd.common import CairnAppBase, labelled, said
from companion.widgets.markup import Markup, el, frag
from companion.widgets.seat_controls import act

__all__ = ["CombatMovesPanel"]

MAX_DAMAGE = 99
"""Most damage typed in at once (3d6 lightning is 18; a fall from a tower more)."""


class CombatMovesPanel(widgets.VBox):
    """Maneuver, escape, and the party's sheets in the fight."""

    def __init__(self, encounter: Encounter, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-combat-moves")
        self.encounter, self.app = encounter, app
        self.who = widgets.Dropdown(tooltip="Who", layout=widgets.Layout(width="160px"))
        self.who.add_class("tc-move-who")
        self.foe = widgets.Dropdown(tooltip="Foe", layout=widgets.Layout(width="160px"))
        self.foe.add_class("tc-move-foe")
        self.foe_save = widgets.Dropdown(tooltip="Foe's save", options=list(ABILITIES), value="STR",
                                         layout=widgets.Layout(width="90px"))
        self.foe_save.add_class("tc-move-foe-save")
        self.own_save = widgets.Dropdown(tooltip="Own save", options=list(ABILITIES), value="DEX",
                                         layout=widgets.Layout(width="90px"))
        self.own_save.add_class("tc-move-own-save")
        self.safe_place = widgets.Checkbox(value=True, description="somewhere safe to go",
                                           indent=False, layout=widgets.Layout(width="auto"))
        self.safe_place.add_class("tc-move-safe")
        self.maneuver_button = app.btn("Maneuver", self.maneuver, "maneuver")
        self.escape_button = app.btn("Escape the fight", self.escape, "escape-fight")
        # Marks and damage outside an attack: any combatant, whatever the turn.
        self.anyone = widgets.Dropdown(tooltip="Combatant to mark or damage",
                                       layout=widgets.Layout(width="160px"))
        self.anyone.add_class("tc-mark-who")
        self.status = widgets.Dropdown(tooltip="New status", options=list(combat.STATUSES),
                                       value="fled", layout=widgets.Layout(width="110px"))
        self.status.add_class("tc-mark-status")
        self.mark_button = app.btn("Mark", self.mark, "mark-status")
        self.amount = int_box("Damage", 1, "fight-damage", 0, MAX_DAMAGE, width="140px")
        self.direct = widgets.Checkbox(value=True, description="direct (skips Guard, Armor)",
                                       indent=False, layout=widgets.Layout(width="auto"))
        self.direct.add_class("tc-fight-direct")
        self.damage_button = app.btn("Apply damage", self.damage, "fight-damage")
        self.due = widgets.HTML()
        self.due_row = row()
        self.children = (
            widgets.HTML(el("b", "Maneuver or escape")),
            row(labelled("who", self.who), widgets.HTML("→"), self.foe),
            row(labelled("target saves", self.foe_save),
                labelled("own save", self.own_save), self.maneuver_button),
            row(self.safe_place, self.escape_button),
            widgets.HTML(frag(el("b", "Marks and other damage"), " ", el(
                "span", "a foe surrenders or flees, an NPC is stabilised; a fall, fire, poison",
                class_="tc-side"))),
            row(labelled("who", self.anyone), labelled("is now", self.status),
                self.mark_button),
            row(self.amount, self.direct, self.damage_button),
            self.due,
            self.due_row,
        )
        for box in (self.who, self.foe):
            box.observe(lambda _c: self.render(), "value")
        self.amount.observe(lambda _c: self.render(), "value")
        bind(encounter, self.render, error=app.error)

    def maneuver(self) -> None:
        e = self.encounter
        who, foe = str(self.who.value), str(self.foe.value)
        foe_save, own_save = self.foe_save.value, self.own_save.value
        self.app.roll(f"{who} → {foe}: maneuver", (e, "maneuver", {
            "attacker": who, "target": foe, "target_ability": foe_save,
            "attacker_ability": own_save}), lambda r: said(e, f"maneuver: {r}"))

    def escape(self) -> None:
        e = self.encounter
        who, safe_place = str(self.who.value), self.safe_place.value
        self.app.roll(f"{who}: escape", (e, "escape", {"name": who, "safe_place": safe_place}),
                      lambda r: said(e, f"{who} escape: {r}"))

    def mark(self) -> None:
        who, status = str(self.anyone.value), str(self.status.value)
        act(self.encounter, "set_status", who, status)
        self.app.show(self.encounter.log[-1].summary)

    def damage(self) -> None:
        e = self.encounter
        who, amount, direct = str(self.anyone.value), self.amount.read(), self.direct.value
        self.app.roll(f"{who}: {amount} damage",
                      (e, "apply_damage", {"target": who, "amount": amount, "direct": direct}),
                      lambda r: said(e, r))

    def _written(self, index: int) -> Callable[[], None]:
        def mark() -> None:
            due = act(self.encounter, "clear_due", index)
            self.app.show(f"{due.name}'s sheet: {_due_text(due)} written")
        return mark

    def render(self) -> None:
        e = self.encounter
        fighters = e.fighters
        active = [c.name for c in fighters if c.active]
        if list(self.who.options) != active:
            keep = self.who.value
            self.who.options = active
            self.who.value = keep if keep in active else (active[0] if active else None)
        me = next((c for c in fighters if c.name == self.who.value), None)
        foes = [c.name for c in fighters if c.active and me is not None
                and c.side != me.side]
        if list(self.foe.options) != foes:
            keep = self.foe.value
            self.foe.options = foes
            self.foe.value = keep if keep in foes else (foes[0] if foes else None)
        turn = None
        if e.phase in ("setup", "over"):
            turn = "the fight has not started or is over"
        elif e.pending is not None:
            turn = "resolve the rolled attack first"
        elif me is not None and me.side != e.phase and not me.acted_first:
            turn = f"it is the {e.phase}' turn"
        disable_for(self.maneuver_button, turn or (None if me and self.foe.value
                                                   else "choose who and a foe"))
        disable_for(self.escape_button, turn or (None if me else "choose who escapes"))
        everyone = [c.name for c in fighters]
        if list(self.anyone.options) != everyone:
            keep = self.anyone.value
            self.anyone.options = everyone
            self.anyone.value = keep if keep in everyone else (everyone[0] if everyone
                                                                else None)
        nobody = None if everyone else "add a combatant first"
        disable_for(self.mark_button, nobody)
        disable_for(self.damage_button, nobody or first_bad_box(self.amount))
        if e.sheet_due:
            self.due.value = el(
                "div", "Due on sheets:",
                el("ul", (el("li", f"{d.name}: {_due_text(d)}") for d in e.sheet_due)),
                class_="tc-side tc-sheet-due")
        else:
            self.due.value = Markup()
        self.due_row.children = tuple(
            self.app.btn(f"Written on {d.name}'s sheet", self._written(i), f"due-written-{i}")
            for i, d in enumerate(e.sheet_due[:5]))  # the oldest few: each tap clears one


def _due_text(due: combat.SheetDue) -> str:
    if due.kind == "scar":
        return f"scar (table row {due.value})"
    if due.kind == "fatigue":
        return "a Fatigue (failed maneuver save)"
    return f"a critical kill with {due.weapon}"
