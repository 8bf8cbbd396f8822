"""Exploring a dungeon: exploration turns, the site clock, encounters, light, escaping.

**Exploration turns.** Time in a dungeon (or any adventure site) runs in turns, about six
to the hour. A turn is the time to go carefully through a few rooms, to pick one room
over, or to do something as long. Each of these takes a full turn: exploring a new room,
travelling a long corridor, moving quickly through three rooms already explored,
listening at a door, searching for something, picking a lock, disarming a trap, resting.
Hurrying is risky, though fairly safe along a clear, known path back to the surface.

**The turn, step by step.** (1) The party declares its action. (2) The referee says what
happens. (3) A player rolls the site die and the referee takes the roll off the site
clock. (4) The players mark a turn on every light source in use.
[Delve][companion.rulesets.cairn_srd.exploration.Delve] runs these four steps as moves,
in this order only.

**The site clock** is set to 20 when the party enters the site. At the end of each turn
the site die is rolled and subtracted:

- if the clock drops **below zero**, the party has an encounter;
- if it **reaches 3**, the party first spots a clue or omen of the coming encounter;
- if it lands on **exactly zero**, it goes back to 3 (and the clue or omen shows).

The site die starts as a d6; each time the party rests it grows one size (d8, d10) up to
a d12, and never beyond. [encounter_odds][companion.rulesets.cairn_srd.exploration.encounter_odds]
gives the exact chance of an encounter on the next turn, within a number of turns, and
the expected number of turns until one, for any clock and die.

Interpretation (a note):

- "Reaches 3" means the clock comes down to 3 on this roll: from above 3 to 3, 2 or 1
  (so 5 - 3 = 2 shows the omen: the clock passed 3 on its way), or to exactly 0, which
  becomes 3. The seed says "exactly" only of zero. A clock already at 3 or below has shown
  its omen; a roll that leaves it at 2 or 1 shows none again.
- After an encounter the clock starts again at 20 (a fresh clock), and the site die keeps
  its size: only a new site starts again at a d6. The seed does not say; 20 is the only
  starting value it gives, and a clock left below zero would bring an encounter every
  turn.
- The rest makes the die grow as it is declared, so the rest turn's own roll already
  uses the larger die.
- The clock never rests at 0, so the odds take clock values from 1 up.

**Encounters.** When the encounter needs a distance the fiction does not give, roll a
d6: 1 nearby (suddenly), 2-5 far, 6 just out of range (it reaches the far band shortly).
To give the creature something to do, roll its activity (d12) and a complication (d10).

Interpretation: complication 10, "Roll NPC", means the creature is a full NPC: its want and
disposition are rolled on the NPC tables (part 1), and the result shows both.

**Light.** Adventurers always have flint and steel. Every time the site die is rolled,
each light in use burns one turn. A **torch** lights nearby objects and close details
for 6 turns; a **candle** lights close objects for 6 turns and blows out when its bearer
moves fast (not if it is carried in a lantern); a **lantern** lights nearby objects (or
a straight line), cannot be blown out and burns 24 turns (half a watch) on one use of
oil; a flask of oil holds 10 uses. **Darkvision** is no light: monochrome outlines of
moving shapes, as by moonlight, and nothing that needs fine eyesight.

Interpretation (a note):

- A blown-out candle keeps its remaining turns and may be lit again; a burnt-out torch or
  candle is gone, a lantern that burnt its oil is lit again by refilling it.
- Moving quickly through explored rooms is moving fast: declaring it blows out every lit
  candle not carried in a lantern.
- A candle carried in a lantern burns as a candle (6 turns) but cannot blow out; carrying
  one needs a lantern in the party.
- A lantern brought into the site arrives filled with one use of oil (24 turns), not
  taken from the party's oil: the seed says what a lantern burns, not that it comes
  empty; each later filling takes a use of the party's oil.

**The darkness consumes you** (optional). When the party runs out of light sources deep
in the dungeon, far from any known exit, every character saves against panic (CTRL).
Instead, the referee may let each player name what their character gives up to get
out; if they cannot, or the referee prefers the dice, the character rolls a d10 on the
fate table (1-4 dead, 5 transformed, 6 lost, 7 captured, 8 traumatised out of the game,
9 all gear lost, 10 a scar, rolled on the scar table). A party close to a known exit may
leave safely. Warn the players beforehand: this is meant to make them carry light.

Interpretation (a note):

- "Runs out of light sources" means nothing is left to light: no light burns, every torch
  and candle is spent and no lantern can be filled (no oil). An unlit torch in a pack is
  not darkness: flint and steel are always at hand.
- The panic save and the price (or the fate table) are two ways, not two steps: the seed
  offers the price "alternatively". Each character takes one: a character who saved
  against panic rolls no fate, and one whose fate is rolled makes no panic save.

**Escaping the dungeon** (optional). When the session must end with the party somewhere
safe and there is no time to play the way out, each character picks their best save and
says how they use it to get out. The referee sets the difficulty value (DV): +4 if lost,
+4 if hindered, -1 in a lair, -2 in a small complex, -1 for each item discarded; a DV
below zero is zero. The save succeeds on a d20 **above the DV and at or under the
score**. A failure rolls a d8 on the failed escapes table (1 unharmed, 2 equipment lost,
3 captured, 4 lost, 5 transformed, 6 dead, 7 betrayal, 8 a scar). On 6 the check is rolled
again: a success lets the party recover the body. On 7 the player rerolls the table or
betrays an escaping comrade, who then rolls on the table; the betrayer rolls a d6:
1-4 escapes, 5-6 both suffer the comrade's fate. Use it to end sessions somewhere safe,
not as a punishment; never when the session ends for reasons beyond anyone's control.

Interpretation (a note):

- "Equipment lost": each of the 1d6 d12s counts a slot from the top of the sheet; a d12
  past the last item loses nothing.
- A comrade "who is escaping" is another character with an escape record in this delve
  whose fate is not yet settled by the table (not yet rolled, or escaped by the save).
- The betrayed comrade's roll of 7 is rolled again: a betrayed character cannot betray.
- "Both suffer the fate": the betrayer gets the comrade's row (rolled once); a "Dead" row
  gives each of them their own body check.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import dice, tables
from companion.acting import named_actor
from companion.dice.roller import make_rng
from companion.errors import OddsTooCostlyError, RuleError, StateError, TableError
from companion.rulesets.cairn_srd.saves import ABILITIES, MAX_SCORE, SaveResult, save, save_chance
from companion.state import Tracker, move, state_field
from companion.table_moves import TableTrackers, argument
from companion.table_moves import declare as declare_table_move
from companion.tables.fixed import Schema, load_fixed

if TYPE_CHECKING:  # the sheet module imports this one's neighbours: named, not imported
    from companion.rulesets.cairn_srd.character import Character

DATA_FILE = Path(__file__).parent / "data" / "exploration.toml"
EXPLORATION_SCHEMA: dict[str, Schema] = {
    "site_clock": {"start": int, "omen_at": int, "dice": [int], "turns_per_hour": int},
    "actions": [{"key": str, "name": str, "fast?": bool, "rest?": bool}],
    "lights": [{"kind": str, "turns": int, "reach": str, "note": str}],
    "oil": {"uses": int},
    "darkvision": {"text": str},
    "escape_modifiers": [{"key": str, "situation": str, "dv": int, "per_item?": bool}],
}
"""The keys and types of ``data/exploration.toml``."""
MAX_NAME = 40
MAX_NOTE = 200
MAX_LIGHTS = 30
MAX_PARTY = 20
MAX_OIL = 990
MAX_ODDS_CLOCK = 1000
"""The highest clock value the odds are computed for (the site clock starts at 20)."""
MAX_ODDS_TURNS = 1000
"""The most turns "within N turns" looks ahead."""

TABLES = {
    "distance": "cairn_encounter_distance",
    "activity": "cairn_encounter_activity",
    "complication": "cairn_encounter_complication",
    "fate": "cairn_darkness_fate",
    "failed_escape": "cairn_failed_escape",
    "betrayal": "cairn_betrayal",
}
"""The random tables of this part, by use."""


@functools.cache
def exploration_data() -> dict[str, Any]:
    """The fixed data of ``data/exploration.toml`` (actions, lights, escape DV), checked."""
    where = "cairn_srd data/exploration.toml"
    data = load_fixed(DATA_FILE, EXPLORATION_SCHEMA, where=where)
    clock = data["site_clock"]
    if any(d < 1 for d in clock["dice"]) or clock["dice"] != sorted(clock["dice"]):
        raise TableError(f"{where}: site_clock.dice must list die sizes, smallest first")
    for key in ("start", "omen_at", "turns_per_hour"):
        if clock[key] < 1:
            raise TableError(f"{where}: site_clock.{key} must be a whole number above 0")
    for i, light in enumerate(data["lights"]):
        if light["turns"] < 1:
            raise TableError(f"{where}: lights[{i}].turns must be a whole number above 0")
    return data


_CLOCK = exploration_data()["site_clock"]
START: int = _CLOCK["start"]
"""The site clock's starting value (20)."""
OMEN_AT: int = _CLOCK["omen_at"]
SITE_DICE: tuple[int, ...] = tuple(_CLOCK["dice"])
"""The site die's sizes, from the first (d6) to the largest (d12)."""
TURNS_PER_HOUR: int = _CLOCK["turns_per_hour"]
ACTIONS: dict[str, dict[str, Any]] = {a["key"]: a for a in exploration_data()["actions"]}
"""The actions that take a full turn, by key (``"other"`` is any other action)."""
LIGHTS: dict[str, dict[str, Any]] = {a["kind"]: a for a in exploration_data()["lights"]}
"""Torch, candle and lantern: how long each burns and what it lights."""
OIL_USES: int = exploration_data()["oil"]["uses"]
ESCAPE_MODIFIERS: dict[str, dict[str, Any]] = {
    m["key"]: m for m in exploration_data()["escape_modifiers"]}
"""The escape DV modifiers by key: lost, hindered, lair, small_complex, discard."""


# -- the site clock --------------------------------------------------------------------


@dataclass(frozen=True)
class ClockStep:
    """One subtraction of the site die: the clock after it, and what it brought."""

    before: int
    roll: int
    after: int
    encounter: bool
    omen: bool

    def __str__(self) -> str:
        text = f"site clock {self.before} - {self.roll}"
        if self.encounter:
            return text + (f" drops below zero: an encounter (the clock starts again at "
                           f"{self.after})")
        if self.before - self.roll == 0:
            return text + f" = 0: back to {self.after}, a clue or omen"
        return text + f" = {self.after}" + (": a clue or omen" if self.omen else "")


def check_die(die: int) -> None:
    """Raise [RuleError][companion.errors.RuleError] unless ``die`` is a site die size."""
    if die not in SITE_DICE:
        sizes = ", ".join(f"d{d}" for d in SITE_DICE)
        raise RuleError(f"Site Clock: the site die is one of {sizes}, not d{die}")


def clock_after(clock: int, roll: int) -> ClockStep:
    """The site clock rule: subtract ``roll`` from ``clock``.

    >>> str(clock_after(20, 4))
    'site clock 20 - 4 = 16'
    >>> str(clock_after(7, 4))
    'site clock 7 - 4 = 3: a clue or omen'
    >>> str(clock_after(4, 4))
    'site clock 4 - 4 = 0: back to 3, a clue or omen'
    >>> clock_after(2, 3).encounter
    True
    >>> clock_after(5, 3).omen, clock_after(3, 1).omen
    (True, False)
    """
    if clock < 1:
        raise RuleError(f"Site Clock: the clock never rests below 1 (0 becomes {OMEN_AT}), "
                        f"got {clock}")
    if roll < 1:
        raise RuleError(f"Site Clock: a die roll is at least 1, got {roll}")
    value = clock - roll
    if value < 0:
        return ClockStep(clock, roll, START, True, False)
    if value == 0:
        return ClockStep(clock, roll, OMEN_AT, False, True)
    return ClockStep(clock, roll, value, False, clock > OMEN_AT >= value)


@dataclass(frozen=True)
class EncounterOdds:
    """Exact odds for a clock value and a fixed site die.

    ``next``: an encounter on the next turn; ``within``: at least one within ``turns``
    turns; ``expected_turns``: the mean number of turns until the first, counting the turn
    it happens; ``omen_next``: a clue or omen on the next turn.
    """

    clock: int
    die: int
    turns: int
    next: Fraction
    within: Fraction
    expected_turns: Fraction
    omen_next: Fraction


def _check_odds_input(clock: int, die: int, turns: int = 1) -> None:
    check_die(die)
    if not 1 <= clock <= MAX_ODDS_CLOCK:
        raise OddsTooCostlyError(
            f"Site Clock odds: the clock runs from 1 to {MAX_ODDS_CLOCK} here, got {clock:,}")
    if not 1 <= turns <= MAX_ODDS_TURNS:
        raise OddsTooCostlyError(
            f"Site Clock odds: look 1 to {MAX_ODDS_TURNS:,} turns ahead, got {turns:,}")


@functools.cache
def _transitions(top: int, die: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """For each clock value 1..top: where each face leads (0 for an encounter); index 0
    unused. Built from [clock_after][companion.rulesets.cairn_srd.exploration.clock_after]."""
    out: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for value in range(1, top + 1):
        steps = [clock_after(value, r) for r in range(1, die + 1)]
        out.append((tuple(0 if s.encounter else s.after for s in steps),
                    sum(1 for s in steps if s.encounter)))
    return tuple(out)


def _states(clock: int) -> int:
    return max(clock, OMEN_AT)


def chance_within(clock: int, die: int, turns: int) -> Fraction:
    """Exact chance of at least one encounter within ``turns`` turns (die fixed).

    A Markov chain over the clock values in whole numbers: the ways of surviving each turn,
    out of ``die ** turns``.
    """
    _check_odds_input(clock, die, turns)
    top = _states(clock)
    moves = _transitions(top, die)
    ways = [0] * (top + 1)
    ways[clock] = 1
    for _ in range(turns):
        new = [0] * (top + 1)
        for value in range(1, top + 1):
            w = ways[value]
            if w:
                for dest in moves[value][0]:
                    if dest:
                        new[dest] += w
        ways = new
    return 1 - Fraction(sum(ways), die ** turns)


def expected_turns(clock: int, die: int) -> Fraction:
    """Exact expected number of turns until the first encounter, counting its turn.

    Each clock value's expectation is 1 plus the mean over the die of the value it leads
    to. The values the omen reset leads back to (3 and below) are solved as a small
    linear system (each expectation as ``a + b·x`` with ``x`` the value at 3); every
    higher value then follows from lower ones.
    """
    _check_odds_input(clock, die)
    top = _states(clock)
    moves = _transitions(top, die)
    low = OMEN_AT
    # Linear forms a + b*x for values 1..low, x = E[low]; the omen reset leads to low.
    forms: list[tuple[Fraction, Fraction]] = [(Fraction(0), Fraction(0))]
    for value in range(1, low + 1):
        a, b = Fraction(1), Fraction(0)
        for dest in moves[value][0]:
            if dest:
                if dest == low:
                    b += Fraction(1, die)
                elif dest < value:
                    a += forms[dest][0] / die
                    b += forms[dest][1] / die
                else:
                    raise RuleError("Site Clock: the clock only runs down")  # pragma: no cover
        forms.append((a, b))
    a_low, b_low = forms[low]
    x = a_low / (1 - b_low)
    expect = [Fraction(0)] + [a + b * x for a, b in forms[1:]]
    for value in range(low + 1, top + 1):
        total = sum((expect[d] for d in moves[value][0] if d), Fraction(0))
        expect.append(1 + total / die)
    return expect[clock]


def encounter_odds(clock: int, die: int, turns: int = 1) -> EncounterOdds:
    """The exact odds a referee wants at ``clock`` with a ``die``-sided site die.

    >>> o = encounter_odds(20, 6, 3)
    >>> o.next, o.omen_next
    (Fraction(0, 1), Fraction(0, 1))
    >>> encounter_odds(3, 6).next, encounter_odds(3, 6).omen_next
    (Fraction(1, 2), Fraction(1, 6))
    >>> encounter_odds(1, 6).expected_turns
    Fraction(216, 167)
    """
    _check_odds_input(clock, die, turns)
    moves = _transitions(_states(clock), die)
    hits = moves[clock][1]
    return EncounterOdds(
        clock=clock, die=die, turns=turns,
        next=Fraction(hits, die),
        within=chance_within(clock, die, turns),
        expected_turns=expected_turns(clock, die),
        omen_next=Fraction(sum(1 for r in range(1, die + 1)
                               if clock_after(clock, r).omen), die),
    )


def clock_odds_table(clocks: Iterable[int] = range(1, START + 1),
                     dice_sizes: Iterable[int] = SITE_DICE) -> list[list[EncounterOdds]]:
    """Rows of odds, one per clock value, one column per die size (next turn only)."""
    sizes = list(dice_sizes)
    return [[encounter_odds(c, d) for d in sizes] for c in clocks]


# -- escaping --------------------------------------------------------------------------


def escape_dv(situations: Iterable[str] = (), discarded: int = 0) -> int:
    """The escape difficulty value: the modifiers of ``situations`` (keys of
    [ESCAPE_MODIFIERS][companion.rulesets.cairn_srd.exploration.ESCAPE_MODIFIERS]) plus
    -1 per discarded item, never below 0.

    >>> escape_dv(["lost", "hindered"], discarded=1), escape_dv(["small_complex"])
    (7, 0)
    """
    total = 0
    seen = set()
    for key in situations:
        mod = ESCAPE_MODIFIERS.get(key)
        if mod is None or mod.get("per_item"):
            names = ", ".join(k for k, m in ESCAPE_MODIFIERS.items() if not m.get("per_item"))
            raise RuleError(f"Escaping the Dungeon: no situation “{key}” ({names})")
        if key in seen:
            raise RuleError(f"Escaping the Dungeon: “{key}” counts once")
        seen.add(key)
        total += int(mod["dv"])
    if not 0 <= discarded <= MAX_SCORE * 10:
        raise RuleError(f"Escaping the Dungeon: discard 0 or more items, got {discarded}")
    total += int(ESCAPE_MODIFIERS["discard"]["dv"]) * discarded
    return max(0, total)


def best_save(strength: int, dexterity: int, control: int) -> tuple[str, int]:
    """The highest of the three saves (the first named on a tie), as (name, score)."""
    scores = dict(zip(ABILITIES, (strength, dexterity, control), strict=True))
    name = max(ABILITIES, key=lambda a: scores[a])
    return name, scores[name]


def escape_chance(score: int, dv: int) -> Fraction:
    """Exact chance of the escape save: a d20 above ``dv``, at or under ``score``."""
    return save_chance(score, dv)


# -- the tracker ------------------------------------------------------------------------

STEPS = ("declare", "describe", "roll", "mark")
"""The four steps of an exploration turn, in order."""
STEP_TEXT = {
    "declare": "step 1, the party declares its action",
    "describe": "step 2, the referee describes what happens",
    "roll": "step 3, the site die is rolled and taken off the clock",
    "mark": "step 4, the light sources are marked",
}
ESCAPE_STAGES = ("escaped", "failed", "choice", "body", "done")


@dataclass
class LightSource:
    """One torch, candle or lantern: who carries it, turns left, lit or not."""

    kind: str = state_field("torch", choices=tuple(LIGHTS))
    bearer: str = state_field("", max_len=MAX_NAME)
    turns_left: int = state_field(6, min=0, max=max(v["turns"] for v in LIGHTS.values()))
    lit: bool = False
    in_lantern: bool = False
    """A candle carried in a lantern: it cannot blow out."""

    def check_state(self) -> None:
        if self.turns_left > LIGHTS[self.kind]["turns"]:
            raise StateError(f"field 'turns_left': a {self.kind} burns at most "
                             f"{LIGHTS[self.kind]['turns']} turns")
        if self.lit and self.turns_left == 0:
            raise StateError("field 'lit': a spent light cannot burn")
        if self.in_lantern and self.kind != "candle":
            raise StateError("field 'in_lantern': only a candle is carried in a lantern")

    @property
    def can_light(self) -> bool:
        """Not burning, and turns left to burn."""
        return not self.lit and self.turns_left > 0

    @property
    def can_blow_out(self) -> bool:
        """A lit candle not carried in a lantern (moving fast puts it out)."""
        return self.kind == "candle" and self.lit and not self.in_lantern

    @property
    def label(self) -> str:
        who = f" ({self.bearer})" if self.bearer else ""
        state = "lit" if self.lit else ("spent" if not self.turns_left else "out")
        shelter = ", in a lantern" if self.in_lantern else ""
        return f"{self.kind}{who}: {self.turns_left} turns, {state}{shelter}"


@dataclass
class EncounterRecord:
    """An encounter the clock brought, and the details rolled for it."""

    turn: int = state_field(1, min=1)
    distance: str = state_field("", max_len=MAX_NOTE)
    activity: str = state_field("", max_len=MAX_NOTE)
    complication: str = state_field("", max_len=MAX_NOTE)
    npc: str = state_field("", max_len=MAX_NOTE)

    @property
    def text(self) -> str:
        parts = [f"encounter on turn {self.turn}"]
        for label, value in (("distance", self.distance), ("activity", self.activity),
                             ("complication", self.complication), ("NPC", self.npc)):
            if value:
                parts.append(f"{label}: {value}")
        return "; ".join(parts)


@dataclass
class Escapee:
    """One character's escape: the save used, the DV, where the procedure stands, the fate.

    ``stage``: ``escaped`` (by the save), ``failed`` (the failed escapes table is due),
    ``choice`` (a 7: reroll or betray), ``body`` (dead: the body check is due), ``done``.
    """

    name: str = state_field("", max_len=MAX_NAME)
    ability: str = state_field("STR", choices=ABILITIES)
    score: int = state_field(10, min=0, max=MAX_SCORE)
    dv: int = state_field(0, min=0, max=40)
    stage: str = state_field("failed", choices=ESCAPE_STAGES)
    fate: str = state_field("", max_len=4 * MAX_NOTE)
    lost_pieces: list[int] = state_field(default_factory=list, min=1, max=12, max_len=6)
    number: int = state_field(0, min=0)
    """Which fate of the delve this escape is (``Delve.fates_rolled`` when it was made; 0:
    made before fates were numbered): it names the fate on the sheet."""

    @property
    def stage_text(self) -> str:
        """Where this escape stands, in words."""
        return _stage_text(self)

    def check_state(self) -> None:
        if self.stage in ("done", "body") and not self.fate:
            raise StateError("field 'fate': a settled escape names its fate")


@dataclass
class Delve(Tracker):
    """A party in one adventure site: the turn procedure, clock, die, lights, escapes.

    Each step of the turn is a move and only the next step is allowed
    ([STEPS][companion.rulesets.cairn_srd.exploration.STEPS]). Light sources can be added,
    lit and put out at any step; the encounter details are rolled while an encounter is
    on; the darkness and escape procedures are moves per character.

    >>> d = Delve()
    >>> d.declare("explore"); d.describe_turn()
    >>> step = d.roll_site_die(seed=1)
    >>> step.after == 20 - step.roll and d.step
    'mark'
    >>> d.roll_site_die(seed=1)
    Traceback (most recent call last):
    ...
    companion.errors.RuleError: Exploration Turn Procedure: now comes step 4, the light \
sources are marked
    """

    links = ("Character",)  # the party's sheets at its table: ``sheet(name)``

    what = "dungeon crawl"

    clock: int = state_field(START, min=1, max=START)
    die: int = state_field(SITE_DICE[0], choices=SITE_DICE)
    turn: int = state_field(1, min=1)
    """The turn under way (1 on entering the site)."""
    step: str = state_field("declare", choices=STEPS)
    action: str = state_field("", max_len=MAX_NOTE)
    description: str = state_field("", max_len=MAX_NOTE)
    last_roll: int = state_field(0, min=0, max=max(SITE_DICE))
    omen: bool = False
    """The last roll showed a clue or omen."""
    encounters: int = state_field(0, min=0)
    encounter: EncounterRecord | None = None
    """The encounter of this turn (cleared by the next roll of the site die)."""
    lights: list[LightSource] = state_field(default_factory=list, max_len=MAX_LIGHTS)
    oil: int = state_field(0, min=0, max=MAX_OIL)
    """Uses of lantern oil the party carries (a flask holds 10)."""
    darkvision: list[str] = state_field(default_factory=list, max_len=MAX_PARTY)
    panic_saves: dict[str, bool] = state_field(default_factory=dict, max_len=MAX_PARTY)
    """Characters who saved against panic in the dark (True: passed)."""
    fates: dict[str, str] = state_field(default_factory=dict, max_len=MAX_PARTY)
    """The darkness fate table's result per character."""
    escapes: list[Escapee] = state_field(default_factory=list, max_len=MAX_PARTY)
    fates_rolled: int = state_field(0, min=0)
    """Fates rolled in this delve so far, in every site (darkness fates and escapes): each
    has its number, which names it on the sheet it lands on, so it is applied once
    (``Character.fates_taken``) however long ago it was rolled."""
    fate_numbers: dict[str, int] = state_field(default_factory=dict, min=1, max_len=MAX_PARTY)
    """The number of each character's darkness fate in this site (see ``fates_rolled``)."""

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """A character's own saves in the dark, escape check, its reroll and a betrayal are
        that character's (``name``); the turn, the lights, the fate tables and the
        recovery of a body are the table's."""
        own = dict.fromkeys(("darkness_panic_save", "record_panic_save", "escape_check",
                             "reroll_escape", "betray"), "name")
        return named_actor(own, move, arguments)

    def check_state(self) -> None:
        if self.encounter is not None and self.encounter.turn > self.turn:
            raise StateError("field 'encounter': an encounter of a turn still to come")
        for name in [*self.darkvision, *self.panic_saves, *self.fates]:
            if not name.strip() or len(name) > MAX_NAME:
                raise StateError(f"field 'darkvision': a name of 1 to {MAX_NAME} characters")
        names = [e.name for e in self.escapes]
        if len(set(names)) != len(names):
            raise StateError("field 'escapes': one escape per character")
        if self.step == "declare" and (self.action or self.description):
            raise StateError("field 'action': no action is declared before step 1")

    # -- derived ------------------------------------------------------------------------

    @property
    def step_text(self) -> str:
        return STEP_TEXT[self.step]

    @property
    def can_step_up(self) -> bool:
        return self.die < SITE_DICE[-1]

    @property
    def lit(self) -> list[LightSource]:
        return [s for s in self.lights if s.lit]

    @property
    def dark(self) -> bool:
        """No light burns (darkvision is no light)."""
        return not self.lit

    @property
    def out_of_light(self) -> bool:
        """The party has run out of light sources: none burns, none has turns left, and no
        lantern can be filled (see the darkness Interpretation above)."""
        return not any(s.lit or s.turns_left > 0 or (s.kind == "lantern" and self.oil > 0)
                       for s in self.lights)

    @property
    def hours(self) -> Fraction:
        """Hours spent in the site so far (six turns to the hour)."""
        return Fraction(self.turn - 1, TURNS_PER_HOUR)

    def odds(self, turns: int = 1) -> EncounterOdds:
        """The exact encounter odds from the clock now, with the current die."""
        return encounter_odds(self.clock, self.die, turns)

    def sheet(self, name: str) -> Character:
        """The sheet of the character ``name`` at the delve's table (the link the ruleset
        declares, ``links``: a campaign's party, or a plain dict given to
        [link][companion.state.Tracker.link])."""
        from companion.rulesets.cairn_srd.character import Character

        who = name.strip()
        for sheet in self.linked(Character).values():
            if sheet.name.strip() == who:
                return sheet
        raise RuleError(f"Delve: no sheet of {who or 'nobody'} at the table")

    def escapee(self, name: str) -> Escapee:
        for e in self.escapes:
            if e.name == name:
                return e
        raise RuleError(f"Escaping the Dungeon: {name or 'nobody'} has not tried to escape")

    @property
    def has_lantern(self) -> bool:
        """A candle can be carried in a lantern only if the party has one."""
        return any(s.kind == "lantern" for s in self.lights)

    def can_darkness_save(self, name: str) -> bool:
        """The darkness: ``name`` may save against panic now (out of light, neither saved nor
        given a fate)."""
        who = name.strip()
        return self.out_of_light and who not in self.panic_saves and who not in self.fates

    def can_roll_fate(self, name: str) -> bool:
        """The darkness: ``name`` may roll on the fate table now (out of light, neither saved
        against panic nor given a fate)."""
        return self.can_darkness_save(name)

    def _check_darkness(self, who: str, way: str) -> None:
        """Refuse the darkness's save or fate unless the party is out of light and ``who``
        has taken neither way yet."""
        rule = "The Darkness Consumes You"
        if not self.out_of_light:
            raise RuleError(f"{rule}: the party still has light (a light burns or can be lit)")
        if who in self.panic_saves:
            raise RuleError(f"{rule}: {who} has already saved against panic"
                            + (" (the fate table is the other way, not a second step)"
                               if way == "fate" else ""))
        if who in self.fates:
            raise RuleError(f"{rule}: {who}'s fate is already rolled"
                            + (" (the panic save is the other way, not a second step)"
                               if way == "save" else ""))

    def can_escape(self, name: str) -> bool:
        """``name`` has not yet made the escape save."""
        return all(e.name != name.strip() for e in self.escapes)

    def comrades(self, name: str) -> list[str]:
        """Who ``name`` could betray now: other characters still escaping."""
        return [e.name for e in self.escapes
                if e.name != name and e.stage in ("escaped", "failed")]

    def _need(self, step: str) -> None:
        if self.step != step:
            raise RuleError(f"Exploration Turn Procedure: now comes {STEP_TEXT[self.step]}")

    # -- the turn -----------------------------------------------------------------------

    @move
    def declare(self, action: str, fast: bool = False) -> None:
        """Step 1: the party declares its action (a key of
        [ACTIONS][companion.rulesets.cairn_srd.exploration.ACTIONS] or any other words).
        Resting steps the site die up; moving fast blows out unsheltered candles."""
        self._need("declare")
        text = action.strip()
        if not text:
            raise RuleError("Exploration Actions: declare what the party does")
        if len(text) > MAX_NOTE:
            raise RuleError(f"Exploration Actions: at most {MAX_NOTE} characters")
        known = ACTIONS.get(text)
        self.action = known["name"] if known else text
        notes = []
        if known and known.get("rest"):
            if self.can_step_up:
                self.die = SITE_DICE[SITE_DICE.index(self.die) + 1]
                notes.append(f"the site die grows to d{self.die}")
            else:
                notes.append(f"the site die stays d{self.die}, its largest")
        if fast or (known and known.get("fast")):
            out = self._blow_out_candles()
            if out:
                notes.append(out)
        self.step = "describe"
        self.describe(f"turn {self.turn}: {self.action}" + "".join(f"; {n}" for n in notes))

    def _blow_out_candles(self) -> str:
        blown = [s for s in self.lights if s.can_blow_out]
        for s in blown:
            s.lit = False
        return f"{len(blown)} candle(s) blow out" if blown else ""

    @move
    def describe_turn(self, text: str = "") -> None:
        """Step 2: the referee describes what happens (an optional note)."""
        self._need("describe")
        if len(text) > MAX_NOTE:
            raise RuleError(f"Exploration Turn Procedure: a note has at most {MAX_NOTE} "
                            "characters")
        self.description = text.strip()
        self.step = "roll"
        self.describe(f"turn {self.turn}: the referee describes"
                      + (f": {self.description}" if self.description else ""))

    @move
    def roll_site_die(self, rng: random.Random | None = None,
                      seed: int | None = None) -> ClockStep:
        """Step 3: roll the site die and take it off the clock."""
        self._need("roll")
        roll = dice.roll(f"1d{self.die}", rng=make_rng(seed, rng)).total
        step = clock_after(self.clock, roll)
        self.clock, self.last_roll, self.omen = step.after, roll, step.omen
        self.encounter = None
        if step.encounter:
            self.encounters += 1
            self.encounter = EncounterRecord(turn=self.turn)
        self.step = "mark"
        self.describe(f"turn {self.turn}: d{self.die} = {roll}; {step}")
        return step

    @move
    def mark_lights(self) -> list[str]:
        """Step 4: every lit light burns a turn; spent ones go out. The next turn begins."""
        self._need("mark")
        spent = []
        for s in self.lit:
            s.turns_left -= 1
            if s.turns_left == 0:
                s.lit = False
                spent.append(s.kind + (f" ({s.bearer})" if s.bearer else ""))
        burning = len(self.lit)
        text = f"turn {self.turn} ends: {burning} light(s) burning"
        if spent:
            text += "; burnt out: " + ", ".join(spent)
        if self.dark:
            text += "; darkness"
        self.turn += 1
        self.step = "declare"
        self.action = self.description = ""
        self.describe(text)
        return spent

    @move
    def new_site(self) -> None:
        """Enter a new site: the clock starts at 20, the die at d6, turn 1."""
        self.clock, self.die, self.turn, self.step = START, SITE_DICE[0], 1, "declare"
        self.action = self.description = ""
        self.last_roll, self.omen, self.encounter = 0, False, None
        self.panic_saves, self.fates, self.escapes = {}, {}, []
        self.fate_numbers = {}
        self.describe(f"a new site: clock {START}, site die d{SITE_DICE[0]}")

    # -- encounters ---------------------------------------------------------------------

    def _encounter(self, detail: str) -> EncounterRecord:
        if self.encounter is None:
            raise RuleError("Random Encounter: no encounter this turn (the clock brings one "
                            "when it drops below zero)")
        if getattr(self.encounter, detail):
            raise RuleError(f"Random Encounter: the {detail} is already rolled (undo to "
                            "roll it again)")
        return self.encounter

    def _detail(self, detail: str, rng: random.Random | None, seed: int | None) -> str:
        record = self._encounter(detail)
        r = make_rng(seed, rng)
        result = tables.get(TABLES[detail]).roll(rng=r)
        text = next(iter(result.values.values()))
        setattr(record, detail, text)
        shown = f"{detail} {tables.get(TABLES[detail]).die} = {result.roll}: {text}"
        if detail == "complication" and text == "Roll NPC":
            from companion.rulesets.cairn_srd.social import roll_npc

            record.npc = str(roll_npc(rng=r))
            shown += f" ({record.npc})"
        self.describe(shown)
        return shown

    @move
    def roll_distance(self, rng: random.Random | None = None, seed: int | None = None) -> str:
        """Roll the encounter's distance (d6)."""
        return self._detail("distance", rng, seed)

    @move
    def roll_activity(self, rng: random.Random | None = None, seed: int | None = None) -> str:
        """Roll what the creature is doing or wants (d12)."""
        return self._detail("activity", rng, seed)

    @move
    def roll_complication(self, rng: random.Random | None = None,
                          seed: int | None = None) -> str:
        """Roll the encounter's complication (d10); "Roll NPC" rolls the NPC too."""
        return self._detail("complication", rng, seed)

    # -- light --------------------------------------------------------------------------

    def _light(self, index: int) -> LightSource:
        if not 0 <= index < len(self.lights):
            raise RuleError(f"Light: no light source #{index + 1}")
        return self.lights[index]

    @move
    def add_light(self, kind: str, bearer: str = "", lit: bool = False) -> LightSource:
        """Bring a fresh torch, candle or lantern (a lantern comes filled once)."""
        if kind not in LIGHTS:
            raise RuleError(f"Light: a torch, a candle or a lantern, not “{kind}”")
        if len(bearer.strip()) > MAX_NAME:
            raise RuleError(f"Light: a bearer's name has at most {MAX_NAME} characters")
        if len(self.lights) >= MAX_LIGHTS:
            raise RuleError(f"Light: at most {MAX_LIGHTS} light sources are tracked")
        source = LightSource(kind, bearer.strip(), LIGHTS[kind]["turns"], lit)
        self.lights.append(source)
        self.describe(f"a {kind}" + (f" for {source.bearer}" if source.bearer else "")
                      + (" is lit" if lit else " is packed"))
        return source

    @move
    def light(self, index: int) -> None:
        """Light a source (flint and steel are always at hand)."""
        s = self._light(index)
        if s.lit:
            raise RuleError(f"Light: the {s.kind} already burns")
        if not s.turns_left:
            raise RuleError(f"Light: the {s.kind} is spent"
                            + (" (refill it with oil)" if s.kind == "lantern" else ""))
        s.lit = True
        self.describe(f"the {s.kind} is lit ({s.turns_left} turns left)")

    @move
    def put_out(self, index: int) -> None:
        """Put a light out (it keeps its turns left)."""
        s = self._light(index)
        if not s.lit:
            raise RuleError(f"Light: the {s.kind} is not lit")
        s.lit = False
        self.describe(f"the {s.kind} is put out ({s.turns_left} turns left)")

    @move
    def move_fast(self, index: int) -> None:
        """The bearer of a light moves at a fast speed: a candle blows out, unless in a
        lantern."""
        s = self._light(index)
        if s.can_blow_out:
            s.lit = False
            self.describe(f"the candle{' of ' + s.bearer if s.bearer else ''} blows out")
        else:
            self.describe(f"the {s.kind} keeps burning at a fast pace")

    @move
    def carry_in_lantern(self, index: int, inside: bool = True) -> None:
        """Carry a candle in a lantern (it cannot blow out), or take it out."""
        s = self._light(index)
        if s.kind != "candle":
            raise RuleError("Light: only a candle is carried in a lantern")
        if inside and not self.has_lantern:
            raise RuleError("Light: a candle needs a lantern to be carried in")
        s.in_lantern = inside
        self.describe("the candle goes into a lantern" if inside else
                      "the candle comes out of the lantern")

    @move
    def add_oil(self, flasks: int = 1) -> None:
        """Bring flasks of lantern oil (10 uses each)."""
        if flasks < 1 or self.oil + flasks * OIL_USES > MAX_OIL:
            raise RuleError(f"Light: bring 1 or more flasks, at most {MAX_OIL} uses in all")
        self.oil += flasks * OIL_USES
        self.describe(f"{flasks} flask(s) of oil: {self.oil} uses")

    @move
    def refill(self, index: int) -> None:
        """Fill a lantern with one use of oil: it burns 24 turns again."""
        s = self._light(index)
        if s.kind != "lantern":
            raise RuleError(f"Light: oil fills a lantern, not a {s.kind}")
        if self.oil < 1:
            raise RuleError("Light: no oil left")
        self.oil -= 1
        s.turns_left = LIGHTS["lantern"]["turns"]
        self.describe(f"the lantern is filled: {s.turns_left} turns; {self.oil} uses of oil "
                      "left")

    @move
    def remove_light(self, index: int) -> None:
        """Take a light source off the list (spent, lost, given away)."""
        s = self._light(index)
        self.lights.pop(index)
        self.describe(f"the {s.kind} is set aside")

    @move
    def set_darkvision(self, name: str, has: bool = True) -> None:
        """Note that a character sees in the dark (or no longer does)."""
        who = _name(name, "Darkvision")
        if has and who not in self.darkvision:
            if len(self.darkvision) >= MAX_PARTY:
                raise RuleError(f"Darkvision: at most {MAX_PARTY} characters")
            self.darkvision.append(who)
        elif not has and who in self.darkvision:
            self.darkvision.remove(who)
        self.describe(f"{who} {'has' if has else 'has no'} darkvision")

    # -- the darkness -------------------------------------------------------------------

    @move
    def darkness_panic_save(self, name: str, control: int,
                            rng: random.Random | None = None,
                            seed: int | None = None) -> SaveResult:
        """The Darkness Consumes You: a character's CTRL save against panic, once the party
        is out of light (the fate table is the other way), for one with no sheet at the
        table (a hireling, a retainer: ``control`` is its CTRL); the dungeon-crawl app's
        "no sheet" row makes it. A character whose sheet sits at the table saves on it
        ([darkness_panic][companion.rulesets.cairn_srd.exploration.darkness_panic]), so that
        a failure leaves the sheet panicking: this move refuses one."""
        who = _name(name, "The Darkness Consumes You")
        if any(c.name.strip() == who for c in self.linked(_character_kind()).values()):
            raise RuleError(f"The Darkness Consumes You: {who} has a sheet at the table; the "
                            "save is rolled on it (a failure leaves the sheet panicking)")
        self._check_darkness(who, "save")
        result = save(control, rng=make_rng(seed, rng))
        return self._note_panic(who, result)

    def _note_panic(self, who: str, result: SaveResult) -> SaveResult:
        if len(self.panic_saves) >= MAX_PARTY:
            raise RuleError(f"The Darkness Consumes You: at most {MAX_PARTY} characters")
        self.panic_saves[who] = result.success
        self.describe(f"{who} saves against panic in the dark: {result}"
                      + ("" if result.success else "; panicking"))
        return result

    @move
    def record_panic_save(self, name: str, control: int, roll: int) -> SaveResult:
        """Record a panic save rolled elsewhere (on the character's sheet, or at the table)."""
        who = _name(name, "The Darkness Consumes You")
        self._check_darkness(who, "save")
        if not 1 <= roll <= 20:
            raise RuleError(f"Saving Throw: a d20 shows 1 to 20, not {roll}")
        save_chance(control)  # checks the score
        return self._note_panic(who, SaveResult(control, 0, roll))

    @move
    def darkness_fate(self, name: str, rng: random.Random | None = None,
                      seed: int | None = None) -> str:
        """The fate table (d10) for a character, out of light, who names no price for
        getting out (instead of a panic save)."""
        who = _name(name, "The Darkness Consumes You")
        self._check_darkness(who, "fate")
        result = tables.get(TABLES["fate"]).roll(rng=make_rng(seed, rng))
        text = f"{result.values['Fate']}: {result.values['Effect']}"
        self.fates[who] = text
        self.fates_rolled += 1
        self.fate_numbers[who] = self.fates_rolled
        self.describe(f"{who}'s fate in the dark (d10 = {result.roll}): {text}")
        return text

    # -- escaping -----------------------------------------------------------------------

    @move
    def escape_check(self, name: str, ability: str, score: int,
                     situations: tuple[str, ...] | list[str] = (), discarded: int = 0,
                     rng: random.Random | None = None, seed: int | None = None) -> SaveResult:
        """A character's escape save: d20 above the DV, at or under the chosen save."""
        who = _name(name, "Escaping the Dungeon")
        key = ability.strip().upper()
        if key not in ABILITIES:
            raise RuleError(f"Escaping the Dungeon: a save is STR, DEX or CTRL, not “{ability}”")
        if any(e.name == who for e in self.escapes):
            raise RuleError(f"Escaping the Dungeon: {who} has already tried")
        if len(self.escapes) >= MAX_PARTY:
            raise RuleError(f"Escaping the Dungeon: at most {MAX_PARTY} characters")
        dv = escape_dv(situations, discarded)
        escape_chance(score, dv)  # checks the score
        result = save(score, floor=dv, rng=make_rng(seed, rng))
        stage = "escaped" if result.success else "failed"
        self.fates_rolled += 1
        self.escapes.append(Escapee(who, key, score, min(dv, 40), stage,
                                    "Escaped" if result.success else "",
                                    number=self.fates_rolled))
        self.describe(f"{who} escapes by {key} over DV {dv}: {result}"
                      + ("" if result.success else "; roll on the failed escapes table"))
        return result

    def _roll_failed(self, e: Escapee, r: random.Random, betrayed: bool = False) -> str:
        table = tables.get(TABLES["failed_escape"])
        while True:
            result = table.roll(rng=r)
            if not (betrayed and result.values["Result"] == "Betrayal"):
                break
        values = result.values
        text = f"{values['Result']}: {values['Effect']}"
        e.lost_pieces = []
        if values["Result"] == "Betrayal":
            e.stage = "choice"
        elif values["Result"] == "Dead":
            e.stage = "body"
        else:
            e.stage = "done"
        if values["Result"] == "Equipment lost":
            count = next(v.total for expr, v in result.nested if expr == "1d6")
            e.lost_pieces = [dice.roll("1d12", rng=r).total for _ in range(count)]
            text += " d12s: " + ", ".join(map(str, e.lost_pieces))
        e.fate = text[: 4 * MAX_NOTE]
        return f"d8 = {result.roll}: {text}"

    @move
    def failed_escape(self, name: str, rng: random.Random | None = None,
                      seed: int | None = None) -> str:
        """Roll the failed escapes table (d8) for a character who failed the save, or who
        chose to reroll a 7."""
        e = self.escapee(name)
        if e.stage != "failed":
            raise RuleError(f"Escaping the Dungeon: {e.name} has no failed escape to roll "
                            f"({_stage_text(e)})")
        text = self._roll_failed(e, make_rng(seed, rng))
        self.describe(f"{e.name}'s failed escape: {text}")
        return text

    @move
    def reroll_escape(self, name: str) -> None:
        """On a 7, choose to roll the failed escapes table again."""
        e = self.escapee(name)
        if e.stage != "choice":
            raise RuleError(f"Escaping the Dungeon: {e.name} has no 7 to reroll")
        e.stage, e.fate = "failed", ""
        self.describe(f"{e.name} rolls the failed escapes table again")

    @move
    def betray(self, name: str, comrade: str, rng: random.Random | None = None,
               seed: int | None = None) -> str:
        """On a 7, betray a comrade who is escaping: they roll on the failed escapes table,
        and the betrayer rolls the betrayal d6."""
        e = self.escapee(name)
        if e.stage != "choice":
            raise RuleError(f"Escaping the Dungeon: {e.name} has no 7 to betray on")
        victim = self.escapee(comrade.strip())
        if victim.name == e.name:
            raise RuleError("Escaping the Dungeon: betray a comrade, not yourself")
        if victim.stage not in ("escaped", "failed"):
            raise RuleError(f"Escaping the Dungeon: {victim.name} is no longer escaping "
                            f"({_stage_text(victim)})")
        r = make_rng(seed, rng)
        their = self._roll_failed(victim, r, betrayed=True)
        result = tables.get(TABLES["betrayal"]).roll(rng=r)
        if result.row.range == "1-4":
            e.stage, e.fate = "done", "Escaped by betrayal"
            mine = "escapes"
        else:
            e.stage, e.fate, e.lost_pieces = victim.stage, victim.fate, list(victim.lost_pieces)
            mine = "shares the fate"
        text = (f"{e.name} betrays {victim.name}, who rolls {their}; betrayal d6 = "
                f"{result.roll}: {e.name} {mine}")
        self.describe(text)
        return text

    @move
    def body_check(self, name: str, rng: random.Random | None = None,
                   seed: int | None = None) -> SaveResult:
        """A dead escapee's check again: on a success the party can recover the body."""
        e = self.escapee(name)
        if e.stage != "body":
            raise RuleError(f"Escaping the Dungeon: {e.name} has no body check due")
        result = save(e.score, floor=e.dv, rng=make_rng(seed, rng))
        e.stage = "done"
        e.fate = ("Dead: the body can be recovered" if result.success
                  else "Dead: the body was destroyed")
        self.describe(f"{e.name}'s body check: {result}; {e.fate}")
        return result


def _name(name: str, rule: str) -> str:
    who = name.strip()
    if not who or len(who) > MAX_NAME:
        raise RuleError(f"{rule}: name the character (1 to {MAX_NAME} characters)")
    return who


def _stage_text(e: Escapee) -> str:
    return {"escaped": "escaped by the save", "failed": "the failed escapes table is due",
            "choice": "a 7: reroll or betray", "body": "the body check is due",
            "done": e.fate}[e.stage]


def _sheet(delve: Delve, character: Character | str) -> Character:
    """The sheet given, or the one of that name at the delve's table."""
    return delve.sheet(character) if isinstance(character, str) else character


def _character_kind() -> type[Character]:
    """The sheet's class, imported when asked (the character module imports this one's
    neighbours; a top-level import would be circular)."""
    from companion.rulesets.cairn_srd.character import Character

    return Character


def darkness_panic(delve: Delve, character: Character | str, *,
                   rng: random.Random | None = None, seed: int | None = None) -> SaveResult:
    """A [Character][companion.rulesets.cairn_srd.character.Character]'s panic save in the
    dark: rolled on the sheet (a failure leaves the character panicking) and recorded in
    the delve. ``character``: the sheet, or its name (the sheet at the delve's table,
    [Delve.sheet][companion.rulesets.cairn_srd.exploration.Delve.sheet])."""
    character = _sheet(delve, character)
    delve._check_darkness(character.name.strip(), "save")  # before the sheet's own save
    result: SaveResult = character.panic_save(rng=make_rng(seed, rng))
    delve.record_panic_save(character.name, result.ability, result.roll)
    return result


def join_party(party: list[Character], name: str, strength: int, dexterity: int,
               control: int, guard: int = 3) -> Character:
    """Add a new [Character][companion.rulesets.cairn_srd.character.Character] to a delving
    party (a name of its own, at most ``MAX_PARTY`` characters) and return it."""
    from companion.rulesets.cairn_srd.character import new_character

    who = _name(name, "Party")
    if any(c.name.strip() == who for c in party):
        raise RuleError(f"Party: there is already a {who}")
    if len(party) >= MAX_PARTY:
        raise RuleError(f"Party: at most {MAX_PARTY} characters")
    character = new_character(who, strength, dexterity, control, guard)
    party.append(character)
    return character


def lost_items(character: Character, pieces: Iterable[int]) -> list[str]:
    """Which of a character's items the "equipment lost" d12s name (slot order; a d12 past
    the last item loses nothing)."""
    items = [i for i in character.items if i.kind == "item"]
    return [items[p - 1].label if p <= len(items) else f"d12 = {p}: nothing"
            for p in pieces]


LIBRARY_ONLY: dict[str, str] = {
    "clock_odds_table": "exact site-clock odds for the site's dungeon reference page",
    "lost_items": "names the items an 'equipment lost' fate's d12s point at; the apps "
                  "apply that fate with Character.lose_gear, which reports what was lost",
}

FATE_MOVES = {
    "Dead": "die", "Transformed": "leave_play", "Lost": "leave_play",
    "Captured": "leave_play", "Traumatized": "leave_play", "Stripped": "lose_gear",
    "Equipment lost": "lose_gear", "Scarred": "suffer_scar", "Unharmed": "",
    "Escaped": "", "Escaped by betrayal": "",
}
"""The sheet move each fate-table and failed-escape row makes ("" for none)."""


def _scar_row(text: str) -> int:
    """The scar table row named in a rolled fate's text (the first face of its range)."""
    for row in tables.get("cairn_scars").rows:
        if f"Scar: {row.values['Scar']};" in text:
            return int(str(row.range).split("-")[0])
    raise RuleError("Scars: the rolled fate names no scar")


def _apply(character: Character, result: str, text: str, source: str,
           pieces: list[int] | None) -> str:
    kind = FATE_MOVES.get(result)
    if kind is None:
        raise RuleError(f"{source}: “{result}” is no fate a sheet can take")
    if kind == "":
        return f"{character.name}: {text}; nothing changes on the sheet"
    # Applied once: the sheet keeps the sources of the fates it took in its state
    # (``fates_taken``; its moves refuse one again), not in its undo log, which a campaign
    # trims: a check reading the log let a Doomed scar be applied twice after 30 moves.
    if kind in ("suffer_scar", "lose_gear") and source in character.fates_taken:
        raise RuleError(f"{source}: already applied to {character.name}'s sheet")
    if kind == "die":
        character.die(f"{source}: {text}"[:200])
    elif kind == "leave_play":
        character.leave_play(f"{source}: {text}"[:200])
    elif kind == "suffer_scar":
        character.suffer_scar(_scar_row(text), source=source)
    else:
        character.lose_gear(pieces, source=source)
    return str(character.log[-1].summary)


def _move_index(delve: Delve, moves: tuple[str, ...], who: str) -> int:
    # The source of a fate rolled before fates were numbered (its place in the delve's
    # log, as it was named then).
    for i in range(len(delve.log) - 1, -1, -1):
        ev = delve.log[i]
        if ev.move in moves and str(ev.args.get("name", "")).strip() == who:
            return i + 1
    return 0


def apply_fate(delve: Delve, character: Character | str) -> str:
    """Put a character's darkness fate on the
    [Character][companion.rulesets.cairn_srd.character.Character] sheet: dead
    ([Character.die][companion.rulesets.cairn_srd.character.Character.die]); transformed,
    lost, captured or traumatised
    ([Character.leave_play][companion.rulesets.cairn_srd.character.Character.leave_play]);
    stripped of all gear; or the rolled scar with its effect
    ([Character.suffer_scar][companion.rulesets.cairn_srd.character.Character.suffer_scar]).
    Applying the same fate twice is refused. Returns the sheet's log line.

    Interpretation: the scar named in the fate's text is applied by its row (every face
    of a row has the same effect). ``character``: the sheet, or its name (the sheet at the
    delve's table)."""
    character = _sheet(delve, character)
    who = character.name.strip()
    if who not in delve.fates:
        raise RuleError(f"The Darkness Consumes You: {who} has no fate rolled")
    text = delve.fates[who]
    number = delve.fate_numbers.get(who, 0)
    source = (f"the darkness, fate {number} of the delve" if number
              else f"the darkness, delve move {_move_index(delve, ('darkness_fate',), who)}")
    return _apply(character, text.split(":", 1)[0], text, source, None)


def apply_escape(delve: Delve, character: Character | str) -> str:
    """Put a character's settled escape on the sheet: a death (after the body check), a
    capture, being lost or transformed, the d12s of lost equipment
    ([Character.lose_gear][companion.rulesets.cairn_srd.character.Character.lose_gear]),
    or the rolled scar; an escape or "unharmed" changes nothing. Returns the log line.
    ``character``: the sheet, or its name (the sheet at the delve's table)."""
    character = _sheet(delve, character)
    who = character.name.strip()
    e = delve.escapee(who)
    if e.stage not in ("escaped", "done"):
        raise RuleError(f"Escaping the Dungeon: {who}'s escape is not settled "
                        f"({_stage_text(e)})")
    source = (f"escaping the dungeon, fate {e.number} of the delve" if e.number
              else f"escaping the dungeon, delve move "
                   f"{_move_index(delve, ('escape_check',), who)}")
    return _apply(character, e.fate.split(":", 1)[0], e.fate, source, list(e.lost_pieces))


def _delve_and_sheet(table: TableTrackers, args: dict[str, Any],
                     where: str) -> tuple[Delve, Character]:
    """The delve ``args`` names (``delve``: its member) and the sheet (``character``)."""
    return (table.tracker(argument(args, "delve", str, where), Delve),
            table.tracker(argument(args, "character", str, where), _character_kind()))


def _apply_fate_move(table: TableTrackers, args: dict[str, Any],
                     _rng: random.Random | None) -> str:
    """[apply_fate][companion.rulesets.cairn_srd.exploration.apply_fate] as a table
    move: the delve's fate read, the sheet moved, in one unit."""
    return apply_fate(*_delve_and_sheet(table, args, "fate to sheet"))


def _apply_escape_move(table: TableTrackers, args: dict[str, Any],
                       _rng: random.Random | None) -> str:
    """[apply_escape][companion.rulesets.cairn_srd.exploration.apply_escape] as a
    table move: the delve's settled escape read, the sheet moved, in one unit."""
    return apply_escape(*_delve_and_sheet(table, args, "escape to sheet"))


def _darkness_panic_move(table: TableTrackers, args: dict[str, Any],
                         rng: random.Random | None) -> str:
    """[darkness_panic][companion.rulesets.cairn_srd.exploration.darkness_panic] as a
    rolled table move: the save rolled on the sheet and recorded in the delve, in one
    unit. Gives the delve's line for it (what the log shows)."""
    delve, character = _delve_and_sheet(table, args, "panic in the dark")
    darkness_panic(delve, character, rng=rng)
    return delve.log[-1].summary


declare_table_move("cairn_srd.exploration.apply_fate", _apply_fate_move)
declare_table_move("cairn_srd.exploration.darkness_panic", _darkness_panic_move, rolls=True)
declare_table_move("cairn_srd.exploration.apply_escape", _apply_escape_move)


def undo(delve: Delve, party: Iterable[Character] | None = None) -> str:
    """Take back the delve's last move; a panic save recorded from a character's sheet
    ([darkness_panic][companion.rulesets.cairn_srd.exploration.darkness_panic]) is taken
    back from that sheet too (one of ``party``; by default the sheets at the delve's
    table). Returns the line of the move taken back."""
    from companion.rulesets.cairn_srd.character import Character

    sheets = list(party) if party is not None else list(delve.linked(Character).values())
    event = delve.undo()
    if event.move == "record_panic_save":
        name = str(event.args.get("name", "")).strip()
        for character in sheets:
            if character.name.strip() == name and character.log \
                    and character.log[-1].move == "panic_save":
                character.undo()
                break
    return event.summary
