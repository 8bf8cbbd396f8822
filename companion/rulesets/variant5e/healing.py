"""Healing variants: healer's kit dependency, healing surges, slow natural healing.

Three switches that speed up or slow down recovery between fights:

- **Healer's Kit Dependency.** After a short rest, no Hit Dice can be spent until someone
  uses one charge of a healer's kit to dress the character's wounds.
- **Healing Surges.** For parties short of healing magic. As an action (a bonus action
  for a more heroic game) a character can surge and spend up to half their Hit Dice,
  one at a time, rolling each and adding the Constitution modifier to the hit points
  regained, and deciding after each roll whether to spend another. A surge cannot be used
  again before a short or long rest. With this rule a long rest restores every spent Hit
  Die, and a short rest restores a quarter of the level (at least one).
- **Slow Natural Healing.** A long rest restores no hit points; instead the character may
  spend Hit Dice at its end, as after a short rest. For grittier games.

Without the switches the standard 5e rests apply: Hit Dice are spent after a short rest,
and a long rest restores all hit points and half the total Hit Dice (at least one).

Interpretation: "up to half his or her Hit Dice" is half the character's total Hit Dice
(their level), rounded down, at least one, and never more than they have left.

Interpretation: Hit Dice may be spent at the end of a rest until the next move that is
not spending them (damage, another rest, a surge); each die heals at least 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from companion.errors import RuleError, StateError
from companion.state import OWN_NUMBERS, Tracker, move, state_field

__all__ = ["HitDice", "fixed_hit_points", "hit_dice_healing", "rest_recovery"]


def hit_dice_healing(count: int, die: int, con_modifier: int) -> dict[int, Fraction]:
    """Exact chances of the hit points ``count`` Hit Dice heal (each die at least 0, before
    the cap at the maximum).

    >>> hit_dice_healing(1, 6, -2)[0]
    Fraction(1, 3)
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 20:
        raise RuleError(f"Hit Dice: spend 0 to 20 Hit Dice, not {count!r}")
    if die not in (6, 8, 10, 12):
        raise RuleError(f"Hit Dice: a Hit Die is a d6, d8, d10 or d12, not d{die}")
    if isinstance(con_modifier, bool) or not isinstance(con_modifier, int) or not (
            -5 <= con_modifier <= 10):
        raise RuleError(f"Hit Dice: the Constitution modifier is -5 to 10, not {con_modifier!r}")
    one: dict[int, Fraction] = {}
    for face in range(1, die + 1):
        healed = max(0, face + con_modifier)
        one[healed] = one.get(healed, Fraction(0)) + Fraction(1, die)
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(count):
        step: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in one.items():
                step[a + b] = step.get(a + b, Fraction(0)) + p * q
        total = step
    return dict(sorted(total.items()))


def fixed_hit_points(level: int, die: int, con_modifier: int) -> int:
    """Hit points of a character of ``level`` with this Hit Die, taking the fixed value:
    the die's maximum at 1st level, then half the die plus one at each later level, the
    Constitution modifier added at every level (at least 1 hit point per level).

    Interpretation: the seed does not say how hit points are found; this is the standard
    fixed value, used when a character's Hit Dice record is made without typed hit points.

    >>> fixed_hit_points(5, 8, 2)
    38
    """
    hit_dice_healing(0, die, con_modifier)  # the same checks of the die and the modifier
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 20:
        raise RuleError(f"Hit Dice: level must be 1 to 20, not {level!r}")
    return max(1, die + con_modifier) + (level - 1) * max(1, die // 2 + 1 + con_modifier)


def rest_recovery(level: int, *, healing_surges: bool = False,
                  slow_natural_healing: bool = False) -> dict[str, int | bool]:
    """What rests give back at ``level`` under the variants: Hit Dice from a short rest and
    from a long rest, whether a long rest restores hit points, and a surge's most dice.

    >>> rest_recovery(8, healing_surges=True)["short_rest_hit_dice"]
    2
    """
    if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 20:
        raise RuleError(f"Hit Dice: level must be 1 to 20, not {level!r}")
    short = min(max(1, level // 4), level) if healing_surges else 0
    long = level if healing_surges else min(max(1, level // 2), level)
    return {"short_rest_hit_dice": short, "long_rest_hit_dice": long,
            "long_rest_restores_hp": not slow_natural_healing,
            "surge_dice": max(1, level // 2) if healing_surges else 0}


@dataclass
class HitDice(Tracker):
    """A character's hit points and Hit Dice under the chosen healing variants."""

    level: int = state_field(1, min=1, max=20)
    die: int = state_field(8, choices=(6, 8, 10, 12))
    con_modifier: int = state_field(0, min=-5, max=10)
    max_hp: int = state_field(8, min=1, max=999)
    hp: int = state_field(8, min=0, max=999)
    hit_dice: int = state_field(1, min=0, max=20, doc="Hit Dice left to spend")
    healers_kit_dependency: bool = False
    healing_surges: bool = False
    slow_natural_healing: bool = False
    needs_healers_kit: bool = False
    can_spend: bool = False
    surge_used: bool = False
    surge_dice_left: int = state_field(0, min=0, max=20)

    def check_state(self) -> None:
        if self.hp > self.max_hp:
            raise StateError(f"field 'hp' ({self.hp}) exceeds 'max_hp' ({self.max_hp})")
        if self.hit_dice > self.level:
            raise StateError(f"field 'hit_dice' ({self.hit_dice}) exceeds 'level'")
        if self.surge_dice_left > self.hit_dice:
            raise StateError(f"field 'surge_dice_left' ({self.surge_dice_left}) exceeds "
                             f"'hit_dice' ({self.hit_dice})")
        if self.surge_dice_left and not self.surge_used:
            raise StateError("field 'surge_dice_left' is set but no healing surge was used")
        if self.surge_used and not self.healing_surges:
            raise StateError("field 'surge_used' is true but Healing Surges are not in use")
        if self.needs_healers_kit and not (self.can_spend and self.healers_kit_dependency):
            raise StateError("field 'needs_healers_kit' is true without a short rest under "
                             "Healer's Kit Dependency")

    @classmethod
    def new(cls, level: int = 1, die: int = 8, con_modifier: int = 0,
            max_hp: int | None = None) -> HitDice:
        """A fresh record: full hit points and every Hit Die (one per level) to spend.
        ``max_hp`` ``None`` takes the fixed hit points
        ([fixed_hit_points][companion.rulesets.variant5e.healing.fixed_hit_points]); a
        record made with no numbers at all is a 1st-level d8 with no Constitution
        modifier. Illegal numbers are refused, naming the first.

        >>> hd = HitDice.new(5, 8, 2)
        >>> (hd.max_hp, hd.hp, hd.hit_dice)
        (38, 38, 5)
        >>> HitDice.new(3, 7)
        Traceback (most recent call last):
        ...
        companion.errors.RuleError: Hit Dice: a Hit Die is a d6, d8, d10 or d12, not d7
        """
        fixed = fixed_hit_points(level, die, con_modifier)  # checks level, die and CON
        if max_hp is None:
            max_hp = fixed
        if isinstance(max_hp, bool) or not isinstance(max_hp, int) or not 1 <= max_hp <= 999:
            raise RuleError(f"Hit Dice: max HP is 1 to 999, not {max_hp!r}")
        return cls(level=level, die=die, con_modifier=con_modifier, max_hp=max_hp,
                   hp=max_hp, hit_dice=level)

    @move
    def set_variant(self, variant: str, on: bool) -> None:
        """Switch one healing variant on or off now (``healers_kit_dependency``,
        ``healing_surges`` or ``slow_natural_healing``); it rules from the next rest."""
        if variant not in ("healers_kit_dependency", "healing_surges", "slow_natural_healing"):
            raise RuleError(f"Healing: no variant called {variant!r}")
        setattr(self, variant, bool(on))
        self.describe(f"{variant.replace('_', ' ')} {'on' if on else 'off'}")

    @move(who_may=OWN_NUMBERS)  # the table's correction: the GM's unless trusted
    def set_maxima(self, level: int, max_hp: int, die: int, con_modifier: int) -> None:
        """Set the character's level (its number of Hit Dice), maximum HP, Hit Die and CON
        modifier (a level gained, or the table's correction). HP and Hit Dice left move by
        as much as their maximum, so damage taken and dice spent stay so; a lowered maximum
        pulls them down with it (never below 0).

        >>> hd = HitDice(level=3, max_hp=24, hp=24, hit_dice=3); hd.take_damage(10)
        >>> hd.set_maxima(4, 31, 8, 1); (hd.hp, hd.max_hp, hd.hit_dice)
        (21, 31, 4)
        """
        if die not in (6, 8, 10, 12) or type(die) is not int:
            raise RuleError(f"Hit Dice: a Hit Die is a d6, d8, d10 or d12, not d{die}")
        for value, what, low, high in ((level, "a level", 1, 20),
                                       (max_hp, "maximum HP", 1, 999),
                                       (con_modifier, "a CON modifier", -5, 10)):
            if type(value) is not int or not low <= value <= high:
                raise RuleError(f"Hit Dice: {what} runs from {low} to {high}, not {value}")
        for current, top, new_max in (("hp", "max_hp", max_hp), ("hit_dice", "level", level)):
            lost = getattr(self, top) - getattr(self, current)
            setattr(self, top, new_max)
            setattr(self, current, max(0, min(new_max, new_max - lost)))
        self.die, self.con_modifier = die, con_modifier
        self.surge_dice_left = min(self.surge_dice_left, self.hit_dice)
        self.describe(f"level {level}, HP {self.hp}/{max_hp}, Hit Dice {self.hit_dice}/"
                      f"{level} d{die}{con_modifier:+d}")

    def __str__(self) -> str:
        """Hit points and Hit Dice as a player reads them off the sheet.

        >>> print(HitDice(level=3, die=10, max_hp=28, hp=19, hit_dice=2))
        HP 19/28, Hit Dice 2/3 (d10+0), level 3
        """
        notes = [text for text, on in (("needs a healer's kit", self.needs_healers_kit),
                                       ("surge used", self.surge_used)) if on]
        return (f"HP {self.hp}/{self.max_hp}, Hit Dice {self.hit_dice}/{self.level} "
                f"(d{self.die}{self.con_modifier:+d}), level {self.level}"
                + (f" · {', '.join(notes)}" if notes else ""))

    @property
    def surge_limit(self) -> int:
        """Most Hit Dice one healing surge may spend (see the Interpretation)."""
        return min(max(1, self.level // 2), self.hit_dice)

    @move
    def take_damage(self, amount: int) -> None:
        """Lose hit points (not below 0)."""
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise RuleError(f"Healing: damage must be 0 or more, got {amount!r}")
        self._close_windows()
        self.hp = max(0, self.hp - amount)
        self.describe(f"took {amount} damage: {self.hp}/{self.max_hp} hp")

    @move
    def short_rest(self) -> None:
        """Finish a short rest: Hit Dice may be spent (after a healer's kit, if required)."""
        self._close_windows()
        regained = 0
        if self.healing_surges:
            regained = min(max(1, self.level // 4), self.level - self.hit_dice)
            self.hit_dice += regained
            self.surge_used = False
        self.can_spend = True
        self.needs_healers_kit = self.healers_kit_dependency
        extra = f", regained {regained} Hit Dice" if self.healing_surges else ""
        kit = "; needs a healer's kit before spending Hit Dice" if self.needs_healers_kit else ""
        self.describe(f"short rest{extra}{kit}")

    @move
    def treat_with_healers_kit(self) -> None:
        """Spend one use of a healer's kit dressing the wounds after a short rest."""
        if not self.needs_healers_kit:
            raise RuleError("Healer's Kit Dependency: no short rest is waiting for treatment")
        self.needs_healers_kit = False
        self.describe("wounds treated with a healer's kit")

    @move
    def long_rest(self) -> None:
        """Finish a long rest under the chosen variants."""
        self._close_windows()
        self.surge_used = False
        if self.healing_surges:
            regained = self.level - self.hit_dice
        else:
            regained = min(max(1, self.level // 2), self.level - self.hit_dice)
        self.hit_dice += regained
        if self.slow_natural_healing:
            self.can_spend = True
            self.describe(f"long rest: no hit points back (slow natural healing), "
                          f"+{regained} Hit Dice; spend Hit Dice now")
        else:
            self.hp = self.max_hp
            self.describe(f"long rest: full hit points, +{regained} Hit Dice")

    @move
    def healing_surge(self) -> None:
        """Start a healing surge (an action): spend Hit Dice one at a time next."""
        if not self.healing_surges:
            raise RuleError("Healing Surges: this optional rule is not in use")
        if self.surge_used:
            raise RuleError("Healing Surges: already used since the last short or long rest")
        if self.hit_dice == 0:
            raise RuleError("Healing Surges: no Hit Dice left to spend")
        self._close_windows()
        self.surge_used = True
        self.surge_dice_left = self.surge_limit
        self.describe(f"healing surge: up to {self.surge_dice_left} Hit Dice")

    @move
    def spend_hit_die(self, roll: int) -> None:
        """Spend one Hit Die whose face shows ``roll``: heal roll + Constitution modifier."""
        if self.hit_dice == 0:
            raise RuleError("Hit Dice: none left to spend")
        if not (self.can_spend or self.surge_dice_left):
            raise RuleError("Hit Dice: they are spent at the end of a rest or in a healing "
                            "surge")
        if self.needs_healers_kit and not self.surge_dice_left:
            raise RuleError("Healer's Kit Dependency: treat the wounds with a healer's kit "
                            "before spending Hit Dice")
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= self.die:
            raise RuleError(f"Hit Dice: a d{self.die} shows 1 to {self.die}, got {roll!r}")
        healed = min(max(0, roll + self.con_modifier), self.max_hp - self.hp)
        self.hp += healed
        self.hit_dice -= 1
        if self.surge_dice_left:
            self.surge_dice_left -= 1
        self.describe(f"Hit Die d{self.die} {roll}{self.con_modifier:+d}: +{healed} hp "
                      f"({self.hp}/{self.max_hp}), {self.hit_dice} Hit Dice left")

    @move
    def roll_hit_die(self, *, seed: int | None = None, rng: random.Random | None = None) -> int:
        """Roll a Hit Die with the dice engine and spend it; returns the face. A move of
        its own (its seed recorded, the spending inside it), so a face names it as an
        act."""
        from companion.dice import roll

        face = roll(f"1d{self.die}", seed=seed, rng=rng).total
        self.spend_hit_die(face)
        return face

    def _close_windows(self) -> None:
        self.can_spend = False
        self.needs_healers_kit = False
        self.surge_dice_left = 0
