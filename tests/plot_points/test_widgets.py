"""The plot-points components, headless: they call the session and show its state and errors."""

from __future__ import annotations

import json
from pathlib import Path

from companion.rulesets.plot_points import PlotCheck
from companion.widgets.plot_points import PlotPointsApp


def test_chance_shown_before_rolling_follows_the_controls() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    roller = app.roller
    assert "55.00%" in roller.chance.value and "11/20" in roller.chance.value
    roller.ability.value = "strong"
    roller.advantage.value = -2
    roller.difficulty.value = 15
    p = PlotCheck("strong", 0, -2, 15).chance()
    assert f"{p.numerator}/{p.denominator}" in roller.chance.value
    assert "2d20kh1 - 1d6" in roller.chance.value


def test_roll_spend_and_errors_in_the_app() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    s = app.session
    app.roller.difficulty.value = 30  # nobody can reach 30: a sure failure
    app.roller.roll()
    assert 'data-n="1"' in app.roller.result.value and "failure" in app.roller.result.value
    assert s.current is not None and s.current.roller == "Ann"
    before = s.lucky
    app.roller._spend("retry_with_lucky")()
    assert 'data-n="2"' in app.roller.result.value
    assert "spends a lucky point" in app.roller.result.value
    assert s.log[-1].move == "retry_with_lucky" and "seed" in s.log[-1].args
    assert f'data-lucky="{s.lucky}"' in app.pool.view.value
    assert s.lucky <= before  # the spend turned one over (a natural 20 may turn one back)
    reroll = app.roller.children[4].children[2]
    reroll.click()  # rerolling a failure with an unlucky point is refused
    assert "rerolls a successful check" in app.roller.error.message
    assert s.log[-1].move == "retry_with_lucky"


def test_strain_until_a_wound_and_undo() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    tracker = app._trackers["Ann"]
    plus_strain = tracker.children[1].children[0]
    for _ in range(4):
        plus_strain.click()
    assert 'data-wounds="1"' in tracker.view.value and "Exhausted" in tracker.view.value
    app.history.undo()
    assert 'data-strain="3"' in tracker.view.value and 'data-wounds="0"' in tracker.view.value
    heal = tracker.children[1].children[2]
    heal.click()
    assert "only 0 wound" in tracker.error.message


def test_add_player_and_load_saved_table() -> None:
    app = PlotPointsApp(["Ann"])
    app.new_player.value = "Cy"
    app.add_player()
    assert [t.character_name for t in app.characters.children] == ["Ann", "Cy"]
    assert app.session.lucky == 3
    app.new_player.value = "Ann"
    app.children[-3].children[1].click()  # the Add player button
    assert "already at the table" in app.error.message
    saved = app.session.to_json()
    app.session.gain_wounds("Cy", 5)
    app.history.load_box.value = saved
    app.history.load()
    assert app.session.character("Cy").wounds == 0
    app.history.load_box.value = json.dumps({"tracker": "PlotPointSession"})
    load_button = app.history.children[3].children[1]
    load_button.click()
    assert "missing field" in app.history.error.message
    assert app.session.character("Cy").wounds == 0


def test_notebook_is_a_few_lines() -> None:
    nb = json.loads((Path(__file__).parents[2] / "widgets" / "plot_points.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1 and len("".join(code[0]["source"]).splitlines()) <= 5


def test_spend_buttons_are_explained_on_the_page_not_only_on_hover() -> None:
    roller = PlotPointsApp(["Ash"]).roller
    labels = [b.description for b in roller.children[4].children]
    assert labels[0] == "Roll check" and len(labels) == 5
    for label in labels[1:]:
        assert f"<b>{label}</b>: " in roller.spend_help.value
    assert "retry a failed check" in roller.spend_help.value
