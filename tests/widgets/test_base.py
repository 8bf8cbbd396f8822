"""widgets.base: errors become one visible line, layout helpers, binding to an Observable."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import ipywidgets as widgets
import pytest

from companion.errors import DiceSyntaxError, RuleError
from companion.history import MAX_RECORD_DICE, MAX_RECORD_TEXT, RollHistory
from companion.state import Observable
from companion.table.session import Keeper
from companion.widgets.base import (
    CSS,
    HISTORY_SHOWN,
    LOCAL_TIME_SCRIPT,
    MIN_BUTTON_HEIGHT,
    ErrorLine,
    HistoryView,
    InputError,
    NumberBox,
    app_box,
    bind,
    button,
    int_box,
    local_time_html,
    name_box,
    one_line,
    press_enter,
    row,
    safe,
    text_box,
)
from companion.widgets.saving import INLINE_DOWNLOAD_LIMIT
from tests.conftest import find_widget, widgets_by_name


def test_player_errors_show_their_own_message_escaped() -> None:
    error = ErrorLine()
    exc = DiceSyntaxError("unexpected '<'", "2d<b>", 2)

    def fail() -> None:
        raise exc

    button("Roll", fail, error=error).click()
    assert error.message == str(exc)
    assert "<b>" not in error.value and "&lt;b&gt;" in error.value
    assert 'role="alert"' in error.value


def test_bugs_show_type_and_first_line_only_and_are_cut() -> None:
    assert one_line(ValueError("first\nsecond")) == "ValueError: first"
    assert one_line(KeyError()) == "KeyError"
    long = one_line(RuleError("x" * 1000))
    assert len(long) == 240 and long.endswith("…")


def test_success_clears_the_error_and_returns_the_value() -> None:
    error = ErrorLine()
    calls: list[int] = []

    @safe(error)
    def work(n: int) -> int:
        if n < 0:
            raise RuleError("negative n forbidden by rule 1")
        calls.append(n)
        return n * 2

    assert work(-1) is None
    assert error.message == "negative n forbidden by rule 1"
    assert work(3) == 6
    assert error.message == "" and error.value == ""
    assert calls == [3]


def test_button_and_text_box_are_phone_sized_and_findable() -> None:
    clicks: list[str] = []
    b = button("Go", lambda: clicks.append("go"), name="go")
    assert b.layout.min_height == MIN_BUTTON_HEIGHT == "44px"
    assert "tc-btn" in b._dom_classes and "tc-btn-go" in b._dom_classes
    b.click()
    assert clicks == ["go"]
    entered: list[str] = []
    box = text_box("type", name="expr", on_enter=lambda: entered.append(box.value))
    assert "tc-text-expr" in box._dom_classes and box.continuous_update
    box.value = "2d6"
    press_enter(box)
    assert entered == ["2d6"]
    plain = text_box()
    assert plain.continuous_update is False


def test_rows_wrap_and_app_box_carries_the_css() -> None:
    r = row(widgets.Label("a"), widgets.Label("b"))
    assert r.layout.flex_flow == "row wrap" and "tc-row" in r._dom_classes
    app = app_box(r)
    assert "tc-app" in app._dom_classes
    style = app.children[0]
    assert isinstance(style, widgets.HTML) and CSS in style.value
    assert "min-height: 44px" in CSS


class Counter(Observable):
    def __init__(self) -> None:
        self.n = 0

    def bump(self) -> None:
        self.n += 1
        self._changed()


def test_bind_renders_now_and_on_every_change_until_unsubscribed() -> None:
    model = Counter()
    label = widgets.HTML()

    def render() -> None:
        label.value = str(model.n)

    unsubscribe = bind(model, render)
    assert label.value == "0"
    model.bump()
    model.bump()
    assert label.value == "2"
    unsubscribe()
    model.bump()
    assert label.value == "2"


def test_a_failing_render_shows_on_the_error_line() -> None:
    model = Counter()
    error = ErrorLine()

    def render() -> None:
        if model.n:
            raise ValueError(f"cannot show {model.n}")

    bind(model, render, error=error)
    model.bump()
    assert model.n == 1
    assert error.message == "ValueError: cannot show 1"


def test_confirm_button_asks_again_only_when_there_is_something_to_lose() -> None:
    from companion.widgets.base import confirm_button

    error = ErrorLine()
    done: list[int] = []
    stake = {"risky": False}
    btn = confirm_button("Reset", lambda: done.append(1), risky=lambda: stake["risky"],
                         prompt="Tap again to reset", error=error, name="reset")
    btn.click()
    assert done == [1] and btn.description == "Reset"
    stake["risky"] = True
    btn.click()
    assert done == [1] and btn.description == "Tap again to reset"
    assert btn.button_style == "danger"
    btn.disarm()
    btn.click()
    assert done == [1]  # disarmed: the next tap asks again
    btn.click()
    assert done == [1, 1] and btn.description == "Reset" and btn.button_style == ""
    assert "tc-btn-reset" in btn._dom_classes


def test_save_load_round_trip_and_a_bad_paste_changes_nothing() -> None:
    from dataclasses import dataclass

    from companion.state import Tracker, move
    from companion.widgets.base import SaveLoad

    @dataclass
    class Counter(Tracker):
        n: int = 0

        @move
        def add(self, k: int) -> None:
            self.n += k
            self.describe(f"+{k}")

    model = Counter()
    part = SaveLoad(model, "counter.json", what="counter")
    model.add(3)
    payload = part.save.value.split("base64,", 1)[1].split('"', 1)[0]
    saved = base64.b64decode(payload).decode()
    assert saved == model.to_json() and "Save counter" in part.save.value
    model.add(4)
    part.load_box.value = saved.replace('"n": 3', '"n": "three"')
    part.load_button.click()
    assert "'n'" in part.error.message and model.n == 7
    part.load_box.value = "  "
    part.load_button.click()
    assert part.error.message == "Load: paste a saved counter into the box first"
    part.load_box.value = saved
    part.load_button.click()
    assert model.n == 3 and len(model.log) == 1 and part.error.message == ""
    assert part.load_box.value == ""


# -- checked boxes: bad input refused visibly, the action does not run ---------------------


def _applying(box: object) -> tuple[ErrorLine, list[object], widgets.Button]:
    error = ErrorLine()
    done: list[object] = []
    go = button("Apply", lambda: done.append(box.read()), error=error,  # type: ignore[attr-defined]
                name="apply")
    return error, done, go


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        ("", "Amount: the box is empty: enter a whole number from 1 to 999"),
        ("   ", "Amount: the box is empty: enter a whole number from 1 to 999"),
        ("abc",
         "Amount: \u201cabc\u201d is not a whole number: enter a whole number from 1 to 999"),
        ("2.5", "Amount: \u201c2.5\u201d is not a whole number"),
        ("\u0663", "is not a whole number"),  # an Arabic-Indic 3: not a digit we read
        ("-5", "Amount: -5 is too low: enter a whole number from 1 to 999"),
        ("0", "Amount: 0 is too low"),
        ("1000", "Amount: 1000 is too high: enter a whole number from 1 to 999"),
        ("9" * 5000, "is not a whole number"),
    ],
)
def test_number_box_refuses_under_itself_and_the_action_does_not_run(
        typed: str, refusal: str) -> None:
    box = int_box("Amount", 1, "amount", 1, 999)
    error, done, go = _applying(box)
    box.text = typed
    assert refusal in box.refusal.message and len(box.refusal.message) < 160
    assert not box.valid and "tc-bad" in box._dom_classes
    go.click()
    assert done == []
    assert refusal in error.message
    box.text = " 12 "
    assert box.refusal.message == "" and box.valid and "tc-bad" not in box._dom_classes
    assert error.message == ""  # the echo on the action's line went with the refusal
    go.click()
    assert done == [12]


def test_number_box_reads_value_sets_and_bounds_like_an_int_box() -> None:
    box = int_box("DC", 10, "dc", low=-5, high=30)
    assert isinstance(box, NumberBox) and box.value == 10 and box.read() == 10
    assert "tc-int-dc" in box._dom_classes
    assert box.control.layout.min_height == MIN_BUTTON_HEIGHT
    box.value = 25
    assert box.text == "25" and box.value == 25
    box.text = "\u22123"  # a typographic minus, as phone keyboards type it
    assert box.value == -3
    box.max = 2
    box.value = 5
    assert "5 is too high: enter a whole number from -5 to 2" in box.refusal.message
    with pytest.raises(InputError, match="DC: 5 is too high"):
        _ = box.value
    box.max = 9
    assert box.valid and box.value == 5
    box.disabled = True
    assert box.control.disabled and box.disabled


def test_number_box_observers_hear_every_change_good_or_bad() -> None:
    box = int_box("Bonus", 0, "bonus")
    seen: list[object] = []
    box.observe(lambda change: seen.append(change.new), names="value")
    box.text = "4"
    box.text = "x"
    box.text = "-2"
    assert seen == [4, None, -2]
    handler = seen.append
    box.observe(handler, names=["value"])
    box.unobserve(handler, names="value")
    box.text = "1"
    assert seen[-1] == 1 and len(seen) == 4


def test_a_refused_box_inside_an_observed_render_shows_on_the_error_line() -> None:
    box = int_box("Target", 10, "target", 1, 30)
    error = ErrorLine()
    shown: list[int] = []
    box.observe(safe(error)(lambda _change: shown.append(box.read())), names="value")
    box.text = "31"
    assert shown == [] and "Target: 31 is too high" in error.message
    box.text = "30"
    assert shown == [30] and error.message == ""


@pytest.mark.parametrize(
    ("typed", "refusal"),
    [
        ("x" * 5000, "Name: too long (5,000 characters): at most 40"),
        ("", "Name: the box is empty: type a name"),
        ("Ada\x07", "Name: holds a line break or control character"),
    ],
)
def test_name_box_limits_length_and_refuses_visibly(typed: str, refusal: str) -> None:
    box = name_box("Name", "Bo", name="who")
    assert "tc-name-who" in box._dom_classes and box.value == "Bo"
    error, done, go = _applying(box)
    box.text = typed
    assert box.refusal.message == refusal
    go.click()
    assert done == [] and error.message == refusal
    box.text = "  Ada Lovelace  "
    go.click()
    assert done == ["Ada Lovelace"] and box.refusal.message == "" and error.message == ""


def test_an_optional_name_box_takes_empty_text() -> None:
    box = name_box("Note", name="note", required=False, max_len=5)
    assert box.read() == ""
    box.text = "123456"
    assert not box.valid and "at most 5" in box.refusal.message


def test_refusal_is_escaped_and_one_line() -> None:
    box = int_box("N", 0, "n")
    box.text = "<b>bold</b>"
    assert "<b>" not in box.refusal.value and "\n" not in box.refusal.message
    assert 'role="alert"' in box.refusal.value and "tc-refusal-n" in box.refusal._dom_classes


# -- phone-sized text and targets ------------------------------------------------------


def test_css_sets_16px_text_and_44px_checkboxes_and_options() -> None:
    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.S)
    rules = {m.group(1).strip(): m.group(2) for m in re.finditer(r"([^{}]+)\{([^}]*)\}", css)}

    def rule(selector_part: str) -> str:
        hits = [body for sel, body in rules.items() if selector_part in sel]
        assert hits, selector_part
        return " ".join(hits)

    assert "--jp-widgets-font-size: 16px" in rules[".tc-app"]
    assert "font-size: 16px;" in rules[".tc-app"]
    assert "font-size: 16px" in rule(".tc-app .widget-label")
    assert "min-height: 44px" in rule(".tc-app .widget-checkbox label")
    assert "min-height: 44px" in rule(".tc-app .widget-select option")
    assert "min-height: 44px" in rule(".tc-app .widget-radio-box label")
    sizes = [int(n) for n in re.findall(r"font-size:\s*(\d+)px", CSS)]
    assert min(sizes) >= 16


# -- what is sent to the browser stays bounded --------------------------------------------


def test_history_view_lists_a_bounded_number_of_bounded_entries() -> None:
    history = RollHistory(limit=200)
    view = HistoryView(history)
    huge = "1000d6 = [" + ", ".join(["6"] * 1000) + "] = 6000"
    for i in range(120):
        history.add(expr="1000d6", total=6000, text=huge, seed=i,
                    dice=[{"sides": 6, "value": 6}] * 1000)
    assert len(history) == 120
    assert all(len(r.dice) <= MAX_RECORD_DICE and len(r.text) <= MAX_RECORD_TEXT
               for r in history)
    assert view.list.value.count("<li data-n=") == HISTORY_SHOWN
    assert "and 70 older rolls" in view.list.value
    assert len(view.list.value) < 40_000
    # the exports are not re-sent on every roll once big: a button prepares them
    assert view.downloads.value == ""
    prepare = find_widget(view, "prepare-history", "btn")
    assert prepare.layout.display is None
    prepare.click()
    assert "rolls.csv" in view.downloads.value and prepare.layout.display == "none"
    history.add(expr="1d6", total=3, text="1d6 = [3] = 3", seed=1)
    assert view.downloads.value == "" and prepare.layout.display is None


def test_history_times_are_rewritten_in_the_viewers_zone() -> None:
    history = RollHistory()
    view = HistoryView(history)
    history.add(expr="1d6", total=3, text="1d6 = [3] = 3", seed=1,
                when=datetime(2026, 11, 22, 18, 5, 9, tzinfo=UTC))
    value = view.list.value
    assert '<time class="tc-local" datetime="2026-11-22T18:05:09Z">18:05:09 UTC</time>' in value
    assert value.endswith(LOCAL_TIME_SCRIPT) and "toLocaleTimeString" in LOCAL_TIME_SCRIPT
    assert local_time_html("2026-01-02T03:04:05Z", "x<y") == (
        '<time class="tc-local" datetime="2026-01-02T03:04:05Z">x&lt;y</time>')


def test_save_load_sends_a_long_save_only_when_asked() -> None:
    from dataclasses import dataclass

    from companion.state import Tracker, move
    from companion.widgets.base import INLINE_DOWNLOAD_LIMIT, SaveLoad

    @dataclass
    class Tally(Tracker):
        n: int = 0

        @move
        def add(self) -> None:
            self.n += 1

    model = Tally()
    part = SaveLoad(model, "tally.json", what="tally")
    model.add()
    assert "base64," in part.save.value  # small: inline, as before
    while len(model.to_json()) <= INLINE_DOWNLOAD_LIMIT:
        model.add()
    assert part.save.value == ""
    save = find_widget(part, "prepare-save", "btn")
    assert save.description == "Save tally"
    save.click()
    payload = part.save.value.split("base64,", 1)[1].split('"', 1)[0]
    assert base64.b64decode(payload).decode() == model.to_json()
    model.add()
    assert part.save.value == ""


def test_the_widget_finder_finds_one_and_names_the_rest() -> None:
    app = app_box(row(button("Roll", name="roll"), int_box("DC", 10, "dc"),
                      text_box(name="expr")))
    assert find_widget(app, "roll").description == "Roll"
    assert isinstance(find_widget(app, "dc", "int"), NumberBox)
    assert set(widgets_by_name(app)) == {"roll"}
    with pytest.raises(pytest.fail.Exception, match="tc-btn-roll, tc-int-dc, tc-text-expr"):
        find_widget(app, "missing")


def test_download_links_inline_small_files_and_prepare_big_ones_on_a_tap() -> None:
    from companion.widgets.base import INLINE_DOWNLOAD_LIMIT, DownloadLinks, data_uri_link

    error = ErrorLine()
    links = DownloadLinks(error, "sheet", "Save sheet")
    built: list[int] = []

    def build(text: str) -> str:
        built.append(len(text))
        return data_uri_link("Save sheet", "sheet.json", "application/json", text)

    small = "x" * 10
    links.offer(lambda: build(small), len(small))
    assert "sheet.json" in links.value and built == [10]
    assert widgets_by_name(links) == {}  # no button while files are small
    big = "y" * (INLINE_DOWNLOAD_LIMIT + 1)
    links.offer(lambda: build(big), len(big))
    assert links.value == "" and built == [10]  # nothing built or sent yet
    prepare = find_widget(links, "prepare-sheet", "btn")
    assert prepare.description == "Save sheet"
    prepare.click()
    assert built == [10, len(big)] and "sheet.json" in links.value
    links.offer(lambda: build(big), len(big))
    assert links.value == "" and prepare.layout.display is None


# -- helpers the widget modules share -------------------------------------------------------


class _Event:
    def __init__(self, summary: str) -> None:
        self.summary = summary


def test_a_log_shows_only_its_newest_moves_and_counts_the_rest() -> None:
    from companion.widgets.base import ENTRY_TEXT_LIMIT, LOG_SHOWN, log_html

    events = [_Event(f"move {i} <b>") for i in range(1, 1001)]
    value = log_html(events)
    assert value.startswith('<ol class="tc-history tc-log" tabindex="0" data-count="1000">')
    numbers = [int(n) for n in re.findall(r'<li data-n="(\d+)">', value)]
    assert numbers == list(range(1000, 1000 - LOG_SHOWN, -1))  # newest first
    assert "move 1000 &lt;b&gt;" in value and "<b>" not in value
    assert value.endswith(f"… and {1000 - LOG_SHOWN} earlier moves (in the save)</div>")
    assert log_html(events[:3], 2).count("<li") == 2 and "1 earlier move " in log_html(
        events[:3], 2)
    assert "earlier" not in log_html(events[:2], 2)
    long = log_html([_Event("x" * 100_000)])
    assert len(long) < ENTRY_TEXT_LIMIT + 200 and "100,000 characters" in long
    assert log_html([]) == '<ol class="tc-history tc-log" tabindex="0" data-count="0"></ol>'


def test_a_checked_box_runs_its_enter_action_on_what_was_typed() -> None:
    error = ErrorLine()
    box = name_box("Name", name="who", required=False)
    seen: list[str] = []
    box.on_enter(lambda: seen.append(box.read()), error)
    box.text = "Ann"
    press_enter(box.control)
    box.text = "x" * 50  # too long: refused under the box and on the error line
    press_enter(box.control)
    assert seen == ["Ann"] and box.control.continuous_update
    assert "too long" in error.message
    box.text = "Bo"
    assert error.message == ""


def test_apply_hands_the_box_to_a_move_and_shows_its_refusal_under_the_box() -> None:
    error = ErrorLine()
    box = name_box("Name", name="who")
    names: list[str] = []

    def add(name: str) -> str:
        if name in names:
            raise RuleError(f"{name} is already at the table")
        names.append(name)
        return name

    @safe(error)
    def act() -> Any:
        return box.apply(add)

    box.text = " Ann "
    assert act() == "Ann" and names == ["Ann"] and box.text == ""
    box.text = "Ann"
    assert act() is None and names == ["Ann"]
    assert box.refusal.message == error.message == "Ann is already at the table"
    assert box.text == "Ann"  # kept, to be fixed
    box.text = "Bo"
    assert error.message == ""  # fixing the box clears the app's line
    box.text = ""
    assert act() is None and names == ["Ann"] and "empty" in error.message


def test_a_button_is_disabled_with_the_reason_in_its_tooltip() -> None:
    from companion.widgets.base import disable_for, first_bad_box

    btn = button("Heal", name="heal")
    low, high = int_box("Amount", 1, "amount", 1, 9), int_box("Bonus", 0, "bonus", 0, 5)
    assert first_bad_box(low, high) is None
    high.text = "7"
    low.text = "x"
    assert first_bad_box(low, high) == "fix the amount first"
    disable_for(btn, first_bad_box(high))
    assert btn.disabled and btn.tooltip == "fix the bonus first"
    high.text = "2"
    disable_for(btn, first_bad_box(high))
    assert not btn.disabled and btn.tooltip == "Heal"


def test_escape_and_chance_html() -> None:
    from fractions import Fraction

    from companion.widgets.base import chance_html, escape

    assert escape(3) == "3" and escape("a<b & 'c'") == "a&lt;b &amp; &#x27;c&#x27;"
    from companion.dice.render import percent

    p = Fraction(1, 4)
    assert chance_html(p) == f'<span class="tc-p">{percent(p)}</span> <small>(1/4)</small>'
    assert ".tc-app small, .tc-app .tc-note { font-size: 16px;" in CSS


def _bytes_per_move(app_step: Callable[[int], None], moves: int) -> list[int]:
    """What each of ``moves`` moves sends to the browser (widget state updates, bytes)."""
    sent: list[int] = []
    original = widgets.Widget._send

    def counting(self: widgets.Widget, msg: dict[str, Any], buffers: Any = None) -> None:
        sent[-1] += len(json.dumps(msg, ensure_ascii=False))
        original(self, msg, buffers)

    widgets.Widget._send = counting
    try:
        for i in range(moves):
            sent.append(0)
            app_step(i)
    finally:
        widgets.Widget._send = original
    return sent


def test_a_long_session_sends_the_same_few_kilobytes_per_move() -> None:
    """Issue 11: after 269 moves a move re-sent ~157 KB (plot points; the M&M sheet's log
    grew too). Now each app's page state per move stays flat: the log is bounded and the
    save goes out only when asked."""
    from companion.widgets.monsters_and_magic import MonstersAndMagicApp
    from companion.widgets.plot_points import PlotPointsApp

    pp = PlotPointsApp(["Ann", "Bo"])

    def plot_points_move(i: int) -> None:
        if i % 2:
            pp.roller.roll_button.click()
        else:
            pp.session.gain_strain("Bo")

    mm = MonstersAndMagicApp(["Ash"], seed_source=lambda: 7)
    sheet = mm.selected

    def mm_move(i: int) -> None:
        find_widget(sheet, "fatigue" if i % 2 == 0 else "clear-fatigue").click()

    for step, model in ((plot_points_move, pp.session), (mm_move, sheet.adventurer)):
        sent = _bytes_per_move(step, 280)
        # A long history: the tracker's own log, or, for an app acting through an unsaved
        # session (issue 28: the plot-points table), that session's log of every move.
        kept = model.recorder
        history = kept.session.log() if isinstance(kept, Keeper) else model.log
        assert len(history) >= 280
        early, late = max(sent[40:60]), max(sent[260:280])
        # The move's own few KB, plus, where the tracker's log is bounded (a session keeps
        # its newest UNDO_LIMIT moves), the save link, sent inline below its size limit.
        inline = 0 if len(model.to_json()) > INLINE_DOWNLOAD_LIMIT else \
            INLINE_DOWNLOAD_LIMIT * 4 // 3
        assert late < 8_000 + inline, f"{late:,} bytes for one move after 260 moves"
        assert late < early * 1.2  # flat, not growing with the log


def test_a_double_tap_on_a_confirm_button_counts_once(tap_clock: Any) -> None:
    """Two taps within CONFIRM_GAP (a double tap) only arm the button; a separate tap
    after it has shown its prompt does the move (issue 31: a sheet replaced at once)."""
    from companion.widgets import controls
    from companion.widgets.base import confirm_button

    done: list[int] = []
    btn = confirm_button("New", lambda: done.append(1), risky=lambda: True,
                         prompt="Tap again: new", error=ErrorLine(), name="x")
    tap_clock.freeze()
    btn.click()
    btn.click()
    assert done == [] and btn.description == "Tap again: new"
    tap_clock.now += controls.CONFIRM_GAP  # read, then tapped again
    btn.click()
    assert done == [1] and btn.description == "New"


# --- offer: a list refreshed under a viewer's pick --------------------------------------


def _watched(choice: Any) -> list[Any]:
    seen: list[Any] = []
    choice.observe(lambda change: seen.append(change["new"]), names="value")
    return seen


@pytest.mark.parametrize("make", [widgets.Dropdown, widgets.Select, widgets.RadioButtons])
def test_offer_keeps_the_pick_while_it_is_offered(make: Callable[..., Any]) -> None:
    from companion.widgets.base import offer

    choice = make(options=["Ash", "Briar"], value="Briar")
    seen = _watched(choice)
    offer(choice, ["Ash", "Briar", "Cole"])  # a caster joined on another screen
    assert (choice.value, list(choice.options)) == ("Briar", ["Ash", "Briar", "Cole"])
    assert "Ash" not in seen  # observers never saw another caster picked on the way
    seen.clear()
    offer(choice, ["Ash", "Briar", "Cole"])  # nothing new: nothing sent
    assert seen == []
    offer(choice, ["Ash", "Cole"])  # the pick left: the first
    assert choice.value == "Ash"
    offer(choice, [("Cole", "c"), ("Dara", "d")], default="d")  # or the default offered
    assert choice.value == "d"
    offer(choice, [])
    assert choice.value is None
    offer(choice, ["Eli"])
    assert choice.value == "Eli"


def test_offer_keeps_what_is_still_offered_of_a_multiple_pick() -> None:
    from companion.widgets.base import offer

    awake = widgets.SelectMultiple(options=["Ash", "Briar", "Cole"], value=("Briar", "Cole"))
    offer(awake, ["Briar", "Dara"])
    assert (awake.value, list(awake.options)) == (("Briar",), ["Briar", "Dara"])
