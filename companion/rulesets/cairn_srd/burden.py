"""Burden: the slot inventory.

A character carries **10 slots**; an ordinary item (2-10 lb) fills one. Encumbrance tags
change that:

- **petty**: no slot (worn clothes, jewellery, pocket things, spells; a heap of petty
  things may still cost a slot at the referee's call);
- **bulky**: 2 slots;
- **bundle**: 3 to a slot ("rations 3/3");
- **stack**: 10 to a slot ("arrows 10/10");
- **coins**: 500 coins fill a slot, but the first 500 the character carries are petty;
  the coins are counted across the whole burden, however many purses hold them (three
  purses of 500 are 1,500 coins: 2 slots);
- **usage die** ``Ud4``...``Ud12``: each use rolls the die; a 1 steps it down
  (d12 → d10 → d8 → d6 → d4) and a 1 on the d4 uses the item up.

Slots also hold *other burdens*: Fatigue, Wounds (Spellburn, blight...) and other
lasting afflictions. With all 10 slots full a character has 0 Guard, and a character
with no free slot who must take a Fatigue first drops an item.

Interpretation: the seed says a usage die steps down "on a 1"; we follow the seed (the
issue's summary said 1-2).

Interpretation: coins past the petty 500 fill a slot per 500 *or part* (501 coins: 1 slot,
1,001: 2), as a bundle or stack part-full still fills its slot. Each purse's share of the
coin slots ([slot_shares][companion.rulesets.cairn_srd.burden.slot_shares]) counts the
purses in the order they were taken, so the first 500 coins carried are the petty ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

from companion import dice
from companion.errors import RuleError, StateError
from companion.state import state_field

SLOTS = 10
Tag = Literal["normal", "petty", "bulky", "bundle", "stack", "coins"]
TAGS: tuple[Tag, ...] = ("normal", "petty", "bulky", "bundle", "stack", "coins")
BurdenKind = Literal["item", "fatigue", "wound"]
#: The usage-die chain, largest first.
USAGE_DICE: tuple[int, ...] = (12, 10, 8, 6, 4)
KINDS: tuple[BurdenKind, ...] = ("item", "fatigue", "wound")
MAX_ITEM_NAME = 40
MAX_QUANTITY = 100_000
"""Most things in one bundle, stack or purse (100,000 coins fill 199 slots: never carried)."""


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class Item:
    """One entry of the burden: an item, a Fatigue or a Wound."""

    name: str = state_field(max_len=MAX_ITEM_NAME)
    tag: Tag = state_field("normal", choices=TAGS)
    quantity: int = state_field(1, min=1, max=MAX_QUANTITY)
    usage_die: int | None = state_field(None, choices=(None, *USAGE_DICE))
    kind: BurdenKind = state_field("item", choices=KINDS)
    major: bool = False
    """A major Wound (-1 to a relevant save)."""

    def check_state(self) -> None:
        if not self.name.strip():
            raise StateError("field 'name': an entry of the burden needs a name")
        if self.tag in ("normal", "petty", "bulky") and self.quantity != 1:
            raise StateError(f"field 'quantity': a {self.tag} item is one thing, "
                             f"not {self.quantity}")
        if self.kind != "item" and (self.tag != "normal" or self.usage_die is not None):
            raise StateError(f"field 'kind': a {self.kind} has no tag or usage die")
        if self.major and self.kind != "wound":
            raise StateError("field 'major': only a Wound is major")

    @property
    def slots(self) -> int:
        if self.kind != "item":
            return 1
        if self.tag == "petty":
            return 0
        if self.tag == "bulky":
            return 2
        if self.tag == "bundle":
            return _ceil_div(self.quantity, 3)
        if self.tag == "stack":
            return _ceil_div(self.quantity, 10)
        if self.tag == "coins":
            # This purse as the only coins carried; with other coins use slot_shares.
            return coin_slots(self.quantity)
        return 1

    @property
    def usable(self) -> bool:
        """Whether using it means something: an item with a usage die, or a count to spend
        (a bundle, stack or coins). Fatigue and Wounds are never used."""
        return self.kind == "item" and (self.usage_die is not None
                                        or self.tag in ("bundle", "stack", "coins"))

    @property
    def droppable(self) -> bool:
        """Items can be dropped; Fatigue and Wounds leave only by rest or healing."""
        return self.kind == "item"

    @property
    def label(self) -> str:
        text = self.name
        if self.tag == "bundle":
            text += f" {self.quantity}/3" if self.quantity <= 3 else f" ×{self.quantity}"
        elif self.tag == "stack":
            text += f" {self.quantity}/10" if self.quantity <= 10 else f" ×{self.quantity}"
        elif self.tag == "coins":
            text += f" ({self.quantity} coins)"
        if self.usage_die:
            text += f", Ud{self.usage_die}"
        if self.tag in ("petty", "bulky"):
            text += f" ({self.tag})"
        if self.major:
            text += " (major)"
        return text


def make_item(
    name: str, tag: str = "normal", quantity: int = 1, usage_die: int | None = None
) -> Item:
    """A checked [Item][companion.rulesets.cairn_srd.burden.Item] (raises
    [RuleError][companion.errors.RuleError] on an unknown tag or die)."""
    name = name.strip()
    if not name:
        raise RuleError("Burden: an item needs a name")
    if len(name) > MAX_ITEM_NAME:
        raise RuleError(f"Burden: an item's name has at most {MAX_ITEM_NAME} characters, "
                        f"got {len(name):,}")
    if quantity > MAX_QUANTITY:
        raise RuleError(f"Encumbrance Tags: at most {MAX_QUANTITY:,} in one entry, "
                        f"got {quantity:,}")
    if tag not in TAGS:
        raise RuleError(f"Encumbrance Tags: unknown tag “{tag}” (known: {', '.join(TAGS)})")
    if quantity < 1:
        raise RuleError(f"Encumbrance Tags: quantity must be at least 1, got {quantity}")
    if tag in ("normal", "petty", "bulky") and quantity != 1:
        raise RuleError(f"Encumbrance Tags: only bundles, stacks and coins count, not {tag}")
    if usage_die is not None and usage_die not in USAGE_DICE:
        raise RuleError(f"Encumbrance Tags: a usage die is Ud4-Ud12, got Ud{usage_die}")
    return Item(name, tag, quantity, usage_die)


COINS_PER_SLOT = 500
PETTY_COINS = 500
"""The first this many coins a character carries take no slot."""


def coin_slots(coins: int) -> int:
    """Slots ``coins`` coins fill in one burden: the first 500 are petty, then 500 (or
    part) to a slot."""
    return _ceil_div(max(0, coins - PETTY_COINS), COINS_PER_SLOT)


def slot_shares(items: list[Item]) -> list[int]:
    """The slots each entry of ``items`` fills, in order. Coins are counted across the
    whole burden: a purse fills the slots its coins add to those carried before it, so
    the first 500 coins (in whichever purses) are petty."""
    shares = []
    coins = 0
    for item in items:
        if item.kind == "item" and item.tag == "coins":
            shares.append(coin_slots(coins + item.quantity) - coin_slots(coins))
            coins += item.quantity
        else:
            shares.append(item.slots)
    return shares


def slots_used_per_purse(items: list[Item]) -> int:
    """Slots the burden filled under the project's earlier reading, where each purse's
    first 500 coins were petty. Kept only so that a character stored then still loads
    (with no free slot until coins are dropped)."""
    return sum(item.slots for item in items)


def slots_used(items: list[Item]) -> int:
    """Slots the whole burden fills (coins counted together: see
    [slot_shares][companion.rulesets.cairn_srd.burden.slot_shares])."""
    return sum(slot_shares(items))


def step_down(die: int) -> int | None:
    """The next smaller usage die, or ``None`` when a d4 is used up."""
    i = USAGE_DICE.index(die)
    return USAGE_DICE[i + 1] if i + 1 < len(USAGE_DICE) else None


def roll_usage(die: int, rng: random.Random) -> tuple[int, int | None]:
    """Use an item with usage die ``Ud<die>``: returns ``(roll, die afterwards)``."""
    if die not in USAGE_DICE:
        raise RuleError(f"Encumbrance Tags: a usage die is Ud4-Ud12, got Ud{die}")
    value = dice.roll(f"1d{die}", rng=rng).total
    return value, (step_down(die) if value == 1 else die)
