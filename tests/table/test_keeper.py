"""Issue 43: a face that holds a tracker holds its session, and nothing under it.

Every tracker a session holds hands its moves, undo and load to the session's
[Keeper][companion.table.session.Keeper] (its ``recorder``), which hands each to the
campaign's seam unchanged: the session is found from the tracker
([Session.holding][companion.table.session.Session.holding]) without asking the campaign
or a process-wide table; a member another screen adds later gets the same keeper; the
seat's rules and the log are what they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rulesets.cairn_srd.character import Character
from companion.store.campaign import SeatError, create
from companion.store.db import Store
from companion.table import Session
from companion.table.session import Keeper
from companion.widgets.seat_controls import act, seat_refusal, undo_refusal
from tests.conftest import campaign_of, session_of


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def test_a_sessions_trackers_are_kept_by_its_keeper(store: Store) -> None:
    gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    ash = gm.add("Ash", Character("Ash"))
    assert isinstance(ash.recorder, Keeper) and ash.recorder is gm.keeper
    assert gm.keeper.session is gm and Session.holding(ash) is gm
    # Another screen adds a member: applied here, it is kept by this session's keeper too.
    other = Session.open(store, "T", who="Mira", role="gm")
    other.add("Bryn", Character("Bryn"))
    gm.refresh()
    bryn = gm.tracker("Bryn", Character)
    assert bryn.recorder is gm.keeper and Session.holding(bryn) is gm
    # A move made on the tracker itself reaches the seam through the keeper: stored once.
    head = campaign_of(gm).head
    bryn.add_fatigue()
    assert campaign_of(gm).head == head + 1
    assert other.tracker("Bryn", Character).fatigue == 0 and other.refresh()
    assert other.tracker("Bryn", Character).fatigue == 1


def test_a_face_given_only_a_tracker_acts_and_asks_through_its_session(store: Store) -> None:
    gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    ash_seat = Session.open(store, "T", who="Ash", role="player")
    bryn = ash_seat.tracker("Bryn", Character)
    assert Session.holding(bryn) is ash_seat
    # The buttons' questions are the session's answers...
    assert seat_refusal(bryn, "add_fatigue", {}) == ash_seat.may_move(bryn, "add_fatigue")
    assert seat_refusal(bryn, "add_fatigue", {}) is not None
    assert undo_refusal(bryn) == "nothing to undo yet"
    # ...and an act on another's sheet is refused by the seam as before, storing nothing.
    head = campaign_of(ash_seat).head
    with pytest.raises(SeatError, match="Bryn"):
        act(bryn, "add_fatigue")
    assert campaign_of(ash_seat).head == head
    mine = ash_seat.tracker("Ash", Character)
    act(mine, "add_fatigue")
    assert mine.fatigue == 1 and undo_refusal(mine) is None


def test_a_tracker_in_no_campaign_has_no_session() -> None:
    alone = Character("Ash")
    assert Session.holding(alone) is None
    act(alone, "add_fatigue")  # made on this screen alone
    assert alone.fatigue == 1
