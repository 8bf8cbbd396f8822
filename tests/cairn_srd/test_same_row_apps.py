"""One engine, three faces: for every Cairn table an app rolls, the app given seed S shows
the row ``tables.get(id).roll(seed=S)`` gives (and the CLI's ``table ID --roll --seed S``);
for one dice expression per app, the app's dice are ``companion.dice.roll(expr, seed=S)``'s.
200 seeds each; other seeds give other rows, so the seed is not ignored."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion import dice, tables
from companion.cli import main
from companion.rulesets.cairn_srd.lockpicking import LOCK_TABLES, LockPicking
from companion.widgets.cairn_srd import (
    CairnCharacterApp,
    CombatApp,
    DuelApp,
    LockpickingApp,
    SpellcastingApp,
    demo_encounter,
)
from tests.cairn_srd.widget_find import find_button

SEEDS = range(200)
LOCK_COLUMNS = {"cairn_lock_type": "Lock type", "cairn_lock_sequence": "Sequence",
                "cairn_lock_complication": "Complication"}


class Seed:
    """A seed source the test sets before each click."""

    def __init__(self) -> None:
        self.value = 0

    def __call__(self) -> int:
        return self.value


def _lock_shown(lock: LockPicking) -> dict[str, str]:
    return {"cairn_lock_type": lock.lock_type, "cairn_lock_sequence": lock.sequence,
            "cairn_lock_complication": lock.complication}


def test_lockpicking_app_rolls_the_cli_lock(capsys: Any) -> None:
    """A new lock from seed S: its three d12s come one after another from S, in table
    order, so the lock type is ``table cairn_lock_type --roll --seed S``'s row and the
    whole lock is ``cairn lock --seed S``'s (a fresh lock book each time)."""
    seed = Seed()
    types = set()
    for s in range(0, 200, 5):
        seed.value = s
        app = LockpickingApp(LockPicking(), seed_source=seed)
        find_button(app, "new-lock").click()
        assert f"seed {s}" in app.outcome.value
        expected = tables.get("cairn_lock_type").roll(seed=s).values["Lock type"]
        assert app.lock.lock_type == expected, s
        assert main(["cairn", "lock", "--seed", str(s), "--json"]) == 0
        cli = json.loads(capsys.readouterr().out)
        assert cli["lock"]["type"] == app.lock.lock_type, (s, cli)
        assert cli["lock"]["sequence"] == app.lock.sequence, s
        assert cli["lock"]["complication"] == app.lock.complication, s
        types.add(expected)
    assert len(types) > 3  # the seed is used: different seeds, different rows


@pytest.mark.parametrize("table_id", LOCK_TABLES)
def test_cli_rolls_the_same_row(table_id: str, capsys: Any) -> None:
    for s in range(0, 200, 10):
        assert main(["table", table_id, "--roll", "--seed", str(s), "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["row"] == tables.get(table_id).roll(seed=s).row.range


def test_character_app_panic_save_is_the_engines_d20() -> None:
    seed = Seed()
    app = CairnCharacterApp(seed_source=seed)
    faces = set()
    for s in SEEDS:
        seed.value = s
        find_button(app, "panic").click()
        face = dice.roll("1d20", seed=s).total
        assert f"d20 = {face} " in app.outcome.value, s
        faces.add(face)
        app.character.undo()
    assert len(faces) > 10


def test_spellcasting_app_casts_the_engines_3d6() -> None:
    seed = Seed()
    app = SpellcastingApp(seed_source=seed)
    find_button(app, "dice-3").click()
    for s in SEEDS:
        seed.value = s
        find_button(app, "cast").click()
        rolled = [d.value for d in dice.roll("3d6", seed=s).dice]
        assert list(app.character.log[-1].summary.split("magic dice ")[1].split(":")[0]
                    .split(", ")) == [str(v) for v in rolled], s
        app.character.undo()


def test_duel_app_deals_the_engines_dice() -> None:
    seed = Seed()
    app = DuelApp(seed_source=seed)
    app.stakes.value = "first blood"
    app.hp_boxes[0].value = app.hp_boxes[1].value = 18
    for s in SEEDS:
        # The duel started again per seed: a reveal stays (the duel's undo rule).
        find_button(app, "start").click()
        seed.value = s
        find_button(app, "choose-0-attack").click()
        find_button(app, "choose-1-flourish").click()  # attack beats flourish: d8 and d4
        exchange = app.duel.exchanges[-1]
        assert exchange.damage[0] == dice.roll("1d8", seed=s).total, s


def test_combat_app_initiative_is_the_engines_d20() -> None:
    seed = Seed()
    app = CombatApp(demo_encounter(), seed_source=seed)
    for s in SEEDS:
        seed.value = s
        find_button(app, "initiative").click()
        face = dice.roll("1d20", seed=s).total
        assert f"Ash d20 = {face} " in app.encounter.log[-1].summary, s
        app.encounter.undo()


def test_lockpicking_app_study_is_the_engines_d6() -> None:
    seed = Seed()
    lock = LockPicking(sequence="TPT", complication="None")
    app = LockpickingApp(lock, seed_source=seed)
    for s in SEEDS:
        seed.value = s
        find_button(app, "study").click()
        assert f"d6 = {dice.roll('1d6', seed=s).total} " in app.lock.log[-1].summary, s
        lock.undo()
