"""``companion app``: its options, the address it prints, the command and environment it
hands Voila, and the one-line refusals (a missing ``app`` extra, bad settings).

Nothing here serves: ``--dry-run`` or a stand-in runner takes Voila's place. The served
wheel is tested end to end in ``tests/browser/test_app_wheel.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import companion.app as app
from companion import cli

ROOT = Path(__file__).resolve().parents[2]


def _serve_args(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                ) -> tuple[list[str], dict[str, str]]:
    """Run ``companion app ARGV`` with a runner that records what Voila would get."""
    seen: list[tuple[list[str], dict[str, str]]] = []

    def runner(command: list[str], env: dict[str, str]) -> int:
        seen.append((command, env))
        return 0

    real_serve = app.serve
    monkeypatch.setattr("companion.app.cli.serve",
                        lambda settings, dry_run=False: real_serve(settings, run=runner))
    assert cli.main(["app", *argv]) == 0
    (found,) = seen
    return found


def test_defaults_serve_this_checkout_on_loopback(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_DB", str(tmp_path / "c.db"))
    monkeypatch.setenv("JUPYTER_TOKEN", "left-over-from-elsewhere")
    command, env = _serve_args([], monkeypatch)
    assert command[:4] == [sys.executable, "-m", "voila", str(ROOT / "widgets")]
    assert "--port=8866" in command and "--Voila.ip=127.0.0.1" in command
    assert f"--Voila.config_file_paths={ROOT / 'server'}" in command
    assert "--token" not in command and "JUPYTER_TOKEN" not in env
    assert env["APP_IP"] == "127.0.0.1" and env["APP_MAX_KERNELS"] == "16"
    assert env["COMPANION_DB"] == str(tmp_path / "c.db")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8866/ " in out and str(tmp_path / "c.db") in out


def test_options_reach_voila_and_the_server_settings(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    secret = "s3cret-token-for-the-table"
    command, env = _serve_args(["--port", "9001", "--ip", "0.0.0.0", "--token", secret,
                                "--db", "games.db", "--max-kernels", "4", "--preheat"],
                               monkeypatch)
    assert "--port=9001" in command and "--Voila.ip=0.0.0.0" in command
    assert "--token" in command and "--preheat_kernel=True" in command
    # The secret is in the environment only: the command line is readable by anyone (ps).
    assert secret not in " ".join(command) and env["JUPYTER_TOKEN"] == secret
    # A relative database path is this folder's: the kernels run in the notebooks' folder.
    assert env["COMPANION_DB"] == str(tmp_path / "games.db")
    assert env["APP_IP"] == "0.0.0.0" and env["APP_MAX_KERNELS"] == "4"
    assert f"?token={secret}" in capsys.readouterr().out


def test_token_alone_is_random_and_printed(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    _command, env = _serve_args(["--token"], monkeypatch)
    token = env["JUPYTER_TOKEN"]
    assert len(token) >= 16 and set(token) <= app.TOKEN_CHARACTERS
    assert f"http://127.0.0.1:8866/?token={token}" in capsys.readouterr().out


def test_a_postgresql_password_is_never_printed(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://gm:hunter2pass@db.lan:5433/table"
    _command, env = _serve_args(["--db", url], monkeypatch)
    assert env["COMPANION_DB"] == url
    out = capsys.readouterr().out
    assert "hunter2pass" not in out and "postgresql://gm:***@db.lan:5433/table" in out


def test_dry_run_prints_and_serves_nothing(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    assert cli.main(["app", "--dry-run", "--db", str(tmp_path / "x.db")]) == 0
    out = capsys.readouterr().out
    assert "-m voila" in out and "COMPANION_DB=" in out


@pytest.mark.parametrize(("argv", "says"), [
    (["--port", "0"], "a port is a number from 1 to 65535"),
    (["--port", "70000"], "a port is a number from 1 to 65535"),
    (["--port", "http"], "argument --port"),
    (["--ip", "my laptop"], "--ip: not an IP address"),
    (["--token=short"], "a token has 16 to 256 characters"),
    (["--token=spaces are not ok in it"], "letters, digits and - _ . ~ only"),
    (["--db="], "--db is empty"),
    (["--max-kernels", "-1"], "--max-kernels -1"),
])
def test_bad_settings_are_one_line(argv: list[str], says: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["app", "--dry-run", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("error:") and says in line


def test_a_refused_token_is_not_echoed(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["app", "--dry-run", "--token=my secret"]) == 2
    assert "my secret" not in capsys.readouterr().err


def test_a_missing_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    real = app.importlib.util.find_spec

    def without_voila(name: str, *args: object) -> object:
        return None if name in ("voila", "segno") else real(name)

    monkeypatch.setattr(app.importlib.util, "find_spec", without_voila)
    assert cli.main(["app"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ('error: serving the apps needs voila, segno: '
                            'pip install "table-companion[app]"\n')


def test_the_apps_are_found_in_the_package_before_the_checkout(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / app.START_APP).write_text("{}")
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "voila.py").write_text("")
    monkeypatch.setattr(app, "PACKAGE_DIR", tmp_path)
    assert app.app_files() == app.AppFiles(tmp_path / "notebooks", tmp_path / "server")
    monkeypatch.setattr(app, "PACKAGE_DIR", tmp_path / "nowhere")
    assert app.app_files() == app.AppFiles(ROOT / "widgets", ROOT / "server")
    monkeypatch.setattr(app, "CHECKOUT", tmp_path / "nowhere")
    with pytest.raises(app.AppError, match=r"no apps .*table-companion\[app\]"):
        app.app_files()


def test_ipv6_and_every_network_addresses() -> None:
    assert app.address(app.Settings(ip="::1", port=9000)) == "http://[::1]:9000/"
    assert app.address(app.Settings(ip="0.0.0.0")).startswith("http://")
    assert "0.0.0.0" not in app.address(app.Settings(ip="0.0.0.0"))
