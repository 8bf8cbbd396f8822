"""Issue 44: the players' apps of the 5e optional rules and Miasma on a phone, in process
over the real table socket (SQLite and PostgreSQL).

Each app is built as the phone page builds it (its campaign builder,
[AppSpec.build][companion.widgets.table.apps.AppSpec], on the phone's
[RemoteSession][companion.table.remote.RemoteSession]), and its buttons are tapped: a
move that rolls no dice shows at once (the phone's guess) and is stored once as the
seat's; a rolled move (a Hit Die, a death save, a return attempt) says it waits for the
table's dice, then shows what the table rolled when its answer comes; a move the seat may
not make is refused on its one line and nothing is stored.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import ipywidgets as widgets
import pytest

from companion.errors import CompanionError
from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.store.campaign import create
from companion.store.port import Store
from companion.store.records import StoredEvent
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.remote import Remote
from companion.widgets.rolls import WAITING_LINE
from companion.widgets.table.apps import HIT_DICE, MIASMA, spec
from tests.conftest import campaign_of, session_of
from tests.server.test_remote_session import Wire
from tests.server.wire import Server

pytestmark = pytest.mark.timeout(180)


def _5e_table(store: Store) -> Session:
    """A 5e campaign: Ash a creature, Bryn a caster, each with their Hit Dice record."""
    gm = session_of(create(store, "F", ["variant5e", "miasma"], who="Mira", role="gm"))
    for name, member in (("Ash", DeathRecord()), ("Bryn", SpellPoints.new(5, "full"))):
        gm.add(HIT_DICE.format(name), HitDice.new(5, 8, 2), role="record", owner=name)
        gm.add(name, member)
    return gm


async def _phone(server: Server, campaign: str, secret: str) -> tuple[Remote, Wire]:
    remote = Remote(campaign, secret)
    wire = Wire(remote, server.url)
    await wire.connect()
    await wire.until(lambda: remote.ready)
    return remote, wire


def _app(remote: Remote, key: str) -> Any:
    """The app ``key`` as the phone page builds it, for this phone's seat."""
    assert remote.session is not None
    return spec(key).build(remote.session)


def _shown(panel: Any) -> Any:
    """The app a member picker shows now."""
    (app,) = panel.body.children
    return app


def _pick(panel: Any, name: str) -> Any:
    """Pick ``name`` in a member picker (by name or by member id); the app shown."""
    options = [o[1] if isinstance(o, tuple) else o for o in panel.picker.options]
    labels = [o[0] if isinstance(o, tuple) else o for o in panel.picker.options]
    panel.picker.value = options[labels.index(name)]
    return _shown(panel)


def _tap(button: widgets.Button) -> None:
    button.click()


def _moves(store: Store, campaign: str) -> list[StoredEvent]:
    return [e for e in store.events_since(store.get_campaign(campaign).id) if e.kind == "move"]


def _rolls(store: Store, campaign: str) -> list[StoredEvent]:
    return [e for e in store.events_since(store.get_campaign(campaign).id) if e.kind == "roll"]


def _head(store: Store, campaign: str) -> int:
    return store.head(store.get_campaign(campaign).id)


def _error(app: Any) -> str:
    return str(app.error.value)


def test_hit_dice_on_a_phone(store: Store, server: Server) -> None:
    gm = _5e_table(store)
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "hit_dice"))
        assert app.who == "Ash"
        # Unrolled: shown at once, stored once as Ash's.
        app.damage.value = 10
        _tap(app.buttons["damage"])
        assert not _error(app)
        assert app.model.hp == app.model.max_hp - 10  # the phone's guess, at once
        _tap(app.buttons["short"])
        await wire.until(lambda: not remote.queue)
        assert [(e.who, e.role, e.move) for e in _moves(store, "F")[-2:]] == [
            ("Ash", "player", "take_damage"), ("Ash", "player", "short_rest")]
        # Rolled: the panel says it waits, then shows the table's face.
        hp = app.model.hp
        _tap(app.buttons["roll"])
        assert not _error(app)
        assert WAITING_LINE in app.last.value and 'data-face="waiting"' in app.last.value
        assert app.model.hp == hp  # nothing asserted before the table rolls
        await wire.until(lambda: not remote.queue)
        (made,) = [e for e in _moves(store, "F") if e.move == "roll_hit_die"]
        assert (made.who, made.role) == ("Ash", "player")
        assert [(e.who, e.role) for e in _rolls(store, "F")] == [("Ash", "player")]
        gm.refresh()
        live = campaign_of(gm).tracker(HIT_DICE.format("Ash"), HitDice)
        face = live.hp - hp - live.con_modifier
        assert 1 <= face <= 8 and live.hit_dice == 4
        shown = app.last.value
        assert WAITING_LINE not in shown and f'data-face="{face}"' in shown
        assert f"d8 shows <b>{face}</b>" in shown
        assert app.model.to_dict() == live.to_dict()  # the mirror follows the table
        wire.drop()

    asyncio.run(play())


def test_hit_dice_of_another_seat_are_refused_and_nothing_stored(
        store: Store, server: Server) -> None:
    _5e_table(store)
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        bryn = _pick(_app(remote, "hit_dice"), "Bryn")
        head = _head(store, "F")
        _tap(bryn.buttons["damage"])  # refused at once on the phone
        assert "Bryn" in _error(bryn) and "\n" not in _error(bryn)
        assert "Traceback" not in _error(bryn) and not remote.queue
        switch = bryn.switches["healing_surges"]
        switch.value = True  # a variant switch of Bryn's record: refused, shown back off
        assert "Bryn" in _error(bryn) and not switch.value and not bryn.model.healing_surges
        assert not remote.queue
        # A rolled move too: refused at once on the app's line, nothing sent.
        bryn.error.clear()
        _tap(bryn.buttons["roll"])
        assert "Bryn" in _error(bryn) and "\n" not in _error(bryn) and not remote.queue
        assert WAITING_LINE not in bryn.last.value
        assert _head(store, "F") == head  # nothing stored
        wire.drop()

    asyncio.run(play())


def test_death_and_returning_on_a_phone(store: Store, server: Server) -> None:
    gm = _5e_table(store)
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "death_and_returning"))
        _tap(app.buttons["drop"])  # unrolled: at once
        assert not _error(app) and app.model.condition == "dying"
        await wire.until(lambda: not remote.queue)
        assert [(e.who, e.role, e.move) for e in _moves(store, "F")][-1] == (
            "Ash", "player", "drop_to_zero")
        _tap(app.buttons["save"])
        assert not _error(app)
        assert WAITING_LINE in app.save_roll.value
        assert app.model.successes == app.model.failures == 0
        await wire.until(lambda: not remote.queue)
        (made,) = [e for e in _moves(store, "F") if e.move == "roll_death_save"]
        assert (made.who, made.role) == ("Ash", "player")
        assert [(e.who, e.role) for e in _rolls(store, "F")] == [("Ash", "player")]
        gm.refresh()
        live = campaign_of(gm).tracker("Ash", DeathRecord)
        shown = app.save_roll.value
        found = re.search(r'data-face="(\d+)"', shown)
        assert WAITING_LINE not in shown and found is not None, shown
        face = int(found.group(1))
        assert f"d20 shows <b>{face}</b>" in shown and 'data-n="1"' in shown
        # The face the table rolled is the one its record counts.
        if face == 20:
            assert live.condition != "dying"
        else:
            assert (live.successes, live.failures) == ((1, 0) if face >= 10 else
                                                      (0, 2 if face == 1 else 1))
        assert app.model.to_dict() == live.to_dict()
        wire.drop()

    asyncio.run(play())


def test_a_return_attempt_from_a_phone_shows_the_table_s_outcome(
        store: Store, server: Server) -> None:
    gm = _5e_table(store)
    gm.act("Ash", "set_modules", "three_strikes", False, True, False)
    gm.act("Ash", "die")
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "death_and_returning"))
        app.spell.value = "revivify"
        _tap(app.buttons["return"])
        assert not _error(app), _error(app)
        assert WAITING_LINE in app.attempt.value and 'data-outcome="waiting"' in app.attempt.value
        await wire.until(lambda: not remote.queue)
        (made,) = [e for e in _moves(store, "F") if e.move == "roll_return"]
        assert (made.who, made.role) == ("Ash", "player")
        gm.refresh()
        live = campaign_of(gm).tracker("Ash", DeathRecord)
        shown = app.attempt.value
        found = re.search(r'data-outcome="(\w+)"', shown)
        assert found is not None and found.group(1) not in ("waiting", "hidden", "table")
        assert WAITING_LINE not in shown and "revivify; " in shown
        assert (found.group(1) == "works") == (live.condition == "alive"), (shown, live)
        wire.drop()

    asyncio.run(play())


def test_death_and_returning_of_another_seat_is_refused(store: Store,
                                                        server: Server) -> None:
    gm = _5e_table(store)
    gm.add("Cato", DeathRecord())
    gm.act("Cato", "drop_to_zero")
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        cato = _pick(_app(remote, "death_and_returning"), "Cato")
        head = _head(store, "F")
        _tap(cato.buttons["heal"])
        assert "Cato" in _error(cato) and "\n" not in _error(cato) and not remote.queue
        cato.error.clear()
        _tap(cato.buttons["save"])
        assert "Cato" in _error(cato) and "\n" not in _error(cato) and not remote.queue
        assert _head(store, "F") == head
        wire.drop()

    asyncio.run(play())


def test_spell_points_on_a_phone(store: Store, server: Server) -> None:
    """The spell-point app rolls no dice: a cast is shown at once and stored once as the
    caster's; another's pool and the GM's numbers are refused, nothing stored."""
    gm = _5e_table(store)
    gm.add("Cato", SpellPoints.new(3, "full"))
    secret = make_seat(store, "F", "Bryn", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        panel = _app(remote, "spell_points")
        app = _shown(panel)
        assert remote.session is not None
        assert app.model is campaign_of(remote.session).tracker("Bryn", SpellPoints)
        points = app.model.points
        _tap(app.cast_buttons[1])
        assert not _error(app) and app.model.points == points - 2  # at once
        await wire.until(lambda: not remote.queue)
        assert [(e.who, e.role, e.move) for e in _moves(store, "F")][-1] == (
            "Bryn", "player", "cast")
        gm.refresh()
        assert campaign_of(gm).tracker("Bryn", SpellPoints).points == points - 2
        assert app.level.disabled  # the class level is the GM's number here
        head = _head(store, "F")
        cato = _pick(panel, "Cato")
        _tap(cato.cast_buttons[1])
        assert "Cato" in _error(cato) and "\n" not in _error(cato) and not remote.queue
        assert _head(store, "F") == head
        wire.drop()

    asyncio.run(play())


def test_the_miasma_tracker_on_a_phone(store: Store, server: Server) -> None:
    """The Miasma tracker rolls no dice: a move for the seat's own character is shown at
    once and stored once as theirs; one for another's is refused, nothing stored."""
    gm = _5e_table(store)
    gm.add(MIASMA, MiasmaTracker(), role="minigame")
    for name in ("Ash", "Bryn"):
        gm.act(MIASMA, "add_character", name)
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _app(remote, "miasma_tracker")
        assert list(app.who.options) == ["Ash"]  # a player moves their own character
        # The GM's moves are not offered to a player's phone.
        assert app.gain_button.disabled and app.add_button.disabled
        assert all(b.disabled for b in app.hour_buttons)
        assert not app.gated["enter_miasma"].disabled and not app.rest_button.disabled
        _tap(app.gated["enter_miasma"])
        assert not _error(app) and app.model.character("Ash").inside  # at once
        await wire.until(lambda: not remote.queue)
        assert [(e.who, e.role, e.move) for e in _moves(store, "F")][-1] == (
            "Ash", "player", "enter_miasma")
        gm.refresh()
        assert campaign_of(gm).tracker(MIASMA, MiasmaTracker).character("Ash").inside
        head = _head(store, "F")
        app.who.options = ["Ash", "Bryn"]  # a crafted pick of Bryn
        app.who.value = "Bryn"
        assert app.gated["enter_miasma"].disabled
        _tap(app.gated["enter_miasma"])
        assert "Bryn" in _error(app) and "\n" not in _error(app) and not remote.queue
        assert _head(store, "F") == head
        wire.drop()

    asyncio.run(play())


def test_a_record_the_table_lacks_is_said_on_the_phone_and_nothing_sent(
        store: Store, server: Server) -> None:
    """A caster with no Hit Dice record yet: its first move would store the record with
    it, which is no act; the phone says so on the app's line and sends nothing (it once
    sent the move for a member the table did not have). A Miasma campaign whose tracker
    the GM has not opened: the app says why it cannot open it."""
    from companion.table.remote import PHONE_LINE

    gm = session_of(create(store, "F", ["variant5e"], who="Mira", role="gm"))
    gm.add("Ash", SpellPoints.new(5, "full"))
    session_of(create(store, "M", ["miasma"], who="Mira", role="gm"))
    secret = make_seat(store, "F", "Ash", "player")
    miasma = make_seat(store, "M", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "hit_dice"))
        head = _head(store, "F")
        _tap(app.buttons["damage"])
        assert "make it on the GM" in _error(app) and "\n" not in _error(app)
        assert not remote.queue and app.model.hp == app.model.max_hp
        assert _head(store, "F") == head
        wire.drop()
        remote, wire = await _phone(server, "M", miasma)
        with pytest.raises(CompanionError) as raised:
            _app(remote, "miasma_tracker")
        assert str(raised.value) == PHONE_LINE and not remote.queue
        wire.drop()

    asyncio.run(play())


def test_a_death_save_made_offline_or_answered_again_shows_the_table_s_roll(
        store: Store, server: Server) -> None:
    """A death save tapped with the socket down waits in the queue and says so; on
    reconnect the table rolls it and the app shows its face. One whose answer was lost is
    sent again on the next reconnect and answered from its stored events (no result kept):
    the app still shows what the table rolled, never the waiting line for good."""
    import json

    gm = _5e_table(store)
    gm.act("Ash", "drop_to_zero")
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "death_and_returning"))
        wire.drop()
        _tap(app.buttons["save"])
        assert not _error(app) and len(remote.queue) == 1
        assert WAITING_LINE in app.save_roll.value
        await wire.connect()
        await wire.until(lambda: not remote.queue)
        found = re.search(r'data-face="(\d+)"', app.save_roll.value)
        assert found is not None and 'data-n="1"' in app.save_roll.value
        if not app.model.can_save:  # a natural 20: on its feet, so down again
            gm.act("Ash", "drop_to_zero")
            await wire.until(lambda: app.model.can_save)
        # Its answer lost on the way: the table stored it, the phone never heard.
        lost: list[str] = []

        def swallow(text: str) -> str:
            if json.loads(text).get("type") == "accepted":
                lost.append(text)
                return "null"
            return text

        wire.mangle = swallow
        _tap(app.buttons["save"])
        await wire.until(lambda: bool(lost))
        wire.drop()
        wire.mangle = lambda text: text
        await wire.connect()
        await wire.until(lambda: not remote.queue)
        shown = app.save_roll.value
        assert WAITING_LINE not in shown and 'data-n="2"' in shown, shown
        assert re.search(r'data-face="(\d+)"', shown) is not None, shown
        saves = [e for e in _moves(store, "F") if e.move == "roll_death_save"]
        assert len(saves) == 2  # made once each
        wire.drop()

    asyncio.run(play())


def test_a_hit_die_answered_by_another_server_from_its_events_shows_the_roll(
        store: Store, server: Server) -> None:
    """A Hit Die whose answer was lost, sent again to another server on the same store (a
    restart, or a club's second process): that one answers from the act's stored events,
    with no result kept; the app shows the table's line for the roll, not the waiting
    line for good."""
    import json

    gm = _5e_table(store)
    gm.act(HIT_DICE.format("Ash"), "take_damage", 10)
    gm.act(HIT_DICE.format("Ash"), "short_rest")
    secret = make_seat(store, "F", "Ash", "player")
    other = Server(store)

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "hit_dice"))
        lost: list[str] = []

        def swallow(text: str) -> str:
            if json.loads(text).get("type") == "accepted":
                lost.append(text)
                return "null"
            return text

        wire.mangle = swallow
        _tap(app.buttons["roll"])
        await wire.until(lambda: bool(lost))
        assert WAITING_LINE in app.last.value
        wire.drop()
        wire.mangle = lambda text: text
        wire.url = other.url
        await wire.connect()
        await wire.until(lambda: not remote.queue)
        (made,) = [e for e in _rolls(store, "F")]
        shown = app.last.value
        assert WAITING_LINE not in shown and 'data-face="table"' in shown, shown
        assert made.data["text"] and made.data["text"] in shown
        assert len([e for e in _moves(store, "F") if e.move == "roll_hit_die"]) == 1
        gm.refresh()
        assert app.model.to_dict() == campaign_of(gm).tracker(
            HIT_DICE.format("Ash"), HitDice).to_dict()
        wire.drop()

    try:
        asyncio.run(play())
    finally:
        other.stop()


def test_a_death_save_the_table_refuses_is_said_as_its_line(store: Store,
                                                          server: Server) -> None:
    """A death save tapped offline on a dying creature the GM heals meanwhile: the phone
    said it waits; the table, holding the newer state, refuses it, and the app says so as
    its one line; nothing is stored for it."""
    gm = _5e_table(store)
    gm.act("Ash", "drop_to_zero")
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "death_and_returning"))
        wire.drop()
        _tap(app.buttons["save"])
        assert WAITING_LINE in app.save_roll.value and len(remote.queue) == 1
        gm.act("Ash", "heal")
        head = _head(store, "F")
        await wire.connect()
        await wire.until(lambda: not remote.queue)
        shown = app.save_roll.value
        assert shown.count("Not rolled: ") == 1 and 'data-face="refused"' in shown
        assert "dying" in shown and "Traceback" not in shown and WAITING_LINE not in shown
        assert _head(store, "F") == head and not _rolls(store, "F")
        assert app.model.condition == "alive"  # the GM's heal, followed
        wire.drop()

    asyncio.run(play())


def test_a_blind_hit_die_from_a_phone_shows_its_commitment_not_its_face(
        store: Store, server: Server) -> None:
    """A Hit Die rolled blind from Ash's phone: the table rolls it and logs its
    commitment; the app shows the hidden roll's line (its entry and check code), never
    the face, and no longer the waiting line."""
    gm = _5e_table(store)
    gm.act(HIT_DICE.format("Ash"), "take_damage", 10)
    gm.act(HIT_DICE.format("Ash"), "short_rest")
    secret = make_seat(store, "F", "Ash", "player")

    async def play() -> None:
        remote, wire = await _phone(server, "F", secret)
        app = _shown(_app(remote, "hit_dice"))
        app.controls.mode.value = "blind"
        _tap(app.buttons["roll"])
        assert WAITING_LINE in app.last.value
        await wire.until(lambda: not remote.queue)
        (made,) = _rolls(store, "F")
        shown = app.last.value
        assert WAITING_LINE not in shown and "Hidden roll committed" in shown
        assert f"roll log entry {made.seq}" in shown and "shows <b>" not in shown
        wire.drop()

    asyncio.run(play())
