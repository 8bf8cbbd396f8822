"""A seat's secret need not be an argument (issue 29): ``--seat SECRET`` is visible to
every user of the machine (``ps``), so ``log`` also takes it from standard input
(``--seat -``), a file (``--seat-file PATH``) or ``COMPANION_SEAT``; on SQLite and
PostgreSQL."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import main
from tests.store.conftest import run_cli as run
from tests.store.test_seats_cli import _hidden_rolls, _secret

pytestmark = pytest.mark.timeout(120)


def _seats(capsys: pytest.CaptureFixture[str], env_db: str) -> tuple[str, str]:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    _hidden_rolls(env_db)
    gm = _secret(run(capsys, "campaign", "seat", "Tuesday", "Mira", "--role", "gm")[1])
    ash = _secret(run(capsys, "campaign", "seat", "Tuesday", "Ash", "--role", "player")[1])
    return gm, ash


def test_the_secret_from_stdin_a_file_or_the_environment_opens_the_same_view(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    gm, ash = _seats(capsys, env_db)
    as_argument = {who: run(capsys, "log", "Tuesday", "--json", "--seat", secret)[1]
                   for who, secret in (("gm", gm), ("ash", ash))}
    assert "4242424242421" in as_argument["gm"]  # the GM's hidden roll's seed
    assert "4242424242421" not in as_argument["ash"]
    for who, secret in (("gm", gm), ("ash", ash)):
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
            f"{secret}\n".encode())))
        assert run(capsys, "log", "Tuesday", "--json", "--seat", "-") == \
            (0, as_argument[who], "")
        file = tmp_path / f"{who}.secret"
        file.write_text(f"  {secret}  \n# a note after it\n")
        assert run(capsys, "log", "Tuesday", "--json", "--seat-file", str(file)) == \
            (0, as_argument[who], "")
        monkeypatch.setenv("COMPANION_SEAT", secret)
        assert run(capsys, "log", "Tuesday", "--json") == (0, as_argument[who], "")
        monkeypatch.delenv("COMPANION_SEAT")
    # An explicit view wins over the environment's seat.
    monkeypatch.setenv("COMPANION_SEAT", ash)
    assert run(capsys, "log", "Tuesday", "--json", "--gm")[1] == as_argument["gm"]


def test_a_missing_empty_or_forged_secret_source_is_one_line_never_echoed(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _seats(capsys, env_db)
    empty = tmp_path / "empty"
    empty.write_text("\n  \n")
    forged = tmp_path / "forged"
    forged.write_text("not-a-real-secret-0123456789\n")
    for argv, expected in (
            (["--seat-file", str(tmp_path / "nope")], "error: no file "),
            (["--seat-file", str(empty)], "error: the seat file holds no seat secret"),
            (["--seat-file", str(forged)], "error: that seat secret opens no seat at "),
            (["--seat-file", str(tmp_path)], "error: "),
            (["--seat-file", str(forged), "--gm"], "not allowed with argument")):
        status, out, err = run(capsys, "log", "Tuesday", "--json", *argv)
        assert (status, out) == (2, "") and err.startswith("error: "), (argv, err)
        assert expected in err, (argv, err)
        assert err.count("\n") == 1 and "not-a-real-secret" not in err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))
    assert run(capsys, "log", "Tuesday", "--seat", "-")[2] == \
        "error: standard input holds no seat secret\n"
    monkeypatch.setenv("COMPANION_SEAT", "not-a-real-secret-0123456789")
    status, _, err = run(capsys, "log", "Tuesday")
    assert status == 2 and "opens no seat" in err and "not-a-real-secret" not in err


def test_the_help_says_an_argument_is_visible_to_other_users(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["log", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "visible to other users of this machine" in text
    assert "--seat-file PATH" in text and "COMPANION_SEAT" in text
