"""A player's view of the ``add`` of a tracker with hidden information keeps the log's
shape: a bare state (the public form's state part) at the schema version the event names,
never the public form's whole save. Replayed as the log's own ``add`` is (a phone's
mirror does), it makes a tracker of the same public state as the live one's public form.

The view's chain still holds: a duel added with nothing hidden is now the stored entry
itself (shown whole, its hash computed again and checked), one added with a pending pick is
a placeholder; the view verifies, and a whole entry changed is refused naming it."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.miasma.dice_monarchs.game import DiceMonarchsGame
from companion.state import Tracker, move, upcaster
from companion.store import open_store
from companion.store.campaign import create
from companion.store.registry import tracker_class
from companion.store.upcast import fact_schema
from tests.conftest import session_of
from tests.fairplay.cli import run, verify_doc

pytestmark = pytest.mark.timeout(120)


def _pending_duel() -> Duel:
    duel = Duel()
    duel.start("Ann", "Bob", 6, 5, "the last word")
    duel.choose("Bob", "flourish", seed=7)  # Bob's pick: hidden from Ann until hers
    return duel


def _replayed(event: dict[str, Any]) -> Tracker:
    """The tracker an ``add`` event makes, as the campaign's replay makes it."""
    data = event["data"]
    cls = tracker_class(data["kind"])
    return cls.from_state(data["state"], schema=fact_schema(data), checked=False)


def test_a_player_s_view_of_a_duel_s_add_replays_to_its_public_form(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Gus", role="gm"))
        live = gm.add("Duel", _pending_duel(), role="encounter")
        stored = [e.to_dict() for e in gm.log() if e.kind == "add"]
        # The GM's log holds the pick (the search can find it).
        assert stored[-1]["data"]["state"]["choices"] == ["", "flourish"]
        for who in ("Ann", "Bob", ""):
            (add,) = [e for e in fairplay.visible_to(stored, who, "player", tracker_class)
                      if e["kind"] == "add"]
            state = add["data"]["state"]
            assert "format" not in state and "tracker" not in state, state  # a bare state
            assert state["choices"] == ["", ""]  # no pick, not even Bob's own
            public = fairplay.public_form(live, who)
            assert _replayed(add).to_dict()["state"] == public["state"]
            assert fact_schema(add["data"]) == public.get("schema", 1)
            assert set(add["data"]) == set(stored[-1]["data"])  # no field more or less


@dataclass
class _Vault(Tracker):
    """A tracker with hidden information at schema 2 (its ``code`` was ``pin`` at 1)."""

    schema = 2
    code: int = 0
    opened: bool = False

    @move
    def open(self) -> None:
        self.opened = True

    def public_save(self) -> dict[str, Any]:
        save = self.to_dict()
        save["state"]["code"] = 0  # the secret
        return save


@upcaster(_Vault, from_version=1)
def _pin_to_code(state: dict[str, Any]) -> dict[str, Any]:
    state["code"] = state.pop("pin")
    return state


def test_an_older_add_is_shown_at_the_schema_its_public_form_was_written_at() -> None:
    old = {"seq": 1, "kind": "add", "tracker": "vault", "seed": None,
           "data": {"kind": "test/vault", "name": "Vault", "role": "encounter",
                    "state": {"pin": 1234, "opened": True}}}  # schema 1: no field

    def lookup(key: str) -> type[Any]:
        assert key == "test/vault"
        return _Vault

    (add,) = fairplay.visible_to([old], "Ann", "player", lookup)
    assert add["data"]["state"] == {"code": 0, "opened": True}
    assert add["data"]["schema"] == 2  # upgraded on the way: the version it is of now
    vault = _Vault.from_state(add["data"]["state"], schema=add["data"]["schema"])
    assert (vault.code, vault.opened) == (0, True)
    assert "1234" not in json.dumps(add)
    # The GM's view is the stored event itself.
    assert fairplay.visible_to([old], "Gus", "gm", lookup) == [old]


def _view(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    status, out, err = run(capsys, "log", "T", "--json", *argv)
    assert status == 0, err
    return json.loads(out)


def test_a_player_s_view_with_duel_adds_verifies_and_a_changed_one_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "c.db")
    monkeypatch.setenv("COMPANION_DB", path)
    with open_store(path) as store:
        gm = session_of(create(store, "T", ["cairn_srd", "miasma"], who="Gus", role="gm"))
        plain = Duel()
        plain.start("Ann", "Cid", 4, 4, "a wager")  # nothing hidden in it
        gm.add("Open duel", plain, role="encounter")
        gm.add("Duel", _pending_duel(), role="encounter")
        dealt = DiceMonarchsGame.start(["Ann", "Bob"], 100, seed=987_654_321)
        dealt.deal()
        gm.add("Table", dealt, role="minigame")
    view = _view(capsys, "--player", "Ann")
    rows = {row["tracker"]: row for row in view["events"] if row["kind"] == "add"}
    # Nothing hidden: the view's entry is the stored one, shown whole and hashed again.
    assert "placeholder" not in rows["open-duel"], rows["open-duel"]
    assert rows["open-duel"]["event_data"]["state"]["names"] == ["Ann", "Cid"]
    # A pending pick, and the table's hole dice: what the view shows is not the entry.
    assert rows["duel"].get("placeholder") is True and "event_data" not in rows["duel"]
    assert rows["table"].get("placeholder") is True
    status, _, err = verify_doc(capsys, tmp_path, view)
    assert status == 0, err
    # The whole entry changed (Ann's hit points): refused, naming it.
    changed = copy.deepcopy(view)
    seq = rows["open-duel"]["seq"]
    row = next(r for r in changed["events"] if r["seq"] == seq)
    row["event_data"]["state"]["hit_points"] = [9, 4]
    status, _, err = verify_doc(capsys, tmp_path, changed)
    assert status != 0 and f"entry {seq} is not the entry its chain hash names" in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
