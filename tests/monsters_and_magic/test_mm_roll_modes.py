"""Roll modes and own dice on the Monsters & Magic app's rolls (issue 13 wired in issue 15):
a character's check, Feeling Lucky, the death roll, detonating a condition, the group check
and the app's roller, headless, with and without a campaign."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck, Tier
from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.death_and_dying import death_roll_outcome
from companion.rulesets.monsters_and_magic.party import Party
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.widgets.monsters_and_magic import MonstersAndMagicApp
from tests.conftest import session_of, widgets_by_name

pytestmark = pytest.mark.timeout(120)


def own_dice(app: MonstersAndMagicApp, faces: str) -> None:
    controls = app.selected.controls
    controls.own.value = True
    controls.faces.control.value = faces


def test_a_sheets_check_with_own_dice_is_the_tables_move() -> None:
    app = MonstersAndMagicApp(["Ash"], luck=2)
    sheet = app.selected
    a = sheet.adventurer
    own_dice(app, "20")
    widgets_by_name(sheet)["roll"].click()
    assert sheet.message == ""
    assert 'data-tier="critical_hit"' in sheet.checks.result.value
    assert "your dice" in sheet.checks.result.value and "Inspired" in a.statuses
    # An impossible face is refused under the faces box: nothing rolled, nothing changed.
    before = a.to_json()
    sheet.controls.faces.control.value = "21"
    widgets_by_name(sheet)["roll"].click()
    assert "21" in sheet.controls.faces.refusal.message
    assert a.to_json() == before and sheet.checks.rolls == 1


def test_the_death_roll_and_feeling_lucky_take_own_dice() -> None:
    app = MonstersAndMagicApp(["Ash"], luck=1)
    sheet = app.selected
    a, b = sheet.adventurer, widgets_by_name(sheet)
    a.take_damage(a.max_hp)
    assert a.dying
    own_dice(app, "12")
    b["death-roll"].click()
    check = AbilityCheck(a.luck - a.exhaustion_penalty)
    tier = check.result_for(12)[1]
    outcome, _ = death_roll_outcome(tier)
    assert outcome == "deathsave" and a.deathsaves == 1
    assert 'data-move="death-roll"' in sheet.roll_result.value
    assert "Ash: death roll" in sheet.roll_result.value  # the sheet's own line
    a.heal(5)
    widgets_by_name(sheet)["roll"].click()  # faces 12 again: a check to replace
    sheet.controls.faces.control.value = "1"
    b["feeling-lucky"].click()
    assert a.last_check is not None and a.last_check.natural == 1
    # The thread paid goes to the GM, and the luck roll's critical miss gives the GM
    # another, as a check's does (and Ash 2 XP on top of the check's).
    assert (a.threads, app.gm.threads) == (0, 2)


def test_detonate_the_group_check_and_the_roller_take_own_dice() -> None:
    app = MonstersAndMagicApp(["Ash"], seed_source=lambda: 4)
    sheet = app.selected
    a = sheet.adventurer
    a.inflict("Weakened")
    own_dice(app, "7")
    widgets_by_name(sheet)["detonate"].click()
    assert (a.hp, a.conditions) == (12 - 7, [])
    # The sheet's own line for the move (its dice, then the damage).
    assert "Weakened detonates for 1d10 = [7] = 7" in sheet.sheet_moves.detonated.value
    assert "→ 7 damage" in sheet.sheet_moves.detonated.value
    group = app.group
    group.controls.own.value = True
    group.controls.faces.control.value = "20 1 10"  # modifiers 2, 0, -1 vs DC 10
    group.roll_button.click()
    assert group.error.message == ""
    assert "group: 22 Critical Hit; 1 Critical Miss; 9 Miss" in group.result.value
    roller = app.roller
    roller.roll_button.click()  # the switch off: a seeded roll, replayable
    expected = AbilityCheck(0).roll(seed=4)
    assert f'data-tier="{expected.tier.name.lower()}"' in roller.result.value
    assert "seed 4" in roller.result.value


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Campaign, Campaign]]:
    """The GM's and Ash's campaign objects over one store, Ash's sheet in it."""
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["monsters_and_magic"], who="Mira", role="gm")
        gm.add("Ash", Adventurer.new("Ash", luck=2, max_hp=12))
        gm.add("GM threads", GameMaster(), role="minigame")
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        yield gm, ash


def _app(campaign: Campaign, seed: int) -> MonstersAndMagicApp:
    party = Party(campaign.tracker("GM threads", GameMaster))
    party.add(campaign.tracker("Ash", Adventurer))
    return MonstersAndMagicApp(party=party, session=session_of(campaign), seed_source=lambda: seed)


def _page(campaign: Campaign, who: str, role: str) -> str:
    return json.dumps([e.to_dict() for e in campaign.visible_to(who, role)],
                      ensure_ascii=False)


def test_modes_are_offered_per_role(table: tuple[Campaign, Campaign]) -> None:
    gm, ash = table
    assert [v for _, v in _app(gm, 1).selected.controls.mode.options] == ["public", "gm"]
    assert [v for _, v in _app(ash, 1).selected.controls.mode.options] == [
        "public", "blind", "self"]
    plain = MonstersAndMagicApp(["Ash"])
    assert plain.selected.controls.mode.layout.display == "none"


def test_a_blind_check_moves_the_sheet_but_only_the_gm_sees_the_roll(
        table: tuple[Campaign, Campaign]) -> None:
    gm, ash = table
    seed = next(s for s in range(1000) if AbilityCheck(2).roll(seed=s).tier == Tier.MISS)
    expected = AbilityCheck(2).roll(seed=seed)
    app = _app(ash, seed)
    sheet = app.selected
    sheet.controls.mode.value = "blind"
    widgets_by_name(sheet)["roll"].click()
    assert sheet.message == ""
    assert "Hidden roll committed" in sheet.checks.result.value
    assert str(expected) not in sheet.checks.result.value
    assert sheet.adventurer.xp == 1  # the move is made: a miss gives XP, seen by all
    assert str(expected) not in _page(ash, "Ash", "player")
    gm.refresh()
    assert f"Ash: luck roll {expected}" in _page(gm, "Mira", "gm")
    entry = gm.log(("roll",))[-1]
    assert entry.seed is None and "commitment" in entry.data
    assert gm.reveal(entry.seq).seed == seed


def test_a_public_death_roll_is_logged_with_its_seed(table: tuple[Campaign, Campaign]) -> None:
    gm, _ash = table
    app = _app(gm, 321)
    sheet = app.selected
    sheet.adventurer.take_damage(12)
    widgets_by_name(sheet)["death-roll"].click()
    assert sheet.message == ""
    entry = gm.log(("roll",))[-1]
    assert entry.seed == 321 and "Ash: death roll" in entry.data["text"]
    assert gm.log(("move",))[-1].seed == 321
