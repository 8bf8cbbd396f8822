"""Issue 15: every further move of the Monsters & Magic sheet has a button (headless)."""

from __future__ import annotations

from companion.dice import roll
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.rest_and_recovery import heal_per_supply
from companion.widgets.monsters_and_magic_sheet import SheetMovesPanel
from tests.conftest import widgets_by_name


def panel(**stats: int) -> tuple[SheetMovesPanel, Party]:
    party = Party()
    ash = party.new_character("Ash", **stats)
    return SheetMovesPanel(ash, party, seed_source=lambda: 5), party


def test_ongoing_forward_hold_and_prepared() -> None:
    p, _ = panel()
    a, b = p.adventurer, widgets_by_name(p, kind="btn")
    p.label.value, p.value.value = "blessing", 2
    b["ongoing"].click()
    b["ongoing"].click()
    assert a.ongoing == {"blessing": 2}
    assert p.errors["modifiers"].message == ("Ongoing: Ash already has an ongoing modifier "
                                             "from 'blessing'")
    b["end-ongoing"].click()
    b["forward"].click()
    p.label.value = "arrows"
    b["hold"].click()
    b["spend-hold"].click()
    assert (a.ongoing, a.forward, a.holds) == ({}, 2, {})
    b["prepared"].click()
    assert p.message == "Prepared: Ash is not Prepared"


def test_bonds_reputation_and_threads_feed_the_gm() -> None:
    p, party = panel(luck=2)
    a, b = p.adventurer, widgets_by_name(p, kind="btn")
    p.other.value, p.statement.value = "Gemma", "She saved my skin. I owe her one."
    b["bond"].click()
    p.change.value = 1
    b["resolve"].click()
    b["resolve"].click()
    assert a.bonds[0].value == 1
    assert p.errors["bonds"].message == "Bonds: only one bond can be resolved each session"
    b["session"].click()
    p.other.value = "Guild"
    b["reputation"].click()
    assert a.reputation == {"Guild": 1}
    p.other.value = "Gemma"
    b["bonds-of-fate"].click()
    assert (a.threads, party.gm.threads) == (1, 1)
    p.inspired.value = True
    b["bonds-of-fate"].click()
    assert p.message == "Bonds of Fate: Ash is not Inspired"
    a.bestow("Inspired")
    b["bonds-of-fate"].click()  # Inspired pays instead of a thread; the GM still gains
    assert ("Inspired" not in a.statuses, a.threads, party.gm.threads) == (True, 1, 2)
    p.inspired.value = False
    p.cost.value = 2
    b["lucky-find-cost"].click()
    assert p.message == "Threads of Fate: Ash has 1 thread, Lucky Find needs 2"


def test_body_moves_bargain_rest_and_gm_reroll() -> None:
    p, party = panel()
    a, b = p.adventurer, widgets_by_name(p, kind="btn")
    p.body_value.value = 5
    b["temp-hp"].click()
    p.affinity.value = "vulnerable"
    p.body_value.value = 4
    b["damage-affinity"].click()  # 4 doubled = 8: 5 absorbed, 3 from HP
    assert (a.temp_hp, a.hp) == (0, 7)
    p.body_value.value = 7
    p.affinity.value = "normal"
    b["damage-affinity"].click()
    assert a.dying
    b["refuse-bargain"].click()
    assert p.errors["body"].message == "Death & Dying: Death has no bargain for Ash"
    p2, _ = panel()
    b2 = widgets_by_name(p2, kind="btn")
    p2.gained.value = 3
    b2["gain-supplies"].click()
    p2.adventurer.take_damage(6)
    p2.rest_kind.value = "short"
    p2.first.value, p2.second.value, p2.supplies.value = "Tend to Wounds", "(none)", 2
    b2["rest"].click()
    assert p2.adventurer.hp == 4 + 2 * heal_per_supply(10) and p2.adventurer.supplies == 1
    p2.gained.value = 5
    b2["spend-supplies"].click()
    assert p2.message == "Supplies: Ash has only 1 supply"
    p2.gained.value = 1
    b2["spend-supplies"].click()
    assert p2.adventurer.supplies == 0 and p2.message == ""
    party.gm.gain_thread(1)
    b["gm-reroll"].click()
    expected = AbilityCheck(a.check_modifier("luck")).roll(seed=5)
    assert f'data-total="{expected.total}"' in p.gm_result.value and party.gm.threads == 0
    assert roll("1d20", seed=5).total == expected.natural


def test_real_numbers_and_tending_an_ally() -> None:
    party = Party()
    ash = party.new_character("Ash", supplies=2)
    bea = party.new_character("Bea", max_hp=16)
    p = SheetMovesPanel(ash, party, seed_source=lambda: 5)
    b = widgets_by_name(p, kind="btn")
    p.numbers["luck"].value, p.numbers["max_hp"].value, p.numbers["ac"].value = 3, 18, 2
    b["set-numbers"].click()
    assert (ash.luck, ash.max_hp, ash.ac, ash.hp) == (3, 18, 2, 10)
    assert list(p.ally_pick.options) == ["Bea"]
    bea.take_damage(9)
    p.rest_kind.value, p.supplies.value = "short", 2
    assert not p.sections["rest"].opened
    b["tend-ally"].click()
    assert 'data-healed="8"' in p.result.value and (ash.supplies, bea.hp) == (0, 15)
    # Tending is Ash's Tend to Wounds: the rest section opens and says one activity is left.
    assert p.sections["rest"].opened
    assert 'data-resting="short" data-left="1"' in p.rest_state.value
    assert "Ash tended Bea&#x27;s wounds (Tend to Wounds). 1 activity left" in p.rest_state.value
    b["tend-ally"].click()
    assert p.errors["rest"].message == ("Tend to Wounds: it is one activity, chosen once a "
                                        "rest, and Ash tended Bea's wounds in this rest")
    p.first.value, p.second.value = "Clear Fatigue", "Prepare"
    b["rest"].click()
    assert p.errors["rest"].message == ("Rest & Recovery: a short rest allows 2 activities, "
                                        "not 3: Ash tended Bea's wounds in this rest")
    p.second.value = "(none)"
    b["rest"].click()
    assert p.message == "" and ash.resting == "" and 'data-resting=""' in p.rest_state.value
    assert "tended Bea&#x27;s wounds; clears 0 fatigue" in p.result.value


def test_the_sheets_thread_buttons_feed_the_gm() -> None:
    from companion.widgets.monsters_and_magic import MonstersAndMagicApp

    app = MonstersAndMagicApp(["Ash"], luck=2)
    sheet = app.selected
    assert app.gm.threads == 0 and sheet.adventurer.threads == 2
    widgets_by_name(sheet, kind="btn")["lucky-find"].click()
    assert (sheet.adventurer.threads, app.gm.threads) == (1, 1)
    app.gm.reading = "uses only"
    widgets_by_name(sheet, kind="btn")["lucky-find"].click()
    assert (sheet.adventurer.threads, app.gm.threads) == (0, 1)


def test_gm_panel_switches_the_thread_reading() -> None:
    from companion.rulesets.monsters_and_magic.adventurer import GameMaster
    from companion.widgets.monsters_and_magic import GameMasterPanel

    gm = GameMaster()
    panel = GameMasterPanel(gm)
    panel.reading.value = "uses only"
    assert gm.reading == "uses only" and gm.log[-1].summary == "GM's threads: reading 'uses only'"
    assert gm.player_spent(1) == 0
    gm.undo()
    gm.undo()
    assert gm.reading == "player spends" and panel.reading.value == "player spends"


def test_death_roll_reading_is_chosen_on_the_sheet() -> None:
    p, _ = panel(luck=1)
    p.death_reading.value = "bare"
    assert p.adventurer.death_roll_reading == "bare"
    import pytest

    from companion.errors import RuleError

    with pytest.raises(RuleError, match=r"no reading called 'odd' \(sheet or bare\)"):
        p.adventurer.set_death_roll_reading("odd")


def test_sections_open_and_close_and_start_closed() -> None:
    from companion.widgets.monsters_and_magic_sheet import SECTIONS

    p, _ = panel()
    assert list(p.sections) == list(SECTIONS)
    rest = p.sections["rest"]
    assert not any(sec.opened for sec in p.sections.values())
    assert rest.body.layout.display == "none" and rest.toggle.description == (
        "▸ Rests and supplies")
    widgets_by_name(p, kind="btn")["section-rest"].click()
    assert rest.opened and rest.body.layout.display is None
    assert rest.toggle.description == "▾ Rests and supplies"
    rest.toggle.click()
    assert not rest.opened and rest.body.layout.display == "none"
    # Every button of the panel sits in a section body (or is a section's title).
    bodies = [sec.body for sec in p.sections.values()]
    for name, btn in widgets_by_name(p, kind="btn").items():
        assert name.startswith("section-") or any(
            btn in widgets_by_name(body, kind="btn").values() for body in bodies), name


def test_the_sheet_pays_any_thread_move_with_inspired() -> None:
    from companion.widgets.monsters_and_magic import MonstersAndMagicApp

    app = MonstersAndMagicApp(["Ash"], luck=1, seed_source=lambda: 3)
    sheet = app.selected
    a, b = sheet.adventurer, widgets_by_name(sheet, kind="btn")
    b["roll"].click()
    sheet.inspired.value = True
    assert b["bend-luck"].disabled and "not Inspired" in b["bend-luck"].tooltip
    a.bestow("Inspired")
    assert not b["bend-luck"].disabled
    b["bend-luck"].click()
    assert ("Inspired" in a.statuses, a.threads, app.gm.threads) == (False, 1, 1)
    assert sheet.message == ""


def test_break_free_variable_ap_costs_and_deaths_bargain() -> None:
    from companion.widgets.monsters_and_magic_sheet import OTHER_TECHNIQUE

    p, _ = panel()
    a, b = p.adventurer, widgets_by_name(p, kind="btn")
    a.inflict("Restrained")
    b["break-free"].click()
    assert p.errors["turn"].message == "Restrained: breaking free is done on your own turn"
    a.start_turn()
    b["spend-ap-amount"].click()
    assert p.errors["turn"].message == "Restrained: Ash cannot spend AP until breaking free"
    b["break-free"].click()
    assert "Restrained" not in a.conditions and a.fatigue == 3 and p.message == ""
    p.ap_what.value, p.ap_cost.value = "Dodge", 1
    b["spend-ap-amount"].click()
    assert p.message == "Basic Techniques: Dodge costs at least 2 AP" and a.ap == 3
    p.ap_what.value, p.ap_cost.value = OTHER_TECHNIQUE, 2  # a spell of the class, say
    b["spend-ap-amount"].click()
    assert a.ap == 1 and a.log[-1].summary == "Ash: action for 2 AP (1 left)"
    a.end_turn()
    a.take_damage(10)
    while not a.dead:
        a.mark_exhaustion(1)
    p.who.value = "serve the Raven Queen"
    b["accept-bargain"].click()
    assert a.stable and not a.dead and p.message == ""
    assert a.log[-1].summary == ("Ash: accepts Death's bargain: serve the Raven Queen and "
                                 "stabilizes")


def test_an_extended_rest_takes_one_activity_from_the_sheet() -> None:
    p, _ = panel()
    a, b = p.adventurer, widgets_by_name(p, kind="btn")
    a.take_damage(6)
    a.mark_exhaustion(3)
    p.rest_kind.value = "extended"
    p.first.value, p.second.value = "Recuperate", "Get a Job"
    b["rest"].click()
    assert p.errors["rest"].message == ("Rest & Recovery: an extended rest allows 1 activity, "
                                        "not 2")
    assert a.hp == 4
    p.second.value = "(none)"
    b["rest"].click()
    assert (a.hp, a.exhaustion, p.message) == (10, 1, "")
    assert "recuperates: full HP, no fatigue, 2 exhaustion recovered" in p.result.value
    p.first.value = "Take Watch"
    b["rest"].click()
    assert p.message == ("Rest & Recovery: 'Take Watch' is not an extended rest activity "
                         "(Recuperate, Level Up, Work on a Project, Get a Job)")


def test_a_rest_roll_from_the_sheet_follows_the_results_table() -> None:
    """Issue 30: Gather Supplies uses up forward, and a critical miss on it gives 2 XP and
    the GM a thread (the sheet's rest goes through the table)."""
    import random

    from companion.rulesets.monsters_and_magic.ability_checks import Tier

    seed = next(s for s in range(3000)
                if AbilityCheck(2).roll(rng=random.Random(s)).tier == Tier.CRITICAL_MISS)
    party = Party()
    ash = party.new_character("Ash")
    p = SheetMovesPanel(ash, party, seed_source=lambda: seed)
    ash.take_forward(2)
    p.rest_kind.value = "short"
    p.first.value, p.second.value = "Gather Supplies", "(none)"
    widgets_by_name(p, kind="btn")["rest"].click()
    assert p.message == "" and "Critical Miss" in p.result.value
    assert (ash.forward, ash.xp, party.gm.threads) == (0, 2, 1)


def test_take_watch_from_the_sheet_with_the_gms_dc() -> None:
    """Issue 30: Take Watch follows the results table; given the GM's hidden DC, a miss
    gives its 1 XP (unticked, the sheet applies only a natural 20 or 1). The DC is for a
    long rest only, refused under the section for any other, with nothing rolled."""
    import random

    from companion.rulesets.monsters_and_magic.ability_checks import Tier

    seed = next(s for s in range(3000)
                if AbilityCheck(1, 14).roll(rng=random.Random(s)).tier == Tier.MISS
                and AbilityCheck(1).roll(rng=random.Random(s)).tier == Tier.WEAK_HIT)
    party = Party()
    ash = party.new_character("Ash", focus=1)
    p = SheetMovesPanel(ash, party, seed_source=lambda: seed)
    b = widgets_by_name(p, kind="btn")
    p.rest_kind.value = "long"
    p.first.value, p.second.value = "Take Watch", "(none)"
    b["rest"].click()  # no DC given: the GM compares the total, the sheet gives no XP
    assert p.message == "" and "compares it with the hidden DC" in p.result.value
    assert ash.xp == 0
    p.watch_dc_given.value, p.watch_dc.value = True, "14"
    b["rest"].click()
    assert p.message == "" and "vs DC 14: Miss" in p.result.value
    assert ash.xp == 1 and ash.rest_results is not None
    assert ash.rest_results.tiers == ["Miss"]
    p.watch_dc.value = "lots"
    b["rest"].click()
    assert ash.xp == 1 and len(ash.log) == 2  # a bad DC rests nothing
    p.watch_dc.value = "14"
    p.rest_kind.value = "short"
    p.first.value = "Gather Supplies"
    b["rest"].click()
    assert p.errors["rest"].message == ("Take Watch: it is a long rest activity; untick "
                                        "the watch DC for a short rest")
    assert ash.short_rests_in_a_row == 0 and len(ash.log) == 2
