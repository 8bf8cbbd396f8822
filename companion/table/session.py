"""A table session: a campaign opened as one seat, and the one way a face acts (issue 28).

A [Session][companion.table.session.Session] is what a face (a page's widgets, the command
line, a script) holds instead of a bare campaign. It is opened as one seat and keeps that
seat for its whole life: ``who`` and ``role`` are read-only, and the campaign under it is
pinned ([Campaign.pin_seat][companion.store.campaign.Campaign.pin_seat]), so no face can
rewrite who is acting. A seat proven by a secret or a hub login keeps its proof
(``seat_key``), which the store reads again in the transaction of every write: a seat
revoked a moment ago stores nothing, and the session then watches (``gone`` says why).

Every move, undo and load goes through it:

- [act][companion.table.session.Session.act] makes a tracker's move by name. The session
  draws the seed (a caller never passes one); real dice are entered with ``own_dice=``
  and only where the GM's table trust allows (the log marks them as the player's own).
- Every seed drawn here is provably fair (issue 32, [companion.sittings][]): the
  sitting's next, derived from its committed server seed and the seats' client seeds
  ([client_seed][companion.table.session.Session.client_seed],
  [set_client_seed][companion.table.session.Session.set_client_seed]); the GM closes the
  sitting with [close_sitting][companion.table.session.Session.close_sitting].
- [undo][companion.table.session.Session.undo], [load][companion.table.session.Session.load].
- [roll][companion.table.session.Session.roll] rolls a dice expression for the roll log;
  [rule_roll][companion.table.session.Session.rule_roll] rolls a declared rule (a check,
  a contest: named, with JSON arguments) and every rolled act
  ([perform][companion.table.session.Session.perform]: a tracker's move, a table move)
  runs as one unit of work: its tracker moves and its roll entry are stored together or
  not at all, and when another screen moved first the same dice are played again on the
  fresh state. No face hands the session a function (issue 43).
- [log][companion.table.session.Session.log] is the campaign's log as this seat may see
  it: a player's session never hands out another seat's hidden roll, hole die or table
  seed ([visible_to][companion.fairplay.visible_to]); nothing relies on the caller to
  filter.

Who may make each move is decided by the campaign's seam on every act (the move's
declaration, the tracker's owner, the table's trust; see
[companion.store.permissions][]); the session adds no second rule and has no way around
it.

- Interpretation: a seat given in code (no secret, no hub login: the command line, a
  test, the serverless apps' device holder) is taken at its word, as the campaign takes it.
- Interpretation: ``own_dice`` are the faces as rolled, in the order the rule rolls them; a
  roll that needs more, or gets more than it uses, stores nothing.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import random
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from companion import fairplay
from companion.dice.physical import EnteredDice, OwnDiceError
from companion.dice.roller import SEED_BOUND, DrawnSeed, SeededRandom
from companion.errors import CompanionError
from companion.fairplay import LoggedRoll
from companion.state import Event, Tracker, is_move, jsonable
from companion.store.campaign import (
    ACT_STAMP,
    SPECTATOR_LINE,
    ActStoredAlready,
    Campaign,
    Member,
    act_digest,
)
from companion.store.permissions import SEAT_GONE_LINE, SeatError, SeatKey, same_name, seat_gone
from companion.store.port import UNSAVED_WHERE
from companion.store.records import ConflictError, StoredEvent, StoreError
from companion.store.registry import decode_args, kind_key, move_parameters, move_signature
from companion.table import views
from companion.table.acts import (
    TABLE_MOVES,
    Accepted,
    Act,
    ActError,
    Outcome,
    Refused,
    RollSpec,
)

if TYPE_CHECKING:
    from companion.rule_rolls import RuleCall
    from companion.sittings import SittingState
    from companion.store.permissions import TableTrust
    from companion.store.port import Store
    from companion.store.seats import SeatInfo

__all__ = ["ROLL_ATTEMPTS", "Keeper", "ReadOnlyError", "RuleRoll", "Seen", "Session",
           "mirror_save", "shared_session"]

T = TypeVar("T")
K = TypeVar("K", bound=Tracker)

#: Tries of a rule roll: the first on this screen's state, the others with the campaign's
#: writer lock held (issue 47), where no other screen stores first: one of those is
#: enough, the rest guard against a defect.
ROLL_ATTEMPTS = 9

#: Sessions by the campaign object they pinned (a seat's one session in this process, for
#: shared_session; a second session of one campaign object is refused).
_SESSIONS: weakref.WeakKeyDictionary[Campaign, Session] = weakref.WeakKeyDictionary()


@dataclass(frozen=True, eq=False)
class Seen:
    """A member of the campaign as a face reads it (issue 43): its id, shown name, role,
    kind (``key``, and its tracker class ``kind``), owner (a record's) and the number of
    its moves, and no live tracker. What the seat may read of the tracker is
    ``seen``, a read-only view
    ([Session.read][companion.table.session.Session.read]: what
    [visible_save][companion.table.views.visible_save] leaves this seat); a face that acts
    on it asks [Session.view][companion.table.session.Session.view] for the seat's view."""

    id: str
    name: str
    role: str
    key: str
    owner: str
    #: The tracker's class: what a loop that picks members by kind needs (no copy made).
    kind: type[Tracker]
    moves: int
    _session: Session = field(repr=False)

    @functools.cached_property
    def seen(self) -> Tracker:
        """The member's tracker as this seat may read it, read-only (made on first read,
        the state as it was then; list the members again for a later one)."""
        return self._session.read(self.id)

    def to_dict(self, *, state: bool = True) -> dict[str, Any]:
        """What the campaign's ``Member.to_dict`` says, from the seat's
        view (``state``: the read-only view's)."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "role": self.role,
                               "kind": self.key, "moves": self.moves}
        if self.owner:
            out["owner"] = self.owner
        if state:
            out["state"] = self.seen.snapshot()
        return out


@dataclass(frozen=True)
class RuleRoll(Generic[T]):
    """A rule roll made through [Session.rule_roll][companion.table.session.Session.rule_roll].

    ``value`` is what the rule returned, only when this seat may see it (``None``
    otherwise); ``seed`` likewise (``None`` for real dice); ``text`` the result line logged
    (``None`` when hidden from this seat); ``entry`` and ``commitment`` are the roll
    log's (``None`` without a campaign; no commitment for a public roll)."""

    mode: str
    value: T | None
    seed: int | None
    physical: bool
    entry: int | None = None
    commitment: str | None = None
    text: str | None = None
    visible: bool = True

    @property
    def shown(self) -> bool:
        """Whether this seat may see the result."""
        return self.visible


class ReadOnlyError(SeatError):
    """A move made on a read-only view of a tracker
    ([Session.read][companion.table.session.Session.read])."""


#: What a read-only view answers a move with.
READ_ONLY_LINE = "this is a read-only view of the tracker: act through the session"


def _draw_seed() -> int:
    """A fresh seed for a roll, from the system's entropy (never a caller's choice)."""
    return random.SystemRandom().randrange(SEED_BOUND)


class Session:
    """A campaign opened as one fixed seat; see the module's docstring.

    Open one with [open][companion.table.session.Session.open],
    [by_secret][companion.table.session.Session.by_secret],
    [unsaved][companion.table.session.Session.unsaved] or
    [shared_session][companion.table.session.shared_session]. A face holds the session
    and nothing under it (issue 43): what it reads (the party, the records, the log, the
    trust, the sitting, change notices) it reads here."""

    def __init__(self, campaign: Campaign) -> None:
        if campaign.pinned and campaign in _SESSIONS:
            raise SeatError("this campaign object is already another session's: hand "
                            "that session on instead")
        campaign.pin_seat()
        self._campaign = campaign
        self._who = campaign.who
        self._role = campaign.role
        _SESSIONS[campaign] = self
        #: What this session's trackers hand their moves to (see ``keeper``).
        self._keeper = Keeper(self, campaign)
        campaign.keep_with(self._keeper)

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, store: Store, name: str, *, who: str = "", role: str = "",
             seat_key: SeatKey | None = None) -> Session:
        """Open campaign ``name`` as the seat ``who`` (``role``). With ``seat_key`` (how the
        seat was proven) the store checks the seat again on every write."""
        if seat_key is not None and (seat_key.role != role or seat_key.who != who):
            raise SeatError(f"the seat proven is {seat_key.who} ({seat_key.role}), not "
                            f"{who or 'nobody'} ({role or 'the holder'})")
        campaign = Campaign.open(store, name, who=who, role=role)
        campaign.seat_key = seat_key
        return cls(campaign)

    @classmethod
    def by_secret(cls, store: Store, name: str, secret: str) -> Session:
        """Open campaign ``name`` as the seat ``secret`` opens; a secret that opens no seat
        (forged, revoked, another campaign's) opens a spectator's session."""
        from companion.store.seats import seat_for_secret, seat_key

        seat = seat_for_secret(store, name, secret)
        if seat is None:
            return cls.open(store, name, role="spectator")
        return cls.open(store, name, who=seat.who, role=seat.role,
                        seat_key=seat_key(seat, secret))

    @classmethod
    def unsaved(cls, trackers: Sequence[Tracker] = ()) -> Session:
        """A session of a new campaign in an
        [unsaved_store][companion.store.opening.unsaved_store] holding ``trackers`` (these
        very objects: [Campaign.adopt][companion.store.campaign.Campaign.adopt]), opened
        as the holder: what an app opened without a campaign acts through, so it takes
        the one path (every move, undo, load and rule roll through the seam and its unit
        of work) and keeps nothing. It plays every ruleset (a tracker of any may join)."""
        from companion.rulesets import all_rulesets
        from companion.store.opening import unsaved_campaign

        session = cls(unsaved_campaign([r.name for r in all_rulesets()]))
        for tracker in trackers:
            session.adopt(tracker)
        return session

    @classmethod
    def holding(cls, tracker: Tracker) -> Session | None:
        """The session that holds ``tracker``: its keeper's
        ([keeper][companion.table.session.Session.keeper]). A tracker of a campaign
        opened in code with no session yet (the holder's script, a test) gets its session
        now, its seat fixed from then on. ``None``: a tracker in no campaign (one a form
        drafts, one a test drives alone) or a seat's mirror, which acts through its own
        session already."""
        keeper = tracker.recorder
        if isinstance(keeper, Keeper):
            return keeper.session
        if isinstance(keeper, Campaign):  # kept by its campaign alone: opened in code
            found = _SESSIONS.get(keeper)
            return found if found is not None else cls(keeper)
        return None

    @property
    def keeper(self) -> Keeper:
        """The keeper every tracker of this session hands its moves, undo and load to
        ([Tracker.recorder][companion.state.Tracker.recorder]): it hands each to the
        campaign's seam. A face that holds a tracker finds its session here
        (``keeper.session``), never under it."""
        return self._keeper

    @property
    def kept(self) -> bool:
        """Whether this session's moves are kept (False: an unsaved app's, gone with the
        page; nobody else sees them, so hiding a roll means nothing there)."""
        store = self._campaign.store
        return store is not None and store.where != UNSAVED_WHERE

    def adopt(self, tracker: K, name: str = "") -> K:
        """Bring ``tracker`` (not kept anywhere yet) to this unsaved session's table as
        itself, under ``name`` (default: its own name, else its kind); a tracker already
        here is returned as it is. Only an unsaved session adopts: a kept campaign's
        members are added by the GM ([add][companion.table.session.Session.add])."""
        if tracker.recorder is self._keeper:
            return tracker
        if self.kept:
            raise StoreError("only an unsaved session adopts a tracker: add it instead")
        own = getattr(tracker, "name", "")
        base = " ".join((name or (own if isinstance(own, str) else "")
                         or type(tracker).saved_kind()).split())[:60] or "tracker"
        taken = {m.name.casefold() for m in self._campaign}
        chosen, n = base, 2
        while chosen.casefold() in taken:
            chosen, n = f"{base} {n}", n + 1
        return self._campaign.adopt(chosen, tracker, role="minigame")

    # -- the seat (read-only) ------------------------------------------------------------

    @property
    def who(self) -> str:
        """The seat's name (fixed for the session's life)."""
        return self._who

    @property
    def role(self) -> str:
        """The seat's role: ``gm``, ``player``, ``spectator`` or ``""`` (the holder)."""
        return self._role

    @property
    def gone(self) -> str | None:
        """Why this session's seat no longer acts (revoked or renewed elsewhere), or
        ``None`` while it holds."""
        if self._role != "spectator" and self._campaign.role == "spectator":
            return SEAT_GONE_LINE
        return None

    @property
    def name(self) -> str:
        return self._campaign.name

    def renew(self, key: SeatKey) -> None:
        """The same seat proven anew (the GM gave their own seat a new link)."""
        self._campaign.seat_key = key

    def lose_seat(self) -> None:
        """The page learnt its seat is gone (revoked elsewhere): watch from now on."""
        self._campaign.lose_seat()

    def __repr__(self) -> str:
        return f"<Session {self.name!r} as {self._who or '-'} ({self._role or 'holder'})>"

    # -- reading -------------------------------------------------------------------------

    @overload
    def tracker(self, id_or_name: str) -> Tracker: ...

    @overload
    def tracker(self, id_or_name: str, cls: type[K]) -> K: ...

    def tracker(self, id_or_name: str, cls: type[Tracker] = Tracker) -> Tracker:
        """A member's tracker as this seat may read it
        ([view][companion.table.session.Session.view]: the live tracker for the GM, a
        mirror without other seats' hidden values for a player); moves made on it reach
        the same seam."""
        return self.view(id_or_name, cls)

    def log(self, kinds: Sequence[str] = ()) -> list[StoredEvent]:
        """The campaign's log as this seat may see it: for a player or a spectator no
        hidden roll's secret, no other seat's hole dice, table seed or unrevealed choice."""
        role = "gm" if self._campaign.role in ("gm", "") else self._campaign.role
        return self._campaign.visible_to(self._campaign.who, role, kinds)

    def may_move(self, tracker: Tracker | str, move: str,
                 arguments: dict[str, Any] | None = None) -> str | None:
        """Why this seat may not make ``move`` on ``tracker`` now, or ``None`` (what a
        face shows; the seam decides again when the move is made). ``arguments``: the
        move's, where they say whose action it is (a shared tracker's pick)."""
        return self._campaign.may_move(self._resolve(tracker), move, dict(arguments or {}))

    def may_edit_numbers(self, key: str, shown: str = "") -> str | None:
        """Why this seat may not edit the numbers of the party entry ``key`` (shown as
        ``shown``), or ``None``: the GM's, or its owner's when the table trusts players
        with their own numbers. An entry that is not a tracker of its own (a player of a
        shared session, named ``shown``) is the player's of that name."""
        campaign = self._campaign
        try:
            campaign.member(key)
        except CompanionError:
            if campaign.role in ("", "gm"):
                return None
            if campaign.role == "player" and same_name(shown, campaign.who) \
                    and campaign.trust.own_numbers:
                return None
            return f"only the GM may edit {shown or key}'s numbers at this table"
        return campaign.may_edit_numbers(key)

    def may_use_own_dice(self) -> str | None:
        """Why this seat may not enter its own dice, or ``None``."""
        return self._campaign.may_use_own_dice()

    # -- what this seat may do, asked before a tap (issue 43: a face judges no role) -----

    @property
    def is_gm(self) -> bool:
        """Whether this session acts as the campaign's GM now (not the holder of a
        campaign opened in code, and no longer once the seat is
        [gone][companion.table.session.Session.gone])."""
        return self._campaign.role == "gm"

    @property
    def sees_all(self) -> bool:
        """Whether this seat reads every tracker whole (the GM, the holder): no seat
        view is projected for it ([sees_all][companion.table.views.sees_all])."""
        return views.sees_all(self._campaign.role)

    @property
    def watching(self) -> bool:
        """Whether this session only watches (a spectator's, or a seat now gone)."""
        return self._campaign.role == "spectator"

    def may_roll(self) -> str | None:
        """Why this seat may not roll (nor set its client seed), or ``None``: anyone
        seated rolls, a spectator does not."""
        return (self.gone or SPECTATOR_LINE) if self.watching else None

    def may_choose_seed(self) -> str | None:
        """Why this seat may not type the seed a roll takes, or ``None``: the GM's and the
        holder's choice alone (a player's dice choose themselves)."""
        if self.sees_all:
            return None
        return ("in a campaign a player's dice choose themselves: only the GM sets a seed"
                if not self.watching else self.gone or SPECTATOR_LINE)

    def may_close_sitting(self) -> str | None:
        """Why this seat may not close the sitting, or ``None`` (the GM, the holder)."""
        return None if self.sees_all else "only the GM closes a sitting"

    def may_remove_members(self) -> str | None:
        """Why this seat may not take a member out of the campaign, or ``None``: the GM's
        (and the holder's) hand alone (issue 19)."""
        if self.sees_all:
            return None
        return ((self.gone or SPECTATOR_LINE) if self.watching
                else "only the GM takes a member out of the campaign")

    def may_add_others(self) -> str | None:
        """Why this seat may not add a party member of another name, or ``None``: the GM
        and the holder add anyone; a player their own character only."""
        if self.sees_all:
            return None
        return ((self.gone or SPECTATOR_LINE) if self.watching
                else "a player adds their own character only")

    def may_reveal(self, event: dict[str, Any]) -> str | None:
        """Why this seat may not reveal the hidden roll ``event`` (a logged roll as
        [log][companion.table.session.Session.log] hands it, ``to_dict``), or ``None``:
        the GM any, a player their own ``self`` roll (the store judges again on
        [reveal][companion.table.session.Session.reveal])."""
        if self.is_gm:
            return None
        data = event.get("data") or {}
        if data.get("mode") == "self" and self.who and same_name(str(event.get("who", "")),
                                                                 self.who):
            return None
        return "only the GM reveals this roll"

    def refresh(self) -> bool:
        """Apply other screens' moves; True if there were any."""
        return self._campaign.refresh()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for another screen's move, then apply it."""
        return self._campaign.wait(timeout)

    # -- what a face reads of the table (issue 43: the session is all a face holds) -----

    @property
    def seat_role(self) -> str:
        """The role this session acts in now: its ``role`` while its seat holds,
        ``spectator`` once it is [gone][companion.table.session.Session.gone]."""
        return self._campaign.role

    @property
    def seat_key(self) -> SeatKey | None:
        """How this session's seat was proven (``None``: a seat given in code)."""
        return self._campaign.seat_key

    @property
    def rulesets(self) -> tuple[str, ...]:
        """The rulesets the campaign plays."""
        return self._campaign.rulesets

    @property
    def head(self) -> int:
        """The number of the newest event this session holds."""
        return self._campaign.head

    @property
    def chain(self) -> str:
        """The hash chaining the log up to [head][companion.table.session.Session.head]."""
        return self._campaign.chain

    @property
    def trust(self) -> TableTrust:
        """The table's trust (real dice, the players' own numbers)."""
        return self._campaign.trust

    @property
    def sitting(self) -> SittingState:
        """The campaign's sitting as it stands (open or closed, its number)."""
        return self._campaign.sitting

    @property
    def lock(self) -> contextlib.AbstractContextManager[Any]:
        """The campaign's re-entrant lock, for a face that both a page's message and the
        live watcher reach ([Campaign.lock][companion.store.campaign.Campaign.lock])."""
        return self._campaign.lock

    @property
    def watched(self) -> bool:
        """Whether other processes may write this campaign (a face then follows their
        moves with [wait_for_change][companion.table.session.Session.wait_for_change]);
        False for a store only this process writes (memory, the browser's)."""
        store = self._campaign.store
        return store is None or store.shared

    def members(self) -> list[Seen]:
        """The campaign's members (the party, the records, the minigames) as this seat
        reads them: [Seen][companion.table.session.Seen], no live tracker (issue 43)."""
        return [self._seen(m) for m in self._campaign]

    def party(self) -> list[Seen]:
        """The campaign's party members, as this seat reads them."""
        return [self._seen(m) for m in self._campaign.party]

    def records(self, owner: str) -> list[Seen]:
        """The records kept for the party member ``owner``, as this seat reads them."""
        return [self._seen(m) for m in self._campaign.records(owner)]

    def member(self, id_or_name: str) -> Seen:
        """The member with this id or name, as this seat reads it (a one-line error when
        there is none)."""
        return self._seen(self._campaign.member(id_or_name))

    def _seen(self, member: Member) -> Seen:
        return Seen(member.id, member.name, member.role, member.key, member.owner,
                    type(member.tracker), len(member.tracker.log), self)

    def holds(self, tracker: Tracker) -> bool:
        """Whether ``tracker`` (one this session handed out: a view, a stored record) is
        still a member's: False once its member left, even if another of the same name
        came back."""
        if isinstance(tracker.recorder, _SeatMirror):
            return tracker.recorder.session is self and \
                tracker.recorder.member in self._campaign.members
        return any(m.tracker is tracker for m in self._campaign)

    def has_member(self, ident: str) -> bool:
        """Whether the member id ``ident`` is in the campaign."""
        return ident in self._campaign.members

    def on_change(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        """Call ``listener`` on every change of the campaign (this screen's moves and
        other screens' applied); returns how to stop."""
        return self._campaign.on_change(listener)

    def may_undo(self, tracker: Tracker | str) -> str | None:
        """Why this seat may not take back ``tracker``'s newest move, or ``None``."""
        return self._campaign.may_undo(self._resolve(tracker))

    def seat_role_of(self, who: str) -> str | None:
        """The role of the (not revoked) seat called ``who``, read from the store now
        (``None``: no such seat); raises ``StoreError`` when the store cannot answer. A
        campaign kept nowhere has no seats: ``None``."""
        from companion.store.seats import seat_named

        store = self._campaign.store
        if store is None:
            return None
        seat = seat_named(store, self.name, who)
        return seat.role if seat is not None else None

    def wait_for_change(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds until the store holds an event newer than this
        session's (applied by [refresh][companion.table.session.Session.refresh], the
        caller's to run where it re-renders); False at once for a store of this process
        alone."""
        campaign = self._campaign
        store = campaign.store
        if store is None or not store.shared:
            return False
        return store.wait_for_change(campaign.info.id, campaign.head, timeout) > campaign.head

    # -- acting --------------------------------------------------------------------------

    def _resolve(self, tracker: Tracker | str) -> Tracker:
        if isinstance(tracker, Tracker) and isinstance(tracker.recorder, _SeatMirror):
            return self._live_of_mirror(tracker)
        if isinstance(tracker, Tracker):
            # Only this session's own trackers: another campaign's would act as its seat.
            if tracker.recorder is not self._keeper:
                raise StoreError(f"that {type(tracker).__name__} is not in campaign "
                                 f"{self.name!r} as this session has it")
            return tracker
        return self._campaign.tracker(tracker)

    def _refuse_spectator(self) -> None:
        if self._campaign.role == "spectator":
            raise SeatError(self.gone or SPECTATOR_LINE)

    def act(self, tracker: Tracker | str, move: str, /, *args: Any,
            own_dice: Sequence[int] | None = None, **kwargs: Any) -> Any:
        """Make ``move`` on ``tracker`` (a member's id or name, or its live tracker) as this
        seat; returns what the move returns. The seam checks who may make it against the
        store. The seed is the session's to draw: ``seed`` and ``rng`` are refused.
        ``own_dice``: the faces of real dice, allowed where the table's trust allows."""
        self._refuse_spectator()
        live = self._resolve(tracker)
        method = getattr(type(live), move, None) if isinstance(move, str) else None
        if method is None or not is_move(method):
            raise StoreError(f"{type(live).__name__} has no move {move!r}")
        if "seed" in kwargs or "rng" in kwargs:
            raise SeatError("the session draws every seed: a caller does not choose one")
        params = move_parameters(type(live), move)
        if own_dice is not None:
            if "rng" not in params:
                raise OwnDiceError(f"{move} cannot be played with real dice")
            entered = EnteredDice(list(own_dice))
            # One unit: the move is stored only once every face entered was used.
            with self._campaign.rolling("public") as _scope:
                result = getattr(live, move)(*args, rng=entered, **kwargs)
                entered.finish()
            return result
        return getattr(live, move)(*args, **kwargs)

    def undo(self, tracker: Tracker | str) -> Event:
        """Take back this seat's newest move on ``tracker`` (the undo rules of the seam)."""
        self._refuse_spectator()
        return self._resolve(tracker).undo()

    def load(self, tracker: Tracker | str, text: str | bytes) -> None:
        """Load a whole save into ``tracker`` (the GM's, or the owner's when trusted)."""
        self._refuse_spectator()
        self._resolve(tracker).load(text)

    def _seed(self, mode: str, chosen_seed: int | None,
              seeds: Callable[[], int] | None) -> tuple[int | None, bool]:
        """The seed of a roll and whether a person chose it. In a campaign kept in a store
        it is the sitting's next (``None`` here: derived where the roll is stored, see
        [companion.sittings][]); the page's seed source ``seeds`` is not asked. A seed a
        person typed is the GM's alone (the campaign refuses a player's and marks the
        GM's), and never for a roll its roller may not see (it would tell them the roll)."""
        if chosen_seed is None:
            if self._campaign.store is None:
                return int((seeds or _draw_seed)()), False
            drawn = seeds() if seeds is not None else None
            if drawn is None or isinstance(drawn, DrawnSeed):
                return None, False  # the sitting's seed, derived where it is stored
            # A seed the page's own source picked (a test's fixed source): logged as it is,
            # and a sitting's verify refuses it (it is not derived).
            return int(drawn), False
        if not fairplay.can_see_roll(mode, self._campaign.who, self._campaign.who,
                                     self._campaign.role):
            raise fairplay.FairPlayError(
                f"a {fairplay.mode_name(mode)} roll takes a fresh seed: empty the seed box "
                "(a seed you choose would tell you the roll)")
        return chosen_seed, True

    def roll(self, expr: str, *, mode: str = "public", dice: Sequence[int] | None = None,
             total: int | None = None, chosen_seed: int | None = None,
             seeds: Callable[[], int] | None = None) -> LoggedRoll:
        """Roll ``expr`` for the roll log in ``mode`` with a seed the session draws, or
        enter real dice (``dice`` and/or ``total``). The entry's ``roll`` is ``None`` when
        this seat may not see it (a player's blind roll). ``chosen_seed``: a seed the GM
        typed (marked in the log); ``seeds``: the page's seed source."""
        self._refuse_spectator()
        mode = fairplay.check_mode(mode)
        # Real dice for a plain roll are the campaign's to judge (the table's trust is
        # about saves and checks: a roll for the log says it was real dice).
        own = dice is not None or total is not None
        seed, chosen = (None, False) if own else self._seed(mode, chosen_seed, seeds)
        logged = self._campaign.roll_entry(expr, seed, mode=mode, dice=dice, total=total,
                                           chosen=chosen)
        if logged.shown_to(self._campaign.who, self._campaign.role):
            return logged
        return LoggedRoll(logged.entry, logged.mode, logged.commitment, logged.who,
                          logged.role, None)

    # -- sittings: provably fair seeds ----------------------------------------------------

    @property
    def client_seed(self) -> str:
        """This device's client seed for the seat (published in the sitting with the
        seat's first roll; see [companion.sittings][])."""
        return self._campaign.client_seed

    def set_client_seed(self, seed: str | None = None) -> StoredEvent | None:
        """Set the seat's client seed (``None``: a fresh one from this device); published
        at once in an open sitting."""
        self._refuse_spectator()
        return self._campaign.set_client_seed(seed)

    def close_sitting(self) -> StoredEvent:
        """Close the open sitting (the GM's): its server seed is published, and anyone can
        recompute its every roll."""
        self._refuse_spectator()
        return self._campaign.close_sitting()

    def reveal(self, entry: int) -> StoredEvent:
        """Reveal a hidden roll (the GM any, a player their own ``self`` roll)."""
        self._refuse_spectator()
        return self._campaign.reveal(entry)

    def rule_roll(self, label: str, call: RuleCall, *, mode: str = "public",
                  own_dice: Sequence[int] | None = None, chosen_seed: int | None = None,
                  seeds: Callable[[], int] | None = None) -> RuleRoll[Any]:
        """Roll the declared rule ``call`` (a [RuleCall][companion.rule_rolls.RuleCall]: a
        rule that moves no tracker, named with its JSON arguments) labelled ``label``, in
        ``mode``: it logs the rule's own text and records the call in the entry, so that
        ``verify`` makes it again. A function is refused: a closure cannot be written
        down or sent over a wire (a rolled move is a named act:
        [perform][companion.table.session.Session.perform]). ``own_dice``: real dice's
        faces (the table's trust decides); ``chosen_seed``: a seed the GM typed (a
        player's is refused); ``seeds``: the page's seed source."""
        from companion.rule_rolls import RuleCall

        if not isinstance(call, RuleCall):
            raise ActError(f"{label}: a rule roll names a declared rule (a RuleCall), not "
                           f"a {type(call).__name__}; a rolled move is a named act")
        return self._rule_roll(label, call, mode=mode, own_dice=own_dice,
                               chosen_seed=chosen_seed, seeds=seeds)

    def _rule_roll(self, label: str, action: Callable[[random.Random], T],
                   text: Callable[[T], str] = str, *, mode: str = "public",
                   own_dice: Sequence[int] | None = None, chosen_seed: int | None = None,
                   seeds: Callable[[], int] | None = None, table: str | None = None
                   ) -> RuleRoll[T]:
        """The session's own way to run a rule that rolls (``action`` takes the roll's
        ``rng``), behind every rolled named act (a tracker's move, a declared rule or
        table move, a random table), never handed a face's function; as one unit of work:
        the tracker moves it makes and its roll log entry (labelled ``label``, reading
        ``text(value)``, in ``mode``) are stored in one transaction, or nothing is.

        The seed is drawn here; ``own_dice`` are real dice's faces (the table's trust
        decides; an impossible or incomplete entry raises
        [OwnDiceError][companion.dice.physical.OwnDiceError] and stores nothing). When
        another screen moved first, the same dice are played again on the fresh state.
        ``chosen_seed``: a seed the GM typed (marked in the log; a player's is refused);
        ``seeds``: the page's seed source (else the system's entropy); ``table``: the id
        of the random table the rule rolls, recorded in the entry (see
        [roll_table][companion.table.session.Session.roll_table]).

        An ``action`` that is a declared rule ([RuleCall][companion.rule_rolls.RuleCall]:
        a rule that moves no tracker) logs its own text and is recorded in the entry (its
        name, arguments and result fields), so that ``verify`` makes it again."""
        self._refuse_spectator()
        from companion.rule_rolls import RuleCall

        declared = action if isinstance(action, RuleCall) else None
        if declared is not None:
            text = declared.text
        mode = fairplay.check_mode(mode)
        faces = list(own_dice) if own_dice is not None else None
        seed, chosen = (None, False) if faces is not None else self._seed(
            mode, chosen_seed, seeds)
        campaign = self._campaign
        fair = faces is None and seed is None
        for attempt in range(ROLL_ATTEMPTS):
            # The first try on this screen's state; after losing a race, the next is made
            # with the campaign's writer lock held (issue 47): it cannot lose again.
            alone = (campaign.holding_writer_lock() if attempt or campaign.contended
                     else contextlib.nullcontext())
            entered = EnteredDice(faces) if faces is not None else None
            # (In a sitting the seed is drawn in the store's lock below: ``scope.rng``.)
            rng: random.Random = (entered if entered is not None else
                                  SeededRandom(seed) if seed is not None else random.Random())
            try:
                # Atomic: the moves are stored with the roll entry when the scope ends
                # cleanly; a refusal inside it stores nothing and restores the trackers.
                with alone, campaign.rolling(mode, seed=seed, chosen=chosen, fair=fair,
                                      rng=None if entered is not None or fair else rng
                                      ) as scope:
                    if fair:
                        # The sitting's next seed, drawn in the campaign's lock (after a
                        # conflict: the next number's, on the fresh state).
                        seed = scope.seed
                        assert scope.rng is not None
                        rng = scope.rng
                    value = action(rng)
                    if entered is not None:
                        entered.finish()
                    shown_text = text(value)
                    scope.log(label, seed, shown_text, own=entered is not None,
                              faces=entered.taken if entered is not None else None,
                              table=table,
                              # Real dice are the player's own: nothing to make again.
                              call=declared.record(value)
                              if declared is not None and entered is None else None)
            except ConflictError:
                # Another screen moved first: the trackers are back and refreshed; the
                # same dice again (the same seed, the same faces) on the fresh state.
                campaign.lost_race()
                if attempt + 1 >= ROLL_ATTEMPTS:
                    raise
                continue
            logged = scope.logged
            if logged is None:  # the scope stored nothing (the rule made no move, no entry)
                raise CompanionError(f"{label}: nothing was rolled")
            break
        else:  # pragma: no cover - the loop either breaks or raises
            raise AssertionError("unreachable")
        physical = faces is not None
        if logged.shown_to(campaign.who, campaign.role):
            return RuleRoll(logged.mode, value, seed, physical, logged.entry,
                            logged.commitment, shown_text, True)
        return RuleRoll(logged.mode, None, None, physical, logged.entry, logged.commitment,
                        None, False)

    def roll_table(self, table_id: str, *, mode: str = "public",
                   own_dice: Sequence[int] | None = None, chosen_seed: int | None = None,
                   seeds: Callable[[], int] | None = None) -> RuleRoll[Any]:
        """Roll on the random table ``table_id`` (any ruleset's, an NPC's reaction tables
        included: [companion.tables][]) as a rule roll in ``mode``: labelled with the
        table's title, its result line [table_text][companion.fairplay.table_text]
        (``1d6 → 4: Large``), and the table's id recorded in the entry, so that
        ``verify`` rolls the table again with the seed and compares the result (the
        roll is recomputed whole, like a dice roll). Arguments as
        [rule_roll][companion.table.session.Session.rule_roll]; ``value`` is the
        [TableResult][companion.tables.model.TableResult] when this seat may see it."""
        from companion import tables

        table = tables.get(table_id)
        return self._rule_roll(table.title, lambda rng: table.roll(rng=rng),
                              fairplay.table_text, mode=mode, own_dice=own_dice,
                              chosen_seed=chosen_seed, seeds=seeds, table=table.id)

    # -- the GM's setup (the seam checks the seat) ---------------------------------------

    def add(self, name: str, tracker: K, role: str = "party", owner: str = "") -> K:
        """Add a member (the GM's; a player their own character and records)."""
        self._refuse_spectator()
        return self._campaign.add(name, tracker, role, owner)

    def remove(self, id_or_name: str) -> None:
        """Take a member out of the campaign (the GM's)."""
        self._campaign.remove(id_or_name)

    def replace(self, id_or_name: str, tracker: Tracker) -> None:
        """Set a member's whole state (the GM's, or the owner's when trusted)."""
        self._campaign.replace(id_or_name, tracker)

    def set_trust(self, *, own_dice: bool | None = None,
                  own_numbers: bool | None = None) -> None:
        """Set the table's trust (the GM's)."""
        self._campaign.set_trust(own_dice=own_dice, own_numbers=own_numbers)


    # -- the GM's seats (not events: the store's seat rows) --------------------------------

    def may_manage_seats(self) -> str | None:
        """Why this seat may not manage the campaign's seats, or ``None`` (the GM's)."""
        role = self._campaign.role
        if role in ("gm", ""):
            return None
        return self.gone or SPECTATOR_LINE if role == "spectator" else (
            "only the campaign's GM manages its seats")

    def _as_gm(self, what: str) -> Store:
        """The store, once this seat is the GM's, read again from the store now (a GM seat
        revoked or renewed elsewhere manages nothing: the session then watches)."""
        campaign = self._campaign
        if campaign.role not in ("gm", ""):
            raise SeatError(self.gone or SPECTATOR_LINE if campaign.role == "spectator"
                            else f"only the campaign's GM {what}")
        store = campaign.store
        if store is None:
            raise StoreError("this campaign is not connected to a store")
        key = campaign.seat_key
        if key is not None and seat_gone(store.seat_rows(campaign.info.id), key) is not None:
            campaign.lose_seat()
            raise SeatError(SEAT_GONE_LINE)
        return store

    @contextlib.contextmanager
    def _watching_if_gone(self) -> Iterator[None]:
        """A seat change the store refused because this seat is gone: the session
        watches from then on, as after a refused move."""
        try:
            yield
        except SeatError:
            if self._campaign.seat_key is not None:
                self._campaign.lose_seat()
            raise

    def _manager(self) -> SeatKey | None:
        """The proof of the seat a change of the seats is made by, which the store reads
        again in the change's transaction (``None``: a seat given in code, taken at its
        word as everywhere)."""
        return self._campaign.seat_key

    def seats(self) -> list[SeatInfo]:
        """The campaign's seats (the GM's to see: never a secret)."""
        from companion.store.seats import list_seats

        return list_seats(self._as_gm("manages its seats"), self.name)

    def invite(self, who: str, role: str = "player") -> str:
        """Make (or renew) ``who``'s seat as ``role``; returns its secret, shown this once.
        The GM's own seat is renewed only as a GM seat (a GM cannot demote themselves by
        accident); the session then follows the new secret."""
        from companion.store.seats import Seat, check_who, make_seat, seat_key

        store = self._as_gm("manages its seats")
        who = check_who(who)
        own = same_name(who, self._who)
        if own and role != "gm":
            raise CompanionError("that is your own seat: invite someone else")
        # The GM's seat is checked again by the store in the write's own transaction.
        with self._watching_if_gone():
            secret = make_seat(store, self.name, who, role, by=self._manager())
        if own and self._campaign.seat_key is not None:
            self.renew(seat_key(Seat(self._who, self._role), secret))
        return secret

    def revoke_seat(self, who: str) -> None:
        """Revoke ``who``'s seat (never this GM's own: that would lock them out)."""
        from companion.store.seats import revoke_seat

        store = self._as_gm("manages its seats")
        if same_name(who, self._who):
            raise CompanionError("that is your own seat: give it a new link instead")
        with self._watching_if_gone():
            revoke_seat(store, self.name, who, by=self._manager())

    # -- a seed the GM chose (issue 28) ----------------------------------------------------

    def act_seeded(self, tracker: Tracker | str, move: str, seed: int | None, /,
                   *args: Any, **kwargs: Any) -> Any:
        """Make ``move`` on ``tracker`` with a seed the GM typed (a Dice Monarchs table
        seated with the GM's own table seed), the GM's alone (and the holder's): a
        player's or a spectator's is refused before anything is made, and the seam
        refuses it again. The log marks the seed as the GM's (``seed_chosen_by``): it is
        not derived, so ``verify`` and the sittings count it apart, as not provably fair.
        ``seed=None`` is an ordinary [act][companion.table.session.Session.act] (the
        session draws the seed). Only a move that takes a ``seed`` takes one."""
        if seed is None:
            return self.act(tracker, move, *args, **kwargs)
        self._refuse_spectator()
        live = self._resolve(tracker)
        method = getattr(type(live), move, None) if isinstance(move, str) else None
        if method is None or not is_move(method):
            raise StoreError(f"{type(live).__name__} has no move {move!r}")
        # Who may make the move is said first (as the seam does), then who may seed it.
        refusal = self.may_move(live, move)
        if refusal is not None:
            raise SeatError(refusal)
        if self._campaign.role not in ("gm", ""):
            raise SeatError("only the GM chooses a seed: empty the seed box (a seed you "
                            "choose would tell you the dice)")
        if "seed" not in move_parameters(type(live), move):
            raise StoreError(f"{move} takes no seed")
        if "seed" in kwargs or "rng" in kwargs:
            raise SeatError("the seed is the one argument given: no second seed or rng")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise StoreError(f"a seed is a whole number, not {seed!r}")
        return getattr(live, move)(*args, seed=seed, **kwargs)

    # -- a move that moves other trackers too (issue 28: links by id) ---------------------

    def act_together(self, lead: Tracker | str, move: str, action: Callable[[], T],
                     also: Sequence[tuple[Tracker | str, Sequence[str]]] = ()) -> T:
        """A seat's ``move`` on ``lead`` that by its rules moves other trackers at the table
        too, made by ``action`` (the Monsters & Magic party's moves, declared by
        [Party.declared][companion.rulesets.monsters_and_magic.party.Party.declared]).
        ``also``: pairs of each other tracker (a member's id or name, or its live tracker)
        and the moves the action makes there. The seam judges ``move`` on ``lead`` for this seat;
        the declared moves are part of it, any other is judged on its own; all are stored
        as one unit of work, undone together, or nothing is
        ([Campaign.record_together][companion.store.campaign.Campaign.record_together])."""
        self._refuse_spectator()
        live = self._resolve(lead)
        others = [(self._resolve(t), tuple(names)) for t, names in also]
        return self._campaign.record_together(live, move, others, action)

    # -- what the seat may read: seat views (issue 28) -----------------------------------

    @overload
    def view(self, tracker: Tracker | str) -> Tracker: ...

    @overload
    def view(self, tracker: Tracker | str, cls: type[K]) -> K: ...

    def view(self, tracker: Tracker | str, cls: type[Tracker] = Tracker) -> Tracker:
        """A member's tracker (id, name, or a tracker of this session) as this seat may
        read it. The GM and the holder get the live tracker. A player or a spectator gets,
        for a tracker holding hidden values ([holds_secrets][companion.table.views.holds_secrets]),
        a *mirror*: a tracker of the same class rebuilt from
        [visible_save][companion.table.views.visible_save] (no other seat's hole die,
        table seed or pending pick), kept up to date, one per member; its moves, undo and
        load go to the live tracker through this session's seam, and it never holds the
        live tracker. A tracker with nothing hidden is handed live."""
        # A name or id: the campaign's own word when it is not a ``cls``.
        live = (self._campaign.tracker(tracker, cls) if isinstance(tracker, str)
                else self._resolve(tracker))
        if not isinstance(live, cls):
            raise StoreError(f"that {type(live).__name__} is not a {cls.__name__}")
        if views.sees_all(self._campaign.role) or not views.holds_secrets(type(live)):
            return live
        member = next(m for m in self._campaign if m.tracker is live)
        mirrors = self.__dict__.setdefault("_mirrors", {})
        mirror = mirrors.get(member.id)
        if mirror is None or type(mirror) is not type(live):
            mirror = type(live).from_dict(self._visible(live), checked=False)
            mirror.attach(_SeatMirror(self, member.id))
            mirrors[member.id] = mirror
            # The live tracker tells the mirror of every change (another screen's move
            # included); the mirror holds no way back to it but this session.
            live.on_change(_mirror_syncer(weakref.ref(self), member.id))
        else:
            self._sync(member.id, live)
        return mirror

    def visible_save(self, tracker: Tracker | str) -> dict[str, Any]:
        """The saved form of a member's tracker as this seat may hold it (what its *Save*
        downloads): the whole save for the GM; a player's or a spectator's public form
        ([player_save][companion.fairplay.player_save]: other hole dice and the table seed
        as commitments, no pending pick, no hidden roll's dice)."""
        live = self._resolve(tracker)
        if views.sees_all(self._campaign.role):
            return live.to_dict()
        return fairplay.player_save(live, self._campaign.who)

    def _visible(self, live: Tracker) -> dict[str, Any]:
        return views.visible_save(live, self._campaign.who, self._campaign.role)

    def _live_of_mirror(self, mirror: Tracker) -> Tracker:
        recorder = mirror.recorder
        if not isinstance(recorder, _SeatMirror) or recorder.session is not self:
            raise StoreError(f"that {type(mirror).__name__} is not in campaign "
                             f"{self.name!r} as this session has it")
        return self._campaign.tracker(recorder.member)

    def _sync(self, member: str, live: Tracker | None = None) -> None:
        """Bring the mirror of ``member`` up to date with the live tracker."""
        mirror = self.__dict__.get("_mirrors", {}).get(member)
        if mirror is None:
            return
        try:
            live = live if live is not None else self._campaign.tracker(member)
        except CompanionError:
            return  # the member was taken out: the mirror shows what it last was
        save = self._visible(live)
        if save != mirror.to_dict():
            mirror.restore_save(save)  # tells the mirror's observers (the page)

    def _mirror_move(self, mirror: Tracker, name: str, arguments: dict[str, Any]) -> Any:
        """A move made on a mirror: made on the live tracker, whose keeper (the campaign's
        seam) judges it exactly as a move made on the live tracker itself (who may make
        it first, then its dice)."""
        live = self._live_of_mirror(mirror)
        recorder = mirror.recorder
        assert isinstance(recorder, _SeatMirror)
        if "rng" in arguments and getattr(self._campaign, "_scope", None) is None:
            # Dice handed to a move are a rule roll's own (Session.rule_roll drew them, in
            # its unit of work); anywhere else they would be the caller's choice.
            raise SeatError("the session draws every seed: a caller does not choose one")
        self._refuse_spectator()
        result = getattr(live, name)(**arguments)
        self._sync(recorder.member, live)
        return result


    # -- acts: moves as plain data (issue 43) -------------------------------------------

    def on_act(self, listener: Callable[[Outcome], None]) -> None:
        """Call ``listener(outcome)`` after every act this session judges
        ([perform][companion.table.session.Session.perform]), accepted or refused: a
        journal of acts, a wire's answer."""
        self.__dict__.setdefault("_act_listeners", []).append(listener)

    def perform(self, act: Act, *, page_seed: int | None = None,
                once_after: int | None = None) -> Outcome:
        """Judge ``act`` (plain data: see [companion.table.acts][]) as this seat against
        the store, and make it if the rules and the seat allow. Returns
        [Accepted][companion.table.acts.Accepted] with the events it stored (as this
        seat may see them) or [Refused][companion.table.acts.Refused] with the one-line
        reason; a refused act stores nothing. The dice are the session's (the sitting's
        provably fair seeds), drawn inside the tracker's own move.

        ``page_seed``: a seed a face in this process drew itself, as a number (an
        unsaved table's dice, a test's fixed source; in a kept campaign it is logged as
        it is and not provably fair: see
        [rule_roll][companion.table.session.Session.rule_roll]); an act from a wire never
        brings one.

        An act that names its device (``client``) and number (``seq``) is made once: its
        events carry both ([Campaign.stamping][companion.store.campaign.Campaign.stamping]),
        and an act whose stamp this seat's events after ``once_after`` carry already
        (a resend, maybe judged by another process of the same database) stores nothing
        and is answered [Accepted][companion.table.acts.Accepted] with those events
        (``again``; its result is not kept); a different act (tracker, move, arguments or
        roll) under a client and seq this seat's events carry already is
        [Refused][companion.table.acts.Refused], nothing stored
        ([ActNumberTaken][companion.store.act_stamps.ActNumberTaken]). The caller has
        searched the log up to ``once_after``; without it only the events stored while
        this act is judged are searched."""
        campaign = self._campaign
        before = campaign.head
        seeds = None if page_seed is None else _fixed(page_seed)
        stamped = bool(act.client) and act.seq > 0 and campaign.store is not None
        digest = act_digest(act.to_dict())
        stamp = {"client": act.client, "seq": act.seq, "digest": digest}
        guard = (campaign.stamping(act.client, act.seq,
                                   before if once_after is None else once_after, digest)
                 if stamped else contextlib.nullcontext())
        try:
            with guard:
                result, roll, value = self._judge(act, seeds)
        except ActStoredAlready as stored:
            outcome: Outcome = Accepted(act, tuple(self.events_numbered(stored.seqs)),
                                        again=True)
        except CompanionError as exc:
            outcome = Refused(act, _line(exc), exc)
        else:
            mine = [e for e in self.events_since(before)
                    if e["who"] == self._who and e["role"] == self._role
                    and (not stamped or e["data"].get(ACT_STAMP) == stamp)]
            outcome = Accepted(act, tuple(mine), result, roll, value)
        for listener in list(self.__dict__.get("_act_listeners", ())):
            listener(outcome)
        return outcome

    def events_numbered(self, seqs: Sequence[int]) -> list[dict[str, Any]]:
        """The events numbered ``seqs``, as this seat may see them (an act's, stored
        before: see [perform][companion.table.session.Session.perform])."""
        store = self._campaign.store
        if store is None or not seqs:
            return []
        wanted = set(seqs)
        read = store.events_since(self._campaign.info.id, min(wanted) - 1,
                                  limit=max(wanted) - min(wanted) + 1)
        return self.visible([e for e in read if e.seq in wanted])

    def key_of(self, tracker: Tracker) -> str:
        """The member id an act names ``tracker`` by (a tracker of this session, live or
        this seat's mirror of it)."""
        live = self._resolve(tracker)
        for member in self._campaign:
            if member.tracker is live:
                return member.id
        raise StoreError(f"that {type(tracker).__name__} is not in campaign {self.name!r}")

    def events_since(self, seq: int) -> list[dict[str, Any]]:
        """The campaign's events after number ``seq`` as this seat may see them
        (``StoredEvent.to_dict`` form): what a face that holds the log up to ``seq``
        needs to catch up."""
        store = self._campaign.store
        if store is None:
            return []
        return self.visible(store.events_since(self._campaign.info.id, seq))

    def visible(self, events: Sequence[StoredEvent]) -> list[dict[str, Any]]:
        """``events`` (this campaign's, as the store read them) as this seat may see them
        (``StoredEvent.to_dict`` form): one read of the store filtered for many seats
        (the table socket pushes one append to every connected seat)."""
        new = [e.to_dict() for e in events]
        if not new:
            return []
        role = "gm" if self._campaign.role in ("gm", "") else self._campaign.role
        if views.sees_all(role):
            return fairplay.visible_to(new, self._campaign.who, role)
        # The members' kinds, as the log's add events would say them (the filter reads
        # them to know which trackers hold hidden values; a kind unknown is hidden).
        kinds = [{"seq": 0, "kind": "add", "tracker": m.id,
                  "data": {"kind": kind_key(type(m.tracker))}} for m in self._campaign]
        from companion.store.registry import tracker_class

        shown = fairplay.visible_to([*kinds, *new], self._campaign.who, role, tracker_class)
        return shown[len(kinds):]

    def _judge(self, act: Act, seeds: Callable[[], int] | None = None,
               ) -> tuple[Any, dict[str, Any] | None, Any]:
        """Make ``act``; what it gave (JSON, ``None`` when this seat may not see it), its
        roll entry, and what it gave as the object it is. Raises the refusal."""
        if not isinstance(act, Act):
            raise ActError(f"an act is an Act, not {type(act).__name__}")
        args = dict(act.args)
        if not act.tracker:  # (a client seed is the seat's own to set: not a roll's seed)
            return self._table_act(act.move, args, act.roll, seeds)
        if "seed" in args or "rng" in args:
            raise SeatError("the session draws every seed: a caller does not choose one")
        live = self._resolve(act.tracker)
        if act.move in ("undo", "load"):
            if act.roll is not None:
                raise ActError(f"{act.move} rolls no dice")
            if act.move == "undo":
                _no_args(act.move, args)
                self.undo(live)
            else:
                text = args.pop("text", None)
                _no_args(act.move, args)
                if not isinstance(text, str):
                    raise ActError("load: 'text' is the whole save, as text")
                self.load(live, text)
            return None, None, None
        cls = type(live)
        if not is_move(getattr(cls, act.move, None)):
            raise ActError(f"{cls.__name__} has no move {act.move!r}")
        # Who may make it is said first, before any word about its arguments (as the
        # seam does): a seat learns nothing of a move it may not make. The seam judges
        # again, with the arguments, when the move is made.
        self._refuse_spectator()
        refusal = self.may_move(live, act.move)
        try:
            values = decode_args(cls, act.move, args)
            signature = move_signature(cls, act.move)
            # A rolled act's dice are the session's: a move that must be handed them
            # (``rng`` without a default) is bound with their place kept.
            dice = {"rng": None} if act.roll is not None and \
                "rng" in signature.parameters else {}
            bound = signature.bind(live, **values, **dice)
        except (CompanionError, TypeError) as exc:
            if refusal is not None:
                raise SeatError(refusal) from None
            if isinstance(exc, CompanionError):
                raise
            raise ActError(f"{act.move}: {exc}") from None
        if refusal is not None:
            # A shared tracker's move may be a player's when it acts for their own
            # character (a duelist's pick): judged again with the arguments it names.
            named = {k: v for k, v in list(bound.arguments.items())[1:] if k not in dice}
            refusal = self._campaign.may_move(live, act.move, named)
            if refusal is not None:
                raise SeatError(refusal)
        shown = views.sees_all(self._campaign.role) or not views.holds_secrets(cls)
        if act.roll is None:
            value = self.act(live, act.move, **values)
            return (jsonable(value) if shown else None), None, value
        params = move_parameters(cls, act.move)
        if "rng" not in params and "seed" not in params:
            raise ActError(f"{act.move} rolls no dice: make it without a roll")
        made = self._rolled_move(live, act.move, values, params, act.roll, seeds)
        return ((jsonable(made.value) if shown and made.visible else None), _roll_info(made),
                made.value)

    def _rolled_move(self, live: Tracker, move: str, values: dict[str, Any],
                     params: frozenset[str], spec: RollSpec,
                     seeds: Callable[[], int] | None = None) -> RuleRoll[Any]:
        """A tracker's move rolled as ``spec`` says, as one rule roll: the dice are the
        session's, handed to the move itself (its seed when it keeps one), and the log
        line is the move's own."""
        def action(rng: random.Random) -> Any:
            seed = getattr(rng, "seed_value", None)
            if seed is not None and "seed" in params:
                return getattr(live, move)(**values, seed=seed)
            if "rng" not in params:
                raise OwnDiceError(f"{move} cannot be played with real dice")
            return getattr(live, move)(**values, rng=rng)

        def text(value: Any) -> str:
            # The move's own line (the last to end: a move it made inside ends first).
            lines = self._campaign.unit_lines
            if lines:
                return lines[-1]
            return value if isinstance(value, str) else str(jsonable(value))

        label = spec.label or f"{self._member_name(live)}: {move.replace('_', ' ')}"
        return self._rule_roll(label, action, text, mode=spec.mode, own_dice=spec.own_dice,
                              chosen_seed=spec.seed if spec.own_dice is None else None,
                              seeds=seeds)

    def _member_name(self, live: Tracker) -> str:
        for member in self._campaign:
            if member.tracker is live:
                return member.name
        return type(live).__name__

    def _table_act(self, move: str, args: dict[str, Any], spec: RollSpec | None,
                   seeds: Callable[[], int] | None = None,
                   ) -> tuple[Any, dict[str, Any] | None, Any]:
        """One of the table's own acts (see [companion.table.acts][])."""
        if move not in TABLE_MOVES:
            raise ActError(f"the table has no act {move!r} (it has "
                           f"{', '.join(TABLE_MOVES)}; a tracker's move names its tracker)")
        spec = spec if spec is not None else RollSpec()
        if move == "roll":
            expr = args.pop("expr", None)
            _no_args(move, args)
            if not isinstance(expr, str):
                raise ActError("roll: 'expr' is the dice expression, as text")
            logged = self.roll(expr, mode=spec.mode,
                               dice=list(spec.own_dice) if spec.own_dice is not None else None,
                               chosen_seed=spec.seed, seeds=seeds)
            value = logged.roll.to_dict() if logged.roll is not None else None
            return value, {"entry": logged.entry, "mode": logged.mode,
                           "commitment": logged.commitment, "shown": value is not None}, \
                logged
        if move == "rule":
            from companion.rule_rolls import RuleCall

            name, rule_args, lead = args.pop("name", None), args.pop("args", {}), \
                args.pop("lead", "")
            _no_args(move, args)
            if not isinstance(name, str) or not isinstance(rule_args, dict) \
                    or not isinstance(lead, str):
                raise ActError("rule: 'name' (text), 'args' (an object) and 'lead' (text)")
            call = RuleCall(name, rule_args, lead=lead)
            made = self._rule_roll(spec.label or name.rsplit(".", 1)[-1].replace("_", " "),
                                  call, mode=spec.mode, own_dice=spec.own_dice,
                                  chosen_seed=spec.seed if spec.own_dice is None else None,
                                  seeds=seeds)
            value = call.record(made.value)["result"] if made.visible else None
            return value, _roll_info(made), made.value
        if move == "table":
            return self._table_move(args, spec, seeds)
        if spec != RollSpec():
            raise ActError(f"{move} rolls no dice")
        if move == "reveal":
            entry = args.pop("entry", None)
            _no_args(move, args)
            if type(entry) is not int:
                raise ActError("reveal: 'entry' is the roll's entry number")
            stored = self.reveal(entry)
            return stored.to_dict()["data"], None, stored
        seed = args.pop("seed", None) if "seed" in args else None
        _no_args(move, args)
        if seed is not None and not isinstance(seed, str):
            raise ActError("client_seed: 'seed' is text (or null for a fresh one)")
        self.set_client_seed(seed)
        return None, None, None

    def _table_move(self, args: dict[str, Any], spec: RollSpec,
                    seeds: Callable[[], int] | None) -> tuple[Any, dict[str, Any] | None, Any]:
        """A declared table move ([companion.table_moves][]) as one unit of work: every
        move it makes is judged by the seam for this seat, and all are stored together
        or none is."""
        from companion import table_moves

        name, move_args = args.pop("name", None), args.pop("args", {})
        _no_args("table", args)
        if not isinstance(move_args, dict):
            raise ActError("table: 'args' is an object of the move's arguments")
        declared = table_moves.get(name)
        self._refuse_spectator()
        table = _LiveTable(self._campaign)
        if not declared.rolls:
            if spec != RollSpec():
                raise ActError(f"{declared.name} rolls no dice")
            value = self._campaign.as_one_unit(
                lambda: declared.run(table, dict(move_args), None))
            return declared.result(value), None, value
        def first_line(value: Any) -> str:
            # The line of the move the table move was made for (the first to end).
            lines = self._campaign.unit_lines
            return lines[0] if lines else str(jsonable(value))

        made = self._rule_roll(
            spec.label or declared.name.rsplit(".", 1)[-1].replace("_", " "),
            lambda rng: declared.run(table, dict(move_args), rng),
            declared.text if declared.text is not None else first_line,
            mode=spec.mode, own_dice=spec.own_dice,
            chosen_seed=spec.seed if spec.own_dice is None else None, seeds=seeds)
        return ((declared.result(made.value) if made.visible else None), _roll_info(made),
                made.value)

    # -- read-only views (issue 43) ------------------------------------------------------

    def read(self, tracker: Tracker | str) -> Tracker:
        """A read-only copy of a member's tracker as this seat may see it (its
        [visible_save][companion.table.views.visible_save]): every move, undo and load
        on it raises [ReadOnlyError][companion.table.session.ReadOnlyError]; a face acts
        by naming the move ([perform][companion.table.session.Session.perform])."""
        live = self._resolve(tracker)
        copy_ = type(live).from_dict(self._visible(live), checked=False)
        copy_.attach(_ReadOnly())
        return copy_

    # -- a member's record an app shows before it is stored (issue 28: the record draft) --

    def add_record(self, name: str, draft: K, owner: str) -> K:
        """Store ``draft``'s state as ``owner``'s record ``name`` (role "record") and return
        the stored record: the one already in the campaign when another screen stored it
        first. The seam checks the seat as for any [add][companion.table.session.Session.add]
        (the GM's, or the owner's own record), so a player storing another member's record
        is refused with the seat's one-line refusal before anything is stored."""
        cls = type(draft)
        for member in self._campaign:
            if member.name == name and isinstance(member.tracker, cls):
                return member.tracker
        try:
            return self.add(name, cls.from_state(draft.snapshot()), role="record",
                            owner=owner)
        except SeatError:
            raise
        except StoreError:
            self._campaign.refresh()  # another screen stored it first
            for member in self._campaign:
                if member.name == name and isinstance(member.tracker, cls):
                    return member.tracker
            raise

    def add_record_moved(self, name: str, draft: K, owner: str, move: str,
                         arguments: dict[str, Any]) -> tuple[K, Any]:
        """A record's first move: [add_record][companion.table.session.Session.add_record]
        then the move on the stored record
        ([act_recorded][companion.table.session.Session.act_recorded]), stored as one unit
        of work (the record is never stored without the move that made it). Returns the
        stored record and what the move returned."""
        def both() -> tuple[K, Any]:
            live = self.add_record(name, draft, owner)
            return live, self.act_recorded(live, move, arguments)

        return self._campaign.as_one_unit(both)

    def add_record_loaded(self, name: str, draft: K, owner: str, text: str | bytes) -> K:
        """A record whose first change is a whole save loaded into it: stored with the
        load as one unit of work (a load the seat may not make stores no record)."""
        def both() -> K:
            live = self.add_record(name, draft, owner)
            self.load(live, text)
            return live

        return self._campaign.as_one_unit(both)

    def judge_move(self, draft: Tracker, move: str, arguments: dict[str, Any]) -> None:
        """Make ``move`` on a copy of ``draft`` (a record not stored yet) and drop it: the
        rule's own refusal is raised before the record is stored, so a refused first move
        stores nothing (the copy's dice are copies too: the move made later rolls the
        same)."""
        trial = type(draft).from_dict(draft.to_dict())
        getattr(trial, move)(**copy.deepcopy(arguments))

    def act_recorded(self, tracker: Tracker | str, move: str,
                     arguments: dict[str, Any]) -> Any:
        """A move recorded on a face's own copy of ``tracker`` (the record draft), by its
        keyword ``arguments``: [act][companion.table.session.Session.act], or inside a
        [rule_roll][companion.table.session.Session.rule_roll] with the roll's dice (dice
        anywhere else would be the caller's choice, and are refused)."""
        if "rng" in arguments:
            if getattr(self._campaign, "_scope", None) is None:
                raise SeatError("the session draws every seed: a caller does not choose one")
            self._refuse_spectator()
            return getattr(self._resolve(tracker), move)(**arguments)
        return self.act(tracker, move, **arguments)

    def seat_save(self, tracker: Tracker | str) -> dict[str, Any]:
        """The saved form of ``tracker`` as this seat may read it (what its
        [view][companion.table.session.Session.view] shows), for a face's own copy."""
        return self._visible(self._resolve(tracker))


def _line(exc: BaseException) -> str:
    """A refusal's one line (the first, cut for a phone's screen)."""
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= 240 else text[:239] + "…"


def _fixed(seed: int) -> Callable[[], int]:
    """A seed source that gives ``seed`` (a face's own seed, handed over as a number)."""
    def source() -> int:
        return seed

    return source


def _no_args(move: str, args: dict[str, Any]) -> None:
    if args:
        raise ActError(f"{move} takes no argument {sorted(args)[0]!r}")


def _roll_info(made: RuleRoll[Any]) -> dict[str, Any]:
    """A rolled act's roll entry as plain data (the seed and text only when shown)."""
    info: dict[str, Any] = {"entry": made.entry, "mode": made.mode,
                            "commitment": made.commitment, "shown": made.visible,
                            "physical": made.physical}
    if made.visible:
        info["seed"] = made.seed
        info["text"] = made.text
    return info


class Keeper:
    """The keeper of a session's live trackers (their
    [recorder][companion.state.Tracker.recorder]): every move, undo and load made on one
    is handed to the campaign's seam, exactly as if the campaign kept it itself; what it
    adds is the way back to the [session][companion.table.session.Session] that holds the
    tracker, so a face holding a tracker holds its session and nothing under it."""

    def __init__(self, session: Session, campaign: Campaign) -> None:
        self.session = session
        self._campaign = campaign

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        return self._campaign.record_move(tracker, name, arguments, perform)

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event:
        return self._campaign.record_undo(tracker, perform)

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        self._campaign.record_load(tracker, text, perform)

    def tracker_changed(self, tracker: Tracker) -> None:
        self._campaign.tracker_changed(tracker)


class _LiveTable:
    """The campaign's live trackers as a table move reads them
    ([TableTrackers][companion.table_moves.TableTrackers]): held by the session only,
    never handed to a face."""

    def __init__(self, campaign: Campaign) -> None:
        self._campaign = campaign

    def trackers(self, cls: type[K]) -> list[K]:
        return [m.tracker for m in self._campaign if isinstance(m.tracker, cls)]

    def tracker(self, id_or_name: str, cls: type[K]) -> K:
        return self._campaign.tracker(id_or_name, cls)


class _ReadOnly:
    """The keeper of a read-only view: it refuses every move, undo and load."""

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        raise ReadOnlyError(READ_ONLY_LINE)

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event:
        raise ReadOnlyError(READ_ONLY_LINE)

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        raise ReadOnlyError(READ_ONLY_LINE)

    def tracker_changed(self, tracker: Tracker) -> None:
        tracker.notify_observers()


class _SeatMirror:
    """The keeper of a seat's mirror (see [Session.view][companion.table.session.Session.view]):
    every move, undo and load made on the mirror is made on the live tracker through the
    session; the mirror itself changes only by being projected again."""

    def __init__(self, session: Session, member: str) -> None:
        self.session = session
        self.member = member

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        return self.session._mirror_move(tracker, name, arguments)

    def record_undo(self, tracker: Tracker, perform: Callable[[], Event]) -> Event:
        event = self.session.undo(tracker)
        self.session._sync(self.member)
        return event

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        self.session.load(tracker, text)
        self.session._sync(self.member)

    def tracker_changed(self, tracker: Tracker) -> None:
        tracker.notify_observers()


def _mirror_syncer(ref: weakref.ref[Session], member: str) -> Callable[[Any], None]:
    """The live tracker's observer that brings a session's mirror up to date (holding the
    session weakly: a page gone takes its session and mirrors with it)."""
    def sync(_tracker: Any) -> None:
        session = ref()
        if session is not None:
            session._sync(member)

    return sync


def mirror_save(tracker: Tracker) -> dict[str, Any] | None:
    """The public save of a seat's mirror as its session gives it
    ([Session.visible_save][companion.table.session.Session.visible_save]); ``None`` for
    any other tracker (a live one saves itself)."""
    recorder = tracker.recorder
    if isinstance(recorder, _SeatMirror):
        return recorder.session.visible_save(tracker)
    return None


def shared_session(name: str, *, who: str = "", role: str = "",
                   seat_key: SeatKey | None = None, db: str | None = None) -> Session:
    """This process's one session of campaign ``name`` for the seat ``who`` (``role``),
    opened once per seat (every app of one page shares its trackers; another seat gets
    another session, never this one's seat rewritten)."""
    from companion.store.opening import shared_campaign

    campaign = shared_campaign(name, who=who, role=role, db=db, seat_key=seat_key)
    found = _SESSIONS.get(campaign)
    return found if found is not None else Session(campaign)
