"""Psychosis tracker, move by move, including the moves the rules refuse."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError, StateError, TableError
from companion.rulesets.miasma.psychosis import MiasmaTracker, levels, load_levels


def party(**kw) -> MiasmaTracker:
    t = MiasmaTracker()
    t.add_character("Vel", **kw)
    return t


def refused(t: MiasmaTracker, call, match: str) -> None:
    before = t.to_json()
    with pytest.raises(RuleError, match=match):
        call()
    assert t.to_json() == before


def test_six_levels_with_cumulative_effects_and_always_poisoned() -> None:
    assert [lv.level for lv in levels()] == [1, 2, 3, 4, 5, 6]
    t = party()
    vel = t.character("Vel")
    assert vel.effects() == [] and not vel.poisoned
    t.gain_psychosis("Vel", 2, "an aberration's bite")
    vel = t.character("Vel")
    assert vel.level == 2 and vel.poisoned
    assert vel.effects() == [levels()[0].effect, levels()[1].effect]
    assert "speed is halved" in vel.effects()[1]
    assert t.log[-1].summary == (
        "Vel: an aberration's bite gives 2 levels of psychosis (level 0 → 2)")


def test_levels_stop_at_six() -> None:
    t = party(level=5)
    t.gain_psychosis("Vel", 3)
    assert t.character("Vel").level == 6 and t.character("Vel").aberration
    t.gain_psychosis("Vel", 1)
    assert t.character("Vel").level == 6
    assert "stays at level 6" in t.log[-1].summary


def test_stress_two_adds_a_level_every_24_hours_inside() -> None:
    t = party(stress=2, inside=True)
    t.pass_time(23)
    assert t.character("Vel").level == 0
    t.pass_time(1)
    assert t.character("Vel").level == 1
    t.pass_time(48)
    assert t.character("Vel").level == 3 and t.day == 4


def test_stress_four_adds_two_levels_a_day() -> None:
    t = party(stress=4, inside=True)
    t.pass_time(24)
    assert t.character("Vel").level == 2
    t.set_stress("Vel", 3)
    t.pass_time(24)
    assert t.character("Vel").level == 3


def test_low_stress_or_outside_the_miasma_adds_nothing_and_resets_the_count() -> None:
    t = party(stress=1, inside=True)
    t.pass_time(100)
    assert t.character("Vel").level == 0
    t.set_stress("Vel", 2)
    t.pass_time(20)
    t.leave_miasma("Vel")
    t.enter_miasma("Vel")
    t.pass_time(20)
    assert t.character("Vel").level == 0  # the 20 hours before leaving do not count
    t.pass_time(4)
    assert t.character("Vel").level == 1
    t.set_stress("Vel", 1)
    t.set_stress("Vel", 2)
    t.pass_time(23)
    assert t.character("Vel").level == 1


def test_long_rest_needs_outside_and_food_and_uses_the_meal() -> None:
    t = party(level=3, inside=True)
    t.eat_and_drink("Vel")
    t.long_rest("Vel")
    assert t.character("Vel").level == 3 and "inside the Miasma" in t.log[-1].summary
    t.leave_miasma("Vel")
    t.long_rest("Vel")
    assert t.character("Vel").level == 3 and "without food" in t.log[-1].summary
    t.eat_and_drink("Vel")
    t.long_rest("Vel")
    assert t.character("Vel").level == 2
    assert not t.character("Vel").fed
    t.eat_and_drink("Vel")
    refused(t, lambda: t.eat_and_drink("Vel"), "already eaten")


def test_cures_and_level_six() -> None:
    t = party(level=2)
    t.greater_restoration("Vel")
    t.raised_from_dead("Vel")
    assert t.character("Vel").level == 0
    refused(t, lambda: t.greater_restoration("Vel"), "no psychosis to remove")
    t.gain_psychosis("Vel", 6)
    refused(t, lambda: t.greater_restoration("Vel"), "cannot help Vel at level 6")
    refused(t, lambda: t.remove_psychosis("Vel", 2, "a potion"), "a potion cannot help")
    refused(t, lambda: t.raised_from_dead("Vel"), "only reincarnate or true resurrection")
    t.eat_and_drink("Vel")
    t.long_rest("Vel")
    assert t.character("Vel").level == 6 and "beyond a rest" in t.log[-1].summary
    t.raised_from_dead("Vel", "true resurrection")
    assert t.character("Vel").level == 5
    t.gain_psychosis("Vel")
    t.raised_from_dead("Vel", "reincarnate")
    assert t.character("Vel").level == 5
    t.remove_psychosis("Vel", 6, "a wish")
    assert t.character("Vel").level == 0 and t.character("Vel").effects() == []


def test_refused_moves() -> None:
    t = party()
    refused(t, lambda: t.add_character("Vel"), "already tracked")
    refused(t, lambda: t.add_character("  "), "needs a name")
    refused(t, lambda: t.gain_psychosis("Nobody"), "no character named 'Nobody'")
    refused(t, lambda: t.gain_psychosis("Vel", 0), "levels must be a whole number from 1")
    refused(t, lambda: t.set_stress("Vel", -1), "stress must be")
    refused(t, lambda: t.leave_miasma("Vel"), "not inside")
    refused(t, lambda: t.pass_time(0), "hours must be")
    refused(t, lambda: t.raised_from_dead("Vel", "necromancy"), "unknown way back")
    t.enter_miasma("Vel")
    refused(t, lambda: t.enter_miasma("Vel"), "already inside")


def test_party_over_days_round_trips_and_undoes() -> None:
    t = MiasmaTracker()
    t.add_character("Vel", stress=2, inside=True)
    t.add_character("Oro", stress=5, inside=True)
    t.add_character("Pim")
    t.pass_time(24)
    assert [c.level for c in t.characters] == [1, 2, 0]
    assert "Vel level 0 → 1, Oro level 0 → 2" in t.log[-1].summary
    copy = MiasmaTracker.from_json(t.to_json())
    assert copy == t and copy.log == t.log
    t.undo()
    assert [c.level for c in t.characters] == [0, 0, 0] and t.hours == 0


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [(("characters", 0, "level"), 7, "characters\\[0\\].level' must be from 0 to 6"),
     (("characters", 0, "inside"), "yes", "characters\\[0\\].inside' must be true or false"),
     (("characters", 0, "clock"), 30, "clock"),
     (("hours",), -2, "'hours' must be from 0 to"),
     # One case per invariant (Character.check_state, MiasmaTracker.check_state, limits):
     (("characters", 0, "name"), "", "characters\\[0\\].*'name' must be a name"),
     (("characters", 0, "name"), " Vel", "characters\\[0\\].*'name' must be a name"),
     (("characters", 0, "name"), "V" * 41, "characters\\[0\\].name' holds 41 characters"),
     (("characters", 0, "stress"), 100, "characters\\[0\\].stress' must be from 0 to 99"),
     (("characters", 0, "clock"), 5, "characters\\[0\\].*'clock' must be 0 unless"),
     (("hours",), 10**12, "'hours' must be from 0 to"),
     (("characters",), [{"name": f"C{i}", "level": 0, "stress": 0, "inside": False,
                         "clock": 0, "fed": False} for i in range(51)],
      "'characters' holds 51 items")],
)
def test_corrupt_state_names_the_field(path, value, message) -> None:
    data = json.loads(party().to_json())
    target = data["state"]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(StateError, match=message):
        MiasmaTracker.from_json(json.dumps(data))


def test_a_running_clock_inside_with_stress_loads() -> None:
    t = party(stress=2, inside=True)
    t.pass_time(5)
    assert t.characters[0].clock == 5
    assert MiasmaTracker.from_json(t.to_json()) == t


def test_move_availability_matches_the_moves() -> None:
    t = party()
    names = ("enter_miasma", "leave_miasma", "eat_and_drink", "greater_restoration",
             "raised_from_dead")
    assert [n for n in names if t.can(n, "Vel")] == ["enter_miasma", "eat_and_drink",
                                                     "raised_from_dead"]
    t.gain_psychosis("Vel", 6)
    assert not t.can("raised_from_dead", "Vel") and t.can("raised_from_dead", "Vel",
                                                            "reincarnate")
    for name in names:
        allowed = t.can(name, "Vel")
        try:
            getattr(t, name)("Vel")
        except RuleError:
            assert not allowed, name
        else:
            assert allowed, name
            t.undo()


def test_duplicate_names_in_saved_state_are_refused() -> None:
    data = json.loads(party().to_json())
    data["state"]["characters"].append(dict(data["state"]["characters"][0]))
    with pytest.raises(StateError, match="names a character twice"):
        MiasmaTracker.from_json(json.dumps(data))


@settings(max_examples=60, deadline=None)
@given(stress=st.integers(0, 6), chunks=st.lists(st.integers(1, 40), max_size=12))
def test_daily_gain_matches_whole_days_inside(stress, chunks) -> None:
    t = party(stress=stress, inside=True)
    for hours in chunks:
        t.pass_time(hours)
    per_day = 0 if stress < 2 else 1 if stress < 4 else 2
    assert t.character("Vel").level == min(6, per_day * (sum(chunks) // 24))


@pytest.mark.parametrize(
    ("text", "message"),
    [("title = 'x'\n", "^psychosis.toml: missing levels$"),
     ("[[levels]]\nlevel = 1\n", "missing levels\\[0\\]\\.effect"),
     ("[[levels]]\nlevel = true\neffect = 'x'\n",
      "levels\\[0\\]\\.level must be a whole number, not true or false"),
     ("[[levels]]\nlevel = 1\neffect = ' '\n", "levels\\[0\\].effect is empty"),
     ("[[levels]]\nlevel = 2\neffect = 'x'\n", "levels 1 to 6 in order"),
     ("[[levels", "^psychosis.toml: not valid TOML \\(.*end of document")],
)
def test_malformed_psychosis_table_is_refused(tmp_path, text, message) -> None:
    path = tmp_path / "psychosis.toml"
    path.write_text(text)
    with pytest.raises(TableError, match=message):
        load_levels(path)


MIASMA_MOVES = st.lists(st.tuples(
    st.sampled_from(["gain", "stress", "enter", "leave", "eat", "rest", "restore", "raise",
                     "time"]),
    st.integers(0, 30), st.sampled_from(["Vel", "Oro"])), max_size=40)


@settings(max_examples=60, deadline=None)
@given(moves=MIASMA_MOVES)
def test_any_play_keeps_the_invariants_and_round_trips(moves) -> None:
    t = MiasmaTracker()
    t.add_character("Vel")
    t.add_character("Oro", stress=3)
    calls = {
        "gain": lambda n, k: t.gain_psychosis(n, 1 + k % 6),
        "stress": lambda n, k: t.set_stress(n, k % 6),
        "enter": lambda n, k: t.enter_miasma(n), "leave": lambda n, k: t.leave_miasma(n),
        "eat": lambda n, k: t.eat_and_drink(n), "rest": lambda n, k: t.long_rest(n),
        "restore": lambda n, k: t.greater_restoration(n),
        "raise": lambda n, k: t.raised_from_dead(n, RAISED[k % 3]),
        "time": lambda n, k: t.pass_time(1 + k),
    }
    for name, k, who in moves:
        with contextlib.suppress(RuleError):
            calls[name](who, k)
        t.validate()  # every state a move reaches is one the save check accepts
    assert MiasmaTracker.from_json(t.to_json()) == t


RAISED = ("other", "reincarnate", "true resurrection")


def test_issue15_app_removes_n_levels_and_passes_any_hours() -> None:
    from companion.widgets.miasma.tracker import MiasmaTrackerApp
    from tests.conftest import widgets_by_name

    app = MiasmaTrackerApp()
    app.model.add_character("Ann", level=5, stress=2, inside=True)
    app.who.value = "Ann"
    app.levels_box.value = 3
    app.gated["remove_psychosis"].click()
    assert app.model.character("Ann").level == 2 and app.error.message == ""
    app.hours_box.value = 50  # two days and 2 hours at stress 2: +2 levels
    widgets_by_name(app, kind="btn")["time-n"].click()
    assert (app.model.hours, app.model.character("Ann").level) == (50, 4)
    app.model.gain_psychosis("Ann", 2)
    app.render()
    assert app.gated["remove_psychosis"].disabled  # level 6: only the two spells help


def test_issue15_a_return_in_the_death_app_lowers_psychosis() -> None:
    from companion.rulesets.miasma.psychosis import MiasmaTracker, raised_by
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.widgets.variant5e import DeathAndReturningApp

    tracker = MiasmaTracker()
    tracker.add_character("Ann", level=3)
    record = DeathRecord(fragile_soul=False)
    record.die()
    app = DeathAndReturningApp(record, seed_source=lambda: 1, psychosis=(tracker, "Ann"))
    app.spell.value = "raise dead"
    app.buttons["return"].click()
    assert record.condition == "alive" and tracker.character("Ann").level == 2
    assert [raised_by(s) for s in ("reincarnate", "true resurrection", "revivify", "wish")] == [
        "reincarnate", "true resurrection", "other", "other"]
    tracker.gain_psychosis("Ann", 4)  # level 6: an ordinary return does not help
    record.die()
    app.buttons["return"].click()
    assert record.condition == "alive" and tracker.character("Ann").level == 6
