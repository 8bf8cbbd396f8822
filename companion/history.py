"""Roll history: the plain model behind the dice tray's log of rolls.

A [RollHistory][companion.history.RollHistory] keeps the newest rolls first, up to
``limit`` of them (oldest fall off), and tells its observers after every change. Each
[RollRecord][companion.history.RollRecord] keeps what is needed to check or replay a roll:
the expression, every die, the total, the subtotal per label, when it was rolled and the
seed that produced it (``roll(expr, seed=seed)`` gives the same dice again). Every record
is bounded (a 1000-die roll keeps its first dice and a cut text; its seed replays it).
Exports: CSV for a spreadsheet, JSON that
[RollHistory.from_json][companion.history.RollHistory.from_json] reads back exactly.
Standard library only: it runs under Pyodide and may later live in a store shared by
several browsers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from companion.errors import StateError, clipped
from companion.state import Observable

__all__ = [
    "CSV_COLUMNS",
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "MAX_RECORD_DICE",
    "MAX_RECORD_TEXT",
    "RollHistory",
    "RollRecord",
]

DEFAULT_LIMIT = 200
"""Rolls kept by default; the oldest are dropped beyond it."""

MAX_LIMIT = 10_000
"""The most rolls a history may keep (a loaded file may not ask for more)."""

MAX_RECORD_TEXT = 2_000
"""Characters of a roll's one-line text a record keeps (a 1000-die roll is cut; its seed
and expression still replay it exactly)."""

MAX_RECORD_DICE = 200
"""Dice a record keeps per roll (the first ones); the seed replays the rest."""

MAX_HISTORY_CHARS = 50_000_000
"""The longest history file [RollHistory.from_json][companion.history.RollHistory.from_json]
reads."""


FORMAT = "table-companion/roll-history"
FORMAT_VERSION = 1
CSV_COLUMNS = ("n", "time", "expr", "total", "dice", "labels", "seed")


class _RollLike(Protocol):
    """What [RollHistory.add_roll][companion.history.RollHistory.add_roll] needs from a
    ``companion.dice.Roll``."""

    expr: str
    total: int

    def to_dict(self) -> dict[str, Any]: ...


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _time_text(when: datetime) -> str:
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class RollRecord:
    """One roll as the history keeps it (JSON values only).

    ``n`` counts rolls since the history began (1, 2, ...; it keeps counting after a
    clear), ``text`` is the engine's one-line form (``4d6kh3 = [6, 5, 3, ~~1~~] = 14``),
    ``dice`` the engine's per-die dicts, ``time`` an ISO 8601 UTC timestamp.
    """

    n: int
    expr: str
    total: int
    text: str
    seed: int
    time: str
    dice: tuple[Mapping[str, Any], ...] = ()
    labels: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "time": self.time,
            "expr": self.expr,
            "total": self.total,
            "text": self.text,
            "seed": self.seed,
            "dice": [dict(d) for d in self.dice],
            "labels": dict(self.labels),
        }

    @classmethod
    def from_dict(cls, data: object, where: str = "roll") -> RollRecord:
        """Build a record from [to_dict][companion.history.RollRecord.to_dict] output.

        ``StateError`` names the bad field."""
        if not isinstance(data, dict):
            raise StateError(f"{where}: expected an object, got {type(data).__name__}")
        expected = {"n", "time", "expr", "total", "text", "seed", "dice", "labels"}
        missing = sorted(expected - data.keys())
        if missing:
            raise StateError(f"{where}.{missing[0]}: missing")
        extra = sorted(data.keys() - expected)
        if extra:
            raise StateError(f"{where}.{extra[0]}: unknown field")
        n = _int(data["n"], f"{where}.n")
        if n < 1:
            raise StateError(f"{where}.n: must be at least 1, got {n}")
        time = _str(data["time"], f"{where}.time")
        try:
            datetime.fromisoformat(time)
        except ValueError:
            raise StateError(f"{where}.time: not an ISO 8601 time: {_shown(time)}") from None
        dice = data["dice"]
        if not isinstance(dice, list) or not all(isinstance(d, dict) for d in dice):
            raise StateError(f"{where}.dice: expected a list of objects")
        if len(dice) > MAX_RECORD_DICE:
            raise StateError(f"{where}.dice: {len(dice)} dice, at most {MAX_RECORD_DICE} kept")
        for key in ("expr", "text"):
            value = data[key]
            if isinstance(value, str) and len(value) > MAX_RECORD_TEXT + 40:
                raise StateError(f"{where}.{key}: longer than {MAX_RECORD_TEXT} characters")
        labels = data["labels"]
        if not isinstance(labels, dict):
            raise StateError(f"{where}.labels: expected an object")
        for key, value in labels.items():
            _int(value, f"{where}.labels.{key}")
        return cls(
            n=n,
            expr=_str(data["expr"], f"{where}.expr"),
            total=_int(data["total"], f"{where}.total"),
            text=_str(data["text"], f"{where}.text"),
            seed=_int(data["seed"], f"{where}.seed"),
            time=time,
            dice=tuple(dice),
            labels=dict(labels),
        )


def _int(value: object, where: str) -> int:
    # bool is an int subclass; a saved "true" where a number belongs is corruption.
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{where}: expected an integer, got {_shown(value)}")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise StateError(f"{where}: expected a string, got {_shown(value)}")
    return value


class RollHistory(Observable):
    """The newest ``limit`` rolls, newest first; observers hear of every add and clear.

    >>> h = RollHistory(limit=2)
    >>> for t in (3, 5, 7):
    ...     _ = h.add(expr="1d8", total=t, text=f"1d8 = [{t}] = {t}", seed=t)
    >>> [r.total for r in h]
    [7, 5]
    """

    def __init__(
        self, *, limit: int = DEFAULT_LIMIT, clock: Callable[[], datetime] = _utc_now
    ) -> None:
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            raise ValueError(f"history limit must be a whole number from 1 to {MAX_LIMIT}, "
                             f"got {limit!r}")
        self.limit = limit
        self._clock = clock
        self._records: list[RollRecord] = []  # newest first
        self._count = 0

    # -- reading -------------------------------------------------------------------------
    @property
    def records(self) -> tuple[RollRecord, ...]:
        """Kept rolls, newest first."""
        return tuple(self._records)

    @property
    def count(self) -> int:
        """Rolls added since the history began, cleared ones included (the last ``n``)."""
        return self._count

    def __len__(self) -> int:
        return len(self._records)

    def __iter__(self) -> Iterator[RollRecord]:
        return iter(tuple(self._records))

    @property
    def latest(self) -> RollRecord | None:
        return self._records[0] if self._records else None

    # -- changing ------------------------------------------------------------------------
    def add(
        self,
        *,
        expr: str,
        total: int,
        text: str,
        seed: int,
        dice: list[Mapping[str, Any]] | tuple[Mapping[str, Any], ...] = (),
        labels: Mapping[str, int] | None = None,
        when: datetime | None = None,
    ) -> RollRecord:
        """Record one roll (newest first), dropping the oldest beyond ``limit``.

        A huge roll is kept bounded: its text cut to
        [MAX_RECORD_TEXT][companion.history.MAX_RECORD_TEXT] characters and its dice to the
        first [MAX_RECORD_DICE][companion.history.MAX_RECORD_DICE] (the seed replays it).
        """
        record = RollRecord(
            n=self._count + 1,
            expr=clipped(expr, MAX_RECORD_TEXT),
            total=total,
            text=_clip_record_text(text),
            seed=seed,
            time=_time_text(when or self._clock()),
            dice=tuple(dict(d) for d in list(dice)[:MAX_RECORD_DICE]),
            labels=dict(labels or {}),
        )
        self._count = record.n
        self._records.insert(0, record)
        del self._records[self.limit :]
        self._changed()
        return record

    def add_roll(self, roll: _RollLike, *, seed: int, when: datetime | None = None) -> RollRecord:
        """Record a ``companion.dice.Roll`` made with ``seed``."""
        data = roll.to_dict()
        labels = getattr(roll, "labels", None) or data.get("labels") or {}
        return self.add(
            expr=roll.expr,
            total=roll.total,
            text=str(roll),
            seed=seed,
            dice=list(data.get("dice", []))[:MAX_RECORD_DICE],
            labels={str(k): int(v) for k, v in dict(labels).items()},
            when=when,
        )

    def clear(self) -> None:
        """Forget every kept roll; numbering carries on so old exports stay unambiguous."""
        self._records.clear()
        self._changed()

    # -- export --------------------------------------------------------------------------
    def to_csv(self) -> str:
        """CSV with a header row, newest first. ``dice`` holds the engine's one-line form."""
        out = io.StringIO()
        # RFC 4180 line ends: a field holding a bare \r or \n is then quoted, not split.
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        for r in self._records:
            labels = "; ".join(f"{k}={v}" for k, v in r.labels.items())
            writer.writerow([r.n, r.time, r.expr, r.total, _dice_part(r), labels, r.seed])
        return out.getvalue()

    def to_json(self) -> str:
        data = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "limit": self.limit,
            "count": self._count,
            "rolls": [r.to_dict() for r in self._records],
        }
        return json.dumps(data, ensure_ascii=False, indent=1)

    @classmethod
    def from_json(
        cls, text: str | bytes, *, clock: Callable[[], datetime] = _utc_now
    ) -> RollHistory:
        """Rebuild a history from [to_json][companion.history.RollHistory.to_json].

        A corrupt file raises ``StateError`` naming the field, in one readable line."""
        if isinstance(text, bytes | bytearray):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise StateError("roll history: the file is not UTF-8 text") from None
        if not isinstance(text, str) or not text.strip():
            raise StateError("roll history: the file is empty")
        if len(text) > MAX_HISTORY_CHARS:
            raise StateError(f"roll history: the file is too long ({len(text):,} characters, "
                             f"at most {MAX_HISTORY_CHARS:,})")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateError(
                f"roll history: not valid JSON: unreadable at line {exc.lineno} "
                f"column {exc.colno}"
            ) from None
        except RecursionError:
            raise StateError("roll history: nested too deeply to be a history") from None
        except ValueError:
            raise StateError("roll history: not valid JSON: it holds a number too long") from None
        if not isinstance(data, dict):
            raise StateError("roll history: expected a JSON object at the top level")
        if data.get("format") != FORMAT:
            raise StateError(f"format: expected {FORMAT!r}, got {_shown(data.get('format'))}")
        if data.get("version") != FORMAT_VERSION:
            raise StateError(f"version: unsupported {_shown(data.get('version'))}")
        limit = _int(data.get("limit"), "limit")
        if not 1 <= limit <= MAX_LIMIT:
            raise StateError(f"limit: must be from 1 to {MAX_LIMIT}, got {limit}")
        count = _int(data.get("count"), "count")
        rolls = data.get("rolls")
        if not isinstance(rolls, list):
            raise StateError("rolls: expected a list")
        if len(rolls) > limit:
            raise StateError(f"rolls: {len(rolls)} rolls exceed limit {limit}")
        records = [RollRecord.from_dict(r, f"rolls[{i}]") for i, r in enumerate(rolls)]
        for i in range(1, len(records)):
            if records[i].n >= records[i - 1].n:
                raise StateError(f"rolls[{i}].n: rolls must be newest first with falling n")
        if records and records[0].n > count:
            raise StateError(f"count: {count} is below the newest roll's n {records[0].n}")
        history = cls(limit=limit, clock=clock)
        history._records = records
        history._count = count
        return history


def _dice_part(record: RollRecord) -> str:
    # "4d6kh3 = [6, 5, 3, ~~1~~] = 14 (...)" -> "[6, 5, 3, ~~1~~]": the dice without repeating
    # the expression and total, which have their own columns. Other shapes are kept whole.
    head = f"{record.expr} = "
    tail = f" = {record.total}"
    text = record.text
    cut = text.rfind(tail)
    if text.startswith(head) and cut > len(head):
        return text[len(head) : cut]
    return text


def _clip_record_text(text: str) -> str:
    # Keep the " = total" ending of the engine's one-line form, so CSV can still split it.
    if len(text) <= MAX_RECORD_TEXT:
        return text
    cut = text.rfind(" = ")
    tail = text[cut:] if cut > 0 and len(text) - cut <= 40 else ""
    return f"{text[: MAX_RECORD_TEXT - len(tail) - 2]} …{tail}"


def _shown(value: object) -> str:
    """A bad value quoted short (a huge number is not even turned into digits)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return "a number too long to show"
    if isinstance(value, list | dict):
        return f"a {'list' if isinstance(value, list) else 'JSON object'} of {len(value)} items"
    return clipped(repr(value))
