"""Issue 46: a readied spell must have a casting time of one action (``Turn.ready``),
move by move and from the combat-turn app."""

from __future__ import annotations

import json

import pytest

from companion.errors import RuleError
from companion.rulesets.variant5e.actions import CASTING_TIMES, Turn
from tests.widgets.app_page import AppPage


def test_a_spell_of_one_action_is_readied() -> None:
    turn = Turn()
    turn.ready("the goblin steps next to me", spell="magic missile", casting_time="1 action")
    assert (turn.readied_spell, turn.concentrating) == ("magic missile", "magic missile")
    assert turn.log[-1].args["casting_time"] == "1 action"
    assert Turn.from_json(turn.to_json()).readied_spell == "magic missile"


@pytest.mark.parametrize("timing", [t for t in CASTING_TIMES if t != "1 action"])
def test_a_spell_of_any_other_casting_time_is_refused(timing: str) -> None:
    turn = Turn()
    before = turn.to_json()
    with pytest.raises(RuleError, match=r"^Ready: a readied spell must have a casting time "
                                        r"of 1 action; web takes " + timing + "$"):
        turn.ready("the orc charges", spell="web", casting_time=timing)
    assert turn.to_json() == before and not turn.log  # nothing changed, nothing logged


def test_casting_time_without_a_spell_is_not_a_reason_to_refuse() -> None:
    turn = Turn()
    turn.ready("the door opens", casting_time="1 minute")  # no spell: pull the lever
    assert turn.readied == "the door opens" and not turn.readied_spell


def test_an_unknown_casting_time_is_refused() -> None:
    with pytest.raises(RuleError, match=r"^Ready: a casting time is one of 1 action"):
        Turn().ready("the orc charges", spell="web", casting_time="a while")


def test_an_old_turn_and_an_old_call_still_work() -> None:
    """The default casting time is 1 action: calls and saves from before still load."""
    old = json.loads(Turn().to_json())
    turn = Turn.from_json(json.dumps(old))
    turn.ready("the orc steps in", "hold person")
    assert turn.readied_spell == "hold person"


def test_the_turn_app_refuses_a_readied_spell_of_one_minute() -> None:
    page = AppPage("combat_turn")
    page.fill("trigger", "the orc steps out")
    page.fill("spell", "web")
    page.one("tc-pick-casting-time").value = "1 minute"
    page.tap("ready")
    assert any("a readied spell must have a casting time of 1 action" in a
               for a in page.alerts())
    page.one("tc-pick-casting-time").value = "1 action"
    page.tap("ready")
    assert not any(a for a in page.alerts())
    assert "web held" in page.text()
