"""widgets.base: errors become one visible line, layout helpers, binding to an Observable."""

from __future__ import annotations

import ipywidgets as widgets

from companion.errors import DiceSyntaxError, RuleError
from companion.state import Observable
from companion.widgets.base import (
    CSS,
    MIN_BUTTON_HEIGHT,
    ErrorLine,
    app_box,
    bind,
    button,
    one_line,
    press_enter,
    row,
    safe,
    text_box,
)


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
    assert b.layout.min_height == MIN_BUTTON_HEIGHT == "40px"
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
    assert "min-height: 40px" in CSS


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
    import base64
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
