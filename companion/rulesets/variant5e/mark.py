"""Mark: melee fighters harry one another with opportunity attacks.

A creature that makes a melee attack may also mark its target. Until the end of the
attacker's next turn, its opportunity attacks against the marked target have advantage
and do not use its reaction, though anything that stops it taking reactions (being
incapacitated, *shocking grasp*) still stops them. It may make only one such opportunity
attack per turn.

[Reactions][companion.rulesets.variant5e.mark.Reactions] tracks one creature's reaction, its mark
and its opportunity attacks
through the turns (see also [opportunity_attack][companion.rulesets.variant5e.opportunity_attack]).

Interpretation: "one opportunity attack per turn" counts every opportunity attack the
creature makes in a single turn (its own or another creature's), marked or not.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.errors import RuleError, StateError
from companion.rulesets.variant5e.contests import Edge
from companion.state import Tracker, move, state_field

__all__ = ["Reactions"]


@dataclass
class Reactions(Tracker):
    """One creature's reaction, mark and opportunity attacks, turn by turn."""

    reaction_available: bool = True
    marked: str = state_field("", max_len=60)
    mark_made_this_turn: bool = False
    attacked_this_turn: bool = False
    can_take_reactions: bool = True

    def check_state(self) -> None:
        """A mark made this turn has a marked creature."""
        if self.mark_made_this_turn and not self.marked:
            raise StateError("field 'mark_made_this_turn' is true but no creature is marked")

    @move
    def start_own_turn(self) -> None:
        """The creature's turn begins: its reaction comes back."""
        self.reaction_available = True
        self.attacked_this_turn = False
        self.describe("own turn starts: reaction available")

    @move
    def melee_attack(self, target: str, mark: bool = True) -> None:
        """A melee attack against ``target``, marking it if ``mark``."""
        if not target.strip():
            raise RuleError("Mark: name the creature attacked")
        if len(target.strip()) > 60:
            raise RuleError("Mark: a creature's name is at most 60 characters")
        if mark:
            self.marked = target.strip()
            self.mark_made_this_turn = True
        self.describe(f"melee attack on {target}" + (" (marked)" if mark else ""))

    @move
    def end_own_turn(self) -> None:
        """The creature's turn ends: a mark from its previous turn expires."""
        expired = self.marked and not self.mark_made_this_turn
        if expired:
            self.marked = ""
        self.mark_made_this_turn = False
        self.attacked_this_turn = False
        self.describe("own turn ends" + (": mark expires" if expired else ""))

    @move
    def next_turn(self) -> None:
        """Another creature's turn begins (the one-per-turn limit resets)."""
        self.attacked_this_turn = False
        self.describe("another turn begins")

    @move
    def set_can_take_reactions(self, able: bool) -> None:
        """Record whether anything (incapacitated, shocking grasp) prevents reactions."""
        self.can_take_reactions = able
        self.describe("can take reactions" if able else "cannot take reactions")

    @move
    def opportunity_attack(self, target: str) -> Edge:
        """An opportunity attack on ``target``; returns its edge (advantage if marked)."""
        if not self.can_take_reactions:
            raise RuleError("Opportunity Attack: something prevents this creature from "
                            "taking reactions")
        if self.attacked_this_turn:
            raise RuleError("Mark: only one opportunity attack per turn")
        if target.strip() and target.strip() == self.marked:
            self.attacked_this_turn = True
            self.describe(f"opportunity attack on marked {target}: advantage, reaction kept")
            return Edge.ADVANTAGE
        if not self.reaction_available:
            raise RuleError("Opportunity Attack: the reaction is already spent this round")
        self.reaction_available = False
        self.attacked_this_turn = True
        self.describe(f"opportunity attack on {target}: reaction spent")
        return Edge.NORMAL
