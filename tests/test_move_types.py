"""The checked argument layer at the rules' door (companion.move_types), and each example of
issue 21 that crashed or was silently accepted before it."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import pytest

from companion.errors import RuleError
from companion.move_types import MAX_ITEMS, MAX_NUMBER, MAX_TEXT, check_value
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.cairn_srd.downtime import Downtime
from companion.rulesets.cairn_srd.exploration import Delve
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.rulesets.cairn_srd.wilderness import Journey
from companion.rulesets.miasma.earthmotes import EarthmoteLog
from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.state import Tracker, move, state_field

# -- the door on its own -----------------------------------------------------------------


@dataclass
class Door(Tracker):
    """A tracker whose moves take one argument of each kind the rulesets use."""

    seen: list[str] = state_field(default_factory=list)

    @move
    def count(self, amount: int, note: str = "", when: int | None = None) -> None:
        self.seen.append(f"count {amount}")

    @move
    def flags(self, on: bool, ratio: float = 0.5, share: Fraction = Fraction(1)) -> None:
        self.seen.append("flags")

    @move
    def pick(self, way: Literal["up", "down"], level: Literal[1, 2] = 1) -> None:
        self.seen.append(f"pick {way}")

    @move
    def many(self, names: list[str] | None = None, pair: tuple[int, int] = (0, 0),
             marks: dict[int, str] | None = None, rng: random.Random | None = None) -> None:
        self.seen.append("many")

    @move
    def other(self, friend: Door | None = None) -> None:  # its own class: read late
        self.seen.append("other")


GOOD: list[tuple[str, dict[str, Any]]] = [
    ("count", {"amount": 3}), ("count", {"amount": -2, "note": "x", "when": None}),
    ("count", {"amount": MAX_NUMBER}), ("flags", {"on": False, "ratio": 2, "share": 3}),
    ("flags", {"on": True, "ratio": -1.5, "share": Fraction(2, 3)}),
    ("pick", {"way": "up", "level": 2}), ("many", {"names": ("a", "b"), "pair": [1, 2]}),
    ("many", {"marks": {1: "a"}, "rng": random.Random(1)}), ("other", {"friend": Door()}),
]

BAD: list[tuple[str, dict[str, Any], str]] = [
    ("count", {"amount": "5"}, "'amount' must be a whole number, not the text '5'"),
    ("count", {"amount": 2.0}, "whole number, not the number 2.0"),
    ("count", {"amount": True}, "whole number, not a yes/no"),
    ("count", {"amount": Fraction(3)}, "whole number, not the fraction 3"),
    ("count", {"amount": None}, "whole number, not nothing"),
    ("count", {"amount": MAX_NUMBER + 1}, "beyond"),
    ("count", {"amount": 10 ** 5000}, "16610-bit number"),
    ("count", {"amount": 1, "when": 1.5}, "'when' must be a whole number or nothing"),
    ("count", {"amount": 1, "note": 5}, "'note' must be text, not the number 5"),
    ("count", {"amount": 1, "note": "two\nlines"}, "control character '\\n'"),
    ("count", {"amount": 1, "note": "x" * (MAX_TEXT + 1)}, "10,001 characters long"),
    ("flags", {"on": 1}, "'on' must be yes or no"),
    ("flags", {"on": "no"}, "'on' must be yes or no"),
    ("flags", {"on": True, "ratio": math.nan}, "not a finite number"),
    ("flags", {"on": True, "ratio": math.inf}, "not a finite number"),
    ("flags", {"on": True, "ratio": "1"}, "'ratio' must be a number"),
    ("flags", {"on": True, "share": 0.5}, "'share' must be a whole number or fraction"),
    ("pick", {"way": 1}, "'way' must be one of 'up', 'down'"),
    ("pick", {"way": "up", "level": True}, "'level' must be one of 1, 2"),
    ("pick", {"way": "up", "level": 1.0}, "'level' must be one of 1, 2"),
    ("many", {"names": "ab"}, "'names' must be a list of text or nothing"),
    ("many", {"names": ["a", 2]}, "item 2 is the number 2"),
    ("many", {"names": ["a"] * (MAX_ITEMS + 1)}, "1,001 items"),
    ("many", {"pair": (1, 2, 3)}, "3 items, not 2"),
    ("many", {"pair": (1, "2")}, "item 2 is the text '2'"),
    ("many", {"marks": {"1": "a"}}, "'marks' must be a table of text or nothing"),
    ("many", {"rng": 7}, "'rng' must be a Random or nothing"),
    ("other", {"friend": "Vel"}, "'friend' must be a Door or nothing"),
]


@pytest.mark.parametrize(("name", "kwargs"), GOOD)
def test_the_door_lets_the_right_types_in(name: str, kwargs: dict[str, Any]) -> None:
    door = Door()
    getattr(door, name)(**kwargs)
    assert len(door.seen) == 1


@pytest.mark.parametrize(("name", "kwargs", "message"), BAD)
def test_the_door_refuses_a_wrong_type_and_changes_nothing(
    name: str, kwargs: dict[str, Any], message: str
) -> None:
    door = Door()
    with pytest.raises(RuleError, match=name) as caught:
        getattr(door, name)(**kwargs)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert door.seen == [] and door.log == ()


def test_text_outside_a_literal_is_left_to_the_move_to_name_its_rule() -> None:
    hostile(Door()).pick("sideways")


def test_check_value_on_its_own() -> None:
    check_value([1, 2], list[int], "r", "a")
    with pytest.raises(RuleError, match="r: 'a' must be a list of whole numbers"):
        check_value([1, "2"], list[int], "r", "a")


def test_a_move_inside_a_move_is_not_checked_again() -> None:
    # Only the outermost call is at the door: the inner one is the move's own doing.
    @dataclass
    class Outer(Tracker):
        n: int = 0

        @move
        def inner(self, amount: int) -> None:
            self.n += 1

        @move
        def outer(self) -> None:
            self.inner(amount=1)

    t = Outer()
    t.outer()
    assert t.n == 1


# -- issue 21's examples -----------------------------------------------------------------


def sheet() -> Character:
    c = Character(name="Vel")
    c.set_maxima(strength=10, dexterity=10, control=10, guard=4, armor=0)
    return c


def hostile(thing: object) -> Any:
    """``thing``, typed so that calls a type checker would refuse can be tested."""
    return thing


def one_mote() -> EarthmoteLog:
    log = EarthmoteLog()
    log.generate(seed=1)
    return log


EXAMPLES: list[tuple[str, Any]] = [
    ("Delve.light('0')", lambda: hostile(Delve()).light("0")),
    ("escape_check(score='10')",
     lambda: hostile(Delve()).escape_check("Vel", "STR", score="10")),
    ("take_damage('5')", lambda: hostile(sheet()).take_damage("5")),
    ("take_damage(2.5)", lambda: hostile(sheet()).take_damage(2.5)),
    ("damage_ability('DEX', 2.5)", lambda: hostile(sheet()).damage_ability("DEX", 2.5)),
    ("Encounter.apply_damage('Orc', '3')", lambda: hostile(Encounter()).apply_damage("Orc", "3")),
    ("lucky_find(cost='2')", lambda: hostile(Adventurer()).lucky_find(cost="2")),
    ("spend_supplies(True)", lambda: hostile(Adventurer()).spend_supplies(True)),
    ("add_oil(1.5)", lambda: hostile(Delve()).add_oil(1.5)),
    ("Downtime.earn(2.5)", lambda: hostile(Downtime()).earn("Vel", 2.5)),
    ("set_weather(watches=2.5)", lambda: hostile(Journey()).set_weather(watches=2.5)),
    ("EarthmoteLog.generate(seed=-1)", lambda: hostile(EarthmoteLog()).generate(seed=-1)),
    ("new_region(seed=2**63)", lambda: one_mote().new_region(0, 0, seed=2 ** 63)),
    ("set_modules(fragile_soul='no')",
     lambda: hostile(DeathRecord()).set_modules(fragile_soul="no")),
    ("add_character(None)", lambda: hostile(MiasmaTracker()).add_character(None)),
    ("travel(modifier=99)", lambda: hostile(Journey()).travel(modifier=99)),
    ("study(modifier=1000)", lambda: hostile(LockPicking()).study(modifier=1000)),
    ("cast(extra_dice=-3)", lambda: hostile(sheet()).cast(1, extra_dice=-3)),
    ("cast(extra_dice=99)", lambda: hostile(sheet()).cast(1, extra_dice=99)),
    ("PlotCheck(advantage=2.5)", lambda: hostile(PlotCheck)(advantage=2.5)),
    ("PlotCheck(advantage=True)", lambda: hostile(PlotCheck)(advantage=True)),
]


@pytest.mark.parametrize(("what", "call"), EXAMPLES, ids=[w for w, _ in EXAMPLES])
def test_each_example_of_the_issue_is_a_rule_error(what: str, call: Any) -> None:
    with pytest.raises(RuleError):
        call()


def test_the_modifier_bounds_are_the_rules_own() -> None:
    with pytest.raises(RuleError, match="Skill Test Procedure: a situational modifier"):
        Journey().travel(modifier=7)
    with pytest.raises(RuleError, match="Skill Test Procedure: a situational modifier"):
        LockPicking().study(modifier=-7)
    with pytest.raises(RuleError, match="magic items add 0-56 magic dice"):
        sheet().cast(1, extra_dice=-1)
    with pytest.raises(RuleError, match="Earthmotes: a seed is a whole number from 0"):
        one_mote().new_region(0, 0, seed=-1)
