"""A campaign: its trackers rebuilt from the store's facts, and live trackers whose every
move is checked and stored at one seam.

[Campaign.open][companion.store.campaign.Campaign.open] loads the newest snapshot and
applies the events after it. Events are **facts**: a stored move carries what it changed
(the steps from the tracker's state before to after), besides who made it, the move's
name, arguments and seed for the log. Opening, refreshing, exporting and importing apply
those facts and never call rule code, nor judge a stored state by today's invariants
(a state is restored as stored: no ``check_state``, limit or ``__post_init__``), so a rule
fixed later cannot alter or block a stored past. Older logs (moves stored as commands),
states of an older schema version of their tracker and older member records are upgraded
by the upcasters of [companion.store.upcast][], never by special cases here.

Every tracker the campaign holds is seated at its table
([Tracker.link][companion.state.Tracker.link], the members by id, read live) as the
campaign opens or adds it: the links its ruleset declares (the fight's party sheets, a
sheet's fight, the delve's and the journey's characters) resolve there, with nothing
wired by a face.

[Campaign.tracker][companion.store.campaign.Campaign.tracker] hands out the ruleset's own
tracker object (a Cairn ``Character``, a Monsters & Magic ``Adventurer``...); the campaign
is its recorder ([Recorder][companion.state.Recorder]): every move, ``undo`` and ``load``
reaches the campaign's one seam, which checks the screen's seat (who may make it), makes
the move, and stores it before observers hear of it. A move that makes moves on other
trackers (the fight's hit on a party member's sheet) is one unit of work: all of it is
stored in one transaction, or none, and undone together.

Seats (who may do what, checked at the seam; the rule is
[companion.store.permissions][], the same for the seam and for
[may_move][companion.store.campaign.Campaign.may_move]):

- The GM may do everything; a GM's move on a player's character is marked in the log
  (``by_gm_for``). Whoever holds the database (the command line, the Python API: role
  ``""``) is not restricted.
- Each move declares who may make it ([who_may][companion.state.who_may]). By default
  (``OWNER``) a player moves their own character (the party member named like their
  seat, by [same_name][companion.store.permissions.same_name]) and the records it owns;
  on a shared tracker (a fight, a minigame) only the moves the tracker says are their
  character's ([Tracker.acting_for][companion.state.Tracker.acting_for]). A move declared
  ``GM`` (the Monarchs' chips) is the GM's alone; ``OWN_NUMBERS`` (a sheet's maxima,
  armour, level) and loading a whole save are the owner's only when the GM trusts
  players with their numbers ([set_trust][companion.store.campaign.Campaign.set_trust]),
  as their own dice for saves and checks are; such an entry is marked (``trusted``).
  They cannot change, load or remove another member.
- A page's seat (``seat_key``: opened by a seat's secret or a hub login) is read again
  from the store in the transaction of every write: a seat revoked or renewed a moment
  ago stores nothing, and the page watches from then on.
- A spectator (a page with no seat) makes no move.
- Undo: a seat takes back only its own newest move on a tracker, never one another seat
  made since (refused, naming who moved); a player never takes back a move that rolled
  (no free reroll); the GM may, and the log says "taken back by the GM". A tracker's own
  rule comes first ([Tracker.undo_refusal][companion.state.Tracker.undo_refusal]): at a
  table with hidden dice or picks only the GM undoes, and a move that revealed them stays.
- A seat's move that moves other trackers too (the Monsters & Magic party's) is one unit
  ([record_together][companion.store.campaign.Campaign.record_together]): the seat is
  judged on its own move, the other trackers' moves are the ones it declares.
- A seed: in a campaign a player's dice choose themselves; a seed the GM chooses is
  marked in the log (``seed_chosen_by``).

- Interpretation: a random move called without a seed gets one drawn (from the ``rng`` the
  caller passed, else from the system), and the event records it for the log. A seed
  passed by the caller is used as given.
- Interpretation: two screens acting at once. A move is first made on this screen's state;
  if another screen appended first, the move is taken back and made again with the
  campaign's writer lock held (issue 47,
  [holding_writer_lock][companion.store.campaign.Campaign.holding_writer_lock]): the
  other screens' events are applied under the lock and the move is made
  on that fresh state (with the same seed, or the sitting's next roll number), where no
  screen can store before it. So a busy table never turns a move away: if the rules now
  forbid it, its [RuleError][companion.errors.RuleError] is raised and nothing is stored;
  a revoked seat is refused; nothing else refuses it, and nothing is ever overwritten. A
  wait for the lock longer than the store's bound (a writer stuck holding it) ends in one
  line ([LockWaitError][companion.store.records.LockWaitError]).
- Interpretation: undo goes back up to [UNDO_LIMIT][companion.store.campaign.UNDO_LIMIT]
  moves per tracker (the tracker's own log keeps that many); the campaign's event log keeps
  every move for ever. This bounds snapshots and opening time for months of play.
- Interpretation: a player's seat plays the party member of the same name (seat "Ash"
  plays Ash); the moves of Ash's records (Hit Dice, turn, items) are Ash's too.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import random
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast, overload

from companion import fairplay, rulesets
from companion.dice.physical import OwnDiceError
from companion.dice.roller import SEED_BOUND, DrawnSeed, SeededRandom, entered_dice
from companion.errors import CompanionError, RuleError
from companion.fairplay import LoggedRoll
from companion.names import lookalike_in
from companion.sittings import (
    SittingError,
    SittingState,
    check_client_seed,
    new_client_seed,
    new_server_seed,
    seat_name,
    server_hash,
)
from companion.state import (
    OWN_NUMBERS,
    Event,
    Observable,
    Tracker,
    is_move,
    state_change,
    who_may,
)
from companion.store.chain import ChainError, check_chain, event_hash, is_hash
from companion.store.document import (
    DOCUMENT_FORMAT,
    DOCUMENT_VERSION,
    check_member_name,
)
from companion.store.permissions import (
    OWN_DICE_LINE,
    SeatError,
    SeatKey,
    TableTrust,
    move_refusal,
    same_name,
)
from companion.store.records import (
    CampaignInfo,
    ConflictError,
    NameTakenError,
    NewEvent,
    StoredEvent,
    StoreError,
    check_seed,
)
from companion.store.registry import TABLE, kind_key, move_parameters, tracker_class
from companion.store.upcast import (
    EVENT_FORMAT,
    MEMBER_FORMAT,
    OlderStates,
    chain_events,
    convert_store,
    fact_schema,
    needs_upcast,
    record_owner_by_name,
    upcast,
    upcast_event,
    upcast_member,
)

if TYPE_CHECKING:
    from companion.store.port import Store

__all__ = [
    "EVENT_KINDS",
    "ROLES",
    "SNAPSHOT_EVERY",
    "TRACKER_ROLES",
    "UNDO_LIMIT",
    "Campaign",
    "Member",
    "SeatError",
    "snapshot_digest",
]

T = TypeVar("T", bound=Tracker)

#: A snapshot of the whole campaign is stored every this many events.
SNAPSHOT_EVERY = 100


def snapshot_digest(uid: str, state: Mapping[str, Any]) -> str:
    """The SHA-256 a snapshot keeps of itself (issue 49): the campaign's identity and the
    snapshot's JSON (its ``chain`` included, its ``digest`` left out), as a store writes
    it. A snapshot edited by hand (a DEX 10 made 3) no longer matches it and is not used:
    the state is rebuilt from the events, which are the truth. Whoever edits the database
    can compute it again, as they can a chain; an export's ``verify`` still judges the
    events, never the snapshot."""
    body = {k: v for k, v in state.items() if k != "digest"}
    # Through JSON first, as the store keeps it (tuples as lists, keys as text).
    text = json.dumps(json.loads(json.dumps(body, ensure_ascii=False)), ensure_ascii=False,
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{uid}\n{text}".encode()).hexdigest()

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
TRUST_NAME = "Table trust"

#: The kinds of event in a campaign's log.
EVENT_KINDS = ("add", "move", "undo", "set", "remove", "roll", "reveal", "sitting")

#: Tries of a move with the campaign's writer lock held, after its first try lost a race
#: (issue 47). One is enough: no other screen stores while the lock is held. A unit that
#: itself stores on the way (a member's record added by its first move, before the unit's
#: moves) lets the lock go with that write and may need another; each one stores
#: something, so this bound is a guard against a defect, never met at a busy table.
_LOCKED_TRIES = 8

#: How long after losing a race a screen's writes take the writer lock from their first
#: try (seconds). At a busy table a first try on this screen's own state mostly loses
#: again: its work is wasted, and its failed write waited behind the lock anyway. Under
#: the lock the writers queue without spending a core (measured in benchmarks/RESULTS.md).
CONTENDED_SECONDS = 2.0


F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")


def _locked(method: F) -> F:
    """Run a Campaign method under its lock (a poller thread and a widget may meet)."""

    @functools.wraps(method)
    def wrapper(self: Campaign, *args: Any, **kwargs: Any) -> Any:
        with self._lock, self._quiet():
            return method(self, *args, **kwargs)

    return cast(F, wrapper)


class _LostRace(Exception):
    """A unit of work's try met another screen's write (a conflict, or a refusal on a
    state that has changed since): made again with the writer lock held."""


def _kept_changing() -> ConflictError:
    return ConflictError("the campaign kept changing while this move held its writer lock "
                         f"({_LOCKED_TRIES} tries); nothing more was stored: try again")



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

    def __init__(self, campaign: Campaign) -> None:
        self._campaign = campaign

    def __getitem__(self, key: str) -> Tracker:
        return self._campaign.members[key].tracker

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._campaign.members))

    def __len__(self) -> int:
        return len(self._campaign.members)


#: ``_dice_for``'s word for a seed the sitting derives (worked out per unit of work).
_DERIVED = -(2**64)


def _with_seed(arguments: dict[str, Any], params: frozenset[str], seed: int
               ) -> dict[str, Any]:
    """A random move's arguments with its seed (or a ``random.Random`` of it)."""
    arguments = dict(arguments)
    if "seed" in params:
        arguments["seed"] = seed
    else:
        arguments["rng"] = random.Random(seed)
    return arguments


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    return slug or "tracker"


def _trim(member: Member) -> None:
    member.tracker.trim_log(UNDO_LIMIT)
    del member.marks[:max(0, len(member.marks) - len(member.tracker.log))]


def _unknown_marks(count: int, start: int) -> list[Mark]:
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


class Campaign(Observable):
    """A campaign's live state over a [Store][companion.store.port.Store] (any backend).

    ``who`` and ``role`` ("gm" or "player") are written into every event this object
    appends. Observers (``on_change``) fire when members are added or removed, a roll is
    made, or [refresh][companion.store.campaign.Campaign.refresh] applies others' events;
    each tracker's own observers fire on its moves as usual.
    """

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
        self._by_tracker: dict[int, Member] = {}
        self._nested = 0  # moves running now (a move made inside one is part of it)
        # Moves that are part of a seat's move on another tracker (record_together), by
        # the id of the tracker they are made on.
        self._part: dict[int, frozenset[str]] = {}
        #: The campaign's sitting as its log has it ([companion.sittings][]).
        self.sitting = SittingState()
        self._client_seed: str | None = None
        self._client_for = 0  # the sitting this screen's client seed was drawn for
        #: The server seed the next sitting opens with, drawn once: a roll made again
        #: (another screen moved first, a refusal) gets the same seed, not a new draw.
        self._next_server_seed: str | None = None
        #: The open sitting's server seed as the store keeps it (issue 49: never in the
        #: log, the campaign's state or a snapshot), as (its published hash, the seed).
        self._kept_seed: tuple[str, str] | None = None

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

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, store: Store, name: str, *, who: str = "", role: str = "") -> Campaign:
        """Open the campaign ``name``: newest snapshot plus the events after it.

        A database written before events were facts is converted first, once
        ([convert_store][companion.store.upcast.convert_store])."""
        store.get_campaign(name)  # an unknown name is said before any conversion
        convert_store(store)
        info = store.get_campaign(name)  # as converted (the conversion chains anew)
        # Damage is found before anything is written: a missing event or a count that
        # disagrees (cheap aggregates), then the whole chain (before the snapshot too).
        store.check_log(info)
        campaign = cls(store, info, who=who, role=role)
        snap = store.latest_snapshot(info.id)
        if snap is not None and snap[0] <= info.head and is_hash(snap[1].get("chain")) \
                and snap[1].get("digest") == snapshot_digest(info.uid, snap[1]):
            try:
                campaign._load_state(snap[1])
                campaign.head = campaign._snapshot_seq = snap[0]
                campaign.chain = snap[1]["chain"]
            except (CompanionError, KeyError, TypeError, ValueError):
                campaign = cls(store, info, who=who, role=role)  # not readable: replay all
        recorded = (info.head, info.chain)
        try:
            campaign._apply_all(store.events_since(info.id, campaign.head), recorded)
        except StoreError:
            if not campaign._snapshot_seq:
                raise
            # The snapshot (only a cache) does not match the events, the truth: rebuilt
            # from them (a later snapshot replaces it); real damage is named by the replay.
            campaign = cls(store, info, who=who, role=role)
            campaign._apply_all(store.events_since(info.id, 0), recorded)
        campaign._after_append()  # a long tail (a migrated or imported log): snapshot it now
        return campaign

    @property
    def name(self) -> str:
        return self.info.name

    @property
    def rulesets(self) -> tuple[str, ...]:
        return self.info.rulesets

    def _load_state(self, state: dict[str, Any]) -> None:
        members: dict[str, Member] = {}
        self._older = OlderStates()
        for item in state["members"]:
            cls = tracker_class(item["kind"])
            # History, restored as it was stored: today's invariants judge moves, not it.
            tracker = cls.from_dict(item["save"], checked=False)
            self._older.restored(item["id"], cls, fact_schema(item["save"]),
                                 item["save"]["state"])
            # An older member record (its role, owner) upgraded by its upcasters.
            item = upcast_member(item, [m.name for m in members.values() if m.role == "party"])
            role, owner = item["role"], item.get("owner", "")
            member = Member(item["id"], item["name"], role, item["kind"], tracker, str(owner))
            marks = item.get("marks")
            if isinstance(marks, list) and len(marks) == len(tracker.log):
                member.marks = [Mark(int(m[0]), str(m[1]), str(m[2]), bool(m[3]), int(m[4]))
                                for m in marks]
            else:
                member.marks = _unknown_marks(len(tracker.log), len(members) * UNDO_LIMIT)
            members[item["id"]] = self._adopt(member)
        self.members = members
        self.sitting = SittingState.from_dict(state.get("sitting"))

    def snapshot(self) -> dict[str, Any]:
        """What a snapshot keeps: the [state][companion.store.campaign.Campaign.state], the
        chain's head it follows and its [digest][companion.store.campaign.snapshot_digest]."""
        state = {**self.state(), "chain": self.chain}
        state["digest"] = snapshot_digest(self.info.uid, state)
        return state

    def state(self) -> dict[str, Any]:
        """The whole campaign's state (what a snapshot keeps)."""
        for member in self.members.values():
            _trim(member)
        return {"members": [{"id": m.id, "name": m.name, "role": m.role, "kind": m.key,
                             "member_format": MEMBER_FORMAT,
                             "save": m.tracker.to_dict(),
                             "marks": [k.to_list() for k in m.marks],
                             **({"owner": m.owner} if m.owner else {})}
                            for m in self.members.values()],
                "sitting": self.sitting.to_dict()}

    # -- reading -------------------------------------------------------------------------

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

    @_locked
    def set_trust(self, *, own_dice: bool | None = None,
                  own_numbers: bool | None = None) -> TableTrust:
        """The GM sets the table's trust (``None``: leave as it is): whether players may
        enter their own dice for saves and checks, and edit their own numbers. Stored in
        the log as the GM's move."""
        if self.role not in ("", "gm"):
            raise SeatError(SPECTATOR_LINE if self.role == "spectator"
                            else "only the GM sets the table's trust")
        member = self.members.get(TRUST_ID)
        if member is None or not isinstance(member.tracker, TableTrust):
            self.add(TRUST_NAME, TableTrust(), role="table")
            member = self.members[TRUST_ID]
        trust = member.tracker
        assert isinstance(trust, TableTrust)
        wanted = (trust.own_dice if own_dice is None else own_dice,
                  trust.own_numbers if own_numbers is None else own_numbers)
        if wanted != (trust.own_dice, trust.own_numbers):
            trust.set_trust(*wanted)
        return trust

    def changed(self) -> bool:
        """Whether someone else appended since this object last looked (one cheap read)."""
        return self._need_store().head(self.info.id) != self.head

    @_locked
    def refresh(self) -> bool:
        """Apply the events others appended since; True if there were any."""
        store = self._need_store()
        new = store.events_since(self.info.id, self.head)
        if new:
            self._apply_all(new)
            self._changed()
        return bool(new)

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another screen's move, then apply it.

        True if something changed. PostgreSQL wakes on ``NOTIFY`` at once; SQLite checks
        the head five times a second (a single indexed read), so neither busy-loops.
        """
        store = self._need_store()
        if store.wait_for_change(self.info.id, self.head, timeout) == self.head:
            return False
        return self.refresh()

    def log(self, kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """Every event of the campaign, oldest first (only ``kinds`` if given)."""
        return self._need_store().events_since(self.info.id, 0, kinds=kinds)

    def checked_log(self) -> list[StoredEvent]:
        """Every event, its whole chain checked up to this campaign's head (a
        [ChainError][companion.store.chain.ChainError] names the first bad event)."""
        events = self.log()
        try:
            check_chain(self.info.uid, events, head=(self.head, self.chain))
        except ChainError as exc:
            raise ChainError(f"{self._need_store().where} is damaged: campaign "
                             f"{self.name!r}: {exc}") from None
        return events

    # -- changing ------------------------------------------------------------------------

    @_locked
    def add(self, name: str, tracker: T, role: str = "party", owner: str = "") -> T:
        """Add a tracker (a party member's sheet, an encounter, a minigame) by its state.

        A member's own record (their Hit Dice, their turn) has the role ``"record"`` and
        its ``owner``, the member's name: it is listed with that member, never as one.
        Returns the live tracker to use from now on (a new object; ``tracker`` itself is
        not watched). Its undo log starts empty.
        """
        owner = " ".join(owner.split()) if isinstance(owner, str) else owner
        # One rule for names, shared with imports (no control or bidi override characters).
        name = check_member_name(name, role, owner)
        self._may_add(name, role, owner)
        if role == "party" and record_owner_by_name(name, ()):
            raise StoreError(f"a party member cannot be called {name!r}: that is how a "
                             "member's own record is named")
        key = kind_key(type(tracker))
        ruleset = key.partition("/")[0]
        if (role == "table") != (ruleset == TABLE):
            raise StoreError("only the table's own settings have the role 'table'")
        if ruleset != TABLE and ruleset not in self.rulesets:
            raise StoreError(f"campaign {self.name!r} plays {', '.join(self.rulesets)}; "
                             f"a {ruleset} tracker cannot join it")
        tracker.validate()
        data = {"kind": key, "name": name, "role": role, "state": tracker.snapshot(),
                "member_format": MEMBER_FORMAT, **({"owner": owner} if owner else {}),
                **({"schema": type(tracker).schema} if type(tracker).schema != 1 else {})}
        def make() -> NewEvent:  # judged again on fresh state after a conflict
            taken = lookalike_in(name, (m.name for m in self.members.values()))
            if taken == name:
                raise StoreError(f"campaign {self.name!r} already has {name!r}")
            if taken is not None:  # the one rule for names (companion.names, issue 33)
                raise StoreError(f"campaign {self.name!r} already has {taken!r}, and "
                                 f"{name!r} looks the same (case, accents or look-alike "
                                 "letters): choose another name")
            ident = TRUST_ID if role == "table" else _slug(name)
            if role == "table" and ident in self.members:
                raise StoreError(f"campaign {self.name!r} already has its table trust")
            n = 2
            while ident in self.members:
                ident, n = f"{_slug(name)}-{n}", n + 1
            return NewEvent("add", tracker=ident, data=data)

        stored = self._persist_then_apply(make)
        self._changed()
        live = self.members[str(stored.tracker)].tracker
        assert isinstance(live, type(tracker))
        return live

    @_locked
    def adopt(self, name: str, tracker: T, role: str = "party", owner: str = "") -> T:
        """Add ``tracker`` as [add][companion.store.campaign.Campaign.add] does, but keep
        *this object* as the live member (its undo log too): an app opened without a
        campaign hands its trackers to an unsaved campaign this way, and every view that
        already holds them keeps working while their moves go through the seam.

        A tracker already in a campaign cannot be adopted (it would act for two); one
        already seated at a table of its own (``link``) keeps it."""
        if tracker.recorder is not None:
            raise StoreError(f"that {type(tracker).saved_kind()} is already kept elsewhere")
        live = self.add(name, tracker, role, owner)
        member = self._member_of(live)
        live.attach(None)
        live.link(None)
        del self._by_tracker[id(live)]
        tracker.trim_log(UNDO_LIMIT)
        # Moves made before it came to the table: their maker is not known, so only the
        # holder or the GM takes them back (the marks' rule for unknown moves).
        member.tracker = tracker
        member.marks = _unknown_marks(len(tracker.log), len(self.members) * UNDO_LIMIT)
        table = tracker.__dict__.get("_table")
        self._adopt(member)
        if table is not None:
            tracker.link(table)
        return tracker

    @_locked
    def remove(self, id_or_name: str) -> None:
        """Take a tracker out of the campaign (its events stay in the log): the GM's."""
        member = self.member(id_or_name)
        if self.role not in ("", "gm"):
            raise SeatError(SPECTATOR_LINE if self.role == "spectator"
                            else f"only the GM may remove {member.name} from the campaign")
        self._persist_then_apply(lambda: NewEvent("remove", tracker=member.id))
        self._changed()

    @_locked
    def replace(self, id_or_name: str, tracker: Tracker) -> None:
        """Set a tracker's whole state (the start app's edit form); its undo log restarts."""
        member = self.member(id_or_name)
        refusal = self._may_change(member, "change")
        if refusal is not None:
            raise SeatError(refusal)
        if type(tracker) is not type(member.tracker):
            raise StoreError(f"{member.name} is a {member.key}, not a {kind_key(type(tracker))}")
        tracker.validate()
        save = {**tracker.to_dict(), "log": []}
        self._persist_then_apply(lambda: NewEvent("set", tracker=member.id, data={"save": save}))

    @_locked
    def roll(self, expr: str, seed: int | None = None, *, mode: str = "public",
             dice: Sequence[int] | None = None, total: int | None = None,
             chosen: bool = False) -> Any:
        """Roll a dice expression for the table's roll log; returns the engine's ``Roll``.

        ``mode`` and real dice (``dice``, ``total``): see
        [roll_entry][companion.store.campaign.Campaign.roll_entry].
        """
        return self.roll_entry(expr, seed, mode=mode, dice=dice, total=total,
                               chosen=chosen).roll

    @_locked
    def roll_entry(self, expr: str, seed: int | None = None, *, mode: str = "public",
                   dice: Sequence[int] | None = None,
                   total: int | None = None, chosen: bool = False) -> LoggedRoll:
        """Roll for the roll log in a mode of [companion.fairplay][] (public, gm, blind,
        self) and return the [LoggedRoll][companion.fairplay.LoggedRoll]: its entry number,
        commitment and roll (show the roll only where ``shown_to`` allows).

        A hidden roll is logged as its commitment. ``dice`` and/or ``total`` enter a roll
        made with real dice ([enter][companion.dice.physical.enter]), logged as physical.
        """
        from companion import fairplay

        check_seed(seed)  # one line before anything is rolled (the log keeps 64 bits)
        self._may_roll(seed if chosen else None)
        physical = dice is not None or total is not None
        if seed is None and not physical and self.store is not None:
            # Provably fair (companion.sittings): the seed is the next roll number's,
            # worked out when the event is written (after a conflict: the new number's).
            # A bad expression is refused before any sitting opens.
            made = fairplay.prepare_roll(expr, mode=mode, seed=0)

            def make() -> NewEvent:
                nonlocal made
                unit = RollScope(mode)
                seed, tag = self._fair_seed(unit)
                made = fairplay.prepare_roll(expr, mode=mode, seed=seed)
                news = {"sitting": unit.news} if unit.news else {}
                return NewEvent("roll", seed=made.seed,
                                data={**made.data, "fair": tag, **news})
        else:
            made = fairplay.prepare_roll(expr, mode=mode, seed=seed, dice=dice, total=total)
            data = dict(made.data)
            if chosen and seed is not None:
                # Public or hidden: the log says a person chose it (not derived).
                data["seed_chosen_by"] = self.who or self.role or "the database's holder"
            elif seed is not None and self.sitting.open:
                data["seed_given"] = True  # a program's seed, in a sitting: not derived

            def make() -> NewEvent:
                return NewEvent("roll", seed=made.seed, data=data)
        stored = self._persist_then_apply(make)
        self._changed()
        return LoggedRoll(stored.seq, made.mode, made.commitment, self.who, self.role,
                          made.roll)

    @contextlib.contextmanager
    def rolling(self, mode: str = "public", *, seed: int | None = None,
                rng: random.Random | None = None, chosen: bool = False,
                fair: bool = False) -> Iterator[RollScope]:
        """The tracker moves made inside are one rule roll in ``mode``, stored atomically.

        The moves change the live trackers at once but are stored only when the scope ends
        cleanly: all of them, with the roll entry given to
        ``RollScope.log``, in ONE transaction (a
        crash stores all or nothing); then other screens see them. When the scope raises
        (an illegal move, an impossible face, real dice left over) nothing is stored and
        every tracker moved is restored from its JSON before the scope. When another
        screen changed the campaign meanwhile, the trackers are restored, the campaign
        refreshed and [ConflictError][companion.store.db.ConflictError] raised: roll
        again on the fresh state.

        In a hidden mode each move is stored without its seed and result (the policy of
        [companion.fairplay][]: "a hidden roll that moves a shared tracker").
        ``seed``/``rng``: the roll's seed and its ``random.Random(seed)``: the first move
        given that rng records that seed (so the tracker's log and the roll log say the
        same seed).

        ``fair``: the roll's seed is its sitting's next ([companion.sittings][]): drawn
        here, in the lock, and handed to the rule as ``scope.seed`` and ``scope.rng``."""
        from companion import fairplay

        check_seed(seed)
        self._may_roll(seed if chosen else None)
        scope = RollScope(fairplay.check_mode(mode), seed=seed, rng=rng,
                          chosen=chosen and seed is not None)
        with self._lock, self._quiet():
            if self._scope is not None:
                raise StoreError("a roll is already being made on this screen")
            if fair:
                scope.seed, scope.fair = self._fair_seed(scope)
                scope.rng = SeededRandom(scope.seed)
            self._scope = scope
            try:
                try:
                    yield scope
                finally:
                    self._scope = None
            except BaseException:
                self._restore(scope)
                raise
            self._commit(scope)

    def _restore(self, scope: RollScope) -> None:
        """Put the trackers a scope moved back as they were before it; forget its moves."""
        for member_id in scope.added:  # members it added (a member's record made by a move)
            gone = self.members.pop(member_id, None)
            if gone is not None:
                self._by_tracker.pop(id(gone.tracker), None)
        scope.added.clear()
        for member_id, point in scope.before.items():
            member = self.members.get(member_id)
            if member is not None:
                member.tracker.return_to(point)
        scope.before.clear()
        scope.pending.clear()
        scope.moves.clear()
        scope.movers.clear()
        # The unit's roll numbers were not stored: the next roll takes them again (the
        # same number gives the same seed: no reroll is won by a refusal).
        scope.fair_used = 1 if scope.fair is not None else 0

    def _commit(self, scope: RollScope) -> None:
        """Store a scope's moves and its roll entry in one transaction."""
        from companion import fairplay

        moves = [self.head + 1 + i for i, e in enumerate(scope.pending) if e.kind != "add"]
        extra: list[NewEvent] = []
        made = None
        if scope.entry is not None:
            label, seed, text, own, faces = scope.entry
            if own and (refusal := self.may_use_own_dice()) is not None:
                # A check with no tracker move is still a check: the GM's trust decides.
                self._restore(scope)
                raise SeatError(refusal)
            entered = (list(faces) if faces is not None else []) if own else None
            made = fairplay.prepare_rule_roll(label, None if own else seed, text,
                                              mode=scope.mode, faces=entered, moves=moves,
                                              table=scope.table, call=scope.call)
            data = made.data
            if scope.fair is not None and not own and seed == scope.seed:
                data = {**data, "fair": scope.fair}
            elif scope.chosen and not own and seed is not None:
                data = {**data, "seed_chosen_by": self.who or self.role or "the holder"}
            elif not own and seed is not None and self.sitting.open:
                data = {**data, "seed_given": True}  # a program's seed: not derived
            extra.append(NewEvent("roll", seed=made.seed, data=data))
        stored = self._store_unit(scope, extra)
        if not stored:
            return
        scope.moves[:] = moves
        if made is not None and scope.entry is not None:
            scope.logged = LoggedRoll(stored[-1].seq, made.mode, made.commitment, self.who,
                                      self.role, scope.entry[2])

    def undo_moves(self, scope: RollScope) -> None:
        """Inside [rolling][companion.store.campaign.Campaign.rolling]: take back the
        moves the roll has made so far (nothing of them was stored; the trackers return to
        their JSON before the scope)."""
        with self._lock, self._quiet():
            self._restore(scope)

    @_locked
    def rule_roll(self, label: str, seed: int | None, text: str, *, mode: str = "public",
                  own: bool = False, faces: Sequence[int] | None = None,
                  moves: Sequence[int] = ()) -> LoggedRoll:
        """Log a roll a rule made (a check, a save, a deal: any move rolled with ``seed``,
        or with real dice when ``own``: ``faces`` are those entered) whose result reads
        ``text``, in ``mode``. A hidden one is logged as its commitment (over the label,
        seed, faces, text and a nonce), revealed with
        [reveal][companion.store.campaign.Campaign.reveal] and redacted for players like a
        dice roll ([visible_to][companion.store.campaign.Campaign.visible_to]).

        Returns the [LoggedRoll][companion.fairplay.LoggedRoll] (its ``roll`` is ``text``;
        show it only where ``shown_to`` allows). ``moves``: the tracker moves it made
        (event numbers; [rolling][companion.store.campaign.Campaign.rolling] collects them).
        """
        from companion import fairplay

        entered = (list(faces) if faces is not None else []) if own else None
        check_seed(seed)
        self._may_roll(None)
        if own and (refusal := self.may_use_own_dice()) is not None:
            raise SeatError(refusal)
        made = fairplay.prepare_rule_roll(label, None if own else seed, text, mode=mode,
                                          faces=entered, moves=moves)
        stored = self._persist_then_apply(
            lambda: NewEvent("roll", seed=made.seed, data=made.data))
        self._changed()
        return LoggedRoll(stored.seq, made.mode, made.commitment, self.who, self.role, text)

    @_locked
    def reveal(self, entry: int) -> StoredEvent:
        """Reveal the hidden roll logged as ``entry``: a ``reveal`` event with its roll and
        nonce, which anyone can check against its commitment. The GM reveals any hidden
        roll, a player their own ``self`` roll; a roll is revealed once."""
        from companion import fairplay

        if type(entry) is not int:
            raise fairplay.FairPlayError(f"an entry is a whole number, not {entry!r}")
        if not 1 <= entry < 2**63:  # the store's numbers; a longer one names no entry
            shown = str(entry) if len(str(entry)) <= 20 else f"{str(entry)[:12]}…"
            raise fairplay.FairPlayError(f"campaign {self.name!r} has no roll numbered {shown}")

        def make() -> NewEvent:
            # The roll itself and the reveals after it (two indexed reads).
            store = self._need_store()
            events = [e.to_dict() for e in [
                *store.events_since(self.info.id, max(entry - 1, 0), limit=1),
                *store.events_since(self.info.id, entry, kinds=("reveal",))]]
            event = next((e for e in events if e["seq"] == entry), None)
            if event is None:
                raise fairplay.FairPlayError(f"campaign {self.name!r} has no roll numbered "
                                             f"{entry}")
            seed, data = fairplay.reveal_data(event, events, self.who, self.role)
            return NewEvent("reveal", seed=seed, data=data)

        stored = self._persist_then_apply(make)
        self._changed()
        return stored

    # -- sittings: provably fair seeds (companion.sittings) -------------------------------

    @property
    def client_seed(self) -> str:
        """This seat's client seed: in an open sitting of this version's rules, the one
        fixed at its opening (if the seat has one there); else the one this screen offers
        the next sitting: the one the seat set for it
        ([set_client_seed][companion.store.campaign.Campaign.set_client_seed]), or one
        drawn on first use (``os.urandom``), fresh for each sitting."""
        seat = seat_name(self.who, self.role)
        state = self.sitting
        if state.open and state.fixed and seat in state.clients:
            return state.clients[seat]
        if seat in state.pending and not state.open:
            return state.pending[seat]
        # The sitting it is for: the next one (a sitting open with the seeds of an older
        # version's rules takes this screen's seed as it is).
        target = state.number if state.open and not state.fixed else state.number + 1
        if self._client_seed is None or self._client_for != target:
            self._client_seed = new_client_seed()  # fresh for each sitting (issue 49)
            self._client_for = target
        return self._client_seed

    @_locked
    def set_client_seed(self, seed: str | None = None) -> StoredEvent | None:
        """Set this seat's client seed (``None``: a fresh one from this device). In an open
        sitting it is published at once (every later roll derives from it); otherwise with
        this seat's first roll of the next sitting. Returns the event, if one was logged."""
        self._may_roll(None)
        chosen = new_client_seed() if seed is None else check_client_seed(seed)
        seat = seat_name(self.who, self.role)

        def make() -> NewEvent | None:
            state = self.sitting
            if state.open and not state.fixed:  # an older sitting, still open
                self._client_seed, self._client_for = chosen, state.number
                if state.clients.get(seat) == chosen:
                    return None
                return NewEvent("sitting", data={"sitting": {"clients": {seat: chosen}}})
            # Issue 49: a sitting's client seeds are fixed at its opening; a seed set now
            # is published at once for the next sitting, which takes it when it opens.
            if state.pending.get(seat) == chosen:
                return None
            return NewEvent("sitting", data={"sitting": {"next": {seat: chosen}}})

        return self._sitting_write(make)

    @_locked
    def close_sitting(self) -> StoredEvent:
        """Close the open sitting (the GM's): its server seed is published, and every roll
        of it can be recomputed by anyone ([companion.sittings][])."""
        if self.role not in ("gm", ""):
            raise SeatError("only the GM closes a sitting")

        def make() -> NewEvent | None:
            state = self.sitting
            if not state.open:
                raise SittingError(f"campaign {self.name!r} has no open sitting (a sitting "
                                   "opens with the first roll after the last close)")
            seed = state.server_seed or self._open_sitting_seed()
            if seed is None:
                raise SittingError(f"sitting {state.number}'s server seed is not in this "
                                   "database (it stays in the one where the sitting "
                                   "opened): it cannot be closed here; close it there")
            # Published now; the store deletes its record with this event (issue 49).
            return NewEvent("sitting", data={"sitting": {"close": {
                "number": state.number, "server_seed": seed, "rolls": state.rolls}}})

        stored = self._sitting_write(make)
        assert stored is not None
        return stored

    def _sitting_write(self, make: Callable[[], NewEvent | None]) -> StoredEvent | None:
        """Store a sitting event of its own (judged again after a conflict)."""
        if self.store is not None and self.changed():
            self.refresh()
        stored = self._append_retrying(make)
        if stored is not None:
            self._changed()
        return stored

    def _news(self) -> tuple[SittingState, dict[str, Any] | None]:
        """The sitting a roll of this seat derives from now, and the news its event
        carries ([SittingState.news][companion.sittings.SittingState.news])."""
        seat = seat_name(self.who, self.role)
        known = self.sitting.clients.get(seat)
        if known is not None and self._client_seed is None and not self.sitting.fixed:
            # Another device of this seat published the seat's seed: roll with it.
            self._client_seed, self._client_for = known, self.sitting.number
        server: str | None
        if not self.sitting.open:
            if self._next_server_seed is None:
                self._next_server_seed = new_server_seed()
            server = self._next_server_seed
        else:
            server = self.sitting.server_seed or self._open_sitting_seed()
        return self.sitting.news(seat, self.client_seed, server)

    def _open_sitting_seed(self) -> str | None:
        """The open sitting's server seed as the store keeps it apart from the log (issue
        49), read once per sitting; ``None`` when this database does not hold it (a
        campaign imported with its sitting open)."""
        digest = self.sitting.hash
        if self._kept_seed is not None and self._kept_seed[0] == digest:
            return self._kept_seed[1]
        if self.store is None:
            return None
        seed = self.store.sitting_secret(self.info.id, digest)
        if seed is not None and server_hash(seed) == digest:
            self._kept_seed = (digest, seed)
            return seed
        return None

    def _fair_seed(self, scope: RollScope) -> tuple[int, dict[str, Any]]:
        """The next roll number's seed in ``scope`` (the unit it is stored with) and its
        record; the unit's first takes the sitting's news with it."""
        if scope.sitting is None:
            scope.sitting, scope.news = self._news()
            if scope.news and "open" in scope.news and scope.sitting.server_seed:
                # The seed the store will keep if the opening is stored (a memo by its
                # hash: an opening not stored is never the campaign's sitting).
                self._kept_seed = (scope.sitting.hash, scope.sitting.server_seed)
        n = scope.sitting.rolls + scope.fair_used + 1
        scope.fair_used += 1
        return scope.sitting.seed(n), scope.sitting.tag(n)

    def visible_to(self, who: str, role: str, kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """The log as ``who`` (``role``: "gm" or "player") may see it: no hidden roll's
        secret unless they may see it, and for a player no hidden die, table seed or
        unrevealed choice of a game ([visible_to][companion.fairplay.visible_to])."""
        from companion import fairplay

        # The add events say which trackers hold hidden information.
        read = (*kinds, "add") if kinds and set(kinds) & {"set", "move", "undo"} else kinds
        events = fairplay.visible_to([e.to_dict() for e in self.log(read)], who, role,
                                     tracker_class)
        return [StoredEvent(**e) for e in events if not kinds or e["kind"] in kinds]

    # -- events in and out ------------------------------------------------------------------

    def _need_store(self) -> Store:
        if self.store is None:
            raise StoreError("this campaign is not connected to a store")
        return self.store

    def _append(self, new: NewEvent) -> StoredEvent:
        new = NewEvent(new.kind, self.who, self.role, new.tracker, new.move, new.seed,
                       new.data, new.at)
        (stored,) = self._store_events([new])
        return stored

    def _store_events(self, events: list[NewEvent]) -> list[StoredEvent]:
        """Append in one transaction; a proven seat is read again in it (issue 28: a seat
        revoked a moment ago stores nothing, and this screen watches from then on)."""
        store = self._need_store()
        key = self.seat_key
        if key is None:
            return store.append(self.info.id, events, self.head)
        try:
            if key.role != self.role or not same_name(key.who, self.who):
                # who/role rewritten on this object since: the events would name a seat
                # the store did not check (issue 28, the seat as ambient state).
                raise SeatError(f"this screen's seat is {key.who} ({key.role}), not "
                                f"{self.who or 'nobody'} ({self.role}): reload the page")
            return store.append(self.info.id, events, self.head, seat=key)
        except SeatError:
            self.lose_seat()
            raise

    def _append_all(self, new: Sequence[NewEvent]) -> list[StoredEvent]:
        """Append events in one transaction (all stored or none)."""
        # Events stored together are one step: undone together (see ``Mark``).
        step = {"step": self.head + 1} if len(new) > 1 else {}
        events = [NewEvent(e.kind, self.who, self.role, e.tracker, e.move, e.seed,
                           {**e.data, **step} if e.kind in ("move", "undo") else e.data,
                           e.at) for e in new]
        return self._store_events(events)

    def _after_append(self) -> None:
        if self.store is not None and self.head - self._snapshot_seq >= SNAPSHOT_EVERY \
                and not self.store.read_only and self.store.keep_snapshots:
            try:  # the chain's head at the snapshot: a snapshot that does not follow is
                # not used (see ``open``)
                self.store.put_snapshot(self.info.id, self.head, self.snapshot())
                self._snapshot_seq = self.head
            except StoreError:
                pass  # a snapshot is only a cache: the events are already safe

    def _persist_then_apply(self, make: Callable[[], NewEvent]) -> StoredEvent:
        """Append an event whose effect cannot fail, then apply it (retrying on conflict)."""
        if self._scope is not None and (self._scope.pending or self._scope.holds_adds):
            return self._defer(self._scope, make())
        stored = self._append_retrying(make)
        assert stored is not None  # make always has an event here
        return stored

    @contextlib.contextmanager
    def holding_writer_lock(self) -> Iterator[None]:
        """This screen as the campaign's only writer (issue 47): the store's writer lock
        for the campaign is taken (waiting its turn behind the screens storing now), the
        events stored before it are applied, and what the block then makes is made on
        that newest state: its write cannot meet a conflict. The lock goes with the
        block's first write (or with the block, if it writes nothing); the change notices
        wait until the block ends. A wait past the store's ``lock_wait`` raises
        [LockWaitError][companion.store.records.LockWaitError] (one line)."""
        store = self._need_store()
        with self._lock, self._quiet(), store.writer_lock(self.info.id):
            self.refresh()
            yield

    @property
    def contended(self) -> bool:
        """Whether this screen lost a race to another writer in the last
        [CONTENDED_SECONDS][companion.store.campaign.CONTENDED_SECONDS]: its writes then
        take the writer lock from their first try."""
        return self.store is not None and time.monotonic() < self._contended_until

    def lost_race(self) -> None:
        """Say that a write of this screen lost a race (the campaign is busy now)."""
        self._contended_until = time.monotonic() + CONTENDED_SECONDS

    def _append_retrying(self, make: Callable[[], NewEvent | None]) -> StoredEvent | None:
        """Append the event ``make`` builds and apply it; after another writer's conflict
        ``make`` builds it again on the fresh state with the writer lock held (it may then
        find nothing left to store: ``None``), where no other writer comes first."""
        if self.contended:
            stored = self._append_locked(make)
        else:
            new = make()
            if new is None:
                return None
            try:
                stored = self._append(new)
            except ConflictError:
                self.lost_race()
                stored = self._append_locked(make)
        if stored is None:
            return None
        self._apply(stored)
        self._after_append()
        return stored

    def _append_locked(self, make: Callable[[], NewEvent | None]) -> StoredEvent | None:
        """``make``'s event appended with the writer lock held (``None``: nothing to store)."""
        for _ in range(_LOCKED_TRIES):
            with self.holding_writer_lock():
                new = make()
                if new is None:
                    return None
                try:
                    return self._append(new)
                except ConflictError:
                    continue  # (a defect: nothing stores while the lock is held)
        raise _kept_changing()

    def _defer(self, scope: RollScope, new: NewEvent) -> StoredEvent:
        """Inside a rule roll that has moved trackers: a member added (a member's record
        made by its first move) or a tracker loaded is part of the roll, applied now and
        stored with it (or dropped with it)."""
        if new.kind not in ("add", "set"):
            raise StoreError("finish the roll first: its moves are not stored yet")
        if new.kind == "set" and new.tracker is not None and new.tracker not in scope.before:
            scope.before[new.tracker] = self.members[new.tracker].tracker.save_point()
        event = StoredEvent(self.head + len(scope.pending) + 1, "", self.who, self.role,
                            new.kind, new.tracker, new.move, new.seed, new.data)
        self._apply_unchecked(event)
        if new.kind == "add" and new.tracker is not None:
            scope.added.append(new.tracker)
        scope.pending.append(new)
        return event

    def _apply_all(self, stored: Sequence[StoredEvent],
                   recorded: tuple[int, str] | None = None) -> None:
        """Apply events in order; ``recorded``: the ``(head, hash)`` the campaign's row
        records, which the chain must meet."""
        if not self.follows_chain:
            recorded = None
        for event in stored:
            self._apply(event)
            if recorded is not None and event.seq == recorded[0] and self.chain != recorded[1]:
                raise self._chain_error(ChainError(
                    f"event {event.seq} is not the one the campaign recorded as its newest "
                    "(changed or replaced)"))
        if recorded is not None and self.head < recorded[0]:
            raise self._chain_error(ChainError(
                f"event {self.head + 1} is missing (the campaign records {recorded[0]} "
                "events)"))
        if recorded is not None and self.head == recorded[0] and self.chain != recorded[1]:
            raise self._chain_error(ChainError(
                f"event {self.head} is not the one the campaign recorded as its newest "
                "(changed or replaced)"))

    def _chain_error(self, exc: ChainError) -> ChainError:
        where = self.store.where if self.store is not None else "the campaign file"
        return ChainError(f"{where} is damaged: campaign {self.name!r}: {exc}")

    def _apply(self, event: StoredEvent) -> None:
        """Apply one stored event to the live state (replay), after checking that it
        follows the one before it (the chain)."""
        if self.follows_chain:
            try:
                check_chain(self.info.uid, [event], prev=self.chain, first=self.head + 1)
            except ChainError as exc:
                raise self._chain_error(exc) from None
        try:
            self._apply_unchecked(event)
        except (CompanionError, KeyError, TypeError, ValueError) as exc:
            what = f"{event.kind} {event.move or ''} on {event.tracker}".replace("  ", " ")
            raise StoreError(f"campaign {self.name!r}: event {event.seq} ({what}) cannot be "
                             f"applied: {exc}") from None
        step = event.data.get("step", event.seq) if isinstance(event.data, dict) else event.seq
        self._mark(event, step if type(step) is int else event.seq)
        self._follow_sitting(event)
        self.head = event.seq
        self.chain = event_hash(self.info.uid, event)

    def _follow_sitting(self, event: StoredEvent) -> None:
        if isinstance(event.data, dict):
            number = self.sitting.number
            self.sitting.apply(event.seq, event.kind, event.data)
            if self.sitting.number != number:
                self._next_server_seed = None  # a sitting opened (here or elsewhere)

    def _apply_unchecked(self, event: StoredEvent) -> None:
        data = event.data
        if event.kind == "add":
            # A stored state is a fact: restored as it was (types only), its schema
            # version upgraded by the ruleset's upcasters; no invariant of today judges it.
            cls = tracker_class(data["kind"])
            version = fact_schema(data)
            tracker = cls.from_state(data["state"], schema=version, checked=False)
            if not isinstance(event.tracker, str) or not event.tracker:
                raise StoreError("it adds a tracker with no id")
            # The member record (name, role, owner) of an older format: its upcasters.
            data = upcast_member(data, [m.name for m in self.members.values()
                                        if m.role == "party"])
            role, owner = data["role"], data.get("owner", "")
            if role not in TRACKER_ROLES or not isinstance(owner, str):
                raise StoreError(f"a tracker's role {role!r} or owner {owner!r} is not one "
                                 "this program knows")
            self.members[event.tracker] = self._adopt(
                Member(event.tracker, data["name"], role, data["kind"], tracker, owner))
            self._older.restored(event.tracker, cls, version, data["state"])
        elif event.kind in ("roll", "reveal", "sitting"):
            pass
        else:
            # Facts only: no rule code runs (a move that raises today, or a rule that
            # changed, cannot alter or block a stored past).
            member = self.members[str(event.tracker)]
            tracker = member.tracker
            if event.kind in ("move", "undo") and needs_upcast(event):
                # Written in an older format after the conversion (an older process still
                # running then): upgraded as it is read, never a reason to refuse.
                upcast_event(event, {member.id: tracker})
                tracker.trim_log(UNDO_LIMIT)
                self._older.forget(member.id)
            elif event.kind in ("move", "undo"):
                if event.kind == "move" and self.store is None and not is_move(
                        getattr(type(tracker), str(event.move), None)):
                    # An import (a file from anywhere) names only real moves; an open
                    # database keeps a move a later version renamed as the fact it was.
                    raise StoreError(f"{str(event.move)[:40]!r} is not a move of a "
                                     f"{type(tracker).saved_kind()}")
                self._older.fact(member.id, tracker, event.kind, str(event.move),
                                 data.get("args", {}), str(data.get("summary", "")),
                                 data["change"], fact_schema(data))
                tracker.trim_log(UNDO_LIMIT)
            elif event.kind == "set":
                tracker.restore_save(data["save"])
                tracker.trim_log(UNDO_LIMIT)
                self._older.restored(member.id, type(tracker), fact_schema(data["save"]),
                                     data["save"]["state"])
            elif event.kind == "remove":
                # The object stays attached: a move on it says it left the campaign.
                del self.members[member.id]
                self._older.forget(member.id)
            else:
                raise StoreError(f"unknown event kind {event.kind!r}")

    # -- the seam: every tracker's moves, undo and load come here ------------------------

    def _adopt(self, member: Member) -> Member:
        """Make the campaign the tracker's recorder (its moves, undo and load are stored)
        and seat it at the campaign's table: the links its ruleset declares
        ([Tracker.links][companion.state.Tracker.links]) resolve to the members, by id."""
        member.tracker.attach(self)
        member.tracker.link(self.trackers)
        self._by_tracker[id(member.tracker)] = member
        return member

    def _member_of(self, tracker: Tracker) -> Member:
        member = self._by_tracker.get(id(tracker))
        if member is None or member.tracker is not tracker:
            raise StoreError(f"this {type(tracker).saved_kind()} is not in campaign "
                             f"{self.name!r}")
        return member

    def _check_member(self, member: Member) -> None:
        if self.members.get(member.id) is not member:
            raise StoreError(f"{member.name} is no longer in campaign {self.name!r}")

    @property
    def unit_lines(self) -> tuple[str, ...]:
        """The log lines of the moves made so far in the rule roll under way, as the
        moves wrote them (before a hidden roll's are hidden from the shared log); empty
        outside one. What a named rolled act logs as its text (in a hidden roll's
        secret), so no face needs a callback to word it."""
        scope = self._scope
        return tuple(scope.lines) if scope is not None else ()

    def tracker_changed(self, tracker: Tracker) -> None:
        """The seam's notice: observers hear of a change once the step is stored."""
        self._notify(tracker)

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        """The seam: check who may make the move, make it, store what it changed."""
        with self._lock, self._quiet():
            member = self._member_of(tracker)
            self._check_member(member)
            cls = type(tracker)
            params = move_parameters(cls, name)
            # Who may make it is said first (before any word about its dice).
            trusted = self._judge_fresh(member, name, arguments, None)
            arguments, seed, entered, chosen = self._dice_for(name, params, arguments)
            if entered is not None:
                trusted = self._judge_fresh(member, name, arguments, entered)
            # A seed the seam draws is the sitting's next (companion.sittings), worked out
            # for the unit it is stored in (again after a conflict: the new number's).
            fair = seed == _DERIVED
            if self._scope is not None:
                tag = None
                if fair:
                    seed, tag = self._fair_seed(self._scope)
                    arguments = _with_seed(arguments, params, seed)
                return self._move_in_unit(self._scope, member, name, arguments, seed,
                                          entered, chosen, perform, trusted, tag)
            first_face = entered.used if entered is not None else 0

            def attempt_move(unit: RollScope, attempt: int) -> Any:
                nonlocal trusted, arguments, seed
                if attempt:  # judged again on the fresh state (the GM may have moved)
                    trusted = self._judge_move(member, name, arguments, entered)
                    if entered is not None:  # the same real dice, read again from the first
                        entered.used = first_face
                tag = None
                if fair:
                    seed, tag = self._fair_seed(unit)
                    arguments = _with_seed(arguments, params, seed)
                return self._move_in_unit(unit, member, name, arguments, seed,
                                          entered, chosen, perform, trusted, tag)

            return self._unit_of_work(member, attempt_move)

    def record_together(self, lead: Tracker, move: str,
                        also: Sequence[tuple[Tracker, Sequence[str]]],
                        action: Callable[[], R]) -> R:
        """The seam for a seat's move that, by its rules, moves other trackers at the table
        too (the Monsters & Magic party's: a thread spent gives the GM one, a hold marks
        the holder's fatigue, a tending heals the patient): ``action`` makes them all.

        The seat must be allowed ``move`` on ``lead`` (judged as any move, on the fresh
        state); ``also`` pairs each other tracker (a member of this campaign, by id) with
        the moves named for it, which are part of it, as a fight's hit on a sheet is part
        of the fight's move; any other move ``action`` makes is judged on its own.
        Everything is stored as one unit of work, undone together, or nothing is; when
        another screen moved first it is made again on the fresh state. Inside a rule
        roll it joins the roll's unit."""
        with self._lock, self._quiet():
            lead_member = self._member_of(lead)
            parts = {id(self._member_of(t).tracker): frozenset(names)
                     for t, names in also}

            @contextlib.contextmanager
            def declared() -> Iterator[None]:
                self._check_member(lead_member)
                refusal = self.may_move(lead, move, {})
                if refusal is not None:
                    raise SeatError(refusal)
                saved = self._part
                self._part = {**saved, **parts}
                try:
                    yield
                finally:
                    self._part = saved

            if self._scope is not None:  # inside a rule roll: stored with it
                with declared():
                    return action()

            def attempt_together(_unit: RollScope, _attempt: int) -> R:
                with declared():
                    return action()

            return self._unit_of_work(lead_member, attempt_together)

    def as_one_unit(self, action: Callable[[], R]) -> R:
        """Store every add and move ``action`` makes as one unit of work: all of them in
        one transaction, or none (a refusal puts every tracker back and forgets the
        members it added); after another screen's conflict it is made again on the fresh
        state. A member's record stored by its first move is stored with that move this
        way. Inside a rule roll it is part of the roll's unit."""
        with self._lock, self._quiet():
            if self._scope is not None:
                return action()

            def attempt(unit: RollScope, _number: int) -> R:
                unit.holds_adds = True
                return action()

            return self._unit_of_work(None, attempt)

    def _unit_of_work(self, member: Member | None,
                      attempt: Callable[[RollScope, int], R]) -> R:
        """One unit of work (no rule roll around it): ``attempt(unit, number)`` makes its
        moves into a fresh unit, which is then stored whole. The first try is made on this
        screen's state. If it lost a race (another screen stored first, or a refusal on a
        state that has changed since: the GM may have just moved), the trackers are put
        back and it is made again with the writer lock held, on the store's newest state
        (issue 47), where its refusal is final and its store cannot conflict. Anything
        else leaves the trackers as they were. The one loop every move, every
        multi-tracker move and every undo is stored by."""
        if not self.contended:
            try:
                return self._try_unit(member, attempt, 0, final=False)
            except _LostRace:
                self.lost_race()
        for number in range(1, _LOCKED_TRIES + 1):
            with self.holding_writer_lock():
                if member is not None:
                    self._check_member(member)
                try:
                    return self._try_unit(member, attempt, number, final=True)
                except _LostRace:
                    continue
        raise _kept_changing()

    def _try_unit(self, member: Member | None, attempt: Callable[[RollScope, int], R],
                  number: int, *, final: bool) -> R:
        """One try of a unit of work; raises ``_LostRace`` when another screen's write
        makes it worth another (a refusal then only when not ``final``)."""
        unit = RollScope("public", implicit=True)
        self._scope = unit
        try:
            result = attempt(unit, number)
        except CompanionError:
            self._scope = None
            self._restore(unit)
            if not final and self.store is not None and self.changed():
                raise _LostRace from None
            raise
        except BaseException:
            self._scope = None
            self._restore(unit)
            raise
        self._scope = None
        try:
            self._store_unit(unit)  # a conflict: trackers put back, refreshed
        except ConflictError:
            raise _LostRace from None
        return result

    def _judge_fresh(self, member: Member, name: str, arguments: dict[str, Any],
                     entered: Any) -> str:
        """``_judge_move``; a refusal on this
        screen's state is judged again on the store's, if newer (the GM may have just
        trusted players: one cheap read of the head)."""
        try:
            return self._judge_move(member, name, arguments, entered)
        except SeatError:
            if self._nested or self.store is None or not self.changed():
                raise
        self.refresh()
        self._check_member(member)
        return self._judge_move(member, name, arguments, entered)

    def _judge_move(self, member: Member, name: str, arguments: dict[str, Any],
                    entered: Any) -> str:
        """The seam's check of who may make a move, on the state as this screen has it
        (the store then checks the seat itself when the move is stored). Raises
        SeatError; returns the trust a player's entry relies on ("" for none), for the
        log's mark. A move another move makes (the fight's hit on a sheet) is part of
        that move, which the seat was allowed to make."""
        if self._nested:
            return ""
        if name in self._part.get(id(member.tracker), ()):
            return ""  # declared part of the seat's move on another tracker (judged there)
        refusal = self.may_move(member.tracker, name, arguments)
        if refusal is not None:
            raise SeatError(refusal)
        if self.role != "player":
            return ""
        marks = []
        if entered is not None:
            refusal = self.may_use_own_dice()
            if refusal is not None:
                raise SeatError(refusal)
            marks.append("own dice")
        if who_may(getattr(type(member.tracker), name, None)) == OWN_NUMBERS:
            marks.append("own numbers")  # may_move let it through: the GM trusts them
        return ", ".join(marks)

    def _dice_for(self, name: str, params: frozenset[str], arguments: dict[str, Any],
                  ) -> tuple[dict[str, Any], int | None, Any, bool]:
        """A random move's dice: its seed (drawn when none is given, so the log can say
        it), or the real dice entered. Returns the arguments to make the move with, the
        seed, the entered dice (tried afresh on each attempt) and whether the seed was
        chosen by the caller."""
        if "seed" not in params and "rng" not in params:
            return arguments, None, None, False
        arguments = dict(arguments)
        rng = arguments.pop("rng", None)
        seed = arguments.get("seed")
        if isinstance(seed, DrawnSeed):
            seed = None  # an app's seed drawn for want of one: the sitting's instead
            arguments.pop("seed", None)
        if type(seed) is int:
            check_seed(seed)
        scope = self._scope
        if rng is not None and entered_dice(rng) is not None:
            if "rng" not in params:
                raise OwnDiceError(f"{name} cannot be played with real dice")
            arguments.pop("seed", None)
            return arguments, None, rng, False
        # A seed the app passes that is the roll's own seed is the roll's (chosen only
        # if the roll's was); any other seed a caller passes was chosen by someone.
        chosen = seed is not None and not (scope is not None and scope.seed == seed
                                           and not scope.chosen)
        if chosen and self.role == "player":
            raise SeatError("in a campaign a player's dice choose themselves: only the GM "
                            "sets a seed")
        if seed is None and scope is not None and scope.rng is not None and rng is scope.rng:
            # The roll's own generator: the move rolls as the app rolls, and the log says
            # the roll's seed.
            if "rng" in params:
                arguments["rng"] = rng
            else:
                arguments["seed"] = scope.seed
            return arguments, scope.seed, None, scope.chosen
        if seed is None and rng is None and self.store is not None:
            return arguments, _DERIVED, None, False  # the sitting's (see record_move)
        if seed is None:
            seed = (rng or random.SystemRandom()).randrange(SEED_BOUND)
        return _with_seed(arguments, params, seed), seed, None, chosen

    def _move_in_unit(self, unit: RollScope, member: Member, name: str,
                      arguments: dict[str, Any], seed: int | None, entered: Any,
                      chosen: bool, perform: Callable[[dict[str, Any]], Any],
                      trusted: str = "", fair: dict[str, Any] | None = None) -> Any:
        """Make one move inside a unit of work; its event waits in ``unit.pending``."""
        tracker = member.tracker
        cls = type(tracker)
        hidden = not unit.implicit and unit.hidden
        trial = entered.copy() if entered is not None else None
        if trial is not None:
            arguments = {**arguments, "rng": trial}
        log_before = tuple(tracker.log)
        self._nested += 1
        try:
            result = perform(arguments)
        finally:
            self._nested -= 1
        logged = tracker.log[-1]
        before = logged.before  # the move's own snapshot of the state before it
        if member.id not in unit.before:  # (a refused move put itself back already)
            unit.before[member.id] = (before, log_before)
        unit.lines.append(logged.summary)
        if hidden:
            # Policy (companion.fairplay): no seed, no result in the shared log, nor in
            # the tracker's own history line; a roll's dice the tracker keeps are marked.
            fairplay.hide_move(tracker, before, unit.mode)
            logged = tracker.log[-1]
        data: dict[str, Any] = {"v": EVENT_FORMAT, "args": logged.args,
                                "summary": logged.summary,
                                "change": state_change(before, tracker.snapshot())}
        if cls.schema != 1:
            data["schema"] = cls.schema  # the version the change is a difference of
        if hidden:
            data["hidden"] = unit.mode
        if self._nested:
            # Made by another move of the unit (a fight's hit on a sheet): verify makes
            # the outer move again, which makes this one (companion.store.recompute).
            data["nested"] = True
        if trial is not None:
            data["physical"] = True
            if not hidden:
                data["faces"] = list(trial.faces[entered.used:trial.used])
            entered.used = trial.used
        rolled = trial is not None or seed is not None or not unit.implicit
        if rolled:
            data["rolled"] = True
        if chosen and seed is not None and not hidden:
            data["seed_chosen_by"] = self.who or self.role or "the database's holder"
        if fair is not None:
            data["fair"] = fair  # its roll number (a hidden one's seed is in no entry)
        owner = member.name if member.role == "party" else member.owner
        if self.role == "gm" and owner and not same_name(owner, self.who):
            data["by_gm_for"] = owner
        if trusted:
            data["trusted"] = trusted  # a player's entry the GM's trust allowed: marked
        unit.pending.append(NewEvent("move", tracker=member.id, move=name,
                                     seed=None if hidden else seed, data=data))
        unit.movers.append(member.id)
        return result

    def _store_unit(self, unit: RollScope, extra: Sequence[NewEvent] = ()) -> list[StoredEvent]:
        """Store a unit's events (and ``extra``) in one transaction; on any failure the
        trackers it moved are put back (a conflict refreshes, then re-raises)."""
        new = [*unit.pending, *extra]
        if not new:
            return []
        if len({e.tracker for e in unit.pending if e.kind == "move"}) > 1:
            # Over several trackers every move says whether another move made it (verify
            # makes only the outer ones again): a log without the word is an older one.
            for pending in unit.pending:
                if pending.kind == "move":
                    pending.data.setdefault("nested", False)
        if unit.news:  # the sitting news goes with the unit's first event
            first = new[0]
            new[0] = dataclasses.replace(first, data={**first.data, "sitting": unit.news})
        try:
            stored = self._append_all(new)
        except ConflictError:
            self._restore(unit)
            self.refresh()
            raise
        except BaseException:
            self._restore(unit)
            raise
        self.head = stored[-1].seq
        self.chain = event_hash(self.info.uid, stored[-1])
        group = stored[0].seq
        for event in stored:
            self._mark(event, group)
            self._follow_sitting(event)
        unit.before.clear()
        unit.pending.clear()
        unit.added.clear()
        for member_id in dict.fromkeys(unit.movers):
            self._older.forget(member_id)  # moved live: of today's version from now on
            member = self.members.get(member_id)
            if member is not None:
                _trim(member)
                self._notify(member.tracker)
        self._changed()
        self._after_append()
        return stored

    def _mark(self, event: StoredEvent, group: int) -> None:
        """Keep, beside a tracker's undo log, who made each of its moves (undo rules)."""
        member = self.members.get(str(event.tracker)) if event.tracker else None
        if member is None:
            return
        if event.kind == "move":
            rolled = bool(event.data.get("rolled")) or event.seed is not None
            member.marks.append(Mark(event.seq, event.who, event.role, rolled, group))
            _trim(member)
        elif event.kind == "undo" and member.marks:
            member.marks.pop()
        elif event.kind == "set":
            member.marks.clear()

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event:
        """The seam for undo: a seat takes back only its own newest move (the GM any),
        a player never a move that rolled; a move made with others in one step (the
        fight's hit on a sheet) is taken back with them."""
        with self._lock, self._quiet():
            member = self._member_of(tracker)
            self._check_member(member)
            if self.role == "spectator":
                raise SeatError(SPECTATOR_LINE)
            if self._scope is not None:  # part of a unit: stored with it
                return self._undo_in_unit(self._scope, member, perform)

            def attempt_undo(unit: RollScope, _number: int) -> Event:
                # Judged on each attempt's state: a refusal on a stale one is judged again
                # on the store's (another screen may have moved first).
                if not tracker.can_undo:
                    return perform()  # raises the rule's own "nothing to undo"
                rule = self._undo_rule(tracker)  # the game's rule: said as a rule
                if rule is not None:
                    raise RuleError(rule)
                refusal = self.may_undo(tracker)
                if refusal is not None:
                    raise SeatError(refusal)
                mark = member.marks[-1] if member.marks else None
                together = self._group_of(member, mark)
                event = self._undo_in_unit(unit, member, perform)
                for other in together:
                    other.tracker.undo()
                return event

            return self._unit_of_work(member, attempt_undo)

    def _undo_in_unit(self, unit: RollScope, member: Member,
                      perform: Callable[[], Event]) -> Event:
        tracker = member.tracker
        mark = member.marks[-1] if member.marks else None
        before = tracker.snapshot()
        if member.id not in unit.before:
            unit.before[member.id] = (before, tuple(tracker.log))
        summary = tracker.log[-1].summary if tracker.log else ""
        event = perform()
        data: dict[str, Any] = {"v": EVENT_FORMAT, "summary": summary,
                                "change": state_change(before, tracker.snapshot())}
        if type(tracker).schema != 1:
            data["schema"] = type(tracker).schema
        if mark is not None:
            data["undoes"] = mark.seq
            if mark.rolled:
                data["rolled"] = True
                data["summary"] = f"taken back by the GM: {summary}"
        unit.pending.append(NewEvent("undo", tracker=member.id, data=data))
        unit.movers.append(member.id)
        return event

    def _group_of(self, member: Member, mark: Mark | None) -> list[Member]:
        """The other members whose newest move was made in the same step as ``mark``
        (refused, naming who moved since, when one of them has moved again)."""
        if mark is None:
            return []
        others = [m for m in self.members.values() if m is not member
                  and any(k.step == mark.step for k in m.marks)]
        for other in others:
            if other.marks[-1].step != mark.step:
                since = other.marks[-1].who or "someone"
                raise SeatError(f"cannot undo: {since} has moved {other.name} since (undo "
                                "that first)")
        return others

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        """The seam for loading a whole save into a tracker: stored as a ``set`` event."""
        with self._lock, self._quiet():
            member = self._member_of(tracker)
            self._check_member(member)
            refusal = self._may_change(member, "load a saved state into")
            if refusal is not None:
                raise SeatError(refusal)
            cls = type(tracker)
            save = cls.from_json(text).to_dict()
            save["log"] = save["log"][-UNDO_LIMIT:]
            self._persist_then_apply(
                lambda: NewEvent("set", tracker=member.id, data={"save": save}))

    # -- who may do what (the seam's check) ------------------------------------------------

    @property
    def seat_role(self) -> str:
        """This screen's role: ``gm``, ``player``, ``spectator``, or ``""`` (the
        database's holder: the command line and the Python API, unrestricted)."""
        return self.role

    def _owner(self, member: Member) -> str:
        return member.name if member.role == "party" else member.owner

    def _may_change(self, member: Member, what: str) -> str | None:
        """Whether this seat may change ``member`` as a whole (load, replace, remove)."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        owner = self._owner(member)
        if owner and same_name(owner, self.who):
            # A whole state loaded is every number at once: the GM's trust decides.
            if not self.trust.own_numbers:
                return (f"only the GM may {what} {member.name} at this table (the GM can "
                        "let players edit their own numbers: table trust)")
            return None
        whose = f"{owner} and the GM" if owner else "the GM"
        return f"only {whose} may {what} {member.name}"

    def _may_roll(self, chosen_seed: int | None) -> None:
        """Anyone seated rolls; a spectator does not; only the GM chooses a seed."""
        if self.role == "spectator":
            raise SeatError(SPECTATOR_LINE)
        if chosen_seed is not None and self.role == "player":
            raise SeatError("in a campaign a player's dice choose themselves: only the GM "
                            "sets a seed")

    def _may_add(self, name: str, role: str, owner: str) -> None:
        """A player adds their own character and its records, and a shared tracker an app
        opens (an empty fight or minigame: every move in it is still checked); the GM all.

        Interpretation: opening the fight app before the GM has made the fight makes the
        campaign's (empty) fight; who may act in it is decided move by move."""
        if self.role in ("", "gm"):
            return
        if self.role == "spectator":
            raise SeatError(SPECTATOR_LINE)
        mine = (role == "party" and same_name(name, self.who)) or (
            role == "record" and same_name(owner, self.who))
        if not (mine or role in ("minigame", "encounter")):
            raise SeatError(f"only the GM may add {name} to the campaign")

    def may_move(self, tracker: Tracker, name: str, arguments: dict[str, Any]) -> str | None:
        """``None`` if this seat may make the move ``name`` on ``tracker``, else the
        one-line reason (the apps show only what a seat may do)."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        member = self._member_of(tracker)
        owner = self._owner(member)
        # One rule for the seam and the apps (companion.store.permissions).
        return move_refusal(role=self.role, who=self.who,
                            declared=who_may(getattr(type(tracker), name, None)),
                            owner=owner,
                            actors=None if owner else tracker.acting_for(name, arguments),
                            trust=self.trust, move=name, tracker=member.name)

    def may_edit_numbers(self, id_or_name: str) -> str | None:
        """``None`` if this seat may edit the numbers of the member ``id_or_name`` (its
        maxima, armour, level: the moves declared ``OWN_NUMBERS``), else why not: the
        GM's, or its owner's when the table trusts players with their own numbers."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        member = self.member(id_or_name)
        return move_refusal(role=self.role, who=self.who, declared=OWN_NUMBERS,
                            owner=self._owner(member), actors=None, trust=self.trust,
                            move="edit numbers", tracker=member.name)

    def may_use_own_dice(self) -> str | None:
        """``None`` if this seat may enter their own (physical) dice for the saves and
        checks of tracker moves, else why not (a player: only when the GM trusts them)."""
        if self.role == "spectator":
            return SPECTATOR_LINE
        if self.role == "player" and not self.trust.own_dice:
            return OWN_DICE_LINE
        return None

    def _undo_rule(self, tracker: Tracker) -> str | None:
        """The tracker's own undo rule for this seat (the holder asks as the GM)."""
        if not tracker.can_undo:
            return None  # nothing to undo: the rule's own refusal says so
        return tracker.undo_refusal("gm" if self.role in ("", "gm") else self.role)

    def may_undo(self, tracker: Tracker) -> str | None:
        """``None`` if this seat may take back ``tracker``'s newest move, else why not: the
        tracker's own rule first ([Tracker.undo_refusal][companion.state.Tracker.undo_refusal]:
        a game with hidden information keeps a reveal; the holder asks as the GM), then
        the seam's (a seat its own newest move, a player never a roll)."""
        if self.role == "spectator":
            return SPECTATOR_LINE
        own = self._undo_rule(tracker)
        if own is not None:
            return own
        if self.role in ("", "gm"):
            return None
        member = self._member_of(tracker)
        if not member.marks:
            return None  # nothing to undo: the rule's own refusal says so
        mark = member.marks[-1]
        if not same_name(mark.who, self.who) or mark.role != self.role:
            since = "the GM" if mark.role == "gm" else (mark.who or "someone")
            return f"cannot undo: {since} moved {member.name} since your move; only the GM may"
        if mark.rolled:
            return "a roll cannot be unmade to be rolled again: only the GM may take it back"
        return None

    # -- export and import ---------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole campaign as one JSON document (every event with its chain; no
        snapshot): ``campaign`` is its identity, ``chain`` the hash of its newest event
        (both checked against the events first)."""
        events = self.checked_log()[:self.head]
        return {"format": DOCUMENT_FORMAT, "version": DOCUMENT_VERSION, "name": self.name,
                "rulesets": list(self.rulesets), "created": self.info.created,
                "campaign": self.info.uid, "chain": self.chain,
                "events": [e.to_dict() for e in events]}

    @classmethod
    def import_document(cls, store: Store, doc: Any, name: str | None = None, *,
                        unchained: bool = False) -> Campaign:
        """Create a campaign from [export][companion.store.campaign.Campaign.export]'s
        document (under ``name`` if given), after judging it as ``verify`` does
        ([judge_export][companion.store.judge.judge_export]) and replaying every event to
        check it. A document of an older version, with no chain (1 or 2), only with
        ``unchained`` (it gets a chain, under a new identity)."""
        from companion.store.judge import judge_export

        judged = judge_export(doc, lambda: doc["events"], unchained=unchained, keep=True)
        header, events = judged.header, judged.events
        new_name = store.check_name(name if name is not None else header["name"])
        if store.find_campaign(new_name) is not None:
            raise NameTakenError(f"a campaign named {new_name!r} already exists: "
                                 "import it under another name")
        uid = header["campaign"]
        if any(needs_upcast(e) for e in events):
            events = upcast(events, new_name)  # an older document: its moves made facts
        if not uid:  # an older document has no chain: it gets one, under a new identity
            from companion.store.chain import new_campaign_id

            uid = new_campaign_id()
            events = chain_events(uid, events)
        scratch = cls(None, CampaignInfo(0, new_name, tuple(header["rulesets"]),
                                         header["created"], 0, uid))
        for event in events:
            scratch._apply(event)
            member = scratch.members.get(str(event.tracker)) if event.tracker else None
            if member is None:
                continue
            try:  # every step's facts must add up to a state the rules allow, as a live
                # move's do (not only the last: a state passed through is a fact too)
                member.tracker.validate()
            except CompanionError as exc:
                raise StoreError(f"campaign file: event {event.seq} leaves {member.name} in "
                                 f"a state the rules do not allow: {exc}") from None
        info = store.import_campaign(new_name, header["rulesets"], header["created"],
                                     [NewEvent(e.kind, e.who, e.role, e.tracker, e.move,
                                               e.seed, e.data, e.at) for e in events], uid)
        if info.chain != scratch.chain:  # the store chained exactly what was checked
            store.delete_campaign(new_name)
            raise StoreError("campaign file: the imported log's chain came out different "
                             "from the file's; nothing was imported")
        return cls.open(store, new_name)  # which snapshots a long log

    def apply_imported(self, event: StoredEvent) -> None:
        """Apply the next event of a log being imported to this scratch campaign (no
        store) and judge the state it leaves, as
        [import_document][companion.store.campaign.Campaign.import_document] does; used
        by the streamed import ([companion.store.stream_import][])."""
        self._apply(event)
        member = self.members.get(str(event.tracker)) if event.tracker else None
        if member is not None:
            try:
                member.tracker.validate()
            except CompanionError as exc:
                raise StoreError(f"campaign file: event {event.seq} leaves {member.name} "
                                 f"in a state the rules do not allow: {exc}") from None


def create(store: Store, name: str, ruleset_names: Sequence[str], *, who: str = "",
           role: str = "") -> Campaign:
    """Create a campaign playing ``ruleset_names`` and open it."""
    for ruleset in ruleset_names:
        rulesets.get(ruleset)
    store.create_campaign(name, list(dict.fromkeys(ruleset_names)))
    campaign = Campaign.open(store, name, who=who, role=role)
    if who and role in ("gm", ""):  # the creator's GM seat (issue 19, store/seats.py)
        from companion.store.seats import seat_creator

        seat_creator(store, campaign, who)
    return campaign

