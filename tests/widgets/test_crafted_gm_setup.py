"""Issue 28, headless: a player's page sends the comm messages its developer tools can send
(``update`` with any state, ``custom`` clicks; traits of widgets the page never showed set
directly) at every button of the GM's setup and at the Monarchs' chips. Each is refused by
the table session or the campaign's seam, in one line, and nothing is stored: no event, no
seat made, renewed or revoked, no trust changed. The same clicks from the GM's page work
(so the refusals are about the seat, not a broken button)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances

from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import create_campaign, open_campaign, open_store
from companion.store.seats import list_seats, make_seat
from companion.widgets.table import TableApp, campaign_page
from companion.widgets.table.apps import MONARCHS
from companion.widgets.table.binding import PageContext
from tests.conftest import campaign_of, session_of

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "crafted.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def _campaign(db: Path) -> dict[str, str]:
    with open_store(db) as store:
        gm = create_campaign(store, "Tuesday", ["cairn_srd", "miasma"], who="Mira", role="gm")
        gm.add("Ash", Character("Ash", strength=10, strength_max=10, guard=2, guard_max=6))
        gm.add("Bryn", Character("Bryn"))
        game = gm.add(MONARCHS, DiceMonarchsGame(), role="minigame")
        game.new_table(["Ash", "Bryn"], 100, seed=11)
        return {who: make_seat(store, "Tuesday", who, role)
                for who, role in (("Mira", "gm"), ("Ash", "player"), ("Bryn", "player"))}


def _send(widget: widgets.Widget, **state: Any) -> None:
    """An ``update`` message from the page, as the kernel's comm hands it over."""
    widget._handle_msg({"content": {"data": {"method": "update", "state": state,
                                             "buffer_paths": []}}, "buffers": []})


def _click(button: widgets.Button) -> None:
    """A click message from the page (a hidden or disabled button's too)."""
    button._handle_msg({"content": {"data": {"method": "custom",
                                             "content": {"event": "click"}}}, "buffers": []})


def _state(db: Path) -> tuple[Any, ...]:
    """Everything a setup button could change: the log, the seats, the trust."""
    with open_store(db) as store:
        campaign = open_campaign(store, "Tuesday")
        seats = [(s.who, s.role) for s in list_seats(store, "Tuesday", revoked=True)]
        rows = store.seat_rows(campaign.info.id)
        return (campaign.head, seats, sorted(map(tuple, rows)),
                (campaign.trust.own_dice, campaign.trust.own_numbers))


def _page(db: Path, monkeypatch: pytest.MonkeyPatch, secret: str) -> TableApp:
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secret}")
    app = TableApp(PageContext.from_query())
    assert app.ready.wait(30)
    app._open("Tuesday")  # as the page does once its campaign list is in
    assert app.warm.wait(120)
    return app


def test_a_player_s_crafted_gm_setup_messages_change_nothing(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    app = _page(db, monkeypatch, secrets["Ash"])
    assert campaign_of(app.session) is not None
    assert session_of(campaign_of(app.session)).role == "player"
    before = _state(db)
    seats = app.seats
    assert seats.layout.display == "none"  # the GM's panel: not shown to a player
    # Seats: invite a GM seat (for themselves, and for a stranger), renew and revoke.
    for who, role in (("Ash", "gm"), ("Cato", "gm"), ("Cato", "player")):
        _send(seats.name.control, value=who)
        _send(seats.seat_role, index=1 if role == "gm" else 0)
        _click(seats.invite_button)
        assert "only the campaign's GM manages its seats" in seats.error.message, who
    seats.pick.options = [("Mira (GM)", "Mira"), ("Bryn (player)", "Bryn")]  # set directly
    for index in (0, 1):
        _send(seats.pick, index=index)  # a dropdown's page sends its index
        seats.renew_button.disabled = False
        _click(seats.renew_button)
        assert "only the campaign's GM" in seats.error.message
        seats.revoke_button.disabled = False
        _click(seats.revoke_button)
        _click(seats.revoke_button)  # the confirm button's second tap
        assert "only the campaign's GM" in seats.error.message
    # Trust: both switches on, then the GM's save button.
    _send(seats.own_dice, value=True)
    _send(seats.own_numbers, value=True)
    _click(seats.trust_button)
    assert "only the campaign's GM" in seats.error.message
    # The party form: a stranger added, another member's numbers, someone removed.
    form = app.forms["cairn_srd"]
    _send(form["name"].control, value="Cato", disabled=False)
    _click(form["add"])
    assert "Cato" not in [m.name for m in campaign_of(app.session)]
    form["edit_pick"].options = [("Bryn", "bryn")]
    _send(form["edit_pick"], index=0)
    _send(form["edit_boxes"]["str"].control, value="18")
    _click(form["save"])
    form["leave_pick"].options = [("Bryn", "bryn")]
    _send(form["leave_pick"], index=0)
    form["leave"].disabled = False
    _click(form["leave"])
    _click(form["leave"])
    assert _state(db) == before
    assert (campaign_of(app.session).who, campaign_of(app.session).role) == ("Ash", "player")


def test_a_player_s_crafted_monarchs_chips_are_refused_by_comm_messages(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secrets['Bryn']}")
    before = set(_instances)
    campaign_page("dice_monarchs")
    made = [w for k, w in list(_instances.items()) if k not in before]

    def one(css: str) -> Any:
        found = [w for w in made if css in getattr(w, "_dom_classes", ())]
        assert found, css
        return found[-1]

    errors = [w for w in made if isinstance(getattr(w, "message", None), str)]
    start = _state(db)
    for name, who, chips in (("rebuy", "Bryn", "5000"), ("join", "Bryn II", "5000"),
                             ("leave", "Ash", "")):
        _send(one("tc-name-seat-name").control, value=who)
        if chips:
            _send(one("tc-int-seat-chips").control, value=chips)
        button = one(f"tc-btn-{name}")
        button.disabled = False
        _click(button)
        said = " | ".join(w.message for w in errors if w.message)
        assert "is the GM's move" in said, name
    assert _state(db) == start
    with open_store(db) as store:
        game = open_campaign(store, "Tuesday").tracker(MONARCHS, DiceMonarchsGame)
        assert game.stacks == [100, 100] and game.players == ["Ash", "Bryn"]


def test_the_gm_s_same_clicks_work(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    app = _page(db, monkeypatch, secrets["Mira"])
    seats = app.seats
    assert seats.layout.display == ""
    _send(seats.name.control, value="Cato")
    _send(seats.seat_role, index=0)
    _click(seats.invite_button)
    assert seats.error.message == ""
    _send(seats.own_numbers, value=True)
    _click(seats.trust_button)
    with open_store(db) as store:
        assert ("Cato", "player") in [(s.who, s.role) for s in list_seats(store, "Tuesday")]
        assert open_campaign(store, "Tuesday").trust.own_numbers is True
    _send(seats.pick, index=[v for _, v in seats.pick.options].index("Cato"))
    _click(seats.revoke_button)
    _click(seats.revoke_button)
    assert seats.error.message == ""
    with open_store(db) as store:
        assert "Cato" not in [s.who for s in list_seats(store, "Tuesday")]
