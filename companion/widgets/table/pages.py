"""An app's page: built once per kernel for its campaign, under a heading that says which
campaign and seat, or a labelled demo without a campaign.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.widgets.base import APP_MAX_WIDTH, ErrorLine, style_tag
from companion.widgets.markup import el, frag
from companion.widgets.table.binding import PageContext, notebook_link

if TYPE_CHECKING:
    from companion.table.session import Session

from companion.widgets.table.apps import spec

__all__ = ["app_heading", "campaign_app", "campaign_page", "is_built", "page"]


_CACHE: dict[tuple[int, str], widgets.Widget] = {}
_CACHE_LOCK = threading.Lock()
_BUILDING: dict[tuple[int, str], threading.Lock] = {}


def campaign_app(session: Session, key: str) -> widgets.Widget:
    """The app ``key`` for ``campaign``, built once per kernel (then the same widget)."""
    app = spec(key)
    if app.ruleset and app.ruleset not in session.rulesets:
        from companion.errors import UnknownNameError
        from companion.widgets.table.site import ruleset_title

        # The rulesets by their names (a player never reads "cairn_srd").
        plays = ", ".join(ruleset_title(r) for r in session.rulesets)
        raise UnknownNameError(f"{app.title} is an app of {ruleset_title(app.ruleset)}; "
                               f"campaign {session.name!r} plays {plays}")
    with _CACHE_LOCK:
        lock = _BUILDING.setdefault((id(session), key), threading.Lock())
    with lock:  # held while building: a prebuild and a tap never build the same app twice
        found = _CACHE.get((id(session), key))
        if found is None:
            found = _CACHE[(id(session), key)] = app.build(session)
        return found


def is_built(session: Session, key: str) -> bool:
    return (id(session), key) in _CACHE


def app_heading(title: str, context: PageContext, *, demo: bool,
                with_title: bool = True) -> widgets.HTML:
    """The line above an app: its title and the campaign and person, or *demo*."""
    heading = el("h3", title, class_="tc-title") if with_title else None
    if demo:
        text = frag(heading, el("div", "Demo: nothing here is kept. Open the ",
                                el("a", "Table Companion", href=notebook_link("table")),
                                " to play a campaign.", class_="tc-demo"))
    else:
        who = f" · {context.who}" if context.who else ""
        role = {"gm": " (GM)", "player": " (player)", "spectator": " (watching)"}.get(
            context.role, "")
        text = frag(heading, el("div", "Campaign ", el("b", context.campaign), who, role, " · ",
                                el("a", "Table Companion",
                                   href=notebook_link("table", context.query())),
                                class_="tc-where", data_campaign=context.campaign))
    return widgets.HTML(text)


def campaign_page(key: str, context: PageContext | None = None) -> widgets.Widget:
    """What an app's notebook shows: the app for the URL's campaign, or its demo."""
    from companion.widgets.table.binding import (
        connection_banner,
        join_line,
        page_session,
    )
    from companion.widgets.table.site import way_back

    app = spec(key)
    context = context or PageContext.from_query()
    error = ErrorLine()
    try:
        session = page_session(context)
    except Exception as exc:
        error.show(exc)
        return page(app_heading(app.title, context, demo=True, with_title=False),
                    way_back(app.ruleset), error)
    if session is None:
        return page(app_heading(app.title, context, demo=True, with_title=False),
                    way_back(app.ruleset), app.demo())
    body: widgets.Widget
    try:
        body = campaign_app(session, key)
    except Exception as exc:
        error.show(exc)
        body = widgets.HTML()
    context = context.with_(  # the seat's, issue 19; a dead secret is not linked on
        who=session.who, role=session.seat_role,
        seat=context.seat if not session.watching else "")
    heading = app_heading(app.title, context, demo=False, with_title=False)
    parts: list[widgets.Widget] = [connection_banner(), heading, way_back(app.ruleset)]
    if session.watching:
        parts.append(join_line())
    return page(*parts, error, body)


def page(*children: widgets.Widget) -> widgets.VBox:
    """The outer box of a page (``.tc-page``): its heading, error line and app."""
    box = widgets.VBox([style_tag(), *children],
                       layout=widgets.Layout(max_width=APP_MAX_WIDTH))
    box.add_class("tc-page")
    return box
