"""``companion hub-config`` (issue 33): prints a jupyterhub_config.py fragment that runs
the table as the hub's service; bad options get one ``error:`` line."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import cli


def test_prints_a_fragment_with_the_database_only_in_the_service_environment(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from traitlets.config import Config

    db = tmp_path / "club.db"
    assert cli.main(["hub-config", "--db", str(db), "--port", "9123", "--max-kernels", "8",
                     "--open-table"]) == 0
    text = capsys.readouterr().out
    c = Config()
    exec(compile(text, "jupyterhub_config.py", "exec"), {"c": c})
    (service,) = c.JupyterHub.services
    assert service["url"] == "http://127.0.0.1:9123"
    assert service["environment"] == {"COMPANION_DB": str(db), "APP_MAX_KERNELS": "8",
                                      "COMPANION_OPEN_TABLE": "1"}
    assert c.JupyterHub.default_url == "/services/table/"


@pytest.mark.parametrize(("argv", "said"), [
    (["--port", "0"], "--port 0: a port is a number from 1 to 65535"),
    (["--max-kernels", "-1"], "--max-kernels -1"),
    (["--db", ""], "--db is empty"),
])
def test_bad_options_get_one_line(argv: list[str], said: str,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["hub-config", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    (line,) = captured.err.strip().splitlines()
    assert line.startswith("error:") and said in line
