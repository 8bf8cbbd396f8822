"""Campaigns on every screen: the start app and the binding of every app to a campaign.

- [TableApp][companion.widgets.table.start.TableApp]: the start app (``widgets/table.ipynb``,
  *Table Companion*): who you are, which campaign, its party, its apps opened in place.
- [campaign_page][companion.widgets.table.pages.campaign_page]: what each app's own notebook
  shows: the app for the campaign its URL names (``?campaign=NAME&who=..&role=..``), or a
  labelled demo without one.
- [binding][companion.widgets.table.binding]: the URL, the store, the one live-update
  thread per kernel and the lost-connection banner.
"""

from __future__ import annotations

from companion.widgets.table.apps import APPS
from companion.widgets.table.binding import PageContext, page_session
from companion.widgets.table.pages import campaign_app, campaign_page
from companion.widgets.table.start import TableApp

__all__ = ["APPS", "PageContext", "TableApp", "campaign_app", "campaign_page", "page_session"]
