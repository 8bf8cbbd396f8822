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
