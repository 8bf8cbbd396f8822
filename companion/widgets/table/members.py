"""The campaign's trackers the apps share, by name, and each party member's own records.

A shared tracker has one name in every campaign (the fight is "Fight", the plot-points
table "Table"...); a 5e member's records are named for the member ("Hit Dice: Ash") and
owned by them (role "record"). [ensure][companion.widgets.table.members.ensure] hands
out a shared tracker, adding it the first time;
[MemberRecords][companion.widgets.table.members.MemberRecords] hands out a member's
record, stored only on the member's first move in an app.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from companion.state import Tracker
from companion.table import Session

if TYPE_CHECKING:
    from companion.rulesets.variant5e.healing import HitDice
    from companion.table.session import Session

__all__ = [
    "DELVE",
    "DOWNTIME",
    "DUEL",
    "EARTHMOTES",
    "FACING",
    "FIGHT",
    "GM_THREADS",
    "HIT_DICE",
    "ITEM",
    "JOURNEY",
    "LOCK",
    "MAX_MEMBER_NAME",
    "MEMBER_RECORDS",
    "MIASMA",
    "MONARCHS",
    "PLOT_TABLE",
    "REACTIONS",
    "TURN",
    "VESSEL",
    "MemberRecords",
    "default_hit_dice",
    "ensure",
    "five_e_party",
    "member_records",
]

T = TypeVar("T", bound=Tracker)

#: The campaign trackers the apps share, by name.
FIGHT = "Fight"
DUEL = "Duel"
LOCK = "Lock"
GM_THREADS = "Game master"
PLOT_TABLE = "Table"
MIASMA = "Miasma"
MONARCHS = "Dice Monarchs"
EARTHMOTES = "Earthmotes"
JOURNEY = "Journey"
DELVE = "Delve"
DOWNTIME = "Downtime"
VESSEL = "Vessel"

#: A 5e party member's own records in the campaign, by the member's name.
HIT_DICE = "Hit Dice: {}"
TURN = "Turn: {}"
REACTIONS = "Reactions: {}"
FACING = "Facing: {}"
ITEM = "Item: {}: {}"
#: Every kind of record a 5e member owns (they leave the party with the member).
MEMBER_RECORDS = (HIT_DICE, TURN, REACTIONS, FACING)


def five_e_party(session: Session) -> list[str]:
    """The names of the campaign's 5e party members: its casters and creatures (their own
    records, like "Hit Dice: Ash", are not members)."""
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import SpellPoints

    return [m.name for m in session.party() if issubclass(m.kind, (SpellPoints, DeathRecord))]


def member_records(session: Session, name: str) -> list[str]:
    """The ids of the records a 5e member owns (Hit Dice, turn, reactions, facing, items):
    the campaign's trackers of role "record" whose owner is ``name``."""
    return [m.id for m in session.records(name)]


def default_hit_dice(session: Session, name: str) -> HitDice:
    """A member's Hit Dice record made on first use when the start app did not make one:
    the caster's class level (else 1st), made by the ruleset
    ([HitDice.new][companion.rulesets.variant5e.healing.HitDice.new])."""
    from companion.rulesets.variant5e.healing import HitDice
    from companion.rulesets.variant5e.spell_points import SpellPoints

    seen = session.member(name).seen  # read-only: the level is all it reads
    level = seen.class_level if isinstance(seen, SpellPoints) else 1
    return HitDice.new(level)


def ensure(session: Session, name: str, cls: type[T], make: Callable[[], T],
           role: str = "minigame", owner: str = "") -> T:
    """The campaign's tracker ``name`` (of class ``cls``), added from ``make()`` if missing
    (a member's record: role "record" and its ``owner``)."""
    from companion.table.opening import SeatError, StoreError

    for member in session.members():
        if member.name == name and issubclass(member.kind, cls):
            return session.view(member.id, cls)  # the app acts on it: the seat's view
    try:
        return session.view(session.add(name, make(), role=role, owner=owner), cls)
    except SeatError:
        raise  # the seat's refusal, said as it is (not "no such member" after a refresh)
    except StoreError as refused:
        session.refresh()  # another screen added it first
        try:
            return session.tracker(name, cls)  # as the seat reads it
        except StoreError:
            # Nobody did: why it could not be added is the line to say (on a phone, that
            # the GM's page adds it), not that it is missing.
            raise refused from None



#: Longest name of a campaign member (the store's limit).
MAX_MEMBER_NAME = 80


class _Draft:
    """A member's record an app shows before it is stored: a plain tracker whose keeper
    (its [Recorder][companion.state.Recorder], no method replaced) stores the record
    (role "record", owned by the member) through the table session on its first move or
    load, and makes that move through the session. From then on every move, undo and load
    goes through the session ([act_recorded][companion.table.session.Session.act_recorded],
    [undo][companion.table.session.Session.undo],
    [load][companion.table.session.Session.load]: the seat checked against the store on
    each) and the draft shows the stored record as the seat reads it, so the app built on
    the draft keeps working and there is one state: the member's record in the campaign."""

    def __init__(self, session: Session, full: str, owner: str, tracker: Tracker) -> None:
        self.session = session
        self.full = full
        self.owner = owner
        self.tracker = tracker
        self.cls = type(tracker)
        self.live: Tracker | None = None
        tracker.attach(self)

    def stored(self) -> bool:
        """Whether the draft follows a record still in the campaign."""
        return self.live is not None and self.session.holds(self.live)

    def store(self) -> Tracker:
        """The stored record (stored now from the draft's state if nobody has yet)."""
        if self.live is None:
            state = self.tracker.snapshot()
            self._follow(self.session.add_record(self.full, self.tracker, self.owner), state)
        assert self.live is not None
        return self.live

    def _follow(self, live: Tracker, state: dict[str, Any]) -> None:
        """From now on the draft is the stored record ``live``'s (``state``: the draft's
        before it was stored)."""
        self.live = live
        live.on_change(self._show)
        if live.snapshot() != state or live.log:
            self._show(live)

    def _show(self, live: Tracker) -> None:
        """The draft shows the stored record as the seat reads it (restored: no move)."""
        self.tracker.restore_save(self.session.seat_save(live))

    # -- the Recorder seam (companion.state.Recorder) ------------------------------------

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        if self.live is None:
            # Judged on a copy first (the rule's refusal, before the seat's), then the
            # record and its first move are stored as one unit: both or neither.
            self.session.judge_move(tracker, name, arguments)
            state = self.tracker.snapshot()
            live, result = self.session.add_record_moved(self.full, self.tracker,
                                                         self.owner, name, arguments)
            self._follow(live, state)
            return result
        return self.session.act_recorded(self.live, name, arguments)

    def record_undo(self, tracker: Tracker, perform: Callable[[], Any]) -> Any:
        if self.live is None:
            return perform()  # nothing to undo yet: the rule's own refusal
        return self.session.undo(self.live)

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        self.cls.from_json(text)  # a bad save is refused before anything is stored
        if self.live is None:  # the record and the load: both stored or neither
            state = self.tracker.snapshot()
            self._follow(self.session.add_record_loaded(self.full, self.tracker, self.owner,
                                                        text), state)
            return
        self.session.load(self.live, text)

    def tracker_changed(self, tracker: Tracker) -> None:
        tracker.notify_observers()


class MemberRecords:
    """The members' own records one app shows, made lazily (nothing is stored by building
    or showing the app): a record in the campaign is used as it is; a missing one is a
    draft until the member's first move in the app, or until the member is picked in it
    (``now``), which stores it (see [ensure][companion.widgets.table.members.ensure])."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.drafts: dict[str, _Draft] = {}

    def get(self, kind: str, name: str, cls: type[T], make: Callable[[], T], *,
            now: bool = False) -> T:
        full = kind.format(name)
        stored = next((self.session.view(m.id, cls) for m in self.session.records(name)
                       if m.name == full and issubclass(m.kind, cls)), None)
        draft = self.drafts.pop(full, None)
        if draft is not None and draft.live is not None and draft.stored():
            self.drafts[full] = draft  # stored by its own first move: the app keeps it
            assert isinstance(draft.tracker, cls)
            return draft.tracker
        # (a draft whose record left with the member is dropped: a member back starts anew)
        if stored is not None:
            return stored
        if now:
            from companion.table.opening import SeatError

            try:
                return ensure(self.session, full, cls, make, "record", owner=name)
            except SeatError:
                # A record this seat may not add (another player's, picked to look at):
                # shown as a draft, so the page shows the member picked, and a move on it
                # says why it is refused (nothing is stored).
                pass
        if draft is None or draft.live is not None:
            draft = _Draft(self.session, full, name, make())
        self.drafts[full] = draft
        assert isinstance(draft.tracker, cls)
        return draft.tracker
