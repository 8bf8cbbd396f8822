"""Death and Returning: how often a soul may come back, and what it risks each time.

**Three Strikes and You're Out.** Every return from death leaves a piece of the soul
behind. A creature can come back twice; its third death is final, and only a *wish* can
undo it.

**Add-on: Permanent Death Failures.** Each return leaves the soul weaker: the creature
carries one permanent failed death saving throw per return. After one return it dies at
two failures, after two returns at one.

**Variant: Escalation Strikes.** Instead of the base limit, a creature can come back
three times and its fourth death is final. *Revivify* and *raise dead* only work on a
creature that has died once; after the third death only *true resurrection* works.

Interpretation: under Escalation Strikes "only a true resurrection spell may return" is
read as the seed says it: after the third death not even a *wish* works, and the fourth
death is final for a wish too. A table may keep the earlier reading instead (the base
module's wish still works past every limit).

Interpretation: *reincarnate* returns the dead like the other spells (it counts as a
return and against the strikes); the seed has no Fragile Soul table for it, and as a
5th-level spell like *raise dead* it rolls on the Revivify/Raise Dead table. Escalation
Strikes does not name it, so it works until the third death.

**The Soul is Fragile.** Bringing a soul back may break it. The caster makes a DC 15
ability check with their spellcasting ability modifier (d20 + modifier, no proficiency).
On a failure the DM rolls d100 on the Fragile Soul table for the spell: the spell works,
or the soul is not returned (slot and components spent, soul intact), or the soul is
destroyed, or on 100 the soul is not returned and a celestial or fiend of the DM's
choice moves into the body, which must be evicted before the creature can be raised.

**Combining.** The document's own games use The Soul is Fragile together with Three
Strikes; [DeathRecord][companion.rulesets.variant5e.death_and_returning.DeathRecord] does the same
by default, and the add-on and the variant
are switches.

Interpretation: dying follows the standard 5e death saving throws (d20: 10 or more is a
success, 1 counts as two failures, 20 brings the creature back with 1 hit point; three
successes make it stable, three failures kill it); the seed relies on them without
restating them.

Interpretation: *wish* can return a creature whatever its count of deaths (the seed names
it as the only way past the final death) and needs no Fragile Soul check (no table exists
for it); it does count as a return.

Interpretation: with Permanent Death Failures and Escalation Strikes together, a creature
back for the third time carries three failures and dies as soon as it drops to 0 hit
points.

Interpretation: a failed attempt whose soul is not returned does not count as a return
and may be tried again; a destroyed soul ends all returns, *wish* included.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError, TableError
from companion.state import Tracker, move, state_field
from companion.table_moves import TableTrackers
from companion.table_moves import declare as declare_table_move

if TYPE_CHECKING:
    from companion.tables import Row

__all__ = [
    "FRAGILE_SOUL_DC",
    "FRAGILE_SOUL_TABLES",
    "RETURN_SPELLS",
    "DeathRecord",
    "ReturnAttempt",
    "death_save_odds",
    "fragile_soul_odds",
    "fragile_soul_table",
]

Spell = Literal["revivify", "raise dead", "reincarnate", "resurrection", "true resurrection",
                "wish"]
Outcome = Literal["works", "not_returned", "destroyed", "inhabited"]
Module = Literal["three_strikes", "escalation_strikes"]
OUTCOMES: tuple[Outcome, ...] = ("works", "not_returned", "destroyed", "inhabited")
Condition = Literal["alive", "dying", "stable", "dead"]

#: Spells that return the dead, in the order the seed's tables name them.
RETURN_SPELLS: tuple[Spell, ...] = (
    "revivify", "raise dead", "reincarnate", "resurrection", "true resurrection", "wish",
)

#: The Fragile Soul table for each spell (revivify and raise dead share one).
FRAGILE_SOUL_TABLES: dict[str, str] = {
    "revivify": "fragile_soul_revivify_raise_dead",
    "raise dead": "fragile_soul_revivify_raise_dead",
    "reincarnate": "fragile_soul_revivify_raise_dead",
    "resurrection": "fragile_soul_resurrection",
    "true resurrection": "fragile_soul_true_resurrection",
}

FRAGILE_SOUL_DC = 15

#: How many returns each module allows before the final death.
MAX_RETURNS: dict[str, int] = {"three_strikes": 2, "escalation_strikes": 3}


def _spell(spell: str) -> Spell:
    for known in RETURN_SPELLS:
        if spell == known:
            return known
    raise RuleError(f"Death and Returning: {spell!r} is not a returning spell "
                    f"(known: {', '.join(RETURN_SPELLS)})")


def fragile_soul_table(spell: str) -> str:
    """The id of the Fragile Soul table rolled for ``spell``."""
    name = _spell(spell)
    if name not in FRAGILE_SOUL_TABLES:
        raise RuleError(f"The Soul is Fragile: no table for {name}; it needs no check")
    return FRAGILE_SOUL_TABLES[name]


def _outcome_of(row: Row) -> Outcome:
    value = row.values.get("Outcome")
    for known in OUTCOMES:
        # The table prints the outcome in a reader's words ("not returned", issue 45).
        if value == known.replace("_", " "):
            return known
    raise TableError(f"Fragile Soul table row {row.range}: unknown Outcome {value!r}")


def fragile_soul_odds(spell: str, caster_modifier: int) -> dict[Outcome, Fraction]:
    """Exact odds of each outcome of one attempt, check and table roll included.

    The check passes on d20 + ``caster_modifier`` >= 15; otherwise the table decides.
    """
    from companion import tables
    from companion.dice import odds

    check = odds(f"1d20{caster_modifier:+d}").at_least(FRAGILE_SOUL_DC)
    table = tables.get(fragile_soul_table(spell))
    result: dict[Outcome, Fraction] = {
        "works": check, "not_returned": Fraction(0), "destroyed": Fraction(0),
        "inhabited": Fraction(0),
    }
    for row, p in table.odds():
        result[_outcome_of(row)] += (1 - check) * p
    return result


DyingOutcome = Literal["dies", "stable", "up"]


def death_save_odds(failures: int = 0) -> dict[DyingOutcome, Fraction]:
    """Exact chances that a creature dying with ``failures`` already marked dies,
    stabilises, or rolls a 20 and gets up, if nothing else happens.

    Per d20: 1 (two failures) 1/20, 2-9 (a failure) 8/20, 10-19 (a success) 10/20,
    20 (up with 1 hit point) 1/20. Permanent Death Failures raise ``failures``.
    """
    if isinstance(failures, bool) or not isinstance(failures, int) or not 0 <= failures <= 3:
        raise RuleError(f"death saving throws: failures must be 0 to 3, got {failures!r}")
    faces = ((Fraction(1, 20), 0, 2), (Fraction(8, 20), 0, 1), (Fraction(10, 20), 1, 0))

    def walk(successes: int, fails: int) -> dict[DyingOutcome, Fraction]:
        if fails >= 3:
            return {"dies": Fraction(1), "stable": Fraction(0), "up": Fraction(0)}
        if successes >= 3:
            return {"dies": Fraction(0), "stable": Fraction(1), "up": Fraction(0)}
        out: dict[DyingOutcome, Fraction] = {
            "dies": Fraction(0), "stable": Fraction(0), "up": Fraction(1, 20)}
        for p, s, f in faces:
            for key, q in walk(successes + s, fails + f).items():
                out[key] += p * q
        return out

    return walk(0, failures)


@dataclass(frozen=True)
class ReturnAttempt:
    """What happened when a caster tried to bring a creature back."""

    spell: Spell
    check_roll: int | None
    """The d20 face of the DC 15 check (``None`` when no check was needed)."""
    caster_modifier: int
    table_roll: int | None
    """The d100 on the Fragile Soul table (``None`` when the check passed)."""
    outcome: Outcome
    effect: str

    @property
    def check_total(self) -> int | None:
        return None if self.check_roll is None else self.check_roll + self.caster_modifier

    def __str__(self) -> str:
        parts: list[str] = [self.spell]
        if self.check_roll is not None:
            verdict = "passes" if self.table_roll is None else "fails"
            parts.append(f"check d20 {self.check_roll}{self.caster_modifier:+d} = "
                         f"{self.check_total} {verdict} DC {FRAGILE_SOUL_DC}")
        if self.table_roll is not None:
            parts.append(f"d100 {self.table_roll}")
        parts.append(self.effect)
        return "; ".join(parts)


@dataclass
class DeathRecord(Tracker):
    """One creature's dying, deaths and returns under the Death and Returning modules.

    >>> hero = DeathRecord()
    >>> hero.drop_to_zero(); hero.death_save(4); hero.death_save(1)
    >>> hero.condition, hero.deaths
    ('dead', 1)
    >>> hero.return_to_life("raise dead"); hero.condition, hero.returns
    ('alive', 1)
    """

    module: Module = "three_strikes"
    permanent_death_failures: bool = False
    fragile_soul: bool = True
    escalation_wish: bool = False
    condition: Condition = "alive"
    deaths: int = state_field(0, min=0, max=99)
    returns: int = state_field(0, min=0, max=99)
    successes: int = state_field(0, min=0, max=3, doc="death save successes while dying")
    failures: int = state_field(0, min=0, max=3, doc="death save failures while dying")
    soul_destroyed: bool = False
    body_inhabited: bool = False

    def check_state(self) -> None:
        """What a record can never be (checked on every load, undo snapshots included):

        - more returns than deaths, or a condition that does not follow from them (dead
          exactly when there is one death more than returns);
        - death save successes or failures outside dying: a creature that is alive,
          stable or dead has none marked;
        - while dying, 3 successes (it would be stable) or 3 failures (it would be dead),
          or fewer failures than the permanent ones it carries;
        - a destroyed soul or an inhabited body on a creature that is not dead, or both
          at once.
        """
        if self.returns > self.deaths:
            raise StateError(f"field 'returns' ({self.returns}) exceeds 'deaths' ({self.deaths})")
        expected = self.deaths - self.returns
        if (self.condition == "dead") != (expected == 1) or expected > 1:
            raise StateError(f"field 'condition' {self.condition!r} does not match "
                             f"{self.deaths} deaths and {self.returns} returns")
        if self.condition != "dying":
            for name in ("successes", "failures"):
                if getattr(self, name):
                    raise StateError(f"field '{name}' is {getattr(self, name)} but a creature "
                                     f"that is {self.condition} has no death saves marked")
        else:
            if self.successes >= 3:
                raise StateError("field 'successes' is 3: the creature would be stable, "
                                 "not dying")
            if self.failures >= 3:
                raise StateError("field 'failures' is 3: the creature would be dead, "
                                 "not dying")
            if self.failures < self.permanent_failures:
                raise StateError(f"field 'failures' is {self.failures}, below the "
                                 f"{self.permanent_failures} permanent failures carried")
        for name in ("soul_destroyed", "body_inhabited"):
            if getattr(self, name) and self.condition != "dead":
                raise StateError(f"field '{name}' is true but the creature is "
                                 f"{self.condition}")
        if self.soul_destroyed and self.body_inhabited:
            raise StateError("fields 'soul_destroyed' and 'body_inhabited' cannot both be "
                             "true")

    # -- what the creature can do now (the moves check the same) ------------------------

    @property
    def can_drop(self) -> bool:
        """Only a living creature drops to 0 hit points."""
        return self.condition == "alive"

    @property
    def can_save(self) -> bool:
        """Only a dying creature rolls death saving throws."""
        return self.condition == "dying"

    @property
    def down(self) -> bool:
        """At 0 hit points and not dead: damage adds failures, healing brings it back."""
        return self.condition in ("dying", "stable")

    @property
    def can_die(self) -> bool:
        return self.condition != "dead"

    def return_needs_check(self, spell: str) -> bool:
        """Whether returning with ``spell`` needs the Fragile Soul check (module on, not
        a wish)."""
        return self.fragile_soul and _spell(spell) != "wish"

    def return_odds(self, spell: str, caster_modifier: int) -> dict[Outcome, Fraction] | None:
        """Exact odds of each outcome of a return attempt with ``spell``, or ``None`` when
        no Fragile Soul check is made (the spell simply works)."""
        if not self.return_needs_check(spell):
            return None
        return fragile_soul_odds(spell, caster_modifier)

    def why_no_return(self, spell: str) -> str | None:
        """Why ``spell`` cannot return the creature now, or ``None`` if it can."""
        return self._refusal(_spell(spell))

    # -- derived facts -------------------------------------------------------------------

    @property
    def max_returns(self) -> int:
        """Returns the module allows before a death is final (short of a wish)."""
        return MAX_RETURNS[self.module]

    @property
    def permanent_failures(self) -> int:
        """Failed death saves the creature starts with when it drops to 0 hit points."""
        return min(self.returns, 3) if self.permanent_death_failures else 0

    @property
    def failures_to_die(self) -> int:
        """How many further failed death saves kill the creature once it drops."""
        return 3 - self.permanent_failures

    @property
    def final_death(self) -> bool:
        """Whether the creature is dead beyond every means short of a wish."""
        return self.condition == "dead" and self.deaths > self.max_returns

    @property
    def wish_limited(self) -> bool:
        """Whether Escalation Strikes, read as the seed says it, holds a wish back too."""
        return self.module == "escalation_strikes" and not self.escalation_wish

    def allowed_spells(self) -> tuple[Spell, ...]:
        """The spells that could return this creature now (empty unless it is dead)."""
        return tuple(s for s in RETURN_SPELLS if self._refusal(s) is None)

    def _refusal(self, spell: Spell) -> str | None:
        """Why ``spell`` cannot return the creature now, or ``None`` if it can."""
        if self.condition != "dead":
            return f"Death and Returning: the creature is {self.condition}, not dead"
        if self.soul_destroyed:
            return "The Soul is Fragile: the soul was destroyed; nothing can return it"
        if self.body_inhabited:
            return ("The Soul is Fragile: a celestial or fiend inhabits the body; "
                    "remove it first")
        if spell == "wish" and not self.wish_limited:
            return None
        if self.deaths > self.max_returns and self.wish_limited:
            return "Escalation Strikes: the fourth death is final; nothing can return it"
        if self.deaths > self.max_returns:
            ordinal = {3: "third", 4: "fourth"}.get(self.deaths, f"{self.deaths}th")
            rule = ("Three Strikes and You're Out" if self.module == "three_strikes"
                    else "Escalation Strikes")
            return f"{rule}: the {ordinal} death is final; only a wish can return it"
        if self.module == "escalation_strikes":
            if self.deaths >= 3 and spell != "true resurrection":
                return ("Escalation Strikes: after the third death only true resurrection "
                        + ("(or a wish) " if self.escalation_wish else "")
                        + "returns a creature")
            if self.deaths >= 2 and spell in ("revivify", "raise dead"):
                return (f"Escalation Strikes: {spell} cannot return a creature that has "
                        "died more than once")
        return None

    # -- the module switches ---------------------------------------------------------------

    @move
    def set_modules(self, module: str | None = None,
                    permanent_death_failures: bool | None = None,
                    fragile_soul: bool | None = None,
                    escalation_wish: bool | None = None) -> None:
        """Switch modules now, keeping the creature's deaths and returns (``None`` leaves a
        switch as it is).

        Interpretation: Permanent Death Failures cannot be switched while the creature is
        dying (its failures were counted under the old rule); switch it between fights.
        """
        if module is not None and module not in MAX_RETURNS:
            raise RuleError(f"Death and Returning: no module called {module!r} "
                            "(three_strikes or escalation_strikes)")
        if (permanent_death_failures is not None and self.condition == "dying"
                and permanent_death_failures != self.permanent_death_failures):
            raise RuleError("Permanent Death Failures: switch it when the creature is not "
                            "dying")
        changed = []
        for name, value in (("module", module),
                            ("permanent_death_failures", permanent_death_failures),
                            ("fragile_soul", fragile_soul),
                            ("escalation_wish", escalation_wish)):
            if value is not None and getattr(self, name) != value:
                setattr(self, name, value)
                shown = value if isinstance(value, str) else ("on" if value else "off")
                changed.append(f"{name.replace('_', ' ')} {shown}")
        self.describe("modules: " + (", ".join(changed) or "unchanged"))

    # -- dying -----------------------------------------------------------------------------

    @move
    def drop_to_zero(self) -> None:
        """Drop to 0 hit points: start dying, carrying any permanent failures."""
        if not self.can_drop:
            raise RuleError(f"Death and Returning: only a living creature can drop to 0 hit "
                            f"points; it is {self.condition}")
        self.condition = "dying"
        self.successes = 0
        self.failures = self.permanent_failures
        if self.failures >= 3:
            self._die()
            self.describe("dropped to 0 hp with 3 permanent failures: dies at once")
        else:
            self.describe(f"dropped to 0 hp: dying ({self.failures} failures carried)")

    @move
    def death_save(self, roll: int) -> None:
        """Record a death saving throw whose d20 shows ``roll``."""
        if not self.can_save:
            raise RuleError(f"death saving throws: only a dying creature rolls them; "
                            f"it is {self.condition}")
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 20:
            raise RuleError(f"death saving throws: a d20 shows 1 to 20, got {roll!r}")
        if roll == 20:
            self._recover()
            self.describe("death save 20: back up with 1 hit point")
            return
        if roll >= 10:
            self.successes += 1
            if self.successes >= 3:
                self.condition = "stable"
                self.successes = self.failures = 0  # stable: nothing more to count
                self.describe(f"death save {roll}: success, 3 successes: stable")
            else:
                self.describe(f"death save {roll}: success ({self.successes}/3)")
            return
        self._add_failures(2 if roll == 1 else 1, f"death save {roll}")

    @move
    def damage_while_down(self, critical: bool = False) -> None:
        """Take damage at 0 hit points: one failure, two from a critical hit."""
        if not self.down:
            raise RuleError(f"death saving throws: damage at 0 hit points needs a dying or "
                            f"stable creature; it is {self.condition}")
        if self.condition == "stable":
            self.condition = "dying"
            self.successes = 0
            self.failures = self.permanent_failures
        self._add_failures(2 if critical else 1, "critical hit at 0 hp" if critical
                           else "damage at 0 hp")

    @move
    def heal(self) -> None:
        """Regain hit points while dying or stable: conscious again, saves reset."""
        if not self.down:
            raise RuleError(f"Death and Returning: only a creature at 0 hit points can be "
                            f"healed back up here; it is {self.condition}")
        self._recover()
        self.describe("healed: back up")

    @move
    def die(self) -> None:
        """Die outright (massive damage, a disintegrate...)."""
        if not self.can_die:
            raise RuleError("Death and Returning: the creature is already dead")
        self._die()
        self.describe(self._death_line("died"))

    def _add_failures(self, count: int, why: str) -> None:
        self.failures = min(3, self.failures + count)
        if self.failures >= 3:
            self._die()
            self.describe(self._death_line(f"{why}: 3 failures, died"))
        else:
            self.describe(f"{why}: failure ({self.failures}/3)")

    def _die(self) -> None:
        self.condition = "dead"
        self.deaths += 1
        self.successes = 0
        self.failures = 0

    def _recover(self) -> None:
        self.condition = "alive"
        self.successes = 0
        self.failures = 0

    def _death_line(self, text: str) -> str:
        suffix = ((" (final)" if self.wish_limited else " (final: only a wish)")
                  if self.final_death else "")
        return f"{text}; death {self.deaths}{suffix}"

    # -- returning -------------------------------------------------------------------------

    @move
    def return_to_life(self, spell: str) -> None:
        """The returning spell works: the creature lives again (one more return)."""
        name = _spell(spell)
        refusal = self._refusal(name)
        if refusal is not None:
            raise RuleError(refusal)
        self._recover()
        self.returns += 1
        carried = (f", carries {self.permanent_failures} permanent death save failures"
                   if self.permanent_death_failures else "")
        self.describe(f"{name} works: alive again (return {self.returns}){carried}")

    def _return_without_check(self, name: Spell, caster_modifier: int) -> ReturnAttempt | None:
        """Refuse a return the rules forbid; a spell that needs no check simply works
        (returned); ``None`` when the Fragile Soul check is to be made."""
        refusal = self._refusal(name)
        if refusal is not None:
            raise RuleError(refusal)
        if self.return_needs_check(name):
            return None
        self.return_to_life(name)
        return ReturnAttempt(name, None, caster_modifier, None, "works",
                             "The spell works as normal.")

    @move
    def attempt_return(self, spell: str, caster_modifier: int, check_roll: int,
                       table_roll: int | None = None) -> ReturnAttempt:
        """Try to return the creature under The Soul is Fragile, from the dice shown.

        ``check_roll`` is the caster's d20; if d20 + ``caster_modifier`` misses DC 15,
        ``table_roll`` (d100) is read on the spell's Fragile Soul table. Without the
        module, or for a wish, the spell simply works.
        """
        from companion import tables

        name = _spell(spell)
        unchecked = self._return_without_check(name, caster_modifier)
        if unchecked is not None:
            return unchecked
        for label, value, top in (("check_roll", check_roll, 20), ("table_roll", table_roll, 100)):
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
                raise RuleError(f"The Soul is Fragile: {label} must be 1 to {top}, got {value!r}")
        if isinstance(caster_modifier, bool) or not isinstance(caster_modifier, int):
            raise RuleError("The Soul is Fragile: the caster's modifier must be a whole number")
        if check_roll + caster_modifier >= FRAGILE_SOUL_DC:
            self.return_to_life(name)
            attempt = ReturnAttempt(name, check_roll, caster_modifier, None, "works",
                                    "The spell works as normal.")
            self.describe(str(attempt))
            return attempt
        if table_roll is None:
            raise RuleError("The Soul is Fragile: the check failed, so the DM's d100 roll "
                            "on the table is needed")
        table = tables.get(fragile_soul_table(name))
        row = table.row_for(table_roll)
        outcome = _outcome_of(row)
        effect = row.values.get("Effect", "")
        if outcome == "works":
            self.return_to_life(name)
        elif outcome == "destroyed":
            self.soul_destroyed = True
        elif outcome == "inhabited":
            self.body_inhabited = True
        attempt = ReturnAttempt(name, check_roll, caster_modifier, table_roll, outcome, effect)
        self.describe(str(attempt))
        return attempt

    @move
    def roll_return(self, spell: str, caster_modifier: int, *, seed: int | None = None,
                    rng: random.Random | None = None) -> ReturnAttempt:
        """Roll the caster's d20 check (and the d100 on the Fragile Soul table when the
        check fails) with the dice engine, then attempt. No die is rolled when the spell
        needs no check (a *wish*, or the module is off): it simply works.

        One move (its seed recorded, not the dice): a hidden roll's move names no result."""
        from companion.dice import roll

        rng = make_rng(seed, rng)
        name = _spell(spell)
        unchecked = self._return_without_check(name, caster_modifier)
        if unchecked is not None:
            return unchecked
        if isinstance(caster_modifier, bool) or not isinstance(caster_modifier, int):
            raise RuleError("The Soul is Fragile: the caster's modifier must be a whole number")
        check = roll("1d20", rng=rng).total
        table_roll = None
        if check + caster_modifier < FRAGILE_SOUL_DC:
            table_roll = roll("1d100", rng=rng).total
        return self.attempt_return(name, caster_modifier, check, table_roll)

    @move
    def roll_death_save(self, *, seed: int | None = None,
                        rng: random.Random | None = None) -> int:
        """Roll a d20 with the dice engine and record it as a death save; returns the face.

        One move (its seed recorded, not the face): a hidden roll's move names no result."""
        from companion.dice import roll

        if not self.can_save:
            raise RuleError(f"death saving throws: only a dying creature rolls them; "
                            f"it is {self.condition}")
        face = roll("1d20", seed=seed, rng=rng).total
        self.death_save(face)
        return face

    @move
    def remove_inhabitant(self) -> None:
        """Drive the celestial or fiend out of the body so the creature may be returned."""
        if not self.body_inhabited:
            raise RuleError("The Soul is Fragile: no celestial or fiend inhabits the body")
        self.body_inhabited = False
        self.describe("the inhabitant is driven out of the body")


# -- a table move: the return and the soul's psychosis in one unit (companion.table_moves) -


def _return_attempt(table: TableTrackers, args: dict[str, Any],
                    rng: random.Random | None) -> ReturnAttempt:
    """[roll_return][companion.rulesets.variant5e.death_and_returning.DeathRecord.roll_return]
    as a rolled table move (``record``: the death record's member, ``spell``,
    ``caster_modifier``); when it works and ``psychosis`` names a Miasma tracker (with the
    character's ``name`` in it), the character is marked raised from the dead there, in
    the same unit, as the Miasma rules allow."""
    from companion.table_moves import argument

    where = "return attempt"
    record = table.tracker(argument(args, "record", str, where), DeathRecord)
    result = record.roll_return(argument(args, "spell", str, where),
                                argument(args, "caster_modifier", int, where), rng=rng)
    soul = argument(args, "psychosis", str, where, None)
    if result.outcome == "works" and soul is not None:
        from companion.rulesets.miasma.psychosis import MiasmaTracker, raised_by

        tracker = table.tracker(soul, MiasmaTracker)
        name, way = argument(args, "name", str, where), raised_by(result.spell)
        if tracker.can("raised_from_dead", name, way):
            tracker.raised_from_dead(name, way)
    return result


declare_table_move("variant5e.death_and_returning.return_attempt", _return_attempt,
                   rolls=True)
