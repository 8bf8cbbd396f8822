"""Activating magic items: charges, command words, consumables, and what activation costs.

``ItemsApp`` drives a [MagicItem][companion.rulesets.variant5e.activating_items.MagicItem]
and shows the activation cost, whether Fast Hands can use the item, and an item spell's
attack bonus, all from the package. ``CharacterItemsApp`` is one character's items: a
picker over them, a form adding a new one, and the picked item's ``ItemsApp`` (the
campaign keeps each item as its own record, "Item: NAME: ITEM").

Usage in a notebook::

    from companion.widgets.variant5e_items import ItemsApp
    ItemsApp()
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.variant5e.activating_items import (
    MagicItem,
    activation_cost,
    fast_hands_can_activate,
    item_spell_attack_bonus,
)
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    check_box,
    int_box,
    log_html,
    offer,
    row,
    safe,
    text_box,
)
from companion.widgets.markup import el
from companion.widgets.seat_controls import act, show_undo, undo

__all__ = ["CharacterItemsApp", "ItemsApp"]

#: Most items one character's list shows (a bound on the page, not a rule).
MAX_ITEMS = 40
#: Longest item name (the item record's own limit).
MAX_ITEM_NAME = 60


class ItemsApp(widgets.VBox):
    """Activate an item with charges (the campaign may pass its own ``item``)."""

    def __init__(self, item: MagicItem | None = None) -> None:
        super().__init__()
        self.model = item if item is not None else MagicItem(
            name="wand of magic missiles", charges=7, max_charges=7, command_word=True)
        self.error = e = ErrorLine()
        self.spend = int_box("Charges to spend", 1, "spend", 0, 1000)
        self.regain = int_box("Charges regained", 1, "regain", 0, 1000)
        self.silence = check_box("in magical silence", "silence")
        self.needs_action = check_box("needs an action to activate", "needs-action", True)
        self.potion = check_box("a potion", "potion")
        self.proficiency = int_box("Proficiency", 2, "proficiency", 0, 10)
        self.ability = int_box("Ability modifier", 3, "ability", -5, 10)
        self.own_ability = check_box("use my spellcasting ability", "own-ability", True)
        self.buttons = {
            "activate": button("Activate", lambda: act(self.model, "activate",
                self.spend.read(), bool(self.silence.value)), error=e, name="activate"),
            "regain": button("Regain charges", lambda: act(self.model, "regain_charges",
                self.regain.read()), error=e, name="regain"),
            "undo": button("Undo", lambda: undo(self.model), error=e, name="undo"),
        }
        self.status = widgets.HTML()
        self.costs = widgets.HTML()
        self.history = widgets.HTML()
        b = self.buttons
        app_box(
            widgets.HTML(el("b", "Activating an item")),
            self.status,
            row(self.spend, self.silence, b["activate"]),
            row(self.regain, b["regain"], b["undo"]),
            row(self.needs_action, self.potion),
            row(self.proficiency, self.ability, self.own_ability),
            self.costs,
            self.error,
            self.history,
            SaveLoad(self.model, "magic-item.json", what="magic item", error=e),
            box=self,
        )
        for box in (self.needs_action, self.potion, self.own_ability, self.proficiency,
                    self.ability):
            box.observe(lambda _ch: self.render_costs(), names="value")
        bind(self.model, self.render, error=e)
        self.render_costs()

    def render_costs(self) -> None:
        needs = bool(self.needs_action.value)
        cost = activation_cost(needs_action=needs, potion=bool(self.potion.value))
        fast = fast_hands_can_activate(needs)
        if self.proficiency.valid and self.ability.valid:
            bonus = item_spell_attack_bonus(
                self.proficiency.read(), self.ability.read() if self.own_ability.value else None)
            attack = f"item spell attack bonus {bonus:+d}"
        else:
            attack = "fix the boxes above for the attack bonus"
        self.costs.value = el("div", f"activation: {cost} · Fast Hands "
                              f"{'can' if fast else 'cannot'} use it · {attack}",
                              class_="tc-costs", data_cost=cost,
                              data_fast_hands=str(fast).lower())

    def render(self) -> None:
        m = self.model
        state = "used up" if m.used_up else f"{m.charges}/{m.max_charges} charges"
        self.status.value = el("div", el("b", m.name), f": {state}",
                               " · command word" if m.command_word else "",
                               class_="tc-item", data_charges=m.charges)
        show_undo(self.buttons["undo"], m)
        self.history.value = log_html(m.log)


class CharacterItemsApp(widgets.VBox):
    """One character's magic items: pick one to activate it, or add a new one.

    ``items()`` lists the character's items (the campaign's records, read again on
    ``sync()``); ``adopt(item)`` keeps a new item and returns the one to drive from then on.
    """

    def __init__(self, items: Callable[[], list[MagicItem]], *, owner: str,
                 adopt: Callable[[MagicItem], MagicItem],
                 lock: AbstractContextManager[Any] | None = None) -> None:
        super().__init__()
        # The campaign's lock in a campaign: a pick on the page and another screen's move
        # (the live watcher's thread) both build the app shown; one at a time, it is built
        # once. Alone (a demo), one thread: nothing to hold.
        self.lock = lock if lock is not None else nullcontext()
        self.add_class("tc-items-app")
        self.items = items
        self.owner = owner
        self.adopt = adopt
        self.error = e = ErrorLine()
        self.apps: dict[int, ItemsApp] = {}
        self.picker = widgets.Dropdown(options=[], description="Item",
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.picker.add_class("tc-pick-item")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.new_name = text_box("item, e.g. wand of web", name="item-name")
        self.new_charges = int_box("Charges", 7, "item-charges", 0, 1000)
        self.new_word = check_box("command word", "item-word")
        self.new_consumable = check_box("consumable", "item-consumable")
        self.add_button = button("Add item", self.add_item, error=e, name="add-item")
        app_box(
            widgets.HTML(el("b", f"{owner}’s items")),
            row(self.picker),
            self.body,
            row(self.new_name, self.new_charges, self.new_word, self.new_consumable,
                self.add_button),
            e,
            box=self,
        )
        self.picker.observe(safe(e)(lambda _ch: self.show()), names="value")
        self.sync()

    def add_item(self) -> None:
        name = " ".join(str(self.new_name.value).split())
        if not name:
            raise RuleError("Items: type the new item's name first")
        if len(name) > MAX_ITEM_NAME:
            raise RuleError(f"Items: an item's name is at most {MAX_ITEM_NAME} characters")
        if len(self.items()) >= MAX_ITEMS:
            raise RuleError(f"Items: at most {MAX_ITEMS} items per character")
        charges = self.new_charges.read()
        item = MagicItem(name=name, charges=charges, max_charges=charges,
                         command_word=bool(self.new_word.value),
                         consumable=bool(self.new_consumable.value))
        item.validate()
        with self.lock:
            live = self.adopt(item)
            self.new_name.value = ""
            self.sync(show=live)

    def sync(self, show: MagicItem | None = None) -> None:
        with self.lock:
            options = [(i.name, id(i)) for i in self.items()]
            offer(self.picker, options)
            if show is not None:
                self.picker.value = id(show)
            self.picker.layout.display = "" if options else "none"
            self.show()

    def show(self) -> None:
        with self.lock:
            chosen = next((i for i in self.items() if id(i) == self.picker.value), None)
            if chosen is None:
                self.body.children = (widgets.HTML(el(
                    "p", f"No item for {self.owner} yet: add one below.", class_="tc-empty")),)
                return
            app = self.apps.get(id(chosen))
            if app is None:
                app = self.apps[id(chosen)] = ItemsApp(chosen)
            if self.body.children != (app,):
                self.body.children = (app,)
