"""The Earthmotes app: generate earthmotes, travel on into new regions, keep the list."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.rulesets.miasma.earthmotes import (
    EarthmoteLog,
    dice_text,
)
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    check_box,
    draw_seed,
    int_box,
    row,
)
from companion.widgets.markup import details_html, el, frag
from companion.widgets.miasma.common import css
from companion.widgets.rolls import RollControls
from companion.widgets.seat_controls import act, mover, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["EarthmotesApp"]

#: What dice an earthmote takes, for the own-dice box.
DICE_HINT = "d6 d12 d12; new region: d6 then d12 (both: d12 d12)"


class EarthmotesApp(widgets.VBox):
    """Generate earthmotes and keep the list (an `EarthmoteLog`).

    Every earthmote is rolled through ``controls``: in the mode picked, or from real
    dice typed in (the d6 for its size, the two d12 of its biome, then one more d12 for
    each 11 or 12; a new region: the d6 of its size unless "same size" is ticked, then
    its re-rolled d12 or two, then the same). A public roll takes the list's
    next seed ([next_seed][companion.rulesets.miasma.earthmotes.EarthmoteLog.next_seed]),
    so the app makes the same earthmotes as ``python -m companion earthmote --seed``
    with the list's seed, and each shows its seed. A hidden one (GM only, blind,
    self) takes a fresh seed nobody can work out from the list, is logged in the
    campaign's roll log as its commitment and keeps its seed only there: the shared list
    shows the earthmote as the hidden roll's consequence, "seed not kept".
    ``seed_source`` (tests) replaces both.
    """

    def __init__(self, log: EarthmoteLog | None = None, *, seed: int | None = None,
                 session: Session | None = None,
                 seed_source: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.add_class("tc-earthmotes")
        self.error = ErrorLine()
        self.model = log if log is not None else EarthmoteLog.start(
            seed=draw_seed() if seed is None else seed)
        self.seed_source = seed_source
        self._drawn: int | None = None
        self.rolls = 0
        self.controls = RollControls(
            session=session, who=session.who if session is not None else "",
            role=session.seat_role if session is not None else "",
            seed_source=self._fresh_seed, hint=DICE_HINT, name="earthmote")
        self.outcome = widgets.HTML()
        self.outcome.add_class("tc-earthmote-roll")
        self.generate_button = button("Generate earthmote", self._generate,
                                      error=self.error, name="generate", style="primary")
        self.index_box = int_box("Earthmote #", 1, "index", 1, 1, width="140px")
        # A new region re-rolls one biome die (the other kept) or both (issue 30).
        self.region_buttons = [
            *(button(f"New region (keep die {k + 1})", functools.partial(self._region, k),
                     error=self.error, name=f"region-{k + 1}") for k in (0, 1)),
            button("New region (re-roll both)", functools.partial(self._region, None),
                   error=self.error, name="region-both"),
        ]
        # The Size table sizes a region too; ticked, the region keeps the earthmote's size.
        self.same_size = check_box("same size", "same-size")
        self.remove_button = button("Remove #", self._remove, error=self.error, name="remove")
        self.undo_button = button("Undo", lambda: undo(self.model), error=self.error,
                                  name="undo")
        self.clear_button = button("Clear", mover(self.model, "clear"), error=self.error,
                                   name="clear")
        self._count = 0
        self.heading = widgets.HTML()
        self.listing = widgets.HTML()
        self.listing.add_class("tc-earthmote-list")
        app_box(
            css(), self.heading, self.controls,
            row(self.generate_button, self.undo_button, self.clear_button),
            row(self.index_box, *self.region_buttons, self.same_size, self.remove_button),
            self.error, self.outcome, self.listing,
            SaveLoad(self.model, "earthmotes.json", what="earthmote list"),
            box=self,
        )
        bind(self.model, self.render, error=self.error)

    def _fresh_seed(self) -> int:
        # The seed the roll controls draw is the one the earthmote keeps (replayable).
        if self.seed_source is not None:
            self._drawn = self.seed_source()
        else:
            self._drawn = self.model.next_seed() if self._public else draw_seed()
        return self._drawn

    @property
    def _public(self) -> bool:
        # A hidden roll's seed stays in the roll log's secret: the shared list keeps none.
        return self.controls.mode_value == "public"

    def _roll(self, label: str, move: str, args: dict[str, Any]) -> None:
        """Roll the list's ``move`` (by name, JSON ``args``) as a named act: the session
        hands it its seed (kept in the earthmote unless the roll is hidden) or the real
        dice entered."""
        self._drawn = None
        out = self.controls.run_act(label, self.model, move,
                                    {**args, "keep_seed": self._public})
        self.rolls += 1
        if out.shown and out.value is not None:
            how = "own dice" if out.physical else details_html(frag(f"seed {out.seed}"))
            self.outcome.value = el(
                "div", out.value.describe(), el("br"),
                el("span", f"{out.value.rolls()} · ", how, class_="tc-note"),
                class_="tc-outcome", data_n=self.rolls)
        else:
            self.outcome.value = el("div", out.hidden_html(), class_="tc-outcome",
                                    data_n=self.rolls, data_hidden=1)

    def _generate(self) -> None:
        self._roll("Earthmote", "generate", {})

    def _region(self, keep: int | None) -> None:
        index = self.index_box.read() - 1
        new_size = not self.same_size.value
        self._roll(f"Earthmote #{index + 1}: new region", "new_region",
                   {"index": index, "keep": keep, "new_size": new_size})

    def _remove(self) -> None:
        act(self.model, "remove", self.index_box.read() - 1)

    def render(self) -> None:
        model = self.model
        self.heading.value = frag(el("b", "Earthmotes"), f" — {dice_text()} · ",
                                  details_html(frag(f"list seed {model.seed}")))
        items = [
            el("li", el("b", f"#{i + 1}"), f" {m.describe()}", el("br"), el(
                "span", f"{m.rolls()} · ", details_html(frag(
                    "seed not kept" if m.seed is None else f"seed {m.seed}")),
                class_="tc-note"), class_="tc-card", data_i=i + 1)
            for i, m in enumerate(model.earthmotes)
        ]
        self.listing.value = frag(
            el("ol", items, class_="tc-seats", data_count=len(model.earthmotes),
               data_made=model.made),
            not items and el("p", "No earthmotes yet."))
        none = not model.earthmotes
        full = model.full
        self.generate_button.disabled = full
        for btn in self.region_buttons:
            btn.disabled = none or full
        self.remove_button.disabled = none
        show_undo(self.undo_button, model)
        self.clear_button.disabled = none
        count = len(model.earthmotes)
        shrank, self._count = count < self._count, count
        self.index_box.max = max(1, count)  # only numbers on the list
        text = self.index_box.text.strip()
        if shrank and text.isdigit() and int(text) > count:
            # The earthmote it named was just removed: point at the new last one.
            self.index_box.value = max(1, count)
