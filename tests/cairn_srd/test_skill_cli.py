"""``cairn skill``, ``cairn social`` and ``cairn knowledge``: seeded results checked
against the engine's own dice, exact chances against enumeration, bounded inputs."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion import dice
from companion.cli import main
from companion.errors import RuleError
from companion.rulesets.cairn_srd import skills, social


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["cairn", *args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def enumerated(modifier: int) -> Fraction:
    target = min(6, max(2, 5 - modifier))
    return Fraction(sum(1 for face in range(1, 7) if face >= target), 6)


@pytest.mark.parametrize("modifier", [-6, -1, 0, 1, 2, 3, 6])
def test_skill_chance_is_exact(capsys: pytest.CaptureFixture[str], modifier: int) -> None:
    data = run(capsys, "skill", "2", "--modifier", str(modifier), "--seed", "1")
    assert Fraction(str(data["chance"])) == enumerated(modifier)


def test_skill_roll_and_yield_follow_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(25):
        data = run(capsys, "skill", "2", "--yield", "--steps-up", "1", "--seed", str(seed))
        d6 = dice.roll("1d6", seed=seed).total  # the first die the seed gives
        assert data["roll"] == d6 and data["success"] == (d6 >= 5)
        if d6 >= 5:
            assert data["yield_die"] == 6
            assert isinstance(data["yield"], int) and 1 <= data["yield"] <= 6
        else:
            assert data["yield"] is None and data["yield_die"] is None
    three = run(capsys, "skill", "3", "--yield", "--steps-up", "4", "--seed", "2")
    assert three["success"] is True and three["roll"] is None and three["yield_die"] == 12
    assert three["yield"] == dice.roll("1d12", seed=2).total
    none = run(capsys, "skill", "1", "--yield")
    assert none["success"] is False and none["chance"] == "0" and none["yield"] is None


@pytest.mark.parametrize(("args", "message"), [
    (["skill", "4"], "count 0-3"),
    (["skill", "2", "--modifier", "7"], "-6 to +6"),
    (["skill", "2", "--yield", "--steps-up", "5"], "steps up run 0-4"),
    (["skill", "2", "--steps-up", "1"], "only to a task that produces"),
    (["social", "--modifier", "-7"], "-6 to +6"),
    (["social", "--disposition", "grumpy"], "no disposition “grumpy”"),
    (["knowledge", "secret"], "common, specialized or esoteric"),
])
def test_bounded_inputs(capsys: pytest.CaptureFixture[str], args: list[str],
                        message: str) -> None:
    assert main(["cairn", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_social_moves_the_disposition_on_a_success(capsys: pytest.CaptureFixture[str]) -> None:
    levels = social.dispositions()
    for seed in range(12):
        data = run(capsys, "social", "--disposition", "hostile", "--seed", str(seed))
        d6 = dice.roll("1d6", seed=seed).total
        assert data["roll"] == d6 and data["chance"] == "1/3"
        assert data["disposition"] == (levels[2] if d6 >= 5 else levels[1])
    assert main(["cairn", "social", "--disposition", "friendly", "--seed", "1"]) == 0
    assert "Friendly" in capsys.readouterr().out


def test_knowledge_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "knowledge", "common")["known"] is True
    esoteric = run(capsys, "knowledge", "esoteric")
    assert esoteric["known"] is None and "research" in str(esoteric["text"])
    for seed in range(12):
        data = run(capsys, "knowledge", "specialised", "--seed", str(seed))
        d6 = dice.roll("1d6", seed=seed).total
        assert data["roll"] == d6 and data["known"] == (d6 >= 4)


def test_task_refuses_and_reads() -> None:
    with pytest.raises(RuleError, match="steps up"):
        skills.task(2, produces=True, steps_up=-1)
    assert skills.task(3, seed=1).test.success and skills.task(3, seed=1).yield_die is None
    assert social.find_disposition("Attacks") == social.dispositions()[0]
