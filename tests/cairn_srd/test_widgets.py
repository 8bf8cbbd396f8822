"""Headless tests of the Cairn apps: clicks call the core, seeds are drawn and shown, typed
input is refused under its box (and the action does not run), buttons that cannot work are
disabled, and players never read a Python repr."""

from __future__ import annotations

import ipywidgets as widgets

from companion import dice
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.combat import GAMBITS
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.widgets.base import SaveLoad
from companion.widgets.cairn_srd import (
    CairnCharacterApp,
    CombatApp,
    DuelApp,
    LockpickingApp,
    SpellcastingApp,
    demo_encounter,
)
from tests.cairn_srd.widget_find import find_button, fixed_seeds, has_button, walk


def test_every_app_saves_and_loads_through_saveload() -> None:
    for app in (CairnCharacterApp(), SpellcastingApp(), DuelApp(), LockpickingApp(),
                CombatApp(demo_encounter())):
        files = [w for w in walk(app) if isinstance(w, SaveLoad)]
        assert len(files) == 1
        files[0].load_box.value = "{broken"
        find_button(files[0], "load").click()
        assert "not valid JSON" in files[0].error.message


def test_sheet_fill_slot_damage_scar_undo_and_seed_shown() -> None:
    sheet = CairnCharacterApp(seed_source=fixed_seeds(77))
    c = sheet.character
    sheet.item_name.value = "Rope"
    find_button(sheet, "add-item").click()
    assert [i.name for i in c.items] == ["Rope"] and c.free_slots == 9
    assert not has_button(sheet, "use-0")  # a rope has no usage die or count
    find_button(sheet, "drop-0").click()
    assert c.items == []
    sheet.damage_box.value = 7  # 2 Armor, 5 Guard: the seed's example
    find_button(sheet, "take-damage").click()
    assert c.guard == 1 and 'data-scar="Rattled"' in sheet.outcome.value
    assert 'data-seed="77"' in sheet.outcome.value and "seed 77" in sheet.outcome.value
    assert c.log[-1].args["seed"] == 77  # recorded with the move, kept by a save
    find_button(sheet, "undo").click()
    assert c.guard == 5 and c.scars == []


def test_sheet_refuses_bad_input_under_the_box_and_does_nothing() -> None:
    sheet = CairnCharacterApp()
    c = sheet.character
    for text, why in (("lots", "not a whole number"), ("-5", "too low"), ("", "empty"),
                      ("100", "too high")):
        sheet.damage_box.text = text
        assert why in sheet.damage_box.refusal.message  # shown under the box at once
        find_button(sheet, "take-damage").click()
        assert why in sheet.error.message and not c.log
    sheet.damage_box.text = "3"
    assert sheet.damage_box.refusal.message == ""
    sheet.item_name.text = "x" * 5000
    assert "too long" in sheet.item_name.refusal.message
    find_button(sheet, "add-item").click()
    assert c.items == [] and "too long" in sheet.error.message
    sheet.item_name.text = "Arrows"
    sheet.item_tag.value = "stack"
    sheet.item_qty.text = "-1000"
    find_button(sheet, "add-item").click()
    assert c.items == [] and "too low" in sheet.error.message


def test_sheet_new_character_needs_a_second_tap() -> None:
    sheet = CairnCharacterApp()
    sheet.new_name.value = "Bryn"
    sheet.new_stats["STR"].value = 14
    button = find_button(sheet, "new-character")
    button.click()
    assert sheet.character.name == "Ash" and button.description.startswith("Tap again")
    button.click()
    assert sheet.character.name == "Bryn" and sheet.character.strength == 14
    sheet.new_stats["GD"].text = "19"
    assert "too high" in sheet.new_stats["GD"].refusal.message
    button.click()
    button.click()
    assert sheet.character.guard_max == 5 and "too high" in sheet.error.message


def test_sheet_boasts_and_inspiration_buttons_follow_the_sheet() -> None:
    sheet = CairnCharacterApp(seed_source=fixed_seeds(5))
    c = sheet.character
    assert find_button(sheet, "roll-inspiration").disabled
    assert find_button(sheet, "fulfil").disabled and find_button(sheet, "undo").disabled
    find_button(sheet, "boast").click()
    assert "needs a goal" in sheet.error.message
    sheet.boast_goal.value = "topple the tyrant"
    sheet.boast_ability.value = "DEX"
    find_button(sheet, "boast").click()
    assert c.boast == "topple the tyrant" and c.dexterity == 11 and c.guard_max == 6
    assert find_button(sheet, "boast").disabled and not find_button(sheet, "fulfil").disabled
    find_button(sheet, "fulfil").click()
    find_button(sheet, "inspire").click()
    find_button(sheet, "roll-inspiration").click()
    face = dice.roll("1d6", seed=5).total
    # The line is the move's own (a named act: the session logs the tracker's words).
    assert f"Ash rolls inspiration {face}: keep one" in sheet.outcome.value \
        and c.inspiration == 0
    assert "[" not in sheet.outcome.value


def test_spellcasting_odds_cast_and_disabled_dice() -> None:
    app = SpellcastingApp(seed_source=fixed_seeds(9))
    find_button(app, "dice-3").click()
    assert "44.44%" in app.odds.value and "2.78%" in app.odds.value
    find_button(app, "cast").click()
    rolled = [d.value for d in dice.roll("3d6", seed=9).dice]
    assert app.character.log[-1].move == "cast"
    assert f"magic dice {', '.join(map(str, rolled))}:" in app.outcome.value
    full = new_character("Full", 10, 10, 10, 3)
    for i in range(9):
        full.add_item(f"thing {i}")
    app = SpellcastingApp(full)
    assert [find_button(app, f"dice-{n}").disabled for n in (1, 2, 3, 4)] == [
        False, True, True, True]  # one free slot: one magic die
    full.add_item("one more")
    assert find_button(app, "dice-1").disabled and find_button(app, "cast").disabled


def test_duel_needs_stakes_then_hides_until_both_choose() -> None:
    app = DuelApp(seed_source=fixed_seeds(3))
    assert find_button(app, "choose-0-attack").disabled  # not started: nothing to choose
    app.stakes.value = "first blood"
    app.hp_boxes[0].text = "-7"
    find_button(app, "start").click()
    assert "too low" in app.error.message and not app.duel.started
    app.hp_boxes[0].value = 8
    find_button(app, "start").click()
    find_button(app, "choose-0-attack").click()
    assert "attack" not in app.outcome.value.lower().replace("(hidden)", "")
    assert find_button(app, "choose-0-defend").disabled
    find_button(app, "choose-1-defend").click()
    assert app.duel.rounds == 1 and "attack vs Osk defend" in app.outcome.value
    assert 'data-seed="3"' in app.outcome.value


def test_lockpicking_buttons_follow_the_lock() -> None:
    app = LockpickingApp(LockPicking(sequence="TPT", complication="None"),
                         seed_source=fixed_seeds(4))
    lock = app.lock
    find_button(app, "pick-P").click()
    assert lock.state == "stiff"
    find_button(app, "pick-R").click()
    assert lock.state == "jammed"
    assert all(find_button(app, f"pick-{k}").disabled for k in "TPR")
    assert find_button(app, "study").disabled and not find_button(app, "break").disabled
    find_button(app, "break").click()
    assert lock.broken and find_button(app, "break").disabled
    find_button(app, "new-lock").click()
    assert not lock.broken and "(seed 4)" in app.outcome.value


def started(seeds: list[int]) -> CombatApp:
    app = CombatApp(demo_encounter(), seed_source=fixed_seeds(*seeds))
    app.encounter.add("Bryn", "PCs", guard=3, strength=10, weapon=6, pc=True)
    find_button(app, "initiative").click()
    app.encounter.end_turn()  # the PCs' turn, whatever initiative gave
    return app


def test_combat_add_speaks_words_and_refuses_long_names() -> None:
    app = CombatApp(demo_encounter())
    app.f_name.value = "Troll"
    app.f_stats["GD"].value = 3
    find_button(app, "add").click()
    text = app.outcome.value
    assert "Troll joins the Enemies" in text and "side=" not in text and "False" not in text
    app.f_name.text = "x" * 5000
    find_button(app, "add").click()
    assert "too long" in app.error.message and len(app.encounter.combatants) == 4
    app.f_name.text = "Ogre"
    app.f_stats["GD"].text = "-5"
    find_button(app, "add").click()
    assert "too low" in app.f_stats["GD"].refusal.message and len(app.encounter.combatants) == 4
    app.f_stats["GD"].value = 4
    app.f_name.value = "Ash"
    find_button(app, "add").click()
    assert "already a combatant" in app.error.message


def test_combat_group_attack_keeps_the_highest() -> None:
    app = started([11])
    app.attacker.value, app.target.value = "Ash", "Goblin boss"
    app.joiners.value = ("Bryn", "Ash", "Goblin boss")  # attacker and target: nothing more
    find_button(app, "attack").click()
    assert app.error.message == ""
    last = app.encounter.log[-1]
    assert last.move == "attack" and "Ash + Bryn → Goblin boss: d8=" in app.outcome.value
    import random
    r = random.Random(11)
    rolls = [dice.roll("1d8", rng=r).total, dice.roll("1d6", rng=r).total]
    assert f"d8={rolls[0]}, d6={rolls[1]}, keep {max(rolls)}" in last.summary


def test_combat_gambit_roll_choose_apply() -> None:
    app = started([1])
    e = app.encounter
    app.attacker.value, app.target.value = "Ash", "Goblin boss"
    app.second_weapon.value = 4
    find_button(app, "roll-gambit").click()
    p = e.pending
    assert p is not None and "rolled d8=" in app.outcome.value
    assert find_button(app, "attack").disabled and find_button(app, "end-turn").disabled
    offered = {i for i, v in enumerate(p.rolls) if v >= 4}
    assert set(app.gambit_choices) == offered
    for i in offered:
        app.gambit_choices[i].value = GAMBITS[2]
    find_button(app, "resolve").click()
    assert e.pending is None and e.log[-1].move == "resolve_attack"
    assert all(isinstance(c, widgets.Widget) for c in app.gambits.children) and not (
        app.gambits.children)


def test_combat_blast_over_several_targets() -> None:
    app = started([15])
    e = app.encounter
    app.attacker.value, app.target.value = "Ash", "Goblin boss"
    app.blast_targets.value = ("Goblin", "Goblin boss")
    app.joiners.value = ("Bryn",)
    moves = len(e.log)
    find_button(app, "attack").click()
    assert "no joined attackers" in app.error.message and len(e.log) == moves
    find_button(app, "roll-gambit").click()
    assert "one at a time" in app.error.message and e.pending is None
    app.joiners.value = ()
    find_button(app, "attack").click()
    assert app.error.message == "" and e.log[-1].move == "attack"
    assert "Ash → Goblin boss: d8 = " in e.log[-1].summary
    assert e.log[-1].summary.count("(blast)") == 2


def test_app_and_site_word_the_gambits_from_the_same_data() -> None:
    from companion.rulesets.cairn_srd import reference
    from companion.rulesets.cairn_srd.combat import gambit_rule

    app = started([2])
    app.attacker.value, app.target.value = "Ash", "Goblin"
    app.second_weapon.value = 12
    find_button(app, "roll-gambit").click()
    offered = list(app.gambit_choices.values())
    assert len(offered) == 2  # seed 2: d8=8, d12=12, both may buy a gambit
    shown = "".join(getattr(w, "value", "") for w in walk(app.gambits)
                    if isinstance(w, widgets.HTML))
    assert gambit_rule() in shown.replace("&#x27;", "'")
    site = reference.reference_pages()["fixed-tables.md"]
    assert gambit_rule() in site
    for dd in offered:
        assert [label for label, _ in dd.options][1:] == list(GAMBITS)
    for option in GAMBITS:
        assert f"- {option}" in site


def test_a_typed_seed_replays_a_roll_and_a_bad_one_is_refused() -> None:
    app = CairnCharacterApp()
    find_button(app, "panic").click()
    first = app.outcome.value
    seed = app.last_seed
    assert seed is not None and f"seed {seed}" in first
    app.character.undo()
    app.seed_box.value = str(seed)
    find_button(app, "panic").click()
    assert app.outcome.value.split(">", 1)[1] == first.split(">", 1)[1]  # same roll again
    for bad in ("abc", "-1", str(2**53), "1" * 40):
        app.seed_box.text = bad
        assert "a seed is a whole number" in app.seed_box.refusal.message
        moves = len(app.character.log)
        find_button(app, "panic").click()
        assert len(app.character.log) == moves and "Seed:" in app.error.message
    app.seed_box.text = ""
    assert app.seed_box.refusal.message == ""


def test_magic_dice_from_items_reach_past_four() -> None:
    mage = new_character("Mage", 9, 10, 14, 3)  # an empty sheet: 10 free slots
    app = SpellcastingApp(mage, seed_source=fixed_seeds(5))
    assert find_button(app, "dice-5").layout.display == "none"
    app.item_dice.value = 2
    assert find_button(app, "dice-6").layout.display == "" and not find_button(
        app, "dice-6").disabled
    assert "(most dice now: 6)" in app.odds.value
    find_button(app, "dice-6").click()
    find_button(app, "cast").click()
    assert mage.log[-1].move == "cast" and mage.log[-1].args["extra_dice"] == 2
    assert mage.log[-1].args["dice"] == 6
    app.item_dice.value = 0
    assert find_button(app, "dice-6").disabled


def test_combat_header_names_who_acts_first_after_initiative() -> None:
    # Seed 1: Ash's DEX save passes, so Ash acts before the enemies in round 1; seed 2 fails.
    app = CombatApp(demo_encounter(), seed_source=fixed_seeds(1))
    find_button(app, "initiative").click()
    assert "Round <b>1</b> · acting first: Ash, then Enemies act" in app.board.value
    app.encounter.end_turn()
    assert "acting first" not in app.board.value and "PCs act" in app.board.value
    app = CombatApp(demo_encounter(), seed_source=fixed_seeds(2))
    find_button(app, "initiative").click()
    assert "Round <b>1</b> · Enemies act" in app.board.value


def test_a_logged_attack_names_attacker_and_target_once() -> None:
    from companion import fairplay

    line = fairplay.summary("roll", {"mode": "public", "rule": True,
                                     "label": "Ghoul → Ash: attack",
                                     "text": "Ghoul → Ash: d6 = 2; armor 0, Guard 2, STR 0"})
    assert line == "Ghoul → Ash: attack: d6 = 2; armor 0, Guard 2, STR 0"
    assert fairplay.rule_line("Ann: check", "16: success") == "Ann: check: 16: success"


def test_the_dice_shown_are_the_ones_the_logged_seed_rolls() -> None:
    """The seed the session logs (a sitting's derived one) is the seed the move rolled
    with: the app once rolled a seed it drew itself and logged the sitting's, so the log
    could not replay the dice shown."""
    from companion import dice

    app = CairnCharacterApp()
    for _ in range(5):
        find_button(app, "panic").click()
        entry = app.session().log()[-1]
        assert entry.kind == "roll" and (entry.data or {}).get("fair"), entry
        d20 = dice.roll("1d20", seed=entry.seed).total  # a save's d20 is the engine's
        assert f"d20 = {d20} " in app.outcome.value, (entry.seed, app.outcome.value)
        assert app.character.log[-1].args["seed"] == entry.seed
