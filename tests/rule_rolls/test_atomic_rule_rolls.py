"""A rule roll in a campaign is atomic (issue 13): its tracker moves are stored with its roll
entry in one transaction when the roll is whole; a refused roll (real dice left over, an
impossible face, an illegal move) stores nothing and leaves every tracker as it was."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.dice.physical import EnteredDice
from companion.errors import RuleError
from companion.rulesets.plot_points import PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import Store, StoreError
from companion.widgets.base import InputError
from companion.widgets.rolls import RollControls
from tests.conftest import closure_roll, session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Store, Campaign, Path]]:
    """A SQLite campaign with two plot-points tables, opened by the GM."""
    path = tmp_path / "c.db"
    with open_store(path) as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        gm.add("main", PlotPointSession.new(["Ash", "Bo"], "Mira"), role="minigame")
        gm.add("side", PlotPointSession.new(["Ash"], "Mira"), role="minigame")
        yield store, gm, path


def _states(campaign: Campaign) -> dict[str, str]:
    return {m.id: m.tracker.to_json() for m in campaign}


def _both(campaign: Campaign) -> tuple[PlotPointSession, PlotPointSession]:
    return (campaign.tracker("main", PlotPointSession),
            campaign.tracker("side", PlotPointSession))


@pytest.mark.parametrize("mode", ["public", "gm"])
def test_left_over_real_dice_store_nothing_and_restore_every_tracker(
        table: tuple[Store, Campaign, Path], mode: str) -> None:
    store, gm, _path = table
    main, side = _both(gm)
    controls = RollControls(session=session_of(gm), who="Mira", role="gm")
    controls.mode.value = mode
    controls.own.value = True
    controls.faces.value = "14 9 3"  # the roll uses two: one left over
    count, states = len(gm.log()), _states(gm)

    def both(rng: random.Random) -> str:
        first = main.roll_check("Ash", "average", 0, 0, 10, rng=rng)
        second = side.roll_check("Ash", "average", 0, 0, 10, rng=rng)
        return f"{first} / {second}"

    with pytest.raises(InputError):
        closure_roll(controls, "Ash: two checks", both)
    assert controls.faces.refusal.message == "3 dice entered, the roll used 2"
    assert len(gm.log()) == count and _states(gm) == states
    # Another screen (and the database itself) holds nothing of it either.
    again = open_campaign(store, "Tuesday", who="Bo", role="player")
    assert len(again.log()) == count and _states(again) == states
    # The same screen then rolls cleanly from the state it had.
    controls.faces.value = "14 9"
    out = closure_roll(controls, "Ash: two checks", both)
    kinds = [e.kind for e in gm.log()][count:]
    assert kinds == ["move", "move", "roll"]
    assert out.entry == count + 3 and gm.log()[-1].data["moves"] == [count + 1, count + 2]
    assert main.current is not None and side.current is not None


def test_an_impossible_face_after_a_move_stores_nothing(
        table: tuple[Store, Campaign, Path]) -> None:
    _store, gm, _path = table
    main, side = _both(gm)
    controls = RollControls(session=session_of(gm), who="Mira", role="gm")
    controls.own.value = True
    controls.faces.value = "14 21"  # the second check's d20 cannot show 21
    count, states = len(gm.log()), _states(gm)
    with pytest.raises(InputError):
        closure_roll(controls, "Ash: two checks", lambda rng: (
            main.roll_check("Ash", rng=rng), side.roll_check("Ash", rng=rng)))
    assert controls.faces.refusal.message == "die 2: a d20 shows 1 to 20, not 21"
    assert len(gm.log()) == count and _states(gm) == states


def test_an_illegal_move_after_a_move_stores_nothing(
        table: tuple[Store, Campaign, Path]) -> None:
    _store, gm, _path = table
    main, side = _both(gm)
    controls = RollControls(session=session_of(gm), who="Mira", role="gm", seed_source=lambda: 5)
    controls.mode.value = "gm"
    count, states = len(gm.log()), _states(gm)
    with pytest.raises(RuleError):
        closure_roll(controls, "two checks", lambda rng: (
            main.roll_check("Ash", seed=5), side.roll_check("Bo", seed=6)))  # no Bo there
    assert len(gm.log()) == count and _states(gm) == states
    # The policy's rewritten history line (hidden roll) is gone with the move.
    assert main.log == ()


def test_the_moves_and_roll_entry_are_one_transaction(
        table: tuple[Store, Campaign, Path]) -> None:
    store, gm, path = table
    main, side = _both(gm)
    count, states = len(gm.log()), _states(gm)
    # The database refuses the roll entry's row: the moves' rows, written before it in
    # the same transaction, must go with it.
    with sqlite3.connect(path) as db:
        db.execute("CREATE TRIGGER no_roll BEFORE INSERT ON companion_events "
                   "WHEN NEW.kind = 'roll' BEGIN SELECT RAISE(ABORT, 'no roll entries today'); END")
    controls = RollControls(session=session_of(gm), who="Mira", role="gm", seed_source=lambda: 41)
    with pytest.raises(StoreError):
        closure_roll(controls, "Ash: two checks", lambda rng: (
            main.roll_check("Ash", rng=rng), side.roll_check("Ash", seed=42)))
    assert len(gm.log()) == count and _states(gm) == states
    fresh = open_campaign(store, "Tuesday")
    assert len(fresh.log()) == count and _states(fresh) == states
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER no_roll")
    out = closure_roll(controls, "Ash: two checks", lambda rng: (
        main.roll_check("Ash", rng=rng), side.roll_check("Ash", seed=42)))
    log = gm.log()[count:]
    assert [e.kind for e in log] == ["move", "move", "roll"]
    assert [e.seed for e in log] == [41, 42, 41] and out.entry == log[-1].seq
    fresh = open_campaign(store, "Tuesday")
    assert _states(fresh) == _states(gm)


def test_a_roll_beaten_by_another_screen_is_made_again_on_the_fresh_state(
        table: tuple[Store, Campaign, Path]) -> None:
    store, gm, _path = table
    main, _side = _both(gm)
    other = open_campaign(store, "Tuesday", who="Bo", role="gm")  # a second GM screen
    calls: list[int] = []

    def check(rng: random.Random) -> str:
        calls.append(len(main.log))
        if len(calls) == 1:  # another screen moves while this roll is being made
            other.tracker("side", PlotPointSession).roll_check("Ash", seed=9)
        return str(main.roll_check("Ash", rng=rng))

    controls = RollControls(session=session_of(gm), who="Mira", role="gm", seed_source=lambda: 77)
    count = len(gm.log())
    out = closure_roll(controls, "Ash: check", check)
    assert calls == [0, 0]  # the first try was put back before the second
    log = gm.log()[count:]
    assert [(e.kind, e.tracker, e.who) for e in log] == [
        ("move", "side", "Bo"), ("move", "main", "Mira"), ("roll", None, "Mira")]
    assert log[0].data["seed_chosen_by"] == "Bo"
    assert log[1].seed == 77 and out.value == log[2].data["text"]
    assert _states(open_campaign(store, "Tuesday")) == _states(gm)


def test_a_direct_scope_holds_its_moves_until_it_ends(
        table: tuple[Store, Campaign, Path]) -> None:
    store, gm, _path = table
    main, _side = _both(gm)
    count = len(gm.log())
    with gm.rolling("public") as scope:
        main.roll_check("Ash", seed=3)
        assert len(open_campaign(store, "Tuesday").log()) == count  # not stored yet
        scope.log("Ash: check", 3, "done")
    assert scope.moves == [count + 1] and scope.logged is not None
    assert scope.logged.entry == count + 2
    with pytest.raises(StoreError, match="already being made"), gm.rolling(), gm.rolling():
        pass


def test_without_a_campaign_left_over_dice_undo_the_named_trackers() -> None:
    session = PlotPointSession.new(["Ash"], "Mira")
    state = session.to_json()
    controls = RollControls()
    controls.own.value = True
    controls.faces.value = "14 3"
    with pytest.raises(InputError):
        closure_roll(controls, "Ash: check", lambda rng: session.roll_check("Ash", rng=rng),
                     trackers=[session])
    assert session.to_json() == state
    controls.faces.value = "14"
    out = closure_roll(controls, "Ash: check", lambda rng: session.roll_check("Ash", rng=rng),
                       trackers=[session])
    assert out.value is not None and out.value.result.total == 14
    assert isinstance(EnteredDice([1]), random.Random)


@pytest.mark.parametrize("left_over", [True, False])
def test_a_record_made_by_a_roll_s_move_is_stored_with_the_roll_or_not_at_all(
        table: tuple[Store, Campaign, Path], left_over: bool) -> None:
    store, gm, _path = table
    main, _side = _both(gm)
    controls = RollControls(session=session_of(gm), who="Mira", role="gm")
    controls.own.value = True
    controls.faces.value = "14 9 3" if left_over else "14 9"
    count, states = len(gm.log()), _states(gm)

    def check_then_record(rng: random.Random) -> str:
        main.roll_check("Ash", rng=rng)  # a move first: the record joins the roll
        extra = gm.add("extra", PlotPointSession.new(["Ash"], "Mira"), role="minigame")
        return str(extra.roll_check("Ash", rng=rng))

    if left_over:
        with pytest.raises(InputError):
            closure_roll(controls, "Ash: two checks", check_then_record)
        assert len(gm.log()) == count and _states(gm) == states
        assert [m.id for m in gm] == ["main", "side"]
        assert len(open_campaign(store, "Tuesday").log()) == count
        return
    out = closure_roll(controls, "Ash: two checks", check_then_record)
    log = gm.log()[count:]
    assert [(e.kind, e.tracker) for e in log] == [
        ("move", "main"), ("add", "extra"), ("move", "extra"), ("roll", None)]
    assert log[-1].data["moves"] == [count + 1, count + 3] and out.entry == count + 4
    again = open_campaign(store, "Tuesday")
    assert _states(again) == _states(gm)
