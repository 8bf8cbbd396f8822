"""The table: the player characters in play and the GM's threads of fate, together.

A [Party][companion.rulesets.monsters_and_magic.party.Party] knows each character by a
name no other character at the table has (compared without regard to case or spaces, so
"Ash" and " ash " are the same person). It is where a character's roll meets the GM: a
player's critical miss gives the GM a thread of fate (the reading of the seed's cut-off
text is given at
[GameMaster.note_result][companion.rulesets.monsters_and_magic.adventurer.GameMaster.note_result]).

>>> party = Party()
>>> ash = party.new_character("Ash", luck=2)
>>> party.names
('Ash',)
>>> party.new_character("ash")
Traceback (most recent call last):
...
companion.errors.RuleError: Characters: Ash is already at the table
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.dice import Roll, roll
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheckResult, Tier
from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.monsters_and_magic.group_checks import (
    GroupCheckResult,
    check_group_size,
    read_group,
)
from companion.rulesets.monsters_and_magic.harm_and_healing import falling_damage_dice
from companion.rulesets.monsters_and_magic.travel import READINGS, TravelPlan, forage_supplies
from companion.state import Observable, Tracker
from companion.table_moves import TableTrackers
from companion.table_moves import declare as declare_table_move

__all__ = ["MAX_CHARACTERS", "Fall", "Party", "RoadCheck"]

#: Most characters one table follows (a guard on the page's size, not a rule of the seed).
MAX_CHARACTERS = 12


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class RoadCheck:
    """A group check the party made on the road, or to forage: each character's own check
    (``names`` in order), the group's result, who could not take part and why
    (``left_out``), and the supplies each taker gained (``found``, when foraging)."""

    names: tuple[str, ...]
    group: GroupCheckResult
    left_out: tuple[str, ...] = ()
    forage: bool = False
    found: int = 0

    @property
    def tier(self) -> Tier:
        return self.group.tier

    def __str__(self) -> str:
        each = "; ".join(f"{name} {m.total} {m.tier.label}"
                         for name, m in zip(self.names, self.group.members, strict=True))
        left = ", ".join(f"{n} {t.label}" for t, n in self.group.counts.items())
        text = f"{each} → {left} → {self.tier.label}"
        if self.forage:
            text += f": {self.found} suppl{'ies' if self.found != 1 else 'y'} each"
        return text


@dataclass(frozen=True)
class Fall:
    """A fall of ``feet``: its dice, what they rolled (``None`` under 10 feet: no damage)
    and whoever fell (``""``: nobody's sheet, just the roll) with their HP after it."""

    feet: int
    dice: str
    rolled: Roll | None
    who: str = ""
    hp: int = 0
    max_hp: int = 0

    @property
    def total(self) -> int:
        return self.rolled.total if self.rolled is not None else 0

    def __str__(self) -> str:
        if self.rolled is None:
            return "no damage"
        taken = f" — {self.who} takes it: HP {self.hp}/{self.max_hp}" if self.who else ""
        return f"{self.dice}: {self.rolled}{taken}"


class Party(Observable):
    """The characters at the table and the GM's threads; observers hear of joins."""

    def __init__(self, gm: GameMaster | None = None) -> None:
        self.gm = gm if gm is not None else GameMaster()
        self._characters: list[Adventurer] = []

    @property
    def characters(self) -> tuple[Adventurer, ...]:
        """Every character, in the order they joined."""
        return tuple(self._characters)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self._characters)

    def get(self, name: str) -> Adventurer:
        """The character called ``name``."""
        for adventurer in self._characters:
            if _key(adventurer.name) == _key(name):
                return adventurer
        raise RuleError(f"Characters: nobody called {name} is at the table")

    def _seated(self, adventurer: Adventurer) -> None:
        if not any(a is adventurer for a in self._characters):
            raise RuleError(f"Characters: {adventurer.name} is not at the table")

    def check_name(self, name: str, besides: Adventurer | None = None) -> None:
        """Refuse (RuleError) a name another character at the table (``besides`` left out)
        already has, in any case or spacing."""
        for other in self._characters:
            if other is not besides and _key(other.name) == _key(name):
                raise RuleError(f"Characters: {other.name} is already at the table")

    def add(self, adventurer: Adventurer) -> Adventurer:
        """Seat a character; a name already at the table, or a full table, is refused."""
        self.check_name(adventurer.name)
        if len(self._characters) >= MAX_CHARACTERS:
            raise RuleError(f"Characters: a table follows at most {MAX_CHARACTERS} "
                            "characters")
        self._characters.append(adventurer)
        self._changed()
        return adventurer

    def new_character(self, name: str, **stats: Any) -> Adventurer:
        """Make a fresh character (see [Adventurer.new][companion.rulesets.monsters_and_magic.adventurer.Adventurer.new]) and seat it."""  # noqa: E501
        self.check_name(name)
        return self.add(Adventurer.new(name, **stats))

    def load_character(self, adventurer: Adventurer, text: str | bytes) -> None:
        """Replace a seated character's sheet with a saved one.

        A sheet whose name another character at the table already has is refused, and so is
        a corrupt one; either way nothing changes.
        """
        self._seated(adventurer)
        loaded = Adventurer.from_json(text)
        self.check_name(loaded.name, besides=adventurer)
        adventurer.load(text)
        self._changed()

    def roll_check(self, adventurer: Adventurer, ability: str = "luck", *,
                   seed: int | None = None, rng: random.Random | None = None,
                   **options: Any) -> AbilityCheckResult:
        """A character's ability check (the sheet's move); a critical miss feeds the GM."""
        self._seated(adventurer)
        result = adventurer.roll_check(ability, seed=seed, rng=rng, **options)
        self.gm.note_result(result.tier)
        return result

    def rest(self, adventurer: Adventurer, kind: str, *args: Any, **kwargs: Any) -> list[str]:
        """A character's ``short``, ``long`` or ``extended`` rest (the sheet's move, with
        the same arguments); each critical miss its rolls (Gather Supplies, Take Watch) made
        gives the GM a thread, as any check's does. Returns the rest's notes."""
        self._seated(adventurer)
        moves: dict[str, Callable[..., list[str]]] = {
            "short": adventurer.short_rest, "long": adventurer.long_rest,
            "extended": adventurer.extended_rest}
        if kind not in moves:
            raise RuleError(f"Rest & Recovery: no {kind!r} rest (short, long, extended)")
        notes: list[str] = moves[kind](*args, **kwargs)
        results = adventurer.rest_results
        for label in results.tiers if results is not None else ():
            self.gm.note_result(Tier.from_label(label))
        return notes

    def able(self, move: str, *args: Any) -> tuple[list[Adventurer], list[str]]:
        """The characters the rules let make ``move(*args)`` now, and why each other one
        cannot ("Bo: ..."); refused when nobody can."""
        able, notes = [], []
        for adventurer in self._characters:
            reason = adventurer.why_not(move, *args)
            if reason is None:
                able.append(adventurer)
            else:
                notes.append(f"{adventurer.name}: {reason}")
        if not able:
            raise RuleError("; ".join(notes) if notes else "Travel: nobody in the party yet")
        return able, notes

    def travel_period(self, plan: TravelPlan) -> tuple[list[Adventurer], list[str]]:
        """One travel period of ``plan``: each character who can marks the pace's
        exhaustion (a pace without exhaustion marks nothing). Returns who marked it and
        why the others did not."""
        if not plan.exhaustion:
            return [], []
        able, notes = self.able("mark_exhaustion", plan.exhaustion)
        for adventurer in able:
            adventurer.mark_exhaustion(plan.exhaustion)
        return able, notes

    def road_check(self, plan: TravelPlan, ability: str, *, forage: bool = False,
                   seed: int | None = None, rng: random.Random | None = None) -> RoadCheck:
        """The party's group check on the road: each character who can makes their own
        check (the sheet's move, with the pace's modifier; a critical miss feeds the GM)
        and the group-check rules read the group's result. Foraging (only on foot at the
        slow pace) then gives each of them the supplies the result earns. Everything that
        can refuse it is judged before a die is rolled."""
        if forage and not plan.can_forage:
            raise RuleError("Overland Travel: only a party on foot at the slow pace can "
                            "forage")
        able, notes = self.able("roll_check", ability)
        check_group_size(len(able))
        r = make_rng(seed, rng)
        results = [self.roll_check(a, ability, bonus=plan.group_check_modifier, rng=r)
                   for a in able]
        group = read_group(results)
        found = forage_supplies(group.tier) if forage else 0
        for adventurer in able if found else ():
            adventurer.gain_supplies(found)
        return RoadCheck(tuple(a.name for a in able), group, tuple(notes), forage, found)

    def fall(self, feet: int, who: Adventurer | None = None, *, seed: int | None = None,
             rng: random.Random | None = None) -> Fall:
        """A fall of ``feet``: the falling dice rolled and, when ``who`` fell, taken as
        damage on that character's sheet (refused before the roll if the sheet cannot
        take it). Interpretation: the sheet's AC reduces it, as it does any damage (see
        [harm_and_healing][companion.rulesets.monsters_and_magic.harm_and_healing])."""
        dice = falling_damage_dice(feet)
        if who is not None:
            self._seated(who)
            reason = who.why_not("take_damage", 1)
            if reason is not None:
                raise RuleError(reason)
        if dice == "0":
            return Fall(feet, dice, None)
        rolled = roll(dice, rng=make_rng(seed, rng))
        if who is None:
            return Fall(feet, dice, rolled)
        who.take_damage(rolled.total)
        return Fall(feet, dice, rolled, who.name, who.hp, who.max_hp)

    # -- what each table move changes (declared before it is made) -----------------------

    def declared(self, move: str, *args: Any, **kwargs: Any
                 ) -> tuple[Adventurer, str, list[tuple[Tracker, tuple[str, ...]]]]:
        """What the table move ``move`` (``spend_thread``, ``break_free``, ``tend_ally``,
        ``roll_check`` or ``rest``) with these arguments changes, said before it is made:
        the sheet whose move it is, that sheet's move (what a seat must be allowed to
        make), and each other tracker at the table it moves as part of it with the moves
        it makes there. A campaign stores them as one unit of work
        ([Campaign.record_together][companion.store.campaign.Campaign.record_together]):
        the GM's thread gained when a player spends one (or rolls a critical miss), the
        holder's fatigue paid for a hold, the patient's HP a tending heals."""
        if move not in _TABLE_MOVES:
            raise RuleError(f"Characters: {move!r} is not a move of the table "
                            f"({', '.join(_TABLE_MOVES)})")
        if not args or not isinstance(args[0], Adventurer):
            raise RuleError(f"Characters: {move} is made by a character at the table")
        lead = args[0]
        self._seated(lead)
        if move == "spend_thread":
            use = args[1] if len(args) > 1 else kwargs.get("use")
            if use not in _THREAD_MOVES:
                raise RuleError(f"Threads of Fate: {use!r} is not a way to spend a thread")
            return lead, str(use), [(self.gm, ("player_spent", "gain_thread"))]
        if move == "roll_check":  # a critical miss gives the GM a thread
            return lead, "roll_check", [(self.gm, ("gain_thread",))]
        if move == "rest":  # each critical miss of the rest's rolls likewise
            kind = args[1] if len(args) > 1 else kwargs.get("kind")
            if kind not in _RESTS:
                raise RuleError(f"Rest & Recovery: no {kind!r} rest (short, long, extended)")
            return lead, _RESTS[kind], [(self.gm, ("gain_thread",))]
        if move == "break_free":
            held = bool(args[1] if len(args) > 1 else kwargs.get("held", False))
            holder = self._holder(lead) if held else None
            return lead, "break_free", [] if holder is None else [(holder, ("hold_restrained",))]
        patient = args[1] if len(args) > 1 else kwargs.get("patient")
        if not isinstance(patient, Adventurer):
            raise RuleError("Tend to Wounds: tend an ally at the table")
        self._seated(patient)
        return lead, "tend_ally", [(patient, ("heal",))]

    def _holder(self, adventurer: Adventurer) -> Adventurer | None:
        """The character at this table restraining ``adventurer`` (``None``: none here)."""
        if adventurer.restrained_by and _key(adventurer.restrained_by) in {
                _key(n) for n in self.names}:
            return self.get(adventurer.restrained_by)
        return None

    def break_free(self, adventurer: Adventurer, held: bool = False) -> Adventurer | None:
        """A restrained character marks 3 fatigue on their turn to break free
        ([Adventurer.break_free][companion.rulesets.monsters_and_magic.adventurer.Adventurer.break_free]);
        ``held``: the creature restraining them marks the same and they stay restrained.

        When that creature is a character at this table, its own sheet marks the 3 fatigue
        in the same step
        ([Adventurer.hold_restrained][companion.rulesets.monsters_and_magic.adventurer.Adventurer.hold_restrained]),
        so the hold is never claimed without being paid (and never paid without holding).
        Both sheets are judged first: a refusal on either changes neither. A creature not
        at the table (a monster) pays on the GM's side. Returns the character who held
        (``None`` when nobody at the table did)."""
        self._seated(adventurer)
        holder = self._holder(adventurer) if held else None
        if holder is None:
            adventurer.break_free(bool(held))
            return None
        reason = (adventurer.why_not("break_free", True)
                  or holder.why_not("hold_restrained", adventurer.name))
        if reason is not None:
            raise RuleError(reason)
        adventurer.break_free(True)
        holder.hold_restrained(adventurer.name)
        return holder

    def spend_thread(self, adventurer: Adventurer, use: str, *args: Any,
                     **kwargs: Any) -> Any:
        """A character's thread move (``feeling_lucky``, ``bend_luck``, ``lucky_find`` or
        ``bonds_of_fate``); the GM gains what the player spent (see
        [GameMaster.player_spent][companion.rulesets.monsters_and_magic.adventurer.GameMaster.player_spent])."""
        self._seated(adventurer)
        if use not in _THREAD_MOVES:
            raise RuleError(f"Threads of Fate: {use!r} is not a way to spend a thread")
        before = adventurer.threads
        result = getattr(adventurer, use)(*args, **kwargs)
        spent = before - adventurer.threads or 1
        self.gm.player_spent(spent)
        if use == "feeling_lucky" and not _against_you(args, kwargs):
            self.gm.note_result(result.tier)  # the luck roll is the character's check
        return result


    def tend_ally(self, tender: Adventurer, patient: Adventurer, supplies: int,
                  rest: str = "short") -> int:
        """Tend to Wounds on an ally: ``tender`` spends supplies (at most 2 on a short
        rest), each healing ``patient`` a quarter of the patient's total HP. Returns the
        HP healed.

        It is the tender's Tend to Wounds, one of the two activities of the tender's
        rest ([Adventurer.tend_ally][companion.rulesets.monsters_and_magic.adventurer.Adventurer.tend_ally]):
        the tender's own rest then takes one other activity. The patient's activities
        are untouched. A refused tending (for either of them) spends and heals nothing.

        >>> party = Party()
        >>> bo = party.new_character("Bo", supplies=2)
        >>> ash = party.new_character("Ash", max_hp=12)
        >>> _ = ash.take_damage(6)
        >>> party.tend_ally(bo, ash, 2)
        6
        >>> bo.rest_done, ash.rest_done
        (['Tend to Wounds'], [])
        """  # noqa: E501
        from companion.rulesets.monsters_and_magic.rest_and_recovery import heal_per_supply

        self._seated(tender)
        self._seated(patient)
        if tender is patient:
            raise RuleError("Tend to Wounds: tending yourself is part of your own rest")
        reason = tender.why_not("tend_ally", patient.name, supplies, rest)
        per = heal_per_supply(patient.max_hp)
        if reason is None:
            reason = patient.why_not("heal", max(1, supplies * per))
        if reason is not None:  # checked first: a refused tending spends nothing
            raise RuleError(reason)
        tender.tend_ally(patient.name, supplies, rest)
        return patient.heal(supplies * per) if supplies * per else 0


_THREAD_MOVES = ("feeling_lucky", "bend_luck", "lucky_find", "bonds_of_fate")

#: The table's moves that move more than one tracker (see ``Party.declared``).
_TABLE_MOVES = ("spend_thread", "break_free", "tend_ally", "roll_check", "rest")

#: Each kind of rest and the sheet's move that makes it.
_RESTS = {"short": "short_rest", "long": "long_rest", "extended": "extended_rest"}


def _against_you(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether a thread move's arguments say ``against_you`` (its first parameter)."""
    return bool(kwargs.get("against_you", args[0] if args else False))


# -- table moves: several sheets in one unit of work (companion.table_moves) -------------


def _party_at(table: TableTrackers) -> Party:
    """The party of a table: every character sheet at it, in the order they joined, and
    the GM's threads (a fresh, unkept one at a table that has none yet)."""
    masters = table.trackers(GameMaster)
    party = Party(masters[0] if masters else GameMaster())
    for adventurer in table.trackers(Adventurer):
        party.add(adventurer)
    return party


def _plan_of(args: dict[str, Any], where: str) -> TravelPlan:
    """The journey ``args`` plan (``hexes``, ``speed``, ``mounted``, ``by_vehicle``,
    ``reading``, as [plan_journey][companion.rulesets.monsters_and_magic.travel.plan_journey]
    takes them)."""
    from companion.rulesets.monsters_and_magic.travel import plan_journey
    from companion.table_moves import argument

    return plan_journey(argument(args, "hexes", int, where),
                        speed=argument(args, "speed", str, where, "Normal"),
                        mounted=bool(argument(args, "mounted", bool, where, False)),
                        by_vehicle=argument(args, "by_vehicle", str, where, None),
                        reading=argument(args, "reading", str, where, READINGS[0]))


def _road_check(table: TableTrackers, args: dict[str, Any],
                rng: random.Random | None) -> RoadCheck:
    """[road_check][companion.rulesets.monsters_and_magic.party.Party.road_check] as a
    rolled table move: the journey ``args`` plan (as for a travel period), the
    ``ability`` and whether the party forages (``forage``); every sheet's check, the
    GM's threads and the supplies found, in one unit."""
    from companion.table_moves import argument

    where = "road check"
    return _party_at(table).road_check(
        _plan_of(args, where), argument(args, "ability", str, where),
        forage=bool(argument(args, "forage", bool, where, False)), rng=rng)


def _road_text(done: RoadCheck) -> str:
    return f"{'foraging' if done.forage else 'group check'}: {done}"


def _fall(table: TableTrackers, args: dict[str, Any], rng: random.Random | None) -> Fall:
    """[fall][companion.rulesets.monsters_and_magic.party.Party.fall] as a rolled table
    move: ``feet`` fallen and ``who`` fell (a sheet's member; ``null``: just the roll)."""
    from companion.table_moves import argument

    where = "falling"
    who = argument(args, "who", str, where, None)
    faller = table.tracker(who, Adventurer) if who is not None else None
    return _party_at(table).fall(argument(args, "feet", int, where), faller, rng=rng)


def _travel_period(table: TableTrackers, args: dict[str, Any],
                   _rng: random.Random | None) -> dict[str, Any]:
    """One travel period of the journey ``args`` plans (``hexes``, ``speed``,
    ``mounted``, ``by_vehicle``, ``reading``, as
    [plan_journey][companion.rulesets.monsters_and_magic.travel.plan_journey] takes
    them): every character who can marks the pace's exhaustion, all or none."""

    plan = _plan_of(args, "travel period")
    able, notes = _party_at(table).travel_period(plan)
    return {"marked": [a.name for a in able], "notes": notes, "how": plan.how,
            "exhaustion": plan.exhaustion if able else 0}


def _load_character(table: TableTrackers, args: dict[str, Any],
                    _rng: random.Random | None) -> str:
    """A seated character's sheet replaced with a saved one (``character``: the sheet's
    member, ``text``: the save), refused when another character at the table already
    has the saved sheet's name."""
    from companion.table_moves import argument

    where = "load a character"
    sheet = table.tracker(argument(args, "character", str, where), Adventurer)
    _party_at(table).load_character(sheet, argument(args, "text", str, where))
    return sheet.name


def _period_text(value: dict[str, Any]) -> str:
    if not value["marked"]:
        return f"one period {value['how']}: no exhaustion to mark"
    return (f"one period {value['how']}: {value['exhaustion']} exhaustion marked by "
            + ", ".join(value["marked"]))


#: The party's rolled moves a face names as the table move ``monsters_and_magic.party.roll``:
#: the sheet's move and the GM's threads it feeds, in one unit.
ROLLED_PARTY_MOVES = ("roll_check", "spend_thread", "rest")


def _party_roll(table: TableTrackers, args: dict[str, Any],
                rng: random.Random | None) -> Any:
    """A character's rolled move through the party (``move``: ``roll_check``,
    ``spend_thread`` or ``rest``; ``character``: the sheet's member; ``use`` or
    ``kind``: the thread move or the rest; ``options``: the sheet move's own keyword
    arguments, as JSON): the sheet rolls, and the GM gains the thread a critical miss or
    a spent thread gives, all in one unit. The dice go to the sheet's move when it
    takes any (an extended rest rolls none)."""
    import inspect
    import typing

    from companion.state import decode_value
    from companion.table_moves import argument

    where = "party roll"
    move = argument(args, "move", str, where)
    if move not in ROLLED_PARTY_MOVES:
        raise RuleError(f"{where}: {move!r} is not one of {', '.join(ROLLED_PARTY_MOVES)}")
    sheet = table.tracker(argument(args, "character", str, where), Adventurer)
    options = dict(argument(args, "options", dict, where, {}))
    head: list[Any] = []
    lead = move
    if move in ("spend_thread", "rest"):
        key = "use" if move == "spend_thread" else "kind"
        head = [argument(args, key, str, where)]
        lead = head[0] if move == "spend_thread" else _RESTS.get(head[0], "")
    fn = getattr(Adventurer, lead, None)
    if fn is None or lead.startswith("_"):
        raise RuleError(f"{where}: the sheet has no move {lead!r}")
    fn = inspect.unwrap(fn)
    hints = typing.get_type_hints(fn)
    params = inspect.signature(fn).parameters
    unknown = sorted(set(options) - set(params) | set(options) & {"self", "seed", "rng"})
    if unknown:
        raise RuleError(f"{where}: {lead} has no argument {unknown[0]!r}")
    values = {k: decode_value(v, hints.get(k, Any), k, f"{where} {lead}")
              for k, v in options.items()}
    if "rng" in params:
        values["rng"] = rng
    return getattr(_party_at(table), move)(sheet, *head, **values)


declare_table_move("monsters_and_magic.party.roll", _party_roll, text=None, rolls=True)
declare_table_move("monsters_and_magic.party.road_check", _road_check, text=_road_text,
                   rolls=True)
declare_table_move("monsters_and_magic.party.fall", _fall, rolls=True)
declare_table_move("monsters_and_magic.party.travel_period", _travel_period,
                   text=_period_text)
declare_table_move("monsters_and_magic.party.load_character", _load_character,
                   text=lambda name: f"{name}'s sheet loaded")
