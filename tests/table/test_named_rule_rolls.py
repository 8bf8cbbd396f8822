"""Issue 43: a rule roll that moves no tracker is a named act of plain data.

Each declared rule roll ([companion.rule_rolls][]) goes as the table's act ``rule`` (its
name, JSON arguments and lead): written to JSON and read back, it is judged by a fresh
session on a fresh campaign with the same sitting seed to the same result and the same
log entry (label, mode, text, seed and the recorded call). A seat that may not roll (a
spectator, a player choosing their own seed) is refused, and so are malformed arguments,
in one line, storing nothing. The widgets roll these through
``RollControls.run_rule``, which sends the same act.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rule_rolls import RuleCall
from companion.rulesets.cairn_srd import skills, social
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck
from companion.rulesets.monsters_and_magic.ability_checks import check_call as mm_check
from companion.rulesets.monsters_and_magic.group_checks import group_call
from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.plot_points.checks import check_call as pp_check
from companion.rulesets.plot_points.checks import contest_call as pp_contest
from companion.rulesets.variant5e.contests import Contest, Edge, Side
from companion.rulesets.variant5e.contests import contest_call as v5_contest
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Accepted, Act, Refused, RollSpec
from tests.conftest import session_of

RULESETS = ["plot_points", "cairn_srd", "variant5e", "monsters_and_magic"]
SERVER_SEED = "a4" * 32


def _calls() -> dict[str, RuleCall]:
    """One call of every rule declared, built by its ruleset's own helper."""
    return {
        "plot_points.checks.check": pp_check(PlotCheck("strong", 2, 1, 14), "Ann: "),
        "plot_points.checks.contest": pp_contest("Ann", PlotCheck("average", 1, 0),
                                                 "Bo", PlotCheck("weak", 0, -1)),
        "cairn_srd.skills.task": skills.task_call(3, 1, produces=True),
        "cairn_srd.social.social_check": social.social_call(1, social.dispositions()[1]),
        "cairn_srd.social.specialised_knowledge": RuleCall(
            "cairn_srd.social.specialised_knowledge", {}),
        "monsters_and_magic.ability_checks.check": mm_check(AbilityCheck(2, 12), "Bryn: "),
        "monsters_and_magic.group_checks.group": group_call(
            [AbilityCheck(1, 12), AbilityCheck(3, 12), AbilityCheck(-1, 12)]),
        "variant5e.contests.contest": v5_contest(Contest(
            "grapple", Side("Ash", "Athletics", 5, Edge.ADVANTAGE),
            Side("Orc", "Acrobatics", 3), "the orc is grappled")),
    }


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    # The sitting's server seed fixed (in play the server's own secret): with it and the
    # seat's client seed every derived seed, and so every die, is the same in two copies.
    monkeypatch.setattr("companion.store.campaign.new_server_seed", lambda: SERVER_SEED)
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _gm(store: Store, name: str) -> Session:
    gm = session_of(create(store, name, RULESETS, who="Mira", role="gm"))
    outcome = gm.perform(Act("", "client_seed", {"seed": "mira-device"}))
    assert isinstance(outcome, Accepted), outcome
    return gm


def _act(call: RuleCall, mode: str) -> Act:
    rule: dict[str, Any] = {"name": call.name, "args": dict(call.args)}
    if call.lead:
        rule["lead"] = call.lead
    return Act("", "rule", rule, RollSpec(mode, f"roll of {call.name}"))


def _campaign_id(store: Store, name: str) -> int:
    return store.get_campaign(name).id


def _entry(store: Store, name: str) -> dict[str, Any]:
    """The newest roll entry of campaign ``name``, without what differs between two honest
    copies (a hidden roll's nonce and so its commitment)."""
    events = store.events_since(_campaign_id(store, name), 0)
    roll = [e for e in events if e.kind == "roll"][-1]
    data = json.loads(json.dumps(roll.data))
    data.pop("commitment", None)
    if isinstance(data.get("secret"), dict):
        data["secret"].pop("nonce", None)
    return {"who": roll.who, "role": roll.role, "seed": roll.seed, "data": data}


def _declared() -> list[str]:
    from companion import rule_rolls

    _calls()  # every ruleset's rules declared (their modules imported)
    return sorted(rule_rolls._RULES)


def test_every_declared_rule_roll_is_covered_here() -> None:
    assert sorted(_calls()) == _declared()


@pytest.mark.parametrize("mode", ["public", "gm"])
@pytest.mark.parametrize("name", sorted(_calls()))
def test_a_named_rule_roll_round_trips_and_is_judged_again_the_same(
        store: Store, name: str, mode: str) -> None:
    call = _calls()[name]
    sent = Act.from_json(_act(call, mode).to_json())
    assert sent == _act(call, mode)

    first = _gm(store, "First").perform(sent)
    assert isinstance(first, Accepted), first
    second = _gm(store, "Second").perform(Act.from_json(sent.to_json()))
    assert isinstance(second, Accepted), second

    assert first.result == second.result and first.result is not None
    assert first.result == call.record(first.value)["result"]
    one, two = _entry(store, "First"), _entry(store, "Second")
    assert one == two
    # Logged as the rule roll always was: the label asked for, the mode, the lead and
    # the rule's own text, the seed (the sitting's: provably fair), the call recorded.
    data = one["data"]
    assert data["mode"] == mode
    # (A hidden roll keeps its label, text and call in the secret the reveal opens.)
    said = data if mode == "public" else data["secret"]
    assert said["label"] == f"roll of {name}"
    assert said["text"] == call.text(first.value)
    assert said["call"] == call.record(first.value)
    assert first.roll is not None and first.roll["seed"] is not None


def test_a_named_rule_roll_is_refused_for_a_seat_that_may_not_roll(store: Store) -> None:
    gm = _gm(store, "T")
    act = _act(_calls()["plot_points.checks.check"], "public")
    head = store.head(_campaign_id(store, "T"))
    spectator = Session.by_secret(store, "T", "not a seat's secret")
    outcome = spectator.perform(Act.from_json(act.to_json()))
    assert isinstance(outcome, Refused) and "\n" not in outcome.reason, outcome
    # A player does not choose the seed of a roll (the GM may, marked as chosen).
    player = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    head = store.head(_campaign_id(store, "T"))
    chosen = Act(act.tracker, act.move, act.args, RollSpec("public", "peek", None, 7))
    outcome = player.perform(Act.from_json(chosen.to_json()))
    assert isinstance(outcome, Refused) and "\n" not in outcome.reason, outcome
    assert store.head(_campaign_id(store, "T")) == head
    assert isinstance(gm.perform(chosen), Accepted)


@pytest.mark.parametrize(("rule", "says"), [
    ({"name": "plot_points.checks.check", "args": {"ability": "average"}},
     "rule plot_points.checks.check refuses its arguments (no 'proficiency')"),
    ({"name": "plot_points.checks.check", "args": {
        "ability": "average", "proficiency": "x", "advantage": 0, "difficulty": 10}},
     "proficiency"),
    ({"name": "variant5e.contests.contest", "args": {"rule": "grapple"}},
     "rule variant5e.contests.contest refuses its arguments"),
    ({"name": "plot_points.checks.nope", "args": {}}, "no rule is declared as"),
    ({"name": "plot_points.checks.check", "args": "average"}, "'args' (an object)"),
    ({"name": "plot_points.checks.check", "args": {}, "extra": 1}, "extra"),
])
def test_malformed_rule_args_are_refused_in_one_line_storing_nothing(
        store: Store, rule: dict[str, Any], says: str) -> None:
    gm = _gm(store, "T")
    head = store.head(_campaign_id(store, "T"))
    outcome = gm.perform(Act.from_json(Act("", "rule", rule, RollSpec()).to_json()))
    assert isinstance(outcome, Refused), outcome
    assert says in outcome.reason and "\n" not in outcome.reason, outcome.reason
    assert store.head(_campaign_id(store, "T")) == head
