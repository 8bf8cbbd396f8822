"""Loads that refuse what the rules forbid: each Cairn tracker's invariants are stated once
(state_field limits and check_state) and a save breaking one is refused with a StateError
naming the field, building nothing."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from companion.errors import StateError
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.rulesets.cairn_srd.mass_combat import Vessel
from companion.state import Tracker


def _character() -> Character:
    c = new_character("Ash", 12, 10, 9, 5, armor=2)
    c.add_item("Arrows", "stack", 20)
    c.add_item("Torch", usage_die=6)
    return c


def _duel() -> Duel:
    d = Duel()
    d.start("Vera", "Osk", 8, 8, "first blood")
    d.choose(0, "attack")
    d.choose(1, "defend", seed=1)
    return d


def _encounter(pending: bool = False) -> Encounter:
    e = Encounter()
    e.add("Ash", "PCs", guard=5, strength=12, pc=True, weapon=8)
    e.add("Goblin", "Enemies", guard=3, strength=8)
    e.add("Bryn", "PCs", guard=3, strength=10, pc=True)
    e.roll_initiative(seed=1)
    if e.phase == "Enemies":
        e.end_turn()
    if pending:
        e.attack(Attack("Ash", "Goblin", joined=("Bryn",)), hold_for_gambits=True, seed=2)
    return e


def _state(tracker: Tracker) -> dict[str, Any]:
    saved: dict[str, Any] = json.loads(tracker.to_json())
    saved["log"] = []  # the state itself is under test (snapshots are checked the same way)
    return saved


def _set(path: list[Any], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(saved: dict[str, Any]) -> None:
        node: Any = saved["state"]
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


CASES = [
    (_character, _set(["items", 0, "quantity"], -1000), "items[0].quantity"),
    (_character, _set(["items", 1, "usage_die"], 7), "items[1].usage_die"),
    (_character, _set(["items", 0, "tag"], "heavy"), "items[0].tag"),
    (_character, _set(["items", 1, "quantity"], 3), "quantity"),
    (_character, _set(["name"], "x" * 5000), "name"),
    (_character, _set(["dooms"], 4), "dooms"),
    (_duel, _set(["hit_points", 0], -7), "hit_points[0]"),
    (_duel, _set(["names"], ["Vera"]), "names"),
    (_duel, _set(["choices"], ["attack", "defend", "flourish"]), "choices"),
    (_duel, _set(["choices"], ["attack", "defend"]), "choices"),
    (_duel, _set(["winner"], "Osk"), "winner"),
    (_duel, _set(["exchanges", 0, "damage", 0], 9), "damage"),
    (_duel, _set(["rounds"], 5), "rounds"),
    (_encounter, _set(["combatants", 0, "guard"], -5), "combatants[0].guard"),
    (_encounter, _set(["combatants", 1, "guard"], 4), "guard"),
    (_encounter, _set(["combatants", 1, "name"], "Ash"), "combatants"),
    (_encounter, _set(["combatants", 1, "weapon"], 7), "combatants[1].weapon"),
    (lambda: _encounter(True), _set(["pending", "rolls"], [3]), "rolls"),
    (lambda: _encounter(True), _set(["pending", "rolls", 0], 9), "rolls[0]"),
    (lambda: _encounter(True), _set(["pending", "target"], "Dragon"), "pending"),
    (lambda: Vessel(hull_max=3, hull=3), _set(["hull"], 18), "hull"),
    (Vessel, _set(["hold"], ["a", "b", "c", "d", "e"]), "hold"),
    (LockPicking.create, _set(["sequence"], "TTP"), "sequence"),
    (LockPicking.create, _set(["lock_type"], "Vault"), "lock_type"),
    (LockPicking.create, _set(["progress"], 7), "progress"),
]


@pytest.mark.parametrize(("make", "change", "field"), CASES)
def test_a_forbidden_save_is_refused_naming_the_field(
        make: Callable[[], Tracker], change: Callable[[dict[str, Any]], None],
        field: str) -> None:
    tracker = make()
    saved = _state(tracker)
    type(tracker).from_json(json.dumps(saved))  # the untouched save loads
    change(saved)
    before = tracker.to_json()
    with pytest.raises(StateError) as refused:
        type(tracker).from_json(json.dumps(saved))
    assert field in str(refused.value)
    with pytest.raises(StateError):
        tracker.load(json.dumps(saved))
    assert tracker.to_json() == before  # nothing half-loaded
    assert len(str(refused.value).splitlines()) == 1
