"""Issue 28: a change of the seats (invite, renew, revoke) checks the GM's seat in the
change's own transaction, on SQLite and PostgreSQL (the ``db`` fixture) and in memory.

The session checks first (to say why at once), but that check is a read before the write:
these tests make it read a stale answer, so only the store's own check stands between a
GM revoked a moment ago and a seat they make or take away.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.store import create_campaign, open_store
from companion.store.memory import MemoryStore
from companion.store.permissions import SeatError, SeatKey
from companion.store.port import Store
from companion.store.seats import list_seats, make_seat, revoke_seat
from companion.table import Session
from companion.table import session as session_module


def _two_gms(store: Store) -> tuple[str, str]:
    create_campaign(store, "Tuesday", ["plot_points"])
    return make_seat(store, "Tuesday", "Mira", "gm"), make_seat(store, "Tuesday", "Zed", "gm")


def _stale_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's own look before the write sees every seat as it was (a read made
    just before another screen revoked it)."""
    monkeypatch.setattr(session_module, "seat_gone", lambda rows, key: None)


def _seats(store: Store) -> list[tuple[str, str]]:
    return [(s.who, s.role) for s in list_seats(store, "Tuesday")]


def test_a_gm_revoked_after_the_sessions_look_makes_and_revokes_nothing(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(db) as store:
        mira_secret, zed_secret = _two_gms(store)
        mira = Session.by_secret(store, "Tuesday", mira_secret)
        zed = Session.by_secret(store, "Tuesday", zed_secret)
        ash = mira.invite("Ash")  # while Mira holds her seat: made
        zed.revoke_seat("Mira")
        _stale_check(monkeypatch)
        with pytest.raises(SeatError, match="revoked or renewed"):
            mira.invite("Bryn")
        assert mira.gone is not None  # refused by the store: the page watches from now on
        with pytest.raises(SeatError, match="revoked or renewed"):
            mira.revoke_seat("Zed")
        with pytest.raises(SeatError, match="revoked or renewed"):
            mira.invite("Ash")  # a renewal (a new secret for Ash) is a change too
        assert _seats(store) == [("Ash", "player"), ("Zed", "gm")]
        assert Session.by_secret(store, "Tuesday", ash).role == "player"  # Ash's old link


def test_the_store_itself_refuses_a_seat_change_by_a_gone_or_player_seat(db: str) -> None:
    with open_store(db) as store:
        mira_secret, _zed = _two_gms(store)
        info = store.get_campaign("Tuesday")
        key = Session.by_secret(store, "Tuesday", mira_secret).seat_key
        assert key is not None
        store.put_seat(info.id, "Ash", "player", "h1", by=key)  # a GM who holds: done
        player = SeatKey("Ash", "player", "h1")
        with pytest.raises(SeatError, match="only the campaign's GM"):
            store.put_seat(info.id, "Bryn", "player", "h2", by=player)
        with pytest.raises(SeatError, match="only the campaign's GM"):
            store.revoke_seat_row(info.id, "Mira", by=player)
        revoke_seat(store, "Tuesday", "Mira")  # the holder, in code: no seat to check
        with pytest.raises(SeatError, match="revoked or renewed"):
            store.put_seat(info.id, "Bryn", "player", "h2", by=key)
        with pytest.raises(SeatError, match="revoked or renewed"):
            make_seat(store, "Tuesday", "Bryn", "player", by=key)
        assert not store.revoke_seat_row(info.id, "Nobody")  # unchanged: no seat check
        assert _seats(store) == [("Ash", "player"), ("Zed", "gm")]


def test_two_gms_revoking_each_other_at_once_leave_one_gm(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two screens (two stores, as two processes would have) revoke each other's GM seat
    at the same moment: the second write sees the first, so exactly one GM is left."""
    with open_store(db) as setup:
        mira_secret, zed_secret = _two_gms(setup)
    _stale_check(monkeypatch)
    stores = [open_store(db), open_store(db)]
    try:
        mira = Session.by_secret(stores[0], "Tuesday", mira_secret)
        zed = Session.by_secret(stores[1], "Tuesday", zed_secret)
        start = threading.Barrier(2)
        outcome: dict[str, str] = {}

        def revoke(session: Session, other: str) -> None:
            start.wait()
            try:
                session.revoke_seat(other)
                outcome[session.who] = "revoked"
            except SeatError as exc:
                outcome[session.who] = str(exc)

        threads = [threading.Thread(target=revoke, args=(mira, "Zed")),
                   threading.Thread(target=revoke, args=(zed, "Mira"))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(outcome) == ["Mira", "Zed"]
        assert sorted(outcome.values()).count("revoked") == 1, outcome
        assert len(_seats(stores[0])) == 1
    finally:
        for store in stores:
            store.close()


def test_in_memory_the_same_check_holds(tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore(tmp_path / "campaigns")
    mira_secret, zed_secret = _two_gms(store)
    mira = Session.by_secret(store, "Tuesday", mira_secret)
    Session.by_secret(store, "Tuesday", zed_secret).revoke_seat("Mira")
    _stale_check(monkeypatch)
    with pytest.raises(SeatError, match="revoked or renewed"):
        mira.invite("Bryn")
    assert _seats(store) == [("Zed", "gm")]
