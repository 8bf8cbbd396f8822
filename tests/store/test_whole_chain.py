"""Every open walks the whole chain (issue 29): an event changed anywhere, before the
newest snapshot too, is named before anything is written; a row spelled otherwise (same
meaning) is not damage; the quick hash of a stored row is the exact one. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import Campaign, Store, open_campaign, open_store
from companion.store.chain import event_hash, row_hash
from companion.store.db import StoreError, _dumps, database_url
from companion.store.records import StoredEvent
from tests.store.test_chain import _sql, _table

pytestmark = pytest.mark.timeout(300)


def _long_table(store: Store) -> Campaign:
    """The ten events of ``_table`` and 110 more: past the snapshot, so an open reads
    only the tail of the log from the events."""
    campaign = _table(store)
    table = campaign.tracker("Table", PlotPointSession)
    for i in range(110):
        table.add_player(f"P{i}") if i % 2 == 0 else table.undo()
    assert store.latest_snapshot(campaign.info.id) is not None
    return campaign


def _rows(db: str) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(database_url(db))
    with engine.connect() as conn:
        rows = [tuple(r) for r in conn.execute(sa.text(
            "SELECT campaign_id, seq, who, data, prev FROM companion_events "
            "ORDER BY campaign_id, seq"))]
        rows += [tuple(r) for r in conn.execute(sa.text(
            "SELECT id, head, chain, 0, 0 FROM companion_campaigns"))]
    engine.dispose()
    return rows


@pytest.mark.parametrize("statement", [
    "UPDATE companion_events SET who = 'Ash' WHERE seq = 3",
    "UPDATE companion_events SET data = replace(data, 'Ash', 'Bob') WHERE seq = 2",
    "UPDATE companion_events SET at = '2020-01-01T00:00:00.000Z' WHERE seq = 3",
])
def test_an_event_changed_before_the_snapshot_is_named_on_open(
        db: str, statement: str) -> None:
    with open_store(db) as store:
        _long_table(store)
    _sql(db, statement)
    before = _rows(db)
    with open_store(db) as store:
        with pytest.raises(StoreError, match=r"campaign 'Tuesday': event [34] does not "
                                             r"follow .*event [23] was changed") as caught:
            open_campaign(store, "Tuesday")
        assert "\n" not in str(caught.value)
        assert str(caught.value).startswith(f"{store.where} is damaged: ")
    assert _rows(db) == before  # nothing written: no snapshot, no event


def test_a_row_spelled_otherwise_is_not_damage(db: str) -> None:
    """JSON written with spaces and keys in another order means the same event: the
    quick hash differs, the exact one holds, and the campaign opens."""
    with open_store(db) as store:
        campaign = _long_table(store)
        players = list(campaign.tracker("Table", PlotPointSession).players)
        data = campaign.log()[1].data
    spelled = json.dumps(dict(reversed(list(data.items()))), indent=1)
    engine = sa.create_engine(database_url(db))
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE companion_events SET data = :d WHERE seq = 2"),
                     {"d": spelled})
    engine.dispose()
    with open_store(db) as store:
        again = open_campaign(store, "Tuesday")
        assert again.tracker("Table", PlotPointSession).players == players
        again.roll("1d6", seed=3)  # and it is written to as a whole log
        assert open_campaign(store, "Tuesday").head == again.head


def test_a_damaged_row_before_the_snapshot_is_named_on_open(db: str) -> None:
    with open_store(db) as store:
        _long_table(store)
    _sql(db, "UPDATE companion_events SET data = 'not json' WHERE seq = 2")
    with open_store(db) as store, pytest.raises(
            StoreError, match=r"damaged: campaign 'Tuesday', event 2: its data is not a "
                              r"JSON object"):
        open_campaign(store, "Tuesday")


def test_an_event_changed_in_a_memory_store_file_is_named_on_open(tmp_path: Any) -> None:
    from companion.store.memory import MemoryStore

    with MemoryStore(tmp_path) as store:
        _long_table(store)  # type: ignore[arg-type]
    files = list(tmp_path.glob("*.events.jsonl"))
    assert len(files) == 1
    lines = files[0].read_text().splitlines()
    lines[2] = lines[2].replace('"Mira"', '"Ash"', 1)
    files[0].write_text("\n".join(lines) + "\n")
    with MemoryStore(tmp_path) as store, pytest.raises(StoreError, match="event 4 does not "
                                                                          "follow"):
        open_campaign(store, "Tuesday")  # type: ignore[arg-type]


_TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from("é≥😀\x00\x1f\x7f\"\\\n"))
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(data=st.dictionaries(_TEXT, _JSON, max_size=5), who=_TEXT, seq=st.integers(1, 10**9),
       seed=st.none() | st.integers(-2**63, 2**63 - 1), tracker=st.none() | _TEXT,
       move=st.none() | _TEXT)
def test_the_quick_hash_of_a_stored_row_is_the_exact_hash(
        data: dict[str, Any], who: str, seq: int, seed: int | None, tracker: str | None,
        move: str | None) -> None:
    event = StoredEvent(seq, "2026-01-01T00:00:00.000Z", who, "gm", "move", tracker, move,
                        seed, data, "ab" * 32)
    assert row_hash("c" * 32, seq, event.at, who, "gm", "move", tracker, move, seed,
                    _dumps(data), event.prev) == event_hash("c" * 32, event)


def test_the_quick_hash_refuses_what_is_not_a_row() -> None:
    args: list[Any] = ["c" * 32, 1, "t", "w", "gm", "roll", None, None, None, "{}", ""]
    for at, bad in ((1, True), (8, 1.5), (9, {}), (3, None)):
        wrong = list(args)
        wrong[at] = bad
        with pytest.raises(TypeError):
            row_hash(*wrong)


# -- damage under a campaign already open: named before the next write ----------------------


@pytest.mark.parametrize(("statement", "match"), [
    ("UPDATE companion_campaigns SET head = 12", r"events 11 to 12 are missing"),
    ("UPDATE companion_campaigns SET head = 8", r"counts 8 events but 10 are stored"),
    ("DELETE FROM companion_events WHERE seq = 10", r"events 10 to 10 are missing"),
    ("UPDATE companion_events SET who = 'Ash' WHERE seq = 10",
     r"event 10 is not the one the campaign recorded as its newest"),
])
def test_damage_under_an_open_campaign_is_named_not_a_conflict(
        db: str, statement: str, match: str) -> None:
    """A count that disagrees for good is damage: named at once, never "the campaign
    keeps changing; try again" after a round of retries; nothing is written."""
    with open_store(db) as store:
        campaign = _table(store)
        _sql(db, statement)
        before = _rows(db)
        with pytest.raises(StoreError, match=match) as caught:
            campaign.roll("1d6", seed=1)
        message = str(caught.value)
        assert "keeps changing" not in message and "\n" not in message
        assert message.startswith(f"{store.where} is damaged: campaign 'Tuesday': ")
        with pytest.raises(StoreError, match=match):
            campaign.tracker("Table", PlotPointSession).add_player("Cole")
    assert _rows(db) == before


def test_a_newest_event_spelled_otherwise_is_written_after(db: str) -> None:
    with open_store(db) as store:
        campaign = _table(store)
        data = campaign.log()[-1].data
        engine = sa.create_engine(database_url(db))
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE companion_events SET data = :d WHERE seq = 10"),
                         {"d": json.dumps(data, indent=2)})
        engine.dispose()
        campaign.roll("1d6", seed=1)
        assert open_campaign(store, "Tuesday").head == 11
