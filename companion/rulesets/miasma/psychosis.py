"""Psychosis: the madness that the Miasma breeds, in six levels.

Staying long in the Miasma unprotected, or being wounded by its aberrations, can give a
creature *psychosis*, measured in six levels (`levels`). An effect that causes it says
how many levels it gives, and those add to whatever level the creature already has. A
creature suffers the effect of its level and of every level below it: at level 2 its speed
is halved *and* it has disadvantage on attack rolls and ability checks. Any creature with
psychosis also counts as *poisoned*.

**Stress.** Inside the Miasma, a creature with 2 or more stress points gains 1 level every
24 hours; with 4 or more it gains 2.

**Recovery.** An effect that removes psychosis lowers the level by the amount it states;
below level 1 every psychosis effect ends. A long rest lowers the level by 1 if the
creature rested outside the Miasma and has eaten and drunk. A *greater restoration* spell
lowers it by 1, and so does being raised from the dead. At level 6 none of these help; only
a *reincarnate* or *true resurrection* spell does.

`MiasmaTracker` follows the psychosis and stress of each character of a party as
time passes.

Interpretation: levels stop at 6; further levels gained at 6 change nothing.
Interpretation: the 24 hours are counted while the creature is inside the Miasma with 2 or
more stress. Leaving the Miasma or dropping below 2 stress resets the count; changing
between 2-3 and 4+ stress keeps it, and the stress held when the 24th hour ends decides
between +1 and +2.
Interpretation: *reincarnate* and *true resurrection* lower the level by 1 like any other
return from death; they are simply the only cures that work at level 6.
Interpretation: "has also ingested some food and drink" means since the previous long rest;
a long rest uses up that meal. A long rest inside the Miasma or without food and drink is
still a rest, it just removes no psychosis. Time passes only through
`MiasmaTracker.pass_time` (a long rest takes 8 hours: pass them too).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion.acting import named_actor
from companion.errors import RuleError, StateError, TableError, quoted
from companion.state import Tracker, move, state_field
from companion.tables.fixed import Schema, load_fixed

__all__ = ["MAX_LEVEL", "Character", "Level", "MiasmaTracker", "levels", "load_levels",
           "raised_by"]

DATA_FILE = Path(__file__).with_name("psychosis.toml")
_SCHEMA: dict[str, Schema] = {"levels": [{"level": int, "effect": str}]}

MAX_LEVEL = 6
HOURS_PER_DAY = 24
MAX_STRESS = 99
"""Highest stress score the tracker records (a guard against typos, not a rule)."""
MAX_NAME = 40
"""Longest character name."""
MAX_CHARACTERS = 50
"""Most characters one tracker follows."""
MAX_HOURS = 24 * 366 * 1000
"""Longest journey the tracker counts (a thousand years)."""
#: Stress points from which the Miasma adds 1, and 2, levels a day.
STRESS_ONE_LEVEL = 2
STRESS_TWO_LEVELS = 4

RaisedBy = Literal["other", "reincarnate", "true resurrection"]
RAISED_BY: tuple[str, ...] = ("other", "reincarnate", "true resurrection")
"""Ways back from death the rules tell apart (only the last two work at level 6)."""

def raised_by(spell: str) -> RaisedBy:
    """The way back from death a returning spell of the 5e death module counts as here.

    Interpretation: *reincarnate* and *true resurrection* are named by the seed; every other
    spell (*revivify*, *raise dead*, *resurrection*, a *wish*) is an ordinary return, so at
    level 6 it does not help.

    >>> raised_by("true resurrection"), raised_by("wish")
    ('true resurrection', 'other')
    """
    if spell == "reincarnate":
        return "reincarnate"
    if spell == "true resurrection":
        return "true resurrection"
    return "other"


_SOURCES = {"greater_restoration": "greater restoration", "remove_psychosis": "that effect"}


@dataclass(frozen=True)
class Level:
    """One row of the Psychosis Table."""

    level: int
    effect: str


@functools.cache
def levels() -> tuple[Level, ...]:
    """The six levels of psychosis and their effects (from ``psychosis.toml``)."""
    return load_levels(DATA_FILE)


def load_levels(path: Path) -> tuple[Level, ...]:
    """Read and check a psychosis table: levels 1 to 6 in order, each with its effect."""
    data = load_fixed(path, _SCHEMA)
    out = []
    for i, row in enumerate(data["levels"]):
        if not row["effect"].strip():
            raise TableError(f"psychosis: {path.name} levels[{i}].effect is empty")
        out.append(Level(row["level"], row["effect"].strip()))
    if [lv.level for lv in out] != list(range(1, MAX_LEVEL + 1)):
        raise TableError(f"psychosis: {path.name} must list levels 1 to {MAX_LEVEL} in order")
    return tuple(out)


@dataclass
class Character:
    """One creature's psychosis state.

    ``clock`` counts the hours towards the Miasma's next daily increase; ``fed`` records
    food and drink since the last long rest.
    """

    name: str = state_field(max_len=MAX_NAME)
    level: int = state_field(0, min=0, max=MAX_LEVEL)
    stress: int = state_field(0, min=0, max=MAX_STRESS)
    inside: bool = False
    clock: int = state_field(0, min=0, max=HOURS_PER_DAY - 1)
    fed: bool = False

    def check_state(self) -> None:
        """A name of 1 to 40 characters; the daily count runs only while the Miasma works."""
        if not self.name.strip() or self.name != self.name.strip():
            raise StateError("field 'name' must be a name of 1 to "
                             f"{MAX_NAME} characters without spaces around it")
        if self.clock and self.daily_gain == 0:
            raise StateError("field 'clock' must be 0 unless the character is inside the "
                             f"Miasma with {STRESS_ONE_LEVEL} or more stress")

    @property
    def poisoned(self) -> bool:
        """Every creature with psychosis counts as poisoned."""
        return self.level >= 1

    @property
    def aberration(self) -> bool:
        return self.level == MAX_LEVEL

    def effects(self) -> list[str]:
        """The effects the creature suffers now: its level's and every lower level's."""
        return [lv.effect for lv in levels()[: self.level]]

    @property
    def daily_gain(self) -> int:
        """Levels the Miasma adds every 24 hours at the current stress (0 outside)."""
        if not self.inside or self.stress < STRESS_ONE_LEVEL:
            return 0
        return 2 if self.stress >= STRESS_TWO_LEVELS else 1


@dataclass
class MiasmaTracker(Tracker):
    """Psychosis and stress for each character of a party, hour by hour.

    Every move names the character it applies to (except `pass_time`, which moves
    the whole party's clock). Moves the rules forbid raise `RuleError` and change
    nothing.
    """

    kind = "MiasmaTracker"
    what = "Miasma record"

    characters: list[Character] = state_field(default_factory=list, max_len=MAX_CHARACTERS)
    hours: int = state_field(0, min=0, max=MAX_HOURS)

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """Going into or out of the Miasma, eating and drinking and a long rest are the
        character's own (``name``); time passing, psychosis gained or lost, stress set,
        spells and the roster are the GM's."""
        own = dict.fromkeys(("enter_miasma", "leave_miasma", "eat_and_drink", "long_rest"),
                            "name")
        return named_actor(own, move, arguments)

    def check_state(self) -> None:
        """Each character once (each record checks itself, see `Character`)."""
        names = [c.name for c in self.characters]
        if len(set(names)) != len(names):
            raise StateError("field 'characters' names a character twice")

    def can(self, move: str, name: str, spell: str = "other") -> bool:
        """Whether the move named ``move`` is open to character ``name`` now.

        The same rules the moves check (the app disables what is refused).
        """
        return self._refusal(move, self.character(name), spell) is None

    def _refusal(self, move: str, c: Character, spell: str = "other") -> str | None:
        if move in ("remove_psychosis", "greater_restoration"):
            if c.level == MAX_LEVEL:
                return (f"Psychosis: {_SOURCES.get(move, 'that')} cannot help {c.name} at "
                        "level 6; only reincarnate or true resurrection can")
            if c.level == 0:
                return f"Psychosis: {c.name} has no psychosis to remove"
        if move == "raised_from_dead" and c.level == MAX_LEVEL and spell == "other":
            return (f"Psychosis: {c.name} is at level 6; only reincarnate or true "
                    "resurrection can lower it")
        if move == "enter_miasma" and c.inside:
            return f"Psychosis: {c.name} is already inside the Miasma"
        if move == "leave_miasma" and not c.inside:
            return f"Psychosis: {c.name} is not inside the Miasma"
        if move == "eat_and_drink" and c.fed:
            return f"Psychosis: {c.name} has already eaten and drunk since the last rest"
        return None

    def _refuse(self, move: str, c: Character, spell: str = "other") -> None:
        reason = self._refusal(move, c, spell)
        if reason is not None:
            raise RuleError(reason)

    # -- reading ------------------------------------------------------------------------

    def character(self, name: str) -> Character:
        for c in self.characters:
            if c.name == name:
                return c
        raise RuleError(f"Psychosis: no character named {quoted(str(name))} is tracked")

    @property
    def day(self) -> int:
        """The day of the journey (day 1 is the first 24 hours)."""
        return self.hours // HOURS_PER_DAY + 1

    # -- moves ----------------------------------------------------------------------------

    @move
    def add_character(self, name: str, level: int = 0, stress: int = 0,
                      inside: bool = False) -> None:
        """Start tracking a character."""
        name = str(name).strip()
        if not name:
            raise RuleError("Psychosis: a character needs a name")
        if len(name) > MAX_NAME:
            raise RuleError(f"Psychosis: a name is at most {MAX_NAME} characters "
                            f"({len(name):,} given)")
        if any(c.name == name for c in self.characters):
            raise RuleError(f"Psychosis: {quoted(str(name))} is already tracked")
        if len(self.characters) >= MAX_CHARACTERS:
            raise RuleError(f"Psychosis: the tracker follows at most {MAX_CHARACTERS} characters")
        _check_count("level", level, 0, MAX_LEVEL)
        _check_count("stress", stress, 0, MAX_STRESS)
        self.characters.append(Character(name, level, stress, bool(inside)))
        self.describe(f"{name} joins (level {level}, stress {stress}"
                      f"{', inside the Miasma' if inside else ''})")

    @move
    def remove_character(self, name: str) -> None:
        """Stop tracking a character."""
        self.characters.remove(self.character(name))
        self.describe(f"{name} leaves the tracker")

    @move
    def gain_psychosis(self, name: str, levels: int = 1, source: str = "an effect") -> None:
        """An effect gives the character ``levels`` levels of psychosis."""
        c = self.character(name)
        _check_count("levels", levels, 1, MAX_LEVEL)
        before = c.level
        c.level = min(MAX_LEVEL, c.level + levels)
        self.describe(f"{name}: {source} gives {levels} level{'s' * (levels > 1)} of psychosis"
                      f" ({_change(before, c.level)})")

    @move
    def remove_psychosis(self, name: str, levels: int = 1, source: str = "an effect") -> None:
        """An effect that removes psychosis lowers the level by ``levels``."""
        c = self.character(name)
        _check_count("levels", levels, 1, MAX_LEVEL)
        if c.level == MAX_LEVEL:
            raise RuleError(f"Psychosis: {source} cannot help {c.name} at level 6; only "
                            "reincarnate or true resurrection can")
        self._refuse("remove_psychosis", c)
        before = c.level
        c.level = max(0, c.level - levels)
        self.describe(f"{name}: {source} removes psychosis ({_change(before, c.level)})")

    @move
    def greater_restoration(self, name: str) -> None:
        """A *greater restoration* spell lowers the level by 1 (not at level 6)."""
        self.remove_psychosis(name, 1, "greater restoration")

    @move
    def raised_from_dead(self, name: str, spell: RaisedBy = "other") -> None:
        """Coming back from death lowers the level by 1; at level 6 only *reincarnate* or
        *true resurrection* do."""
        c = self.character(name)
        if spell not in RAISED_BY:
            raise RuleError(f"Psychosis: unknown way back from death {quoted(str(spell))}")
        self._refuse("raised_from_dead", c, spell)
        before = c.level
        c.level = max(0, c.level - 1)
        how = "raised from the dead" if spell == "other" else f"returned by {spell}"
        self.describe(f"{name} {how} ({_change(before, c.level)})")

    @move
    def set_stress(self, name: str, stress: int) -> None:
        """Record the character's current stress score."""
        c = self.character(name)
        _check_count("stress", stress, 0, MAX_STRESS)
        before, c.stress = c.stress, stress
        if stress < STRESS_ONE_LEVEL:
            c.clock = 0
        self.describe(f"{name}: stress {before} → {stress}")

    @move
    def enter_miasma(self, name: str) -> None:
        """The character goes into the Miasma."""
        c = self.character(name)
        self._refuse("enter_miasma", c)
        c.inside, c.clock = True, 0
        self.describe(f"{name} enters the Miasma")

    @move
    def leave_miasma(self, name: str) -> None:
        """The character comes out of the Miasma (the daily count starts over)."""
        c = self.character(name)
        self._refuse("leave_miasma", c)
        c.inside, c.clock = False, 0
        self.describe(f"{name} leaves the Miasma")

    @move
    def eat_and_drink(self, name: str) -> None:
        """The character has some food and drink (needed for a long rest to help)."""
        c = self.character(name)
        self._refuse("eat_and_drink", c)
        c.fed = True
        self.describe(f"{name} eats and drinks")

    @move
    def long_rest(self, name: str) -> None:
        """Finish a long rest: -1 level if outside the Miasma and fed (not at level 6)."""
        c = self.character(name)
        before = c.level
        if c.inside:
            why = "rested inside the Miasma"
        elif not c.fed:
            why = "rested without food and drink"
        elif c.level == MAX_LEVEL:
            why = "level 6 is beyond a rest"
        elif c.level == 0:
            why = "no psychosis"
        else:
            why = ""
            c.level -= 1
        c.fed = False
        self.describe(f"{name} finishes a long rest ({why or _change(before, c.level)})")

    @move
    def pass_time(self, hours: int) -> None:
        """Let ``hours`` pass for the whole party; the Miasma works on the stressed."""
        _check_count("hours", hours, 1, HOURS_PER_DAY * 366)
        if self.hours + hours > MAX_HOURS:
            raise RuleError("Psychosis: the tracker counts at most a thousand years")
        notes = []
        for c in self.characters:
            if c.daily_gain == 0:
                c.clock = 0
                continue
            days, c.clock = divmod(c.clock + hours, HOURS_PER_DAY)
            if days:
                before = c.level
                c.level = min(MAX_LEVEL, c.level + days * c.daily_gain)
                notes.append(f"{c.name} {_change(before, c.level)}")
        self.hours += hours
        self.describe(f"{hours} hour{'s' * (hours != 1)} pass (day {self.day})"
                      + (": " + ", ".join(notes) if notes else ""))


def _change(before: int, after: int) -> str:
    return f"level {before} → {after}" if before != after else f"stays at level {after}"


def _check_count(what: str, value: Any, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RuleError(f"Psychosis: {what} must be a whole number from {low} to {high}, "
                        f"not {value}")
