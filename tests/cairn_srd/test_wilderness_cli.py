"""CLI: ``cairn travel`` and ``cairn downtime`` (JSON shapes, exact figures, one-line refusals)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.cli import main
from companion.dice.roller import make_rng
from companion.rulesets.cairn_srd import downtime, settlements, wilderness

pytestmark = pytest.mark.timeout(60)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_travel_plan_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "cairn", "travel", "--leg", "trails,medium,forests",
               "--leg", "wilderness,long,mountains,1", "--night", "--json")
    assert isinstance(data, dict)
    # 1+2+1+night 1 = 5; 2+3+2+sea 1+night 1 = 9
    assert [leg["watches"] for leg in data["legs"]] == [5, 9]
    assert (data["watches"], data["days"], data["leagues"]) == (14, 7, 20)
    assert data["legs"][0]["navigation_chance"] == "1/6"
    assert data["legs"][1]["parts"]["open sea"] == 1


def test_travel_events_follow_the_seed(capsys: pytest.CaptureFixture[str]) -> None:
    data = run(capsys, "cairn", "travel", "--leg", "roads,short,hills", "--events", "20",
               "--seed", "9", "--json")
    assert isinstance(data, dict)
    r = make_rng(9, None)
    leg = wilderness.make_leg("roads", "short", "hills")
    expected = [wilderness.roll_event(leg, rng=r) for _ in range(20)]
    assert [(e["roll"], e["kind"], e["details"]) for e in data["events"]] == [
        (e.roll, e.kind, list(e.details)) for e in expected]
    other = run(capsys, "cairn", "travel", "--leg", "roads,short,hills", "--events", "20",
                "--seed", "10", "--json")
    assert isinstance(other, dict)
    assert [e["roll"] for e in other["events"]] != [e.roll for e in expected]  # seed used


def test_downtime_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "cairn", "downtime", "fee", "401", "--where", "other-bank",
               "--json") == {"amount": 401, "where": "other bank", "fee": 21, "total": 422}
    odds = run(capsys, "cairn", "downtime", "crime", "--push", "--json")
    assert isinstance(odds, dict)
    exact = downtime.petty_crime_odds(2, 0, True)
    assert Fraction(odds["success"]) == exact.success and Fraction(odds["bust"]) == exact.bust
    rolled = run(capsys, "cairn", "downtime", "crime", "--seed", "4", "--json")
    assert isinstance(rolled, dict)
    assert rolled["roll"]["outcome"] == downtime.petty_crime(2, seed=4).outcome
    assert run(capsys, "cairn", "downtime", "faction", "--modifier", "2", "--json") == {
        "0": "1/6", "1": "1/3", "2": "1/2"}
    hz = run(capsys, "cairn", "downtime", "hazard", "--condition", "famine", "--seed", "5",
             "--json")
    town = settlements.SettlementState("", ["Famine"])
    assert isinstance(hz, dict)
    assert hz["roll"] == settlements.roll_hazard(town, seed=5).roll
    assert hz["conditions"] == town.conditions
    up = run(capsys, "cairn", "downtime", "upkeep", "--json")
    assert isinstance(up, dict) and up["Luxurious"]["silver"] == 125


@pytest.mark.parametrize("argv,words", [
    (["cairn", "travel"], "at least one --leg"),
    (["cairn", "travel", "--leg", "roads,short"], "PATH,DISTANCE,TERRAIN"),
    (["cairn", "travel", "--leg", "roads,short,moon"], "terrain is one of"),
    (["cairn", "travel", "--leg", "roads,short,plains,3"], "open sea adds 0-2"),
    (["cairn", "travel", "--leg", "roads,short,plains", "--events", "101"], "--events runs"),
    (["cairn", "downtime", "fee", "0"], "withdraw 1-10,000,000"),
    (["cairn", "downtime", "fee", "10", "--where", "mattress"], "withdrawal is one of"),
    (["cairn", "downtime", "crime", "--have", "4"], "--have runs 0 to 3"),
    (["cairn", "downtime", "faction", "--modifier", "99999999999"], "--modifier runs"),
    (["cairn", "downtime", "hazard", "--condition", "gloom"], "--condition: one of"),
    (["cairn", "downtime", "fee", "x"], "invalid int value"),
])
def test_refusals_are_one_line(capsys: pytest.CaptureFixture[str], argv: list[str],
                               words: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("error: ") and err.count("\n") == 1
    assert words in err
