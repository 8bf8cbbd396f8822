"""Issue 46: wagons and other vehicles only travel on roads or very flat terrain
(``make_leg``/``Journey.add_leg`` with a vehicle), and beasts of burden and vehicles carry
items (``Journey.load_cargo``): move by move, refusals included, and from the app."""

from __future__ import annotations

import json

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import wilderness as wd
from companion.rulesets.cairn_srd.wilderness import Journey, make_leg, plan_leg, terrains
from tests.widgets.app_page import AppPage


@pytest.mark.parametrize("terrain", list(terrains()))
@pytest.mark.parametrize("path", list(wd.path_types()))
def test_a_vehicle_takes_roads_anywhere_and_only_plains_or_plateaus_off_them(
        path: str, terrain: str) -> None:
    fits = path == "Roads" or terrain in ("Plains", "Plateaus")
    if fits:
        leg = make_leg(path, "Short", terrain, vehicle=True)
        # Mounts pulling a vehicle add no bonus or penalty: the same duration.
        assert plan_leg(leg).watches == plan_leg(make_leg(path, "Short", terrain)).watches
    else:
        with pytest.raises(RuleError, match=r"^Wilderness Travel: vehicles only travel on "
                                            r"roads or very flat terrain"):
            make_leg(path, "Short", terrain, vehicle=True)


def test_a_vehicle_does_not_travel_by_water() -> None:
    with pytest.raises(RuleError, match=r"^Wilderness Travel: a vehicle does not travel by "
                                        r"water$"):
        make_leg("Roads", "Short", "Plains", by_water=True, vehicle=True)


def test_a_party_with_a_vehicle_plans_only_legs_it_can_take() -> None:
    j = Journey()
    j.add_traveller("Ash", rations=3, mounts=1, vehicles=1)
    with pytest.raises(RuleError, match=r"^Wilderness Travel: vehicles only travel"):
        j.add_leg("Wilderness", "Short", "Hills")
    assert not j.legs
    j.add_leg("Roads", "Long", "Mountains")
    assert j.legs[0].vehicle  # the wagon goes along once someone brings one


def test_a_vehicle_joins_only_a_route_it_can_take() -> None:
    j = Journey()
    j.add_leg("Roads", "Short", "Plains")
    j.add_leg("Trails", "Short", "Forests")
    before = j.to_json()
    with pytest.raises(RuleError, match=r"^Wilderness Travel: leg 2: vehicles only travel"):
        j.add_traveller("Ash", mounts=1, vehicles=1)
    assert j.to_json() == before
    j.add_traveller("Ash", mounts=1)
    with pytest.raises(RuleError, match=r"^Wilderness Travel: leg 2: "):
        j.bring_vehicles("Ash", 1)


def test_cargo_fills_ten_slots_a_beast_and_twenty_a_vehicle() -> None:
    j = Journey()
    j.add_traveller("Ash", mounts=1)
    assert j.party[0].cargo_slots == wd.BEAST_SLOTS == 10
    for n in range(10):
        j.load_cargo("Ash", f"sack {n}")
    with pytest.raises(RuleError, match=r"^Burden: sack 10 needs 1 slot\(s\); Ash's beasts "
                                        r"and vehicles have 0 free$"):
        j.load_cargo("Ash", "sack 10")
    j.bring_vehicles("Ash", 1)
    assert j.party[0].cargo_slots == 10 + wd.VEHICLE_SLOTS == 30
    j.load_cargo("Ash", "barrel", tag="bulky")  # a bulky item takes 2 slots
    assert wd.slots_used(j.party[0].cargo) == 12
    with pytest.raises(RuleError, match=r"^Burden: Ash's cargo fills 12 slots, more than "
                                        r"the 10 left to carry it: unload first$"):
        j.bring_vehicles("Ash", 0)
    assert j.unload_cargo("Ash", 10).name == "barrel"
    j.bring_vehicles("Ash", 0)
    with pytest.raises(RuleError, match=r"^Burden: Ash's cargo has no entry #11$"):
        j.unload_cargo("Ash", 10)
    loaded = Journey.from_json(j.to_json())
    assert [c.name for c in loaded.party[0].cargo] == [f"sack {n}" for n in range(10)]


def test_no_beast_no_vehicle_no_cargo() -> None:
    j = Journey()
    j.add_traveller("Ash")
    with pytest.raises(RuleError, match=r"^Burden: Ash has no beast of burden or vehicle"):
        j.load_cargo("Ash", "rope")
    with pytest.raises(RuleError, match=r"already brings 0 vehicles"):
        j.bring_vehicles("Ash", 0)
    with pytest.raises(RuleError, match=r"vehicles run 0-6"):
        j.bring_vehicles("Ash", 7)


def test_cargo_and_legs_are_checked_on_load_and_old_journeys_load() -> None:
    j = Journey()
    j.add_traveller("Ash", mounts=1)
    j.load_cargo("Ash", "rope")
    data = json.loads(j.to_json())
    for key in ("vehicles", "cargo"):
        del data["state"]["party"][0][key]
    assert Journey.from_json(json.dumps(data)).party[0].cargo == []  # from before: loads
    bad = json.loads(j.to_json())
    bad["state"]["party"][0]["mounts"] = 0  # the rope now has nothing to carry it
    with pytest.raises(StateError, match=r"cargo"):
        Journey.from_json(json.dumps(bad))


def test_the_wilderness_app_brings_a_wagon_and_loads_it() -> None:
    page = AppPage("wilderness")
    page.fill("traveller", "Ash")
    page.fill("vehicles", "1")
    page.tap("add-traveller")
    page.one("tc-select-path").value = "Trails"
    page.one("tc-select-terrain").value = "Hills"
    page.tap("add-leg")
    assert any("vehicles only travel on roads or very flat terrain" in a
               for a in page.alerts())
    page.one("tc-select-terrain").value = "Plains"
    page.tap("add-leg")
    assert "Total" in page.find_text("tc-route-total")
    page.fill("cargo-item", "tent")
    page.tap("load-cargo")
    assert page.has("tc-cargo", data_slots="1", data_room="20")
    page.tap("unload-cargo")
    assert page.has("tc-cargo", data_slots="0", data_room="20")
