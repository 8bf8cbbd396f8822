"""Roll modes and own dice in the old 5e apps (issue 13), on a real campaign (SQLite file):
a GM-only roll is logged as its commitment and a player's log lacks it, entered dice give
the rule's result, an impossible entry is refused under the box and changes nothing."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import fairplay
from companion.rulesets.variant5e.contests import Combatant, Size
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.maneuvers import maneuver
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.widgets.variant5e import CombatOptionsApp, DeathAndReturningApp
from tests.conftest import find_widget, session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "table.db")) as opened:
        create_campaign(opened, "Tuesday", ["variant5e", "miasma"], who="Mira", role="gm")
        yield opened


def rolls(campaign: Campaign) -> list[dict[str, object]]:
    return [e.data for e in campaign.log(["roll"])]


def player_view(store: Store) -> str:
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    return json.dumps([e.to_dict() for e in player.visible_to("Ash", "player", ["roll"])])


def test_a_gm_only_death_save_is_a_commitment_a_player_cannot_read(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    record = gm.add("Bran", DeathRecord())
    record.drop_to_zero()
    app = DeathAndReturningApp(record, session=session_of(gm), seed_source=lambda: 7)
    assert [v for _, v in app.controls.mode.options] == ["public", "gm"]
    app.controls.mode.value = "gm"
    find_widget(app, "save").click()
    assert app.error.message == ""
    (entry,) = rolls(gm)
    assert entry["mode"] == "gm" and isinstance(entry["commitment"], str)
    secret = entry["secret"]
    assert isinstance(secret, dict) and secret["seed"] == 7
    twin = DeathRecord()
    twin.drop_to_zero()
    face = twin.roll_death_save(seed=7)
    # The record's own line for the move (the face and what it did), as the log holds it.
    assert secret["text"] == twin.log[-1].summary == f"death save {face}: failure (1/3)"
    assert f'data-face="{face}"' in app.save_roll.value  # the GM sees it
    assert record.log[-1].move == "roll_death_save" and record.log[-1].args == {}
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    moves = json.dumps([e.to_dict() for e in player.visible_to("Ash", "player", ["move"])])
    assert "roll_death_save" in moves and '"roll": ' not in moves and '"seed": 7' not in moves
    assert '"seed": 7' in json.dumps([e.to_dict() for e in gm.log()])  # the GM's secret
    seen = player_view(store)
    assert entry["commitment"] in seen  # the commitment is public at once ...
    for hidden in (secret["nonce"], secret["text"], "secret"):
        assert str(hidden) not in seen  # ... the roll is not
    # Revealed, anyone can check it against the commitment.
    (event,) = gm.log(["roll"])
    gm.reveal(event.seq)
    log = [e.to_dict() for e in gm.visible_to("Ash", "player")]
    fairplay.verify_entry(log, event.seq)  # holds
    for e in log:
        if e["kind"] == "reveal":
            e["data"] = json.loads(json.dumps(e["data"]).replace(
                f"death save {face}:", f"death save {face % 20 + 1}:"))
    with pytest.raises(fairplay.FairPlayError, match=str(event.seq)):
        fairplay.verify_entry(log, event.seq)


def test_a_players_blind_death_save_shows_them_only_the_commitment(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    gm.add("Ash", DeathRecord())
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    record = player.tracker("Ash", DeathRecord)
    record.drop_to_zero()
    app = DeathAndReturningApp(record, session=session_of(player), seed_source=lambda: 3)
    app.controls.mode.value = "blind"
    find_widget(app, "save").click()
    assert app.error.message == ""
    assert 'data-face="hidden"' in app.save_roll.value and "Hidden roll" in app.save_roll.value
    (entry,) = rolls(gm)
    assert entry["mode"] == "blind"
    assert str(entry["secret"]["nonce"]) not in player_view(store)  # type: ignore[index]


def test_own_dice_in_a_campaign_are_logged_as_a_physical_roll(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    record = gm.add("Bran", DeathRecord())
    record.drop_to_zero()
    app = DeathAndReturningApp(record, session=session_of(gm))
    app.controls.own.value = True
    app.controls.faces.control.value = "21"
    find_widget(app, "save").click()
    assert app.controls.faces.refusal.message == "die 1: a d20 shows 1 to 20, not 21"
    assert rolls(gm) == [] and record.failures == 0  # refused: nothing logged, nothing moved
    app.controls.faces.control.value = "20"
    find_widget(app, "save").click()
    (entry,) = rolls(gm)
    assert entry["physical"] is True and entry["faces"] == [20]
    assert record.condition == "alive"  # a natural 20 regains 1 hit point
    assert "own dice" in app.save_roll.value


def test_a_gm_only_return_attempt_and_an_entered_one(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    record = gm.add("Bran", DeathRecord())
    record.die()
    app = DeathAndReturningApp(record, session=session_of(gm), seed_source=lambda: 11)
    app.spell.value, app.modifier.value = "resurrection", 0
    app.controls.mode.value = "gm"
    find_widget(app, "return").click()
    twin = DeathRecord()
    twin.die()
    expected = twin.roll_return("resurrection", 0, seed=11)
    (entry,) = rolls(gm)
    assert entry["secret"]["text"] == str(expected)  # type: ignore[index]
    assert str(expected) not in player_view(store)
    assert f'data-outcome="{expected.outcome}"' in app.attempt.value


def test_contest_modes_and_own_dice(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    app = CombatOptionsApp(session=session_of(gm), seed_source=lambda: 42)
    app.first.athletics.value = 3
    app.controls.mode.value = "gm"
    find_widget(app, "roll").click()
    option = maneuver("grapple")
    contest = option.build(Combatant(option.initiator, Size.MEDIUM, 3, 0, 0),
                           Combatant(option.resister, Size.MEDIUM, 0, 0, 0), False)
    (entry,) = rolls(gm)
    assert entry["secret"]["text"] == str(contest.roll(seed=42))  # type: ignore[index]
    assert str(contest.roll(seed=42)) not in player_view(store)
    # Own dice: the grappler's d20, then the target's; the engine scores them.
    app.controls.mode.value = "public"
    app.controls.own.value = True
    assert app.controls.faces.description == "Faces (d20, then d20)"
    app.controls.faces.control.value = "12 15"
    find_widget(app, "roll").click()
    assert "grappler 15 vs target 15: target wins (tie: status quo)" in app.contest_result.value
    app.controls.faces.control.value = "12 0"
    find_widget(app, "roll").click()
    assert app.controls.faces.refusal.message == "die 2: a d20 shows 1 to 20, not 0"
    assert len(rolls(gm)) == 2
    app.first.edge.value = "advantage"  # the grappler rolls two d20s now
    assert app.controls.faces.description == "Faces (d20, d20, then d20)"
    app.controls.faces.control.value = "3 18 2"
    find_widget(app, "roll").click()
    assert "grappler 21 vs target 2: grappler wins" in app.contest_result.value
