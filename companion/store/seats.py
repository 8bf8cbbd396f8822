"""Seats: who sits at a campaign's table, proven by a secret rather than claimed.

A campaign has seats: a name (``who``), a role (``gm`` or ``player``) and a secret. The
secret is 32 random bytes (``secrets.token_urlsafe``), handed over once, in a link
(``seat=SECRET``) or a QR code; the database keeps only its SHA-256, and a secret shown
to [seat_for_secret][companion.store.seats.seat_for_secret] is compared with
``hmac.compare_digest``. Nothing here ever logs, exports or echoes a secret.

- [make_seat][companion.store.seats.make_seat] makes a seat, or renews it (a new secret:
  the old link opens nothing; a revoked seat is seated again); it returns the secret, the
  only time anyone sees it.
- [list_seats][companion.store.seats.list_seats]: who, role, when made (never a secret).
- [revoke_seat][companion.store.seats.revoke_seat]: the seat's secret opens nothing.
- [seat_for_secret][companion.store.seats.seat_for_secret]: the
  [Seat][companion.store.seats.Seat] a secret opens, or ``None`` (forged, revoked, or
  another campaign's).
- [seat_named][companion.store.seats.seat_named]: a seat by its name, for a server that
  already knows who each person is (JupyterHub, see
  [companion.widgets.table.binding][]).

Creating a campaign with a name ([create][companion.store.campaign.create]) makes the
creator's GM seat; [creator_secret][companion.store.seats.creator_secret] hands its secret
to the code that created it, once.

Names are matched one way everywhere, seats and characters alike
([same_name][companion.store.permissions.same_name]: Unicode NFKC, case folded), so a hub
user name and the name the GM typed meet ("ash" plays Ash).

>>> import tempfile, pathlib
>>> from companion.store import create_campaign, open_store
>>> folder = tempfile.mkdtemp()
>>> with open_store(pathlib.Path(folder) / "c.db") as store:
...     _ = create_campaign(store, "Tuesday", ["plot_points"])
...     secret = make_seat(store, "Tuesday", "Ash", "player")
...     found = seat_for_secret(store, "Tuesday", secret)
...     revoke_seat(store, "Tuesday", "Ash")
...     found, seat_for_secret(store, "Tuesday", secret)
(Seat(who='Ash', role='player'), None)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.names import looks_alike
from companion.store.permissions import SeatKey, same_name
from companion.store.records import StoreError

if TYPE_CHECKING:
    from companion.store.campaign import Campaign
    from companion.store.port import Store

__all__ = [
    "MAX_WHO",
    "SEAT_ROLES",
    "SECRET_BYTES",
    "Seat",
    "SeatInfo",
    "check_who",
    "creator_secret",
    "list_seats",
    "make_seat",
    "new_secret",
    "revoke_seat",
    "seat_creator",
    "seat_for_secret",
    "seat_key",
    "seat_named",
]

#: The roles a seat can have.
SEAT_ROLES = ("gm", "player")

#: Random bytes in a seat's secret.
SECRET_BYTES = 32

#: Longest seat name (as the apps' name boxes).
MAX_WHO = 40

#: A longer "secret" is not one of ours: refused before hashing.
_MAX_SECRET = 200


@dataclass(frozen=True)
class Seat:
    """Who a secret (or a hub login) proves a page to be: a name and ``gm``/``player``."""

    who: str
    role: str


@dataclass(frozen=True)
class SeatInfo:
    """A seat as listed: who, role, when its secret was made, when revoked (never the
    secret or its hash)."""

    who: str
    role: str
    created: str
    revoked: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"who": self.who, "role": self.role, "made": self.created,
                "revoked": self.revoked}


def check_who(who: str) -> str:
    """A seat's name as stored (spaces trimmed); refuses an unusable one."""
    clean = " ".join(str(who).split())
    if not clean:
        raise StoreError("a seat needs a name")
    if len(clean) > MAX_WHO:
        raise StoreError(f"a seat's name has at most {MAX_WHO} characters")
    if any(not c.isprintable() for c in clean):
        raise StoreError("a seat's name cannot hold control characters")
    return clean


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def seat_key(seat: Seat, secret: str = "") -> SeatKey:
    """What a campaign keeps to check ``seat`` again in the store on every write: opened
    by ``secret`` (its hash is kept, never the secret), or by name (a hub login: ``""``)."""
    return SeatKey(seat.who, seat.role, _hash(secret) if secret else "")


def new_secret() -> str:
    """A fresh seat secret: ``SECRET_BYTES`` random bytes, URL-safe, never starting with
    ``-`` (typed after ``--seat`` on the command line, that would read as an option)."""
    while True:
        secret = secrets.token_urlsafe(SECRET_BYTES)
        if not secret.startswith("-"):
            return secret


def make_seat(store: Store, campaign: str, who: str, role: str, *,
              by: SeatKey | None = None) -> str:
    """Make ``who``'s seat at ``campaign`` as ``role`` (or renew it: a new secret, the
    role given, seated again if revoked) and return its secret, shown this once.
    ``by``: the GM's seat doing it, checked by the store in the write's own transaction
    (a GM revoked a moment ago makes no seat; ``None``: the holder, in code)."""
    if role not in SEAT_ROLES:
        raise StoreError(f"a seat's role is gm or player, not {role!r}")
    info = store.get_campaign(campaign)
    who = check_who(who)
    # The same person's seat is renewed (same_name); a different name that only looks
    # like a seat's (case aside: "Аsh" with a Cyrillic А next to "Ash") is refused.
    kept = who
    for name, _, _, _, _ in store.seat_rows(info.id):
        if same_name(name, who):
            # Renewed under its own spelling: "ASH" renews Ash's seat, it does not rename
            # it (the party, the log and the seat would disagree on the name).
            kept = name
        elif looks_alike(name, who):
            raise StoreError(f"a seat named {name!r} exists at {info.name}, and {who!r} looks "
                             "the same (look-alike letters): choose another name")
    who = kept
    secret = new_secret()
    store.put_seat(info.id, who, role, _hash(secret), by=by)
    return secret


def list_seats(store: Store, campaign: str, *, revoked: bool = False) -> list[SeatInfo]:
    """The campaign's seats by name (``revoked``: the revoked ones too)."""
    rows = store.seat_rows(store.get_campaign(campaign).id)
    return [SeatInfo(who, role, created, gone) for who, role, _, created, gone in rows
            if revoked or gone is None]


def revoke_seat(store: Store, campaign: str, who: str, *, by: SeatKey | None = None) -> None:
    """Revoke ``who``'s seat: its secret opens nothing from now on. ``by``: as for
    [make_seat][companion.store.seats.make_seat]."""
    info = store.get_campaign(campaign)
    if not store.revoke_seat_row(info.id, " ".join(str(who).split()), by=by):
        known = ", ".join(s.who for s in list_seats(store, campaign)) or "none"
        raise StoreError(f"no seat named {who!r} at {info.name} (seats: {known})")


def seat_for_secret(store: Store, campaign: str, secret: str) -> Seat | None:
    """The seat ``secret`` opens at ``campaign``; ``None`` for a forged, revoked or
    malformed one (or another campaign's)."""
    if not isinstance(secret, str) or not 0 < len(secret) <= _MAX_SECRET:
        return None
    info = store.find_campaign(campaign)
    if info is None:
        return None
    wanted = _hash(secret)
    found = None
    for who, role, hashed, _, gone in store.seat_rows(info.id):
        # Every row is compared (no early exit): the time taken says nothing.
        if hmac.compare_digest(hashed, wanted) and gone is None:
            found = Seat(who, role)
    return found


def seat_named(store: Store, campaign: str, who: str) -> Seat | None:
    """The (not revoked) seat called ``who`` (any case) at ``campaign``, or ``None``."""
    info = store.find_campaign(campaign)
    if info is None:
        return None
    for name, role, _, _, gone in store.seat_rows(info.id):
        if gone is None and same_name(name, who):  # the one name rule (issue 28)
            return Seat(name, role)
    return None


#: The secret of a campaign's creator seat, until the creating code takes it.
_CREATED: weakref.WeakKeyDictionary[Campaign, str] = weakref.WeakKeyDictionary()


def seat_creator(store: Store, campaign: Campaign, who: str) -> None:
    """Make the GM seat of ``who``, who has just created ``campaign`` (its secret waits
    for [creator_secret][companion.store.seats.creator_secret])."""
    _CREATED[campaign] = make_seat(store, campaign.name, who, "gm")


def creator_secret(campaign: Campaign) -> str | None:
    """The secret of the GM seat made when ``campaign`` was created, once (then ``None``)."""
    return _CREATED.pop(campaign, None)
