"""Issue 49: an open sitting's server seed is kept by the store apart from the log, so no
export, log or seat's view holds it before the close, and a GM who reads them all cannot
aim a roll. On SQLite and a real PostgreSQL (``db``, tests/store/conftest.py); the memory
and browser stores in tests/store/test_port.py.

The host that holds the database can still read the sitting's record: what the store
promises is that nothing it hands out (an export, a log, a view) carries it."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from companion.sittings import roll_seed, server_hash
from companion.store import open_store
from companion.store.campaign import create
from companion.store.db import database_url
from companion.table import Session
from tests.conftest import campaign_of, session_of
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(180)

HEX64 = re.compile(r"[0-9a-f]{64}")


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    return out


def _everything_handed_out(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    """Every text the command line hands out about campaign T, as the GM and a player."""
    return {"export": _out(capsys, "campaign", "export", "T"),
            "log --json": _out(capsys, "log", "T", "--json"),
            "log --json --gm": _out(capsys, "log", "T", "--json", "--gm"),
            "log --json --player Ash": _out(capsys, "log", "T", "--json", "--player", "Ash"),
            "log": _out(capsys, "log", "T"),
            "log --csv --gm": _out(capsys, "log", "T", "--csv", "--gm"),
            "session show": _out(capsys, "session", "show", "T")}


def _opening(doc: dict[str, Any]) -> dict[str, Any]:
    for event in doc["events"]:
        news = event["data"].get("sitting") or {}
        if "open" in news:
            found: dict[str, Any] = news
            return found
    raise AssertionError("no sitting opened")


def test_no_export_log_or_view_holds_the_open_sittings_server_seed(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20")
        ash.roll("1d20")
        gm.roll("1d20", mode="gm")
        cid = campaign_of(gm).info.id
        committed = campaign_of(gm).sitting.hash
    texts = _everything_handed_out(capsys)  # what a GM (or anyone) can read, still open
    doc = json.loads(texts["export"])
    # The GM's grind starts from a server seed: any 64-hex text handed out that hashes to
    # the commitment. Before issue 49 the export's opening held it (secret.server_seed).
    found = [h for text in texts.values() for h in HEX64.findall(text)
             if hashlib.sha256(h.encode()).hexdigest() == committed]
    assert found == []
    assert set(_opening(doc)) == {"open", "clients"}  # the commitment, not the seed
    status, out, _ = verify_doc(capsys, tmp_path, doc)  # as far as it can, still open
    assert status == 0 and "is not closed" in out, out

    # The close publishes the seed, every roll then checks; it was in none of the texts.
    status, out, _ = run(capsys, "session", "close", "T")
    assert status == 0, out
    closed = json.loads(_out(capsys, "campaign", "export", "T"))
    close = next(e["data"]["sitting"]["close"] for e in closed["events"]
                 if "close" in (e["data"].get("sitting") or {}))
    seed = close["server_seed"]
    assert server_hash(seed) == committed and close["rolls"] == 3 and seed in out
    for what, text in texts.items():
        assert seed not in text, f"{what} held the open sitting's server seed"
        assert "server_seed" not in text, what
    status, out, _ = verify_doc(capsys, tmp_path, closed)  # the GM's hidden roll too
    assert status == 0 and "3 seeds recomputed" in out, out
    with open_store(env_db) as store:
        assert store.sitting_secret(cid, committed) is None  # gone with the close
        # The next sitting's seed is kept apart again, under its own hash.
        gm = Session.open(store, "T", who="Mira", role="gm")
        gm.roll("1d20")
        second = campaign_of(gm).sitting
        assert second.number == 2 and second.server_seed is None  # not in the state
        kept = store.sitting_secret(cid, second.hash)
        assert kept is not None and server_hash(kept) == second.hash
    assert kept not in _out(capsys, "campaign", "export", "T")


def test_the_seed_is_in_no_event_row_or_snapshot_only_in_its_record(db: str) -> None:
    with open_store(db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(5):
            gm.roll("1d20")
        campaign = campaign_of(gm)
        cid, committed = campaign.info.id, campaign.sitting.hash
        seed = store.sitting_secret(cid, committed)
        assert seed is not None
        # The snapshot the campaign takes (every SNAPSHOT_EVERY events), taken now.
        store.put_snapshot(cid, campaign.head, campaign.snapshot())
        assert store.latest_snapshot(cid) is not None
    # The database as a whole: the seed only in the sitting record (the snapshots are
    # zlib-compressed JSON: read them uncompressed).
    import zlib

    engine = sa.create_engine(database_url(db))
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text("SELECT data FROM companion_events")).scalars()
            assert not any(seed in text for text in rows)
            snaps = conn.execute(sa.text("SELECT data FROM companion_snapshots")).scalars()
            assert not any(seed in zlib.decompress(blob).decode() for blob in snaps)
            kept = conn.execute(sa.text("SELECT campaign_id, server_hash, server_seed "
                                        "FROM companion_sitting_secrets")).all()
            assert [tuple(r) for r in kept] == [(cid, committed, seed)]
    finally:
        engine.dispose()
    with open_store(db) as store:  # opened from its snapshot, it rolls and closes on
        again = Session.open(store, "T", who="Mira", role="gm")
        again.roll("1d20")
        closing = again.close_sitting()
        assert closing.data["sitting"]["close"]["server_seed"] == seed
        assert store.sitting_secret(cid, committed) is None


def test_a_campaign_imported_with_its_sitting_open_neither_rolls_nor_closes_there(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")
    path = tmp_path / "t.json"
    path.write_text(_out(capsys, "campaign", "export", "T"))
    assert _out(capsys, "campaign", "import", str(path), "--name", "Copy")
    status, out, err = run(capsys, "session", "close", "Copy")
    assert status != 0 and out == "" and err.count("\n") == 1, err
    assert "sitting 1's server seed is not in this database (it stays in the one where " \
        "the sitting opened): it cannot be closed here; close it there" in err, err
    status, out, err = run(capsys, "roll", "1d20", "--campaign", "Copy")
    assert status != 0 and err.count("\n") == 1, err
    assert "sitting 1 is open but its server seed is not in this database" in err, err
    # Where it opened, it closes; the copy's log then checks up to its own head.
    assert run(capsys, "session", "close", "T")[0] == 0


def test_a_sitting_opened_by_an_earlier_version_keeps_its_seed_in_its_log(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The legacy path: an opening whose data holds ``secret.server_seed`` (every sitting
    opened before issue 49's store record) rolls and closes with that seed."""
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")
        seed = store.sitting_secret(campaign_of(gm).info.id, campaign_of(gm).sitting.hash)
    assert seed is not None
    doc = json.loads(_out(capsys, "campaign", "export", "T"))
    older = copy.deepcopy(doc)
    opening = next(e for e in older["events"] if "open" in (e["data"].get("sitting") or {}))
    opening["data"]["sitting"]["secret"] = {"server_seed": seed}  # as earlier versions did
    path = tmp_path / "older.json"
    path.write_text(json.dumps(rechain(older)))
    assert run(capsys, "campaign", "import", str(path), "--name", "Old")[0] == 0
    with open_store(env_db) as store:
        old = Session.open(store, "Old", who="Mira", role="gm")
        state = campaign_of(old).sitting
        assert state.open and state.server_seed == seed  # read from its log
        assert store.sitting_secret(campaign_of(old).info.id, state.hash) is None
        old.roll("1d20")
        second = campaign_of(old).log(["roll"])[-1]
        assert second.data["fair"]["n"] == 2
        assert second.seed == roll_seed(seed, campaign_of(old).sitting.clients, 2)
        assert old.close_sitting().data["sitting"]["close"]["server_seed"] == seed
    status, out, _ = verify_doc(capsys, tmp_path,
                                json.loads(_out(capsys, "campaign", "export", "Old")))
    assert status == 0 and "2 seeds recomputed" in out, out


def test_a_kept_seed_that_is_not_the_committed_one_is_refused(db: str) -> None:
    """The store keeps only a seed that hashes to the hash its opening publishes, and
    writes nothing else then (a defect's guard: no sitting could close with it)."""
    from companion.store.records import NewEvent, StoreError

    with open_store(db) as store:
        info = store.create_campaign("T", ["cairn_srd"])
        news = {"open": {"number": 1, "server_hash": "0" * 64, "v": 2},
                "secret": {"server_seed": "1" * 64}, "clients": {"Mira": "a"}}
        with pytest.raises(StoreError, match="not the one its opening publishes"):
            store.append(info.id, [NewEvent("sitting", data={"sitting": news})], 0)
        assert store.head(info.id) == 0


def test_a_version_4_database_gets_the_sitting_record_and_its_open_sitting_goes_on(
        db: str) -> None:
    """The upgrade to schema 5 adds the sitting records; a sitting a version-4 program
    opened (its seed in its opening's data) rolls and closes as before, and the next
    sitting keeps its seed apart."""
    from companion.store.campaign import Campaign
    from companion.store.records import NewEvent

    seed = "3c" * 32
    with open_store(db) as store:
        info = store.create_campaign("T", ["cairn_srd"])
        opening = {"open": {"number": 1, "server_hash": server_hash(seed), "v": 2},
                   "secret": {"server_seed": seed}, "clients": {"Mira": "m1"}}
        # As a version-4 program stored it: the seed in the chained event (an import
        # stores its events as they are).
        store.import_campaign("Old", ["cairn_srd"], info.created,
                              [NewEvent("sitting", "Mira", "gm", data={"sitting": opening})],
                              None)
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("DROP TABLE companion_sitting_secrets"))
        conn.execute(sa.text("UPDATE companion_meta SET value = '4' "
                             "WHERE key = 'schema_version'"))
    engine.dispose()
    with open_store(db) as store:
        assert store.schema_version() == 5
        old = Campaign.open(store, "Old", who="Mira", role="gm")
        assert old.sitting.open and old.sitting.server_seed == seed  # from its log
        old.roll("1d20")
        assert old.log(["roll"])[-1].seed == roll_seed(seed, {"Mira": "m1"}, 1)
        assert old.close_sitting().data["sitting"]["close"]["server_seed"] == seed
        old.roll("1d20")  # sitting 2: its seed in the new record, not in the log
        assert old.sitting.number == 2 and old.sitting.server_seed is None
        assert store.sitting_secret(old.info.id, old.sitting.hash) is not None
        assert "secret" not in old.log()[-1].data["sitting"]
