"""A Monsters & Magic sheet keeps its last check for Bend Luck; a check made in a hidden mode
must not reach a player's view or export of the campaign through that saved state (issue 13)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay
from companion.cli import main
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.state import apply_change
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.widgets.monsters_and_magic import AdventurerPanel
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(120)

SEED = 4_417_902_263_115


def _gm_only_check(gm: Campaign, sheet: Adventurer) -> Any:
    rng = random.Random(SEED)
    with gm.rolling("gm", seed=SEED, rng=rng) as scope:
        result = sheet.roll_check("power", dc=12, rng=rng)
        scope.log("Ash: power check", SEED, str(result))
    return result


def _states(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every state of the sheet a view of the log gives (add, set, each move's change
    applied to the state before it)."""
    out: list[dict[str, Any]] = []
    for e in events:
        data = e["data"]
        if e["kind"] == "add":
            out.append(data["state"])
        elif e["kind"] == "set":
            out.append(data["save"]["state"])
        elif e["kind"] in ("move", "undo") and "change" in data and out:
            out.append(apply_change(out[-1], data["change"]))
    return out


def test_a_gm_only_check_stays_out_of_a_player_s_view_and_export(
        tmp_path: Path, env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = create_campaign(store, "Tuesday", ["monsters_and_magic"], who="Mira", role="gm")
        sheet = gm.add("Ash", Adventurer.new("Ash", max_hp=12))
        result = _gm_only_check(gm, sheet)
        record = sheet.last_check
        assert record is not None and record.natural == result.natural
        assert record.total == result.total and record.hidden == "gm"
        gm_view = [e.to_dict() for e in gm.visible_to("Mira", "gm")]
        assert _states(gm_view)[-1]["last_check"]["total"] == result.total
        # A player's view of the log: the move's saved state has no last check.
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        view = [e.to_dict() for e in ash.visible_to("Ash", "player")]
        move = next(e for e in view if e["kind"] == "move")
        assert move["seed"] is None
        assert all(s["last_check"] is None for s in _states(view))
        assert any(s["last_check"] is not None for s in _states(gm_view))
        assert str(SEED) not in json.dumps(view)
        # The player's export of the sheet (the Save link) and `campaign show --json`.
        player_save = json.loads(fairplay.player_json(ash.tracker("Ash", Adventurer)))
        assert player_save["state"]["last_check"] is None
        assert player_save["state"]["xp"] == sheet.xp  # the consequences stay public
    assert main(["campaign", "show", "Tuesday", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["members"][0]["state"]["last_check"] is None
    assert main(["campaign", "show", "Tuesday", "--json", "--gm"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["members"][0]["state"]["last_check"]["natural"] == result.natural
    assert main(["log", "Tuesday", "--json", "--player", "Ash"]) == 0
    exported = capsys.readouterr().out
    assert str(SEED) not in exported and f"= {result.total} vs" not in exported


def test_the_gm_still_bends_the_hidden_check_and_its_total_stays_out_of_the_history(
        tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["monsters_and_magic"], who="Mira", role="gm")
        sheet = gm.add("Ash", Adventurer.new("Ash", max_hp=12, luck=2))
        result = _gm_only_check(gm, sheet)
        bent, _tier = sheet.bend_luck()
        assert bent == result.total + 2
        assert sheet.log[-1].summary == "Ash: Bend Luck (spends 1 thread) on a hidden check"
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        view = [e.to_dict() for e in ash.visible_to("Ash", "player")]
        assert all(s["last_check"] is None for s in _states(view))
        assert str(bent) not in ash.log()[-1].to_dict()["data"]["summary"]


def test_a_public_check_after_it_reaches_players_as_before(tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["monsters_and_magic"], who="Mira", role="gm")
        sheet = gm.add("Ash", Adventurer.new("Ash", max_hp=12))
        _gm_only_check(gm, sheet)
        public = sheet.roll_check("power", dc=12, seed=8)
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        mine = ash.tracker("Ash", Adventurer)
        saved = json.loads(fairplay.player_json(mine))["state"]["last_check"]
        assert saved["total"] == public.total and saved["hidden"] == ""
        assert fairplay.player_json(mine) == mine.to_json()


def test_a_player_s_sheet_save_link_leaves_the_hidden_check_out(tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["monsters_and_magic"], who="Mira", role="gm")
        _gm_only_check(gm, gm.add("Ash", Adventurer.new("Ash", max_hp=12)))
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        mine = ash.tracker("Ash", Adventurer)
        player = AdventurerPanel(mine, session=session_of(ash), who="Ash", role="player")
        assert json.loads(player.file.model.to_json())["state"]["last_check"] is None
        gm_panel = AdventurerPanel(gm.tracker("Ash", Adventurer), session=session_of(gm),
                                   who="Mira", role="gm")
        assert json.loads(gm_panel.file.model.to_json())["state"]["last_check"] is not None
