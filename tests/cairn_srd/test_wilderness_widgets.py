"""Headless tests of the wilderness app: the planner reads the tables, the watch buttons
follow the procedure, rolls use the drawn seed, bad input is refused under its box."""

from __future__ import annotations

import pytest

from companion.rulesets.cairn_srd import wilderness as wd
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.skills import skill_test
from companion.widgets.base import SaveLoad
from companion.widgets.cairn_srd.wilderness import WildernessApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds, walk

pytestmark = pytest.mark.timeout(60)


def test_planner_and_a_day_of_watches() -> None:
    app = WildernessApp(seed_source=fixed_seeds(11, 12, 13, 14, 15, 16))
    j = app.journey
    app.who.value = "Ash"
    app.rations.value = 2
    find_button(app, "add-traveller").click()
    app.path.value, app.distance.value, app.terrain.value = "Trails", "Medium", "Hills"
    find_button(app, "add-leg").click()
    assert "Total <b>4</b> watches" in app.route.value  # 1 + 2 + 1
    assert find_button(app, "choose").disabled and not find_button(app, "weather").disabled
    find_button(app, "weather").click()
    find_button(app, "choose").click()
    assert not find_button(app, "travel").disabled and find_button(app, "event").disabled
    find_button(app, "travel").click()
    lost = not skill_test(2, -1, seed=11).success
    assert j.leg_watches == 4 + lost and 'data-seed="11"' in app.outcome.value
    find_button(app, "light").click()
    find_button(app, "event").click()
    assert 'data-seed="12"' in app.outcome.value and j.watch == 1
    assert str(wd.roll_event(j.legs[0], seed=12)) in app.outcome.value.replace("&#x27;", "'")


def test_refusals_show_and_change_nothing() -> None:
    app = WildernessApp(seed_source=fixed_seeds(3))
    app.sea.value = 5
    find_button(app, "add-leg").click()
    assert app.journey.legs == [] and "Open sea" in app.error.message
    app.sea.value = 0
    app.path.value, app.distance.value = "Wilderness", "Long"
    find_button(app, "add-leg").click()
    find_button(app, "weather").click()
    app.action.value = "travel"
    find_button(app, "choose").click()
    find_button(app, "travel").click()
    find_button(app, "light").click()
    find_button(app, "event").click()
    find_button(app, "weather").click()
    find_button(app, "choose").click()
    find_button(app, "travel").click()
    find_button(app, "light").click()
    find_button(app, "event").click()
    # night watch: travelling without light is refused by the rules, on the error line
    find_button(app, "weather").click()
    find_button(app, "choose").click()
    assert "Night Travel" in app.error.message and app.journey.step == 2
    assert "Journey" not in app.error.message and "[" not in app.error.message


def test_party_sheets_and_save_load() -> None:
    ash = new_character("Ash", 10, 10, 10, 3)
    app = WildernessApp(party=[ash], seed_source=fixed_seeds(5))
    assert [t.name for t in app.journey.party] == ["Ash"]
    assert app.add_traveller_button.layout.display == "none"
    app.journey.party[0].fatigue = 2
    find_button(app, "copy-sheets").click()
    assert ash.fatigue == 2 and "Ash: +2 Fatigue" in app.outcome.value
    files = [w for w in walk(app) if isinstance(w, SaveLoad)]
    assert len(files) == 1
    saved = app.journey.to_json()
    files[0].load_box.value = saved.replace('"fatigue": 2', '"fatigue": 99')
    find_button(files[0], "load").click()
    assert files[0].error.message and app.journey.party[0].fatigue == 2


def test_winter_darkens_the_evening() -> None:
    app = WildernessApp(seed_source=fixed_seeds(4))
    find_button(app, "winter").click()
    assert app.journey.winter and find_button(app, "winter").description == "End winter"
    assert "only the first watch is lit" in app.outcome.value
    app.journey.watch = 1
    app.render()
    assert "(dark)" in app.board.value


def _camp_ready(app: WildernessApp) -> None:
    app.who.value = "Ash"
    app.rations.value = 2
    find_button(app, "add-traveller").click()
    app.path.value = "Roads"
    find_button(app, "add-leg").click()
    find_button(app, "weather").click()
    app.action.value = "make camp"
    find_button(app, "choose").click()


def test_a_well_equipped_winter_camp_rests_and_a_bare_one_does_not() -> None:
    app = WildernessApp(seed_source=fixed_seeds(7, 8))
    _camp_ready(app)
    app.journey.party[0].fatigue = 2
    app.harsh.value = True  # fire, bedding and shelter are ticked by default
    find_button(app, "camp").click()
    assert app.journey.party[0].fatigue == 0, app.outcome.value
    find_button(app, "undo").click()
    app.shelter.value = False
    find_button(app, "camp").click()
    assert app.journey.party[0].fatigue == 2  # no proper rest: the Fatigue stays
    assert "no proper rest" in app.journey.log[-1].summary


def test_foraging_for_a_component_with_yield_steps() -> None:
    seed = next(s for s in range(200) if skill_test(2, 0, seed=s).success)
    app = WildernessApp(seed_source=fixed_seeds(seed))
    app.who.value = "Ash"
    find_button(app, "add-traveller").click()
    app.path.value = "Roads"
    find_button(app, "add-leg").click()
    find_button(app, "weather").click()
    app.action.value = "supply"
    find_button(app, "choose").click()
    app.activity.value = "forage"
    app.component.value = "Salt"
    app.steps_up.value = 2
    find_button(app, "supply").click()
    assert app.journey.components and app.journey.components[0].startswith("Salt ×")
    assert app.journey.log[-1].args["steps_up"] == 2
