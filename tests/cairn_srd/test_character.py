"""The Cairn character tracker: burden, damage chain, scars, rest, boasts, casting, undo, JSON."""

from __future__ import annotations

import os
import random
import re
import sys

import pytest

from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.burden import make_item, roll_usage, step_down
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.damage import resolve_hit


class FixedRng(random.Random):
    """A generator that makes the dice engine's next dice show queued faces.

    The engine draws one ``random()`` per die and reads face ``1 + floor(x * sides)``, so
    the midpoint ``(face - 0.5) / sides`` shows ``face``. The die's size is read from the
    expression [companion.dice.roll][] was given (every Cairn die is ``NdS``).
    """

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def random(self) -> float:
        face = self.faces.pop(0)
        sides = _rolling_sides()
        assert 1 <= face <= sides, (face, sides)
        return (face - 0.5) / sides


def _rolling_sides() -> int:
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "roll" and frame.f_code.co_filename.endswith(
                os.path.join("dice", "roller.py")):
            match = re.fullmatch(r"\d*d(\d+)", frame.f_locals["expr"])
            assert match, frame.f_locals["expr"]
            return int(match.group(1))
        frame = frame.f_back  # type: ignore[assignment]
    raise AssertionError("FixedRng used outside companion.dice.roll")


def pc(**kw: int) -> Character:
    args = {"strength": 12, "dexterity": 10, "control": 9, "guard": 5, "armor": 2} | kw
    return new_character("Ash", **args)


# -- the seed's worked example: 2 Armor, 5 Guard, 7 rolled ------------------------------

def test_seed_example_scar_rattled() -> None:
    c = pc()
    report = c.take_damage(7, rng=FixedRng())
    assert (report.hit.absorbed, report.hit.to_guard, report.hit.to_str) == (2, 5, 0)
    assert report.scar == "Rattled"  # 5 damage taken -> row 4-6
    assert report.critical_save is None
    assert c.scars == ["Rattled"]
    assert (c.guard, c.guard_max) == (1, 6)  # Rattled: +1 Guard
    assert c.strength == 12


def test_damage_past_guard_hits_str_and_critical_save() -> None:
    c = pc()
    report = c.take_damage(10, rng=FixedRng(15))  # save d20=15 vs new STR 9: failure
    assert (report.hit.to_guard, report.hit.to_str) == (5, 3)
    assert c.strength == 9 and c.guard == 0
    assert report.scar is None  # Guard went below zero, not exactly to it
    assert report.critical_save is not None and report.critical_save.ability == 9
    assert not report.critical_save.success and c.critical
    c.undo()
    report = c.take_damage(10, rng=FixedRng(9))  # 9 <= 9: passes
    assert report.critical_save is not None and report.critical_save.success
    assert not c.critical


def test_environmental_damage_needs_no_critical_save() -> None:
    c = pc(guard=0)
    report = c.take_damage(4, combat=False)
    assert report.critical_save is None and c.strength == 10  # 2 armor soaks
    c.damage_ability("dex", 3)
    assert c.dexterity == 7 and c.guard == 0


def test_direct_damage_bypasses_armor_and_guard() -> None:
    c = pc()
    report = c.take_damage(3, direct=True, rng=FixedRng(1))
    assert (report.hit.absorbed, report.hit.to_guard, report.hit.to_str) == (0, 0, 3)
    assert c.guard == 5 and c.strength == 9


def test_str_zero_is_death_and_dead_cannot_act() -> None:
    c = pc(strength=3, guard=0, armor=0)
    c.take_damage(5)
    assert c.dead and c.status == "dead"
    with pytest.raises(RuleError, match="dead"):
        c.take_damage(1)
    with pytest.raises(RuleError, match="dead"):
        c.cast(1)


@pytest.mark.parametrize(("taken", "scar"), [
    (1, "Distressed"), (3, "Distressed"), (4, "Rattled"), (6, "Rattled"), (7, "Disfigured"),
    (9, "Disfigured"), (10, "Walloped"), (11, "Out of action"), (12, "Doomed"),
    (15, "Doomed")])
def test_scar_row_follows_damage_taken(taken: int, scar: str) -> None:
    c = pc(guard=taken, armor=0)
    report = c.take_damage(taken, rng=FixedRng(2))
    # Guard is spent to 0; only Rattled's "+1 to your Guard" gives one back.
    assert report.scar == scar and c.guard == (1 if scar == "Rattled" else 0)


def test_scar_effects() -> None:
    c = pc(guard=2, armor=0)
    r = c.take_damage(2, rng=FixedRng(4))
    assert r.scar == "Distressed" and c.control == 5  # d6 = 4 CTRL damage
    c = pc(guard=10, armor=0)
    c.take_damage(10)
    assert c.deprived and c.scar_recovery == "Walloped"
    c.recover_scar(rng=FixedRng(3))
    assert c.guard_max == 13 and not c.deprived
    with pytest.raises(RuleError, match="Scars"):
        c.recover_scar()
    c = pc(guard=11, armor=0)
    c.take_damage(11)
    assert c.critical and c.deprived
    c.recover_scar(rng=FixedRng(1, 2))  # 2d6 = 3, not above 11: +1
    assert c.guard_max == 12 and not c.critical


def test_doomed_scar_then_failed_critical_save_kills() -> None:
    c = pc(guard=12, armor=0, strength=15)
    c.take_damage(12)
    assert c.doomed_scar
    c.rest_turn()
    assert c.guard == 12
    c.take_damage(14, rng=FixedRng(20))  # 2 to STR, save 20 fails
    assert c.dead


def test_full_burden_means_zero_guard() -> None:
    c = pc(armor=0)
    for i in range(10):
        c.add_item(f"thing {i}")
    assert c.free_slots == 0 and c.effective_guard == 0
    report = c.take_damage(2, rng=FixedRng(1))
    assert report.hit.to_str == 2 and c.strength == 10
    with pytest.raises(RuleError, match="Burden"):
        c.add_item("one more")
    with pytest.raises(RuleError, match="drop an item first"):
        c.add_fatigue()


def test_burden_tags_and_slots() -> None:
    assert make_item("rations", "bundle", 3).slots == 1
    assert make_item("rations", "bundle", 4).slots == 2
    assert make_item("arrows", "stack", 10).slots == 1
    assert make_item("ring", "petty").slots == 0
    assert make_item("armor", "bulky").slots == 2
    assert make_item("silver", "coins", 500).slots == 0
    assert make_item("silver", "coins", 501).slots == 1
    assert make_item("silver", "coins", 1500).slots == 2
    with pytest.raises(RuleError, match="unknown tag"):
        make_item("x", "heavy")
    with pytest.raises(RuleError, match="Ud"):
        make_item("x", usage_die=5)


def test_usage_die_steps_down_on_one_and_is_lost_after_d4() -> None:
    assert [step_down(d) for d in (12, 10, 8, 6, 4)] == [10, 8, 6, 4, None]
    assert roll_usage(8, FixedRng(1)) == (1, 6)
    assert roll_usage(8, FixedRng(2)) == (2, 8)
    c = pc()
    c.add_item("marbles", usage_die=4)
    c.use_item(0, rng=FixedRng(3))
    assert c.items[0].usage_die == 4
    c.use_item(0, rng=FixedRng(1))
    assert c.items == []


def test_fatigue_wounds_and_rest() -> None:
    c = pc()
    c.add_fatigue(2)
    c.add_wound("Blight", major=True)
    assert c.fatigue == 2 and len(c.wounds) == 1 and c.free_slots == 7
    with pytest.raises(RuleError, match="Other Burdens"):
        c.drop_item(0)
    c.rest_night()
    assert c.fatigue == 0 and len(c.wounds) == 1
    with pytest.raises(RuleError, match="not a Wound"):
        c.add_item("rope")
        c.heal_wound(1)
    c.heal_wound(0)
    assert c.wounds == []


def test_deprived_blocks_recovery() -> None:
    c = pc(guard=5, armor=0)
    c.take_damage(3)
    c.damage_ability("STR", 2)
    c.set_deprived(True)
    c.rest_turn()
    assert c.guard == 2
    with pytest.raises(RuleError, match="Deprivation"):
        c.rest_day()
    c.set_deprived(False)
    c.rest_turn()
    c.rest_day()
    assert c.guard == 5 and c.strength == 11


def test_panic() -> None:
    c = pc(control=5)
    c.panic_save(rng=FixedRng(12))
    assert c.panicking and c.effective_guard == 0
    c.calm_down()
    with pytest.raises(RuleError, match="Panic"):
        c.calm_down()


def test_boasts() -> None:
    c = pc()
    c.make_boast("slay the wyrm", "STR")
    assert (c.strength, c.strength_max, c.guard_max) == (13, 13, 6)
    with pytest.raises(RuleError, match="only one boast"):
        c.make_boast("another", "DEX")
    c.raise_stakes("DEX")
    assert c.dexterity_max == 11
    c.shirk_boast()
    assert (c.strength_max, c.guard_max, c.dexterity_max) == (12, 5, 10)
    with pytest.raises(RuleError, match="never boast again"):
        c.make_boast("redemption", "CTRL")
    d = pc()
    d.boasts_made = 15
    d.make_boast("sixteenth", "CTRL")
    assert d.control_max == 9  # after 15 boasts: no bonus


def test_inspiration() -> None:
    c = pc()
    with pytest.raises(RuleError, match="Inspiration"):
        c.use_inspiration()
    c.earn_inspiration()
    c.earn_inspiration()
    assert c.use_inspiration(rng=FixedRng(2, 5)) == [2, 5]
    assert c.inspiration == 0


def test_cast_applies_fatigue_mishap_and_doom() -> None:
    c = pc()
    report = c.cast(3, rng=FixedRng(2, 2, 5, 4))  # double 2 -> 1d6 CTRL (4); one 5 -> Fatigue
    assert report.reading.mishap_face == 2 and c.fatigue == 1 and c.control == 5
    c = pc()
    c.cast(3, rng=FixedRng(4, 4, 4))
    assert c.fatigue == 3 and c.dooms == 1 and "doom 1" in c.casting_barred
    with pytest.raises(RuleError, match="barred"):
        c.cast(1)
    c.end_casting_ban()
    c.cast(1, rng=FixedRng(1))
    c = pc()
    c.cast(2, rng=FixedRng(3, 3))  # mishap 3: Spellburn wound
    assert [w.name for w in c.wounds] == ["Spellburn"]
    c.cast(2, rng=FixedRng(1, 1))  # mishap 1: Fatigue on 3-6 from now on
    assert c.mishap_fatigue_from_3
    c.cast(1, rng=FixedRng(3))
    assert c.fatigue == 1


def test_cast_dice_limits() -> None:
    c = pc()
    with pytest.raises(RuleError, match="invest 1-4"):
        c.cast(5)
    for i in range(8):
        c.add_item(f"thing {i}")
    with pytest.raises(RuleError, match="invest 1-2"):
        c.cast(3)
    c.cast(2, rng=FixedRng(6, 6))  # mishap 6: one more Fatigue with no room: drops an item
    # two 6s: 2 Fatigue fill the free slots; the mishap's extra Fatigue drops the last item
    assert c.fatigue == 3 and c.free_slots == 0
    assert [i.name for i in c.items if i.kind == "item"] == [f"thing {i}" for i in range(7)]


def test_third_doom_is_permanent() -> None:
    c = pc()
    c.dooms = 2
    assert c.casting_bar == ""
    c.cast(3, rng=FixedRng(1, 1, 1))
    assert c.dooms == 3
    assert c.casting_bar == "never again (the 3rd doom)"
    with pytest.raises(RuleError, match="for good"):
        c.cast(1)
    c.lift_doom()
    assert c.dooms == 2


def test_undo_and_json_round_trip() -> None:
    c = pc()
    c.add_item("sword")
    c.add_item("rations", "bundle", 3)
    c.take_damage(7, seed=3)
    c.cast(2, seed=5)
    saved = c.to_json()
    d = Character.from_json(saved)
    assert d == c and d.to_json() == saved
    for _ in range(4):
        d.undo()
    assert d == pc()
    with pytest.raises(RuleError, match="nothing to undo"):
        d.undo()


def test_refused_move_changes_nothing() -> None:
    c = pc()
    before = c.to_json()
    with pytest.raises(RuleError):
        c.add_item("")
    with pytest.raises(RuleError):
        c.take_damage(-1)
    assert c.to_json() == before


def test_corrupt_state_names_the_field() -> None:
    c = pc()
    text = c.to_json().replace('"strength": 12', '"strength": 40', 1)
    with pytest.raises(StateError, match="strength"):
        Character.from_json(text)
    text = c.to_json().replace('"guard": 5', '"guard": 9', 1)
    with pytest.raises(StateError, match="guard"):
        Character.from_json(text)
    with pytest.raises(StateError):
        Character.from_json("{not json")


def test_new_character_checks_scores() -> None:
    with pytest.raises(RuleError, match="Ability Scores"):
        new_character("X", 19, 10, 10, 3)


def test_resolve_hit_pure() -> None:
    assert resolve_hit(7, guard=5, strength=10, armor=2).scar_damage == 5
    assert resolve_hit(1, guard=5, strength=10, armor=2).to_guard == 0
    assert resolve_hit(0, guard=0, strength=10, armor=0).scar_damage is None


def test_deprived_days_add_fatigue_after_the_first() -> None:
    c = pc()
    with pytest.raises(RuleError, match="not deprived"):
        c.deprived_day()
    c.set_deprived(True)
    c.deprived_day()
    assert c.fatigue == 0
    c.deprived_day()
    c.deprived_day()
    assert c.fatigue == 2
    c.set_deprived(False)
    assert c.deprived_days == 0


def test_cumbersome_load_zeroes_guard() -> None:
    c = pc(armor=0)
    c.carry_cumbersome(True)
    assert c.effective_guard == 0
    report = c.take_damage(2, rng=FixedRng(1))
    assert report.hit.to_str == 2 and c.guard == 5
    c.carry_cumbersome(False)
    assert c.effective_guard == 5


def test_agony_enervation_maneuver() -> None:
    c = pc(armor=0)
    report = c.agony(rng=FixedRng(3))
    assert report.hit.to_guard == 3 and c.guard == 2
    c.enervation()
    assert (c.guard_max, c.guard) == (4, 2)
    result = c.maneuver_save("DEX", rng=FixedRng(15))
    assert not result.success and c.fatigue == 1
    c.maneuver_save("DEX", rng=FixedRng(2))
    assert c.fatigue == 1
    with pytest.raises(RuleError, match="no ability"):
        c.maneuver_save("LUCK")


def test_save_impact_colours_outcome() -> None:
    from companion.rulesets.cairn_srd.saves import save

    assert save(10, impact="advantage", rng=FixedRng(3)).outcome == "enhanced success"
    assert save(10, impact="advantage", rng=FixedRng(13)).outcome == "subdued consequence"
    assert save(10, impact="disadvantage", rng=FixedRng(3)).outcome == "mixed success"
    assert "worse" in save(10, impact="disadvantage", rng=FixedRng(13)).outcome
    with pytest.raises(RuleError, match="Impact"):
        save(10, impact="lucky")


def test_scrolls_and_grimoire() -> None:
    c = pc()
    with pytest.raises(RuleError, match="grimoire or scroll"):
        c.cast(1, spell="Fireball")
    c.gain_scroll("Fireball")
    c.gain_scroll("Light")
    c.cast(1, spell="Fireball", rng=FixedRng(1))
    assert c.scrolls == ["Light"]  # a scroll is used up
    with pytest.raises(RuleError, match="no grimoire"):
        c.copy_scroll(0)
    c.gain_scroll("Sleep")
    c.create_grimoire(0)
    assert c.grimoire == ["Light"] and c.deprived and c.scrolls == ["Sleep"]
    with pytest.raises(RuleError, match="already has"):
        c.create_grimoire(0)
    c.copy_scroll(0)
    assert c.grimoire == ["Light", "Sleep"] and c.scrolls == []
    c.cast(1, spell="Sleep", rng=FixedRng(2))
    c.cast(1, spell="Sleep", rng=FixedRng(2))  # a grimoire is not used up
    with pytest.raises(RuleError, match="no scroll #1"):
        c.copy_scroll(0)
    assert Character.from_json(c.to_json()) == c


def test_forced_burden_with_only_burdens_left_is_not_placed() -> None:
    c = pc()
    c.add_fatigue(8)
    c.add_wound()
    c.add_wound()
    assert c.free_slots == 0
    assert c.max_magic_dice() == 0  # no free slot: no magic dice at all
    with pytest.raises(RuleError, match="no free burden slot"):
        c.cast(1)
    c.set_deprived(True)
    c.deprived_day()
    notes = c.deprived_day()
    assert notes == ["no slot for Fatigue: every slot is already a burden"]
    assert c.fatigue == 8
