"""Roll modes and own dice in the Miasma apps (issue 13), on a real campaign (SQLite
file): a GM-only earthmote is logged as its commitment and a player's log lacks it,
entered dice give the rule's result, an impossible entry is refused under the box and
changes nothing; the Dice Monarchs banker enters the community dice rolled at the table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.rulesets.miasma import earthmotes as E
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.widgets.miasma import DiceMonarchsApp, EarthmotesApp
from tests.conftest import find_widget, session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "table.db")) as opened:
        create_campaign(opened, "Tuesday", ["miasma"], who="Mira", role="gm")
        yield opened


def rolls(campaign: Campaign) -> list[dict[str, object]]:
    return [e.data for e in campaign.log(["roll"])]


def player_view(store: Store) -> str:
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    return json.dumps([e.to_dict() for e in player.visible_to("Ash", "player", ["roll"])])


def test_a_gm_only_earthmote_is_a_commitment_a_player_cannot_read(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    log = gm.add("Earthmotes", E.EarthmoteLog.start(seed=1), role="minigame")
    app = EarthmotesApp(log, session=session_of(gm), seed_source=lambda: 77)
    app.controls.mode.value = "gm"
    find_widget(app, "generate").click()
    assert app.error.message == ""
    expected = E.generate_earthmote(seed=77)
    (made,) = log.earthmotes
    assert made.describe() == expected.describe() and made.rolls() == expected.rolls()
    assert made.seed is None  # a hidden roll's seed stays in the roll log's secret
    (entry,) = rolls(gm)
    secret = entry["secret"]
    assert isinstance(secret, dict) and secret["seed"] == 77
    # The log holds the list's own line for the move (its number, then the earthmote).
    assert secret["text"] == f"#1: {expected.describe()}"
    seen = player_view(store)
    assert str(entry["commitment"]) in seen and str(secret["nonce"]) not in seen
    assert expected.describe() not in seen
    assert 'data-n="1"' in app.outcome.value and "seed 77" in app.outcome.value  # the GM's
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    shared = json.dumps([e.to_dict() for e in player.visible_to("Ash", "player")])
    assert '"seed": 77' not in shared  # neither in the roll log nor in the list's moves
    assert '"seed": 77' in json.dumps([e.to_dict() for e in gm.log()])  # the GM's secret


def test_a_gm_only_new_region_keeps_its_seed_secret(store: Store) -> None:
    """A hidden new region is a commitment like a hidden earthmote: its seed (which rolls
    the region again from the earthmote it left) is neither on the shared list nor in
    the player's log; a public region shows its own seed, never the earthmote's."""
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    log = gm.add("Earthmotes", E.EarthmoteLog.start(seed=1), role="minigame")
    seeds = iter([61, 88, 93])
    app = EarthmotesApp(log, session=session_of(gm), seed_source=lambda: next(seeds))
    find_widget(app, "generate").click()  # public: seed 61
    app.controls.mode.value = "gm"
    find_widget(app, "region-1").click()  # GM only: seed 88
    assert app.error.message == ""
    first, hidden = log.earthmotes
    rolled = E.change_region(first, 0, seed=88)
    assert hidden.seed is None and hidden.rolls() == rolled.rolls()
    assert hidden.describe() == rolled.describe()
    assert "seed 88" in app.outcome.value  # the GM sees it
    assert "seed 88" not in app.listing.value and "seed not kept" in app.listing.value
    player = open_campaign(store, "Tuesday", who="Ash", role="player")
    shared = json.dumps([e.to_dict() for e in player.visible_to("Ash", "player")])
    assert '"seed": 88' not in shared and hidden.describe() not in shared
    assert '"seed": 88' in json.dumps([e.to_dict() for e in gm.log()])  # the GM's secret
    app.controls.mode.value = "public"
    app.same_size.value = True
    find_widget(app, "region-both").click()  # public, the size kept: seed 93
    region = log.earthmotes[-1]
    assert region == E.change_region(first, None, new_size=False, seed=93)
    assert region.seed == 93 and "seed 93" in app.listing.value


def test_an_earthmote_from_real_dice_and_an_impossible_one(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    log = gm.add("Earthmotes", E.EarthmoteLog.start(seed=1), role="minigame")
    app = EarthmotesApp(log, session=session_of(gm))
    app.controls.own.value = True
    app.controls.faces.control.value = "3 11 13"  # a d12 cannot show 13
    find_widget(app, "generate").click()
    assert app.controls.faces.refusal.message == "die 3: a d12 shows 1 to 12, not 13"
    assert log.earthmotes == [] and rolls(gm) == []
    app.controls.faces.control.value = "3 11 4 1"  # d6 3; 11 (a settlement) re-rolled: 1; 4
    find_widget(app, "generate").click()
    (mote,) = log.earthmotes
    assert (mote.size_roll, mote.biome_roll, mote.seed) == (3, [1, 4], None)
    assert [f.face for f in mote.features] == [11]
    assert mote.size == E.size_table().row_for(3).values["Size"]
    assert mote.biome == E.biome_table().row_for((1, 4)).values["Biome"]
    (entry,) = rolls(gm)
    assert entry["physical"] is True and entry["faces"] == [3, 11, 4, 1]
    assert "seed not kept" in app.listing.value and "own dice" in app.outcome.value
    app.controls.faces.control.value = "2 5 7"  # a new region: d6 and one d12; 7 left over
    find_widget(app, "region-1").click()
    assert app.controls.faces.refusal.message == "3 dice entered, the roll used 2"
    assert len(log.earthmotes) == 1 and len(rolls(gm)) == 1
    app.controls.faces.control.value = "2 5"
    find_widget(app, "region-1").click()
    assert log.earthmotes[-1].biome_roll == [1, 5]  # die 1 (the 1) kept, the other rolled 5
    assert log.earthmotes[-1].size_roll == 2  # the region's size from the Size table
    app.same_size.value = True  # the same size: only the two re-rolled d12s
    app.controls.faces.control.value = "9 12 6"
    find_widget(app, "region-both").click()
    region = log.earthmotes[-1]
    assert (region.size_roll, region.biome_roll) == (3, [6, 9])
    assert [f.face for f in region.features] == [12]


def test_earthmotes_without_a_campaign_stay_public_and_replayable() -> None:
    app = EarthmotesApp(seed_source=lambda: 5)
    assert app.controls.mode.layout.display == "none"
    find_widget(app, "generate").click()
    assert app.model.earthmotes == [E.generate_earthmote(seed=5)]
    assert "seed 5" in app.listing.value
    app.controls.own.value = True
    app.controls.faces.control.value = "3 11 4"  # the 11 needs another d12
    find_widget(app, "generate").click()
    assert app.controls.faces.refusal.message == "this roll needs another d12: enter it"
    assert len(app.model.earthmotes) == 1


def _banker_table(campaign: Campaign | None = None) -> DiceMonarchsApp:
    if campaign is None:
        game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=3)
        app = DiceMonarchsApp(game)
    else:
        game = campaign.add("Dice Monarchs", DiceMonarchsGame.start(["Ann", "Bo", "Cy"],
                                                                     chips=20, seed=3),
                            role="minigame")
        app = DiceMonarchsApp(game, viewer=campaign.who, role=campaign.role,
                              session=session_of(campaign))
    app.banker_toggle.value = True
    assert game.banker_rolls and app.error.message == ""
    game.deal()
    game.bet("Bo", 1)
    game.call("Cy")
    game.call("Ann")
    return app


def test_the_banker_enters_the_flop_rolled_at_the_table(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    app = _banker_table(gm)
    game = app.game
    assert game.awaiting == "flop" and app.community_roll.layout.display is None
    assert app.community_button.description == "Roll the flop"
    assert app.community_controls.mode.layout.display == "none"  # public by nature
    app.community_controls.own.value = True
    app.community_controls.faces.control.value = "4 6 9"
    app.community_button.click()
    assert app.community_controls.faces.refusal.message == "die 3: a d8 shows 1 to 8, not 9"
    assert game.community == [] and rolls(gm) == []
    app.community_controls.faces.control.value = "4 6 8"
    app.community_button.click()
    assert game.community == [4, 6, 8] and game.phase == "round_one"
    (entry,) = rolls(gm)
    assert entry["mode"] == "public" and entry["physical"] is True
    assert entry["faces"] == [4, 6, 8] and entry["text"] == "the banker reveals the flop: 4, 6, 8"
    assert app.community_roll.layout.display == "none"


def test_a_players_screen_waits_for_the_banker(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    table = _banker_table(gm)
    player = open_campaign(store, "Tuesday", who="Bo", role="player")
    game = player.tracker("Dice Monarchs", DiceMonarchsGame)
    assert game.awaiting == "flop"
    screen = DiceMonarchsApp(game, viewer="Bo", role="player", session=session_of(player))
    assert "Waiting for the banker to roll the <b>flop</b>" in screen.community_roll.children[
        0].value
    assert screen.community_button.layout.display == "none"
    with pytest.raises(Exception, match="table screen"):
        screen._roll_community()
    assert table.game.awaiting == "flop"


def test_hot_seat_banker_rolls_from_the_table_seed_when_no_dice_are_typed() -> None:
    app = _banker_table()
    twin = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=3)
    twin.deal()
    twin.bet("Bo", 1)
    twin.call("Cy")
    twin.call("Ann")
    find_widget(app, "roll-community").click()
    assert app.game.community == twin.community and app.error.message == ""
    app.banker_toggle.value = False  # mid-hand: refused, the switch follows the table
    assert "only between hands" in app.error.message and app.banker_toggle.value is True


def test_in_a_campaign_the_table_seed_still_deals_and_reveals(store: Store) -> None:
    """The deal and a reveal without the banker's dice are the table seed's (the dice the
    table committed to), not a seed the campaign would draw and store for the move."""
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    app = _banker_table(gm)
    twin = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=3)
    twin.deal()
    twin.bet("Bo", 1)
    twin.call("Cy")
    twin.call("Ann")
    assert app.game.hole == twin.hole
    find_widget(app, "roll-community").click()  # no dice typed: the table seed rolls
    assert app.game.community == twin.community and rolls(gm) == []
    assert all(e.seed is None for e in gm.log(["move"]))


def test_public_earthmotes_follow_the_list_seed_and_hidden_ones_do_not(store: Store) -> None:
    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    log = gm.add("Earthmotes", E.EarthmoteLog.start(seed=9), role="minigame")
    app = EarthmotesApp(log, session=session_of(gm))
    expected = log.next_seed()
    find_widget(app, "generate").click()
    assert log.earthmotes[0].seed == expected  # as the command line makes it from seed 9
    app.controls.mode.value = "gm"
    predictable = log.next_seed()
    find_widget(app, "generate").click()
    secret = rolls(gm)[-1]["secret"]
    assert isinstance(secret, dict) and secret["seed"] != predictable
    assert log.earthmotes[1].seed is None
