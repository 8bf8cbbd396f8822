"""Issue 28, headless: a player's page, driven as that player's developer tools could drive
it. Every widget the kernel made for the page can be sent a message, shown or not: the
values are set as a page's ``update`` message sets them (``set_state``) and buttons are
clicked. Every GM-only move is refused at the campaign's seam (one line, nothing stored);
the switches the GM has not allowed are not offered, and a ticked one is refused too."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

import ipywidgets as widgets
from ipywidgets.widgets.widget import _instances

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.seats import make_seat
from companion.widgets.monsters_and_magic_sheet import SheetMovesPanel
from companion.widgets.rolls import FacesBox
from companion.widgets.table import TableApp, campaign_page
from companion.widgets.table.apps import MONARCHS
from companion.widgets.table.binding import PageContext
from companion.widgets.variant5e import SpellPointsApp
from tests.conftest import campaign_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "crafted.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def _campaign(db: Path) -> dict[str, str]:
    """Tuesday (Cairn and Miasma): Ash and Bryn, a Monarchs table between hands."""
    with open_store(db) as store:
        gm = create_campaign(store, "Tuesday", ["cairn_srd", "miasma"], who="Mira", role="gm")
        gm.add("Ash", Character("Ash", strength=10, strength_max=10, guard=2, guard_max=6))
        gm.add("Bryn", Character("Bryn"))
        game = gm.add(MONARCHS, DiceMonarchsGame(), role="minigame")
        game.new_table(["Ash", "Bryn"], 100, seed=11)
        return {who: make_seat(store, "Tuesday", who, role)
                for who, role in (("Mira", "gm"), ("Ash", "player"), ("Bryn", "player"))}


def _made_by(build: Callable[[], Any]) -> tuple[Any, list[widgets.Widget]]:
    """Build a page; return it and every widget the kernel made for it (what a page's
    developer tools can address, shown or not)."""
    before = set(_widget_table())
    page = build()
    return page, [w for k, w in _widget_table().items() if k not in before]


def _widget_table() -> dict[str, widgets.Widget]:
    """A copy of the kernel's widget table. A widget collected meanwhile (its ``__del__``
    closes it, from a garbage collection another thread's allocation set off) changes the
    table while it is copied ("dictionary changed size during iteration", seen once under
    load): copy again."""
    while True:
        try:
            return dict(_instances)
        except RuntimeError:
            continue


def _one(made: list[widgets.Widget], css: str, kind: type[widgets.Widget] = widgets.Widget,
         ) -> Any:
    found = [w for w in made if isinstance(w, kind) and css in getattr(w, "_dom_classes", ())]
    assert found, f"no .{css} among the page's widgets"
    return found[-1]


def _typed(made: list[widgets.Widget], css: str, text: str) -> None:
    """Type into the text box of the CheckedBox ``.css`` as the page's message would."""
    box = _one(made, css)
    box.control.set_state({"value": text})


def _errors(made: list[widgets.Widget]) -> str:
    return " | ".join(w.message for w in made if hasattr(w, "message")
                      and isinstance(getattr(w, "message", None), str) and w.message)


def _moves_by(db: Path, who: str) -> list[Any]:
    with open_store(db) as store:
        return [e for e in open_campaign(store, "Tuesday").log() if e.who == who
                and e.kind in ("move", "set", "remove", "undo")]


def test_a_player_s_crafted_messages_make_no_gm_move_at_the_monarchs_table(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secrets['Bryn']}")
    _, made = _made_by(lambda: campaign_page("dice_monarchs"))
    for name, chips in (("rebuy", "5000"), ("join", "5000"), ("leave", "")):
        _typed(made, "tc-name-seat-name", "Bryn" if name != "join" else "Bryn's twin")
        if chips:
            _typed(made, "tc-int-seat-chips", chips)
        _one(made, f"tc-btn-{name}", widgets.Button).click()
        assert "is the GM's move" in _errors(made), name
    _typed(made, "tc-name-players", "Bryn, Ash")
    _one(made, "tc-btn-new-table", widgets.Button).click()
    assert "new table in Dice Monarchs is the GM's move" in _errors(made)
    _one(made, "tc-odds-toggle", widgets.Checkbox).set_state({"value": False})
    _one(made, "tc-banker-toggle", widgets.Checkbox).set_state({"value": True})
    assert _moves_by(db, "Bryn") == []
    with open_store(db) as store:
        game = open_campaign(store, "Tuesday").tracker(MONARCHS, DiceMonarchsGame)
        assert game.stacks == [100, 100] and game.players == ["Ash", "Bryn"]
        assert (game.show_odds, game.banker_rolls) == (True, False)


def test_a_player_s_crafted_edit_of_their_own_numbers_waits_for_the_gm_s_trust(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secrets['Ash']}")
    app = TableApp(PageContext.from_query())
    assert isinstance(app, TableApp) and app.ready.wait(30)
    app._open("Tuesday")  # as the page does once its campaign list is in
    # The apps are built in the background (a player's fight brings in their character):
    # what they store is not this test's.
    assert app.warm.wait(120)
    before = len(_moves_by(db, "Ash"))
    form = app.forms["cairn_srd"]
    assert form["edit_row"].layout.display == "none"  # not offered: the GM's
    assert list(form["edit_pick"].options) == []
    for key, value in (("str", "18"), ("guard", "18"), ("armor", "3")):
        form["edit_boxes"][key].control.set_state({"value": value})
    form["save"].click()
    form["leave_pick"].set_state({"index": 0})
    form["leave"].click()
    form["leave"].click()  # the second tap of the confirm button
    assert "only the GM may remove" in app.error.message
    app.seats.trust_button.click()  # built for every page, shown to the GM alone
    assert "only the campaign's GM" in app.seats.error.message
    assert len(_moves_by(db, "Ash")) == before
    with open_store(db) as store:
        open_campaign(store, "Tuesday", who="Mira", role="gm").set_trust(own_numbers=True)
    assert campaign_of(app.session) is not None
    campaign_of(app.session).refresh()
    app._sync_edit_options()
    assert form["edit_row"].layout.display == ""
    assert [k for _, k in form["edit_pick"].options] == ["ash"]  # Ash's own only
    form["edit_boxes"]["armor"].control.set_state({"value": "1"})
    form["save"].click()
    [event] = _moves_by(db, "Ash")[before:]
    assert (event.move, event.data.get("trusted")) == ("set_maxima", "own numbers")


def _player(db: Path, who: str, rulesets: list[str], member: Any) -> Campaign:
    with open_store(db) as store:
        gm = create_campaign(store, "Solo", rulesets, who="Mira", role="gm")
        gm.add(who, member)
    return open_campaign(open_store(db), "Solo", who=who, role="player")


def test_a_player_s_crafted_sheet_numbers_are_refused_in_m_and_m_and_5e(db: Path) -> None:
    mm = _player(db, "Ash", ["monsters_and_magic", "variant5e"], Adventurer.new("Ash"))
    sheet = mm.tracker("Ash", Adventurer)
    panel, made = _made_by(lambda: SheetMovesPanel(sheet))
    button = panel.buttons["set-numbers"]
    assert button.disabled  # not offered
    button.set_state({"disabled": False})  # a page can send any state
    _one(made, "tc-int-num-focus").control.set_state({"value": "5"})
    button.click()
    assert "only the GM may edit Ash's numbers" in _errors(made)
    mm_gm = open_campaign(open_store(db), "Solo", who="Mira", role="gm")
    mm_gm.add("Bryn", SpellPoints.new(class_level=3))
    with open_store(db) as store:
        make_seat(store, "Solo", "Bryn", "player")
    bryn = open_campaign(open_store(db), "Solo", who="Bryn", role="player")
    caster = SpellPointsApp(bryn.tracker("Bryn", SpellPoints))
    assert caster.level.disabled and caster.caster.disabled
    caster.level.set_state({"index": 19})  # level 20, sent as the dropdown's message
    assert "only the GM may edit Bryn's numbers" in caster.error.message
    assert bryn.tracker("Bryn", SpellPoints).class_level == 3
    assert [e for e in mm_gm.log() if e.who in ("Ash", "Bryn")] == []


def test_a_player_s_own_dice_are_not_offered_and_a_ticked_box_is_refused(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secrets['Ash']}")
    _, made = _made_by(lambda: campaign_page("cairn_character"))
    own = _one(made, "tc-rule-own", widgets.Checkbox)
    assert own.layout.display == "none"  # the GM has not trusted players' own dice
    own.set_state({"value": True})
    for box in made:
        if isinstance(box, FacesBox):
            box.control.set_state({"value": "1"})
    _one(made, "tc-btn-sheet-save", widgets.Button).click()
    assert "not let players enter their own dice" in _errors(made)
    assert _moves_by(db, "Ash") == []
    with open_store(db) as store:
        open_campaign(store, "Tuesday", who="Mira", role="gm").set_trust(own_dice=True)
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        assert ash.may_use_own_dice() is None


def test_a_hub_login_plays_its_character_by_the_one_name_rule_until_revoked(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub seats ``ash`` (the GM typed "Ash"): Ash's own moves are Ash's, and the
    seat, found by name, is read again in every write like a secret's."""
    _campaign(db)
    with open_store(db) as store:
        make_seat(store, "Tuesday", "ash", "player")  # the GM seats the hub's login name
    monkeypatch.setenv("JUPYTERHUB_USER", "ash")
    monkeypatch.setenv("QUERY_STRING", "campaign=Tuesday")
    from companion.widgets.table.binding import page_session

    campaign = campaign_of(page_session())
    # The seat keeps the spelling it was made with (issue 49: renewing "ash" no longer
    # renames Ash's seat); the hub's login finds it by the one name rule.
    assert campaign is not None and (campaign.who, campaign.role) == ("Ash", "player")
    assert campaign.seat_key is not None and campaign.seat_key.secret_hash == ""
    sheet = campaign.tracker("Ash", Character)
    sheet.add_fatigue()
    with open_store(db) as store:
        from companion.store.seats import revoke_seat

        revoke_seat(store, "Tuesday", "ASH")
    with pytest.raises(CompanionError, match="revoked or renewed"):
        sheet.add_fatigue()
    assert [e.move for e in _moves_by(db, "Ash")] == ["add_fatigue"]
    assert campaign.role == "spectator"  # the page watches from now on
