"""Activating an Item: what it takes to use a magic item, and its charges.

Each item says how it is activated (hold it and speak a command word, read the scroll,
drink the potion...).

- **Use an Object.** Handling an object is normally part of something else (drawing a
  sword as part of an attack); an object that needs your action takes the Use an Object
  action. An item that needs an action to activate is *not* a Use an Object action, so
  features such as the rogue's Fast Hands cannot activate it.
- **Command word.** It must be spoken aloud, so the item cannot be activated where sound
  is stopped (inside *silence*, for example).
- **Consumables.** Potions are swallowed, oils applied, scrolls read (the writing
  vanishes); once used, the item's magic is gone. Drinking a potion takes a bonus action.
- **Spells.** An item casting a spell uses the lowest spell and caster level, no slot of
  the user's, and no components unless it says otherwise; casting time, range, duration
  and concentration are as normal. Items like potions skip the casting and just grant the
  effect for its duration. An item may use the wielder's own spellcasting ability (their
  choice if they have several); with none, the modifier is +0 and proficiency applies.
- **Charges.** Some items spend charges; *identify* or attuning reveals how many are
  left, and the attuned creature learns how many were regained.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.errors import RuleError
from companion.state import Tracker, move, state_field

__all__ = ["MagicItem", "activation_cost", "fast_hands_can_activate",
           "item_spell_attack_bonus"]

Cost = Literal["free", "action", "bonus action"]


def activation_cost(*, needs_action: bool, potion: bool = False) -> Cost:
    """The part of a turn activating the item takes: potions are drunk as a bonus action."""
    if potion:
        return "bonus action"
    return "action" if needs_action else "free"


def fast_hands_can_activate(needs_action: bool) -> bool:
    """Fast Hands works on Use an Object, which an action-activated item is not."""
    return not needs_action


def item_spell_attack_bonus(proficiency: int, ability_modifier: int | None) -> int:
    """Spell attack bonus when an item uses the wielder's spellcasting ability.

    Without a spellcasting ability (``None``) the modifier counts as +0, proficiency still
    applies.
    """
    return proficiency + (ability_modifier or 0)


@dataclass
class MagicItem(Tracker):
    """A magic item's activation state: charges, and whether a consumable is used up."""

    name: str = state_field("item", max_len=60)
    charges: int = state_field(0, min=0, max=1000)
    max_charges: int = state_field(0, min=0, max=1000)
    command_word: bool = False
    consumable: bool = False
    used_up: bool = False

    def check_state(self) -> None:
        from companion.errors import StateError

        if self.charges > self.max_charges:
            raise StateError(f"field 'charges' ({self.charges}) exceeds 'max_charges'")
        if self.used_up and not self.consumable:
            raise StateError("field 'used_up' is true but the item is not a consumable")
        if not self.name.strip():
            raise StateError("field 'name' is empty")

    @move
    def activate(self, charges: int = 0, in_silence: bool = False) -> None:
        """Activate the item, spending ``charges``."""
        if self.used_up:
            raise RuleError(f"Consumables: {self.name} was used and no longer functions")
        if self.command_word and in_silence:
            raise RuleError(f"Command Word: {self.name}'s word cannot be spoken where sound "
                            "is prevented")
        if isinstance(charges, bool) or not isinstance(charges, int) or charges < 0:
            raise RuleError(f"Charges: must spend 0 or more charges, got {charges!r}")
        if charges > self.charges:
            raise RuleError(f"Charges: {self.name} has {self.charges} charges, "
                            f"{charges} needed")
        self.charges -= charges
        if self.consumable:
            self.used_up = True
        self.describe(f"activated {self.name}" + (f" (-{charges} charges, "
                                                   f"{self.charges} left)" if charges else ""))

    @move
    def regain_charges(self, count: int) -> None:
        """The item regains charges (never above its maximum)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RuleError(f"Charges: must regain 0 or more charges, got {count!r}")
        gained = min(count, self.max_charges - self.charges)
        self.charges += gained
        self.describe(f"{self.name} regains {gained} charges ({self.charges} left)")
