"""The seat commands' contract (issue 19): ``campaign seat|seats|unseat`` and
``log NAME --json --seat SECRET``, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.store import open_campaign, open_store
from tests.store.conftest import run_cli as run

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(120)




def _secret(out: str) -> str:
    found = re.search(r"[?&]seat=([A-Za-z0-9_-]+)", out)
    assert found, out
    return found.group(1)


def _hidden_rolls(db: str) -> None:
    """A public roll, a GM-only roll by the GM and Ash's self roll."""
    with open_store(db) as store:
        open_campaign(store, "Tuesday", who="Mira", role="gm").roll("2d6", seed=99)
        open_campaign(store, "Tuesday", who="Mira", role="gm").roll_entry(
            "1d20", seed=4242424242421, mode="gm")
        open_campaign(store, "Tuesday", who="Ash", role="player").roll_entry(
            "1d8", seed=7373737373731, mode="self")


def test_seat_prints_its_link_once_and_seats_never_list_a_secret(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    status, out, err = run(capsys, "campaign", "seat", "Tuesday", "Mira", "--role", "gm")
    assert status == 0 and not err
    assert "http://127.0.0.1:8866/?campaign=Tuesday&seat=" in out
    gm = _secret(out)
    _, out, _ = run(capsys, "campaign", "seat", "Tuesday", "Ash", "--role", "player",
                    "--url", "https://club.example/voila/render/table.ipynb")
    assert "https://club.example/voila/render/table.ipynb?campaign=Tuesday&seat=" in out
    ash = _secret(out)
    status, listed, _ = run(capsys, "campaign", "seats", "Tuesday", "--json")
    seats = json.loads(listed)["seats"]
    assert [(s["who"], s["role"]) for s in seats] == [("Ash", "player"), ("Mira", "gm")]
    assert all(re.match(r"\d{4}-\d\d-\d\dT", s["made"]) for s in seats)
    _, text, _ = run(capsys, "campaign", "seats", "Tuesday")
    assert "Ash  (player; made " in text and "Mira  (GM; made " in text
    for shown in (listed, text):
        assert gm not in shown and ash not in shown


def test_renewing_a_seat_in_other_letters_keeps_its_name(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 49: "campaign seat Saga ASH" replaced the seat "Ash" by "ASH".
    run(capsys, "campaign", "new", "Saga", "--ruleset", "plot_points")
    _, out, _ = run(capsys, "campaign", "seat", "Saga", "Ash", "--role", "player")
    old = _secret(out)
    status, out, err = run(capsys, "campaign", "seat", "Saga", "ASH", "--role", "player")
    assert status == 0 and not err
    assert out.startswith("seat Ash (player) at Saga: ")
    _, listed, _ = run(capsys, "campaign", "seats", "Saga", "--json")
    assert [s["who"] for s in json.loads(listed)["seats"]] == ["Ash"]
    from companion.store.seats import seat_for_secret

    with open_store(env_db) as store:
        assert seat_for_secret(store, "Saga", old) is None  # renewed: the old link is gone
        seat = seat_for_secret(store, "Saga", _secret(out))
        assert seat is not None and seat.who == "Ash"


def test_log_as_a_seat_sees_what_that_seat_may(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    _hidden_rolls(env_db)
    gm = _secret(run(capsys, "campaign", "seat", "Tuesday", "Mira", "--role", "gm")[1])
    ash = _secret(run(capsys, "campaign", "seat", "Tuesday", "Ash", "--role", "player")[1])
    bryn = _secret(run(capsys, "campaign", "seat", "Tuesday", "Bryn", "--role", "player")[1])
    seen = {}
    for name, secret in (("gm", gm), ("ash", ash), ("bryn", bryn)):
        status, out, err = run(capsys, "log", "Tuesday", "--json", "--seat", secret)
        assert status == 0 and not err
        seen[name] = out
        assert [e["kind"] for e in json.loads(out)["events"]] == ["roll"] * 3
        assert secret not in out
    assert "4242424242421" in seen["gm"] and "7373737373731" in seen["gm"]
    assert "4242424242421" not in seen["ash"] and "7373737373731" in seen["ash"]
    assert "4242424242421" not in seen["bryn"] and "7373737373731" not in seen["bryn"]


def test_a_forged_revoked_or_renewed_secret_is_one_error_line(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    old = _secret(run(capsys, "campaign", "seat", "Tuesday", "Ash", "--role", "player")[1])
    new = _secret(run(capsys, "campaign", "seat", "Tuesday", "Ash", "--role", "player")[1])
    bryn = _secret(run(capsys, "campaign", "seat", "Tuesday", "Bryn", "--role", "player")[1])
    status, out, _ = run(capsys, "campaign", "unseat", "Tuesday", "bryn")
    assert status == 0 and "revoked bryn's seat at Tuesday" in out
    for secret in ("forged-secret", old, bryn):
        status, out, err = run(capsys, "log", "Tuesday", "--json", "--seat", secret)
        assert status == 2 and out == "" and err.count("\n") == 1
        assert err.startswith("error: that seat secret opens no seat at Tuesday")
        assert secret not in err
    assert run(capsys, "log", "Tuesday", "--json", "--seat", new)[0] == 0
    for argv, message in [
            (["campaign", "unseat", "Tuesday", "Nobody"], "error: no seat named 'Nobody'"),
            (["campaign", "seat", "Nope", "Ash", "--role", "gm"], "error: no campaign named"),
            (["campaign", "seat", "Tuesday", " ", "--role", "gm"], "error: a seat needs a name"),
            (["campaign", "seat", "Tuesday", "Ash", "--role", "gm", "--url", "http://x/?a=1"],
             "error: the app's address ends before"),
            (["log", "Tuesday", "--gm", "--seat", new], "not allowed with argument --gm")]:
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == "" and message in err, argv
        assert new not in err


def test_the_seat_commands_run_as_a_program(env_db: str, tmp_path: Path) -> None:
    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "companion", *argv], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, check=False,
                              env={"COMPANION_DB": env_db, "PATH": "/usr/bin:/bin"})

    assert cli("campaign", "new", "Tuesday", "--ruleset", "plot_points").returncode == 0
    made = cli("campaign", "seat", "Tuesday", "Mira", "--role", "gm")
    assert made.returncode == 0
    done = cli("log", "Tuesday", "--json", "--seat", _secret(made.stdout))
    assert done.returncode == 0 and json.loads(done.stdout)["campaign"] == "Tuesday"
    refused = cli("log", "Tuesday", "--json", "--seat", "forged")
    assert refused.returncode == 2 and refused.stderr.startswith("error: ")
    assert refused.stderr.count("\n") == 1 and refused.stdout == ""


def test_a_secret_never_reads_as_an_option(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store import seats

    drawn = iter(["-starts-with-a-dash", "--another", "fine-one"])
    monkeypatch.setattr(seats.secrets, "token_urlsafe", lambda _n: next(drawn))
    assert seats.new_secret() == "fine-one"
