"""``companion luck NAME [--session N] [--json]`` on a real campaign database."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from companion import luck
from companion.cli import main
from companion.store import create_campaign, open_campaign, open_store

pytestmark = pytest.mark.timeout(120)

SUMMARY_KEYS = {"rolls", "mean_percentile", "mean_percent", "luckier_than",
                "luckier_than_percent", "method", "entries"}
ENTRY_KEYS = {"entry", "session", "expr", "total", "percentile", "percent", "physical",
              "revealed"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _table(path: str) -> int:
    """Bryn rolls two public d20s (seeds pinned) and a self roll; Ash enters real dice;
    the GM rolls in secret. Returns the entry of Bryn's self roll."""
    with open_store(path) as store:
        create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        bryn = open_campaign(store, "Tuesday", who="Bryn", role="player")
        bryn.roll_entry("1d20+5", seed=1)
        bryn.roll_entry("1d20+5", seed=2)
        hidden = bryn.roll_entry("3d6", seed=3, mode="self").entry
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        ash.roll_entry("2d6", dice=[6, 5])
        gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
        gm.roll_entry("1d20", seed=4, mode="gm")
    return hidden


def _seat(doc: dict[str, Any], who: str) -> dict[str, Any]:
    return next(s for s in doc["seats"] if s["who"] == who)


def test_the_json_shape_is_as_documented(env_db: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    _table(env_db)
    status, out, err = run(capsys, "luck", "Tuesday", "--json")
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert set(doc) == {"campaign", "session", "sessions", "seats"}
    assert doc["campaign"] == "Tuesday" and doc["session"] is None
    (span,) = doc["sessions"]
    assert set(span) == {"session", "first", "last", "start", "end", "rolls"}
    assert (span["session"], span["first"], span["last"], span["rolls"]) == (1, 1, 5, 5)
    assert [s["who"] for s in doc["seats"]] == ["Bryn", "Ash", "Mira"]
    for seat in doc["seats"]:
        assert set(seat) == {"who", "sessions", "campaign"}
        for per in [*seat["sessions"], seat["campaign"]]:
            assert set(per) == {"session", "dice", "own_dice", "not_placed"}
        assert seat["campaign"]["session"] is None
    bryn = _seat(doc, "Bryn")
    dice = bryn["sessions"][0]["dice"]
    assert set(dice) == SUMMARY_KEYS and dice["method"] == "exact"
    assert all(set(e) == ENTRY_KEYS for e in dice["entries"])
    assert set(bryn["campaign"]["dice"]) == SUMMARY_KEYS - {"entries"}
    # Each entry's percentile is the exact one of its logged total.
    with open_store(env_db) as store:
        rolls = {e.seq: e.data for e in open_campaign(store, "Tuesday").log(["roll"])}
    for e in dice["entries"]:
        assert rolls[e["entry"]]["total"] == e["total"]
        assert Fraction(e["percentile"]) == luck.percentile(luck_odds("1d20+5"), e["total"])
    assert Fraction(dice["mean_percentile"]) == sum(
        Fraction(e["percentile"]) for e in dice["entries"]) / 2


def luck_odds(expr: str) -> Any:
    from companion.dice import odds

    return odds(expr)


def test_hidden_until_revealed_and_own_dice_apart(env_db: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    hidden = _table(env_db)
    doc = json.loads(run(capsys, "luck", "Tuesday", "--json")[1])
    bryn = _seat(doc, "Bryn")["sessions"][0]
    assert [e["entry"] for e in bryn["dice"]["entries"]] == [1, 2]
    assert bryn["not_placed"] == {"hidden": 1}
    assert _seat(doc, "Mira")["sessions"][0] == {"session": 1, "dice": None,
                                                 "own_dice": None,
                                                 "not_placed": {"hidden": 1}}
    ash = _seat(doc, "Ash")["sessions"][0]
    assert ash["dice"] is None
    assert [(e["expr"], e["total"], e["physical"]) for e in ash["own_dice"]["entries"]] \
        == [("2d6", 11, True)]
    assert ash["own_dice"]["entries"][0]["percentile"] == "17/18"  # 33 of 36 below, 2 at 11
    assert run(capsys, "reveal", "Tuesday", str(hidden))[0] == 0
    doc = json.loads(run(capsys, "luck", "Tuesday", "--json")[1])
    bryn = _seat(doc, "Bryn")["sessions"][0]
    entries = bryn["dice"]["entries"]
    assert [(e["entry"], e["expr"], e["revealed"]) for e in entries] == \
        [(1, "1d20+5", None), (2, "1d20+5", None), (hidden, "3d6", 6)]
    assert bryn["not_placed"] == {}


def test_text_report_and_one_session(env_db: str,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    _table(env_db)
    status, out, err = run(capsys, "luck", "Tuesday", "--session", "1")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == ("Tuesday: luck report, session 1 of 1 (each roll placed on its exact "
                        "odds; higher is luckier)")
    assert any(line.startswith("Bryn's 2 rolls in session 1: mean percentile ")
               and "of sessions of the same 2 rolls" in line for line in lines)
    assert any(line.startswith("Ash's 1 roll with their own dice in session 1") for line in lines)
    assert "  Mira, not placed in session 1: 1 hidden, not yet revealed" in lines
    assert "  #4 2d6 = 11: 94.4%" in lines  # 17/18: each roll listed


@pytest.mark.parametrize(("argv", "message"), [
    (("luck", "Tuesday", "--session", "2"),
     "error: there is no session 2 in Tuesday: it has one session (1)\n"),
    (("luck", "Nobody"), None),
    (("luck", "Tuesday", "--session", "x"), None),
])
def test_bad_asks_are_one_line(env_db: str, capsys: pytest.CaptureFixture[str],
                               argv: tuple[str, ...], message: str | None) -> None:
    _table(env_db)
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: ")
    if message is not None:
        assert err == message


def test_an_absurd_log_refuses_in_one_line(env_db: str, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    _table(env_db)
    # Two expressions every player sees (the hidden rolls' are not read): 1d20+5, 2d6.
    monkeypatch.setattr(luck, "MAX_EXPRESSIONS", 1)
    status, out, err = run(capsys, "luck", "Tuesday")
    assert (status, out) == (2, "")
    assert err == ("error: this log has 2 different dice expressions; a report works out "
                   "the exact odds of at most 1 (ask for one session: --session N)\n")
