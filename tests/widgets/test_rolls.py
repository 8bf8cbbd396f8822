"""RollModePanel and RollLogPanel driven in-process on a real campaign (SQLite file): who
sees which roll, what reaches each widget's state, own dice, reveal and check."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from companion import dice
from companion.dice.physical import OwnDiceError, enter
from companion.errors import CompanionError
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.widgets.base import ErrorLine
from companion.widgets.rolls import RollLogPanel, RollModePanel, modes_for
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "table.db")) as opened:
        create_campaign(opened, "Tuesday", ["plot_points"], who="Mira", role="gm")
        yield opened


def seat(store: Store, who: str, role: str) -> tuple[Campaign, RollModePanel, RollLogPanel]:
    """One person's screen: their campaign object, a roll panel and the roll log."""
    campaign = open_campaign(store, "Tuesday", who=who, role=role)
    error = ErrorLine()
    panel = RollModePanel("3d6+2", session=session_of(campaign), who=who, role=role, error=error)
    log = RollLogPanel(session_of(campaign), who=who, role=role, error=error)
    return campaign, panel, log


def state_text(*roots: widgets.Widget) -> str:
    """Every widget state under ``roots`` (what the page is sent), as one text."""
    seen: set[str] = set()
    out: list[str] = []
    stack = list(roots)
    while stack:
        w = stack.pop()
        if w.model_id in seen:
            continue
        seen.add(w.model_id)
        out.append(json.dumps(w.get_state(), default=str))
        for name in ("children", "control", "refusal"):
            value = getattr(w, name, None)
            if isinstance(value, widgets.Widget):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in value if isinstance(v, widgets.Widget))
    return "\n".join(out)


def secret_of(campaign: Campaign, entry: int) -> dict[str, Any]:
    (event,) = [e for e in campaign.log(["roll"]) if e.seq == entry]
    secret = event.data["secret"]
    assert isinstance(secret, dict)
    return secret


def leaks(text: str, secret: dict[str, Any]) -> list[str]:
    found = [k for k in ("nonce", "text") if str(secret[k]) in text]
    if f"seed {secret['seed']}" in text or str(secret["seed"]) in text:
        found.append("seed")
    return found


def test_modes_are_offered_per_role_and_disabled_without_a_campaign() -> None:
    assert modes_for("gm", "Mira") == ["public", "gm"]
    assert modes_for("player", "Ash") == ["public", "blind", "self"]
    assert modes_for("player", "") == ["public", "blind"]
    panel = RollModePanel("2d6", seed_source=lambda: 5)
    assert panel.mode.disabled
    assert "need a campaign" in panel.mode_note.value
    outcome = panel.perform()
    assert outcome.roll.total == dice.roll("2d6", seed=5).total
    # Without a campaign the roll takes the one path: the panel's unsaved session logs it
    # (entry 1 of a log kept nowhere), public, with the page's seed.
    assert (outcome.seed, outcome.entry, outcome.mode) == (5, 1, "public")
    assert panel.perform().entry == 2
    assert "Exact odds of <b>2d6</b>: 2 to 12, average 7.00" in panel.odds.value


def test_a_players_blind_roll_shows_only_to_the_gm(store: Store) -> None:
    gm_campaign, _gm_panel, gm_log = seat(store, "Mira", "gm")
    _ash_campaign, ash_panel, ash_log = seat(store, "Ash", "player")
    ash_panel.mode.value = "blind"
    with pytest.raises(CompanionError, match="blind roll takes a fresh seed"):
        ash_panel.perform(seed=4242)  # a seed Ash chose would tell Ash the roll
    ash_panel._seed_source = lambda: 8_604_287_319_551  # drawn by the page, unseen by Ash
    outcome = ash_panel.perform()
    assert outcome.roll is None and outcome.seed is None
    assert outcome.commitment is not None
    # A short code read aloud, the full commitment in its tooltip; no hash on the page.
    code = outcome.commitment[:4].upper() + " " + outcome.commitment[4:8].upper()
    assert f'<code title="{outcome.commitment}">{code}</code>' in ash_panel.status.value
    assert "check code" in ash_panel.status.value and "roll log entry" in ash_panel.status.value
    secret = secret_of(gm_campaign, outcome.entry or 0)
    assert secret["seed"] == 8_604_287_319_551 and \
        secret["total"] == dice.roll("3d6+2", seed=8_604_287_319_551).total
    assert leaks(state_text(ash_panel, ash_log), secret) == []
    gm_campaign.refresh()  # the GM's live sync applies Ash's roll
    assert secret["text"] in gm_log.list.value
    assert "Ash" in gm_log.list.value
    assert ash_log.reveal_pick.options == ()  # a player never reveals a blind roll
    assert [v for _, v in gm_log.reveal_pick.options] == [outcome.entry]


def test_a_player_never_holds_another_players_self_roll(store: Store) -> None:
    gm_campaign, _gm_panel, gm_log = seat(store, "Mira", "gm")
    _briar_campaign, briar_panel, briar_log = seat(store, "Briar", "player")
    ash_campaign, ash_panel, ash_log = seat(store, "Ash", "player")
    briar_panel.mode.value = "self"
    briar_panel._seed_source = lambda: 777_001  # drawn by the page: a player chooses none
    outcome = briar_panel.perform()
    assert outcome.roll is not None  # Briar sees their own self roll
    secret = secret_of(gm_campaign, outcome.entry or 0)
    assert secret["text"] in briar_log.list.value
    assert "text" in leaks(state_text(briar_panel, briar_log), secret)  # the search finds it
    states: list[str] = []
    for step in range(4):  # every state Ash's screen passes through
        ash_campaign.refresh()
        states.append(state_text(ash_panel, ash_log))
        if step == 0:
            ash_panel.own.value = True
        elif step == 1:
            ash_panel.mode.value = "self"
            ash_panel.own.value = False
            ash_panel._seed_source = lambda: 5
            ash_panel.perform()
        elif step == 2:
            ash_panel.mode.value = "public"
            ash_panel._seed_source = lambda: 6
            ash_panel.perform()
    for text in states:
        assert leaks(text, secret) == []
    assert outcome.commitment is not None
    # The commitment is there, not the roll.
    assert f'data-entry=\\"{outcome.entry}\\"' in states[0]
    assert outcome.commitment[:12] in states[0]
    # Once the GM reveals it, everyone may see and check it.
    gm_campaign.refresh()
    gm_log.reveal_pick.value = outcome.entry
    gm_log.reveal_button.click()
    assert gm_log.error.message == ""
    ash_campaign.refresh()
    assert secret["text"] in ash_log.list.value
    assert f"seed {secret['seed']}" in ash_log.list.value


def test_own_dice_impossible_refused_under_the_box_possible_logged_physical(
        store: Store) -> None:
    campaign, panel, log = seat(store, "Ash", "player")
    panel.set_expr("2d6")
    panel.own.value = True
    assert [b.label for b in panel.die_boxes] == ["d6 #1", "d6 #2"]
    assert "Exact odds of <b>2d6</b>" in panel.odds.value  # odds still shown before the roll
    panel.entry_kind.value = "total"
    panel.total_box.text = "13"
    with pytest.raises(Exception, match="cannot total 13"):
        panel.perform()
    with pytest.raises(OwnDiceError) as refused:
        enter("2d6", total=13)
    assert panel.total_box.refusal.message == str(refused.value)
    assert campaign.log(["roll"]) == []
    panel.entry_kind.value = "dice"
    panel.die_boxes[0].text, panel.die_boxes[1].text = "7", "1"
    with pytest.raises(Exception, match=r"die 1 entered \(7\)"):
        panel.perform()
    assert "die 1 entered (7)" in panel.die_boxes[0].refusal.message
    panel.die_boxes[0].text, panel.die_boxes[1].text = "3", "4"
    outcome = panel.perform()
    assert outcome.physical and outcome.roll.total == 7 and outcome.seed is None
    (event,) = campaign.log(["roll"])
    assert event.data["physical"] is True and event.data["dice"] == [3, 4]
    assert event.seed is None
    assert "real dice" in log.list.value and "own dice" in log.list.value


def test_clicking_through_the_safe_button_shows_the_refusal_not_a_traceback(
        store: Store) -> None:
    _campaign, panel, _log = seat(store, "Ash", "player")
    panel.set_expr("2d6")
    panel.own.value = True
    panel.entry_kind.value = "total"
    panel.total_box.text = "13"
    roll = widgets.Button()
    from companion.widgets.base import safe

    roll.on_click(lambda _b: safe(panel.error)(panel.perform)())
    roll.click()
    assert "2d6 cannot total 13: its totals run from 2 to 12" in panel.error.message


def test_reveal_then_check_holds_and_a_tampered_log_does_not(store: Store) -> None:
    _gm_campaign, gm_panel, gm_log = seat(store, "Mira", "gm")
    gm_panel.mode.value = "gm"
    outcome = gm_panel.perform(seed=31337)
    assert outcome.roll is not None  # the GM sees their own secret roll
    assert gm_log.check_button.disabled
    gm_log.reveal_button.click()
    assert gm_log.error.message == ""
    assert [v for _, v in gm_log.check_pick.options] == [outcome.entry]
    gm_log.check_button.click()
    assert f"Entry {outcome.entry} holds" in gm_log.check_result.value
    assert "seed 31337" in gm_log.list.value
    # A player's screen checks the same roll from what it was sent.
    _c, _p, ash_log = seat(store, "Ash", "player")
    assert ash_log.check() is True
    # A log whose revealed total was changed does not hold.
    original = ash_log.events

    def tampered() -> list[dict[str, Any]]:
        events = original()
        for e in events:
            if e["kind"] == "reveal":
                e["data"] = {**e["data"], "total": e["data"]["total"] + 1}
        return events

    ash_log.events = tampered  # type: ignore[method-assign]
    assert ash_log.check() is False
    assert f"Entry {outcome.entry} does not hold" in ash_log.check_result.value


def test_the_roll_log_ends_with_the_campaigns_chain_head(store: Store) -> None:
    campaign, panel, log = seat(store, "Mira", "gm")
    assert "Chain head" not in log.list.value  # nothing logged yet
    panel.perform(seed=5)
    assert f"Chain head: <code>{campaign.chain[:16]}</code> (event {campaign.head})" \
        in log.list.value
    # Another screen's roll moves every screen's footer to the new head.
    other, other_panel, _ = seat(store, "Ash", "player")
    other_panel.perform()
    campaign.refresh()
    assert campaign.chain == other.chain
    assert f"Chain head: <code>{other.chain[:16]}</code> (event {other.head})" \
        in log.list.value
