"""What the apps used to decide is in the models: each decision a tested property or move,
and each fixed list (the gambits, their thresholds) exists once."""

from __future__ import annotations

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd import combat, reference, spellcasting
from companion.rulesets.cairn_srd.burden import Item, make_item
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.fixed_tables import rules_data
from companion.rulesets.cairn_srd.lockpicking import LockPicking


def test_item_usable_and_droppable() -> None:
    assert make_item("Torch", usage_die=6).usable
    assert make_item("Rations", "bundle", 3).usable
    assert make_item("Arrows", "stack", 20).usable
    assert make_item("Coins", "coins", 600).usable
    assert not make_item("Rope").usable and make_item("Rope").droppable
    fatigue = Item("Fatigue", kind="fatigue")
    assert not fatigue.usable and not fatigue.droppable
    c = new_character("Ash", 10, 10, 10, 3)
    c.add_item("Rope")
    with pytest.raises(RuleError, match="no usage die or count"):
        c.use_item(0)


def test_lock_state_and_what_can_be_tried() -> None:
    lock = LockPicking(sequence="TPT", complication="None")
    assert (lock.state, lock.can_pick, lock.can_study) == ("untouched", True, True)
    lock.pick("P")
    assert lock.state == "stiff"
    lock.pick("T")
    assert (lock.state, lock.progress) == ("stiff", 1)  # still stiff; the right tap turns one
    lock.pick("T")  # a wrong second action on a stiff lock jams it
    assert (lock.state, lock.can_pick, lock.can_study) == ("jammed", False, False)
    lock.break_off()
    assert lock.state == "broken off" and not lock.can_pick
    opened = LockPicking(sequence="TPT", complication="None")
    for action in "TPT":
        opened.pick(action)
    assert opened.state == "open" and not opened.can_pick
    studied = LockPicking(sequence="TPT", complication="None", revealed=3)
    assert studied.can_pick and not studied.can_study


def test_character_magic_odds_follow_mishap_one() -> None:
    c = new_character("Mage", 9, 10, 14, 3)
    assert c.fatigue_from == 4
    assert c.magic_odds(3) == spellcasting.magic_dice_odds(3, 4)
    c.mishap_fatigue_from_3 = True
    assert c.fatigue_from == 3
    assert c.magic_odds(2).fatigue[2] == spellcasting.magic_dice_odds(2, 3).fatigue[2]
    assert c.magic_odds(2).fatigue[2] == pytest.approx(4 / 9)  # faces 3-6 on both dice


def test_gambits_and_thresholds_exist_once() -> None:
    data = rules_data()["gambits"]
    assert tuple(data["options"]) == combat.GAMBITS
    assert (data["min"], data["automatic"]) == (combat.GAMBIT_MIN, combat.GAMBIT_AUTO)
    assert combat.GAMBITS[0] == combat.BOLSTER and "+1 damage" in combat.BOLSTER
    assert "4+" in combat.gambit_rule() and "8+" in combat.gambit_rule()
    assert "4-7" in combat.gambit_rule()


def test_site_shows_the_same_gambit_text() -> None:
    page = reference.reference_pages()["fixed-tables.md"]
    for option in combat.GAMBITS:
        assert f"- {option}" in page
    assert combat.gambit_rule() in page
    # the rules text (the module docstring the site shows) states the same thresholds
    doc = combat.__doc__ or ""
    assert f"{combat.GAMBIT_MIN}+" in doc and f"with {combat.GAMBIT_AUTO}+" in doc


def test_every_move_says_what_happened_in_words() -> None:
    """No move's history line is the default ``name(arg=...)`` text a player cannot read."""
    from companion.rulesets.cairn_srd.character import Character
    from companion.rulesets.cairn_srd.combat import Encounter
    from companion.rulesets.cairn_srd.mass_combat import Vessel

    c = new_character("Ash", 10, 10, 10, 3)
    c.panicking = True
    c.calm_down()
    c.enervation()
    c.make_boast("slay the wyrm", "STR")
    c.raise_stakes("DEX")
    c.shirk_boast()
    c.earn_inspiration()
    c.gain_scroll("Light")
    c.mishap_fatigue_from_3 = True
    c.end_casting_ban()
    c.dooms = 1
    c.lift_doom()
    e = Encounter()
    e.add("Ash", "PCs", guard=3, strength=10, pc=True)
    e.set_status("Ash", "fled")
    v = Vessel()
    v.load_cargo("salt")
    v.unload_cargo("hold", 0)
    v.guard = 2
    v.rest_at_port()
    v.hull = 5
    v.repair("STR")
    trackers: list[Character | Encounter | Vessel] = [c, e, v]
    for tracker in trackers:
        for event in tracker.log:
            assert "(" not in event.summary.split(" ")[0] and "=" not in event.summary, (
                event.summary)
