"""Saving and loading: download links that carry their file, and a tracker's Save/Load."""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any, Protocol

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.files import FileError, decode_text, shown_name
from companion.state import MAX_SAVE_CHARS, Tracker
from companion.widgets.controls import button
from companion.widgets.layout import bind, row
from companion.widgets.markup import Markup, el
from companion.widgets.messages import ErrorLine, one_line, safe
from companion.widgets.seat_controls import load
from companion.widgets.styles import MIN_BUTTON_HEIGHT

__all__ = [
    "INLINE_DOWNLOAD_LIMIT",
    "MAX_LOAD_BYTES",
    "DownloadLinks",
    "SaveLoad",
    "data_uri_link",
]

INLINE_DOWNLOAD_LIMIT = 32_000
"""Largest file (characters) sent inline as a download link on every change; a bigger one
is prepared only when the player taps *Prepare download* (and dropped at the next change),
so a long session does not re-send its whole save or history after every move."""


MAX_LOAD_BYTES = 4 * MAX_SAVE_CHARS + 3
"""Largest file *Open* reads: the most bytes a save of ``MAX_SAVE_CHARS`` characters can
take in UTF-8 (four a character), and a byte-order mark. A bigger one is refused unread;
a smaller one still longer than ``MAX_SAVE_CHARS`` characters is refused by the load."""


def data_uri_link(label: str, filename: str, mime: str, content: str) -> Markup:
    """A download link that carries its file inline (works offline, no server route)."""
    payload = base64.b64encode(content.encode("utf-8")).decode("ascii")
    return el("a", label, class_=f"tc-link tc-download-{filename.rsplit('.', 1)[-1]}",
              download=filename, href=f"data:{mime};charset=utf-8;base64,{payload}")


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


_PASTE_FOLDED, _PASTE_OPEN = "\u25b8 Paste saved text instead", "\u25be Paste saved text"


class SaveLoad(widgets.VBox):
    """*Save* (a download of ``model.to_json()``) and *Open* (a saved file, picked).

    *Open* (a file picker, ``.tc-load-file``) reads the file as UTF-8 (a byte-order mark
    allowed) and calls ``model.load``, which checks every field before changing anything: a
    bad file shows one line naming it and why, and leaves the model as it was. A file over
    [MAX_LOAD_BYTES][companion.widgets.saving.MAX_LOAD_BYTES] is refused unread. The picker
    is emptied after each file, good or bad, so the same file can be opened again; a good
    one is confirmed under it ("Loaded ash.json"). Observers of the model stay attached.

    Pasting a save's text (``load_box``, ``.tc-load``, with ``load_button``) is folded away
    behind *Paste saved text instead* (``.tc-btn-paste-saved``); a bad paste stays in
    the box, to be fixed. In a campaign a player's or spectator's saving and loading is the
    campaign itself: their page has neither the picker nor the box.

    The save is sent inline (a download link re-sent after every move) only while it is at
    most [INLINE_DOWNLOAD_LIMIT][companion.widgets.saving.INLINE_DOWNLOAD_LIMIT] characters;
    a longer one is built when the player taps *Save* (``.tc-btn-prepare-save``), so a long
    session does not re-send its whole log after each move.
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
        # Text only: the default upload icon is Font Awesome, blank at an offline table.
        self.open_file = widgets.FileUpload(
            accept=".json,application/json", multiple=False, icon="",
            description=f"Open a saved {what}", tooltip=f"Open a saved {what} file",
            layout=widgets.Layout(width="auto", height="auto", min_height=MIN_BUTTON_HEIGHT))
        self.open_file.add_class("tc-load-file")
        self.open_file.observe(self._opened, names="value")
        self.loaded = widgets.HTML(layout=widgets.Layout(display="none"))
        self.loaded.add_class("tc-loaded")
        self.load_box = widgets.Textarea(
            placeholder=f"A saved {what}'s text: open its file, copy all, paste it here",
            tooltip=f"Load a saved {what}", layout=widgets.Layout(width="100%", height="60px"))
        self.load_box.add_class("tc-load")
        self.load_button = button("Load", self.load, error=self.error, name="load")
        # Folded away: a file is the table's way; pasting text is the fallback.
        self.paste = row(self.load_box, self.load_button)
        self.paste.add_class("tc-paste-saved")
        self.paste.layout.display = "none"
        self.paste_toggle = button(_PASTE_FOLDED, self.flip_paste, name="paste-saved",
                                   tooltip=f"Paste a saved {what}'s text instead of "
                                           f"opening its file")
        own_error = [self.error] if error is None else []
        # In a campaign a player's saving and loading is the campaign itself: nothing to
        # open or paste on their page (the GM keeps both, to bring in a save from elsewhere).
        # The session's answer: a tracker's keeper (live) or its seat mirror's keeper both
        # name the session that holds it (a tracker in no campaign: the page's own).
        session = getattr(getattr(model, "recorder", None), "session", None)
        if session is None and isinstance(model, Tracker):
            from companion.table.session import Session

            session = Session.holding(model)  # a campaign opened in code: its seat's
        if session is not None and not session.sees_all:
            self.children = (row(self._file), *own_error)
        else:
            self.children = (row(self._file, self.open_file, self.paste_toggle),
                             self.loaded, self.paste, *own_error)
        self._loading = False
        bind(model, self.render, error=self.error)

    def flip_paste(self) -> None:
        """Show the paste box, or fold it away again."""
        folded = self.paste.layout.display == "none"
        self.paste.layout.display = None if folded else "none"
        self.paste_toggle.description = _PASTE_OPEN if folded else _PASTE_FOLDED

    def load(self) -> None:
        """Load the pasted text (the paste stays in the box if it is refused)."""
        text = self.load_box.value
        if not text.strip():
            raise CompanionError(f"Load: paste a saved {self.what} into the box first")
        self._load(text)
        self.load_box.value = ""

    def open_saved(self, name: str, content: bytes | memoryview) -> None:
        """Load file ``name`` whose bytes are ``content``; one line naming it if refused."""
        shown = shown_name(name or "the file")
        size = content.nbytes if isinstance(content, memoryview) else len(content)
        # Refused before anything is decoded or copied: no save is this long.
        if size > MAX_LOAD_BYTES:
            raise FileError(f"{shown} is larger than {MAX_LOAD_BYTES:,} bytes: too long to "
                            f"be a saved {self.what}")
        text = decode_text(bytes(content), shown, f"a saved {self.what}")
        try:
            self._load(text)
        except CompanionError as exc:
            raise FileError(f"{shown}: {one_line(exc)}") from None
        self._note(f"Loaded {shown}")

    def render(self) -> None:
        if not self._loading:  # a confirmation lasts until the next move
            self._note("")
        # A long session: the file is sent only when asked (and again after the next move).
        saved = self.model.to_json()
        self._file.offer(lambda: self._link(saved), len(saved))

    def _note(self, text: str) -> None:
        self.loaded.value = el("span", text, class_="tc-note", role="status") if text else ""
        self.loaded.layout.display = None if text else "none"  # no empty line

    def _load(self, text: str) -> None:
        self._note("")
        self._loading = True
        try:
            load(self.model, text)  # through its session, when it is kept in one
        finally:
            self._loading = False

    def _opened(self, change: dict[str, Any]) -> None:
        files = change["new"]
        if not files:  # the picker emptied below
            return
        picked = files[0]
        try:
            safe(self.error)(self.open_saved)(str(picked.get("name", "")),
                                              picked.get("content", b""))
        finally:
            # Emptied whatever happened, so the same file can be picked again.
            self.open_file.value = ()

    def _link(self, saved: str) -> str:
        return data_uri_link(f"Save {self.what}", self.filename, "application/json", saved)
