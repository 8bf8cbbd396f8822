"""Combat: rounds, initiative, attacks, gambits, maneuvers, morale and detachments.

A **round** (about 6 to the minute) gives each combatant a move and one action: cast,
attack, fetch gear, move again or make a maneuver. Players declare before dice are
rolled; their actions resolve together, then the enemy acts.

**Initiative**: the fiction decides which side acts first
([Encounter.begin][companion.rulesets.cairn_srd.combat.Encounter.begin]). When that is
in doubt, every PC who was not surprised by an ambush saves DEX *over their Armor* (each
point of Armor costs 5 %); those who pass act before the enemy, then the enemy and all
PCs alternate. Procedure: (1) DEX saves to act first,
(2) enemies act together, (3) all PCs act together, alternating, (4) until one side is
destroyed, surrenders or flees.

**Attacks** roll the weapon die; Armor, Guard and STR take it as in
[damage][companion.rulesets.cairn_srd.damage].
*Impaired* attacks (weakness: bound hands, cover) roll d4, *enhanced* ones (strength: a
daring move, a helpless foe) roll d12; unarmed is always d4. Several attackers on one
target, or two weapons at once: roll every die and keep the single highest. *Blast*
attacks roll separately for every target in the area.

**Gambits**: a weapon die of 4+ may be discarded for an effect (+1 damage, move after,
repel, pin, impair the foe's weapon...): with 4-7 the target saves if it is forced or
directly affected; with 8+ it simply works. **Weapon mastery** comes after inflicting
Critical Damage on 5 foes with a weapon and unlocks one of its feats; each further 5
unlocks another (6 feats: 30). A **maneuver** replaces an attack: the target saves
against it and the attacker saves or takes a Fatigue either way. Escaping a doomed fight
takes a DEX save and somewhere safe to go.

**Morale**: enemies (and allied NPCs, never PCs) save CTRL to stay in the fight after a
major setback: a lone foe at 0 Guard; a group at its first casualty, at half its number
lost, or when its leader falls. Some groups use their leader's CTRL; some never check.

**Detachments**: a large group fights as one statline. Critical Damage routs it, 0 STR
destroys it. Individuals attacking a detachment are impaired (blasts excepted);
a detachment attacking individuals is enhanced and deals blast damage.

Interpretation: an attack both impaired and enhanced uses the weapon's own die. A second
weapon strikes from its wielder's position: against a detachment, or while the wielder
panics, both weapons' dice are impaired (d4 each) and the higher is kept.

Interpretation: when the fiction says the PCs act first, the whole PCs' side (allied NPCs
too: "a side's actions all occur simultaneously") acts before the enemy in round 1, as PCs
who pass initiative do; PCs caught by surprise do not. When it says the enemy acts first,
the round opens with the enemy and no PC acts before it. Naming as surprised someone who
is no player character of the fight is refused.
A gambit discards one rolled weapon die (see
[Encounter.attack][companion.rulesets.cairn_srd.combat.Encounter.attack] with
``hold_for_gambits`` and
[Encounter.resolve_attack][companion.rulesets.cairn_srd.combat.Encounter.resolve_attack]): the
highest die *kept* deals the damage, so a lone die
spent on a gambit deals none, and "+1 damage" needs a kept die to bolster. A blast over
several targets is one attacker's weapon rolled for each target: it has no joined
attackers, second weapon or unarmed strike, and its dice are not held for gambits.
Naming the attacker or the target among those who join the attack adds nothing. Impaired,
enhanced and unarmed, chosen for a group, apply to every attacker's die (and to a second
weapon's, except unarmed, which has none). A failed
group morale save sends every remaining member of that group off the field ("fled").
A player character the fight does not know a sheet for keeps its own Guard and STR here;
its scars, a maneuver's Fatigue and its critical kills wait in ``sheet_due`` for the
player to write on their sheet.

**The party in the fight.** A fight played at a campaign's table is *linked* to the party's
sheets: the ruleset declares that a fight reads ``Character`` trackers
([Tracker.links][companion.state.Tracker.links]), and the campaign seats each of its
trackers at its table of members by id as it opens
([Tracker.link][companion.state.Tracker.link]; without a campaign, a plain dict of
trackers does the same). A player character whose name is a sheet's at the table *is*
that character. The fight reads its Guard,
STR, DEX, CTRL, Armor, panic and condition off the
[Character][companion.rulesets.cairn_srd.character.Character] sheet at the moment it needs
them, and what the fight does to it is the sheet's own move: a hit is
[Character.take_damage][companion.rulesets.cairn_srd.character.Character.take_damage] (so a
doomed scar makes a failed Critical Damage save deadly, and a scar's effect lands at once),
a failed maneuver save is
[Character.take_fatigue][companion.rulesets.cairn_srd.character.Character.take_fatigue],
and a foe critically damaged counts on
[Character.record_critical_kill][companion.rulesets.cairn_srd.character.Character.record_critical_kill].
The fight and the sheet therefore cannot disagree: there is one character and one state.
A full burden, a cumbersome load or panic make the character's Guard count as 0 (the
stored Guard returns when the cause goes), and a panicking attacker's attacks are impaired.
The saved fight keeps only who its combatants are (a name); the link is resolved anew when
the table is opened, and a fight opened alone (the standalone app, a file) plays on the
numbers the combatant joined with.

Interpretation (the party in the fight):

- A linked character's condition is the sheet's: dead on the sheet is dead in the fight,
  Critical Damage on the sheet (a failed save, an "Out of action" scar) is "critical" in
  the fight, and neither can act or be attacked; a character out of play on the sheet
  (lost, captured) is gone from the fight ("fled"). Escaping, fleeing and surrendering
  stay the fight's own. Resting on the sheet (which stabilises Critical Damage) makes
  the character "active" again; a rest is taken out of danger, so only once the fight is
  over or the character is out of it.
- Marking a linked character "dead" in the fight is the sheet's death, with the fight as
  its reason; "critical" comes only from a failed save, and a critical character is
  stabilised by rest on the sheet, not by a mark in the fight.
- A lone foe's "0 Guard" morale check is owed once per side per fight; a lone ally NPC
  (the only non-player on the PCs' side) owes it too.
- Weapon mastery counts the attacker whose die was kept: with several attackers the
  highest die's owner (the first of them on a tie); a second weapon's kept die counts
  for no named weapon.
- A foe killed outright (its STR taken to 0, with no Critical Damage save between)
  counts for weapon mastery as Critical Damage inflicted: the seed counts the 30 it takes
  for 6 feats as "kills", and a kill is more than Critical Damage, not less.
- Escaping a fight is a DEX save that needs somewhere safe to go; a PC who escapes leaves
  the fight ("fled").

Interpretation: the seed's Critical Damage leaves a target "out of the action, grasping
for life" until "given aid and rest"; a foe stabilised by aid is marked "stable": out of
the action still (it neither acts nor is attacked, and counts as lost for morale), no
longer dying. Only a critically damaged combatant can be stabilised. A foe that yields is
marked "surrendered": out of the fight, as one who fled, but still there to be questioned
or bound. Neither mark is danger to a character resting (see
[danger][companion.rulesets.cairn_srd.combat.Encounter.danger]).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from companion import dice
from companion.dice.distribution import Distribution
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.damage import resolve_hit
from companion.rulesets.cairn_srd.fixed_tables import read_row, rules_data
from companion.rulesets.cairn_srd.saves import MAX_SCORE, SaveResult, save
from companion.state import Tracker, move, state_field
from companion.table_moves import TableTrackers, argument, named_trackers
from companion.table_moves import declare as declare_table_move

IMPAIRED_DIE = 4
ENHANCED_DIE = 12
UNARMED_DIE = 4
MASTERY_KILLS = 5
MAX_ATTACKERS = 50
"""Most attackers joined in one attack (every combatant of a big fight at once)."""
GAMBIT_MIN: int = rules_data()["gambits"]["min"]
"""A weapon die showing at least this may be discarded for a gambit (``data/rules.toml``)."""
GAMBIT_AUTO: int = rules_data()["gambits"]["automatic"]
"""From this face on a gambit simply works, with no save."""
WEAPON_DICE = (4, 6, 8, 10, 12)


def attack_die(weapon: int, *, impaired: bool = False, enhanced: bool = False,
               unarmed: bool = False) -> int:
    """Sides of the damage die for one attack."""
    if weapon not in WEAPON_DICE:
        raise RuleError(f"Attacking: weapon dice are d4-d12, got d{weapon}")
    if unarmed:
        return UNARMED_DIE
    if impaired and not enhanced:
        return IMPAIRED_DIE
    if enhanced and not impaired:
        return ENHANCED_DIE
    return weapon


def keep_highest(sides: list[int], rng: random.Random) -> tuple[list[int], int]:
    """Roll every die (multiple attackers, dual weapons) and keep the single highest."""
    if not sides:
        raise RuleError("Multiple Attackers: roll at least one die")
    rolls = [dice.roll(f"1d{d}", rng=rng).total for d in sides]
    return rolls, max(rolls)


def damage_odds(sides: list[int]) -> Distribution:
    """Exact odds of the damage an attack rolling ``sides`` deals before Armor: every die
    rolled, the single highest kept (one die: that die)."""
    if not sides:
        raise RuleError("Multiple Attackers: roll at least one die")
    for d in sides:
        if d not in WEAPON_DICE:
            raise RuleError(f"Attacking: damage dice are d4-d12, got d{d}")
    best = Distribution.die(sides[0])
    for d in sides[1:]:
        best = best.combine(Distribution.die(d), max)
    return best


GAMBITS: tuple[str, ...] = tuple(rules_data()["gambits"]["options"])
"""The seed's examples of what a discarded weapon die can buy (``data/rules.toml``, the one
list the app and the site both show)."""
BOLSTER = GAMBITS[0]


def gambit(discarded: int) -> str:
    """What a gambit paid for with a discarded weapon die of ``discarded`` does."""
    if discarded < GAMBIT_MIN:
        raise RuleError(f"Gambits: only a weapon die of {GAMBIT_MIN}+ can be discarded, "
                        f"got {discarded}")
    if discarded >= GAMBIT_AUTO:
        return "succeeds automatically"
    return "the target saves if forced into an action or directly affected"


def gambit_rule() -> str:
    """The gambit rule in one sentence, with the thresholds from the data."""
    return (f"Discard a weapon die showing {GAMBIT_MIN}+ for a gambit: with "
            f"{GAMBIT_MIN}-{GAMBIT_AUTO - 1} the target saves if it is forced into an action "
            f"or directly affected; with {GAMBIT_AUTO}+ it simply works.")


def mastery_feats(critical_kills: int) -> int:
    """Weapon feats unlocked by ``critical_kills`` foes critically damaged (max 6)."""
    if critical_kills < 0:
        raise RuleError("Weapon Feats: kills cannot be negative")
    return min(6, critical_kills // MASTERY_KILLS)


Side = Literal["PCs", "Enemies"]
Status = Literal["active", "critical", "stable", "surrendered", "dead", "fled"]
SIDES: tuple[Side, ...] = ("PCs", "Enemies")
STATUSES: tuple[Status, ...] = ("active", "critical", "stable", "surrendered", "dead", "fled")
"""A combatant's standing in the fight. Only "active" acts and can be attacked;
"critical" (Critical Damage) and every mark after it are out of the action (see
[Encounter.set_status][companion.rulesets.cairn_srd.combat.Encounter.set_status])."""
MAX_NAME = 40
"""Longest combatant name (a longer one would push the app's columns off a phone)."""
MAX_SHEET_ID = 80
"""Longest id of a sheet at the fight's table (a campaign member id is at most 40)."""


@dataclass
class Combatant:
    """One side's fighter (a PC, an NPC, a monster or a detachment) as the fight tracks it.

    A player character of a linked fight keeps here only who it is and the numbers it
    joined with; the fight reads the rest off its sheet
    ([Encounter.fighter][companion.rulesets.cairn_srd.combat.Encounter.fighter])."""

    name: str = state_field(max_len=MAX_NAME)
    side: Side = state_field(choices=SIDES)
    guard: int = state_field(min=0, max=MAX_SCORE)
    guard_max: int = state_field(min=0, max=MAX_SCORE)
    strength: int = state_field(min=0, max=MAX_SCORE)
    dexterity: int = state_field(min=0, max=MAX_SCORE)
    control: int = state_field(min=0, max=MAX_SCORE)
    armor: int = state_field(0, min=0, max=MAX_SCORE)
    weapon: int = state_field(6, choices=WEAPON_DICE)
    pc: bool = False
    detachment: bool = False
    leader: bool = False
    never_morale: bool = False
    status: Status = state_field("active", choices=STATUSES)
    acted_first: bool = False
    panicking: bool = False
    """Panicking (from the sheet): Guard counts as 0 and the attacks are impaired."""
    no_guard: str = state_field("", max_len=40)
    """Why Guard counts as 0 now ("": it does not): full burden, cumbersome load, panic."""
    weapon_name: str = state_field("", max_len=40)
    """The weapon's name, for weapon mastery (a PC's critical kills per weapon)."""
    sheet: str = state_field("", max_len=MAX_SHEET_ID)
    """A player character's sheet: its id at the fight's table (a campaign's member id),
    so the link holds whatever the sheet is called later; "" for the sheet of the same
    name (a fight saved before ids were kept, or joined with no table)."""

    def check_state(self) -> None:
        if not self.name.strip():
            raise StateError("field 'name': a combatant needs a name")
        if self.guard > self.guard_max:
            raise StateError(f"field 'guard' ({self.guard}) exceeds 'guard_max' "
                             f"({self.guard_max})")
        if self.pc and self.side != "PCs":
            raise StateError("field 'side': player characters fight on the PCs' side")

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def effective_guard(self) -> int:
        """Guard that soaks hits now: 0 while ``no_guard`` names a cause."""
        return 0 if self.no_guard else self.guard


@dataclass
class SideMorale:
    """Which group morale checks a side has already had."""

    first_casualty: bool = False
    half_lost: bool = False
    leader_lost: bool = False
    lone_at_zero: bool = False


@dataclass(frozen=True)
class Attack:
    """What one attack is: who strikes whom, and how (the player's whole declaration).

    ``joined``: others attacking the same target (every die rolled, the highest kept);
    ``second_weapon``: the sides of a second weapon the attacker also strikes with;
    ``blast_area``: other targets in a blast's area (each rolled for separately);
    ``blast``, ``impaired``, ``enhanced``, ``unarmed``: the attack's conditions.
    """

    attacker: str
    target: str
    joined: tuple[str, ...] = ()
    second_weapon: int | None = None
    blast_area: tuple[str, ...] = ()
    blast: bool = False
    impaired: bool = False
    enhanced: bool = False
    unarmed: bool = False

    @property
    def attackers(self) -> list[str]:
        """The attacker, then each other attacker once (the attacker and target left out)."""
        rest = [n for n in dict.fromkeys(self.joined) if n not in (self.attacker, self.target)]
        return [self.attacker, *rest]

    @property
    def targets(self) -> list[str]:
        """The target, then each other target in the blast's area once."""
        rest = [n for n in dict.fromkeys(self.blast_area) if n != self.target]
        return [self.target, *rest]

    @property
    def area(self) -> bool:
        """Whether this is a blast over more than one target."""
        return len(self.targets) > 1

    def check(self, *, hold_for_gambits: bool = False) -> None:
        """Refuse a description the rules do not allow (before anything is rolled)."""
        if not self.attacker or not self.target:
            raise RuleError("Attacking: choose an attacker and a target")
        if self.area and hold_for_gambits:
            raise RuleError("Gambits: roll a blast's targets one at a time to spend dice")
        if self.area and (len(self.attackers) > 1 or self.second_weapon is not None
                          or self.unarmed):
            raise RuleError("Blast: one attacker's weapon rolls for each target; no joined "
                            "attackers, second weapon or unarmed strike")
        if self.second_weapon is not None and self.unarmed:
            raise RuleError("Dual Weapons: an unarmed attack has no second weapon")


@dataclass
class PendingAttack:
    """Weapon dice rolled but not yet applied: the attackers may still spend 4+ on gambits."""

    attackers: list[str] = state_field(max_len=MAX_ATTACKERS)
    target: str = state_field(max_len=MAX_NAME)
    dice: list[int] = state_field(choices=WEAPON_DICE, max_len=MAX_ATTACKERS + 1)
    rolls: list[int] = state_field(min=1, max=max(WEAPON_DICE), max_len=MAX_ATTACKERS + 1)
    blast: bool = False

    def check_state(self) -> None:
        if not self.attackers:
            raise StateError("field 'attackers': an attack has at least one attacker")
        if len(self.rolls) != len(self.dice):
            raise StateError(f"field 'rolls': {len(self.dice)} dice need {len(self.dice)} "
                             f"rolls, got {len(self.rolls)}")
        if len(self.dice) not in (len(self.attackers), len(self.attackers) + 1):
            raise StateError(f"field 'dice': {len(self.attackers)} attacker(s) roll "
                             f"{len(self.attackers)} die or one more with a second weapon, "
                             f"got {len(self.dice)}")
        for i, (die, rolled) in enumerate(zip(self.dice, self.rolls, strict=True)):
            if rolled > die:
                raise StateError(f"field 'rolls[{i}]': a d{die} cannot show {rolled}")

    def can_gambit(self, index: int) -> bool:
        """Whether die number ``index`` rolled high enough to be spent on a gambit."""
        return self.rolls[index] >= GAMBIT_MIN

    def shown(self) -> str:
        """The dice as a player reads them: ``d8=5, d6=2``."""
        return ", ".join(f"d{d}={v}" for d, v in zip(self.dice, self.rolls, strict=True))


SHEET_DUE_KINDS = ("scar", "fatigue", "kill")
MAX_DUE = 200


@dataclass
class SheetDue:
    """Something the fight did that a party member's sheet must take: a ``scar`` (its
    scar-table row in ``value``), a maneuver's ``fatigue`` or a Critical Damage dealt
    (``kill``: the weapon's name in ``weapon``)."""

    name: str = state_field(max_len=MAX_NAME)
    kind: str = state_field(choices=SHEET_DUE_KINDS)
    value: int = state_field(0, min=0, max=12)
    weapon: str = state_field("", max_len=40)
    round: int = state_field(0, min=0)


@dataclass
class ManeuverResult:
    """A maneuver: the target's save against it and the attacker's own save."""

    target_save: SaveResult
    attacker_save: SaveResult

    def __str__(self) -> str:
        return (f"target {self.target_save}; attacker {self.attacker_save}"
                + ("" if self.attacker_save.success else ", +1 Fatigue"))


@dataclass
class Encounter(Tracker):
    """A fight: sides, initiative, rounds, attacks, morale and detachments."""

    links = ("Character",)  # the party's sheets at its table (see the module docs)

    combatants: list[Combatant] = field(default_factory=list)
    round: int = state_field(0, min=0)
    phase: str = state_field("setup", choices=("setup", "PCs", "Enemies", "over"))
    morale: dict[str, SideMorale] = field(
        default_factory=lambda: {"PCs": SideMorale(), "Enemies": SideMorale()})
    morale_due: list[str] = field(default_factory=list)
    """Names of those who must save morale now (a group's check is rolled by its first)."""
    pending: PendingAttack | None = None
    """An attack rolled by [attack][companion.rulesets.cairn_srd.combat.Encounter.attack] with
    ``hold_for_gambits``, waiting for
    [resolve_attack][companion.rulesets.cairn_srd.combat.Encounter.resolve_attack]."""
    sheet_due: list[SheetDue] = state_field(default_factory=list, max_len=MAX_DUE)
    """What the fight owes the sheets of player characters it has no sheet for (a linked
    character's sheet takes it at once), until
    [clear_due][companion.rulesets.cairn_srd.combat.Encounter.clear_due] marks it written."""

    def check_state(self) -> None:
        names = [c.name for c in self.combatants]
        if len(set(names)) != len(names):
            raise StateError("field 'combatants': two combatants share a name")
        if set(self.morale) != set(SIDES):
            raise StateError("field 'morale': one record for the PCs and one for the Enemies")
        for name in self.morale_due:
            if name not in names:
                raise StateError(f"field 'morale_due': no combatant named “{name}”")
        for due in self.sheet_due:
            if due.name not in names:
                raise StateError(f"field 'sheet_due': no combatant named “{due.name}”")
        if self.pending is not None:
            for name in (*self.pending.attackers, self.pending.target):
                if name not in names:
                    raise StateError(f"field 'pending': no combatant named “{name}”")
        if (self.phase == "setup" and self.round) or (
                self.phase in SIDES and not self.round):
            raise StateError(f"field 'round': round {self.round} does not fit the phase "
                             f"“{self.phase}”")

    def _no_pending(self) -> None:
        if self.pending is not None:
            raise RuleError("Gambits: resolve the rolled attack (damage or gambits) first")

    def find(self, name: str) -> Combatant:
        for c in self.combatants:
            if c.name == name:
                return c
        raise RuleError(f"Combat: no combatant named “{name}”")

    def side(self, side: str) -> list[Combatant]:
        return [c for c in self.combatants if c.side == side]

    # -- the party's own sheets (a declared link, never saved) --------------------------

    def sheet(self, name: str) -> Character | None:
        """The sheet the combatant ``name`` is (``None``: not a linked party member)."""
        return self._sheet_of(self.find(name))

    def _sheet_of(self, c: Combatant) -> Character | None:
        # The link the ruleset declares (``links``): a player character is the sheet of
        # the same name at the fight's table (a campaign's members, or a plain dict).
        if not c.pc:
            return None
        sheets = self.linked(Character)
        if c.sheet:  # by its id: a sheet that left the table leaves the numbers it joined with
            return sheets.get(c.sheet)
        return next((s for s in sheets.values() if s.name == c.name), None)

    def fighter(self, name: str) -> Combatant:
        """The combatant ``name`` as the fight sees it now (a linked character's numbers
        and condition read off its sheet). A copy for reading: change it through moves."""
        return self._view(self.find(name))

    @property
    def fighters(self) -> list[Combatant]:
        """Every combatant as the fight sees it now (see
        [fighter][companion.rulesets.cairn_srd.combat.Encounter.fighter])."""
        return [self._view(c) for c in self.combatants]

    def _view(self, c: Combatant) -> Combatant:
        sheet = self._sheet_of(c)
        if sheet is None:
            return c
        return dataclasses.replace(
            c, guard=sheet.guard, guard_max=sheet.guard_max, strength=sheet.strength,
            dexterity=sheet.dexterity, control=sheet.control, armor=sheet.armor,
            panicking=sheet.panicking, no_guard=sheet_conditions(sheet)["no_guard"],
            status=sheet_status(c.status, sheet))

    def danger(self, name: str) -> str:
        """Why the character ``name`` is not out of danger because of this fight ("" when
        it is not): the fight has begun, is not over, and ``name`` is in it (active or
        critically damaged; one who fled, surrendered, was stabilised or died is out of
        it). What
        [Character.danger][companion.rulesets.cairn_srd.character.Character.danger]
        reads to refuse a rest."""
        return self._danger(lambda c: c.name == name)

    def danger_for(self, sheet: Character) -> str:
        """[danger][companion.rulesets.cairn_srd.combat.Encounter.danger] for the
        combatant that is ``sheet`` (linked by its id at the table, or by its name): what
        [Character.danger][companion.rulesets.cairn_srd.character.Character.danger] reads."""
        return self._danger(lambda c: self._sheet_of(c) is sheet
                            or (not c.sheet and c.name == sheet.name))

    def _danger(self, chosen: Callable[[Combatant], bool]) -> str:
        if self.phase not in SIDES:
            return ""
        for c in self.combatants:
            if chosen(c) and self._view(c).status in ("active", "critical"):
                return f"in the fight (round {self.round})"
        return ""

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """The player characters an attack, a maneuver or an escape is made by (every
        attacker must be one), and the player character who joins the fight; the rest
        (adding foes, initiative, turns, damage typed in, morale, marks) is the table's, as
        is any move by or with a non-player."""
        names: list[str] = []
        if move == "add":
            name = arguments.get("name")
            if arguments.get("pc") is True and isinstance(name, str) and name.strip():
                return (name.strip(),)
            return None
        if move == "attack":
            d = arguments.get("description")
            if isinstance(d, dict):
                names = [str(d.get("attacker", "")), *map(str, d.get("joined") or ())]
            elif isinstance(d, Attack):
                names = d.attackers
        elif move == "resolve_attack" and self.pending is not None:
            names = list(self.pending.attackers)
        elif move == "maneuver":
            names = [str(arguments.get("attacker", ""))]
        elif move == "escape":
            names = [str(arguments.get("name", ""))]
        pcs = {c.name for c in self.combatants if c.pc}
        if not names or any(n not in pcs for n in names):
            return None
        return tuple(dict.fromkeys(names))

    @move
    def add(self, name: str, side: str, guard: int, strength: int, dexterity: int = 10,
            control: int = 10, armor: int = 0, weapon: int = 6, pc: bool = False,
            detachment: bool = False, leader: bool = False, never_morale: bool = False,
            weapon_name: str = "", sheet: str = "") -> None:
        """Add a combatant (PC, NPC, monster or detachment). ``sheet``: a player
        character's sheet, by its id at the fight's table (see ``Combatant.sheet``)."""
        name = name.strip()
        if not name:
            raise RuleError("Combat: a combatant needs a name")
        if len(name) > MAX_NAME:
            raise RuleError(f"Combat: a name has at most {MAX_NAME} characters, "
                            f"got {len(name):,}")
        if any(c.name == name for c in self.combatants):
            raise RuleError(f"Combat: there is already a combatant named “{name}”")
        if side not in ("PCs", "Enemies"):
            raise RuleError(f"Combat: side is PCs or Enemies, not “{side}”")
        if pc and side != "PCs":
            raise RuleError("Combat: player characters fight on the PCs' side")
        if (sheet and not pc) or len(sheet) > MAX_SHEET_ID:
            raise RuleError("Combat: only a player character has a sheet (an id of at most "
                            f"{MAX_SHEET_ID} characters)")
        for v, what in ((guard, "Guard"), (strength, "STR"), (dexterity, "DEX"),
                        (control, "CTRL"), (armor, "Armor")):
            if not 0 <= v <= MAX_SCORE:
                raise RuleError(f"Ability Scores: {what} runs 0-18, got {v}")
        attack_die(weapon)
        if len(weapon_name.strip()) > 40:
            raise RuleError("Weapon Feats: a weapon's name has at most 40 characters")
        kind = ("player character" if pc else "detachment" if detachment else
                "leader" if leader else "combatant")
        self.describe(f"{name} joins the {side} ({kind}): Guard {guard}, STR {strength}, "
                      f"DEX {dexterity}, CTRL {control}, Armor {armor}, d{weapon}")
        self.combatants.append(Combatant(name, side, guard, guard, strength, dexterity,  # type: ignore[arg-type]
                                         control, armor, weapon, pc, detachment, leader,
                                         never_morale, weapon_name=weapon_name.strip(),
                                         sheet=sheet))

    def _surprised(self, surprised: list[str] | None) -> set[str]:
        """The surprised player characters, checked: each a PC of this fight."""
        names = set(surprised or ())
        pcs = {c.name for c in self.combatants if c.pc}
        for name in sorted(names - pcs):
            raise RuleError(f"Initiative and Surprise: “{name[:MAX_NAME]}” is no player "
                            "character of this fight")
        return names

    def _ready_to_start(self, rule: str) -> None:
        if self.phase != "setup":
            raise RuleError(f"{rule}: the fight has already begun")
        pcs = [c for c in self.side("PCs") if c.pc and self._view(c).active]
        if not pcs or not self.side("Enemies"):
            raise RuleError("Combat: both sides need combatants (and the PCs a player character)")

    @move
    def begin(self, first: str, surprised: list[str] | None = None) -> str:
        """Start the fight with the side the fiction says acts first (no roll): ``"PCs"``
        (every combatant on the PCs' side acts before the enemy in round 1, as if all had
        passed initiative, except the ``surprised`` player characters) or ``"Enemies"``.
        Roll initiative instead when who acts first is in doubt."""
        if first not in SIDES:
            raise RuleError(f"Initiative and Surprise: the side acting first is PCs or "
                            f"Enemies, not “{first[:MAX_NAME]}”")
        self._ready_to_start("Initiative and Surprise")
        caught = self._surprised(surprised)
        if first == "Enemies" and caught:
            raise RuleError("Initiative and Surprise: when the enemy acts first no PC acts "
                            "before it; name the surprised only when the PCs go first")
        ahead = []
        if first == "PCs":
            for c in self.side("PCs"):
                if self._view(c).active and c.name not in caught:
                    c.acted_first = True
                    ahead.append(c.name)
        self.round, self.phase = 1, "Enemies"
        text = ("by the fiction, the PCs act first: " + (", ".join(ahead) or "nobody")
                if first == "PCs" else "by the fiction, the enemy acts first")
        if caught:
            text += f" (surprised: {', '.join(sorted(caught))})"
        self.describe(text)
        return text

    @move
    def roll_initiative(self, surprised: list[str] | None = None,
                        rng: random.Random | None = None,
                        seed: int | None = None) -> dict[str, SaveResult]:
        """When who acts first is in doubt: each PC not ``surprised`` (by an ambush) saves
        DEX over Armor; passing PCs act before the enemy."""
        if self.phase != "setup":
            raise RuleError("Initiative and Surprise: initiative is rolled before round 1")
        self._ready_to_start("Initiative and Surprise")
        self._surprised(surprised)
        pcs = [c for c in self.side("PCs") if c.pc and self._view(c).active]
        r = make_rng(seed, rng)
        results: dict[str, SaveResult] = {}
        for c in pcs:
            if surprised and c.name in surprised:
                continue
            seen = self._view(c)
            results[c.name] = save(seen.dexterity, floor=seen.armor, rng=r)
            c.acted_first = results[c.name].success
        self.round, self.phase = 1, "Enemies"
        first = [n for n, s in results.items() if s.success]
        self.describe("initiative: " + "; ".join(f"{n} {s}" for n, s in results.items())
                      + f" — acting first: {', '.join(first) or 'nobody'}")
        return results

    @move
    def end_turn(self) -> str:
        """Hand the turn to the other side (PCs → enemies starts a new round)."""
        if self.phase in ("setup", "over"):
            raise RuleError("Combat Round Procedure: the fight has not started or is over")
        if self.morale_due:
            raise RuleError(f"Morale: roll the morale save of {', '.join(self.morale_due)} first")
        self._no_pending()
        if self.phase == "PCs":
            self.phase, self.round = "Enemies", self.round + 1
        else:
            self.phase = "PCs"
        for c in self.combatants:
            c.acted_first = False
        self.describe(f"round {self.round}: {self.phase} act")
        return self.phase

    @move
    def attack(self, description: Attack, hold_for_gambits: bool = False,
               rng: random.Random | None = None, seed: int | None = None) -> str:
        """Make one attack as described: one die, several attackers or two weapons (every die
        rolled, the highest applied), or a blast rolled for each target in its area.

        With ``hold_for_gambits`` the dice are rolled and held (``pending``) so a die of
        [GAMBIT_MIN][companion.rulesets.cairn_srd.combat.GAMBIT_MIN]+ can be spent on a
        gambit; [resolve_attack][companion.rulesets.cairn_srd.combat.Encounter.resolve_attack]
        then applies the damage.
        """
        d = description
        d.check(hold_for_gambits=hold_for_gambits)
        r = make_rng(seed, rng)
        if d.area:
            for target in d.targets:  # every target judged before a die or a sheet moves
                self._dice([d.attacker], target, None, d.impaired, d.enhanced, True, False)
            texts = []
            for target in d.targets:
                rolled = self._roll([d.attacker], target, None, d.impaired, d.enhanced, True,
                                    False, r)
                texts.append(self._hit_text(rolled, r))
            text = " | ".join(texts)
        else:
            rolled = self._roll(d.attackers, d.target, d.second_weapon, d.impaired,
                                d.enhanced, d.blast, d.unarmed, r)
            if hold_for_gambits:
                self.pending = rolled
                text = (f"{' + '.join(rolled.attackers)} → {rolled.target}: rolled "
                        f"{rolled.shown()}" + (" (blast)" if rolled.blast else "")
                        + "; gambits may be chosen")
            else:
                text = self._hit_text(rolled, r)
        self.describe(text)
        return text

    def _hit_text(self, rolled: PendingAttack, r: random.Random) -> str:
        best = max(rolled.rolls)
        who = f"{' + '.join(rolled.attackers)} → {rolled.target}: "
        if len(rolled.rolls) == 1:
            text = who + f"d{rolled.dice[0]} = {best}"
        else:
            text = who + f"{rolled.shown()}, keep {best}"
        text += (" (blast)" if rolled.blast else "") + "; "
        text += self._damage(self.find(rolled.target), best, r)
        return text + self._mastery(rolled, rolled.rolls.index(best))

    @move
    def resolve_attack(self, gambits: dict[int, str] | None = None,
                       rng: random.Random | None = None, seed: int | None = None) -> str:
        """Apply the rolled attack: ``gambits`` maps a die's position to the gambit it is
        discarded for; the highest die kept deals damage (+1 per "+1 damage" gambit)."""
        p = self.pending
        if p is None:
            raise RuleError("Gambits: roll an attack for gambits first")
        gambits = {int(i): g for i, g in (gambits or {}).items()}
        notes = []
        for i, effect in sorted(gambits.items()):
            if not 0 <= i < len(p.rolls):
                raise RuleError(f"Gambits: there is no die number {i + 1} in this attack")
            if effect not in GAMBITS:
                raise RuleError(f"Gambits: unknown gambit “{effect}”")
            notes.append(f"d{p.dice[i]}={p.rolls[i]} for “{effect}”: {gambit(p.rolls[i])}")
        kept = [v for i, v in enumerate(p.rolls) if i not in gambits]
        bolster = sum(1 for g in gambits.values() if g == BOLSTER)
        if bolster and not kept:
            raise RuleError("Gambits: +1 damage bolsters a die kept for damage; none is kept")
        t = self.find(p.target)
        seen = self._view(t)
        if not seen.active:
            raise RuleError(f"Combat: {t.name} is already {seen.status}")
        self.pending = None
        text = f"{' + '.join(p.attackers)} → {t.name}: {p.shown()}"
        if notes:
            text += "; gambit " + "; gambit ".join(notes)
        if kept:
            damage = max(kept) + bolster
            text += f"; keep {max(kept)}" + (f" +{bolster}" if bolster else "") + "; "
            text += self._damage(t, damage, make_rng(seed, rng))
            best = max(v for i, v in enumerate(p.rolls) if i not in gambits)
            text += self._mastery(p, next(i for i, v in enumerate(p.rolls)
                                          if v == best and i not in gambits))
        else:
            text += "; no die kept: no damage"
        self.describe(text)
        return text

    def _roll(self, attackers: list[str], target: str, second_weapon: int | None,
              impaired: bool, enhanced: bool, blast: bool, unarmed: bool,
              r: random.Random) -> PendingAttack:
        """Check an attack by ``attackers`` on ``target`` and roll every die (no damage)."""
        dice, any_blast = self._dice(attackers, target, second_weapon, impaired, enhanced,
                                     blast, unarmed)
        rolls, _ = keep_highest(dice, r)
        return PendingAttack(list(attackers), self.find(target).name, dice, rolls, any_blast)

    def _dice(self, attackers: list[str], target: str, second_weapon: int | None,
              impaired: bool, enhanced: bool, blast: bool,
              unarmed: bool) -> tuple[list[int], bool]:
        """Judge an attack by ``attackers`` on ``target``: the dice it rolls, and whether
        it is a blast (nothing rolled, nothing changed)."""
        if not attackers:
            raise RuleError("Multiple Attackers: name at least one attacker")
        if len(attackers) > MAX_ATTACKERS:
            raise RuleError(f"Multiple Attackers: at most {MAX_ATTACKERS} attackers at once")
        if len(set(attackers)) != len(attackers):
            raise RuleError("Multiple Attackers: each attacker rolls once")
        if second_weapon is not None and len(attackers) != 1:
            raise RuleError("Dual Weapons: one attacker wields the two weapons")
        if second_weapon is not None and unarmed:
            raise RuleError("Dual Weapons: an unarmed attack has no second weapon")
        t = self.fighter(target)
        if self.phase == "over":
            raise RuleError("Combat: the fight is over")
        self._no_pending()
        dice: list[int] = []
        any_blast = blast
        for name in attackers:
            a = self.fighter(name)
            if not a.active:
                raise RuleError(f"Combat: {a.name} is {a.status} and cannot attack")
            if a.side == t.side:
                raise RuleError(f"Combat: {a.name} and {t.name} are on the same side")
            if self.phase in ("PCs", "Enemies") and a.side != self.phase and not a.acted_first:
                raise RuleError(f"Combat Round Procedure: it is the {self.phase}' turn")
            weak = impaired or a.panicking or (t.detachment and not a.detachment
                                               and not blast)
            strong = enhanced or (a.detachment and not t.detachment)
            any_blast = any_blast or (a.detachment and not t.detachment)
            dice.append(attack_die(a.weapon, impaired=weak, enhanced=strong, unarmed=unarmed))
            if second_weapon is not None:
                # The lone attacker's second weapon strikes from the same position: a
                # detachment as target or the attacker's panic impairs it as well.
                dice.append(attack_die(second_weapon, impaired=weak, enhanced=strong))
        if not t.active:
            raise RuleError(f"Combat: {t.name} is already {t.status}")
        return dice, any_blast

    def attack_dice(self, description: Attack) -> list[int]:
        """The sides of every damage die ``description`` would roll now (against its first
        target), after impaired, enhanced, unarmed, detachments and panic: what
        [damage_odds][companion.rulesets.cairn_srd.combat.damage_odds] reads. Nothing is
        rolled or changed; an attack the rules refuse raises as the attack would."""
        d = description
        d.check()
        attackers = [d.attacker] if d.area else d.attackers
        dice, _ = self._dice(attackers, d.target, d.second_weapon, d.impaired, d.enhanced,
                             d.blast or d.area, d.unarmed)
        return dice

    @move
    def apply_damage(self, target: str, amount: int, direct: bool = False,
                     rng: random.Random | None = None, seed: int | None = None) -> str:
        """Apply damage rolled elsewhere (e.g. the highest of several attackers)."""
        t = self.find(target)
        seen = self._view(t)
        if not seen.active:
            raise RuleError(f"Combat: {t.name} is already {seen.status}")
        if amount < 0:
            raise RuleError(f"Damage: damage cannot be negative, got {amount}")
        text = f"{t.name} takes {amount}; "
        text += self._damage(t, amount, make_rng(seed, rng), direct)
        self.describe(text)
        return text

    def _mastery(self, rolled: PendingAttack, die_index: int) -> str:
        """Note a Critical Damage (or kill) dealt by a PC for weapon mastery."""
        t = self.find(rolled.target)
        if t.status not in ("critical", "dead") or t.pc:
            return ""
        who = self.find(rolled.attackers[min(die_index, len(rolled.attackers) - 1)])
        if not who.pc or die_index >= len(rolled.attackers):
            return ""  # a second weapon's die: no named weapon to count
        weapon = who.weapon_name or f"d{who.weapon} weapon"
        sheet = self._sheet_of(who)
        if sheet is not None:
            sheet.record_critical_kill(weapon)  # the sheet's own move, made last
            return f"; {who.name}'s {weapon}: a critical kill for weapon mastery (on the sheet)"
        self._due(SheetDue(who.name, "kill", 0, weapon, self.round))
        return f"; {who.name}'s {weapon}: a critical kill for weapon mastery"

    def _due(self, due: SheetDue) -> None:
        if len(self.sheet_due) >= MAX_DUE:
            raise RuleError(f"Combat: at most {MAX_DUE} sheet entries wait; settle the sheets")
        self.sheet_due.append(due)

    def _damage(self, t: Combatant, amount: int, r: random.Random, direct: bool = False) -> str:
        sheet = self._sheet_of(t)
        if sheet is not None:
            return _sheet_damage(sheet, amount, r, direct)
        guard = t.effective_guard
        hit = resolve_hit(amount, guard=guard, strength=t.strength, armor=t.armor, direct=direct)
        if not t.no_guard:
            t.guard = hit.guard_after
        t.strength = hit.str_after
        text = f"armor {hit.absorbed}, Guard {hit.to_guard}, STR {hit.to_str}"
        if t.no_guard:
            text += f" (Guard counts as 0: {t.no_guard})"
        if hit.to_str:
            if t.strength == 0:
                t.status = "dead"
                text += "; STR 0: " + ("destroyed" if t.detachment else "dead")
            else:
                result = save(t.strength, rng=r)
                text += f"; Critical Damage save {result}"
                if not result.success:
                    t.status = "critical"
                    text += "; routed" if t.detachment else "; Critical Damage: out of the action"
        if hit.scar_damage is not None and t.pc:
            scar = read_row("cairn_scars", hit.scar_damage)["Scar"]
            self._due(SheetDue(t.name, "scar", hit.scar_damage, "", self.round))
            text += f"; scar {scar} (damage {hit.scar_damage}): apply it on the character sheet"
        text += self._morale_triggers(t, guard_zero=t.guard == 0)
        return text

    def _morale_triggers(self, t: Combatant, guard_zero: bool) -> str:
        members = [c for c in self.side(t.side) if not c.pc]
        if not members or t.pc:
            return ""
        flags = self.morale[t.side]
        reasons = []
        if len(members) == 1 and guard_zero and t.active and not flags.lone_at_zero:
            flags.lone_at_zero = True
            reasons.append("lone foe at 0 Guard" if t.side == "Enemies"
                           else "lone ally at 0 Guard")
        down = [c for c in members if not c.active]
        if len(members) > 1:
            if down and not flags.first_casualty:
                flags.first_casualty = True
                reasons.append("first casualty")
            if 2 * len(down) >= len(members) and not flags.half_lost:
                flags.half_lost = True
                reasons.append("half lost")
            if any(c.leader for c in down) and not flags.leader_lost:
                flags.leader_lost = True
                reasons.append("leader lost")
        if not reasons:
            return ""
        due = [c.name for c in members if c.active and not c.never_morale]
        roller = due[:1] if len(members) > 1 else due
        for name in roller:
            if name not in self.morale_due:
                self.morale_due.append(name)
        return f"; morale save due ({', '.join(reasons)})" if roller else ""

    @move
    def morale_save(self, name: str, use_leader: bool = False,
                    rng: random.Random | None = None, seed: int | None = None) -> SaveResult:
        """Roll a due morale save (CTRL, or the leader's); failing it, the group flees."""
        c = self.find(name)
        if name not in self.morale_due:
            raise RuleError(f"Morale: no morale save is due for {name}")
        ctrl = c.control
        if use_leader:
            leaders = [x for x in self.side(c.side) if x.leader and x.active]
            if not leaders:
                raise RuleError("Morale: no active leader whose CTRL the group could use")
            ctrl = leaders[0].control
        result = save(ctrl, rng=make_rng(seed, rng))
        self.morale_due.remove(name)
        if not result.success:
            group = [x for x in self.side(c.side) if x.active and not x.pc]
            for x in group if len([y for y in self.side(c.side) if not y.pc]) > 1 else [c]:
                x.status = "fled"
        self._check_over()
        self.describe(f"{name} morale save: {result}" + ("" if result.success else " — flees"))
        return result

    def _check_over(self) -> None:
        for s in ("PCs", "Enemies"):
            if self.combatants and not any(self._view(c).active for c in self.side(s)):
                self.phase = "over"

    @move
    def set_status(self, name: str, status: str) -> None:
        """Mark a combatant by the fiction (one of
        [STATUSES][companion.rulesets.cairn_srd.combat.STATUSES]): a foe that
        ``"surrendered"`` or ``"fled"``, one given aid after Critical Damage now
        ``"stable"`` (no longer dying, still out of the action), ``"dead"``, or back to
        ``"active"``. A linked character's death is the sheet's (its reason: this fight);
        Critical Damage and stabilising it are the sheet's too (a failed save; a turn of
        rest, taken once out of danger)."""
        c = self.find(name)
        if status not in STATUSES:
            raise RuleError(f"Combat: status is {', '.join(STATUSES[:-1])} or "
                            f"{STATUSES[-1]}, not “{status[:MAX_NAME]}”")
        sheet = self._sheet_of(c)
        now = self._view(c).status
        if status == "stable" and now not in ("critical", "stable"):
            raise RuleError(f"Critical Damage: only a combatant with Critical Damage is "
                            f"stabilised; {c.name} is {now}")
        if sheet is not None and status != now:
            if now == "dead":
                raise RuleError(f"Death: {c.name} is dead on the sheet")
            if status == "critical" or now == "critical":
                raise RuleError(f"Critical Damage: {c.name}'s sheet decides it (a failed save "
                                "makes it, a turn of rest on the sheet stabilises it)")
            if now == "fled" and sheet.fate:
                raise RuleError(f"Fate: {c.name} is out of play on the sheet ({sheet.fate})")
        if sheet is not None and status == "dead":
            if now != "dead":
                sheet.die(f"fell in the fight (round {self.round})")  # the sheet's move, last
        else:
            c.status = status
        self._check_over()
        self.describe(f"{c.name} is now {status}")

    @move
    def sync_sheet(self, name: str, guard_max: int, dexterity: int, control: int,
                   armor: int, panicking: bool, no_guard: str = "") -> str:
        """Bring an unlinked PC's conditions in from the sheet: DEX, CTRL, Armor, max Guard
        (a raise also raises Guard), panic and the cause of 0 Guard ("" for none). A
        linked character has nothing to copy: the fight reads its sheet."""
        c = self.find(name)
        if not c.pc:
            raise RuleError(f"Combat: {c.name} is no player character with a sheet")
        if self._sheet_of(c) is not None:
            raise RuleError(f"Combat: the fight reads {c.name}'s own sheet; nothing to copy")
        for v, what in ((guard_max, "Guard"), (dexterity, "DEX"), (control, "CTRL"),
                        (armor, "Armor")):
            if not 0 <= v <= MAX_SCORE:
                raise RuleError(f"Ability Scores: {what} runs 0-18, got {v}")
        if len(no_guard) > 40:
            raise RuleError("Combat: the cause of 0 Guard has at most 40 characters")
        raised = max(0, guard_max - c.guard_max)
        c.guard_max = guard_max
        c.guard = min(guard_max, c.guard + raised)
        c.dexterity, c.control, c.armor = dexterity, control, armor
        c.panicking, c.no_guard = panicking, no_guard
        text = (f"{c.name} from the sheet: Guard {c.guard}/{c.guard_max}, DEX {dexterity}, "
                f"CTRL {control}, Armor {armor}"
                + (f"; Guard counts as 0 ({no_guard})" if no_guard else "")
                + ("; panicking: attacks impaired" if panicking else ""))
        self.describe(text)
        return text

    def _acting(self, name: str) -> Combatant:
        c = self.fighter(name)
        if self.phase in ("setup", "over"):
            raise RuleError("Combat Round Procedure: the fight has not started or is over")
        self._no_pending()
        if not c.active:
            raise RuleError(f"Combat: {c.name} is {c.status} and cannot act")
        if c.side != self.phase and not c.acted_first:
            raise RuleError(f"Combat Round Procedure: it is the {self.phase}' turn")
        return c

    @move
    def maneuver(self, attacker: str, target: str, target_ability: str = "STR",
                 attacker_ability: str = "DEX", rng: random.Random | None = None,
                 seed: int | None = None) -> ManeuverResult:
        """A maneuver instead of an attack: the target saves against it (``target_ability``)
        and the attacker saves too (``attacker_ability``), failing: a Fatigue (on a PC's
        sheet, via ``sheet_due``)."""
        a = self._acting(attacker)
        t = self.fighter(target)
        if not t.active:
            raise RuleError(f"Combat: {t.name} is already {t.status}")
        if a.side == t.side:
            raise RuleError(f"Maneuvers: {a.name} and {t.name} are on the same side")
        scores = {}
        for who, ability in ((t, target_ability), (a, attacker_ability)):
            key = ability.strip().upper()
            if key not in ("STR", "DEX", "CTRL"):
                raise RuleError(f"Maneuvers: a save is STR, DEX or CTRL, not “{ability[:20]}”")
            scores[who.name] = {"STR": who.strength, "DEX": who.dexterity,
                                "CTRL": who.control}[key]
        r = make_rng(seed, rng)
        result = ManeuverResult(save(scores[t.name], rng=r), save(scores[a.name], rng=r))
        sheet = self._sheet_of(a)
        if not result.attacker_save.success and sheet is not None:
            sheet.take_fatigue(f"a failed maneuver save, combat round {self.round}")
        elif not result.attacker_save.success and a.pc:
            self._due(SheetDue(a.name, "fatigue", 1, "", self.round))
        self.describe(f"{a.name} maneuvers against {t.name}: {result}"
                      + ("; the maneuver works" if not result.target_save.success
                         else "; the target resists"))
        return result

    @move
    def escape(self, name: str, safe_place: bool = True, rng: random.Random | None = None,
               seed: int | None = None) -> SaveResult:
        """Escape a doomed fight: a DEX save, with somewhere safe to go; success leaves the
        fight."""
        c = self._acting(name)
        if not safe_place:
            raise RuleError("Escaping: there must be somewhere safe to go")
        result = save(c.dexterity, rng=make_rng(seed, rng))
        if result.success:
            self.find(name).status = "fled"
            self._check_over()
        self.describe(f"{c.name} tries to escape: {result}"
                      + (" — gets away" if result.success else " — still in the fight"))
        return result

    @move
    def clear_due(self, index: int) -> SheetDue:
        """Take one entry off ``sheet_due`` (applied to its sheet, or waived)."""
        if not 0 <= index < len(self.sheet_due):
            raise RuleError(f"Combat: no sheet entry #{index + 1} is due")
        due = self.sheet_due.pop(index)
        self.describe(f"{due.name}'s sheet takes the {due.kind}")
        return due


def sheet_conditions(character: Character) -> dict[str, Any]:
    """What a fight reads off a [Character][companion.rulesets.cairn_srd.character.Character]
    sheet: max Guard, DEX, CTRL, Armor, panic and why Guard counts as 0."""
    reasons = [w for w, on in (("full burden", character.free_slots == 0),
                               ("cumbersome load", character.cumbersome),
                               ("panic", character.panicking)) if on]
    return {"guard_max": character.guard_max, "dexterity": character.dexterity,
            "control": character.control, "armor": character.armor,
            "panicking": character.panicking, "no_guard": ", ".join(reasons)}


def sheet_status(fight_status: Status, character: Character) -> Status:
    """A linked character's status in the fight: the sheet's condition (dead, Critical
    Damage, out of play) first, then the fight's own (fled, surrendered)."""
    if character.dead:
        return "dead"
    if character.critical:
        return "critical"
    if character.fate:
        return "fled"
    if fight_status in ("fled", "surrendered"):
        return fight_status
    return "active"


def _sheet_damage(sheet: Character, amount: int, r: random.Random, direct: bool) -> str:
    """A hit on a linked character: the sheet's own move, told as the fight tells a hit."""
    cause = sheet_conditions(sheet)["no_guard"]
    report = sheet.take_damage(amount, direct=direct, rng=r)
    hit = report.hit
    text = f"armor {hit.absorbed}, Guard {hit.to_guard}, STR {hit.to_str}"
    if cause:
        text += f" (Guard counts as 0: {cause})"
    if report.critical_save is not None:
        text += f"; Critical Damage save {report.critical_save}"
    if report.scar:
        text += (f"; scar {report.scar} (damage {hit.scar_damage}) on the sheet: "
                 f"{report.scar_effect}")
    return text + "".join(f"; {note}" for note in report.notes)


def join_character(encounter: Encounter, character: Character, weapon: int = 6,
                   weapon_name: str = "") -> str:
    """Bring a party member into the fight. Linked to its sheet
    ([Tracker.link][companion.state.Tracker.link]) the fight reads
    the sheet from then on; unlinked it copies the sheet's Guard, STR, DEX, CTRL, Armor
    and conditions once."""
    at = next((key for key, s in encounter.linked(Character).items() if s is character), "")
    encounter.add(character.name, "PCs", character.guard, character.strength,
                  character.dexterity, character.control, character.armor, weapon, pc=True,
                  weapon_name=weapon_name, sheet=at)
    if encounter.sheet(character.name.strip()) is not None:
        return encounter.log[-1].summary
    return encounter.sync_sheet(character.name.strip(), **sheet_conditions(character))


# -- table moves: a fight and the party's sheets in one unit (companion.table_moves) -----

#: Most sheets one table move brings into a fight (a guard on the act's size).
MAX_JOINING = 12


def _join_characters(table: TableTrackers, args: dict[str, Any],
                     _rng: random.Random | None) -> list[str]:
    """The sheets ``args`` names (``characters``: members; by default every sheet at the
    fight's table not fighting yet) join the fight ``encounter`` names, each read from
    its sheet ([join_character][companion.rulesets.cairn_srd.combat.join_character]),
    all or none; returns each one's line."""
    where = "join the fight"
    encounter = table.tracker(argument(args, "encounter", str, where), Encounter)
    sheets = named_trackers(table, args, "characters", Character, where, most=MAX_JOINING)
    if sheets is None:
        fighting = {c.name for c in encounter.combatants}
        sheets = [s for s in encounter.linked(Character).values() if s.name not in fighting]
    return [join_character(encounter, sheet) for sheet in sheets]


declare_table_move("cairn_srd.combat.join_characters", _join_characters,
                   text=lambda lines: "; ".join(lines) or "nobody joins the fight")
