"""The Cairn character sheet app: stats, 10 burden slots, damage and scars, rest, boasts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.rulesets.cairn_srd.burden import SLOTS, TAGS, USAGE_DICE
from companion.rulesets.cairn_srd.character import Character, DamageReport, new_character
from companion.rulesets.cairn_srd.saves import ABILITIES, MAX_SCORE
from companion.widgets.base import (
    Fold,
    SaveLoad,
    app_box,
    bind,
    confirm_button,
    int_box,
    name_box,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css
from companion.widgets.cairn_srd.conditions import ConditionsPanel
from companion.widgets.markup import Markup, el, frag
from companion.widgets.seat_controls import act, load, mover, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["CairnCharacterApp"]

MAX_DAMAGE = 99
MAX_QUANTITY = 100_000


class CairnCharacterApp(CairnAppBase):
    """A character sheet: stats, 10 burden slots to fill and empty, damage and rest.

    Every roll (damage with its saves and scars, panic, saves, usage dice, inspiration,
    scar recovery) takes a roll mode and can be entered from real dice
    ([common][companion.widgets.cairn_srd.common])."""

    dice_hint = "d20"

    def __init__(self, character: Character | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.character = character or new_character("Ash", 12, 10, 9, 5, armor=2)
        c = self.character  # a campaign's sheet sits at its table: a fight there is seen
        self.stats = widgets.HTML()
        self.slots = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.item_name = name_box("Item", "", "item-name", required=False,
                                  placeholder="item name")
        self.item_tag = widgets.Dropdown(tooltip="Item tag", options=list(TAGS), value="normal",
                                         layout=widgets.Layout(width="110px"))
        self.item_qty = int_box("Qty", 1, "item-qty", 1, MAX_QUANTITY, width="130px")
        self.item_die = widgets.Dropdown(tooltip="Usage die",
                                         options=[("no Ud", 0)] + [(f"Ud{d}", d)
                                                                   for d in USAGE_DICE],
                                         value=0, layout=widgets.Layout(width="90px"))
        self.damage_box = int_box("Damage", 7, "damage", 0, MAX_DAMAGE, width="140px")
        self.direct = widgets.Checkbox(description="direct", indent=False,
                                       layout=widgets.Layout(width="auto"))
        self.boast_goal = name_box("Boast", "", "boast", max_len=120, required=False,
                                   placeholder="the goal you vow before an audience")
        self.boast_ability = widgets.Dropdown(tooltip="Ability to boast",
                                              options=list(ABILITIES), value="STR",
                                              layout=widgets.Layout(width="90px"))
        # A refused raise of another's boast: this challenger takes it up (goal above).
        self.complication = name_box("Complication", "", "complication", max_len=120,
                                     required=False, placeholder="the stakes you raised")
        self.complication_bonus = widgets.Dropdown(tooltip="Complication: +1 to",
                                                   options=["Guard", *ABILITIES], value="Guard",
                                                   layout=widgets.Layout(width="100px"))
        self.complication_bonus.add_class("tc-select-complication-bonus")
        self.new_name = name_box("Name", c.name, "new-name")
        self.new_stats = {k: int_box(k, v, f"new-{k.lower()}", 0, MAX_SCORE, width="110px")
                          for k, v in (("STR", c.strength_max), ("DEX", c.dexterity_max),
                                       ("CTRL", c.control_max), ("GD", c.guard_max),
                                       ("Armor", c.armor))}
        self.new_button = confirm_button(
            "New character", self.new, risky=lambda: True,
            prompt="Tap again: replace this sheet", error=self.error, name="new-character")
        self.buttons = {
            "fatigue": self.btn("+ Fatigue", lambda: self._move(mover(c, "add_fatigue")),
                                "fatigue"),
            "wound": self.btn("+ Wound", lambda: self._move(mover(c, "add_wound")), "wound"),
            "rest-turn": self.btn("Rest a turn", lambda: self._move(mover(c, "rest_turn")),
                                  "rest-turn"),
            "rest-night": self.btn("Rest a night", lambda: self._move(mover(c, "rest_night")),
                                   "rest-night"),
            "rest-day": self.btn("Rest a day", lambda: self._move(mover(c, "rest_day")),
                                 "rest-day"),
            "panic": self.btn("Panic save", self.panic, "panic"),
            "undo": self.btn("Undo", self.undo, "undo"),
            "boast": self.btn("Boast", self.boast, "boast"),
            "take-up": self.btn("Take up the refused boast", self.take_up, "take-up-boast"),
            "fulfil": self.btn("Fulfil", lambda: self._move(mover(c, "fulfil_boast")), "fulfil"),
            "shirk": self.btn("Shirk", lambda: self._move(mover(c, "shirk_boast")), "shirk"),
            "inspire": self.btn("+ Inspiration", lambda: self._move(mover(c, "earn_inspiration")),
                                "inspire"),
            "roll-inspiration": self.btn("Roll inspiration", self.inspiration,
                                         "roll-inspiration"),
            "take-damage": self.btn("Take damage", self.take_damage, "take-damage", "danger"),
            "add-item": self.btn("Add item", self.add_item, "add-item", "primary"),
        }
        b = self.buttons
        self.file = SaveLoad(c, "cairn-character.json", what="character")
        self.conditions = ConditionsPanel(c, self)
        # A card: the vital numbers on top, each part below folds (the rarely used ones
        # start folded), so the sheet is not one long form on a phone.
        app_box(
            cairn_css(),
            self.stats,
            Fold("damage", "Damage and rest", [
                row(self.damage_box, self.direct, b["take-damage"]),
                row(b["rest-turn"], b["rest-night"], b["rest-day"], b["panic"], b["undo"])]),
            self.error,
            self.outcome,
            self.seed_row,
            Fold("burden", "Burden", [
                self.slots,
                row(self.item_name, self.item_tag, self.item_qty, self.item_die,
                    b["add-item"]),
                row(b["fatigue"], b["wound"])]),
            Fold("conditions", "Conditions", [self.conditions]),
            Fold("boasts", "Boasts and inspiration", [
                row(self.boast_goal, self.boast_ability),
                row(b["boast"], b["fulfil"], b["shirk"], b["inspire"], b["roll-inspiration"]),
                row(self.complication, self.complication_bonus, b["take-up"])],
                opened=False),
            Fold("new", "New character (replaces this one: tap twice)", [
                row(self.new_name), row(*self.new_stats.values(), self.new_button)],
                opened=False),
            Fold("file", "Save or load this sheet", [self.file], opened=False),
            box=self,
        )
        bind(c, self.render, error=self.error)

    def _move(self, fn: Callable[[], Any]) -> None:
        fn()
        self.show(self.character.log[-1].summary)

    def new(self) -> None:
        s = {k: box.read() for k, box in self.new_stats.items()}
        fresh = new_character(self.new_name.read(), s["STR"], s["DEX"], s["CTRL"], s["GD"],
                              s["Armor"])
        load(self.character, fresh.to_json())
        self.show(f"New character: {self.character.name}")

    def add_item(self) -> None:
        name, qty = self.item_name.read(), self.item_qty.read()
        act(self.character, "add_item", name, self.item_tag.value, qty, self.item_die.value or None)
        self.item_name.value = ""
        self.show(self.character.log[-1].summary)

    def take_damage(self) -> None:
        amount = self.damage_box.read()
        c = self.character

        def scar(report: DamageReport) -> Markup:
            if not report.scar:
                return Markup()
            return el("div", f"Scar: {report.scar} — {report.scar_effect}", class_="tc-scar",
                      data_scar=report.scar)

        self.roll(f"{c.name}: {amount} damage",
                  (c, "take_damage", {"amount": amount, "direct": bool(self.direct.value)}),
                  extra=scar)

    def boast(self) -> None:
        act(self.character, "make_boast", self.boast_goal.read(), self.boast_ability.value)
        self.show(self.character.log[-1].summary)

    def take_up(self) -> None:
        act(self.character, "take_up_boast", self.boast_goal.read(), self.complication.read(),
            self.boast_ability.value, str(self.complication_bonus.value))
        self.show(self.character.log[-1].summary)

    def inspiration(self) -> None:
        c = self.character
        self.roll(f"{c.name}: inspiration", c.use_inspiration,
                  lambda dice: f"Inspiration dice {', '.join(map(str, dice))}: keep one "
                               f"(best {max(dice)})")

    def panic(self) -> None:
        c = self.character
        self.roll(f"{c.name}: panic save", c.panic_save, lambda r: f"Panic save: {r}")

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.character).summary}")

    def _use(self, index: int) -> Callable[[], None]:
        def use() -> None:
            c = self.character
            self.roll(f"{c.name}: use {c.items[index].name}",
                      (c, "use_item", {"index": index}))
        return use

    def _slot_row(self, index: int) -> widgets.Widget:
        c = self.character
        item = c.items[index]
        share = c.slot_shares[index]  # coins share the petty 500 with the other purses
        label = widgets.HTML(frag(item.label, " ",
                                  el("small", f"({share} slot{'s' if share != 1 else ''})")))
        buttons: list[widgets.Widget] = []
        if item.usable:
            buttons.append(self.btn("Use", self._use(index), f"use-{index}"))
        if item.droppable:
            buttons.append(self.btn("Drop", lambda: self._move(lambda: act(c, "drop_item", index)),
                                    f"drop-{index}"))
        elif item.kind == "wound":
            buttons.append(self.btn("Heal", lambda: self._move(lambda: act(c, "heal_wound", index)),
                                    f"heal-{index}"))
        box = row(label, *buttons)
        box.add_class("tc-slot")
        box.add_class(f"tc-slot-{item.kind}")
        return box

    def render(self) -> None:
        c = self.character
        guard_note = "" if c.effective_guard == c.guard else " (counts as 0)"
        scars = ", ".join(c.scars) or "none"
        self.stats.value = el(
            "div", el("b", c.name), f" — {c.status}", el("br"),
            "STR ", el("b", c.strength), f"/{c.strength_max} · DEX ", el("b", c.dexterity),
            f"/{c.dexterity_max} · CTRL ", el("b", c.control), f"/{c.control_max}", el("br"),
            "Guard ", el("b", c.guard, class_="tc-guard"), f"/{c.guard_max}{guard_note} · Armor "
            f"{c.armor} · Fatigue {c.fatigue} · Dooms {c.dooms} · Inspiration {c.inspiration}",
            c.boast and frag(el("br"), f"Boast: {c.boast}"),
            el("br"), "Scars: ", el("span", scars, class_="tc-scars"),
            f" · Slots used {c.slots_used}/{SLOTS}",
            class_="tc-stats", data_guard=c.guard, data_free=c.free_slots)
        rows: list[widgets.Widget] = [self._slot_row(i) for i in range(len(c.items))]
        for _ in range(c.free_slots):
            box = row(widgets.HTML(el("span", "— empty slot —", class_="tc-slot-empty")))
            box.add_class("tc-slot")
            box.add_class("tc-slot-blank")  # nothing to tap: shorter, so Damage stays in reach
            rows.append(box)
        self.slots.children = rows
        b = self.buttons
        alive = not c.dead
        show_undo(b["undo"], c)
        b["roll-inspiration"].disabled = c.inspiration < 1
        b["fulfil"].disabled = b["shirk"].disabled = not c.boast
        b["boast"].disabled = bool(c.boast) or c.boasting_barred or not alive
        b["take-up"].disabled = b["boast"].disabled  # a refused boast is taken up as any
        b["rest-day"].disabled = c.deprived or not alive
        for key in ("take-damage", "panic", "rest-turn", "rest-night"):
            b[key].disabled = not alive
        b["fatigue"].disabled = b["wound"].disabled = c.free_slots < 1
        self.new_button.disarm()
