"""Downtime cycles: upkeep, odd jobs, petty crime, banks, downtime actions and factions.

Between adventures time runs in **cycles**, about six to a season: long enough to heal,
research, brew, train an animal or a skill, or make connections.

**Upkeep.** At the start of a cycle every character pays for a lifestyle: **Meager**
(5 silver: sleeping rough, no baths, underfed, threadbare), **Comfortable** (25: a short
let, a bath or two, fed enough, respectable clothes) or **Luxurious** (125: an inn, baths
at will, well fed, fashionable). Upkeep covers room and board and the care of gear,
mounts, pets and vehicles; the tags colour the cycle's fiction. A character who cannot
pay may run up **debt**, take an **odd job** (a meager lifestyle for no silver, at some
cost to their downtime action) or try **petty crime**.

**Petty crime** (pick-pocketing, house-breaking; heists are played out in turns) needs a
crowd to vanish into and weak or bent policing. It is a skill test over skill, gear and
time, and a character who also takes a downtime action has no time for it. Success pays
the upkeep and a yield die of silver. Failure offers a hard choice to succeed anyway
(caught and bailed, witnesses, casualties, damage, something left behind); upkeep is still
due, on debt if need be. The character may instead **push their luck**: add a second d6
to the first; a total of 7 or more is a complete failure with the hard choice's
consequences.

**Banks** hold silver and valuables; a certificate of deposit cashes at other branches.
Withdrawal fees: same bank and branch 1 % (at least 1 silver), same bank at another branch
2 % (at least 1), another bank 5 % or 20 silver, whichever is more. **Thieves** go after
every unsecured cache of wealth each cycle.

**Downtime actions** are big undertakings (training a skill, taming an animal, research,
crafting, connections, hunting a rare item), not chores or parties. They cannot endanger
the character, be done somewhere unsafe, or be done while recovering ability scores or
Wounds. The referee sets a tracker of 1-5 milestones and a cost: silver, resources,
reputation or a loss (a finger, a soul, a relic). A character may try to lower a cost on
force of will: the referee states the risk and the character makes a CTRL save; success
reduces or removes the cost.

**Factions.** Each cycle the referee rolls a d6 for every faction in play, adjusted for
its resources and rivals: 4-5 marks one step toward its goal, 6 two. A goal reached may
bring the faction a resource and cost a faction it harms. When the party helps or hinders
a faction, 1-3 steps are marked or removed; interfering ends the cycle and play in the
settlement begins.

**The cycle** ([Downtime][companion.rulesets.cairn_srd.downtime.Downtime]): 1. upkeep
(odd jobs allowed); 2. each character picks a downtime action; 3. the referee tells the
outcome (milestones marked); 4. faction turns (and, in a settlement, the hazard die:
[settlements][companion.rulesets.cairn_srd.settlements]); 5. resupply, hirelings,
mounts and rumours. Every character keeps a coin ledger: purse, debt, bank accounts,
caches and each entry in words.

Interpretation: a failed petty-crime roll is settled one of three ways: the hard choice
is accepted (the crime succeeds, with its consequence), the character pushes (second d6:
total 6 or less succeeds cleanly, 7+ fails completely), or the character walks away.
With fewer than two of skill, gear and time there is no die to push; with all three the
crime succeeds. A failure's upkeep is paid from the purse, the rest as debt.
Interpretation: a percentage fee is rounded up to whole silver, and the fee is taken
from the account on top of the sum withdrawn.
Interpretation: a faction's bonuses and penalties add to its d6 (a total of 6 or more
marks two steps); a goal has 1-12 steps as the referee sets.
Interpretation: a milestone is marked only when the action was picked this cycle and
every cost is paid or waived; a successful CTRL save waives the cost unless the referee
names a lower silver figure.
Interpretation: a character who counts time toward a petty crime cannot also pick a
downtime action that cycle (and one who means to should tick no time).
Interpretation: thieves target each unsecured cache at the faction step; what they take
is the referee's call (a move records it).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from companion import dice
from companion.acting import named_actor
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import settlements
from companion.rulesets.cairn_srd.fixed_tables import data_file
from companion.rulesets.cairn_srd.saves import check_score, save
from companion.rulesets.cairn_srd.skills import skill_chance, skill_target, yield_die
from companion.state import Tracker, move, state_field

MAX_NAME = 40
MAX_TEXT = 120
MAX_SILVER = 10_000_000
MAX_PARTY = 12
MAX_ENTRIES = 300
MAX_FACTIONS = 20
MAX_ACTIONS = 60
MAX_GOAL = 12
STEPS = ("upkeep", "choose downtime actions", "outcomes", "factions", "resupply")
"""The cycle procedure's five steps, in order (step 1 is ``STEPS[0]``)."""
UPKEEP_WAYS = ("pay", "debt", "odd job", "crime")


def _data() -> dict[str, Any]:
    return data_file("downtime")


def _section(name: str) -> dict[str, Any]:
    return {k: v for k, v in _data()[name].items() if k != "section"}


CYCLES_PER_SEASON = int(_data()["cycles"]["per_season"])
BUST = int(_data()["petty_crime"]["bust"])
FACTION_ONE = int(_data()["factions"]["one_step"])
FACTION_TWO = int(_data()["factions"]["two_steps"])
MAX_INTERFERENCE = int(_data()["factions"]["max_interference"])
MAX_MILESTONES = int(_data()["activities"]["max_milestones"])


def lifestyles() -> dict[str, tuple[int, str]]:
    """Lifestyle → (silver per cycle, its tags)."""
    return {k: (int(v[0]), str(v[1])) for k, v in _section("lifestyles").items()}


def cost_kinds() -> dict[str, str]:
    """The four kinds of cost of a downtime action."""
    return {k: str(v) for k, v in _section("costs").items()}


def _choice(value: str, options: Any, what: str, rule: str) -> str:
    for name in options:
        if value.strip().lower() == str(name).lower():
            return str(name)
    raise RuleError(f"{rule}: the {what} is one of {', '.join(map(str, options))}, "
                    f"not “{value[:40]}”")


def upkeep_cost(lifestyle: str) -> int:
    """Silver a lifestyle costs per cycle.

    >>> [upkeep_cost(n) for n in ("meager", "Comfortable", "LUXURIOUS")]
    [5, 25, 125]
    """
    return lifestyles()[_choice(lifestyle, lifestyles(), "lifestyle", "Upkeep")][0]


# -- banks --------------------------------------------------------------------------

WITHDRAWALS = {"same branch": "Same bank, same branch",
               "other branch": "Same bank, different branch",
               "other bank": "Different bank"}
"""Short names of the three withdrawals → the seed's rows."""


def withdrawal_fee(amount: int, where: str) -> int:
    """The fee in silver to withdraw ``amount`` (``where``: same branch, other branch, other bank).

    >>> [withdrawal_fee(150, w) for w in ("same branch", "other branch", "other bank")]
    [2, 3, 20]
    >>> withdrawal_fee(1000, "other bank")
    50
    """
    if not 1 <= amount <= MAX_SILVER:
        raise RuleError(f"Banks: withdraw 1-{MAX_SILVER:,} silver, not {amount}")
    key = WITHDRAWALS[_choice(where, WITHDRAWALS, "withdrawal", "Banks")]
    percent, minimum = (int(v) for v in _section("bank_fees")[key])
    return max(minimum, math.ceil(Fraction(amount * percent, 100)))


def withdrawal_kind(bank: str, branch: str, at_bank: str, at_branch: str) -> str:
    """Which fee row applies to an account at ``bank``/``branch`` cashed at another."""
    if bank.strip().lower() != at_bank.strip().lower():
        return "other bank"
    return "same branch" if branch.strip().lower() == at_branch.strip().lower() \
        else "other branch"


# -- petty crime ----------------------------------------------------------------------


@dataclass(frozen=True)
class CrimeOdds:
    success: Fraction
    """Succeeds outright (the first roll, or a clean push)."""
    failure: Fraction
    """Fails with a hard choice offered (not pushing)."""
    bust: Fraction
    """Fails completely (pushed to 7 or more)."""


def crime_have(skill: bool, gear: bool, time: bool) -> int:
    return int(skill) + int(gear) + int(time)


def petty_crime_odds(have: int, modifier: int = 0, push: bool = False) -> CrimeOdds:
    """Exact odds of a petty crime; ``push``: a failed d6 is always pushed."""
    p = skill_chance(have, modifier)
    if have != 2 or not push:
        return CrimeOdds(p, 1 - p, Fraction(0))
    target = skill_target(modifier)
    clean = bust = Fraction(0)
    for first in range(1, 7):
        if first >= target:
            continue
        for second in range(1, 7):
            if first + second >= BUST:
                bust += Fraction(1, 36)
            else:
                clean += Fraction(1, 36)
    return CrimeOdds(p + clean, Fraction(0), bust)


@dataclass(frozen=True)
class CrimeResult:
    have: int
    target: int
    rolls: tuple[int, ...]
    outcome: str
    """``success``, ``hard choice`` (succeeded by accepting it), ``failure`` or ``bust``."""
    silver: int

    @property
    def funded(self) -> bool:
        return self.outcome in ("success", "hard choice")

    def __str__(self) -> str:
        if not self.rolls:
            dice_text = f"{self.have} of skill/gear/time"
        elif len(self.rolls) == 1:
            dice_text = f"d6 = {self.rolls[0]} vs {self.target}+"
        else:
            dice_text = f"d6 = {self.rolls[0]} vs {self.target}+, pushed: " \
                        f"{self.rolls[0]} + {self.rolls[1]} = {sum(self.rolls)}"
        money = f", {self.silver} silver" if self.silver else ""
        return f"petty crime ({dice_text}): {self.outcome}{money}"


def petty_crime(have: int, modifier: int = 0, *, accept_choice: bool = False,
                push: bool = False, steps_up: int = 0, rng: random.Random | None = None,
                seed: int | None = None) -> CrimeResult:
    """Commit a petty crime; on a failed d6, accept the hard choice or push (not both)."""
    if accept_choice and push:
        raise RuleError("Petty Crime: a failure is settled by the hard choice or by pushing, "
                        "not both")
    chance = skill_chance(have, modifier)  # checks have
    r = make_rng(seed, rng)
    target = skill_target(modifier) if have == 2 else 0
    rolls: tuple[int, ...] = ()
    if have == 2:
        rolls = (dice.roll("1d6", rng=r).total,)
        ok = rolls[0] >= target
    else:
        ok = chance == 1
    outcome = "success" if ok else "failure"
    if not ok and push and have == 2:
        rolls = (rolls[0], dice.roll("1d6", rng=r).total)
        outcome = "bust" if sum(rolls) >= BUST else "success"
    elif not ok and accept_choice:
        outcome = "hard choice"
    silver = 0
    if outcome in ("success", "hard choice"):
        silver = dice.roll(f"1d{yield_die(max(have, 2), steps_up)}", rng=r).total
    return CrimeResult(have, target, rolls, outcome, silver)


def faction_odds(modifier: int = 0) -> dict[int, Fraction]:
    """Exact chance a faction marks 0, 1 or 2 steps with ``modifier`` on its d6."""
    out = {0: Fraction(0), 1: Fraction(0), 2: Fraction(0)}
    for face in range(1, 7):
        out[faction_steps(face + modifier)] += Fraction(1, 6)
    return out


def faction_steps(total: int) -> int:
    """Steps marked for a faction's total: 4-5 one, 6+ two."""
    return 2 if total >= FACTION_TWO else 1 if total >= FACTION_ONE else 0


# -- records ------------------------------------------------------------------------


@dataclass
class Account:
    bank: str = state_field("", max_len=MAX_NAME)
    branch: str = state_field("", max_len=MAX_NAME)
    balance: int = state_field(0, min=0, max=MAX_SILVER)


@dataclass
class Cache:
    where: str = state_field("", max_len=MAX_NAME)
    silver: int = state_field(0, min=0, max=MAX_SILVER)
    secured: bool = False


@dataclass
class Member:
    """One character's side of the cycle and their coin ledger."""

    name: str = state_field("Adventurer", max_len=MAX_NAME)
    lifestyle: str = state_field("Meager", choices=("Meager", "Comfortable", "Luxurious"))
    purse: int = state_field(0, min=0, max=MAX_SILVER)
    debt: int = state_field(0, min=0, max=MAX_SILVER)
    accounts: list[Account] = state_field(default_factory=list, max_len=20)
    caches: list[Cache] = state_field(default_factory=list, max_len=20)
    ledger: list[str] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    upkept: bool = False
    odd_job: bool = False
    crime_took_time: bool = False
    """Spent this cycle's time on petty crime (no time left for a downtime action)."""
    recovering: bool = False
    action: int = state_field(-1, min=-1, max=MAX_ACTIONS)
    """The downtime action picked this cycle (-1: none)."""

    def note(self, text: str) -> None:
        self.ledger.append(text[:MAX_TEXT * 2])
        del self.ledger[:-MAX_ENTRIES]


@dataclass
class Cost:
    kind: str = state_field("Silver", choices=("Silver", "Resources", "Reputation", "Loss"))
    text: str = state_field("", max_len=MAX_TEXT)
    silver: int = state_field(0, min=0, max=MAX_SILVER)
    settled: str = state_field("", choices=("", "paid", "waived", "reduced"))


@dataclass
class DowntimeAction:
    owner: str = state_field("", max_len=MAX_NAME)
    goal: str = state_field("", max_len=MAX_TEXT)
    milestones: int = state_field(1, min=1, max=MAX_MILESTONES)
    marked: int = state_field(0, min=0, max=MAX_MILESTONES)
    costs: list[Cost] = state_field(default_factory=list, max_len=8)

    def check_state(self) -> None:
        if self.marked > self.milestones:
            raise StateError("field 'marked' exceeds 'milestones'")

    @property
    def done(self) -> bool:
        return self.marked >= self.milestones


@dataclass
class Faction:
    name: str = state_field("", max_len=MAX_NAME)
    goal: str = state_field("", max_len=MAX_TEXT)
    size: int = state_field(6, min=1, max=MAX_GOAL)
    progress: int = state_field(0, min=0, max=MAX_GOAL)
    modifier: int = state_field(0, min=-6, max=6)

    def check_state(self) -> None:
        if self.progress > self.size:
            raise StateError("field 'progress' exceeds the goal's 'size'")


# -- the cycle tracker --------------------------------------------------------------


@dataclass
class Downtime(Tracker):
    """A party's downtime, cycle by cycle, following the five-step cycle procedure."""

    season: int = state_field(1, min=1, max=10_000)
    cycle: int = state_field(1, min=1, max=CYCLES_PER_SEASON)
    step: int = state_field(1, min=1, max=len(STEPS))
    members: list[Member] = state_field(default_factory=list, max_len=MAX_PARTY)
    actions: list[DowntimeAction] = state_field(default_factory=list, max_len=MAX_ACTIONS)
    factions: list[Faction] = state_field(default_factory=list, max_len=MAX_FACTIONS)
    factions_rolled: bool = False
    in_settlement: bool = False
    settlement: settlements.SettlementState = state_field(
        default_factory=settlements.SettlementState)
    hazard_rolled: bool = False
    thieves_noted: bool = False

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """A member joining, and their own purse, lifestyle, caches, recovery and choice of
        action, are that member's (``name``); the rest (factions, settlements, action
        trackers and their costs, thieves) is the referee's."""
        own = dict.fromkeys(("add_cache", "add_member", "choose_action", "deposit", "earn",
                             "repay", "set_recovering", "spend", "upkeep", "withdraw"),
                            "name")
        return named_actor(own, move, arguments)

    def check_state(self) -> None:
        names = [m.name.lower() for m in self.members]
        if len(set(names)) != len(names):
            raise StateError("field 'members' names a character twice")
        for m in self.members:
            if m.action >= len(self.actions):
                raise StateError(f"field 'members': {m.name}'s action is not on the list")
        for a in self.actions:
            if a.owner.lower() not in names:
                raise StateError(f"field 'actions': nobody called “{a.owner[:40]}”")

    # -- helpers ----------------------------------------------------------------------

    @property
    def next_step(self) -> str:
        return f"step {self.step}: {STEPS[self.step - 1]}"

    @property
    def when(self) -> str:
        return f"season {self.season}, cycle {self.cycle}"

    def _at(self, step: int) -> None:
        if self.step != step:
            raise RuleError(f"Downtime Cycle Procedure: {self.next_step} comes next, "
                            f"not step {step} ({STEPS[step - 1]})")

    def member(self, name: str) -> Member:
        for m in self.members:
            if m.name.lower() == name.strip().lower():
                return m
        raise RuleError(f"Downtime Cycles: nobody called “{name[:40]}” is in the party")

    def _faction(self, name: str) -> Faction:
        for f in self.factions:
            if f.name.lower() == name.strip().lower():
                return f
        raise RuleError(f"Faction Activities: no faction called “{name[:40]}”")

    def _action(self, index: int) -> DowntimeAction:
        if not 0 <= index < len(self.actions):
            raise RuleError(f"Downtime Actions: no action #{index + 1}")
        return self.actions[index]

    @staticmethod
    def _silver(amount: int, rule: str) -> None:
        if not 1 <= amount <= MAX_SILVER:
            raise RuleError(f"{rule}: an amount runs 1-{MAX_SILVER:,} silver, not {amount}")

    @staticmethod
    def _text(text: str, rule: str, limit: int = MAX_TEXT) -> str:
        if len(text.strip()) > limit:
            raise RuleError(f"{rule}: at most {limit} characters")
        return text.strip()

    def allowed(self, move_name: str) -> bool:
        """Whether the procedure allows ``move_name`` now (for enabling buttons)."""
        at = {"upkeep": 1, "choose_action": 2, "mark_milestone": 3, "faction_turn": 4,
              "settlement_hazard": 4}.get(move_name)
        if at is not None and at != self.step:
            return False
        if move_name == "faction_turn":
            return bool(self.factions) and not self.factions_rolled
        if move_name == "settlement_hazard":
            return self.in_settlement and not self.hazard_rolled
        if move_name == "finish_step":
            return self._blocker() == ""
        return True

    def _blocker(self) -> str:
        if self.step == 1:
            waiting = [m.name for m in self.members if not m.upkept]
            if waiting:
                return "upkeep is still due from " + ", ".join(waiting)
        if self.step == 4:
            if self.factions and not self.factions_rolled:
                return "the factions have not had their turn"
            if self.in_settlement and not self.hazard_rolled:
                return "the settlement hazard die has not been rolled"
        return ""

    # -- setting up ---------------------------------------------------------------------

    @move
    def add_member(self, name: str, purse: int = 0, lifestyle: str = "Meager") -> None:
        """Add a character with the silver in their purse and their usual lifestyle."""
        name = self._text(name, "Downtime Cycles", MAX_NAME)
        if not name:
            raise RuleError("Downtime Cycles: a character needs a name")
        if any(m.name.lower() == name.lower() for m in self.members):
            raise RuleError(f"Downtime Cycles: {name} is already in the party")
        if len(self.members) >= MAX_PARTY:
            raise RuleError(f"Downtime Cycles: at most {MAX_PARTY} characters")
        if not 0 <= purse <= MAX_SILVER:
            raise RuleError(f"Downtime Cycles: a purse holds 0-{MAX_SILVER:,} silver")
        style = _choice(lifestyle, lifestyles(), "lifestyle", "Upkeep")
        m = Member(name, style, purse)
        m.note(f"{self.when}: starts with {purse} silver")
        self.members.append(m)
        self.describe(f"{name} joins the downtime ({purse} silver, {style.lower()})")

    @move
    def set_recovering(self, name: str, recovering: bool = True) -> None:
        """Mark a character as recovering ability scores or Wounds (no downtime action)."""
        m = self.member(name)
        m.recovering = recovering
        self.describe(f"{m.name} is {'recovering' if recovering else 'recovered'}")

    @move
    def enter_settlement(self, name: str = "") -> None:
        """The party spends its cycles in a settlement (the hazard die is rolled each cycle)."""
        self.in_settlement = True
        self.settlement.name = self._text(name, "Settlement Hazards", MAX_NAME)
        self.describe(f"in the settlement {self.settlement.name or '(unnamed)'}")

    @move
    def leave_settlement(self) -> None:
        self.in_settlement = False
        self.describe("the party leaves the settlement")

    @move
    def add_faction(self, name: str, goal: str, size: int = 6, modifier: int = 0) -> None:
        """A faction in play: its active goal, the steps it takes and its d6 modifier."""
        name = self._text(name, "Faction Activities", MAX_NAME)
        if not name or any(f.name.lower() == name.lower() for f in self.factions):
            raise RuleError("Faction Activities: a faction needs a name of its own")
        if len(self.factions) >= MAX_FACTIONS:
            raise RuleError(f"Faction Activities: at most {MAX_FACTIONS} factions")
        if not 1 <= size <= MAX_GOAL:
            raise RuleError(f"Faction Activities: a goal takes 1-{MAX_GOAL} steps, not {size}")
        if not -6 <= modifier <= 6:
            raise RuleError(f"Faction Activities: a modifier runs -6 to +6, not {modifier}")
        self.factions.append(Faction(name, self._text(goal, "Faction Activities"), size, 0,
                                     modifier))
        self.describe(f"faction {name}: {goal.strip() or 'a goal'} ({size} steps)")

    @move
    def new_action(self, owner: str, goal: str, milestones: int = 3,
                   costs: list[list[Any]] | None = None) -> int:
        """The referee's tracker for a downtime action; ``costs``: [kind, text, silver]."""
        m = self.member(owner)
        if not goal.strip():
            raise RuleError("Downtime Actions: name the action's goal")
        if len(self.actions) >= MAX_ACTIONS:
            raise RuleError(f"Downtime Actions: at most {MAX_ACTIONS} trackers")
        if not 1 <= milestones <= MAX_MILESTONES:
            raise RuleError(f"Downtime Actions: a tracker has 1-{MAX_MILESTONES} milestones, "
                            f"not {milestones}")
        made: list[Cost] = []
        for entry in costs or []:
            if not isinstance(entry, (list, tuple)) or len(entry) != 3:
                raise RuleError("Downtime Actions: a cost is a kind, a text and silver")
            kind = _choice(str(entry[0]), cost_kinds(), "cost", "Downtime Actions")
            silver = entry[2]
            if not isinstance(silver, int) or not 0 <= silver <= MAX_SILVER:
                raise RuleError("Downtime Actions: a cost's silver runs 0-10,000,000")
            if (kind == "Silver") != (silver > 0):
                raise RuleError("Downtime Actions: a Silver cost names its silver; "
                                "other costs name none")
            made.append(Cost(kind, self._text(str(entry[1]), "Downtime Actions"), silver))
        if len(made) > 8:
            raise RuleError("Downtime Actions: at most 8 costs")
        self.actions.append(DowntimeAction(m.name, self._text(goal, "Downtime Actions"),
                                           milestones, 0, made))
        self.describe(f"{m.name}'s downtime action #{len(self.actions)}: {goal.strip()} "
                      f"({milestones} milestones)")
        return len(self.actions) - 1

    # -- the ledger (any time) ----------------------------------------------------------

    @move
    def earn(self, name: str, amount: int, why: str = "") -> None:
        """Silver into the purse."""
        m = self.member(name)
        self._silver(amount, "Coin ledger")
        if m.purse + amount > MAX_SILVER:
            raise RuleError("Coin ledger: a purse holds at most 10,000,000 silver")
        m.purse += amount
        m.note(f"{self.when}: +{amount} {why.strip()[:MAX_TEXT]}".rstrip())
        self.describe(f"{m.name} gains {amount} silver" + (f" ({why.strip()})" if why else ""))

    @move
    def spend(self, name: str, amount: int, why: str = "") -> None:
        """Silver out of the purse (resupply, hirelings, mounts, bribes...)."""
        m = self.member(name)
        self._silver(amount, "Coin ledger")
        if amount > m.purse:
            raise RuleError(f"Coin ledger: {m.name} has {m.purse} silver, not {amount}")
        m.purse -= amount
        m.note(f"{self.when}: -{amount} {why.strip()[:MAX_TEXT]}".rstrip())
        self.describe(f"{m.name} spends {amount} silver" + (f" ({why.strip()})" if why else ""))

    @move
    def repay(self, name: str, amount: int) -> None:
        """Pay debt back from the purse."""
        m = self.member(name)
        self._silver(amount, "Upkeep")
        if amount > m.debt or amount > m.purse:
            raise RuleError(f"Upkeep: {m.name} owes {m.debt} and holds {m.purse} silver")
        m.purse -= amount
        m.debt -= amount
        m.note(f"{self.when}: repays {amount} of debt ({m.debt} owed)")
        self.describe(f"{m.name} repays {amount} silver of debt ({m.debt} owed)")

    @move
    def deposit(self, name: str, amount: int, bank: str, branch: str) -> None:
        """Silver from the purse into an account (a certificate of deposit)."""
        m = self.member(name)
        self._silver(amount, "Banks")
        bank, branch = self._text(bank, "Banks", MAX_NAME), self._text(branch, "Banks", MAX_NAME)
        if not bank or not branch:
            raise RuleError("Banks: name the bank and the branch")
        if amount > m.purse:
            raise RuleError(f"Banks: {m.name} has {m.purse} silver, not {amount}")
        acct = next((a for a in m.accounts if (a.bank.lower(), a.branch.lower())
                     == (bank.lower(), branch.lower())), None)
        if acct is None:
            if len(m.accounts) >= 20:
                raise RuleError("Banks: at most 20 accounts")
            acct = Account(bank, branch, 0)
            m.accounts.append(acct)
        if acct.balance + amount > MAX_SILVER:
            raise RuleError("Banks: an account holds at most 10,000,000 silver")
        m.purse -= amount
        acct.balance += amount
        m.note(f"{self.when}: deposits {amount} at {bank} ({branch})")
        self.describe(f"{m.name} deposits {amount} silver at {bank}, {branch}")

    @move
    def withdraw(self, name: str, amount: int, bank: str, branch: str, at_bank: str = "",
                 at_branch: str = "") -> int:
        """Cash ``amount`` from an account at ``bank``/``branch``, at another branch or bank.

        Returns the fee, taken from the account on top of the amount.
        """
        m = self.member(name)
        acct = next((a for a in m.accounts if (a.bank.lower(), a.branch.lower())
                     == (bank.strip().lower(), branch.strip().lower())), None)
        if acct is None:
            raise RuleError(f"Banks: {m.name} has no account at {bank[:40]}, {branch[:40]}")
        where = withdrawal_kind(acct.bank, acct.branch, at_bank or acct.bank,
                                at_branch or acct.branch)
        fee = withdrawal_fee(amount, where)
        if amount + fee > acct.balance:
            raise RuleError(f"Banks: {amount} silver plus a fee of {fee} is more than the "
                            f"{acct.balance} in the account")
        if m.purse + amount > MAX_SILVER:
            raise RuleError("Coin ledger: a purse holds at most 10,000,000 silver")
        acct.balance -= amount + fee
        m.purse += amount
        m.note(f"{self.when}: withdraws {amount} from {acct.bank} ({where}, fee {fee})")
        self.describe(f"{m.name} withdraws {amount} silver ({where}: fee {fee})")
        return fee

    @move
    def add_cache(self, name: str, where: str, amount: int, secured: bool = False) -> None:
        """Stash silver from the purse somewhere (unsecured caches draw thieves)."""
        m = self.member(name)
        self._silver(amount, "Banks")
        if amount > m.purse:
            raise RuleError(f"Banks: {m.name} has {m.purse} silver, not {amount}")
        if len(m.caches) >= 20:
            raise RuleError("Banks: at most 20 caches")
        m.purse -= amount
        m.caches.append(Cache(self._text(where, "Banks", MAX_NAME) or "a cache", amount, secured))
        m.note(f"{self.when}: caches {amount} ({'secured' if secured else 'unsecured'})")
        self.describe(f"{m.name} caches {amount} silver"
                      + ("" if secured else " (unsecured: thieves will come)"))

    @move
    def rob_cache(self, name: str, index: int, amount: int) -> None:
        """Thieves take ``amount`` from cache ``index`` (0-based) of a character."""
        m = self.member(name)
        if not 0 <= index < len(m.caches):
            raise RuleError(f"Banks: {m.name} has no cache #{index + 1}")
        cache = m.caches[index]
        if cache.secured:
            raise RuleError("Banks: thieves target only unsecured caches")
        if not 1 <= amount <= cache.silver:
            raise RuleError(f"Banks: the cache holds {cache.silver} silver")
        cache.silver -= amount
        m.note(f"{self.when}: thieves take {amount} from {cache.where}")
        if cache.silver == 0:
            m.caches.pop(index)
        self.describe(f"thieves take {amount} silver from {m.name}'s cache at {cache.where}")

    # -- step 1: upkeep -----------------------------------------------------------------

    @move
    def upkeep(self, name: str, way: str = "pay", lifestyle: str = "",
               skill: bool = False, gear: bool = False, time: bool = True, modifier: int = 0,
               accept_choice: bool = False, push: bool = False, steps_up: int = 0,
               rng: random.Random | None = None, seed: int | None = None) -> str:
        """Step 1: a character's upkeep, paid, on debt, by an odd job or by petty crime."""
        self._at(1)
        m = self.member(name)
        if m.upkept:
            raise RuleError(f"Upkeep: {m.name} has already settled this cycle's upkeep")
        way = _choice(way, UPKEEP_WAYS, "way to meet upkeep", "Upkeep")
        style = _choice(lifestyle, lifestyles(), "lifestyle", "Upkeep") if lifestyle \
            else m.lifestyle
        if way == "odd job":
            style = "Meager"
        cost = upkeep_cost(style)
        if way == "pay":
            if cost > m.purse:
                raise RuleError(f"Upkeep: {m.name} has {m.purse} silver, {style.lower()} costs "
                                f"{cost}: take debt, an odd job or a petty crime")
            m.purse -= cost
            text = f"pays {cost} silver ({style.lower()})"
        elif way == "debt":
            if m.debt + cost > MAX_SILVER:
                raise RuleError("Upkeep: debt past 10,000,000 silver")
            m.debt += cost
            text = f"lives {style.lower()} on debt (+{cost}, {m.debt} owed)"
        elif way == "odd job":
            m.odd_job = True
            text = "takes an odd job (meager lifestyle, no silver; the downtime action suffers)"
        else:
            m.crime_took_time = time
            crime = petty_crime(crime_have(skill, gear, time), modifier,
                                accept_choice=accept_choice, push=push, steps_up=steps_up,
                                rng=make_rng(seed, rng))
            if crime.funded:
                m.purse = min(MAX_SILVER, m.purse + crime.silver)
                text = f"{crime}; upkeep funded"
                if crime.outcome == "hard choice":
                    text += " (at the cost of the hard choice)"
            else:
                paid = min(cost, m.purse)
                m.purse -= paid
                m.debt = min(MAX_SILVER, m.debt + cost - paid)
                text = f"{crime}; upkeep {paid} paid" + (
                    f", {cost - paid} on debt" if cost > paid else "")
                if crime.outcome == "bust":
                    text += " (the hard choice's consequences follow)"
        m.lifestyle = style
        m.upkept = True
        m.note(f"{self.when}: upkeep: {text}")
        self.describe(f"{m.name} {text}" if way != "crime" else f"{m.name}: {text}")
        return text

    # -- step 2: actions ----------------------------------------------------------------

    @move
    def choose_action(self, name: str, index: int) -> None:
        """Step 2: a character picks one of their downtime actions."""
        self._at(2)
        m = self.member(name)
        act = self._action(index)
        if act.owner != m.name:
            raise RuleError(f"Downtime Actions: action #{index + 1} is {act.owner}'s")
        if m.recovering:
            raise RuleError(f"Downtime Actions: {m.name} is recovering ability scores or "
                            "Wounds (see Healing)")
        if m.crime_took_time:
            raise RuleError(f"Petty Crime: {m.name} spent this cycle's time on petty crime; "
                            "no time is left for a downtime action")
        if act.done:
            raise RuleError(f"Downtime Actions: “{act.goal}” is already achieved")
        m.action = index
        self.describe(f"{m.name} works on {act.goal}"
                      + (" (an odd job gets in the way)" if m.odd_job else ""))

    @move
    def pay_cost(self, index: int, cost: int) -> None:
        """Settle a cost of action ``index``: silver from the owner's purse, or marked paid."""
        act = self._action(index)
        c = self._cost(act, cost)
        m = self.member(act.owner)
        if c.kind == "Silver":
            if c.silver > m.purse:
                raise RuleError(f"Downtime Actions: {m.name} has {m.purse} silver, "
                                f"the cost is {c.silver}")
            m.purse -= c.silver
            m.note(f"{self.when}: -{c.silver} for {act.goal}")
        c.settled = "paid"
        self.describe(f"{m.name} pays {c.kind.lower()}"
                      + (f" ({c.silver} silver)" if c.silver else f": {c.text}"))

    @staticmethod
    def _cost(act: DowntimeAction, cost: int) -> Cost:
        if not 0 <= cost < len(act.costs):
            raise RuleError(f"Downtime Actions: “{act.goal}” has no cost #{cost + 1}")
        c = act.costs[cost]
        if c.settled:
            raise RuleError(f"Downtime Actions: that cost is already {c.settled}")
        return c

    @move
    def contest_cost(self, index: int, cost: int, control: int, reduce_to: int | None = None,
                     rng: random.Random | None = None, seed: int | None = None) -> bool:
        """A CTRL save to lower a cost (the referee has stated the risk); True on success."""
        act = self._action(index)
        c = self._cost(act, cost)
        check_score(control, "CTRL")
        if reduce_to is not None and (c.kind != "Silver" or not 0 <= reduce_to < c.silver):
            raise RuleError("Downtime Actions: only a Silver cost is reduced, below its figure")
        result = save(control, rng=make_rng(seed, rng))
        if result.success:
            if reduce_to:
                c.silver, c.settled = reduce_to, ""
                text = f"cost lowered to {reduce_to} silver"
            else:
                c.settled = "waived"
                text = "cost waived"
        else:
            text = "the cost stands and the stated risk comes true"
        self.describe(f"{act.owner} CTRL save ({result}): {text}")
        return bool(result.success)

    # -- step 3: outcomes ---------------------------------------------------------------

    @move
    def mark_milestone(self, index: int, count: int = 1) -> None:
        """Step 3: the referee marks milestones of a picked action whose costs are settled."""
        self._at(3)
        act = self._action(index)
        if self.member(act.owner).action != index:
            raise RuleError(f"Downtime Actions: {act.owner} did not pick “{act.goal}” "
                            "this cycle")
        if any(not c.settled for c in act.costs):
            raise RuleError("Downtime Actions: pay or waive the costs first")
        if not 1 <= count <= act.milestones - act.marked:
            raise RuleError(f"Downtime Actions: {act.milestones - act.marked} milestones left")
        act.marked += count
        self.describe(f"{act.goal}: {act.marked}/{act.milestones} milestones"
                      + (" — achieved" if act.done else ""))

    # -- step 4: factions, thieves, hazards ---------------------------------------------

    @move
    def faction_turn(self, rng: random.Random | None = None,
                     seed: int | None = None) -> list[str]:
        """Step 4: a d6 (plus its modifier) for every faction in play."""
        self._at(4)
        if self.factions_rolled:
            raise RuleError("Faction Activities: the factions have had this cycle's turn")
        if not self.factions:
            raise RuleError("Faction Activities: no faction is in play")
        r = make_rng(seed, rng)
        lines = []
        for f in self.factions:
            face = dice.roll("1d6", rng=r).total
            steps = faction_steps(face + f.modifier)
            before = f.progress
            f.progress = min(f.size, f.progress + steps)
            mod = f" {f.modifier:+d}" if f.modifier else ""
            line = f"{f.name}: d6 = {face}{mod}: +{f.progress - before} ({f.progress}/{f.size})"
            if f.progress == f.size and before < f.size:
                line += " — goal reached (it may gain a resource)"
            lines.append(line)
        self.factions_rolled = True
        self.describe("; ".join(lines))
        return lines

    @move
    def interfere(self, faction: str, steps: int) -> None:
        """The party helps (+) or hinders (-) a faction by 1-3 steps."""
        f = self._faction(faction)
        if not 1 <= abs(steps) <= MAX_INTERFERENCE:
            raise RuleError(f"Player Interference: 1-{MAX_INTERFERENCE} steps either way, "
                            f"not {steps}")
        f.progress = max(0, min(f.size, f.progress + steps))
        self.describe(f"the party {'helps' if steps > 0 else 'hinders'} {f.name}: "
                      f"{f.progress}/{f.size} (the cycle is over: play in the settlement "
                      "begins)")

    def targeted_caches(self) -> list[tuple[str, int, Cache]]:
        """Every unsecured cache (owner, index, cache): thieves target them each cycle."""
        return [(m.name, i, c) for m in self.members for i, c in enumerate(m.caches)
                if not c.secured]

    @move
    def settlement_hazard(self, rng: random.Random | None = None,
                          seed: int | None = None) -> settlements.HazardResult:
        """Step 4, in a settlement: the hazard die."""
        self._at(4)
        if not self.in_settlement:
            raise RuleError("Settlement Hazards: the party is not in a settlement")
        if self.hazard_rolled:
            raise RuleError("Settlement Hazards: rolled once a cycle")
        result = settlements.roll_hazard(self.settlement, rng=make_rng(seed, rng))
        self.hazard_rolled = True
        self.describe(str(result))
        return result

    @move
    def end_condition(self, condition: str) -> None:
        """The party ends a settlement condition (or the referee rules a depletion)."""
        name = _choice(condition, self.settlement.conditions or ("(none)",), "condition",
                       "Settlement Conditions")
        self.settlement.conditions.remove(name)
        self.describe(f"{name} ends in {self.settlement.name or 'the settlement'}")

    @move
    def hear_rumour(self, rng: random.Random | None = None, seed: int | None = None) -> str:
        """Look for rumours (resupply): which of the four kinds the next one is."""
        text = settlements.roll_rumour_kind(rng=make_rng(seed, rng))
        self.describe(f"a rumour: {text}")
        return text

    # -- moving on ----------------------------------------------------------------------

    @move
    def finish_step(self) -> str:
        """Finish this step of the procedure (step 5 ends the cycle)."""
        blocker = self._blocker()
        if blocker:
            raise RuleError(f"Downtime Cycle Procedure: {self.next_step} is not done: {blocker}")
        if self.step < len(STEPS):
            self.step += 1
            if self.step == 4:
                for owner, _, cache in self.targeted_caches():
                    self.member(owner).note(f"{self.when}: thieves target {cache.where}")
            text = f"{self.when}: {self.next_step}"
        else:
            for m in self.members:
                m.upkept = m.odd_job = m.crime_took_time = False
                m.action = -1
            self.factions_rolled = self.hazard_rolled = False
            self.step = 1
            if self.cycle == CYCLES_PER_SEASON:
                self.season, self.cycle = self.season + 1, 1
            else:
                self.cycle += 1
            text = f"{self.when} begins"
        self.describe(text)
        return text


__all__ = [
    "Account", "Cache", "CrimeOdds", "CrimeResult", "Downtime", "DowntimeAction", "Faction",
    "Member", "cost_kinds", "faction_odds", "faction_steps", "lifestyles", "petty_crime",
    "petty_crime_odds", "upkeep_cost", "withdrawal_fee", "withdrawal_kind",
]
