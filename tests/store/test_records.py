"""A member's own records (5e Hit Dice, turn, facing, items) are not party members: the
store, ``campaign show``, export/import and the start app all list the people, and each
member's records with them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rulesets.variant5e.actions import Turn
from companion.rulesets.variant5e.activating_items import MagicItem
from companion.rulesets.variant5e.healing import HitDice
from companion.rulesets.variant5e.spell_points import SpellPoints
from companion.store import NewEvent, StoreError, create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign

pytestmark = pytest.mark.timeout(120)


def _hit_dice() -> HitDice:
    return HitDice(level=5, die=8, con_modifier=2, max_hp=38, hp=38, hit_dice=5)


def _table(db: str) -> None:
    with open_store(db) as store:
        campaign = create_campaign(store, "Tuesday", ["variant5e"], who="Mira", role="gm")
        # The Hit Dice record is made before its member, as the start app does.
        campaign.add("Hit Dice: Ash", _hit_dice(), role="record", owner="Ash")
        campaign.add("Ash", SpellPoints.new(5, "full"))
        campaign.add("Briar", SpellPoints.new(3, "half"))
        turn = campaign.add("Turn: Briar", Turn(), role="record", owner="Briar")
        turn.take_action("Dash")
        campaign.add("Item: Ash: Wand", MagicItem(name="Wand"), role="record", owner="Ash")


def test_records_are_listed_with_their_owner_not_in_the_party(db: str) -> None:
    _table(db)
    with open_store(db) as store:
        campaign = open_campaign(store, "Tuesday")
        assert [m.name for m in campaign.party] == ["Ash", "Briar"]
        assert [m.name for m in campaign.records("Ash")] == ["Hit Dice: Ash", "Item: Ash: Wand"]
        assert [m.name for m in campaign.records("Briar")] == ["Turn: Briar"]
        assert campaign.member("Turn: Briar").to_dict(state=False)["owner"] == "Briar"
        assert campaign.tracker("Turn: Briar", Turn).action == "dash"


def test_a_record_needs_an_owner_and_only_a_record_has_one(db: str) -> None:
    with open_store(db) as store:
        campaign = create_campaign(store, "Tuesday", ["variant5e"])
        with pytest.raises(StoreError, match="names the party member who owns it"):
            campaign.add("Hit Dice: Ash", _hit_dice(), role="record")
        with pytest.raises(StoreError, match="names the party member who owns it"):
            campaign.add("Ash", SpellPoints.new(5, "full"), owner="Briar")
        with pytest.raises(StoreError, match="that is how a member's own record is named"):
            campaign.add("Turn: Ash", Turn())
        assert list(campaign) == [] and campaign.head == 0


def test_campaign_show_lists_the_people_then_each_member_s_records(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    _table(db)
    assert main(["campaign", "show", "Tuesday"]) == 0
    out = capsys.readouterr().out
    party = out[out.index("Party:"):out.index("Encounters:")].splitlines()
    assert [line.split("  (")[0] for line in party] == [
        "Party:", "  Ash", "      Hit Dice: Ash", "      Item: Ash: Wand", "  Briar",
        "      Turn: Briar"]
    assert "Records of members not in the party" not in out
    assert main(["log", "Tuesday"]) == 0
    log = capsys.readouterr().out
    assert "Hit Dice: Ash is kept for Ash" in log and "Ash joins the campaign (party)" in log
    assert main(["campaign", "show", "Tuesday", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["members"]
    assert [(m["name"], m["role"], m.get("owner")) for m in shown] == [
        ("Hit Dice: Ash", "record", "Ash"), ("Ash", "party", None),
        ("Briar", "party", None), ("Turn: Briar", "record", "Briar"),
        ("Item: Ash: Wand", "record", "Ash")]


def test_records_survive_export_import_and_a_snapshot(
        db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    monkeypatch.setenv("COMPANION_DB", db)
    _table(db)
    assert main(["campaign", "export", "Tuesday"]) == 0
    exported = capsys.readouterr().out
    file = tmp_path / "tuesday.json"
    file.write_text(exported)
    assert main(["campaign", "import", str(file), "--name", "Copy"]) == 0
    capsys.readouterr()
    assert main(["campaign", "export", "Copy"]) == 0
    assert {**json.loads(capsys.readouterr().out), "name": "Tuesday"} == json.loads(exported)
    with open_store(db) as store:
        copy = open_campaign(store, "Copy")
        assert [m.name for m in copy.party] == ["Ash", "Briar"]
        # A snapshot keeps the role and owner.
        again = Campaign(None, copy.info)
        again._load_state(json.loads(json.dumps(copy.state())))
        assert [(m.name, m.role, m.owner) for m in again] == [
            (m.name, m.role, m.owner) for m in copy]
        assert [m.name for m in again.records("Ash")] == ["Hit Dice: Ash", "Item: Ash: Wand"]


def test_records_stored_as_party_trackers_before_the_record_role_are_read_as_records(
        db: str) -> None:
    with open_store(db) as store:
        campaign = create_campaign(store, "Old", ["variant5e"])
        ash = SpellPoints.new(5, "full")
        old = [("Hit Dice: Ash", _hit_dice()), ("Ash", ash), ("Ash Grey", ash),
               ("Turn: Ash", Turn()), ("Item: Ash Grey: Wand: of Light", MagicItem(name="W"))]
        events = [NewEvent("add", tracker=f"t{i}", data={
            "kind": f"variant5e/{type(t).__name__}", "name": name, "role": "party",
            "state": t.snapshot()}) for i, (name, t) in enumerate(old)]
        store.append(campaign.info.id, events, 0)
        reopened = open_campaign(store, "Old")
        assert [m.name for m in reopened.party] == ["Ash", "Ash Grey"]
        assert [m.name for m in reopened.records("Ash")] == ["Hit Dice: Ash", "Turn: Ash"]
        assert [m.name for m in reopened.records("Ash Grey")] == [
            "Item: Ash Grey: Wand: of Light"]
