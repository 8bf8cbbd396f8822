"""The command line as the fair-play tests drive it: one command, and ``verify`` on a
document written to a file (the way a player checks an exported log)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``companion ARGV``: its exit status, standard output and standard error."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def verify_doc(capsys: pytest.CaptureFixture[str], tmp_path: Path,
               doc: Any) -> tuple[int, str, str]:
    """``companion verify`` on ``doc`` written to a file."""
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc))
    return run(capsys, "verify", str(path))
