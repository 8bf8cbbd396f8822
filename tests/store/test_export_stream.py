"""``campaign export`` as a stream (``companion.store.export_stream``, issue 49): the same
bytes as the whole document, refused before a byte when the log is broken, never a mix of
two logs."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import create_campaign, export_stream, open_campaign, open_store
from companion.store.chain import ChainError
from companion.store.document import document_text
from tests.store.test_chain import _table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page", [1, 3, 2000])
def test_the_stream_is_the_whole_document_byte_for_byte(
        db: str, page: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(export_stream, "PAGE", page)  # pages of one, a few, all at once
    with open_store(db) as store:
        gm = _table(store)
        gm.roll_entry("1d6", seed=9)  # 11 events: pages of 3 end mid-way
        out = io.StringIO()
        export_stream.write_export(store, open_campaign(store, "Tuesday"), out)
        assert out.getvalue() == document_text(gm.export()) + "\n"
        assert json.loads(out.getvalue())["events"][10]["seq"] == 11


def test_an_empty_campaign_and_unusual_words_come_out_the_same(db: str) -> None:
    with open_store(db) as store:
        empty = create_campaign(store, 'Säga "events": []', ["plot_points"])
        out = io.StringIO()
        export_stream.write_export(store, empty, out)
        assert out.getvalue() == document_text(empty.export()) + "\n"
        table = empty.add("Tablé ✦", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        table.add_player("Åsa \"the\" ﬁrst")
        table.roll_check("Åsa \"the\" ﬁrst", rng=random.Random(2))
        out = io.StringIO()
        export_stream.write_export(store, open_campaign(store, 'Säga "events": []'), out)
        assert out.getvalue() == document_text(empty.export()) + "\n"


def test_a_log_changed_under_the_write_is_said_not_mixed(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(db) as store:
        _table(store)
        campaign = open_campaign(store, "Tuesday")
        real = store.events_since
        calls = []

        def changing(campaign_id: int, seq: int = 0, limit: int | None = None,
                     kinds: tuple[str, ...] = ()) -> list:
            calls.append(seq)
            events = real(campaign_id, seq, limit, kinds)
            if len(calls) > 2 and events:  # the write's pass: event 6 is another now
                events = [e if e.seq != 6 else type(e)(**{**e.__dict__, "who": "Forged"})
                          for e in events]
            return events

        monkeypatch.setattr(export_stream, "PAGE", 5)
        monkeypatch.setattr(store, "events_since", changing)
        out = io.StringIO()
        with pytest.raises(ChainError, match=r"changed while it was exported"):
            export_stream.write_export(store, campaign, out)
        assert "Forged" not in out.getvalue()


def test_a_broken_log_writes_nothing(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(db) as store:
        _table(store)
        campaign = open_campaign(store, "Tuesday")
        real = store.events_since
        monkeypatch.setattr(store, "events_since", lambda cid, seq=0, limit=None, kinds=(): [
            e for e in real(cid, seq, limit, kinds) if e.seq != 4])
        out = io.StringIO()
        with pytest.raises(ChainError, match=r"event 4 is missing"):
            export_stream.write_export(store, campaign, out)
        assert out.getvalue() == ""


def test_the_cli_export_is_the_document_import_reads(tmp_path: Path) -> None:
    # Its memory on a 200,000-event campaign is measured in benchmarks/RESULTS.md.
    db = tmp_path / "long.db"
    with open_store(str(db)) as store:
        gm = create_campaign(store, "Long", ["plot_points"])
        table = gm.add("Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        table.add_player("Ash")
        for n in range(400):
            gm.roll_entry("1d6", seed=n)
    script = (
              "from companion.cli import main\n"
              "status = main(['campaign', 'export', 'Long'])\n"
              "import sys; print(status, file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                               "COMPANION_DB": str(db)})
    assert done.stderr.split()[-1] == "0", done.stderr
    doc = json.loads(done.stdout)
    assert len(doc["events"]) == 402 and re.fullmatch(r"[0-9a-f]{64}", doc["chain"])
    file = tmp_path / "long.json"
    file.write_text(done.stdout)
    assert main(["verify", str(file)]) == 0
    monkey_db = tmp_path / "other.db"
    imported = subprocess.run([sys.executable, "-m", "companion", "campaign", "import",
                               str(file), "--name", "Again"], capture_output=True, text=True,
                              timeout=300, check=False, cwd=ROOT,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin",
                                   "COMPANION_DB": str(monkey_db)})
    assert imported.returncode == 0, imported.stderr
    with open_store(str(monkey_db)) as store:
        assert open_campaign(store, "Again").chain == doc["chain"]
