"""Values as HTML text: escaped player input, slugs, exact chances, roll text, local times."""

from __future__ import annotations

import html
import itertools
import re
from typing import Any

from companion.dice.render import fraction_text, percent

__all__ = [
    "LOCAL_TIME_SCRIPT",
    "chance_html",
    "details_html",
    "escape",
    "into_view_html",
    "local_time_html",
    "roll_text_html",
    "slug",
]

def escape(text: object) -> str:
    """Any value as HTML text (what a player typed never becomes markup).

    >>> escape("<b>Ann & Bo</b>")
    '&lt;b&gt;Ann &amp; Bo&lt;/b&gt;'
    """
    return html.escape(str(text))


def details_html(text: str, name: str = "seed") -> str:
    """``text`` (HTML) folded under a *details* line a curious player may open: a roll's
    seed is for replaying it (``companion roll ... --seed N``), not for reading at the
    table, where a bare number is jargon (issue 31). The text stays in the page.

    >>> details_html("seed 7")
    '<details class="tc-details tc-details-seed"><summary>details</summary>seed 7</details>'
    """
    return (f'<details class="tc-details tc-details-{slug(name)}"><summary>details</summary>'
            f"{text}</details>")


def slug(text: str) -> str:
    """``text`` as a CSS class or file name part: letters and digits kept, the rest ``-``.

    >>> slug("Ann the Bold")
    'ann-the-bold'
    """
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower())


def chance_html(p: Any) -> str:
    """An exact chance (a ``Fraction``) as a percentage with its exact fraction beside it.

    >>> from fractions import Fraction
    >>> chance_html(Fraction(1, 3))
    '<span class="tc-p">33.33%</span> <small>(1/3)</small>'
    """
    return f'<span class="tc-p">{percent(p)}</span> <small>({fraction_text(p)})</small>'


_STRUCK = re.compile(r"~~(.+?)~~")


def roll_text_html(text: str) -> str:
    """The engine's one-line roll text as HTML: ``~~1~~`` (a dropped die) becomes ``<del>``."""
    return _STRUCK.sub(r"<del>\1</del>", html.escape(text))


# Browsers do not run <script> put in by innerHTML, but do run an image's onerror: this
# rewrites every <time class="tc-local"> near it in the viewer's own clock and zone.
_LOCAL_TIME_JS = (
    "var r=this.parentNode;r.querySelectorAll('time.tc-local').forEach(function(t){"
    "var d=new Date(t.getAttribute('datetime'));if(!isNaN(d)){"
    "t.textContent=d.toLocaleTimeString([],{hour:'2-digit',minute:'2-digit',"
    "second:'2-digit',timeZoneName:'short'});t.title=d.toLocaleString();}});"
    "this.remove();"
)


def local_time_html(iso: str, shown: str | None = None) -> str:
    """A ``<time>`` the browser rewrites into the viewer's clock and zone.

    ``shown`` is what appears before the rewrite (and in tests): by default the UTC clock
    time, marked "UTC". Put [LOCAL_TIME_SCRIPT][companion.widgets.markup.LOCAL_TIME_SCRIPT]
    once after the times in the same HTML value.
    """
    if shown is None:
        shown = (iso[11:19] + " UTC") if len(iso) >= 19 else iso
    return (f'<time class="tc-local" datetime="{html.escape(iso)}">'
            f"{html.escape(shown)}</time>")


LOCAL_TIME_SCRIPT = (
    '<img alt="" src="data:," style="display:none" '
    f'onerror="{html.escape(_LOCAL_TIME_JS)}">'
)
"""Rewrites the ``local_time_html`` times of the HTML value it ends (runs on each render)."""


_into_view_n = itertools.count()


def into_view_html(block: str = "start", closest: str = "") -> str:
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
    return (f'<img alt="" src="data:," style="display:none" data-n="{next(_into_view_n)}" '
            "onerror=\"var w=window;if(!w.tcIntoViewWatch){w.tcIntoViewWatch=1;"
            "['wheel','touchmove','keydown','pointerdown','touchstart'].forEach(function(e){w.addEventListener(e,"
            "function(){w.tcIntoView=(w.tcIntoView||0)+1},{passive:true,capture:true})})}"
            f"var n=w.tcIntoView=(w.tcIntoView||0)+1,t={target},s=function(){{"
            f"if(t&&w.tcIntoView===n)t.scrollIntoView({{block:'{block}'}})}};"
            "s();requestAnimationFrame(s);setTimeout(s,200);setTimeout(s,600);"
            'this.remove();">')
