"""The dice tray says whose seat it is and what the seat may do before any tap (issue 31):
"Campaign · who (role)" on its own page, the modes this seat rolls in, and for a visitor
with no seat that they only watch (they learnt it by tapping Roll). Opened in place right
after a campaign is created, the tray has the campaign's roll modes at once."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.store import create_campaign, open_store
from companion.store.seats import make_seat
from companion.widgets.dice_tray import DiceTray
from companion.widgets.table import TableApp
from companion.widgets.table.binding import PageContext
from tests.conftest import campaign_of
from tests.widgets.app_page import Scope


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "tray.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def _seats(db: Path) -> dict[str, str]:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
        return {who: make_seat(store, "Tuesday", who, role)
                for who, role in (("Mira", "gm"), ("Ash", "player"))}


def _tray(monkeypatch: pytest.MonkeyPatch, query: str) -> Scope:
    """The tray as its notebook builds it for a page at ``?query``."""
    monkeypatch.setenv("QUERY_STRING", query)
    return Scope(DiceTray())


def test_the_tray_says_whose_seat_and_what_it_may_do_before_any_tap(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seats = _seats(db)
    gm = _tray(monkeypatch, f"campaign=Tuesday&seat={seats['Mira']}")
    assert gm.inner("tc-where") == "Campaign Tuesday · Mira (GM)"
    assert "You roll in public or GM only" in gm.find_text("tc-may")
    ash = _tray(monkeypatch, f"campaign=Tuesday&seat={seats['Ash']}")
    assert ash.inner("tc-where") == "Campaign Tuesday · Ash (player)"
    assert "You roll in public, blind" in ash.find_text("tc-may")
    assert not ash.has("tc-join")
    # No seat (a claim in the address grants nothing): they watch, and read it first.
    visitor = _tray(monkeypatch, "campaign=Tuesday&who=Mira&role=gm")
    assert visitor.inner("tc-where") == "Campaign Tuesday (watching)"
    assert "You are watching" in visitor.find_text("tc-join")
    assert not visitor.has("tc-may")
    assert visitor.has("tc-result", data_n="0")  # nothing was tapped to learn it
    # Without a campaign the tray is the demo: no seat line at all.
    demo = _tray(monkeypatch, "")
    assert not demo.has("tc-where") and not demo.has("tc-may")


def test_the_tray_opened_in_place_after_creating_a_campaign_has_its_modes(db: Path) -> None:
    app = TableApp(PageContext(), background=False)
    app.who.value = "Mira"
    app.new_name.value = "Tuesday"
    app.ruleset.value = "cairn_srd"
    app.create_button.click()
    assert app.error.message == "" and campaign_of(app.session) is not None
    tray = app.open_app("dice_tray")
    assert isinstance(tray, DiceTray) and campaign_of(tray.session) is campaign_of(app.session)
    assert [v for _label, v in tray.modes.mode.options] == ["public", "gm"]
    assert not tray.modes.mode.disabled
    page = Scope(tray)
    assert "You roll in public or GM only" in page.find_text("tc-may")
    assert not page.has("tc-where")  # the heading above the app says it already
    tray.modes.mode.value = "gm"
    tray.roll_button.click()
    assert tray.error.message == ""
    assert campaign_of(app.session).log(("roll",))[-1].data["mode"] == "gm"


def test_in_the_serverless_apps_the_tray_says_the_device_holder_is_the_gm(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page's own Python (Pyodide): no seats; whoever holds the device is the GM, and
    the tray says so before any tap."""
    import sys

    monkeypatch.setattr(sys, "platform", "emscripten")
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
    tray = _tray(monkeypatch, "campaign=Tuesday")
    assert tray.inner("tc-where") == "Campaign Tuesday · Mira (GM)"
    assert "You roll in public or GM only" in tray.find_text("tc-may")
    assert not tray.has("tc-join")
