"""Exploration turns: the tables' exact odds, the site clock at its edges, the turn
procedure step by step, light, the darkness and escaping the dungeon, saves and loads."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion import tables
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.exploration import Delve, clock_after, escape_dv
from tests.cairn_srd.test_character import FixedRng

# -- tables -------------------------------------------------------------------------------

SEED_ROWS = {
    "cairn_encounter_distance": (("1", "Nearby", Fraction(1, 6)),
                                 ("2-5", "Far", Fraction(4, 6)),
                                 ("6", "Out of range", Fraction(1, 6))),
    "cairn_darkness_fate": (("1-4", "Dead", Fraction(4, 10)), ("5", "Transformed", Fraction(1, 10)),
                            ("6", "Lost", Fraction(1, 10)), ("7", "Captured", Fraction(1, 10)),
                            ("8", "Traumatized", Fraction(1, 10)),
                            ("9", "Stripped", Fraction(1, 10)), ("10", "Scarred", Fraction(1, 10))),
    "cairn_failed_escape": tuple((str(i), name, Fraction(1, 8)) for i, name in enumerate(
        ("Unharmed", "Equipment lost", "Captured", "Lost", "Transformed", "Dead", "Betrayal",
         "Scarred"), 1)),
    "cairn_betrayal": (("1-4", "You escape.", Fraction(2, 3)),
                       ("5-6", "You both suffer the fate the betrayed comrade rolls.",
                        Fraction(1, 3))),
}


@pytest.mark.parametrize("table_id", sorted(SEED_ROWS))
def test_tables_have_the_seed_rows_and_exact_odds(table_id: str) -> None:
    got = [(row.range, next(iter(row.values.values())), p)
           for row, p in tables.get(table_id).odds()]
    assert got == list(SEED_ROWS[table_id])
    assert sum(p for *_, p in got) == 1


def test_activity_and_complication_tables_are_the_seeds() -> None:
    activity = tables.get("cairn_encounter_activity")
    assert activity.die == "1d12" and len(activity.rows) == 12
    assert activity.row_for(7).values["Activity / Desire"] == "Meeting / Planning / Scheming"
    assert activity.row_for(12).values["Activity / Desire"] == "Eating"
    assert {p for _, p in activity.odds()} == {Fraction(1, 12)}
    comp = tables.get("cairn_encounter_complication")
    assert comp.die == "1d10" and [r.values["Complication"] for r in comp.rows][::3] == [
        "Hungry", "Arrested / Trapped", "Fleeing", "Roll NPC"]
    assert {p for _, p in comp.odds()} == {Fraction(1, 10)}


def test_scar_rows_roll_on_the_scar_table() -> None:
    for table_id, face in (("cairn_darkness_fate", 10), ("cairn_failed_escape", 8)):
        result = tables.get(table_id).roll(rng=FixedRng(face, 11))
        assert result.nested[0][0] == "table:cairn_scars"
        assert "Out of action" in result.text  # the d12 showed 11


# -- the site clock -----------------------------------------------------------------------


def test_clock_edges() -> None:
    assert (clock_after(20, 6).after, clock_after(20, 6).omen) == (14, False)
    landed = clock_after(5, 2)  # reaches 3
    assert (landed.after, landed.omen, landed.encounter) == (3, True, False)
    zero = clock_after(5, 5)  # exactly zero resets to 3 with the omen
    assert (zero.after, zero.omen, zero.encounter) == (3, True, False)
    assert "back to 3" in str(zero)
    below = clock_after(5, 6)  # below zero: an encounter, a fresh clock
    assert (below.after, below.encounter, below.omen) == (20, True, False)
    passed = clock_after(4, 2)  # passing over 3 to 2 reaches 3 on the way: the omen
    assert (passed.after, passed.omen) == (2, True)
    assert clock_after(5, 3).omen and clock_after(5, 4).omen  # 5 -> 2, 5 -> 1
    shown = clock_after(3, 1)  # already at 3: its omen was shown, none again
    assert (shown.after, shown.omen) == (2, False)
    assert not clock_after(2, 1).omen
    again = clock_after(3, 3)  # from 3, exactly zero comes back to 3
    assert (again.after, again.omen) == (3, True)
    with pytest.raises(RuleError, match="never rests below 1"):
        clock_after(0, 1)


def test_site_die_steps_up_on_rest_to_d12_and_no_further() -> None:
    d = Delve()
    sizes = []
    for _ in range(5):
        d.declare("rest")
        sizes.append(d.die)
        d.describe_turn()
        d.roll_site_die(rng=FixedRng(1))
        d.mark_lights()
    assert sizes == [8, 10, 12, 12, 12]
    assert "stays d12" in d.log[3 * 4].summary  # the fourth rest's declaration
    d.declare("explore")
    assert d.die == 12  # other actions leave it
    d.new_site()
    assert (d.die, d.clock, d.turn, d.step) == (6, 20, 1, "declare")


def test_rest_turn_rolls_the_larger_die() -> None:
    d = Delve()
    d.declare("rest")
    d.describe_turn()
    with pytest.raises(AssertionError):  # a d8 cannot show a 9: the rest's roll is a d8
        d.roll_site_die(rng=FixedRng(9))
    d.roll_site_die(rng=FixedRng(8))
    assert d.clock == 12 and d.last_roll == 8


def test_turn_procedure_in_order_only() -> None:
    d = Delve()
    with pytest.raises(RuleError, match="now comes step 1"):
        d.roll_site_die(seed=1)
    with pytest.raises(RuleError, match="now comes step 1"):
        d.mark_lights()
    d.declare("explore")
    assert d.action == "Explore a new room"
    with pytest.raises(RuleError, match="now comes step 2"):
        d.declare("search")
    with pytest.raises(RuleError, match="now comes step 2"):
        d.roll_site_die(seed=1)
    d.describe_turn("a dusty crypt")
    with pytest.raises(RuleError, match="now comes step 3"):
        d.mark_lights()
    d.roll_site_die(rng=FixedRng(4))
    assert d.clock == 16 and d.step == "mark"
    with pytest.raises(RuleError, match="now comes step 4"):
        d.declare("search")
    d.mark_lights()
    assert (d.turn, d.step, d.action, d.hours) == (2, "declare", "", Fraction(1, 6))
    assert len(d.log) == 4
    with pytest.raises(RuleError, match="declare what"):
        d.declare("   ")
    d.declare("bargain with the ghoul")  # the list of actions is not closed
    assert d.action == "bargain with the ghoul"


def _turn(d: Delve, roll: int, action: str = "explore") -> ex.ClockStep:
    d.declare(action)
    d.describe_turn()
    step = d.roll_site_die(rng=FixedRng(roll))
    d.mark_lights()
    return step


def test_clock_runs_down_to_omen_and_encounter() -> None:
    d = Delve()
    for roll in (6, 6, 5):  # 20 -> 14 -> 8 -> 3
        _turn(d, roll)
    assert d.clock == 3 and d.omen and d.encounter is None
    _turn(d, 3)  # exactly zero: back to 3, the omen again
    assert d.clock == 3 and d.omen
    d.declare("explore")
    d.describe_turn()
    d.roll_site_die(rng=FixedRng(4))  # below zero
    assert d.encounter is not None and d.encounters == 1 and d.clock == 20 and not d.omen
    assert d.encounter.turn == 5
    d.roll_distance(rng=FixedRng(1))
    d.roll_activity(rng=FixedRng(12))
    assert d.encounter.distance == "Nearby" and d.encounter.activity == "Eating"
    with pytest.raises(RuleError, match="already rolled"):
        d.roll_distance(seed=1)
    d.roll_complication(rng=FixedRng(10, 1, 1, 1, 1, 1, 1))  # "Roll NPC": the NPC too
    assert d.encounter.complication == "Roll NPC" and d.encounter.npc
    d.mark_lights()
    assert d.encounter is not None  # it stays until the next roll
    _turn(d, 1)
    assert d.encounter is None
    with pytest.raises(RuleError, match="no encounter"):
        d.roll_activity(seed=1)


# -- light --------------------------------------------------------------------------------


def test_lights_burn_each_turn_and_go_out() -> None:
    d = Delve()
    d.add_light("torch", "Ash", lit=True)
    d.add_light("lantern", "Bryn")
    d.add_oil(1)
    assert d.oil == 10 and d.lights[1].turns_left == 24
    for _ in range(5):
        _turn(d, 1)
    assert d.lights[0].turns_left == 1 and d.lights[1].turns_left == 24  # unlit: unmarked
    d.light(1)
    _turn(d, 1)
    assert not d.lights[0].lit and d.lights[0].turns_left == 0
    assert "burnt out: torch (Ash)" in d.log[-1].summary
    with pytest.raises(RuleError, match="spent"):
        d.light(0)
    for _ in range(23):
        _turn(d, 1)
    assert d.lights[1].turns_left == 0 and not d.lights[1].lit and d.dark
    assert "darkness" in d.log[-1].summary
    d.refill(1)
    assert d.oil == 9 and d.lights[1].turns_left == 24
    with pytest.raises(RuleError, match="oil fills a lantern"):
        d.refill(0)


def test_candles_blow_out_when_moving_fast_unless_in_a_lantern() -> None:
    d = Delve()
    d.add_light("candle", "Ash", lit=True)
    d.add_light("candle", "Cor", lit=True)
    with pytest.raises(RuleError, match="needs a lantern"):
        d.carry_in_lantern(1)
    d.add_light("lantern", "Cor")
    d.carry_in_lantern(1)
    d.declare("hurry")
    assert [s.lit for s in d.lights] == [False, True, False]
    assert d.lights[0].turns_left == 6  # blown out, not spent
    d.describe_turn()
    d.roll_site_die(seed=3)
    d.mark_lights()
    d.light(0)
    d.move_fast(0)
    assert not d.lights[0].lit
    d.move_fast(1)
    assert d.lights[1].lit
    with pytest.raises(RuleError, match="only a candle"):
        d.carry_in_lantern(2)


def test_add_light_refuses_unknown_kinds_and_bounds() -> None:
    d = Delve()
    with pytest.raises(RuleError, match="torch, a candle or a lantern"):
        d.add_light("glowstick")
    with pytest.raises(RuleError, match="bring 1 or more"):
        d.add_oil(0)
    with pytest.raises(RuleError, match="no light source #3"):
        d.light(2)
    assert not d.log


# -- the darkness -------------------------------------------------------------------------


def test_darkness_panic_save_or_fate_once_out_of_light() -> None:
    d = Delve()
    d.add_light("torch", lit=True)
    with pytest.raises(RuleError, match="the party still has light"):
        d.darkness_panic_save("Ash", 10, seed=1)
    d.put_out(0)  # no light burns, but the torch can be lit again: not out of light
    assert d.dark and not d.out_of_light
    with pytest.raises(RuleError, match="the party still has light"):
        d.darkness_panic_save("Ash", 10, seed=1)
    with pytest.raises(RuleError, match="the party still has light"):
        d.darkness_fate("Ash", seed=1)
    d.remove_light(0)
    assert d.out_of_light
    result = d.darkness_panic_save("Ash", 10, rng=FixedRng(15))
    assert not result.success and d.panic_saves == {"Ash": False}
    with pytest.raises(RuleError, match="already saved"):
        d.darkness_panic_save("Ash", 10, seed=1)
    with pytest.raises(RuleError, match="the fate table is the other way"):
        d.darkness_fate("Ash", seed=1)
    # Bryn takes the other way: the fate table, with no panic save before it.
    text = d.darkness_fate("Bryn", rng=FixedRng(10, 5))
    assert text.startswith("Scarred") and "Rattled" in text  # the scar d12 showed 5
    with pytest.raises(RuleError, match="already rolled"):
        d.darkness_fate("Bryn", seed=2)
    with pytest.raises(RuleError, match="the panic save is the other way"):
        d.darkness_panic_save("Bryn", 10, seed=1)
    with pytest.raises(RuleError, match="the panic save is the other way"):
        d.record_panic_save("Bryn", 10, 3)
    assert Delve.from_json(d.to_json()) == d


def test_out_of_light_move_by_move() -> None:
    d = Delve()
    assert d.out_of_light  # no light source at all
    d.add_light("lantern")  # comes filled once: can be lit
    assert not d.out_of_light
    d.light(0)
    for _ in range(24):
        d.lights[0].turns_left -= 1
    d.lights[0].lit = False  # burnt its oil
    assert d.out_of_light
    d.add_oil(1)  # a lantern and oil: it can be filled and lit
    assert not d.out_of_light
    d.refill(0)
    assert not d.out_of_light and d.dark


def test_darkness_panic_on_a_character_sheet() -> None:
    d = Delve()
    hero = new_character("Bryn", 10, 10, 8, 3)
    result = ex.darkness_panic(d, hero, rng=FixedRng(12))
    assert not result.success and hero.panicking and d.panic_saves == {"Bryn": False}
    assert hero.log[-1].move == "panic_save" and d.log[-1].move == "record_panic_save"
    with pytest.raises(RuleError, match="already saved"):
        ex.darkness_panic(d, hero, seed=1)


# -- escaping -----------------------------------------------------------------------------


def test_escape_dv_never_below_zero() -> None:
    assert escape_dv() == 0
    assert escape_dv(["lost", "hindered", "lair"]) == 7
    assert escape_dv(["lost"], discarded=2) == 2
    assert escape_dv(["small_complex", "lair"], discarded=3) == 0
    assert escape_dv(["lost", "hindered"], discarded=10) == 0
    with pytest.raises(RuleError, match="no situation"):
        escape_dv(["discard"])
    with pytest.raises(RuleError, match="counts once"):
        escape_dv(["lost", "lost"])
    assert ex.best_save(9, 14, 14) == ("DEX", 14)
    assert ex.escape_chance(14, 4) == Fraction(10, 20)


def test_escape_success_and_every_failure_row() -> None:
    d = Delve()
    ok = d.escape_check("Ash", "dex", 12, ["lost"], rng=FixedRng(5))
    assert ok.success and d.escapee("Ash").stage == "escaped"
    low = d.escape_check("Bryn", "STR", 12, ["lost"], rng=FixedRng(4))  # at the DV: fails
    assert not low.success and d.escapee("Bryn").stage == "failed"
    with pytest.raises(RuleError, match="already tried"):
        d.escape_check("Bryn", "STR", 12, seed=1)
    d.failed_escape("Bryn", rng=FixedRng(2, 3, 1, 12, 7))  # 3 pieces, d12s 1, 12, 7
    bryn = d.escapee("Bryn")
    assert bryn.stage == "done" and bryn.lost_pieces == [1, 12, 7]
    assert bryn.fate.startswith("Equipment lost")
    with pytest.raises(RuleError, match="no failed escape"):
        d.failed_escape("Bryn", seed=1)
    hero = new_character("Bryn", 10, 10, 10, 3)
    hero.add_item("Rope")
    hero.add_item("Torch")
    assert ex.lost_items(hero, bryn.lost_pieces) == ["Rope", "d12 = 12: nothing",
                                                     "d12 = 7: nothing"]


def test_dead_escapee_rolls_the_check_again_for_the_body() -> None:
    d = Delve()
    d.escape_check("Cor", "CTRL", 10, ["hindered"], rng=FixedRng(18))
    d.failed_escape("Cor", rng=FixedRng(6))
    assert d.escapee("Cor").stage == "body"
    body = d.body_check("Cor", rng=FixedRng(7))  # over DV 4, at or under 10
    assert body.success and d.escapee("Cor").fate == "Dead: the body can be recovered"
    with pytest.raises(RuleError, match="no body check"):
        d.body_check("Cor", seed=1)


def test_seven_reroll_or_betray() -> None:
    d = Delve()
    d.escape_check("Ash", "STR", 10, rng=FixedRng(20))
    d.escape_check("Bryn", "STR", 10, rng=FixedRng(20))
    d.escape_check("Cor", "STR", 10, rng=FixedRng(3))  # escaped by the save
    d.failed_escape("Ash", rng=FixedRng(7))
    assert d.escapee("Ash").stage == "choice"
    with pytest.raises(RuleError, match="no 7"):
        d.betray("Bryn", "Ash", seed=1)
    d.reroll_escape("Ash")
    d.failed_escape("Ash", rng=FixedRng(7))
    with pytest.raises(RuleError, match="not yourself"):
        d.betray("Ash", "Ash", seed=1)
    # Bryn is betrayed: rolls a 7 (rolled again: no betraying back), then 4 (lost);
    # the betrayal d6 shows 5: both are lost.
    text = d.betray("Ash", "Bryn", rng=FixedRng(7, 4, 5))
    assert "betrays Bryn" in text
    assert d.escapee("Bryn").fate.startswith("Lost") and d.escapee("Ash").fate.startswith("Lost")
    assert d.escapee("Ash").stage == d.escapee("Bryn").stage == "done"
    d2 = Delve()
    d2.escape_check("Ash", "STR", 10, rng=FixedRng(20))
    d2.escape_check("Cor", "STR", 10, rng=FixedRng(3))
    d2.failed_escape("Ash", rng=FixedRng(7))
    d2.betray("Ash", "Cor", rng=FixedRng(6, 2))  # Cor dies; the d6 shows 2: Ash escapes
    assert d2.escapee("Ash").fate == "Escaped by betrayal"
    assert d2.escapee("Cor").stage == "body"
    d2.escape_check("Dara", "STR", 10, rng=FixedRng(20))
    d2.failed_escape("Dara", rng=FixedRng(7))
    with pytest.raises(RuleError, match="no longer escaping"):
        d2.betray("Dara", "Ash", seed=1)


# -- saving -------------------------------------------------------------------------------


def test_round_trip_and_undo() -> None:
    d = Delve()
    d.add_light("lantern", "Bryn", lit=True)
    d.add_oil(2)
    d.set_darkvision("Ash")
    _turn(d, 5)
    d.escape_check("Ash", "STR", 10, ["lost"], rng=FixedRng(20))
    back = Delve.from_json(d.to_json())
    assert back == d and back.log == d.log
    back.undo()
    assert back.escapes == [] and back.turn == 2
    for _ in range(4):
        back.undo()
    assert back.step == "declare" and back.clock == 20 and back.turn == 1


@pytest.mark.parametrize(("field", "value", "why"), [
    ("die", 7, "die"),
    ("clock", 0, "clock"),
    ("clock", 21, "clock"),
    ("step", "dance", "step"),
    ("lights", [{"kind": "torch", "bearer": "", "turns_left": 9, "lit": False,
                 "in_lantern": False}], "turns_left"),
    ("lights", [{"kind": "torch", "bearer": "", "turns_left": 0, "lit": True,
                 "in_lantern": False}], "lit"),
])
def test_corrupt_saves_are_refused(field: str, value: object, why: str) -> None:
    saved = json.loads(Delve().to_json())
    saved["state"][field] = value
    with pytest.raises(StateError, match=why):
        Delve.from_json(json.dumps(saved))


def test_undo_takes_a_sheet_panic_save_back_from_the_sheet_too() -> None:
    d = Delve()
    hero = new_character("Bryn", 10, 10, 8, 3)
    ex.darkness_panic(d, hero, rng=FixedRng(12))
    assert hero.panicking
    assert "panic" in ex.undo(d, [hero])
    assert not hero.panicking and not hero.log and not d.log
    d.add_light("torch")
    ex.undo(d, [hero])
    assert d.lights == []


def test_encounter_keeps_the_die_size_and_a_new_site_resets_it() -> None:
    d = Delve(clock=2, die=10)
    step = _turn(d, 5)
    assert step.encounter and d.clock == 20 and d.die == 10
    d.new_site()
    assert d.die == 6


def test_fate_only_out_of_light() -> None:
    d = Delve()
    d.darkness_fate("Ash", seed=1)
    d.add_light("torch", lit=True)
    with pytest.raises(RuleError, match="the party still has light"):
        d.darkness_fate("Bryn", seed=1)


def test_shared_death_gives_each_their_own_body_check() -> None:
    d = Delve()
    d.escape_check("Ash", "STR", 10, rng=FixedRng(20))
    d.escape_check("Bryn", "STR", 10, rng=FixedRng(20))
    d.failed_escape("Ash", rng=FixedRng(7))
    d.betray("Ash", "Bryn", rng=FixedRng(6, 6))  # Bryn dies; the d6 shows 6: Ash too
    assert d.escapee("Ash").stage == d.escapee("Bryn").stage == "body"
    d.body_check("Bryn", rng=FixedRng(1))
    d.body_check("Ash", rng=FixedRng(11))  # over DV 0, not at or under 10: destroyed
    assert d.escapee("Bryn").fate == "Dead: the body can be recovered"
    assert d.escapee("Ash").fate == "Dead: the body was destroyed"


def test_candle_in_a_lantern_burns_six_turns() -> None:
    d = Delve()
    d.add_light("lantern")
    d.add_light("candle", lit=True)
    d.carry_in_lantern(1)
    for _ in range(6):
        _turn(d, 1, "hurry")
    assert d.lights[1].turns_left == 0 and not d.lights[1].lit


def test_a_campaign_can_replay_the_log_from_its_saved_arguments() -> None:
    from companion.store.registry import decode_args, kind_key

    d = Delve(clock=3)
    d.add_light("candle", "Ash", lit=True)
    d.declare("hurry")
    d.describe_turn("quick")
    d.roll_site_die(seed=11)
    d.mark_lights()
    d.escape_check("Ash", "DEX", 12, ["lost"], 1, seed=4)
    replay = Delve(clock=3)
    for event in d.log:
        getattr(replay, event.move)(**decode_args(Delve, event.move, event.args))
    assert kind_key(Delve) == "cairn_srd/Delve"
    assert replay == d and [e.summary for e in replay.log] == [e.summary for e in d.log]
