"""A party of casters in one app: every caster's mentality pool at a glance, one to act on.

``CastersApp`` lists each caster's pool, highest castable level and the 6th-level-and-up
spells already cast since the last long rest, from
[SpellPoints][companion.rulesets.variant5e.spell_points.SpellPoints]; the chosen caster's
own app (``SpellPointsApp``) casts and rests. New casters are placed by class or subclass
([caster_kind_of][companion.rulesets.variant5e.spell_points.caster_kind_of]).

Usage in a notebook::

    from companion.widgets.variant5e_casters import CastersApp
    CastersApp()
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.variant5e.spell_points import SpellPoints, caster_kind_of
from companion.widgets.base import (
    ErrorLine,
    app_box,
    button,
    int_box,
    offer,
    row,
    safe,
    text_box,
)
from companion.widgets.markup import el
from companion.widgets.variant5e import SpellPointsApp

__all__ = ["CastersApp"]

#: Most casters one table follows (a bound on the list, not a rule).
MAX_CASTERS = 20


class CastersApp(widgets.VBox):
    """Every caster of the party: a summary table, and the chosen caster's pool.

    Without ``casters`` it is a demo with two made-up casters. The campaign passes its
    party's casters, ``adopt(name, caster)`` (which keeps a new caster and returns the one
    to drive from then on) and calls ``follow(casters)`` when its party changes.
    """

    def __init__(self, casters: dict[str, SpellPoints] | None = None, *,
                 adopt: Callable[[str, SpellPoints], SpellPoints] | None = None,
                 lock: AbstractContextManager[Any] | None = None) -> None:
        super().__init__()
        # The campaign's lock in a campaign: a pick on the page and a caster joining on
        # another screen (the live watcher's thread) both build the app shown; one at a
        # time, it is built once. Alone (a demo), one thread: nothing to hold.
        self.lock = lock if lock is not None else nullcontext()
        self.add_class("tc-casters-app")
        self.adopt = adopt
        self.casters: dict[str, SpellPoints] = dict(casters) if casters is not None else {
            "Wizard": SpellPoints.new(5), "Paladin": SpellPoints.new(6, "half")}
        self.error = e = ErrorLine()
        self.apps: dict[str, SpellPointsApp] = {}
        self.summary = widgets.HTML()
        self.picker = widgets.Dropdown(options=[], description="Caster",
                                       layout=widgets.Layout(width="240px"))
        self.picker.add_class("tc-pick-caster")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.new_name = text_box("name", name="caster-name")
        self.new_class = text_box("class, e.g. cleric or rogue (arcane trickster)",
                                  name="caster-class")
        self.new_level = int_box("Level", 1, "caster-level", 1, 20)
        self.add_button = button("Add caster", self.add_caster, error=e, name="add-caster")
        app_box(
            widgets.HTML(el("b", "The party's casters")),
            self.summary,
            row(self.picker),
            self.body,
            row(self.new_name, self.new_class, self.new_level, self.add_button),
            e,
            box=self,
        )
        self.picker.observe(safe(e)(lambda _ch: self.show()), names="value")
        self._watched: set[int] = set()
        for name in self.casters:
            self._watch(name)
        self.sync()

    def _watch(self, name: str) -> None:
        caster = self.casters[name]
        if id(caster) not in self._watched:
            self._watched.add(id(caster))
            caster.on_change(lambda _m: self.render_summary())

    def follow(self, casters: dict[str, SpellPoints]) -> None:
        """The party's casters now (joined or left on any screen)."""
        with self.lock:
            if [(n, id(c)) for n, c in casters.items()] == [
                    (n, id(c)) for n, c in self.casters.items()]:
                return
            self.casters = dict(casters)
            for name in self.casters:
                self._watch(name)
            self.sync()

    def add_caster(self) -> None:
        name = " ".join(str(self.new_name.value).split())
        if not 1 <= len(name) <= 40:
            raise RuleError("Spell Points: a caster needs a name of 1 to 40 characters")
        if name in self.casters:
            raise RuleError(f"Spell Points: {name!r} is already in the party")
        if len(self.casters) >= MAX_CASTERS:
            raise RuleError(f"Spell Points: at most {MAX_CASTERS} casters")
        kind = caster_kind_of(str(self.new_class.value))
        caster = SpellPoints.new(self.new_level.read(), kind)
        with self.lock:
            self.casters[name] = self.adopt(name, caster) if self.adopt is not None else caster
            self._watch(name)
            self.new_name.value = ""
            self.sync(show=name)

    def sync(self, show: str | None = None) -> None:
        with self.lock:
            # The viewer's pick stays when a caster joins (offer): the list used to
            # jump back to the first caster.
            offer(self.picker, list(self.casters), default=show)
            if show is not None:
                self.picker.value = show
            self.show()
            self.render_summary()

    def show(self) -> None:
        with self.lock:
            name = self.picker.value
            if name is None:
                self.body.children = (widgets.HTML(
                    el("p", "No caster yet: add one below.", class_="tc-empty")),)
                return
            app = self.apps.get(name)
            if app is None or app.model is not self.casters[name]:
                app = self.apps[name] = SpellPointsApp(self.casters[name])
            if self.body.children != (app,):
                self.body.children = (app,)

    def render_summary(self) -> None:
        """One line per caster (a wide table squeezes every cell on a phone)."""
        lines = []
        for n, c in self.casters.items():
            high = ", ".join(str(x) for x in sorted(c.high_cast))
            lines.append(el(
                "li", el("b", n), f" · level {c.class_level} {c.caster} · mentality ",
                el("b", c.points), f"/{c.maximum} · spells up to {c.max_spell_level}",
                high and f" · 6th+ cast: {high}",
                data_caster=n, data_points=c.points, data_high=high))
        self.summary.value = el("ul", lines, class_="tc-casters")
