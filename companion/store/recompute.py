"""Rule rolls recomputed whole: ``verify`` makes a campaign's rolled moves again.

A campaign's log stores facts: what each move changed, not the rule that changed it
([companion.store.upcast][]). A dice roll or a table roll is checked by rolling it again
with its seed; a rule roll (a check, a save, the Dice Monarchs' deal, a 5e death save)
is a tracker move, so [Recomputer][companion.store.recompute.Recomputer] checks it the
same way: it rebuilds every tracker from the log's own facts (the replay a campaign opens
with: [Campaign][companion.store.campaign.Campaign] without a store), and at each unit of
work (a rule roll's moves and its roll entry, or one move) it puts the trackers back as
they were just before it, makes the same moves with the same arguments and the unit's
seed (a ``random.Random`` of the roll's seed, shared by its moves as the session shares
it), and compares what they change and say with what the log stored. Then the stored
facts are applied as they are, and the next unit follows.

What cannot be made again is said, never guessed:

- a move made with real dice (the faces are the player's own);
- a hidden roll whose seed is not in this copy of the log (a player's view, or not
  revealed yet), and a hidden roll of several moves that roll (its moves' seeds are not
  stored one by one);
- a move of an older schema version or event format (today's rules would judge an
  older fact);
- a unit whose moves made other trackers' moves without saying so (logged before such
  moves were marked ``"nested"``), or past the bound on moves made again
  (``MAX_VERIFY_MOVES``).

Only a campaign's export holds the facts (``campaign export NAME``); a log view
(``log NAME --json``) holds summaries only, so its rule rolls keep the seed check.

The line a rule roll shows in the roll log (``"text"``) is the app's wording of the
moves' result and is not made again; the moves' own summaries and facts are.

A rule roll that moves **no** tracker (a hidden check, a contest) gives this replay
nothing to make again. Such a roll is rolled through a declared rule
([companion.rule_rolls][]): its entry records the rule's name, JSON arguments and result
fields, and [verify][companion.fairplay.verify] calls that rule again with the entry's
seed and compares every field and its text, on any copy of the log (an export, a log
view, the site's verifier), next to the table check; nothing here knows any ruleset. An
entry without the record (logged before it) keeps the seed check, said in the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.dice.roller import SeededRandom
from companion.errors import CompanionError, clipped
from companion.fairplay import FairPlayError
from companion.state import Tracker, state_change

__all__ = ["MAX_VERIFY_MOVES", "RecomputeError", "Recomputer"]

#: Most moves one verify makes again (about 3 ms each, the state rebuilt and checked as an
#: import does: some 30 seconds at the bound); past it, the rest of the log keeps the seed
#: check, said in the answer.
MAX_VERIFY_MOVES = 10_000


class RecomputeError(FairPlayError):
    """A unit of work whose moves, made again, do not give what the log stored."""


@dataclass
class _Unit:
    """A unit of work being read: its move events (in order) and its step."""

    step: int
    events: list[Any] = field(default_factory=list)


class Recomputer:
    """Make a campaign export's moves again, one unit of work at a time (``add`` every
    row in order, then ``finish``); a unit that does not give what the log stored raises
    [RecomputeError][companion.store.recompute.RecomputeError] naming its entry. The
    [Replayer][companion.fairplay.Replayer] ``verify`` takes. ``campaign``: the export's
    identity (its ``"campaign"``), under which its chain was made."""

    def __init__(self, campaign: str = "", *, max_moves: int = MAX_VERIFY_MOVES) -> None:
        from companion.store.campaign import Campaign
        from companion.store.records import CampaignInfo

        self.max_moves = max_moves
        self.made = 0  # moves made again so far
        # Rebuilt as an import rebuilds it: each event's facts applied, chain and state
        # checked (a log view, with no facts, turns this off at its first row).
        self.scratch = Campaign(None, CampaignInfo(0, "verify", (), "", 0, campaign))
        self._unit: _Unit | None = None
        #: Roll entries whose moves were made again whole.
        self.rolls: set[int] = set()
        #: Move events made again whole that no roll entry names (a deal, a table seed).
        self.moves: set[int] = set()
        #: Roll entries (and lone moves) whose moves could not be made again, by reason.
        self.skipped: dict[str, list[int]] = {}
        #: Set when a row holds no facts (a log view): nothing more is made again.
        self.off = False

    # -- reading the log -----------------------------------------------------------------

    def add(self, row: dict[str, Any]) -> None:
        """The next row of the export (checked for shape by the caller)."""
        if self.off:
            return
        data = row.get("data")
        if not isinstance(data, dict) or "prev" not in row:
            self._flush(None)
            self.off = True  # a log view: summaries only, no facts to rebuild from
            return
        event = _event(row)
        kind = event.kind
        if kind == "move":
            step = data.get("step", event.seq)
            if self._unit is not None and self._unit.step != step:
                self._flush(None)
            if self._unit is None:
                self._unit = _Unit(step if type(step) is int else event.seq)
            self._unit.events.append(event)
            return
        if kind == "roll" and self._unit is not None and \
                data.get("moves") == [e.seq for e in self._unit.events]:
            self._flush(event)
            return
        self._flush(None)
        self._apply(event)

    def finish(self) -> None:
        """The log's end: the last unit is made again."""
        if not self.off:
            self._flush(None)

    # -- one unit ------------------------------------------------------------------------

    def _apply(self, event: Any) -> None:
        try:
            self.scratch.apply_imported(event)
        except (CompanionError, KeyError, TypeError, ValueError, AttributeError) as exc:
            said = str(exc).removeprefix("campaign 'verify': ")  # the scratch's own name
            raise RecomputeError(f"entry {event.seq} cannot be applied to the state before "
                                 f"it: {clipped(said, 160)}") from None

    def _skip(self, why: str, entry: int) -> None:
        self.skipped.setdefault(why, []).append(entry)

    def _flush(self, roll: Any) -> None:
        """Make the pending unit again (``roll``: its roll entry, if it has one), then
        apply its stored facts."""
        unit, self._unit = self._unit, None
        if unit is None:
            if roll is not None:
                self._apply(roll)
            return
        entry = roll.seq if roll is not None else unit.events[0].seq
        why = self._why_not(unit, roll)
        if why is not None:
            for event in unit.events:
                self._apply(event)
            if roll is not None:
                self._apply(roll)
            if why:  # "" : nothing that rolls, nothing to say
                self._skip(why, entry)
            return
        if not self._remake(unit, roll, entry):
            if roll is not None:
                self._apply(roll)
            self._skip("moves over several trackers logged before the moves that moves "
                       "make were marked", entry)
            return
        if roll is not None:
            self._apply(roll)
            self.rolls.add(roll.seq)
        else:
            self.moves.update(e.seq for e in unit.events if _rolled(e))

    def _why_not(self, unit: _Unit, roll: Any) -> str | None:
        """Why the unit's moves cannot be made again (``""``: they roll nothing, so a
        roll entry is all there is to say), or ``None`` when they can."""
        from companion.store.registry import move_parameters
        from companion.store.upcast import CONVERTED, EVENT_FORMAT, fact_schema

        rolled = roll is not None or any(_rolled(e) for e in unit.events)
        if self.made + len(unit.events) > self.max_moves:
            return f"past the first {self.max_moves:,} moves made again" if rolled else ""
        secret = roll.data.get("secret") if roll is not None else None
        hidden = [e for e in unit.events if "hidden" in e.data]
        seed = _unit_seed(unit, roll)
        rolling = 0
        for event in unit.events:
            data = event.data
            if data.get("physical") is True:
                return "made with the player's own dice"
            if data.get("v") != EVENT_FORMAT or "after" in data or CONVERTED in data:
                return "logged by an older version" if rolled else ""
            member = self.scratch.members.get(str(event.tracker))
            if member is None:
                return None  # applying it says what is wrong
            cls = type(member.tracker)
            if fact_schema(data) != cls.schema:
                return "logged at an older schema version" if rolled else ""
            _check_move_name(event, cls, member.name)
            params = move_parameters(cls, str(event.move))
            if ("seed" in params or "rng" in params) and _rolled(event) \
                    and not data.get("nested"):
                rolling += 1
        if hidden:
            if not isinstance(secret, dict) or type(seed) is not int:
                return "a hidden roll whose seed is not in this copy of the log"
            if rolling > 1:
                return "a hidden roll of several moves that roll"
        return None

    def _remake(self, unit: _Unit, roll: Any, entry: int) -> bool:
        """Make the unit's moves again on the trackers as they are before it, then put
        them back and apply the stored facts, and compare; the trackers end as the stored
        facts leave them. ``False``: a move made another tracker's move that the log does
        not mark ``"nested"`` (an older log): it cannot be told apart from its own."""
        members = self.scratch.members
        ids = list(dict.fromkeys(str(e.tracker) for e in unit.events))
        if any(i not in members for i in ids):
            for event in unit.events:
                self._apply(event)  # raises, naming the event
        trackers = {i: members[i].tracker for i in ids}
        # A unit over several trackers says which of its moves other moves made
        # ("nested", since this version); an older one's cannot be told apart, so a
        # mismatch there means only that it could not be made again.
        lenient = len(ids) > 1 and not any("nested" in e.data for e in unit.events)
        before = {i: t.save_point() for i, t in trackers.items()}
        try:
            for tracker in trackers.values():
                tracker.attach(None)  # made here, not stored: no seam, no seat
            made = self._make_unit(unit, roll, entry, trackers, lenient)
        except RecomputeError:
            if lenient:
                made = None
            else:
                raise
        except (CompanionError, KeyError, TypeError, ValueError, AttributeError,
                IndexError) as exc:
            if not lenient:
                raise RecomputeError(f"entry {entry}: its moves cannot be made again on "
                                     f"the state before them ({clipped(str(exc), 80)}): "
                                     "the log's facts or its seed were changed") from None
            made = None
        finally:
            for i, t in trackers.items():  # one restore: the facts are applied after it
                t.return_to(before[i])
                t.attach(self.scratch)
        for event in unit.events:
            self._apply(event)
        if made is None:
            return False
        for i, tracker in trackers.items():
            diff = state_change(tracker.snapshot(), made[i])
            if diff:
                if lenient:
                    return False
                where = next((e for e in unit.events if str(e.tracker) == i),
                             unit.events[0])
                path = ".".join(str(p) for p in diff[0][0]) or "its state"
                raise RecomputeError(_changed(entry, where, roll,
                                              f"{members[i].name}'s {path} differs"))
        return True

    def _make_unit(self, unit: _Unit, roll: Any, entry: int, trackers: dict[str, Tracker],
                   lenient: bool) -> dict[str, Any] | None:
        """The unit's top moves made again with its seed (a move another made is made by
        it); each one's summary compared with the log's. Returns the trackers' states
        after (``None``: an older log's nested move, found)."""
        from companion import fairplay
        from companion.store.registry import decode_args, move_parameters

        seed = _unit_seed(unit, roll)
        shared = SeededRandom(seed) if type(seed) is int else None
        for event in unit.events:
            if event.data.get("nested"):
                continue  # made again by the move that made it
            tracker = trackers[str(event.tracker)]
            cls = type(tracker)
            name = str(event.move)
            params = move_parameters(cls, name)
            args = decode_args(cls, name, dict(event.data.get("args", {})))
            hidden = "hidden" in event.data
            if hidden and "seed" in params and type(seed) is int:
                args["seed"] = seed
            elif "rng" in params and args.get("seed") is None and shared is not None \
                    and _rolled(event):
                args["rng"] = shared  # the roll's generator, shared as the session does
            elif "seed" in params and args.get("seed") is None and type(event.seed) is int:
                args["seed"] = event.seed
            state_before = tracker.snapshot()
            lengths = {i: len(t.log) for i, t in trackers.items()}
            self.made += 1
            _make(tracker, name, args)
            if lenient and any(other is not tracker and len(other.log) != lengths[i]
                               for i, other in trackers.items()):
                return None
            _take_nonces(tracker, event.data.get("change"))
            if hidden:
                fairplay.hide_move(tracker, state_before, str(event.data["hidden"]))
            else:
                said = tracker.log[-1].summary if tracker.log else ""
                if said != event.data.get("summary"):
                    raise RecomputeError(_changed(entry, event, roll,
                                                  f"it says {clipped(said, 40)!r}"))
        return {i: t.snapshot() for i, t in trackers.items()}


def _check_move_name(event: Any, cls: type[Tracker], member: str) -> None:
    """A move event names a move of its tracker's class (issue 49: a name changed to one
    that does not exist, to a method that is not a move, ``status``, or to an attribute,
    ``__class__``, was looked up and went out as a traceback)."""
    from companion.state import is_move

    name = event.move
    if event.kind == "move" and not (isinstance(name, str) and is_move(
            getattr(cls, name, None))):
        raise RecomputeError(f"entry {event.seq}: {clipped(member, 40)} has no move "
                             f"{clipped(str(name), 40)!r} (a {cls.__name__} has no such "
                             "move): the move's name was changed")


def _make(tracker: Tracker, name: str, args: dict[str, Any]) -> None:
    method: Callable[..., Any] = getattr(tracker, name)
    method(**args)


def _take_nonces(tracker: Tracker, change: Any) -> None:
    """The fields a move fills from the system's entropy (its class's ``NONCE_STATE``, a
    commitment's salt: no die depends on them) as the log stored them."""
    fields = getattr(type(tracker), "NONCE_STATE", ())
    if not fields or not isinstance(change, list):
        return
    stored = {step[0][0]: step[1] for step in change
              if isinstance(step, list) and len(step) == 2 and isinstance(step[0], list)
              and len(step[0]) == 1 and step[0][0] in fields}
    if stored:
        save = tracker.to_dict()
        save["state"].update(stored)
        tracker.restore_save(save)


def _rolled(event: Any) -> bool:
    return bool(event.data.get("rolled")) or event.seed is not None


def _unit_seed(unit: _Unit, roll: Any) -> Any:
    """The seed the unit rolled with: its roll entry's (a hidden one's in its secret),
    else its first move's."""
    if roll is not None:
        secret = roll.data.get("secret")
        if isinstance(secret, dict):
            return secret.get("seed")
        if roll.seed is not None:
            return roll.seed
    return next((e.seed for e in unit.events if e.seed is not None), None)


def _changed(entry: int, event: Any, roll: Any, how: str) -> str:
    if roll is not None:
        label = roll.data.get("label") or (roll.data.get("secret") or {}).get("label")
        what = f"rule roll {label!r}"
    else:
        what = f"move {event.move}"
    return (f"entry {entry} ({clipped(what, 50)}): made again from its seed, it gives "
            f"other facts than the log (entry {event.seq}: {how})")


def _event(row: dict[str, Any]) -> Any:
    from companion.store.records import StoredEvent

    return StoredEvent(row["seq"], str(row.get("at", "")), str(row.get("who", "")),
                       str(row.get("role", "")), str(row.get("kind")), row.get("tracker"),
                       row.get("move"), row.get("seed"), row["data"], str(row.get("prev")))
