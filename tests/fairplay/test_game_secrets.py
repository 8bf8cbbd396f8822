"""No secret of a game in a player's view of the campaign log: a Dice Monarchs hand in
progress (3 players) and a Cairn duel with one choice made. The same search finds each
secret in the GM's view, so the checks can fail."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.miasma.dice_monarchs.game import DiceMonarchsGame
from companion.store import create_campaign, open_store

pytestmark = pytest.mark.timeout(120)

TABLE_SEED = 987_654_321_012_345
DUEL_SEED = 4_444_555_566_667


def _play(path: str) -> dict[str, Any]:
    """A campaign with a Monarchs hand dealt and bet on, and a duel with Bob's pick made;
    returns the secrets: the table seed, each player's hole dice, the pending pick."""
    with open_store(path) as store:
        campaign = create_campaign(store, "Night", ["miasma", "cairn_srd"], who="Gus",
                                   role="gm")
        # The table joins mid-hand (its dealt dice are in the add event's state), then
        # plays on: a new table from its seed, a deal and a bet are moves.
        dealt = DiceMonarchsGame.start(["Ann", "Bob", "Cid"], 100, seed=TABLE_SEED)
        dealt.deal()
        first_hole = {p: list(dealt.hole_dice(p)) for p in dealt.players}
        game = campaign.add("Table", dealt, role="minigame")
        game.new_table(["Ann", "Bob", "Cid"], 100, seed=TABLE_SEED + 1)
        game.deal()
        first = game.player_to_act
        assert first is not None
        game.bet(first, 5)
        assert game.phase == "opening" and not game.community  # before any reveal
        duel = campaign.add("Duel", Duel(), role="encounter")
        duel.start("Ann", "Bob", 6, 6, "the last word")
        duel.choose("Bob", "flourish", seed=DUEL_SEED)
        assert duel.choices == ["", "flourish"]
        # A second duel whose state (a set event) holds Ann's pending pick.
        campaign.add("Rematch", Duel(), role="encounter")
        pending = Duel()
        pending.start("Ann", "Cid", 5, 5, "the rematch")
        pending.choose("Ann", "defend")
        campaign.replace("Rematch", pending)
        return {"seeds": [TABLE_SEED, TABLE_SEED + 1, DUEL_SEED],
                "hole": {p: [first_hole[p], list(game.hole_dice(p))] for p in game.players}}


def _hole_text(dice: list[int]) -> list[str]:
    """How a hand of hole dice would read in a JSON text."""
    return [json.dumps(dice), json.dumps(dice, separators=(",", ":"))]


def _leaks(text: str, secrets: dict[str, Any], viewer: str) -> list[str]:
    found = []
    if any(str(seed) in text for seed in secrets["seeds"]):
        found.append("seed")
    for player, hands in secrets["hole"].items():
        if player != viewer and any(t in text for t in _hole_text(hands[0])):
            found.append(f"hole dice of {player}")
        # The second hand's dice appear in no stored event, GM's or not (the seed makes
        # them): a player's view must not hold them either.
        if player != viewer and any(t in text for t in _hole_text(hands[1])):
            found.append(f"hole dice of {player} (hand 2)")
    if '"tactic": "flourish"' in text or '"flourish"]' in text:
        found.append("Bob's pick")
    if '"tactic": "defend"' in text or '["defend"' in text:
        found.append("Ann's pick")
    return found


def _events(path: str, who: str, role: str) -> str:
    with open_store(path) as store:
        from companion.store import open_campaign

        campaign = open_campaign(store, "Night", who=who, role=role)
        return json.dumps([e.to_dict() for e in campaign.visible_to(who, role)])


def test_player_view_holds_no_game_secret(tmp_path: Path) -> None:
    path = str(tmp_path / "c.db")
    secrets = _play(path)
    # The GM's view (the backup) holds them all: the search finds them.
    gm = _events(path, "Gus", "gm")
    assert {"seed", "hole dice of Ann", "hole dice of Bob", "hole dice of Cid",
            "Bob's pick", "Ann's pick"} <= set(_leaks(gm, secrets, ""))
    ann = _events(path, "Ann", "player")
    assert _leaks(ann, secrets, "Ann") == []
    # Ann's own dice are hers to see; the table's state is its public form.
    assert any(t in ann for t in _hole_text(secrets["hole"]["Ann"][0]))
    assert '"DiceMonarchsPublicView"' in ann and "seed_commitment" in ann
    # Moves that carry no secret keep their arguments.
    assert '"amount": 5' in ann
    bob = _events(path, "Bob", "player")
    assert _leaks(bob, secrets, "Bob") == []
    assert _leaks(_events(path, "", "player"), secrets, "") == []
    # Asked for some kinds of event only, the view is as careful.
    with open_store(path) as store:
        from companion.store import open_campaign

        campaign = open_campaign(store, "Night", who="Ann", role="player")
        some = campaign.visible_to("Ann", "player", kinds=("set", "move"))
        assert {e.kind for e in some} == {"set", "move"}
        assert _leaks(json.dumps([e.to_dict() for e in some]), secrets, "Ann") == []


def test_log_json_and_verify(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.db")
    monkeypatch.setenv("COMPANION_DB", path)
    secrets = _play(path)
    capsys.readouterr()
    assert main(["log", "Night", "--json", "--gm"]) == 0
    gm = capsys.readouterr().out
    assert "seed" in _leaks(gm, secrets, "")  # the new table's seed is in the GM's log
    for argv in (["log", "Night", "--json"], ["log", "Night", "--json", "--player", "Ann"],
                 ["log", "Night", "--csv"], ["log", "Night"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert _leaks(out, secrets, "Ann") == [], argv
    # The members' states: public unless the GM asks.
    assert main(["campaign", "show", "Night", "--json", "--gm"]) == 0
    assert "seed" in _leaks(capsys.readouterr().out, secrets, "")
    assert main(["campaign", "show", "Night", "--json"]) == 0
    assert _leaks(capsys.readouterr().out, secrets, "") == []
    assert main(["log", "Night", "--json"]) == 0
    export = tmp_path / "player.json"
    export.write_text(capsys.readouterr().out)
    assert main(["verify", str(export)]) == 0
    capsys.readouterr()
