"""The ground every part of a campaign stands on: the state they share (declared and
made here), the seat this object acts as, the change notices and the lock, and reading
the members. Also the records the parts pass between them: ``Member``, ``Mark`` and
``RollScope`` (the unit of work open now).

Package-private (``companion.store._campaign``): only the campaign's parts and
[companion.store.campaign][], which composes them, import it.
"""

from __future__ import annotations

import abc
import contextlib
import dataclasses
import functools
import random
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, overload

from companion.fairplay import LoggedRoll
from companion.sittings import SittingState
from companion.state import Event, Observable, Recorder, Tracker
from companion.store.act_stamps import ActGuard
from companion.store.permissions import SeatError, SeatKey, TableTrust, same_name
from companion.store.records import CampaignInfo, NewEvent, StoreError
from companion.store.upcast import OlderStates

if TYPE_CHECKING:
    from companion.store.port import Store


T = TypeVar("T", bound=Tracker)

#: Moves each tracker can take back (its log keeps this many).
UNDO_LIMIT = 25


#: Who a person is at the table: the GM, a player, a spectator (a page with no seat), or
#: "" for whoever holds the database (the command line and the Python API).
ROLES = ("gm", "player", "spectator", "")


#: What a spectator's page says instead of making a move.
SPECTATOR_LINE = ("you are watching: ask the GM for your seat's link (or QR code) to join "
                  "and play")


#: What a tracker is in the campaign: a party member's sheet, an encounter, a minigame, a
#: record one member owns (their Hit Dice, turn, facing, a magic item: not a member), or
#: the table's own settings (its trust: [TableTrust][companion.store.permissions.TableTrust]).
TRACKER_ROLES = ("party", "encounter", "minigame", "record", "table")


#: The id and name of the table's trust settings in a campaign (made by the GM's first
#: [set_trust][companion.store.campaign.Campaign.set_trust]).
TRUST_ID = "table-trust"


F = TypeVar("F", bound=Callable[..., Any])


def locked(method: F) -> F:
    """Run a Campaign method under its lock (a poller thread and a widget may meet)."""

    @functools.wraps(method)
    def wrapper(self: CampaignCore, *args: Any, **kwargs: Any) -> Any:
        with self._lock, self._quiet():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)


@dataclass(frozen=True)
class Mark:
    """Who made one move in a tracker's undo log: its event, seat, whether it rolled,
    and the step it was stored with (moves stored together are undone together)."""

    seq: int
    who: str
    role: str
    rolled: bool
    step: int

    def to_list(self) -> list[Any]:
        return [self.seq, self.who, self.role, self.rolled, self.step]


@dataclass
class Member:
    """One tracker of the campaign: its id (``"ash"``), shown name, role and object; a
    record (role ``"record"``) also names the party member who owns it. ``marks`` says
    who made each move of the tracker's undo log (oldest first, as long as the log)."""

    id: str
    name: str
    role: str
    key: str
    tracker: Tracker
    owner: str = ""
    marks: list[Mark] = dataclasses.field(default_factory=list, repr=False)

    def to_dict(self, *, state: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "role": self.role,
                               "kind": self.key, "moves": len(self.tracker.log)}
        if self.owner:
            out["owner"] = self.owner
        if state:
            out["state"] = self.tracker.snapshot()
        return out


class _Trackers(Mapping[str, Tracker]):
    """A campaign's trackers by member id, read live (a member added later is in it)."""

    def __init__(self, campaign: CampaignCore) -> None:
        self._campaign = campaign

    def __getitem__(self, key: str) -> Tracker:
        return self._campaign.members[key].tracker

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._campaign.members))

    def __len__(self) -> int:
        return len(self._campaign.members)


def trim_marks(member: Member) -> None:
    member.tracker.trim_log(UNDO_LIMIT)
    del member.marks[:max(0, len(member.marks) - len(member.tracker.log))]


def unknown_marks(count: int, start: int) -> list[Mark]:
    """Marks for moves whose maker is not known (a snapshot of an older version): only
    the GM may undo them; each its own step."""
    return [Mark(0, "", "", False, -(start + i)) for i in range(count)]


@dataclass
class RollScope:
    """The rule roll a campaign's tracker moves are part of
    ([Campaign.rolling][companion.store.campaign.Campaign.rolling]): its mode, the moves
    it made (held back until the scope ends cleanly, then stored in one transaction with
    its roll entry) and, once stored, their event numbers."""

    mode: str
    #: A unit of work for one move (not a roll the app announced): its moves are public.
    implicit: bool = False
    #: Whether the roll's seed was chosen by a person (marked in the log).
    chosen: bool = False
    moves: list[int] = dataclasses.field(default_factory=list)
    movers: list[str] = dataclasses.field(default_factory=list)
    #: The roll's seed and the ``random.Random(seed)`` the app hands the rule: the first
    #: move given that rng, still unused, records this seed (the roll's own).
    seed: int | None = None
    rng: random.Random | None = None
    #: The roll's number in its sitting ([companion.sittings][]), as its entry records it
    #: (``None``: a seed not derived: real dice, a seed the GM typed).
    fair: dict[str, Any] | None = None
    #: Roll numbers of the sitting this unit has taken so far (stored with it, or none).
    fair_used: int = 0
    #: The sitting its rolls derive from, and the news its first event carries (a
    #: sitting opened, a client seed), when it rolls.
    sitting: SittingState | None = None
    news: dict[str, Any] | None = None
    #: The moves' events, not stored yet, in order (stored when the scope ends cleanly).
    pending: list[NewEvent] = dataclasses.field(default_factory=list)
    #: Each move's own log line, in the order the moves ended, as the move wrote it (a
    #: hidden roll's too, which the shared log then hides): a named rolled act's text.
    lines: list[str] = dataclasses.field(default_factory=list)
    #: Each moved tracker's save point before the scope's first move on it (put back on refusal).
    before: dict[str, tuple[dict[str, Any], tuple[Event, ...]]] = dataclasses.field(
        default_factory=dict)
    #: Members the scope added (a member's record made by its first move): dropped on
    #: refusal.
    added: list[str] = dataclasses.field(default_factory=list)
    #: Whether an add is held back with the moves even before the first one (a unit
    #: made by [as_one_unit][companion.store.campaign.Campaign.as_one_unit]: a record
    #: and its first move); a rule roll stores an add made before its moves at once.
    holds_adds: bool = False
    #: The roll entry to store with the moves (``log``)
    #: and, once stored, the [LoggedRoll][companion.fairplay.LoggedRoll].
    entry: tuple[str, int | None, str, bool, tuple[int, ...] | None] | None = None
    logged: LoggedRoll | None = None
    #: The random table the entry rolled (its id), recorded so verify rolls it again.
    table: str | None = None
    #: The declared rule the entry rolled (companion.rule_rolls), recorded so verify
    #: makes it again.
    call: dict[str, Any] | None = None

    def log(self, label: str, seed: int | None, text: str, *, own: bool = False,
            faces: Sequence[int] | None = None, table: str | None = None,
            call: dict[str, Any] | None = None) -> None:
        """The roll entry to store with the scope's moves when it ends cleanly (arguments
        as [Campaign.rule_roll][companion.store.campaign.Campaign.rule_roll]; ``table``:
        the id of the table it rolled; ``call``: the declared rule it rolled, its
        [record][companion.rule_rolls.RuleCall.record]); afterwards ``logged`` holds the
        stored entry."""
        self.entry = (label, seed, text, own, tuple(faces) if faces is not None else None)
        self.table = table
        self.call = call

    @property
    def hidden(self) -> bool:
        return self.mode != "public"

    @property
    def mode_name(self) -> str:
        from companion.fairplay import mode_name

        return mode_name(self.mode)


class CampaignCore(Observable, Recorder):
    """What every part of a [Campaign][companion.store.campaign.Campaign] reads: its store
    and identity, its members, the seat it acts as, its change notices and its lock.

    A campaign is its trackers' [Recorder][companion.state.Recorder] (replay seats each
    tracker with it); the seam (``companion.store._campaign.seam``) makes the recorder's
    moves. The sittings' part (``Campaign`` itself) gives the seeds (``_fair_seed``)."""

    #: Whether each event applied here must follow the one before it in the chain. A
    #: phone's mirror of a table ([companion.table.remote][]) is sent its seat's events
    #: with other seats' hidden values left out, so their hashes are not the log's: the
    #: server, which holds the log, checked them; the mirror only follows.
    follows_chain: ClassVar[bool] = True

    def __init__(self, store: Store | None, info: CampaignInfo, *, who: str = "",
                 role: str = "") -> None:
        if role not in ROLES:
            raise StoreError(f"a role is gm or player, not {role!r}")
        self.store = store
        self.info = info
        #: The seat this object acts as (``who``, ``role``); fixed once a table session
        #: pins it ([pin_seat][companion.store.campaign.Campaign.pin_seat]).
        self._seat = (" ".join(who.split())[:80], role)
        self._pinned = False
        self._seat_key: SeatKey | None = None
        self.head = 0
        #: The hash of the event numbered ``head`` ("" before the first): the chain's head.
        self.chain = ""
        self.members: dict[str, Member] = {}
        #: The members' trackers by id, as they are now: the table every tracker of the
        #: campaign is linked to ([Tracker.link][companion.state.Tracker.link]).
        self.trackers: Mapping[str, Tracker] = _Trackers(self)
        #: Trackers whose stored facts are of an older schema version, in that form.
        self._older = OlderStates()
        self._snapshot_seq = 0
        self._lock = threading.RLock()
        #: Until when (``time.monotonic``) this screen's writes take the writer lock from
        #: their first try: it lost a race a moment ago (see ``contended``).
        self._contended_until = 0.0
        self._quiet_depth = 0
        self._pending: dict[int, Observable] = {}
        #: The unit of work open now: a rule roll, or one move and what it moves.
        self._scope: RollScope | None = None
        #: The act whose events are being stored (see ``stamping``), if any.
        self._act_guard: ActGuard | None = None
        self._by_tracker: dict[int, Member] = {}
        self._nested = 0  # moves running now (a move made inside one is part of it)
        # Moves that are part of a seat's move on another tracker (record_together), by
        # the id of the tracker they are made on.
        self._part: dict[int, frozenset[str]] = {}
        #: Who the trackers hand their moves, undo and load to: the table session holding
        #: this campaign ([keep_with][companion.store.campaign.Campaign.keep_with]), or,
        #: with none, the campaign itself. Every move still reaches the seam here.
        self.keeper: Recorder | None = None

    #: The campaign's sitting as its log has it ([companion.sittings][]): made and kept
    #: by the sittings' part ([Campaign][companion.store.campaign.Campaign]), read by
    #: every part that rolls or replays.
    sitting: SittingState
    #: The server seed the next sitting opens with (the sittings' part draws it).
    _next_server_seed: str | None

    # -- the seat ------------------------------------------------------------------------

    @property
    def who(self) -> str:
        """The name written into every event this object appends."""
        return self._seat[0]

    @who.setter
    def who(self, value: str) -> None:
        self._reseat(" ".join(str(value).split())[:80], self._seat[1])

    @property
    def role(self) -> str:
        """``gm``, ``player``, ``spectator`` or ``""`` (the database's holder)."""
        return self._seat[1]

    @role.setter
    def role(self, value: str) -> None:
        if value not in ROLES:
            raise StoreError(f"a role is gm or player, not {value!r}")
        self._reseat(self._seat[0], value)

    def _reseat(self, who: str, role: str) -> None:
        if self._pinned and (who, role) != self._seat:
            # Issue 28: the seat is not ambient state a face may rewrite.
            raise SeatError(f"this screen's seat is {self._seat[0] or 'nobody'} "
                            f"({self._seat[1] or 'the holder'}) for its whole session: open "
                            "a new session for another seat")
        self._seat = (who, role)

    @property
    def seat_key(self) -> SeatKey | None:
        """How this screen's seat was proven (a page opened by a seat's link or a hub
        login); the store checks it again in the transaction of every write, so a seat
        revoked a moment ago stores nothing. ``None``: code that holds the database, or a
        seat given in code (tests), is taken at its word."""
        return self._seat_key

    @seat_key.setter
    def seat_key(self, key: SeatKey | None) -> None:
        if self._pinned and (
                (key is None and self._seat_key is not None) or (key is not None and (
                    key.role != self.role or not same_name(key.who, self.who)))):
            # A pinned seat is proven for its whole session: only renewed (a new secret
            # for the same seat), never dropped (that would skip the store's re-read).
            raise SeatError("this screen's seat is fixed for its session: its proof can be "
                            "renewed, not dropped or swapped")
        self._seat_key = key

    @property
    def pinned(self) -> bool:
        """Whether a table session fixed this object's seat."""
        return self._pinned

    def pin_seat(self) -> None:
        """Fix the seat for this object's life (a table session's campaign): ``who``,
        ``role`` and the seat's proof can no longer be rewritten; only
        [lose_seat][companion.store.campaign.Campaign.lose_seat] demotes it."""
        self._pinned = True

    def lose_seat(self) -> None:
        """The seat no longer holds (revoked or renewed elsewhere): this object watches
        from now on, as a spectator (never promoted again)."""
        if self._seat == ("", "spectator") and self._seat_key is None:
            return
        self._seat, self._seat_key = ("", "spectator"), None
        self._changed()  # the page re-renders as a spectator's: it says so

    def __repr__(self) -> str:
        where = self.store.where if self.store is not None else "no store"
        seat = f", seat {self.who or '-'} ({self.role})" if self.role else ""
        return f"<Campaign {self.name!r} in {where} at event {self.head}{seat}>"

    def keep_with(self, keeper: Recorder) -> None:
        """Hand the trackers' moves, undo and load to ``keeper`` first: a table session's
        ([companion.table.session][]), which hands each back to this campaign's seam, so
        a face that holds a tracker holds its session. Every member's tracker now, and
        every one that joins later."""
        self.keeper = keeper
        for member in self.members.values():
            if member.tracker.recorder is self:
                member.tracker.attach(keeper)

    # -- telling observers ---------------------------------------------------------------

    @contextlib.contextmanager
    def _quiet(self) -> Iterator[None]:
        """Hold every change notice (the campaign's and its trackers') until the outermost
        step is done: the event stored, ``head`` set, the live state whole. An observer
        that makes a move then starts from a consistent campaign (no false conflict, no
        event applied twice)."""
        self._quiet_depth += 1
        try:
            yield
        finally:
            self._quiet_depth -= 1
            if self._quiet_depth == 0 and self._pending:
                pending, self._pending = self._pending, {}
                for changed in pending.values():
                    changed.notify_observers()

    def _changed(self) -> None:
        self._notify(self)

    def _notify(self, changed: Observable) -> None:
        if self._quiet_depth:
            self._pending.setdefault(id(changed), changed)
        else:
            changed.notify_observers()

    @property
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """The campaign's own (re-entrant) lock: held by every step that changes it, and
        while the change notices of that step run. A face whose code both a page's message
        and the live watcher reach (a member panel showing the member picked) takes this
        lock, not one of its own: the watcher already holds it when a notice reaches the
        face, so a second lock taken in the other order could deadlock."""
        return self._lock

    # -- reading -------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def rulesets(self) -> tuple[str, ...]:
        return self.info.rulesets

    @overload
    def tracker(self, id_or_name: str) -> Tracker: ...

    @overload
    def tracker(self, id_or_name: str, cls: type[T]) -> T: ...

    def tracker(self, id_or_name: str, cls: type[Tracker] = Tracker) -> Tracker:
        """The live tracker with this id or name (its moves are stored as they are made).

        With ``cls`` (``campaign.tracker("Ash", Character)``) it must be of that class.
        """
        member = self.member(id_or_name)
        if not isinstance(member.tracker, cls):
            raise StoreError(f"{member.name} is a {member.key.partition('/')[2]}, not a "
                             f"{cls.saved_kind()}")
        return member.tracker

    def member(self, id_or_name: str) -> Member:
        if id_or_name in self.members:
            return self.members[id_or_name]
        for member in self.members.values():
            if member.name == id_or_name:
                return member
        known = ", ".join(m.name for m in self.members.values()) or "none yet"
        raise StoreError(f"campaign {self.name!r} has no {id_or_name!r} (it has: {known})")

    @property
    def party(self) -> list[Member]:
        """The party members, in the order they joined (the people, not their records)."""
        return [m for m in self.members.values() if m.role == "party"]

    def records(self, owner: str) -> list[Member]:
        """The records the party member named ``owner`` owns (role ``"record"``), in the
        order they were made."""
        return [m for m in self.members.values() if m.role == "record" and m.owner == owner]

    def __iter__(self) -> Iterator[Member]:
        """The campaign's trackers (not the table's own settings: see ``trust``)."""
        return iter([m for m in self.members.values() if m.role != "table"])

    @property
    def trust(self) -> TableTrust:
        """The table's trust settings (both off until the GM's
        [set_trust][companion.store.campaign.Campaign.set_trust])."""
        member = self.members.get(TRUST_ID)
        if member is not None and isinstance(member.tracker, TableTrust):
            return member.tracker
        return TableTrust()

    def _need_store(self) -> Store:
        if self.store is None:
            raise StoreError("this campaign is not connected to a store")
        return self.store

    # -- the sittings' part ----------------------------------------------------------------

    @abc.abstractmethod
    def _fair_seed(self, scope: RollScope) -> tuple[int, dict[str, Any]]:
        """The next roll number's seed in ``scope`` (the unit it is stored with) and its
        record: the sittings' part ([Campaign][companion.store.campaign.Campaign]) keeps
        the seeds; the parts that roll ask it."""
