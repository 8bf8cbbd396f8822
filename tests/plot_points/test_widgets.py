"""The plot-points components, headless: they call the session and show its state and errors.

``Button.click()`` fires the callbacks in-process; a disabled button is only asserted as
disabled (the browser would not let it be tapped).
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from companion.rulesets import plot_points
from companion.rulesets.plot_points import ABILITIES, PlotCheck
from companion.rulesets.plot_points import reference as plot_reference
from companion.rulesets.plot_points.session import SPEND_RULES, PlotPointSession
from companion.store.campaign import UNDO_LIMIT
from companion.widgets.base import SaveLoad, press_enter
from companion.widgets.plot_points import PlotPointLogPanel, PlotPointsApp
from tests.conftest import find_widget

FAIL = next(s for s in range(1000) if not PlotCheck("average", 0, 0, 30).roll(seed=s).success)


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


def test_bad_numbers_are_refused_under_their_box_and_nothing_rolls() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    roller, s = app.roller, app.session
    cases = [(roller.advantage, "-500", "Net advantage (− = disadv.): -500 is too low: "
              "enter a whole number from -99 to 99"),
             (roller.proficiency, "", "Proficiency: the box is empty"),
             (roller.difficulty, "ten", "Difficulty: \u201cten\u201d is not a whole number"),
             (roller.difficulty, "1e3", "Difficulty: \u201c1e3\u201d is not a whole number")]
    for box, text, message in cases:
        good = box.text
        box.value = text
        roller.roll_button.click()
        assert box.refusal.message.startswith(message), box.refusal.message
        assert s.log == () and roller.rolls == 0  # the action did not run
        assert "Fix the box" in roller.chance.value
        box.value = good  # fixed: the refusal goes and the chance is back
        assert box.refusal.message == "" and "chance of success" in roller.chance.value
        assert roller.error.message == ""
    panel = app._panels["Ann"]
    panel.rest_dc.value = "-"
    panel.rest_button.click()
    assert "Rest DC" in panel.rest_dc.refusal.message and s.log == ()


def test_roll_spend_and_disabled_spends() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    s, roller = app.session, app.roller
    assert all(b.disabled for b in roller.spend_buttons.values())  # nothing in play
    roller.difficulty.value = "30"  # nobody can reach 30: a sure failure
    roller.roll()
    assert 'data-n="1"' in roller.result.value and "failure" in roller.result.value
    assert s.current is not None and s.current.roller == "Ann"
    enabled = [m for m, b in roller.spend_buttons.items() if not b.disabled]
    # The dice are the session's own (unseeded here): a natural 1 turns a lucky point
    # unlucky, which lets the GM force a reroll too (ci18 met it, 1 roll in 20).
    expected = ["retry_with_lucky"] + (["gm_force_reroll"] if s.unlucky else [])
    assert enabled == s.available_spends() == expected
    roller.spend_buttons["retry_with_lucky"].click()
    assert 'data-n="2"' in roller.result.value
    assert "spends a lucky point" in roller.result.value
    assert s.log[-1].move == "retry_with_lucky" and "seed" in s.log[-1].args
    assert f'data-lucky="{s.lucky}"' in app.pool.view.value
    # Ann has now spent on this check: the GM can no longer force a reroll of it.
    assert roller.spend_buttons["gm_force_reroll"].disabled


def test_strain_until_a_wound_and_undo() -> None:
    app = PlotPointsApp(["Ann", "Bob"])
    panel = app._panels["Ann"]
    assert panel.heal_button.disabled and app.history.undo_button.disabled
    for _ in range(4):
        panel.strain_button.click()
    assert 'data-wounds="1"' in panel.view.value and "Exhausted" in panel.view.value
    assert not panel.heal_button.disabled
    app.history.undo()
    assert 'data-strain="3"' in panel.view.value and 'data-wounds="0"' in panel.view.value
    assert panel.heal_button.disabled
    app.session.gain_wounds("Ann", 16)
    assert panel.wound_button.disabled


def test_add_player_refusals_under_the_box_and_load_saved_table() -> None:
    app = PlotPointsApp(["Ann"])
    add = find_widget(app, "add-player", "btn")
    assert app.new_player.refusal.message == ""  # nothing typed yet: nothing refused
    add.click()
    assert "name must be 1 to 40 characters (none given)" in app.new_player.refusal.message
    app.new_player.value = "Cy"
    press_enter(app.new_player.control)
    assert [p.character_name for p in app.characters.children] == ["Ann", "Cy"]
    assert app.session.lucky == 3 and app.new_player.text == ""
    app.new_player.value = "Ann"
    add.click()
    assert "already at the table" in app.new_player.refusal.message
    assert "already at the table" in app.error.message
    app.new_player.value = "x" * 5000
    add.click()
    assert "too long (5,000 characters): at most 40" in app.new_player.refusal.message
    assert app.session.players == ["Ann", "Cy"] and app.new_player.text == "x" * 5000
    saved = app.session.to_json()
    app.session.gain_wounds("Cy", 5)
    part = next(w for w in app.history.children if isinstance(w, SaveLoad))
    part.load_box.value = saved
    part.load_button.click()
    assert app.session.character("Cy").wounds == 0 and part.error.message == ""
    part.load_box.value = json.dumps({"tracker": "PlotPointSession"})
    part.load_button.click()
    assert "missing field" in part.error.message
    part.load_box.value = "{"
    part.load_button.click()
    message = part.error.message
    assert "not valid JSON" in message and "Expecting" not in message
    assert "PlotPointSession" not in message
    assert app.session.character("Cy").wounds == 0


def test_the_log_shows_the_newest_moves_only() -> None:
    tracker = PlotPointSession.new(["Ann"], "GM")
    panel = PlotPointLogPanel(tracker)
    for _ in range(60):
        tracker.gain_strain("Ann")
    assert panel.view.value.count("<li") == 50
    assert "10 earlier moves" in panel.view.value
    # An app opened without a campaign keeps what a campaign keeps (its unsaved session,
    # issue 28): the newest UNDO_LIMIT moves, all shown.
    app = PlotPointsApp(["Ann"])
    for _ in range(60):
        app.session.gain_strain("Ann")
    assert app.history.view.value.count("<li") == UNDO_LIMIT


def test_notebook_is_a_few_lines() -> None:
    nb = json.loads((Path(__file__).parents[2] / "widgets" / "plot_points.ipynb").read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert len(code) == 1 and len("".join(code[0]["source"]).splitlines()) <= 5


def test_spend_buttons_are_explained_on_the_page_not_only_on_hover() -> None:
    roller = PlotPointsApp(["Ash"]).roller
    labels = [b.description for b in roller.children[5].children]
    assert labels[0] == "Roll check" and len(labels) == 5
    for label in labels[1:]:
        assert f"<b>{label}</b>: " in roller.spend_help.value
    assert "retry a failed check" in roller.spend_help.value
    # The explanations are the session's own words, one per plot-point move.
    for move, text in SPEND_RULES.items():
        assert html.escape(text) in roller.spend_help.value, move
    assert tuple(SPEND_RULES) == PlotPointSession.SPENDS


def test_the_ability_list_is_one_piece_of_data_for_app_site_and_rules() -> None:
    """The 004 ability strengths exist once (the lookup data); app, site and CLI read it."""
    app = PlotPointsApp(["Ash"])
    assert tuple(app.roller.ability.options) == ABILITIES == ("weak", "average", "strong")
    assert tuple(app._panels["Ash"].fortitude.options) == ABILITIES
    page = plot_reference.success_chances_page()
    header = next(line for line in page.splitlines() if line.startswith("| difficulty |"))
    assert [cell.split(" (")[0].strip() for cell in header.strip("|").split("|")[1:]] == list(
        ABILITIES)
    for ability in ABILITIES:
        assert f"| {ability} | `{plot_points.ABILITY_DICE[ability]}` |" in page
        assert f"*{ability}*" in (plot_points.__doc__ or "")  # the rules text names each
