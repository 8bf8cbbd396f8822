"""What a face needs of the store to open a table, without holding the store (issue 43).

A face (the apps of ``companion/widgets``, a notebook, a serverless page) holds a
[Session][companion.table.session.Session] and imports nothing from ``companion.store``:
what it needs before it has a session (the process's store to list campaigns, the seat a
secret or a hub login opens, a new campaign and its creator's secret) and the errors it
shows in one line are here, each a thin call into the store. The store is imported late
(its seats module loads SQLAlchemy), so importing this module costs nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.store.campaign import Member
from companion.store.permissions import SeatError, SeatKey
from companion.store.port import Store
from companion.store.records import ConflictError, StoreError

if TYPE_CHECKING:
    from companion.state import Tracker
    from companion.store.seats import Seat, SeatInfo

__all__ = [
    "ConflictError",
    "Member",
    "SeatError",
    "SeatKey",
    "Store",
    "StoreError",
    "create_table",
    "export_text",
    "import_document",
    "list_seats",
    "max_import_bytes",
    "process_store",
    "seat_for_secret",
    "seat_key",
    "seat_named",
    "short_hash",
    "tracker_kinds",
]


def process_store() -> Store:
    """This process's store ([process_store][companion.store.opening.process_store])."""
    from companion.store.opening import process_store as found

    return found()


def seat_for_secret(store: Store, campaign: str, secret: str) -> Seat | None:
    """The seat ``secret`` opens at ``campaign`` (``None``: forged, revoked, another's)."""
    from companion.store.seats import seat_for_secret as found

    return found(store, campaign, secret)


def seat_named(store: Store, campaign: str, who: str) -> Seat | None:
    """The (not revoked) seat called ``who`` at ``campaign``, or ``None``."""
    from companion.store.seats import seat_named as found

    return found(store, campaign, who)


def list_seats(store: Store, campaign: str) -> list[SeatInfo]:
    """The campaign's seats by name (never a secret)."""
    from companion.store.seats import list_seats as found

    return found(store, campaign)


def seat_key(who: str, role: str, secret: str = "") -> SeatKey:
    """How the seat ``who`` (``role``) was proven: by ``secret``, else by a hub login."""
    from companion.store.seats import Seat
    from companion.store.seats import seat_key as key

    return key(Seat(who, role), secret)


def create_table(store: Store, name: str, rulesets: list[str], who: str) -> tuple[str, str]:
    """Create the campaign ``name`` playing ``rulesets`` with ``who`` as its GM; its name
    as stored and the secret of the creator's GM seat (shown this once)."""
    from companion.store import create_campaign
    from companion.store.seats import creator_secret

    made = create_campaign(store, name, rulesets, who=who, role="gm")
    return made.name, creator_secret(made) or ""


def tracker_kinds(ruleset: str) -> dict[str, type[Tracker]]:
    """Every tracker class of one ruleset, by kind key."""
    from companion.store.registry import tracker_kinds as kinds

    return kinds(ruleset)


def short_hash(digest: str) -> str:
    """A hash as people compare it (``"—"`` for an empty log)."""
    from companion.store.chain import short

    return short(digest)


def export_text(store: Store, name: str) -> str:
    """The campaign ``name`` as its exported document's text (what ``campaign export``
    writes)."""
    from companion.store.campaign import Campaign
    from companion.store.document import document_text

    return document_text(Campaign.open(store, name).export())


def import_document(store: Store, doc: Any, name: str | None = None) -> tuple[str, int]:
    """Import an exported campaign document (checked first: nothing kept if it is bad),
    under ``name`` if given; the name it is kept under and its number of events."""
    from companion.store.campaign import Campaign

    campaign = Campaign.import_document(store, doc, name)
    return campaign.name, campaign.head


def max_import_bytes() -> int:
    """The largest campaign file an import takes (the command line's own limit)."""
    from companion.store.document import MAX_IMPORT_BYTES

    return MAX_IMPORT_BYTES
