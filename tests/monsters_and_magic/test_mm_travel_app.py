"""Issue 15: the Monsters & Magic travel planner and falling damage app (headless)."""

from __future__ import annotations

from companion.dice import roll
from companion.rulesets.monsters_and_magic.travel import plan_journey
from companion.widgets.monsters_and_magic_travel import TravelApp
from tests.conftest import widgets_by_name


def test_plan_follows_pace_mount_vehicle_and_reading() -> None:
    app = TravelApp(seed_source=lambda: 3)
    app.hexes.value, app.speed.value = 7, "Fast"
    assert 'data-periods="3"' in app.plan.value and 'data-exhaustion="2"' in app.plan.value
    app.reading.value = "literal"
    assert 'data-exhaustion="0"' in app.plan.value
    app.mounted.value = True
    assert f'data-periods="{plan_journey(7, speed="Fast", mounted=True).periods}"' in (
        app.plan.value)
    app.how.value = "Galley"
    assert 'data-hours="24"' in app.plan.value and app.speed.disabled
    app.hexes.value = 0
    assert "Fix the hexes" in app.plan.value


def test_falling_damage_and_distance() -> None:
    app = TravelApp(seed_source=lambda: 3)
    app.feet.value = 45
    widgets_by_name(app, kind="btn")["fall"].click()
    assert f'data-total="{roll("4d6", seed=3).total}"' in app.fall_result.value
    app.feet.value = 5
    widgets_by_name(app, kind="btn")["fall"].click()
    assert 'data-total="0"' in app.fall_result.value
    app.turns.value = 2
    assert "the seed prints 2,315 feet" in app.distance.value


def test_the_road_check_and_foraging_are_one_named_table_move() -> None:
    # Issue 43: the app names the party's road check (no closure); the same seed gives
    # the same checks as the party's own move, and foraging adds each sheet's supplies.
    from companion.rulesets.monsters_and_magic.party import Party

    def party_of() -> Party:
        party = Party()
        party.new_character("Ash")
        party.new_character("Bo")
        return party

    party = party_of()
    app = TravelApp(party=lambda: party, seed_source=lambda: 3)
    app.speed.value = "Slow"
    widgets_by_name(app, kind="btn")["forage"].click()
    assert app.error.message == ""
    twin = party_of()
    done = twin.road_check(plan_journey(6, speed="Slow"), "focus", forage=True, seed=3)
    assert [a.supplies for a in party.characters] == [done.found] * 2
    assert [a.last_check.total for a in party.characters if a.last_check] == [
        a.last_check.total for a in twin.characters if a.last_check]
    assert f"foraging: {done}" in app.road.value
    # Off the slow pace the party refuses to forage, and nothing is rolled.
    moved = [len(a.log) for a in party.characters]
    app.speed.value = "Fast"
    widgets_by_name(app, kind="btn")["forage"].click()
    assert "only a party on foot at the slow pace can forage" in app.error.message
    assert [len(a.log) for a in party.characters] == moved
    app.error.clear()
    widgets_by_name(app, kind="btn")["group"].click()
    assert app.error.message == "" and "group check: " in app.road.value
