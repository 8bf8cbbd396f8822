"""Issue 49: fair dice for real. The close commits how many rolls its sitting numbered, so
a roll deleted from the end of a sitting (and the log rechained) is refused by ``verify``
and by ``campaign import``; client seeds are fixed when a sitting opens, fresh for each
sitting, so a GM who reads the server seed finds no client seed that changes a roll."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.store import open_store
from companion.store.campaign import create
from companion.table import Session
from tests.conftest import campaign_of, session_of
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain, rechain_view

pytestmark = pytest.mark.timeout(180)


def _export(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, _ = run(capsys, "campaign", "export", "T")
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_a_roll_dropped_from_the_end_of_a_sitting_is_refused(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(3):
            gm.roll("1d20")
        gm.close_sitting()
    doc = _export(capsys)
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    # The sitting's last roll deleted, the log renumbered and rechained.
    dropped = copy.deepcopy(doc)
    rolls = [e for e in dropped["events"] if e["kind"] == "roll"]
    assert [r["data"]["fair"]["n"] for r in rolls] == [1, 2, 3]
    dropped["events"].remove(rolls[-1])
    for seq, event in enumerate(dropped["events"], start=1):
        event["seq"] = seq
    rechain(dropped)
    status, out, err = verify_doc(capsys, tmp_path, dropped)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert "sitting 1 closes after 3 rolls, but the log holds its rolls up to number 2: " \
        "a roll was dropped" in err, err
    path = tmp_path / "dropped.json"
    path.write_text(json.dumps(dropped))
    status, out, err = run(capsys, "campaign", "import", str(path), "--name", "D")
    assert status == 2 and "a roll was dropped" in err, err
    # A log view: its chain names the missing entry (issue 47); renumbered and
    # rechained as a forger would, the sitting's numbers still refuse it.
    status, out, _ = run(capsys, "log", "T", "--json")
    view = json.loads(out)
    gone = rolls[-1]["seq"]
    view["events"] = [e for e in view["events"] if e.get("seq") != gone]
    status, _, err = verify_doc(capsys, tmp_path, view)
    assert status == 2 and f"entry {gone} is missing" in err, err
    for seq, row in enumerate(view["events"], start=1):
        row["seq"] = seq
    status, _, err = verify_doc(capsys, tmp_path, rechain_view(view))
    assert status == 2 and "a roll was dropped" in err, err


def _rows(doc: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in doc["events"] if e["kind"] == kind]


def _news(row: dict[str, Any]) -> dict[str, Any]:
    news: dict[str, Any] = row["data"].get("sitting") or {}
    return news


def test_a_gm_who_reads_the_server_seed_finds_no_client_seed_that_aims_a_roll(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.sittings import roll_seed

    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20")  # opens sitting 1: the server's hash and the client seeds, fixed
        # The GM holds the database and reads the open sitting's server seed from the
        # store's sitting record (no export holds it: tests/store/test_sealed_server_seed.py).
        opening = next(_news(e) for e in _export(capsys)["events"] if "open" in _news(e))
        server = store.sitting_secret(campaign_of(gm).info.id,
                                      opening["open"]["server_hash"])
        assert server is not None
        clients = opening["clients"]
        seen = roll_seed(server, clients, 2)  # the next roll, as the GM already sees it
        # The grind: 200 client seeds, set by the GM and by a player in league with it,
        # each judged as the next roll's news would take it.
        changed = []
        for i in range(100):
            for seat in (gm, ash):
                seat.set_client_seed(f"aim-{campaign_of(seat).who}-{i}")
                state, _ = campaign_of(seat).sitting.news(campaign_of(seat).who, f"aim-{i}",
                                                          server)
                if state.clients != clients or state.seed(2) != seen:
                    changed.append((campaign_of(seat).who, i))
        assert changed == []
        ash.roll("1d20")
    doc = _export(capsys)
    second = _rows(doc, "roll")[1]
    assert second["data"]["fair"]["n"] == 2 and second["seed"] == seen
    # What the grind published waits for the next sitting (nobody knows its server seed).
    assert any("next" in _news(e) for e in doc["events"])


def test_a_client_seed_slipped_into_an_open_sitting_is_refused(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(3):
            gm.roll("1d20")
        gm.close_sitting()
    doc = _export(capsys)
    # A forged client seed published between roll 1 and roll 2 (the log rechained).
    forged = copy.deepcopy(doc)
    second = _rows(forged, "roll")[1]
    second["data"]["sitting"] = {"clients": {"Mira": "aimed"}}
    status, out, err = verify_doc(capsys, tmp_path, rechain(forged))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {second['seq']}: a client seed published after sitting 1 opened " \
        "(entry 1): its client seeds are fixed at its opening" in err, err


def test_client_seeds_are_fresh_for_each_sitting_and_the_ones_set_are_taken(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20")
        ash.roll("1d20")  # Ash offers a client seed for sitting 2 (committed first)
        gm.close_sitting()
        # Sitting 2 opens with its committed seed and Ash's; Mira, with none set for it,
        # offers one for sitting 3 (no seed is added at a committed opening).
        gm.roll("1d20")
        ash.roll("1d20")
        gm.close_sitting()
        gm.roll("1d20")  # sitting 3: Mira's seed; Ash offers one for sitting 4
        gm.close_sitting()
    doc = _export(capsys)
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    one, two, three = [_news(e) for e in doc["events"] if "open" in _news(e)]
    assert set(one["clients"]) == {"Mira"} and set(two["clients"]) == {"Ash"}
    assert set(three["clients"]) == {"Mira"} and two["next"] == three["clients"]
    assert one["clients"]["Mira"] != three["clients"]["Mira"]  # fresh
    # A host that reuses a seed a seat had before (it knows what it gave) is named...
    reused = copy.deepcopy(doc)
    old = one["clients"]["Mira"]
    for event in reused["events"]:
        news = _news(event)
        if news.get("open", {}).get("number") == 2:
            news["next"]["Mira"] = old
        if news.get("open", {}).get("number") == 3:
            news["clients"]["Mira"] = old
    status, _, err = verify_doc(capsys, tmp_path, rechain(reused))
    assert status == 2 and "the client seed of Mira in sitting 3 is the one it had in " \
        "sitting 1" in err, err
    # ... and so is one that leaves out the seed a seat set for the sitting.
    dropped = copy.deepcopy(doc)
    opening = next(e for e in dropped["events"] if "open" in _news(e)
                   and _news(e)["open"]["number"] == 2)
    del opening["data"]["sitting"]["clients"]["Ash"]
    status, _, err = verify_doc(capsys, tmp_path, rechain(dropped))
    assert status == 2 and "sitting 2 opens without the client seed Ash set for it" in err, err
