"""The seam: every live tracker's moves, undo and load come here
([Recorder][companion.state.Recorder]). Each is judged for this screen's seat (on the
fresh state when this screen's is stale), given its dice (the seed the sitting derives,
the one the caller chose, or the real dice entered), made, and stored as a unit of work
with what it changed; a move that moves other trackers is stored with them, and undone
with them.

Package-private (``companion.store._campaign``).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from companion import fairplay
from companion.dice.physical import OwnDiceError
from companion.dice.roller import SEED_BOUND, DrawnSeed, entered_dice
from companion.errors import RuleError
from companion.state import OWN_NUMBERS, Event, Tracker, state_change, who_may
from companion.store._campaign.core import SPECTATOR_LINE, UNDO_LIMIT, Mark, Member, RollScope
from companion.store._campaign.permission_checks import PermissionChecks
from companion.store._campaign.unit_of_work import UnitOfWork
from companion.store.permissions import SeatError, same_name
from companion.store.records import NewEvent, check_seed
from companion.store.registry import move_parameters
from companion.store.upcast import EVENT_FORMAT

if TYPE_CHECKING:
    pass


R = TypeVar("R")

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


class Seam(PermissionChecks, UnitOfWork):
    """The trackers' recorder (see the module)."""

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
