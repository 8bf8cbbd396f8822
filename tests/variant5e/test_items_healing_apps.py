"""Issue 15: the item-activation and Hit Dice apps, driven headless."""

from __future__ import annotations

from companion.dice import roll
from companion.rulesets.variant5e.activating_items import MagicItem
from companion.rulesets.variant5e.healing import HitDice
from companion.widgets.variant5e_healing import HitDiceApp
from companion.widgets.variant5e_items import ItemsApp
from tests.conftest import widgets_by_name


def test_items_app_charges_command_word_and_costs() -> None:
    item = MagicItem(name="wand", charges=3, max_charges=7, command_word=True)
    app = ItemsApp(item)
    b = widgets_by_name(app, kind="btn")
    app.spend.value = 2
    b["activate"].click()
    assert item.charges == 1 and 'data-charges="1"' in app.status.value
    b["activate"].click()
    assert app.error.message == "Charges: wand has 1 charges, 2 needed"
    app.silence.value = True
    app.spend.value = 1
    b["activate"].click()
    assert app.error.message == "Command Word: wand's word cannot be spoken where sound is " \
                                "prevented"
    app.regain.value = 9
    b["regain"].click()
    assert item.charges == 7
    assert 'data-cost="action"' in app.costs.value and 'data-fast-hands="false"' in app.costs.value
    app.potion.value = True
    assert 'data-cost="bonus action"' in app.costs.value
    app.own_ability.value = False
    assert "item spell attack bonus +2" in app.costs.value


def test_hit_dice_app_kit_surge_and_rolled_dice() -> None:
    tracker = HitDice(level=6, die=10, con_modifier=1, max_hp=50, hp=50, hit_dice=6)
    app = HitDiceApp(tracker, seed_source=lambda: 11)
    b = widgets_by_name(app, kind="btn")
    app.switches["healers_kit_dependency"].value = True
    assert tracker.healers_kit_dependency
    app.damage.value = 30
    b["damage"].click()
    b["short"].click()
    b["roll"].click()
    assert app.error.message.startswith("Healer's Kit Dependency: treat the wounds")
    b["kit"].click()
    b["roll"].click()
    face = roll("1d10", seed=11).total  # the engine's die for the app's seed
    assert f'data-face="{face}"' in app.last.value
    assert "<summary>details</summary>seed 11</details>" in app.last.value  # issue 31
    assert tracker.hp == 20 + face + 1 and tracker.hit_dice == 5
    assert app.face.max == 10  # the box takes what a d10 shows
    app.face.text = "11"
    b["enter"].click()
    assert "1 to 10" in app.face.refusal.message and tracker.hit_dice == 5
    app.face.value = 4
    b["enter"].click()
    assert tracker.hp == 20 + face + 1 + 5
    b["surge"].click()
    assert app.error.message == "Healing Surges: this optional rule is not in use"
    app.switches["healing_surges"].value = True
    b["surge"].click()
    assert tracker.surge_dice_left == 3 and "next die heals" in app.odds.value
    b["undo"].click()
    assert tracker.surge_dice_left == 0
