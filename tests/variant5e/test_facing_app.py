"""Issue 15: the facing and flanking app (headless): arcs, shield, rear advantage, sizes."""

from __future__ import annotations

from companion.rulesets.variant5e.facing_and_flanking import FacingTracker
from companion.widgets.variant5e_facing import FacingApp
from tests.conftest import widgets_by_name


def test_arcs_shield_rear_and_flanking() -> None:
    app = FacingApp()
    # Defender at (2,2) facing north; attacker north of it, ally south: flanking.
    assert 'data-arc="front"' in app.report.value and 'data-flanked="true"' in app.report.value
    assert "advantage on melee attack rolls" in app.report.value
    app.benefit.value = "plus_two"
    assert "+2 on attack rolls" in app.report.value
    app.ally.sees.value = False  # an ally that cannot see the enemy does not flank
    assert 'data-flanked="false"' in app.report.value
    app.ally.sees.value = True
    app.defender.facing.value = "south"  # the attacker is now behind it
    assert 'data-arc="rear"' in app.report.value and "advantage" in app.report.value
    assert "the shield does not count" in app.report.value
    app.defender.facing.value = "east"  # the attacker (north) is on its left: a left shield
    assert 'data-arc="left"' in app.report.value and "the shield counts" in app.report.value
    app.attacker.y.value = 2  # shares the defender's space
    assert "Attacker shares Defender&#x27;s space" in app.report.value


def test_large_defender_flanked_and_turning() -> None:
    app = FacingApp()
    app.defender.size.value = "large"  # (2,2)-(3,3); attacker at (2,1), ally at (2,4)
    app.ally.y.value = 4
    assert 'data-flanked="true"' in app.report.value
    tracker = FacingTracker(speed=20)
    app2 = FacingApp(tracker)
    b = widgets_by_name(app2, kind="btn")
    app2.turn_to.value, app2.toward.value = "east", "orc"
    b["react"].click()
    b["keep"].click()
    b["keep"].click()
    b["keep"].click()
    assert app2.error.message == "Facing: no turns left (speed 20 allows 2)"
    b["oa"].click()
    b["oa"].click()
    assert app2.error.message == "Facing: the tracking reaction already made its opportunity " \
                                 "attack"
    b["start"].click()
    assert not tracker.reaction_used and "reaction ready" in app2.status.value
