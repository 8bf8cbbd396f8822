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


def verify_doc(capsys: pytest.CaptureFixture[str], tmp_path: Path, doc: Any,
               *options: str, name: str = "log.json") -> tuple[int, str, str]:
    """``companion verify`` (with ``options``, such as ``--head H``) on ``doc`` written to
    the file ``name``; only this command's output is returned."""
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    capsys.readouterr()
    return run(capsys, "verify", str(path), *options)
