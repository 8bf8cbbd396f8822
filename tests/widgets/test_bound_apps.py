"""The 5e apps (Hit Dice, combat turn, facing, items, party of casters) and the Monsters &
Magic travel app, bound to a real SQLite campaign: they list the campaign's party (never
demo names), keep every move in the campaign's trackers, a second screen sees the move
after its sync, and re-opening the campaign keeps it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.rulesets.variant5e.actions import Turn
from companion.rulesets.variant5e.activating_items import MagicItem
from companion.rulesets.variant5e.facing_and_flanking import FacingTracker
from companion.rulesets.variant5e.healing import HitDice, fixed_hit_points
from companion.rulesets.variant5e.mark import Reactions
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.store import open_campaign, open_store
from companion.store.campaign import Campaign
from companion.widgets.table import TableApp
from companion.widgets.table.apps import DEMO_NAMES, CharacterPanel, spec
from companion.widgets.table.binding import PageContext
from tests.conftest import campaign_of, session_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "table.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    yield path


def fresh_table(ruleset: str, name: str = "Tuesday") -> TableApp:
    app = TableApp(PageContext(who="Mira", role="gm"), background=False)
    app.new_name.value = name
    app.ruleset.value = ruleset
    app.create_button.click()
    assert app.error.message == ""
    assert campaign_of(app.session) is not None
    # The start app builds every app in the background: once built, the apps follow the
    # party as it joins (nothing is left running behind the test's moves).
    assert app.warm.wait(30)
    return app


def add_member(app: TableApp, ruleset: str, name: str, kind: str | None = None,
               **numbers: int) -> None:
    form = app.forms[ruleset]
    form["name"].value = name
    if kind is not None:
        form["kind"].value = kind
    for key, value in numbers.items():
        form["boxes"][key].value = value
    form["add"].click()
    assert app.error.message == ""


def party_5e() -> TableApp:
    app = fresh_table("variant5e")
    add_member(app, "variant5e", "Ash", "full caster", level=5, hp=38, die=8, con=2)
    add_member(app, "variant5e", "Briar", "creature", level=3, hp=27, die=10, con=1)
    return app


def second_screen(db: Path) -> Campaign:
    # The GM's phone: these tests are about screens in step (who may do what: the seat
    # tests), so the second screen may move anyone's records.
    return open_campaign(open_store(db), "Tuesday", who="Mira's phone", role="gm")


def build(campaign: Campaign, key: str) -> Any:
    """The app as another kernel builds it for its own campaign object."""
    return spec(key).build(session_of(campaign))


def picked(panel: CharacterPanel, name: str) -> Any:
    panel.picker.value = name
    assert panel.error.message == ""
    return panel.app


def names(panel: Any) -> list[str]:
    return [o if isinstance(o, str) else o[0] for o in panel.picker.options]


# --- Hit Dice ---------------------------------------------------------------------------


def test_hit_dice_are_the_members_own_kept_and_seen_by_a_second_screen(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    # The start app's boxes made each member's Hit Dice record.
    ash_hd = campaign_of(app.session).tracker("Hit Dice: Ash", HitDice)
    assert (ash_hd.level, ash_hd.die, ash_hd.con_modifier, ash_hd.max_hp, ash_hd.hit_dice) == (
        5, 8, 2, 38, 5)
    assert "HP 38/38 · Hit Dice 5/5 d8+2" in app.party.value
    panel = app.open_app("hit_dice")
    assert names(panel) == ["Ash", "Briar"]
    assert not set(DEMO_NAMES) & set(names(panel)) - {"Ash", "Briar"}
    hd_app = picked(panel, "Ash")
    assert hd_app.model is ash_hd
    hd_app.damage.value = 20
    hd_app.buttons["damage"].click()
    hd_app.buttons["short"].click()
    hd_app.face.value = 6
    hd_app.buttons["enter"].click()  # a d8 showing 6, +2 CON: 8 back
    assert hd_app.error.message == ""
    assert 'data-hp="26" data-hit-dice="4"' in hd_app.status.value
    briar = picked(panel, "Briar")
    assert briar.model is campaign_of(app.session).tracker("Hit Dice: Briar", HitDice)
    assert 'data-hp="27" data-hit-dice="3"' in briar.status.value

    other = second_screen(db)
    there = build(other, "hit_dice")
    assert names(there) == ["Ash", "Briar"]
    phone = picked(there, "Ash")
    assert 'data-hp="26" data-hit-dice="4"' in phone.status.value
    hd_app.buttons["long"].click()  # a move on the laptop...
    assert 'data-hp="26"' in phone.status.value
    assert other.refresh()  # ...arrives on the phone with its sync
    assert 'data-hp="38" data-hit-dice="5"' in phone.status.value
    phone.damage.value = 5
    phone.buttons["damage"].click()  # and the other way round
    campaign_of(app.session).refresh()  # (the live thread may have applied it already)
    assert 'data-hp="33"' in hd_app.status.value
    again = open_campaign(open_store(db), "Tuesday")
    kept = again.tracker("Hit Dice: Ash", HitDice)
    assert (kept.hp, kept.hit_dice) == (33, 5)
    assert [e.who for e in again.log()][-1] == "Mira's phone"


def test_a_member_without_hit_dice_gets_them_on_first_use(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    campaign_of(app.session).add("Cole", SpellPoints.new(7, "half"))  # e.g. from the command line
    assert "Hit Dice: Cole" not in {m.name for m in campaign_of(app.session)}
    panel = app.open_app("hit_dice")
    assert names(panel) == ["Ash", "Briar", "Cole"]
    cole = picked(panel, "Cole")
    hd = campaign_of(app.session).tracker("Hit Dice: Cole", HitDice)
    assert cole.model is hd
    assert (hd.level, hd.die, hd.max_hp, hd.hp) == (7, 8, 8 + 6 * 5, 8 + 6 * 5)
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Hit Dice: Cole", HitDice).max_hp == fixed_hit_points(7, 8, 0)


def test_the_party_editor_checks_and_edits_the_hit_dice_numbers(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    form = app.forms["variant5e"]
    head = campaign_of(app.session).head
    form["name"].value = "Dree"
    form["boxes"]["die"].value = 7
    form["add"].click()
    assert app.error.message == "Hit Dice: a Hit Die is a d6, d8, d10 or d12, not d7"
    assert campaign_of(app.session).head == head  # nothing stored, not even the member
    hd = campaign_of(app.session).tracker("Hit Dice: Ash", HitDice)
    hd.take_damage(10)
    form["edit_pick"].value = campaign_of(app.session).member("Ash").id
    assert {k: b.value for k, b in form["edit_boxes"].items()} == {
        "level": 5, "hp": 38, "die": 8, "con": 2}
    form["edit_boxes"]["level"].value = 6
    form["edit_boxes"]["hp"].value = 45
    form["save"].click()
    assert app.error.message == ""
    assert (hd.level, hd.max_hp, hd.hp, hd.hit_dice) == (6, 45, 35, 6)  # damage stays taken
    assert campaign_of(app.session).tracker("Ash", SpellPoints).class_level == 6
    # A creature's numbers are editable too (its Hit Dice record).
    form["edit_pick"].value = campaign_of(app.session).member("Briar").id
    assert form["edit_boxes"]["die"].value == 10


def test_a_5e_member_leaves_with_their_records(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    picked(app.open_app("combat_turn"), "Ash")
    items = picked(app.open_app("magic_items"), "Ash")
    items.new_name.value = "wand of web"
    items.add_button.click()
    form = app.forms["variant5e"]
    assert [n for n, _ in form["leave_pick"].options] == ["Ash", "Briar"]  # no records
    form["leave_pick"].value = campaign_of(app.session).member("Ash").id
    form["leave"].click()
    form["leave"].click()
    assert app.error.message == ""
    left = {m.name for m in open_campaign(open_store(db), "Tuesday")}
    assert not {n for n in left if "Ash" in n}
    assert "Hit Dice: Briar" in left


# --- combat turn ------------------------------------------------------------------------


def test_combat_turn_is_each_creature_s_own(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    panel = app.open_app("combat_turn")
    assert names(panel) == ["Ash", "Briar"]
    turn = picked(panel, "Briar")
    assert turn.turn is campaign_of(app.session).tracker("Turn: Briar", Turn)
    assert turn.reactions is campaign_of(app.session).tracker("Reactions: Briar", Reactions)
    turn.action.value = "dodge"
    turn.buttons["action"].click()
    turn.buttons["own-start"].click()
    turn.target.value = "ogre"
    turn.buttons["melee"].click()
    assert turn.error.message == ""
    assert "dodging" in turn.status.value and "marked: ogre" in turn.status.value
    other = second_screen(db)
    phone = picked(build(other, "combat_turn"), "Briar")
    assert "dodging" in phone.status.value and "marked: ogre" in phone.status.value
    turn.buttons["start"].click()
    other.refresh()
    assert "dodging" not in phone.status.value
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Reactions: Briar", Reactions).marked == "ogre"
    assert again.tracker("Turn: Briar", Turn).action == ""


# --- facing -----------------------------------------------------------------------------


def test_facing_is_the_defender_s_own_record(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    panel = app.open_app("facing")
    assert names(panel) == ["Ash", "Briar"]
    facing = picked(panel, "Ash")
    # Stored on its first move.
    assert "Facing: Ash" not in {m.name for m in campaign_of(app.session)}
    assert facing.defender.title == "Ash"
    facing.turn_to.value = "east"
    facing.buttons["end-move"].click()
    assert campaign_of(app.session).tracker("Facing: Ash", FacingTracker).facing == "east"
    facing.toward.value = "goblin"
    facing.turn_to.value = "south"
    facing.buttons["react"].click()
    assert facing.error.message == ""
    assert facing.defender.facing.value == "south"  # the defender turned with its record
    other = second_screen(db)
    phone = picked(build(other, "facing"), "Ash")
    assert phone.defender.facing.value == "south"
    assert "tracking goblin" in phone.status.value
    facing.buttons["start"].click()
    other.refresh()
    assert "reaction ready" in phone.status.value
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Facing: Ash", FacingTracker).facing == "south"


# --- items ------------------------------------------------------------------------------


def test_items_belong_to_a_character_and_keep_their_charges(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    panel = app.open_app("magic_items")
    assert names(panel) == ["Ash", "Briar"]
    items = picked(panel, "Ash")
    assert "No item for Ash yet" in items.body.children[0].value
    items.new_name.value = "wand of web"
    items.new_charges.value = 7
    items.new_word.value = True
    items.add_button.click()
    assert items.error.message == ""
    wand = campaign_of(app.session).tracker("Item: Ash: wand of web", MagicItem)
    shown = items.body.children[0]
    assert shown.model is wand
    shown.spend.value = 2
    shown.buttons["activate"].click()
    assert 'data-charges="5"' in shown.status.value
    items.new_name.value = "wand of web"
    items.add_button.click()  # the same item twice: refused, one line
    assert "already has 'Item: Ash: wand of web'" in items.error.message
    assert "No item for Briar yet" in picked(panel, "Briar").body.children[0].value
    other = second_screen(db)
    phone = picked(build(other, "magic_items"), "Ash")
    assert [o[0] for o in phone.picker.options] == ["wand of web"]
    phone_wand = phone.body.children[0]
    assert 'data-charges="5"' in phone_wand.status.value
    phone_wand.regain.value = 1
    phone_wand.buttons["regain"].click()
    campaign_of(app.session).refresh()
    assert 'data-charges="6"' in shown.status.value
    # A new item added on the phone shows in the laptop's list after its sync.
    phone.new_name.value = "potion of healing"
    phone.new_charges.value = 0
    phone.new_consumable.value = True
    phone.add_button.click()
    assert phone.error.message == ""
    campaign_of(app.session).refresh()
    assert [o[0] for o in items.picker.options] == ["wand of web", "potion of healing"]
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Item: Ash: wand of web", MagicItem).charges == 6


# --- the party of casters ---------------------------------------------------------------


def test_the_party_of_casters_is_the_campaign_s_casters(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    casters = app.open_app("casters")
    assert list(casters.casters) == ["Ash"]  # Briar is a creature, not a caster
    assert 'data-caster="Ash"' in casters.summary.value
    assert casters.casters["Ash"] is campaign_of(app.session).tracker("Ash", SpellPoints)
    casters.new_name.value = "Cole"
    casters.new_class.value = "paladin"
    casters.new_level.value = 6
    casters.add_button.click()
    assert casters.error.message == ""
    cole = campaign_of(app.session).tracker("Cole", SpellPoints)
    assert (cole.caster, cole.class_level) == ("half", 6)
    assert "Cole" in app.party.value  # a party member like any other
    casters.picker.value = "Ash"
    casters.apps["Ash"].model.cast(3)
    other = second_screen(db)
    phone = build(other, "casters")
    assert list(phone.casters) == ["Ash", "Cole"]
    ash_points = other.tracker("Ash", SpellPoints).points
    assert f'data-caster="Ash" data-points="{ash_points}"' in phone.summary.value
    casters.apps["Ash"].model.long_rest()
    other.refresh()
    assert 'data-caster="Ash" data-points="27"' in phone.summary.value
    # A caster joining on another screen joins this list after the sync, and the caster
    # picked here stays picked (the list used to jump back to the first).
    casters.picker.value = "Cole"
    other.add("Dree", SpellPoints.new(3, "third"))
    campaign_of(app.session).refresh()
    assert list(casters.casters) == ["Ash", "Cole", "Dree"]
    assert list(casters.picker.options) == ["Ash", "Cole", "Dree"]
    assert casters.picker.value == "Cole"
    assert casters.body.children == (casters.apps["Cole"],)
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Ash", SpellPoints).points == 27


# --- Monsters & Magic travel ------------------------------------------------------------


def mm_party() -> TableApp:
    app = fresh_table("monsters_and_magic")
    add_member(app, "monsters_and_magic", "Ash", focus=1, power=2, cunning=0, luck=2,
               hp=14, ac=3)
    add_member(app, "monsters_and_magic", "Briar", focus=2, power=0, cunning=1, luck=1,
               hp=12, ac=1)
    return app


def test_travel_plays_the_road_on_the_party_s_sheets(db: Path) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer
    from companion.rulesets.monsters_and_magic.harm_and_healing import damage_after_armor
    from companion.rulesets.monsters_and_magic.travel import forage_supplies

    app = mm_party()
    assert campaign_of(app.session) is not None
    travel = app.open_app("mm_travel")
    assert 'data-name="Ash"' in travel.sheets.value and 'data-name="Briar"' in travel.sheets.value
    assert [o[0] for o in travel.faller.options][1:] == ["Ash", "Briar"]
    ash = campaign_of(app.session).tracker("Ash", Adventurer)
    briar = campaign_of(app.session).tracker("Briar", Adventurer)
    travel.speed.value = "Normal"  # 1 exhaustion a period (the default reading)
    travel.period.click()
    assert travel.error.message == ""
    assert (ash.exhaustion, briar.exhaustion) == (1, 1)
    assert 'data-name="Ash" data-exhaustion="1"' in travel.sheets.value
    # The group check is each sheet's own check (stored with its seed).
    before = len(campaign_of(app.session).log())
    travel.group.click()
    assert travel.error.message == ""
    assert "tc-group" in travel.road.value
    moves = [e.move for e in campaign_of(app.session).log()[before:] if e.kind == "move"]
    assert moves.count("roll_check") == 2
    assert ash.last_check is not None and briar.last_check is not None
    # Foraging: only on foot at the slow pace; the supplies land on each sheet.
    assert travel.forage.disabled
    travel.speed.value = "Slow"
    assert not travel.forage.disabled
    travel.forage.click()
    assert travel.error.message == ""
    found = int(_attr(travel.road.value, "found"))
    tier = _attr(travel.road.value, "tier")
    assert found == {"Strong Hit": 2, "Weak Hit": 1, "Miss": 0}[tier]
    assert found == forage_supplies(_tier(tier))
    assert (ash.supplies, briar.supplies) == (found, found)
    # Falling damage is taken by whoever fell (1d6 from 10 feet: Briar stays standing).
    travel.faller.value = "Briar"
    travel.feet.value = 10
    travel.fall.click()
    assert travel.error.message == ""
    total = int(_attr(travel.fall_result.value, "total"))
    assert briar.hp == 12 - damage_after_armor(total, ac=briar.effective_ac)
    assert "Briar takes it" in travel.fall_result.value

    other = second_screen(db)
    phone = build(other, "mm_travel")
    assert 'data-name="Ash" data-exhaustion="1"' in phone.sheets.value
    travel.speed.value = "Normal"
    travel.period.click()
    assert 'data-name="Ash" data-exhaustion="1"' in phone.sheets.value
    other.refresh()
    assert 'data-name="Ash" data-exhaustion="2"' in phone.sheets.value
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Ash", Adventurer).exhaustion == 2
    assert again.tracker("Ash", Adventurer).supplies == found


def _attr(html: str, name: str) -> str:
    return html.split(f'data-{name}="')[1].split('"')[0]


def _tier(label: str) -> Any:
    from companion.rulesets.monsters_and_magic.ability_checks import Tier

    return next(t for t in Tier if t.label == label)


def test_travel_refuses_a_period_for_nobody_and_follows_newcomers(db: Path) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    app = fresh_table("monsters_and_magic")
    assert campaign_of(app.session) is not None
    travel = app.open_app("mm_travel")
    assert "Nobody in the party yet" in travel.sheets.value
    travel.speed.value = "Normal"
    travel.period.click()
    assert travel.error.message == "Travel: nobody in the party yet"
    other = second_screen(db)
    other.add("Cole", Adventurer.new("Cole", luck=1))
    campaign_of(app.session).refresh()
    assert 'data-name="Cole"' in travel.sheets.value
    assert [o[0] for o in travel.faller.options][1:] == ["Cole"]


def test_the_apps_without_a_campaign_are_demos_with_made_up_names() -> None:
    for key in ("hit_dice", "combat_turn", "facing", "magic_items", "casters", "mm_travel"):
        demo = spec(key).demo()
        assert demo is not None
    travel = spec("mm_travel").demo()
    assert 'data-name="Ash"' in travel.sheets.value  # the labelled demo party


# --- roll modes and own dice (issue 13) -------------------------------------------------


def test_hit_dice_take_the_campaign_s_roll_modes_and_real_dice(db: Path) -> None:
    from companion.dice import roll

    app = party_5e()
    assert campaign_of(app.session) is not None
    gm_app = picked(app.open_app("hit_dice"), "Ash")
    gm_app.damage.value = 30
    gm_app.buttons["damage"].click()
    gm_app.buttons["short"].click()
    # A die rolled at the table: the face typed, the roll logged as real dice.
    gm_app.controls.own.value = True
    gm_app.controls.faces.value = "9"
    gm_app.buttons["roll"].click()
    assert gm_app.controls.faces.refusal.message == "die 1: a d8 shows 1 to 8, not 9"
    assert gm_app.model.hit_dice == 5  # refused: nothing spent
    gm_app.controls.faces.value = "6"
    gm_app.buttons["roll"].click()
    assert gm_app.error.message == ""
    assert (gm_app.model.hp, gm_app.model.hit_dice) == (8 + 8, 4)
    assert "real dice" in gm_app.last.value
    logged = campaign_of(app.session).log(("roll",))[-1]
    # The Hit Die's own line (issue 43: the move's, no longer the widget's "d8 shows 6").
    assert logged.data["text"].startswith("Hit Die d8 6+2: +8 hp") and logged.seed is None
    # A player's blind roll: the GM sees it, the player sees only its commitment.
    other = open_campaign(open_store(db), "Tuesday", who="Ash", role="player")
    phone = picked(build(other, "hit_dice"), "Ash")
    phone.controls.mode.value = "blind"
    phone.buttons["roll"].click()
    assert phone.error.message == ""
    assert "Hidden roll committed" in phone.last.value
    entry = other.log(("roll",))[-1]
    assert entry.seed is None and "commitment" in entry.data
    move = other.log(("move",))[-1]
    # The Hit Die's own move (issue 43: roll_hit_die is a move now), its dice hidden.
    assert move.move == "roll_hit_die" and move.seed is None
    reveal = campaign_of(app.session).reveal(entry.seq)
    face = roll('1d8', seed=reveal.seed).total
    assert reveal.data["text"].startswith(f"Hit Die d8 {face}+2: +{face + 2} hp")


def test_travel_rolls_take_the_campaign_s_roll_modes_and_real_dice(db: Path) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer
    from companion.rulesets.monsters_and_magic.harm_and_healing import damage_after_armor

    app = mm_party()
    assert campaign_of(app.session) is not None
    travel = app.open_app("mm_travel")
    ash = campaign_of(app.session).tracker("Ash", Adventurer)
    # The group check with real dice: one d20 per character.
    travel.controls.own.value = True
    travel.controls.faces.value = "20"
    travel.group.click()
    assert "d20" in travel.controls.faces.refusal.message  # Briar's die is missing
    assert travel.error.message == travel.controls.faces.refusal.message
    assert ash.last_check is None  # the first character's check was taken back
    travel.controls.faces.value = "20 1"
    travel.group.click()
    assert travel.error.message == ""
    assert "real dice" in travel.road.value
    assert ash.last_check is not None and ash.last_check.natural == 20
    # A fall rolled with real dice lands on the sheet.
    travel.faller.value = "Ash"
    travel.feet.value = 20
    travel.controls.faces.value = "6 5"
    travel.fall.click()
    assert travel.error.message == ""
    assert ash.hp == 14 - damage_after_armor(11, ac=ash.effective_ac)
    assert campaign_of(app.session).log(("roll",))[-1].data["text"].startswith("2d6: ")
    # The GM's own hidden fall: logged as a commitment, the sheet still takes it.
    travel.controls.own.value = False
    travel.controls.mode.value = "gm"
    hp = ash.hp
    travel.feet.value = 10
    travel.fall.click()
    assert travel.error.message == ""
    total = int(_attr(travel.fall_result.value, "total"))  # the GM sees a GM-only roll
    assert campaign_of(app.session).log(("roll",))[-1].data.get("commitment")
    assert ash.hp == hp - damage_after_armor(total, ac=ash.effective_ac)


def test_two_screens_making_the_same_record_at_once_share_one(db: Path) -> None:
    app = party_5e()
    assert campaign_of(app.session) is not None
    campaign_of(app.session).add("Cole", SpellPoints.new(4))  # no records yet: nobody picked Cole
    other = second_screen(db)  # opened before either screen made Cole's turn record
    laptop = picked(app.open_app("combat_turn"), "Cole")
    assert other.head < campaign_of(app.session).head  # the phone has not seen it yet
    assert "Turn: Cole" not in {m.name for m in other}
    phone = picked(build(other, "combat_turn"), "Cole")  # its add is refused: it takes Cole's
    assert phone.turn is other.tracker("Turn: Cole", Turn)
    assert [m.name for m in other].count("Turn: Cole") == 1
    phone.buttons["object"].click()
    campaign_of(app.session).refresh()
    assert laptop.turn.object_interactions == 1
