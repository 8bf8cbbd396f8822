"""Issue 32: a rule roll that moves no tracker (a hidden Plot Points check, a contest) is
rolled through a declared rule (companion.rule_rolls): its entry records the rule's name,
arguments and result fields, and ``verify`` calls the rule again with the entry's seed and
compares them; an older entry without the record keeps the seed check, said in the
answer."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import fairplay, rule_rolls
from companion.dice.roller import SeededRandom
from companion.rulesets.monsters_and_magic.ability_checks import AbilityCheck
from companion.rulesets.monsters_and_magic.ability_checks import check_call as mm_check
from companion.rulesets.plot_points.checks import PlotCheck, check_call, contest_call
from companion.rulesets.variant5e.contests import Contest, Edge, Side
from companion.rulesets.variant5e.contests import contest_call as v5_contest
from companion.store import open_store
from companion.store.campaign import create
from companion.store.recompute import Recomputer
from companion.table import Session
from tests.conftest import session_of
from tests.fairplay.cli import run
from tests.fairplay.cli import verify_doc as _verify
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(180)

CHECK = PlotCheck("strong", 2, 1, 12)


def _evening(path: str) -> dict[str, int]:
    """One closed sitting: a public Plot Points check (declared), a GM-only one (revealed),
    a hidden contest, a Monsters & Magic check and a 5e contest (declared), and an old-style
    check (a bare function: no record)."""
    with open_store(path) as store:
        gm = session_of(create(store, "T", ["plot_points", "monsters_and_magic", "variant5e"],
                               who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        out = {
            "check": ash.rule_roll("Ash: check", check_call(CHECK, "Ash: ")).entry,
            "hidden": gm.rule_roll("Ogre: check", check_call(CHECK, "Ogre: "),
                                   mode="gm").entry,
            "contest": gm.rule_roll("contest", contest_call(
                "Ash", CHECK, "Ogre", PlotCheck("weak", 0, -1)), mode="blind").entry,
            "mm": ash.rule_roll("check", mm_check(AbilityCheck(3, 12, advantage=True))).entry,
            "v5": ash.rule_roll("5e contest", v5_contest(Contest(
                "grapple", Side("Ash", "Athletics", 4, Edge.ADVANTAGE),
                Side("Ogre", "Acrobatics", 1)))).entry,
            "old": ash._rule_roll("Ash: old check",
                                  lambda rng: CHECK.roll(rng=rng)).entry,
        }
        gm.reveal(int(out["hidden"] or 0))
        gm.reveal(int(out["contest"] or 0))
        gm.close_sitting()
    return {k: int(v or 0) for k, v in out.items()}


def _export(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, _ = run(capsys, "campaign", "export", "T")
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def _row(doc: dict[str, Any], seq: int) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in doc["events"] if r["seq"] == seq)
    return row


@pytest.fixture
def evening(env_db: str, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, int],
                                                                     dict[str, Any]]:
    entries = _evening(env_db)
    return entries, _export(capsys)


def test_a_declared_check_is_stored_with_its_rule_and_recomputed_whole(
        evening: tuple[dict[str, int], dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    entries, doc = evening
    row = _row(doc, entries["check"])
    call = row["data"]["call"]
    assert call["name"] == "plot_points.checks.check"
    assert call["args"] == {"ability": "strong", "proficiency": 2, "advantage": 1,
                            "difficulty": 12}
    # What it stored is what the rule gives with the entry's own seed.
    made = CHECK.roll(rng=SeededRandom(row["seed"]))
    assert call["result"]["total"] == made.total
    assert call["result"]["success"] == made.success
    assert row["data"]["text"] == f"Ash: {made}"
    # The GM-only check keeps its record in its secret (out of the players' view).
    assert "call" in _row(doc, entries["hidden"])["data"]["secret"]
    status, out, err = _verify(capsys, tmp_path, doc)
    assert (status, err) == (0, ""), err
    # Five declared rolls recomputed whole (the two hidden ones counted once each); only
    # the old-style check keeps the seed check, named by its entry, and says why.
    assert "5 rolls recomputed whole from their seeds (dice rolls and table rolls, and " \
        "rules declared: every die" in out, out
    assert (f"1 rule roll with only its seed checked (entry {entries['old']}:") in out, out
    assert "its entry names no declared rule" in out
    # The core alone (the site's verifier: no replay) and a player's log view the same.
    notes: list[str] = []
    fairplay.verify(doc, notes=notes)
    assert any("5 rolls recomputed whole" in n for n in notes), notes
    status, out, _ = run(capsys, "log", "T", "--json")
    assert status == 0
    status, said, err = _verify(capsys, tmp_path, json.loads(out))
    assert status == 0 and "5 rolls recomputed whole" in said, err + said


@pytest.mark.parametrize(("key", "change"), [
    ("total", lambda v: v + 1),
    ("success", lambda v: not v),
    ("margin", lambda v: v - 3),
])
def test_a_changed_total_or_outcome_is_caught_naming_the_entry(
        evening: tuple[dict[str, int], dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str], key: str, change: Any) -> None:
    entries, honest = evening
    doc = copy.deepcopy(honest)
    result = _row(doc, entries["check"])["data"]["call"]["result"]
    result[key] = change(result[key])
    status, out, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {entries['check']} (rule plot_points.checks.check): made again by " \
        f"rule plot_points.checks.check with seed" in err
    assert f"its {key} is" in err and "it was changed" in err


def test_a_changed_text_a_changed_argument_and_a_changed_secret_are_caught(
        evening: tuple[dict[str, int], dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    entries, honest = evening
    # The line the roll log shows, rewritten to a success with the fields left alone.
    doc = copy.deepcopy(honest)
    data = _row(doc, entries["check"])["data"]
    data["text"] = data["text"].replace("failure", "success") if "failure" in data["text"] \
        else data["text"].replace("success", "failure")
    status, _, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and f"entry {entries['check']} (rule " in err and "it reads" in err
    # An easier difficulty recorded (a forger's excuse for a success): another result.
    doc = copy.deepcopy(honest)
    args = _row(doc, entries["check"])["data"]["call"]["args"]
    args["difficulty"] = -30
    status, _, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and f"entry {entries['check']} (rule " in err, err
    # The revealed contest's totals changed in its reveal.
    doc = copy.deepcopy(honest)
    reveal = next(r for r in doc["events"] if r["kind"] == "reveal"
                  and r["data"]["entry"] == entries["contest"])
    reveal["data"]["call"]["result"]["first"] += 1
    status, _, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and err.count("\n") == 1, err
    assert f"entry {entries['contest']} (revealed in entry {reveal['seq']}) (rule " \
        "plot_points.checks.contest): made again" in err and "its first is" in err
    # A rule this version does not declare: said, never a traceback.
    doc = copy.deepcopy(honest)
    _row(doc, entries["v5"])["data"]["call"]["name"] = "variant5e.contests.nothing"
    status, _, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and err.count("\n") == 1, err
    assert "which this version does not declare" in err


def test_an_entry_without_its_rule_keeps_the_seed_check_and_says_so(
        evening: tuple[dict[str, int], dict[str, Any]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    entries, honest = evening
    # An older log: the record was not there (dropped here), so a changed result goes
    # unseen by the rule, and the answer names the entry as checked by its seed alone.
    doc = copy.deepcopy(honest)
    del _row(doc, entries["check"])["data"]["call"]
    status, out, err = _verify(capsys, tmp_path, rechain(doc))
    assert (status, err) == (0, ""), err
    assert (f"2 rule rolls with only their seeds checked (entries {entries['check']}, "
            f"{entries['old']}:") in out, out
    assert "its entry names no declared rule" in out
    assert "4 rolls recomputed whole" in out


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(which=st.sampled_from(["check", "hidden", "contest", "mm", "v5"]),
       pick=st.integers(min_value=0, max_value=50),
       value=st.one_of(st.integers(-100, 100), st.booleans(), st.none(),
                       st.text(max_size=8)))
def test_fuzz_any_changed_result_field_is_caught(
        evening: tuple[dict[str, int], dict[str, Any]], which: str, pick: int,
        value: Any) -> None:
    entries, honest = evening
    doc = copy.deepcopy(honest)
    entry = entries[which]
    row = _row(doc, entry)
    secret = row["data"].get("secret")
    reveal = next((r for r in doc["events"] if r["kind"] == "reveal"
                   and r["data"]["entry"] == entry), None)
    # The record a verifier reads: the public entry's, or the hidden one's in its secret
    # and its reveal (both changed: a forger changes every copy).
    records = [row["data"]["call"]] if secret is None else \
        [secret["call"], *([reveal["data"]["call"]] if reveal else [])]
    key = sorted(records[0]["result"])[pick % len(records[0]["result"])]
    if json.dumps(records[0]["result"][key]) == json.dumps(value):
        return  # not a change
    for record in records:
        record["result"][key] = value
    with pytest.raises(fairplay.FairPlayError, match=rf"^entry {entry}\b.*its {key} is"):
        fairplay.verify(rechain(doc), replay=Recomputer(doc["campaign"]))


def test_a_rule_call_refuses_what_the_log_could_not_hold() -> None:
    with pytest.raises(rule_rolls.RuleRollError, match="no rule is declared"):
        rule_rolls.RuleCall("plot_points.checks.nothing")
    with pytest.raises(rule_rolls.RuleRollError, match="not JSON"):
        rule_rolls.RuleCall("plot_points.checks.check", {"ability": {1, 2}})
    with pytest.raises(rule_rolls.RuleRollError, match="declared twice"):
        rule_rolls.declare("plot_points.checks.check", lambda args, rng: 0, dict)
    with pytest.raises(rule_rolls.RuleRollError, match=r"<ruleset>\.<module>\.<rule>"):
        rule_rolls.declare("check", lambda args, rng: 0, dict)
    # A name reaches only the rulesets' own modules (a log cannot import anything else).
    with pytest.raises(rule_rolls.RuleRollError, match="no rule is declared"):
        rule_rolls.get("os.path.join")
    with pytest.raises(rule_rolls.RuleRollError, match="refuses its arguments"):
        rule_rolls.remake({"name": "plot_points.checks.check", "args": {"ability": "huge"},
                           "result": {}}, 1, "")


def test_the_plot_points_page_s_hidden_check_is_recorded_and_made_again(
        env_db: str) -> None:
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.plot_points import PlotPointCheckPanel

    with open_store(env_db) as store:
        campaign = create(store, "T", ["plot_points"], who="Mira", role="gm")
        session = PlotPointSession.new(["Ash"], "Mira")
        panel = PlotPointCheckPanel(session, table=session_of(campaign), who="Mira", role="gm")
        panel.controls.mode.value = "gm"
        panel.proficiency.value = "3"
        panel.difficulty.value = "14"
        panel.who.value = "Ash"
        out = panel.roll()
        assert out.entry is not None and out.text is not None
        entry = campaign.log(("roll",))[-1]
        secret = entry.data["secret"]
        assert secret["call"]["name"] == "plot_points.checks.check"
        assert secret["call"]["args"]["proficiency"] == 3
        assert secret["call"]["lead"] == "Ash: " and out.text == secret["text"]
        # The rule called again with the entry's seed gives what the page showed.
        rule_rolls.remake(secret["call"], secret["seed"], secret["text"])
        with pytest.raises(rule_rolls.RuleRollError, match="its total is"):
            rule_rolls.remake({**secret["call"], "result": {
                **secret["call"]["result"],
                "total": secret["call"]["result"]["total"] + 1}},
                secret["seed"], secret["text"])


def test_cairn_s_task_social_check_and_die_of_fate_are_made_again(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.rulesets.cairn_srd import skills, social

    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        task = gm.rule_roll("skill test", skills.task_call(3, 1, produces=True, steps_up=1))
        talk = gm.rule_roll("social check", social.social_call(0, social.dispositions()[2]))
        fate = gm.rule_roll("knowledge", rule_rolls.RuleCall(social.KNOWLEDGE_CALL))
        gm.close_sitting()
    assert task.text == str(skills.task(3, 1, produces=True, steps_up=1, seed=task.seed))
    assert fate.text is not None and fate.text.startswith("die of fate d6 = ")
    honest = _export(capsys)
    status, out, err = _verify(capsys, tmp_path, honest)
    assert (status, err) == (0, "") and "3 rolls recomputed whole" in out, err + out
    for entry, key in ((task.entry, "success"), (talk.entry, "roll"), (fate.entry, "roll")):
        doc = copy.deepcopy(honest)
        result = _row(doc, int(entry or 0))["data"]["call"]["result"]
        result[key] = (not result[key]) if key == "success" else result[key] % 6 + 1
        status, _, err = _verify(capsys, tmp_path, rechain(doc))
        assert status == 2 and err.count("\n") == 1, err
        assert f"entry {entry} (rule cairn_srd." in err and f"its {key} is" in err


def test_a_monsters_and_magic_group_check_is_made_again(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.rulesets.monsters_and_magic.group_checks import group_call, roll_group

    checks = [AbilityCheck(m, 12) for m in (2, 0, -1)]
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["monsters_and_magic"], who="Mira", role="gm"))
        group = gm.rule_roll("group check", group_call(checks))
        gm.close_sitting()
    assert group.text == str(roll_group(checks, rng=SeededRandom(int(group.seed or 0))))
    honest = _export(capsys)
    status, out, err = _verify(capsys, tmp_path, honest)
    assert (status, err) == (0, "") and "1 roll recomputed whole" in out, err + out
    doc = copy.deepcopy(honest)
    result = _row(doc, int(group.entry or 0))["data"]["call"]["result"]
    result["totals"][1] += 1
    status, _, err = _verify(capsys, tmp_path, rechain(doc))
    assert status == 2 and f"entry {group.entry} (rule " in err and "its totals is" in err


def test_a_hidden_declared_roll_gives_nothing_away_before_its_reveal(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", ["plot_points"], who="Mira", role="gm"))
        gm.rule_roll("Ogre: check", check_call(CHECK, "Ogre: "), mode="gm")
    status, out, _ = run(capsys, "log", "T", "--json")
    assert status == 0 and "plot_points.checks" not in out and '"call"' not in out
    status, out, _ = run(capsys, "log", "T", "--json", "--gm")
    assert status == 0 and "plot_points.checks.check" in out
