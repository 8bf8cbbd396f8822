"""The table's roll log: dice rolled for it, rule rolls whose tracker moves are stored
with their entry in one transaction (``rolling``), hidden rolls as commitments and their
reveals, and the log as each seat may see it ([companion.fairplay][]).

Package-private (``companion.store._campaign``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from companion.dice.roller import SeededRandom
from companion.fairplay import LoggedRoll
from companion.store._campaign.core import RollScope, locked
from companion.store._campaign.permission_checks import PermissionChecks
from companion.store._campaign.unit_of_work import UnitOfWork
from companion.store.permissions import SeatError
from companion.store.records import NewEvent, StoredEvent, StoreError, check_seed
from companion.store.registry import tracker_class

if TYPE_CHECKING:
    pass


class RollLog(PermissionChecks, UnitOfWork):
    """The roll log (see the module)."""

    @locked
    def roll(self, expr: str, seed: int | None = None, *, mode: str = "public",
             dice: Sequence[int] | None = None, total: int | None = None,
             chosen: bool = False) -> Any:
        """Roll a dice expression for the table's roll log; returns the engine's ``Roll``.

        ``mode`` and real dice (``dice``, ``total``): see
        [roll_entry][companion.store.campaign.Campaign.roll_entry].
        """
        return self.roll_entry(expr, seed, mode=mode, dice=dice, total=total,
                               chosen=chosen).roll

    @locked
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

    @locked
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

    @locked
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
