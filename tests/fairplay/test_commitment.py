"""Hidden rolls: commit, reveal, verify; every tampered field fails naming its entry."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from companion import dice, fairplay
from companion.store import create_campaign, open_campaign, open_store
from tests.fairplay.cli import run, verify_doc

pytestmark = pytest.mark.timeout(120)


def test_the_commitment_is_sha256_of_the_documented_line() -> None:
    nonce = "5a" * 32
    # The line written out by hand, as the module's docstring documents it.
    line = ('{"dice":[4,1,6],"expr":"3d6kh2+1","nonce":"' + nonce
            + '","seed":812,"total":11,"v":1}')
    assert fairplay.commitment_text("3d6kh2+1", 812, [4, 1, 6], 11, nonce) == line
    assert fairplay.commitment("3d6kh2+1", 812, [4, 1, 6], 11, nonce) == \
        hashlib.sha256(line.encode("utf-8")).hexdigest()
    # Real dice: seed null; a total alone: dice []. Non-ASCII is escaped.
    assert fairplay.commitment_text("2d6[feu é]", None, [], 7, nonce) == (
        '{"dice":[],"expr":"2d6[feu \\u00e9]","nonce":"' + nonce
        + '","seed":null,"total":7,"v":1}')


def test_nonces_are_fresh_and_the_digest_hides_the_roll() -> None:
    one = fairplay.prepare_roll("1d20", mode="gm", seed=5)
    two = fairplay.prepare_roll("1d20", mode="gm", seed=5)
    assert one.roll.total == two.roll.total  # the same roll...
    assert one.commitment != two.commitment  # ...commits differently (nonce)
    assert one.seed is None and set(one.data) == {"mode", "commitment", "secret"}
    nonce = one.data["secret"]["nonce"]
    assert re.fullmatch(r"[0-9a-f]{64}", nonce)


def _table(path: Path) -> None:
    with open_store(path) as store:
        gm = create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        gm.roll_entry("1d20+5", mode="gm", seed=11)            # 1
        ash.roll_entry("4d6kh3", mode="blind", seed=12)        # 2
        ash.roll_entry("2d6", mode="self", seed=13)            # 3
        gm.roll_entry("3d6!", seed=14)                          # 4 public
        gm.roll_entry("2d6", mode="gm", dice=[2, 6])            # 5 real dice, hidden
        ash.roll_entry("1d20", total=17)                        # 6 real dice, public
        gm.reveal(1)                                            # 7
        gm.reveal(2)                                            # 8
        ash.reveal(3)                                           # 9 (their own self roll)
        gm.reveal(5)                                            # 10


def test_round_trip_through_the_library(tmp_path: Path) -> None:
    _table(tmp_path / "c.db")
    with open_store(tmp_path / "c.db") as store:
        campaign = open_campaign(store, "Tuesday")
        events = [e.to_dict() for e in campaign.log()]
    kinds = [e["kind"] for e in events]
    assert kinds == ["roll"] * 6 + ["reveal"] * 4
    reveal = events[6]["data"]
    assert reveal["entry"] == 1 and reveal["expr"] == "1d20+5" and reveal["seed"] == 11
    assert reveal["total"] == dice.roll("1d20+5", seed=11).total
    assert events[6]["seed"] == 11 and events[0]["seed"] is None
    assert fairplay.commitment(reveal["expr"], 11, reveal["dice"], reveal["total"],
                               reveal["nonce"]) == events[0]["data"]["commitment"]
    assert fairplay.verify({"events": events}) == 10  # 4 reveals, 4 secrets, 2 public
    assert events[9]["data"]["dice"] == [2, 6] and events[9]["data"]["seed"] is None


def _export(capsys: pytest.CaptureFixture[str], *view: str) -> dict[str, Any]:
    status, out, err = run(capsys, "log", "Tuesday", "--json", *view)
    assert status == 0 and not err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_round_trip_on_the_command_line(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    run(capsys, "campaign", "new", "Tuesday", "--ruleset", "plot_points")
    status, out, err = run(capsys, "roll", "2d8+1", "--campaign", "Tuesday", "--mode", "gm",
                           "--seed", "21")
    assert status == 0 and not err
    entry, shown = re.fullmatch(r"entry (\d+) \(GM only\): (.*) — commitment ([0-9a-f]{64})\n",
                                out).group(1, 2)  # type: ignore[union-attr]
    assert shown == str(dice.roll("2d8+1", seed=21))
    status, out, _ = run(capsys, "roll", "1d20", "--campaign", "Tuesday", "--mode", "blind",
                         "--who", "Ash")
    assert status == 0 and out.startswith("entry 2 (blind): logged as commitment ")
    assert "1d20 =" not in out  # the roller does not see a blind roll
    before = _export(capsys)
    status, out, _ = verify_doc(capsys, tmp_path, before)
    assert status == 0 and "no revealed or public roll to check" in out
    status, out, err = run(capsys, "reveal", "Tuesday", entry)
    assert status == 0 and out == (f"entry 3: revealed entry 1 (GM only): "
                                   f"{dice.roll('2d8+1', seed=21)}\n")
    status, out, err = verify_doc(capsys, tmp_path, _export(capsys))
    assert (status, err) == (0, "") and "1 roll checked, all hold" in out
    status, out, err = verify_doc(capsys, tmp_path, _export(capsys, "--gm"))
    assert (status, err) == (0, "") and "3 rolls checked, all hold" in out
    status, _, err = run(capsys, "reveal", "Tuesday", entry)
    assert status == 2 and err == "error: entry 1 is already revealed (entry 3)\n"


def _tamper(row: dict[str, Any], field: str) -> None:
    roll = row["roll"]
    if field == "dice":
        roll["dice"][0] = roll["dice"][0] % 6 + 1
    elif field == "seed":
        roll["seed"] += 1
    elif field == "expr":
        roll["expr"] = roll["expr"].replace("1d20+5", "1d20+6")
    elif field == "nonce":
        roll["nonce"] = roll["nonce"][:-1] + ("0" if roll["nonce"][-1] != "0" else "1")
    elif field == "total":
        roll["total"] += 1
    else:
        raise AssertionError(field)


@pytest.mark.parametrize("field", ["dice", "seed", "expr", "nonce", "total"])
def test_a_tampered_reveal_fails_naming_the_entry(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str) -> None:
    _table(Path(env_db))
    doc = _export(capsys)  # a player's export: secrets only where revealed
    assert verify_doc(capsys, tmp_path, doc)[0] == 0
    bad = copy.deepcopy(doc)
    _tamper(bad["events"][6], field)  # the reveal of entry 1
    status, out, err = verify_doc(capsys, tmp_path, bad)
    assert status == 2 and out == ""
    assert err.startswith("error: entry 1 (revealed in entry 7): the revealed roll does not "
                          "match its commitment") and err.count("\n") == 1


def test_a_tampered_commitment_fails_naming_the_entry(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _table(Path(env_db))
    doc = _export(capsys)
    for change in ("flip", "short"):
        bad = copy.deepcopy(doc)
        digest = bad["events"][1]["roll"]["commitment"]
        bad["events"][1]["roll"]["commitment"] = (
            digest[:-1] + ("0" if digest[-1] != "0" else "1") if change == "flip"
            else digest[:10])
        status, out, err = verify_doc(capsys, tmp_path, bad)
        assert status == 2 and out == "" and err.count("\n") == 1
        assert err.startswith("error: entry 2 (revealed in entry 8): ")
        assert ("does not match its commitment" if change == "flip"
                else "its commitment is not a SHA-256 digest") in err


def test_a_consistent_forgery_is_caught_by_rolling_the_seed_again(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Someone who rewrites the dice AND the commitment to match: the seed gives other dice."""
    _table(Path(env_db))
    doc = _export(capsys)
    roll_row, reveal_row = doc["events"][0], doc["events"][6]
    r = reveal_row["roll"]
    r["dice"] = [r["dice"][0] % 20 + 1]
    r["total"] = r["dice"][0] + 5
    roll_row["roll"]["commitment"] = fairplay.commitment(r["expr"], r["seed"], r["dice"],
                                                         r["total"], r["nonce"])
    status, _, err = verify_doc(capsys, tmp_path, doc)
    assert status == 2 and err == ("error: entry 1 (revealed in entry 7): its dice are not "
                                   "what seed 11 gives for 1d20+5\n")


def test_other_tampering_is_named_too(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _table(Path(env_db))
    doc = _export(capsys)
    cases: list[tuple[Any, str]] = [
        (lambda d: d["events"][3]["roll"].__setitem__("total", 99),
         "error: entry 4: its total 99 is not what seed 14 gives for 3d6!"),
        (lambda d: d["events"][3].__setitem__("seed", 15),
         "error: entry 4: its dice are not what seed 15 gives for 3d6!"),
        (lambda d: d["events"][5]["roll"].__setitem__("total", 21),
         "error: entry 6: 1d20 cannot total 21: its totals run from 1 to 20"),
        (lambda d: d["events"][6]["roll"].__setitem__("entry", 4),
         "error: entry 7 reveals entry 4, which is not a hidden roll earlier in this log"),
        (lambda d: d["events"][6]["roll"].__setitem__("mode", "self"),
         "error: entry 1 (revealed in entry 7): revealed as a self roll, but it was logged "
         "as GM only"),
        (lambda d: d["events"][6].pop("roll"),
         "error: entry 7: its roll is missing"),
    ]
    for change, message in cases:
        bad = copy.deepcopy(doc)
        change(bad)
        status, out, err = verify_doc(capsys, tmp_path, bad)
        assert (status, out) == (2, "") and err.startswith(message), (message, err)
    for text, message in (("{not json", "is not an exported log (not JSON, line 1)"),
                          ("[1, 2]", "not an exported log")):
        file = tmp_path / "bad.json"
        file.write_text(text)
        status, out, err = run(capsys, "verify", str(file))
        assert status == 2 and message in err and err.count("\n") == 1


def test_a_campaign_export_verifies_and_imports(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """``campaign export`` (the GM's backup, secrets included) verifies, and re-imports with
    its reveals."""
    _table(Path(env_db))
    status, out, _ = run(capsys, "campaign", "export", "Tuesday")
    file = tmp_path / "backup.json"
    file.write_text(out)
    status, out, err = run(capsys, "verify", str(file))
    assert (status, err) == (0, "") and "10 rolls checked, all hold" in out
    status, out, err = run(capsys, "campaign", "import", str(file), "--name", "Copy")
    assert status == 0 and out.startswith("imported campaign Copy (10 events)")


def test_verify_is_bounded(env_db: str, capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    _table(Path(env_db))
    doc = _export(capsys, "--gm")
    monkeypatch.setattr(fairplay, "MAX_VERIFY_ENTRIES", 9)
    with pytest.raises(fairplay.FairPlayError, match=r"^the log has 10 rolls and reveals; at "
                       r"most 9 are checked at once$"):
        fairplay.verify(doc)
    monkeypatch.setattr(fairplay, "MAX_VERIFY_ENTRIES", 10)
    # Entries 1-3 re-roll 1 + 4 + 2 dice; entry 4 (3d6! with seed 14) goes past 8.
    monkeypatch.setattr(fairplay, "MAX_VERIFY_DICE", 8)
    with pytest.raises(fairplay.FairPlayError, match=r"^entry 4: checking the log needs more "
                       r"than 8 dice rolled again"):
        fairplay.verify(doc)
    monkeypatch.setattr(fairplay, "MAX_VERIFY_DICE", 10_000)
    monkeypatch.setattr(fairplay, "MAX_VERIFY_ODDS", 0)
    with pytest.raises(fairplay.FairPlayError, match=r"^entry 6: the log has totals entered "
                       r"by hand for more than 0 different expressions"):
        fairplay.verify(doc)


def test_checking_one_revealed_roll(tmp_path: Path) -> None:
    _table(tmp_path / "c.db")
    with open_store(tmp_path / "c.db") as store:
        campaign = open_campaign(store, "Tuesday")
        ash = campaign.visible_to("Ash", "player")
        mira = campaign.visible_to("Mira", "gm")
        campaign.roll_entry("1d20", mode="gm")  # 11, not revealed
        later = [e.to_dict() for e in campaign.visible_to("Ash", "player")]
    for view in (ash, mira):
        events = [e.to_dict() for e in view]
        for entry in (1, 2, 3, 5):
            fairplay.verify_entry(events, entry)
    events = [e.to_dict() for e in ash]
    events[6]["data"] = {**events[6]["data"], "total": 99}
    with pytest.raises(fairplay.FairPlayError, match=r"^entry 1 \(revealed in entry 7\): the "
                       "revealed roll does not match its commitment"):
        fairplay.verify_entry(events, 1)
    for entry, message in ((11, "entry 11 is not revealed yet"),
                           (4, "entry 4 is a public roll: there is no commitment to check"),
                           (12, "there is no roll numbered 12"),
                           (7, "there is no roll numbered 7")):
        with pytest.raises(fairplay.FairPlayError, match=f"^{re.escape(message)}$"):
            fairplay.verify_entry(later, entry)


def test_a_public_roll_logged_before_modes_existed_still_verifies() -> None:
    """Public rolls of older logs carry no mode and no dice: their total is checked."""
    total = dice.roll("2d6", seed=99).total
    row = {"kind": "roll", "seq": 4, "seed": 99, "who": "Mira", "role": "gm",
           "time": "2026-01-02T03:04:05.000Z",  # every row says who and when (issue 29)
           "roll": {"expr": "2d6", "total": total, "text": "2d6 = ..."}}
    assert fairplay.verify({"events": [row]}) == 1
    row["roll"] = {**row["roll"], "total": total + 1}  # type: ignore[dict-item]
    with pytest.raises(fairplay.FairPlayError, match=rf"^entry 4: its total {total + 1} is "
                       rf"not what seed 99 gives for 2d6 \({total}\)$"):
        fairplay.verify({"events": [row]})
