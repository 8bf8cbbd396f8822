"""Issue 32, what was left: ``verify`` recomputes a rule roll whole. On a campaign's export
it rebuilds the trackers from the log's facts, makes each rule roll's moves again with its
seed on the state just before them and compares what they change and say with what the
log stored (companion.store.recompute). A changed Dice Monarchs deal (the right seed,
other dice), a changed check result and a changed roller that picks its dice while it
logs the sitting's seed are each caught in one line naming the entry; an honest campaign
of every ruleset verifies, each rule roll recomputed whole or named plainly."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from companion import dice, fairplay
from companion.dice.roller import SeededRandom
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.combat import Attack, Encounter, join_character
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.plot_points.checks import PlotCheck
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.store import open_store
from companion.store._campaign import roll_log as roll_log_module  # rolling's dice
from companion.store.campaign import create
from companion.store.recompute import Recomputer
from companion.table import Session
from tests.conftest import session_of
from tests.fairplay.cli import run, verify_doc
from tests.store.forge import rechain

pytestmark = pytest.mark.timeout(180)

RULESETS = ["cairn_srd", "miasma", "variant5e", "monsters_and_magic", "plot_points"]


def _table(path: str) -> dict[str, int]:
    """Campaign T, one sitting, every ruleset's rule rolls (whatever the dice say, each
    move is legal); returns the roll entries by name."""
    entries: dict[str, int] = {}
    with open_store(path) as store:
        gm = session_of(create(store, "T", RULESETS, who="Mira", role="gm"))
        gm.add("Ash", Character("Ash"))
        gm.add("Bo", Adventurer(name="Bo"))
        gm.add("Cy", DeathRecord())
        gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
        gm.add("Fight", Encounter(), role="encounter")
        ash = Session.open(store, "T", who="Ash", role="player")
        sheet = ash.tracker("Ash", Character)
        # Cairn: the app's pattern (the move takes the roll's seed), public and GM-only.
        entries["save"] = ash._rule_roll(
            "Ash: STR save", lambda rng: sheet.ability_save("STR", seed=rng.seed_value)).entry
        mine = gm.tracker("Ash", Character)
        entries["panic"] = gm._rule_roll(
            "Ash: panic", lambda rng: mine.panic_save(seed=rng.seed_value), mode="gm").entry
        # Monsters & Magic: the app hands the move the roll's generator; a blind one is
        # revealed (its sheet keeps the check's dice, marked hidden in the shared log).
        bo = gm.tracker("Bo", Adventurer)
        entries["check"] = gm._rule_roll(
            "Bo: luck check", lambda rng: bo.roll_check("luck", dc=12, rng=rng)).entry
        entries["blind"] = gm._rule_roll(
            "Bo: blind check", lambda rng: bo.roll_check("luck", dc=12, rng=rng),
            mode="blind").entry
        # Variant 5e: a death save.
        cy = gm.tracker("Cy", DeathRecord)
        gm.act("Cy", "drop_to_zero")
        entries["death"] = gm._rule_roll(
            "5e death save (d20)", lambda rng: cy.roll_death_save(rng=rng)).entry
        # Miasma: the Dice Monarchs' table seed (a move of its own) and the deal.
        gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Bryn"], 100)
        gm.act("Dice Monarchs", "deal")
        # Cairn's fight: the ogre's hit moves Ash's sheet inside the fight's move.
        fight = gm.tracker("Fight", Encounter)
        join_character(fight, mine, weapon=8)
        fight.add("Ogre", "Enemies", guard=3, strength=6, control=8, weapon=6)
        entries["initiative"] = gm._rule_roll(
            "initiative", lambda rng: fight.roll_initiative(["Ash"], rng=rng)).entry
        entries["attack"] = gm._rule_roll(
            "the ogre hits", lambda rng: fight.attack(Attack("Ogre", "Ash"), rng=rng)).entry
        # Plot Points: a check no tracker keeps (nothing to make again but its seed).
        entries["plot"] = gm._rule_roll(
            "plot check", lambda rng: PlotCheck("strong", 1, 0, 8).roll(rng=rng)).entry
        gm.reveal(entries["blind"])
        gm.close_sitting()
    return entries


def _export(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    status, out, _ = run(capsys, "campaign", "export", "T")
    assert status == 0
    doc: dict[str, Any] = json.loads(out)
    return doc


def _row(doc: dict[str, Any], seq: int) -> dict[str, Any]:
    row: dict[str, Any] = next(r for r in doc["events"] if r["seq"] == seq)
    return row


def _moves(doc: dict[str, Any], entry: int) -> list[dict[str, Any]]:
    return [_row(doc, m) for m in _row(doc, entry)["data"]["moves"]]


def test_an_honest_campaign_of_every_ruleset_has_its_rule_rolls_recomputed_whole(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table(env_db)
    doc = _export(capsys)
    status, out, err = verify_doc(capsys, tmp_path, doc)
    assert status == 0, err
    # Save, panic (GM only: its secret is in the GM's export), two checks, the death save,
    # initiative and the ogre's hit; the table seed's move; the plot check has no move.
    assert "7 rule rolls and 1 move that rolled recomputed whole by replay" in out, out
    assert re.search(r"1 rule roll with only its seed checked \(entry "
                     f"{entries['plot']}: a check that moved no tracker", out), out
    assert "not made again" not in out
    # Without a replay (the core alone: the site's verifier, an import) their seeds are
    # checked and the answer says where the replay is.
    notes: list[str] = []
    fairplay.verify(doc, notes=notes)
    assert any("with only their seeds checked" in n and "'companion verify' on the "
               "campaign's export makes their moves again" in n for n in notes), notes
    # The hit on Ash's sheet is marked as the fight's move's own (made again by it).
    hit, attack = _moves(doc, entries["attack"])
    assert (hit["tracker"], hit["data"]["nested"]) == ("ash", True)
    assert (attack["tracker"], attack["data"]["nested"]) == ("fight", False)
    # The log held whole (standard input) answers the same.
    notes = []
    fairplay.verify(doc, notes=notes, replay=Recomputer(doc["campaign"]))
    assert "; ".join(notes) in out


def test_a_changed_monarchs_deal_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _table(env_db)
    doc = _export(capsys)
    deal = next(r for r in doc["events"] if r["move"] == "deal")
    steps = deal["data"]["change"]
    hole = next(s for s in steps if s[0][:1] == ["hole"] and s[1])
    hole[1][0] = 1 if hole[1][0] != 1 else 2  # the right table seed, other dice
    status, out, err = verify_doc(capsys, tmp_path, rechain(doc))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {deal['seq']} (move deal): made again from its seed, it gives other " \
        "facts than the log" in err
    assert "Dice Monarchs's hole" in err


def test_a_changed_check_result_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table(env_db)
    honest = _export(capsys)
    # A forger rewrites the save's result everywhere the log says it: the move's summary
    # and the roll entry's line (each with the seed left as derived).
    doc = copy.deepcopy(honest)
    (move,) = _moves(doc, entries["save"])
    roll = _row(doc, entries["save"])
    flipped = {"success": "failure", "failure": "success"}
    word = re.search(r"success|failure", roll["data"]["text"])
    assert word is not None
    for data, key in ((move["data"], "summary"), (roll["data"], "text")):
        data[key] = data[key].replace(word.group(), flipped[word.group()])
    status, out, err = verify_doc(capsys, tmp_path, rechain(doc))
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {entries['save']} (rule roll 'Ash: STR save'): made again" in err
    assert "it says 'Ash saves STR" in err
    # A check whose kept dice (the sheet's last check) are changed is caught the same way.
    doc = copy.deepcopy(honest)
    (move,) = _moves(doc, entries["check"])
    natural = next(s for s in move["data"]["change"] if s[0][:2] == ["last_check", "natural"]
                   or s[0] == ["last_check"])
    if natural[0] == ["last_check"]:
        natural[1]["natural"] = natural[1]["natural"] % 20 + 1
    else:
        natural[1] = natural[1] % 20 + 1
    status, out, err = verify_doc(capsys, tmp_path, rechain(doc))
    assert status == 2 and err.count("\n") == 1, err
    assert f"entry {entries['check']} (rule roll 'Bo: luck check'): made again" in err
    assert "Bo's last_check" in err


def test_a_changed_roller_that_picks_its_dice_under_the_right_seed_is_caught(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A test double of the server: the seed it logs is the sitting's, derived as it must
    # be, but the generator it hands the rule rolls dice of a seed it picked.
    class Picking(SeededRandom):
        def __init__(self, seed: int) -> None:
            super().__init__(seed)
            # Its own choice of dice (a natural 20, or a 1 when the seed gives a 20);
            # ``seed_value`` still says the sitting's seed.
            honest = dice.roll("1d20", seed=seed).total
            want = 1 if honest == 20 else 20
            picked = next(s for s in range(10_000) if dice.roll("1d20", seed=s).total == want)
            random.Random.seed(self, picked)

    monkeypatch.setattr(roll_log_module, "SeededRandom", Picking)
    with open_store(env_db) as store:
        gm = session_of(create(store, "T", RULESETS, who="Mira", role="gm"))
        gm.add("Bo", Adventurer(name="Bo"))
        bo = gm.tracker("Bo", Adventurer)
        entry = gm._rule_roll("Bo: luck check",
                             lambda rng: bo.roll_check("luck", dc=12, rng=rng)).entry
        assert bo.last_check is not None and bo.last_check.natural in (1, 20)  # picked
        gm.close_sitting()
    doc = _export(capsys)
    status, out, err = verify_doc(capsys, tmp_path, doc)
    assert status == 2 and out == "" and err.count("\n") == 1, err
    assert f"entry {entry} (rule roll 'Bo: luck check'): made again from its seed" in err
    # The seeds alone hold: the log view (no facts to make the moves again) says so.
    status, out, _ = run(capsys, "log", "T", "--json")
    status, out, err = verify_doc(capsys, tmp_path, json.loads(out))
    assert status == 0, err
    assert f"1 rule roll with only its seed checked (entry {entry}" in out
    assert "a log view holds no facts" in out and "campaign export NAME" in out


def test_an_older_export_without_the_nested_marks_is_named_not_refused(
        env_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table(env_db)
    doc = _export(capsys)
    for row in doc["events"]:
        row["data"].pop("nested", None)  # as a version before the marks wrote it
    status, out, err = verify_doc(capsys, tmp_path, rechain(doc))
    assert status == 0, err
    assert "6 rule rolls and 1 move that rolled recomputed whole" in out, out
    assert (f"1 roll whose moves were not made again (entry {entries['attack']}: moves "
            "over several trackers logged before") in out


def test_moves_past_the_bound_keep_the_seed_check_and_are_named(
        env_db: str, capsys: pytest.CaptureFixture[str]) -> None:
    entries = _table(env_db)
    doc = _export(capsys)
    notes: list[str] = []
    # The bound on moves made again: the first rule roll's one move fits, the rest are
    # named (their seeds still recomputed from the sittings).
    assert fairplay.verify(doc, notes=notes, replay=Recomputer(doc["campaign"],
                                                                max_moves=1)) > 0
    said = "; ".join(notes)
    assert "1 rule roll recomputed whole by replay" in said, said
    assert re.search(r"\d+ rolls whose moves were not made again \(entries "
                     rf"{entries['panic']}, .*: past the first 1 moves made again\)", said)
