"""Seats (issue 19): made, renewed, revoked; only a hash kept; the creator's GM seat; the
migration from schema version 2. Runs on SQLite and PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa

from companion.store import StoreError, create_campaign, open_store
from companion.store.db import database_url
from companion.store.seats import (
    Seat,
    creator_secret,
    list_seats,
    make_seat,
    revoke_seat,
    seat_for_secret,
    seat_named,
)


def _everything_stored(db: str) -> str:
    """Every row of every table, as text: what someone who copies the database holds."""
    engine = sa.create_engine(database_url(db))
    out = []
    with engine.connect() as conn:
        for name in sa.inspect(conn).get_table_names():
            out += [repr(tuple(row)) for row in conn.execute(sa.text(f"SELECT * FROM {name}"))]
    engine.dispose()
    return "\n".join(out)


def test_a_seat_opens_with_its_secret_only_and_the_database_keeps_a_hash(db: str) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
        ash = make_seat(store, "Tuesday", "Ash", "player")
        bryn = make_seat(store, "Tuesday", " Bryn ", "player")
        assert len(ash) >= 43 and ash != bryn  # 32 random bytes, URL-safe
        assert seat_for_secret(store, "Tuesday", ash) == Seat("Ash", "player")
        assert seat_for_secret(store, "Tuesday", bryn) == Seat("Bryn", "player")
        for forged in ("", "x", ash[:-1], ash + "x", ash.upper(), "a" * 10_000):
            assert seat_for_secret(store, "Tuesday", forged) is None
        assert seat_for_secret(store, "Nope", ash) is None
        assert [(s.who, s.role) for s in list_seats(store, "Tuesday")] == [
            ("Ash", "player"), ("Bryn", "player")]
        listed = json.dumps([s.to_dict() for s in list_seats(store, "Tuesday")])
        assert ash not in listed and "made" in listed
    stored = _everything_stored(db)
    assert ash not in stored and bryn not in stored
    import hashlib
    assert hashlib.sha256(ash.encode()).hexdigest() in stored


def test_renewing_a_seat_retires_its_old_secret_and_revoking_opens_nothing(db: str) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
        old = make_seat(store, "Tuesday", "Ash", "player")
        new = make_seat(store, "Tuesday", "ash", "player")  # the same seat, any case
        assert seat_for_secret(store, "Tuesday", old) is None
        # Renewed under its own spelling (issue 49: it used to be renamed "ash").
        assert seat_for_secret(store, "Tuesday", new) == Seat("Ash", "player")
        assert len(list_seats(store, "Tuesday")) == 1
        revoke_seat(store, "Tuesday", "ASH")
        assert seat_for_secret(store, "Tuesday", new) is None
        assert seat_named(store, "Tuesday", "Ash") is None
        assert list_seats(store, "Tuesday") == []
        assert list_seats(store, "Tuesday", revoked=True)[0].revoked is not None
        with pytest.raises(StoreError, match="no seat named 'Ash' at Tuesday") as caught:
            revoke_seat(store, "Tuesday", "Ash")
        assert "\n" not in str(caught.value)
        again = make_seat(store, "Tuesday", "Ash", "gm")  # a revoked seat seated again
        assert seat_for_secret(store, "Tuesday", again) == Seat("Ash", "gm")


def test_seats_refuse_a_bad_role_or_name_in_one_line(db: str) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
        for who, role, message in [("Ash", "admin", "a seat's role is gm or player"),
                                   ("Ash", "spectator", "a seat's role is gm or player"),
                                   ("   ", "player", "a seat needs a name"),
                                   ("A" * 41, "player", "at most 40 characters"),
                                   ("A\x00b", "player", "control characters")]:
            with pytest.raises(StoreError, match=message):
                make_seat(store, "Tuesday", who, role)
        with pytest.raises(StoreError, match="no campaign named 'Nope'"):
            make_seat(store, "Nope", "Ash", "player")


def test_creating_a_campaign_makes_the_creators_gm_seat(db: str) -> None:
    with open_store(db) as store:
        campaign = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        secret = creator_secret(campaign)
        assert secret is not None and creator_secret(campaign) is None  # handed over once
        assert seat_for_secret(store, "Tuesday", secret) == Seat("Mira", "gm")
        assert seat_named(store, "Tuesday", "mira") == Seat("Mira", "gm")
        plain = create_campaign(store, "Wednesday", ["plot_points"])  # the CLI's: no seat
        assert creator_secret(plain) is None and list_seats(store, "Wednesday") == []
        export = json.dumps(campaign.export())
        assert secret not in export
        store.delete_campaign("Tuesday")  # its seats go with it
        create_campaign(store, "Tuesday", ["plot_points"])
        assert seat_for_secret(store, "Tuesday", secret) is None
        assert list_seats(store, "Tuesday", revoked=True) == []


def test_a_version_2_database_gets_the_seats_table(db: str) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE companion_seats"))
        conn.execute(sa.text("UPDATE companion_meta SET value = '2' "
                             "WHERE key = 'schema_version'"))
    engine.dispose()
    with open_store(db) as store:
        assert store.schema_version() == 5
        assert list_seats(store, "Tuesday") == []  # made before seats: none yet
        secret = make_seat(store, "Tuesday", "Mira", "gm")
        assert seat_for_secret(store, "Tuesday", secret) == Seat("Mira", "gm")
