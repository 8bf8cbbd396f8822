"""Who may do what, checked where moves are recorded: the campaign's seam.

Every case goes through the Python API (the apps call the same objects): a spectator, a
player on their own and on another's character, and the GM; the undo sequences of the
seats issue; seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.plot_points import PlotPointSession
from companion.state import is_move
from companion.store.campaign import Campaign, SeatError, create
from companion.store.db import Store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Campaign:
    gm = create(store, "T", ["cairn_srd", "plot_points"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    gm.add("Plot", PlotPointSession(), role="minigame")
    return gm


def _seat(store: Store, who: str, role: str) -> Campaign:
    return Campaign.open(store, "T", who=who, role=role)


def test_no_method_is_swapped_on_a_campaign_tracker(store: Store) -> None:
    gm = _table(store)
    for member in gm:
        cls = type(member.tracker)
        for name in dir(cls):
            if is_move(getattr(cls, name, None)):
                assert name not in member.tracker.__dict__
                assert getattr(member.tracker, name).__func__ is getattr(cls, name)
        assert "undo" not in member.tracker.__dict__
        assert "load" not in member.tracker.__dict__


def test_a_spectator_sees_but_makes_no_move(store: Store) -> None:
    _table(store)
    watcher = _seat(store, "", "spectator")
    ash = watcher.tracker("Ash", Character)
    with pytest.raises(SeatError, match="watching: ask the GM"):
        ash.take_damage(1)
    with pytest.raises(SeatError, match="watching"):
        watcher.tracker("Plot").undo()
    assert ash.guard == Character("Ash").guard
    assert [e.kind for e in watcher.log()].count("move") == 0


def test_a_player_moves_their_own_character_only(store: Store) -> None:
    _table(store)
    ash_seat = _seat(store, "Ash", "player")
    ash_seat.tracker("Ash", Character).add_fatigue()
    bryn = ash_seat.tracker("Bryn", Character)
    with pytest.raises(SeatError, match="only Bryn and the GM may move Bryn"):
        bryn.add_fatigue()
    with pytest.raises(SeatError, match="only Bryn and the GM may"):
        bryn.load(Character("Bryn").to_json())
    with pytest.raises(SeatError, match="only Bryn and the GM may"):
        ash_seat.replace("Bryn", Character("Bryn", strength=3, strength_max=3))
    with pytest.raises(SeatError, match="GM"):
        ash_seat.remove("Bryn")
    assert ash_seat.may_move(bryn, "add_fatigue", {}) is not None
    assert ash_seat.may_move(ash_seat.tracker("Ash"), "add_fatigue", {}) is None
    log = Campaign.open(store, "T").log(kinds=["move"])
    assert [(e.who, e.tracker) for e in log] == [("Ash", "ash")]


def test_the_gms_move_on_a_players_character_is_marked(store: Store) -> None:
    gm = _table(store)
    gm.tracker("Ash", Character).take_damage(1, seed=4)
    (hit,) = gm.log(kinds=["move"])
    assert hit.data["by_gm_for"] == "Ash" and hit.who == "Mira"
    assert hit.data["seed_chosen_by"] == "Mira"


def test_a_shared_trackers_table_moves_are_the_gms(store: Store) -> None:
    _table(store)
    plot = _seat(store, "Ash", "player").tracker("Plot", PlotPointSession)
    assert plot.acting_for("gain_strain", {"who": "Bryn"}) in (None, ("Bryn",))
    with pytest.raises(SeatError):
        plot.gain_strain("Bryn")


def test_a_player_cannot_undo_a_move_another_made_since(store: Store) -> None:
    gm = _table(store)
    ash_seat = _seat(store, "Ash", "player")
    sheet = ash_seat.tracker("Ash", Character)
    sheet.add_item("Lantern")
    gm.refresh()
    gm.tracker("Ash", Character).take_damage(1)  # the GM hits Ash
    ash_seat.refresh()
    guard = sheet.guard
    with pytest.raises(SeatError, match="cannot undo: the GM moved Ash since"):
        sheet.undo()
    assert sheet.guard == guard and any(i.name == "Lantern" for i in sheet.items)
    assert Campaign.open(store, "T").tracker("Ash", Character).guard == guard


def test_a_player_cannot_undo_a_roll_the_gm_can_and_it_is_marked(store: Store) -> None:
    gm = _table(store)
    ash_seat = _seat(store, "Ash", "player")
    sheet = ash_seat.tracker("Ash", Character)
    sheet.ability_save("DEX")  # a roll: no free reroll
    with pytest.raises(SeatError, match="a roll cannot be unmade"):
        sheet.undo()
    gm.refresh()
    gm.tracker("Ash", Character).undo()
    (undo,) = Campaign.open(store, "T").log(kinds=["undo"])
    assert undo.data["summary"].startswith("taken back by the GM")
    assert undo.data["undoes"] == gm.log(kinds=["move"])[-1].seq


def test_a_player_undoes_their_own_newest_move(store: Store) -> None:
    _table(store)
    ash_seat = _seat(store, "Ash", "player")
    sheet = ash_seat.tracker("Ash", Character)
    sheet.add_item("Rope")
    sheet.undo()
    assert not any(i.name == "Rope" for i in sheet.items)
    with pytest.raises(RuleError, match="nothing to undo"):
        sheet.undo()


def test_in_a_campaign_a_player_cannot_choose_a_seed(store: Store) -> None:
    _table(store)
    sheet = _seat(store, "Ash", "player").tracker("Ash", Character)
    with pytest.raises(SeatError, match="only the GM sets a seed"):
        sheet.ability_save("DEX", seed=2)
    sheet.ability_save("DEX")
    (save,) = Campaign.open(store, "T").log(kinds=["move"])
    assert save.seed is not None and "seed_chosen_by" not in save.data


def test_rolls_by_seat(store: Store) -> None:
    _table(store)
    with pytest.raises(SeatError, match="watching"):
        _seat(store, "", "spectator").roll("1d20")
    player = _seat(store, "Ash", "player")
    player.roll("1d20")  # a seed drawn for them: fine
    with pytest.raises(SeatError, match="only the GM sets a seed"):
        player.roll("1d20", 2, chosen=True)
    gm = _seat(store, "Mira", "gm")
    gm.roll("1d20", 2, chosen=True)
    rolls = gm.log(kinds=["roll"])
    assert [r.data.get("seed_chosen_by") for r in rolls] == [None, "Mira"]


def test_players_add_their_own_character_and_records_only(store: Store) -> None:
    _table(store)
    player = _seat(store, "Cole", "player")
    player.add("Cole", Character("Cole"))
    with pytest.raises(SeatError, match="only the GM may add Dara"):
        player.add("Dara", Character("Dara"))
    from companion.rulesets.cairn_srd.combat import Encounter

    fight = player.add("Fight", Encounter(), role="encounter")  # an app opened: empty
    with pytest.raises(SeatError, match="GM's move"):
        fight.add("Ghoul", "Enemies", 3, 8)  # but the foes are the GM's to add


# -- one unit of work: the fight's hit on a sheet -----------------------------------------


def _fight(store: Store) -> tuple[Campaign, Character, object]:
    from companion.rulesets.cairn_srd.combat import Encounter, join_character

    gm = create(store, "F", ["cairn_srd"], who="Mira", role="gm")
    ash = gm.add("Ash", Character("Ash", guard=4, guard_max=4))
    fight = gm.add("Fight", Encounter(), role="encounter")
    join_character(fight, ash)
    fight.add("Ghoul", "Enemies", 3, 8)
    return gm, ash, fight


def test_a_fight_move_and_the_sheet_move_it_makes_are_one_step(store: Store) -> None:
    gm, ash, fight = _fight(store)
    count = len(gm.log())
    fight.apply_damage("Ash", 1)  # type: ignore[attr-defined]
    new = gm.log()[count:]
    assert [(e.kind, e.tracker) for e in new] == [("move", "ash"), ("move", "fight")]
    assert new[0].data["step"] == new[1].data["step"] == new[0].seq
    assert ash.guard == 3
    again = Campaign.open(store, "F")
    assert again.tracker("Ash", Character).guard == 3
    fight.undo()  # type: ignore[attr-defined]
    assert ash.guard == 4  # the sheet's part of the step is undone with it
    assert Campaign.open(store, "F").tracker("Ash", Character).guard == 4


def test_a_step_is_not_undone_once_its_sheet_moved_again(store: Store) -> None:
    gm, _ash, fight = _fight(store)
    fight.apply_damage("Ash", 1)  # type: ignore[attr-defined]
    ash_seat = _seat_named(store, "F", "Ash")
    ash_seat.tracker("Ash", Character).rest_turn()
    gm.refresh()
    with pytest.raises(SeatError, match="Ash has moved Ash since"):
        fight.undo()  # type: ignore[attr-defined]
    assert gm.tracker("Ash", Character).guard == 4  # rested; nothing taken back


def _seat_named(store: Store, campaign: str, who: str) -> Campaign:
    return Campaign.open(store, campaign, who=who, role="player")
