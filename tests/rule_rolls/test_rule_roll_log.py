"""Rule rolls in the campaign's roll log: commit, reveal, verify (library and command line),
a tampered log failing on the entry, players never given another's hidden rule roll, and
the policy for a hidden roll that moves a shared tracker (issue 13)."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay
from companion.cli import main
from companion.dice.physical import EnteredDice
from companion.rulesets.plot_points import PlotCheck, PlotPointSession
from companion.store import create_campaign, open_campaign, open_store

pytestmark = pytest.mark.timeout(120)

NONCE = "ab" * 32


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_rule_commitment_is_sha256_of_the_documented_line() -> None:
    line = ('{"faces":[14],"label":"Ann: check","nonce":"' + NONCE
            + '","result":"16: success","seed":null,"v":1}')
    assert fairplay.rule_commitment_text("Ann: check", None, "16: success", NONCE,
                                         [14]) == line
    assert fairplay.rule_commitment("Ann: check", None, "16: success", NONCE, [14]) == \
        hashlib.sha256(line.encode()).hexdigest()
    made = fairplay.prepare_rule_roll("Ann: check", 5, "16", mode="gm")
    again = fairplay.prepare_rule_roll("Ann: check", 5, "16", mode="gm")
    assert made.commitment != again.commitment  # a fresh nonce each time
    assert made.seed is None and set(made.data) == {"mode", "rule", "commitment", "secret"}


def _text(result: Any) -> str:
    return str(result)


def _table(path: Path) -> dict[str, Any]:
    """A GM and two players make rule rolls in every mode; returns what was rolled."""
    out: dict[str, Any] = {}
    with open_store(path) as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        # 1, 2: the GM lets players enter their own dice (issue 28: off by default).
        gm.set_trust(own_dice=True)
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        briar = open_campaign(store, "Tuesday", who="Briar", role="player")
        check = PlotCheck("average", 1, 0, 12)
        out["gm"] = str(check.roll(seed=31))
        gm.rule_roll("Goblin: stealth", 31, out["gm"], mode="gm")                 # 3
        out["blind"] = str(check.roll(seed=32))
        ash.rule_roll("Ash: search", 32, out["blind"], mode="blind")              # 4
        out["self"] = str(check.roll(seed=33))
        ash.rule_roll("Ash: insight", 33, out["self"], mode="self")               # 5
        out["briar"] = str(check.roll(rng=EnteredDice([17])))
        briar.rule_roll("Briar: sneak", None, out["briar"], mode="self", own=True,
                        faces=[17])                                                # 6
        out["public"] = str(check.roll(seed=35))
        ash.rule_roll("Ash: climb", 35, out["public"])                             # 7
    return out


def test_round_trip_through_the_library(tmp_path: Path) -> None:
    rolled = _table(tmp_path / "c.db")
    with open_store(tmp_path / "c.db") as store:
        gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
        briar = open_campaign(store, "Tuesday", who="Briar", role="player")
        gm.reveal(3)                                                               # 8
        gm.reveal(4)                                                               # 9
        briar.reveal(6)                                                            # 10
        events = [e.to_dict() for e in gm.log()]
    reveal = events[7]["data"]
    assert reveal == {**reveal, "entry": 3, "rule": True, "label": "Goblin: stealth",
                      "seed": 31, "faces": [], "text": rolled["gm"], "physical": False}
    assert fairplay.rule_commitment("Goblin: stealth", 31, rolled["gm"], reveal["nonce"]) \
        == events[2]["data"]["commitment"]
    own = events[9]["data"]
    assert own["faces"] == [17] and own["seed"] is None and own["physical"] is True
    assert "(own dice)" in fairplay.summary("reveal", own)
    # 4 secrets (GM's view), 3 reveals, 1 public.
    assert fairplay.verify({"events": events}) == 8
    fairplay.verify_entry(events, 4)
    with pytest.raises(fairplay.FairPlayError, match="entry 5 is not revealed yet"):
        fairplay.verify_entry(events, 5)


def test_players_never_receive_another_s_hidden_rule_roll(tmp_path: Path) -> None:
    rolled = _table(tmp_path / "c.db")
    sees = {("Mira", "gm"): {"gm", "blind", "self", "briar", "public"},
            ("Ash", "player"): {"self", "public"},
            ("Briar", "player"): {"briar", "public"},
            ("", "player"): {"public"}}
    with open_store(tmp_path / "c.db") as store:
        campaign = open_campaign(store, "Tuesday")
        for (who, role), mine in sees.items():
            page = json.dumps([e.to_dict() for e in campaign.visible_to(who, role)],
                              ensure_ascii=False)
            for key, text in rolled.items():
                assert (text in page) == (key in mine), (who, key)
            assert ("Goblin" in page) == (role == "gm")  # a hidden label is secret too
            assert ("Ash: search" in page) == (role == "gm")  # blind: not even Ash
        gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
        gm.reveal(4)
        page = json.dumps([e.to_dict() for e in campaign.visible_to("Briar", "player")],
                          ensure_ascii=False)
        assert rolled["blind"] in page and "Ash: search" in page


def _tamper(row: dict[str, Any], field: str) -> None:
    roll = row["roll"]
    if field == "faces":
        # Another face than the die showed, whatever it showed.
        roll["faces"] = [roll["faces"][0] % 20 + 1, *roll["faces"][1:]]
    elif field == "seed":
        roll["seed"] += 1
    elif field in ("label", "text"):
        roll[field] += "!"
    elif field == "nonce":
        roll["nonce"] = roll["nonce"][:-1] + ("0" if roll["nonce"][-1] != "0" else "1")
    else:
        raise AssertionError(field)


def test_round_trip_and_tampering_on_the_command_line(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rolled = _table(Path(env_db))
    status, out, err = run(capsys, "reveal", "Tuesday", "3")
    assert (status, err) == (0, "")
    assert out == f"entry 8: revealed entry 3 (GM only): Goblin: stealth: {rolled['gm']}\n"
    status, out, err = run(capsys, "reveal", "Tuesday", "6")
    assert status == 0 and "Briar: sneak" in out
    status, out, err = run(capsys, "log", "Tuesday", "--json")
    assert status == 0
    doc = json.loads(out)
    file = tmp_path / "log.json"
    file.write_text(json.dumps(doc))
    status, out, err = run(capsys, "verify", str(file))
    assert (status, err) == (0, "") and "3 rolls checked, all hold" in out
    rows = {row["seq"]: row for row in doc["events"]}
    assert rows[4]["roll"] == {"mode": "blind", "rule": True,
                               "commitment": rows[4]["roll"]["commitment"]}
    for seq, field in [(8, "seed"), (8, "label"), (8, "text"), (8, "nonce"), (9, "faces"),
                       (9, "text")]:
        bad = copy.deepcopy(doc)
        _tamper(next(r for r in bad["events"] if r["seq"] == seq), field)
        file.write_text(json.dumps(bad))
        status, out, err = run(capsys, "verify", str(file))
        entry = 3 if seq == 8 else 6
        assert status == 2 and out == "", field
        assert err == (f"error: entry {entry} (revealed in entry {seq}): the revealed roll "
                       "does not match its commitment (its label, seed, faces, result or "
                       "nonce, or the commitment, was changed)\n"), field


def test_a_hidden_roll_that_moves_a_shared_tracker_keeps_its_seed_and_result_back(
        tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        gm.add("table", PlotPointSession.new(["Ash", "Bo"]), role="minigame")
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        session = ash.tracker("table", PlotPointSession)
        with ash.rolling("blind", seed=5_818_203_374_661) as scope:
            outcome = session.roll_check("Ash", "average", 0, 0, 10, seed=5_818_203_374_661)
        logged = ash.rule_roll("Ash: check", 5_818_203_374_661, str(outcome), mode="blind",
                               moves=scope.moves)
        assert scope.moves == [2] and logged.entry == 3
        move = ash.log()[1].to_dict()
        assert move["seed"] is None and "seed" not in move["data"]["args"]
        assert move["data"]["summary"] == "a hidden roll (blind): see the roll log"
        assert move["data"]["hidden"] == "blind"
        assert "5818203374661" not in json.dumps(move)
        assert session.log[-1].summary == "a hidden roll (blind): see the roll log"
        # Another screen replays the stored state (no seed to roll with): same table.
        other = open_campaign(store, "Tuesday", who="Bo", role="player")
        assert other.tracker("table", PlotPointSession).to_dict()["state"] == \
            session.to_dict()["state"]
        roll_event = other.visible_to("Bo", "player", kinds=("roll",))[0].to_dict()
        assert roll_event["data"]["moves"] == [2] and "secret" not in roll_event["data"]
        gm.refresh()
        reveal = gm.reveal(3).to_dict()
        assert reveal["seed"] == 5_818_203_374_661 and reveal["data"]["text"] == str(outcome)


def test_a_move_made_with_real_dice_is_stored_with_its_faces_and_replayed(
        tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        session = gm.add("table", PlotPointSession.new(["Ash"]))
        rng = EnteredDice([20, 9])
        outcome = session.roll_check("Ash", "average", 0, 0, 10, rng=rng)
        assert outcome.result.total == 20 and rng.used == 1
        move = gm.log()[-1].to_dict()
        assert move["seed"] is None and move["data"]["faces"] == [20]
        assert move["data"]["physical"] is True
        again = session.roll_check("Ash", "average", 0, 0, 10, rng=rng)
        assert again.result.total == 9 and rng.used == 2
        rng.finish()
        other = open_campaign(store, "Tuesday")
        assert other.tracker("table", PlotPointSession).to_dict()["state"] == \
            session.to_dict()["state"]


def test_a_seeded_move_outside_a_hidden_roll_is_stored_as_before(tmp_path: Path) -> None:
    with open_store(tmp_path / "c.db") as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        session = gm.add("table", PlotPointSession.new(["Ash"]))
        with gm.rolling("public") as scope:
            session.roll_check("Ash", "average", 0, 0, 10, rng=random.Random(5))
        move = gm.log()[-1].to_dict()
        assert type(move["seed"]) is int and "after" not in move["data"]
        assert scope.moves == [move["seq"]]
        assert re.match(r"Ash: ", move["data"]["summary"])


def test_real_dice_of_a_move_on_a_game_with_hidden_information_stay_with_the_gm() -> None:
    events = [{"seq": 1, "kind": "add", "tracker": "t1", "who": "Mira", "role": "gm",
               "seed": None, "data": {"kind": "miasma/unknown", "name": "Game", "state": {}}},
              {"seq": 2, "kind": "move", "tracker": "t1", "move": "deal", "who": "Mira",
               "role": "gm", "seed": None,
               "data": {"args": {}, "summary": "deal", "physical": True, "faces": [6, 2, 5]}}]
    player = fairplay.visible_to(events, "Ash", "player")
    assert "faces" not in player[1]["data"] and player[1]["data"]["physical"] is True
    assert fairplay.visible_to(events, "Mira", "gm")[1]["data"]["faces"] == [6, 2, 5]
