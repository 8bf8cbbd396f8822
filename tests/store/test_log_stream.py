"""``log NAME --json`` and ``luck NAME --json`` read the log a page at a time
(``companion.cli.log_stream``, issue 49): the same bytes as the whole log gave, for every
seat's view, in pages of one, a few or all; a broken log writes nothing; a log changed
between the two walks is said, never mixed. The memory they take at 50,000 events is
measured in tests/store/test_streamed_files.py."""

from __future__ import annotations

import argparse
import json

import pytest

from companion import fairplay
from companion.cli import log_stream
from companion.cli.campaigns import checked_log, log_rows
from companion.cli.fairplay import log_view
from companion.luck import luck_report
from companion.store import open_store
from companion.store.chain import ChainError
from companion.store.registry import tracker_class
from companion.store.view_chain import COPIED, view_links
from companion.table import Session
from tests.fairplay.cli import run
from tests.fairplay.test_fair_seeds import _evening

pytestmark = pytest.mark.timeout(300)

VIEWS = [(), ("--gm",), ("--player", "Ash"), ("--rolls",), ("--rolls", "--gm")]


def _whole_log_json(db: str, argv: tuple[str, ...]) -> str:
    """``log T --json ARGV`` as it was written before issue 49: the whole log read, made
    the seat's view, then dumped at once (the reference the stream must equal)."""
    args = argparse.Namespace(gm="--gm" in argv, rolls="--rolls" in argv,
                              player="Ash" if "--player" in argv else None)
    with open_store(db) as store:
        info, stored = checked_log(store, "T")
    events = log_view(stored, args)
    if args.rolls:
        wanted = {e.seq for e in events if e.seed is not None
                  or e.kind in ("roll", "reveal", "sitting")}
        events = [e if e.seq in wanted else log_stream.bare(e) for e in events]
    rows = log_rows(events)
    for row, links in zip(rows, view_links(stored, info.chain, events), strict=True):
        row.update(links)
    for row, event in zip(rows, events, strict=True):
        if event.kind in ("roll", "reveal"):
            row["roll"] = event.data
        else:
            row.update({k: event.data[k] for k in COPIED if k in event.data})
    return json.dumps({"campaign": info.name, "campaign_id": info.uid, "chain": info.chain,
                       "events": rows}, ensure_ascii=False) + "\n"


def _whole_luck_json(db: str) -> str:
    with open_store(db) as store:
        info, events = checked_log(store, "T")
    seen = fairplay.visible_to([e.to_dict() for e in events], "", "player", tracker_class)
    return json.dumps(luck_report(seen, info.name).to_dict(), ensure_ascii=False) + "\n"


def _played(db: str) -> None:
    """Campaign T: every kind of roll and a game with hidden information (its kind told by
    an ``add`` pages before its moves), a closed sitting, a second one open."""
    _evening(db)
    with open_store(db) as store:
        gm = Session.open(store, "T", who="Mira", role="gm")
        gm.close_sitting()
        ash = Session.open(store, "T", who="Ash", role="player")
        ash.roll("1d20")
        gm.roll("2d8", mode="gm")


@pytest.mark.parametrize("page", [1, 3, 2000])
def test_the_streamed_log_and_luck_are_the_whole_ones_byte_for_byte(
        env_db: str, page: int, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _played(env_db)
    monkeypatch.setattr(log_stream, "PAGE", page)
    for argv in VIEWS:
        status, out, err = run(capsys, "log", "T", "--json", *argv)
        assert (status, err) == (0, "")
        assert out == _whole_log_json(env_db, argv), argv
    doc = json.loads(run(capsys, "log", "T", "--json")[1])
    assert any(row.get("revealed") for row in (r.get("roll") or {} for r in doc["events"]))
    status, out, err = run(capsys, "luck", "T", "--json")
    assert (status, err) == (0, "")
    assert out == _whole_luck_json(env_db)
    assert json.loads(out)["seats"]  # a report with seats in it, not an empty one


def test_an_empty_campaign_and_unusual_names_come_out_the_same(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.store.campaign import create

    with open_store(env_db) as store:
        create(store, 'T', ["plot_points"], who='Mïra "events": []', role="gm")
    assert run(capsys, "log", "T", "--json")[1] == _whole_log_json(env_db, ())
    with open_store(env_db) as store:
        Session.open(store, "T", who='Mïra "events": []', role="gm").roll("1d6")
    assert run(capsys, "log", "T", "--json")[1] == _whole_log_json(env_db, ())


def test_a_broken_log_writes_nothing_and_a_changed_one_is_said(
        env_db: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    import sqlalchemy as sa

    from companion.store.db import SqlStore, database_url

    _played(env_db)
    monkeypatch.setattr(log_stream, "PAGE", 4)
    real = SqlStore.events_since
    calls: list[int] = []

    def changing(self: SqlStore, campaign_id: int, seq: int = 0, limit: int | None = None,
                 kinds: tuple[str, ...] = ()) -> list:
        calls.append(seq)
        events = real(self, campaign_id, seq, limit, kinds)
        if seq >= 8 and len(calls) > 6:  # the second walk: entry 9 is another now
            events = [e if e.seq != 9 else type(e)(**{**e.__dict__, "who": "Forged"})
                      for e in events]
        return events

    monkeypatch.setattr(SqlStore, "events_since", changing)
    status, out, err = run(capsys, "log", "T", "--json")
    # Entry 10 no longer follows the entry 9 read now (its page was not written).
    assert status != 0 and "changed while it was read (event 10)" in err, err
    assert "Forged" not in out
    monkeypatch.setattr(SqlStore, "events_since", real)
    # An event edited in the database: refused before a byte is written.
    engine = sa.create_engine(database_url(env_db))
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE companion_events SET who = 'Forged' WHERE seq = 9"))
    engine.dispose()
    for argv in (("log", "T", "--json"), ("luck", "T", "--json")):
        status, out, err = run(capsys, *argv)
        assert status != 0 and out == "" and err.count("\n") == 1, err
        assert "is damaged: campaign 'T'" in err, err
    with pytest.raises(ChainError), open_store(env_db) as store:
        log_stream.walk(store, store.get_campaign("T"))


@pytest.mark.parametrize("damage", ["deleted", "renumbered"])
def test_the_luck_report_refuses_a_log_with_an_entry_gone(
        env_db: str, damage: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The luck report reads the log as ``log`` does (issue 47): an event deleted from the
    database, or the next one renumbered into its place, is named in one line and no
    report is written."""
    import sqlalchemy as sa

    from companion.store.db import database_url

    _played(env_db)
    engine = sa.create_engine(database_url(env_db))
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM companion_events WHERE seq = 5"))
        if damage == "renumbered":
            conn.execute(sa.text("UPDATE companion_events SET seq = 5 WHERE seq = 6"))
    engine.dispose()
    said = {"deleted": "event 5 is missing", "renumbered": "event 6 is missing"}[damage]
    for argv in (("luck", "T"), ("luck", "T", "--json"), ("log", "T", "--json")):
        status, out, err = run(capsys, *argv)
        assert status != 0 and out == "" and err.count("\n") == 1, (argv, err)
        assert "is damaged: campaign 'T'" in err and said in err, (argv, err)
