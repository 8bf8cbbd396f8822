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
    "check_campaign_text",
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


def check_campaign_text(text: str, name: str) -> None:
    """Refuse, *before* it is decoded, a campaign file's text the command line refuses by
    its shape (one [StoreError][companion.store.records.StoreError] line naming ``name``):
    over [MAX_IMPORT_BYTES][companion.store.document.MAX_IMPORT_BYTES], more objects and
    lists than [MAX_CONTAINERS][companion.store.records.MAX_CONTAINERS], or nested deeper
    than [MAX_DEPTH][companion.store.document.MAX_DEPTH]. The serverless page decodes with
    the browser's Python, whose stack is small: 10,000 nested ``[`` took the page's whole
    runtime down with no message (issue 45), so the depth is judged on the brackets."""
    from companion.store.document import MAX_DEPTH, MAX_IMPORT_BYTES
    from companion.store.records import MAX_CONTAINERS, json_containers, json_too_deep

    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_IMPORT_BYTES:
        raise StoreError(f"{name} is {size:,} bytes: a campaign file is at most "
                         f"{MAX_IMPORT_BYTES:,}")
    containers = json_containers(text)
    if containers > MAX_CONTAINERS:
        raise StoreError(f"{name} holds {containers:,} objects and lists, more than "
                         f"{MAX_CONTAINERS:,}: too large to be a campaign file")
    if json_too_deep(text, MAX_DEPTH):
        raise StoreError(f"{name} nests more than {MAX_DEPTH} levels deep: not a campaign "
                         "file")


def max_import_bytes() -> int:
    """The largest campaign file an import takes (the command line's own limit)."""
    from companion.store.document import MAX_IMPORT_BYTES

    return MAX_IMPORT_BYTES
