"""PlotPointSession move by move: plot points, naturals, retries, strain, wounds, rests, saving."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.errors import RuleError, StateError
from companion.rulesets.plot_points import PlotCheck, PlotPointSession


def seed_where(check: PlotCheck, wanted: Callable[[object], bool]) -> int:
    """First seed whose roll of ``check`` satisfies ``wanted`` (the session rolls the same)."""
    for seed in range(100_000):
        if wanted(check.roll(seed=seed)):
            return seed
    raise AssertionError("no such seed")


AVG = PlotCheck("average", 0, 0, 10)
FAIL = seed_where(AVG, lambda r: not r.success and not r.natural_one)  # type: ignore[attr-defined]
PASS = seed_where(AVG, lambda r: r.success and not r.natural_twenty)  # type: ignore[attr-defined]
NAT1 = seed_where(AVG, lambda r: r.natural_one)  # type: ignore[attr-defined]
NAT20 = seed_where(AVG, lambda r: r.natural_twenty)  # type: ignore[attr-defined]


def table(unlucky: int = 0) -> PlotPointSession:
    s = PlotPointSession.new(["Ann", "Bob"])
    s.lucky, s.unlucky = 3 - unlucky, unlucky
    return s


def pool(s: PlotPointSession) -> tuple[int, int]:
    return s.lucky, s.unlucky


def test_new_table_has_one_lucky_point_per_player_and_gm() -> None:
    s = PlotPointSession.new(["Ann", "Bob", "Cy"], gm="Dee")
    assert (s.size, s.lucky, s.unlucky, s.players) == (4, 4, 0, ["Ann", "Bob", "Cy"])
    with pytest.raises(RuleError, match="already at the table"):
        PlotPointSession.new(["Ann", "Ann"])
    with pytest.raises(RuleError, match="name must be"):
        PlotPointSession.new([" "])


def test_players_join_and_leave() -> None:
    s = table(unlucky=3)
    s.add_player("Cy")
    assert pool(s) == (1, 3)
    s.remove_player("Ann")
    assert pool(s) == (0, 3)
    s.remove_player("Bob")
    assert pool(s) == (0, 2) and s.players == ["Cy"]
    with pytest.raises(RuleError, match="no player named 'Zed'"):
        s.remove_player("Zed")
    with pytest.raises(RuleError, match="already at the table"):
        s.add_player("GM")


def test_plain_check_sets_check_in_play() -> None:
    s = table()
    outcome = s.roll_check("Ann", seed=FAIL)
    assert outcome.result.success is False and pool(s) == (3, 0)
    assert s.current is not None and s.current.roller == "Ann" and s.current.rolls == 1
    assert s.log[-1].summary == str(outcome)
    with pytest.raises(RuleError, match="no player named"):
        s.roll_check("Zed", seed=1)
    assert len(s.log) == 1


def test_natural_one_turns_a_lucky_point() -> None:
    s = table()
    outcome = s.roll_check("Ann", seed=NAT1)
    assert pool(s) == (2, 1)
    assert "natural 1: a lucky plot point turns unlucky" in outcome.notes
    s = table(unlucky=3)
    outcome = s.roll_check("Ann", seed=NAT1)
    assert pool(s) == (0, 3) and "no lucky plot point to turn" in outcome.notes[0]


def test_natural_twenty_turns_an_unlucky_point() -> None:
    s = table(unlucky=1)
    s.roll_check("Bob", seed=NAT20)
    assert pool(s) == (3, 0)
    s = table()
    outcome = s.roll_check("Bob", seed=NAT20)
    assert pool(s) == (3, 0) and "no unlucky plot point" in outcome.notes[0]


def test_natural_applies_to_gm_checks_too() -> None:
    s = table()
    s.roll_check("GM", seed=NAT1)
    assert pool(s) == (2, 1)


def test_retry_with_lucky_only_after_failure() -> None:
    s = table()
    with pytest.raises(RuleError, match="no check in play"):
        s.retry_with_lucky(seed=1)
    s.roll_check("Ann", seed=PASS)
    with pytest.raises(RuleError, match="retries a failed check"):
        s.retry_with_lucky(seed=1)
    s.roll_check("Ann", seed=FAIL)
    outcome = s.retry_with_lucky(seed=FAIL)
    assert outcome.action == "Ann spends a lucky point to retry"
    assert pool(s) == (2, 1)
    assert s.current is not None and (s.current.rolls, s.current.roller_spent) == (2, 1)
    # Interpretation: retries chain while lucky points remain.
    s.retry_with_lucky(seed=FAIL)
    s.retry_with_lucky(seed=FAIL)
    assert pool(s) == (0, 3)
    with pytest.raises(RuleError, match="no lucky plot point"):
        s.retry_with_lucky(seed=FAIL)
    assert pool(s) == (0, 3) and s.current.rolls == 4


def test_reroll_with_unlucky_only_after_success() -> None:
    s = table(unlucky=1)
    s.roll_check("Bob", seed=FAIL)
    with pytest.raises(RuleError, match="rerolls a successful check"):
        s.reroll_with_unlucky(seed=1)
    s.roll_check("Bob", seed=PASS)
    s.reroll_with_unlucky(seed=FAIL)
    assert pool(s) == (3, 0)
    s.roll_check("Bob", seed=PASS)
    with pytest.raises(RuleError, match="no unlucky plot point"):
        s.reroll_with_unlucky(seed=1)


def test_gm_spends_unlucky_on_own_checks_either_way() -> None:
    s = table(unlucky=2)
    s.roll_check("GM", seed=PASS)
    s.gm_reroll(seed=FAIL)
    s.gm_reroll(seed=PASS)
    assert pool(s) == (3, 0)
    with pytest.raises(RuleError, match="no unlucky"):
        s.gm_reroll(seed=1)
    s.roll_check("GM", seed=FAIL)
    with pytest.raises(RuleError, match="GM spends unlucky points, not lucky"):
        s.retry_with_lucky(seed=1)
    s.roll_check("Ann", seed=PASS)
    with pytest.raises(RuleError, match="only by forcing"):
        s.gm_reroll(seed=1)


def test_gm_forces_a_reroll_only_if_player_spent_nothing() -> None:
    s = table(unlucky=2)
    s.roll_check("Ann", seed=PASS)
    outcome = s.gm_force_reroll(seed=FAIL)
    assert outcome.action == "GM spends an unlucky point to force a reroll"
    assert pool(s) == (2, 1) and s.current is not None and s.current.gm_forced == 1
    s.retry_with_lucky(seed=FAIL)  # the player answers with a lucky point
    assert pool(s) == (1, 2)
    with pytest.raises(RuleError, match="Ann has used plot points on this check"):
        s.gm_force_reroll(seed=1)
    s.roll_check("GM", seed=PASS)
    with pytest.raises(RuleError, match="own check with gm_reroll"):
        s.gm_force_reroll(seed=1)


def test_end_check_closes_spending() -> None:
    s = table()
    s.roll_check("Ann", seed=FAIL)
    s.end_check()
    with pytest.raises(RuleError, match="no check in play"):
        s.retry_with_lucky(seed=1)


def test_strain_converts_every_four_with_remainder() -> None:
    s = table()
    s.gain_strain("Ann", 3)
    assert (s.character("Ann").strain, s.character("Ann").wounds) == (3, 0)
    s.gain_strain("Ann", 2)
    assert (s.character("Ann").strain, s.character("Ann").wounds) == (1, 1)
    s.gain_strain("Ann", 11)
    assert (s.character("Ann").strain, s.character("Ann").wounds) == (0, 4)
    with pytest.raises(RuleError, match="from 1 to 100"):
        s.gain_strain("Ann", 0)


@pytest.mark.parametrize(
    ("wounds", "condition", "on_pass", "on_fail"),
    [(0, "Unhurt", 0, 0), (4, "Exhausted", 0, 0), (5, "Injured", 0, 1), (8, "Injured", 0, 1),
     (9, "Severely Injured", 1, 1), (12, "Severely Injured", 1, 1), (13, "Dying", 1, 2),
     (15, "Dying", 1, 2), (16, "Near-Death Experience", 1, 2)],
)
def test_wound_tiers_add_strain_on_checks(wounds: int, condition: str, on_pass: int,
                                          on_fail: int) -> None:
    for seed, gained in ((PASS, on_pass), (FAIL, on_fail)):
        s = table()
        if wounds:
            s.gain_wounds("Ann", wounds)
        assert s.character("Ann").condition == condition
        s.roll_check("Ann", seed=seed)
        assert s.character("Ann").strain == gained


def test_dying_strain_turns_into_wounds_during_checks() -> None:
    s = table()
    s.gain_wounds("Bob", 13)
    s.gain_strain("Bob", 2)
    outcome = s.roll_check("Bob", seed=FAIL)
    assert (s.character("Bob").strain, s.character("Bob").wounds) == (0, 14)
    assert any("strain becomes 1 wound" in n for n in outcome.notes)


def test_near_death_is_the_sixteenth_wound_and_the_last() -> None:
    s = table()
    s.gain_wounds("Ann", 15)
    assert s.character("Ann").condition == "Dying"
    s.gain_wounds("Ann", 3)
    assert s.character("Ann").wounds == 16
    assert s.character("Ann").condition == "Near-Death Experience"
    assert "beyond 16 ignored" in s.log[-1].summary
    with pytest.raises(RuleError, match="near-death"):
        s.gain_wounds("Ann")
    s.gain_strain("Ann", 5)  # Interpretation: conversions past 16 are lost
    assert (s.character("Ann").strain, s.character("Ann").wounds) == (1, 16)


def test_heal_wounds() -> None:
    s = table()
    s.gain_wounds("Ann", 2)
    s.heal_wounds("Ann")
    assert s.character("Ann").wounds == 1
    with pytest.raises(RuleError, match="only 1 wound"):
        s.heal_wounds("Ann", 2)


def test_long_rest_clears_strain_and_checks_each_wound() -> None:
    s = table()
    s.gain_wounds("Ann", 6)
    s.gain_strain("Ann", 3)
    before = pool(s)
    results = s.long_rest("Ann", difficulty=12, ability="strong", proficiency=1, seed=8)
    assert len(results) == 6
    assert all(r.check == PlotCheck("strong", 1, 0, 12) for r in results)
    healed = sum(1 for r in results if r.success)
    assert s.character("Ann").wounds == 6 - healed and s.character("Ann").strain == 0
    assert pool(s) == before  # recovery checks do not turn points over
    again = table()
    again.gain_wounds("Ann", 6)
    again.gain_strain("Ann", 3)
    assert [r.total for r in again.long_rest("Ann", 12, "strong", 1, seed=8)] == [
        r.total for r in results]
    # The seed is one generator for the six checks, in order (other seeds, other checks).
    import random

    rng = random.Random(8)
    assert [r.total for r in results] == [
        PlotCheck("strong", 1, 0, 12).roll(rng=rng).total for _ in range(6)]
    other = table()
    other.gain_wounds("Ann", 6)
    assert [r.total for r in other.long_rest("Ann", 12, "strong", 1, seed=9)] != [
        r.total for r in results]
    s.long_rest("Bob", seed=1)
    assert "no wounds to check" in s.log[-1].summary


def test_undo_takes_back_a_check_and_its_consequences() -> None:
    s = table()
    s.gain_wounds("Ann", 12)
    s.gain_strain("Ann", 3)
    s.roll_check("Ann", seed=NAT1)
    assert pool(s) == (2, 1) and s.character("Ann").wounds == 13
    s.undo()
    assert pool(s) == (3, 0) and s.character("Ann").wounds == 12
    assert s.character("Ann").strain == 3 and s.current is None


# -- saving -------------------------------------------------------------------------------

MOVES = st.lists(
    st.tuples(st.sampled_from(["check", "gm", "retry", "reroll", "force", "strain", "wound",
                               "rest", "undo", "end"]),
              st.integers(0, 10_000), st.sampled_from(["Ann", "Bob"])),
    max_size=25,
)


def play(s: PlotPointSession, name: str, seed: int, who: str) -> None:
    if name == "check":
        s.roll_check(who, "weak", 1, 2, 12, seed=seed)
    elif name == "gm":
        s.roll_check("GM", seed=seed)
    elif name == "retry":
        s.retry_with_lucky(seed=seed)
    elif name == "reroll":
        s.reroll_with_unlucky(seed=seed)
    elif name == "force":
        s.gm_force_reroll(seed=seed)
    elif name == "strain":
        s.gain_strain(who, seed % 7 + 1)
    elif name == "wound":
        s.gain_wounds(who, seed % 5 + 1)
    elif name == "rest":
        s.long_rest(who, seed=seed)
    elif name == "undo":
        s.undo()
    else:
        s.end_check()


@settings(max_examples=60, deadline=None)
@given(moves=MOVES)
def test_json_round_trip_after_any_play(moves: list[tuple[str, int, str]]) -> None:
    s = table()
    for name, seed, who in moves:
        with contextlib.suppress(RuleError):
            play(s, name, seed, who)
        s.validate()
        assert s.lucky + s.unlucky == s.size
    loaded = PlotPointSession.from_json(s.to_json())
    assert loaded == s and loaded.log == s.log and loaded.to_json() == s.to_json()
    while loaded.can_undo:
        loaded.undo()
    assert loaded == table()


def corrupt(change: Callable[[dict], None]) -> str:  # type: ignore[type-arg]
    s = table()
    s.gain_wounds("Ann", 2)
    s.roll_check("Ann", seed=FAIL)
    data = json.loads(s.to_json())
    change(data)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("{", "not valid JSON"),
        (corrupt(lambda d: d["state"].update(lucky="3")), "'lucky' must be a whole number"),
        (corrupt(lambda d: d["state"].update(lucky=-1)), "'lucky' must be from 0 to 51"),
        (corrupt(lambda d: d["state"].update(lucky=5)), "'lucky' \\+ 'unlucky' must equal"),
        (corrupt(lambda d: d["state"]["characters"][0].update(strain=4)),
         "'characters\\[0\\].strain' must be from 0 to 3"),
        (corrupt(lambda d: d["state"]["characters"][0].update(wounds=17)),
         "'characters\\[0\\].wounds' must be from 0 to 16"),
        (corrupt(lambda d: d["state"]["current"].update(natural=21)),
         "'current.natural' must be from 1 to 20"),
        (corrupt(lambda d: d["state"]["current"].update(ability="mighty")),
         "'current.ability' must be one of"),
        (corrupt(lambda d: d["state"]["current"].update(roller="Zed")), "'current.roller'"),
        (corrupt(lambda d: d["state"].update(mood=1)), "unknown field 'mood'"),
        (corrupt(lambda d: d["state"]["characters"][1].pop("name")),
         "missing field 'characters\\[1\\].name'"),
        (corrupt(lambda d: d["state"]["current"].pop("natural")),
         "missing field 'current.natural'"),
        (corrupt(lambda d: d["log"][0]["before"].update(unlucky=9)),
         "log\\[0\\].before"),
        # Every invariant, also inside the nested records and the undo snapshots:
        (corrupt(lambda d: d["state"].update(gm=" ")), "'gm' must be a name"),
        (corrupt(lambda d: d["state"].update(gm="G" * 41)), "'gm' holds 41 characters"),
        (corrupt(lambda d: d["state"]["characters"][0].update(name="A" * 41)),
         "'characters\\[0\\].name' holds 41 characters"),
        (corrupt(lambda d: d["state"]["characters"][0].update(name="")),
         "characters\\[0\\].*'name' must be a name"),
        (corrupt(lambda d: d["state"]["characters"][1].update(name="Ann")), "repeats a name"),
        (corrupt(lambda d: d["state"]["characters"][1].update(name="GM")), "repeats a name"),
        (corrupt(lambda d: d["state"]["current"].update(total=99)),
         "current.*'total' 99 is not a possible result of 1d20"),
        (corrupt(lambda d: d["state"]["current"].update(success=True)),
         "current.*'success' must say whether"),
        (corrupt(lambda d: d["state"]["current"].update(advantage=500)),
         "'current.advantage' must be from -99 to 99"),
        (corrupt(lambda d: d["state"]["current"].update(difficulty=10**6)),
         "'current.difficulty' must be from -1000 to 1000"),
        (corrupt(lambda d: d["state"]["current"].update(roller_spent=3)),
         "current.*count more rerolls than the 0 made"),
        (corrupt(lambda d: d["state"]["current"].update(rolls=3)),
         "'current.rolls': every reroll of a player's check is paid"),
        (corrupt(lambda d: d["state"]["current"].update(text="x" * 501)),
         "'current.text' holds 501 characters"),
        (corrupt(lambda d: d["state"].update(characters=[{"name": f"P{i}", "strain": 0,
                                                          "wounds": 0} for i in range(51)])),
         "'characters' holds 51 items"),
        (corrupt(lambda d: d["log"][-1]["before"]["characters"][0].update(strain=9)),
         "log\\[1\\].before.characters\\[0\\].strain"),
    ],
)
def test_corrupt_state_names_the_field(text: str, field: str) -> None:
    with pytest.raises(StateError, match=field):
        PlotPointSession.from_json(text)


def test_a_gm_check_with_player_spends_is_refused_on_load() -> None:
    s = table()
    s.roll_check("GM", seed=FAIL)
    data = json.loads(s.to_json())
    data["state"]["current"].update(rolls=2, roller_spent=1)
    with pytest.raises(StateError, match="the GM's own check has no player spends"):
        PlotPointSession.from_json(json.dumps(data))
    assert PlotPointSession.from_json(s.to_json()) == s  # the untouched save loads


def test_available_spends_follow_the_rules() -> None:
    s = table()
    assert s.available_spends() == []  # no check in play
    s.roll_check("Ann", seed=FAIL)
    assert s.available_spends() == ["retry_with_lucky"]  # no unlucky point yet
    s.retry_with_lucky(seed=FAIL)
    assert "gm_force_reroll" not in s.available_spends()  # Ann has spent on it
    s.roll_check("GM", seed=FAIL)
    assert s.available_spends() == ["gm_reroll"]
    for name in PlotPointSession.SPENDS:
        allowed = name in s.available_spends()
        try:
            getattr(s, name)(seed=1)
        except RuleError:
            assert not allowed, name
        else:
            assert allowed, name
            s.undo()


def test_a_retry_is_a_check_too() -> None:
    """Interpretation: each roll (retries included) can turn a point and adds wound strain."""
    s = table()
    s.gain_wounds("Ann", 9)  # Severely Injured: every check adds 1 strain
    s.roll_check("Ann", seed=FAIL)
    assert s.character("Ann").strain == 1 and pool(s) == (3, 0)
    outcome = s.retry_with_lucky(seed=NAT1)
    # The retry costs one lucky point, and its natural 1 turns another one over.
    assert pool(s) == (1, 2)
    assert "natural 1: a lucky plot point turns unlucky" in outcome.notes
    assert s.character("Ann").strain == 2


@pytest.mark.parametrize("text", ["{", "", "[1, 2]", '{"tracker": 1}', "x" * 100_000])
def test_a_refused_save_reads_for_a_player(text: str) -> None:
    with pytest.raises(StateError) as refused:
        PlotPointSession.from_json(text)
    message = str(refused.value)
    assert message.startswith("this plot-points table save"), message
    assert "PlotPointSession" not in message and "Expecting" not in message
    assert "\n" not in message and len(message) < 200
