"""Headless tests of the downtime app: a cycle for the party, step by step."""

from __future__ import annotations

import pytest

from companion.rulesets.cairn_srd import downtime as dt
from companion.rulesets.cairn_srd import settlements
from companion.rulesets.cairn_srd.character import new_character
from companion.widgets.cairn_srd.downtime import DowntimeApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds

pytestmark = pytest.mark.timeout(60)


def test_a_whole_cycle() -> None:
    party = [new_character("Ash", 10, 10, 10, 3), new_character("Bo", 9, 9, 12, 2)]
    app = DowntimeApp(party=party, seed_source=fixed_seeds(21, 22, 23))
    d = app.downtime
    assert [m.name for m in d.members] == ["Ash", "Bo"]
    app.member.value = "Ash"
    app.amount.value = 100
    find_button(app, "earn").click()
    assert d.member("Ash").purse == 100 and "+100" in app.ledger.value
    assert find_button(app, "finish-step").disabled  # upkeep still due
    app.way.value, app.lifestyle.value = "pay", "Comfortable"
    find_button(app, "upkeep").click()
    app.member.value = "Bo"
    app.way.value = "crime"
    app.skill.value = True
    find_button(app, "upkeep").click()
    crime = dt.petty_crime(2, seed=21)
    assert f"petty crime (d6 = {crime.rolls[0]}" in app.outcome.value
    assert 'data-seed="21"' in app.outcome.value
    assert d.member("Ash").purse == 75
    app.member.value = "Ash"
    app.goal.value, app.cost.value = "Train the hawk", 30
    find_button(app, "new-action").click()
    find_button(app, "finish-step").click()
    find_button(app, "pick-action").click()
    find_button(app, "pay-cost").click()
    assert d.member("Ash").purse == 45
    find_button(app, "finish-step").click()
    find_button(app, "milestone").click()
    assert d.actions[0].marked == 1 and "1/3" in app.actions.value
    app.faction_name.value, app.faction_goal.value = "Red Hand", "Docks"
    find_button(app, "add-faction").click()
    find_button(app, "enter-settlement").click()
    find_button(app, "finish-step").click()
    assert find_button(app, "finish-step").disabled
    find_button(app, "faction-turn").click()
    assert 'data-seed="22"' in app.outcome.value
    find_button(app, "hazard").click()
    town = settlements.SettlementState()
    assert str(settlements.roll_hazard(town, seed=23)) in app.outcome.value
    assert find_button(app, "faction-turn").disabled and find_button(app, "hazard").disabled
    find_button(app, "finish-step").click()
    find_button(app, "finish-step").click()
    assert (d.cycle, d.step) == (2, 1) and "cycle 2" in app.board.value


def test_refusals() -> None:
    app = DowntimeApp(seed_source=fixed_seeds(1))
    assert find_button(app, "upkeep").disabled and find_button(app, "earn").disabled
    app.who.value = "Cy"
    app.purse.value = 3
    find_button(app, "add-member").click()
    app.way.value = "pay"
    find_button(app, "upkeep").click()
    assert "Cy has 3 silver, meager costs 5" in app.error.message
    app.amount.value = 0
    find_button(app, "spend").click()
    assert "Amount" in app.error.message and app.downtime.member("Cy").purse == 3


def test_rumour_kind_follows_the_seed() -> None:
    app = DowntimeApp(seed_source=fixed_seeds(31))
    find_button(app, "rumour").click()
    assert settlements.roll_rumour_kind(seed=31) in app.outcome.value
    assert 'data-seed="31"' in app.outcome.value
    assert app.downtime.log[-1].summary.startswith("a rumour: ")


def test_caches_and_thieves_have_a_face() -> None:
    party = [new_character("Ash", 10, 10, 10, 3), new_character("Bo", 9, 9, 12, 2)]
    app = DowntimeApp(party=party, seed_source=fixed_seeds(1))
    d = app.downtime
    app.member.value = "Ash"
    app.amount.value = 50
    find_button(app, "earn").click()
    assert find_button(app, "rob-cache").disabled  # no cache yet
    app.cache_where.value = "under the mill"
    app.amount.value = 30
    find_button(app, "add-cache").click()
    assert d.member("Ash").purse == 20 and d.member("Ash").caches[0].silver == 30
    assert app.cache.options[0][0] == "#1 under the mill: 30"
    app.amount.value = 12
    find_button(app, "rob-cache").click()
    assert d.member("Ash").caches[0].silver == 18 and "thieves take 12" in app.outcome.value
    app.cache_where.value = "the vault"
    app.cache_secured.value = True
    app.amount.value = 10
    find_button(app, "add-cache").click()
    app.cache.value = 1
    find_button(app, "rob-cache").click()  # a secured cache: refused with the rule
    assert "only unsecured caches" in app.error.message
    assert d.member("Ash").caches[1].silver == 10
    app.member.value = "Bo"  # Bo has no cache: the list follows the character
    assert app.cache.value is None and find_button(app, "rob-cache").disabled
