"""Messages said once, beside what caused them, and no silent clamps (issue 22), headless.

A refusal from a checked box shows under the box (and is brought into view there); the
app's error line only carries it for the code. In plot points, a difficulty under 1 is
refused, a net advantage past the last advantage die is said, strain past the last wound
is said beside the buttons, and Undo takes the shown outcome back.
"""

from __future__ import annotations

from companion.errors import RuleError
from companion.widgets.base import ErrorLine, button, int_box
from companion.widgets.plot_points import PlotPointsApp


def test_a_bad_box_is_said_under_the_box_only_and_scrolled_into_view() -> None:
    error = ErrorLine()
    amount = int_box("Amount", 1, "amount", 1, 9)
    done: list[int] = []
    go = button("Go", lambda: done.append(amount.read()), error=error, name="go")
    amount.value = "12"
    first = amount.refusal.value
    go.click()
    assert done == []
    assert "role=\"alert\"" in amount.refusal.value and "scrollIntoView" in amount.refusal.value
    assert amount.refusal.value != first  # shown again: a fresh value scrolls again
    assert error.message == "Amount: 12 is too high: enter a whole number from 1 to 9"
    assert "tc-echoed" in error._dom_classes and "role=" not in error.value  # not seen twice
    amount.value = 3  # fixed: both go
    assert error.message == "" and amount.refusal.message == ""
    go.click()
    assert done == [3] and "tc-echoed" not in error._dom_classes


def test_an_error_not_from_a_box_shows_on_the_line_in_view() -> None:
    error = ErrorLine()

    def refuse() -> None:
        raise RuleError("Spells: no spell points left")

    btn = button("Cast", refuse, error=error, name="cast")
    btn.click()
    assert 'role="alert"' in error.value and "scrollIntoView" in error.value
    assert "tc-echoed" not in error._dom_classes
    assert error.message == "Spells: no spell points left"


def test_a_difficulty_under_1_is_refused_and_nothing_rolls() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    roller = app.roller
    roller.difficulty.value = "-5"
    roller.roll_button.click()
    assert roller.difficulty.refusal.message.startswith("Difficulty: -5 is too low")
    assert app.session.log == ()
    app._panels["Ann"].rest_dc.value = "0"
    assert not app._panels["Ann"].rest_dc.valid


def test_a_net_advantage_past_the_last_die_is_said_not_silently_capped() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    roller = app.roller
    roller.advantage.value = 5
    assert "tc-advantage-note" not in roller.chance.value
    roller.advantage.value = 6
    assert "Net +6 rolls as +5: d12 is the largest advantage die" in roller.chance.value
    roller.advantage.value = -99
    assert "Net -99 rolls as -5" in roller.chance.value


def test_strain_past_the_last_wound_is_said_beside_the_buttons() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    panel = app._panels["Ann"]
    panel.amount.value = 100
    panel.strain_button.click()
    assert "beyond" in panel.did.value and "ignored" in panel.did.value
    assert "Ann gains 100 strain" in panel.did.value


def test_undo_takes_the_shown_outcome_back() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    roller = app.roller
    roller.roll_button.click()
    assert "tc-total" in roller.result.value
    app.history.undo_button.click()
    assert app.session.log == ()
    assert "Undone" in roller.result.value and "tc-total" not in roller.result.value


def test_a_keep_past_the_dice_rolled_is_said_beside_the_result() -> None:
    from companion.widgets import DiceTray

    tray = DiceTray(seed_source=lambda: 7)
    tray.expr.value = "2d6kh5"
    tray.roll_button.click()
    assert tray.error.message == ""
    assert "there are only 2 dice, so all 2 are kept" in tray.result.value
    tray.expr.value = "4d6kh3"
    tray.roll_button.click()
    assert "tc-keep-note" not in tray.result.value


def test_a_contest_says_a_net_advantage_past_the_last_die_too() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    contest = app.contest
    contest.mine[2].value = 7
    assert "Net +7 rolls as +5" in contest.odds.value
    contest.mine[2].value = 2
    assert "tc-advantage-note" not in contest.odds.value
