"""What a saved 5e tracker may hold: each tracker's invariants refuse a corrupt load.

For every tracker: a save reached by real moves round-trips exactly, and the same save
corrupted in one place (one test per invariant) is refused with a StateError naming the
field, building nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import StateError
from companion.rulesets.variant5e.actions import Turn
from companion.rulesets.variant5e.activating_items import MagicItem
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.diagonal_moves import MovementCounter
from companion.rulesets.variant5e.facing_and_flanking import FacingTracker
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.mark import Reactions
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.state import Tracker


def played_death() -> DeathRecord:
    r = DeathRecord(permanent_death_failures=True)
    r.drop_to_zero()
    r.death_save(12)
    r.death_save(3)
    r.die()
    r.return_to_life("raise dead")
    r.drop_to_zero()  # carries 1 permanent failure
    return r


def played_turn() -> Turn:
    t = Turn()
    t.interact_with_object("a door")
    t.ready("the orc steps in", "hold person")
    return t


def played_item() -> MagicItem:
    item = MagicItem(name="wand", charges=7, max_charges=7)
    item.activate(2)
    return item


def played_counter() -> MovementCounter:
    c = MovementCounter(speed=30)
    for d in ("ne", "ne", "e"):
        c.step(d)
    return c


def played_facing() -> FacingTracker:
    f = FacingTracker(speed=30)
    f.turn_as_reaction("east", "goblin")
    f.keep_turning("south")
    f.opportunity_attack_while_tracking()
    return f


def played_hit_dice() -> HitDice:
    h = HitDice(level=4, max_hp=30, hp=30, hit_dice=4, healing_surges=True,
                healers_kit_dependency=True)
    h.take_damage(20)
    h.healing_surge()
    h.spend_hit_die(5)
    return h


def played_reactions() -> Reactions:
    r = Reactions()
    r.melee_attack("ogre")
    return r


def played_points() -> SpellPoints:
    p = SpellPoints.new(5)
    p.cast(3)
    return p


PLAYED: dict[str, Callable[[], Tracker]] = {
    "death": played_death, "turn": played_turn, "item": played_item,
    "counter": played_counter, "facing": played_facing, "hit dice": played_hit_dice,
    "reactions": played_reactions, "spell points": played_points,
}


@pytest.mark.parametrize("name", list(PLAYED))
def test_a_played_tracker_round_trips(name: str) -> None:
    tracker = PLAYED[name]()
    back = type(tracker).from_json(tracker.to_json())
    assert back == tracker and back.to_json() == tracker.to_json()
    assert back.log and back.log == tracker.log
    back.undo()  # the undo snapshots load too
    assert back != tracker


CORRUPTIONS: list[tuple[str, str, dict[str, Any], str]] = [
    # DeathRecord
    ("death", "alive with 3 successes and 3 failures",
     {"condition": "alive", "successes": 3, "failures": 3, "deaths": 1, "returns": 1},
     "successes"),
    ("death", "stable with a failure", {"condition": "stable", "successes": 0,
                                        "failures": 1}, "failures"),
    ("death", "dying with 3 successes", {"successes": 3}, "successes"),
    ("death", "dying with 3 failures", {"failures": 3}, "failures"),
    ("death", "dying below the permanent failures", {"failures": 0}, "permanent failures"),
    ("death", "more returns than deaths", {"returns": 3}, "returns"),
    ("death", "soul destroyed while dying", {"soul_destroyed": True}, "soul_destroyed"),
    ("death", "dead, destroyed and inhabited",
     {"condition": "dead", "deaths": 2, "successes": 0, "failures": 0,
      "soul_destroyed": True, "body_inhabited": True}, "cannot both"),
    ("death", "a negative death count", {"deaths": -1}, "deaths"),
    # Turn
    ("turn", "an unknown action", {"action": "fly"}, "action"),
    ("turn", "dodging without the Dodge action", {"dodging": True}, "dodging"),
    ("turn", "a second object without the action", {"object_interactions": 2}, "object"),
    ("turn", "a readied trigger 5,000 characters long", {"readied": "x" * 5000}, "readied"),
    # MagicItem
    ("item", "charges above the maximum", {"charges": 9}, "charges"),
    ("item", "used up but not a consumable", {"used_up": True}, "used_up"),
    ("item", "an empty name", {"name": "  "}, "name"),
    ("item", "a 5,000-character name", {"name": "w" * 5000}, "name"),
    # MovementCounter
    ("counter", "feet not a whole square", {"feet": 17}, "feet"),
    ("counter", "fewer feet than the diagonals cost", {"diagonals": 5}, "feet"),
    ("counter", "negative feet", {"feet": -5}, "feet"),
    ("counter", "a speed of -5", {"speed": -5}, "speed"),
    # FacingTracker
    ("facing", "turns left without the reaction", {"reaction_used": False}, "reaction"),
    ("facing", "more turns than the speed allows", {"turns_left": 50}, "turns_left"),
    ("facing", "an attack without a tracked creature",
     {"tracking": ""}, "attacked_with_reaction"),
    # HitDice
    ("hit dice", "hp above max", {"hp": 31}, "hp"),
    ("hit dice", "surge dice beyond the hit dice", {"surge_dice_left": 4}, "surge_dice_left"),
    ("hit dice", "a surge without healing surges", {"healing_surges": False}, "surge_used"),
    ("hit dice", "a kit pending without the variant",
     {"needs_healers_kit": True, "can_spend": False}, "needs_healers_kit"),
    # Reactions
    ("reactions", "a mark made with nobody marked", {"marked": ""}, "mark_made_this_turn"),
    # SpellPoints
    ("spell points", "points above the maximum", {"points": 200}, "points"),
    ("spell points", "a maximum the table does not give", {"maximum": 5}, "maximum"),
]


@pytest.mark.parametrize(("name", "what", "change", "field"), CORRUPTIONS,
                         ids=[f"{c[0]}: {c[1]}" for c in CORRUPTIONS])
def test_a_corrupt_save_is_refused_naming_the_field(name: str, what: str,
                                                    change: dict[str, Any],
                                                    field: str) -> None:
    tracker = PLAYED[name]()
    data = json.loads(tracker.to_json())
    data["state"].update(change)
    with pytest.raises(StateError) as info:
        type(tracker).from_json(json.dumps(data))
    assert field in str(info.value)
    # Loading it into a live tracker changes nothing either.
    before = tracker.to_json()
    with pytest.raises(StateError):
        tracker.load(json.dumps(data))
    assert tracker.to_json() == before


def test_the_same_corruption_in_an_undo_snapshot_is_refused() -> None:
    record = played_death()
    data = json.loads(record.to_json())
    data["log"][0]["before"].update(successes=3, failures=3)
    with pytest.raises(StateError, match=r"log\[0\]\.before"):
        DeathRecord.from_json(json.dumps(data))


def test_three_successes_leave_a_stable_record_that_loads() -> None:
    r = DeathRecord()
    r.drop_to_zero()
    for face in (10, 11, 12):
        r.death_save(face)
    assert r.condition == "stable" and (r.successes, r.failures) == (0, 0)
    assert DeathRecord.from_json(r.to_json()) == r
    r.damage_while_down()
    assert r.condition == "dying" and r.failures == 1


def test_refusal_predicates_match_the_moves() -> None:
    from companion.errors import RuleError

    pool = SpellPoints.new(2)  # 6 points
    pool.dmg_limits = False  # the earlier reading: any level the points pay for
    pool.cast(3)  # 5
    for level in range(10):
        reason = pool.cast_refusal(level)
        assert pool.can_cast(level) is (reason is None)
        if reason is not None:
            with pytest.raises(RuleError) as info:
                pool.cast(level)
            assert str(info.value) == reason
    assert pool.cast_refusal(0) is None and pool.cast_refusal(1) is not None
    counter = MovementCounter(speed=10)
    counter.step("ne")
    assert counter.step_refusal("ne") == ("Diagonal Moves: this square costs 10 ft, only 5 ft "
                                          "of movement left")
    assert counter.step_refusal("n") is None


def test_return_odds_only_when_the_fragile_soul_check_applies() -> None:
    from companion.rulesets.variant5e.death_and_returning import fragile_soul_odds

    record = DeathRecord()
    assert record.return_odds("wish", 3) is None
    assert record.return_odds("raise dead", 3) == fragile_soul_odds("raise dead", 3)
    assert DeathRecord(fragile_soul=False).return_odds("raise dead", 3) is None
    assert record.why_no_return("revivify") is not None  # alive: nothing to return
    record.die()
    assert record.why_no_return("revivify") is None
