"""The sheet's conditions panel: leaving Deprived, panic and the Walloped or Out of action
scars; hazard damage to STR, DEX or CTRL (no Guard, no Critical Damage save); named and
major Wounds; a saving throw with a major Wound's -1; leaving play and death.

Composed into [CairnCharacterApp][companion.widgets.cairn_srd.character.CairnCharacterApp];
every button calls one [Character][companion.rulesets.cairn_srd.character.Character] move
and is disabled, saying why, while the rules refuse it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.rulesets.cairn_srd.burden import MAX_ITEM_NAME
from companion.rulesets.cairn_srd.character import MAX_FATE, Character
from companion.rulesets.cairn_srd.saves import ABILITIES
from companion.widgets.base import (
    bind,
    disable_for,
    first_bad_box,
    int_box,
    name_box,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, labelled, said
from companion.widgets.seat_controls import act, mover

__all__ = ["ConditionsPanel"]

MAX_HAZARD = 99


class ConditionsPanel(widgets.VBox):
    """Conditions, hazards, Wounds, saves and fate for one character sheet."""

    def __init__(self, character: Character, app: CairnAppBase) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-conditions")
        self.character, self.app = character, app
        c = character
        self.end_deprived = app.btn("End Deprived", lambda: self._do(
            lambda: act(c, "set_deprived", False)), "end-deprived")
        self.calm = app.btn("Calm down", lambda: self._do(mover(c, "calm_down")), "calm")
        # Deprivation by hand, its daily Fatigue, and acting while stunned or paralysed.
        self.become_deprived = app.btn("Becomes Deprived", lambda: self._do(
            lambda: act(c, "set_deprived", True)), "become-deprived")
        self.deprived_day = app.btn("A day Deprived", lambda: self._do(mover(c, "deprived_day")),
                                    "deprived-day")
        self.agony = app.btn("Agony (1d6)", self.act_in_agony, "agony", "danger")
        self.enervation = app.btn("Enervation (-1 max Guard)", lambda: self._do(
            mover(c, "enervation")), "enervation")
        self.cumbersome = app.btn("Cumbersome load", lambda: self._do(
            lambda: act(c, "carry_cumbersome", not c.cumbersome)), "cumbersome")
        self.stakes = widgets.Dropdown(tooltip="Raised stakes: +1 to", value="Guard",
                                       options=["Guard", *ABILITIES],
                                       layout=widgets.Layout(width="100px"))
        self.stakes.add_class("tc-select-stakes")
        self.raise_stakes = app.btn("Raise the boast's stakes", lambda: self._do(
            lambda: act(c, "raise_stakes", str(self.stakes.value))), "raise-stakes")
        self.recover = app.btn("Recover scar", self.recover_scar, "recover-scar")
        self.hazard = int_box("Hazard damage", 3, "hazard", 0, MAX_HAZARD, width="170px")
        self.hazard_ability = widgets.Dropdown(tooltip="Ability the hazard hits",
                                               options=list(ABILITIES), value="STR",
                                               layout=widgets.Layout(width="90px"))
        self.hazard_ability.add_class("tc-hazard-ability")
        self.hazard_button = app.btn("Take hazard damage", self.take_hazard, "hazard-damage",
                                     "danger")
        self.wound_name = name_box("Wound", "", "wound-name", max_len=MAX_ITEM_NAME,
                                   required=False, placeholder="e.g. Blight")
        self.major = widgets.Checkbox(value=False, description="major", indent=False,
                                      layout=widgets.Layout(width="auto"))
        self.major.add_class("tc-wound-major")
        self.wound_button = app.btn("+ Named wound", self.add_wound, "named-wound")
        self.save_ability = widgets.Dropdown(tooltip="Save with",
                                             options=list(ABILITIES), value="STR",
                                             layout=widgets.Layout(width="90px"))
        self.save_ability.add_class("tc-save-ability")
        self.save_wounds = widgets.SelectMultiple(tooltip="Wounds at stake", options=[], rows=3,
                                                  layout=widgets.Layout(width="240px"))
        self.save_wounds.add_class("tc-save-wounds")
        self.save_button = app.btn("Save", self.roll_save, "sheet-save")
        self.reason = name_box("Why", "", "fate-reason", max_len=MAX_FATE, required=False,
                               placeholder="e.g. captured", width="260px")
        self.leave = app.btn("Leaves play", lambda: self._do(
            lambda: act(c, "leave_play", self.reason.read())), "leave-play")
        self.rejoin = app.btn("Rejoins", lambda: self._do(mover(c, "rejoin")), "rejoin")
        self.die = app.btn("Dies", lambda: self._do(lambda: act(c, "die", self.reason.read())),
                           "die", "danger")
        self.children = (
            widgets.HTML("<b>Conditions</b>"),
            row(self.end_deprived, self.calm, self.recover),
            row(self.become_deprived, self.deprived_day, self.cumbersome),
            row(self.agony, self.enervation),
            row(labelled("+1", self.stakes), self.raise_stakes),
            row(self.hazard, labelled("to", self.hazard_ability), self.hazard_button),
            row(self.wound_name, self.major, self.wound_button),
            row(labelled("Save", self.save_ability),
                labelled("major Wounds named relevant (-1 each)", self.save_wounds),
                self.save_button),
            row(self.reason, self.leave, self.rejoin, self.die),
        )
        for box in (self.hazard, self.wound_name, self.reason):
            box.observe(lambda _c: self.render(), "value")
        bind(character, self.render, error=app.error)

    def _do(self, fn: Callable[[], Any]) -> None:
        fn()
        self.app.show(self.character.log[-1].summary)

    def act_in_agony(self) -> None:
        c = self.character
        self.app.roll(f"{c.name}: agony", c.agony, lambda report: said(c, f"agony: {report}"))

    def recover_scar(self) -> None:
        c = self.character
        kind = c.scar_recovery
        self.app.roll(f"{c.name}: {kind} recovery", c.recover_scar,
                      lambda roll: said(c, f"{kind} recovery: rolled {roll}"))

    def take_hazard(self) -> None:
        act(self.character, "damage_ability", self.hazard_ability.value, self.hazard.read())
        self.app.show(self.character.log[-1].summary + " (no Critical Damage save)")

    def add_wound(self) -> None:
        act(self.character, "add_wound", self.wound_name.read() or "Wound", self.major.value)
        self.wound_name.value = ""
        self.major.value = False
        self.app.show(self.character.log[-1].summary)

    def roll_save(self) -> None:
        c = self.character
        ability, wounds = self.save_ability.value, list(self.save_wounds.value)
        self.app.roll(f"{c.name}: {ability} save", (c, "ability_save", {
            "ability": ability, "wounds": wounds}), lambda r: said(c, f"{ability} save: {r}"))

    def render(self) -> None:
        c = self.character
        dead = "dead" if c.dead else None
        disable_for(self.end_deprived, dead or (
            f"{c.scar_recovery}: recover the scar" if c.scar_recovery and c.deprived
            else None if c.deprived else "not Deprived"))
        disable_for(self.calm, dead or (None if c.panicking else "not panicking"))
        disable_for(self.become_deprived, dead or ("already Deprived" if c.deprived else None))
        disable_for(self.deprived_day, dead or (None if c.deprived else "not Deprived"))
        disable_for(self.agony, dead)
        disable_for(self.enervation, dead or (None if c.guard_max else "max Guard is 0"))
        self.cumbersome.description = ("Set down the load" if c.cumbersome
                                       else "Cumbersome load")
        disable_for(self.cumbersome, dead)
        disable_for(self.raise_stakes, dead or (None if c.boast else "no pending boast"))
        disable_for(self.recover, dead or (None if c.scar_recovery
                                           else "no Walloped or Out of action scar"))
        disable_for(self.hazard_button, dead or first_bad_box(self.hazard))
        disable_for(self.wound_button, dead or first_bad_box(self.wound_name) or (
            None if c.free_slots else "no free slot: drop an item first"))
        majors = [(f"#{i + 1} {it.name}", i + 1) for i, it in enumerate(c.items)
                  if it.kind == "wound" and it.major]
        if list(self.save_wounds.options) != majors:
            self.save_wounds.options = majors
        self.save_wounds.disabled = not majors
        disable_for(self.save_button, dead)
        reason_bad = first_bad_box(self.reason) or (
            None if self.reason.read() else "say why first")
        disable_for(self.leave, dead or (f"already out of play ({c.fate})" if c.fate
                                         else reason_bad))
        disable_for(self.rejoin, dead or (None if c.fate else "in play"))
        disable_for(self.die, dead or reason_bad)
