"""Issue 44: the phone's remote session against the real table socket, in process.

[Remote][companion.table.remote.Remote] is the phone app's Python end; here its transport
is a plain tornado websocket client (``Wire``), where the browser gives it a JavaScript
one. The widgets' way of acting is used throughout (``seat_controls.act`` on the mirror's
tracker, which finds the session through ``Session.of``), so what is tested is what a
phone's tap does:

- an act is accepted (the server's store has it, the mirror follows the answer's events)
  or refused (at once on the phone when the seat may not make it; by the table, as a
  notice, when the phone's state was stale);
- another face's move is pushed and applied, the tracker's observers told;
- a phone that drops resumes from its last event, nothing missed or doubled;
- acts made offline are kept (in ``keep``, as in the browser's storage, across a reload),
  sent in order on reconnect and judged then: one refused in the middle, the others
  made, and the phone's view ends equal to the server's;
- a rolled act is rolled by the table (the phone says it waits); an event the mirror
  cannot apply is mended by a fresh welcome; a revoked seat is told and acts no more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable

import pytest
from tornado import websocket

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.character import Character
from companion.store.campaign import create
from companion.store.permissions import SeatError
from companion.store.port import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Act
from companion.table.remote import Remote, RemoteSession
from companion.widgets.seat_controls import act
from tests.conftest import campaign_of, session_of
from tests.server.wire import WAIT, Server

pytestmark = pytest.mark.timeout(180)


class Kept:
    """The browser's storage for one seat (a string kept across reloads)."""

    def __init__(self) -> None:
        self.text: str | None = None

    def read(self) -> str | None:
        return self.text

    def write(self, text: str) -> None:
        self.text = text


class Wire:
    """A phone's socket: a tornado client handing every frame to its Remote."""

    def __init__(self, remote: Remote, url: str) -> None:
        self.remote = remote
        self.url = url
        self.conn: websocket.WebSocketClientConnection | None = None
        #: Applied to each frame before the phone has it (a test's damaged frame).
        self.mangle: Callable[[str], str] = lambda text: text

    def send(self, text: str) -> bool:
        if self.conn is None:
            return False
        try:
            self.conn.write_message(text)
        except websocket.WebSocketClosedError:
            return False
        return True

    async def connect(self) -> None:
        self.conn = await websocket.websocket_connect(self.url)
        self.remote.connected(self)

    def drop(self) -> None:
        assert self.conn is not None
        self.conn.close()
        self.conn = None
        self.remote.disconnected()

    def close(self) -> None:
        """The phone closing its socket itself (to be welcomed afresh)."""
        self.drop()

    async def until(self, done: Callable[[], bool]) -> None:
        """Hand the phone frames until ``done()`` (bounded by WAIT: a broken server fails)."""
        while not done():
            assert self.conn is not None
            text = await asyncio.wait_for(self.conn.read_message(), WAIT)
            assert isinstance(text, str), "the table closed the phone's socket"
            self.remote.receive(self.mangle(text))


def _table(store: Store) -> Session:
    gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Bryn", Character("Bryn"))
    return gm


def _items(character: Character) -> list[str]:
    return [item.name for item in character.items if item is not None]


async def _phone(server: Server, secret: str, keep: Kept | None = None
                 ) -> tuple[Remote, Wire, list[tuple[str, str]]]:
    remote = Remote("T", secret, keep=keep)
    notices: list[tuple[str, str]] = []
    remote.on_notice(lambda kind, text: notices.append((kind, text)))
    wire = Wire(remote, server.url)
    await wire.connect()
    await wire.until(lambda: remote.ready)
    return remote, wire, notices


def _sheet(remote: Remote, name: str) -> Character:
    assert remote.session is not None
    return campaign_of(remote.session).tracker(name, Character)


def test_a_phone_act_is_judged_at_the_table_and_the_mirror_follows(
        store: Store, server: Server) -> None:
    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret)
        session = remote.session
        assert isinstance(session, RemoteSession) and session.who == "Ash"
        ash = _sheet(remote, "Ash")
        assert session_of(campaign_of(session)) is session  # what the widgets find
        act(ash, "add_item", "Rope")
        # Shown at once (the phone's guess) and sent; the table's answer replaces the guess.
        assert _items(ash) == ["Rope"] and len(remote.queue) == 1
        assert ash.log[-1].summary  # what the sheet shows after a tap
        await wire.until(lambda: not remote.queue)
        assert _items(ash) == ["Rope"] and len(ash.log) == 1
        gm.refresh()
        assert _items(campaign_of(gm).tracker("Ash", Character)) == ["Rope"]
        assert ("accepted", "add_item on ash") in notices
        # Another seat's sheet: refused on the phone at once, nothing sent.
        with pytest.raises(SeatError, match="Bryn"):
            act(_sheet(remote, "Bryn"), "add_fatigue")
        # A rule's refusal on the state the phone holds: at once too.
        with pytest.raises(Exception, match="slot"):
            act(ash, "drop_item", 7)
        assert not remote.queue
        wire.drop()

    asyncio.run(play())


def test_a_stale_phone_s_act_is_refused_by_the_table_as_a_notice(
        store: Store, server: Server) -> None:
    gm = _table(store)
    gm.act("Ash", "add_item", "Rope")
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        head = store.head(campaign_of(gm).info.id)
        gm.act("Ash", "drop_item", 0)  # the GM drops it; the phone has not heard yet
        act(ash, "drop_item", 0)
        assert _items(ash) == []  # the phone's guess
        await wire.until(lambda: not remote.queue)
        refusals = [text for kind, text in notices if kind == "refused"]
        assert len(refusals) == 1 and refusals[0].startswith("drop item: ")
        assert "\n" not in refusals[0] and "Traceback" not in refusals[0]
        # Nothing stored for it; the phone holds the GM's drop, pushed.
        assert store.head(campaign_of(gm).info.id) == head + 1
        await wire.until(lambda: remote.store is not None and remote.store.top == head + 1)
        assert _items(ash) == []
        wire.drop()

    asyncio.run(play())


def test_another_face_s_move_is_pushed_and_the_sheet_told(store: Store,
                                                          server: Server) -> None:
    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        told: list[int] = []
        ash.on_change(lambda t: told.append(t.fatigue))
        gm.act("Ash", "add_fatigue", 2)
        await wire.until(lambda: ash.fatigue == 2)
        assert told and told[-1] == 2
        wire.drop()

    asyncio.run(play())


def test_a_phone_that_drops_resumes_from_its_last_event(store: Store,
                                                        server: Server) -> None:
    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        held = remote.store.top if remote.store else 0
        wire.drop()
        gm.act("Ash", "add_fatigue")
        gm.act("Ash", "add_item", "Torch")
        last = store.head(campaign_of(gm).info.id)
        await wire.connect()
        assert remote.hello().endswith(f'"last_seen": {held}}}')
        await wire.until(lambda: remote.store is not None and remote.store.top == last)
        assert remote.session is not None and _sheet(remote, "Ash") is ash  # the same objects
        assert ash.fatigue == 1 and _items(ash) == ["Fatigue", "Torch"]
        assert remote.store is not None
        seqs = [e.seq for e in remote.store.received]
        assert seqs == sorted(set(seqs)) and seqs[-2:] == [last - 1, last]
        assert ash.to_dict() == campaign_of(gm).tracker("Ash").to_dict()
        wire.drop()

    asyncio.run(play())


def test_acts_made_offline_are_kept_and_judged_in_order_on_reconnect(
        store: Store, server: Server) -> None:
    gm = _table(store)
    gm.act("Ash", "add_item", "Rope")
    secret = make_seat(store, "T", "Ash", "player")
    keep = Kept()

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret, keep)
        ash = _sheet(remote, "Ash")
        wire.drop()
        gm.act("Ash", "drop_item", 0)  # meanwhile, at the table
        act(ash, "damage_ability", "STR", 1)
        act(ash, "drop_item", 0)  # fine on the phone's state, refused at the table's
        act(ash, "add_item", "Torch")
        assert [a.seq for a in remote.queue] == [1, 2, 3]
        assert ("waiting", "3 moves waiting for the table") in notices
        # The page is reloaded while offline: the queue is in the browser's storage.
        again = Remote("T", secret, keep=keep)
        assert [a.move for a in again.queue] == ["damage_ability", "drop_item", "add_item"]
        assert again.client == remote.client
        told: list[tuple[str, str]] = []
        again.on_notice(lambda kind, text: told.append((kind, text)))
        wire = Wire(again, server.url)
        await wire.connect()
        await wire.until(lambda: again.ready and not again.queue)
        assert [k for k, _ in told if k in ("accepted", "refused")] == [
            "accepted", "refused", "accepted"]
        gm.refresh()
        live = campaign_of(gm).tracker("Ash", Character)
        await wire.until(lambda: again.store is not None
                         and again.store.top == store.head(campaign_of(gm).info.id))
        mine = _sheet(again, "Ash")
        assert live.strength == 9 and _items(live) == ["Torch"]
        assert mine.to_dict() == live.to_dict()
        assert '"queue": []' in (keep.text or "")
        with contextlib.suppress(Exception):
            wire.drop()

    asyncio.run(play())


def test_acts_kept_by_one_seat_are_never_sent_as_another(
        store: Store, server: Server) -> None:
    # Under the hub a browser's storage is keyed by campaign alone (no secret: the login
    # decides the seat), so one shared computer may keep Ash's offline acts when Bryn
    # signs in next: they are dropped unsent and Bryn is told, never made as Bryn.
    gm = _table(store)
    ash_secret = make_seat(store, "T", "Ash", "player")
    bryn_secret = make_seat(store, "T", "Bryn", "player")
    keep = Kept()

    async def play() -> None:
        remote, wire, _ = await _phone(server, ash_secret, keep)
        ash = _sheet(remote, "Ash")
        wire.drop()
        act(ash, "add_item", "Torch")
        assert len(remote.queue) == 1 and '"seat": ["Ash", "player"]' in (keep.text or "")
        head = store.head(campaign_of(gm).info.id)
        # The same page, reconnected, is welcomed as another seat: it stops acting.
        wire = Wire(remote, server.url)
        remote.secret = bryn_secret
        told: list[tuple[str, str]] = []
        remote.on_notice(lambda kind, text: told.append((kind, text)))
        await wire.connect()
        await wire.until(lambda: remote.gone is not None)
        assert ("refused", "1 move made on this device as Ash was not sent: the table "
                "knows this device as Bryn now") in told
        assert remote.queue == [] and '"queue": []' in (keep.text or "")
        with pytest.raises(SeatError):
            remote.submit(Act("Bryn", "add_item", {"name": "Rope"}))
        wire.drop()
        # A fresh page on that storage is Bryn's from the start, with nothing queued.
        again, wire, notices = await _phone(server, bryn_secret, keep)
        assert again.queue == [] and again.gone is None
        assert not [n for n in notices if n[0] == "refused"]
        gm.refresh()
        assert store.head(campaign_of(gm).info.id) == head  # nothing stored as anyone
        assert _items(campaign_of(gm).tracker("Bryn", Character)) == _items(
            Character("Bryn"))
        wire.drop()

    asyncio.run(play())


def test_a_rolled_act_waits_for_the_table_s_dice(store: Store, server: Server) -> None:
    from companion.table.acts import Accepted, Act, RollSpec
    from companion.widgets.rolls import WAITING_LINE, RuleRoll

    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        session = remote.session
        assert session is not None
        answers: list[object] = []
        session.on_act(answers.append)
        sent = session.perform(Act("ash", "panic_save", {}, RollSpec("public", "panic")))
        # Sent, not rolled here: what the sheet shows says it waits for the table.
        assert isinstance(sent, Accepted) and sent.roll is None
        waiting: RuleRoll[None] = RuleRoll("public", None, None, False, None, None, None, False)
        assert WAITING_LINE in waiting.hidden_html()
        await wire.until(lambda: not remote.queue)
        (answer,) = answers
        assert isinstance(answer, Accepted) and answer.roll is not None
        assert answer.roll["shown"] and answer.roll["entry"] >= 1
        info = campaign_of(gm).info
        rolls = [e for e in store.events_since(info.id, 0) if e.kind == "roll"]
        assert [(e.who, e.role) for e in rolls] == [("Ash", "player")]
        wire.drop()

    asyncio.run(play())


def test_an_event_the_mirror_cannot_apply_is_mended_by_a_fresh_welcome(
        store: Store, server: Server) -> None:
    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        ash = _sheet(remote, "Ash")

        def damaged(text: str) -> str:  # the fact of the push lost on the way
            frame = json.loads(text)
            for event in frame.get("events", []):
                event["data"] = {}
            return json.dumps(frame)

        wire.mangle = damaged
        gm.act("Ash", "add_fatigue", 2)
        last = store.head(campaign_of(gm).info.id)
        await wire.until(lambda: wire.conn is None)  # the phone closed it to start afresh
        wire.mangle = lambda text: text
        await wire.connect()
        await wire.until(lambda: ash.fatigue == 2)
        assert remote.store is not None and remote.store.top == last
        assert ash.to_dict() == campaign_of(gm).tracker("Ash").to_dict()
        wire.drop()

    asyncio.run(play())


def test_a_duel_added_while_the_phone_watches_joins_its_mirror_in_public_form(
        store: Store, server: Server) -> None:
    """A tracker with hidden information added at the table (a duel with Bryn's pick
    pending) reaches the phone as the log's own ``add`` (a bare state, its public form's):
    the mirror replays it, with no pick in it and without starting afresh."""
    from companion.fairplay import public_form
    from companion.rulesets.cairn_srd.duel import Duel

    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret)
        pending = Duel()
        pending.start("Ash", "Bryn", 5, 4, "the bridge")
        pending.choose("Bryn", "defend")
        live = gm.add("Duel", pending, role="encounter")
        last = store.head(campaign_of(gm).info.id)
        await wire.until(lambda: remote.store is not None and remote.store.top == last)
        assert remote.session is not None
        mirror = campaign_of(remote.session)
        assert "duel" in mirror.members, notices  # replayed, not refused
        duel = mirror.tracker("duel", Duel)
        assert duel.to_dict()["state"] == public_form(live, "Ash")["state"]
        assert duel.choices == ["", ""] and duel.names == ["Ash", "Bryn"]
        # The socket stayed up: nothing the mirror could not apply.
        assert wire.conn is not None and not [k for k, _ in notices if k == "offline"]
        wire.drop()

    asyncio.run(play())


def test_a_revoked_seat_is_told_and_the_phone_acts_no_more(store: Store,
                                                           server: Server) -> None:
    from companion.store.seats import revoke_seat

    _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        revoke_seat(store, "T", "Ash")
        await wire.until(lambda: remote.gone is not None)
        assert [kind for kind, _ in notices if kind == "gone"] == ["gone"]
        with pytest.raises(SeatError):
            act(ash, "add_fatigue")
        assert not remote.queue and ash.fatigue == 0
        wire.drop()

    asyncio.run(play())


def test_an_answer_lost_on_the_way_and_the_act_resent_make_the_move_once(
        store: Store, server: Server) -> None:
    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")
    info = campaign_of(gm).info

    async def play() -> None:
        remote, wire, notices = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        lost: list[str] = []

        def swallow(text: str) -> str:  # the table judged it; the answer never came
            if json.loads(text).get("type") == "accepted":
                lost.append(text)
                return "null"
            return text

        wire.mangle = swallow
        act(ash, "add_fatigue")
        await wire.until(lambda: bool(lost))
        assert [e.move for e in store.events_since(info.id) if e.kind == "move"] == [
            "add_fatigue"]  # stored at the table...
        assert [a.move for a in remote.queue] == ["add_fatigue"]  # ...pending on the phone
        assert ash.fatigue == 1  # the phone's own guess
        wire.drop()
        wire.mangle = lambda text: text
        shown: list[int] = []  # what the sheet is told from here on
        ash.on_change(lambda _tracker: shown.append(ash.fatigue))
        await wire.connect()  # the welcome brings its event; the queue is sent again
        await wire.until(lambda: not remote.queue)
        # The welcome says the act was judged: it is not made again on top of its own
        # event while its answer comes back (the sheet never shows a second Fatigue).
        assert remote.judged == 1
        assert shown and set(shown) == {1}, shown
        assert json.loads(lost[0])["seq"] == 1
        moves = [(e.who, e.move) for e in store.events_since(info.id) if e.kind == "move"]
        assert moves == [("Ash", "add_fatigue")]  # made once
        assert ash.fatigue == 1
        gm.refresh()
        assert ash.to_dict() == campaign_of(gm).tracker("Ash").to_dict()
        assert [k for k, _ in notices if k in ("accepted", "refused")] == ["accepted"]
        # Still one: nothing more arrives for it.
        gm.act("Bryn", "add_fatigue")
        await wire.until(lambda: remote.store is not None
                         and remote.store.top == store.head(info.id))
        assert ash.fatigue == 1 and ash.to_dict() == campaign_of(gm).tracker("Ash").to_dict()
        wire.drop()

    asyncio.run(play())


def test_an_act_too_large_for_the_table_is_said_at_once_and_never_queued(
        store: Store, server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.table import remote as remote_module
    from companion.table.acts import MAX_ACT_BYTES
    from companion.table.remote import TOO_BIG_LINE

    _table(store)
    secret = make_seat(store, "T", "Ash", "player")

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        ash = _sheet(remote, "Ash")
        # A save padded past the act's cap: a real save to the tracker, too large to send.
        save = ash.to_json() + " " * MAX_ACT_BYTES
        with pytest.raises(CompanionError, match="larger than") as raised:
            ash.load(save)
        assert str(raised.value) == TOO_BIG_LINE
        # A move made at once on the phone, then found too large to send (the cap made
        # small here: the rules cap every text argument far below the real one).
        with monkeypatch.context() as patch:
            patch.setattr(remote_module, "MAX_ACT_BYTES", 120)
            with pytest.raises(CompanionError, match="larger than"):
                act(ash, "add_item", "A lantern with a long name")
        assert not remote.queue and remote.next_seq == 1
        assert ash.fatigue == 0 and _items(ash) == []  # the guess taken back
        act(ash, "add_fatigue")  # the next act is the first the table hears of
        await wire.until(lambda: not remote.queue)
        assert ash.fatigue == 1
        wire.drop()

    asyncio.run(play())


def test_the_plot_points_check_panel_on_a_phone_shows_the_table_s_result(
        store: Store, server: Server) -> None:
    """The check panel on a phone's session: a check is sent (the panel says it waits for
    the table's dice), and the table's answer is shown as the check's result: who, the
    total and the verdict the table rolled, stored once as Ash's; a contest shows the
    table's line for it."""
    from html import escape

    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.plot_points import PlotPointCheckPanel
    from companion.widgets.rolls import WAITING_LINE
    from companion.widgets.table.members import PLOT_TABLE

    gm = session_of(create(store, "P", ["plot_points"], who="Mira", role="gm"))
    gm.add(PLOT_TABLE, PlotPointSession.new(["Ash", "Bryn"], "Mira"), role="minigame")
    secret = make_seat(store, "P", "Ash", "player")

    async def play() -> None:
        remote = Remote("P", secret)
        wire = Wire(remote, server.url)
        await wire.connect()
        await wire.until(lambda: remote.ready)
        session = remote.session
        assert session is not None
        plot = campaign_of(session).tracker(PLOT_TABLE, PlotPointSession)
        panel = PlotPointCheckPanel(plot, table=session, who="Ash", role="player")
        assert list(panel.who.options) == ["Ash"]  # a player rolls for their own
        assert panel.roll() is None  # sent: the table rolls it
        assert WAITING_LINE in panel.result.value and 'data-n="0"' in panel.result.value
        await wire.until(lambda: not remote.queue)
        stored = [e for e in store.events_since(store.get_campaign("P").id)
                  if e.kind == "move" and e.move == "roll_check"]
        (event,) = stored
        assert (event.who, event.role) == ("Ash", "player")
        gm.refresh()
        current = campaign_of(gm).tracker(PLOT_TABLE, PlotPointSession).current
        assert current is not None and current.roller == "Ash"
        shown = panel.result.value
        assert 'data-n="1"' in shown and WAITING_LINE not in shown
        verdict = "success" if current.success else "failure"
        assert f'<span class="tc-total">{current.total}</span>' in shown
        assert f"tc-{verdict}" in shown and current.text.split(" ")[0] in shown
        # A contest likewise: waiting, then the contest's own line from the table.
        from companion.widgets.plot_points_contest import PlotContestPanel

        contest = PlotContestPanel(plot, table=session, who="Ash", role="player")
        contest.who.value, contest.opponent.value = "Ash", "Goblin"
        contest.roll()
        assert WAITING_LINE in contest.result.value
        await wire.until(lambda: not remote.queue)
        (made,) = [e for e in store.events_since(store.get_campaign("P").id)
                   if e.kind == "move" and e.move == "contest"]
        assert made.data["summary"].startswith("contest Ash ")
        assert "vs Goblin" in made.data["summary"]
        assert "tc-contest-result" in contest.result.value
        assert escape(made.data["summary"]) in contest.result.value
        wire.drop()

    asyncio.run(play())


def test_the_dice_tray_on_a_phone_shows_the_table_s_roll(store: Store, server: Server) -> None:
    """The dice tray on a phone's session: every roll (public, self, blind) is sent to
    the table, the tray says it waits, and shows the table's answer: the total and dice
    the table rolled (made again from its seed, kept in the replay history), the
    commitment of a roll Ash may not see; each roll is stored once, as Ash's. A roll the
    table refuses (own dice no d6 shows) is said as its one line, nothing stored."""
    import re

    from companion import dice
    from companion.widgets.dice_tray import DiceTray
    from companion.widgets.rolls import WAITING_LINE

    gm = _table(store)
    secret = make_seat(store, "T", "Ash", "player")
    info = campaign_of(gm).info

    def rolls() -> list[tuple[str | None, str | None, int | None, str]]:
        return [(e.who, e.role, e.seed, e.data["mode"])
                for e in store.events_since(info.id, 0) if e.kind == "roll"]

    def total(tray: DiceTray) -> int:
        match = re.search(r'class="tc-total"[^>]*>(-?\d+)<', tray.result.value)
        assert match, tray.result.value
        return int(match.group(1))

    async def play() -> None:
        remote, wire, _ = await _phone(server, secret)
        session = remote.session
        assert session is not None
        tray = DiceTray(session=session, who="Ash", role="player")
        assert not tray.seed_shown  # a player's seat: the table draws every seed
        tray.expr.value = "4d6kh3+1"
        tray.roll_button.click()
        assert tray.error.message == "", tray.error.message
        # Sent, not rolled here: nothing of a result is shown before the answer.
        assert tray.last_roll is None and tray.history.latest is None
        assert WAITING_LINE in tray.result.value and 'data-n="0"' in tray.result.value
        assert "tc-total" not in tray.result.value
        assert "Exact odds of <b>4d6kh3+1</b>" in tray.odds_note.value
        await wire.until(lambda: not remote.queue)
        ((who, role, seed, mode),) = rolls()
        assert (who, role, mode) == ("Ash", "player", "public") and seed is not None
        made = dice.roll("4d6kh3+1", seed=seed)
        shown = tray.result.value
        assert 'data-n="1"' in shown and WAITING_LINE not in shown
        assert total(tray) == made.total and f"seed {seed}" in shown
        last: dice.Roll | None = tray.last_roll  # (read again: the answer set it)
        assert last is not None and last.to_dict() == made.to_dict()
        assert tray.history.latest is not None
        assert tray.history.latest.seed == seed

        # Self: Ash sees it too; blind: only its commitment, never the dice.
        tray.modes.mode.value = "self"
        tray.expr.value = "2d8"
        tray.roll_button.click()
        assert WAITING_LINE in tray.result.value
        await wire.until(lambda: not remote.queue)
        assert [r[3] for r in rolls()] == ["public", "self"]
        assert 'data-n="2"' in tray.result.value
        assert 2 <= total(tray) <= 16
        tray.modes.mode.value = "blind"
        tray.roll_button.click()
        assert WAITING_LINE in tray.result.value
        await wire.until(lambda: not remote.queue)
        assert [r[3] for r in rolls()] == ["public", "self", "blind"]
        hidden = tray.result.value
        assert "Hidden roll committed" in hidden and 'data-n="3"' in hidden
        assert "tc-total" not in hidden and len(tray.history) == 2

        # Own dice the table refuses (a d6 shows no 7): its one line, nothing stored.
        tray.modes.mode.value = "public"
        tray.expr.value = "1d6"
        tray.modes.own.value = True
        tray.modes.die_boxes[0].text = "7"
        tray.roll_button.click()
        assert WAITING_LINE in tray.result.value
        await wire.until(lambda: not remote.queue)
        refused = tray.result.value
        assert "tc-refused" in refused and "Not rolled: " in refused, refused
        assert "a d6 of 1d6 shows 1 to 6" in refused
        assert "\n" not in refused and "Traceback" not in refused
        assert len(rolls()) == 3
        assert tray.error.message == ""
        # A total alone is the GM's page's to enter: said at once, nothing sent.
        tray.modes.entry_kind.value = "total"
        tray.modes.total_box.text = "4"
        sent = remote.next_seq
        tray.roll_button.click()
        assert "a total alone is entered on the GM's page" in tray.error.message
        assert remote.next_seq == sent and "tc-refused" in tray.result.value

        # A typo is said at once in the player's words, nothing sent.
        tray.modes.own.value = False
        tray.expr.value = "2d6+"
        sent = remote.next_seq
        tray.roll_button.click()
        assert tray.error.message.startswith("Dice: "), tray.error.message
        assert remote.next_seq == sent and not remote.queue and len(rolls()) == 3

        # An answer lost on the way: the roll is resent after reconnecting, answered
        # again (its event came with the welcome), rolled once and shown from its seed.
        lost: list[str] = []

        def swallow(text: str) -> str:
            if json.loads(text).get("type") == "accepted":
                lost.append(text)
                return "null"
            return text

        wire.mangle = swallow
        tray.expr.value = "5d4"
        tray.roll_button.click()
        await wire.until(lambda: bool(lost))
        assert len(rolls()) == 4 and WAITING_LINE in tray.result.value
        wire.drop()
        wire.mangle = lambda text: text
        await wire.connect()
        await wire.until(lambda: not remote.queue)
        assert len(rolls()) == 4  # made once
        seed = rolls()[-1][2]
        assert seed is not None and total(tray) == dice.roll("5d4", seed=seed).total
        assert f"seed {seed}" in tray.result.value and 'data-n="5"' in tray.result.value
        wire.drop()

    asyncio.run(play())
