"""The luck report's math against brute force, and a known log giving an exact report."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import pytest

from companion import luck
from companion.dice import odds
from companion.luck import LuckError, luck_report, percentile, percentile_law, standing
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(120)


# -- brute force: every combination of dice, counted one by one --------------------------

def _brute(dice: Sequence[int], total: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """The exact law of ``total(faces)`` over every combination of the ``dice`` (sides)."""
    combos = list(itertools.product(*(range(1, s + 1) for s in dice)))
    out: dict[int, Fraction] = {}
    for faces in combos:
        t = total(faces)
        out[t] = out.get(t, Fraction(0)) + Fraction(1, len(combos))
    return out


def _mid(law: dict[int, Fraction], x: int) -> Fraction:
    return (sum((p for v, p in law.items() if v < x), Fraction(0))
            + law.get(x, Fraction(0)) / 2)


SMALL = {
    "1d6": ([6], sum),
    "2d6": ([6, 6], sum),
    "3d4": ([4, 4, 4], sum),
    "1d8+2": ([8], lambda f: f[0] + 2),
    "2d6kh1": ([6, 6], max),
    "4d3kh2-1": ([3, 3, 3, 3], lambda f: sum(sorted(f)[-2:]) - 1),
    "1d4*1d3": ([4, 3], lambda f: f[0] * f[1]),
}


@pytest.mark.parametrize("expr", sorted(SMALL))
def test_every_total_is_placed_as_brute_force_places_it(expr: str) -> None:
    dice, total = SMALL[expr]
    law = _brute(dice, total)
    dist = odds(expr)
    assert dict(dist.items()) == law
    for x in range(min(law) - 1, max(law) + 2):  # impossible totals too
        assert percentile(dist, x) == _mid(law, x), (expr, x)
    # A fair roll's percentile averages exactly 1/2; its variance is (1 - sum p^3) / 12.
    mean = sum((p * _mid(law, v) for v, p in law.items()), Fraction(0))
    assert mean == Fraction(1, 2)
    var = sum((p * (_mid(law, v) - mean) ** 2 for v, p in law.items()), Fraction(0))
    assert percentile_law(dist).variance == var


def _brute_standing(exprs: Sequence[str], observed: Fraction) -> Fraction:
    """P(S < s) + P(S = s) / 2 for the sum S of the rolls' percentiles, by enumerating
    every evening of those rolls."""
    laws = [dict(odds(e).items()) for e in exprs]
    under = same = Fraction(0)
    for evening in itertools.product(*(sorted(law.items()) for law in laws)):
        p = Fraction(1)
        s = Fraction(0)
        for law, (v, q) in zip(laws, evening, strict=True):
            p *= q
            s += _mid(law, v)
        if s < observed:
            under += p
        elif s == observed:
            same += p
    return under + same / 2


@pytest.mark.parametrize("exprs", [
    ["1d4", "1d4", "1d4"],                    # one shape, split between the halves
    ["1d4", "2d3", "1d6", "1d6+1"],           # mixed scales; 1d6 and 1d6+1 alike
    ["2d6kh1", "1d3", "1d2", "1d2", "3d2"],
    ["1d10"],
])
def test_an_evening_stands_where_brute_force_puts_it(exprs: list[str]) -> None:
    laws = [percentile_law(odds(e)) for e in exprs]
    # Every sum an evening of these rolls can reach, and some between them.
    reachable = {Fraction(0)}
    for law in laws:
        reachable = {s + Fraction(v, law.scale) for s in reachable for v in law.values}
    probes = [*sorted(reachable)[::max(1, len(reachable) // 25)], Fraction(len(exprs), 2)]
    for s in probes:
        got = standing(laws, s)
        assert got.exact and got.luckier_than == _brute_standing(exprs, s), (exprs, s)


def test_a_costly_evening_is_placed_by_the_normal_curve_and_says_so() -> None:
    law = percentile_law(odds("1d1000000"))
    got = standing([law] * 30, Fraction(16))
    assert not got.exact and got.method == "normal"
    assert "limit" in got.why or "budget" in got.why
    # Mean 15, variance 30 (1 - 1e-12) / 12: s = 16 is 0.63 standard deviations up.
    assert got.luckier_than == pytest.approx(0.7364, abs=1e-3)


# -- a known log ---------------------------------------------------------------------------

def _roll(seq: int, who: str, at: str, **data: Any) -> dict[str, Any]:
    return {"seq": seq, "at": at, "who": who, "role": "player", "kind": "roll",
            "tracker": None, "move": None, "seed": 7, "data": {"mode": "public", **data}}


def _known_log() -> list[dict[str, Any]]:
    t1, t2 = "2026-11-20T19:00:00Z", "2026-11-27T19:00:00Z"
    return [
        _roll(1, "Bryn", t1, expr="1d20", total=20, text="", dice=[20]),
        _roll(2, "Bryn", t1, expr="1d20+4", total=19, text="", dice=[15]),
        _roll(3, "Ash", t1, expr="2d6", total=7, text="", dice=[3, 4], physical=True),
        _roll(4, "Ash", t1, rule=True, label="Ash: check", text="16: success", faces=[]),
        # A hidden roll of Bryn's, revealed a week later (entry 9).
        {**_roll(5, "Bryn", t1), "seed": None,
         "data": {"mode": "self", "commitment": "ab" * 32}},
        # A hidden roll of the GM's, never revealed.
        {**_roll(6, "GM", t1), "role": "gm", "seed": None,
         "data": {"mode": "gm", "commitment": "cd" * 32}},
        # A week later: a new session (the gap).
        _roll(7, "bryn", t2, expr="1d4", total=1, text="", dice=[1]),
        _roll(8, "Ash", t2, expr="100d1000000kh1", total=999999, text="", dice=[]),
        {"seq": 9, "at": t2, "who": "GM", "role": "gm", "kind": "reveal", "tracker": None,
         "move": None, "seed": 7, "data": {"entry": 5, "mode": "self", "expr": "3d6",
                                           "seed": 7, "dice": [6, 6, 6], "total": 18,
                                           "nonce": "00" * 32, "text": "", "physical": False}},
    ]


def test_a_known_log_gives_the_exact_report() -> None:
    report = luck_report(_known_log(), "Tuesday")
    doc = report.to_dict()
    assert [(s["session"], s["first"], s["last"], s["rolls"]) for s in doc["sessions"]] == \
        [(1, 1, 6, 6), (2, 7, 8, 2)]
    seats = {s["who"]: s for s in doc["seats"]}
    assert list(seats) == ["Bryn", "Ash", "GM"]  # "bryn" is Bryn
    bryn1 = seats["Bryn"]["sessions"][0]
    assert bryn1["session"] == 1 and bryn1["not_placed"] == {}
    dice = bryn1["dice"]
    # 1d20 = 20 is at 39/40, 1d20+4 = 19 (a 15) at 29/40, the revealed 3d6 = 18 at 431/432.
    assert [(e["entry"], e["percentile"], e["revealed"]) for e in dice["entries"]] == \
        [(1, "39/40", None), (2, "29/40", None), (5, "431/432", 9)]
    assert dice["mean_percentile"] == str((Fraction(39, 40) + Fraction(29, 40)
                                           + Fraction(431, 432)) / 3)
    assert dice["method"] == "exact"
    expected = _brute_standing(["1d20", "1d20", "3d6"],
                               Fraction(39, 40) + Fraction(29, 40) + Fraction(431, 432))
    assert dice["luckier_than"] == f"{expected.numerator}/{expected.denominator}"
    assert bryn1["own_dice"] is None
    # Two d20s alone (20 and 15): a + b < 35 in 379 of 400 evenings, = 35 in 6.
    two = standing([percentile_law(odds("1d20"))] * 2, Fraction(68, 40))
    assert two.luckier_than == Fraction(379 * 2 + 6, 800) == Fraction(191, 200)

    bryn2 = seats["Bryn"]["sessions"][1]
    assert bryn2["dice"]["entries"][0]["percentile"] == "1/8"  # 1d4 = 1
    assert bryn2["dice"]["luckier_than"] == "1/8"  # one roll: its own percentile
    whole = seats["Bryn"]["campaign"]
    assert whole["dice"]["rolls"] == 4 and "entries" not in whole["dice"]

    ash1 = seats["Ash"]["sessions"][0]
    assert ash1["dice"] is None  # the own dice are apart
    assert ash1["own_dice"]["entries"][0]["percentile"] == "1/2"  # 2d6 = 7
    assert ash1["own_dice"]["entries"][0]["physical"] is True
    assert ash1["not_placed"] == {"rule": 1}
    assert seats["Ash"]["sessions"][1]["not_placed"] == {"costly": 1}
    assert seats["GM"]["sessions"][0]["not_placed"] == {"hidden": 1}
    assert seats["GM"]["sessions"][0]["dice"] is None

    text = "\n".join(report.lines())
    assert "Bryn's 3 rolls in session 1: mean percentile" in text
    assert "Ash's 1 roll with their own dice in session 1" in text
    assert "GM, not placed in session 1: 1 hidden, not yet revealed" in text


def test_one_session_asked_lists_only_it() -> None:
    report = luck_report(_known_log(), "Tuesday", session=2)
    doc = report.to_dict()
    assert doc["session"] == 2 and [s["session"] for s in doc["sessions"]] == [2]
    assert [s["who"] for s in doc["seats"]] == ["Bryn", "Ash"]
    assert all(s["campaign"] is None for s in doc["seats"])
    with pytest.raises(LuckError, match=r"^there is no session 3 in Tuesday: it has "
                                        r"sessions 1 to 2$"):
        luck_report(_known_log(), "Tuesday", session=3)


def test_a_hidden_roll_counts_only_from_its_reveal() -> None:
    log = [e for e in _known_log() if e["kind"] != "reveal"]
    report = luck_report(log).to_dict()
    bryn = next(s for s in report["seats"] if s["who"] == "Bryn")
    assert [e["entry"] for e in bryn["sessions"][0]["dice"]["entries"]] == [1, 2]
    assert bryn["sessions"][0]["not_placed"] == {"hidden": 1}
    # The GM's own view holds the secret: the report still does not read it.
    secret = {"expr": "3d6", "seed": 7, "dice": [1, 1, 1], "total": 3, "nonce": "00" * 32,
              "text": "", "physical": False}
    for e in log:
        if e["seq"] == 5:
            e["data"] = {**e["data"], "secret": secret}
    assert luck_report(log).to_dict() == report


def test_sessions_split_at_a_gap_and_at_a_close() -> None:
    at = ["2026-11-27T19:00:00Z", "2026-11-27T23:59:00Z", "2026-11-28T06:00:00Z",
          "2026-11-28T06:01:00Z"]
    events: list[dict[str, Any]] = [_roll(i + 1, "Bryn", t, expr="1d6", total=3)
                                    for i, t in enumerate(at)]
    assert luck.play_sessions(events) == {1: 1, 2: 1, 3: 2, 4: 2}  # 6 h 1 min: a gap
    closed = [*events[:3], {"seq": 9, "kind": luck.SESSION_CLOSE_KIND, "at": at[2]},
              events[3]]
    assert luck.play_sessions(closed) == {1: 1, 2: 1, 3: 2, 4: 3}


def test_an_absurd_log_is_refused_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    events = [_roll(i, "Bryn", "2026-11-27T19:00:00Z", expr=f"1d{i + 1}", total=1)
              for i in range(1, luck.MAX_EXPRESSIONS + 2)]
    with pytest.raises(LuckError) as caught:
        luck_report(events, "Tuesday")
    assert str(caught.value) == (f"this log has {luck.MAX_EXPRESSIONS + 1} different dice "
                                 f"expressions; a report works out the exact odds of at "
                                 f"most {luck.MAX_EXPRESSIONS} (ask for one session: "
                                 "--session N)")
    monkeypatch.setattr(luck, "MAX_OUTCOMES", 1_500_000)
    huge = [_roll(i, "Bryn", "2026-11-27T19:00:00Z", expr=f"1d1000000+{i}", total=5)
            for i in (1, 2)]
    with pytest.raises(LuckError, match=r"more than 1,500,000 totals"):
        luck_report(huge)


def test_a_forged_entry_is_counted_unreadable_not_a_traceback() -> None:
    events = [_roll(1, "Bryn", "2026-11-27T19:00:00Z", expr=["1d6"], total="3"),
              {**_roll(2, "Bryn", "nonsense", expr="1d6", total=6), "data": "x"}]
    doc = luck_report(events).to_dict()
    assert doc["seats"][0]["sessions"][0]["not_placed"] == {"unreadable": 2}


def test_the_charts() -> None:
    assert luck.sparkline([Fraction(1, 40), Fraction(1, 2), Fraction(39, 40)]) == "▁▅█"
    svg = luck.percentile_svg([Fraction(1, 4), Fraction(3, 4)], title="Bryn & co")
    assert svg.count("<rect") == 2 and "Bryn &amp; co" in svg and "75.0%" in svg


def test_an_exploding_die_is_placed_on_the_odds_the_engine_follows() -> None:
    dist = odds("1d4!")
    assert dist.truncated > 0  # followed 20 explosions deep
    law = percentile_law(dist)
    mean = Fraction(sum(w * v for w, v in zip(law.weights, law.values, strict=True)),
                    law.denom * law.scale)
    assert mean == Fraction(1, 2)  # fair rolls still average 1/2
    assert law.place(4) == Fraction(3, 4)  # a 4 always explodes: 3 of 4 rolls are below
    assert law.place(5) == Fraction(3, 4) + Fraction(1, 32)  # 4 then 1: 1/16, half of it
    assert law.place(dist.max + 1) == 1


def test_a_reports_exact_sums_share_one_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two sessions of Bryn's (a gap between), each a few 3d6 and a d20: each session's sum
    # costs some pairs; with room for one, the other is placed by the normal curve.
    events = [_roll(i, "Bryn", at, expr=expr, total=10)
              for i, (at, expr) in enumerate(
                  [("2026-11-20T19:00:00Z", "3d6"), ("2026-11-20T19:01:00Z", "1d20"),
                   ("2026-11-20T19:02:00Z", "3d6"), ("2026-11-27T19:00:00Z", "3d6"),
                   ("2026-11-27T19:01:00Z", "1d20"), ("2026-11-27T19:02:00Z", "3d6")],
                  start=1)]
    both = luck_report(events).seats[0][1]
    assert [s.dice.standing.exact for s in both if s.dice] == [True, True]
    spent = luck._Budget()
    luck.standing([percentile_law(odds(e)) for e in ("3d6", "1d20", "3d6")],
                  Fraction(3, 2), spent)
    assert spent.pairs > 0
    monkeypatch.setattr(luck, "REPORT_PAIRS", spent.pairs + 1)
    monkeypatch.setattr(luck, "REPORT_DENSE_WORK", spent.dense + 1)
    first, second = luck_report(events).seats[0][1]
    assert first.dice is not None and first.dice.standing.exact
    assert second.dice is not None and not second.dice.standing.exact
    assert "the report's budget for exact sums is spent" in second.dice.standing.why
    assert first.dice.standing.luckier_than == both[0].dice.standing.luckier_than  # type: ignore[union-attr]


def test_sessions_are_the_sittings_of_the_provably_fair_seeds(tmp_path: Any) -> None:
    """In a campaign with sittings, a session is a sitting (its number as ``session show``
    says it); real dice go with the sitting open when entered, or the next after a close;
    rolls older than the first sitting are session 0."""
    from companion.store import open_store
    from companion.store.campaign import create

    with open_store(str(tmp_path / "c.db")) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        first = gm.roll("1d20").entry
        second = gm.roll("2d6", dice=[3, 4]).entry  # real dice, in sitting 1
        gm.close_sitting()
        between = gm.roll("1d6", dice=[5]).entry  # real dice after the close: sitting 2's
        third = gm.roll("1d8").entry
        events = [e.to_dict() for e in gm.log()]
    assert luck.play_sessions(events) == {first: 1, second: 1, between: 2, third: 2}
    older = [_roll(1, "Bryn", "2026-11-20T19:00:00Z", expr="1d6", total=3)]
    renumbered = [{**e, "seq": e["seq"] + 1} for e in events]
    assert luck.play_sessions(older + renumbered)[1] == 0
