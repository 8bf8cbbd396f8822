"""``python -m companion campaign ...`` and ``log``, on SQLite and on PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import open_campaign, open_store
from tests.store.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)




def _play(db: str) -> None:
    with open_store(db) as store:
        campaign = open_campaign(store, "Tuesday", who="Mira", role="gm")
        table = campaign.add("Table", PlotPointSession(), role="minigame")
        assert isinstance(table, PlotPointSession)
        table.add_player("Ash")
        table.roll_check("Ash", rng=random.Random(4))
        campaign.roll("2d6", seed=99)


def test_new_list_show(env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    assert status == 0 and out.startswith("created campaign Tuesday (plot_points)") and not err
    _play(env_db)
    status, out, _ = run(capsys, "campaign", "list")
    assert out.startswith("Tuesday  (plot_points; 4 events; created ")
    status, out, _ = run(capsys, "campaign", "list", "--json")
    listed = json.loads(out)["campaigns"]
    assert [(c["name"], c["rulesets"], c["events"]) for c in listed] == [
        ("Tuesday", ["plot_points"], 4)]
    status, out, _ = run(capsys, "campaign", "show", "Tuesday")
    assert "Minigames:\n  Table  (plot-points table, 2 moves to undo)" in out
    assert "Party: none" in out
    status, out, _ = run(capsys, "campaign", "show", "Tuesday", "--json")
    (member,) = json.loads(out)["members"]
    assert member["state"]["characters"] == [{"name": "Ash", "strain": 0, "wounds": 0}]


def test_export_import_export_is_the_same_document(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    _play(env_db)
    status, exported, _ = run(capsys, "campaign", "export", "Tuesday")
    assert status == 0
    file = tmp_path / "tuesday.json"
    file.write_text(exported)
    status, out, _ = run(capsys, "campaign", "import", str(file), "--name", "Copy")
    assert status == 0 and out.startswith("imported campaign Copy (4 events)")
    status, again, _ = run(capsys, "campaign", "export", "Copy")
    first, second = json.loads(exported), json.loads(again)
    assert second["name"] == "Copy"
    assert {**second, "name": "Tuesday"} == first


def test_log_text_json_csv_and_rolls(env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    _play(env_db)
    status, out, _ = run(capsys, "log", "Tuesday")
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 5 and "Mira (gm)" in lines[0]
    assert lines[4].startswith("Chain head: ")  # the footer: what the table compares
    assert lines[3].endswith("[seed 99]") and "2d6" in lines[3]
    _, out, _ = run(capsys, "log", "Tuesday", "--json")
    events = json.loads(out)["events"]
    assert [e["kind"] for e in events] == ["add", "move", "move", "roll"]
    assert events[3]["seed"] == 99 and events[2]["move"] == "roll_check"
    _, out, _ = run(capsys, "log", "Tuesday", "--csv", "--rolls")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["kind"] for r in rows] == ["move", "roll"]  # the two with a seed
    assert rows[1]["seed"] == "99" and rows[1]["who"] == "Mira"


@pytest.mark.parametrize(("argv", "message"), [
    (["campaign", "show", "Nope"], "error: no campaign named 'Nope'"),
    (["campaign", "new", "X", "--ruleset", "nope"], "error: no ruleset named 'nope'"),
    (["campaign", "new", "X"], "error: "),
    (["campaign", "import", "/no/such/file.json"], "error: no file /no/such/file.json"),
    (["log", "Nope"], "error: no campaign named 'Nope'"),
    (["campaign", "delete", "Tuesday"], "error: deleting a campaign loses its whole log"),
])
def test_errors_are_one_line_and_exit_2(
        env_db: str, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_importing_a_file_that_is_not_a_campaign(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text, message in (("{not json", "not a campaign file (not JSON, line 1)"),
                          ('{"format": "x"}', "not a campaign file")):
        bad.write_text(text)
        status, out, err = run(capsys, "campaign", "import", str(bad))
        assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_damaged_database_is_one_error_line_from_the_command_line(
        tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    path.write_bytes(b"not a database at all\n" * 100)
    done = subprocess.run([sys.executable, "-m", "companion", "campaign", "list"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          env={"COMPANION_DB": str(path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"error: {path} is not a campaign database (not an SQLite file); "
                           "it was left untouched\n")
    assert path.read_bytes() == b"not a database at all\n" * 100


def test_the_log_names_members_and_says_who_rolled(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    _play(env_db)
    _, out, _ = run(capsys, "log", "Tuesday")
    lines = [line.strip().split("  ", 3)[-1] for line in out.splitlines()]
    assert lines[0] == "Table joins the campaign (minigame)"
    assert lines[1] == "Table: Ash joins the table (+1 lucky plot point)"
    assert lines[3].startswith("rolled 2d6 = [") and lines[3].endswith("[seed 99]")
    _, out, _ = run(capsys, "log", "Tuesday", "--json")
    assert {e["member"] for e in json.loads(out)["events"] if e["tracker"]} == {"Table"}
