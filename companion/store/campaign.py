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

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from companion import rulesets
from companion.errors import CompanionError
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
from companion.state import Tracker
from companion.store._campaign.core import (
    ROLES,
    SPECTATOR_LINE,
    TRACKER_ROLES,
    TRUST_ID,
    UNDO_LIMIT,
    Mark,
    Member,
    RollScope,
    unknown_marks,
)
from companion.store._campaign.core import locked as _locked
from companion.store._campaign.replay import SNAPSHOT_EVERY, snapshot_digest
from companion.store._campaign.roll_log import RollLog
from companion.store._campaign.seam import Seam
from companion.store._campaign.unit_of_work import CONTENDED_SECONDS
from companion.store.act_stamps import (
    ACT_STAMP,
    ActGuard,
    ActNumberTaken,
    ActStoredAlready,
    act_digest,
)
from companion.store.document import DOCUMENT_FORMAT, DOCUMENT_VERSION, check_member_name
from companion.store.permissions import SeatError, TableTrust
from companion.store.records import CampaignInfo, NameTakenError, NewEvent, StoredEvent, StoreError
from companion.store.registry import TABLE, kind_key
from companion.store.upcast import (
    MEMBER_FORMAT,
    chain_events,
    needs_upcast,
    record_owner_by_name,
    upcast,
)

if TYPE_CHECKING:
    from companion.store.port import Store

# The campaign's parts live in companion/store/_campaign/ (package-private); what this
# module always offered is offered here still.
__all__ = [
    "ACT_STAMP",
    "CONTENDED_SECONDS",
    "EVENT_KINDS",
    "ROLES",
    "SNAPSHOT_EVERY",
    "SPECTATOR_LINE",
    "TRACKER_ROLES",
    "TRUST_ID",
    "TRUST_NAME",
    "UNDO_LIMIT",
    "ActGuard",
    "ActNumberTaken",
    "ActStoredAlready",
    "Campaign",
    "Mark",
    "Member",
    "RollScope",
    "SeatError",
    "act_digest",
    "create",
    "snapshot_digest",
]

T = TypeVar("T", bound=Tracker)

#: The name of the table's trust settings in a campaign (made by the GM's first
#: [set_trust][companion.store.campaign.Campaign.set_trust]; its id is ``TRUST_ID``).
TRUST_NAME = "Table trust"

#: The kinds of event in a campaign's log.
EVENT_KINDS = ("add", "move", "undo", "set", "remove", "roll", "reveal", "sitting")


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40]
    return slug or "tracker"


class Campaign(Seam, RollLog):
    """A campaign's live state over a [Store][companion.store.port.Store] (any backend).

    ``who`` and ``role`` ("gm" or "player") are written into every event this object
    appends. Observers (``on_change``) fire when members are added or removed, a roll is
    made, or [refresh][companion.store.campaign.Campaign.refresh] applies others' events;
    each tracker's own observers fire on its moves as usual.

    Composed of its parts (``companion/store/_campaign/``, each one responsibility, each
    building only on those below it): the state they share, the seat and the notices
    (``core``); the state rebuilt from stored facts (``replay``); the seat's permissions
    (``permission_checks``); units of work and their retry (``unit_of_work``); the seam
    every tracker's moves reach (``seam``); the roll log (``roll_log``). Here: the members
    added, adopted, replaced and removed, the table's trust, the sittings, and export and
    import.
    """

    def __init__(self, store: Store | None, info: CampaignInfo, *, who: str = "",
                 role: str = "") -> None:
        super().__init__(store, info, who=who, role=role)
        #: The campaign's sitting as its log has it ([companion.sittings][]).
        self.sitting = SittingState()
        self._client_seed: str | None = None
        self._client_for = 0  # the sitting this screen's client seed was drawn for
        #: The server seed the next sitting opens with, drawn once: a roll made again
        #: (another screen moved first, a refusal) gets the same seed, not a new draw.
        self._next_server_seed: str | None = None
        #: The server seeds the store keeps apart that this screen has read or drawn (the
        #: open sitting's, the one committed for the next; issue 49: never in the log, the
        #: campaign's state or a snapshot), by their published hash.
        self._kept_seeds: dict[str, str] = {}

    # -- changing ------------------------------------------------------------------------

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
        member.marks = unknown_marks(len(tracker.log), len(self.members) * UNDO_LIMIT)
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
        if seat in state.pending:  # set for the next sitting (an open one's are fixed)
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
            # The next sitting's server seed is committed first, in the same entry, if it
            # is not yet (issue 49): it exists before any client seed for it is public.
            news = state.offer(seat, chosen, new_server_seed())
            self._memo_secrets(news)
            return NewEvent("sitting", data={"sitting": news})

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
        if not self.sitting.open and self.sitting.committed:
            # The seed committed for the next sitting, as the store keeps it (``None``: not
            # in this database; the opening then withdraws it, companion.sittings).
            server = self._kept(self.sitting.committed)
        elif not self.sitting.open:
            if self._next_server_seed is None:
                self._next_server_seed = new_server_seed()
            server = self._next_server_seed
        else:
            server = self.sitting.server_seed or self._open_sitting_seed()
        # The seed a commitment in this news would bind the next sitting to (drawn here,
        # as every server seed this screen draws).
        return self.sitting.news(seat, self.client_seed, server, new_server_seed())

    def _open_sitting_seed(self) -> str | None:
        """The open sitting's server seed as the store keeps it apart from the log (issue
        49), read once per sitting; ``None`` when this database does not hold it (a
        campaign imported with its sitting open)."""
        return self._kept(self.sitting.hash)

    def _kept(self, digest: str) -> str | None:
        """The server seed the store keeps apart under ``digest`` (an open sitting's, or
        the one committed for the next), if it hashes to it."""
        if digest in self._kept_seeds:
            return self._kept_seeds[digest]
        if self.store is None:
            return None
        seed = self.store.sitting_secret(self.info.id, digest)
        if seed is not None and server_hash(seed) == digest:
            self._kept_seeds[digest] = seed
            return seed
        return None

    def _memo_secrets(self, news: dict[str, Any]) -> None:
        secret = news.get("secret")
        if isinstance(secret, dict):
            for seed in secret.values():
                if isinstance(seed, str):
                    self._kept_seeds[server_hash(seed)] = seed

    def _fair_seed(self, scope: RollScope) -> tuple[int, dict[str, Any]]:
        """The next roll number's seed in ``scope`` (the unit it is stored with) and its
        record; the unit's first takes the sitting's news with it."""
        if scope.sitting is None:
            scope.sitting, scope.news = self._news()
            if scope.news:
                # The seeds the store will keep if the news is stored (a memo by their
                # hash: an opening or commitment not stored is never the campaign's).
                self._memo_secrets(scope.news)
        n = scope.sitting.rolls + scope.fair_used + 1
        scope.fair_used += 1
        return scope.sitting.seed(n), scope.sitting.tag(n)

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
            # Every step's facts must add up to a state the rules allow, as a live move's
            # do (not only the last: a state passed through is a fact too).
            scratch.apply_imported(event)
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

