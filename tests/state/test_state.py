"""The Tracker base: moves, atomicity, log, undo, observers and strict JSON loading."""

from __future__ import annotations

import enum
import json
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import RuleError, StateError
from companion.state import Tracker, move, state_field


class Mood(enum.Enum):
    CALM = "calm"
    ANGRY = "angry"


@dataclass
class Member:
    name: str
    hp: int = state_field(5, min=0, max=10)


@dataclass
class Camp(Tracker):
    torches: int = state_field(0, min=0, max=3)
    label: str = "camp"
    watch: bool = False
    mood: Mood = Mood.CALM
    side: Literal["north", "south"] = "north"
    share: Fraction = Fraction(1, 3)
    weight: float = 1.5
    note: str | None = None
    members: list[Member] = field(default_factory=list)
    tags: dict[str, int] = field(default_factory=dict)

    @move
    def light(self, count: int = 1) -> int:
        """Light torches; at most 3 burn (the torch rule)."""
        if self.torches + count > 3:
            raise RuleError("torch rule: at most 3 torches burn at once")
        self.torches += count
        self.describe(f"lit {count}")
        return self.torches

    @move
    def half_broken(self) -> None:
        """Changes a field, then fails: must leave nothing changed."""
        self.torches = 2
        raise RuleError("broken rule")

    @move
    def recruit(self, name: str) -> None:
        self.members.append(Member(name))
        self.light()  # nested move: one event only

    def check_state(self) -> None:
        if self.watch and self.torches == 0:
            raise StateError("field 'watch' needs a lit torch")


def test_move_logs_event_and_returns_value() -> None:
    camp = Camp()
    assert camp.light(2) == 2
    assert [(e.move, e.args, e.summary) for e in camp.log] == [("light", {"count": 2}, "lit 2")]


def test_forbidden_move_changes_nothing_and_names_rule() -> None:
    camp = Camp()
    camp.light(3)
    with pytest.raises(RuleError, match="torch rule"):
        camp.light()
    assert camp.torches == 3 and len(camp.log) == 1


def test_failed_move_is_rolled_back() -> None:
    camp = Camp()
    with pytest.raises(RuleError):
        camp.half_broken()
    assert camp.torches == 0 and camp.log == ()


def test_nested_move_is_one_event_and_undoes_whole() -> None:
    camp = Camp()
    camp.recruit("Ada")
    assert [e.move for e in camp.log] == ["recruit"]
    assert camp.torches == 1 and camp.members == [Member("Ada")]
    camp.undo()
    assert camp.torches == 0 and camp.members == []


def test_undo_restores_previous_state_in_order() -> None:
    camp = Camp()
    camp.light()
    camp.light()
    assert camp.undo().args == {"count": 1}
    assert camp.torches == 1
    camp.undo()
    assert camp.torches == 0
    with pytest.raises(RuleError, match="nothing to undo"):
        camp.undo()


def test_observers_called_on_move_and_undo_and_unsubscribe() -> None:
    camp = Camp()
    seen: list[int] = []
    stop = camp.on_change(lambda c: seen.append(c.torches))
    camp.light()
    camp.undo()
    with pytest.raises(RuleError):
        camp.light(9)
    stop()
    camp.light()
    assert seen == [1, 0]


def test_round_trip_keeps_state_log_and_undo() -> None:
    camp = Camp(label="ridge", mood=Mood.ANGRY, side="south", note="x", tags={"a": 1})
    camp.recruit("Bo")
    camp.light()
    loaded = Camp.from_json(camp.to_json())
    assert loaded == camp
    assert loaded.log == camp.log
    loaded.undo()
    assert loaded.torches == 1 and loaded.members == [Member("Bo")]


def test_load_into_existing_notifies() -> None:
    camp, other = Camp(), Camp()
    other.light(2)
    seen: list[int] = []
    camp.on_change(lambda c: seen.append(c.torches))
    camp.load(other.to_json())
    assert camp.torches == 2 and seen == [2] and len(camp.log) == 1


def _saved(**changes: object) -> str:
    data = json.loads(Camp().to_json())
    data["state"].update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "top level"),
        (_saved(torches="two"), "'torches' must be a whole number"),
        (_saved(torches=True), "'torches' must be a whole number"),
        (_saved(torches=4), "'torches' must be from 0 to 3"),
        (_saved(torches=-1), "'torches' must be from 0 to 3"),
        (_saved(mood="sad"), "'mood' must be one of"),
        (_saved(side="east"), "'side' must be one of"),
        (_saved(share="1/0"), "'share' must be an exact fraction"),
        (_saved(members=[{"name": "A", "hp": 11}]), "'members\\[0\\].hp' must be from 0 to 10"),
        (_saved(members=[{"hp": 3}]), "missing field 'members\\[0\\].name'"),
        (_saved(tags={"a": "b"}), "'tags.a' must be a whole number"),
        (_saved(extra=1), "unknown field 'extra'"),
        (_saved(watch=True), "'watch' needs a lit torch"),
    ],
)
def test_corrupt_state_names_the_field(text: str, message: str) -> None:
    with pytest.raises(StateError, match=message):
        Camp.from_json(text)


def test_missing_field_named() -> None:
    camp = Camp()
    camp.recruit("Ash")
    data = json.loads(camp.to_json())
    del data["state"]["members"][0]["name"]
    with pytest.raises(StateError, match=r"missing field 'members\[0\]\.name'"):
        Camp.from_json(json.dumps(data))


def test_a_field_added_after_the_save_loads_as_its_default() -> None:
    """A save written before a field existed: the field's default (tracker, nested record,
    undo snapshot); a field without a default is still missing, an unknown one still unknown."""
    camp = Camp(label="north camp", tags={"x": 1})
    camp.recruit("Ash")
    camp.light(2)
    data = json.loads(camp.to_json())
    del data["state"]["label"], data["state"]["tags"], data["state"]["members"][0]["hp"]
    for event in data["log"]:
        del event["before"]["share"]
        for member in event["before"]["members"]:
            del member["hp"]
    old = Camp.from_json(json.dumps(data))
    assert old.label == "camp" and old.tags == {} and old.members[0].hp == 5
    assert old.torches == 3 and [e.move for e in old.log] == ["recruit", "light"]
    old.undo()
    assert old.torches == 1 and old.share == Fraction(1, 3) and old.members[0].hp == 5
    old.undo()
    assert old.members == []
    data["state"]["hoard"] = 3
    with pytest.raises(StateError, match="unknown field 'hoard'"):
        Camp.from_json(json.dumps(data))


def test_wrong_tracker_kind_and_bad_log() -> None:
    data = json.loads(Camp().to_json())
    data["tracker"] = "Other"
    with pytest.raises(StateError, match="'tracker'"):
        Camp.from_json(json.dumps(data))
    camp = Camp()
    camp.light()
    data = json.loads(camp.to_json())
    data["log"][0]["before"]["torches"] = 9
    with pytest.raises(StateError, match=re.escape("'log[0].before.torches'")):
        Camp.from_json(json.dumps(data))
    data = json.loads(camp.to_json())
    data["log"][0]["move"] = "to_json"
    with pytest.raises(StateError, match=re.escape("'log[0].move' is not a move")):
        Camp.from_json(json.dumps(data))


def test_corrupt_load_into_existing_changes_nothing() -> None:
    camp = Camp()
    camp.light()
    with pytest.raises(StateError):
        camp.load(_saved(torches=7))
    assert camp.torches == 1 and len(camp.log) == 1


names = st.text(max_size=8)
members = st.builds(Member, names, st.integers(0, 10))


@given(
    label=st.text(),
    mood=st.sampled_from(Mood),
    side=st.sampled_from(["north", "south"]),
    share=st.fractions(),
    weight=st.floats(allow_nan=False, allow_infinity=False),
    note=st.none() | st.text(),
    crew=st.lists(members, max_size=4),
    tags=st.dictionaries(st.text(max_size=4), st.integers()),
    lights=st.integers(0, 3),
)
def test_json_round_trip_is_lossless(
    label: str, mood: Mood, side: Literal["north", "south"], share: Fraction,
    weight: float, note: str | None, crew: list[Member], tags: dict[str, int], lights: int,
) -> None:
    camp = Camp(0, label, False, mood, side, share, weight, note, crew, tags)
    for _ in range(lights):
        camp.light()
    loaded = Camp.from_json(camp.to_json())
    assert loaded == camp and loaded.log == camp.log
    assert loaded.to_json() == camp.to_json()


# -- the public API the store uses (no private names across modules) ------------------------


@dataclass
class Probe(Tracker):
    """Records what the public API says from inside its own moves."""

    kind = "probe-v1"
    n: int = state_field(0, min=0, max=99)
    seen: list[str] = field(default_factory=list)

    @move
    def step(self) -> None:
        self.seen.append(f"in_move={self.in_move} so_far={self.summary_so_far}")
        self.describe(f"step {self.n + 1}")
        self.seen.append(f"so_far={self.summary_so_far}")
        self.n += 1


def test_is_move_tells_moves_from_other_attributes() -> None:
    from companion.state import is_move

    assert is_move(Camp.light) and is_move(Camp.recruit)
    assert not is_move(Camp.check_state) and not is_move(Camp.undo)
    assert not is_move(None) and not is_move(getattr(Camp, "torches", None))


def test_saved_kind_and_from_state() -> None:
    assert Probe.saved_kind() == "probe-v1" and Camp.saved_kind() == "Camp"
    probe = Probe()
    probe.step()
    fresh = Probe.from_state(probe.snapshot())
    assert fresh.n == 1 and fresh.log == () and json.loads(fresh.to_json())["tracker"] == "probe-v1"
    with pytest.raises(StateError, match="field 'n' must be from 0 to 99, got 100"):
        Probe.from_state({"n": 100, "seen": []})
    assert Probe.from_state({"n": 1}).seen == []


def test_in_move_and_summary_so_far_hold_only_during_a_move() -> None:
    probe = Probe()
    assert not probe.in_move and probe.summary_so_far is None
    probe.step()
    probe.step()
    assert probe.seen == ["in_move=True so_far=None", "so_far=step 1",
                          "in_move=True so_far=None", "so_far=step 2"]
    assert not probe.in_move and probe.summary_so_far is None


def test_trim_log_keeps_the_newest_events_and_undo_stops_there() -> None:
    probe = Probe()
    for _ in range(5):
        probe.step()
    probe.trim_log(2)
    assert [e.summary for e in probe.log] == ["step 4", "step 5"]
    probe.undo()
    probe.undo()
    assert probe.n == 3 and not probe.can_undo
    with pytest.raises(RuleError, match="nothing to undo"):
        probe.undo()
    probe.step()
    probe.trim_log(5)  # fewer than that: nothing goes
    assert len(probe.log) == 1
    probe.trim_log(0)
    assert len(probe.log) == 0


def test_decode_value_and_jsonable_round_trip_a_move_argument() -> None:
    from companion.state import decode_value, jsonable

    for value, tp in ((Fraction(2, 7), Fraction), (Mood.ANGRY, Mood), ([1, 2], list[int]),
                      ({"a": 1}, dict[str, int]), (None, int | None), ("north", str)):
        assert decode_value(jsonable(value), tp, "x", "move m") == value
    assert jsonable(Member("Ann", 3)) == {"name": "Ann", "hp": 3}
    assert jsonable(float("inf")) == "inf"
    with pytest.raises(StateError, match=r"^move heal: field 'amount' must be a whole number"):
        decode_value("3", int, "amount", "move heal")
    with pytest.raises(StateError, match="one of 'calm', 'angry'"):
        decode_value("sad", Mood, "mood", "move m")
