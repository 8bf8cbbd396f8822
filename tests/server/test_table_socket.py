"""Issue 44: the table socket, in process (no browser), on SQLite and PostgreSQL.

A real ``TableSocket`` in a tornado app on a free port (``wire.Server``), real websocket
clients (``wire.Phone``):

- a hello with a bad, revoked or another campaign's secret, or for no such campaign, is
  refused; the seat is the store's, never a field the page sends;
- an act the seat may not make is refused and stores nothing;
- crafted frames (not JSON, wrong types, huge, deep, binary, unknown type, out-of-order
  seq, replays) get one line each, and the sender's and another phone's sockets go on;
  a frame over the socket's cap closes only that socket, its close reason one line;
- no frame sent to a player holds another seat's hidden value (Dice Monarchs);
- a phone that drops resumes with last_seen: nothing missed, nothing doubled, and an act
  resent after a lost answer is answered again, not made twice;
- an offline queue sent at once is judged in order, a refusal in the middle;
- a seat revoked mid-connection is told ``gone`` and its next act refused;
- a move by one phone (or by a face outside the server) is pushed to the others;
- two servers (separate Store objects) on one PostgreSQL push to each other's phones.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from tornado import httpclient, websocket

from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.server.protocol import MAX_FRAME_BYTES
from companion.server.table import NO_SEAT_LINE, SOCKET_MAX_BYTES, TOO_BIG_LINE
from companion.store import open_store
from companion.store.campaign import act_digest, create
from companion.store.permissions import SEAT_GONE_LINE
from companion.store.port import Store
from companion.store.seats import make_seat, revoke_seat
from companion.table import Session
from tests.conftest import campaign_of, session_of
from tests.server.wire import WAIT, Frame, Phone, Server

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(180)


def _table(store: Store, name: str = "T") -> Session:
    """Campaign ``name``: Ash and Bryn (the GM's session, as a Voila kernel holds it)."""
    gm = session_of(create(store, name, ["cairn_srd", "miasma"], who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    return gm


def _one_line(frame: Frame) -> str:
    assert frame["type"] == "refused", frame
    reason = frame["reason"]
    assert isinstance(reason, str) and reason and "\n" not in reason
    assert "Traceback" not in reason and len(reason) < 300
    return reason


def _seqs(phone: Phone) -> list[int]:
    return [e["seq"] for e in phone.events()]


def _in_order(*phones: Phone) -> list[int]:
    """The events the phones (one device's sockets, in order) were sent: each once, in
    order of the log."""
    seqs = [s for p in phones for s in _seqs(p)]
    assert seqs == sorted(set(seqs)), seqs
    return seqs


async def _phone(server: Server, secret: str, last_seen: int = 0,
                 campaign: str = "T") -> tuple[Phone, Frame]:
    phone = await Phone.connect(server.url)
    return phone, await phone.hello(campaign, secret, last_seen)


# --- hello -----------------------------------------------------------------------------


def test_a_hello_without_a_seat_of_that_campaign_is_refused(store: Store,
                                                            server: Server) -> None:
    gm = _table(store)
    _table(store, "U")
    ash = make_seat(store, "T", "Ash", "player")
    other = make_seat(store, "U", "Bryn", "player")
    gone = make_seat(store, "T", "Bryn", "player")
    revoke_seat(store, "T", "Bryn")

    async def play() -> None:
        phone = await Phone.connect(server.url)
        for campaign, secret in [("T", "forged-secret-0123456789"), ("T", other),
                                 ("T", gone), ("No such table", ash), ("T", "")]:
            assert _one_line(await phone.hello(campaign, secret)) == NO_SEAT_LINE
        # The page names no seat: a field saying who it is is refused, not read.
        await phone.send({"type": "hello", "v": 1, "campaign": "T", "secret": ash,
                          "who": "Mira", "role": "gm"})
        assert "'role'" in _one_line(await phone.answer())
        # The same socket may still say a good hello; the seat is the secret's.
        welcome = await phone.hello("T", ash)
        assert (welcome["type"], welcome["who"], welcome["role"]) == ("welcome", "Ash",
                                                                      "player")
        assert welcome["head"] == campaign_of(gm).head and welcome["v"] == 1
        assert [m["name"] for m in welcome["members"]] == ["Ash", "Bryn"]
        assert "already" in _one_line(await phone.hello("T", ash))
        phone.close()

    asyncio.run(play())


# --- acts ------------------------------------------------------------------------------


def test_an_act_the_seat_may_not_make_is_refused_and_stores_nothing(
        store: Store, server: Server) -> None:
    gm = _table(store)
    ash = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        phone, _ = await _phone(server, ash)
        head = store.head(campaign_of(gm).info.id)
        for tracker, move, args in [("Bryn", "add_fatigue", {}),   # another's character
                                    ("Ash", "no_such_move", {}),
                                    ("Ash", "add_fatigue", {"seed": 4}),  # no chosen dice
                                    ("", "reveal", {"entry": 1})]:
            refused = await phone.act(tracker, move, args)
            assert refused["seq"] == phone.seq
            _one_line(refused)
        assert store.head(campaign_of(gm).info.id) == head
        accepted = await phone.act("Ash", "add_fatigue")
        assert accepted["type"] == "accepted" and accepted["seq"] == phone.seq
        assert [(e["who"], e["move"]) for e in accepted["events"]] == [("Ash", "add_fatigue")]
        assert accepted["head"] == store.head(campaign_of(gm).info.id) == head + 1
        phone.close()

    asyncio.run(play())


def test_crafted_frames_get_one_line_and_no_socket_is_dropped(store: Store,
                                                               server: Server) -> None:
    _table(store)
    ash, bryn = make_seat(store, "T", "Ash", "player"), make_seat(store, "T", "Bryn", "player")
    act: dict[str, Any] = {"tracker": "Ash", "move": "add_fatigue", "client": "x", "seq": 1}

    async def play() -> None:
        stranger = await Phone.connect(server.url)
        await stranger.send({"type": "act", "act": act})
        assert "hello first" in _one_line(await stranger.answer())
        attacker, _ = await _phone(server, ash)
        other, _ = await _phone(server, bryn)
        crafted: list[str | bytes] = [
            "not json", "[]", "null", '"hello"', json.dumps({"type": "dance"}),
            json.dumps({"type": 7}), json.dumps({}),
            json.dumps({"type": "hello", "v": 2, "campaign": "T", "secret": ash}),
            json.dumps({"type": "hello", "v": "1", "campaign": "T", "secret": ash}),
            json.dumps({"type": "hello", "v": 1, "campaign": "T", "secret": ash, "client": 5}),
            json.dumps({"type": "act", "act": "add_fatigue"}),
            json.dumps({"type": "act", "act": {**act, "seq": "1"}}),
            json.dumps({"type": "act", "act": {**act, "seq": -1}}),
            json.dumps({"type": "act", "act": {**act, "seq": 0}}),
            json.dumps({"type": "act", "act": {**act, "seq": 2**60}}),
            json.dumps({"type": "act", "act": {**act, "client": ""}}),
            json.dumps({"type": "act", "act": {**act, "tracker": 5}}),
            json.dumps({"type": "act", "act": {**act, "args": [1, 2]}}),
            json.dumps({"type": "act", "act": {**act, "roll": {"mode": "loud"}}}),
            json.dumps({"type": "act", "act": {**act, "who": "Mira"}}),
            json.dumps({"type": "act", "act": act, "extra": 1}),
            "[" * 100_000 + "]" * 100_000,
            json.dumps({"type": "act", "act": {**act, "args": {"x": "y" * MAX_FRAME_BYTES}}}),
            b"\x00\x01binary",
        ]
        for frame in crafted:
            if isinstance(frame, bytes):
                await attacker.conn.write_message(frame, binary=True)
            else:
                await attacker.send(frame)
            _one_line(await attacker.answer())
        # Both sockets still work; nothing crafted was stored.
        assert (await attacker.act("Ash", "add_fatigue"))["type"] == "accepted"
        assert (await other.act("Bryn", "add_fatigue"))["type"] == "accepted"
        moves = [(e.who, e.move) for e in store.events_since(store.get_campaign("T").id)
                 if e.kind == "move"]
        assert moves == [("Ash", "add_fatigue"), ("Bryn", "add_fatigue")]
        for phone in (stranger, attacker, other):
            phone.close()

    asyncio.run(play())


def test_a_frame_over_the_socket_s_cap_closes_that_socket_with_one_line(
        store: Store, server: Server) -> None:
    _table(store)
    ash, bryn = make_seat(store, "T", "Ash", "player"), make_seat(store, "T", "Bryn", "player")
    huge = json.dumps({"type": "act", "act": {
        "tracker": "Ash", "move": "add_fatigue", "client": "x", "seq": 1,
        "args": {"x": "y" * SOCKET_MAX_BYTES}}})

    async def play() -> None:
        attacker, _ = await _phone(server, ash)
        other, _ = await _phone(server, bryn)
        # The server may close before the whole frame is written: the send may fail.
        with contextlib.suppress(websocket.WebSocketClosedError):
            await attacker.send(huge)
        # tornado reads no byte of it past its length: the socket is closed, with code
        # 1009 and the project's one line (not tornado's "message too big").
        assert await asyncio.wait_for(attacker.conn.read_message(), WAIT) is None
        assert attacker.conn.close_code == 1009
        assert attacker.conn.close_reason == TOO_BIG_LINE
        assert "\n" not in TOO_BIG_LINE and len(TOO_BIG_LINE.encode()) <= 123
        # The server goes on: the other phone's socket, and a new one of the same seat.
        made = await other.act("Bryn", "add_fatigue")
        assert made["type"] == "accepted", made
        again, welcome = await _phone(server, ash)
        assert welcome["type"] == "welcome"
        assert (await again.act("Ash", "add_fatigue", client="x", seq=1))["type"] \
            == "accepted"
        moves = [(e.who, e.move) for e in store.events_since(store.get_campaign("T").id)
                 if e.kind == "move"]
        assert moves == [("Bryn", "add_fatigue"), ("Ash", "add_fatigue")]
        for phone in (other, again):
            phone.close()

    asyncio.run(play())


def test_a_move_whose_result_is_an_object_is_answered_in_json(store: Store,
                                                             server: Server) -> None:
    """A plot-points check returns its outcome (dice and all): the answer carries it as
    JSON values, and a resend is answered again the same way (it was a server error)."""
    from companion.rulesets.plot_points.session import PlotPointSession

    gm = session_of(create(store, "P", ["plot_points"], who="Mira", role="gm"))
    gm.add("Table", PlotPointSession.new(["Ash"], "Mira"), role="minigame")
    ash = make_seat(store, "P", "Ash", "player")

    async def play() -> None:
        phone, _ = await _phone(server, ash, campaign="P")
        answer = await phone.act("table", "roll_check", {"who": "Ash"}, seq=1)
        assert answer["type"] == "accepted", answer
        assert isinstance(answer["result"], dict) and answer["result"]
        json.dumps(answer)
        again = await phone.act("table", "roll_check", {"who": "Ash"}, seq=1)
        assert again["type"] == "accepted" and again["replay"] is True
        assert again["result"] == answer["result"]
        rolls = [e for e in store.events_since(store.get_campaign("P").id)
                 if e.kind == "move" and e.move == "roll_check"]
        assert len(rolls) == 1
        phone.close()

    asyncio.run(play())


def test_an_act_resent_is_answered_again_and_an_older_seq_refused(store: Store,
                                                                  server: Server) -> None:
    gm = _table(store)
    ash = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        phone, _ = await _phone(server, ash)
        first = await phone.act("Ash", "add_fatigue", seq=3)
        assert first["type"] == "accepted"
        head = store.head(campaign_of(gm).info.id)
        again = await phone.act("Ash", "add_fatigue", seq=3)
        assert again["type"] == "accepted" and again["replay"] is True
        assert again["events"] == []  # this socket holds them already
        assert store.head(campaign_of(gm).info.id) == head  # made once
        assert "comes after act 3" in _one_line(await phone.act("Ash", "add_fatigue", seq=2))
        assert "another act" in _one_line(await phone.act("Ash", "remove_fatigue", seq=3))
        # Another device of the same seat numbers its own acts.
        assert (await phone.act("Ash", "add_fatigue", client="tablet", seq=1))["type"] \
            == "accepted"
        refused = await phone.act("Bryn", "add_fatigue", seq=4)
        assert (await phone.act("Bryn", "add_fatigue", seq=4)) == {**refused, "replay": True}
        assert store.head(campaign_of(gm).info.id) == head + 1
        phone.close()

    asyncio.run(play())


# --- an act made once, whichever process its resend reaches -----------------------------


def _fatigue_moves(store: Store, name: str = "T") -> list[int]:
    """The numbers of the add_fatigue events of campaign ``name``."""
    return [e.seq for e in store.events_since(store.get_campaign(name).id)
            if e.kind == "move" and e.move == "add_fatigue"]


async def _hello_as(server: Server, secret: str, client: str, last_seen: int = 0,
                    campaign: str = "T") -> tuple[Phone, Frame]:
    phone = await Phone.connect(server.url)
    await phone.send({"type": "hello", "v": 1, "campaign": campaign, "secret": secret,
                      "client": client, "last_seen": last_seen})
    return phone, await phone.answer()


def test_an_act_resent_after_a_restart_is_stored_once(db: str) -> None:
    """The first server stores act 3 and goes (its answers in memory with it); a new
    server on the same database answers the resend from the act's stamped events."""
    store = open_store(db)
    _table(store)
    ash = make_seat(store, "T", "Ash", "player")
    first = Server(store)

    async def before_the_restart() -> tuple[int, Frame]:
        phone, welcome = await _hello_as(first, ash, "ash-phone")
        held = welcome["head"]
        made = await phone.act("Ash", "add_fatigue", client="ash-phone", seq=3)
        assert made["type"] == "accepted", made
        # Its events say which act stored them (its device, number and what it was).
        assert [e["data"]["act"] for e in made["events"]] == [
            {"client": "ash-phone", "seq": 3,
             "digest": act_digest({"tracker": "Ash", "move": "add_fatigue", "args": {}})}]
        phone.close()
        return held, made

    try:
        held, made = asyncio.run(before_the_restart())
    finally:
        first.stop()
    assert _fatigue_moves(store) == [e["seq"] for e in made["events"]]
    restarted = Server(open_store(db))

    async def after_the_restart() -> None:
        # The phone never got the answer: it holds the log from before its act.
        phone, welcome = await _hello_as(restarted, ash, "ash-phone", held)
        assert welcome["judged"] == 3  # from the log: not made again on the phone's state
        again = await phone.act("Ash", "add_fatigue", client="ash-phone", seq=3)
        assert again["type"] == "accepted" and again["replay"] is True
        assert again["events"] == []  # its welcome brought them
        assert [e["seq"] for e in welcome["events"]] == [e["seq"] for e in made["events"]]
        # Resent again on another socket (answered from this server's memory now).
        fresh, _ = await _hello_as(restarted, ash, "ash-phone")
        replay = await fresh.act("Ash", "add_fatigue", client="ash-phone", seq=3)
        assert replay == again
        # Numbered before the stored act: refused, as the first server would have.
        assert "comes after act 3" in _one_line(
            await phone.act("Ash", "add_fatigue", client="ash-phone", seq=2))
        nxt = await phone.act("Ash", "add_fatigue", client="ash-phone", seq=4)
        assert nxt["type"] == "accepted" and "replay" not in nxt
        phone.close()
        fresh.close()

    try:
        asyncio.run(after_the_restart())
    finally:
        restarted.stop()
    assert len(_fatigue_moves(store)) == 2  # act 3 once, act 4 once


def test_another_act_under_a_stored_act_s_number_is_refused_and_stores_nothing(
        db: str) -> None:
    """Issue 44: a device's act 3 is stored, then the server restarts (its answers in
    memory go). Sent again under the same client and seq, another act (another move, its
    arguments, another tracker, a roll) is refused in one line from the log's stamps,
    storing nothing; the act itself resent is still answered with its stored events."""
    store = open_store(db)
    _table(store)
    ash = make_seat(store, "T", "Ash", "player")
    first = Server(store)

    async def before_the_restart() -> Frame:
        phone, _ = await _hello_as(first, ash, "ash-phone")
        made = await phone.act("Ash", "add_fatigue", {"count": 2}, client="ash-phone", seq=3)
        assert made["type"] == "accepted", made
        phone.close()
        return made

    try:
        made = asyncio.run(before_the_restart())
    finally:
        first.stop()
    head = store.head(store.get_campaign("T").id)
    restarted = Server(open_store(db))

    async def after_the_restart() -> None:
        phone, welcome = await _hello_as(restarted, ash, "ash-phone")
        assert welcome["judged"] == 3
        others = [("Ash", "add_fatigue", {"count": 3}),  # its argument
                  ("Ash", "add_fatigue", {}),  # its argument left to its default
                  ("Ash", "add_item", {"name": "Rope"}),  # another move
                  ("Bryn", "add_fatigue", {"count": 2}),  # another tracker
                  ("", "roll", {"expr": "1d6"})]  # the table's own act
        for tracker, move, args in others:
            refused = await phone.act(tracker, move, args, client="ash-phone", seq=3)
            reason = _one_line(refused)
            assert reason == (f"act 3 of ash-phone was another act, stored already (entry "
                              f"{made['events'][0]['seq']}): number a new act after the "
                              "last"), (tracker, move, args, reason)
            assert refused["seq"] == 3
            assert store.head(store.get_campaign("T").id) == head  # nothing stored
        # The act itself, resent: its stored answer (the refusals above kept nothing).
        again = await phone.act("Ash", "add_fatigue", {"count": 2}, client="ash-phone", seq=3)
        assert again["type"] == "accepted" and again["replay"] is True, again
        assert store.head(store.get_campaign("T").id) == head
        assert [e["seq"] for e in welcome["events"]][-1] == made["events"][0]["seq"]
        phone.close()

    try:
        asyncio.run(after_the_restart())
    finally:
        restarted.stop()
    assert _fatigue_moves(store) == [e["seq"] for e in made["events"]]  # stored once


def test_another_act_meeting_the_stamp_at_the_store_s_search_is_refused(db: str) -> None:
    """The other path: a process that had not read the act's stamp yet (its search of
    the log ended before it) judges another act under the same client and seq; the
    store's search before the append finds the stamp, refuses it, stores nothing. The act
    itself, judged the same way, is answered again."""
    from companion.table.acts import Accepted, Act, Refused

    store_a, store_b = open_store(db), open_store(db)
    _table(store_a)
    ash = make_seat(store_a, "T", "Ash", "player")
    here, there = Session.by_secret(store_a, "T", ash), Session.by_secret(store_b, "T", ash)
    searched = store_a.head(store_a.get_campaign("T").id)
    act = Act("Ash", "add_fatigue", {"count": 2}, client="ash-phone", seq=1)
    made = here.perform(act, once_after=searched)
    assert isinstance(made, Accepted) and not made.again
    head = store_a.head(store_a.get_campaign("T").id)
    before = there.read("Ash").fatigue  # opened before act 1
    other = there.perform(Act("Ash", "add_fatigue", {"count": 5}, client="ash-phone", seq=1),
                          once_after=searched)
    assert isinstance(other, Refused), other
    assert other.reason.startswith("act 1 of ash-phone was another act, stored already")
    assert "\n" not in other.reason
    assert store_b.head(store_b.get_campaign("T").id) == head
    there.refresh()
    assert there.read("Ash").fatigue == before + 2  # act 1's, once
    again = there.perform(act, once_after=searched)
    assert isinstance(again, Accepted) and again.again
    assert [e["seq"] for e in again.events] == [e["seq"] for e in made.events]
    assert store_b.head(store_b.get_campaign("T").id) == head


def test_a_log_of_stamped_acts_exports_verifies_and_imports(db: str) -> None:
    """The stamp is part of the event (its data, so its hash): an export of acts made
    through the table socket's path, a rolled one among them, verifies and imports."""
    from companion.store.judge import verify_document
    from companion.table.acts import Accepted, Act, RollSpec
    from companion.table.opening import export_text, import_document

    store = open_store(db)
    _table(store)
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    for seq, act in enumerate([Act("Ash", "add_fatigue", {}),
                               Act("Ash", "panic_save", {}, RollSpec("public", "panic")),
                               Act("", "roll", {"expr": "2d6"})], 1):
        made = ash.perform(Act(act.tracker, act.move, act.args, act.roll,
                               client="ash-phone", seq=seq), once_after=0)
        assert isinstance(made, Accepted) and made.events, made
        assert {e["data"]["act"]["seq"] for e in made.events} == {seq}
    text = export_text(store, "T")
    doc = json.loads(text)
    assert sum("act" in e["data"] for e in doc["events"]) >= 3
    said = verify_document(doc, "T")  # the rolls made again, the chain walked
    assert "2 rolls checked, all hold" in said and "its chain holds" in said, said
    name, head = import_document(store, doc, "T again")
    assert (name, head) == ("T again", store.head(store.get_campaign("T").id))


# --- what a player is sent -----------------------------------------------------------


def _lists(node: Any) -> list[list[Any]]:
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


def test_no_frame_sent_to_a_player_holds_another_seat_s_hidden_value(
        store: Store, server: Server) -> None:
    gm = _table(store)
    secrets = {who: make_seat(store, "T", who, role)
               for who, role in [("Ash", "player"), ("Bryn", "player"), ("Mira", "gm")]}

    async def play() -> None:
        ash, _ = await _phone(server, secrets["Ash"])
        bryn, _ = await _phone(server, secrets["Bryn"])
        mira, _ = await _phone(server, secrets["Mira"])
        # The GM's kernel deals a Monarchs table with a seed she chose (known hole dice).
        gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
        gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Bryn"], 100, seed=11)
        gm.act("Dice Monarchs", "deal")
        game = gm.tracker("Dice Monarchs", DiceMonarchsGame)
        table_seed, bryn_hole = game.seed, game.hole[game.players.index("Bryn")]
        assert bryn_hole and bryn_hole != game.hole[game.players.index("Ash")]
        gm_roll = gm.roll("1d20+5", mode="gm").entry
        own = await bryn.act("", "roll", {"expr": "3d6"}, roll={"mode": "self"})
        blind = await ash.act("", "roll", {"expr": "1d8"}, roll={"mode": "blind"})
        assert own["type"] == blind["type"] == "accepted"
        assert blind["result"] is None
        hidden = {gm_roll, own["roll"]["entry"], blind["roll"]["entry"]}
        last = store.head(campaign_of(gm).info.id)
        for phone in (ash, bryn, mira):
            await phone.holds(last)
        # A late phone of Ash's: everything in its welcome.
        late, _ = await _phone(server, secrets["Ash"])

        def leaks(phone: Phone) -> dict[str, bool]:
            frames = phone.frames
            by_seq = {e["seq"]: e for e in phone.events()}
            assert hidden <= set(by_seq)
            return {"table seed": table_seed in _values(frames, "seed"),
                    "Bryn's hole": bryn_hole in _lists(frames),
                    "a hidden roll": any("secret" in by_seq[n]["data"] for n in hidden)}

        # The GM's phone is sent each (so the check can fail).
        assert leaks(mira) == dict.fromkeys(("table seed", "Bryn's hole", "a hidden roll"),
                                            True)
        no = dict.fromkeys(("table seed", "Bryn's hole", "a hidden roll"), False)
        assert leaks(ash) == leaks(late) == no
        assert "secret" in {e["seq"]: e for e in bryn.events()}[own["roll"]["entry"]]["data"]
        for phone in (ash, bryn, mira, late):
            phone.close()

    asyncio.run(play())


# --- pushes, drops, queues, revocation ---------------------------------------------------


def test_a_move_is_pushed_to_the_other_phones(store: Store, server: Server) -> None:
    gm = _table(store)
    ash_secret = make_seat(store, "T", "Ash", "player")
    bryn_secret = make_seat(store, "T", "Bryn", "player")

    async def play() -> None:
        ash, _ = await _phone(server, ash_secret)
        bryn, _ = await _phone(server, bryn_secret)
        made = await ash.act("Ash", "add_fatigue")
        seq = made["events"][0]["seq"]
        await bryn.holds(seq)
        assert {e["seq"]: e["move"] for e in bryn.events()}[seq] == "add_fatigue"
        # A face outside the server (a Voila kernel, the command line) is pushed too.
        gm.act("Bryn", "add_fatigue")
        last = store.head(campaign_of(gm).info.id)
        await ash.holds(last)
        await bryn.holds(last)
        assert _in_order(ash)[-2:] == [seq, last] and _in_order(bryn)[-2:] == [seq, last]
        ash.close()
        bryn.close()

    asyncio.run(play())


def test_a_phone_that_drops_resumes_with_nothing_missed_or_doubled(
        store: Store, server: Server) -> None:
    gm = _table(store)
    ash_secret = make_seat(store, "T", "Ash", "player")
    bryn_secret = make_seat(store, "T", "Bryn", "player")

    async def play() -> None:
        ash, _ = await _phone(server, ash_secret)
        bryn, _ = await _phone(server, bryn_secret)
        assert (await ash.act("Ash", "add_fatigue", client="ash-phone"))["type"] == "accepted"
        held = ash.head()
        ash.close()  # the phone drops
        # While it is away: Bryn moves, and Ash's last act never gets its answer.
        for _ in range(2):
            assert (await bryn.act("Bryn", "add_fatigue"))["type"] == "accepted"
        lost = await Phone.connect(server.url)
        await lost.hello("T", ash_secret, held)
        await lost.send({"type": "act", "act": {"tracker": "Ash", "move": "add_fatigue",
                                                "client": "ash-phone", "seq": 2}})
        await lost.holds(held + 3)  # its act was stored...
        lost.close()  # ...and the answer lost with the socket
        last = store.head(campaign_of(gm).info.id)
        back = await Phone.connect(server.url)
        await back.send({"type": "hello", "v": 1, "campaign": "T", "secret": ash_secret,
                         "client": "ash-phone", "last_seen": held})
        welcome = await back.answer()
        assert [e["seq"] for e in welcome["events"]] == list(range(held + 1, last + 1))
        assert welcome["judged"] == 2  # its act 2 was judged: its event is among these
        # The act resent is answered again, not made twice.
        again = await back.act("Ash", "add_fatigue", client="ash-phone", seq=2)
        assert again["type"] == "accepted" and again["replay"] is True
        assert store.head(campaign_of(gm).info.id) == last
        assert _in_order(ash, back) == list(range(1, last + 1))
        back.close()
        bryn.close()

    asyncio.run(play())


def test_an_offline_queue_is_judged_in_order_with_a_refusal_in_the_middle(
        store: Store, server: Server) -> None:
    gm = _table(store)
    ash_secret = make_seat(store, "T", "Ash", "player")
    queue = [("Ash", "add_fatigue"), ("Bryn", "add_fatigue"), ("Ash", "add_fatigue"),
             ("", "roll")]

    async def play() -> None:
        phone, _ = await _phone(server, ash_secret)
        before = store.head(campaign_of(gm).info.id)
        for n, (tracker, move) in enumerate(queue, 1):  # all at once, as on reconnect
            args = {"expr": "1d6"} if move == "roll" else {}
            await phone.send({"type": "act", "act": {"tracker": tracker, "move": move,
                                                     "args": args, "client": "q", "seq": n}})
        answers = [await phone.until(lambda f: f["type"] in ("accepted", "refused"))
                   for _ in queue]
        assert [(a["seq"], a["type"]) for a in answers] == [
            (1, "accepted"), (2, "refused"), (3, "accepted"), (4, "accepted")]
        assert "Bryn" in _one_line(answers[1])
        stored = store.events_since(campaign_of(gm).info.id, before)
        assert [(e.who, e.kind, e.tracker) for e in stored] == [
            ("Ash", "move", "ash"), ("Ash", "move", "ash"), ("Ash", "roll", None)]
        assert _in_order(phone)[-3:] == [e.seq for e in stored]
        phone.close()

    asyncio.run(play())


def test_a_seat_revoked_mid_connection_is_told_and_its_next_act_refused(
        store: Store, server: Server) -> None:
    gm = _table(store)
    ash_secret = make_seat(store, "T", "Ash", "player")
    bryn_secret = make_seat(store, "T", "Bryn", "player")

    async def play() -> None:
        ash, _ = await _phone(server, ash_secret)
        bryn, _ = await _phone(server, bryn_secret)
        assert (await ash.act("Ash", "add_fatigue"))["type"] == "accepted"
        revoke_seat(store, "T", "Ash")  # the GM, elsewhere (her page, the command line)
        gone = await ash.until(lambda f: f["type"] == "gone")
        assert gone["reason"] == SEAT_GONE_LINE
        head = store.head(campaign_of(gm).info.id)
        assert _one_line(await ash.act("Ash", "add_fatigue")) == SEAT_GONE_LINE
        assert store.head(campaign_of(gm).info.id) == head
        # Bryn's socket goes on; Ash's is pushed nothing more.
        made = await bryn.act("Bryn", "add_fatigue")
        assert made["type"] == "accepted"
        refused = await ash.act("Ash", "add_fatigue")  # a frame after the push
        assert refused["type"] == "refused"
        assert max(_seqs(ash)) < made["events"][0]["seq"]
        ash.close()
        bryn.close()

    asyncio.run(play())


# --- two servers, one PostgreSQL ---------------------------------------------------------


def test_two_servers_on_one_postgresql_push_to_each_other_s_phones(
        postgres_server: Any) -> None:
    url = postgres_server.new_database()
    store_a, store_b = open_store(url), open_store(url)
    gm = _table(store_a)
    ash_secret = make_seat(store_a, "T", "Ash", "player")
    bryn_secret = make_seat(store_a, "T", "Bryn", "player")
    one, two = Server(store_a), Server(store_b)

    async def play() -> None:
        ash, _ = await _phone(one, ash_secret)
        bryn, _ = await _phone(two, bryn_secret)
        by_ash = (await ash.act("Ash", "add_fatigue"))["events"][0]["seq"]
        await bryn.holds(by_ash)
        by_bryn = (await bryn.act("Bryn", "add_fatigue"))["events"][0]["seq"]
        await ash.holds(by_bryn)
        assert _in_order(ash)[-2:] == _in_order(bryn)[-2:] == [by_ash, by_bryn]
        assert store_b.head(campaign_of(gm).info.id) == by_bryn
        ash.close()
        bryn.close()

    try:
        asyncio.run(play())
    finally:
        one.stop()
        two.stop()


def test_an_act_resent_to_another_server_on_one_postgresql_is_stored_once(
        postgres_server: Any) -> None:
    """A phone's act reaches server one, its answer is lost; the phone comes back through
    the club's proxy to server two and resends it: answered again there, made once."""
    url = postgres_server.new_database()
    store_a, store_b = open_store(url), open_store(url)
    _table(store_a)
    ash = make_seat(store_a, "T", "Ash", "player")
    one, two = Server(store_a), Server(store_b)

    async def play() -> None:
        # Server two knows the campaign (and has read its log) before the act.
        watcher, _ = await _hello_as(two, ash, "ash-tablet")
        phone, welcome = await _hello_as(one, ash, "ash-phone")
        held = welcome["head"]
        await phone.send({"type": "act", "act": {"tracker": "Ash", "move": "add_fatigue",
                                                 "client": "ash-phone", "seq": 1}})
        await phone.answer()
        phone.close()  # as if the answer had been lost with the socket
        stored = _fatigue_moves(store_a)
        await watcher.holds(stored[-1])
        back, welcome = await _hello_as(two, ash, "ash-phone", held)
        assert welcome["judged"] == 1
        again = await back.act("Ash", "add_fatigue", client="ash-phone", seq=1)
        assert again["type"] == "accepted" and again["replay"] is True, again
        # Both servers at once, on a socket that holds nothing: one act, once.
        late_one, _ = await _hello_as(one, ash, "ash-phone")
        late_two, _ = await _hello_as(two, ash, "ash-phone")
        act = {"tracker": "Ash", "move": "add_fatigue", "client": "ash-phone", "seq": 2}
        await late_one.send({"type": "act", "act": act})
        await late_two.send({"type": "act", "act": act})
        answers = [await late_one.answer(), await late_two.answer()]
        assert [a["type"] for a in answers] == ["accepted", "accepted"], answers
        assert sorted("replay" in a for a in answers) == [False, True]
        for socket_ in (watcher, back, late_one, late_two):
            socket_.close()

    try:
        asyncio.run(play())
    finally:
        one.stop()
        two.stop()
    assert len(_fatigue_moves(store_b)) == 2  # act 1 once, act 2 once


def test_a_resend_meeting_its_act_being_stored_elsewhere_is_stored_once(
        db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes judge one act at once. Here the other stores it just after this
    one's search of the log and before its append: the append meets the newer head (a
    conflict), and its retry under the writer lock finds the other's stamp."""
    from companion.table.acts import Accepted, Act

    store_a, store_b = open_store(db), open_store(db)
    _table(store_a)
    ash = make_seat(store_a, "T", "Ash", "player")
    here, there = Session.by_secret(store_a, "T", ash), Session.by_secret(store_b, "T", ash)
    searched = store_a.head(store_a.get_campaign("T").id)  # both servers read up to here
    act = Act("Ash", "add_fatigue", {}, client="ash-phone", seq=1)
    made: list[Any] = []
    appends: list[int] = []
    append = store_b.append

    def the_other_stores_first(*args: Any, **kwargs: Any) -> Any:
        appends.append(1)
        if not made:
            made.append(here.perform(act, once_after=searched))
        return append(*args, **kwargs)

    monkeypatch.setattr(store_b, "append", the_other_stores_first)
    again = there.perform(act, once_after=searched)
    first = made[0]
    assert isinstance(first, Accepted) and not first.again
    assert isinstance(again, Accepted) and again.again, again
    assert len(appends) == 1  # the retry found the stamp before appending again
    assert [e["seq"] for e in again.events] == [e["seq"] for e in first.events]
    assert len(_fatigue_moves(store_a)) == 1
    # A resend found at the search stores nothing either; a new act of the device is made.
    assert there.perform(act, once_after=searched).again
    later = there.perform(Act("Ash", "add_fatigue", {}, client="ash-phone", seq=2),
                          once_after=store_b.head(store_b.get_campaign("T").id))
    assert isinstance(later, Accepted) and not later.again
    assert len(_fatigue_moves(store_a)) == 2
    assert len(appends) == 2


# --- mounted where the apps are ----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.parametrize("db", ["sqlite"], indirect=True)
def test_companion_app_serves_the_table_socket(db: str, tmp_path: Path) -> None:
    store = open_store(db)
    _table(store)
    secret = make_seat(store, "T", "Ash", "player")
    port = _free_port()
    env = {**os.environ, "COMPANION_DB": db}
    app = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port),
                            "--db", db], cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)

    async def play() -> Frame:
        deadline = time.monotonic() + WAIT
        while True:  # until the server listens (it starts in a few seconds)
            try:
                phone = await Phone.connect(f"ws://127.0.0.1:{port}/table/ws")
                break
            except (ConnectionError, OSError, websocket.WebSocketError):
                if app.poll() is not None or time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
        welcome = await phone.hello("T", secret)
        made = await phone.act("Ash", "add_fatigue")
        phone.close()
        assert made["type"] == "accepted"
        # The apps' exact list of host names guards the socket too (DNS rebinding).
        foreign = httpclient.HTTPRequest(f"ws://127.0.0.1:{port}/table/ws",
                                         headers={"Host": "evil.example"})
        with pytest.raises(httpclient.HTTPClientError, match="403"):
            await websocket.websocket_connect(foreign)
        return welcome

    try:
        welcome = asyncio.run(play())
    finally:
        app.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            app.wait(WAIT)
    assert (welcome["type"], welcome["who"]) == ("welcome", "Ash")
