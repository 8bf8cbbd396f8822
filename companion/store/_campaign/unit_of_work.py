"""The unit of work and its retry: events appended in one transaction (the seat read
again in it), a unit's pending events stored whole or not at all (the trackers put back
on any failure), and the race between two screens (issue 47): a unit that lost is made
again with the campaign's writer lock held, on the fresh state, where it cannot lose.

Package-private (``companion.store._campaign``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from companion.errors import CompanionError
from companion.store._campaign.core import Member, RollScope, trim_marks
from companion.store._campaign.replay import Replay
from companion.store.act_stamps import (
    ACT_STAMP,
    ActGuard,
    ActNumberTaken,
    ActStoredAlready,
    same_act,
)
from companion.store.chain import event_hash
from companion.store.permissions import SeatError, same_name
from companion.store.records import ConflictError, NewEvent, StoredEvent, StoreError

if TYPE_CHECKING:
    from companion.store.port import Store


R = TypeVar("R")

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


class _LostRace(Exception):
    """A unit of work's try met another screen's write (a conflict, or a refusal on a
    state that has changed since): made again with the writer lock held."""


def _kept_changing() -> ConflictError:
    return ConflictError("the campaign kept changing while this move held its writer lock "
                         f"({_LOCKED_TRIES} tries); nothing more was stored: try again")


class UnitOfWork(Replay):
    """Storing units of work (see the module)."""

    # -- events in and out ----------------------------------------------------------------

    def _append(self, new: NewEvent) -> StoredEvent:
        new = NewEvent(new.kind, self.who, self.role, new.tracker, new.move, new.seed,
                       new.data, new.at)
        (stored,) = self._store_events([new])
        return stored

    @contextlib.contextmanager
    def stamping(self, client: str, seq: int, after: int, digest: str = ""
                 ) -> Iterator[None]:
        """Store what the block stores as the act numbered ``seq`` of the device
        ``client`` (issue 44: a phone resends an act whose answer it lost, maybe to
        another server process): every event it stores carries ``{"client", "seq"}``
        under [ACT_STAMP][companion.store.campaign.ACT_STAMP], and before each append
        the events after ``after`` (the caller searched the log up to there) are read
        for this seat's same stamp. Found, nothing is stored and
        [ActStoredAlready][companion.store.campaign.ActStoredAlready] names them. The
        search is made before every try of the append, so an append it allowed meets a
        conflict if another process stored meanwhile, and its retry (under the writer
        lock) finds that process's stamp: one act is stored once, by whichever process
        stores first. ``digest`` says what the act is
        ([act_digest][companion.store.act_stamps.act_digest], kept in the stamp): events
        of this seat with the same client and seq but another digest are another act, and
        [ActNumberTaken][companion.store.act_stamps.ActNumberTaken] refuses this one."""
        if self._act_guard is not None:
            yield  # an act made inside an act is part of it: stamped as the outer one
            return
        self._act_guard = ActGuard(client, seq, after, digest)
        try:
            yield
        finally:
            self._act_guard = None

    def _stamped(self, store: Store, guard: ActGuard,
                 events: list[NewEvent]) -> list[NewEvent]:
        """``events`` stamped with ``guard``'s act; raises ActStoredAlready if this seat
        stored that act after ``guard.after`` already, ActNumberTaken if it stored
        another act under the same client and seq."""
        stamp = guard.stamp()
        read = store.events_since(self.info.id, guard.after)
        found = [e for e in read if guard.numbers(e.data.get(ACT_STAMP))
                 and e.role == self.role and same_name(e.who, self.who)]
        if found:
            seqs = [e.seq for e in found]
            if not all(same_act(e.data.get(ACT_STAMP), guard.digest) for e in found):
                raise ActNumberTaken(guard.client, guard.seq, seqs)
            raise ActStoredAlready(seqs)
        if read:  # searched: a retry after a conflict reads only what came after
            guard.after = read[-1].seq
        return [dataclasses.replace(e, data={**e.data, ACT_STAMP: stamp}) for e in events]

    def _store_events(self, events: list[NewEvent]) -> list[StoredEvent]:
        """Append in one transaction; a proven seat is read again in it (issue 28: a seat
        revoked a moment ago stores nothing, and this screen watches from then on)."""
        store = self._need_store()
        guard = self._act_guard
        if guard is not None:
            events = self._stamped(store, guard, events)
        stored = self._append_checked(store, events)
        if guard is not None and stored:
            # The act's own events: a second append of the same act (a record its move
            # added first) is not taken for a resend of it.
            guard.after = stored[-1].seq
        return stored

    def _append_checked(self, store: Store, events: list[NewEvent]) -> list[StoredEvent]:
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

    # -- one unit of work -----------------------------------------------------------------

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
                trim_marks(member)
                self._notify(member.tracker)
        self._changed()
        self._after_append()
        return stored

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
