"""An import under a taken name: the store's refusal names no flag (the apps show it as
it is, issue 31); the CLI adds its own way out."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_the_cli_says_how_to_import_under_a_taken_name(tmp_path: Path) -> None:
    env = {**os.environ, "COMPANION_DB": str(tmp_path / "c.db")}

    def cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "companion", "campaign", *args],
                              input=stdin, capture_output=True, text=True, env=env,
                              timeout=120)

    assert cli("new", "Tuesday", "--ruleset", "cairn_srd").returncode == 0
    doc = cli("export", "Tuesday").stdout
    again = cli("import", "-", stdin=doc)
    assert again.returncode != 0
    assert ("already exists: import it under another name (import it with --name NEW)"
            in again.stderr), again.stderr
    assert cli("import", "-", "--name", "Wednesday", stdin=doc).returncode == 0
