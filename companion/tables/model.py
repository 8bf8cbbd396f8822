"""The table model: keys (ranges and pairs), rows, tables, results, odds and rolling."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from companion.dice.render import fraction_text
from companion.errors import CompanionError, TableError, quoted

Read = Literal["total", "unordered"]

#: A nested roll inside result text: ``{2d6}`` or ``{table:other_id}``.
NESTED = re.compile(r"\{([^{}]*)\}")
_PAIR_DIE = re.compile(r"\s*([0-9]*)\s*d\s*([0-9]+)\s*$", re.IGNORECASE)
_DASHES = "-–—"  # a seed writes 1-2, 1–2 or 1—2
# Keys are written in ASCII digits only ("١" or "１" are not rolls a die shows).
_RANGE = re.compile(rf"^\s*([0-9]+)\s*(?:[{_DASHES}]\s*([0-9]+)\s*)?$")
_OPEN = re.compile(r"^\s*([0-9]+)\s*\+\s*$")
_FACE = re.compile(r"^\s*([0-9]+)\s*$")
#: The most digits a number in a key may have (no die comes near it).
MAX_KEY_DIGITS = 9
_PRINTED_PERCENT = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_PRINTED_IN = re.compile(r"^\s*([\d,]+)\s+in\s+([\d,]+)\s*$")

#: Nested rolls deeper than this are refused (a loop through dice, not tables).
MAX_NESTING = 16

#: What a ``reroll`` row's chance means (it is not part of the rows that sum to 1).
REROLL_NOTE = (
    "A face marked roll again is noted and that die is rolled again, so the other rows' "
    "chances (of the final result) sum to 1; a roll-again row's chance is that its face "
    "shows on the first roll, which adds that feature to the result."
)


def _number(text: str, top: int) -> int:
    """A face as the seed writes it; ``00`` (or ``0`` on a d10) is the die's highest face."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"{quoted(digits)} is not a number")
    if len(digits) > MAX_KEY_DIGITS:
        raise ValueError(f"{quoted(digits)} has more than {MAX_KEY_DIGITS} digits")
    if set(digits) == {"0"} and top == 10 ** len(digits):
        return top
    return int(digits)


def parse_key(text: str, read: Read, low: int, high: int) -> frozenset[int] | tuple[int, int]:
    """The rolls a row's key covers.

    ``total`` tables: ``"13"``, ``"1-2"``, ``"01-50"``, ``"00"``, ``"11+"`` (to the top),
    or several of these joined by commas (``"2, 12"``). ``unordered`` tables: a pair
    ``"1, 2"`` (either order), or one face ``"11"`` (a die showing it). Raises
    ``ValueError`` with the reason, also for a number outside ``low`` to ``high`` (a row
    that could never come up), written in other than ASCII digits, or of more than
    `MAX_KEY_DIGITS` digits.
    """
    if read == "unordered":
        parts = text.split(",")
        if len(parts) not in (1, 2) or not all(_FACE.match(p) for p in parts):
            raise ValueError(f"key {quoted(text.strip())} must be a pair 'a, b' or one face")
        faces = [_within(_number(p, high), low, high) for p in parts]
        if len(faces) == 2:
            return (min(faces), max(faces))
        return frozenset(faces)
    covered: set[int] = set()
    for part in text.split(","):
        if match := _RANGE.match(part):
            first = _within(_number(match.group(1), high), low, high)
            last = _within(_number(match.group(2), high), low, high) if match.group(2) else first
            if last < first:
                raise ValueError(f"range {quoted(part.strip())} runs backwards")
            covered.update(range(first, last + 1))
        elif match := _OPEN.match(part):
            first = _number(match.group(1), high)
            if first > high:
                raise ValueError(f"{quoted(part.strip())} starts above the highest roll, {high}")
            covered.update(range(_within(first, low, high), high + 1))
        else:
            raise ValueError(f"key {quoted(part.strip())} is not a roll, a range 'a-b' or 'a+'")
    return frozenset(covered)


def _within(value: int, low: int, high: int) -> int:
    if not low <= value <= high:
        raise ValueError(f"roll {value} cannot come up (the die gives {low} to {high})")
    return value


def parse_printed(text: str) -> Fraction | None:
    """A seed's printed chance (``"5%"``, ``"12 in 23,040"``) as an exact value, if it is one."""
    if match := _PRINTED_PERCENT.match(text):
        return Fraction(match.group(1)) / 100
    if match := _PRINTED_IN.match(text):
        whole = int(match.group(2).replace(",", ""))
        return Fraction(int(match.group(1).replace(",", "")), whole) if whole else None
    return None


@dataclass(frozen=True)
class Row:
    """One row: its key as the seed writes it, what it covers, and its result columns.

    ``covers`` is a set of totals, or for ``unordered`` tables a sorted pair or a set of
    one face. ``reroll`` marks a face that is noted and rolled again (unordered tables).
    ``printed`` is the seed's own printed chance for the row, kept as data, if any.
    """

    range: str
    covers: frozenset[int] | tuple[int, int]
    values: dict[str, str]
    reroll: bool = False
    printed: str | None = None

    @property
    def text(self) -> str:
        """The result text (before nested rolls), all columns joined."""
        return _joined(self.values)

    def __str__(self) -> str:
        return f"{self.range}: {self.text}"


@dataclass(frozen=True)
class TableResult:
    """A roll on a table, explaining itself.

    ``roll`` is the total (or, for ``unordered`` tables, the final pair); ``row`` the row
    it hit; ``values`` the columns with nested rolls filled in; ``nested`` the rolls made
    inside the text, ``noted`` the reroll rows met on the way (unordered tables) and
    ``noted_text`` their text with nested rolls filled in.
    """

    table: Table
    roll: int | tuple[int, int]
    row: Row
    values: dict[str, str]
    nested: list[tuple[str, Any]] = field(default_factory=list)
    noted: list[tuple[int, Row]] = field(default_factory=list)
    noted_text: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        main = _joined(self.values)
        return " + ".join([main, *self.noted_text]) if self.noted_text else main

    def __str__(self) -> str:
        shown = ", ".join(map(str, self.roll)) if isinstance(self.roll, tuple) else self.roll
        noted = "".join(f" ({face}: rolled again)" for face, _ in self.noted)
        return f"{self.table.title} [{self.table.die}{noted} → {shown}]: {self.text}"

    def __repr__(self) -> str:
        return f"<TableResult {self.table.id}: {self.row.range}>"

    def to_dict(self) -> dict[str, Any]:
        def nested(value: Any) -> Any:
            return value.to_dict() if hasattr(value, "to_dict") else value

        return {
            "table": self.table.id,
            "roll": list(self.roll) if isinstance(self.roll, tuple) else self.roll,
            "row": self.row.range,
            "result": self.text,
            "values": self.values,
            "nested": [{"expr": expr, "roll": nested(v)} for expr, v in self.nested],
            "noted": [{"face": face, "row": row.range, "result": text}
                      for (face, row), text in zip(self.noted, self.noted_text, strict=True)],
        }


@dataclass(frozen=True)
class Table:
    """A random table read from TOML (see [companion.tables][] for the format)."""

    id: str
    title: str
    section: str
    die: str
    rows: tuple[Row, ...]
    ruleset: str = ""
    read: Read = "total"
    columns: tuple[str, ...] = ("Result",)
    notes: str = ""
    source: str = ""
    #: How the registry finds other tables for ``{table:id}``; set by the loader.
    lookup: Callable[[str], Table] | None = field(default=None, compare=False, repr=False)

    def __repr__(self) -> str:
        return f"<Table {self.id}: {self.die}, {len(self.rows)} rows>"

    # -- odds --------------------------------------------------------------------------

    def faces(self) -> tuple[int, int]:
        """Sides of each die of an ``unordered`` table, and how many dice (always 2)."""
        match = _PAIR_DIE.match(self.die)
        if not match or (match.group(1) or "1") != "2" or int(match.group(2)) < 1:
            raise TableError(
                f"table {self.id}: read = 'unordered' needs die '2dN', got {self.die!r}"
            )
        return int(match.group(2)), 2

    def distribution(self) -> dict[int, Fraction]:
        """Exact chance of each total of the die (``total`` tables)."""
        from companion import dice

        return {value: p for value, p in dice.odds(self.die) if p}

    def odds(self) -> list[tuple[Row, Fraction]]:
        """Every row with its exact chance.

        ``total`` rows: the chance the die's total lands in the row; they sum to 1.
        ``unordered`` tables: a pair row's chance is that of the final pair, after every
        ``reroll`` face has been rolled again; a ``reroll`` row's chance is that it shows
        on at least one die of the first roll (those rows add to a result, so their
        chances are not part of the sum of 1).
        """
        if self.read == "unordered":
            sides, _ = self.faces()
            again = {f for row in self.rows if row.reroll for f in row.covers}
            kept = sides - len(again)
            out: list[tuple[Row, Fraction]] = []
            for row in self.rows:
                if row.reroll:
                    out.append((row, 1 - Fraction(sides - 1, sides) ** 2))
                else:
                    a, b = row.covers
                    out.append((row, Fraction(1 if a == b else 2, kept * kept)))
            return out
        dist = self.distribution()
        return [(row, sum((dist.get(v, Fraction(0)) for v in row.covers), Fraction(0)))
                for row in self.rows]

    def printed_difference(self, row: Row, p: Fraction) -> bool:
        """Whether the seed's printed chance for ``row`` disagrees with the exact ``p``.

        A printed percentage agrees if it equals ``p`` rounded to the printed precision.
        """
        if row.printed is None:
            return False
        printed = parse_printed(row.printed)
        if printed is None:
            return False
        if "%" in row.printed:
            # A rounded figure agrees if it is within half its last printed digit.
            decimals = len(row.printed.strip().rstrip("%").strip().partition(".")[2])
            return abs(p - printed) * 100 > Fraction(1, 2 * 10**decimals)
        return printed != p

    # -- rolling -----------------------------------------------------------------------

    def row_for(self, roll: int | tuple[int, int]) -> Row:
        """The row a total (or an unordered pair, or one reroll face) lands on."""
        for row in self.rows:
            if isinstance(roll, tuple):
                if row.covers == (min(roll), max(roll)):
                    return row
            elif isinstance(row.covers, frozenset) and roll in row.covers:
                return row
        raise TableError(f"table {self.id}: no row for roll {roll}")

    def roll(self, *, seed: int | None = None, rng: random.Random | None = None) -> TableResult:
        """Roll on the table (and any nested rolls in the result), seedably."""
        return self._roll(rng if rng is not None else random.Random(seed), ())

    def _roll(self, rng: random.Random, stack: tuple[str, ...]) -> TableResult:
        from companion import dice

        if self.id in stack:
            raise TableError("table cycle: " + " → ".join([*stack, self.id]))
        if len(stack) >= MAX_NESTING:
            raise TableError(f"table {self.id}: nested rolls deeper than {MAX_NESTING}")
        stack = (*stack, self.id)
        noted: list[tuple[int, Row]] = []
        total: int | tuple[int, int]
        if self.read == "unordered":
            sides, count = self.faces()
            again = {f: row for row in self.rows if row.reroll for f in row.covers}
            if len(again) >= sides:
                raise TableError(f"table {self.id}: every face is a reroll face")
            faces = [d.value for d in dice.roll(self.die, rng=rng).dice][:count]
            for i, face in enumerate(faces):
                # Interpretation: a reroll face is noted each time it shows, until the die
                # lands on a face of the pairs; the chance of a long run is negligible.
                while face in again:
                    noted.append((face, again[face]))
                    face = dice.roll(f"1d{sides}", rng=rng).total
                faces[i] = face
            total = (min(faces), max(faces))
        else:
            total = dice.roll(self.die, rng=rng).total
        row = self.row_for(total)
        nested: list[tuple[str, Any]] = []
        values = {column: self._expand(text, rng, stack, nested)
                  for column, text in row.values.items()}
        noted_text = [_joined({column: self._expand(text, rng, stack, nested)
                                for column, text in extra.values.items()})
                      for _face, extra in noted]
        return TableResult(self, total, row, values, nested, noted, noted_text)

    def _expand(self, text: str, rng: random.Random, stack: tuple[str, ...],
                nested: list[tuple[str, Any]]) -> str:
        from companion import dice

        def one(match: re.Match[str]) -> str:
            inner = match.group(1).strip()
            if inner.startswith("table:"):
                other = self._other(inner.removeprefix("table:").strip())
                result = other._roll(rng, stack)
                nested.append((inner, result))
                return result.text
            try:
                rolled = dice.roll(inner, rng=rng)
            except CompanionError as exc:
                raise TableError(f"table {self.id}: nested roll {{{inner}}}: {exc}") from None
            nested.append((inner, rolled))
            return str(rolled.total)

        return NESTED.sub(one, text)

    def _other(self, table_id: str) -> Table:
        if self.lookup is None:
            from companion import tables

            return tables.get(table_id)
        return self.lookup(table_id)

    def references(self) -> Iterator[str]:
        """Every nested roll written in the rows (``"2d6"``, ``"table:x"``)."""
        for row in self.rows:
            for text in row.values.values():
                for match in NESTED.finditer(text):
                    yield match.group(1).strip()

    # -- presenting --------------------------------------------------------------------

    def to_markdown(self) -> str:
        """The table as Markdown: key, columns, exact chance and percentage, seed's figure."""
        from companion.dice.render import percent

        odds = self.odds()
        printed = any(row.printed is not None for row in self.rows)
        head = [self.die, *self.columns, "Chance", "%"] + (["Printed"] if printed else [])
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for row, p in odds:
            cells = [row.range + (" (roll again)" if row.reroll else "")]
            cells += [row.values[c] for c in self.columns]
            cells += [fraction_text(p), percent(p)]
            if printed:
                mark = " ⚠ differs" if self.printed_difference(row, p) else ""
                cells.append((row.printed or "") + mark)
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        if self.read == "unordered":
            lines.append("")
            lines.append("Read the two dice in either order." + (
                f" {REROLL_NOTE}" if any(row.reroll for row in self.rows) else ""))
        if self.notes:
            lines += ["", self.notes]
        return "\n".join(lines) + "\n"

    def to_dict(self) -> dict[str, Any]:
        """Id, ruleset, title, die and rows with exact chances (``"p/q"``)."""
        out: dict[str, Any] = {
            "id": self.id, "ruleset": self.ruleset, "title": self.title,
            "section": self.section, "die": self.die, "read": self.read,
            "columns": list(self.columns),
            "rows": [{"range": row.range, "values": row.values, "reroll": row.reroll,
                      "p": fraction_text(p), "printed": row.printed}
                     for row, p in self.odds()],
        }
        if any(row.reroll for row in self.rows):
            out["note"] = REROLL_NOTE
        return out


def _joined(values: dict[str, str]) -> str:
    """One column's text, or every column as ``Column: text`` joined by ``; ``."""
    if len(values) == 1:
        return next(iter(values.values()))
    return "; ".join(f"{column}: {value}" for column, value in values.items())


