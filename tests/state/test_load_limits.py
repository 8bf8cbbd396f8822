"""Loading refuses every save the rules forbid, in one player-readable line (issue 11).

Covers: broken text (deep nesting, ``None``, huge numbers, NaN, not UTF-8, too long),
``"format": true``, limits and ``check_state`` inside nested records and undo snapshots,
``max_len``, per-item limits on lists and dicts, clipped echoes, no class names.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from fractions import Fraction

import pytest

from companion.errors import RuleError, StateError
from companion.state import MAX_SAVE_CHARS, Tracker, move, state_field


@dataclass
class Stack:
    name: str = state_field("", max_len=20)
    count: int = state_field(1, min=1, max=99)

    def check_state(self) -> None:
        if self.name == "" and self.count > 1:
            raise StateError("field 'count': an unnamed stack holds one thing")


@dataclass
class Boat:
    hull: int = state_field(3, min=0, max=30)
    hull_max: int = state_field(3, min=1, max=30)
    stacks: list[Stack] = state_field(default_factory=list, max_len=3)

    def check_state(self) -> None:
        if self.hull > self.hull_max:
            raise StateError(f"field 'hull' is {self.hull}, over its maximum {self.hull_max}")


@dataclass
class Pair:
    dice: list[int] = field(default_factory=list)
    rolls: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.dice) != len(self.rolls):
            raise ValueError("as many rolls as dice")


@dataclass
class Harbour(Tracker):
    boats: list[Boat] = field(default_factory=list)
    faces: list[int] = state_field(default_factory=list, min=1, max=6)
    crews: dict[str, int] = state_field(default_factory=dict, min=0, max=10)
    pair: Pair = field(default_factory=Pair)
    share: Fraction = Fraction(1, 2)
    weight: float = 1.0
    notes: list[dict[str, int]] = field(default_factory=list)

    @move
    def launch(self, hull: int) -> None:
        if hull < 1:
            raise RuleError("launching: a boat needs a hull")
        self.boats.append(Boat(hull=hull, hull_max=hull))


def _saved(**changes: object) -> str:
    data = json.loads(Harbour().to_json())
    data["state"].update(changes)
    return json.dumps(data)


def _message(text: object) -> str:
    with pytest.raises(StateError) as info:
        Harbour.from_json(text)  # type: ignore[arg-type]
    return str(info.value)


def _player_readable(message: str) -> None:
    assert "\n" not in message
    assert len(message) < 300, message
    for word in ("Harbour", "Boat", "Stack", "Expecting", "Traceback", "Error", "digits;"):
        assert word not in message, message
    assert message.startswith("this harbour save"), message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("{" + '"a":' * 0 + "[" * 5000 + "]" * 5000 + "}", "not valid JSON"),
        (None, "is empty"),
        ("", "is empty"),
        ("   ", "is empty"),
        (12, "is not text"),
        (b"\xff\xfe{", "not UTF-8 text at byte 0"),
        ("{not json", "not valid JSON: unreadable at line 1 column 2"),
        ('{\n "a": 1,\n oops}', "unreadable at line 3 column 2"),
        ('{"a": ' + "9" * 5000 + "}", "holds a number too long"),
        ('{"a": NaN}', "holds NaN or Infinity"),
        ('{"a": -Infinity}', "holds NaN or Infinity"),
    ],
)
def test_unreadable_text_is_one_state_error(text: object, expected: str) -> None:
    message = _message(text)
    assert expected in message
    _player_readable(message)


def test_too_long_is_refused_before_parsing() -> None:
    text = " " * (MAX_SAVE_CHARS + 1) + "{}"
    start = time.process_time()
    message = _message(text)
    assert "too long" in message and f"{MAX_SAVE_CHARS:,}" in message
    assert time.process_time() - start < 1


def test_format_must_be_the_number_one() -> None:
    for bad in (True, "1", 1.0, 2, None):
        data = json.loads(Harbour().to_json())
        data["format"] = bad
        message = _message(json.dumps(data))
        assert "field 'format' must be 1" in message
        _player_readable(message)
    data = json.loads(Harbour().to_json())
    assert Harbour.from_json(json.dumps(data)) == Harbour()


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        # limits inside a nested record in a list
        ({"boats": [{"hull": 31, "hull_max": 30, "stacks": []}]},
         "field 'boats[0].hull' must be from 0 to 30, got 31"),
        ({"boats": [{"hull": 1, "hull_max": 3,
                     "stacks": [{"name": "rope", "count": -1000}]}]},
         "field 'boats[0].stacks[0].count' must be from 1 to 99, got -1000"),
        # check_state of a nested record (two levels down) and of its parent
        ({"boats": [{"hull": 1, "hull_max": 3, "stacks": [{"name": "", "count": 5}]}]},
         "in 'boats[0].stacks[0]': field 'count': an unnamed stack holds one thing"),
        ({"boats": [{"hull": 18, "hull_max": 3, "stacks": []}]},
         "in 'boats[0]': field 'hull' is 18, over its maximum 3"),
        # max_len on text and on a list
        ({"boats": [{"hull": 1, "hull_max": 3, "stacks": [{"name": "x" * 5000, "count": 1}]}]},
         "field 'boats[0].stacks[0].name' holds 5000 characters, at most 20 allowed"),
        ({"boats": [{"hull": 1, "hull_max": 3, "stacks": [{"name": "a", "count": 1}] * 4}]},
         "field 'boats[0].stacks' holds 4 items, at most 3 allowed"),
        # per-item limits on list and dict fields
        ({"faces": [1, 7]}, "field 'faces[1]' must be from 1 to 6, got 7"),
        ({"crews": {"north": 11}}, "field 'crews.north' must be from 0 to 10, got 11"),
        # __post_init__ refusing
        ({"pair": {"dice": [6, 6], "rolls": [3]}}, "in 'pair': as many rolls as dice"),
        # fractions: bounded digits, no exponent form, no floats
        ({"share": "1e5000"}, "field 'share' must be an exact fraction"),
        ({"share": "1/" + "3" * 300}, "field 'share' must be an exact fraction"),
        ({"share": 0.5}, "field 'share' must be an exact fraction"),
        # floats: finite
        ({"weight": 1e308 * 10}, "holds NaN or Infinity"),
    ],
)
def test_rules_hold_inside_nested_records(changes: dict[str, object], expected: str) -> None:
    message = _message(_saved(**changes))
    assert expected in message
    _player_readable(message)


def test_float_overflowing_to_infinity_is_refused() -> None:
    message = _message(_saved().replace('"weight": 1.0', '"weight": 1e999'))
    assert "field 'weight' must be a finite number, got inf" in message


def test_good_nested_save_loads_and_round_trips() -> None:
    harbour = Harbour(faces=[1, 6], crews={"north": 10}, share=Fraction(-2, 7))
    harbour.launch(3)
    harbour.boats[0].stacks.append(Stack("rope", 99))
    harbour.launch(5)
    loaded = Harbour.from_json(harbour.to_json())
    assert loaded == harbour and loaded.log == harbour.log
    harbour.validate()


def test_invariants_checked_in_undo_snapshots() -> None:
    harbour = Harbour()
    harbour.launch(3)
    harbour.launch(4)
    data = json.loads(harbour.to_json())
    data["log"][1]["before"]["boats"][0]["hull"] = 9
    message = _message(json.dumps(data))
    assert "in 'log[1].before.boats[0]': field 'hull' is 9, over its maximum 3" in message


def test_validate_finds_a_live_nested_violation() -> None:
    harbour = Harbour()
    harbour.launch(3)
    harbour.boats[0].hull = 10
    with pytest.raises(StateError, match=r"in 'boats\[0\]': field 'hull' is 10"):
        harbour.validate()


def test_rollback_restores_even_a_state_loading_would_refuse() -> None:
    # A constructor may build anything; a refused move must still restore it exactly.
    harbour = Harbour(boats=[Boat(hull=9, hull_max=3)])
    with pytest.raises(RuleError):
        harbour.launch(0)
    assert harbour.boats == [Boat(hull=9, hull_max=3)]


def test_echo_of_a_huge_value_is_clipped() -> None:
    message = _message(_saved(faces="z" * 100_000))
    assert "field 'faces' must be a list" in message
    assert "100,000 characters" in message and len(message) < 200
    message = _message(_saved(**{"k" * 100_000: 1}))
    assert "unknown field" in message and len(message) < 200


def test_wrong_tracker_names_the_field_not_the_class() -> None:
    data = json.loads(Harbour().to_json())
    data["tracker"] = "Vessel"
    message = _message(json.dumps(data))
    assert message == 'this harbour save: field \'tracker\' says it saves something else ("Vessel")'


def test_deep_value_in_a_free_field_is_bounded() -> None:
    # 900 levels parse, but decoding them is bounded too: refused, not a crash.
    deep = "[" * 900 + "]" * 900
    data = Harbour().to_json().replace('"notes": []', '"notes": ' + deep)
    message = _message(data)
    _player_readable(message)


def test_nothing_is_built_or_changed_by_a_refused_load() -> None:
    harbour = Harbour()
    harbour.launch(2)
    before = harbour.to_json()
    for text in (None, "[" * 10_000, _saved(faces=[9])):
        with pytest.raises(StateError):
            harbour.load(text)  # type: ignore[arg-type]
    assert harbour.to_json() == before


def test_a_huge_history_line_is_refused() -> None:
    harbour = Harbour()
    harbour.launch(2)
    data = json.loads(harbour.to_json())
    data["log"][0]["summary"] = "s" * 100_000
    message = _message(json.dumps(data))
    assert "field 'log[0].summary' holds 100,000 characters, at most 2,000 allowed" in message


def test_a_long_but_legal_save_loads_within_a_second_of_cpu() -> None:
    harbour = Harbour()
    for hull in range(1, 31):
        harbour.launch(hull)
        harbour.undo()
        harbour.launch(hull)
    start = time.process_time()
    assert Harbour.from_json(harbour.to_json()) == harbour
    assert time.process_time() - start < 1


def test_a_move_without_its_own_line_is_logged_in_plain_words() -> None:
    @dataclass
    class Ledger(Tracker):
        total: int = 0

        @move
        def take_damage(self, amount: int, kinds: list[str], lethal: bool = False,
                        note: str | None = None) -> None:
            self.total += amount

        @move
        def rest(self) -> None:
            self.total = 0

    ledger = Ledger()
    ledger.take_damage(3, ["fire", "cold"])
    ledger.rest()
    assert [e.summary for e in ledger.log] == [
        "take damage: amount 3; kinds fire, cold; lethal no; note none", "rest"]
