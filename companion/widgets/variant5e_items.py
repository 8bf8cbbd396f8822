"""Activating magic items: charges, command words, consumables, and what activation costs.

``ItemsApp`` drives a [MagicItem][companion.rulesets.variant5e.activating_items.MagicItem]
and shows the activation cost, whether Fast Hands can use the item, and an item spell's
attack bonus, all from the package.

Usage in a notebook::

    from companion.widgets.variant5e_items import ItemsApp
    ItemsApp()
"""

from __future__ import annotations

import ipywidgets as widgets

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
    escape,
    int_box,
    log_html,
    row,
)

__all__ = ["ItemsApp"]


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
            "activate": button("Activate", lambda: self.model.activate(
                self.spend.read(), bool(self.silence.value)), error=e, name="activate"),
            "regain": button("Regain charges", lambda: self.model.regain_charges(
                self.regain.read()), error=e, name="regain"),
            "undo": button("Undo", self.model.undo, error=e, name="undo"),
        }
        self.status = widgets.HTML()
        self.costs = widgets.HTML()
        self.history = widgets.HTML()
        b = self.buttons
        app_box(
            widgets.HTML("<b>Activating an item</b>"),
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
        self.costs.value = (f'<div class="tc-costs" data-cost="{escape(cost)}" '
                            f'data-fast-hands="{str(fast).lower()}">activation: '
                            f"{escape(cost)} · Fast Hands "
                            f"{'can' if fast else 'cannot'} use it · {attack}</div>")

    def render(self) -> None:
        m = self.model
        state = "used up" if m.used_up else f"{m.charges}/{m.max_charges} charges"
        self.status.value = (f'<div class="tc-item" data-charges="{m.charges}">'
                             f"<b>{escape(m.name)}</b>: {escape(state)}"
                             f"{' · command word' if m.command_word else ''}</div>")
        self.buttons["undo"].disabled = not m.can_undo
        self.history.value = log_html(m.log)
