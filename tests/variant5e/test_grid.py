"""Facing, flanking and diagonal movement on the grid."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.errors import RuleError, StateError
from companion.rulesets.variant5e.contests import Size
from companion.rulesets.variant5e.dash import dash_movement
from companion.rulesets.variant5e.diagonal_moves import (
    DIRECTIONS,
    MovementCounter,
    diagonal_step_cost,
    distance,
)
from companion.rulesets.variant5e.facing_and_flanking import (
    Creature,
    arc_of,
    arc_of_attacker,
    attacker_has_rear_advantage,
    can_target,
    facing_changes_after_reaction,
    flanking_benefit,
    flanking_pairs,
    flanks,
    is_flanked,
    shield_applies,
)

ORC = Creature("orc", 5, 5, team="monsters")


def ally(name: str, x: int, y: int, **kw: object) -> Creature:
    return Creature(name, x, y, **kw)  # type: ignore[arg-type]


# -- flanking ------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("a", "b"),
    [((4, 5), (6, 5)), ((5, 4), (5, 6)), ((4, 4), (6, 6)), ((6, 4), (4, 6))],
)
def test_opposite_sides_and_corners_flank(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert flanks(ally("a", *a), ally("b", *b), ORC)


@pytest.mark.parametrize(
    ("a", "b"),
    [((4, 5), (5, 4)), ((4, 4), (6, 4)), ((4, 4), (6, 5)), ((4, 5), (4, 6)), ((4, 4), (5, 6))],
)
def test_neighbouring_sides_do_not_flank(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert not flanks(ally("a", *a), ally("b", *b), ORC)


def test_both_must_be_adjacent() -> None:
    assert not flanks(ally("a", 3, 5), ally("b", 6, 5), ORC)


def test_blind_incapacitated_or_enemy_team_do_not_flank() -> None:
    assert not flanks(ally("a", 4, 5, can_see=False), ally("b", 6, 5), ORC)
    assert not flanks(ally("a", 4, 5, incapacitated=True), ally("b", 6, 5), ORC)
    assert not flanks(ally("a", 4, 5, team="monsters"), ally("b", 6, 5), ORC)
    assert not flanks(ally("a", 4, 5), ally("b", 6, 5, team="other"), ORC)


def test_large_flanker_needs_only_one_qualifying_square() -> None:
    # An ogre (2x2) at (3,4)-(4,5) touches the orc's west side; the rogue is east.
    ogre = ally("ogre", 3, 4, size=Size.LARGE)
    assert flanks(ogre, ally("rogue", 6, 5), ORC)
    # The ogre's squares touch the orc's west side and north-west corner only.
    assert flanks(ogre, ally("rogue", 6, 6), ORC)  # (4,4) to the south-east corner
    assert not flanks(ogre, ally("rogue", 6, 4), ORC)  # north-east corner: no opposite square
    assert not flanks(ogre, ally("rogue", 5, 6), ORC)  # south of the orc: a neighbouring side
    # Moved one row down, its square (4,6) sits on the south-west corner.
    assert flanks(ally("ogre", 3, 5, size=Size.LARGE), ally("rogue", 6, 4), ORC)


def test_flanking_a_large_enemy() -> None:
    troll = Creature("troll", 5, 5, size=Size.LARGE, team="monsters")  # (5,5)-(6,6)
    assert flanks(ally("a", 4, 5), ally("b", 7, 5), troll)
    assert flanks(ally("a", 4, 4), ally("b", 7, 7), troll)
    # (4,5) to (7,6): the line enters west and leaves east.
    assert flanks(ally("a", 4, 5), ally("b", 7, 6), troll)
    assert not flanks(ally("a", 4, 5), ally("b", 5, 7), troll)


def test_pairs_and_is_flanked() -> None:
    party = [ally("a", 4, 5), ally("b", 6, 5), ally("c", 5, 4), ORC]
    assert flanking_pairs(party, ORC) == [("a", "b")]
    assert is_flanked(party, ORC) and is_flanked(party, ORC, by="b")
    assert not is_flanked(party, ORC, by="c")


def brute_force_flank(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Flanking on a 1x1 enemy at the origin, by the classic reading: opposite neighbours."""
    return a[0] == -b[0] and a[1] == -b[1]


@given(st.sampled_from(list(DIRECTIONS.values())), st.sampled_from(list(DIRECTIONS.values())))
def test_medium_flanking_is_exactly_opposite_squares(a: tuple[int, int],
                                                      b: tuple[int, int]) -> None:
    enemy = Creature("e", 0, 0, team="x")
    got = a != b and flanks(ally("a", *a), ally("b", *b), enemy)
    assert got == brute_force_flank(a, b)


def test_flanking_benefit_interpretation() -> None:
    assert flanking_benefit() == "advantage on melee attack rolls"
    assert flanking_benefit("plus_two") == "+2 on attack rolls"
    with pytest.raises(RuleError, match="Flanking"):
        flanking_benefit("plus_five")  # type: ignore[arg-type]


# -- facing --------------------------------------------------------------------------------

def test_arcs_of_a_medium_creature_facing_north() -> None:
    guard = Creature("guard", 5, 5, facing="north")
    assert {arc_of(guard, (x, 4)) for x in (4, 5, 6)} == {"front"}
    assert arc_of(guard, (4, 5)) == "left" and arc_of(guard, (6, 5)) == "right"
    assert {arc_of(guard, (x, 6)) for x in (4, 5, 6)} == {"rear"}
    assert arc_of(guard, (5, 5)) == "inside"
    # Two rows out the front cone widens to five squares.
    assert [arc_of(guard, (x, 3)) for x in range(2, 9)] == [
        "left", "front", "front", "front", "front", "front", "right"]


@pytest.mark.parametrize(
    ("facing", "ahead", "left"),
    [("north", (5, 4), (4, 5)), ("east", (6, 5), (5, 4)), ("south", (5, 6), (6, 5)),
     ("west", (4, 5), (5, 6))],
)
def test_facing_rotates_the_arcs(facing: str, ahead: tuple[int, int],
                                 left: tuple[int, int]) -> None:
    guard = Creature("guard", 5, 5, facing=facing)  # type: ignore[arg-type]
    assert arc_of(guard, ahead) == "front"
    assert arc_of(guard, left) == "left"
    behind = (10 - ahead[0], 10 - ahead[1])
    assert arc_of(guard, behind) == "rear"


def test_large_creature_arcs() -> None:
    ogre = Creature("ogre", 5, 5, size=Size.LARGE, facing="east")  # (5,5)-(6,6)
    assert arc_of(ogre, (7, 4)) == "front" and arc_of(ogre, (7, 7)) == "front"
    assert arc_of(ogre, (5, 4)) == "left" and arc_of(ogre, (6, 7)) == "right"
    assert arc_of(ogre, (4, 5)) == "rear"


def test_rear_attackers_shields_and_targeting() -> None:
    guard = Creature("guard", 5, 5, facing="north")
    behind = Creature("thief", 5, 6, team="x", facing="north")
    beside = Creature("bandit", 4, 5, team="x")
    assert attacker_has_rear_advantage(guard, behind)
    assert not attacker_has_rear_advantage(guard, beside)
    assert not can_target(guard, behind) and can_target(guard, beside)
    assert shield_applies(guard, beside, "left")
    assert not shield_applies(guard, beside, "right")
    assert not shield_applies(guard, behind, "left")
    ooze = Creature("ooze", 5, 5, all_front=True)
    assert arc_of_attacker(ooze, behind) == "front"


def test_turning_after_reaction_and_bad_input() -> None:
    assert facing_changes_after_reaction(35) == 3
    with pytest.raises(RuleError, match="Facing"):
        facing_changes_after_reaction(-5)
    with pytest.raises(RuleError, match="faces 'up'"):
        Creature("x", 0, 0, facing="up")  # type: ignore[arg-type]


# -- diagonal moves ------------------------------------------------------------------------

def test_seed_example_one_diagonal_three_straight_one_diagonal() -> None:
    counter = MovementCounter(speed=30)
    for direction in ("ne", "e", "e", "e", "se"):
        counter.step(direction)
    assert counter.feet == 30 and (counter.x, counter.y) == (5, 0)
    assert [e.summary.split(":")[1].strip().split()[0] for e in counter.log] == [
        "5", "5", "5", "5", "10"]


def test_moves_beyond_speed_are_refused() -> None:
    counter = MovementCounter(speed=15)
    counter.step("ne")  # 5
    counter.step("ne")  # second diagonal: 10 -> 15 total
    with pytest.raises(RuleError, match="Diagonal Moves: this square costs 5 ft, only 0 ft"):
        counter.step("n")
    assert counter.feet == 15 and len(counter.log) == 2
    counter.dash()
    counter.step("ne")  # third diagonal: 5 ft
    assert counter.feet == 20 and counter.remaining == 10
    with pytest.raises(RuleError, match="Dash: this counter already"):
        counter.dash()
    counter.new_turn()
    assert counter.feet == 0 and counter.diagonals == 0 and not counter.dashed
    assert counter.next_cost("sw") == 5
    with pytest.raises(RuleError, match="unknown direction 'up'"):
        counter.step("up")


def test_counter_round_trip_undo_and_corrupt_state() -> None:
    counter = MovementCounter(speed=30)
    counter.step("se")
    counter.step("se")
    again = MovementCounter.from_json(counter.to_json())
    assert again == counter
    again.undo()
    assert again.feet == 5 and again.diagonals == 1
    data = json.loads(counter.to_json())
    data["state"]["feet"] = -5
    with pytest.raises(StateError, match="feet"):
        MovementCounter.from_json(json.dumps(data))


def test_dash_doubles_current_speed() -> None:
    assert dash_movement(30) == 60 and dash_movement(15) == 30
    with pytest.raises(RuleError, match="Dash"):
        dash_movement(-1)


@given(st.integers(-12, 12), st.integers(-12, 12))
def test_distance_equals_the_cheapest_walk(dx: int, dy: int) -> None:
    # Walking all the diagonals first then straight is a shortest path; count it square
    # by square with the counter's own alternation.
    feet = sum(diagonal_step_cost(done) for done in range(min(abs(dx), abs(dy))))
    feet += 5 * (max(abs(dx), abs(dy)) - min(abs(dx), abs(dy)))
    assert distance(dx, dy) == feet


# -- the battlefield model behind the app ----------------------------------------------------

def test_battlefield_cycles_and_reports_flanking() -> None:
    from companion.rulesets.variant5e.facing_and_flanking import Battlefield

    field = Battlefield(5, 5)
    changes: list[object] = []
    field.on_change(changes.append)
    field.place(2, 2, "enemy")
    assert field.cycle(1, 2) == "ally"
    assert field.cycle(3, 2) == "ally"
    assert field.flanked() == {"enemy (2,2)": [("ally (1,2)", "ally (3,2)")]}
    assert field.flanked_squares() == {(2, 2)}
    assert field.flanking_squares() == {(1, 2), (3, 2)}
    assert field.cycle(3, 2) == "enemy"  # now two enemies flank nobody, nobody flanks
    assert field.flanked() == {}
    assert field.cycle(3, 2) == ""
    assert len(changes) == 5
    with pytest.raises(RuleError, match=r"square \(5, 0\) is off the 5x5 grid"):
        field.place(5, 0, "ally")
    with pytest.raises(RuleError, match="not 'dragon'"):
        field.place(0, 0, "dragon")
    field.clear()
    assert field.creatures() == []


def test_enemies_can_flank_an_ally() -> None:
    from companion.rulesets.variant5e.facing_and_flanking import Battlefield

    field = Battlefield()
    field.place(1, 1, "ally")
    field.place(0, 0, "enemy")
    field.place(2, 2, "enemy")
    assert field.flanked() == {"ally (1,1)": [("enemy (0,0)", "enemy (2,2)")]}


def test_facing_tracker_turns() -> None:
    from companion.rulesets.variant5e.facing_and_flanking import FacingTracker

    guard = FacingTracker(speed=25)
    guard.end_move("e")
    assert guard.facing == "east"
    with pytest.raises(RuleError, match="keep turning only after turning with the reaction"):
        guard.keep_turning("south")
    with pytest.raises(RuleError, match="no creature is being tracked"):
        guard.opportunity_attack_while_tracking()
    guard.turn_as_reaction("south", toward="rogue")
    assert guard.turns_left == 2
    with pytest.raises(RuleError, match="reaction is already spent"):
        guard.turn_as_reaction("west")
    guard.keep_turning("west")
    guard.keep_turning("north")
    with pytest.raises(RuleError, match=r"no turns left \(speed 25 allows 2\)"):
        guard.keep_turning("east")
    guard.opportunity_attack_while_tracking()
    with pytest.raises(RuleError, match="already made its opportunity attack"):
        guard.opportunity_attack_while_tracking()
    with pytest.raises(RuleError, match="unknown direction 'up'"):
        guard.end_move("up")
    guard.start_turn()
    assert not guard.reaction_used and guard.facing == "north"
    again = FacingTracker.from_json(guard.to_json())
    assert again == guard
    again.undo()
    assert again.reaction_used


def test_attacker_spanning_two_arcs_counts_in_the_one_kinder_to_the_defender() -> None:
    guard = Creature("guard", 5, 5, facing="north")
    # An ogre at (3,5)-(4,6): square (4,5) is the guard's left arc, (4,6) its rear arc.
    ogre = Creature("ogre", 3, 5, size=Size.LARGE, team="x")
    assert {arc_of(guard, s) for s in ogre.squares()} >= {"left", "rear"}
    assert arc_of_attacker(guard, ogre) == "left"
    assert not attacker_has_rear_advantage(guard, ogre)
