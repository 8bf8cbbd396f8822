"""The hot-seat games inside a campaign (issue 31): a new Dice Monarchs table for Gail, Ash
and Briar was stuck on the GM's screen ("Waiting for Ash to act." and only Undo) wherever no
player had a screen of their own, and the duel showed the GM no choices: the serverless
apps (the device holder is the GM) could not play either. Now the GM's screen is the hot
seat for every player without a seat of their own, kept in the campaign; a seated player
moves only from their own screen, and the GM's screen never uncovers their secrets."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import create_campaign, open_campaign, open_store
from companion.store.seats import make_seat
from companion.widgets.cairn_srd import DuelApp
from companion.widgets.miasma import DiceMonarchsApp
from companion.widgets.miasma.common import dice_html
from companion.widgets.table.apps import DUEL, MONARCHS, spec
from tests.conftest import find_widget, session_of
from tests.miasma.test_miasma_monarchs_screens import page_text

PLAYERS = "Gail, Ash, Briar"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "table.db"
    with open_store(path) as store:
        create_campaign(store, "Tuesday", ["miasma", "cairn_srd"], who="Gail", role="gm")
    yield path


def screen(db: Path, who: str = "Gail", role: str = "gm") -> DiceMonarchsApp:
    """The app as a page builds it (its own kernel, its own campaign object)."""
    app = spec("dice_monarchs").build(session_of(open_campaign(open_store(db), "Tuesday", who=who,
                                                    role=role)))
    assert isinstance(app, DiceMonarchsApp)
    return app


def gm_screen(db: Path) -> DiceMonarchsApp:
    return screen(db)


def click(app: DiceMonarchsApp | DuelApp, name: str) -> None:
    find_widget(app, name, "btn").click()
    assert app.error.message == "", app.error.message


def new_table(app: DiceMonarchsApp) -> DiceMonarchsGame:
    app.players_box.value = PLAYERS
    app.chips_box.value = "30"
    click(app, "new-table")
    return app.game


def others_dice(game: DiceMonarchsGame, text: str, but: str = "") -> list[str]:
    return [p for p in game.players
            if p != but and game.hole_dice(p) and dice_html(game.hole_dice(p)) in text]


def test_one_device_plays_the_campaign_s_table_hot_seat_and_keeps_it(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")  # the serverless apps: one device
    app = gm_screen(db)
    game = new_table(app)
    first = game.player_to_act
    assert first is not None
    # Not "Waiting for Ash to act." with only Undo: the device is passed to the player.
    assert "Waiting for" not in app.cover.value
    assert f"Pass the device to <b>{first}</b>" in app.cover.value
    assert app.reveal_button.layout.display is None
    assert others_dice(game, page_text(app)) == []  # the cover hides every hole die
    click(app, "reveal")
    assert dice_html(game.hole_dice(first)) in app.private.value
    assert others_dice(game, page_text(app), but=first) == []
    app.amount.value = "3"
    click(app, "bet")
    assert game.pot == 3
    second = game.player_to_act
    assert second is not None and second != first
    assert app.private.value == "" and f"Pass the device to <b>{second}</b>" in app.cover.value
    click(app, "reveal")
    click(app, "call")
    # Kept in the campaign: the page opened again (a reload) resumes the hand, covered.
    again = gm_screen(db)
    assert again.game is not game
    assert again.game.pot == 6 and again.game.player_to_act == game.player_to_act
    assert again.private.value == "" and "Pass the device to" in again.cover.value
    with open_store(db) as store:
        kept = open_campaign(store, "Tuesday").tracker(MONARCHS, DiceMonarchsGame)
        assert kept.pot == 6 and [e.move for e in kept.log][-2:] == ["bet", "call"]


def test_a_seated_player_bets_on_their_own_screen_and_the_gm_cannot_uncover_them(
        db: Path) -> None:
    with open_store(db) as store:
        make_seat(store, "Tuesday", "Ash", "player")
    gm_campaign = open_campaign(open_store(db), "Tuesday", who="Gail", role="gm")
    gm = spec("dice_monarchs").build(session_of(gm_campaign))
    assert isinstance(gm, DiceMonarchsApp)
    game = new_table(gm)
    assert game.player_to_act == "Ash"
    # Ash has a screen: the GM's says where the turn is, and never shows Ash's dice.
    assert "Waiting for <b>Ash</b> to act on their own screen" in gm.cover.value
    assert gm.reveal_button.layout.display == "none"
    find_widget(gm, "reveal", "btn").click()  # a crafted click on the hidden button
    assert "Ash bets from their own screen" in gm.error.message
    assert others_dice(game, page_text(gm)) == []
    find_widget(gm, "check", "btn").click()
    assert "Ash bets from their own screen" in gm.error.message and game.log[-1].move == "deal"
    # Ash's own page: their dice, their buttons; the move reaches the GM's screen.
    ash = screen(db, "Ash", "player")
    assert dice_html(ash.game.hole_dice("Ash")) in ash.private.value
    ash.amount.value = "2"
    click(ash, "bet")
    assert gm_campaign.refresh()  # the page's live sync
    assert gm.game.pot == 2 and gm.game.player_to_act == "Briar"
    # Briar has no seat: the GM's screen is Briar's hot seat, Ash's dice still covered.
    assert "Pass the device to <b>Briar</b>" in gm.cover.value
    click(gm, "reveal")
    assert dice_html(game.hole_dice("Briar")) in gm.private.value
    assert others_dice(game, page_text(gm), but="Briar") == []
    click(gm, "call")
    assert game.pot == 4
    # Ash's screen cannot take Briar's turn, nor the GM's screen Ash's next one.
    find_widget(ash, "check", "btn").click()
    assert "turn" in ash.error.message


def duel_screen(db: Path, who: str = "Gail", role: str = "gm") -> DuelApp:
    app = spec("duel").build(session_of(open_campaign(open_store(db), "Tuesday", who=who,
                                                          role=role)))
    assert isinstance(app, DuelApp)
    return app


def choice_buttons(app: DuelApp, side: int) -> list[str]:
    return [b.description for b in app.choice_rows[side].children[1:]
            if b.layout.display != "none" and not b.disabled]


def test_the_duel_is_played_on_the_gm_s_device_and_kept(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "emscripten")  # the serverless apps: one device
    app = duel_screen(db)
    app.name_boxes[0].value, app.name_boxes[1].value = "Ash", "Briar"
    # 18 hit points outlast any one exchange (a d8 at most): the duel goes on, whatever
    # the unseeded dice.
    app.hp_boxes[0].value = app.hp_boxes[1].value = "18"
    app.stakes.value = "the bridge"
    click(app, "start")
    assert app.duel.hit_points == [18, 18]
    # Both rows of choices on the GM's device (the duelists take it in turn).
    assert choice_buttons(app, 0) == choice_buttons(app, 1) == ["Attack", "Defend",
                                                                  "Flourish"]
    app.controls.own.value = False
    click(app, "choose-0-attack")
    assert "attack" not in app.board.value and "chosen ✓ (hidden)" in (
        app.choice_rows[0].children[0].value)
    click(app, "choose-1-defend")
    assert app.duel.rounds == 1
    again = duel_screen(db)  # the page opened again: the duel goes on where it was
    assert again.duel is not app.duel and again.duel.rounds == 1
    assert again.duel.names == ["Ash", "Briar"] and choice_buttons(again, 0)
    with open_store(db) as store:
        assert open_campaign(store, "Tuesday").tracker(DUEL, Duel).rounds == 1


def test_a_seated_duelist_chooses_only_on_their_own_screen(db: Path) -> None:
    with open_store(db) as store:
        make_seat(store, "Tuesday", "Ash", "player")
    gm = duel_screen(db)
    gm.name_boxes[0].value, gm.name_boxes[1].value = "Ash", "Briar"
    gm.stakes.value = "the bridge"
    click(gm, "start")
    assert choice_buttons(gm, 0) == [] and len(choice_buttons(gm, 1)) == 3
    find_widget(gm, "choose-0-attack", "btn").click()  # crafted: Ash has a screen
    assert "own screen" in gm.error.message and gm.duel.waiting() == ["Ash", "Briar"]
