"""Issue 32: provably fair seeds. A sitting's every roll is recomputed from the published
seeds once the GM closes it; a changed roller, a client seed or a server seed changed
afterwards, and a sitting never closed are all named by ``verify``."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion import dice, fairplay, sittings
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import open_store
from companion.store.campaign import SeatError, create
from companion.table import Session
from tests.conftest import campaign_of, session_of
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain_view

pytestmark = pytest.mark.timeout(180)


def _evening(path: str) -> None:
    """Campaign T played for one sitting: every kind of roll, by the GM and two players."""
    with open_store(path) as store:
        gm = session_of(create(store, "T", ["cairn_srd", "miasma"], who="Mira", role="gm"))
        gm.add("Ash", Character("Ash"))
        gm.add("Bryn", Character("Bryn"))
        gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
        ash = Session.open(store, "T", who="Ash", role="player")
        bryn = Session.open(store, "T", who="Bryn", role="player")
        gm.roll("1d20+7", mode="gm")                       # GM only
        ash.roll("4d6kh3")                                  # public
        blind = ash.roll("1d20", mode="blind").entry        # blind
        bryn.roll("2d6", mode="self")                       # self
        gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Bryn"], 100)
        gm.act("Dice Monarchs", "deal")                     # the Monarchs' deal (a move)
        ash._rule_roll("Ash: STR save", lambda rng: rng.randint(1, 20))  # a rule roll
        bryn._rule_roll("Bryn: WIL save", lambda rng: rng.randint(1, 20), mode="blind")
        ash.set_client_seed("ash-second-seed")              # a seat's seed, for the next
        ash.roll("3d6")
        gm.reveal(blind)                                    # the blind roll, revealed


def _log(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    status, out, _ = run(capsys, "log", "T", "--json", *extra)
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def _news(doc: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    out = []
    for row in doc["events"]:
        news = (row.get("roll") or {}).get("sitting") or row.get("sitting")
        if news:
            out.append((row["seq"], news))
    return out


def _by_hand(server: str, clients: dict[str, str], n: int) -> int:
    """The seed as the docs say to work it out, with nothing of the package."""
    message = json.dumps({"clients": clients, "n": n, "v": 1}, sort_keys=True,
                         separators=(",", ":"))
    mac = hmac.new(server.encode(), message.encode(), hashlib.sha256).hexdigest()
    return int(mac[:16], 16) % 2**53


def test_every_roll_of_a_closed_sitting_is_recomputed_from_the_published_seeds(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _evening(env_db)
    before = _log(capsys)  # every player's view, the sitting still open
    assert "server_seed" not in json.dumps(before)  # the secret is nobody's yet
    assert "server_seed" not in json.dumps(_log(capsys, "--gm"))  # not the GM's either
    status, out, _ = verify_doc(capsys, tmp_path, before)
    assert status == 0 and "sitting 1 (from entry" in out and "is not closed" in out

    status, out, _ = run(capsys, "session", "close", "T")
    assert status == 0 and re.search(r"sitting 1 closed after 8 rolls; server seed "
                                     r"[0-9a-f]{64}", out), out
    assert "hidden rolls not revealed" in out  # the GM-only, self and blind rule rolls
    doc = _log(capsys)
    status, out, _ = verify_doc(capsys, tmp_path, doc)
    assert status == 0, out
    # Public rolls, the public rule roll and the revealed blind roll; the Monarchs' table
    # seed is no player's to see (a game's secret), like the hidden rolls not revealed.
    assert "4 seeds recomputed from the sittings' published seeds" in out
    assert "4 hidden rolls of closed sittings not revealed" in out
    assert "not closed" not in out

    # By hand, as the docs say: the close's seed hashes to the published hash, and every
    # roll that shows a seed (public rolls, the revealed blind roll) has the seed
    # of its number with the client seeds published before it.
    news = _news(doc)
    opening = news[0][1]["open"]
    server = next(n["close"]["server_seed"] for _, n in news if "close" in n)
    assert hashlib.sha256(server.encode()).hexdigest() == opening["server_hash"]
    clients: dict[str, str] = {}
    numbers = []
    seeds_shown = 0
    reveals = {(r["roll"] or {}).get("entry"): r for r in doc["events"] if r["kind"] == "reveal"}
    for row in doc["events"]:
        got = (row.get("roll") or {}).get("sitting") or row.get("sitting") or {}
        clients.update(got.get("clients", {}))
        fair = (row.get("roll") or {}).get("fair") or row.get("fair")
        if not fair:
            continue
        numbers.append(fair["n"])
        seed = row["seed"] if row["seed"] is not None else (
            reveals[row["seq"]]["roll"]["seed"] if row["seq"] in reveals else None)
        if seed is None:
            continue  # a hidden roll not revealed: its seed is known, its dice are not
        assert seed == _by_hand(server, clients, fair["n"]), row
        seeds_shown += 1
        if row["kind"] == "roll" and "expr" in (row.get("roll") or {}):
            # An expression's dice and total, rolled again with the seed.
            again = dice.roll(row["roll"]["expr"], seed=seed)
            assert row["roll"]["total"] == again.total
            assert row["roll"]["dice"] == [d.value for d in again.dice]
    assert numbers == list(range(1, 9)) and seeds_shown == 4
    # Issue 49: the sitting's client seeds are fixed at its opening (the opening seat's);
    # the others offer theirs for the next sitting, Ash the one she set.
    assert set(clients) == {"Mira"}
    coming: dict[str, str] = {}
    for _, got in news:
        coming.update(got.get("next", {}))
    assert set(coming) == {"Ash", "Bryn"} and coming["Ash"] == "ash-second-seed"

    # The GM's full backup checks every hidden roll's seed too (its secrets are in it).
    status, out, _ = run(capsys, "campaign", "export", "T")
    status, out, _ = verify_doc(capsys, tmp_path, json.loads(out), name="export.json")
    assert status == 0 and "8 seeds recomputed" in out, out


def test_a_changed_roller_that_picks_seeds_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A test double of the server: its copy of the roller picks the seed that rolls the
    # best d20 it can find, and logs it as the sitting's.
    honest = sittings.SittingState.seed

    def picks(self: sittings.SittingState, n: int) -> int:
        if n == 3:
            return next(s for s in range(1000) if dice.roll("1d20", seed=s).total == 20)
        return honest(self, n)

    monkeypatch.setattr(sittings.SittingState, "seed", picks)
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(4):
            gm.roll("1d20")
        assert [e.data["total"] for e in gm.log(("roll",))][2] == 20
        gm.close_sitting()
    status, out, err = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "entry 3: its seed" in err
    assert "roll 3 of sitting 1" in err and "picked, not derived" in err


def test_a_roll_skipped_or_a_seed_not_derived_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(3):
            gm.roll("1d20")
        gm.close_sitting()
    doc = _log(capsys)
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    # A roll made and thrown away (the server did not like it): a number is missing.
    skipped = copy.deepcopy(doc)
    skipped["events"][2]["roll"]["fair"]["n"] = 4
    status, _, err = verify_doc(capsys, tmp_path, skipped)
    assert status == 2 and "entry 3 is not the entry its chain hash names" in err, err
    # Rechained as a forger would (issue 47): the sitting's numbers still refuse it.
    status, _, err = verify_doc(capsys, tmp_path, rechain_view(skipped))
    assert status == 2 and "roll number 3 is missing" in err, err
    # A roll logged with no number at all, in a sitting: a seed picked.
    bare = copy.deepcopy(doc)
    del bare["events"][1]["roll"]["fair"]
    status, _, err = verify_doc(capsys, tmp_path, bare)
    assert status == 2 and err.startswith("error: entry 2: a roll with a seed that is not "
                                          "its sitting's"), err


def test_a_client_seed_changed_after_a_roll_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20")
        ash.roll("1d20")
        ash.roll("2d6")
        gm.close_sitting()
    doc = _log(capsys)
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    # The sitting's client seed (published at its opening, with the GM's first roll)
    # rewritten afterwards.
    tampered = copy.deepcopy(doc)
    news = tampered["events"][0]["roll"]["sitting"]
    assert list(news["clients"]) == ["Mira"]
    news["clients"]["Mira"] = "0" * 32
    status, out, err = verify_doc(capsys, tmp_path, tampered)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "entry 1: the client seeds published before it are not the ones it was rolled " \
        "with: a client seed was changed after the roll" in err


def test_a_changed_server_seed_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")
        gm.roll("1d20")
        closed = gm.close_sitting()
    doc = _log(capsys)
    tampered = copy.deepcopy(doc)
    row = next(r for r in tampered["events"] if r["seq"] == closed.seq)
    row["sitting"]["close"]["server_seed"] = "ab" * 32
    status, _, err = verify_doc(capsys, tmp_path, tampered)
    assert status == 2 and f"entry {closed.seq}: the server seed revealed for sitting 1 is " \
        "not the one whose hash was published when it opened (entry 1)" in err, err
    # A server seed whose hash was rewritten too: the opening is shown whole (its seed
    # is in no event since issue 49), so its chain hash names it; rechained by a forger,
    # the rolls give it away.
    both = copy.deepcopy(tampered)
    both["events"][0]["roll"]["sitting"]["open"]["server_hash"] = \
        hashlib.sha256(("ab" * 32).encode()).hexdigest()
    status, _, err = verify_doc(capsys, tmp_path, both)
    assert status == 2 and "entry 1 is not the entry its chain hash names" in err, err
    status, _, err = verify_doc(capsys, tmp_path, rechain_view(both))
    assert status == 2 and "entry 1: its seed" in err, err


def test_a_sitting_never_closed_is_reported_and_the_next_roll_after_a_close_opens_one(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d6")
        gm.close_sitting()
        gm.roll("1d6")  # sitting 2, never closed
        assert campaign_of(gm).sitting.number == 2 and campaign_of(gm).sitting.open
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0
    assert "1 seed recomputed" in out and "sitting 2 (from entry 3) is not closed" in out
    status, out, _ = run(capsys, "session", "show", "T", "--json")
    shown = json.loads(out)
    assert shown["sitting"] == 2 and shown["open"] and shown["rolls"] == 1
    assert list(shown["clients"]) == ["Mira"] and "server_seed" not in out
    status, out, _ = run(capsys, "log", "T")
    assert "sitting 2 opens: server seed committed" in out
    assert "sitting 1 closes after 1 rolls: server seed" in out


def test_only_the_gm_closes_and_a_closed_sitting_cannot_close_again(env_db: str) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        with pytest.raises(sittings.SittingError, match="no open sitting"):
            gm.close_sitting()
        ash.roll("1d6")
        with pytest.raises(SeatError, match="only the GM closes a sitting"):
            ash.close_sitting()
        gm.close_sitting()
        with pytest.raises(sittings.SittingError, match="no open sitting"):
            gm.close_sitting()
        with pytest.raises(sittings.SittingError, match="1 to 64 visible"):
            ash.set_client_seed("two words")


def test_old_campaigns_verify_as_before_provably_fair_seeds(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A campaign logged before sittings existed: seeds given as they were then.
    with open_store(env_db) as store:
        gm = create(store, "T", ["cairn_srd"], who="Mira", role="gm")
        gm.roll_entry("1d20", 5)
        gm.roll_entry("2d6", 6, mode="gm")
        gm.reveal(2)
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0 and "2 rolls before provably fair seeds" in out, out
    with open_store(env_db) as store:  # the next roll opens the campaign's first sitting
        Session.open(store, "T", who="Mira", role="gm").roll("1d4")
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0 and "2 rolls before provably fair seeds" in out
    assert "sitting 1 (from entry 4) is not closed" in out


def test_a_roll_made_again_after_another_screen_moved_keeps_its_number(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two screens rolling in turn, each behind the other: every roll gets the next number
    # (derived again on the fresh state), none twice, none skipped.
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.add("Ash", Character("Ash"))
        other = Session.open(store, "T", who="Mira", role="gm")
        ash = Session.open(store, "T", who="Ash", role="player")
        rng = random.Random(4)
        for _ in range(12):
            who = rng.choice([gm, other, ash])
            if rng.random() < 0.5:
                who.roll("1d20")
            else:
                who._rule_roll("save", lambda r: r.randint(1, 20))
        gm.close_sitting()
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0 and "12 seeds recomputed" in out, out


def test_the_documented_encoding() -> None:
    # The message and the seed, written out by hand as the module's docstring says.
    server = "5a" * 32
    clients = {"Mira": "41" * 16, "Ash": "9f" * 16}
    assert sittings.roll_message(clients, 3) == (
        '{"clients":{"Ash":"' + "9f" * 16 + '","Mira":"' + "41" * 16 + '"},"n":3,"v":1}')
    assert sittings.roll_seed(server, clients, 3) == _by_hand(server, clients, 3)
    assert sittings.server_hash(server) == hashlib.sha256(server.encode()).hexdigest()
    assert all(sittings.roll_seed(server, clients, n) < 2**53 for n in range(1, 200))
    assert fairplay.verify({"events": []}) == 0


def test_a_sitting_survives_snapshots_and_reopening(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.store._campaign import replay  # where the campaign takes its snapshots

    monkeypatch.setattr(replay, "SNAPSHOT_EVERY", 3)  # a snapshot every 3 events
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        for _ in range(7):
            gm.roll("1d20")
        assert store.latest_snapshot(campaign_of(gm).info.id) is not None
    with open_store(env_db) as store:  # opened from the snapshot: the same sitting goes on
        again = Session.open(store, "T", who="Mira", role="gm")
        state = campaign_of(again).sitting
        # The seed is in no snapshot (issue 49): the store keeps it, by the sitting's hash.
        assert state.open and state.rolls == 7 and state.server_seed is None
        assert store.sitting_secret(campaign_of(again).info.id, state.hash) is not None
        again.roll("1d20")
        again.close_sitting()
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0 and "8 seeds recomputed" in out, out


def test_a_seed_a_page_picks_is_logged_as_given_and_counted_apart(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.dice.roller import DrawnSeed

    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        gm.roll("1d20")  # the sitting's
        given = gm.roll("1d20", seeds=lambda: 5)  # a page's own source picked it
        assert given.roll is not None and given.roll.seed == 5
        # The apps' default source draws for want of a seed: the sitting's seed instead.
        drawn = gm.roll("1d20", seeds=lambda: DrawnSeed(5))
        assert drawn.roll is not None and drawn.roll.seed != 5
        data = [e.data for e in gm.log(("roll",))]
        assert data[1]["seed_given"] is True and "fair" not in data[1]
        assert data[2]["fair"]["n"] == 2
        gm.close_sitting()
    status, out, _ = verify_doc(capsys, tmp_path, _log(capsys))
    assert status == 0
    assert "2 seeds recomputed" in out and "1 seed given by the program, not derived" in out
