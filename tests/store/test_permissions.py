"""Issue 28: permission is a property of the table, checked at the seam against the store.

- Each move declares who may make it (``@move(who_may=...)``); the GM-only ones (the Dice
  Monarchs' join, leave and rebuy; every sheet's numbers) are refused to a player's seat.
- The seat is read again from the store in the transaction of every write: a seat revoked
  (or renewed) in another process stores nothing from its very next move (two processes,
  SQLite and PostgreSQL).
- The GM's table trust (own dice, own numbers): off by default, refused when off, marked
  in the log when a player relies on it.
- Names match one way (NFKC casefold) for seats and for "is this my character".
- ``may_move`` agrees with the seam, move by move.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from companion.dice.physical import EnteredDice
from companion.errors import CompanionError
from companion.rulesets import all_rulesets
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.state import GM, OWN_NUMBERS, OWNER, WHO_MAY, Tracker, is_move, move, who_may
from companion.store import open_store
from companion.store.campaign import Campaign, SeatError, create
from companion.store.db import Store
from companion.store.permissions import SeatKey, name_key, same_name
from companion.store.registry import tracker_kinds
from companion.store.seats import make_seat, revoke_seat, seat_for_secret, seat_key, seat_named

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("seat_worker.py")

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Campaign:
    gm = create(store, "T", ["cairn_srd", "miasma"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    game = gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
    game.new_table(["Ash", "Bryn"], 100, seed=7)
    return gm


def _seat(store: Store, who: str, role: str = "player") -> Campaign:
    return Campaign.open(store, "T", who=who, role=role)


# --- the declaration -------------------------------------------------------------------


def test_a_move_declares_who_may_make_it_and_the_default_is_the_owner() -> None:
    assert who_may(Character.add_fatigue) == OWNER
    assert who_may(DiceMonarchsGame.rebuy) == GM
    with pytest.raises(ValueError, match="who_may is one of"):
        move(who_may="anyone")


NUMBERS = {(Character, "set_maxima"), (Adventurer, "set_maxima"), (Adventurer, "set_numbers"),
           (HitDice, "set_maxima"), (SpellPoints, "set_class_level"),
           (SpellPoints, "set_caster")}


def test_every_sheet_s_numbers_and_the_monarchs_chips_are_declared() -> None:
    """Every ruleset's moves named like an edit of a sheet's numbers are OWN_NUMBERS (a
    new one fails here until declared), and the Monarchs' chips are the GM's."""
    found = set()
    for ruleset in all_rulesets():
        for cls in tracker_kinds(ruleset.name).values():
            for name in dir(cls):
                if is_move(getattr(cls, name, None)) and (
                        name in ("set_maxima", "set_numbers", "set_class_level",
                                 "set_caster") or "armor" in name or "armour" in name):
                    found.add((cls, name))
                    assert who_may(getattr(cls, name)) == OWN_NUMBERS, (cls, name)
    assert found >= NUMBERS
    for name in ("join", "leave", "rebuy"):
        assert who_may(getattr(DiceMonarchsGame, name)) == GM
    assert all(who_may(getattr(c, n)) in WHO_MAY for c, n in found)


# --- GM-only moves at the seam ----------------------------------------------------------


def test_a_player_cannot_buy_chips_join_or_leave_only_the_gm(store: Store) -> None:
    _table(store)
    bryn = _seat(store, "Bryn")
    game = bryn.tracker("Dice Monarchs", DiceMonarchsGame)
    for name, args in (("rebuy", ("Bryn", 5000)), ("join", ("Bryn2", 5000)),
                       ("leave", ("Bryn",))):
        with pytest.raises(SeatError, match="is the GM's move") as caught:
            getattr(game, name)(*args)
        assert "\n" not in str(caught.value)
        assert bryn.may_move(game, name, dict(zip(("player", "chips"), args, strict=False)))
    assert game.stacks == [100, 100]
    gm = _seat(store, "Mira", "gm")
    gm.tracker("Dice Monarchs", DiceMonarchsGame).rebuy("Bryn", 50)
    assert gm.tracker("Dice Monarchs", DiceMonarchsGame).stacks == [100, 150]


def test_own_numbers_are_the_gm_s_until_the_gm_trusts_players(store: Store) -> None:
    gm = _table(store)
    ash = _seat(store, "Ash")
    sheet = ash.tracker("Ash", Character)
    with pytest.raises(SeatError, match="only the GM may edit Ash's numbers"):
        sheet.set_maxima(18, 10, 10, 14, 3)
    with pytest.raises(SeatError, match="only the GM may load a saved state into Ash"):
        sheet.load(Character("Ash", strength=18, strength_max=18).to_json())
    with pytest.raises(SeatError, match="only the GM"):
        ash.replace("Ash", Character("Ash", strength=18, strength_max=18))
    assert ash.may_edit_numbers("Ash") is not None
    assert (sheet.strength_max, sheet.armor) == (10, 0)
    with pytest.raises(SeatError, match="only the GM sets the table's trust"):
        ash.set_trust(own_numbers=True)
    gm.set_trust(own_numbers=True)
    sheet.set_maxima(12, 10, 10, 4, 1)  # the conflict refreshes: the trust is seen
    assert (sheet.strength_max, sheet.armor) == (12, 1)
    assert ash.may_edit_numbers("Ash") is None
    with pytest.raises(SeatError, match="only Bryn and the GM"):
        ash.tracker("Bryn", Character).set_maxima(12, 10, 10, 4, 1)
    stored = [e for e in gm.log(["move"]) if e.move == "set_maxima"]
    assert [(e.who, e.data.get("trusted")) for e in stored] == [("Ash", "own numbers")]
    gm.tracker("Bryn", Character).set_maxima(11, 10, 10, 4, 0)  # the GM's: no mark
    assert "trusted" not in gm.log(["move"])[-1].data
    gm.set_trust(own_numbers=False)
    with pytest.raises(SeatError, match="only the GM may edit"):
        sheet.set_maxima(14, 10, 10, 4, 1)


def test_table_trust_is_kept_in_the_log_once_per_campaign_and_not_a_member(
        store: Store) -> None:
    gm = _table(store)
    assert (gm.trust.own_dice, gm.trust.own_numbers) == (False, False)
    gm.set_trust(own_dice=True)
    gm.set_trust(own_dice=True)  # unchanged: nothing stored
    gm.set_trust(own_numbers=True, own_dice=False)
    again = Campaign.open(store, "T")
    assert (again.trust.own_dice, again.trust.own_numbers) == (False, True)
    assert "Table trust" not in [m.name for m in again]
    assert [e.move for e in again.log(["move"]) if e.tracker == "table-trust"] == [
        "set_trust", "set_trust"]
    doc = again.export()
    copy = Campaign.import_document(store, doc, "T2")
    assert copy.trust.own_numbers is True


def test_own_dice_for_a_save_are_refused_until_trusted_and_then_marked(store: Store) -> None:
    gm = _table(store)
    ash = _seat(store, "Ash")
    sheet = ash.tracker("Ash", Character)
    assert ash.may_use_own_dice() is not None
    with pytest.raises(SeatError, match="not let players enter their own dice"):
        sheet.ability_save("STR", rng=EnteredDice([3]))
    with pytest.raises(SeatError, match="own dice"):
        ash.rule_roll("STR save", None, "3: saved", own=True, faces=[3])
    assert [e for e in gm.log() if e.who == "Ash"] == []
    gm.set_trust(own_dice=True)
    ash.refresh()
    assert ash.may_use_own_dice() is None
    sheet.ability_save("STR", rng=EnteredDice([3]))
    event = ash.log(["move"])[-1]
    assert (event.who, event.data.get("physical"), event.data.get("trusted")) == (
        "Ash", True, "own dice")
    gm_sheet = gm.tracker("Bryn", Character)
    gm_sheet.ability_save("STR", rng=EnteredDice([3]))  # the GM's own dice: no trust needed
    assert "trusted" not in gm.log(["move"])[-1].data


# --- one name rule ------------------------------------------------------------------------


def test_names_match_one_way_for_seats_and_characters(store: Store) -> None:
    _table(store)
    assert same_name("ash", "Ash") and same_name("ＡＳＨ", "ash") and same_name("Straße", "STRASSE")
    assert not same_name("Ash", "Asha") and not same_name("", "")
    assert name_key("  Ash   Grey ") == "ash grey"
    make_seat(store, "T", "ash", "player")  # the hub's login name
    seat = seat_named(store, "T", "ＡＳＨ")
    assert seat is not None and same_name(seat.who, "Ash")
    hub = _seat(store, seat.who)
    hub.seat_key = seat_key(seat)
    hub.tracker("Ash", Character).add_fatigue()  # seat "ash" plays Ash
    with pytest.raises(SeatError, match="only Bryn and the GM"):
        hub.tracker("Bryn", Character).add_fatigue()
    assert hub.may_move(hub.tracker("Ash"), "add_fatigue", {}) is None
    hub.tracker("Ash").undo()  # its own move, by the same rule


# --- the seat re-read from the store ---------------------------------------------------------


def _this_checkout() -> dict[str, str]:
    """The environment for a child process that runs this checkout's package first (an
    installed one elsewhere would be other code)."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}


def _worker(db: str, secret: str) -> subprocess.Popen[str]:
    env = _this_checkout()
    proc = subprocess.Popen([sys.executable, str(WORKER), db, "T", secret], cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline().strip()
    if line != "ready":
        proc.kill()
        pytest.fail(f"the seat's process did not start: {proc.stderr.read()[-800:]}")
    return proc


def _ask(proc: subprocess.Popen[str]) -> str:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("move\n")
    proc.stdin.flush()
    return proc.stdout.readline().strip()


@pytest.mark.parametrize("how", ["revoke", "renew", "campaign unseat"])
def test_a_revoked_seat_s_next_move_is_refused_at_once_in_another_process(
        db: str, how: str) -> None:
    with open_store(db) as store:
        gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Bryn", Character("Bryn"))
        secret = make_seat(store, "T", "Bryn", "player")
    proc = _worker(db, secret)
    try:
        assert _ask(proc) == "ok"
        with open_store(db) as store:
            if how == "revoke":
                revoke_seat(store, "T", "bryn")
            elif how == "campaign unseat":  # the command line, a third process
                done = subprocess.run(
                    [sys.executable, "-m", "companion", "campaign", "unseat", "T", "BRYN"],
                    cwd=ROOT, capture_output=True, text=True, timeout=60, check=False,
                    env={**_this_checkout(), "COMPANION_DB": db})
                assert done.returncode == 0, done.stderr
            else:
                make_seat(store, "T", "Bryn", "player")  # a new link: the old one is dead
            time.sleep(0.01)
            answer = _ask(proc)
            assert answer.startswith("refused: your seat was revoked or renewed"), answer
            assert "\n" not in answer
            assert _ask(proc).startswith("refused: ")  # the page watches from now on
            moves = [e for e in Campaign.open(store, "T").log(["move"]) if e.who == "Bryn"]
            assert len(moves) == 1
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


def test_a_revoked_seat_cannot_undo_or_load_either(store: Store) -> None:
    gm = _table(store)
    gm.set_trust(own_numbers=True)
    secret = make_seat(store, "T", "Ash", "player")
    found = seat_for_secret(store, "T", secret)
    assert found is not None
    ash = _seat(store, "Ash")
    ash.seat_key = seat_key(found, secret)
    sheet = ash.tracker("Ash", Character)
    sheet.add_fatigue()
    revoke_seat(store, "T", "Ash")
    with pytest.raises(SeatError, match="revoked or renewed"):
        sheet.undo()
    assert ash.role == "spectator" and ash.seat_key is None
    other = _seat(store, "Ash")
    other.seat_key = seat_key(found, secret)
    with pytest.raises(SeatError, match="revoked"):
        other.tracker("Ash", Character).load(Character("Ash").to_json())
    assert [e.kind for e in gm.log() if e.who == "Ash"] == ["move"]


def test_a_seat_key_that_is_not_the_campaign_s_seat_stores_nothing(store: Store) -> None:
    _table(store)
    secret = make_seat(store, "T", "Bryn", "player")
    bryn = _seat(store, "Bryn")
    bryn.seat_key = SeatKey("Bryn", "player", "0" * 64)  # a forged secret's hash
    with pytest.raises(SeatError, match="revoked or renewed"):
        bryn.tracker("Bryn", Character).add_fatigue()
    page = _seat(store, "Bryn")
    found = seat_for_secret(store, "T", secret)
    assert found is not None
    page.seat_key = seat_key(found, secret)
    page.who = "Ash"  # ambient state rewritten after the seat was proven
    with pytest.raises(SeatError, match="this screen's seat is Bryn"):
        page.tracker("Ash", Character).add_fatigue()
    assert repr(seat_key(found, secret)) == "SeatKey(who='Bryn', role='player')"


# --- may_move agrees with the seam ----------------------------------------------------------


CASES: list[tuple[str, str, dict[str, Any]]] = [
    ("Ash", "add_fatigue", {}),
    ("Bryn", "add_fatigue", {}),
    ("Ash", "set_maxima", {"strength": 12, "dexterity": 10, "control": 10, "guard": 4,
                           "armor": 1}),
    ("Dice Monarchs", "rebuy", {"player": "Ash", "chips": 10}),
    ("Dice Monarchs", "join", {"player": "Cy", "chips": 10}),
    ("Dice Monarchs", "leave", {"player": "Ash"}),
    ("Dice Monarchs", "deal", {}),
    ("Dice Monarchs", "set_show_odds", {"on": False}),
]


@pytest.mark.parametrize("trusted", [False, True])
@pytest.mark.parametrize("seat", [("Ash", "player"), ("Bryn", "player"), ("Mira", "gm"),
                                  ("", "spectator")])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}.{c[1]}")
def test_may_move_agrees_with_the_seam(store: Store, case: tuple[str, str, dict[str, Any]],
                                       seat: tuple[str, str], trusted: bool) -> None:
    gm = _table(store)
    gm.set_trust(own_numbers=trusted, own_dice=trusted)
    who, role = seat
    campaign = _seat(store, who, role)
    tracker: Tracker = campaign.tracker(case[0])
    name, args = case[1], case[2]
    shown = campaign.may_move(tracker, name, args)
    try:
        getattr(tracker, name)(**args)
    except SeatError as exc:
        assert shown is not None, f"the app offered {name} but the seam refused: {exc}"
        assert str(exc) == shown
        return
    except CompanionError:
        pass  # the rules refused it: not a question of seats
    assert shown is None, f"the seam took {name} the app would not offer ({shown})"


def test_the_declaration_reaches_every_move_signature() -> None:
    # The decorator keeps the signature (the seam binds arguments by it).
    assert list(inspect.signature(DiceMonarchsGame.rebuy).parameters) == [
        "self", "player", "chips"]


def test_the_command_line_shows_and_sets_the_table_s_trust_and_the_log_marks_entries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    db = tmp_path / "cli.db"
    monkeypatch.setenv("COMPANION_DB", str(db))
    with open_store(db) as store:
        _table(store)
    assert main(["campaign", "trust", "T"]) == 0
    assert "may not enter their own dice" in capsys.readouterr().out
    assert main(["campaign", "trust", "T", "--own-dice", "on"]) == 0
    out = capsys.readouterr().out
    assert "players may enter their own dice" in out and "may not edit" in out
    with open_store(db) as store:
        Campaign.open(store, "T", who="Ash", role="player").tracker(
            "Ash", Character).ability_save("STR", rng=EnteredDice([3]))
    assert main(["log", "T"]) == 0
    assert "[player's own dice, by the table's trust]" in capsys.readouterr().out
    assert main(["campaign", "trust", "T", "--own-dice", "maybe"]) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_module_s_examples_hold() -> None:
    import doctest

    from companion.store import permissions

    assert doctest.testmod(permissions).failed == 0


def test_a_check_logged_with_own_dice_and_no_move_waits_for_the_gm_s_trust(
        store: Store) -> None:
    gm = _table(store)
    ash = _seat(store, "Ash")
    head = gm.head
    with pytest.raises(SeatError, match="own dice"), ash.rolling("public") as scope:
        scope.log("Ash: climb", None, "3: fails", own=True, faces=[3])
    assert Campaign.open(store, "T").head == head  # nothing stored
    gm.set_trust(own_dice=True)
    ash.refresh()
    with ash.rolling("public") as scope:
        scope.log("Ash: climb", None, "3: fails", own=True, faces=[3])
    assert scope.logged is not None and ash.log(["roll"])[-1].data["physical"] is True


def test_trust_taken_back_on_another_screen_refuses_the_very_next_entry(
        store: Store) -> None:
    gm = _table(store)
    gm.set_trust(own_numbers=True, own_dice=True)
    ash = _seat(store, "Ash")  # opened while trusted
    assert ash.may_edit_numbers("Ash") is None
    gm.set_trust(own_numbers=False, own_dice=False)  # not yet seen on Ash's screen
    with pytest.raises(SeatError, match="only the GM may edit Ash's numbers"):
        ash.tracker("Ash", Character).set_maxima(18, 10, 10, 6, 3)
    with pytest.raises(SeatError, match="own dice"):
        ash.tracker("Ash", Character).ability_save("STR", rng=EnteredDice([3]))
    assert [e for e in gm.log() if e.who == "Ash"] == []
