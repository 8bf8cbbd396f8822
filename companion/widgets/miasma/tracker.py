"""The Miasma tracker app: psychosis and stress per character, hour by hour.

A player's seat (a phone's, issue 44, or a Voila page's) is offered its own character and
the moves that are the character's own (into or out of the Miasma, eating and drinking, a
long rest); psychosis, stress, cures, the roster and time passing are the GM's, their
buttons disabled there. No move of this app rolls dice.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.miasma.psychosis import (
    HOURS_PER_DAY,
    MAX_LEVEL,
    MAX_NAME,
    MAX_STRESS,
    RAISED_BY,
    MiasmaTracker,
)
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    int_box,
    log_html,
    name_box,
    row,
)
from companion.widgets.markup import el, frag, join
from companion.widgets.miasma.common import LOG_SHOWN, css
from companion.widgets.seat_controls import act, mover, seat_refusal, show_undo, undo

__all__ = ["MiasmaTrackerApp"]

#: Buttons that act on the chosen character, by the tracker move whose rules they follow.
_GATED = ("enter_miasma", "leave_miasma", "eat_and_drink", "greater_restoration",
          "raised_from_dead", "remove_psychosis")


class MiasmaTrackerApp(widgets.VBox):
    """Psychosis and stress per character over days (a `MiasmaTracker`)."""

    def __init__(self, tracker: MiasmaTracker | None = None) -> None:
        super().__init__()
        self.add_class("tc-miasma")
        self.error = ErrorLine()
        self.model = tracker if tracker is not None else MiasmaTracker()
        # Not "required": an empty box is refused when Add is tapped, not before typing.
        self.name_box = name_box("Character", name="name", max_len=MAX_NAME, required=False,
                                 placeholder="character name")
        self.name_box.on_enter(self._add, self.error)
        self.add_button = self._btn("Add character", self._add, "add", "primary")
        self.who = widgets.Dropdown(tooltip="Character",
                                    options=[], description="", layout=widgets.Layout(
            width="auto", max_width="100%", min_height="40px"))
        self.who.add_class("tc-who")
        self.who.add_class("tc-pick")
        self.levels_box = int_box("Levels", 1, "levels", 1, MAX_LEVEL, width="120px")
        self.stress_box = int_box("Stress", 0, "stress", 0, MAX_STRESS, width="120px")
        self.hours_box = int_box("Hours", 2, "hours", 1, HOURS_PER_DAY * 366, width="120px")
        self.raised = widgets.Dropdown(tooltip="Raised by",
                                       options=list(RAISED_BY), value=RAISED_BY[0],
                                       layout=widgets.Layout(width="auto"))
        self.raised.add_class("tc-pick")
        c = self._on_character
        self.gain_button = self._btn("Gain levels", c(self._gain), "gain", "danger")
        self.stress_button = self._btn("Set stress", c(self._stress), "stress")
        self.gated = {
            "enter_miasma": self._btn("Enter Miasma", c(mover(self.model, "enter_miasma")),
                                      "enter"),
            "leave_miasma": self._btn("Leave Miasma", c(mover(self.model, "leave_miasma")),
                                      "leave"),
            "eat_and_drink": self._btn("Eat & drink", c(mover(self.model, "eat_and_drink")), "eat"),
            "greater_restoration": self._btn("Greater restoration",
                                             c(mover(self.model, "greater_restoration")),
                                             "restoration"),
            "raised_from_dead": self._btn("Raised from dead", c(lambda n: (
                act(self.model, "raised_from_dead", n, self.raised.value))), "raised"),
            "remove_psychosis": self._btn("Remove levels", c(lambda n: (
                act(self.model, "remove_psychosis", n, self.levels_box.read(), "a cure"))),
                "remove"),
        }
        self.rest_button = self._btn("Long rest", c(mover(self.model, "long_rest")), "rest",
                                     "success")
        g = self.gated
        # Each button and the box it reads wrap together, never split across lines.
        self.character_buttons = row(row(self.gain_button, g["remove_psychosis"],
                                         self.levels_box),
                                     row(self.stress_button, self.stress_box))
        self.place_buttons = row(g["enter_miasma"], g["leave_miasma"], g["eat_and_drink"],
                                 self.rest_button)
        self.cure_buttons = row(g["greater_restoration"], row(g["raised_from_dead"],
                                                              self.raised))
        self.undo_button = self._btn("Undo", lambda: undo(self.model), "undo")
        self.hour_buttons = [
            *(self._btn(label, functools.partial(mover(self.model, "pass_time"), h), f"time-{h}")
              for label, h in (("+1 hour", 1), ("+8 hours", 8), ("+24 hours", 24))),
            self._btn("Pass hours", lambda: act(self.model, "pass_time", self.hours_box.read()),
                      "time-n")]
        self.time_buttons = row(
            widgets.HTML("Time passes:"), *self.hour_buttons[:-1],
            row(self.hour_buttons[-1], self.hours_box), self.undo_button,
        )
        self.sheet = widgets.HTML()
        self.sheet.add_class("tc-miasma-sheet")
        self.history = widgets.HTML()
        app_box(
            css(),
            widgets.HTML(frag(el("b", "Miasma tracker"), " — psychosis and stress per character")),
            row(self.name_box, self.add_button),
            row(widgets.HTML("Character:"), self.who),
            self.character_buttons, self.place_buttons, self.cure_buttons, self.time_buttons,
            self.error, self.sheet, widgets.HTML(el("b", "History")), self.history,
            SaveLoad(self.model, "miasma.json", what="Miasma record"), box=self,
        )
        self.who.observe(lambda _change: self._gate(), names="value")
        self.raised.observe(lambda _change: self._gate(), names="value")
        bind(self.model, self.render, error=self.error)

    def _btn(self, label: str, action: Callable[[], Any], name: str,
             style: str = "") -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    def _on_character(self, move: Callable[[str], Any]) -> Callable[[], Any]:
        def run() -> Any:
            if not self.who.value:
                raise CompanionError("Psychosis: add a character first")
            return move(self.who.value)

        return run

    def _gain(self, name: str) -> None:
        act(self.model, "gain_psychosis", name, self.levels_box.read())

    def _stress(self, name: str) -> None:
        act(self.model, "set_stress", name, self.stress_box.read())

    def _add(self) -> None:
        # A name already taken: said under the box it came from, and in the app line.
        self.name_box.apply(mover(self.model, "add_character"))

    def _gate(self) -> None:
        """Disable what cannot work now: no character chosen, the rules refuse it, or this
        page's seat may not make it (a player: their own character's moves only)."""
        name = self.who.value
        chosen = bool(name) and any(ch.name == name for ch in self.model.characters)
        m = self.model

        def seat_may(move: str) -> bool:
            return seat_refusal(m, move, {"name": name} if chosen else {}) is None

        for move, button_ in (("gain_psychosis", self.gain_button),
                              ("set_stress", self.stress_button),
                              ("long_rest", self.rest_button)):
            button_.disabled = not chosen or not seat_may(move)
        for move, btn in self.gated.items():
            btn.disabled = (not chosen or not m.can(move, name, self.raised.value)
                            or not seat_may(move))
        self.add_button.disabled = not seat_may("add_character")
        for btn in self.hour_buttons:
            btn.disabled = not seat_may("pass_time")
        show_undo(self.undo_button, m)

    def render(self) -> None:
        everyone = [ch.name for ch in self.model.characters]
        # A player's seat moves their own character only (the GM's page: everyone).
        names = [n for n in everyone
                 if seat_refusal(self.model, "enter_miasma", {"name": n}) is None] or everyone
        if list(self.who.options) != names:
            keep = self.who.value if self.who.value in names else (names[-1] if names else None)
            self.who.options = names
            self.who.value = keep
        cards = []
        for ch in self.model.characters:
            effects = el("ul", (el("li", x) for x in ch.effects()))
            state: list[object] = [frag("level ", el("b", ch.level, class_="tc-level")),
                                   f"stress {ch.stress}",
                                   "inside the Miasma" if ch.inside else "outside the Miasma"]
            if ch.poisoned:
                state.append("poisoned")
            if ch.daily_gain:
                state.append(f"+{ch.daily_gain} per 24 h ({ch.clock} h counted)")
            if ch.fed:
                state.append("has eaten")
            cards.append(el("div", el("b", ch.name), ": ", join(state, ", "), effects,
                            class_="tc-card", data_name=ch.name, data_level=ch.level))
        self.sheet.value = frag(el("div", el("b", f"Day {self.model.day}"),
                                   f", hour {self.model.hours % 24}", data_hours=self.model.hours),
                                cards)
        self.history.value = log_html(self.model.log, LOG_SHOWN)
        self._gate()
