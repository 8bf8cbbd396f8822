"""The campaign store: campaigns, their party and encounters, kept on every move.

Not part of the Pyodide core: it needs SQLAlchemy (and psycopg 3 for PostgreSQL), the
``store`` extra (``pip install 'table-companion[store]'``). Importing this package is
cheap: SQLAlchemy is loaded on first use of a name below.

The database is named by ``COMPANION_DB``: a file path (SQLite, WAL journal) or a
``postgresql://`` URL; by default ``$XDG_DATA_HOME/table-companion/campaigns.db``
(``~/.local/share/...``). Everything goes through one small interface:

- [open_store][companion.store.db.open_store] opens (and creates or migrates) the database;
  a damaged or foreign file, or one written by a newer version, is one
  [StoreError][companion.store.db.StoreError] line and is left untouched.
- [Store][companion.store.port.Store], the port every backend implements (SQL:
  [SqlStore][companion.store.db.SqlStore]; [MemoryStore][companion.store.memory.MemoryStore];
  the static apps' [BrowserStore][companion.store.browser.BrowserStore]):
  ``create_campaign``, ``list_campaigns``, ``get_campaign``,
  ``append(campaign_id, events, expected_seq)`` (one transaction; a
  [ConflictError][companion.store.db.ConflictError] if someone appended first),
  ``events_since``, ``latest_snapshot``/``put_snapshot``, ``head`` (a cheap change token)
  and ``wait_for_change`` (PostgreSQL ``LISTEN``/``NOTIFY``; SQLite polls the head).
- [Campaign][companion.store.campaign.Campaign]: the live state rebuilt from the newest
  snapshot and the events after it; ``tracker(name)`` gives the ruleset's own tracker whose
  every move, undo and load is stored as one event; ``refresh()`` applies other screens'
  moves; ``roll(expr)`` writes the roll log (``roll_entry(expr, mode=...)``, ``reveal``
  and ``visible_to(who, role)``: hidden rolls, and for a player no game's hidden dice,
  table seed or unrevealed choice, see [companion.fairplay][]);
  ``export()``/``import_document()``.
- [shared_campaign][companion.store.opening.shared_campaign]: the one open campaign of a
  process by name, so every app in one kernel shares the same tracker objects.

For the apps: take the campaign with ``shared_campaign(name, who=..., role=...)`` (the name
from the page's URL), the party from ``campaign.party``, a member's live sheet with
``campaign.tracker("Ash", Character)``, and call its moves as before; poll
``campaign.changed()`` (one indexed read) or block in ``campaign.wait(timeout)`` on a
background thread, then re-render from the trackers' own ``on_change``. ``store.where``
names the database to show the player.

>>> import tempfile, pathlib
>>> from companion.store import create_campaign, open_campaign, open_store
>>> from companion.rulesets.plot_points.session import PlotPointSession
>>> folder = tempfile.mkdtemp()
>>> with open_store(pathlib.Path(folder) / "c.db") as store:
...     table = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
...     session = table.add("Table", PlotPointSession(), role="minigame")
...     session.add_player("Ash")
...     again = open_campaign(store, "Tuesday")
...     again.tracker("Table").players == session.players, again.head
(True, 2)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.store.campaign import (
        SNAPSHOT_EVERY,
        UNDO_LIMIT,
        Campaign,
        Member,
    )
    from companion.store.db import (
        CampaignInfo,
        ConflictError,
        NewEvent,
        SqlStore,
        StoredEvent,
        StoreError,
        database_url,
        default_path,
        open_store,
    )
    from companion.store.document import document_text
    from companion.store.memory import MemoryStore
    from companion.store.opening import shared_campaign
    from companion.store.port import Store

_WHERE = {
    "SNAPSHOT_EVERY": "campaign", "UNDO_LIMIT": "campaign", "Campaign": "campaign",
    "Member": "campaign", "document_text": "document", "shared_campaign": "opening",
    "CampaignInfo": "db", "ConflictError": "db", "NewEvent": "db", "Store": "port",
    "SqlStore": "db", "MemoryStore": "memory",
    "StoredEvent": "db", "StoreError": "db", "database_url": "db", "default_path": "db",
    "open_store": "db",
}

__all__ = [
    "SNAPSHOT_EVERY",
    "UNDO_LIMIT",
    "Campaign",
    "CampaignInfo",
    "ConflictError",
    "Member",
    "MemoryStore",
    "NewEvent",
    "SqlStore",
    "Store",
    "StoreError",
    "StoredEvent",
    "create_campaign",
    "database_url",
    "default_path",
    "document_text",
    "open_campaign",
    "open_store",
    "shared_campaign",
]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def create_campaign(store: Store, name: str, rulesets: list[str], *, who: str = "",
                    role: str = "") -> Campaign:
    """Create a campaign playing ``rulesets`` and return it open."""
    from companion.store.campaign import create

    return create(store, name, rulesets, who=who, role=role)


def open_campaign(store: Store, name: str, *, who: str = "", role: str = "") -> Campaign:
    """Open the campaign ``name`` as ``who`` (``role``: "gm" or "player")."""
    from companion.store.campaign import Campaign

    return Campaign.open(store, name, who=who, role=role)
