"""Seats on pages (issue 19), headless: identity from ``seat=`` alone, spectators, the
JupyterHub path (``JUPYTERHUB_USER`` set as the hub sets it), and the GM's seats panel."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

from companion.store import create_campaign, open_store
from companion.store.seats import Seat, make_seat, revoke_seat, seat_for_secret
from companion.widgets.table import TableApp, campaign_page
from companion.widgets.table.binding import (
    JOIN_LINE,
    PageContext,
    page_session,
    seated,
)
from tests.conftest import campaign_of, session_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "seats.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("COMPANION_URL", raising=False)
    yield path


@pytest.fixture
def secrets_(db: Path) -> dict[str, str]:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["cairn_srd"])
        return {who: make_seat(store, "Tuesday", who, role)
                for who, role in (("Mira", "gm"), ("Ash", "player"), ("Bryn", "player"))}


def _ctx(query: str) -> PageContext:
    return seated(PageContext.from_query(query))


def test_identity_comes_from_the_seat_alone(secrets_: dict[str, str]) -> None:
    ash = secrets_["Ash"]
    assert (_ctx(f"campaign=Tuesday&seat={ash}").who,
            _ctx(f"campaign=Tuesday&seat={ash}").role) == ("Ash", "player")
    # who=/role= next to a player's seat change nothing.
    spoof = _ctx(f"campaign=Tuesday&seat={ash}&who=Mira&role=gm")
    assert (spoof.who, spoof.role) == ("Ash", "player")
    for query in ("campaign=Tuesday", "campaign=Tuesday&who=Mira&role=gm",
                  "campaign=Tuesday&seat=forged", f"campaign=Tuesday&seat={ash}x"):
        ctx = _ctx(query)
        assert (ctx.who, ctx.role) == ("", "spectator"), query


def test_a_revoked_or_renewed_seat_opens_a_spectator_page(db: Path,
                                                          secrets_: dict[str, str]) -> None:
    with open_store(db) as store:
        revoke_seat(store, "Tuesday", "Bryn")
        fresh = make_seat(store, "Tuesday", "Ash", "player")
    assert _ctx(f"campaign=Tuesday&seat={secrets_['Bryn']}").role == "spectator"
    assert _ctx(f"campaign=Tuesday&seat={secrets_['Ash']}").role == "spectator"
    assert _ctx(f"campaign=Tuesday&seat={fresh}").who == "Ash"


def test_an_app_page_opens_as_its_seat_or_as_a_spectator(
        secrets_: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secrets_['Mira']}")
    page = campaign_page("cairn_character")
    text = " ".join(str(getattr(w, "value", "")) for w in page.children)
    assert "Mira" in text and "(GM)" in text and JOIN_LINE not in text
    monkeypatch.setenv("QUERY_STRING", "campaign=Tuesday&who=Mira&role=gm")
    page = campaign_page("cairn_character")
    text = " ".join(str(getattr(w, "value", "")) for w in page.children)
    assert "You are watching" in text and "Mira" not in text
    campaign = campaign_of(page_session(PageContext.from_query()))
    assert campaign is not None and (campaign.who, campaign.role) == ("", "spectator")


def test_under_jupyterhub_the_hub_user_is_their_seat(
        secrets_: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    # JupyterHub starts each user's server with these set (JUPYTERHUB_USER is the name).
    monkeypatch.setenv("JUPYTERHUB_USER", "ash")
    monkeypatch.setenv("JUPYTERHUB_API_URL", "http://127.0.0.1:8081/hub/api")
    monkeypatch.setenv("JUPYTERHUB_SERVICE_PREFIX", "/user/ash/")
    ctx = _ctx("campaign=Tuesday&who=Mira&role=gm")
    assert (ctx.who, ctx.role) == ("Ash", "player")  # no secret link needed
    assert _ctx(f"campaign=Tuesday&seat={secrets_['Mira']}").role == "gm"  # a seat wins
    monkeypatch.setenv("JUPYTERHUB_USER", "carol")  # a hub user without a seat
    assert _ctx("campaign=Tuesday").role == "spectator"
    # The start app creates a campaign as the hub user: its GM seat bears the hub name.
    app = TableApp(background=False)
    assert app.who.value == "carol" and app.who.disabled
    app.new_name.value = "Carol's table"
    app.ruleset.value = "cairn_srd"
    app.create_button.click()
    assert app.error.message == ""
    assert (app.context.who, app.context.role) == ("carol", "gm")
    again = TableApp(PageContext.from_query("campaign=Carol%27s+table"), background=False)
    assert (again.context.who, again.context.role) == ("carol", "gm")  # no link: the hub
    assert "Signed in through the hub as <b>carol</b>" in again.seats.gm_link.value


def test_the_gm_invites_renews_and_revokes_from_the_start_app(db: Path) -> None:
    app = TableApp(PageContext(), background=False)
    app.who.value = "Mira"
    app.new_name.value = "Tuesday"
    app.ruleset.value = "cairn_srd"
    app.create_button.click()
    assert app.error.message == ""
    assert (app.context.who, app.context.role) == ("Mira", "gm") and app.context.seat
    assert f"seat={app.context.seat}" in app.url.value  # the GM's own link, kept
    assert "Your GM link: bookmark it" in app.seats.gm_link.value
    assert app.seats.layout.display == ""
    app.seats.name.value = "Ash"
    app.seats.invite_button.click()
    assert app.seats.error.message == ""
    shown = app.seats.invite_out.value
    ash = re.search(r"seat=([A-Za-z0-9_-]+)", shown)
    assert ash and "<svg" in shown and "http://127.0.0.1/voila/render/table.ipynb?" in shown
    with open_store(db) as store:
        assert seat_for_secret(store, "Tuesday", ash.group(1)) == Seat("Ash", "player")
    assert 'data-who="Ash"' in app.seats.listing.value
    app.seats.pick.value = "Ash"
    app.seats.renew_button.click()
    renewed = re.search(r"seat=([A-Za-z0-9_-]+)", app.seats.invite_out.value)
    assert renewed and renewed.group(1) != ash.group(1)
    with open_store(db) as store:
        assert seat_for_secret(store, "Tuesday", ash.group(1)) is None
    app.seats.revoke_button.click()
    app.seats.revoke_button.click()  # the second tap revokes
    assert app.seats.error.message == ""
    assert 'data-who="Ash"' not in app.seats.listing.value and app.seats.invite_out.value == ""
    with open_store(db) as store:
        assert seat_for_secret(store, "Tuesday", renewed.group(1)) is None
    app.seats.pick.value = "Mira"
    app.seats.revoke_button.click()
    app.seats.revoke_button.click()
    assert "your own seat" in app.seats.error.message


def test_a_player_and_a_spectator_get_no_gm_controls(
        secrets_: dict[str, str]) -> None:
    player = TableApp(PageContext.from_query(f"campaign=Tuesday&seat={secrets_['Ash']}"),
                      background=False)
    assert (player.context.who, player.context.role) == ("Ash", "player")
    assert player.seats.layout.display == "none"
    assert player.seats.gm_link.value == player.seats.listing.value == ""
    assert secrets_["Mira"] not in repr(player.context) and "Ash" in player.identity.value
    form = player.forms["cairn_srd"]
    assert form["name"].value == "Ash" and form["name"].disabled
    assert not any(form["leave"] in getattr(r, "children", ()) for r in
                   player.party_form.children)
    with pytest.raises(Exception, match="only the campaign's GM"):
        player.seats.invite()
    watcher = TableApp(PageContext.from_query("campaign=Tuesday&who=Mira&role=gm"),
                       background=False)
    assert watcher.context.role == "spectator" and "You are watching" in watcher.identity.value
    assert watcher.party_form.layout.display == "none"
    assert watcher.seats.layout.display == "none"


def test_an_open_page_whose_seat_is_revoked_watches_from_then_on(
        db: Path, secrets_: dict[str, str]) -> None:
    from companion.widgets.table.binding import LiveSync

    campaign = campaign_of(page_session(PageContext.from_query(
        f"campaign=Tuesday&seat={secrets_['Bryn']}")))
    assert campaign is not None and (campaign.who, campaign.role) == ("Bryn", "player")
    sync = LiveSync.get()
    sync.check_seat(session_of(campaign), now=True)
    assert campaign.role == "player"  # still seated: nothing changes
    with open_store(db) as store:
        revoke_seat(store, "Tuesday", "Bryn")
    sync.check_seat(session_of(campaign), now=True)
    assert (campaign.who, campaign.role) == ("", "spectator")


def test_the_gm_renewing_their_own_seat_keeps_their_page(db: Path) -> None:
    from companion.widgets.table.binding import LiveSync

    app = TableApp(PageContext(), background=False)
    app.who.value = "Mira"
    app.new_name.value = "Tuesday"
    app.ruleset.value = "cairn_srd"
    app.create_button.click()
    old = app.context.seat
    app.seats.pick.value = "Mira"
    app.seats.renew_button.click()
    assert app.seats.error.message == "" and app.context.seat != old
    assert f"seat={app.context.seat}" in app.url.value
    assert campaign_of(app.session) is not None
    LiveSync.get().check_seat(app.session, now=True)
    assert campaign_of(app.session).role == "gm"  # the page follows its new link
