"""Dice Monarchs as poker players expect: side pots, seats between hands, a rebuy, the
odds option, an undo that reveals nothing, and per-player views and saves."""

from __future__ import annotations

import json

import pytest

from companion.dice.physical import EnteredDice
from companion.errors import RuleError
from companion.fairplay import commitment
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.miasma.dice_monarchs.game import Pot

PER = [4, 6, 8, 10, 12]  # the community shows Perfect Even River: the highest hole wins


def rigged(stacks: list[int], holes: list[list[int]]) -> DiceMonarchsGame:
    names = ["Ann", "Bo", "Cy", "Di"][: len(stacks)]
    game = DiceMonarchsGame.start(names, chips=10, seed=4)
    game.stacks = list(stacks)
    game.deal()
    game.hole = [list(h) for h in holes]
    faces = list(PER)

    def rng(stage: str) -> EnteredDice:
        # The banker's dice stand in for the table seed: the community rolls these faces.
        take = {"opening": 3, "round_one": 1, "round_two": 1}[stage]
        return EnteredDice([faces.pop(0) for _ in range(take)])

    game._rng = rng  # type: ignore[method-assign]
    return game


def test_three_all_ins_at_different_stacks_make_a_main_pot_and_two_side_pots() -> None:
    # Worked by hand. Stakes: Bo 10, Cy 30, Di 60, Ann 100 (all in).
    # Main pot 4 x 10 = 40 (everyone); side pot 1: 3 x 20 = 60 (Ann, Cy, Di);
    # side pot 2: 2 x 30 = 60 (Ann, Di); Ann's last 40 nobody matched: returned.
    # Hands: all play the community's Perfect Even River; the highest hole number
    # decides: Bo 12 > Cy 11 > Di 10 > Ann 9.
    game = rigged([100, 10, 30, 60], [[1, 1, 1, 1, 9], [1, 1, 1, 1, 12],
                                      [1, 1, 1, 1, 11], [1, 1, 1, 1, 10]])
    assert game.player_to_act == "Bo"
    game.bet("Bo", 10)
    assert game.all_in("Bo") and game.player_to_act == "Cy"
    game.raise_bet("Cy", 20)
    game.raise_bet("Di", 30)
    # So far (Ann has put in nothing yet): 3 x 10, 2 x 20, 1 x 30.
    assert game.pots() == [Pot(30, (1, 2, 3)), Pot(40, (2, 3)), Pot(30, (3,))]
    game.raise_bet("Ann", 40)
    # Nobody has chips left: the banker rolls out every community die, then the showdown.
    assert game.community == PER and game.phase == "hand_over"
    assert game.stacks == [40, 40, 60, 60]
    assert game.announcements[-4:] == [
        "Bo wins the main pot of 40 (equal hands, the highest hole number decides (rule 9):"
        " Ann 9, 1, 1, 1, 1; Bo 12, 1, 1, 1, 1; Cy 11, 1, 1, 1, 1; Di 10, 1, 1, 1, 1)",
        "Cy wins side pot 1 of 60 (equal hands, the highest hole number decides (rule 9):"
        " Ann 9, 1, 1, 1, 1; Cy 11, 1, 1, 1, 1; Di 10, 1, 1, 1, 1)",
        "Di wins side pot 2 of 60 (equal hands, the highest hole number decides (rule 9):"
        " Ann 9, 1, 1, 1, 1; Di 10, 1, 1, 1, 1)",
        "Ann takes back 40 unmatched chips",
    ]
    assert game.winners == ["Bo", "Cy", "Di", "Ann"]


def test_betting_goes_on_beside_an_all_in_player_and_a_binned_stake_stays_in_the_pot() -> None:
    # Worked by hand. Ann 50, Bo 20, Cy 35, Di 40. Bo bets 20 (all in); Cy calls 20;
    # Di calls 20; Ann raises by 15 to 35; Cy calls 15 (all in); Di bins (20 stays).
    # Ann is the only one with chips left: the dice roll out.
    # Main pot: 20 x 4 = 80 (Ann, Bo, Cy); side pot: 15 x 2 = 30 (Ann, Cy).
    # Hands: Cy 12 > Ann 11 > Bo 10: Cy takes both pots, 110.
    game = rigged([50, 20, 35, 40], [[1, 1, 1, 1, 11], [1, 1, 1, 1, 10],
                                     [1, 1, 1, 1, 12], [1, 1, 1, 1, 2]])
    game.bet("Bo", 20)
    game.call("Cy")
    game.call("Di")
    game.raise_bet("Ann", 15)
    assert game.player_to_act == "Cy"  # Bo, all in, is skipped
    game.call("Cy")
    assert game.player_to_act == "Di"
    game.bin("Di")
    assert game.phase == "hand_over" and game.community == PER
    assert game.stacks == [15, 0, 110, 20]
    assert game.announcements[-1].startswith("Cy wins side pot 1 of 30")
    assert game.announcements[-2].startswith("Cy wins the main pot of 80")


def test_a_short_stack_still_splits_its_pot_with_odd_chips_clockwise() -> None:
    # Ann 10 and Cy 10 tie (same hole dice), Bo 3 all in with the weakest hand.
    # Main pot 3 x 3 = 9 (all three): Ann and Cy split it; the odd chip goes to the first
    # of them clockwise from the banker Ann (Bo, Cy, Ann): Cy 5, Ann 4.
    # Side pot 2 x 7 = 14 (Ann, Cy): 7 each.
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=10, seed=4)
    game.stacks = [10, 3, 10]
    game.deal()
    game.hole = [[1, 1, 1, 1, 12], [1, 1, 1, 1, 1], [1, 1, 1, 1, 12]]
    faces = list(PER)
    game._rng = lambda stage: EnteredDice(  # type: ignore[method-assign]
        [faces.pop(0) for _ in range({"opening": 3}.get(stage, 1))])
    game.bet("Bo", 3)
    game.raise_bet("Cy", 7)
    game.call("Ann")
    assert game.phase == "hand_over"
    assert game.stacks == [4 + 7, 0, 5 + 7]


def test_players_join_leave_and_rebuy_between_hands() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=10, seed=2)
    game.deal()
    with pytest.raises(RuleError, match="only between hands"):
        game.join("Di", 10)
    with pytest.raises(RuleError, match="only between hands"):
        game.rebuy("Ann", 5)
    game.bet("Bo", 1)
    game.bin("Cy")
    game.bin("Ann")
    assert game.phase == "hand_over" and game.stacks == [10, 10, 10]
    game.join("Di", 25)
    assert game.players == ["Ann", "Bo", "Cy", "Di"] and game.stacks[-1] == 25
    game.leave("Ann")  # the banker leaves: the bank passes on to Bo at the next deal
    assert game.players == ["Bo", "Cy", "Di"] and game.log[-1].summary == (
        "Ann leaves the table with 10 chips")
    game.deal()
    assert game.banker == 0 and game.player_to_act == "Cy" and game.in_play == [True] * 3
    game.bet("Cy", 9)
    game.bin("Di")
    game.bin("Bo")
    assert game.stacks == [10, 10, 25] and game.winners == ["Cy"]
    with pytest.raises(RuleError, match="at least 2"):
        DiceMonarchsGame.start(["A", "B"]).leave("A")
    with pytest.raises(RuleError, match="same name"):
        game.join("Cy", 5)


def test_a_busted_table_plays_on_after_a_rebuy() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo"], chips=1, seed=1)
    game.deal()
    game.bet("Bo", 1)
    game.call("Ann")
    assert game.phase == "game_over"
    loser = next(p for p in game.players if game.stacks[game.seat(p)] == 0)
    game.rebuy(loser, 5)
    assert game.phase == "hand_over" and game.stacks[game.seat(loser)] == 5
    game.deal()
    assert all(game.in_play)


def test_the_odds_readout_is_a_table_option() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo"])
    assert game.show_odds
    game.set_show_odds(False)
    assert not game.show_odds and not game.view_for("Ann")["show_odds"]
    copy = DiceMonarchsGame.from_json(game.to_json())
    assert not copy.show_odds


def test_undo_is_the_gms_and_never_takes_back_a_reveal() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=3)
    game.deal()
    game.bet("Bo", 2)
    game.call("Cy")
    with pytest.raises(RuleError, match="only the GM can undo"):
        game.undo_as("player")
    game.undo_as("gm")
    assert game.player_to_act == "Cy"
    game.call("Cy")
    game.bin("Ann")  # the flop comes out
    assert len(game.community) == 3
    with pytest.raises(RuleError, match="revealed dice"):
        game.undo_as("gm")
    # After a showdown the hole dice were seen: that stays too.
    for _ in range(3):
        game.check(game.player_to_act or "")
        game.check(game.player_to_act or "")
    assert game.phase == "hand_over"
    with pytest.raises(RuleError, match="revealed dice"):
        game.undo_as("gm")


def test_a_players_view_and_save_hold_only_what_they_may_know() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=987654321)
    game.deal()
    view = game.view_for("Bo")
    assert view["hole"][1] == game.hole[1]
    assert view["hole"][0] == [] and view["hole"][2] == []
    assert "seed" not in view and "987654321" not in json.dumps(view)
    table = game.view_for(None)
    assert table["hole"] == [[], [], []] and table["dealt"] == [True] * 3
    save = game.public_save("Bo")
    text = json.dumps(save)
    assert "987654321" not in text and "before" not in text
    # Other hole dice are there only as commitments, which check against the GM's save.
    for seat in (0, 2):
        hole = game.hole[seat]
        assert save["view"]["commitments"][game.players[seat]] == commitment(
            "hole", None, hole, sum(hole), game._nonce(seat))
    assert "Bo" not in save["view"]["commitments"]
    # The showdown shows the hands of those still in, not the binned one's.
    game.bet("Bo", 1)
    game.bin("Cy")
    game.call("Ann")
    for _ in range(3):
        game.check(game.player_to_act or "")
        game.check(game.player_to_act or "")
    shown = game.view_for(None)["hole"]
    assert shown[0] == game.hole[0] and shown[1] == game.hole[1] and shown[2] == []


def test_a_table_saved_before_side_pots_still_loads() -> None:
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=3)
    game.deal()
    game.bet("Bo", 2)
    game.call("Cy")
    game.call("Ann")  # the flop: 6 chips in the pot from the opening round
    game.bet(game.player_to_act or "", 1)
    old = json.loads(game.to_json())
    for snapshot in [old["state"], *(e["before"] for e in old["log"])]:
        del snapshot["contributed"], snapshot["show_odds"]
    loaded = DiceMonarchsGame.from_json(json.dumps(old))
    assert loaded.show_odds and loaded.pot == 7
    assert loaded.contributed == game.contributed  # everyone still in had matched
    assert loaded.to_json() == game.to_json()
