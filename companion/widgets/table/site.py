"""A way back from every app: to the list of apps and to the rules of the app's ruleset.

The serverless apps live inside the site (``site/apps/<app>.html``): their page carries
the links itself (``tools/build_static_apps.py``: ``../play/`` and ``../rules/<ruleset>/``,
kept offline by the site's service worker), so
[way_back][companion.widgets.table.site.way_back] draws nothing there.

A Voila server has no site beside it (``companion app`` serves the notebooks only), so its
apps link to ``rules.ipynb``: the same rules text the site shows (each ruleset module's
docstring, the site's source), drawn by the server itself and so at hand with no internet,
and under it the ruleset's apps. Without a ruleset it lists every ruleset and its apps:
the server's apps list.
"""

from __future__ import annotations

import importlib
import re
from urllib.parse import parse_qs, quote

import ipywidgets as widgets

from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.table.apps import APPS
from companion.widgets.table.binding import serverless

__all__ = ["RULES_NOTEBOOK", "rules_html", "rules_page", "ruleset_title", "way_back"]

#: The Voila apps' rules and apps page (``widgets/rules.ipynb``).
RULES_NOTEBOOK = "rules.ipynb"

#: A reference the site resolves ([text][companion.x.y]): the text, and the dotted name.
_AUTOREF = re.compile(r"\[([^\]\n]+)\]\[([A-Za-z0-9_.]*)\]")


def ruleset_title(name: str) -> str:
    """A ruleset by its name for people ("Cairn-derived SRD"), never its id; the id itself
    for one this install does not know."""
    from companion import rulesets

    try:
        return str(rulesets.get(name).title)
    except Exception:  # an unknown id (an old campaign's): said as it is, never a traceback
        return name


def _link(href: str, text: str, name: str) -> Markup:
    return el("a", text, class_=f"tc-link tc-way-{name}", href=href)


def way_back(ruleset: str = "", query: str = "") -> widgets.HTML:
    """The links back from an app: every app (the server's list, or the start app for a
    campaign: ``query`` is its ``campaign=..&seat=..``), and the rules of ``ruleset``. In
    the serverless apps an empty place (their page carries the links)."""
    box = widgets.HTML()
    box.add_class("tc-way-back")  # outside the app's .tc-app box: tests find the app first
    if serverless():
        box.layout.display = "none"
        return box
    links = []
    if query:
        links.append(_link(f"table.ipynb?{query}", "Table Companion", "table"))
    links.append(_link(RULES_NOTEBOOK, "All apps", "apps"))
    if ruleset:
        links.append(_link(f"{RULES_NOTEBOOK}?ruleset={quote(ruleset)}",
                           f"Rules: {ruleset_title(ruleset)}", "rules"))
    else:
        links.append(_link(RULES_NOTEBOOK + "#rules", "Rules", "rules"))
    box.value = el("nav", join(links, " "), class_="tc-nav",
                   aria_label="Back to the rules and apps")
    return box


def _app_links(ruleset: str) -> Markup:
    return join((_link(f"{a.key}.ipynb", a.title, "app") for a in APPS
                 if a.ruleset == ruleset), " · ")


def _module_doc(dotted: str) -> str:
    try:
        module = importlib.import_module(dotted)
    except ImportError:
        return ""
    return module.__doc__ or ""


def _markdown(text: str, ruleset: str) -> Markup:
    """A docstring as HTML: references to the ruleset's own modules become links to their
    rules here, other references plain text (their pages are the site's API reference)."""
    import mistune  # Voila's own (nbconvert renders markdown cells with it)

    prefix = f"companion.rulesets.{ruleset}."

    def ref(match: re.Match[str]) -> str:
        label, dotted = match.group(1), match.group(2) or match.group(1)
        topic = dotted.removeprefix(prefix)
        if dotted.startswith(prefix) and "." not in topic and _module_doc(dotted):
            return f"[{label}]({RULES_NOTEBOOK}?ruleset={quote(ruleset)}&topic={quote(topic)})"
        return label
    # The rules text is the package's own docstrings: mistune's HTML is trusted markup.
    return Markup(mistune.html(_AUTOREF.sub(ref, text)))


def rules_html(ruleset: str = "", topic: str = "") -> Markup:
    """The page ``rules.ipynb?ruleset=..&topic=..`` shows: a ruleset's rules (its module's
    docstring, or one topic module's) and its apps; with no ruleset, every ruleset and its
    apps. Unknown names are said in one line (the list of rulesets follows)."""
    from companion import rulesets

    known = {r.name: r for r in rulesets.all_rulesets()}
    parts: list[Markup] = []
    if ruleset in known:
        r = known[ruleset]
        dotted = r.module_name + (f".{topic}" if topic else "")
        doc = _module_doc(dotted) if re.fullmatch(r"[a-z0-9_]*", topic) else ""
        if doc:
            back = (_link(f"{RULES_NOTEBOOK}?ruleset={quote(ruleset)}", f"Rules: {r.title}",
                          "rules") if topic else None)
            apps = _app_links(ruleset)
            parts.append(el("div", el("h2", r.title), back,
                            apps and el("p", el("b", "Apps"), ": ", apps),
                            _markdown(doc, ruleset),
                            class_="tc-rules", data_ruleset=ruleset))
        else:
            parts.append(el("p", f"{r.title} has no rules page called {topic[:40]!r}.",
                            class_="tc-error"))
    elif ruleset:
        parts.append(el("p", f"No ruleset called {ruleset[:40]!r} here: the rulesets are "
                        "listed below.", class_="tc-error"))
    items = [el("li", _link("table.ipynb", "Table Companion", "table"), ": who you are, "
                "which campaign, its party, and every app of its ruleset"),
             el("li", _link("dice_tray.ipynb", "Dice tray", "app"), ": any dice")]
    for name, r in known.items():
        rules = _link(f"{RULES_NOTEBOOK}?ruleset={quote(name)}", f"Rules: {r.title}", "rules")
        apps = _app_links(name)
        items.append(el("li", rules, apps and frag(el("br"), "Apps: ", apps)))
    parts.append(frag(el("h2", "Rulesets and their apps", id="rules"),
                      el("ul", items, class_="tc-apps-list")))
    return frag(parts)


def rules_page(query: str | None = None) -> widgets.Widget:
    """What ``widgets/rules.ipynb`` shows, for its URL's ``ruleset`` and ``topic``."""
    import os

    from companion.widgets.table.pages import page

    text = os.environ.get("QUERY_STRING", "") if query is None else query
    values = parse_qs(text[:400])
    ruleset = values.get("ruleset", [""])[0][:40]
    topic = values.get("topic", [""])[0][:40]
    body = widgets.HTML(rules_html(ruleset, topic))
    body.add_class("tc-rules-page")
    body.add_class("tc-app")  # the page's app: its look, and where tests find it
    return page(way_back(ruleset), body)
