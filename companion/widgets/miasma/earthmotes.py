"""The Earthmotes app: generate earthmotes, travel on into new regions, keep the list."""

from __future__ import annotations

import functools

import ipywidgets as widgets

from companion.rulesets.miasma.earthmotes import MAX_EARTHMOTES, EarthmoteLog, dice_text
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    draw_seed,
    escape,
    int_box,
    row,
)
from companion.widgets.miasma.common import css

__all__ = ["EarthmotesApp"]


class EarthmotesApp(widgets.VBox):
    """Generate earthmotes and keep the list (an `EarthmoteLog`).

    The list's seed is drawn once (or given) and shown; every earthmote shows its own
    seed, so any of them can be rolled again.
    """

    def __init__(self, log: EarthmoteLog | None = None, *, seed: int | None = None) -> None:
        super().__init__()
        self.add_class("tc-earthmotes")
        self.error = ErrorLine()
        self.model = log if log is not None else EarthmoteLog.start(
            seed=draw_seed() if seed is None else seed)
        self.generate_button = button("Generate earthmote", self.model.generate,
                                      error=self.error, name="generate", style="primary")
        self.index_box = int_box("Earthmote #", 1, "index", 1, 1, width="140px")
        self.region_buttons = [
            button(f"New region (keep die {k + 1})", functools.partial(self._region, k),
                   error=self.error, name=f"region-{k + 1}")
            for k in (0, 1)
        ]
        self.remove_button = button("Remove #", self._remove, error=self.error, name="remove")
        self.undo_button = button("Undo", self.model.undo, error=self.error, name="undo")
        self.clear_button = button("Clear", self.model.clear, error=self.error, name="clear")
        self._count = 0
        self.heading = widgets.HTML()
        self.listing = widgets.HTML()
        self.listing.add_class("tc-earthmote-list")
        app_box(
            css(), self.heading,
            row(self.generate_button, self.undo_button, self.clear_button),
            row(self.index_box, *self.region_buttons, self.remove_button),
            self.error, self.listing,
            SaveLoad(self.model, "earthmotes.json", what="earthmote list"),
            box=self,
        )
        bind(self.model, self.render, error=self.error)

    def _region(self, keep: int) -> None:
        self.model.new_region(self.index_box.read() - 1, keep)

    def _remove(self) -> None:
        self.model.remove(self.index_box.read() - 1)

    def render(self) -> None:
        model = self.model
        self.heading.value = (
            f"<b>Earthmotes</b> — {escape(dice_text())} · list seed {model.seed}")
        items = "".join(
            f'<li class="tc-card" data-i="{i + 1}"><b>#{i + 1}</b> {escape(m.describe())}<br>'
            f"<span class='tc-note'>{escape(m.rolls())} · seed {m.seed}</span></li>"
            for i, m in enumerate(model.earthmotes)
        )
        empty = "" if items else "<p>No earthmotes yet.</p>"
        self.listing.value = (f'<ol class="tc-seats" data-count="{len(model.earthmotes)}" '
                              f'data-made="{model.made}">{items}</ol>{empty}')
        none = not model.earthmotes
        full = len(model.earthmotes) >= MAX_EARTHMOTES
        self.generate_button.disabled = full
        for btn in self.region_buttons:
            btn.disabled = none or full
        self.remove_button.disabled = none
        self.undo_button.disabled = not model.can_undo
        self.clear_button.disabled = none
        count = len(model.earthmotes)
        shrank, self._count = count < self._count, count
        self.index_box.max = max(1, count)  # only numbers on the list
        text = self.index_box.text.strip()
        if shrank and text.isdigit() and int(text) > count:
            # The earthmote it named was just removed: point at the new last one.
            self.index_box.value = max(1, count)
