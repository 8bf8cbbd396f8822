"""Fixtures of the luck report's suite: a fresh SQLite campaign database per test."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def env_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh database file, named by ``COMPANION_DB`` for the command line."""
    path = str(tmp_path / "campaigns.db")
    monkeypatch.setenv("COMPANION_DB", path)
    return path
