"""Drive an app's page in-process, as its notebook builds it, the way a browser test would.

``AppPage("cairn_character")`` is ``campaign_page("cairn_character")`` without a campaign
in the URL (the labelled demo a browser test opens). Its methods mirror the browser tests'
locators so a flow moved out of Chromium reads the same:

- ``page.fill("damage", "7")`` is ``fill`` on ``.tc-int-damage input`` (any box kind:
  ``tc-int-``, ``tc-name-``, ``tc-text-``, ``tc-faces-``, ``tc-seed-``); ``page.box(name)``
  is the box itself (a checked box's ``.text`` is what is typed);
- ``page.tap("take-damage")`` clicks ``.tc-btn-take-damage`` (a separate tap each time: the
  autouse ``tap_clock`` fixture), failing when the button is disabled, as a browser cannot
  click it either;
- ``page.one("tc-attacker")`` is the single widget with that class (``.value`` to pick);
- ``page.has("tc-lock", data_state="jammed")`` is ``.tc-lock[data-state="jammed"]`` in the
  page's markup (or an HTML widget classed so), ``page.inner(cls)`` the words inside it,
  ``page.find_text(cls)`` a ``to_contain_text`` on it, ``page.outcome(n)`` the words of
  ``.tc-outcome[data-n="n"]``, ``page.refusal(name)`` the line under box ``name``;
- ``page.visible(widget)``: neither the widget nor a box holding it has ``display: none``
  (ipywidgets' layout, how the apps fold sections away);
- ``page.within("tc-character-ash")`` scopes all of these to one part of the page.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterator
from typing import Any

import ipywidgets as widgets
import pytest

from companion.widgets.inputs import CheckedBox
from companion.widgets.table import campaign_page
from companion.widgets.table.binding import PageContext
from tests.conftest import find_widget

BOX_KINDS = ("int", "name", "text", "faces", "seed")


def walk(root: Any) -> Iterator[Any]:
    """Every widget under ``root``, in page order."""
    yield root
    for child in getattr(root, "children", ()) or ():
        yield from walk(child)


def text_of(markup: str) -> str:
    """The words of some markup, as a reader sees them (tags dropped, entities read)."""
    no_style = re.sub(r"<(style|script)\b.*?</\1>", "", markup, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", no_style))


def tag(cls: str, **attrs: str) -> str:
    """A regex for the start of an opening tag (``<div``) classed ``cls`` with these data
    attributes, in any order (``data_n="1"`` for ``data-n``); follow it with ``[^>]*>``."""
    pattern = r"<\w+"
    if cls:  # "" for any element with these attributes
        pattern += rf"""(?=[^>]*\bclass=["'](?:[^"']*\s)?{re.escape(cls)}(?:\s[^"']*)?["'])"""
    for name, value in attrs.items():
        pattern += rf"""(?=[^>]*\b{name.replace("_", "-")}=["']{re.escape(value)}["'])"""
    return pattern


class Scope:
    """The widgets under ``root`` (a page, or a part of it: ``page.within("tc-character")``)."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def within(self, cls: str) -> Scope:
        return Scope(self.one(cls))

    def all(self, cls: str) -> list[Any]:
        return [w for w in walk(self.root) if cls in getattr(w, "_dom_classes", ())]

    def one(self, cls: str) -> Any:
        found = self.all(cls)
        if len(found) != 1:
            pytest.fail(f"{len(found)} widgets classed {cls!r}")
        return found[0]

    def box(self, name: str) -> Any:
        hits = [w for w in walk(self.root)
                if any(f"tc-{k}-{name}" in getattr(w, "_dom_classes", ()) for k in BOX_KINDS)]
        if len(hits) != 1:
            pytest.fail(f"{len(hits)} boxes named {name!r}")
        return hits[0]

    def fill(self, name: str, text: str) -> None:
        """Type ``text`` into box ``name`` (a checked box's text, or a plain box's value)."""
        box = self.box(name)
        if isinstance(box, CheckedBox):
            box.text = text
        else:
            box.value = text

    def button(self, name: str) -> widgets.Button:
        found = find_widget(self.root, name, "btn")
        assert isinstance(found, widgets.Button)
        return found

    def tap(self, name: str) -> None:
        button = self.button(name)
        assert not button.disabled, f"{name} is disabled: {button.tooltip}"
        button.click()

    def html(self) -> str:
        return "\n".join(w.value for w in walk(self.root)
                         if isinstance(w, widgets.HTML) and not w.value.startswith("<style"))

    def text(self) -> str:
        return text_of(self.html())

    def element(self, pattern: str) -> str:
        """The markup of the first element whose opening tag starts as ``pattern`` (a
        [tag][tests.widgets.app_page.tag]), up to the end of the HTML widget holding it."""
        for w in walk(self.root):
            if isinstance(w, widgets.HTML):
                found = re.search(rf"{pattern}[^>]*>", w.value)
                if found:
                    return w.value[found.start():]
        pytest.fail(f"no element matching {pattern!r}")

    def find(self, cls: str, **attrs: str) -> str:
        """The markup from the element ``.cls[data-attr="value"]...`` on (``data_n="1"``
        for ``data-n``, in any order) to the end of the HTML widget holding it."""
        if not attrs:
            held = self._widget_markup(cls)
            if held is not None:
                return held
        return self.element(tag(cls, **attrs))

    def _widget_markup(self, cls: str) -> str | None:
        """The markup of the HTML widget classed ``cls`` itself (a browser's ``.cls`` matches
        the widget's own element as well as elements in its markup)."""
        held = [w for w in self.all(cls) if isinstance(w, widgets.HTML)]
        return held[0].value if len(held) == 1 else None

    def find_text(self, cls: str, **attrs: str) -> str:
        """The words from the element ``.cls`` on, to the end of the HTML widget holding it
        (for an element holding others: a browser's ``to_contain_text`` on it)."""
        return text_of(self.find(cls, **attrs))

    def inner(self, cls: str, **attrs: str) -> str:
        """The words inside the element ``.cls`` (one not nesting its own tag name)."""
        if not attrs:
            held = self._widget_markup(cls)
            if held is not None:
                return text_of(held)
        markup = self.html()
        found = re.search(rf"{tag(cls, **attrs)}[^>]*>", markup)
        if found is None:
            pytest.fail(f"no element .{cls} {attrs or ''}")
        name = re.match(r"<(\w+)", found.group(0)).group(1)  # type: ignore[union-attr]
        return text_of(markup[found.end():markup.index(f"</{name}>", found.end())])

    def has(self, cls: str, **attrs: str) -> bool:
        if not attrs and self._widget_markup(cls) is not None:
            return True
        return re.search(tag(cls, **attrs), self.html()) is not None

    def outcome(self, n: int) -> str:
        """The words of ``.tc-outcome[data-n=n]`` (fails when the count is not ``n``)."""
        return text_of(self.find("tc-outcome", data_n=str(n)))

    def refusal(self, name: str) -> str:
        """What the refusal line under box ``name`` says ("" when nothing)."""
        return str(self.one(f"tc-refusal-{name}").message)

    def visible(self, widget: Any) -> bool:
        """Whether ``widget`` is drawn: neither it nor a box holding it is hidden."""
        def path(root: Any) -> list[Any] | None:
            if root is widget:
                return [root]
            for child in getattr(root, "children", ()) or ():
                found = path(child)
                if found is not None:
                    return [root, *found]
            return None

        chain = path(self.root)
        assert chain is not None, "the widget is not on the page"
        return all(w.layout.display != "none" and w.layout.visibility != "hidden"
                   for w in chain if hasattr(w, "layout"))

    def upload(self, name: str, data: bytes) -> None:
        """Pick file ``name`` holding ``data`` in the page's file picker (``.tc-load-file``),
        the way ipywidgets 8 delivers it."""
        self.one("tc-load-file").value = ({
            "name": name, "type": "application/json", "size": len(data),
            "content": memoryview(data),
            "last_modified": dt.datetime(2024, 5, 1, tzinfo=dt.UTC),
        },)

    def alerts(self) -> list[str]:
        """The error lines a player sees (not the ones only carrying a box's refusal)."""
        return [w.message for w in walk(self.root)
                if "tc-error" in getattr(w, "_dom_classes", ())
                and 'role="alert"' in getattr(w, "value", "")
                and "tc-refusal" not in w._dom_classes]


class AppPage(Scope):
    """The page the notebook ``widgets/<key>.ipynb`` builds, without a campaign (its demo)."""

    def __init__(self, key: str) -> None:
        super().__init__(campaign_page(key, PageContext()))
