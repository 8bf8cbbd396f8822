"""What happened, newest first and bounded: a tracker's moves and a roll history."""

from __future__ import annotations

from typing import Any, Protocol

import ipywidgets as widgets

from companion.errors import clipped
from companion.history import RollHistory, RollRecord
from companion.widgets.controls import button
from companion.widgets.layout import row
from companion.widgets.markup import (
    LOCAL_TIME_SCRIPT,
    Markup,
    details_html,
    el,
    frag,
    local_time_html,
    roll_text_html,
)
from companion.widgets.messages import ErrorLine
from companion.widgets.saving import DownloadLinks, data_uri_link

__all__ = [
    "ENTRY_TEXT_LIMIT",
    "HISTORY_SHOWN",
    "LOG_SHOWN",
    "HistoryView",
    "log_html",
]

LOG_SHOWN = 50
"""Newest moves [log_html][companion.widgets.history.log_html] lists (the whole log stays in
the tracker and its save)."""


class _Logged(Protocol):
    @property
    def summary(self) -> str: ...


def log_html(log: Any, shown: int = LOG_SHOWN) -> Markup:
    """A tracker's moves (its ``log``), newest first, as a bounded list.

    The newest ``shown`` lines, each cut to
    [ENTRY_TEXT_LIMIT][companion.widgets.history.ENTRY_TEXT_LIMIT] characters, so what a move
    sends to the browser does not grow with the session; a note counts the earlier ones (in
    the save). The ``<ol class="tc-history tc-log">`` carries ``data-count`` (every move
    made) and each line ``data-n`` (its number), for tests to wait on.
    """
    events: list[_Logged] = list(log)
    first = max(0, len(events) - shown)
    items = (el("li", roll_text_html(clipped(events[i].summary, ENTRY_TEXT_LIMIT)), data_n=i + 1)
             for i in range(len(events) - 1, first - 1, -1))
    more = el("div", f"… and {first} earlier move{'s' if first != 1 else ''} (in the save)",
              class_="tc-history-more") if first else None
    # tabindex: the list scrolls once long, and a keyboard must reach it to scroll it.
    return frag(el("ol", items, class_="tc-history tc-log", tabindex=0, data_count=len(events)),
                more)


HISTORY_SHOWN = 50
"""Rolls a [HistoryView][companion.widgets.history.HistoryView] lists (newest first); all the
kept ones are in its downloads."""

ENTRY_TEXT_LIMIT = 300
"""Characters of a roll's text shown in one history entry (a 1000-die roll is cut)."""


class HistoryView(widgets.VBox):
    """Shows a [RollHistory][companion.history.RollHistory] (newest first) with Clear and exports.

    It only observes the model: whoever adds rolls to the history (this browser or, later,
    another one sharing the model) makes the list update. The ``<ol>`` carries
    ``data-count`` (rolls ever made) so browser tests can wait for the next roll.

    What each change sends to the browser is bounded: the newest
    [HISTORY_SHOWN][companion.widgets.history.HISTORY_SHOWN] rolls, each cut to
    [ENTRY_TEXT_LIMIT][companion.widgets.history.ENTRY_TEXT_LIMIT] characters, and the CSV/JSON
    downloads inline only while small (else a *Prepare download* button). Times show in the
    viewer's own zone.
    """

    def __init__(self, history: RollHistory, *, error: ErrorLine | None = None,
                 shown: int = HISTORY_SHOWN) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-history-view")
        self.history = history
        self.shown = shown
        self.error = error if error is not None else ErrorLine()
        self.title = widgets.HTML()
        self.clear_button = button(
            "Clear history", history.clear, error=self.error, name="clear-history"
        )
        self._downloads = DownloadLinks(self.error, "history")
        self._downloads.links.remove_class("tc-save")
        self.downloads = self._downloads.links
        self.list = widgets.HTML()
        self.children = (
            row(self.title, self.clear_button, self._downloads),
            self.list,
        )
        self.unsubscribe = history.on_change(lambda _model: self.render())
        self.render()

    def render(self) -> None:
        h = self.history
        n = len(h)
        self.title.value = frag(el("b", "History"),
                                f" ({n} roll{'s' if n != 1 else ''}, newest first)")
        self.clear_button.disabled = n == 0
        if n:
            size = sum(len(r.text) + 60 * len(r.dice) + 120 for r in h)
            self._downloads.offer(self._links, size)
        else:
            self._downloads.withdraw()
        records = h.records[: self.shown]
        items = [self._item(r) for r in records]
        more = el("li", f"… and {n - len(records)} older rolls (in the downloads)",
                  class_="tc-history-more") if n > len(records) else None
        self.list.value = frag(
            el("ol", items, more, class_="tc-history", tabindex=0, data_count=h.count),
            LOCAL_TIME_SCRIPT if records else None)

    def _links(self) -> Markup:
        h = self.history
        # Files for a spreadsheet or a program: under "details", with the seeds.
        return details_html(frag(
            data_uri_link("CSV", "rolls.csv", "text/csv", h.to_csv()), data_uri_link(
                "JSON", "rolls.json", "application/json", h.to_json())), "downloads")

    @staticmethod
    def _item(r: RollRecord) -> Markup:
        return el(
            "li", el("span", r.total, class_="tc-h-total"), " ",
            el("span", roll_text_html(clipped(r.text, ENTRY_TEXT_LIMIT)), class_="tc-h-text"),
            el("br"),
            el("span", f"#{r.n} · ", local_time_html(r.time), " · ",
               details_html(frag(f"seed {r.seed}")), class_="tc-h-meta"),
            data_n=r.n)
