"""Who sees what: a player's view of the log (library and ``log --json``) never holds
another's secret; the GM's holds every one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion import fairplay
from companion.cli import main
from companion.store import create_campaign, open_campaign, open_store

pytestmark = pytest.mark.timeout(120)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


#: (roller, role, mode) of each roll, in log order (entries 1..8).
ROLLS = [("Mira", "gm", "gm"), ("Mira", "gm", "blind"), ("Mira", "gm", "self"),
         ("Ash", "player", "gm"), ("Ash", "player", "blind"), ("Ash", "player", "self"),
         ("Briar", "player", "self"), ("Ash", "player", "public")]

#: Who may see each roll's dice before any reveal.
SEES = {
    "Mira": {1, 2, 3, 4, 5, 6, 7, 8},  # the GM: everything
    "Ash": {6, 8},                      # their own self roll and the public one
    "Briar": {7, 8},
    "": {8},                            # no name: public only
}


def _play(path: str) -> dict[int, dict[str, Any]]:
    """Roll ROLLS; returns each hidden roll's secret by entry."""
    secrets: dict[int, dict[str, Any]] = {}
    with open_store(path) as store:
        create_campaign(store, "Tuesday", ["plot_points"], who="Mira", role="gm")
        for seed, (who, role, mode) in enumerate(ROLLS, start=100):
            campaign = open_campaign(store, "Tuesday", who=who, role=role)
            # A different expression each time, so no two rolls' texts can coincide.
            logged = campaign.roll_entry(f"3d6+{seed}", mode=mode, seed=seed)
            assert logged.entry == seed - 99
            if mode != "public":
                (event,) = [e for e in campaign.log(["roll"]) if e.seq == logged.entry]
                secrets[logged.entry] = event.data["secret"]
    return secrets


def _leaks(text: str, secret: dict[str, Any]) -> list[str]:
    """The pieces of ``secret`` found in ``text``: its nonce, its seed, its roll's text."""
    found = [name for name in ("nonce", "text") if str(secret[name]) in text]
    if f'"seed": {secret["seed"]}' in text or f"seed {secret['seed']}" in text:
        found.append("seed")
    return found


@pytest.mark.parametrize("viewer", ["Mira", "Ash", "Briar", ""])
def test_a_view_holds_exactly_the_secrets_its_viewer_may_see(env_db: str,
                                                             viewer: str) -> None:
    secrets = _play(env_db)
    role = "gm" if viewer == "Mira" else "player"
    with open_store(env_db) as store:
        campaign = open_campaign(store, "Tuesday", who=viewer, role=role)
        seen = campaign.visible_to(viewer, role)
    assert [e.seq for e in seen] == list(range(1, 9))  # every entry, numbers kept
    text = json.dumps([e.to_dict() for e in seen])
    for entry, secret in secrets.items():
        leaked = _leaks(text, secret)
        if entry in SEES[viewer]:
            assert leaked == ["nonce", "text", "seed"], entry
            assert seen[entry - 1].data["secret"] == secret
        else:
            assert leaked == [], (viewer, entry, leaked)
            assert set(seen[entry - 1].data) == {"mode", "commitment"}
    for event in seen[:7]:
        assert event.seed is None  # the seed column of a hidden roll is always empty


def test_the_roller_of_a_blind_roll_is_not_shown_it(env_db: str) -> None:
    with open_store(env_db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        blind = ash.roll_entry("1d20", mode="blind")
        own = ash.roll_entry("1d20", mode="self")
        gm_only = ash.roll_entry("1d20", mode="gm")
    assert not blind.shown_to("Ash", "player") and blind.shown_to("Mira", "gm")
    assert own.shown_to("Ash", "player") and not own.shown_to("Briar", "player")
    assert not gm_only.shown_to("Ash", "player")
    assert not own.shown_to("", "player")  # no name is nobody's own


def test_player_exports_hold_no_hidden_secret_until_revealed(
        env_db: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    secrets = _play(env_db)
    views = {"every player": (), "Ash": ("--player", "Ash"), "Briar": ("--player", "Briar"),
             "GM": ("--gm",)}
    may_see = {"every player": SEES[""], "Ash": SEES["Ash"], "Briar": SEES["Briar"],
               "GM": SEES["Mira"]}
    for name, view in views.items():
        for form in (("--json",), ("--csv",), ()):
            status, out, err = run(capsys, "log", "Tuesday", *form, *view)
            assert status == 0 and not err
            for entry, secret in secrets.items():
                leaked = _leaks(out, secret)
                if entry not in may_see[name]:
                    assert leaked == [], (name, form, entry, leaked)
                elif form == ("--json",):
                    assert "nonce" in leaked, (name, entry)
    # The GM reveals entry 4 (Ash's GM-only roll): now every view holds it, and verifies.
    status, out, _ = run(capsys, "reveal", "Tuesday", "4")
    assert status == 0 and out.startswith("entry 9: revealed entry 4 (GM only): 3d6+103 = [")
    status, out, _ = run(capsys, "log", "Tuesday", "--json", "--player", "Briar")
    doc = json.loads(out)
    assert _leaks(out, secrets[4]) == ["nonce", "text", "seed"]
    assert _leaks(out, secrets[5]) == []
    assert doc["events"][3]["roll"] == {"mode": "gm",
                                        "commitment": doc["events"][3]["roll"]["commitment"],
                                        "revealed": 9}
    assert fairplay.verify(doc) == 3  # the reveal, Briar's own self roll, the public roll
    file = tmp_path / "briar.json"
    file.write_text(out)
    status, out, err = run(capsys, "verify", str(file))
    assert (status, err) == (0, "") and "3 rolls checked, all hold" in out


def test_who_may_reveal(env_db: str) -> None:
    with open_store(env_db) as store:
        create_campaign(store, "Tuesday", ["plot_points"])
        ash = open_campaign(store, "Tuesday", who="Ash", role="player")
        briar = open_campaign(store, "Tuesday", who="Briar", role="player")
        gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
        own = ash.roll_entry("1d20", mode="self").entry
        blind = ash.roll_entry("1d20", mode="blind").entry
        public = ash.roll_entry("1d20").entry
        with pytest.raises(fairplay.FairPlayError,
                           match=r"^only the GM can reveal entry 1 \(a self roll by Ash\)$"):
            briar.reveal(own)
        with pytest.raises(fairplay.FairPlayError,
                           match=r"^only the GM can reveal entry 2 \(a blind roll by Ash\)$"):
            ash.reveal(blind)
        with pytest.raises(fairplay.FairPlayError, match="is a public roll"):
            gm.reveal(public)
        with pytest.raises(fairplay.FairPlayError, match="has no roll numbered 42"):
            gm.reveal(42)
        for far in (0, -3, 2**63, 10**100):  # past the store's numbers: one line, short
            with pytest.raises(fairplay.FairPlayError, match="has no roll numbered") as err:
                gm.reveal(far)
            assert len(str(err.value)) < 80
        assert ash.reveal(own).data["entry"] == own
        assert gm.reveal(blind).data["entry"] == blind
        with pytest.raises(fairplay.FairPlayError, match="already revealed"):
            gm.reveal(own)
        assert [e.kind for e in gm.log()] == ["roll", "roll", "roll", "reveal", "reveal"]


def test_without_a_tracker_lookup_every_tracker_counts_as_hiding_information(
        env_db: str) -> None:
    """The core's visible_to never imports the store: the store passes its tracker lookup;
    without it a plain sheet's move loses its seed too (nothing leaks by omission)."""
    import random

    from companion.rulesets.cairn_srd.character import Character
    from companion.store.registry import tracker_class

    with open_store(env_db) as store:
        gm = create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Ash", Character("Ash")).take_damage(2, rng=random.Random(5))
        events = [e.to_dict() for e in gm.log()]
    assert events[1]["kind"] == "move" and isinstance(events[1]["seed"], int)
    known = fairplay.visible_to(events, "Ash", "player", tracker_class)
    assert known == events  # a Cairn sheet hides nothing
    unknown = fairplay.visible_to(events, "Ash", "player")
    assert unknown[1]["seed"] is None and unknown[0]["data"]["state"] is None


def test_the_gms_hidden_watch_dc_is_not_in_a_players_view() -> None:
    """An argument a tracker names secret (the M&M sheet's Take Watch DC, given by the GM)
    is left out of a player's view of the move; the GM's view keeps it."""
    from companion.store.registry import tracker_class

    add = {"seq": 1, "kind": "add", "tracker": "ash", "who": "Mira", "role": "gm",
           "move": None, "seed": None,
           "data": {"kind": "monsters_and_magic/MonstersAndMagicAdventurer"}}
    rest = {"seq": 2, "kind": "move", "tracker": "ash", "who": "Mira", "role": "gm",
            "move": "long_rest", "seed": 5,
            "data": {"args": {"activities": ["Take Watch"], "watch_dc": 15}}}
    player = fairplay.visible_to([add, rest], "Ash", "player", tracker_class)[1]
    gm = fairplay.visible_to([add, rest], "Mira", "gm", tracker_class)[1]
    assert player["data"]["args"] == {"activities": ["Take Watch"]}
    assert gm["data"]["args"]["watch_dc"] == 15
    assert rest["data"]["args"]["watch_dc"] == 15  # the input is not changed
