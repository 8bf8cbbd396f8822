"""The spellcasting app: choose magic dice, see the character's exact odds, cast."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.rulesets.cairn_srd import spellcasting
from companion.rulesets.cairn_srd.character import CastReport, Character, new_character
from companion.widgets.base import SaveLoad, app_box, bind, first_bad_box, int_box, row
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, pct
from companion.widgets.cairn_srd.spellbook import SpellbookPanel
from companion.widgets.markup import Markup, el
from companion.widgets.seat_controls import mover, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["MagicOddsPanel", "SpellcastingApp"]

#: Magic dice items may add in this app (a box bound; the rules allow more).
MAX_ITEM_DICE = 6


class MagicOddsPanel(widgets.HTML):
    """The exact odds of a cast with ``dice`` magic dice for ``character`` (from the model)."""

    def show_for(self, character: Character, dice: int, extra: int = 0) -> None:
        odds = character.magic_odds(dice)
        fatigue = (el("tr", el("td", k), el("td", pct(p))) for k, p in odds.fatigue.items())
        faces = (el("tr", el("td", f), el("td", pct(odds.mishap_faces[f])),
                    el("td", spellcasting.read_magic_dice((f, f)).mishap))
                 for f in range(1, 7))
        self.value = el(
            "div", "With ", el("b", dice), f" magic {'die' if dice == 1 else 'dice'}: mishap ",
            el("b", pct(odds.mishap), class_="tc-mishap-p"), " · doom ",
            el("b", pct(odds.doom), class_="tc-doom-p"), " · mean Fatigue ",
            el("b", odds.fatigue_mean), f" (most dice now: {character.max_magic_dice(extra)})",
            el("table", el("tr", el("th", "Fatigue"), el("th", "chance")), fatigue,
               class_="tc-grid"),
            el("table", el("tr", el("th", "Mishap"), el("th", "chance"), el("th", "effect")),
               faces, class_="tc-grid"),
            class_="tc-odds", data_dice=dice)


class SpellcastingApp(CairnAppBase):
    """Choose magic dice, see the exact odds, cast and see what happened.

    A number of dice the caster may not invest now (more than the free slots, or casting
    barred) is a disabled button. A cast (and a named spell's) takes a roll mode and can
    be entered from real dice ([common][companion.widgets.cairn_srd.common]).
    """

    dice_hint = "the d6s"

    def __init__(self, character: Character | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.character = character or new_character("Mage", 9, 10, 14, 3)
        c = self.character
        self.chosen = 1
        # Magic items may grant dice beyond the 4 (still one per free slot).
        self.item_dice = int_box("Dice from items", 0, "item-dice", 0, MAX_ITEM_DICE,
                                 width="170px")
        self.item_dice.observe(lambda _c: self.render(), "value")
        self.dice_buttons = [self.btn(str(n), self._choose(n), f"dice-{n}")
                             for n in range(1, spellcasting.MAX_MAGIC_DICE + MAX_ITEM_DICE + 1)]
        self.dice_row = row(*self.dice_buttons)
        self.dice_row.add_class("tc-dice-choice")
        self.odds = MagicOddsPanel()
        self.status = widgets.HTML()
        self.cast_button = self.btn("Cast", self.cast, "cast", "primary")
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.ban_button = self.btn("Ban over", lambda: self._note(mover(c, "end_casting_ban")),
                                   "ban-over")
        self.file = SaveLoad(c, "cairn-caster.json", what="caster")
        self.spellbook = SpellbookPanel(c, self, lambda: self.chosen, self.extra)
        app_box(
            cairn_css(),
            widgets.HTML(el("b", "Magic dice to invest")),
            row(self.item_dice),
            self.dice_row,
            row(self.cast_button,
                self.btn("Rest a night", lambda: self._note(mover(c, "rest_night")), "rest-night"),
                self.ban_button,
                self.undo_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.status,
            self.spellbook,
            self.odds,
            self.file,
            box=self,
        )
        bind(c, self.render, error=self.error)

    def _choose(self, n: int) -> Callable[[], None]:
        def choose() -> None:
            self.chosen = n
            self.render()
        return choose

    def _note(self, fn: Callable[[], Any]) -> None:
        fn()
        self.show(self.character.log[-1].summary)

    def extra(self) -> int:
        """Magic dice the caster's items add (0 while the box holds bad text)."""
        return self.item_dice.read() if first_bad_box(self.item_dice) is None else 0

    def render(self) -> None:
        c = self.character
        allowed = 0 if c.casting_bar or c.dead else c.max_magic_dice(self.extra())
        if allowed and self.chosen > allowed:
            self.chosen = allowed
        for n, b in enumerate(self.dice_buttons, 1):
            b.disabled = n > allowed
            b.button_style = "info" if n == self.chosen else ""
            # Buttons past the 4 show only while items make them possible.
            b.layout.display = "" if n <= max(allowed, spellcasting.MAX_MAGIC_DICE) else "none"
        self.cast_button.disabled = allowed == 0
        show_undo(self.undo_button, c)
        self.ban_button.disabled = not (c.casting_barred or c.mishap_fatigue_from_3)
        bar = c.casting_bar or "no"
        self.status.value = el(
            "div", f"{c.name}: free slots {c.free_slots}, Fatigue {c.fatigue}, CTRL "
            f"{c.control}/{c.control_max}, dooms {c.dooms}, casting barred: {bar}",
            class_="tc-stats")
        self.odds.show_for(c, self.chosen, self.extra())

    def cast(self) -> None:
        c, dice = self.character, self.chosen

        def mishap(report: CastReport) -> Markup:
            r = report.reading
            if r.mishap_face is None:
                return Markup()
            return el("div", f"Mishap {r.mishap_face}: {r.mishap}", class_="tc-mishap",
                      data_mishap=r.mishap_face)

        extra = self.extra()
        self.roll(f"{c.name}: cast with {dice} magic {'die' if dice == 1 else 'dice'}",
                  (c, "cast", {"dice": dice, "extra_dice": extra}), extra=mishap)

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.character).summary}")
