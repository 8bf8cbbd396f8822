"""Issue 28 (the LEFT list): the Monsters & Magic party's table moves through the session.

A thread spent gives the GM one, a hold marks the holder's fatigue, a tending heals the
patient: each moves two trackers. [Party.declared][companion.rulesets.monsters_and_magic.party.Party.declared]
says which, by the trackers at the table, and
[Session.act_together][companion.table.session.Session.act_together] stores them as one
unit of work at the campaign's seam: the seat judged on the acting sheet's move, only the
declared moves on the others, all stored (by that seat) and undone together, or nothing.
SQLite and PostgreSQL.
"""  # noqa: E501

from __future__ import annotations

from typing import Any

import pytest

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.party import Party
from companion.store import open_store
from companion.store.campaign import SeatError, create
from companion.store.seats import make_seat
from companion.table import Session
from tests.conftest import campaign_of, session_of

pytestmark = pytest.mark.timeout(180)

GM_THREADS = "Game master"


def _table(store: Any) -> Session:
    gm = session_of(create(store, "T", ["monsters_and_magic"], who="Mira", role="gm"))
    gm.add("Ash", Adventurer.new("Ash", luck=2, supplies=2))
    gm.add("Bo", Adventurer.new("Bo", max_hp=12))
    gm.add(GM_THREADS, GameMaster(), role="minigame")
    return gm


def _seat(store: Any, who: str) -> Session:
    return Session.by_secret(store, "T", make_seat(store, "T", who, "player"))


def _party(session: Session) -> Party:
    party = Party(session.tracker(GM_THREADS, GameMaster))
    for name in ("Ash", "Bo"):
        party.add(session.tracker(name, Adventurer))
    return party


def _together(session: Session, party: Party, move: str, *args: Any) -> Any:
    """The party's move as a face makes it (seat_controls.act_party)."""
    lead, lead_move, also = party.declared(move, *args)
    return session.act_together(lead, lead_move, lambda: getattr(party, move)(*args), also)


def _moves(session: Session) -> list[tuple[str, str, str]]:
    names = {m.id: m.name for m in campaign_of(session)}
    return [(e.who, names.get(str(e.tracker), ""), e.move or e.kind) for e in session.log()
            if e.kind in ("move", "undo")]


def test_a_player_s_thread_gives_the_gm_one_in_one_unit_and_undoes_together(db: str) -> None:
    with open_store(db) as store:
        gm = _table(store)
        ash = _seat(store, "Ash")
        party = _party(ash)
        me, master = party.get("Ash"), party.gm
        threads = me.threads
        _together(ash, party, "spend_thread", me, "lucky_find", "a rope", 1)
        assert (me.threads, master.threads) == (threads - 1, 1)
        gm.refresh()
        # Both stored by Ash's seat, one after the other (one transaction, one step).
        assert _moves(gm) == [("Ash", "Ash", "lucky_find"), ("Ash", GM_THREADS, "player_spent")]
        assert gm.tracker(GM_THREADS, GameMaster).threads == 1
        ash.undo(me)  # her own newest move: the GM's thread it gave goes with it
        assert (me.threads, master.threads) == (threads, 0)
        gm.refresh()
        assert gm.tracker(GM_THREADS, GameMaster).threads == 0


def test_another_player_s_sheet_is_refused_and_nothing_is_stored(db: str) -> None:
    with open_store(db) as store:
        gm = _table(store)
        bo = _seat(store, "Bo")
        party = _party(bo)
        with pytest.raises(SeatError, match="only Ash and the GM may move Ash"):
            _together(bo, party, "spend_thread", party.get("Ash"), "lucky_find", "gold", 1)
        with pytest.raises(SeatError, match="only Ash and the GM may move Ash"):
            _together(bo, party, "tend_ally", party.get("Ash"), party.get("Bo"), 1)
        assert party.gm.threads == 0 and party.get("Ash").supplies == 2
        gm.refresh()
        assert _moves(gm) == []


def test_only_the_declared_moves_ride_along_and_a_refusal_stores_nothing(db: str) -> None:
    with open_store(db) as store:
        gm = _table(store)
        ash = _seat(store, "Ash")
        party = _party(ash)
        me, master = party.get("Ash"), party.gm
        threads = me.threads
        # A crafted unit: her own move, then a GM move the unit did not declare.
        with pytest.raises(SeatError, match="the GM's move"):
            ash.act_together(me, "lucky_find", lambda: (me.lucky_find("x", 1),
                                                        master.gain_thread(3)),
                             [(master, ("player_spent",))])
        # The declared move, refused by its rule after hers was made: neither is kept.
        with pytest.raises(RuleError):
            ash.act_together(me, "lucky_find", lambda: (me.lucky_find("x", 1),
                                                        master.player_spent(0)),
                             [(master, ("player_spent",))])
        assert (me.threads, master.threads) == (threads, 0)
        gm.refresh()
        assert _moves(gm) == []


def test_a_hold_and_a_tending_move_the_other_sheet_as_part_of_the_seat_s_move(db: str) -> None:
    with open_store(db) as store:
        gm = _table(store)
        gm.act("Ash", "inflict", "Restrained", by="Bo")
        gm.act("Bo", "take_damage", 6)
        gm.act("Ash", "start_turn")
        ash = _seat(store, "Ash")
        party = _party(ash)
        me, bo = party.get("Ash"), party.get("Bo")
        fatigue = bo.fatigue
        assert _together(ash, party, "break_free", me, True) is bo
        assert bo.fatigue == fatigue + 3 and me.restrained_by == "Bo"
        ash.act(me, "end_turn")  # a rest comes after the turn
        hp = bo.hp
        healed = _together(ash, party, "tend_ally", me, bo, 1)
        assert healed > 0 and bo.hp == hp + healed and me.supplies == 1
        gm.refresh()
        assert _moves(gm)[-5:] == [("Ash", "Ash", "break_free"), ("Ash", "Bo", "hold_restrained"),
                                   ("Ash", "Ash", "end_turn"),
                                   ("Ash", "Ash", "tend_ally"), ("Ash", "Bo", "heal")]
        # Bo's own seat still may not move Ash's sheet, nor Ash Bo's outside a table move.
        with pytest.raises(SeatError, match="only Bo and the GM may move Bo"):
            ash.act("Bo", "heal", 1)


def test_a_player_s_critical_miss_gives_the_gm_a_thread_inside_the_rule_roll(db: str) -> None:
    with open_store(db) as store:
        gm = _table(store)
        gm.set_trust(own_dice=True)  # her own d20, so the natural 1 is certain
        ash = _seat(store, "Ash")
        party = _party(ash)
        me = party.get("Ash")
        lead, move, also = party.declared("roll_check", me, "luck")
        made = ash._rule_roll("Ash: luck check", lambda rng: ash.act_together(
            lead, move, lambda: party.roll_check(me, "luck", rng=rng), also), own_dice=[1])
        assert made.value is not None and made.value.natural == 1
        assert party.gm.threads == 1
        gm.refresh()
        assert _moves(gm)[1:] == [("Ash", "Ash", "roll_check"), ("Ash", GM_THREADS, "gain_thread")]
        # Outside a table move the GM's thread is still the GM's to give.
        with pytest.raises(SeatError, match="the GM's move"):
            ash.act(GM_THREADS, "gain_thread", 1)
