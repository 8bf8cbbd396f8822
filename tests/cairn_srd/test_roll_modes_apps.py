"""Roll modes and real dice in every Cairn app (issue 13), driven headless on a real campaign
(an SQLite file), each app built the way the table companion builds it for the campaign.

For each app: a roll the GM makes in GM-only mode is logged in the campaign's roll log as a
commitment (the GM's screen shows the result), and a player's view of the log holds
neither the result, nor the seed, nor the nonce (the move it made reads "a hidden roll");
a roll from real dice gives the rule's result for the faces entered and is logged as own
dice; an impossible face is refused under the faces box and nothing is rolled or logged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from companion import fairplay
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.duel import Duel
from companion.store import create_campaign, open_campaign, open_store
from companion.store.campaign import Campaign
from companion.store.db import Store
from companion.widgets.cairn_srd import (
    CairnCharacterApp,
    CombatApp,
    DuelApp,
    MassCombatApp,
    WildernessApp,
)
from companion.widgets.cairn_srd.common import HIDDEN_LINE, CairnAppBase
from companion.widgets.table.apps import DUEL, ensure, spec
from tests.cairn_srd.widget_find import find_button, walk
from tests.conftest import campaign_of, find_widget, session_of

pytestmark = pytest.mark.timeout(120)

#: A seed no other number on the page is likely to contain.
SEED = 987_654_321


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "table.db")) as opened:
        gm = create_campaign(opened, "Barrow", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Ash", new_character("Ash", 10, 12, 9, 5))
        yield opened


def app_in(root: widgets.Widget) -> CairnAppBase:
    """The one Cairn app under ``root`` (the campaign's panels wrap some of them)."""
    found = [w for w in walk(root) if isinstance(w, CairnAppBase)]
    assert len(found) == 1, found
    return found[0]


def _duel(campaign: Campaign) -> widgets.Widget:
    """The GM runs the duel on one device (hot seat): both rows are theirs to choose."""
    return DuelApp(ensure(session_of(campaign), DUEL, Duel, Duel), session=session_of(campaign))


def _click(*names: str) -> Callable[[CairnAppBase], None]:
    def prepare(app: CairnAppBase) -> None:
        for name in names:
            find_button(app, name).click()
            assert not app.error.message, (name, app.error.message)
    return prepare


def _spells(app: CairnAppBase) -> None:
    find_button(app, "dice-1").click()


def _fight(app: CairnAppBase) -> None:
    assert isinstance(app, CombatApp)
    encounter = app.encounter
    encounter.add("Ash", "PCs", guard=5, strength=10, dexterity=12, pc=True)
    encounter.add("Goblin", "Enemies", guard=2, strength=6, control=7)


def _duel_started(app: CairnAppBase) -> None:
    find_widget(app, "stakes").value = "the bridge"
    _click("start", "choose-0-attack")(app)


def _camp(app: CairnAppBase) -> None:
    assert isinstance(app, WildernessApp)
    _click("weather")(app)
    app.action.value = "make camp"
    _click("choose")(app)
    app.member.value = "Ash"


def _ship(app: CairnAppBase) -> None:
    assert isinstance(app, MassCombatApp)
    app.panel.amount.value = 10  # Guard 6 takes 6, the hull 4: a save vs 6


@dataclass(frozen=True)
class Case:
    """One app's roll: how to make it legal, the button, real dice and what they give, an
    impossible entry and its refusal."""

    key: str
    build: Callable[[Campaign], widgets.Widget] | None
    prepare: Callable[[CairnAppBase], None]
    button: str
    faces: str
    gives: tuple[str, ...]
    bad: str
    refusal: str

    def make(self, campaign: Campaign) -> CairnAppBase:
        root = self.build(campaign) if self.build else spec(self.key).build(
            session_of(campaign))
        app = app_in(root)
        self.prepare(app)
        return app


CASES = [
    Case("cairn_character", None, lambda app: None, "sheet-save", "4",
         ("Ash saves STR: d20 = 4 vs ≤ 10: success", "(own dice)"), "21",
         "die 1: a d20 shows 1 to 20, not 21"),
    Case("spellcasting", None, _spells, "cast", "3", ("magic dice 3: 0 Fatigue",), "7",
         "die 1: a d6 shows 1 to 6, not 7"),
    Case("cairn_combat", None, _fight, "initiative", "4",
         ("Ash d20 = 4 vs ≤ 12: success",), "21", "die 1: a d20 shows 1 to 20, not 21"),
    Case("duel", _duel, _duel_started, "choose-1-flourish", "5 2",
         ("deals d8 = 5", "deals d4 = 2"), "9 2", "die 1: a d8 shows 1 to 8, not 9"),
    Case("lockpicking", None, lambda app: None, "new-lock", "3 2 5",
         ("3d12 = 3, 2, 5: Bolt lock (DV 2), complication Cracked",), "13",
         "die 1: a d12 shows 1 to 12, not 13"),
    Case("wilderness", None, _camp, "lookout", "5", ("Ash keeps lookout (d6 = 5 vs 5+: success)",),
         "7", "die 1: a d6 shows 1 to 6, not 7"),
    Case("dungeon_crawl", None, _click("declare", "describe"), "roll-die", "4",
         ("site clock 20 - 4 = 16",), "7", "die 1: a d6 shows 1 to 6, not 7"),
    Case("downtime", None, lambda app: None, "rumour", "1", ("a rumour: Local color",), "99",
         "die 1: a d"),
    Case("cairn_mass_combat", None, _ship, "ship-hit", "4", ("save d20 = 4 vs ≤ 6: success",),
         "21", "die 1: a d20 shows 1 to 20, not 21"),
    Case("cairn_tasks", None, lambda app: None, "skill-roll", "6", ("d6 = 6 vs 5+: success",),
         "7", "die 1: a d6 shows 1 to 6, not 7"),
]


def test_every_cairn_app_is_checked_here() -> None:
    from companion.widgets.table.apps import APPS

    cairn = {a.key for a in APPS if a.ruleset == "cairn_srd"}
    assert cairn == {c.key for c in CASES}


def _gm(store: Store) -> Campaign:
    return open_campaign(store, "Barrow", who="Mira", role="gm")


def _rolls(campaign: Campaign) -> list[dict[str, Any]]:
    campaign.refresh()
    return [e.to_dict() for e in campaign.log(["roll"])]


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_a_gm_only_roll_is_a_commitment_players_cannot_read(store: Store, case: Case) -> None:
    gm = _gm(store)
    app = case.make(gm)
    app.seed_source = lambda: SEED
    assert campaign_of(app.controls.session) is gm and app.controls.role == "gm"
    app.controls.mode.value = "gm"
    find_button(app, case.button).click()
    assert not app.error.message, app.error.message
    (entry,) = _rolls(gm)
    data = entry["data"]
    assert data["mode"] == "gm" and data["rule"] is True and "commitment" in data
    secret = data["secret"]
    assert secret["seed"] == SEED and not secret["physical"]
    # The GM sees the result (and its seed) on their own screen ...
    assert fairplay.rule_commitment(secret["label"], SEED, secret["text"], secret["nonce"],
                                    secret["faces"]) == data["commitment"]
    assert secret["text"] in app.outcome.value and f"seed {SEED}" in app.outcome.value
    # ... and a player's view of the log has the commitment, nothing of the roll.
    player = open_campaign(store, "Barrow", who="Ash", role="player")
    seen = player.visible_to("Ash", "player")
    text = json.dumps([e.to_dict() for e in seen], ensure_ascii=False)
    assert data["commitment"] in text
    for leak in (secret["text"], secret["nonce"], str(SEED)):
        assert leak not in text, leak
    assert f'"label": {json.dumps(secret["label"], ensure_ascii=False)}' not in text
    moves = [e for e in seen if e.seq in data.get("moves", [])]
    assert all(e.data["summary"].startswith(HIDDEN_LINE) for e in moves)
    # The GM reveals it; the revealed roll checks against its commitment.
    gm.reveal(entry["seq"])
    assert fairplay.verify(gm.export()) >= 1


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_real_dice_give_the_rules_result_and_impossible_faces_are_refused(
        store: Store, case: Case) -> None:
    gm = _gm(store)
    app = case.make(gm)
    app.controls.own.value = True
    before = len(gm.log())
    app.controls.faces.value = case.bad
    find_button(app, case.button).click()
    assert case.refusal in app.controls.faces.refusal.message
    assert len(gm.log()) == before and _rolls(gm) == []  # nothing rolled, nothing logged
    app.controls.faces.value = case.faces
    find_button(app, case.button).click()
    assert not app.error.message, app.error.message
    for part in case.gives:
        assert part in app.outcome.value, (part, app.outcome.value)
    (entry,) = _rolls(gm)
    assert entry["data"]["physical"] is True and entry["seed"] is None
    assert entry["data"]["faces"] == [int(f) for f in case.faces.split()]
    assert "seed" not in app.outcome.value


def test_a_players_blind_save_shows_them_only_its_commitment(store: Store) -> None:
    """Ash's own sheet on Ash's phone: a blind panic save. Their screen gets the commitment
    line, not the roll; the GM's view of the log holds it; they have no seed box."""
    player = open_campaign(store, "Barrow", who="Ash", role="player")
    app = case_app(player, "cairn_character")
    assert [v for _, v in app.controls.mode.options] == ["public", "blind", "self"]
    app.controls.mode.value = "blind"
    assert not app.seed_shown  # in a campaign the seed box is the GM's (issue 19)
    app.seed_source = lambda: SEED
    find_button(app, "panic").click()
    assert not app.error.message, app.error.message
    (entry,) = _rolls(player)
    secret = _gm(store).log(["roll"])[0].data["secret"]
    assert "Hidden roll committed" in app.outcome.value
    assert entry["data"]["commitment"][:12] in app.outcome.value
    for leak in (secret["text"], str(SEED), "d20 ="):
        assert leak not in app.outcome.value, leak
    assert app.last_roll is not None and app.last_roll.value is None
    gm_view = json.dumps([e.to_dict() for e in _gm(store).visible_to("Mira", "gm")],
                         ensure_ascii=False)
    assert secret["text"] in gm_view and secret["text"].startswith("Ash panic save: d20 = ")


def case_app(campaign: Campaign, key: str) -> CairnAppBase:
    (case,) = [c for c in CASES if c.key == key]
    return case.make(campaign)


@pytest.mark.parametrize("with_campaign", [False, True], ids=["alone", "campaign"])
def test_faces_left_over_refuse_the_roll_and_leave_the_sheet_as_it_was(
        store: Store, with_campaign: bool) -> None:
    """4 damage against Guard 5 rolls no die: a d20 entered for it is refused ("1 dice
    entered, the roll used 0") and the damage is not marked, with or without a campaign
    (without one the roll controls undo the move on the app's trackers)."""
    gm = _gm(store)
    app = case_app(gm, "cairn_character") if with_campaign else CairnCharacterApp(
        new_character("Ash", 10, 12, 9, 5))
    assert isinstance(app, CairnCharacterApp)
    sheet = app.character
    before = sheet.snapshot()
    app.controls.own.value = True
    app.controls.faces.value = "4"
    find_widget(app, "damage").value = 4
    find_button(app, "take-damage").click()
    assert app.controls.faces.refusal.message == "1 dice entered, the roll used 0"
    assert sheet.snapshot() == before and sheet.guard == 5
    assert _rolls(gm) == []  # no roll logged (the campaign keeps the move and its undo)
    app.controls.faces.value = ""
    app.controls.own.value = False
    find_button(app, "take-damage").click()
    assert sheet.guard == 1 and not app.error.message


def test_duel_roll_controls_only_where_someone_chooses(store: Store) -> None:
    """The exchange is rolled by the choice that reveals both: the table screen (the GM's,
    both duelists seated on their own screens) has no roll controls, a duelist's own
    screen has them (their modes); the GM's screen has them while a duelist with no seat
    chooses there (the hot seat, issue 31)."""
    from companion.store.seats import make_seat, revoke_seat

    gm = _gm(store)
    ensure(session_of(gm), DUEL, Duel, Duel).start("Ash", "Bo", 6, 6, "the bridge")
    make_seat(store, "Barrow", "Ash", "player")
    make_seat(store, "Barrow", "Bo", "player")
    table = app_in(spec("duel").build(session_of(gm)))
    assert table.controls.layout.display == "none"
    revoke_seat(store, "Barrow", "Bo")
    table.render()
    assert table.controls.layout.display is None
    ash = app_in(spec("duel").build(session_of(
        open_campaign(store, "Barrow", who="Ash", role="player"))))
    assert ash.controls.layout.display is None
    assert [v for _, v in ash.controls.mode.options] == ["public", "blind", "self"]
