"""Issue 28 (the LEFT list), in-process on the pages the notebooks build: the Dice Monarchs
table seated with the GM's typed seed, and the hidden-dice games' Undo, each through the
table session (no widget calls a tracker's ``new_table`` or ``undo_as`` itself).

- The GM's page: the seed typed seats the table with it; the log marks it as the GM's.
- A player's page, driven as their developer tools can (a hidden setup's boxes typed, a
  hidden button clicked): a table seed and an undo of their own bet are refused in one
  line, nothing stored.
- The hot seat (no campaign): Undo is everyone's agreed second tap, the GM's undo; a move
  that revealed dice or picks stays (its Undo says why; a crafted click is refused).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import create_campaign, open_campaign, open_store
from companion.store.seats import make_seat
from companion.table import Session
from companion.widgets.miasma.dice_monarchs import DiceMonarchsApp
from companion.widgets.table import campaign_page
from companion.widgets.table.apps import MONARCHS
from tests.conftest import session_of
from tests.widgets.app_page import AppPage, Scope, text_of, walk
from tests.widgets.test_dice_monarchs_page import log_count, revealed_community, start_table

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "seeded.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def _campaign(db: Path) -> dict[str, str]:
    """Tuesday: a Monarchs table (the GM's seed 11) dealt, Bryn's opening bet made."""
    with open_store(db) as store:
        gm = session_of(create_campaign(store, "Tuesday", ["miasma"], who="Mira", role="gm"))
        gm.add(MONARCHS, DiceMonarchsGame(), role="minigame")
        gm.act_seeded(MONARCHS, "new_table", 11, ["Ash", "Bryn"], 100)
        gm.act(MONARCHS, "deal")
        secrets = {who: make_seat(store, "Tuesday", who, role)
                   for who, role in (("Mira", "gm"), ("Ash", "player"), ("Bryn", "player"))}
        bryn = Session.by_secret(store, "Tuesday", secrets["Bryn"])
        game = bryn.tracker(MONARCHS, DiceMonarchsGame)
        assert game.player_to_act == "Bryn"  # left of the banker Ash: she opens
        bryn.act(MONARCHS, "bet", "Bryn", 5)
        return secrets


def _page(monkeypatch: pytest.MonkeyPatch, secret: str) -> Scope:
    monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secret}")
    return Scope(campaign_page("dice_monarchs"))


def _stored(db: Path) -> tuple[int, DiceMonarchsGame, list[Any]]:
    with open_store(db) as store:
        campaign = open_campaign(store, "Tuesday")
        return (campaign.head, campaign.tracker(MONARCHS, DiceMonarchsGame),
                [e for e in campaign.log() if e.move == "new_table"])


def test_the_gm_s_typed_seed_seats_the_table_marked_as_the_gm_s(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    page = _page(monkeypatch, secrets["Mira"])
    page.fill("players", "Ash, Bryn")
    page.fill("seed", "4242")
    page.button("new-table").click()  # the setup is folded away mid-hand: a click
    assert page.alerts() == []
    _, game, seated = _stored(db)
    assert game.seed == 4242 and game.hand_no == 1  # the new table, dealt
    assert [e.data.get("seed_chosen_by") for e in seated] == ["Mira", "Mira"]
    assert page.box("seed").text == ""  # the seed decides every die: not left on screen


def test_a_player_s_crafted_table_seed_and_undo_are_refused(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secrets = _campaign(db)
    head, before, _ = _stored(db)
    page = _page(monkeypatch, secrets["Bryn"])
    assert not page.visible(page.button("undo"))  # not offered to a player
    # Her developer tools: the GM's setup boxes (not on her page) typed, the hidden
    # buttons clicked.
    (app,) = [w for w in walk(page.root) if isinstance(w, DiceMonarchsApp)]
    app.players_box.text = "Bryn, Ash"
    app.seed_box.text = "99"
    app.new_button.click()
    assert any("new table in Dice Monarchs is the GM's move" in a for a in page.alerts())
    page.button("undo").click()  # her own bet, the newest move: still the GM's to undo
    assert any("only the GM can undo" in a for a in page.alerts())
    after_head, game, _ = _stored(db)
    assert after_head == head and game.seed == before.seed == 11
    assert game.current_bet == 5  # the bet stands


def test_the_hot_seat_undoes_once_all_agree_and_keeps_a_reveal() -> None:
    page = AppPage("dice_monarchs")
    start_table(page, "Ann, Bo", "11")
    page.tap("reveal")
    page.box("amount").text = "3"
    page.tap("bet")
    assert log_count(page) == 3
    page.tap("undo")
    assert log_count(page) == 3  # the first tap asks: does everyone agree?
    page.tap("undo")
    assert log_count(page) == 2 and page.alerts() == []
    page.tap("reveal")
    page.box("amount").text = "3"
    page.tap("bet")
    page.tap("reveal")
    page.tap("call")  # the round ends: the flop is shown
    assert revealed_community(page) == 3 and log_count(page) == 4
    undo = page.button("undo")
    assert undo.disabled and "revealed dice" in undo.tooltip
    undo.click()
    undo.click()  # a crafted click on the disabled button, agreed
    assert any("revealed dice" in a for a in page.alerts())
    assert revealed_community(page) == 3 and log_count(page) == 4


def test_the_duel_s_hot_seat_keeps_a_reveal() -> None:
    page = AppPage("duel")
    page.box("stakes").text = "first blood"
    page.tap("start")
    page.tap("choose-0-flourish")
    page.tap("undo")
    page.tap("undo")  # both agree: a pick not yet revealed is taken back
    assert "Undone" in text_of(page.html()) and page.alerts() == []
    assert "chosen ✓ (hidden)" not in text_of(page.find("tc-choice-0"))
    page.tap("choose-0-flourish")
    page.tap("choose-1-defend")
    assert page.has("tc-duel", data_rounds="1")
    undo = page.button("undo")
    assert undo.disabled and "revealed both picks" in undo.tooltip
    undo.click()
    undo.click()
    assert any("revealed both picks" in a for a in page.alerts())
    assert page.has("tc-duel", data_rounds="1")
