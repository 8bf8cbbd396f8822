"""Acts: a move written down as plain data, judged by a session (issue 43).

An [Act][companion.table.acts.Act] names what a seat wants done — the tracker (a member's
id or name), the move, its arguments as JSON, and for a rolled move how it is rolled (the
mode, the label the roll log shows, real dice's faces) — and nothing else: no tracker
object, no callback, no seed. So an act can be written down, kept in a queue while a
phone is offline, sent over a wire and judged again, and a log of acts replays through
another session.

[Session.perform][companion.table.session.Session.perform] judges an act against the
store, as the seat the session holds, and answers with plain data too:
[Accepted][companion.table.acts.Accepted] (the events it stored, as this seat may see
them, and what the move gave) or [Refused][companion.table.acts.Refused] (the one-line
reason). Nothing in an act is trusted: its names are looked up, its arguments are read
back against the move's own signature, and who may make it is decided by the seam as for
any move.

Besides a tracker's moves, an act may name one of the table's own (``tracker`` empty):

- ``roll`` (``expr``): a dice expression for the roll log;
- ``rule`` (``name``, ``args``, ``lead``): a declared rule that moves no tracker
  ([companion.rule_rolls][]), rolled as the act's ``roll`` says;
- ``table`` (``name``, ``args``): a declared table move, one that moves several trackers
  ([companion.table_moves][]), stored as one unit of work (rolled as the act's ``roll``
  says, when it rolls);
- ``reveal`` (``entry``): reveal a hidden roll;
- ``client_seed`` (``seed``): this seat's client seed for the provably fair dice.

and two on any tracker: ``undo`` (this seat's newest move there) and ``load``
(``text``: a whole save).

- Interpretation: an act's ``client`` and ``seq`` (a device's name for itself and the
  act's number there) are carried for whoever queues acts; judging an act does not read
  them, storing it does: its events carry both, and an act this seat stored already is
  not stored again ([Session.perform][companion.table.session.Session.perform]).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError, clipped
from companion.state import jsonable

__all__ = ["MAX_ACT_BYTES", "TABLE_MOVES", "TRACKER_ACTS", "Accepted", "Act", "ActError",
           "Outcome", "Refused", "RollSpec"]

#: The largest act, as JSON text (a save loaded whole is the biggest an app sends).
MAX_ACT_BYTES = 1_000_000

#: How deeply an act's arguments may nest.
MAX_ACT_DEPTH = 32

#: The table's own acts (``tracker`` empty).
TABLE_MOVES = ("roll", "rule", "table", "reveal", "client_seed")

#: Acts on any tracker besides its moves.
TRACKER_ACTS = ("undo", "load")

_MODES = ("public", "gm", "blind", "self")
_FIELDS = {"tracker", "move", "args", "roll", "client", "seq"}
_ROLL_FIELDS = {"mode", "label", "own_dice", "seed"}


class ActError(CompanionError):
    """An act that is not well formed (a field missing or of the wrong kind)."""


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth > MAX_ACT_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return deepest


def _bracket_depth(text: str) -> int:
    """How deeply JSON ``text`` nests, counted on its brackets outside strings (before
    it is parsed: the parser's own recursion would meet a crafted 10,000-deep list)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _text(data: Mapping[str, Any], key: str, where: str, *, limit: int = 200) -> str:
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ActError(f"{where}: {key!r} must be text, not {type(value).__name__}")
    if len(value) > limit:
        raise ActError(f"{where}: {key!r} is longer than {limit} characters")
    return value


@dataclass(frozen=True)
class RollSpec:
    """How a rolled act is rolled: its ``mode`` (``public``, ``gm``, ``blind``,
    ``self``), the ``label`` the roll log shows, and real dice's faces (``own_dice``,
    in the order the rule rolls them; ``None``: the session's dice)."""

    mode: str = "public"
    label: str = ""
    own_dice: tuple[int, ...] | None = None
    #: A seed the GM typed (marked in the log as chosen; a player's is refused).
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": self.mode, "label": self.label}
        if self.own_dice is not None:
            out["own_dice"] = list(self.own_dice)
        if self.seed is not None:
            out["seed"] = self.seed
        return out

    @classmethod
    def from_dict(cls, data: Any, where: str = "act") -> RollSpec:
        where = f"{where}: roll"
        if not isinstance(data, dict):
            raise ActError(f"{where} must be an object, not {type(data).__name__}")
        unknown = set(data) - _ROLL_FIELDS
        if unknown:
            raise ActError(f"{where} has no field {sorted(unknown)[0]!r}")
        mode = data.get("mode", "public")
        if mode not in _MODES:
            raise ActError(f"{where}: mode must be one of {', '.join(_MODES)}, not "
                           f"{clipped(str(mode), 20)!r}")
        faces = data.get("own_dice")
        own: tuple[int, ...] | None = None
        if faces is not None:
            if not isinstance(faces, list) or len(faces) > 1000 or not all(
                    type(f) is int for f in faces):
                raise ActError(f"{where}: own_dice must be a list of whole numbers "
                               "(at most 1,000)")
            own = tuple(faces)
        seed = data.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**53):
            raise ActError(f"{where}: seed must be a whole number from 0 to 2^53 - 1")
        return cls(mode, _text(data, "label", where), own, seed)


@dataclass(frozen=True)
class Act:
    """A move as plain data; see the module's docstring."""

    tracker: str
    move: str
    args: Mapping[str, Any] = field(default_factory=dict)
    roll: RollSpec | None = None
    client: str = ""
    seq: int = 0

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"tracker": self.tracker, "move": self.move,
                               "args": jsonable(dict(self.args))}
        if self.roll is not None:
            out["roll"] = self.roll.to_dict()
        if self.client:
            out["client"] = self.client
        if self.seq:
            out["seq"] = self.seq
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Any, where: str = "act") -> Act:
        """An act read from JSON data; anything malformed is an
        [ActError][companion.table.acts.ActError] naming the field."""
        if not isinstance(data, dict):
            raise ActError(f"{where} must be an object, not {type(data).__name__}")
        unknown = set(data) - _FIELDS
        if unknown:
            raise ActError(f"{where} has no field {sorted(unknown)[0]!r}")
        move = _text(data, "move", where, limit=80)
        if not move:
            raise ActError(f"{where}: 'move' names the move to make")
        args = data.get("args", {})
        if not isinstance(args, dict) or not all(isinstance(k, str) for k in args):
            raise ActError(f"{where}: 'args' must be an object of named arguments")
        if _depth(args) > MAX_ACT_DEPTH:
            raise ActError(f"{where}: 'args' nests deeper than {MAX_ACT_DEPTH} levels")
        seq = data.get("seq", 0)
        if type(seq) is not int or not 0 <= seq < 2**53:
            raise ActError(f"{where}: 'seq' must be a whole number from 0")
        roll = data.get("roll")
        return cls(_text(data, "tracker", where, limit=120), move, args,
                   None if roll is None else RollSpec.from_dict(roll, where),
                   _text(data, "client", where, limit=80), seq)

    @classmethod
    def from_json(cls, text: str | bytes, where: str = "act") -> Act:
        """An act read from its JSON text (bounded in size and depth before it is read)."""
        if len(text) > MAX_ACT_BYTES:
            raise ActError(f"{where} is larger than {MAX_ACT_BYTES:,} bytes")
        # Depth is bounded by brackets before parsing: json's own recursion would
        # otherwise meet a crafted 10,000-deep list first.
        raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        if _bracket_depth(raw) > MAX_ACT_DEPTH + 4:
            raise ActError(f"{where} nests deeper than {MAX_ACT_DEPTH} levels")
        try:
            data = json.loads(raw)
        except ValueError as exc:
            raise ActError(f"{where} is not JSON ({str(exc).split(':')[0]})") from None
        return cls.from_dict(data, where)

    def __str__(self) -> str:
        on = self.tracker or "the table"
        return f"{self.move} on {on}"


@dataclass(frozen=True)
class Accepted:
    """A judged act that was made: ``events`` are what it stored, as the seat that made
    it may see them (``StoredEvent.to_dict`` form); ``result`` what the move gave, as
    JSON (``None`` when the seat may not see it, a hidden roll's); ``roll`` the roll
    log's entry of a rolled act (its number, mode, commitment, seed and text when
    shown)."""

    act: Act
    events: tuple[dict[str, Any], ...] = ()
    result: Any = None
    roll: dict[str, Any] | None = None
    #: What the move returned, as the object it is, for a face in the same process
    #: (``None`` where ``result`` is): never part of the act's answer on a wire.
    value: Any = field(default=None, compare=False, repr=False)
    #: Made before (a resend of an act whose events carry its client and seq): nothing
    #: was stored now; ``events`` are those it stored then, its result is not kept.
    again: bool = False
    ok = True

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": True, "act": self.act.to_dict(),
                               "events": list(self.events), "result": self.result}
        if self.roll is not None:
            out["roll"] = self.roll
        if self.again:
            out["again"] = True
        return out


@dataclass(frozen=True)
class Refused:
    """A judged act that was not made, and why (one line); nothing was stored."""

    act: Act
    reason: str
    #: The refusal as it was raised, for a face in the same process (to show it under
    #: the box it is about): never part of the act's answer on a wire.
    error: BaseException | None = field(default=None, compare=False, repr=False)
    ok = False

    def to_dict(self) -> dict[str, Any]:
        return {"ok": False, "act": self.act.to_dict(), "reason": self.reason}


Outcome = Accepted | Refused
