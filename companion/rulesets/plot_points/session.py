"""The table in play: the shared plot points, the check in play, and each character's wounds.

[PlotPointSession][companion.rulesets.plot_points.session.PlotPointSession] is one tracker
for a whole table (the GM and the players), so a single log and undo cover every
consequence of a roll: a natural 1 or 20 turning a plot point over, strain from wounds, a
retry paid with a lucky point.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.acting import named_actor
from companion.checks import ContestOdds
from companion.dice.render import percent
from companion.errors import RuleError, StateError, quoted
from companion.rulesets.plot_points.checks import (
    MAX_ADVANTAGE,
    MAX_DIFFICULTY,
    MAX_PROFICIENCY,
    Ability,
    PlotCheck,
    PlotCheckResult,
)
from companion.rulesets.plot_points.lookup import ABILITIES
from companion.rulesets.plot_points.wounds import (
    MAX_NAME,
    MAX_WOUNDS,
    Character,
    strain_from_check,
)
from companion.state import Tracker, move, state_field

#: Most players at one table (a guard against runaway input, not a rule).
MAX_PLAYERS = 50

#: Most rolls of one check in play (retries and rerolls; each costs a plot point).
MAX_ROLLS = 10_000

SPEND_RULES: dict[str, str] = {
    "retry_with_lucky": "a player spends a lucky point to retry a failed check",
    "reroll_with_unlucky": "a player spends an unlucky point to reroll a success",
    "gm_reroll": "the GM spends an unlucky point to reroll the GM's own check",
    "gm_force_reroll": "the GM spends an unlucky point to make a player reroll, while that "
                       "player has spent none on the check",
}
"""Each plot-point move on the check in play and what it does, in a player's words (the
app explains its buttons with these)."""


@dataclass
class CheckInPlay:
    """The latest check and what has been spent on it (plot points act on this check)."""

    roller: str = state_field(max_len=MAX_NAME)
    ability: Ability = state_field(choices=ABILITIES)
    proficiency: int = state_field(min=-MAX_PROFICIENCY, max=MAX_PROFICIENCY)
    advantage: int = state_field(min=-MAX_ADVANTAGE, max=MAX_ADVANTAGE)
    difficulty: int = state_field(min=-MAX_DIFFICULTY, max=MAX_DIFFICULTY)
    total: int = state_field(min=-10 * MAX_DIFFICULTY, max=10 * MAX_DIFFICULTY)
    natural: int = state_field(min=1, max=20)
    success: bool = False
    rolls: int = state_field(1, min=1, max=MAX_ROLLS)
    roller_spent: int = state_field(0, min=0, max=MAX_ROLLS)
    gm_forced: int = state_field(0, min=0, max=MAX_ROLLS)
    text: str = state_field("", max_len=500)

    def plot_check(self) -> PlotCheck:
        return PlotCheck(self.ability, self.proficiency, self.advantage, self.difficulty)

    def check_state(self) -> None:
        """The check in play is one the dice could have given: its total is a possible
        result of its check, its success follows from total and difficulty, and every
        roll after the first was paid for (by the roller or the GM)."""
        dist = self.plot_check().check().distribution()
        if self.total not in dist:
            raise StateError(f"field 'total' {self.total} is not a possible result of "
                             f"{self.plot_check().expression}")
        if self.success != (self.total >= self.difficulty):
            raise StateError(f"field 'success' must say whether {self.total} meets "
                             f"difficulty {self.difficulty}")
        if self.roller_spent + self.gm_forced > self.rolls - 1:
            raise StateError(f"fields 'roller_spent' and 'gm_forced' count more rerolls than "
                             f"the {self.rolls - 1} made")


@dataclass(frozen=True)
class CheckOutcome:
    """A roll made through the session, with everything it caused (``notes``)."""

    who: str
    result: PlotCheckResult
    notes: tuple[str, ...]
    action: str = ""

    def __str__(self) -> str:
        first = f"{self.action} → " if self.action else ""
        return f"{first}{self.who}: {self.result}" + "".join(f"; {n}" for n in self.notes)


@dataclass(frozen=True)
class ContestOutcome:
    """A contest rolled through the session: both results, the margin (first side's result
    minus the second's), the exact odds it was rolled at, and what the rolls caused."""

    who: str
    opponent: str
    first: PlotCheckResult
    second: PlotCheckResult
    margin: int
    odds: ContestOdds
    notes: tuple[str, ...]

    @property
    def winner(self) -> str | None:
        """The side with the higher result (``None`` on a tie)."""
        return self.who if self.margin > 0 else self.opponent if self.margin < 0 else None

    def __str__(self) -> str:
        won = f"{self.winner} wins" if self.winner else "a tie (the GM decides)"
        return (f"contest {self.who} {self.first.total} vs {self.opponent} "
                f"{self.second.total}: {won} (margin {self.margin:+d}; {self.who} had "
                f"{percent(self.odds.win)} to win)" + "".join(f"; {n}" for n in self.notes))


@dataclass
class PlotPointSession(Tracker):
    """A table of players and a GM sharing plot points (see the package docs for the rules).

    The pool holds one plot point per player, the GM included; each is lucky or unlucky.

    Interpretation: a new table starts with every plot point lucky, and a player who
    joins adds a lucky point (one who leaves takes a lucky point if there is one).

    Interpretation: retries chain — after a retry or reroll the new result is the check
    in play, and the same rules apply to it (a new failure may be retried with another
    lucky point).

    Interpretation: every roll of the d20 is a check: a retry or reroll can itself turn
    a point over on a natural 1 or 20, and adds strain from the roller's wounds. The
    special dice results apply to the GM's checks too (the GM counts as a player for
    the pool).

    Interpretation: the GM's "reroll a check, successful or not" is for the GM's own
    checks; a player's check is rerolled by the GM only through a forced reroll, which
    is allowed while that player has spent no plot point on the check.

    Interpretation: lucky points are spent by players only; the GM spends unlucky ones.
    """

    what: ClassVar[str] = "plot-points table"

    gm: str = state_field("GM", max_len=MAX_NAME)
    characters: list[Character] = state_field(default_factory=list, max_len=MAX_PLAYERS)
    lucky: int = state_field(1, min=0, max=MAX_PLAYERS + 1)
    unlucky: int = state_field(0, min=0, max=MAX_PLAYERS + 1)
    current: CheckInPlay | None = None

    # -- setting the table ------------------------------------------------------------

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """A check, a contest, strain, wounds and a long rest are the named player's own
        (``who``); a plot point spent to retry or reroll is the roller's; seating players,
        ending a check and the GM's rerolls (and the GM's own checks) are the table's."""
        if move in ("retry_with_lucky", "reroll_with_unlucky") and self.current is not None:
            arguments = {"who": self.current.roller}
            move = "roll_check"
        own = dict.fromkeys(("roll_check", "contest", "gain_strain", "gain_wounds",
                             "heal_wounds", "long_rest"), "who")
        return named_actor(own, move, arguments, table=(self.gm,))

    @classmethod
    def new(cls, players: list[str], gm: str = "GM") -> PlotPointSession:
        """A table with these players and a GM; every plot point starts lucky."""
        session = cls(gm=_name(gm, "GM"))
        for player in players:
            session._add(player)
        session.validate()
        return session

    @property
    def size(self) -> int:
        """Number of plot points: the players and the GM."""
        return len(self.characters) + 1

    @property
    def players(self) -> list[str]:
        return [c.name for c in self.characters]

    def character(self, name: str) -> Character:
        for character in self.characters:
            if character.name == name:
                return character
        known = ", ".join(self.players) or "none"
        raise RuleError(f"no player named {quoted(str(name))} at this table (players: {known})")

    def _add(self, name: str) -> None:
        name = _name(name, "player")
        if name == self.gm or name in self.players:
            raise RuleError(f"Plot Points: {quoted(str(name))} is already at the table")
        if len(self.characters) >= MAX_PLAYERS:
            raise RuleError(f"at most {MAX_PLAYERS} players at one table")
        self.characters.append(Character(name))
        self.lucky += 1

    @move
    def add_player(self, name: str) -> None:
        """A player joins: one more plot point, lucky."""
        self._add(name)
        self.describe(f"{name.strip()} joins the table (+1 lucky plot point)")

    @move
    def remove_player(self, name: str) -> None:
        """A player leaves, taking one plot point (lucky if there is one)."""
        self.characters.remove(self.character(name))
        if self.lucky:
            self.lucky -= 1
        else:
            self.unlucky -= 1
        if self.current and self.current.roller == name:
            self.current = None
        self.describe(f"{name} leaves the table (one plot point fewer)")

    # -- checks -----------------------------------------------------------------------

    @move
    def roll_check(self, who: str, ability: Ability = "average", proficiency: int = 0,
                   advantage: int = 0, difficulty: int = 10, *, seed: int | None = None,
                   rng: random.Random | None = None) -> CheckOutcome:
        """``who`` (a player or the GM) makes a static check; it becomes the check in play."""
        if who != self.gm:
            self.character(who)
        check = PlotCheck(ability, proficiency, advantage, difficulty)
        self.current = None
        outcome = self._resolve(who, check, seed, rng)
        self.describe(str(outcome))
        return outcome

    @move
    def retry_with_lucky(self, *, seed: int | None = None,
                         rng: random.Random | None = None) -> CheckOutcome:
        """A player spends a lucky point to retry the failed check in play."""
        current = self._refuse_spend("retry_with_lucky")
        self.lucky, self.unlucky = self.lucky - 1, self.unlucky + 1
        return self._again(current, "spends a lucky point to retry", True, seed, rng)

    @move
    def reroll_with_unlucky(self, *, seed: int | None = None,
                            rng: random.Random | None = None) -> CheckOutcome:
        """A player spends an unlucky point to reroll the successful check in play."""
        current = self._refuse_spend("reroll_with_unlucky")
        self._spend_unlucky()
        return self._again(current, "spends an unlucky point to reroll", True, seed, rng)

    @move
    def gm_reroll(self, *, seed: int | None = None,
                  rng: random.Random | None = None) -> CheckOutcome:
        """The GM spends an unlucky point to reroll the GM's own check, passed or failed."""
        current = self._refuse_spend("gm_reroll")
        self._spend_unlucky()
        return self._again(current, "spends an unlucky point to reroll", False, seed, rng)

    @move
    def gm_force_reroll(self, *, seed: int | None = None,
                        rng: random.Random | None = None) -> CheckOutcome:
        """The GM spends an unlucky point to make a player reroll the check in play.

        Allowed only while that player has spent no plot point on this check.
        """
        current = self._refuse_spend("gm_force_reroll")
        self._spend_unlucky()
        current.gm_forced += 1
        return self._again(current, "spends an unlucky point to force a reroll", False,
                           seed, rng)

    @move
    def contest(self, who: str, opponent: str, ability: Ability = "average",
                proficiency: int = 0, advantage: int = 0,
                opponent_ability: Ability = "average", opponent_proficiency: int = 0,
                opponent_advantage: int = 0, *, seed: int | None = None,
                rng: random.Random | None = None) -> ContestOutcome:
        """``who`` and ``opponent`` each make a check; the higher result wins, and the
        margin is ``who``'s result minus the opponent's.

        Interpretation: an opponent who is not at the table (a creature the GM plays) rolls
        for the GM: its natural 1 or 20 turns a plot point over like any check, but it has
        no wounds. In a contest a side *fails* (for the strain of Injured and Dying
        characters) when it loses; a tie is no failure for either side and the GM decides
        it. Plot points are spent on static checks only: a contest is not the check in
        play (the previous one is closed).
        """
        who = _name(who, "contestant")
        opponent = _name(opponent, "contestant")
        if who == opponent:
            raise RuleError("Checks: a contest needs two different sides")
        if who != self.gm:
            self.character(who)
        mine = PlotCheck(ability, proficiency, advantage)
        theirs = PlotCheck(opponent_ability, opponent_proficiency, opponent_advantage)
        rng = rng if rng is not None else random.Random(seed)
        first, second = mine.roll(rng=rng), theirs.roll(rng=rng)
        margin = first.total - second.total
        notes = [f"{who}: {n}" for n in self._after_roll(who, first, margin >= 0)]
        notes += [f"{opponent}: {n}" for n in self._after_roll(opponent, second, margin <= 0)]
        self.current = None
        outcome = ContestOutcome(who, opponent, first, second, margin, mine.contest(theirs),
                                 tuple(notes))
        self.describe(str(outcome))
        return outcome

    @move
    def end_check(self) -> None:
        """Close the check in play: no more plot points can be spent on it."""
        self._in_play()
        self.current = None
        self.describe("check closed")

    # -- strain and wounds --------------------------------------------------------------

    @move
    def gain_strain(self, who: str, amount: int = 1) -> None:
        """``who`` takes strain; each 4 turns into a wound."""
        _positive(amount, "strain")
        character = self.character(who)
        notes = _strain_notes(character, amount)
        self.describe(f"{who} gains {amount} strain" + "".join(f"; {n}" for n in notes))

    @move
    def gain_wounds(self, who: str, amount: int = 1) -> None:
        """``who`` takes wounds directly."""
        _positive(amount, "wounds")
        character = self.character(who)
        if character.wounds >= MAX_WOUNDS:
            raise RuleError(f"Strain & Wounds: {who} already has {MAX_WOUNDS} wounds "
                            "(near-death); no more can be taken")
        gained, lost = character.add_wounds(amount)
        extra = f" ({lost} beyond {MAX_WOUNDS} ignored)" if lost else ""
        self.describe(f"{who} gains {gained} wound(s){extra}: now {character.condition}")

    @move
    def heal_wounds(self, who: str, amount: int = 1) -> None:
        """Wounds heal by other means (time, magic, the GM's ruling)."""
        _positive(amount, "wounds")
        character = self.character(who)
        if amount > character.wounds:
            raise RuleError(f"Strain & Wounds: {who} has only {character.wounds} wound(s)")
        character.wounds -= amount
        self.describe(f"{who} heals {amount} wound(s): now {character.condition}")

    @move
    def long_rest(self, who: str, difficulty: int = 10, ability: Ability = "average",
                  proficiency: int = 0, *, seed: int | None = None,
                  rng: random.Random | None = None) -> list[PlotCheckResult]:
        """A long rest: all strain goes, then one recovery check per wound.

        Default: difficulty 10 Fortitude (pass the character's Fortitude strength and
        proficiency). Interpretation: recovery checks are part of resting; they neither
        add strain nor turn plot points over.
        """
        character = self.character(who)
        rng = rng if rng is not None else random.Random(seed)
        check = PlotCheck(ability, proficiency, 0, difficulty)
        cleared, character.strain = character.strain, 0
        results = [check.roll(rng=rng) for _ in range(character.wounds)]
        healed = sum(1 for r in results if r.success)
        character.wounds -= healed
        rolls = ", ".join(str(r.total) for r in results) or "no wounds to check"
        self.describe(f"{who} takes a long rest: {cleared} strain cleared; recovery "
                      f"({percent(check.chance())} each, difficulty {difficulty}): {rolls}; "
                      f"{healed} wound(s) heal, {character.wounds} remain")
        return results

    # -- state rules --------------------------------------------------------------------

    def check_state(self) -> None:
        """The table's invariants (each record also checks itself: `Character`,
        `CheckInPlay`): one plot point per player and the GM; distinct names; the check in
        play belongs to someone at the table, and only a player's check has plot points
        spent on it by its roller or forced by the GM."""
        if self.lucky + self.unlucky != self.size:
            raise StateError(f"field 'lucky' + 'unlucky' must equal the players and GM "
                             f"({self.size}), got {self.lucky} + {self.unlucky}")
        if not self.gm.strip() or self.gm != self.gm.strip():
            raise StateError(f"field 'gm' must be a name of 1 to {MAX_NAME} characters")
        names = [self.gm, *self.players]
        if len(set(names)) != len(names):
            raise StateError("field 'characters' repeats a name (or the GM's)")
        current = self.current
        if current is None:
            return
        if current.roller not in names:
            raise StateError("field 'current.roller' names nobody at the table")
        if current.roller == self.gm and (current.roller_spent or current.gm_forced):
            raise StateError("field 'current': the GM's own check has no player spends or "
                             "forced rerolls")
        if current.roller != self.gm and (current.roller_spent + current.gm_forced
                                          != current.rolls - 1):
            raise StateError("field 'current.rolls': every reroll of a player's check is "
                             "paid by that player or forced by the GM")

    # -- what is allowed now (the app disables the rest) --------------------------------

    SPENDS: ClassVar[tuple[str, ...]] = tuple(SPEND_RULES)

    def available_spends(self) -> list[str]:
        """The plot-point moves the rules allow on the check in play right now."""
        return [name for name in self.SPENDS if self._spend_refusal(name) is None]

    def _spend_refusal(self, name: str) -> str | None:
        current = self.current
        if current is None:
            return "Plot Points: there is no check in play to spend a point on"
        by_gm = current.roller == self.gm
        if name == "retry_with_lucky":
            if by_gm:
                return "Plot Points: the GM spends unlucky points, not lucky ones"
            if current.success:
                return "Plot Points: a lucky point retries a failed check; this one succeeded"
            if not self.lucky:
                return "Plot Points: no lucky plot point is left to spend"
            return None
        if name == "reroll_with_unlucky":
            if by_gm:
                return "Plot Points: the GM rerolls with gm_reroll"
            if not current.success:
                return "Plot Points: an unlucky point rerolls a successful check; this one failed"
        elif name == "gm_reroll":
            if not by_gm:
                return ("Plot Points: the GM rerolls a player's check only by forcing it "
                        "(gm_force_reroll)")
        elif name == "gm_force_reroll":
            if by_gm:
                return "Plot Points: the GM rerolls an own check with gm_reroll"
            if current.roller_spent:
                return (f"Plot Points: {current.roller} has used plot points on this check, "
                        "so the GM cannot force a reroll")
        if not self.unlucky:
            return "Plot Points: no unlucky plot point is left to spend"
        return None

    def _refuse_spend(self, name: str) -> CheckInPlay:
        reason = self._spend_refusal(name)
        if reason is not None:
            raise RuleError(reason)
        assert self.current is not None
        return self.current

    # -- internals ----------------------------------------------------------------------

    def _in_play(self) -> CheckInPlay:
        if self.current is None:
            raise RuleError("Plot Points: there is no check in play to spend a point on")
        return self.current

    def _spend_unlucky(self) -> None:
        if not self.unlucky:
            raise RuleError("Plot Points: no unlucky plot point is left to spend")
        self.unlucky, self.lucky = self.unlucky - 1, self.lucky + 1

    def _again(self, current: CheckInPlay, what: str, by_roller: bool,
               seed: int | None, rng: random.Random | None) -> CheckOutcome:
        spent, forced, rolls = current.roller_spent, current.gm_forced, current.rolls
        outcome = self._resolve(current.roller, current.plot_check(), seed, rng,
                                f"{current.roller if by_roller else self.gm} {what}")
        assert self.current is not None
        self.current.roller_spent = spent + (1 if by_roller else 0)
        self.current.gm_forced = forced
        self.current.rolls = rolls + 1
        self.describe(str(outcome))
        return outcome

    def _resolve(self, who: str, check: PlotCheck, seed: int | None,
                 rng: random.Random | None, action: str = "") -> CheckOutcome:
        result = check.roll(seed=seed, rng=rng)
        notes = self._after_roll(who, result, bool(result.success))
        assert check.difficulty is not None
        self.current = CheckInPlay(
            who, check.ability, check.proficiency, check.advantage, check.difficulty,
            result.total, result.natural, bool(result.success), text=str(result))
        return CheckOutcome(who, result, tuple(notes), action)

    def _after_roll(self, who: str, result: PlotCheckResult, success: bool) -> list[str]:
        """The special dice results on the pool and the roller's strain from wounds."""
        notes: list[str] = []
        if result.natural_one:
            if self.lucky:
                self.lucky, self.unlucky = self.lucky - 1, self.unlucky + 1
                notes.append("natural 1: a lucky plot point turns unlucky")
            else:
                notes.append("natural 1: no lucky plot point to turn; the GM may impose "
                             "another setback")
        elif result.natural_twenty:
            if self.unlucky:
                self.unlucky, self.lucky = self.unlucky - 1, self.lucky + 1
                notes.append("natural 20: an unlucky plot point turns lucky")
            else:
                notes.append("natural 20: no unlucky plot point to turn; the GM may grant "
                             "another reward")
        if who in self.players:
            character = self.character(who)
            strain = strain_from_check(character.wounds, success)
            if strain:
                notes.append(f"{character.condition}: +{strain} strain")
                notes += _strain_notes(character, strain)
        return notes


def _name(value: str, what: str) -> str:
    name = value.strip() if isinstance(value, str) else ""
    if not name or len(name) > MAX_NAME:
        got = f"{len(name):,} given" if name else "none given"
        raise RuleError(f"Plot Points: a {what}'s name must be 1 to {MAX_NAME} characters "
                        f"({got})")
    return name


def _positive(amount: int, what: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int) or not 1 <= amount <= 100:
        raise RuleError(f"Strain & Wounds: {what} must be a whole number from 1 to 100, "
                        f"got {amount}")


def _strain_notes(character: Character, amount: int) -> list[str]:
    gained, lost = character.add_strain(amount)
    notes = []
    if gained:
        notes.append(f"strain becomes {gained} wound(s): {character.wounds} wounds, "
                     f"{character.condition}")
    if lost:
        notes.append(f"{lost} wound(s) beyond {MAX_WOUNDS} ignored (near-death)")
    return notes
