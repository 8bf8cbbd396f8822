"""Issue 43: a face asks the session what its seat may do, instead of comparing roles.

Each answer is checked against what the store then does: a seat told it may close the
sitting, choose a seed, roll or reveal a roll is let through; one told it may not is
refused (so an answer that drifted from the seam is seen)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import CompanionError
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat, revoke_seat
from companion.table import Session
from tests.conftest import session_of


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _seats(store: Store) -> dict[str, Session]:
    gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    watcher = Session.open(store, "T", role="spectator")
    holder = Session.unsaved()
    return {"gm": gm, "player": ash, "spectator": watcher, "holder": holder}


def test_each_seat_s_answers(store: Store) -> None:
    seats = _seats(store)
    answers = {name: (s.is_gm, s.sees_all, s.watching, s.may_roll() is None,
                      s.may_choose_seed() is None, s.may_close_sitting() is None)
               for name, s in seats.items()}
    assert answers == {
        "gm": (True, True, False, True, True, True),
        "player": (False, False, False, True, False, False),
        "spectator": (False, False, True, False, False, False),
        "holder": (False, True, False, True, True, True),
    }
    # Each refusal is one line a page can show.
    for session in seats.values():
        for why in (session.may_roll(), session.may_choose_seed(),
                    session.may_close_sitting()):
            assert why is None or (why and "\n" not in why)


def test_the_answers_are_the_seam_s(store: Store) -> None:
    seats = _seats(store)
    gm, ash, watcher = seats["gm"], seats["player"], seats["spectator"]
    for session in (gm, ash):
        session.roll("1d6")  # told it may roll: it rolls
    with pytest.raises(CompanionError):
        watcher.roll("1d6")  # told it may not: refused
    with pytest.raises(CompanionError):
        ash.roll("1d6", chosen_seed=5)  # a player chooses no seed
    gm.roll("1d6", chosen_seed=5)
    with pytest.raises(CompanionError):
        ash.close_sitting()
    gm.close_sitting()


def test_who_may_add_and_remove_members(store: Store) -> None:
    from companion.rulesets.cairn_srd.character import Character

    seats = _seats(store)
    gm, ash, watcher = seats["gm"], seats["player"], seats["spectator"]
    assert [(s.may_remove_members() is None, s.may_add_others() is None)
            for s in (gm, ash, watcher, seats["holder"])] == [
        (True, True), (False, False), (False, False), (True, True)]
    ash.add("Ash", Character("Ash"))  # their own: let through
    with pytest.raises(CompanionError):
        ash.add("Bryn", Character("Bryn"))  # told it may not add another's: refused
    gm.add("Bryn", Character("Bryn"))
    ash.refresh()
    with pytest.raises(CompanionError):
        ash.remove("Bryn")  # told it may not remove: refused
    gm.remove("Bryn")


def test_may_reveal_is_the_gm_s_any_and_a_player_s_own_self_roll(store: Store) -> None:
    seats = _seats(store)
    gm, ash = seats["gm"], seats["player"]
    ash.roll("1d6", mode="self")
    gm.roll("1d6", mode="gm")
    gm.refresh()
    ash.refresh()
    own, gms = [e.to_dict() for e in ash.log(("roll",))]
    assert ash.may_reveal(own) is None and ash.may_reveal(gms) is not None
    assert gm.may_reveal(own) is None and gm.may_reveal(gms) is None
    ash.reveal(own["seq"])  # told it may: the store lets it
    with pytest.raises(CompanionError):
        ash.reveal(gms["seq"])  # told it may not: refused


def test_a_seat_gone_only_watches(store: Store) -> None:
    seats = _seats(store)
    ash = seats["player"]
    assert not ash.watching
    revoke_seat(store, "T", "Ash")
    with pytest.raises(CompanionError):
        ash.roll("1d6")  # the store finds the seat revoked: the session watches
    assert ash.watching and ash.may_roll() is not None and not ash.is_gm
