"""Combat turns: action points (AP), reactions, and the basic techniques' costs.

Combat runs in rounds of about 6 seconds. On its turn a creature has 3 AP to spend on
techniques; AP cannot be spent outside its own turn. It may also take one reaction
whenever that reaction's trigger happens, and then no other until the start of its next
turn. A readied action pays its AP now and resolves when its trigger comes.

Conditions change this: Impaired loses 1 AP at the start of the turn, Quickened gains 1;
Stunned spends no AP and takes no reactions; Restrained spends no AP until it breaks free
by marking 3 fatigue on its turn.

Every creature can use the basic techniques (data: ``data/rules.toml``); their costs are
in [BASIC_TECHNIQUES][companion.rulesets.monsters_and_magic.action_points.BASIC_TECHNIQUES] as
``(amount, "AP" | "R")``.

>>> technique_cost("Dodge")
(2, 'AP')
>>> technique_cost("opportunity attack")
(1, 'R')
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import section

__all__ = ["AP_PER_TURN", "BASIC_TECHNIQUES", "BREAK_FREE_FATIGUE", "REACTIONS_PER_TURN",
           "technique_cost"]

AP_PER_TURN: int = int(section("action_points")["per_turn"])
REACTIONS_PER_TURN: int = int(section("action_points")["reactions"])
#: Fatigue marked on your turn to end Restrained.
BREAK_FREE_FATIGUE = 3


def _cost(text: str) -> tuple[int, str]:
    amount, unit = text.split()
    return int(amount), unit


#: Technique name -> (cost, "AP" or "R").
BASIC_TECHNIQUES: dict[str, tuple[int, str]] = {
    str(row[0]): _cost(str(row[1])) for row in section("basic_techniques")["rows"]
}


def technique_cost(name: str) -> tuple[int, str]:
    """The cost of a basic technique, by name (case-insensitive)."""
    for known, cost in BASIC_TECHNIQUES.items():
        if known.lower() == name.strip().lower():
            return cost
    raise RuleError(f"Basic Techniques: no technique called {name!r}")


def technique_name(name: str) -> str:
    """The seed's spelling of a basic technique's name."""
    for known in BASIC_TECHNIQUES:
        if known.lower() == name.strip().lower():
            return known
    raise RuleError(f"Basic Techniques: no technique called {name!r}")
