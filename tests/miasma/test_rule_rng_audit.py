"""Every rule roll of the Miasma and old 5e modules takes an ``rng`` (issue 13): the same
seed gives the same dice through ``seed=`` and ``rng=random.Random(seed)``, so a roll
made in a roll mode (or from real dice) runs the very same rules."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from companion.dice import SEED_BOUND, draw_seed, roll
from companion.errors import RuleError, StateError
from companion.rulesets.miasma import earthmotes as E
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.variant5e.contests import Combatant, Edge, Size
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.maneuvers import MANEUVERS

ROOT = Path(__file__).resolve().parents[2] / "companion" / "rulesets"
AUDITED = [*sorted((ROOT / "miasma").rglob("*.py")), *sorted((ROOT / "variant5e").glob("*.py"))]


def test_every_function_taking_a_seed_also_takes_an_rng() -> None:
    """The audit itself: no function or move of these modules rolls from a seed only."""
    seed_only = []
    for path in AUDITED:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names = {a.arg for a in [*node.args.args, *node.args.kwonlyargs]}
                checks_only = node.name.lstrip("_").startswith("check")  # rolls nothing
                if "seed" in names and "rng" not in names and not checks_only:
                    seed_only.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert seed_only == []
    assert len(AUDITED) > 20  # the walk really found the modules


def _dice(mote: E.Earthmote) -> tuple[object, ...]:
    return (mote.size_roll, mote.biome_roll, mote.features, mote.biome)


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_earthmotes_same_seed_same_dice_through_seed_and_rng(seed: int) -> None:
    by_seed = E.generate_earthmote(seed=seed)
    by_rng = E.generate_earthmote(rng=random.Random(seed))
    assert _dice(by_rng) == _dice(by_seed)
    assert by_seed.seed == seed and by_rng.seed is None  # a generator's seed is unknown
    assert E.generate_earthmote(rng=random.Random(seed), seed=seed) == by_seed
    for keep in (0, 1, None):
        region = E.change_region(by_seed, keep, seed=seed + 1)
        from_rng = E.change_region(by_seed, keep, rng=random.Random(seed + 1))
        # A new size keeps the seed that rolled it (a generator's is unknown).
        assert _dice(region) == _dice(from_rng)
        assert (region.seed, from_rng.seed) == (seed + 1, None)
        same_size = E.change_region(by_seed, keep, new_size=False, seed=seed + 1)
        same_from_rng = E.change_region(by_seed, keep, new_size=False,
                                        rng=random.Random(seed + 1))
        assert _dice(same_size) == _dice(same_from_rng)
        assert (same_size.seed, same_from_rng.seed) == (seed + 1, None)


def test_the_earthmote_list_rolls_from_a_given_rng_and_keeps_no_seed() -> None:
    log = E.EarthmoteLog.start(seed=5)
    mote = log.generate(rng=random.Random(12))
    assert _dice(mote) == _dice(E.generate_earthmote(seed=12)) and mote.seed is None
    moved = log.new_region(0, 1, rng=random.Random(13))
    assert moved == E.change_region(mote, 1, rng=random.Random(13))
    assert log.made == 2 and "rng" not in log.log[-1].args
    again = E.EarthmoteLog.from_json(log.to_json())  # no seed round-trips as none
    assert again.earthmotes == log.earthmotes and again.earthmotes[0].seed is None
    # Without an rng the list's own seed still decides, as before.
    plain, twin = E.EarthmoteLog.start(seed=5), E.EarthmoteLog.start(seed=5)
    assert plain.generate() == twin.generate() and plain.earthmotes[0].seed is not None


def test_an_earthmote_seed_out_of_range_is_still_refused() -> None:
    raw = json.loads(E.EarthmoteLog.start(seed=1).to_json())
    raw["state"]["earthmotes"] = [json.loads(json.dumps(E.generate_earthmote(seed=3).__dict__,
                                                        default=lambda f: f.__dict__))]
    raw["state"]["made"] = 1
    raw["state"]["earthmotes"][0]["seed"] = -4
    with pytest.raises(StateError, match="seed"):
        E.EarthmoteLog.from_json(json.dumps(raw))


def _dying() -> DeathRecord:
    record = DeathRecord()
    record.drop_to_zero()
    return record


@pytest.mark.parametrize("seed", range(6))
def test_death_saves_and_returns_same_seed_same_result(seed: int) -> None:
    a, b = _dying(), _dying()
    assert a.roll_death_save(seed=seed) == b.roll_death_save(rng=random.Random(seed))
    assert json.loads(a.to_json())["state"] == json.loads(b.to_json())["state"]
    assert a.log[-1].args == {"seed": seed}  # the move records the seed, not the face
    dead_a, dead_b = DeathRecord(), DeathRecord()
    for record in (dead_a, dead_b):
        record.die()
    got = dead_a.roll_return("resurrection", 2, seed=seed)
    assert got == dead_b.roll_return("resurrection", 2, rng=random.Random(seed))
    rng = random.Random(seed)
    check = rng.choices(range(1, 21))  # the engine's draw for a d20 (see dice.roller)
    assert got.check_roll == check[0]


def test_a_return_needing_no_check_rolls_no_die() -> None:
    record = DeathRecord()
    record.die()
    rng = random.Random(3)
    state = rng.getstate()
    attempt = record.roll_return("wish", 0, rng=rng)
    assert attempt.outcome == "works" and attempt.check_roll is None
    assert rng.getstate() == state  # nothing drawn: real dice would need none
    assert record.condition == "alive"


@pytest.mark.parametrize("name", sorted(MANEUVERS))
def test_contests_same_seed_same_result(name: str) -> None:
    option = MANEUVERS[name]
    small = Combatant("A", Size.MEDIUM, 3, 1, 4, Edge.ADVANTAGE)
    big = Combatant("B", Size.LARGE, 2, 5, 0)
    a, b = (big, small) if name == "dislodge a climber" else (small, big)
    contest = option.build(a, b, False)
    for seed in range(5):
        assert contest.roll(seed=seed) == contest.roll(rng=random.Random(seed))


def test_monarchs_table_seed_same_through_seed_and_rng() -> None:
    a = DiceMonarchsGame.start(["Ann", "Bo"], rng=random.Random(8))
    b = DiceMonarchsGame.start(["Ann", "Bo"])
    b.new_table(["Ann", "Bo"], rng=random.Random(8))
    assert a.seed == b.seed == draw_seed(random.Random(8)) < SEED_BOUND
    assert "rng" not in b.log[-1].args and str(a.seed) not in b.log[-1].summary


def test_monarchs_dice_are_the_engines_rolls() -> None:
    # Issue 18: the hole and community dice are the dice engine's 1dN rolls from the
    # table's generator for the hand and stage, not a private randint.
    game = DiceMonarchsGame.start(["Ann", "Bo"], seed=5)
    game.deal()
    rng = random.Random("dice-monarchs:5:1:hole")
    assert game.hole == [[roll(f"1d{s}", rng=rng).total for s in (4, 6, 8, 10, 12)]
                         for _ in range(2)]
    game.bet("Bo", 1)
    game.call("Ann")
    rng = random.Random("dice-monarchs:5:1:opening")
    assert game.community == [roll(f"1d{s}", rng=rng).total for s in (4, 6, 8)]
    assert DiceMonarchsGame.start(["Ann", "Bo"]).seed < SEED_BOUND  # a drawn table seed


def _banker_table(seed: int = 11) -> DiceMonarchsGame:
    game = DiceMonarchsGame.start(["Ann", "Bo", "Cy"], chips=20, seed=seed)
    game.set_banker_rolls(True)
    game.deal()
    return game


def _settle_opening(game: DiceMonarchsGame) -> None:
    game.bet("Bo", 1)
    game.call("Cy")
    game.call("Ann")


def test_the_banker_rolls_by_hand_play_waits_and_the_dice_entered_count() -> None:
    game = _banker_table()
    _settle_opening(game)
    assert game.awaiting == "flop" and game.player_to_act is None
    assert game.community == [] and game.legal_moves() == ["enter_community", "reveal"]
    assert game.legal_moves("Bo") == []
    assert "banker rolls the flop d4 d6 d8" in game.announcements[-1]
    with pytest.raises(RuleError, match="waits for the banker to roll the flop"):
        game.check("Bo")
    again = DiceMonarchsGame.from_json(game.to_json())  # a waiting table saves and loads
    assert again.awaiting == "flop" and again.view_for(None)["awaiting"] == "flop"
    game.enter_community(rng=random.Random(5))
    rng = random.Random(5)
    assert game.community == [roll(f"1d{s}", rng=rng).total for s in (4, 6, 8)]
    assert game.phase == "round_one" and game.awaiting == "" and game.player_to_act == "Bo"
    with pytest.raises(RuleError, match="revealed dice"):
        game.undo_as("gm")
    with pytest.raises(RuleError, match="no community dice are waiting"):
        game.reveal()
    with pytest.raises(RuleError, match="no community dice are waiting"):
        game.enter_community(rng=random.Random(1))


def test_revealed_without_dice_the_table_seed_rolls_as_on_an_ordinary_table() -> None:
    by_hand, plain = _banker_table(seed=21), DiceMonarchsGame.start(["Ann", "Bo", "Cy"],
                                                                    chips=20, seed=21)
    plain.deal()
    for game in (by_hand, plain):
        _settle_opening(game)
    by_hand.reveal()
    assert by_hand.community == plain.community and by_hand.phase == plain.phase


def test_banker_rolls_is_set_between_hands_and_a_bad_wait_is_refused_on_load() -> None:
    game = _banker_table()
    with pytest.raises(RuleError, match="only between hands"):
        game.set_banker_rolls(False)
    raw = json.loads(game.to_json())
    raw["state"]["awaiting"] = "turn"  # the opening round is followed by the flop
    with pytest.raises(StateError, match="awaiting"):
        DiceMonarchsGame.from_json(json.dumps(raw))
