"""Values as HTML: a small element builder that escapes by default (issue 43), and the
shared pieces built with it: slugs, exact chances, roll text, local times.

A page is built from [el][companion.widgets.markup.el] calls, never from strings with tags
in them: text and attribute values are escaped by the builder, so what a player typed never
becomes markup and no widget calls ``escape`` by hand. What the builder made is a
[Markup][companion.widgets.markup.Markup] (a ``str``, so it goes into ``widgets.HTML`` as it
is) and is put into other elements unescaped.

>>> el("span", "Ann & <Bo>", class_="tc-who", title='say "hi"')
'<span class="tc-who" title="say &quot;hi&quot;">Ann &amp; &lt;Bo&gt;</span>'
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterable, Mapping
from typing import Any

from companion.dice.render import fraction_text, percent

__all__ = [
    "LOCAL_TIME_SCRIPT",
    "Markup",
    "chance_html",
    "details_html",
    "el",
    "escape",
    "frag",
    "into_view_html",
    "join",
    "local_time_html",
    "roll_text_html",
    "slug",
]


class Markup(str):
    """HTML already built (by the builder, or a constant of trusted markup such as a style
    sheet): put into an element as it is, where a plain ``str`` is escaped.

    Two fragments added stay a fragment; a fragment and a plain string give a plain
    string (the text is not escaped then, so build with [frag][companion.widgets.markup.frag]).
    """

    __slots__ = ()

    def __html__(self) -> str:
        # The protocol Jinja2/markupsafe use to take a value as markup.
        return str(self)

    def __add__(self, other: str) -> str:
        joined = str.__add__(self, other)
        return Markup(joined) if isinstance(other, Markup) else joined


#: Elements that have no content and no end tag.
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})

_TAG = re.compile(r"[a-z][a-z0-9-]*")
_ATTRIBUTE = re.compile(r"[a-zA-Z_:][-a-zA-Z0-9_:.]*")


def escape(text: object) -> str:
    """Any value as HTML text (what a player typed never becomes markup). The builder
    calls it; a widget builds with [el][companion.widgets.markup.el] instead.

    >>> escape("<b>Ann & Bo</b>")
    '&lt;b&gt;Ann &amp; Bo&lt;/b&gt;'
    """
    return html.escape(str(text))


def _children(parts: Iterable[object], into: list[str]) -> None:
    for part in parts:
        if isinstance(part, Markup):
            into.append(part)
        elif isinstance(part, str):
            into.append(html.escape(part))
        elif part is None or part is False:
            continue  # ``cond and el(...)`` leaves nothing when cond fails
        elif part is True:
            raise TypeError("el: True is not content (a condition without its element?)")
        elif isinstance(part, Iterable) and not isinstance(part, bytes | Mapping):
            _children(part, into)
        else:
            into.append(html.escape(str(part)))


def frag(*children: object) -> Markup:
    """Children side by side, as one fragment: text escaped, markup as it is, ``None`` and
    ``False`` left out, lists and generators flattened.

    >>> frag("a < b", el("br"), None, ["c", Markup("<i>d</i>")])
    'a &lt; b<br>c<i>d</i>'
    """
    out: list[str] = []
    _children(children, out)
    return Markup("".join(out))


def join(items: Iterable[object], sep: object = "") -> Markup:
    """``items`` with ``sep`` between each two, each escaped unless it is markup.

    >>> join(["x&y", el("b", "z")], ", ")
    'x&amp;y, <b>z</b>'
    """
    glue = frag(sep)
    out: list[str] = []
    for item in items:
        if out:
            out.append(glue)
        out.append(frag(item))
    return Markup("".join(out))


def _attribute_name(name: str) -> str:
    # ``class_``/``for_`` (Python keywords) lose the mark; ``data_n`` is ``data-n``.
    name = name[:-1] if name.endswith("_") else name
    return name.replace("_", "-")


def el(tag: str, *children: object, attrs: Mapping[str, object] | None = None,
       **attributes: object) -> Markup:
    """The element ``tag`` holding ``children`` (as [frag][companion.widgets.markup.frag]
    takes them), with its attributes in the order given: ``class_="x"`` is ``class="x"``,
    ``data_n=3`` is ``data-n="3"``, ``attrs`` names any others exactly. A value is escaped
    and quoted; ``True`` writes the bare name, ``None`` and ``False`` leave it out.

    >>> el("input", type="checkbox", checked=True, disabled=False)
    '<input type="checkbox" checked>'
    >>> el("ol", (el("li", n) for n in (1, 2)), reversed=True)
    '<ol reversed><li>1</li><li>2</li></ol>'
    """
    if not _TAG.fullmatch(tag):
        raise ValueError(f"el: {tag!r} is not a tag name")
    named = {_attribute_name(k): v for k, v in attributes.items()}
    named.update(attrs or {})
    out = ["<", tag]
    for name, value in named.items():
        if not _ATTRIBUTE.fullmatch(name):
            raise ValueError(f"el: {name!r} is not an attribute name")
        if value is None or value is False:
            continue
        out.append(f" {name}" if value is True else f' {name}="{html.escape(str(value))}"')
    out.append(">")
    if tag in VOID:
        if children:
            raise ValueError(f"el: <{tag}> holds nothing")
        return Markup("".join(out))
    _children(children, out)
    out.append(f"</{tag}>")
    return Markup("".join(out))


def details_html(text: object, name: str = "seed") -> Markup:
    """``text`` (HTML) folded under a *details* line a curious player may open: a roll's
    seed is for replaying it (``companion roll ... --seed N``), not for reading at the
    table, where a bare number is jargon (issue 31). The text stays in the page.

    >>> details_html("seed 7")
    '<details class="tc-details tc-details-seed"><summary>details</summary>seed 7</details>'
    """
    return el("details", el("summary", "details"), _trusted(text),
              class_=f"tc-details tc-details-{slug(name)}")


def _trusted(text: object) -> object:
    # details_html takes HTML (its callers passed escaped text long before the builder):
    # a plain str given to it is still taken as markup, as it always was.
    return Markup(text) if isinstance(text, str) else text


def slug(text: str) -> str:
    """``text`` as a CSS class or file name part: letters and digits kept, the rest ``-``.

    >>> slug("Ann the Bold")
    'ann-the-bold'
    """
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower())


def chance_html(p: Any) -> Markup:
    """An exact chance (a ``Fraction``) as a percentage with its exact fraction beside it.

    >>> from fractions import Fraction
    >>> chance_html(Fraction(1, 3))
    '<span class="tc-p">33.33%</span> <small>(1/3)</small>'
    """
    return frag(el("span", percent(p), class_="tc-p"), " ", el("small", f"({fraction_text(p)})"))


_STRUCK = re.compile(r"~~(.+?)~~")


def roll_text_html(text: str) -> Markup:
    """The engine's one-line roll text as HTML: ``~~1~~`` (a dropped die) becomes ``<del>``.

    >>> roll_text_html("3d6 (~~1~~ 4 <5>)")
    '3d6 (<del>1</del> 4 &lt;5&gt;)'
    """
    # The split keeps the struck faces at the odd places.
    parts = _STRUCK.split(text)
    return frag(el("del", part) if i % 2 else part for i, part in enumerate(parts))


# Browsers do not run <script> put in by innerHTML, but do run an image's onerror: this
# rewrites every <time class="tc-local"> near it in the viewer's own clock and zone.
_LOCAL_TIME_JS = (
    "var r=this.parentNode;r.querySelectorAll('time.tc-local').forEach(function(t){"
    "var d=new Date(t.getAttribute('datetime'));if(!isNaN(d)){"
    "t.textContent=d.toLocaleTimeString([],{hour:'2-digit',minute:'2-digit',"
    "second:'2-digit',timeZoneName:'short'});t.title=d.toLocaleString();}});"
    "this.remove();"
)


def local_time_html(iso: str, shown: str | None = None) -> Markup:
    """A ``<time>`` the browser rewrites into the viewer's clock and zone.

    ``shown`` is what appears before the rewrite (and in tests): by default the UTC clock
    time, marked "UTC". Put [LOCAL_TIME_SCRIPT][companion.widgets.markup.LOCAL_TIME_SCRIPT]
    once after the times in the same HTML value.
    """
    if shown is None:
        shown = (iso[11:19] + " UTC") if len(iso) >= 19 else iso
    return el("time", shown, class_="tc-local", datetime=iso)


LOCAL_TIME_SCRIPT = el("img", alt="", src="data:,", style="display:none", onerror=_LOCAL_TIME_JS)
"""Rewrites the ``local_time_html`` times of the HTML value it ends (runs on each render)."""


_into_view_n = itertools.count()


def into_view_html(block: str = "start", closest: str = "") -> Markup:
    """HTML that, once shown, scrolls what holds it into view (``block``: where it lands,
    ``"start"`` = the top of the screen, ``"nearest"`` = only as far as needed); with
    ``closest`` (a CSS selector such as ``".tc-open-app"``), the nearest enclosing element
    matching it instead.

    Browsers do not run ``<script>`` put in by innerHTML, but do run an image's onerror;
    each call gives a fresh value, so showing it again scrolls again.
    """
    if block not in ("start", "center", "end", "nearest"):
        raise ValueError(f"into_view_html: block {block!r}")
    if not re.fullmatch(r"[.#]?[A-Za-z][\w-]*", closest or "x"):
        raise ValueError(f"into_view_html: closest {closest!r} is not a simple selector")
    target = f"(this.closest('{closest}')||this.parentNode)" if closest else "this.parentNode"
    # Scrolled again as the page settles: views still being drawn can leave the page too
    # short to scroll as far at first. An image already replaced by newer content has no
    # parent left: nothing to scroll. Only the newest request does, and none after the
    # reader scrolls, types or presses (window.tcIntoView counts all three): a late scroll
    # between a press and its release moved the page under the finger, the release landed
    # on another element and the tap was lost (the "app opened in place never appears"
    # failure, 1 run in 8 under load: tapping an app right after "back to the table").
    script = ("var w=window;if(!w.tcIntoViewWatch){w.tcIntoViewWatch=1;"
              "['wheel','touchmove','keydown','pointerdown','touchstart'].forEach(function(e){"
              "w.addEventListener(e,"
              "function(){w.tcIntoView=(w.tcIntoView||0)+1},{passive:true,capture:true})})}"
              f"var n=w.tcIntoView=(w.tcIntoView||0)+1,t={target},s=function(){{"
              f"if(t&&w.tcIntoView===n)t.scrollIntoView({{block:'{block}'}})}};"
              "s();requestAnimationFrame(s);setTimeout(s,200);setTimeout(s,600);"
              "this.remove();")
    return el("img", alt="", src="data:,", style="display:none", data_n=next(_into_view_n),
              onerror=script)
