"""DiceTray driven in-process: clicks, Enter and value changes; assertions on what is shown."""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import ipywidgets as widgets
import pytest

from companion import dice
from companion.dice import render
from companion.errors import DiceSyntaxError, OddsTooCostlyError
from companion.history import RollHistory
from companion.widgets import DiceTray
from companion.widgets.base import press_enter
from companion.widgets.dice_tray import QUICK_ROLLS, SEED_BOUND, plain_syntax_error
from tests.conftest import campaign_of, session_of


def shown_total(tray: DiceTray) -> int:
    match = re.search(r'class="tc-total"[^>]*>(-?\d+)<', tray.result.value)
    assert match, tray.result.value
    return int(match.group(1))


def shown_n(tray: DiceTray) -> int:
    match = re.search(r'class="tc-result" data-n="(\d+)"', tray.result.value)
    assert match, tray.result.value
    return int(match.group(1))


def history_ns(tray: DiceTray) -> list[int]:
    return [int(n) for n in re.findall(r'<li data-n="(\d+)"', tray.history_view.list.value)]


def seeds() -> Iterator[int]:
    return iter(range(1000, 2000))


def make_tray(**kwargs: Any) -> DiceTray:
    counter = seeds()
    return DiceTray(seed_source=lambda: next(counter), **kwargs)


def test_roll_button_shows_total_dice_and_records_history() -> None:
    tray = make_tray()
    tray.expr.value = "3d6+1"
    tray.seed.value = "42"
    tray.roll_button.click()
    expected = dice.roll("3d6+1", seed=42)
    assert tray.error.message == ""
    assert shown_total(tray) == expected.total
    assert expected._repr_html_() in tray.result.value
    assert "seed 42" in tray.result.value
    assert shown_n(tray) == 1
    record = tray.history.latest
    assert record is not None
    assert (record.expr, record.total, record.seed) == ("3d6+1", expected.total, 42)
    assert record.text == str(expected)
    assert history_ns(tray) == [1]


def test_empty_seed_draws_one_and_records_it_so_the_roll_replays() -> None:
    tray = DiceTray()  # the real SystemRandom seed source
    tray.expr.value = "10d10"
    tray.roll_button.click()
    tray.roll_button.click()
    newest, older = tray.history.records
    assert newest.seed != older.seed
    for record in (newest, older):
        assert 0 <= record.seed < SEED_BOUND
        replay = dice.roll(record.expr, seed=record.seed)
        assert (replay.total, str(replay)) == (record.total, record.text)


def test_typed_seed_replays_the_same_dice_each_time() -> None:
    tray = make_tray()
    tray.expr.value = "8d6"
    tray.seed.value = "7"
    tray.roll_button.click()
    tray.roll_button.click()
    newest, older = tray.history.records
    assert newest.text == older.text == str(dice.roll("8d6", seed=7))
    assert (newest.n, older.n) == (2, 1)
    assert shown_n(tray) == 2  # the view still changes although the dice are equal
    tray.seed.value = "8"
    tray.roll_button.click()
    assert tray.history.records[0].text == str(dice.roll("8d6", seed=8)) != newest.text


def test_enter_in_the_expression_box_rolls() -> None:
    tray = make_tray()
    tray.expr.value = "1d12"
    press_enter(tray.expr)
    press_enter(tray.expr)  # same value again: still a roll
    assert [r.expr for r in tray.history] == ["1d12", "1d12"]
    assert history_ns(tray) == [2, 1]


@pytest.mark.parametrize(("label", "expr"), QUICK_ROLLS)
def test_quick_buttons_roll_their_die(label: str, expr: str) -> None:
    tray = make_tray()
    button = next(b for b in tray.quick_buttons if b.description == label)
    button.click()
    assert tray.expr.value == expr
    record = tray.history.latest
    assert record is not None and record.expr == expr
    assert record.total == dice.roll(expr, seed=record.seed).total
    sides = 100 if expr == "1d%" else int(expr.split("d")[1][:2].rstrip("k"))
    assert 1 <= record.total <= sides


@pytest.mark.parametrize(("expr", "pick"), [("2d20kh1", max), ("2d20kl1", min)])
def test_advantage_keeps_the_right_die(expr: str, pick: Any) -> None:
    tray = make_tray()
    for seed in range(30):
        tray.seed.value = str(seed)
        tray.expr.value = expr
        tray.roll_button.click()
        values = [d.value for d in tray.last_roll.dice]
        assert len(values) == 2
        assert tray.last_roll.total == pick(values)


def test_bad_expression_shows_the_engine_error_then_recovers() -> None:
    tray = make_tray()
    tray.expr.value = "1d6"
    tray.roll_button.click()
    before = tray.result.value
    tray.expr.value = "2d"
    tray.roll_button.click()
    assert tray.error.message == ("Dice: expected the number of sides after 'd', found end "
                                  "of expression (character 3 of \u201c2d\u201d); write dice "
                                  "like 2d6+1, 4d6kh3 or d20")
    assert "column" not in tray.error.message  # the parser's words stay in the engine
    assert "\n" not in tray.error.message
    assert len(tray.history) == 1 and tray.result.value == before
    tray.expr.value = "2d4"
    press_enter(tray.expr)
    assert tray.error.message == ""
    assert len(tray.history) == 2 and shown_n(tray) == 2


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("expr", "   ", "expression: type a dice expression"),
        ("seed", "12ab", "seed: expected a whole number, got '12ab'"),
    ],
)
def test_other_bad_inputs_are_one_line_errors(field: str, value: str, message: str) -> None:
    tray = make_tray()
    getattr(tray, field).value = value
    tray.roll_button.click()
    assert tray.error.message.startswith(message)
    assert len(tray.history) == 0


def test_exact_odds_and_chance_of_target() -> None:
    tray = make_tray()
    tray.expr.value = "2d6"
    tray.roll_button.click()
    tray.target.value = "7"
    brute = Fraction(sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b >= 7), 36)
    assert brute == Fraction(7, 12)
    assert render.percent(brute) in tray.chance.value
    assert "7/12" in tray.chance.value
    assert "<svg" in tray.chart.value
    assert "2 to 12" in tray.odds_note.value
    tray.target.value = "13"
    assert "(exactly 0)" in tray.chance.value
    assert render.percent(Fraction(0)) in tray.chance.value


def test_bad_target_is_reported_beside_the_target_box() -> None:
    tray = make_tray()
    tray.roll_button.click()
    tray.target.value = "high"
    assert "target: expected a whole number" in tray.chance.value
    assert tray.error.message == ""
    tray.target.value = "11"
    assert "target:" not in tray.chance.value
    assert render.percent(Fraction(10, 20)) in tray.chance.value  # 1d20 >= 11


def test_costly_odds_are_explained_calmly_and_rolling_still_works(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def too_costly(expr: str) -> Any:
        raise OddsTooCostlyError(f"exact odds of {expr!r} would cost too much; use simulate")

    monkeypatch.setattr(dice, "odds", too_costly)
    tray = make_tray()
    tray.expr.value = "3d6"
    tray.roll_button.click()
    assert tray.error.message == ""
    assert len(tray.history) == 1
    assert "too long" in tray.odds_note.value and "rolling works" in tray.odds_note.value
    assert "simulate" not in tray.odds_note.value  # the engine's words stay out (issue 45)
    assert tray.chart.value == "" and tray.chance.value == ""


def test_the_real_refusal_of_huge_odds_is_worded_for_a_player() -> None:
    tray = make_tray()
    tray.expr.value = "1000d1000"
    tray.roll_button.click()
    assert tray.error.message == "" and len(tray.history) == 1
    note = tray.odds_note.value
    assert "would take too long to work out" in note, note
    for code in ("simulate", "(expr", "bit", "budget"):
        assert code not in note, note


def test_an_unexpected_failure_is_shown_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(expr: str, **_kwargs: Any) -> Any:
        raise RuntimeError("engine fell over\nwith a second line")

    monkeypatch.setattr(dice, "roll", broken)
    tray = make_tray()
    tray.roll_button.click()
    assert tray.error.message == "RuntimeError: engine fell over"


def test_labels_show_their_subtotals() -> None:
    expr = "1d8[fire]+1d6[cold]"
    tray = make_tray()
    tray.expr.value = expr
    tray.seed.value = "3"
    tray.roll_button.click()
    expected = dice.roll(expr, seed=3)
    assert expected.labels, "the engine gives label subtotals"
    for label, subtotal in expected.labels.items():
        assert f"{label}: <b>{subtotal}</b>" in tray.result.value
    assert tray.history.latest is not None
    assert dict(tray.history.latest.labels) == dict(expected.labels)


def test_clear_and_exports_follow_the_model() -> None:
    history = RollHistory()
    tray = make_tray(history=history)
    for _ in range(3):
        tray.roll_button.click()
    assert history_ns(tray) == [3, 2, 1]
    assert "rolls.csv" in tray.history_view.downloads.value
    assert "rolls.json" in tray.history_view.downloads.value
    # A roll added by someone else sharing the model shows up too.
    history.add(expr="1d4", total=2, text="1d4 = [2] = 2", seed=5)
    assert history_ns(tray)[0] == 4
    tray.history_view.clear_button.click()
    assert len(history) == 0 and history_ns(tray) == []
    assert tray.history_view.downloads.value == ""
    tray.roll_button.click()
    assert history_ns(tray) == [5]


def test_every_button_is_a_44px_text_button() -> None:
    tray = make_tray()

    def walk(w: widgets.Widget) -> Iterator[widgets.Widget]:
        yield w
        for child in getattr(w, "children", ()):
            yield from walk(child)

    buttons = [w for w in walk(tray) if isinstance(w, widgets.Button)]
    assert len(buttons) == len(QUICK_ROLLS) + 2
    for b in buttons:
        assert b.layout.min_height == "44px"
        assert b.icon == "" and b.description.strip()


def test_download_links_carry_the_exports() -> None:
    import base64
    import html as html_lib

    tray = make_tray()
    tray.expr.value = "2d8"
    tray.roll_button.click()
    tray.roll_button.click()
    links = dict(
        re.findall(
            r'download="([^"]+)" href="data:[^;]+;charset=utf-8;base64,([^"]+)"',
            tray.history_view.downloads.value,
        )
    )
    assert set(links) == {"rolls.csv", "rolls.json"}
    decoded = {k: base64.b64decode(html_lib.unescape(v)).decode() for k, v in links.items()}
    assert decoded["rolls.csv"] == tray.history.to_csv()
    assert RollHistory.from_json(decoded["rolls.json"]).records == tray.history.records


def test_odds_of_the_starting_expression_show_before_any_roll() -> None:
    tray = make_tray(expr="1d12")
    assert "1 to 12" in tray.odds_note.value and "<svg" in tray.chart.value
    tray.target.value = "10"
    assert "exactly 1/4" in tray.chance.value and "25.00%" in tray.chance.value
    assert len(tray.history) == 0
    broken = make_tray(expr="1d")
    with pytest.raises(DiceSyntaxError) as info:
        dice.odds("1d")
    assert "No odds: " in broken.odds_note.value and broken.chart.value == ""
    assert html.escape(plain_syntax_error(info.value)) in broken.odds_note.value


# -- issue 11: refusals show under the box, the page stays bounded --------------------------
def _page(box: widgets.Widget, skip: widgets.Widget | None = None) -> dict[int, str]:
    """Every text value the page holds, by widget (what the browser is sent), leaving out
    the subtree ``skip``."""
    out: dict[int, str] = {}
    stack: list[Any] = [box]
    while stack:
        w = stack.pop()
        if w is skip:
            continue
        value = getattr(w, "value", None)
        if isinstance(value, str):
            out[id(w)] = value
        stack.extend(getattr(w, "children", ()) or ())
    return out


def test_a_refused_roll_shows_one_line_under_the_box_and_the_tray_keeps_working() -> None:
    tray = make_tray()
    tray.expr.value = "2d6"
    tray.roll_button.click()
    before = tray.result.value
    tray.expr.value = "10000d1000000r<=999999"
    tray.roll_button.click()
    message = tray.error.message
    assert "10000d1000000r<=999999" in message and "100,000" in message
    assert "\n" not in message and "Traceback" not in tray.error.value
    assert tray.result.value == before and len(tray.history) == 1  # nothing half-rolled
    tray.expr.value = "3d6"
    tray.roll_button.click()
    assert tray.error.message == "" and len(tray.history) == 2
    assert tray.last_roll.expr == "3d6"


def test_costly_odds_are_refused_beside_the_odds_and_rolling_still_works() -> None:
    tray = make_tray()
    tray.expr.value = "100d1000000kh1"
    tray.roll_button.click()
    assert tray.error.message == "" and shown_total(tray) == tray.last_roll.total
    assert "too long to work out" in tray.odds_note.value and tray.chart.value == ""
    assert "simulate" not in tray.odds_note.value


def test_twenty_big_rolls_keep_the_page_small() -> None:
    """What the tray itself renders (the history view is bounded by widgets.base) stays a
    few kilobytes per roll, and the whole page stays small after twenty big rolls."""
    tray = make_tray()
    for expr in ("1000d6", "10000d6", "+".join(["40d6"] * 24)):
        tray.expr.value = expr
        before = _page(tray, skip=tray.history_view)
        for _ in range(20):
            tray.roll_button.click()
            after = _page(tray, skip=tray.history_view)
            sent = sum(len(v) for k, v in after.items() if before.get(k) != v)
            before = after
            assert sent < 15_000, f"{expr}: {sent:,} characters re-sent for one roll"
        assert sum(len(v) for v in _page(tray).values()) < 60_000
        assert tray.result.value.count('class="die"') == 60  # the others are counted
        counted = sum(int(n.replace(",", "")) for n in re.findall(
            r"and ([\d,]+) more dic?e", tray.result.value))
        assert counted == len(tray.last_roll.dice) - 60
        assert shown_total(tray) == tray.last_roll.total  # the total stays exact


def test_a_chance_with_thousands_of_digits_is_shown_as_a_decimal() -> None:
    tray = make_tray(expr="5600d6kh1")
    tray.target.value = "6"
    p = dice.odds("5600d6kh1").at_least(6)  # 1 - (5/6)**5600: 4,358-digit terms
    assert p.denominator.bit_length() > 14_000
    assert f"(exactly {render.decimal_text(p)})" in tray.chance.value
    assert f"<b>{html.escape(render.percent(p))}</b>" in tray.chance.value  # ">" as &gt;
    assert len(tray.chance.value) < 300


def test_a_large_distribution_is_charted_in_few_bars_with_exact_bucket_chances() -> None:
    """1000d6's 5,001 totals: at most TRAY_CHART_BARS bars, each tooltip the chance of its
    run of totals (summed from the exact odds), the ends 'or less' / 'or more'."""
    from companion.widgets.dice_tray import TRAY_CHART_BARS, chart_svg

    dist = dice.odds("1000d6")
    svg = chart_svg(dist, target=3500, title="Odds of 1000d6")
    assert len(svg) < 6_000
    tips = re.findall(r"<title>([^<]*): ([^<]*)</title>", svg)
    assert 10 <= len(tips) <= TRAY_CHART_BARS
    low = re.fullmatch(r"(\d+) or less", tips[0][0])
    high = re.fullmatch(r"(\d+) or more", tips[-1][0])
    assert low and high
    assert tips[0][1] == render.percent(dist.at_most(int(low.group(1))))
    assert tips[-1][1] == render.percent(dist.at_least(int(high.group(1))))
    nxt = int(low.group(1)) + 1
    for span, chance in tips[1:-1]:  # contiguous runs, each its exact chance
        a, b = (int(x) for x in span.split(" to "))
        assert a == nxt
        assert chance == render.percent(sum((dist.p(v) for v in range(a, b + 1)), Fraction(0)))
        nxt = b + 1
    assert nxt == int(high.group(1))
    # A small distribution keeps one bar per total and its exact tooltips.
    small = chart_svg(dice.odds("3d6"))
    assert "<title>10: 1/8 (12.50%)</title>" in small


def _campaign(tmp_path: Any, who: str, role: str) -> Any:
    from companion.store import create_campaign, open_campaign, open_store

    store = open_store(str(tmp_path / "t.db"))
    if not store.list_campaigns():
        create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
    return open_campaign(store, "Tuesday", who=who, role=role)


def test_with_a_campaign_a_blind_roll_is_hidden_from_the_roller_and_logged(
        tmp_path: Any) -> None:
    gm = _campaign(tmp_path, "Mira", "gm")
    ash = _campaign(tmp_path, "Ash", "player")
    ash_tray = DiceTray(session=session_of(ash), who="Ash", role="player", seed_source=lambda: 991)
    gm_tray = make_tray(session=session_of(gm), who="Mira", role="gm")
    assert not ash_tray.modes.mode.disabled
    ash_tray.expr.value = "2d6+3"
    ash_tray.modes.mode.value = "blind"
    # In a campaign the seed box is the GM's: a player's tray has none, and a value
    # sent to the hidden box chooses nothing (issue 19).
    assert not ash_tray.seed_shown and gm_tray.seed_shown
    ash_tray.seed.value = "4"
    ash_tray.roll_button.click()
    assert ash_tray.error.message == ""
    assert "Hidden roll committed" in ash_tray.result.value
    assert ash_tray.last_roll is None and ash_tray.history.latest is None
    text = str(dice.roll("2d6+3", seed=991))
    # The seed as a number of its own; a hex commitment or sitting hash may hold "991".
    assert text not in ash_tray.result.value
    assert not re.search(r"\b991\b", ash_tray.result.value), ash_tray.result.value
    assert ash_tray.roll_log is not None and gm_tray.roll_log is not None
    assert text not in ash_tray.roll_log.list.value
    gm.refresh()
    assert text in gm_tray.roll_log.list.value


def test_own_dice_in_the_tray_are_checked_shown_and_logged_as_real_dice(
        tmp_path: Any) -> None:
    ash = _campaign(tmp_path, "Ash", "player")
    tray = make_tray(session=session_of(ash), who="Ash", role="player")
    tray.expr.value = "2d6"
    tray.modes.own.value = True
    tray.modes.entry_kind.value = "total"
    tray.modes.total_box.text = "13"
    tray.roll_button.click()
    assert "2d6 cannot total 13: its totals run from 2 to 12" in tray.error.message
    assert "2d6 cannot total 13" in tray.modes.total_box.refusal.message
    assert ash.log(["roll"]) == []
    tray.modes.entry_kind.value = "dice"
    tray.modes.die_boxes[0].text, tray.modes.die_boxes[1].text = "3", "4"
    tray.roll_button.click()
    assert tray.error.message == ""
    assert shown_total(tray) == 7 and "your own dice" in tray.result.value
    assert tray.history.latest is None  # no seed: not in the replay history
    (event,) = ash.log(["roll"])
    assert event.data["physical"] is True and event.data["dice"] == [3, 4]


def test_without_a_campaign_the_modes_are_disabled_and_rolls_are_as_before() -> None:
    tray = make_tray()
    assert campaign_of(tray.session) is None and tray.roll_log is None
    assert tray.modes.mode.disabled
    tray.expr.value = "1d20"
    tray.roll_button.click()
    assert shown_total(tray) == dice.roll("1d20", seed=1000).total
