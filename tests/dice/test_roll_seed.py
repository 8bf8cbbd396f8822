"""A roll knows the seed it was rolled with; drawn seeds stay below SEED_BOUND (issue 18)."""

from __future__ import annotations

import ast
import functools
import random
import re
from pathlib import Path

from companion import dice
from companion.dice import SEED_BOUND, draw_seed, roll


def test_a_seeded_roll_keeps_its_seed_and_rolls_again_the_same() -> None:
    first = roll("4d6kh3", seed=12345)
    assert first.seed == 12345
    again = roll(first.expr, seed=first.seed)
    assert str(again) == str(first)
    assert repr(first).endswith(", seed 12345>")


def test_a_roll_from_a_generator_claims_no_seed() -> None:
    # The generator wins over a seed given beside it, so the seed would be a lie.
    assert roll("1d6", rng=random.Random(1)).seed is None
    assert roll("1d6", seed=2, rng=random.Random(1)).seed is None
    assert roll("1d6").seed is None


def test_the_seed_stays_out_of_the_json_form() -> None:
    # A hidden roll's dict is shown before the reveal: it must not carry the seed.
    assert roll("2d6", seed=9).to_dict() == roll("2d6", rng=random.Random(9)).to_dict()


def test_drawn_seeds_stay_below_the_bound() -> None:
    rng = random.Random(0)
    seeds = [draw_seed(rng) for _ in range(2000)]
    assert all(0 <= s < SEED_BOUND == 2**53 for s in seeds)
    assert max(seeds) > 2**50  # the whole range is used, not a narrow corner of it
    assert draw_seed(random.Random(4)) == draw_seed(random.Random(4))
    assert 0 <= draw_seed() < SEED_BOUND
    assert dice.SEED_BOUND is SEED_BOUND


PACKAGE = Path(__file__).resolve().parents[2] / "companion"


@functools.cache
def _draw_calls() -> dict[str, list[tuple[str, str]]]:
    """Every call of ``getrandbits``/``randrange`` in the package: (file:line, its args)."""
    found: dict[str, list[tuple[str, str]]] = {"getrandbits": [], "randrange": []}
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if "getrandbits(" not in text and "randrange(" not in text:
            continue  # parse only the files that could hold one
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in found:
                    where = f"{path.relative_to(PACKAGE).as_posix()}:{node.lineno}"
                    found[called].append((where, ", ".join(ast.unparse(a) for a in node.args)))
    return found


def _calls(name: str) -> list[tuple[str, str]]:
    return _draw_calls()[name]


def test_one_bound_for_every_seed_drawn() -> None:
    # The bound is defined once; seeds are drawn with randrange(SEED_BOUND), never as raw
    # random bits (63-bit seeds lose digits in a browser's JSON reader).
    defined = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py")
               if re.search(r"^SEED_BOUND\s*[:=]", p.read_text(encoding="utf-8"), re.M)]
    assert defined == ["dice/roller.py"]
    assert _calls("getrandbits") == []
    assert [c for c in _calls("randrange") if "SEED_BOUND" not in c[1]] == []
    assert len(_calls("randrange")) >= 2  # the walk really finds the draws


def test_the_seeds_earthmotes_and_monarchs_draw_stay_below_the_bound() -> None:
    from companion.rulesets.miasma import earthmotes
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame

    log = earthmotes.EarthmoteLog.start(rng=random.Random(3))
    assert log.seed == draw_seed(random.Random(3))
    assert all(earthmotes.EarthmoteLog(seed=s, made=m).next_seed() < SEED_BOUND
               for s in (0, 2**62) for m in range(50))
    fresh = earthmotes.generate_earthmote().seed
    assert fresh is not None and fresh < SEED_BOUND
    assert DiceMonarchsGame.start(["Ann", "Bo"], rng=random.Random(3)).seed < SEED_BOUND
