"""Make the compatibility fixture: a campaign with every tracker kind the apps store.

Run once with the version whose format the fixture pins (it was made by the version of
2026-11-24, commit a7af810, the last that stored moves as commands):

    PYTHONPATH=<checkout of that version> python tests/store/compat/make_fixture.py OUT_DIR

It writes OUT_DIR/campaigns.db (SQLite), OUT_DIR/export.json (`campaign export`) and
OUT_DIR/states.json (each member's state as that version read it): the test opens the
first two with today's code and compares with the third.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from companion.store.campaign import create
from companion.store.db import Store
from companion.store.registry import tracker_kinds

# Moves per kind: (move, kwargs). Each is tried; a refused one is noted and skipped.
MOVES: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "plot_points/PlotPointSession": [("add_player", {"name": "Ash"}),
                                     ("roll_check", {"who": "Ash", "seed": 7}),
                                     ("gain_strain", {"who": "Ash"})],
    "cairn_srd/Downtime": [("add_member", {"name": "Ash"}), ("earn", {"name": "Ash", "amount": 30}),
                           ("spend", {"name": "Ash", "amount": 5})],
    "cairn_srd/Character": [("take_damage", {"amount": 2}), ("add_item", {"name": "Lantern"}),
                            ("add_fatigue", {}), ("rest_turn", {})],
    "cairn_srd/Journey": [("add_traveller", {"name": "Ash"}),
                          ("set_weather", {"weather": "rain", "watches": 1})],
    "cairn_srd/Encounter": [("add", {"name": "Ash", "side": "PCs", "guard": 4, "strength": 10}),
                            ("add", {"name": "Ghoul", "side": "Enemies", "guard": 3,
                                     "strength": 8}),
                            ("apply_damage", {"target": "Ghoul", "amount": 2})],
    "cairn_srd/Duel": [("start", {"first": "Ash", "second": "Bryn", "first_hp": 5,
                                  "second_hp": 5, "stakes": "honour"})],
    "cairn_srd/Delve": [("add_light", {"kind": "torch"}), ("light", {"index": 0}),
                        ("declare", {"action": "search"})],
    "cairn_srd/LockPicking": [("new_lock", {"seed": 11}), ("study", {"seed": 12})],
    "cairn_srd/LockBook": [("record", {"lock_type": "crude", "sequence": "TPR"})],
    "cairn_srd/Vessel": [("take_damage", {"amount": 1}), ("rest_at_port", {})],
    "miasma/DiceMonarchsGame": [("new_table", {"players": ["Ash", "Bryn"], "seed": 21})],
    "miasma/EarthmoteLog": [("generate", {"seed": 4}), ("generate", {"seed": 9})],
    "miasma/MiasmaTracker": [("add_character", {"name": "Ash"}),
                             ("enter_miasma", {"name": "Ash"}), ("pass_time", {"hours": 2})],
    "variant5e/Turn": [("start_turn", {}), ("take_action", {"name": "Dash"}),
                       ("use_reaction", {})],
    "variant5e/MagicItem": [("activate", {}), ("regain_charges", {"count": 1})],
    "variant5e/DeathRecord": [("drop_to_zero", {}), ("death_save", {"roll": 12})],
    "variant5e/MovementCounter": [("set_speed", {"speed": 30}), ("step", {"direction": "N"})],
    "variant5e/FacingTracker": [("start_turn", {}), ("end_move", {"facing": "E"})],
    "variant5e/HitDice": [("take_damage", {"amount": 3}), ("short_rest", {})],
    "variant5e/Reactions": [("start_own_turn", {}), ("opportunity_attack", {"target": "Orc"})],
    "variant5e/SpellPoints": [("set_class_level", {"class_level": 3}),
                              ("cast", {"spell_level": 1})],
    "monsters_and_magic/MonstersAndMagicAdventurer": [("mark_fatigue", {}), ("heal", {"amount": 1}),
                                                      ("gain_supplies", {})],
    "monsters_and_magic/MonstersAndMagicGM": [("gain_thread", {}), ("gain_thread", {})],
}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    db = out / "campaigns.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    store = Store(f"sqlite:///{db}")
    names = ["plot_points", "cairn_srd", "miasma", "variant5e", "monsters_and_magic"]
    campaign = create(store, "Compat", names, who="Mira", role="gm")
    notes: dict[str, list[str]] = {}
    for ruleset in names:
        for key, cls in sorted(tracker_kinds(ruleset).items()):
            kind = key.partition("/")[2]
            role = "party" if kind in ("Character", "MonstersAndMagicAdventurer") else "minigame"
            tracker = campaign.add(f"{kind} one", cls(), role=role)
            done = []
            for name, kwargs in MOVES.get(key, []):
                try:
                    getattr(tracker, name)(**kwargs)
                    done.append(name)
                except Exception as exc:
                    done.append(f"refused {name}: {exc}")
            if any(not d.startswith("refused") for d in done):
                tracker.undo()
                done.append("undo")
            notes[key] = done
    # A hidden dice roll and its reveal; a hidden rule roll that moves a sheet.
    hidden = campaign.roll_entry("1d20", 99, mode="gm")
    campaign.reveal(hidden.entry)
    sheet = campaign.tracker("Character one")
    with campaign.rolling("gm", seed=5) as scope:
        sheet.take_damage(1)
        scope.log("Ghoul hits", 5, "1 damage")
    campaign.roll_entry("2d6", 3)  # a public roll
    states = {m.name: {"kind": m.key, "role": m.role, "state": m.tracker.snapshot(),
                       "log": [e.summary for e in m.tracker.log]} for m in campaign}
    (out / "states.json").write_text(json.dumps(states, indent=1, sort_keys=True) + "\n")
    (out / "export.json").write_text(json.dumps(campaign.export(), indent=1, sort_keys=True)
                                     + "\n")
    (out / "notes.json").write_text(json.dumps(notes, indent=1) + "\n")
    store.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
