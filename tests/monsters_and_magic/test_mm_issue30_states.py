"""Issue 30 (Monsters & Magic): states that run out as turns pass, extending them, the
restrainer's "mark the same", fire resisted underwater, and falling damage less AC."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.dice import odds, roll
from companion.errors import RuleError, StateError
from companion.rulesets.monsters_and_magic import harm_and_healing as harm
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.monsters_and_magic.party import Party
from companion.widgets.monsters_and_magic import MonstersAndMagicApp
from companion.widgets.monsters_and_magic_sheet import SheetMovesPanel
from tests.conftest import widgets_by_name


def ash(**stats: int) -> Adventurer:
    return Adventurer.new("Ash", **{"focus": 1, "max_hp": 12, **stats})


# -- durations -----------------------------------------------------------------------------


def test_a_condition_given_between_turns_runs_out_at_the_end_of_the_coming_turn() -> None:
    a = ash()
    a.inflict("Weakened")
    assert a.durations == {"Weakened": 1}
    a.start_turn()
    assert a.has("Weakened")  # it lasts through the creature's next turn
    a.end_turn()
    assert "Weakened" not in a.conditions and a.durations == {}
    assert a.log[-1].summary.endswith("; Weakened runs out")
    a.undo()
    assert a.has("Weakened") and a.durations == {"Weakened": 1}


def test_a_state_given_during_the_creatures_turn_lasts_through_its_next() -> None:
    a = ash()
    a.start_turn()
    a.bestow("Empowered")
    assert a.durations == {"Empowered": 2}
    a.end_turn()
    assert a.has("Empowered")
    a.start_turn()
    a.end_turn()
    assert not a.has("Empowered")


def test_extending_a_condition_adds_a_turn() -> None:
    a = ash()
    a.inflict("Sundered")
    a.extend("sundered")
    assert a.durations == {"Sundered": 2} and "extended by 1 turn" in a.log[-1].summary
    for _ in range(2):
        assert a.has("Sundered")
        a.start_turn()
        a.end_turn()
    assert not a.has("Sundered")
    with pytest.raises(RuleError, match="is not Sundered; inflict or bestow it"):
        a.extend("Sundered")


def test_a_status_extends_only_while_no_longer_than_a_new_one() -> None:
    a = ash()
    a.bestow("Protected")  # 1 turn end left, a new one would give 1
    a.extend("Protected")
    assert a.durations == {"Protected": 2}
    with pytest.raises(RuleError, match="2 turns left, more than the 1 a new one would give"):
        a.extend("Protected")
    a.start_turn()  # during its turn a new one would give 2: now it may be extended
    a.extend("Protected")
    assert a.durations == {"Protected": 3}


def test_a_state_that_lasts_until_ended_never_runs_out() -> None:
    a = ash()
    a.add_state("Doomed", until_ended=True)
    a.start_turn()
    a.end_turn()
    assert a.has("Doomed") and a.durations == {}
    with pytest.raises(RuleError, match="lasts until it is ended; there is no duration"):
        a.extend("Doomed")
    a.end_condition("Doomed")
    assert not a.has("Doomed")


def test_six_seconds_out_of_combat() -> None:
    a = ash()
    with pytest.raises(RuleError, match="no state that runs out"):
        a.six_seconds_pass()
    a.inflict("Slowed")
    a.bestow("Hastened")
    a.extend("Hastened")
    a.six_seconds_pass()
    assert not a.has("Slowed") and a.has("Hastened")
    a.six_seconds_pass()
    assert not a.has("Hastened")
    a.inflict("Prone")
    a.start_turn()
    with pytest.raises(RuleError, match="in combat, states run out as turns end"):
        a.six_seconds_pass()


def test_states_the_rules_give_last_until_their_own_end() -> None:
    a = ash()
    a.short_rest(["Prepare"])
    a.start_turn()
    a.end_turn()
    assert "Prepared" in a.statuses and a.durations == {}  # until it is used
    a.inflict("Unconscious")
    a.take_damage(12)  # dying: unconscious until healed, whatever the time
    a.start_turn()
    a.end_turn()
    assert a.dying and "Unconscious" in a.conditions and a.durations == {}


def test_ending_a_state_any_way_drops_its_duration() -> None:
    a = ash()
    a.inflict("Impaired")
    a.bestow("Prepared")
    a.end_condition("Impaired")
    a.use_prepared()
    assert a.durations == {}


def test_a_weakened_check_recovers_its_odds_when_weakened_runs_out() -> None:
    a = ash(focus=3)
    a.inflict("Weakened")
    weak = a.build_check("focus").hit_chance()
    a.start_turn()
    a.end_turn()
    plain = a.build_check("focus").hit_chance()

    def by_hand(modifier: int) -> Fraction:
        return Fraction(sum(1 for f in range(1, 21)
                            if f == 20 or (f != 1 and f + modifier >= 10)), 20)

    assert (weak, plain) == (by_hand(1), by_hand(3)) == (Fraction(3, 5), Fraction(7, 10))


def test_durations_round_trip_and_old_sheets_load() -> None:
    a = ash()
    a.inflict("Restrained", by="Ogre")
    a.bestow("Quickened")
    assert Adventurer.from_json(a.to_json()) == a
    data = json.loads(a.to_json())
    for key in ("durations", "restrained_by", "underwater"):
        del data["state"][key]  # a sheet saved before these fields
    old = Adventurer.from_json(json.dumps(data))
    assert old.conditions == ["Restrained"] and old.durations == {}
    assert (old.restrained_by, old.underwater) == ("", False)
    data["state"]["durations"] = {"Blinded": 1}
    with pytest.raises(StateError, match=r"durations\.Blinded"):
        Adventurer.from_json(json.dumps(data))
    data["state"]["durations"] = {"Restrained": 0}
    with pytest.raises(StateError, match="durations"):
        Adventurer.from_json(json.dumps(data))
    data["state"]["durations"] = {}
    data["state"]["conditions"] = []
    data["state"]["restrained_by"] = "Ogre"
    with pytest.raises(StateError, match="restrained_by"):
        Adventurer.from_json(json.dumps(data))


# -- restrained: the restrainer marks the same ---------------------------------------------


def test_the_restrainer_marks_the_same_and_the_target_stays_restrained() -> None:
    a = ash()
    a.inflict("Restrained", by="Ogre", until_ended=True)
    assert a.restrained_by == "Ogre" and "held by Ogre" in a.log[-1].summary
    a.start_turn()
    with pytest.raises(RuleError, match="cannot spend AP until breaking free"):
        a.spend_ap("Strike")
    a.break_free(held=True)
    assert a.has("Restrained") and a.fatigue == 3
    assert "Ogre marks the same: still restrained" in a.log[-1].summary
    a.break_free()
    assert not a.has("Restrained") and a.restrained_by == ""
    assert (a.fatigue, a.exhaustion) == (5, 1)  # 6 marked: one spills into exhaustion


def test_only_a_creature_can_hold_a_restraint() -> None:
    a = ash()
    a.inflict("Restrained")  # a net: nobody to mark the same
    a.start_turn()
    with pytest.raises(RuleError, match="no creature holds Ash to mark the same"):
        a.break_free(held=True)
    assert a.fatigue == 0
    with pytest.raises(RuleError, match="only Restrained is held by a creature"):
        a.inflict("Weakened", by="Ogre")


def test_a_character_holds_another_restrained() -> None:
    party = Party()
    bo = party.new_character("Bo")
    cy = party.new_character("Cy")
    cy.inflict("Restrained", by="Bo")
    cy.start_turn()
    bo.hold_restrained("Cy")
    cy.break_free(held=True)
    assert bo.fatigue == 3 and cy.fatigue == 3 and cy.has("Restrained")
    with pytest.raises(RuleError, match="does not hold itself"):
        bo.hold_restrained("bo")


def test_a_seated_restrainer_pays_its_own_mark_when_it_holds() -> None:
    """Through the table, "they can mark the same" is paid on the restrainer's own sheet
    in the same step as the failed escape: the hold is never claimed without the 3
    fatigue, nor paid without holding."""
    party = Party()
    bo = party.new_character("Bo")
    cy = party.new_character("Cy")
    cy.inflict("Restrained", by="bo", until_ended=True)  # any case: the same person
    cy.start_turn()
    assert party.break_free(cy, held=True) is bo
    assert (bo.fatigue, cy.fatigue, cy.has("Restrained")) == (3, 3, True)
    assert "keep Cy restrained" in bo.log[-1].summary
    assert party.break_free(cy) is None  # Bo lets go: Cy breaks free, Bo marks nothing
    assert (bo.fatigue, cy.fatigue, cy.exhaustion, cy.has("Restrained")) == (3, 5, 1, False)


def test_a_refused_hold_changes_neither_sheet() -> None:
    party = Party()
    bo = party.new_character("Bo")
    cy = party.new_character("Cy")
    cy.inflict("Restrained", by="Bo", until_ended=True)
    with pytest.raises(RuleError, match="breaking free is done on your own turn"):
        party.break_free(cy, held=True)  # not Cy's turn
    bo.mark_exhaustion(bo.max_exhaustion)  # Bo's 3 fatigue would knock Bo out...
    bo.take_damage(bo.max_hp + bo.ac)  # ...and, dying, kill Bo: Bo is dead
    bo.mark_exhaustion(1)
    assert bo.dead
    cy.start_turn()
    with pytest.raises(RuleError, match="Restrained: Bo is dead"):
        party.break_free(cy, held=True)
    assert (bo.fatigue, cy.fatigue, cy.has("Restrained")) == (0, 0, True)
    outsider = Adventurer.new("Di")
    with pytest.raises(RuleError, match="Di is not at the table"):
        party.break_free(outsider)


def test_a_monster_restrainer_holds_on_the_gms_side() -> None:
    party = Party()
    cy = party.new_character("Cy")
    cy.inflict("Restrained", by="Ogre", until_ended=True)
    cy.start_turn()
    assert party.break_free(cy, held=True) is None
    assert cy.fatigue == 3 and cy.has("Restrained")
    assert "Ogre marks the same: still restrained" in cy.log[-1].summary


def test_a_timed_restraint_runs_out_and_lets_go() -> None:
    a = ash()
    a.inflict("Restrained", by="Ogre")
    a.start_turn()
    a.end_turn()
    assert not a.has("Restrained") and a.restrained_by == ""


# -- underwater and falling ------------------------------------------------------------------


@pytest.mark.parametrize(("affinity", "expected"), [
    ("normal", "resistant"), ("resistant", "resistant"), ("vulnerable", "normal"),
    ("immune", "immune")])
def test_underwater_fire_affinity(affinity: harm.Affinity, expected: str) -> None:
    assert harm.underwater_affinity(affinity, "Fire") == expected
    assert harm.underwater_affinity(affinity, "cold") == affinity


def test_fire_is_resisted_underwater_on_the_sheet() -> None:
    a = ash(ac=1)
    assert a.take_damage(9, damage_type="fire") == 8  # on land: AC only
    a.set_underwater()
    assert a.take_damage(9, damage_type="fire") == 4  # (9 - 1) // 2
    assert "fire underwater: resistant" in a.log[-1].summary
    assert a.take_damage(9, damage_type="cold") == 8
    assert a.take_damage(3, "vulnerable", "fire") == 2  # cancelled: AC only
    with pytest.raises(RuleError, match="already underwater"):
        a.set_underwater(True)
    a.set_underwater(False)
    assert not a.underwater and Adventurer.from_json(a.to_json()) == a


def test_underwater_attacks_have_disadvantage_without_a_swimming_speed() -> None:
    a = ash(power=2)
    a.set_underwater()
    attack = a.build_check("power", attack=True)
    assert attack.disadvantage and not a.build_check("power").disadvantage
    by_hand = Fraction(sum(1 for x in range(1, 21) for y in range(1, 21)
                           if min(x, y) == 20 or (min(x, y) != 1 and min(x, y) + 2 >= 10)),
                       400)
    assert attack.hit_chance() == by_hand == Fraction(169, 400)
    a.set_underwater(True, swimming_speed=True)
    assert not a.build_check("power", attack=True).disadvantage
    with pytest.raises(RuleError, match="already underwater with a swimming speed"):
        a.set_underwater(True, True)
    a.set_underwater(False)
    assert not a.build_check("power", attack=True).disadvantage


def test_a_fire_detonation_underwater_is_resisted() -> None:
    a = ash(max_hp=30)
    a.set_underwater()
    a.inflict("Weakened")
    expected = roll("1d10", seed=3).total // 2  # AC 0, then halved
    assert a.detonate("Weakened", seed=3, damage_type="fire") == expected
    assert "fire underwater: resistant" in a.log[-1].summary


def test_fire_damage_odds_underwater_against_enumeration() -> None:
    """2d6 fire against AC 1 underwater: exact odds through the rules against counting
    the 36 faces by hand."""
    exact = odds("2d6").map(lambda v: harm.damage_after_armor(
        v, ac=1, affinity=harm.underwater_affinity("normal", "fire")))
    counted: dict[int, Fraction] = {}
    for x in range(1, 7):
        for y in range(1, 7):
            taken = max(0, x + y - 1) // 2
            counted[taken] = counted.get(taken, Fraction(0)) + Fraction(1, 36)
    assert dict(exact) == counted


def test_falling_damage_is_reduced_by_ac_as_read() -> None:
    assert "Interpretation: falling damage is damage like any other" in (harm.__doc__ or "")
    party = Party()
    bo = party.new_character("Bo", max_hp=40, ac=2)
    fall = party.fall(30, bo, seed=4)
    assert fall.rolled is not None
    assert bo.hp == 40 - max(0, fall.rolled.total - 2)


# -- the apps ----------------------------------------------------------------------------


def test_the_sheet_app_adds_extends_and_runs_out_states() -> None:
    app = MonstersAndMagicApp(["Ash"])
    sheet = app.sheets["Ash"]
    a = sheet.adventurer
    b = widgets_by_name(sheet, kind="btn")
    sheet.state.value = "Weakened"
    b["add-state"].click()
    assert a.durations == {"Weakened": 1} and "Weakened (1 turn)" in sheet.view.value
    b["extend-state"].click()
    assert a.durations == {"Weakened": 2}
    b["six-seconds"].click()
    b["six-seconds"].click()
    assert not a.has("Weakened")
    sheet.until_ended.value = True
    b["add-state"].click()
    assert a.has("Weakened") and a.durations == {}
    assert b["extend-state"].disabled  # nothing to extend: said in its tooltip
    assert "no duration to extend" in b["extend-state"].tooltip


def test_the_sheet_panel_restrains_holds_and_burns_underwater() -> None:
    party = Party()
    a = party.new_character("Ash", max_hp=20)
    p = SheetMovesPanel(a, party, seed_source=lambda: 5)
    b = widgets_by_name(p, kind="btn")
    p.holder.value = "Ogre"
    b["restrained-by"].click()
    assert a.restrained_by == "Ogre"
    a.start_turn()
    p.held.value = True
    b["break-free"].click()
    assert a.has("Restrained") and a.fatigue == 3
    p.held.value = False
    b["break-free"].click()
    assert not a.has("Restrained")
    p.holder.value = "Bo"
    b["hold-restrained"].click()
    assert (a.fatigue, a.exhaustion) == (5, 4) and "keep Bo restrained" in a.log[-1].summary
    # A restrainer at the table pays its own mark when the escape is held from the sheet.
    bo = party.new_character("Bo")
    bo.inflict("Restrained", by="Ash", until_ended=True)
    bo.start_turn()
    bo_panel = SheetMovesPanel(bo, party, seed_source=lambda: 5)
    bo_panel.held.value = True
    widgets_by_name(bo_panel, kind="btn")["break-free"].click()
    assert bo_panel.message == "" and bo.has("Restrained") and bo.fatigue == 3
    assert a.log[-1].move == "hold_restrained" and "keep Bo restrained" in a.log[-1].summary
    p.underwater.value = True
    assert a.underwater and not a.swimming_speed
    p.swimmer.value = True
    assert a.swimming_speed and a.log[-1].move == "set_underwater"
    a.undo()
    assert not p.swimmer.value and p.underwater.value  # the boxes follow the sheet
    p.body_value.value, p.damage_type.value = "8", "fire"
    b["damage-affinity"].click()
    assert a.hp == 16 and p.message == ""
    a.undo()
    a.undo()
    assert not a.underwater and not p.underwater.value  # the box follows the sheet


@pytest.mark.parametrize(("feet", "ac", "affinity"), [
    (30, 2, "normal"), (40, 5, "normal"), (20, 0, "resistant"), (30, 1, "vulnerable"),
    (10, 9, "normal"), (9, 2, "normal")])
def test_falling_damage_odds_less_ac_against_enumeration(
        feet: int, ac: int, affinity: harm.Affinity) -> None:
    """The damage a fall leaves, as read (AC first, then any affinity): the exact odds
    against every face of every falling die counted by hand."""
    import itertools

    n = feet // 10
    counted: dict[int, Fraction] = {}
    for faces in itertools.product(range(1, 7), repeat=n):
        left = max(0, sum(faces) - ac)
        left = {"normal": left, "resistant": left // 2, "vulnerable": left * 2}[affinity]
        counted[left] = counted.get(left, Fraction(0)) + Fraction(1, 6 ** n)
    exact = harm.falling_damage_odds(feet, ac=ac, affinity=affinity)
    assert dict(exact) == counted
    assert sum(dict(exact).values()) == 1


def test_falling_damage_odds_refuse_what_damage_refuses() -> None:
    with pytest.raises(RuleError, match="AC must be"):
        harm.falling_damage_odds(30, ac=-1)
    with pytest.raises(RuleError, match="a fall must be"):
        harm.falling_damage_odds(-10)


def test_the_travel_app_shows_the_fall_less_the_fallers_ac() -> None:
    from companion.widgets.monsters_and_magic_travel import TravelApp

    party = Party()
    party.new_character("Bo", max_hp=40, ac=2)
    app = TravelApp(party=lambda: party, seed_source=lambda: 4)
    app.feet.value = "30"
    assert 'data-ac="0"' in app.fall_odds.value  # nobody chosen: the bare dice
    assert "3d6 less AC 0: no damage 0.00% · average 10.50 · at most 18" in (
        app.fall_odds.value)
    app.faller.value = "Bo"
    assert 'data-ac="2"' in app.fall_odds.value
    assert "3d6 less AC 2 (Bo): no damage 0.00% · average 8.50 · at most 16" in (
        app.fall_odds.value)  # 3d6 never rolls under 3: AC 2 takes 2 off every fall
    party.get("Bo").take_cover("Partial Cover")  # +2 AC: the line follows the sheet
    behind = harm.falling_damage_odds(30, ac=4)
    assert 'data-ac="4"' in app.fall_odds.value
    assert f"average {float(behind.mean):.2f}" in app.fall_odds.value
    assert "no damage 1.85%" in app.fall_odds.value  # 3d6 of 4 or less: 4 in 216
    app.feet.value = "200000"  # 20,000d6: too long a fall for exact odds, said in a line
    assert "20000d6 less AC 4 (Bo): more than 10,000 dice" in app.fall_odds.value
    assert app.error.message == ""
