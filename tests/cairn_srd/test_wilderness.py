"""Wilderness watches: travel duration, threats, camps and the watch procedure, move by move."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from companion import tables
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import wilderness as w
from companion.rulesets.cairn_srd.skills import roll_yield

pytestmark = pytest.mark.timeout(60)


# -- tables -----------------------------------------------------------------------------


@pytest.mark.parametrize("table_id,sides", [
    ("cairn_wilderness_event", 6), ("cairn_resource_threat", 19),
    ("cairn_foraged_component", 12)])
def test_tables_exact_odds_by_enumeration(table_id: str, sides: int) -> None:
    table = tables.get(table_id)
    counted: Counter[str] = Counter()
    for face in range(1, sides + 1):
        counted[table.row_for(face).range] += 1
    assert {row.range: p for row, p in table.odds()} == {
        key: Fraction(n, sides) for key, n in counted.items()}


def test_event_table_rows() -> None:
    odds = {row.range: p for row, p in tables.get("cairn_wilderness_event").odds()}
    assert odds == {"1": Fraction(1, 6), "2": Fraction(1, 6), "3": Fraction(1, 6),
                    "4-6": Fraction(1, 2)}


def test_seed_entries_kept() -> None:
    comps = w.foraged_components()
    assert len(comps) == 12 and comps["Flint moss"] == "Dry stringy moss. Flammable"
    threat = tables.get("cairn_resource_threat")
    assert len(threat.rows) == 19
    assert threat.rows[-1].values == {"Terrain type": "River", "Threat": "Rapids"}


# -- travel duration --------------------------------------------------------------------


@pytest.mark.parametrize("path,distance,terrain,sea,night,watches,nav", [
    ("Roads", "Short", "Plains", 0, False, 1, 0),          # 0 + 1 + 0
    ("Trails", "Medium", "Forests", 0, False, 4, -1),      # 1 + 2 + 1
    ("Wilderness", "Long", "Mountains", 0, True, 8, -2),   # 2 + 3 + 2 + night 1
    ("Roads", "Long", "Deserts", 0, True, 5, 0),           # 0 + 3 + 1 + 1
    ("Roads", "Medium", "Valleys", 2, False, 4, 0),        # open sea +2
    ("trails", "short", "swamp", 1, False, 5, -1),         # 1 + 1 + 2 + 1
])
def test_leg_duration_hand_worked(path: str, distance: str, terrain: str, sea: int,
                                  night: bool, watches: int, nav: int) -> None:
    plan = w.plan_leg(w.make_leg(path, distance, terrain, open_sea=sea), night=night)
    assert (plan.watches, plan.navigation) == (watches, nav)


def test_route_plan_totals() -> None:
    legs = [w.make_leg("Roads", "Short", "Plains", to="Mill"),
            w.make_leg("Trails", "Medium", "Hills", to="Ford"),
            w.make_leg("Wilderness", "Long", "Jungles")]
    plan = w.plan_route(legs)
    # 1 + (1+2+1) + (2+3+2) = 12 watches; 4+8+12 = 24 leagues; 2 travel watches a day
    assert (plan.watches, plan.leagues, plan.days) == (12, 24, 6)
    assert "Total: 12 watches" in str(plan)
    assert w.plan_route(legs[:2]).days == 3   # 5 watches -> 3 days


def test_bad_legs_refused() -> None:
    with pytest.raises(RuleError, match="path type is one of Roads, Trails, Wilderness"):
        w.make_leg("Highway")
    with pytest.raises(RuleError, match="open sea adds 0-2"):
        w.make_leg(open_sea=3)
    with pytest.raises(RuleError, match="1-50 legs"):
        w.plan_route([])


def test_terrains_and_darkness() -> None:
    assert w.terrains()["Forests"] == "Tough" and w.terrains()["Swamp"] == "Perilous"
    assert [w.is_dark(i) for i in range(3)] == [False, False, True]
    assert [w.is_dark(i, winter=True) for i in range(3)] == [False, True, True]
    assert w.light_hours(torches=8) == w.light_hours(oil=2) == 8


# -- threats ----------------------------------------------------------------------------


def test_threats_fit_terrain() -> None:
    forest = [t for _, t in w.threats_for("Forests")]
    assert "Snakebite" in forest and "Fallen logs" in forest and "Tar pits" not in forest
    assert "Bridge or road out" in forest  # Any fits everywhere
    assert len(w.threats_for("Deserts")) == 5  # the five rows marked Any
    assert "Rapids" in [t for _, t in w.threats_for("Plains", by_water=True)]
    assert "Boggy water" in [t for _, t in w.threats_for("Swamp")]
    odds = w.threat_odds("Mountains")
    assert sum(odds.values()) == 1 and set(odds.values()) == {Fraction(1, len(odds))}


def test_roll_threat_is_seeded_and_fits() -> None:
    fitting = {t for _, t in w.threats_for("Hills")}
    seen = Counter(w.roll_threat("Hills", seed=s) for s in range(3000))
    assert set(seen) == fitting
    assert w.roll_threat("Hills", seed=7) == w.roll_threat("Hills", seed=7)
    for threat, n in seen.items():  # each about 1/len: loose 5-sigma band
        assert abs(n / 3000 - 1 / len(fitting)) < 0.05, threat


def test_navigation_chance() -> None:
    assert w.navigation_chance("Roads") == Fraction(1, 3)
    assert w.navigation_chance("Trails") == Fraction(1, 6)
    assert w.navigation_chance("Wilderness", modifier=2) == Fraction(1, 3)
    assert w.navigation_chance("Wilderness", have=3) == 1


def test_camp_quality() -> None:
    assert w.camp_gives_rest(False, False, False, False)
    assert not w.camp_gives_rest(True, True, True, False)
    assert w.camp_gives_rest(True, True, True, True)


# -- the watch tracker ------------------------------------------------------------------


def journey() -> w.Journey:
    j = w.Journey()
    j.add_traveller("Ash", rations=5, mounts=1, feed=1)
    j.add_traveller("Bo", rations=1)
    j.add_leg("Trails", "Medium", "Forests", to="Oakford")   # 4 watches
    j.add_leg("Roads", "Short", "Plains", to="Mill")          # 1 watch
    return j


def watch(j: w.Journey, action: str, seed: int = 0, lit: bool = False, **kw: object) -> None:
    j.set_weather("clear")
    j.choose(action, lit=lit)
    if action == "travel":
        j.travel(seed=seed, **kw)  # type: ignore[arg-type]
    elif action == "make camp":
        j.make_camp(seed=seed, **kw)  # type: ignore[arg-type]
    elif action == "explore":
        j.explore("a cave")
    j.mark_light(**({"torches": 8} if lit else {}))
    j.event_check(seed=seed)


def test_steps_out_of_order_are_refused() -> None:
    j = journey()
    before = j.to_json()
    with pytest.raises(RuleError, match="step 1: weather comes next, not step 2"):
        j.choose("travel")
    with pytest.raises(RuleError, match="step 1: weather comes next, not step 5"):
        j.event_check(seed=1)
    j.set_weather("fog")
    with pytest.raises(RuleError, match="step 2: choose actions comes next"):
        j.travel()
    j.choose("travel")
    with pytest.raises(RuleError, match="chose travel this watch, not explore"):
        j.explore()
    with pytest.raises(RuleError, match="resolve the travel first"):
        j.mark_light()
    assert j.allowed("travel") and not j.allowed("event_check")
    j.travel(have=3)
    with pytest.raises(RuleError, match="already travelled"):
        j.travel(have=3)
    j.mark_light()
    assert j.allowed("event_check") and not j.allowed("mark_light")
    j.event_check(seed=2)
    assert (j.step, j.watch, j.day) == (1, 1, 1)
    j2 = journey()
    assert j2.to_json() == before  # refusals changed nothing


def test_lookout_is_not_an_action_but_goes_alongside() -> None:
    j = journey()
    j.set_weather()
    with pytest.raises(RuleError, match="lookout goes alongside"):
        j.choose("lookout")
    j.choose("explore")
    res = j.lookout("Ash", have=3)
    assert res.success
    with pytest.raises(RuleError, match="already on lookout"):
        j.lookout("ash", have=3)
    with pytest.raises(RuleError, match="nobody called “Cy”"):
        j.lookout("Cy")


def test_leg_completes_after_its_watches_and_lost_adds_one() -> None:
    j = journey()
    watch(j, "travel", navigate=True, have=3)
    assert (j.leg, j.progress, j.leg_watches) == (0, 1, 4)
    watch(j, "travel")
    assert j.watches_left == 2 + 1
    watch(j, "make camp")
    watch(j, "travel")
    watch(j, "travel")
    assert j.leg == 1 and j.progress == 0 and j.legs[0].to == "Oakford"
    assert "reached Oakford" in j.log[-3].summary
    # second leg: navigator has none of skill/time/tools -> lost -> 2 watches instead of 1
    watch(j, "make camp")
    watch(j, "travel", have=0)
    assert (j.leg, j.progress, j.leg_watches) == (1, 1, 2)
    assert "lost, +1 watch" in j.log[-3].summary
    watch(j, "travel")
    assert j.arrived and j.watches_left == 0
    j.set_weather()
    with pytest.raises(RuleError, match="no route leg is left"):
        j.choose("travel")
    j.validate()


def test_travelling_every_watch_deprives_and_fatigues() -> None:
    j = w.Journey()
    j.add_traveller("Ash", rations=2)
    j.add_leg("Wilderness", "Long", "Mountains")
    watch(j, "travel", have=3)
    watch(j, "travel")
    assert j.party[0].fatigue == 0 and not j.party[0].deprived
    with pytest.raises(RuleError, match="night watch is dark; travel needs a watch of light"):
        j.set_weather()
        j.choose("travel")
    j.choose("travel", lit=True)
    j.travel()
    with pytest.raises(RuleError, match="burns 8 hours of light; 4 torches and 0 oil give 4"):
        j.mark_light(torches=4)
    j.mark_light(oil=2)
    j.event_check(seed=3)
    t = j.party[0]
    assert t.deprived and t.fatigue == 1
    # night added once to this leg: 7 + 1
    assert j.leg_watches == 8 and j.travelled_today == 0 and j.day == 2


def test_winter_evening_is_dark() -> None:
    j = journey()
    j.set_winter()
    watch(j, "travel", have=3)
    j.set_weather()
    with pytest.raises(RuleError, match="evening watch is dark"):
        j.choose("explore")
    j.choose("explore", lit=True)
    j.explore()
    j.mark_light(torches=8)
    assert "light: 8 torches" in j.log[-1].summary


def test_weather_adds_watches_to_the_leg() -> None:
    j = journey()
    j.set_weather("storm", watches=2)
    j.choose("travel")
    j.travel(have=3)
    assert j.leg_watches == 6


def test_make_camp_rations_mounts_and_rest() -> None:
    j = journey()
    j.party[0].fatigue = 2
    j.party[1].fatigue = 1
    watch(j, "make camp")
    ash, bo = j.party
    assert (ash.rations, ash.feed, bo.rations) == (4, 0, 0)   # mount ate the feed
    assert ash.fatigue == bo.fatigue == 0
    watch(j, "make camp", sleepless=["Bo"])
    # Ash: ration 1 + mount 3 (no feed left); Bo has no ration and stays awake
    assert (ash.rations, bo.rations) == (0, 0)
    assert bo.deprived and bo.fatigue == 1 and not ash.deprived
    summary = j.log[-3].summary
    assert "Bo has no Ration: Deprived" in summary and "awake all night: Bo" in summary
    watch(j, "make camp", graze=True)
    assert "Ash has no Ration" in j.log[-3].summary and "mount" not in j.log[-3].summary


def test_camp_harsh_without_amenities_gives_no_rest() -> None:
    j = journey()
    j.party[0].fatigue = 2
    watch(j, "make camp", harsh=True, shelter=False)
    assert j.party[0].fatigue == 2 and not j.party[0].deprived


def test_cooking_meat_and_balanced_meal() -> None:
    j = journey()
    j.meat, j.forage = 4, 2
    j.party[0].fatigue = 3
    watch(j, "make camp", meal="meat", cook_have=3, sleepless=["Ash"])
    # rest does not reach Ash (awake, +1 -> 4), cooked meat removes 1 -> 3
    assert j.party[0].fatigue == 3 and j.meat == 2 and j.party[0].rations == 5
    watch(j, "make camp", meal="balanced", cook_have=3, sleepless=["Ash"])
    assert j.party[0].fatigue == 0 and (j.meat, j.forage) == (0, 0)
    j.set_weather()
    j.choose("make camp")
    with pytest.raises(RuleError, match="needs 2 meat and 2 foraged portions"):
        j.make_camp(meal="balanced")
    j.make_camp(meal="rations", cook_have=0)
    # feed went the first night, 3 Rations the second; now 1 for Ash, too few for the mount
    assert j.party[0].rations == 1 and "Ash's mount 1 goes hungry" in j.log[-1].summary


def test_failed_cooking_still_feeds() -> None:
    j = journey()
    j.meat = 2
    j.party[0].fatigue = 2
    watch(j, "make camp", meal="meat", cook_have=0, sleepless=["Ash"])
    assert j.party[0].fatigue == 3 and j.party[0].rations == 5 and "failure" in j.log[-3].summary


def test_supply_yields() -> None:
    j = journey()
    for seed in range(5):
        j2 = journey()
        j2.set_weather()
        j2.choose("supply")
        j2.supply("Ash", "hunt", have=3, seed=seed)
        assert j2.meat == roll_yield(3, rng=make_rng(seed, None))
        j2.supply("Bo", "forage", have=3, component="sightleaf", seed=seed)
        assert j2.components == [f"Sightleaf ×{roll_yield(3, rng=make_rng(seed, None))}"]
        with pytest.raises(RuleError, match="Bo already supplied"):
            j2.supply("Bo", "fish")
    j.set_weather()
    j.choose("supply")
    j.supply("Ash", "harvest", have=0)
    assert "nothing (the parts may be ruined" in j.log[-1].summary
    j.supply("Bo", "buy", bought=3)
    assert j.party[1].rations == 4
    j3 = journey()
    j3.set_weather()
    j3.choose("supply")
    with pytest.raises(RuleError, match="component is one of Salt"):
        j3.supply("Ash", "forage", component="mandrake")


def test_event_check_matches_tables() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(300):
        j = journey()
        j.set_weather()
        j.choose("explore")
        j.explore()
        j.mark_light()
        ev = j.event_check(seed=seed)
        face = tables.get("cairn_wilderness_event").roll(seed=seed).roll
        assert ev.roll == face
        kinds[ev.kind] += 1
        if ev.kind == "encounter":
            assert len(ev.details) == 4
            if ev.details[2] == "Roll NPC":
                assert ev.details[3].startswith("NPC wants ")
            else:
                assert ev.details[3].startswith("disposition 2d6 = ")
            kinds["npc" if ev.details[2] == "Roll NPC" else "disposition"] += 1
        elif ev.kind == "threat":
            assert ev.details[0] in {t for _, t in w.threats_for("Forests")}
        else:
            assert ev.details == ()
    assert set(kinds) == {"encounter", "threat", "disaster", "nothing", "npc", "disposition"}


def test_round_trip_and_corrupt_saves() -> None:
    j = journey()
    for seed in range(4):
        if j.watch < 2:
            watch(j, "travel", seed=seed, have=2)
        else:
            watch(j, "make camp", seed=seed)
    back = w.Journey.from_json(j.to_json())
    assert back == j and back.log[-1].summary == j.log[-1].summary
    data = j.to_json().replace('"leg": 1,', '"leg": 9,').replace('"leg": 0,', '"leg": 9,')
    with pytest.raises(StateError, match="leg"):
        w.Journey.from_json(data)
    bad = j.to_json().replace('"terrain": "Forests"', '"terrain": "Moon"')
    with pytest.raises(StateError, match="not on the travel tables"):
        w.Journey.from_json(bad)
    j.undo()
    assert j.step == 5


def test_every_step_pair_order() -> None:
    """Only the procedure's next step is ever allowed (exhaustively over the moves)."""
    moves = ["set_weather", "choose", "travel", "mark_light", "event_check"]
    j = journey()
    for _ in range(2):
        for i, name in enumerate(moves):
            for other in moves:
                assert j.allowed(other) == (other == name), (name, other)
            if name == "set_weather":
                j.set_weather()
            elif name == "choose":
                j.choose("travel")
            elif name == "travel":
                j.travel(have=3)
                assert j.allowed("mark_light")
            elif name == "mark_light":
                j.mark_light()
            else:
                j.event_check(seed=i)
    assert w.STEPS[0] == "weather" and len(w.STEPS) == 5


def test_reference_pages_from_the_rules() -> None:
    from companion.rulesets.cairn_srd.reference import reference_pages

    pages = reference_pages()
    travel = pages["travel-duration.md"]
    # roads/short: 1 + difficulty; wilderness/long: 2 + 3 + difficulty
    assert "| Roads | Short | 1 | 2 | 3 |" in travel
    assert "| Wilderness | Long | 5 | 6 | 7 |" in travel
    assert "| Trails | 16.67% (1/6) | 33.33% (1/3) | 50.00% (1/2) |" in travel
    assert "| Hills |" in travel and "10.00% (1/10)" in travel
    odds = pages["downtime-odds.md"]
    assert "| Different bank | 20 | 20 | 20 | 50 | 500 |" in odds
    assert "| +0 | 33.33% (1/3) | 66.67% (2/3) | 72.22% (13/18) | 27.78% (5/18) |" in odds
    assert "| +0 | 50.00% (1/2) | 33.33% (1/3) | 16.67% (1/6) |" in odds


def test_party_sheets_follow_the_journey() -> None:
    from companion.rulesets.cairn_srd.character import new_character

    ash, bo = new_character("Ash", 10, 10, 10, 3), new_character("Bo", 9, 9, 9, 2)
    ash.add_fatigue(2)
    j = w.Journey()
    w.join_party(j, [ash, bo])
    w.join_party(j, [ash])  # already travelling: nobody added twice
    assert [(t.name, t.fatigue) for t in j.party] == [("Ash", 2), ("Bo", 0)]
    j.add_leg("Wilderness", "Long", "Mountains")
    watch(j, "travel", have=3)
    watch(j, "travel")
    watch(j, "travel", lit=True)   # a third watch of travel: Deprived, +1 Fatigue
    notes = w.apply_to_sheets(j, [ash, bo])
    assert ash.fatigue == 3 and bo.fatigue == 1 and ash.deprived and bo.deprived
    assert "Bo: +1 Fatigue" in notes
    for name in ("Ash", "Bo"):
        j._traveller(name).rations = 1
    watch(j, "make camp")
    notes = w.apply_to_sheets(j, [ash, bo])
    assert ash.fatigue == bo.fatigue == 0 and not ash.deprived
    assert "Ash: all Fatigue removed" in notes


def test_the_journey_finds_the_sheets_at_its_table(tmp_path: object) -> None:
    """The journey declares its link to the travellers' sheets: at a campaign's table it
    joins and updates the party's sheets with no list handed to it (issue 28)."""
    from pathlib import Path

    from companion.rulesets.cairn_srd.character import Character, new_character
    from companion.store.campaign import Campaign, create
    from companion.store.db import Store

    assert isinstance(tmp_path, Path)
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    table = create(store, "Road", ["cairn_srd"])
    ash = table.add("Ash", new_character("Ash", 10, 10, 10, 3))
    j = table.add("Journey", w.Journey(), role="minigame")
    w.join_party(j)
    assert [t.name for t in j.party] == ["Ash"]
    j.add_leg("Wilderness", "Long", "Mountains")
    for lit in (False, False, True):  # a third watch of travel: Deprived, +1 Fatigue
        watch(j, "travel", lit=lit)
    assert w.apply_to_sheets(j) == ["Ash: Deprived", "Ash: +1 Fatigue"]
    assert ash.fatigue == 1 and ash.deprived
    again = Campaign.open(store, "Road")
    assert again.tracker("Ash", Character).fatigue == 1
    assert w.apply_to_sheets(again.tracker("Journey", w.Journey)) == []  # up to date
    store.close()
