"""Saving and loading: download links that carry their file, and a tracker's Save/Load."""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from typing import Any, Protocol

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.widgets.controls import button
from companion.widgets.layout import bind, row
from companion.widgets.messages import ErrorLine

__all__ = [
    "INLINE_DOWNLOAD_LIMIT",
    "DownloadLinks",
    "SaveLoad",
    "data_uri_link",
]

INLINE_DOWNLOAD_LIMIT = 32_000
"""Largest file (characters) sent inline as a download link on every change; a bigger one
is prepared only when the player taps *Prepare download* (and dropped at the next change),
so a long session does not re-send its whole save or history after every move."""


def data_uri_link(label: str, filename: str, mime: str, content: str) -> str:
    """A download link that carries its file inline (works offline, no server route)."""
    payload = base64.b64encode(content.encode("utf-8")).decode("ascii")
    return (
        f'<a class="tc-link tc-download-{html.escape(filename.rsplit(".", 1)[-1])}" '
        f'download="{html.escape(filename)}" '
        f'href="data:{mime};charset=utf-8;base64,{payload}">{html.escape(label)}</a>'
    )


class DownloadLinks(widgets.HBox):
    """Download links (``data:`` URIs) whose size does not grow what each change sends.

    ``offer(build, size)`` after every change: ``build()`` returns the links' HTML (e.g.
    [data_uri_link][companion.widgets.saving.data_uri_link]) and ``size`` estimates the file's
    characters. Up to [INLINE_DOWNLOAD_LIMIT][companion.widgets.saving.INLINE_DOWNLOAD_LIMIT]
    the links are sent at once, as before; past it a button (``label``,
    ``.tc-btn-prepare-<name>``) builds them on a tap, and the next ``offer`` takes them back.
    ``.value`` is the links' HTML now shown ("" when none). The button is made the first
    time it is needed, so small apps keep their widget tree::

        self.save = DownloadLinks(self.error, "save", "Save sheet")
        ...  # in render:
        saved = sheet.to_json()
        self.save.offer(lambda: data_uri_link("Save sheet", "sheet.json",
                                              "application/json", saved), len(saved))
    """

    def __init__(self, error: ErrorLine, name: str, label: str = "Prepare download") -> None:
        self.links = widgets.HTML()
        self.links.add_class("tc-save")
        super().__init__([self.links],
                         layout=widgets.Layout(max_width="100%", flex_flow="row wrap"))
        self._error, self._name, self._label = error, name, label
        self.prepare: widgets.Button | None = None
        self._build: Callable[[], str] = str

    def offer(self, build: Callable[[], str], size: int) -> None:
        """``build()`` gives the links' HTML; ``size`` estimates the files' characters."""
        self._build = build
        if size <= INLINE_DOWNLOAD_LIMIT:
            self._show()
            return
        self.links.value = ""
        if self.prepare is None:
            self.prepare = button(self._label, self._show, error=self._error,
                                  name=f"prepare-{self._name}")
            self.children = (self.links, self.prepare)
        self.prepare.layout.display = None

    @property
    def value(self) -> str:
        return str(self.links.value)

    def withdraw(self) -> None:
        self.links.value = ""
        if self.prepare is not None:
            self.prepare.layout.display = "none"

    def _show(self) -> None:
        self.links.value = self._build()
        if self.prepare is not None:
            self.prepare.layout.display = "none"


class _Saveable(Protocol):
    def on_change(self, callback: Callable[..., Any], /) -> Any: ...
    def to_json(self) -> str: ...
    def load(self, text: str) -> None: ...


class SaveLoad(widgets.VBox):
    """*Save* (a download of ``model.to_json()``) and a box to paste a saved file into.

    *Load* calls ``model.load``, which checks every field before changing anything: a bad
    paste shows the one-line ``StateError`` and leaves both the model and the paste as they
    were, so the player can fix it. Observers of the model stay attached.

    The save is sent inline (a download link re-sent after every move) only while it is at
    most [INLINE_DOWNLOAD_LIMIT][companion.widgets.saving.INLINE_DOWNLOAD_LIMIT] characters;
    a longer one is built when the player taps *Save* (``.tc-btn-prepare-save``), so a long
    session does not re-send its whole log after each move. A paste longer than the
    tracker's limit is refused before it is read.
    """

    def __init__(self, model: _Saveable, filename: str, *, what: str,
                 error: ErrorLine | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-save-load")
        self.model = model
        self.filename = filename
        self.what = what
        self.error = error if error is not None else ErrorLine()
        self._file = DownloadLinks(self.error, "save", f"Save {what}")
        self.save = self._file.links
        self.load_box = widgets.Textarea(
            placeholder=f"To load a saved {what}: open its file, copy all, paste it here",
            tooltip=f"Load a saved {what}", layout=widgets.Layout(width="100%", height="60px"))
        self.load_box.add_class("tc-load")
        self.load_button = button("Load", self.load, error=self.error, name="load")
        own_error = [self.error] if error is None else []
        # In a campaign a player's saving and loading is the campaign itself: no box of
        # saved text on their page (the GM keeps it, to bring in a save from elsewhere).
        seat = getattr(getattr(model, "recorder", None), "seat_role", "")
        loading = [] if seat in ("player", "spectator") else [row(self.load_box,
                                                                  self.load_button)]
        self.children = (row(self._file), *loading, *own_error)
        bind(model, self.render, error=self.error)

    def load(self) -> None:
        text = self.load_box.value
        if not text.strip():
            raise CompanionError(f"Load: paste a saved {self.what} into the box first")
        self.model.load(text)
        self.load_box.value = ""

    def render(self) -> None:
        # A long session: the file is sent only when asked (and again after the next move).
        saved = self.model.to_json()
        self._file.offer(lambda: self._link(saved), len(saved))

    def _link(self, saved: str) -> str:
        return data_uri_link(f"Save {self.what}", self.filename, "application/json", saved)
