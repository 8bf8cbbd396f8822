"""Issue 28, what the seat may read, on the pages: a three-seat Dice Monarchs campaign (the
GM, Ash and Bryn, each on their own page, built in-process as their notebook builds them)
is dealt and played to the showdown by taps on the seats' own pages. All along, nothing
reachable from a player's page (its widgets, their traits, the models they hold) carries
the other player's hole dice, the table seed or its salt, until the showdown shows the hole
dice as the rules say; the GM's page holds them (so the check can fail), and a leak planted
in a player's page is found."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

import ipywidgets as widgets

from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import create_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.session import Keeper
from companion.widgets.miasma import DiceMonarchsApp
from companion.widgets.miasma.dice_monarchs import PublicSave
from companion.widgets.table import campaign_page
from companion.widgets.table.apps import MONARCHS
from tests.conftest import session_of
from tests.table.reach import leaks, reachable
from tests.widgets.app_page import Scope, text_of, walk

#: The table seed the GM types (a number found nowhere else).
SEED = 604_117_392_851_273

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "seat-views.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def _pages(db: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, widgets.Widget]:
    with open_store(db) as store:
        gm = create_campaign(store, "Tuesday", ["miasma"], who="Mira", role="gm")
        gm.add(MONARCHS, DiceMonarchsGame(), role="minigame").new_table(
            ["Ash", "Bryn"], 20, seed=SEED)
        secrets = {who: make_seat(store, "Tuesday", who, role)
                   for who, role in (("Mira", "gm"), ("Ash", "player"), ("Bryn", "player"))}
    pages = {}
    for who, secret in secrets.items():
        monkeypatch.setenv("QUERY_STRING", f"campaign=Tuesday&seat={secret}")
        pages[who] = campaign_page("dice_monarchs")
    return pages


def _app(page: widgets.Widget) -> DiceMonarchsApp:
    found = [w for w in walk(page) if isinstance(w, DiceMonarchsApp)]
    assert len(found) == 1
    return found[0]


def _session(page: widgets.Widget) -> Session:
    recorder = _app(page).game.recorder
    return recorder if isinstance(recorder, Session) else session_of(recorder) \
        if isinstance(recorder, Campaign) else recorder.session  # type: ignore[union-attr]


def _secrets(gm_page: widgets.Widget, hidden: str) -> dict[str, Any]:
    game = _app(gm_page).game
    return {"ints": [SEED], "texts": [game.salt], "dice": [list(game.hole_dice(hidden))]}


def _held(page: widgets.Widget, secrets: dict[str, Any]) -> set[str]:
    return leaks(reachable([page], (Session, Campaign)), **secrets)


def test_a_three_seat_table_plays_to_the_showdown_and_no_page_holds_another_s_dice(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pages = _pages(db, monkeypatch)
    sessions = {who: _session(page) for who, page in pages.items()}
    gm_game = _app(pages["Mira"]).game
    assert isinstance(gm_game.recorder, Keeper)  # the GM reads the live table
    Scope(pages["Mira"]).tap("deal")
    for session in sessions.values():
        session.refresh()
    assert gm_game.hand_no == 1 and gm_game.hole_dice("Ash") != gm_game.hole_dice("Bryn")
    everything = {f"int {SEED}", f"text {gm_game.salt!r}"}
    for me, other in (("Ash", "Bryn"), ("Bryn", "Ash")):
        secrets = _secrets(pages["Mira"], other)
        assert _held(pages["Mira"], secrets) == everything | {f"dice {secrets['dice'][0]}"}
        assert _held(pages[me], secrets) == set(), me
        mine = _app(pages[me]).game
        assert mine.hole_dice(me) == gm_game.hole_dice(me) and mine.hole_dice(other) == ()
        private = text_of(Scope(pages[me]).one("tc-monarchs-private").value)
        assert "your hole dice" in private
        # The page's Save: the public save the session gives (the other's dice as their
        # commitment, the seed as its own), not one of the mirror's blanks.
        saved = json.loads(PublicSave(mine, me).to_json())
        assert saved == gm_game.public_save(me) and saved["view"]["commitments"][other]

    # A leak planted in a player's page is found.
    ash_secrets = _secrets(pages["Mira"], "Bryn")
    _app(pages["Ash"]).__dict__["_planted"] = [gm_game]
    assert _held(pages["Ash"], ash_secrets) == everything | {
        f"dice {ash_secrets['dice'][0]}"}
    del _app(pages["Ash"]).__dict__["_planted"]

    # Play the hand out by taps on the seat's own page: bet 2, then call and check.
    taps = 0
    while gm_game.phase not in ("hand_over", "game_over"):
        player = gm_game.player_to_act
        assert player is not None and taps < 40
        legal = gm_game.legal_moves(player)
        page = Scope(pages[player])
        if "check" in legal:
            page.tap("check")
        elif "call" in legal:
            page.tap("call")
        else:
            page.fill("amount", "2")
            page.tap("bet")
        taps += 1
        for session in sessions.values():
            session.refresh()
        if gm_game.phase not in ("hand_over", "game_over"):
            for me, other in (("Ash", "Bryn"), ("Bryn", "Ash")):
                assert _held(pages[me], _secrets(pages["Mira"], other)) == set(), (me, taps)
    assert len(gm_game.community) == 5 and gm_game.revealed_seats() == [0, 1]
    for me, other in (("Ash", "Bryn"), ("Bryn", "Ash")):
        mirror = _app(pages[me]).game
        # The showdown shows both hands to everyone (rule 7); the seed stays the table's.
        assert mirror.hole_dice(other) == gm_game.hole_dice(other)
        assert _held(pages[me], {"ints": [SEED], "texts": [gm_game.salt]}) == set()
        outcome = text_of(Scope(pages[me]).one("tc-monarchs-outcome").value)
        assert re.search(rf"{other} reveals hole dice", outcome)
        assert mirror.stacks == gm_game.stacks and sum(mirror.stacks) == 40
    assert all(Scope(p).alerts() == [] for p in pages.values())


def _marked(objects: list[Any]) -> list[Any]:
    """A hidden roll's dice a sheet keeps: a record marked with the roll's mode."""
    return [o for o in objects if getattr(o, "hidden", None) == "gm"
            or (isinstance(o, dict) and o.get("hidden") == "gm" and "natural" in o)]


def test_a_player_s_monsters_and_magic_page_holds_no_hidden_check_s_dice(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    with open_store(db) as store:
        gm = session_of(create_campaign(store, "Wednesday", ["monsters_and_magic"],
                                        who="Mira", role="gm"))
        gm.add("Ash", Adventurer.new("Ash", max_hp=12))
        sheet = gm.tracker("Ash", Adventurer)
        gm._rule_roll("Ash: power check",
                     lambda rng: sheet.roll_check("power", dc=12, rng=rng), mode="gm")
        assert sheet.last_check is not None and sheet.last_check.hidden == "gm"
        secrets = {who: make_seat(store, "Wednesday", who, role)
                   for who, role in (("Mira", "gm"), ("Ash", "player"))}
    held = {}
    for who, secret in secrets.items():
        monkeypatch.setenv("QUERY_STRING", f"campaign=Wednesday&seat={secret}")
        page = campaign_page("monsters_and_magic")
        assert Scope(page).alerts() == []
        held[who] = _marked(reachable([page], (Session, Campaign)))
    assert held["Mira"] and held["Ash"] == []  # the GM's sheet keeps it; Ash's page not


def test_no_app_a_player_opens_holds_another_seat_s_hidden_value(
        db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app of the campaign's rulesets, opened on Bryn's page: none holds Ash's hole
    dice, the table seed or salt, Ash's pending duel pick, or a hidden check's dice; the
    GM's pages hold each (so the walk can find them)."""
    from companion.rulesets.cairn_srd.duel import Duel
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer
    from companion.widgets.table.apps import APPS, DUEL

    rulesets = ["cairn_srd", "miasma", "monsters_and_magic"]
    with open_store(db) as store:
        gm = session_of(create_campaign(store, "Every", rulesets, who="Mira", role="gm"))
        gm.add(MONARCHS, DiceMonarchsGame(), role="minigame")
        gm.tracker(MONARCHS, DiceMonarchsGame).new_table(["Ash", "Bryn"], 20, seed=SEED)
        gm.act(MONARCHS, "deal")
        gm.add(DUEL, Duel(), role="minigame")
        gm.act(DUEL, "start", "Ash", "Bryn", 6, 6, "the bridge")
        gm.act(DUEL, "choose", "Ash", "flourish")
        gm.add("Cole", Adventurer.new("Cole", max_hp=12))
        sheet = gm.tracker("Cole", Adventurer)
        gm._rule_roll("Cole: power check",
                     lambda rng: sheet.roll_check("power", dc=12, rng=rng), mode="gm")
        game = gm.tracker(MONARCHS, DiceMonarchsGame)
        secrets = {"ints": [SEED], "texts": [game.salt],
                   "dice": [list(game.hole_dice("Ash")), ["flourish", ""]]}
        seats = {who: make_seat(store, "Every", who, role)
                 for who, role in (("Mira", "gm"), ("Bryn", "player"))}
    everything = {f"int {SEED}", f"text {game.salt!r}",
                  f"dice {list(game.hole_dice('Ash'))}", "dice ['flourish', '']"}
    found: dict[str, set[str]] = {"Mira": set(), "Bryn": set()}
    for who, secret in seats.items():
        monkeypatch.setenv("QUERY_STRING", f"campaign=Every&seat={secret}")
        for app in APPS:
            if app.ruleset and app.ruleset not in rulesets:
                continue
            objects = reachable([campaign_page(app.key)], (Session, Campaign))
            held = leaks(objects, **secrets) | ({"a hidden check"} if _marked(objects) else set())
            if who == "Bryn":
                assert held == set(), app.key
            found[who] |= held
    assert found["Mira"] == everything | {"a hidden check"}
