"""A Cairn character: abilities, Guard, burden, conditions, scars, dooms, boasts.

**Abilities** STR, DEX and CTRL run 0-18 and are also the saves. Damage to them is
usually temporary. **Guard** (max 18) is the stamina that soaks hits in combat; it drops
to 0 while all 10 burden slots are full, while a cumbersome load is carried in both hands
or while panicking, and a turn of rest restores it (unless Deprived).

Stunned or paralysed characters may act anyway through **agony** (take 1d6 damage) or
**enervation** (lose 1 max Guard for good). A **maneuver** costs the attacker a save of
its own, failed: a Fatigue. A **boast**, a **blaze of glory** and the ways of **returning
from death** are listed in the fixed tables: when a character dies, the player brings
in a new one (or plays a hireling) as soon as possible, and may first go out in a blaze
of glory (an enhanced last blow, a distraction, a boon from the party's grief) and leave
final words to a comrade (a gift, an errand, a ward to protect, vengeance, a riddle).
Coming back (reanimation, undeath, soul-trapping, reincarnation, cloning) is big magic
or a miracle, and usually costs stats.

Conditions, in our words:

- **Panic**: a CTRL save is due when surrounded, in total darkness, facing a great fear
  or taking CTRL damage; a panicking character has 0 Guard and impaired attacks.
- **Deprived**: lacking food, water or sleep: no recovery of Guard or abilities; each
  day beyond the first adds a Fatigue
  ([Character.deprived_day][companion.rulesets.cairn_srd.character.Character.deprived_day]).
- **Fatigue** fills a slot until a good night's rest removes it; with no free slot an
  item must be dropped first.
- **Wounds** (spellburn, blight...) fill a slot until healed by medicine or magic; major
  ones give -1 to a relevant save.

**Rest**: a turn restores Guard and stabilises Critical Damage; a night removes all
Fatigue; a full day returns 1 point to each reduced ability. Rest is taken out of danger:
a character in the middle of a fight cannot rest (the fight at the sheet's table says so:
[Character.danger][companion.rulesets.cairn_srd.character.Character.danger]).

Interpretation: "a turn of rest outside of combat" / "out of danger" is read as: not
while the character is in a fight that has begun and is not over (an active or
critically damaged combatant; one who fled or escaped is out of it). A fight still being
set up is not yet danger. The same holds for a night's and a day's rest, which take
longer still. A sheet no fight is linked to cannot know, and rests.

**Boasts**: before an audience a character vows a goal and at once gains +1 to a
relevant ability and +1 Guard. One boast may be pending. Fulfilled, a new one may be made;
shirked, the bonus is lost and the character may never boast again. A friend or rival may
raise the stakes with complications, each worth another +1 (Guard or an ability). If the
raised boast is refused, the challenger must take it up, complication and all
([Character.take_up_boast][companion.rulesets.cairn_srd.character.Character.take_up_boast]).
After 15 boasts, boasts add nothing.

Interpretation: the Guard rule reads "all 10 slots filled" as Guard counting as 0
while full; the stored Guard returns when a slot frees. Rattled's "+1 to your Guard" raises
max Guard and current Guard by 1. A Fatigue or Wound forced on a character with no free
slot (by a spell) drops the most recently added item; if only burdens fill the slots, the
new burden cannot be placed and the result says so.

**Fates off the table.** The dungeon's fate tables (the darkness, failed escapes) land on
the sheet through public moves: a scar rolled there is
[Character.suffer_scar][companion.rulesets.cairn_srd.character.Character.suffer_scar]
(the same scar effects as a hit), a death is
[Character.die][companion.rulesets.cairn_srd.character.Character.die] with its reason,
being lost, captured, transformed or traumatised is
[Character.leave_play][companion.rulesets.cairn_srd.character.Character.leave_play], and
lost gear is [Character.lose_gear][companion.rulesets.cairn_srd.character.Character.lose_gear].

Interpretation: a character out of play (lost, captured, transformed, traumatised) keeps a
living sheet and may come back
([Character.rejoin][companion.rulesets.cairn_srd.character.Character.rejoin]: found,
ransomed); a dead one does not. A major Wound gives -1 to a save only when the referee
names it relevant to that save, -1 for each major Wound named: any ability save
([Character.ability_save][companion.rulesets.cairn_srd.character.Character.ability_save]),
the panic save, the Critical Damage save of a hit (``wounds`` of each) and the score an
escape save uses
([Character.save_score][companion.rulesets.cairn_srd.character.Character.save_score]).

Interpretation (a note):

- Agony's 1d6 is pain the character chooses to push through: armor does not absorb it
  (it goes to Guard, then STR, as a hit does).
- Walloped's "add 1d6 to your Guard" after the rest raises max Guard and Guard alike, as
  Rattled's +1 does.
- Deprivation's Fatigue ("deprived for more than a day adds Fatigue ..., one for each
  day") comes one a day from the second day on: day 1 adds none, days 2, 3, 4... one
  each ([Character.deprived_day][companion.rulesets.cairn_srd.character.Character.deprived_day]).
  The first day is the grace "more than a day" gives; counting it as well would drop two
  Fatigue at once on day 2, a jump the seed does not describe. The count starts again
  when the character is no longer Deprived.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion import dice as engine
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rulesets.cairn_srd import spellcasting
from companion.rulesets.cairn_srd.burden import (
    MAX_ITEM_NAME,
    SLOTS,
    Item,
    make_item,
    roll_usage,
    slot_shares,
    slots_used,
    slots_used_per_purse,
)
from companion.rulesets.cairn_srd.damage import Hit, resolve_hit
from companion.rulesets.cairn_srd.fixed_tables import read_row
from companion.rulesets.cairn_srd.saves import MAX_SCORE, SaveResult, check_score, save
from companion.state import (
    OWN_NUMBERS,
    OWNER,
    Tracker,
    decode_value,
    move,
    state_field,
    upcaster,
)

LIBRARY_ONLY: dict[str, str] = {
    "Character.maneuver_save": "the apps make a maneuver in the fight (Encounter.maneuver), "
                               "which saves for the attacker and puts a failed save's "
                               "Fatigue on the linked sheet (take_fatigue); this is the same "
                               "save for code that plays a sheet without a fight",
}

MAX_NAME = 40
MAX_BOAST = 120
MAX_ENTRIES = 200
"""Most burden entries, scars or scrolls one sheet holds (petty things fill no slot)."""
MAX_INSPIRATION = 100
MAX_FATE = 200
"""Longest reason a character died or left play."""
MAX_DOOMS = 3
"""The 3rd doom takes spellcasting for good; no doom comes after it."""
SCAR_DIE = 12
"""The scar table's die when a scar is rolled rather than read from damage (d12)."""

_ABILITY_FIELDS = {"STR": "strength", "DEX": "dexterity", "CTRL": "control"}


def _ability_field(ability: str) -> str:
    key = ability.strip().upper()
    if key not in _ABILITY_FIELDS:
        raise RuleError(f"Ability Scores: no ability “{ability}” (STR, DEX or CTRL)")
    return _ABILITY_FIELDS[key]


@dataclass
class DamageReport:
    """What one call of
    [Character.take_damage][companion.rulesets.cairn_srd.character.Character.take_damage] did."""

    hit: Hit
    critical_save: SaveResult | None = None
    scar: str | None = None
    scar_effect: str | None = None
    scar_roll: int | None = None
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        h = self.hit
        text = f"{h.rolled} damage: armor {h.absorbed}, Guard {h.to_guard}, STR {h.to_str}"
        if self.critical_save is not None:
            text += f"; Critical Damage save {self.critical_save}"
        if self.scar:
            text += f"; scar: {self.scar} ({self.scar_effect})"
        return "; ".join([text, *self.notes])


@dataclass
class ScarReport:
    """What one call of
    [Character.suffer_scar][companion.rulesets.cairn_srd.character.Character.suffer_scar]
    did."""

    roll: int
    scar: str
    effect: str
    scar_roll: int | None = None
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join([f"scar {self.roll}: {self.scar} ({self.effect})", *self.notes])


@dataclass
class CastReport:
    """What one call of [Character.cast][companion.rulesets.cairn_srd.character.Character.cast]
    did."""

    reading: spellcasting.MagicReading
    notes: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join([str(self.reading), *self.notes])


@dataclass
class Character(Tracker):
    """A player character tracked move by move (undo, JSON save/load).

    Schema version 2 (2026-11-27) added ``per_purse_coins`` (set by the upcaster from
    version 1, for a burden kept under the per-purse coin reading) and ``fates_taken``."""

    schema = 2
    links = ("Encounter",)  # a fight at its table may hold it (see ``danger``)

    name: str = state_field("Adventurer", max_len=MAX_NAME)
    strength_max: int = state_field(10, min=0, max=MAX_SCORE)
    dexterity_max: int = state_field(10, min=0, max=MAX_SCORE)
    control_max: int = state_field(10, min=0, max=MAX_SCORE)
    strength: int = state_field(10, min=0, max=MAX_SCORE)
    dexterity: int = state_field(10, min=0, max=MAX_SCORE)
    control: int = state_field(10, min=0, max=MAX_SCORE)
    guard_max: int = state_field(3, min=0, max=MAX_SCORE)
    guard: int = state_field(3, min=0, max=MAX_SCORE)
    armor: int = state_field(0, min=0, max=MAX_SCORE)
    items: list[Item] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    scars: list[str] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    dooms: int = state_field(0, min=0, max=MAX_DOOMS)
    inspiration: int = state_field(0, min=0, max=MAX_INSPIRATION)
    deprived: bool = False
    panicking: bool = False
    critical: bool = False
    dead: bool = False
    doomed_scar: bool = False
    """Scar 12: the next failed Critical Damage save kills."""
    scar_recovery: str = state_field("", choices=("", "Walloped", "Out of action"))
    casting_barred: str = ""
    """Why spellcasting is barred for now (empty: it is not)."""
    mishap_fatigue_from_3: bool = False
    boast: str = state_field("", max_len=MAX_BOAST)
    boast_bonuses: list[str] = state_field(
        default_factory=list, choices=("strength", "dexterity", "control", "guard"))
    boasts_made: int = state_field(0, min=0)
    boasting_barred: bool = False
    cumbersome: bool = False
    """Carrying something cumbersome (a couch, a dresser) in both hands: 0 Guard."""
    deprived_days: int = state_field(0, min=0)
    scrolls: list[str] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    grimoire: list[str] | None = None
    """Spells in the character's grimoire (``None``: no grimoire)."""
    fate: str = state_field("", max_len=MAX_FATE)
    """Why the character died or left play ("" while in play)."""
    weapon_kills: dict[str, int] = state_field(default_factory=dict, min=0, max_len=MAX_ENTRIES)
    """Foes given Critical Damage with each weapon (weapon mastery)."""
    per_purse_coins: bool = False
    """The burden was kept under the earlier reading, where each purse's first 500 coins
    were petty, and fills more than 10 slots counted together (set by the upcaster from
    schema 1): it stays as it is, with no free slot until coins are dropped."""
    fates_taken: list[str] = state_field(default_factory=list, max_len=MAX_ENTRIES)
    """Where each fate put on the sheet by a source came from (a darkness fate, a failed
    escape: [Character.suffer_scar][companion.rulesets.cairn_srd.character.Character.suffer_scar],
    [Character.lose_gear][companion.rulesets.cairn_srd.character.Character.lose_gear]), so
    that one is applied once. Kept in the state, not read from the undo log: a campaign
    trims that log, and a fate read from it would be applied again later."""

    def check_state(self) -> None:
        from companion.errors import StateError

        for cur, top in (("strength", "strength_max"), ("dexterity", "dexterity_max"),
                         ("control", "control_max"), ("guard", "guard_max")):
            if getattr(self, cur) > getattr(self, top):
                raise StateError(f"field '{cur}' exceeds '{top}'")
        # A burden kept before coins were counted across purses (issue 30) may fill more
        # than 10 slots now: the upcaster from schema 1 marks it (per_purse_coins), and
        # only such a sheet is counted per purse here (nothing more fits on it until
        # coins are dropped: see free_slots).
        used = (slots_used_per_purse(self.items) if self.per_purse_coins
                else slots_used(self.items))
        if used > SLOTS:
            raise StateError(f"field 'items' fills more than {SLOTS} slots")
        if self.strength == 0 and not self.dead:
            raise StateError("field 'dead': STR 0 is death")

    # -- derived -----------------------------------------------------------------------

    @property
    def slots_used(self) -> int:
        return slots_used(self.items)

    @property
    def slot_shares(self) -> list[int]:
        """The slots each burden entry fills, in order (coins counted across the burden)."""
        return slot_shares(self.items)

    @property
    def free_slots(self) -> int:
        return max(0, SLOTS - self.slots_used)  # never below 0: see check_state

    @property
    def fatigue(self) -> int:
        return sum(1 for i in self.items if i.kind == "fatigue")

    @property
    def wounds(self) -> list[Item]:
        return [i for i in self.items if i.kind == "wound"]

    @property
    def effective_guard(self) -> int:
        """Guard that soaks damage now: 0 while all slots are full, a cumbersome load is
        carried in both hands, or while panicking."""
        return 0 if self.free_slots == 0 or self.panicking or self.cumbersome else self.guard

    @property
    def status(self) -> str:
        if self.dead:
            return f"dead ({self.fate})" if self.fate else "dead"
        if self.fate:
            return f"out of play ({self.fate})"
        words = [w for w, on in (("critical", self.critical), ("deprived", self.deprived),
                                 ("panicking", self.panicking),
                                 ("paralysed", self.dexterity == 0),
                                 ("delirious", self.control == 0)) if on]
        return ", ".join(words) or "ready"

    def __str__(self) -> str:
        """The sheet as a player reads it across the table: Guard and STR (which damage
        wears down) against their maximum, DEX and CTRL too once lowered, then whatever
        holds the character back.

        >>> ash = Character(name="Ash", guard_max=4, guard=3, dexterity_max=12,
        ...                 dexterity=12, control_max=8, control=8, deprived=True)
        >>> print(ash)
        Ash — Guard 3/4, STR 10/10, DEX 12, CTRL 8 · deprived
        """
        def score(label: str, now: int, top: int) -> str:
            return f"{label} {now}" if now == top else f"{label} {now}/{top}"

        scores = [f"Guard {self.guard}/{self.guard_max}",
                  f"STR {self.strength}/{self.strength_max}",
                  score("DEX", self.dexterity, self.dexterity_max),
                  score("CTRL", self.control, self.control_max)]
        notes = [] if self.status == "ready" else [self.status]
        notes += [text for text, on in ((self.scar_recovery.lower(), self.scar_recovery),
                                        (f"{self.fatigue} fatigue", self.fatigue),
                                        (f"{self.dooms} doom(s)", self.dooms)) if on]
        return f"{self.name} — {', '.join(scores)}" + (f" · {', '.join(notes)}" if notes else "")

    def _alive(self, rule: str) -> None:
        if self.dead:
            raise RuleError(f"{rule}: {self.name} is dead")

    # -- burden ------------------------------------------------------------------------

    @move
    def add_item(
        self, name: str, tag: str = "normal", quantity: int = 1, usage_die: int | None = None
    ) -> Item:
        """Put an item in the burden; refused if it does not fit in the free slots."""
        item = make_item(name, tag, quantity, usage_die)
        # Coins count with the coins already carried: only the first 500 in all are petty.
        needed = slots_used([*self.items, item]) - self.slots_used
        if needed > self.free_slots:
            raise RuleError(
                f"Burden: {item.label} needs {needed} slot(s), {self.free_slots} free"
            )
        self.items.append(item)
        self.describe(f"{self.name} takes {item.label}")
        return item

    def _item(self, index: int) -> Item:
        if not 0 <= index < len(self.items):
            raise RuleError(f"Burden: no slot entry #{index + 1}")
        return self.items[index]

    @move
    def drop_item(self, index: int) -> Item:
        """Drop an item (not a Fatigue or Wound: those leave by rest or healing)."""
        item = self._item(index)
        if item.kind != "item":
            raise RuleError(f"Other Burdens: a {item.kind} cannot be dropped like an item")
        self.items.pop(index)
        self.describe(f"{self.name} drops {item.label}")
        return item

    @move
    def use_item(self, index: int, rng: random.Random | None = None,
                 seed: int | None = None) -> str:
        """Use an item: roll its usage die, or spend one of a bundle/stack/coins."""
        item = self._item(index)
        if item.kind != "item":
            raise RuleError(f"Other Burdens: a {item.kind} cannot be used")
        if not item.usable:
            raise RuleError(f"Encumbrance Tags: {item.name} has no usage die or count")
        if item.usage_die:
            value, after = roll_usage(item.usage_die, make_rng(seed, rng))
            if after is None:
                self.items.pop(index)
                text = f"{item.name}: Ud4 = 1, used up"
            else:
                text = f"{item.name}: Ud{item.usage_die} = {value}" + (
                    f", steps down to Ud{after}" if after != item.usage_die else "")
                item.usage_die = after
        else:
            item.quantity -= 1
            if item.quantity == 0:
                self.items.pop(index)
            text = f"{item.name}: one used, {item.quantity} left"
        self.describe(text)
        return text

    @move
    def add_fatigue(self, count: int = 1) -> None:
        """Take Fatigue; with no free slot an item must be dropped first."""
        if count < 1:
            raise RuleError("Fatigue: take at least one")
        if count > self.free_slots:
            raise RuleError(
                f"Fatigue: no free slot for {count} Fatigue ({self.free_slots} free): "
                "drop an item first")
        self.items.extend(Item("Fatigue", kind="fatigue") for _ in range(count))
        self.describe(f"{self.name} takes {count} Fatigue")

    @move
    def add_wound(self, name: str = "Wound", major: bool = False) -> None:
        """Take a Wound into a burden slot (it stays until healed)."""
        if self.free_slots < 1:
            raise RuleError("Wounds: no free slot: drop an item first")
        if len(name.strip()) > MAX_ITEM_NAME:
            raise RuleError(f"Wounds: a name has at most {MAX_ITEM_NAME} characters")
        self.items.append(Item(name.strip() or "Wound", kind="wound", major=major))
        self.describe(f"{self.name} suffers {name}" + (" (major)" if major else ""))

    @move
    def heal_wound(self, index: int) -> None:
        """Remove a Wound (needs medical expertise or supernatural help)."""
        item = self._item(index)
        if item.kind != "wound":
            raise RuleError(f"Wounds: entry #{index + 1} is not a Wound")
        self.items.pop(index)
        self.describe(f"{self.name}'s {item.name} is healed")

    def _force_burden(self, item: Item, notes: list[str]) -> None:
        if self.free_slots < 1:
            # An item whose going frees a slot (a purse only if the coins left need fewer).
            used = self.slots_used
            droppable = [i for i, it in enumerate(self.items) if it.kind == "item"
                         and slots_used(self.items[:i] + self.items[i + 1:]) < used]
            if not droppable:
                notes.append(f"no slot for {item.name}: every slot is already a burden")
                return
            dropped = self.items.pop(droppable[-1])
            notes.append(f"dropped {dropped.label} to make room for {item.name}")
        self.items.append(item)

    # -- damage ------------------------------------------------------------------------

    @move
    def take_damage(self, amount: int, direct: bool = False, combat: bool = True,
                    rng: random.Random | None = None, seed: int | None = None,
                    wounds: list[int] | None = None) -> DamageReport:
        """Apply a hit by the rules: armor, Guard, STR, the Critical Damage save (-1 per
        major Wound named in ``wounds``), scars."""
        return self._hit(amount, direct, combat, make_rng(seed, rng), wounds, self.armor)

    def _hit(self, amount: int, direct: bool, combat: bool, r: random.Random,
             wounds: list[int] | None, armor: int) -> DamageReport:
        self._alive("Damage")
        if amount < 0:
            raise RuleError(f"Damage: damage cannot be negative, got {amount}")
        self.wound_penalty(wounds)  # checked before anything changes
        guard_before = self.effective_guard
        hit = resolve_hit(amount, guard=guard_before, strength=self.strength,
                          armor=armor, direct=direct)
        if guard_before == self.guard:
            self.guard = hit.guard_after
        self.strength = hit.str_after
        report = DamageReport(hit)
        if hit.to_str and self.strength == 0:
            self.dead = True
            report.notes.append("STR 0: dead")
        elif hit.to_str and combat:
            report.critical_save = save(self.save_score("STR", wounds), rng=r)
            self._critical_save_outcome(report.critical_save, report.notes, r)
        if hit.scar_damage is not None:
            self._scar(hit.scar_damage, report, r)
        self.describe(f"{self.name}: {report}")
        return report

    def _critical_save_outcome(self, result: SaveResult, notes: list[str],
                               r: random.Random) -> None:
        if not result.success:
            if self.doomed_scar:
                self.dead = True
                notes.append("Doomed scar: failed Critical Damage save, dies horribly")
            else:
                self.critical = True
                notes.append("Critical Damage: out of the action, dying without aid")
        elif self.doomed_scar:
            self.doomed_scar = False
            roll = engine.roll("3d6", rng=r).total
            if roll > self.guard_max:
                self.guard_max = min(MAX_SCORE, roll)
            notes.append(f"Doomed scar passed: 3d6 = {roll}, max Guard {self.guard_max}")

    def _scar(self, taken: int, report: DamageReport, r: random.Random) -> None:
        scar = self._apply_scar(taken, r)
        report.scar, report.scar_effect = scar.scar, scar.effect
        report.scar_roll = scar.scar_roll
        report.notes.extend(scar.notes)

    def _apply_scar(self, taken: int, r: random.Random) -> ScarReport:
        row = read_row("cairn_scars", taken)
        report = ScarReport(taken, row["Scar"], row["Effect"])
        if len(self.scars) >= MAX_ENTRIES:
            raise RuleError(f"Scars: a sheet holds at most {MAX_ENTRIES} scars")
        self.scars.append(row["Scar"])
        if row["Scar"] == "Distressed":
            report.scar_roll = engine.roll("1d6", rng=r).total
            self.control = max(0, self.control - report.scar_roll)
            report.notes.append(f"d6 CTRL damage = {report.scar_roll}: a panic save is due")
        elif row["Scar"] == "Rattled":
            self.guard_max = min(MAX_SCORE, self.guard_max + 1)
            self.guard = min(self.guard_max, self.guard + 1)
        elif row["Scar"] == "Walloped":
            self.deprived = True
            self.scar_recovery = "Walloped"
        elif row["Scar"] == "Out of action":
            self.deprived = True
            self.critical = True
            self.scar_recovery = "Out of action"
        elif row["Scar"] == "Doomed":
            self.doomed_scar = True
        return report

    @move
    def suffer_scar(self, roll: int | None = None, source: str = "",
                    rng: random.Random | None = None, seed: int | None = None) -> ScarReport:
        """Take a scar from a table outside combat (a fate in the dark, a failed escape):
        the scar table's row ``roll`` (1-12), or a d12 rolled here; its effect applies
        to the sheet exactly as a scar from a hit does. ``source`` names where it came
        from (kept in the log)."""
        self._alive("Scars")
        self._take_fate(source)
        r = make_rng(seed, rng)
        if roll is None:
            roll = engine.roll(f"1d{SCAR_DIE}", rng=r).total
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= SCAR_DIE:
            raise RuleError(f"Scars: the scar table reads 1 to {SCAR_DIE}, not {roll}")
        report = self._apply_scar(roll, r)
        self.describe(f"{self.name} is scarred: {report}" + (f" ({source})" if source else ""))
        return report

    @move
    def die(self, reason: str) -> None:
        """Mark the character dead, saying why (a fate table, a trap, the referee's call)."""
        self._alive("Death")
        why = _reason(reason, "Death")
        self.dead, self.fate = True, why
        self.describe(f"{self.name} is dead: {why}")

    @move
    def leave_play(self, reason: str) -> None:
        """The character is out of play but alive (lost, captured, transformed,
        traumatised into an NPC), saying why."""
        self._alive("Fate")
        if self.fate:
            raise RuleError(f"Fate: {self.name} is already out of play ({self.fate})")
        why = _reason(reason, "Fate")
        self.fate = why
        self.describe(f"{self.name} leaves play: {why}")

    @move
    def rejoin(self) -> None:
        """An out-of-play character comes back (found, ransomed, freed)."""
        self._alive("Fate")
        if not self.fate:
            raise RuleError(f"Fate: {self.name} is in play")
        self.describe(f"{self.name} is back in play (was: {self.fate})")
        self.fate = ""

    @move
    def lose_gear(self, pieces: list[int] | None = None, source: str = "") -> list[str]:
        """Lose items (not Fatigue or Wounds): ``None`` loses all gear; otherwise each
        number counts an item from the top of the sheet (a number past the last item
        loses nothing, the same item counted twice is lost once). Returns what was lost.
        ``source`` names where the loss came from (kept in the log)."""
        self._alive("Equipment")
        self._take_fate(source)
        gear = [i for i, it in enumerate(self.items) if it.kind == "item"]
        if pieces is None:
            chosen = gear
        else:
            if len(pieces) > MAX_ENTRIES:
                raise RuleError(f"Equipment: at most {MAX_ENTRIES} pieces at once")
            for p in pieces:
                if isinstance(p, bool) or not isinstance(p, int) or p < 1:
                    raise RuleError(f"Equipment: a piece is counted from 1, not {p}")
            chosen = sorted({gear[p - 1] for p in pieces if p <= len(gear)})
        lost = [self.items[i].label for i in chosen]
        for i in reversed(chosen):
            self.items.pop(i)
        self.describe(f"{self.name} loses " + (", ".join(lost) if lost else "nothing")
                      + (f" ({source})" if source else ""))
        return lost

    def _take_fate(self, source: str) -> None:
        """Note that the fate from ``source`` is on the sheet (refused if it already is)."""
        _source(source)
        if not source:
            return
        if source in self.fates_taken:
            raise RuleError(f"{source}: already applied to {self.name}'s sheet")
        self.fates_taken = [*self.fates_taken[-(MAX_ENTRIES - 1):], source]

    @move
    def take_fatigue(self, source: str = "") -> str:
        """A Fatigue forced by the rules (a failed maneuver save, a spell): with no free
        slot the most recently added item is dropped for it."""
        self._alive("Fatigue")
        _source(source)
        notes: list[str] = []
        self._force_burden(Item("Fatigue", kind="fatigue"), notes)
        text = (f"{self.name} takes a Fatigue" + (f" ({source})" if source else "")
                + "".join(f"; {n}" for n in notes))
        self.describe(text)
        return text

    @move
    def record_critical_kill(self, weapon: str) -> str:
        """Count a foe given Critical Damage with ``weapon``: every 5 unlock one of its
        feats (at most 6)."""
        from companion.rulesets.cairn_srd.combat import mastery_feats

        name = weapon.strip()
        if not name or len(name) > MAX_ITEM_NAME:
            raise RuleError(f"Weapon Feats: name the weapon (1 to {MAX_ITEM_NAME} characters)")
        if name not in self.weapon_kills and len(self.weapon_kills) >= MAX_ENTRIES:
            raise RuleError(f"Weapon Feats: at most {MAX_ENTRIES} weapons are counted")
        before = mastery_feats(self.weapon_kills.get(name, 0))
        self.weapon_kills[name] = self.weapon_kills.get(name, 0) + 1
        feats = mastery_feats(self.weapon_kills[name])
        text = (f"{self.name}'s {name}: {self.weapon_kills[name]} critical kill(s), "
                f"{feats} feat(s) unlocked" + ("; a new feat!" if feats > before else ""))
        self.describe(text)
        return text

    def weapon_feats(self, weapon: str) -> int:
        """Feats unlocked with ``weapon`` so far."""
        from companion.rulesets.cairn_srd.combat import mastery_feats

        return mastery_feats(self.weapon_kills.get(weapon.strip(), 0))

    def wound_penalty(self, wounds: list[int] | None = None) -> int:
        """The -1 per major Wound the referee names relevant to a save (``wounds``: burden
        entries counted from 1), each checked to be a major Wound."""
        named = sorted(set(wounds or []))
        for n in named:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(self.items):
                raise RuleError(f"Wounds: no burden entry #{n}")
            item = self.items[n - 1]
            if item.kind != "wound" or not item.major:
                raise RuleError(f"Wounds: entry #{n} ({item.label}) is not a major Wound")
        return len(named)

    def save_score(self, ability: str, wounds: list[int] | None = None) -> int:
        """The score a save by ``ability`` uses, less 1 per major Wound named (``wounds``),
        never below 0 (for saves made elsewhere, such as escaping the dungeon)."""
        score: int = getattr(self, _ability_field(ability))
        return max(0, score - self.wound_penalty(wounds))

    @move
    def ability_save(self, ability: str, floor: int = 0, wounds: list[int] | None = None,
                     rng: random.Random | None = None, seed: int | None = None) -> SaveResult:
        """A save by ``ability`` over an optional difficulty ``floor``; each major Wound
        the referee names relevant (``wounds``: burden entries counted from 1) gives -1."""
        self._alive("Saving Throw")
        penalty = self.wound_penalty(wounds)
        result = save(self.save_score(ability, wounds), floor=floor, rng=make_rng(seed, rng))
        self.describe(f"{self.name} saves {ability.strip().upper()}: {result}"
                      + (f" (-{penalty} for major Wounds)" if penalty else ""))
        return result

    @move
    def damage_ability(self, ability: str, amount: int) -> None:
        """Damage an ability directly (traps, environment): no Guard, no Critical save."""
        self._alive("Damage")
        name = _ability_field(ability)
        if amount < 0:
            raise RuleError(f"Damage: damage cannot be negative, got {amount}")
        setattr(self, name, max(0, getattr(self, name) - amount))
        if self.strength == 0:
            self.dead = True
        self.describe(f"{self.name} takes {amount} {ability.upper()} damage"
                      + (" and dies" if self.dead else ""))

    @move
    def recover_scar(self, rng: random.Random | None = None, seed: int | None = None) -> int:
        """Finish a Walloped (rest: +1d6 Guard) or Out of action (recovery: 2d6) scar."""
        self._alive("Scars")
        r = make_rng(seed, rng)
        if self.scar_recovery == "Walloped":
            roll = engine.roll("1d6", rng=r).total
            self.guard_max = min(MAX_SCORE, self.guard_max + roll)
            self.guard = min(self.guard_max, self.guard + roll)
            self.describe(f"Walloped recovery: +{roll} Guard and max Guard "
                          f"({self.guard}/{self.guard_max})")
        elif self.scar_recovery == "Out of action":
            roll = engine.roll("2d6", rng=r).total
            self.guard_max = min(MAX_SCORE, roll if roll > self.guard_max else self.guard_max + 1)
            self.critical = False
            self.describe(f"Out of action recovery: 2d6 = {roll}, max Guard {self.guard_max}")
        else:
            raise RuleError("Scars: no Walloped or Out of action scar awaits recovery")
        self.deprived = False
        self.scar_recovery = ""
        return roll

    @move
    def panic_save(self, rng: random.Random | None = None, seed: int | None = None,
                   wounds: list[int] | None = None) -> SaveResult:
        """CTRL save against panic (-1 per major Wound named in ``wounds``); failing it
        leaves the character panicking."""
        self._alive("Panic")
        penalty = self.wound_penalty(wounds)
        result = save(self.save_score("CTRL", wounds), rng=make_rng(seed, rng))
        if not result.success:
            self.panicking = True
        self.describe(f"{self.name} panic save: {result}"
                      + (f" (-{penalty} for major Wounds)" if penalty else ""))
        return result

    @move
    def calm_down(self) -> None:
        """End panic (the danger has passed)."""
        if not self.panicking:
            raise RuleError(f"Panic: {self.name} is not panicking")
        self.panicking = False
        self.describe(f"{self.name} calms down")

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_maxima(self, strength: int, dexterity: int, control: int, guard: int,
                   armor: int) -> None:
        """Set the character's maximum STR, DEX, CTRL and Guard and its Armor (the table's
        correction of a sheet). Each current value moves by as much as its maximum, so
        damage already taken stays taken; a lowered maximum pulls the current value down
        with it (never below 0). Scores run 0-18. Refused when it would bring a living
        character's STR to 0: that is death, which damage decides, not an edit.

        >>> ash = Character(name="Ash", strength_max=12, strength=12)
        >>> ash.damage_ability("STR", 4); ash.set_maxima(14, 10, 10, 3, 1)
        >>> (ash.strength, ash.strength_max, ash.armor)
        (10, 14, 1)
        """
        for value, what in ((strength, "STR"), (dexterity, "DEX"), (control, "CTRL"),
                            (guard, "Guard"), (armor, "Armor")):
            check_score(value, what)
        for current, top, new_max in (("strength", "strength_max", strength),
                                      ("dexterity", "dexterity_max", dexterity),
                                      ("control", "control_max", control),
                                      ("guard", "guard_max", guard)):
            lost = getattr(self, top) - getattr(self, current)
            setattr(self, top, new_max)
            setattr(self, current, max(0, min(new_max, new_max - lost)))
        if self.strength == 0 and not self.dead:
            raise RuleError(f"Ability Scores: a STR maximum of {strength} would leave "
                            f"{self.name} at 0 STR, which is death")
        self.armor = armor
        self.describe(f"{self.name}: STR {self.strength}/{strength}, DEX {self.dexterity}/"
                      f"{dexterity}, CTRL {self.control}/{control}, Guard {self.guard}/"
                      f"{guard}, Armor {armor}")

    @move
    def set_deprived(self, deprived: bool = True) -> None:
        """Become Deprived, or leave it (food, water and sleep again); a Walloped or Out
        of action scar keeps the character Deprived until its recovery
        ([Character.recover_scar][companion.rulesets.cairn_srd.character.Character.recover_scar])."""
        if not deprived and self.scar_recovery:
            raise RuleError(f"Scars: {self.scar_recovery} keeps {self.name} Deprived until "
                            "the scar's recovery")
        if deprived == self.deprived:
            raise RuleError(f"Deprivation: {self.name} is "
                            f"{'already' if deprived else 'not'} Deprived")
        self.deprived = deprived
        if not deprived:
            self.deprived_days = 0
        self.describe(f"{self.name} is {'deprived' if deprived else 'no longer deprived'}")

    @move
    def deprived_day(self) -> list[str]:
        """A day passes while Deprived: every day after the first adds a Fatigue."""
        self._alive("Deprivation")
        if not self.deprived:
            raise RuleError(f"Deprivation: {self.name} is not deprived")
        self.deprived_days += 1
        notes: list[str] = []
        if self.deprived_days > 1:
            self._force_burden(Item("Fatigue", kind="fatigue"), notes)
        self.describe(f"{self.name}: day {self.deprived_days} deprived"
                      + (", +1 Fatigue" if self.deprived_days > 1 else "")
                      + "".join(f"; {n}" for n in notes))
        return notes

    @move
    def carry_cumbersome(self, carrying: bool = True) -> None:
        """Take up (or set down) a cumbersome load in both hands: Guard counts as 0."""
        self.cumbersome = carrying
        self.describe(f"{self.name} {'hefts' if carrying else 'sets down'} a cumbersome load")

    @move
    def agony(self, rng: random.Random | None = None, seed: int | None = None) -> DamageReport:
        """Stunned or paralysed: take 1d6 damage, armor no help, to act normally this round."""
        self._alive("Agony")
        r = make_rng(seed, rng)
        report = self._hit(engine.roll("1d6", rng=r).total, False, True, r, None, armor=0)
        self.describe(f"{self.name} fights through agony: {report}")
        return report

    @move
    def enervation(self) -> None:
        """Stunned or paralysed: lower max Guard by 1 for good to act normally this round."""
        self._alive("Enervation")
        if self.guard_max < 1:
            raise RuleError("Enervation: max Guard is already 0")
        self.guard_max -= 1
        self.guard = min(self.guard, self.guard_max)
        self.describe(f"{self.name} acts through enervation: max Guard {self.guard_max}")

    @move
    def maneuver_save(self, ability: str, rng: random.Random | None = None,
                      seed: int | None = None) -> SaveResult:
        """The maneuvering attacker's own save: failing it costs a Fatigue."""
        self._alive("Maneuvers")
        result = save(getattr(self, _ability_field(ability)), rng=make_rng(seed, rng))
        notes: list[str] = []
        if not result.success:
            self._force_burden(Item("Fatigue", kind="fatigue"), notes)
        self.describe(f"{self.name} maneuver save: {result}"
                      + ("; +1 Fatigue" if not result.success else "")
                      + "".join(f"; {n}" for n in notes))
        return result

    # -- rest --------------------------------------------------------------------------

    @property
    def danger(self) -> str:
        """Why the character is not out of danger now ("": it is, or the sheet sits at no
        table): a fight at the sheet's table ([Tracker.link][companion.state.Tracker.link],
        declared in ``links``) that holds it says so
        ([Encounter.danger][companion.rulesets.cairn_srd.combat.Encounter.danger])."""
        from companion.rulesets.cairn_srd.combat import Encounter

        for fight in self.linked(Encounter).values():
            why = fight.danger_for(self)
            if why:
                return why
        return ""

    def _out_of_danger(self, rest: str) -> None:
        why = self.danger
        if why:
            raise RuleError(f"Rest: {rest} needs the character out of danger; "
                            f"{self.name} is {why}")

    @move
    def rest_turn(self) -> None:
        """A turn of rest: stabilises Critical Damage and restores Guard (not if Deprived);
        refused in the middle of a fight (rest is taken out of danger)."""
        self._alive("Rest")
        self._out_of_danger("a turn of rest")
        self.critical = self.critical and self.scar_recovery == "Out of action"
        if not self.deprived:
            self.guard = self.guard_max
        self.describe(f"{self.name} rests a turn: Guard {self.guard}/{self.guard_max}"
                      + (" (deprived: no recovery)" if self.deprived else ""))

    @move
    def rest_night(self) -> None:
        """A good night's rest removes all Fatigue (not in the middle of a fight)."""
        self._alive("Rest")
        self._out_of_danger("a night's rest")
        removed = self.fatigue
        self.items = [i for i in self.items if i.kind != "fatigue"]
        self.describe(f"{self.name} sleeps: {removed} Fatigue removed")

    @move
    def rest_day(self) -> None:
        """A full day's rest: +1 to each reduced ability (not if Deprived, not in the
        middle of a fight)."""
        self._alive("Rest")
        self._out_of_danger("a day's rest")
        if self.deprived:
            raise RuleError("Deprivation: a deprived character cannot recover abilities")
        for cur in ("strength", "dexterity", "control"):
            setattr(self, cur, min(getattr(self, cur + "_max"), getattr(self, cur) + 1))
        self.describe(f"{self.name} rests a day: STR {self.strength}, DEX {self.dexterity}, "
                      f"CTRL {self.control}")

    # -- boasts and inspiration -----------------------------------------------------------

    @move
    def make_boast(self, goal: str, ability: str) -> None:
        """Vow a goal: +1 to ``ability`` and +1 Guard (no bonus after 15 boasts)."""
        self._alive("Boasts")
        if self.boasting_barred:
            raise RuleError("Boasts: a character who shirked a boast may never boast again")
        if self.boast:
            raise RuleError(f"Boasts: only one boast may be pending (“{self.boast}”)")
        if not goal.strip():
            raise RuleError("Boasts: a boast needs a goal")
        if len(goal.strip()) > MAX_BOAST:
            raise RuleError(f"Boasts: a goal has at most {MAX_BOAST} characters, "
                            f"got {len(goal.strip()):,}")
        name = _ability_field(ability)
        self.boast, self.boast_bonuses = goal.strip(), []
        self.boasts_made += 1
        if self.boasts_made <= 15:
            self._boast_bonus(name)
            self._boast_bonus("guard")
        self.describe(f"{self.name} boasts: {self.boast}")

    def _boast_bonus(self, name: str) -> None:
        if getattr(self, name + "_max") < MAX_SCORE:
            setattr(self, name + "_max", getattr(self, name + "_max") + 1)
            setattr(self, name, getattr(self, name) + 1)
            self.boast_bonuses.append(name)

    @move
    def raise_stakes(self, bonus: str) -> None:
        """A complication added by a friend or rival: another +1 (Guard or an ability)."""
        if not self.boast:
            raise RuleError("Boasts: no pending boast to raise the stakes of")
        name = "guard" if bonus.strip().lower() in ("gd", "guard") else _ability_field(bonus)
        if self.boasts_made <= 15:
            self._boast_bonus(name)
        shown = {"guard": "Guard", "strength": "STR", "dexterity": "DEX", "control": "CTRL"}
        self.describe(f"The stakes of {self.name}'s boast are raised: +1 {shown[name]}")

    @move(who_may=OWNER)  # the challenger's own boast, as make_boast is: theirs and the GM's
    def take_up_boast(self, goal: str, complication: str, ability: str, bonus: str) -> None:
        """This character raised the stakes of another's boast (``goal``) with
        ``complication``, the boaster refused, and this challenger must take up the new
        boast: it becomes this character's pending boast, with a boast's +1 to ``ability``
        and +1 Guard and the complication's +1 to ``bonus`` (Guard or an ability).

        Interpretation: the refused boast is made as any boast is, so its rules hold for
        the challenger: a challenger with a boast pending, or barred from boasting, cannot
        take it up (and so cannot up the stakes), it counts toward the 15 boasts that give
        bonuses, and shirked it loses all three bonuses. The boaster who refused keeps
        their own boast as it was.
        """
        rule = "Boasts"
        if not complication.strip():
            raise RuleError(f"{rule}: a raised boast names its complication")
        if not goal.strip():
            raise RuleError(f"{rule}: a boast needs a goal")
        text = f"{goal.strip()}, with {complication.strip()}"
        if len(text) > MAX_BOAST:
            raise RuleError(f"{rule}: a goal with its complication has at most {MAX_BOAST} "
                            f"characters, got {len(text):,}")
        name = "guard" if bonus.strip().lower() in ("gd", "guard") else _ability_field(bonus)
        self.make_boast(text, ability)
        if self.boasts_made <= 15:
            self._boast_bonus(name)
        self.describe(f"{self.name} takes up the refused boast: {text}")

    @move
    def fulfil_boast(self) -> None:
        """The goal is met: fame spreads and a new boast may be made."""
        if not self.boast:
            raise RuleError("Boasts: no pending boast")
        self.describe(f"{self.name} fulfils the boast: {self.boast}")
        self.boast, self.boast_bonuses = "", []

    @move
    def shirk_boast(self) -> None:
        """Give up the boast: lose its bonuses and never boast again."""
        if not self.boast:
            raise RuleError("Boasts: no pending boast")
        for name in self.boast_bonuses:
            setattr(self, name + "_max", getattr(self, name + "_max") - 1)
            setattr(self, name, max(0, min(getattr(self, name), getattr(self, name + "_max"))))
        self.describe(f"{self.name} shirks the boast ({self.boast}): its bonuses are lost, "
                      "and no boast ever again")
        self.boast, self.boast_bonuses, self.boasting_barred = "", [], True

    @move
    def earn_inspiration(self) -> None:
        """Gain an inspiration die (recap written, map kept)."""
        if self.inspiration >= MAX_INSPIRATION:
            raise RuleError(f"Inspiration: at most {MAX_INSPIRATION} dice are hoarded")
        self.inspiration += 1
        self.describe(f"{self.name} earns an inspiration die ({self.inspiration} now)")

    @move
    def use_inspiration(self, rng: random.Random | None = None,
                        seed: int | None = None) -> list[int]:
        """Roll every inspiration die at once; the player keeps one result."""
        if self.inspiration < 1:
            raise RuleError("Inspiration: no inspiration dice to roll")
        from companion.rulesets.cairn_srd.saves import roll_inspiration

        rolled = roll_inspiration(self.inspiration, rng=make_rng(seed, rng))
        self.inspiration = 0
        self.describe(f"{self.name} rolls inspiration {', '.join(map(str, rolled))}: keep one")
        return rolled

    # -- spellcasting ---------------------------------------------------------------------

    @move
    def gain_scroll(self, spell: str) -> None:
        """Pick up a spell scroll (petty: no slot)."""
        if not spell.strip():
            raise RuleError("Spellcasting: a scroll needs a spell name")
        if len(spell.strip()) > MAX_NAME:
            raise RuleError(f"Spellcasting: a spell's name has at most {MAX_NAME} characters")
        self.scrolls.append(spell.strip())
        self.describe(f"{self.name} picks up a scroll of {spell.strip()}")

    def _scroll(self, index: int) -> str:
        if not 0 <= index < len(self.scrolls):
            raise RuleError(f"Spellcasting: no scroll #{index + 1}")
        return self.scrolls[index]

    @move
    def create_grimoire(self, scroll_index: int) -> None:
        """Make a grimoire: 4 uses of magical inks, a blank book, a full watch and a scroll
        (its first spell, used up); the maker is Deprived afterwards."""
        if self.grimoire is not None:
            raise RuleError("Grimoires: this character already has a grimoire")
        spell = self._scroll(scroll_index)
        self.scrolls.pop(scroll_index)
        self.grimoire = [spell]
        self.deprived = True
        self.describe(f"{self.name} binds a grimoire with {spell} (4 inks, a watch; deprived)")

    @move
    def copy_scroll(self, scroll_index: int) -> None:
        """Copy a scroll into the grimoire: a full watch, 50-70 silver of inks; the scroll
        is destroyed."""
        if self.grimoire is None:
            raise RuleError("Grimoires: there is no grimoire to copy the scroll into")
        spell = self._scroll(scroll_index)
        self.scrolls.pop(scroll_index)
        self.grimoire.append(spell)
        self.describe(f"{self.name} copies {spell} into the grimoire (a watch, 50-70 silver)")

    @property
    def casting_bar(self) -> str:
        """Why the character cannot cast right now ("" when nothing bars casting)."""
        if self.dooms >= 3:
            return "never again (the 3rd doom)"
        return self.casting_barred

    def max_magic_dice(self, extra: int = 0) -> int:
        """Magic dice this character may invest now: free slots, at most 4 (+ ``extra``)."""
        return spellcasting.available_magic_dice(self.free_slots, extra)

    @property
    def fatigue_from(self) -> int:
        """The magic-die face from which a die gives Fatigue: 3 while mishap 1 lasts, else 4."""
        return 3 if self.mishap_fatigue_from_3 else spellcasting.FATIGUE_FROM

    def magic_odds(self, dice: int) -> spellcasting.MagicOdds:
        """Exact mishap, doom and Fatigue chances if this character cast with ``dice`` dice."""
        return spellcasting.magic_dice_odds(dice, self.fatigue_from)

    @move
    def cast(self, dice: int, extra_dice: int = 0, spell: str = "",
             rng: random.Random | None = None, seed: int | None = None) -> CastReport:
        """Cast a spell with ``dice`` magic dice and apply Fatigue, mishap and dooms.

        With ``spell`` named, it must be in the grimoire or on a scroll; a scroll is used up.
        ``extra_dice`` are the magic dice items grant beyond the 4 (0 to
        ``MAX_CAST_DICE - MAX_MAGIC_DICE``).

        Interpretation: dooms stop at the 3rd. A cast rolling more triples than there are
        dooms left counts up to the 3rd (spellcasting is lost for good) and notes the rest:
        there is no 4th doom, and a quest that lifts one leaves two.
        """
        self._alive("Spellcasting")
        most = spellcasting.MAX_CAST_DICE - spellcasting.MAX_MAGIC_DICE
        if not 0 <= extra_dice <= most:
            raise RuleError(f"Spell Casting Procedure: magic items add 0-{most} magic dice, "
                            f"not {extra_dice}")
        if self.dooms >= 3:
            raise RuleError("Dooms: the 3rd doom took spellcasting away for good")
        if self.casting_barred:
            raise RuleError(f"Spellcasting: barred ({self.casting_barred})")
        allowed = self.max_magic_dice(extra_dice)
        if allowed == 0:
            raise RuleError("Spell Casting Procedure: no free burden slot, so no magic dice")
        if not 1 <= dice <= allowed:
            raise RuleError(f"Spell Casting Procedure: invest 1-{allowed} magic dice "
                            f"(free slots, at most {spellcasting.MAX_MAGIC_DICE}), got {dice}")
        if spell and spell not in (self.grimoire or []):
            if spell not in self.scrolls:
                raise RuleError(f"Spell Casting Procedure: hold a grimoire or scroll of {spell}")
            self.scrolls.remove(spell)
        r = make_rng(seed, rng)
        reading = spellcasting.cast(dice, fatigue_from=self.fatigue_from, rng=r)
        report = CastReport(reading)
        for _ in range(reading.fatigue):
            self._force_burden(Item("Fatigue", kind="fatigue"), report.notes)
        face = reading.mishap_face
        if face == 1:
            self.mishap_fatigue_from_3 = True
        elif face == 2:
            loss = engine.roll("1d6", rng=r).total
            self.control = max(0, self.control - loss)
            report.notes.append(f"1d6 CTRL damage = {loss}: a panic save is due")
        elif face == 3:
            self._force_burden(Item("Spellburn", kind="wound"), report.notes)
        elif face == 4:
            self.deprived = True
        elif face == 5:
            self.casting_barred = "mishap 5: no spells for 6 hours"
        elif face == 6:
            self._force_burden(Item("Fatigue", kind="fatigue"), report.notes)
        for _ in range(reading.dooms):
            if self.dooms >= MAX_DOOMS:
                # The 3rd doom already took spellcasting for good: nothing is left to lose.
                report.notes.append("a further doom: spellcasting is already lost for good")
                continue
            self.dooms += 1
            effect = spellcasting.doom_effect(self.dooms)
            report.notes.append(f"doom {self.dooms}: {effect}")
            if self.dooms < 3:
                self.casting_barred = f"doom {self.dooms}: {effect}"
        self.describe(f"{self.name} casts{' ' + spell if spell else ''}: {report}")
        return report

    @move
    def end_casting_ban(self) -> None:
        """The time of a mishap or doom ban has passed (the referee says so)."""
        if not self.casting_barred and not self.mishap_fatigue_from_3:
            raise RuleError("Spellcasting: nothing bars or burdens this caster's spells")
        self.casting_barred, self.mishap_fatigue_from_3 = "", False
        self.describe(f"{self.name} may cast again, with Fatigue from 4-6")

    @move
    def lift_doom(self) -> None:
        """A quest removes one doom."""
        if self.dooms < 1:
            raise RuleError("Dooms: no doom to lift")
        self.dooms -= 1
        self.describe(f"A quest lifts one of {self.name}'s dooms ({self.dooms} left)")


def _reason(reason: str, rule: str) -> str:
    why = reason.strip()
    if not why or len(why) > MAX_FATE:
        raise RuleError(f"{rule}: say why in 1 to {MAX_FATE} characters")
    return why


def _source(source: str) -> None:
    if len(source) > MAX_FATE:
        raise RuleError(f"Fate: a source is at most {MAX_FATE} characters")


def new_character(name: str, strength: int, dexterity: int, control: int, guard: int,
                  armor: int = 0) -> Character:
    """A fresh character with checked scores."""
    for value, what in ((strength, "STR"), (dexterity, "DEX"), (control, "CTRL"),
                        (guard, "Guard"), (armor, "Armor")):
        check_score(value, what)
    if len(name.strip()) > MAX_NAME:
        raise RuleError(f"Character: a name has at most {MAX_NAME} characters, "
                        f"got {len(name.strip()):,}")
    return Character(name=name.strip() or "Adventurer", strength_max=strength,
                     dexterity_max=dexterity, control_max=control, strength=strength,
                     dexterity=dexterity, control=control, guard_max=guard, guard=guard,
                     armor=armor)


@upcaster(Character, from_version=1)
def _coins_counted_across_purses(state: dict[str, Any]) -> dict[str, Any]:
    """Schema 1 to 2: a burden kept under the per-purse coin reading that fills more than
    10 slots counted together is marked ``per_purse_coins`` (it is kept as it is, full,
    until coins are dropped); no sheet of schema 1 took a fate by source yet
    (``fates_taken`` starts empty)."""
    items = decode_value(state.get("items", []), list[Item], "items", "this character save")
    state["per_purse_coins"] = slots_used(items) > SLOTS
    state.setdefault("fates_taken", [])
    return state
