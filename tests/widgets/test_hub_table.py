"""The start app in a kernel of the club's table service (``companion.app.hub``, issue 33),
without a hub: the environment ``kernel_environment`` gives a page's kernel is set here.

A page with no seat cannot create campaigns nor see where they are kept (the service
closes the table unless its admin opens it); a hub admin creates one and is its GM by hub
name, with no secret in the address; invitations say to sign in to the hub (no link, no QR
code); a spectator is told to ask for a seat under their hub name. Also: what
``kernel_environment`` keeps and drops, and the ``jupyterhub_config.py`` fragment."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.app.hub import HubUser, hub_config, kernel_environment
from companion.store import create_campaign, open_store
from companion.store.seats import list_seats, make_seat
from companion.widgets.table import TableApp
from companion.widgets.table.binding import PageContext
from companion.widgets.table.start import HUB_CLOSED_LINE
from tests.conftest import campaign_of


def _as_kernel(monkeypatch: pytest.MonkeyPatch, db: Path, user: str, admin: bool) -> None:
    service = {"COMPANION_DB": str(db), "JUPYTERHUB_API_TOKEN": "hub-secret",
               "JPY_API_TOKEN": "hub-secret", "JUPYTERHUB_CLIENT_ID": "service-table",
               "JUPYTERHUB_USER": "", "PATH": os.environ.get("PATH", "")}
    monkeypatch.delenv("COMPANION_OPEN_TABLE", raising=False)
    for key, value in kernel_environment(service, HubUser(user, admin)).items():
        monkeypatch.setenv(key, value)
    for key in ("JUPYTERHUB_API_TOKEN", "JPY_API_TOKEN", "JUPYTERHUB_CLIENT_ID"):
        monkeypatch.delenv(key, raising=False)


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "club.db"


def test_kernel_environment_holds_the_user_and_no_hub_secret() -> None:
    env = kernel_environment({"COMPANION_DB": "postgresql://t:pw@db/t",
                              "JUPYTERHUB_API_TOKEN": "x", "JPY_API_TOKEN": "x",
                              "JUPYTERHUB_CLIENT_ID": "c", "JUPYTERHUB_USER": "",
                              "JUPYTER_TOKEN": "t", "HOME": "/home/table"},
                             HubUser("ash"))
    assert env["JUPYTERHUB_USER"] == "ash" and env["COMPANION_HUB"] == "1"
    assert env["COMPANION_HUB_ADMIN"] == "0" and env["COMPANION_OPEN_TABLE"] == "0"
    assert env["COMPANION_DB"] == "postgresql://t:pw@db/t"  # the apps reach the store
    assert not {"JUPYTERHUB_API_TOKEN", "JPY_API_TOKEN", "JUPYTERHUB_CLIENT_ID",
                "JUPYTER_TOKEN"} & set(env)


def test_a_hub_page_with_no_seat_cannot_create(db: Path, monkeypatch: pytest.MonkeyPatch
                                               ) -> None:
    _as_kernel(monkeypatch, db, "eve", admin=False)
    app = TableApp(PageContext(), background=False)
    assert app.db.value == "" and app.db.layout.display == "none"
    assert app.create_row.layout.display == "none"
    assert "hub name" in app.identity.value
    app.new_name.value = "TUESDAY"
    app.create_button.click()  # a forged click on the hidden button
    assert "only a GM or a hub admin" in app.error.message
    assert open_store().list_campaigns() == []


def test_a_hub_admin_creates_and_is_gm_by_hub_name(db: Path, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:
    _as_kernel(monkeypatch, db, "mira", admin=True)
    app = TableApp(PageContext(), background=False)
    assert app.create_row.layout.display is None
    assert app.db.value == ""  # still no path: the table is closed
    app.new_name.value, app.ruleset.value = "Tuesday", "cairn_srd"
    app.create_button.click()
    assert app.error.message == ""
    assert campaign_of(app.session) is not None and app.context.role == "gm"
    assert app.context.seat == ""  # the hub login is the seat: no secret in the address
    assert [(s.who, s.role) for s in list_seats(open_store(), "Tuesday")] == [("mira", "gm")]
    # Inviting Ash: no link, no QR code, the hub's sign-in instead.
    app.seats.name.value = "ash"
    app.seats.invite_button.click()
    shown = app.seats.invite_out.value
    assert "sign in to the club&#x27;s hub as ash" in shown
    assert "seat=" not in shown and "<svg" not in shown and "href" not in shown
    assert "Signed in through the hub" in app.seats.gm_link.value


def test_a_hub_invitation_offers_the_phone_app_with_no_secret(
        db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the service serves the phone apps (issue 44), a player's invitation gives
    # the phone app's address and its QR code: no secret in it, the hub's login is the seat.
    phones = tmp_path / "phone"
    phones.mkdir()
    (phones / "cairn_character.html").write_text("<!doctype html>")
    _as_kernel(monkeypatch, db, "mira", admin=True)
    monkeypatch.setenv("COMPANION_PHONE_DIR", str(phones))
    monkeypatch.setenv("SERVER_NAME", "club.example")
    monkeypatch.setenv("SERVER_PORT", "443")
    monkeypatch.setenv("SCRIPT_NAME", "/services/table/voila/render/table.ipynb")
    monkeypatch.delenv("COMPANION_URL", raising=False)
    app = TableApp(PageContext(), background=False)
    app.new_name.value, app.ruleset.value = "Tuesday", "cairn_srd"
    app.create_button.click()
    app.seats.name.value = "ash"
    app.seats.invite_button.click()
    shown = app.seats.invite_out.value
    assert "sign in to the club&#x27;s hub as ash" in shown
    assert "/services/table/phone/cairn_character.html?campaign=Tuesday" in shown
    assert "seat=" not in shown and "<svg" in shown
    # A GM seat keeps the table's pages (no phone app offered).
    app.seats.name.value, app.seats.seat_role.value = "bo", "gm"
    app.seats.invite_button.click()
    assert "phone" not in app.seats.invite_out.value and "<svg" not in app.seats.invite_out.value


def test_a_hub_spectator_is_told_to_ask_for_a_seat(db: Path, monkeypatch: pytest.MonkeyPatch
                                                   ) -> None:
    store: Any = open_store(db)
    create_campaign(store, "Tuesday", ["cairn_srd"], who="mira", role="gm")
    make_seat(store, "Tuesday", "ash", "player")
    _as_kernel(monkeypatch, db, "eve", admin=False)
    app = TableApp(PageContext(campaign="Tuesday"), background=False)
    assert app.context.role == "spectator"
    assert "ask your GM for a seat under your hub name (eve)" in app.identity.value
    assert HUB_CLOSED_LINE not in app.identity.value
    _as_kernel(monkeypatch, db, "ASH", admin=False)  # a hub name in another case
    app = TableApp(PageContext(campaign="Tuesday"), background=False)
    assert (app.context.who, app.context.role) == ("ash", "player")


def test_hub_config_is_a_working_fragment(tmp_path: Path) -> None:
    from traitlets.config import Config

    text = hub_config(db="postgresql://table:pw@db.club/table", environ={}, port=8899)
    c = Config()
    exec(compile(text, "jupyterhub_config.py", "exec"), {"c": c})
    (service,) = c.JupyterHub.services
    assert service["name"] == "table" and service["url"] == "http://127.0.0.1:8899"
    assert service["command"][1:] == ["-m", "companion.app.hub"]
    assert service["environment"]["COMPANION_DB"] == "postgresql://table:pw@db.club/table"
    assert service["environment"]["COMPANION_OPEN_TABLE"] == "0"
    (role,) = c.JupyterHub.load_roles
    assert role["name"] == "user" and "self" not in role["scopes"]  # no servers of their own
    assert "access:services!service=table" in role["scopes"]
    assert "pw" not in text.split("c.JupyterHub.services")[0]  # the comment hides it
