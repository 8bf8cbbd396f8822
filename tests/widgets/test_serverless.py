"""The serverless apps (Pyodide in the page) say only what is true of them."""

from __future__ import annotations

import sys

import pytest

from companion.widgets.table import binding


def test_the_server_apps_watch_their_connection() -> None:
    banner = binding.connection_banner()
    assert "voila.js" in banner.value and "Connection lost" in banner.value


def test_no_connection_banner_where_there_is_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """The static site has no Voila: its liveness check would find no ``voila.js`` and
    say "Connection lost" while every move is in fact kept."""
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert binding.serverless()
    banner = binding.connection_banner()
    assert "voila.js" not in banner.value and "Connection" not in banner.value
