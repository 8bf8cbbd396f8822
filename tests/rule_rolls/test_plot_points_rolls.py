"""Roll modes and own dice on every roll of the plot-points apps (issue 13): checks, spends,
contests and long rests, headless, with a GM and a player on one campaign."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.rulesets.plot_points import PlotCheck, PlotPointSession
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.widgets.base import InputError
from companion.widgets.plot_points import PlotPointsApp
from companion.widgets.rolls import RollControls
from tests.conftest import closure_roll, session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Campaign, Campaign]]:
    """The GM's and Ash's campaign objects over one store, with a plot-points table."""
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        gm.add("plot table", PlotPointSession.new(["Ash", "Bo"], "Mira"), role="minigame")
        gm.set_trust(own_dice=True)  # players may enter their own dice (issue 28: off by default)
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        yield gm, ash


def _app(campaign: Campaign, seeds: list[int] | None = None) -> PlotPointsApp:
    session = campaign.tracker("plot table", PlotPointSession)
    it = iter(seeds or [])
    return PlotPointsApp(session=session, table=session_of(campaign),
                         seed_source=lambda: next(it, 77))


def _page(campaign: Campaign, who: str, role: str) -> str:
    return json.dumps([e.to_dict() for e in campaign.visible_to(who, role)],
                      ensure_ascii=False)


def test_modes_are_offered_per_role_and_hidden_without_a_campaign(
        table: tuple[Campaign, Campaign]) -> None:
    gm, ash = table
    assert [v for _, v in _app(gm).roller.controls.mode.options] == ["public", "gm"]
    assert [v for _, v in _app(ash).roller.controls.mode.options] == \
        ["public", "blind", "self"]
    plain = PlotPointsApp(["Ash"])
    assert plain.roller.controls.mode.layout.display == "none"
    assert plain.roller.controls.faces.layout.display == "none"
    plain.roller.controls.own.value = True
    assert plain.roller.controls.faces.layout.display == ""


def test_a_blind_check_is_committed_off_the_table_and_only_the_gm_sees_it(
        table: tuple[Campaign, Campaign]) -> None:
    gm, ash = table
    app = _app(ash, seeds=[9001])
    roller = app.roller
    roller.controls.mode.value = "blind"
    assert all(b.disabled for b in roller.spend_buttons.values())
    roller.roll_button.click()
    assert roller.error.message == ""
    expected = str(PlotCheck("average", 0, 0, 10).roll(seed=9001))
    assert "Hidden roll committed" in roller.result.value
    assert expected not in roller.result.value
    assert app.session.current is None and app.session.log == ()  # not the check in play
    assert expected not in _page(ash, "Ash", "player")
    assert expected not in _page(ash, "Bo", "player")
    gm.refresh()
    assert f"Ash: {expected}" in _page(gm, "Mira", "gm")
    entry = gm.log(("roll",))[-1]
    assert entry.seed is None and "commitment" in entry.data
    reveal = gm.reveal(entry.seq)
    assert reveal.seed == 9001 and reveal.data["text"] == f"Ash: {expected}"


def test_the_gm_sees_a_gm_only_check_and_a_player_sees_their_self_check(
        table: tuple[Campaign, Campaign]) -> None:
    gm, ash = table
    app = _app(gm, seeds=[4])
    app.roller.controls.mode.value = "gm"
    app.roller.roll_button.click()
    expected = PlotCheck("average", 0, 0, 10).roll(seed=4)
    assert f'<span class="tc-total">{expected.total}</span>' in app.roller.result.value
    assert "off the table" in app.roller.result.value
    mine = _app(ash, seeds=[5])
    mine.roller.controls.mode.value = "self"
    mine.roller.roll_button.click()
    total = PlotCheck("average", 0, 0, 10).roll(seed=5).total
    assert f'<span class="tc-total">{total}</span>' in mine.roller.result.value


def test_a_public_check_logs_the_same_seed_in_the_roll_log_and_the_tracker(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    app = _app(ash, seeds=[31337])
    app.roller.roll_button.click()
    move = ash.log(("move",))[-1]
    roll = ash.log(("roll",))[-1]
    assert move.seed == roll.seed == 31337
    assert move.data["rolled"] is True
    assert roll.data["moves"] == [move.seq] and roll.data["rule"] is True
    assert app.session.current is not None  # a public check is in play: spends work
    assert str(PlotCheck("average", 0, 0, 10).roll(seed=31337)) in roll.data["text"]


def test_a_hand_entered_impossible_check_is_refused_under_the_box_and_nothing_is_logged(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    app = _app(ash)
    controls = app.roller.controls
    controls.own.value = True
    before = len(ash.log())
    controls.faces.value = "21"
    app.roller.roll_button.click()
    assert controls.faces.refusal.message == "die 1: a d20 shows 1 to 20, not 21"
    assert app.roller.error.message == "die 1: a d20 shows 1 to 20, not 21"
    assert len(ash.log()) == before and app.session.log == ()
    state = app.session.to_json()
    controls.faces.value = "14 3"  # one face too many: nothing stored, the table as before
    app.roller.roll_button.click()
    assert controls.faces.refusal.message == "2 dice entered, the roll used 1"
    assert len(ash.log()) == before and app.session.to_json() == state
    assert app.session.current is None
    controls.faces.value = ""
    app.roller.roll_button.click()
    assert "type the faces you rolled" in controls.faces.refusal.message
    controls.faces.value = "14"
    app.roller.roll_button.click()
    assert '<span class="tc-total">14</span>' in app.roller.result.value
    roll = ash.log(("roll",))[-1]
    assert roll.data["physical"] is True and roll.data["faces"] == [14] and roll.seed is None


def test_a_strong_check_takes_both_d20s_and_the_advantage_die_in_one_box() -> None:
    app = PlotPointsApp(["Ash"])
    roller = app.roller
    roller.ability.value = "strong"
    roller.advantage.value = 2
    assert roller.controls.faces.description == "Faces (d20, d20, then d6)"
    roller.controls.own.value = True
    roller.controls.faces.value = "3 17 5"
    outcome = roller.roll()
    assert outcome.result.total == 22 and outcome.result.natural == 17
    assert "own dice" in str(outcome)


def test_spends_run_through_the_controls_and_refuse_a_hidden_mode(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    app = _app(ash, seeds=[1, 2])
    roller = app.roller
    roller.difficulty.value = 30  # a sure failure: a lucky retry is allowed
    roller.roll_button.click()
    assert not roller.spend_buttons["retry_with_lucky"].disabled
    roller.controls.own.value = True
    roller.controls.faces.value = "20"
    roller.spend_buttons["retry_with_lucky"].click()
    assert "spends a lucky point" in roller.result.value
    assert ash.log(("roll",))[-1].data["label"] == "Ash: Retry (lucky)"
    roller.controls.mode.value = "self"
    assert all(b.disabled for b in roller.spend_buttons.values())
    with pytest.raises(Exception, match="plot points are spent in the open"):
        roller._spend("reroll_with_unlucky")()


def test_a_hidden_contest_moves_nothing_on_the_table(
        table: tuple[Campaign, Campaign]) -> None:
    gm, _ash = table
    app = _app(gm, seeds=[12])
    contest = app.contest
    contest.controls.mode.value = "gm"
    contest.who.value = "Mira"
    contest.opponent.value = "Orc"
    state = app.session.to_dict()["state"]
    contest.roll_button.click()
    assert contest.error.message == ""
    rng = random.Random(12)
    first, second = PlotCheck().roll(rng=rng), PlotCheck().roll(rng=rng)
    assert f"Mira {first.total} vs Orc {second.total}" in contest.result.value
    assert "rolled GM only, off the table" in contest.result.value
    assert app.session.to_dict()["state"] == state
    assert "Orc" not in _page(gm, "Ash", "player")
    contest.controls.mode.value = "public"
    contest.roll_button.click()
    # The seed, for the curious, under "details" (issue 31).
    assert "<summary>details</summary>seed 77</details>" in contest.result.value


def test_a_hidden_long_rest_heals_in_the_open_but_keeps_its_rolls_back(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    session = ash.tracker("plot table", PlotPointSession)
    session.gain_wounds("Ash", 2)
    app = _app(ash, seeds=[7_306_115_892_447])
    app.recovery.mode.value = "blind"
    panel = app._panels["Ash"]
    panel.rest_proficiency.value = 30  # both recovery checks succeed
    panel.rest_button.click()
    assert panel.error.message == ""
    assert session.character("Ash").wounds == 0  # the consequence everyone sees
    assert "Hidden roll committed" in panel.rest_result.value
    move = ash.log(("move",))[-1]
    assert move.seed is None and move.data["summary"].startswith("a hidden roll (blind)")
    assert "7306115892447" not in _page(ash, "Bo", "player")


def test_roll_controls_without_an_app(tmp_path: Path) -> None:
    controls = RollControls(hint="2d6")
    out = closure_roll(controls, "two dice", lambda rng: rng.randint(1, 6) + rng.randint(1, 6),
                       seed=5)
    rng = random.Random(5)
    assert out.value == rng.randint(1, 6) + rng.randint(1, 6) and out.seed == 5
    # The one path: an unsaved session of the controls' own logs it (entry 1, kept nowhere).
    assert (out.mode, out.entry, out.shown, out.physical) == ("public", 1, True, False)
    assert not controls.session_for().kept
    controls.own.value = True
    controls.faces.value = "6 6"
    two = closure_roll(controls, "two dice", lambda r: r.randint(1, 6) + r.randint(1, 6))
    assert two.value == 12
    controls.faces.value = "x"
    with pytest.raises(InputError, match="'x' is not a number a die shows"):
        closure_roll(controls, "two dice", lambda r: r.randint(1, 6))


def test_a_player_may_not_choose_the_seed_of_a_roll_they_cannot_see(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    controls = RollControls(session=session_of(ash), who="Ash", role="player")
    controls.mode.value = "blind"
    with pytest.raises(Exception, match="takes a fresh seed"):
        closure_roll(controls, "peek", lambda rng: rng.randint(1, 20), seed=3)
    out: Any = closure_roll(controls, "peek", lambda rng: rng.randint(1, 20))
    assert out.value is None and out.seed is None and not out.shown
    assert out.commitment and f"entry {out.entry}" in out.hidden_html()


def test_without_a_campaign_left_over_faces_undo_the_check() -> None:
    app = PlotPointsApp(["Ash"])
    controls = app.roller.controls
    controls.own.value = True
    controls.faces.value = "12 4"
    app.roller.roll_button.click()
    assert controls.faces.refusal.message == "2 dice entered, the roll used 1"
    assert app.session.log == () and app.session.current is None
    controls.faces.value = "12"
    app.roller.roll_button.click()
    assert app.session.current is not None and len(app.session.log) == 1


def test_a_move_given_the_roll_s_own_rng_records_the_roll_s_seed(
        table: tuple[Campaign, Campaign]) -> None:
    _gm, ash = table
    session = ash.tracker("plot table", PlotPointSession)
    controls = RollControls(session=session_of(ash), who="Ash", role="player",
                            seed_source=lambda: 2024)
    out = closure_roll(controls, "Ash: check", lambda rng: session.roll_check("Ash", rng=rng))
    move = ash.log(("move",))[-1]
    assert move.seed == out.seed == 2024
    assert out.value is not None
    assert out.value.result.total == PlotCheck().roll(seed=2024).total

    def two(rng: random.Random) -> Any:  # the roll's rng used first: still the roll's seed
        rng.random()
        return session.roll_check("Ash", rng=rng)

    closure_roll(controls, "Ash: check", two)
    assert ash.log(("move",))[-1].seed == 2024  # the roll's; its draws are in the fact
