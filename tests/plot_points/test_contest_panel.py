"""Issue 15: contests, strain and wounds in any amount, and recovery proficiency in the app."""

from __future__ import annotations

import random

from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.plot_points.session import PlotPointSession
from companion.widgets.plot_points import PlotPointsApp, StrainWoundsPanel
from companion.widgets.plot_points_contest import PlotContestPanel
from tests.conftest import widgets_by_name


def test_contest_panel_odds_then_roll() -> None:
    session = PlotPointSession.new(["Ann", "Bob"])
    panel = PlotContestPanel(session, seed_source=lambda: 8)
    assert list(panel.who.options) == ["Ann", "Bob", "GM"]
    panel.mine[0].value, panel.mine[1].value = "strong", 2
    panel.theirs[0].value = "weak"
    odds = PlotCheck("strong", 2).contest(PlotCheck("weak"))
    assert "2d20kh1 + 2 vs 2d20kl1" in panel.odds.value
    assert f"{float(odds.win) * 100:.2f}" in panel.odds.value
    panel.opponent.value = "Orc"
    widgets_by_name(panel, kind="btn")["contest"].click()
    rng = random.Random(8)
    first, second = PlotCheck("strong", 2).roll(rng=rng), PlotCheck("weak").roll(rng=rng)
    assert f'data-margin="{first.total - second.total}"' in panel.result.value
    panel.opponent.value = "Ann"
    widgets_by_name(panel, kind="btn")["contest"].click()
    assert panel.error.message == "Checks: a contest needs two different sides"
    panel.theirs[2].value = 500
    assert panel.roll_button.disabled
    assert panel.close_button.disabled  # a contest is not a check in play
    session.roll_check("Ann", seed=1)
    assert not panel.close_button.disabled
    panel.close_button.click()
    assert session.current is None and panel.close_button.disabled


def test_strain_wounds_amounts_and_recovery_proficiency() -> None:
    session = PlotPointSession.new(["Ann"])
    panel = StrainWoundsPanel(session, "Ann")
    b = widgets_by_name(panel, kind="btn")
    panel.amount.value = 9
    b["strain"].click()
    assert (session.character("Ann").wounds, session.character("Ann").strain) == (2, 1)
    panel.amount.value = 3
    b["wound"].click()
    b["heal"].click()
    assert session.character("Ann").wounds == 2
    panel.rest_proficiency.value, panel.rest_dc.value = 30, 10
    b["rest"].click()  # +30: every recovery check succeeds
    assert session.character("Ann").wounds == 0


def test_the_app_shows_the_contest() -> None:
    app = PlotPointsApp(["Ann"])
    assert isinstance(app.contest, PlotContestPanel) and app.contest in app.children
