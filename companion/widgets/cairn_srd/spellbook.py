"""The caster's scrolls and grimoire, casting a named spell, and lifting a doom.

Composed into [SpellcastingApp][companion.widgets.cairn_srd.spellcasting.SpellcastingApp]:
the caster is a party member's [Character][companion.rulesets.cairn_srd.character.Character]
sheet, so the magic dice are limited by that sheet's free slots (burden and Fatigue) and the
Fatigue lands on it. Each button is one sheet move, disabled (saying why) while refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import MAX_NAME, Character
from companion.widgets.base import bind, disable_for, first_bad_box, name_box, row
from companion.widgets.cairn_srd.common import CairnAppBase, labelled
from companion.widgets.markup import el
from companion.widgets.seat_controls import act, mover

__all__ = ["SpellbookPanel"]


class SpellbookPanel(widgets.VBox):
    """Scrolls (petty), a grimoire, a named spell cast with the chosen dice, lifting a doom."""

    def __init__(self, character: Character, app: CairnAppBase,
                 chosen: Callable[[], int], extra: Callable[[], int] = lambda: 0) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-spellbook")
        self.character, self.app, self.chosen, self.extra = character, app, chosen, extra
        c = character
        self.scroll_name = name_box("Scroll", "", "scroll-name", max_len=MAX_NAME,
                                    required=False, placeholder="spell on the scroll")
        self.gain_button = app.btn("Pick up scroll", self.gain, "gain-scroll")
        self.scroll = widgets.Dropdown(tooltip="Scroll", layout=widgets.Layout(width="200px"))
        self.scroll.add_class("tc-scroll-select")
        self.bind_button = app.btn("Bind grimoire", self._with_scroll(mover(c, "create_grimoire")),
                                   "bind-grimoire")
        self.copy_button = app.btn("Copy into grimoire", self._with_scroll(mover(c, "copy_scroll")),
                                   "copy-scroll")
        self.spell = widgets.Dropdown(tooltip="Spell", layout=widgets.Layout(width="220px"))
        self.spell.add_class("tc-spell-select")
        self.cast_button = app.btn("Cast this spell", self.cast, "cast-spell", "primary")
        self.lift_button = app.btn("Lift a doom (quest)", lambda: self._do(mover(c, "lift_doom")),
                                   "lift-doom")
        self.book = widgets.HTML()
        self.children = (
            widgets.HTML(el("b", "Scrolls and grimoire")),
            self.book,
            row(self.scroll_name, self.gain_button),
            row(labelled("scroll", self.scroll), self.bind_button, self.copy_button),
            row(labelled("spell", self.spell), self.cast_button),
            row(self.lift_button),
        )
        self.scroll_name.observe(lambda _c: self.render(), "value")
        bind(character, self.render, error=app.error)

    def _do(self, fn: Callable[[], Any]) -> None:
        fn()
        self.app.show(self.character.log[-1].summary)

    def gain(self) -> None:
        act(self.character, "gain_scroll", self.scroll_name.read())
        self.scroll_name.value = ""
        self.app.show(self.character.log[-1].summary)

    def _with_scroll(self, move: Callable[[int], None]) -> Callable[[], None]:
        def run() -> None:
            if self.scroll.value is None:
                raise RuleError("Spellcasting: choose a scroll first")
            self._do(lambda: move(int(self.scroll.value)))
        return run

    def cast(self) -> None:
        c, dice, spell = self.character, self.chosen(), str(self.spell.value)
        extra = self.extra()
        self.app.roll(f"{c.name}: cast {spell}", (c, "cast", {
            "dice": dice, "extra_dice": extra, "spell": spell}),
            lambda report: f"{spell}: {report}")

    def render(self) -> None:
        c = self.character
        scrolls = [(f"#{i + 1} {s}", i) for i, s in enumerate(c.scrolls)]
        if list(self.scroll.options) != scrolls:
            self.scroll.options = scrolls
            self.scroll.value = scrolls[0][1] if scrolls else None
        spells = list(dict.fromkeys([*(c.grimoire or []), *c.scrolls]))
        if list(self.spell.options) != spells:
            keep = self.spell.value
            self.spell.options = spells
            self.spell.value = keep if keep in spells else (spells[0] if spells else None)
        grimoire = ", ".join(c.grimoire) if c.grimoire is not None else "none"
        self.book.value = el("div", f"scrolls: {', '.join(c.scrolls) or 'none'}", el("br"),
                             f"grimoire: {grimoire}", class_="tc-stats tc-book")
        dead = "dead" if c.dead else None
        disable_for(self.gain_button, dead or first_bad_box(self.scroll_name) or (
            None if self.scroll_name.read() else "name the scroll's spell"))
        no_scroll = None if scrolls else "no scroll"
        disable_for(self.bind_button, dead or no_scroll or (
            "already has a grimoire" if c.grimoire is not None else None))
        disable_for(self.copy_button, dead or no_scroll or (
            "no grimoire" if c.grimoire is None else None))
        bar = c.casting_bar or (None if c.max_magic_dice(self.extra())
                                else "no free slot for magic dice")
        disable_for(self.cast_button, dead or (None if spells else "no spell known") or bar)
        disable_for(self.lift_button, None if c.dooms else "no doom to lift")

