"""Issue 28: the table session, the one way a face acts.

- A session's seat is fixed for its life: ``who``/``role`` have no setter and the campaign
  under it refuses a rewrite (or a dropped proof of the seat).
- ``act``/``undo``/``load``/``roll``/``rule_roll`` go through the campaign's seam: GM-only
  moves are refused to a player; the seed is the session's (a caller's is refused); own
  dice wait for the GM's trust and are marked.
- A revoked seat's act 0.01 s after the revocation is refused, in another process, on
  SQLite and PostgreSQL.
- A player's session log holds no other seat's hidden value.
- A rule roll whose campaign another screen changed first is played again, with the same
  dice, on the fresh state (stored once).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import open_store
from companion.store.campaign import SeatError, create
from companion.store.db import Store
from companion.store.opening import shared_campaign
from companion.store.permissions import SeatKey
from companion.store.seats import make_seat, revoke_seat, seat_for_secret, seat_key
from companion.table import Session, shared_session
from tests.conftest import campaign_of, session_of

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("session_worker.py")

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Session:
    """Campaign T: Ash and Bryn, and a Monarchs table dealt between them (the GM's
    session)."""
    gm = session_of(create(store, "T", ["cairn_srd", "miasma"], who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
    # The table's seed chosen by the GM in code (marked in the log): known hole dice.
    gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Bryn"], 100, seed=11)
    gm.act("Dice Monarchs", "deal")
    return gm


def _player(store: Store, who: str) -> Session:
    secret = make_seat(store, "T", who, "player")
    return Session.by_secret(store, "T", secret)


# --- the seat, fixed ---------------------------------------------------------------------


def test_a_session_s_seat_cannot_be_rewritten(store: Store) -> None:
    _table(store)
    ash = _player(store, "Ash")
    assert (ash.who, ash.role) == ("Ash", "player")
    with pytest.raises(AttributeError):
        ash.who = "Mira"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        ash.role = "gm"  # type: ignore[misc]
    with pytest.raises(SeatError, match="for its whole session"):
        campaign_of(ash).role = "gm"
    with pytest.raises(SeatError, match="for its whole session"):
        campaign_of(ash).who = "Bryn"
    with pytest.raises(SeatError, match="renewed, not dropped"):
        campaign_of(ash).seat_key = None  # would skip the store's re-read of the seat
    with pytest.raises(SeatError, match="renewed, not dropped"):
        campaign_of(ash).seat_key = SeatKey("Mira", "gm")
    assert (campaign_of(ash).who, campaign_of(ash).role) == ("Ash", "player")
    assert session_of(campaign_of(ash)) is ash
    with pytest.raises(SeatError, match="already another session's"):
        Session(campaign_of(ash))


def test_a_forged_secret_opens_a_spectator_s_session_that_makes_no_move(store: Store) -> None:
    gm = _table(store)
    watcher = Session.by_secret(store, "T", "not-a-secret")
    assert watcher.role == "spectator"
    for attempt in (lambda: watcher.act("Ash", "add_fatigue"),
                    lambda: watcher.undo("Ash"),
                    lambda: watcher.roll("1d20")):
        with pytest.raises(SeatError, match="watching"):
            attempt()
    assert campaign_of(gm).log()[-1].move == "deal"


def test_shared_sessions_are_one_per_seat_and_never_reseat_each_other(
        tmp_path: Path) -> None:
    db = str(tmp_path / "shared.db")
    with open_store(db) as store:
        _table(store)
    mira = shared_session("T", who="Mira", role="gm", db=db)
    ash = shared_session("T", who="Ash", role="player", db=db)
    assert mira is not ash and campaign_of(mira) is not campaign_of(ash)
    assert shared_session("T", who="mira", role="gm", db=db) is mira  # one name rule
    assert shared_campaign("T", db=db) in (campaign_of(mira), campaign_of(ash))
    assert (mira.who, mira.role, ash.who, ash.role) == ("Mira", "gm", "Ash", "player")
    with pytest.raises(SeatError, match="is the GM's move"):
        ash.act("Dice Monarchs", "rebuy", "Ash", 5000)
    mira.act("Ash", "add_fatigue")
    ash.refresh()
    assert ash.tracker("Ash", Character).fatigue == 1
    assert campaign_of(ash).log(["move"])[-1].who == "Mira"


# --- acting --------------------------------------------------------------------------------


def test_gm_only_moves_are_refused_to_a_player_s_session(store: Store) -> None:
    gm = _table(store)
    bryn = _player(store, "Bryn")
    head = campaign_of(gm).head
    for name, args in (("rebuy", ("Bryn", 5000)), ("join", ("Cato", 5000)),
                       ("leave", ("Bryn",))):
        with pytest.raises(SeatError, match="is the GM's move") as caught:
            bryn.act("Dice Monarchs", name, *args)
        assert "\n" not in str(caught.value)
    with pytest.raises(SeatError, match="only the GM may edit Bryn's numbers"):
        bryn.act("Bryn", "set_maxima", 18, 18, 18, 18, 3)
    with pytest.raises(SeatError, match="only the GM"):
        bryn.load("Bryn", Character("Bryn", strength=18, strength_max=18).to_json())
    with pytest.raises(SeatError, match="only Ash and the GM"):
        bryn.act("Ash", "add_fatigue")
    with pytest.raises(SeatError, match="only the GM sets the table's trust"):
        bryn.set_trust(own_numbers=True)
    with pytest.raises(SeatError, match="only the GM may remove"):
        bryn.remove("Ash")
    assert store.head(campaign_of(gm).info.id) == head  # nothing stored
    gm.act("Bryn", "set_maxima", 12, 10, 10, 4, 1)  # the GM's move
    assert gm.tracker("Bryn", Character).strength_max == 12


def test_a_caller_never_chooses_the_seed_and_no_move_is_made_by_another_name(
        store: Store) -> None:
    gm = _table(store)
    ash = _player(store, "Ash")
    for args in ({"seed": 7}, {"rng": __import__("random").Random(7)}):
        with pytest.raises(SeatError, match="draws every seed"):
            gm.act("Ash", "ability_save", "STR", **args)
    with pytest.raises(CompanionError, match="has no move 'undo_now'"):
        ash.act("Ash", "undo_now")
    with pytest.raises(CompanionError, match="has no move"):
        ash.act("Ash", "__init__")
    other = Session.open(store, "T", who="Mira", role="gm")
    with pytest.raises(CompanionError, match="not in campaign 'T' as this session has it"):
        ash.act(other.tracker("Ash"), "add_fatigue")  # another seat's live tracker
    ash.act("Ash", "ability_save", "STR")
    event = campaign_of(gm).log(["move"])[-1]
    assert (event.who, event.move, type(event.seed)) == ("Ash", "ability_save", int)
    assert "seed_chosen_by" not in event.data


def test_own_dice_wait_for_the_gm_s_trust_and_are_marked(store: Store) -> None:
    gm = _table(store)
    ash = _player(store, "Ash")
    with pytest.raises(SeatError, match="not let players enter their own dice"):
        ash.act("Ash", "ability_save", "STR", own_dice=[3])
    with pytest.raises(SeatError, match="own dice"):
        ash._rule_roll("STR save", lambda rng: rng.randint(1, 20), own_dice=[3])
    assert [e for e in campaign_of(gm).log() if e.who == "Ash"] == []
    gm.set_trust(own_dice=True)
    ash.act("Ash", "ability_save", "STR", own_dice=[3])
    event = campaign_of(gm).log(["move"])[-1]
    assert (event.who, event.data.get("physical"), event.data.get("trusted")) == (
        "Ash", True, "own dice")
    with pytest.raises(CompanionError):  # a face left over: nothing stored
        ash.act("Ash", "ability_save", "STR", own_dice=[3, 4])
    assert campaign_of(gm).log(["move"])[-1].seq == event.seq


def test_undo_and_load_go_through_the_session_s_seat(store: Store) -> None:
    gm = _table(store)
    ash = _player(store, "Ash")
    ash.act("Ash", "add_fatigue")
    gm.act("Ash", "add_fatigue")
    with pytest.raises(SeatError, match="cannot undo"):
        ash.undo("Ash")  # the GM moved since
    gm.undo("Ash")
    ash.refresh()
    ash.undo("Ash")
    assert ash.tracker("Ash", Character).fatigue == 0
    gm.set_trust(own_numbers=True)
    ash.refresh()
    ash.load("Ash", Character("Ash", strength=12, strength_max=12).to_json())
    assert campaign_of(gm).log()[-1].who == "Ash"


# --- the revoked seat, in another process ------------------------------------------------------


def _worker(db: str, secret: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen([sys.executable, str(WORKER), db, "T", secret], cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    if proc.stdout.readline().strip() != "ready":
        proc.kill()
        pytest.fail(f"the seat's process did not start: {proc.stderr.read()[-800:]}")
    return proc


def _ask(proc: subprocess.Popen[str]) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("move\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()


@pytest.mark.parametrize("how", ["revoke", "renew"])
def test_a_revoked_seat_s_act_is_refused_at_once_in_another_process(db: str, how: str) -> None:
    with open_store(db) as store:
        gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Bryn", Character("Bryn"))
        secret = make_seat(store, "T", "Bryn", "player")
    proc = _worker(db, secret)
    try:
        assert _ask(proc) == "ok"
        with open_store(db) as store:
            if how == "revoke":
                revoke_seat(store, "T", "Bryn")
            else:
                make_seat(store, "T", "Bryn", "player")  # a new link: the old one is dead
            time.sleep(0.01)
            answer = _ask(proc)
            assert answer.startswith("refused: your seat was revoked or renewed"), answer
            assert _ask(proc).startswith("refused: ")  # the session watches from now on
            moves = [e for e in campaign_of(Session.open(store, "T")).log(["move"])
                     if e.who == "Bryn"]
            assert len(moves) == 1
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


def test_a_session_whose_seat_is_revoked_says_so_and_keeps_its_seat_name(store: Store) -> None:
    _table(store)
    secret = make_seat(store, "T", "Ash", "player")
    ash = Session.by_secret(store, "T", secret)
    assert ash.gone is None
    revoke_seat(store, "T", "Ash")
    with pytest.raises(SeatError, match="revoked or renewed"):
        ash.act("Ash", "add_fatigue")
    assert ash.gone is not None and "revoked" in ash.gone
    assert (ash.who, ash.role, campaign_of(ash).role) == ("Ash", "player", "spectator")
    with pytest.raises(SeatError, match="revoked or renewed"):
        ash.undo("Ash")
    found = seat_for_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    assert found is not None
    with pytest.raises(SeatError):  # a lost seat is not promoted back by a new proof
        ash.renew(seat_key(found))


# --- what a seat may read ----------------------------------------------------------------------


def _lists(node: Any) -> list[list[Any]]:
    """Every list anywhere in ``node``."""
    found: list[list[Any]] = []
    if isinstance(node, dict):
        for v in node.values():
            found.extend(_lists(v))
    elif isinstance(node, list):
        found.append(node)
        for v in node:
            found.extend(_lists(v))
    return found


def _values(node: Any, key: str) -> list[Any]:
    """Every value stored under ``key`` anywhere in ``node`` (dicts and lists)."""
    found: list[Any] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == key:
                found.append(v)
            found.extend(_values(v, key))
    elif isinstance(node, list):
        for v in node:
            found.extend(_values(v, key))
    return found


def test_a_player_s_session_log_holds_no_other_seat_s_hidden_value(store: Store) -> None:
    gm = _table(store)
    game = gm.tracker("Dice Monarchs", DiceMonarchsGame)
    table_seed, bryn_hole = game.seed, game.hole[game.players.index("Bryn")]
    assert bryn_hole and bryn_hole != game.hole[game.players.index("Ash")]
    gm_roll = gm.roll("1d20+5", mode="gm")
    bryn = _player(store, "Bryn")
    own = bryn.roll("3d6", mode="self")
    assert own.roll is not None  # Bryn sees her own self roll
    ash = _player(store, "Ash")
    blind = ash.roll("1d8", mode="blind")
    assert blind.roll is None  # a blind roll: not even its roller sees it

    def secrets(session: Session) -> dict[str, Any]:
        events = [e.to_dict() for e in session.log()]
        by_seq = {e["seq"]: e for e in events}
        return {
            "table seed": table_seed in _values(events, "seed"),
            "Bryn's hole": bryn_hole in _lists(events),
            "gm roll": "secret" in by_seq[gm_roll.entry]["data"],
            "Bryn's self roll": "secret" in by_seq[own.entry]["data"],
            "Ash's blind roll": "secret" in by_seq[blind.entry]["data"],
        }

    # The GM's session holds each (so the check below can fail).
    assert secrets(gm) == dict.fromkeys(
        ("table seed", "Bryn's hole", "gm roll", "Bryn's self roll", "Ash's blind roll"), True)
    assert secrets(ash) == {"table seed": False, "Bryn's hole": False, "gm roll": False,
                            "Bryn's self roll": False, "Ash's blind roll": False}
    assert secrets(bryn)["Bryn's self roll"] is True and secrets(bryn)["gm roll"] is False


# --- the unit of work ------------------------------------------------------------------------


def test_a_rule_roll_is_played_again_when_another_screen_moved_first(store: Store) -> None:
    gm = _table(store)
    ash = _player(store, "Ash")
    other = Session.open(store, "T", who="Mira", role="gm")
    tries: list[int] = []

    def save(rng: Any) -> bool:
        face = rng.randint(1, 20)
        tries.append(face)
        if len(tries) == 1:  # another screen moves Ash in the middle of the first try
            other.act("Ash", "add_fatigue")
        ash.tracker("Ash", Character).add_fatigue()
        return face <= 10

    out = ash._rule_roll("STR save", save, lambda ok: "saved" if ok else "failed")
    assert len(tries) == 2 and tries[0] == tries[1]  # the same dice on the fresh state
    assert out.shown and out.seed is not None and out.text in ("saved", "failed")
    assert ash.tracker("Ash", Character).fatigue == 2
    log = campaign_of(gm).log()
    assert [(e.who, e.kind) for e in log[-3:]] == [
        ("Mira", "move"), ("Ash", "move"), ("Ash", "roll")]
    assert log[-1].seed == out.seed


def test_a_hidden_rule_roll_returns_nothing_its_roller_may_not_see(store: Store) -> None:
    _table(store)
    ash = _player(store, "Ash")
    out = ash._rule_roll("a blind check", lambda rng: rng.randint(1, 20), mode="blind")
    assert (out.value, out.seed, out.text, out.visible) == (None, None, None, False)
    assert out.commitment and out.entry


def test_who_may_edit_numbers_is_the_session_s_answer(store: Store) -> None:
    gm = _table(store)
    ash = _player(store, "Ash")
    assert gm.may_edit_numbers("ash") is None and gm.may_edit_numbers("Cato", "Cato") is None
    assert ash.may_edit_numbers("ash") is not None  # until the GM trusts players
    assert ash.may_edit_numbers("M&M player", "Ash") is not None  # not a tracker: by name
    gm.set_trust(own_numbers=True)
    ash.refresh()
    assert ash.may_edit_numbers("ash") is None
    assert ash.may_edit_numbers("M&M player", "ash") is None  # the one name rule
    assert ash.may_edit_numbers("bryn") is not None
    assert ash.may_edit_numbers("M&M player", "Bryn") is not None
