"""Who may create campaigns (issue 33): ``companion app`` closes the table when it listens
beyond this machine without ``--open-table`` (``COMPANION_OPEN_TABLE=0``). A page with no
GM seat then cannot create a campaign, and no page is sent the database's location; the
default (unset, or ``companion app`` on 127.0.0.1) stays as open as before."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.app import Settings, server_environment
from companion.store import open_store
from companion.widgets.table import TableApp
from companion.widgets.table.binding import PageContext
from companion.widgets.table.start import CLOSED_LINE
from tests.conftest import campaign_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "table.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    yield path


@pytest.fixture
def closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_OPEN_TABLE", "0")


def test_a_page_with_no_seat_cannot_create_or_see_the_path(db: Path, closed: None) -> None:
    app = TableApp(PageContext(), background=False)
    assert app.db.value == "" and app.db.layout.display == "none"
    assert app.create_row.layout.display == "none"
    assert "only a GM creates campaigns" in app.identity.value
    # Even a forged click on the hidden button (the page can send one) is refused.
    app.new_name.value, app.who.value = "TUESDAY", "Eve"
    app.create_button.click()
    assert "--open-table" in app.error.message
    assert open_store().list_campaigns() == []


def test_a_gm_page_still_creates_and_never_sees_the_path(db: Path, closed: None) -> None:
    app = TableApp(PageContext(who="Mira", role="gm"), background=False)
    assert app.create_row.layout.display is None
    app.new_name.value, app.ruleset.value = "Tuesday", "cairn_srd"
    app.create_button.click()
    assert app.error.message == ""
    assert campaign_of(app.session) is not None and campaign_of(app.session).name == "Tuesday"
    assert db.name not in app.db.value and str(db.parent) not in app.identity.value
    assert CLOSED_LINE not in app.identity.value


def test_an_open_table_is_as_before(db: Path) -> None:
    app = TableApp(PageContext(), background=False)
    assert db.name in app.db.value
    assert app.create_row.layout.display is None


@pytest.mark.parametrize(("ip", "open_table", "expected"), [
    ("127.0.0.1", False, "1"),
    ("localhost", False, "1"),
    ("::1", False, "1"),
    ("0.0.0.0", False, "0"),
    ("192.168.1.20", False, "0"),
    ("0.0.0.0", True, "1"),
])
def test_companion_app_closes_the_table_beyond_this_machine(
        ip: str, open_table: bool, expected: str, tmp_path: Path) -> None:
    env = server_environment(Settings(ip=ip, open_table=open_table),
                             {"COMPANION_DB": str(tmp_path / "x.db")})
    assert env["COMPANION_OPEN_TABLE"] == expected
