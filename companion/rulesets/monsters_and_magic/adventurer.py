"""One player character's sheet in play: threads, AP, fatigue, harm, states, rests.

[Adventurer][companion.rulesets.monsters_and_magic.adventurer.Adventurer] is a tracker (see
[companion.state][]): every public method is a
move of the rules, refused with the rule's name before anything changes; every move is
logged and can be undone; the whole sheet saves to JSON and loads back.
[GameMaster][companion.rulesets.monsters_and_magic.adventurer.GameMaster] keeps the GM's threads of
fate.

What the sheet follows, by section of the seed:

- **Ability Checks** —
  [Adventurer.roll_check][companion.rulesets.monsters_and_magic.adventurer.Adventurer.roll_check]
  adds the ability, ongoing and forward
  modifiers, Weakened (-2), Empowered (+2 to attacks), the exhaustion penalty, and the
  advantage/disadvantage of Prone, Blinded and Invisible on attack rolls, and those the
  target brings (a [Defender][companion.rulesets.monsters_and_magic.adventurer.Defender]:
  attacks against a Blinded creature have advantage, against a Prone one advantage within
  touch range and disadvantage further away, against a dodging one disadvantage; a
  dodging creature makes cunning saving throws with advantage). A miss gives 1 XP
  and a critical miss 2 (Interpretation: XP goes with the roll as rolled, even if Bend
  Luck or Feeling Lucky changes the result later). Interpretation: a critical hit bestows
  Inspired (the seed's "Gain" is cut off).
- **Ongoing, Forward, and Hold** — an *ongoing* modifier applies until its condition is
  met ([end_ongoing][companion.rulesets.monsters_and_magic.adventurer.Adventurer.end_ongoing]);
  *forward* is used up by the next check; *hold*
  is charges of a kind (arrows...) that stack and last until spent or a long rest.
- **Threads of Fate** —
  [feeling_lucky][companion.rulesets.monsters_and_magic.adventurer.Adventurer.feeling_lucky],
  [bend_luck][companion.rulesets.monsters_and_magic.adventurer.Adventurer.bend_luck],
  [lucky_find][companion.rulesets.monsters_and_magic.adventurer.Adventurer.lucky_find],
  [bonds_of_fate][companion.rulesets.monsters_and_magic.adventurer.Adventurer.bonds_of_fate];
  Inspired pays instead
  of a thread. Feeling Lucky and Bend Luck act on the last check this sheet rolled, or on
  one rolled against the character (given by its natural face and total).
- **Action Points** —
  [start_turn][companion.rulesets.monsters_and_magic.adventurer.Adventurer.start_turn],
  [spend_ap][companion.rulesets.monsters_and_magic.adventurer.Adventurer.spend_ap],
  [take_reaction][companion.rulesets.monsters_and_magic.adventurer.Adventurer.take_reaction],
  [end_turn][companion.rulesets.monsters_and_magic.adventurer.Adventurer.end_turn],
  [break_free][companion.rulesets.monsters_and_magic.adventurer.Adventurer.break_free].
  The Dodge technique lasts until the start of the character's next turn; the Move
  technique stands a Prone character up (half its maximum Speed goes on it).
- **Fatigue & Exhaustion**, **Hit Points**, **Death & Dying** — marks spill from fatigue
  into exhaustion and from exhaustion into unconsciousness (or death while dying).
- **Conditions & Statuses** — never the same one twice; re-inflicting a condition is
  refused (extend it, or detonate it to end it for 1d10 damage). A state inflicted or
  bestowed runs out at the end of the creature's next turn
  ([end_turn][companion.rulesets.monsters_and_magic.adventurer.Adventurer.end_turn]), or
  after 6 seconds out of combat
  ([six_seconds_pass][companion.rulesets.monsters_and_magic.adventurer.Adventurer.six_seconds_pass]),
  unless the effect says it lasts until ended;
  [extend][companion.rulesets.monsters_and_magic.adventurer.Adventurer.extend] adds a
  turn. A restraining creature may mark the same 3 fatigue to keep a target restrained
  ([hold_restrained][companion.rulesets.monsters_and_magic.adventurer.Adventurer.hold_restrained]).
  Underwater
  ([set_underwater][companion.rulesets.monsters_and_magic.adventurer.Adventurer.set_underwater]),
  fire damage is resisted and attacks are made with disadvantage without a swimming speed.

  Interpretation (a note):

  - "Until the end of a creature's next turn": the creature is the one that has the
    state (the seed does not name it; the sheet keeps its own creature's turns, not the
    turns of whoever inflicted it). Given during the creature's own turn, the state lasts
    through its following turn (two turn ends); given at any other time, to the end of
    its coming turn (one). A sheet saved before durations were kept holds states that
    last until ended.
  - States the rules give with their own way out last until it: Inspired from a critical
    hit (until cleared to pay a thread), Prepared from a rest (until used), Unconscious
    from dying or exhaustion (until healed or rested). Restrained and Doomed name how to
    get free, but the effect that inflicts them gives their time: they run out like the
    rest unless it says "until ended".
- **Rest & Recovery** —
  [short_rest][companion.rulesets.monsters_and_magic.adventurer.Adventurer.short_rest],
  [long_rest][companion.rulesets.monsters_and_magic.adventurer.Adventurer.long_rest],
  [extended_rest][companion.rulesets.monsters_and_magic.adventurer.Adventurer.extended_rest] with
  the chosen activities;
  [tend_ally][companion.rulesets.monsters_and_magic.adventurer.Adventurer.tend_ally] is the
  tender's Tend to Wounds on an ally, one of the tender's two activities of that rest.
  Gather Supplies and Take Watch are focus rolls, so ability checks like any other: they
  use up forward and their result gives what the results table gives (1 XP on a miss, 2
  and a thread for the GM on a critical miss, Inspired on a critical hit); the seed says
  nothing otherwise. Feeling Lucky's luck roll uses up forward too.

  Interpretation: a rest leaves no check for Bend Luck or Feeling Lucky to act on. Its
  own rolls are settled inside it (the supplies found, the watch kept), and a check
  made before it was resolved an hour or more ago; Bend Luck acts only "before it's been
  resolved", and Feeling Lucky's luck roll "instead of" a check could not undo what
  the rest already did with it. Without this, the last check before the rest stayed
  open to both after it, and Feeling Lucky replaced that check, not the rest's roll.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.dice import roll
from companion.dice.roller import make_rng
from companion.errors import CompanionError, RuleError, StateError
from companion.rulesets.monsters_and_magic.ability_checks import (
    LIMIT,
    AbilityCheck,
    AbilityCheckResult,
    Tier,
)
from companion.rulesets.monsters_and_magic.action_points import (
    AP_PER_TURN,
    BREAK_FREE_FATIGUE,
    technique_cost,
    technique_name,
)
from companion.rulesets.monsters_and_magic.conditions_and_statuses import (
    CONDITIONS,
    DETONATE_DAMAGE,
    STATUSES,
    condition_name,
    implied,
    status_name,
)
from companion.rulesets.monsters_and_magic.death_and_dying import (
    DEATHSAVES_TO_STABILIZE,
    death_roll_check,
    death_roll_outcome,
)
from companion.rulesets.monsters_and_magic.fatigue_and_exhaustion import (
    DEFAULT_MAX_EXHAUSTION,
    DEFAULT_MAX_FATIGUE,
    exhaustion_penalty,
)
from companion.rulesets.monsters_and_magic.harm_and_healing import (
    Affinity,
    damage_after_armor,
    underwater_affinity,
)
from companion.rulesets.monsters_and_magic.perception import (
    CONCEALMENT,
    COVER,
    LIGHT,
    visibility,
)
from companion.rulesets.monsters_and_magic.rest_and_recovery import (
    activity_name,
    heal_per_supply,
    rest_rules,
)
from companion.rulesets.monsters_and_magic.threads_of_fate import (
    GM_USES,
    bend_luck,
    max_threads_for,
)
from companion.state import OWN_NUMBERS, Tracker, is_move, move, state_field

__all__ = ["ABILITIES", "GM_THREAD_READINGS", "MAX_NAME", "Adventurer", "Bond", "CheckRecord",
           "Defender", "GameMaster", "RestResults", "attack_against", "defender_edge"]

#: The four abilities of a PC.
ABILITIES = ("focus", "power", "cunning", "luck")

_BIG = 10_000

#: Longest name of a character, ongoing source, hold kind or bond (in characters).
MAX_NAME = 60

#: Most ongoing sources, or hold kinds, a sheet keeps at once.
MAX_ENTRIES = 40

#: Longest bond statement (in characters).
MAX_STATEMENT = 300

#: The forward that Prepared (the status, or one prepared hold spent) gives.
PREPARED_FORWARD = 2

#: What a sight-based check can be made against: nothing said (""), a concealment state, or
#: the light the thing looked at is in (read as its concealment).
SIGHT = ("", *CONCEALMENT, *LIGHT)

#: Cover a character can be in ("" for none).
COVER_KINDS = ("", *COVER)

#: Readings of the death roll (see Adventurer.death_roll): with the sheet's modifiers, or
#: LUCK and the exhaustion penalty only.
DEATH_ROLL_READINGS = ("sheet", "bare")

#: Readings of the GM's cut-off "Whenever you spend a ..." (see GameMaster.player_spent).
GM_THREAD_READINGS = ("player spends", "uses only")

#: A rest a character can have begun with an activity made outside their own rest move
#: (tending an ally's wounds): "" for none.
RESTS_BEGUN = ("", "short", "long")

#: Most XP a sheet counts (a guard on the saved number, far past any campaign).
MAX_XP = 1_000_000


@dataclass
class CheckRecord:
    """The last check rolled (what Bend Luck and Feeling Lucky act on).

    ``hidden``: the mode of the hidden roll (GM only, blind, self) that made it, set by the
    campaign ([mark_hidden_rolls][companion.fairplay.mark_hidden_rolls]); such a record is
    the GM's (Bend Luck reads it) and a player's view or export of the sheet leaves it out
    ([player_state][companion.fairplay.player_state]) until a later check replaces it.
    """

    expression: str = state_field(max_len=40)
    natural: int = state_field(min=1, max=20)
    total: int = state_field(0, min=-_BIG, max=_BIG)
    dc: int = state_field(10, min=-_BIG, max=_BIG)
    tier: str = state_field("Miss", choices=tuple(t.label for t in Tier))
    bent: bool = False
    hidden: str = state_field("", choices=("", "gm", "blind", "self"))


@dataclass
class RestResults:
    """The results of the checks the latest rest rolled (Gather Supplies, Take Watch), in
    order, as the sheet applied them: the table reads them to give the GM a thread for a
    critical miss ([Party.rest][companion.rulesets.monsters_and_magic.party.Party.rest]).

    ``hidden``: as for [CheckRecord][companion.rulesets.monsters_and_magic.adventurer.CheckRecord].
    """

    tiers: list[str] = state_field(default_factory=list, max_len=2)
    hidden: str = state_field("", choices=("", "gm", "blind", "self"))

    def check_state(self) -> None:
        """Each entry is a result of the chart."""
        labels = {t.label for t in Tier}
        for i, tier in enumerate(self.tiers):
            if tier not in labels:
                raise StateError(f"field 'tiers[{i}]' is not a result: {tier!r}")


@dataclass
class Bond:
    """One bond: a statement about another character and its value (+BOND)."""

    with_whom: str = state_field(max_len=MAX_NAME)
    statement: str = state_field("", max_len=MAX_STATEMENT)
    value: int = state_field(0, min=-LIMIT, max=LIMIT)


#: Conditions under which a Dodge gives nothing (see Defender): incapacitated (Stunned,
#: which Unconscious brings) or without a speed to move (Restrained: immobile).
DODGE_VOID = ("Stunned", "Restrained")


@dataclass(frozen=True)
class Defender:
    """The target of an attack roll, as far as it changes the roll: its conditions and
    statuses in effect (``states``), whether it took the Dodge technique and it still lasts
    (``dodging``), and the cover it is in (``cover``).
    [Adventurer.as_defender][companion.rulesets.monsters_and_magic.adventurer.Adventurer.as_defender]
    gives a character's; a monster's is written out by the table.

    What it changes is
    [defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge]'s.
    """

    name: str = "the target"
    states: tuple[str, ...] = ()
    dodging: bool = False
    cover: str = ""

    def check_state(self) -> None:
        """Known conditions and statuses (each once) and a known cover."""
        for i, state in enumerate(self.states):
            if state not in CONDITIONS and state not in STATUSES:
                raise StateError(f"field 'states[{i}]' is not a condition or status: "
                                 f"{state!r}")
        if len(set(self.states)) != len(self.states):
            raise StateError("field 'states' holds the same one twice")
        if self.cover not in COVER_KINDS:
            raise StateError(f"field 'cover' is not a kind of cover: {self.cover!r}")
        if not 1 <= len(self.name) <= MAX_NAME:
            raise StateError(f"field 'name' must be 1-{MAX_NAME} characters")

    def has(self, state: str) -> bool:
        """Whether the state is in effect on the target (those another brings included)."""
        return state in implied(s for s in self.states if s in CONDITIONS) \
            or state in self.states


def defender_edge(defender: Defender, *, within_touch: bool = True,
                  attacker_seen: bool = True) -> tuple[bool, bool, list[str]]:
    """``(advantage, disadvantage, why)`` that an attack roll against ``defender`` gets from
    the defender's own state (the attacker's own advantages are added by its check).

    - Blinded: attack rolls are made against it with advantage.
    - Prone: advantage if the attacker is within touch range (5 feet), disadvantage if
      further away (``within_touch``).
    - Dodging: disadvantage, if the defender can see the attacker.

    Interpretation (a note):

    - The Dodge text is cut off after "as long as you aren't incapacitated and have a";
      read as "have a speed", as the familiar Dodge says: the benefit is void while the
      defender is Stunned (incapacitated; Unconscious brings Stunned) or Restrained
      (immobile, no speed). It is suspended, not ended: should the condition end before
      the start of the dodger's next turn, the Dodge holds again ("as long as").
    - "If you can see the attacker": a Blinded defender sees no attacker, and nobody
      sees an Invisible attacker (``attacker_seen`` false), so Dodge then gives nothing.
    - Advantage and disadvantage from the two sides meet as any others do: both cancel
      to a single d20, and several of one kind do not stack.

    >>> defender_edge(Defender(states=("Prone", "Slowed")), within_touch=False)
    (False, True, ['Prone target beyond touch range: disadvantage'])
    """
    try:
        defender.check_state()
    except StateError as exc:
        raise RuleError(f"Attack Rolls: the target is not a creature the rules know: {exc}") \
            from None
    advantage = disadvantage = False
    why: list[str] = []
    if defender.has("Blinded"):
        advantage = True
        why.append("Blinded target: advantage")
    if defender.has("Prone"):
        if within_touch:
            advantage = True
            why.append("Prone target within touch range: advantage")
        else:
            disadvantage = True
            why.append("Prone target beyond touch range: disadvantage")
    if defender.dodging:
        void = next((c for c in DODGE_VOID if defender.has(c)), "")
        if void:
            why.append(f"Dodge gives nothing while {void}")
        elif defender.has("Blinded") or not attacker_seen:
            why.append("Dodge gives nothing: the target cannot see the attacker")
        else:
            disadvantage = True
            why.append("dodging target: disadvantage")
    return advantage, disadvantage, why


def attack_against(defender: Defender, modifier: int = 0, dc: int | None = None, *,
                   advantage: bool = False, disadvantage: bool = False, steps: int = 0,
                   within_touch: bool = True, attacker_seen: bool = True) -> AbilityCheck:
    """Any creature's attack roll against ``defender`` (a monster's against a character,
    say): the attacker's ``modifier`` and edge, with what the defender's state adds
    ([defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge]) and
    its cover's modifier (total cover cannot be attacked directly).

    >>> attack_against(Defender(states=("Blinded",)), 2).dice
    '2d20kh1'
    """
    if defender.cover == "Total Cover":
        raise RuleError("Cover: a creature in total cover cannot be targeted directly")
    more, less, _ = defender_edge(defender, within_touch=within_touch,
                                  attacker_seen=attacker_seen)
    cover = int(COVER[defender.cover]["attack_modifier"]) if defender.cover else 0
    return AbilityCheck(_bounded(modifier, "Ability Checks") + cover, dc, advantage or more,
                        disadvantage or less, steps)


@dataclass
class Adventurer(Tracker):
    """A player character's state in play (see the module docs for the rules it keeps)."""

    kind: ClassVar[str] = "MonstersAndMagicAdventurer"
    #: The state that keeps a roll's dice: a hidden roll's is kept from players
    #: ([roll_state_fields][companion.fairplay.roll_state_fields]).
    ROLL_STATE: ClassVar[tuple[str, ...]] = ("last_check", "rest_results")
    #: Arguments a player's view of the log leaves out: the GM's hidden Take Watch DC.
    SECRET_ARGS: ClassVar[dict[str, tuple[str, ...]]] = {"long_rest": ("watch_dc",)}

    name: str = "Adventurer"
    focus: int = state_field(0, min=-LIMIT, max=LIMIT)
    power: int = state_field(0, min=-LIMIT, max=LIMIT)
    cunning: int = state_field(0, min=-LIMIT, max=LIMIT)
    luck: int = state_field(0, min=-LIMIT, max=LIMIT)
    max_threads: int = state_field(1, min=0, max=LIMIT)
    threads: int = state_field(1, min=0, max=LIMIT)
    xp: int = state_field(0, min=0, max=MAX_XP)
    max_hp: int = state_field(10, min=1, max=_BIG)
    hp: int = state_field(10, min=0, max=_BIG)
    ac: int = state_field(0, min=0, max=LIMIT)
    supplies: int = state_field(0, min=0, max=_BIG)
    max_fatigue: int = state_field(DEFAULT_MAX_FATIGUE, min=0, max=LIMIT)
    fatigue: int = state_field(0, min=0, max=LIMIT)
    max_exhaustion: int = state_field(DEFAULT_MAX_EXHAUSTION, min=0, max=LIMIT)
    exhaustion: int = state_field(0, min=0, max=LIMIT)
    in_turn: bool = False
    ap: int = state_field(0, min=0, max=LIMIT)
    reaction_used: bool = False
    dying: bool = False
    deathsaves: int = state_field(0, min=0, max=DEATHSAVES_TO_STABILIZE - 1)
    stable: bool = False
    dead: bool = False
    passed_on: bool = False
    out_until_long_rest: bool = False
    conditions: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)
    ongoing: dict[str, int] = state_field(default_factory=dict, max_len=MAX_ENTRIES)
    forward: int = state_field(0, min=-LIMIT, max=LIMIT)
    holds: dict[str, int] = state_field(default_factory=dict, max_len=MAX_ENTRIES)
    short_rests_in_a_row: int = state_field(0, min=0, max=3)
    last_check: CheckRecord | None = None
    temp_hp: int = state_field(0, min=0, max=_BIG)
    bonds: list[Bond] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    bond_resolved: bool = False
    reputation: dict[str, int] = state_field(default_factory=dict, max_len=MAX_ENTRIES,
                                             min=-LIMIT, max=LIMIT)
    death_roll_reading: str = state_field("sheet", choices=DEATH_ROLL_READINGS)
    cover: str = state_field("", choices=COVER_KINDS)
    resting: str = state_field("", choices=RESTS_BEGUN)
    rest_done: list[str] = state_field(default_factory=list, max_len=2)
    tended: str = state_field("", max_len=MAX_NAME)
    rest_results: RestResults | None = None
    #: Held states that run out: name -> the creature's turn ends left (a state not here
    #: lasts until ended, as every state of a sheet saved before durations did).
    durations: dict[str, int] = state_field(default_factory=dict, max_len=2 * MAX_ENTRIES,
                                            min=1, max=LIMIT)
    #: Who holds the character Restrained ("" for nobody named: a spell, a net...).
    restrained_by: str = state_field("", max_len=MAX_NAME)
    underwater: bool = False
    #: Whether the character has a swimming speed (its attacks underwater are not hampered).
    swimming_speed: bool = False
    #: The Dodge technique was taken and lasts (until the start of the character's next
    #: turn). A sheet saved before Dodge was kept loads without one.
    dodging: bool = False

    @classmethod
    def new(cls, name: str, *, focus: int = 0, power: int = 0, cunning: int = 0,
            luck: int = 0, max_hp: int = 10, ac: int = 0, max_threads: int | None = None,
            max_fatigue: int = DEFAULT_MAX_FATIGUE,
            max_exhaustion: int = DEFAULT_MAX_EXHAUSTION, supplies: int = 0) -> Adventurer:
        """A fresh character: full HP and threads, nothing marked."""
        name = _label(name, "Adventurer")
        threads = max_threads_for(luck) if max_threads is None else max_threads
        sheet = cls(name=name, focus=focus, power=power, cunning=cunning, luck=luck,
                    max_threads=threads, threads=threads, max_hp=max_hp, hp=max_hp, ac=ac,
                    supplies=supplies, max_fatigue=max_fatigue,
                    max_exhaustion=max_exhaustion)
        try:
            sheet.validate()
        except StateError as exc:
            raise RuleError(f"Adventurer: {exc}") from None
        return sheet

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_maxima(self, *, focus: int, power: int, cunning: int, luck: int, max_hp: int,
                   ac: int) -> None:
        """Set the sheet's abilities, maximum HP and AC (the table's correction of a sheet,
        as the start app's party editor makes it; unlike
        [set_numbers][companion.rulesets.monsters_and_magic.adventurer.Adventurer.set_numbers],
        which keeps current HP as they are). The numbers are checked as a new sheet's are.
        HP move by as much as
        the maximum, so damage already taken stays taken; a lowered maximum pulls HP down
        with it, but an edit never drops a standing character to 0 HP (at least 1 stays:
        dying is for damage). A character at 0 HP (dying, stable or dead) stays at 0. The
        threads keep their own maximum (a character may set another one).

        >>> ash = Adventurer.new("Ash", max_hp=12); ash.take_damage(5)
        5
        >>> ash.set_maxima(focus=1, power=0, cunning=0, luck=2, max_hp=10, ac=1)
        >>> (ash.hp, ash.max_hp, ash.focus, ash.ac)
        (5, 10, 1, 1)
        """
        for value, what in ((focus, "Focus"), (power, "Power"), (cunning, "Cunning"),
                            (luck, "Luck"), (max_hp, "maximum HP"), (ac, "AC")):
            if type(value) is not int:
                raise RuleError(f"Adventurer: {what} is a whole number, not {value!r}")
        if max_hp < 1:
            raise RuleError(f"Adventurer: maximum HP is at least 1, not {max_hp}")
        self.focus, self.power, self.cunning, self.luck, self.ac = (focus, power, cunning,
                                                                    luck, ac)
        if self.hp > 0:
            lost = self.max_hp - self.hp
            self.hp = max(1, min(max_hp, max_hp - lost))
        self.max_hp = max_hp
        try:
            self.validate()
        except StateError as exc:
            raise RuleError(f"Adventurer: {exc}") from None
        self.describe(f"{self.name}: Focus {focus:+d}, Power {power:+d}, Cunning "
                      f"{cunning:+d}, Luck {luck:+d}, HP {self.hp}/{max_hp}, AC {ac}")

    def __str__(self) -> str:
        """The sheet as a player reads it: the tracks against their maximum, then how the
        adventurer stands and every condition and status on them.

        >>> bryn = Adventurer.new("Bryn", power=2, max_hp=12, supplies=3)
        >>> bryn.hp, bryn.fatigue, bryn.conditions = 7, 1, ["Weakened"]
        >>> print(bryn)
        Bryn — HP 7/12, fatigue 1/5, exhaustion 0/6, threads 1/1, supplies 3 · Weakened
        """
        temp = f" (+{self.temp_hp} temporary)" if self.temp_hp else ""
        tracks = [f"HP {self.hp}/{self.max_hp}{temp}",
                  f"fatigue {self.fatigue}/{self.max_fatigue}",
                  f"exhaustion {self.exhaustion}/{self.max_exhaustion}",
                  f"threads {self.threads}/{self.max_threads}", f"supplies {self.supplies}"]
        state = [text for text, on in (("dead", self.dead), ("passed on", self.passed_on),
                                       ("dying", self.dying and not self.dead),
                                       ("stable", self.stable),
                                       ("out until a long rest", self.out_until_long_rest)) if on]
        notes = [*state, *self.conditions, *self.statuses]
        return f"{self.name} — {', '.join(tracks)}" + (f" · {', '.join(notes)}" if notes else "")

    def check_state(self) -> None:
        """What a sheet can never be (checked on every load, nested records included):

        - threads, HP, fatigue and exhaustion at most their maximums;
        - a name of 1-60 characters, without spaces around it;
        - at most one of dead, dying and stable; dying or stable only at 0 HP, and 0 HP
          only while dying, stable or dead; a dying or stable creature is Unconscious;
        - deathsaves only while dying; passed on only when dead;
        - unconscious until a long rest only while Unconscious;
        - AP only during the character's turn;
        - activities already made toward a rest only while that rest is begun: known
          activities of that rest, each once, at most as many as it allows; an ally
          tended only with Tend to Wounds among them;
        - known conditions and statuses, each at most once;
        - ongoing modifiers within ±1000 from named sources; hold counts 1-10,000 of
          named kinds; the last check's natural d20 1-20 and a known result.
        """
        if self.name != " ".join(self.name.split()) or not 1 <= len(self.name) <= MAX_NAME:
            raise StateError(f"field 'name' must be 1-{MAX_NAME} characters, not "
                             f"{len(self.name)}")
        for have, top in (("threads", "max_threads"), ("hp", "max_hp"),
                          ("fatigue", "max_fatigue"), ("exhaustion", "max_exhaustion")):
            if getattr(self, have) > getattr(self, top):
                raise StateError(f"field '{have}' is above '{top}'")
        for name, known, kind in ((self.conditions, CONDITIONS, "conditions"),
                                  (self.statuses, STATUSES, "statuses")):
            for i, entry in enumerate(name):
                if entry not in known:
                    raise StateError(f"field '{kind}[{i}]' is not a known name: {entry!r}")
            if len(set(name)) != len(name):
                raise StateError(f"field '{kind}' holds the same one twice")
        for timed in self.durations:
            if timed not in self.conditions and timed not in self.statuses:
                raise StateError(f"field 'durations.{timed}' times a state the creature does "
                                 "not have")
        if self.restrained_by:
            _state_label(self.restrained_by, "restrained_by")
            if "Restrained" not in self.conditions:
                raise StateError("field 'restrained_by' is set but 'conditions' does not hold "
                                 "Restrained")
        for kind, count in self.holds.items():
            if not 1 <= count <= _BIG:
                raise StateError(f"field 'holds.{kind}' must be 1-{_BIG}, got {count}")
            _state_label(kind, "holds")
        for source, value in self.ongoing.items():
            if abs(value) > LIMIT:
                raise StateError(f"field 'ongoing.{source}' must be within ±{LIMIT}, "
                                 f"got {value}")
            _state_label(source, "ongoing")
        self._check_body()

    def _check_body(self) -> None:
        states = [n for n, on in (("dead", self.dead), ("dying", self.dying),
                                  ("stable", self.stable)) if on]
        if len(states) > 1:
            raise StateError(f"fields {' and '.join(repr(s) for s in states)} cannot both "
                             "be true")
        if (self.dying or self.stable) and self.hp != 0:
            raise StateError(f"field 'hp' is {self.hp} but a {states[0]} creature is at 0 HP")
        if self.hp == 0 and not states:
            raise StateError("field 'hp' is 0 but the creature is not dying, stable or dead")
        if self.dead and self.hp != 0:
            raise StateError(f"field 'hp' is {self.hp} but a dead creature is at 0 HP")
        if (self.dying or self.stable) and "Unconscious" not in self.conditions:
            raise StateError(f"field 'conditions' must hold Unconscious while {states[0]}")
        if self.deathsaves and not self.dying:
            raise StateError("field 'deathsaves' counts only while dying")
        if self.passed_on and not self.dead:
            raise StateError("field 'passed_on' is true but the creature is not dead")
        if self.out_until_long_rest and "Unconscious" not in self.conditions:
            raise StateError("field 'out_until_long_rest' is true but 'conditions' does not "
                             "hold Unconscious")
        if self.ap and not self.in_turn:
            raise StateError(f"field 'ap' is {self.ap} outside the character's turn")
        self._check_rest()

    def _check_rest(self) -> None:
        if not self.resting:
            for name in ("rest_done", "tended"):
                if getattr(self, name):
                    raise StateError(f"field '{name}' is set but no rest is begun "
                                     "('resting' is empty)")
            return
        rules = rest_rules(self.resting)
        for i, name in enumerate(self.rest_done):
            if name not in rules["activities"]:
                raise StateError(f"field 'rest_done[{i}]' is not a {self.resting} rest "
                                 f"activity: {name!r}")
        if len(set(self.rest_done)) != len(self.rest_done):
            raise StateError("field 'rest_done' holds the same activity twice")
        if len(self.rest_done) > rules["choose"]:
            raise StateError(f"field 'rest_done' holds more than {rules['choose']} "
                             "activities")
        if bool(self.tended) != ("Tend to Wounds" in self.rest_done):
            raise StateError("field 'tended' names an ally exactly when 'rest_done' holds "
                             "Tend to Wounds")
        if self.tended:
            _state_label(self.tended, "tended")


    # -- reading the sheet --------------------------------------------------------------

    def why_not(self, move_name: str, *args: Any, **kwargs: Any) -> str | None:
        """The one-line reason the rules refuse ``move_name(*args, **kwargs)`` now, or None.

        The move is tried on a copy of the sheet, so nothing here changes (a move that
        rolls dice rolls them on the copy). An app disables a button whose move would be
        refused.

        >>> ash = Adventurer.new("Ash")
        >>> ash.why_not("spend_ap", "Strike")
        'Action Points: AP can only be spent on your own turn'
        >>> ash.start_turn()
        3
        >>> ash.why_not("spend_ap", "Strike") is None
        True
        """
        method = getattr(type(self), move_name, None)
        if not is_move(method):
            raise RuleError(f"Adventurer: {move_name} is not a move of the sheet")
        trial = type(self)(**{f.name: copy.deepcopy(getattr(self, f.name))
                              for f in dataclasses.fields(self)})
        try:
            getattr(trial, move_name)(*args, **kwargs)
        except CompanionError as exc:
            return str(exc)
        return None

    @property
    def active_conditions(self) -> list[str]:
        """Conditions in effect, including those another one brings (Unconscious → Prone)."""
        return implied(self.conditions)

    def has(self, state: str) -> bool:
        return state in self.active_conditions or state in self.statuses

    @property
    def exhaustion_penalty(self) -> int:
        return exhaustion_penalty(self.exhaustion)

    @property
    def effective_ac(self) -> int:
        """AC with Sundered (-2), Protected (+2) and the cover taken (partial: +2)."""
        cover = int(COVER[self.cover]["ac_bonus"]) if self.cover else 0
        return max(0, self.ac - 2 * self.has("Sundered") + 2 * self.has("Protected") + cover)

    @property
    def dodge_holds(self) -> bool:
        """Whether the character's Dodge gives its benefits now (taken, and not void: see
        [defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge])."""
        return self.dodging and not any(self.has(c) for c in DODGE_VOID)

    def as_defender(self) -> Defender:
        """This character as the target of an attack roll: its states in effect, its Dodge
        and its cover."""
        return Defender(self.name, tuple([*self.active_conditions, *self.statuses]),
                        self.dodging, self.cover)

    def check_modifier(self, ability: str = "luck", *, bonus: int = 0,
                       attack: bool = False) -> int:
        """Everything added to the d20 for a check with ``ability`` (``"none"`` for none)."""
        base = 0 if ability == "none" else getattr(self, _ability(ability))
        return (base + bonus + sum(self.ongoing.values()) + self.forward
                - 2 * self.has("Weakened") - 2 * (self.has("Frightened")
                                                  and not self.has("Weakened"))
                + 2 * (attack and self.has("Empowered")) - self.exhaustion_penalty)

    def build_check(self, ability: str = "luck", *, bonus: int = 0, dc: int | None = None,
                    advantage: bool = False, disadvantage: bool = False, steps: int = 0,
                    attack: bool = False, against: str = "",
                    target_cover: str = "", target: Defender | Adventurer | None = None,
                    within_touch: bool = True, save: bool = False) -> AbilityCheck:
        """The check this character would roll now (Prone/Blinded/Invisible on attacks).

        ``against``: for a check that relies on sight, what it is made against (a
        concealment state, or the light it is in); ``target_cover``: for an attack, the
        cover its target is in. ``target``: for an attack, the creature attacked (a
        [Defender][companion.rulesets.monsters_and_magic.adventurer.Defender], or a
        character's sheet): its Blinded, Prone and Dodge change the roll
        ([defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge]),
        its cover comes with it; ``within_touch``: whether the attacker is within touch
        range of it (5 feet; it matters against a Prone target), true unless said, as a
        melee attack always is (melee weapons reach no further). ``save``: the check is a
        saving throw (a dodging character's cunning saving throws have advantage). A check
        that fails automatically comes back with its reason in ``fails`` (it rolls no die).

        Interpretation (a note):

        - A thing in dim light is concealed, in darkness (magical or not) hidden, as the
          light rules say; senses that see past it are the table's to apply (pick the
          concealment they leave).
        - Concealed: -2 ongoing on the check. Hidden or undetected: the character counts as
          Blinded for it, so a sight-based check fails automatically and an attack is made
          with disadvantage.
        - Blinded: "ability checks that rely on sight automatically fail". A check relies
          on sight when it is made against something seen: ``against`` names what is
          looked at (a concealment or the light it is in, Bright Light included); a check
          that names nothing (a power roll to force a door, a luck roll) does not, so it
          rolls as usual. An attack roll does not fail: Blinded's own text gives the
          blinded attacker disadvantage instead, which would mean nothing if every attack
          failed.
        - Partial cover's "attacks against you are made with -2 ongoing" is applied to the
          attacker's check; total cover refuses a direct attack.
        """
        sight = _sight(against)
        fails = ""
        if sight == "Concealed":
            bonus += int(CONCEALMENT["Concealed"]["modifier"])
        elif sight:
            if not attack:
                fails = (f"Concealment: against something {sight.lower()} you count as "
                         "blinded, and a check that relies on sight fails")
            disadvantage = True
        if against and not attack and self.has("Blinded"):
            fails = f"Blinded: {self.name} cannot see, and a check that relies on sight fails"
        if save and attack:
            raise RuleError("Ability Checks: a check is an attack roll or a saving throw, "
                            "not both")
        defender = target.as_defender() if isinstance(target, Adventurer) else target
        if defender is not None:
            if not attack:
                raise RuleError("Attack Rolls: a target's conditions change attack rolls "
                                "against it, not other checks")
            if target_cover:
                raise RuleError("Cover: the target's cover comes with the target; name it "
                                "there, not beside it")
            target_cover = defender.cover
            edge = defender_edge(defender, within_touch=within_touch,
                                 attacker_seen=not self.has("Invisible"))
            advantage, disadvantage = advantage or edge[0], disadvantage or edge[1]
        if save and _ability(ability) == "cunning" and self.dodge_holds:
            advantage = True  # Dodge: cunning saving throws with advantage
        if target_cover:
            if target_cover not in COVER:
                raise RuleError(f"Cover: no cover called {target_cover!r} "
                                f"({', '.join(COVER)})")
            if not attack:
                raise RuleError("Cover: cover changes attacks against a creature, not checks")
            if target_cover == "Total Cover":
                raise RuleError("Cover: a creature in total cover cannot be targeted directly")
            bonus += int(COVER[target_cover]["attack_modifier"])
        if attack:
            disadvantage = (disadvantage or self.has("Prone") or self.has("Blinded")
                            or (self.underwater and not self.swimming_speed))
            advantage = advantage or self.has("Invisible")
        return AbilityCheck(self.check_modifier(ability, bonus=bonus, attack=attack), dc,
                            advantage, disadvantage, steps, fails=fails)

    # -- ability checks ------------------------------------------------------------------

    @move
    def roll_check(self, ability: str = "luck", bonus: int = 0, dc: int | None = None,
                   advantage: bool = False, disadvantage: bool = False, steps: int = 0,
                   attack: bool = False, seed: int | None = None,
                   rng: random.Random | None = None, against: str = "",
                   target_cover: str = "", target: Defender | None = None,
                   within_touch: bool = True, save: bool = False) -> AbilityCheckResult:
        """Roll an ability check; uses up forward, earns XP on a miss (``against``,
        ``target_cover``, ``target``, ``within_touch`` and ``save``: see [build_check][companion.rulesets.monsters_and_magic.adventurer.Adventurer.build_check];
        the target is given as a [Defender][companion.rulesets.monsters_and_magic.adventurer.Defender],
        which the log keeps as it was at the roll).

        Interpretation: a check that fails automatically (Blinded, or something hidden, on
        a check that relies on sight) rolls nothing and is a Miss on the results table, so
        it gives the miss's 1 XP (the table rewards failing, however it comes); forward is
        not used (no roll added it) and stays for the next check; there is no roll for Bend
        Luck or Feeling Lucky to act on afterwards.
        """  # noqa: E501
        self._alive("Ability Checks")
        check = self.build_check(ability, bonus=bonus, dc=dc, advantage=advantage,
                                 disadvantage=disadvantage, steps=steps, attack=attack,
                                 against=against, target_cover=target_cover, target=target,
                                 within_touch=within_touch, save=save)
        result = check.roll(seed=seed, rng=rng)
        if not result.automatic:
            self.forward = 0
        self._record(result)
        self._after_result(result.tier)
        self.describe(f"{self.name}: {ability} roll {result}")
        return result

    def _record(self, result: AbilityCheckResult) -> None:
        if result.natural is None or result.total is None:
            self.last_check = None  # an automatic failure: no roll to bend or replace
            return
        self.last_check = CheckRecord(result.check.expression, result.natural, result.total,
                                      result.check.effective_dc, result.tier.label)

    def _after_result(self, tier: Tier) -> None:
        if tier == Tier.MISS:
            self.xp = min(MAX_XP, self.xp + 1)
        elif tier == Tier.CRITICAL_MISS:
            self.xp = min(MAX_XP, self.xp + 2)
        elif tier == Tier.CRITICAL_HIT and "Inspired" not in self.statuses:
            self.statuses.append("Inspired")

    @move
    def take_cover(self, kind: str = "") -> None:
        """Get behind an ally or an object: partial cover (+2 AC on the sheet; attacks
        against the character take -2) or total cover (no direct attack); ``""`` leaves
        cover.

        Interpretation: cover lasts until the character leaves it (this move with ``""``);
        the seed gives no duration, and the position is the table's to track.
        """
        if kind not in COVER_KINDS:
            raise RuleError(f"Cover: no cover called {kind!r} ({', '.join(COVER)}, or none)")
        if kind == self.cover:
            raise RuleError(f"Cover: {self.name} is already "
                            + (f"in {kind.lower()}" if kind else "out of cover"))
        self.cover = kind
        self.describe(f"{self.name}: " + (f"takes {kind.lower()} (AC {self.effective_ac})"
                                          if kind else "leaves cover"))

    # -- ongoing, forward, hold -----------------------------------------------------------

    @move
    def add_ongoing(self, source: str, modifier: int) -> None:
        """An ongoing modifier from ``source``, until its condition is met."""
        source = _label(source, "Ongoing")
        if source in self.ongoing:
            raise RuleError(f"Ongoing: {self.name} already has an ongoing modifier "
                            f"from {source!r}")
        if len(self.ongoing) >= MAX_ENTRIES:
            raise RuleError(f"Ongoing: at most {MAX_ENTRIES} ongoing modifiers at once")
        self.ongoing[source] = _bounded(modifier, "Ongoing")
        self.describe(f"{self.name}: {modifier:+d} ongoing ({source})")

    @move
    def end_ongoing(self, source: str) -> None:
        if source not in self.ongoing:
            raise RuleError(f"Ongoing: {self.name} has no ongoing modifier from {source!r}")
        del self.ongoing[source]
        self.describe(f"{self.name}: ongoing modifier from {source} ends")

    @move
    def take_forward(self, modifier: int) -> None:
        """A modifier for the next check only (forwards add up)."""
        self.forward = _bounded(self.forward + modifier, "Forward")
        self.describe(f"{self.name}: {modifier:+d} forward (next check {self.forward:+d})")

    @move
    def gain_hold(self, kind: str, amount: int = 1) -> None:
        """Hold of a kind (arrows, prepared...); the same kind stacks."""
        kind = _label(kind, "Hold")
        if not 1 <= amount <= LIMIT:
            raise RuleError(f"Hold: gain 1-{LIMIT} hold at a time, not {amount}")
        if kind not in self.holds and len(self.holds) >= MAX_ENTRIES:
            raise RuleError(f"Hold: at most {MAX_ENTRIES} kinds of hold at once")
        if self.holds.get(kind, 0) + amount > _BIG:
            raise RuleError(f"Hold: at most {_BIG} {kind} hold")
        self.holds[kind] = self.holds.get(kind, 0) + amount
        self.describe(f"{self.name}: hold {amount} {kind} (now {self.holds[kind]})")

    @move
    def spend_hold(self, kind: str, amount: int = 1) -> None:
        have = self.holds.get(kind, 0)
        if amount < 1 or amount > have:
            raise RuleError(f"Hold: {self.name} holds {have} {kind}, cannot spend {amount}")
        if have == amount:
            del self.holds[kind]
        else:
            self.holds[kind] = have - amount
        self.describe(f"{self.name}: spends {amount} {kind} hold ({have - amount} left)")

    @move
    def use_prepared(self, from_hold: bool = False) -> None:
        """Become Prepared for a relevant roll and use it: +2 forward. Clears the Prepared
        status, or with ``from_hold`` spends one prepared hold (1:1)."""
        if from_hold:
            if self.holds.get("prepared", 0) < 1:
                raise RuleError(f"Prepared: {self.name} holds no prepared")
            self.spend_hold("prepared")
        elif "Prepared" not in self.statuses:
            raise RuleError(f"Prepared: {self.name} is not Prepared")
        else:
            self._drop("Prepared")
        self.forward = _bounded(self.forward + PREPARED_FORWARD, "Forward")
        self.describe(f"{self.name}: uses Prepared, {PREPARED_FORWARD:+d} forward "
                      f"(next check {self.forward:+d})")

    # -- threads of fate ------------------------------------------------------------------

    def _pay_thread(self, use: str, count: int, inspired: bool) -> str:
        if inspired:
            if count != 1:
                raise RuleError(f"{use}: Inspired stands in for one thread only")
            if "Inspired" not in self.statuses:
                raise RuleError(f"{use}: {self.name} is not Inspired")
            self._drop("Inspired")
            return "clears Inspired"
        if self.threads < count:
            raise RuleError(f"Threads of Fate: {self.name} has {self.threads} thread"
                            f"{'s' if self.threads != 1 else ''}, {use} needs {count}")
        self.threads -= count
        return f"spends {count} thread{'s' if count != 1 else ''}"

    @move
    def feeling_lucky(self, against_you: bool = False, dc: int | None = None,
                      inspired: bool = False, seed: int | None = None,
                      rng: random.Random | None = None) -> AbilityCheckResult:
        """Spend a thread: a luck roll replaces a check (the last one rolled here, or,
        with ``against_you``, one a creature made against this character).

        The luck roll is an ability check (a luck roll is one made with +LUCK), so in place
        of your own check its result gives what a check's result gives: a miss 1 XP, a
        critical miss 2 XP (and the GM a thread, through the table:
        [Party.spend_thread][companion.rulesets.monsters_and_magic.party.Party.spend_thread]),
        a critical hit Inspired. The thread spent goes to the GM as any thread does.

        Interpretation: the seed says the luck roll is "used instead of" the check, and a
        luck roll is an ability check, whose results table gives the XP; so the luck roll's
        result is the check's, XP and all. The XP of the replaced check stays earned (it
        was rolled and missed: the seed takes nothing back). With ``against_you`` the luck
        roll stands for a creature's check against the character: it gives the character
        no XP and the GM no thread (it is not the character's own check's result).

        >>> ash = Adventurer.new("Ash")
        >>> _ = ash.roll_check("power", seed=2)
        >>> xp = ash.xp
        >>> lucky = ash.feeling_lucky(rng=random.Random(1))
        >>> (lucky.tier.label, ash.xp - xp)
        ('Miss', 1)
        """
        self._alive("Feeling Lucky")
        if not against_you and self.last_check is None:
            raise RuleError("Feeling Lucky: there is no check of yours to replace")
        if dc is None and not against_you and self.last_check is not None:
            dc = self.last_check.dc
        paid = self._pay_thread("Feeling Lucky", 1, inspired)
        result = self.build_check("luck", dc=dc).roll(seed=seed, rng=rng)
        self.forward = 0  # the luck roll used it: forward ends after it is used
        if not against_you:
            self._record(result)
            self._after_result(result.tier)
        self.describe(f"{self.name}: Feeling Lucky ({paid}) — luck roll {result}")
        return result

    @move
    def bend_luck(self, against_you: bool = False, natural: int | None = None,
                  total: int | None = None, dc: int | None = None,
                  inspired: bool = False) -> tuple[int, Tier]:
        """Spend a thread: +LUCK to the last check rolled here, or -LUCK to one made
        against this character (give its ``natural`` face and ``total``)."""
        self._alive("Bend Luck")
        if against_you:
            if natural is None or total is None or not 1 <= natural <= 20:
                raise RuleError("Bend Luck: give the natural d20 (1-20) and total of the "
                                "check made against you")
        else:
            record = self.last_check
            if record is None:
                raise RuleError("Bend Luck: there is no check of yours to bend")
            if record.bent:
                raise RuleError("Bend Luck: that check has already been bent")
            natural, total, dc = record.natural, record.total, record.dc
        paid = self._pay_thread("Bend Luck", 1, inspired)
        bent, tier = bend_luck(natural=natural, total=total, luck=self.luck, dc=dc,
                               against_you=against_you)
        if not against_you and self.last_check is not None:
            self.last_check.total, self.last_check.tier = bent, tier.label
            self.last_check.bent = True
            if self.last_check.hidden:  # a hidden roll's total stays out of the history
                self.describe(f"{self.name}: Bend Luck ({paid}) on a hidden check")
                return bent, tier
        self.describe(f"{self.name}: Bend Luck ({paid}) — {total} → {bent}: {tier.label}")
        return bent, tier

    @move
    def lucky_find(self, what: str = "", cost: int = 1, inspired: bool = False) -> None:
        """Spend ``cost`` threads (the GM may ask for more) on a lucky find."""
        if not 1 <= cost <= LIMIT:
            raise RuleError(f"Lucky Find: the cost must be 1-{LIMIT} threads")
        paid = self._pay_thread("Lucky Find", cost, inspired)
        self.describe(f"{self.name}: Lucky Find ({paid}){': ' + what if what else ''}")

    @move
    def bonds_of_fate(self, other: str, inspired: bool = False) -> None:
        """Spend a thread to bring a +BOND into a roll, yours or theirs."""
        other = _label(other, "Bonds of Fate")
        paid = self._pay_thread("Bonds of Fate", 1, inspired)
        bond = self._bond(other) if any(b.with_whom == other for b in self.bonds) else None
        value = f", +BOND {bond.value:+d}" if bond else ""
        self.describe(f"{self.name}: Bonds of Fate with {other} ({paid}{value})")

    # -- bonds and reputation -------------------------------------------------------------

    def _bond(self, with_whom: str) -> Bond:
        for bond in self.bonds:
            if bond.with_whom == with_whom:
                return bond
        raise RuleError(f"Bonds: {self.name} has no bond with {with_whom!r}")

    @move
    def add_bond(self, with_whom: str, statement: str) -> None:
        """A new bond with another character: a statement of an imbalance; it starts at 0."""
        with_whom = _label(with_whom, "Bonds")
        statement = " ".join(str(statement).split())
        if not 1 <= len(statement) <= MAX_STATEMENT:
            raise RuleError(f"Bonds: a bond is a statement of 1-{MAX_STATEMENT} characters")
        if any(b.with_whom == with_whom for b in self.bonds):
            raise RuleError(f"Bonds: {self.name} already has a bond with {with_whom!r}; "
                            "resolve it instead")
        if len(self.bonds) >= MAX_ENTRIES:
            raise RuleError(f"Bonds: at most {MAX_ENTRIES} bonds on one sheet")
        self.bonds.append(Bond(with_whom, statement, 0))
        self.describe(f"{self.name}: bond with {with_whom} — {statement}")

    @move
    def resolve_bond(self, with_whom: str, change: int, statement: str = "") -> None:
        """At the end of a session, resolve one bond: its value moves by ``change`` (+1 if
        the imbalance resolved well, -1 if badly) and a new statement may replace it.

        Interpretation: the seed's "Ending a Session" section is not in the text; resolving
        is read as moving the bond's value by one, up or down, once per session
        ([end_session][companion.rulesets.monsters_and_magic.adventurer.Adventurer.end_session]
        opens the next).
        """
        bond = self._bond(with_whom)
        if self.bond_resolved:
            raise RuleError("Bonds: only one bond can be resolved each session")
        if change not in (-1, 1):
            raise RuleError(f"Bonds: a resolved bond moves by +1 or -1, not {change}")
        if abs(bond.value + change) > LIMIT:
            raise RuleError(f"Bonds: a bond's value stays within ±{LIMIT}")
        statement = " ".join(str(statement).split())
        if len(statement) > MAX_STATEMENT:
            raise RuleError(f"Bonds: a bond is a statement of 1-{MAX_STATEMENT} characters")
        bond.value += change
        if statement:
            bond.statement = statement
        self.bond_resolved = True
        self.describe(f"{self.name}: resolves the bond with {with_whom} "
                      f"(+BOND {bond.value:+d})")

    @move
    def end_session(self) -> None:
        """The session ends: a bond may be resolved again in the next one."""
        self.bond_resolved = False
        self.describe(f"{self.name}: the session ends")

    @move
    def change_reputation(self, group: str, change: int) -> None:
        """A major action gains (+1) or loses (-1) a point of reputation with a group; it is
        an ongoing modifier to social interactions with members who recognize you."""
        group = _label(group, "Reputation")
        if change not in (-1, 1):
            raise RuleError(f"Reputation: a major action gains or loses one point, not {change}")
        if group not in self.reputation and len(self.reputation) >= MAX_ENTRIES:
            raise RuleError(f"Reputation: at most {MAX_ENTRIES} groups on one sheet")
        value = self.reputation.get(group, 0) + change
        if abs(value) > LIMIT:
            raise RuleError(f"Reputation: a reputation stays within ±{LIMIT}")
        self.reputation[group] = value
        self.describe(f"{self.name}: reputation with {group} {value:+d}")

    # -- combat turns -------------------------------------------------------------------

    @move
    def start_turn(self) -> int:
        """Fresh AP (3, -1 Impaired, +1 Quickened) and reaction; Doomed and Invigorated act."""
        self._alive("Action Points")
        if self.in_turn:
            raise RuleError(f"Action Points: {self.name}'s turn has already started")
        self.in_turn = True
        self.reaction_used = False
        self.ap = max(0, AP_PER_TURN - self.has("Impaired") + self.has("Quickened"))
        notes = []
        if self.dodging:
            self.dodging = False  # Dodge lasts "until the start of your next turn"
            notes.append("Dodge ends")
        if self.has("Doomed"):
            self._mark_fatigue(1)
            notes.append("Doomed: marks 1 fatigue")
        if self.has("Invigorated") and self.fatigue > 0:
            self.fatigue -= 1
            notes.append("Invigorated: recovers 1 fatigue")
        self.describe(f"{self.name}: turn starts with {self.ap} AP"
                      + "".join(f"; {n}" for n in notes))
        return self.ap

    @move
    def spend_ap(self, technique: str = "", amount: int | None = None) -> int:
        """Spend AP on a technique (its cost from the basic techniques) or an amount.

        Dodge leaves the character dodging until the start of its next turn (see
        [defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge]);
        Move stands a Prone character up (Prone held through Unconscious cannot be stood
        out of: an unconscious creature is Stunned and spends no AP).

        Interpretation: standing up takes the Move technique itself (the seed's "taking
        the Move technique to stand up, spending ½ your maximum Speed"): the AP it costs
        is the technique's, and the half Speed is movement the table counts.
        """
        self._alive("Action Points")
        if not self.in_turn:
            raise RuleError("Action Points: AP can only be spent on your own turn")
        if self.has("Stunned"):
            raise RuleError(f"Stunned: {self.name} cannot spend AP")
        if self.has("Restrained"):
            raise RuleError(f"Restrained: {self.name} cannot spend AP until breaking free")
        label = technique
        if technique:
            cost, unit = technique_cost(technique)
            label = technique_name(technique)
            if unit != "AP":
                raise RuleError(f"Reactions: {label} is a reaction, not an AP technique")
            if amount is None:
                amount = cost
            elif amount < cost:
                raise RuleError(f"Basic Techniques: {label} costs at least {cost} AP")
        if amount is None or amount < 1:
            raise RuleError("Action Points: name a technique or spend at least 1 AP")
        if amount > self.ap:
            raise RuleError(f"Action Points: {self.name} has {self.ap} AP, "
                            f"{label or 'that'} needs {amount}")
        self.ap -= amount
        notes = []
        if label == "Dodge":
            self.dodging = True
            notes.append("dodging until the start of their next turn")
        if label == "Move" and "Prone" in self.conditions:
            self._drop("Prone")
            notes.append("stands up (half their maximum Speed), no longer Prone")
        self.describe(f"{self.name}: {label or 'action'} for {amount} AP ({self.ap} left)"
                      + "".join(f"; {n}" for n in notes))
        return self.ap

    @move
    def take_reaction(self, technique: str = "Opportunity Attack") -> None:
        """Take the one reaction allowed until the start of your next turn."""
        self._alive("Reactions")
        label = technique_name(technique)
        if technique_cost(label)[1] != "R":
            raise RuleError(f"Reactions: {label} costs AP, it is not a reaction")
        if self.has("Stunned"):
            raise RuleError(f"Stunned: {self.name} cannot take reactions")
        if self.reaction_used:
            raise RuleError(f"Reactions: {self.name} has already reacted since the start "
                            "of their last turn")
        self.reaction_used = True
        self.describe(f"{self.name}: reacts with {label}")

    @move
    def end_turn(self) -> None:
        if not self.in_turn:
            raise RuleError(f"Action Points: it is not {self.name}'s turn")
        self.in_turn = False
        left = self.ap
        self.ap = 0
        notes = self._tick()
        self.describe(f"{self.name}: turn ends ({left} AP unspent)"
                      + "".join(f"; {n}" for n in notes))

    @move
    def break_free(self, held: bool = False) -> None:
        """End Restrained by marking 3 fatigue on your turn; ``held``: the creature
        restraining you marks the same
        ([hold_restrained][companion.rulesets.monsters_and_magic.adventurer.Adventurer.hold_restrained])
        and you stay restrained, your fatigue marked all the same. At a table, a
        restrainer who is a character there pays on its own sheet in the same step
        ([Party.break_free][companion.rulesets.monsters_and_magic.party.Party.break_free]).

        Interpretation: the restrainer's "mark the same" is 3 fatigue, answered to each
        attempt (so each try costs both sides); a restraint with no creature behind it
        cannot be held this way.
        """
        if "Restrained" not in self.conditions:
            raise RuleError(f"Restrained: {self.name} is not restrained")
        if not self.in_turn:
            raise RuleError("Restrained: breaking free is done on your own turn")
        if held and not self.restrained_by:
            raise RuleError(f"Restrained: no creature holds {self.name} to mark the same")
        notes = self._mark_fatigue(BREAK_FREE_FATIGUE)
        tail = "".join(f"; {n}" for n in notes)
        if held:
            self.describe(f"{self.name}: marks {BREAK_FREE_FATIGUE} fatigue to break free, "
                          f"but {self.restrained_by} marks the same: still restrained{tail}")
            return
        self._drop("Restrained")
        self.describe(f"{self.name}: marks {BREAK_FREE_FATIGUE} fatigue and breaks free{tail}")

    @move
    def hold_restrained(self, target: str) -> None:
        """This character restrains ``target`` and marks 3 fatigue (the same as the target
        marks to break free) so the target stays restrained."""
        self._alive("Restrained")
        target = _label(target, "Restrained")
        if target.casefold() == self.name.casefold():
            raise RuleError("Restrained: a creature does not hold itself")
        notes = self._mark_fatigue(BREAK_FREE_FATIGUE)
        self.describe(f"{self.name}: marks {BREAK_FREE_FATIGUE} fatigue to keep {target} "
                      "restrained" + "".join(f"; {n}" for n in notes))

    # -- fatigue & exhaustion ---------------------------------------------------------------

    def _mark_fatigue(self, amount: int) -> list[str]:
        room = self.max_fatigue - self.fatigue
        self.fatigue += min(room, amount)
        spill = amount - min(room, amount)
        return self._mark_exhaustion(spill) if spill else []

    def _mark_exhaustion(self, amount: int) -> list[str]:
        notes: list[str] = []
        for _ in range(amount):
            if self.exhaustion < self.max_exhaustion:
                self.exhaustion += 1
            elif self.dying:
                self._die()
                notes.append("no exhaustion left while dying: dies")
                break
            elif not self.out_until_long_rest:
                self.out_until_long_rest = True
                if "Unconscious" not in self.conditions:
                    self.conditions.append("Unconscious")
                notes.append("no exhaustion left: unconscious until a long rest")
        return notes

    @move
    def mark_fatigue(self, amount: int = 1) -> None:
        """Mark fatigue; what does not fit spills into exhaustion."""
        self._alive("Fatigue & Exhaustion")
        _positive(amount, "Fatigue & Exhaustion")
        notes = self._mark_fatigue(amount)
        self.describe(f"{self.name}: marks {amount} fatigue ({self.fatigue}/{self.max_fatigue}"
                      f", exhaustion {self.exhaustion})" + "".join(f"; {n}" for n in notes))

    @move
    def clear_fatigue(self, amount: int = 1) -> None:
        _positive(amount, "Fatigue & Exhaustion")
        if amount > self.fatigue:
            raise RuleError(f"Fatigue & Exhaustion: {self.name} has only {self.fatigue} "
                            "fatigue to clear")
        self.fatigue -= amount
        self.describe(f"{self.name}: clears {amount} fatigue ({self.fatigue} left)")

    @move
    def mark_exhaustion(self, amount: int = 1) -> None:
        """Mark exhaustion; with none left: unconscious (or, while dying, death)."""
        self._alive("Fatigue & Exhaustion")
        _positive(amount, "Fatigue & Exhaustion")
        notes = self._mark_exhaustion(amount)
        self.describe(f"{self.name}: marks {amount} exhaustion ({self.exhaustion}/"
                      f"{self.max_exhaustion})" + "".join(f"; {n}" for n in notes))

    @move
    def recover_exhaustion(self, amount: int = 1) -> None:
        _positive(amount, "Fatigue & Exhaustion")
        if amount > self.exhaustion:
            raise RuleError(f"Fatigue & Exhaustion: {self.name} has only {self.exhaustion} "
                            "exhaustion to recover")
        self.exhaustion -= amount
        self.describe(f"{self.name}: recovers {amount} exhaustion ({self.exhaustion} left)")

    # -- harm, healing, dying -----------------------------------------------------------------

    def _die(self) -> None:
        self.dead = True
        self.dying = False
        self.deathsaves = 0

    def _take(self, amount: int, affinity: Affinity) -> tuple[int, list[str]]:
        taken = damage_after_armor(amount, ac=self.effective_ac, affinity=affinity)
        notes: list[str] = []
        if taken and self.temp_hp:
            absorbed = min(self.temp_hp, taken)
            self.temp_hp -= absorbed
            taken -= absorbed
            notes.append(f"{absorbed} temporary HP absorbed")
        if taken and self.dying:
            notes.append("damaged while dying: marks 1 exhaustion")
            notes += self._mark_exhaustion(1)
        elif taken and self.stable:
            # Damage to a stable creature: dying again (take_damage's Interpretation).
            self.stable = False
            self.dying = True
            notes.append("damaged while stable: dying again")
        self.hp = max(0, self.hp - taken)
        if self.hp == 0 and not self.dying and not self.stable and not self.dead:
            self.dying = True
            self.deathsaves = 0
            if "Unconscious" not in self.conditions:
                self.conditions.append("Unconscious")
            notes.append("drops to 0 HP: unconscious, prone and dying")
        return taken, notes

    @move
    def take_damage(self, amount: int, affinity: Affinity = "normal",
                    damage_type: str = "") -> int:
        """Take damage after AC (and resistance/vulnerability/immunity). ``damage_type``
        (fire, cold...): underwater, fire is resisted
        ([underwater_affinity][companion.rulesets.monsters_and_magic.harm_and_healing.underwater_affinity]).

        Interpretation: damage to a stabilized creature starts the dying again (its
        deathsave count from zero); the seed says only that a dying creature marks
        exhaustion when damaged.
        """
        self._alive("Harm & Healing")
        kind, affinity, note = self._damage_kind(damage_type, affinity)
        taken, notes = self._take(amount, affinity)
        self.describe(f"{self.name}: takes {taken}{' ' + kind if kind else ''} damage "
                      f"({amount} before AC {self.effective_ac}), HP {self.hp}/{self.max_hp}"
                      + note + "".join(f"; {n}" for n in notes))
        return taken

    def _damage_kind(self, damage_type: str, affinity: Affinity) -> tuple[str, Affinity, str]:
        """The damage type as written, the affinity it meets here (underwater, fire is
        resisted) and the log's note on any change."""
        kind = " ".join(str(damage_type).split()).lower()
        if len(kind) > MAX_NAME:
            raise RuleError(f"Harm & Healing: a damage type is at most {MAX_NAME} characters")
        if not self.underwater:
            return kind, affinity, ""
        wet = underwater_affinity(affinity, kind)
        return kind, wet, (f"; {kind} underwater: {wet}" if wet != affinity else "")

    @move
    def set_underwater(self, underwater: bool = True, swimming_speed: bool = False) -> None:
        """The character goes underwater (or comes out), with or without a swimming speed:
        while underwater, everything has resistance to fire damage, and the character's
        attack rolls are made with disadvantage unless it has a swimming speed.

        Interpretation: the seed's "Attacks with are made with disadvantage unless the
        creature has a" is cut off; read as attacks with weapons (every attack roll the
        sheet makes) at disadvantage unless the attacker has a swimming speed, the one
        speed the seed gives for moving through liquid with ease.
        """
        underwater, swimming_speed = bool(underwater), bool(swimming_speed)
        if (underwater, swimming_speed) == (self.underwater, self.swimming_speed):
            raise RuleError(f"Underwater Combat: {self.name} is already "
                            + ("underwater" if underwater else "out of the water")
                            + (" with a swimming speed" if swimming_speed else ""))
        self.underwater, self.swimming_speed = underwater, swimming_speed
        swim = (" with a swimming speed" if swimming_speed
                else ", attacks at disadvantage")
        self.describe(f"{self.name}: " + (f"underwater (fire damage resisted{swim})"
                                          if underwater else "out of the water"))

    def _heal(self, amount: int) -> int:
        before = self.hp
        self.hp = min(self.max_hp, self.hp + amount)
        if self.hp > 0 and (self.dying or self.stable):
            self.dying = self.stable = False
            self.deathsaves = 0
            if "Unconscious" in self.conditions and not self.out_until_long_rest:
                self._drop("Unconscious")
        return self.hp - before

    @move
    def heal(self, amount: int) -> int:
        """Regain HP (up to the total); 1 HP or more wakes a dying or stable creature."""
        self._alive("Harm & Healing")
        _positive(amount, "Harm & Healing")
        gained = self._heal(amount)
        self.describe(f"{self.name}: heals {gained} HP ({self.hp}/{self.max_hp})")
        return gained

    @move
    def set_death_roll_reading(self, reading: str) -> None:
        """Choose how death rolls are read: ``"sheet"`` (the sheet's modifiers, XP on a
        miss) or ``"bare"`` (LUCK and the exhaustion penalty only); see
        [death_roll][companion.rulesets.monsters_and_magic.adventurer.Adventurer.death_roll]."""
        if reading not in DEATH_ROLL_READINGS:
            raise RuleError(f"Death & Dying: no reading called {reading!r} "
                            f"({' or '.join(DEATH_ROLL_READINGS)})")
        self.death_roll_reading = reading
        self.describe(f"{self.name}: death rolls read '{reading}'")

    @move
    def gain_temp_hp(self, amount: int) -> None:
        """Gain temporary HP: lost first when damage gets past AC.

        Interpretation: the seed's "You may be granted temporary" is cut off; read as in
        5e, temporary HP do not add up: the higher of the old and new amount is kept.
        """
        self._alive("Temporary Hit Points")
        _positive(amount, "Temporary Hit Points")
        self.temp_hp = max(self.temp_hp, amount)
        self.describe(f"{self.name}: {self.temp_hp} temporary HP")

    @move
    def ally_helps_recover(self, ally: str) -> None:
        """An ally performs an action that lets this PC recover: a PC knocked out by
        exhaustion (none left to mark) wakes up.

        Interpretation: the seed's "or, for PCs, someone performs an action that lets you
        recover" wakes the PC whatever the action (first aid, a potion, a spell); the app
        records the action, the GM judges it.
        """
        ally = _label(ally, "Fatigue & Exhaustion")
        self._alive("Fatigue & Exhaustion")
        if not self.out_until_long_rest:
            raise RuleError(f"Fatigue & Exhaustion: {self.name} is not knocked out by "
                            "exhaustion")
        self.out_until_long_rest = False
        woke = not (self.dying or self.stable)
        if woke and "Unconscious" in self.conditions:
            self._drop("Unconscious")
        self.describe(f"{self.name}: {ally} helps them recover"
                      + (" — wakes up" if woke else " (still at 0 HP)"))

    @move
    def death_roll(self, seed: int | None = None, rng: random.Random | None = None
                   ) -> AbilityCheckResult:
        """A dying creature's roll: stabilize, gain deathsave, or mark exhaustion.

        Interpretation: the death roll is a luck check like any other, so it takes the
        sheet's modifiers (ongoing, forward — used up — Weakened, the exhaustion penalty)
        and a miss gives XP as a check's miss does. The sheet's *bare* death-roll option
        keeps the earlier reading (LUCK and the
        exhaustion penalty only, no XP).
        """
        self._alive("Death & Dying")
        if not self.dying:
            raise RuleError(f"Death & Dying: {self.name} is not dying")
        check = (death_roll_check(self.luck, self.exhaustion) if self.death_roll_reading
                 == "bare" else self.build_check("luck"))
        result = check.roll(seed=seed, rng=rng)
        self._record(result)
        if self.death_roll_reading != "bare":
            self.forward = 0
            self._after_result(result.tier)
        outcome, n = death_roll_outcome(result.tier)
        note = ""
        if outcome == "stabilize" or (outcome == "deathsave"
                                      and self.deathsaves + 1 >= DEATHSAVES_TO_STABILIZE):
            self.dying, self.stable, self.deathsaves = False, True, 0
            note = "stabilizes"
        elif outcome == "deathsave":
            self.deathsaves += 1
            note = f"deathsave {self.deathsaves}/{DEATHSAVES_TO_STABILIZE}"
        else:
            notes = self._mark_exhaustion(n)
            note = f"marks {n} exhaustion" + "".join(f"; {x}" for x in notes)
        self.describe(f"{self.name}: death roll {result} — {note}")
        return result

    @move
    def accept_deaths_bargain(self, bargain: str = "") -> None:
        """Accept Death's deal and stabilize (at 0 HP, unconscious)."""
        if not self.dead or self.passed_on:
            raise RuleError(f"Death & Dying: Death has no bargain for {self.name}")
        self.dead, self.stable, self.dying = False, True, False
        if "Unconscious" not in self.conditions:
            self.conditions.append("Unconscious")
        self.describe(f"{self.name}: accepts Death's bargain{': ' + bargain if bargain else ''}"
                      " and stabilizes")

    @move
    def refuse_deaths_bargain(self) -> None:
        if not self.dead or self.passed_on:
            raise RuleError(f"Death & Dying: Death has no bargain for {self.name}")
        self.passed_on = True
        self.describe(f"{self.name}: refuses Death's bargain and passes on")

    # -- conditions & statuses ------------------------------------------------------------------

    def _default_turns(self) -> int:
        """How many of the creature's turn ends a new state lasts: until the end of its
        next turn, so through this one and the next when given during its own turn."""
        return 2 if self.in_turn else 1

    def _drop(self, name: str) -> None:
        """A condition or status ends, however it ends: its duration and hold go with it."""
        for held in (self.conditions, self.statuses):
            if name in held:
                held.remove(name)
        self.durations.pop(name, None)
        if name == "Restrained":
            self.restrained_by = ""

    def _lasting(self, name: str, until_ended: bool) -> str:
        """Give a new state its duration; the log's note on it."""
        if until_ended:
            return " (until ended)"
        self.durations[name] = self._default_turns()
        return f" (until the end of {'their next' if self.in_turn else 'their coming'} turn)"

    def _tick(self) -> list[str]:
        """One of the creature's turns ends (or 6 seconds pass): timed states run down."""
        notes = []
        for name in list(self.durations):
            self.durations[name] -= 1
            if self.durations[name] > 0:
                continue
            if name == "Unconscious" and (self.dying or self.stable
                                          or self.out_until_long_rest):
                del self.durations[name]  # held now by dying or exhaustion, not by time
                continue
            self._drop(name)
            notes.append(f"{name} runs out")
        return notes

    @move
    def inflict(self, condition: str, until_ended: bool = False, by: str = "") -> None:
        """Add a condition; one already held is refused (extend or detonate it instead).

        It lasts until the end of the creature's next turn in combat, or 6 seconds
        ([end_turn][companion.rulesets.monsters_and_magic.adventurer.Adventurer.end_turn],
        [six_seconds_pass][companion.rulesets.monsters_and_magic.adventurer.Adventurer.six_seconds_pass]),
        unless ``until_ended`` (the effect says otherwise: it lasts until a rule or the GM
        ends it). ``by``: for Restrained, the creature holding the character (it may mark
        the same to stop an escape, see
        [break_free][companion.rulesets.monsters_and_magic.adventurer.Adventurer.break_free]).
        """
        name = condition_name(condition)
        if name in self.conditions:
            raise RuleError(f"Conditions: {self.name} is already {name}; extend it or "
                            "detonate it instead")
        holder = " ".join(str(by).split())
        if holder and name != "Restrained":
            raise RuleError(f"Conditions: only Restrained is held by a creature, not {name}")
        if holder:
            holder = _label(holder, "Restrained")
        self.conditions.append(name)
        self.restrained_by = holder if name == "Restrained" else self.restrained_by
        lasting = self._lasting(name, bool(until_ended))
        self.describe(f"{self.name}: becomes {name}{' (held by ' + holder + ')' if holder else ''}"
                      f"{lasting}")

    @move
    def extend(self, state: str) -> None:
        """Inflict a condition, or bestow a status, the creature already has, choosing to
        extend it: it lasts 1 turn longer. A status is extended only while its time left is
        no more than a new one would give; a state that lasts until ended has no duration
        to extend.

        Interpretation: one turn is one more of the creature's turn ends (6 more seconds
        out of combat); "what you'd bestow" is a new status of the usual length (to the end
        of the creature's next turn), the one length the sheet knows.
        """
        name = condition_name(state) if _is_condition(state) else status_name(state)
        if name not in self.conditions and name not in self.statuses:
            raise RuleError(f"Conditions & Statuses: {self.name} is not {name}; inflict or "
                            "bestow it instead")
        if name not in self.durations:
            raise RuleError(f"Conditions & Statuses: {self.name}'s {name} lasts until it is "
                            "ended; there is no duration to extend")
        left, fresh = self.durations[name], self._default_turns()
        if name in self.statuses and left > fresh:
            raise RuleError(f"Statuses: {self.name}'s {name} has {left} turns left, more than "
                            f"the {fresh} a new one would give; it cannot be extended")
        if left + 1 > LIMIT:
            raise RuleError(f"Conditions & Statuses: at most {LIMIT} turns")
        self.durations[name] = left + 1
        self.describe(f"{self.name}: {name} extended by 1 turn ({left + 1} turn ends left)")

    @move
    def six_seconds_pass(self) -> None:
        """Out of combat, 6 seconds pass: each state that runs out by time loses one turn's
        worth (a state lasts 6 seconds out of combat, as until the end of a next turn).

        Interpretation: a Dodge still held when the fight is over ends here too: 6 seconds
        are a round, and by then the dodger's next turn would have started."""
        if self.in_turn:
            raise RuleError("Conditions & Statuses: in combat, states run out as turns end "
                            "(end the turn)")
        if not self.durations and not self.dodging:
            raise RuleError(f"Conditions & Statuses: {self.name} has no state that runs out")
        notes = self._tick()
        if self.dodging:
            self.dodging = False
            notes.append("Dodge ends")
        self.describe(f"{self.name}: 6 seconds pass" + "".join(f"; {n}" for n in notes))

    @move
    def end_condition(self, condition: str) -> None:
        name = condition_name(condition)
        if name not in self.conditions:
            raise RuleError(f"Conditions: {self.name} is not {name}")
        if name == "Unconscious" and (self.dying or self.stable or self.out_until_long_rest):
            raise RuleError(f"Conditions: {self.name} stays unconscious "
                            + ("until a long rest or an ally's action lets them recover"
                               if self.out_until_long_rest else "until healed"))
        self._drop(name)
        self.describe(f"{self.name}: is no longer {name}")

    @move
    def detonate(self, condition: str, seed: int | None = None,
                 rng: random.Random | None = None, damage_type: str = "") -> int:
        """End a held condition at once for 1d10 damage (taken after AC) of the attack's
        ``damage_type`` (fire is resisted underwater, as in
        [take_damage][companion.rulesets.monsters_and_magic.adventurer.Adventurer.take_damage])."""
        self._alive("Conditions")
        name = condition_name(condition)
        kind, affinity, wet = self._damage_kind(damage_type, "normal")
        if name not in self.conditions:
            raise RuleError(f"Conditions: {self.name} is not {name}, nothing to detonate")
        if name == "Unconscious" and (self.dying or self.stable or self.out_until_long_rest):
            raise RuleError(f"Conditions: {self.name}'s unconsciousness cannot be detonated")
        self._drop(name)
        rolled = roll(DETONATE_DAMAGE, seed=seed, rng=rng)
        taken, notes = self._take(rolled.total, affinity)
        self.describe(f"{self.name}: {name} detonates for {rolled} → {taken}"
                      f"{' ' + kind if kind else ''} damage, HP {self.hp}/{self.max_hp}"
                      + wet + "".join(f"; {n}" for n in notes))
        return taken

    @move
    def add_state(self, name: str, until_ended: bool = False) -> None:
        """Add a condition or a status, whichever ``name`` is (the rules of each apply)."""
        if _is_condition(name):
            self.inflict(name, until_ended)
        else:
            self.bestow(name, until_ended)

    @move
    def remove_state(self, name: str) -> None:
        """End a condition or a status, whichever ``name`` is."""
        if _is_condition(name):
            self.end_condition(name)
        else:
            self.end_status(name)

    @move
    def bestow(self, status: str, until_ended: bool = False) -> None:
        """Add a status; one already held is refused (extend it instead). It runs out as a
        condition does (see
        [inflict][companion.rulesets.monsters_and_magic.adventurer.Adventurer.inflict])."""
        name = status_name(status)
        if name in self.statuses:
            raise RuleError(f"Statuses: {self.name} is already {name}; extend it instead")
        self.statuses.append(name)
        lasting = self._lasting(name, bool(until_ended))
        self.describe(f"{self.name}: becomes {name}{lasting}")

    @move
    def end_status(self, status: str) -> None:
        name = status_name(status)
        if name not in self.statuses:
            raise RuleError(f"Statuses: {self.name} is not {name}")
        self._drop(name)
        self.describe(f"{self.name}: is no longer {name}")

    # -- supplies and rests -------------------------------------------------------------------

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_numbers(self, focus: int, power: int, cunning: int, luck: int, max_hp: int,
                    ac: int, max_threads: int, max_fatigue: int, max_exhaustion: int,
                    supplies: int) -> None:
        """Write the sheet's real numbers (abilities, totals, boxes, supplies).

        Current HP, threads, fatigue and exhaustion keep their values, capped at the new
        totals (a creature at 0 HP stays there).
        """
        for label, value, low, high in (
                ("focus", focus, -LIMIT, LIMIT), ("power", power, -LIMIT, LIMIT),
                ("cunning", cunning, -LIMIT, LIMIT), ("luck", luck, -LIMIT, LIMIT),
                ("max HP", max_hp, 1, _BIG), ("AC", ac, 0, LIMIT),
                ("threads", max_threads, 0, LIMIT), ("fatigue boxes", max_fatigue, 0, LIMIT),
                ("exhaustion boxes", max_exhaustion, 0, LIMIT), ("supplies", supplies, 0, _BIG)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise RuleError(f"Sheet: {label} must be a whole number from {low} to {high}, "
                                f"not {value!r}")
        self.focus, self.power, self.cunning, self.luck = focus, power, cunning, luck
        self.max_hp, self.ac, self.max_threads = max_hp, ac, max_threads
        self.max_fatigue, self.max_exhaustion, self.supplies = (max_fatigue, max_exhaustion,
                                                                supplies)
        self.hp = min(self.hp, max_hp)
        self.threads = min(self.threads, max_threads)
        self.fatigue = min(self.fatigue, max_fatigue)
        self.exhaustion = min(self.exhaustion, max_exhaustion)
        self.describe(f"{self.name}: FOC {focus:+d} POW {power:+d} CUN {cunning:+d} "
                      f"LCK {luck:+d}, HP {self.hp}/{max_hp}, AC {ac}, threads "
                      f"{self.threads}/{max_threads}, supplies {supplies}")

    @move
    def spend_supplies(self, amount: int, on: str = "") -> None:
        """Spend supplies on something the sheet does not follow (an ally's wounds...)."""
        _positive(amount, "Supplies")
        if amount > self.supplies:
            raise RuleError(f"Supplies: {self.name} has only {self.supplies} supply")
        self.supplies -= amount
        self.describe(f"{self.name}: spends {amount} supply{' on ' + on if on else ''} "
                      f"({self.supplies} left)")

    @move
    def gain_supplies(self, amount: int = 1) -> None:
        _positive(amount, "Supplies")
        self.supplies = min(_BIG, self.supplies + amount)
        self.describe(f"{self.name}: gains {amount} supply ({self.supplies})")

    def _already(self) -> str:
        """What this character has already done toward the rest begun (for refusals)."""
        return f"{self.name} tended {self.tended}'s wounds in this rest"

    def _same_rest(self, kind: str, what: str) -> None:
        """Refuse a rest of another kind while one is begun (an ally tended in it)."""
        if self.resting and self.resting != kind:
            raise RuleError(f"{what}: {self._already()}, as part of a {self.resting} rest: "
                            f"take that rest before a {kind} rest")

    def _choices(self, kind: str, chosen: list[str]) -> list[str]:
        rules = rest_rules(kind)
        names = [activity_name(kind, c) for c in chosen]
        if len(set(names)) != len(names):
            raise RuleError(f"Rest & Recovery: each {kind} rest activity can be chosen once")
        for name in names:
            if name in self.rest_done:
                raise RuleError(f"Rest & Recovery: each {kind} rest activity can be chosen "
                                f"once, and {self._already()} (its {name})")
        total = len(names) + len(self.rest_done)
        if total > rules["choose"]:
            allows = (f"Rest & Recovery: {'an' if kind[0] in 'aeiou' else 'a'} {kind} rest "
                      f"allows {rules['choose']} "
                      f"activit{'ies' if rules['choose'] != 1 else 'y'}, not {total}")
            if self.rest_done:
                allows += f": {self._already()}"
            raise RuleError(allows)
        return names

    def _rest_over(self) -> None:
        self.resting, self.rest_done, self.tended = "", [], ""
        # Every check is settled by the rest's end (the module's Interpretation).
        self.last_check = None

    def _rest_check(self, dc: int | None, rng: random.Random) -> AbilityCheckResult:
        """A rest's focus roll: an ability check like any other, so it uses up forward."""
        result = AbilityCheck(self.check_modifier("focus"), dc).roll(rng=rng)
        self.forward = 0
        return result

    def _rest_result(self, tier: Tier) -> None:
        """A rest roll's result, read on the results table (XP, Inspired), kept for the
        table (the GM's thread on a critical miss)."""
        self._after_result(tier)
        if self.rest_results is None:
            self.rest_results = RestResults()
        self.rest_results.tiers.append(tier.label)

    def _gather(self, rng: random.Random) -> str:
        result = self._rest_check(None, rng)
        self._rest_result(result.tier)
        found = 2 if result.tier >= Tier.STRONG_HIT else 1 if result.tier.is_hit else 0
        self.supplies = min(_BIG, self.supplies + found)
        return f"gathers {found} supply ({result})"

    def _take_watch(self, dc: int | None, rng: random.Random) -> str:
        result = self._rest_check(dc, rng)
        if dc is not None:
            self._rest_result(result.tier)
            return f"takes watch ({result})"
        if result.tier in (Tier.CRITICAL_HIT, Tier.CRITICAL_MISS):
            # A natural 20 or 1 reads the same whatever the hidden DC.
            self._rest_result(result.tier)
            return f"takes watch ({result.total}, a {result.tier.label}; the GM keeps the DC)"
        return f"takes watch ({result.total}; the GM compares it with the hidden DC)"

    def _prepare(self, with_party: bool) -> str:
        if with_party:
            self.holds["prepared"] = self.holds.get("prepared", 0) + 2
            return "holds 2 prepared"
        if "Prepared" not in self.statuses:
            self.statuses.append("Prepared")
        return "is Prepared"

    def _tend(self, supplies: int, limit: int | None) -> str:
        if supplies < 0 or (limit is not None and supplies > limit):
            raise RuleError(f"Tend to Wounds: spend 0-{limit} supply on a short rest")
        if supplies > self.supplies:
            raise RuleError(f"Tend to Wounds: {self.name} has only {self.supplies} supply")
        self.supplies -= supplies
        gained = self._heal(supplies * heal_per_supply(self.max_hp))
        return f"tends wounds with {supplies} supply (+{gained} HP)"

    def _long_rest_end(self) -> list[str]:
        self.threads = self.max_threads
        self.short_rests_in_a_row = 0
        notes = [f"threads back to {self.threads}"]
        if self.out_until_long_rest:
            self.out_until_long_rest = False
            if "Unconscious" in self.conditions and not (self.dying or self.stable):
                self._drop("Unconscious")
            notes.append("wakes up")
        return notes

    def _rest_allowed(self, what: str) -> None:
        self._alive(what)
        if self.in_turn:
            raise RuleError(f"{what}: end the turn before resting")

    def _short_rest_allowed(self) -> None:
        limit = rest_rules("short")["max_in_a_row"]
        if self.short_rests_in_a_row >= limit:
            raise RuleError(f"Short Rest: no more than {limit} short rests in a row before "
                            "a long rest")

    @move
    def tend_ally(self, ally: str, supplies: int, rest: str = "short") -> int:
        """Tend to Wounds on an ally as one of this character's two activities of a short
        or long rest: spend the supplies (at most 2 on a short rest). Returns the supplies
        spent; the ally heals a quarter of their total HP per supply (the table's move,
        [Party.tend_ally][companion.rulesets.monsters_and_magic.party.Party.tend_ally]).

        The rest is then begun: this character's own rest of that kind takes only the
        activities left (one), Tend to Wounds not again, and no rest of another kind comes
        first. The ally's own rest is not touched: being tended is not their activity.

        Interpretation: one Tend to Wounds heals one creature, "yourself or an ally".

        >>> bo = Adventurer.new("Bo", supplies=2)
        >>> bo.tend_ally("Al", 1)
        1
        >>> print(bo.why_not("short_rest", ["Clear Fatigue", "Prepare"]))
        Rest & Recovery: a short rest allows 2 activities, not 3: Bo tended Al's wounds in this rest
        >>> bo.short_rest(["Clear Fatigue"])
        ["tended Al's wounds", 'clears 0 fatigue']
        """
        ally = _label(ally, "Tend to Wounds")
        if ally.casefold() == self.name.casefold():
            raise RuleError("Tend to Wounds: tending yourself is part of your own rest")
        if rest not in ("short", "long"):
            raise RuleError("Tend to Wounds: it is a short or long rest activity")
        self._rest_allowed("Tend to Wounds")
        self._same_rest(rest, "Tend to Wounds")
        if rest == "short":
            self._short_rest_allowed()
        if "Tend to Wounds" in self.rest_done:
            raise RuleError(f"Tend to Wounds: it is one activity, chosen once a rest, and "
                            f"{self._already()}")
        choose = rest_rules(rest)["choose"]
        if len(self.rest_done) >= choose:
            raise RuleError(f"Tend to Wounds: a {rest} rest allows {choose} activities "
                            f"and {self.name} has made them")
        if isinstance(supplies, bool) or not isinstance(supplies, int) or supplies < 0 or (
                rest == "short" and supplies > 2):
            raise RuleError("Tend to Wounds: spend 0-2 supply on a short rest"
                            if rest == "short" else
                            "Tend to Wounds: spend a whole number of supply, 0 or more")
        if supplies > self.supplies:
            raise RuleError(f"Supplies: {self.name} has only {self.supplies} supply")
        self.supplies -= supplies
        self.resting = rest
        self.rest_done.append("Tend to Wounds")
        self.tended = ally
        self.describe(f"{self.name}: tends {ally}'s wounds with {supplies} supply "
                      f"({self.supplies} left) — Tend to Wounds, one of the {rest} rest's "
                      f"{choose} activities")
        return supplies

    @move
    def short_rest(self, activities: list[str], supplies: int = 0,
                   prepare_with_party: bool = False, seed: int | None = None,
                   rng: random.Random | None = None) -> list[str]:
        """A 1-hour rest with up to two activities; at most 3 in a row."""
        self._rest_allowed("Short Rest")
        self._same_rest("short", "Short Rest")
        self._short_rest_allowed()
        chosen = self._choices("short", activities)
        rng = make_rng(seed, rng)
        self.rest_results = None  # this rest's rolls only
        notes: list[str] = []
        for name in chosen:
            if name == "Tend to Wounds":
                notes.append(self._tend(supplies, 2))
            elif name == "Clear Fatigue":
                cleared = min(2, self.fatigue)
                self.fatigue -= cleared
                notes.append(f"clears {cleared} fatigue")
            elif name == "Gather Supplies":
                notes.append(self._gather(rng))
            elif name == "Prepare":
                notes.append(self._prepare(prepare_with_party))
        if self.tended:
            notes.insert(0, f"tended {self.tended}'s wounds")
        self._rest_over()
        self.short_rests_in_a_row += 1
        self.describe(f"{self.name}: short rest — " + ("; ".join(notes) or "rests"))
        return notes

    @move
    def long_rest(self, activities: list[str], heal_supplies: int = 0,
                  exhaustion_supplies: int = 0, prepare_with_party: bool = False,
                  seed: int | None = None, rng: random.Random | None = None,
                  watch_dc: int | None = None) -> list[str]:
        """An 8-hour rest with up to two activities; threads come back, hold ends.

        ``watch_dc``: the GM's hidden DC for Take Watch, when the GM gives it to the sheet.

        Interpretation: Take Watch's focus roll is read on the results table against the
        GM's hidden DC: given the DC, the sheet applies the result as any check's (1 XP on
        a miss...); without it, only a natural 20 or a natural 1 (critical whatever the DC)
        is applied, and the GM judges the rest from the total.
        """
        self._rest_allowed("Long Rest")
        self._same_rest("long", "Long Rest")
        chosen = self._choices("long", activities)
        if watch_dc is not None and (isinstance(watch_dc, bool) or not isinstance(
                watch_dc, int) or abs(watch_dc) > LIMIT):
            raise RuleError(f"Take Watch: the hidden DC is a whole number within ±{LIMIT}")
        if watch_dc is not None and "Take Watch" not in chosen:
            raise RuleError("Long Rest: a watch DC is for Take Watch, which is not chosen")
        if exhaustion_supplies and "Clear Fatigue" not in chosen:
            raise RuleError("Long Rest: supply recovers exhaustion only with Clear Fatigue")
        if heal_supplies and "Tend to Wounds" not in chosen:
            raise RuleError("Long Rest: supply heals only with Tend to Wounds")
        if heal_supplies + exhaustion_supplies > self.supplies:
            raise RuleError(f"Long Rest: {self.name} has only {self.supplies} supply")
        if exhaustion_supplies < 0 or exhaustion_supplies > self.exhaustion:
            raise RuleError(f"Clear Fatigue: {self.name} has {self.exhaustion} exhaustion "
                            f"to recover, not {exhaustion_supplies}")
        rng = make_rng(seed, rng)
        self.rest_results = None  # this rest's rolls only
        # Hold lasts until a long rest: it ends as the rest begins, before any new hold.
        self.holds = {}
        notes: list[str] = []
        for name in chosen:
            if name == "Tend to Wounds":
                notes.append(self._tend(heal_supplies, None))
            elif name == "Clear Fatigue":
                self.fatigue = 0
                self.supplies -= exhaustion_supplies
                self.exhaustion -= exhaustion_supplies
                notes.append(f"clears all fatigue, recovers {exhaustion_supplies} exhaustion")
            elif name == "Gather Supplies":
                notes.append(self._gather(rng))
            elif name == "Take Watch":
                notes.append(self._take_watch(watch_dc, rng))
            elif name == "Prepare":
                notes.append(self._prepare(prepare_with_party))
            else:
                notes.append(name.lower())
        if self.tended:
            notes.insert(0, f"tended {self.tended}'s wounds")
        self._rest_over()
        notes += self._long_rest_end()
        self.describe(f"{self.name}: long rest — " + "; ".join(notes))
        return notes

    @move
    def extended_rest(self, activity: str | list[str]) -> list[str]:
        """A 12-hour rest with one activity (a name, or a list of at most one);
        Recuperate heals fully."""
        self._rest_allowed("Extended Rest")
        self._same_rest("extended", "Extended Rest")
        chosen = self._choices("extended", [activity] if isinstance(activity, str)
                               else list(activity))
        self.rest_results = None  # no rolls in an extended rest
        self.holds = {}
        notes: list[str] = []
        for name in chosen:
            notes.append(self._extended_activity(name))
        self.last_check = None  # settled by the rest's end (the module's Interpretation)
        notes += self._long_rest_end()
        self.describe(f"{self.name}: extended rest — " + "; ".join(notes))
        return notes

    def _extended_activity(self, name: str) -> str:
        if name == "Recuperate":
            self._heal(self.max_hp)
            self.fatigue = 0
            recovered = min(2, self.exhaustion)
            self.exhaustion -= recovered
            return f"recuperates: full HP, no fatigue, {recovered} exhaustion recovered"
        return name.lower()

    # -- guards -------------------------------------------------------------------------------

    def _alive(self, rule: str) -> None:
        if self.dead:
            raise RuleError(f"{rule}: {self.name} is dead (Death's bargain is pending)"
                            if not self.passed_on else f"{rule}: {self.name} has passed on")


@dataclass
class GameMaster(Tracker):
    """The GM's threads of fate (the seed's cut-off "Whenever you spend a ...", as read in
    [threads_of_fate][companion.rulesets.monsters_and_magic.threads_of_fate])."""

    kind: ClassVar[str] = "MonstersAndMagicGM"

    threads: int = state_field(0, min=0, max=LIMIT)
    reading: str = state_field(GM_THREAD_READINGS[0], choices=GM_THREAD_READINGS)

    @property
    def can_spend(self) -> bool:
        """Whether the GM has a thread to spend."""
        return self.threads >= 1

    @property
    def can_gain(self) -> bool:
        """Whether another thread would count (the GM holds at most ``LIMIT``)."""
        return self.threads < LIMIT

    @move
    def gain_thread(self, amount: int = 1, reason: str = "") -> None:
        _positive(amount, "Threads of Fate")
        self.threads = min(LIMIT, self.threads + amount)
        self.describe(f"GM gains {amount} thread{'s' if amount != 1 else ''}"
                      f"{' (' + reason + ')' if reason else ''}: {self.threads}")

    @move
    def set_reading(self, reading: str) -> None:
        """Choose how the cut-off "Whenever you spend a ..." is read (see
        [player_spent][companion.rulesets.monsters_and_magic.adventurer.GameMaster.player_spent])."""
        if reading not in GM_THREAD_READINGS:
            raise RuleError(f"Threads of Fate: no reading called {reading!r} "
                            f"({' or '.join(GM_THREAD_READINGS)})")
        self.reading = reading
        self.describe(f"GM's threads: reading '{reading}'")

    @move
    def player_spent(self, count: int = 1) -> int:
        """A player spent ``count`` threads (or Inspired in place of one): the GM gains as
        many. Returns the threads gained.

        Interpretation: the GM's section starts "Whenever you spend a" and stops; read
        (``reading = "player spends"``, the default) as "whenever a player spends a thread,
        the GM gains one". The earlier reading, ``"uses only"``, takes the sentence as the
        start of the list of the GM's own uses: a player's spending gives the GM nothing.
        """
        _positive(count, "Threads of Fate")
        if self.reading != GM_THREAD_READINGS[0]:
            self.describe("a player spends a thread (the GM gains none under this reading)")
            return 0
        self.gain_thread(count, "a player spent a thread")
        return count

    def note_result(self, tier: Tier) -> bool:
        """A player's check result: a critical miss gives the GM a thread. Returns whether a
        thread was gained.

        Interpretation: the critical miss's cut-off "Gain 2 XP and" is read as 2 XP for the
        player and one thread of fate for the GM.
        """
        if tier != Tier.CRITICAL_MISS:
            return False
        self.gain_thread(1, "a player's critical miss")
        return True

    @move
    def spend_thread(self, use: str) -> None:
        """Spend a thread on one of the GM's three uses."""
        for known in GM_USES:
            if known.lower() == use.strip().lower():
                break
        else:
            raise RuleError(f"Threads of Fate: the GM's threads are for {'; '.join(GM_USES)}")
        if not self.can_spend:
            raise RuleError("Threads of Fate: the GM has no thread to spend")
        self.threads -= 1
        self.describe(f"GM spends a thread: {known} ({self.threads} left)")

    @move
    def reroll_check(self, check: AbilityCheck, seed: int | None = None,
                     rng: random.Random | None = None) -> AbilityCheckResult:
        """Spend a thread to reroll an ability check (keep either result)."""
        self.spend_thread(GM_USES[0])
        result = check.roll(seed=seed, rng=rng)
        self.describe(f"GM spends a thread to reroll: {result} ({self.threads} left)")
        return result


def _ability(name: str) -> str:
    key = name.strip().lower().lstrip("+")
    if key not in ABILITIES:
        raise RuleError(f"Abilities: {name!r} is not an ability ({', '.join(ABILITIES)})")
    return key


def _label(text: str, rule: str) -> str:
    text = " ".join(str(text).split())
    if not text or len(text) > MAX_NAME:
        raise RuleError(f"{rule}: a name must be 1-{MAX_NAME} characters")
    return text


def _is_condition(name: str) -> bool:
    return str(name).strip().lower() in {c.lower() for c in CONDITIONS}


def _state_label(text: str, field_name: str) -> None:
    if text != " ".join(text.split()) or not 1 <= len(text) <= MAX_NAME:
        raise StateError(f"field '{field_name}' has a name that is not 1-{MAX_NAME} "
                         "characters")


def _bounded(value: int, rule: str) -> int:
    if not isinstance(value, int) or abs(value) > LIMIT:
        raise RuleError(f"{rule}: a modifier must be a whole number within ±{LIMIT}")
    return value


def _positive(amount: int, rule: str) -> None:
    if not isinstance(amount, int) or not 1 <= amount <= LIMIT:
        raise RuleError(f"{rule}: the amount must be 1-{LIMIT}, got {amount!r}")


def _sight(against: str) -> str:
    """The concealment a sight-based check meets (``""`` for none): a concealment state as
    it is, a light level read by the light rules."""
    if against not in SIGHT:
        raise RuleError(f"Perception and Detection: a sight-based check is against one of "
                        f"{', '.join(s for s in SIGHT if s)}, not {against!r}")
    if against in LIGHT:
        seen = visibility(against)
        return "" if seen == "seen" else seen.capitalize()
    return against
