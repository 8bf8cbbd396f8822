"""Issue 43 (Cairn): the moves the Cairn apps made around the session are named acts.

- Downtime upkeep moves the member's ledger on the downtime alone: one named act on the
  downtime tracker (a petty crime rolled with the session's dice), one event stored; a
  refused upkeep stores nothing; a player settles their own character's upkeep, not
  another's; the app's button makes it through the session.
- The party joining a journey (each sheet's Fatigue and Deprived read) and the journey
  copied onto the sheets are declared table moves: all stored in one unit; a player's
  move that would reach another's sheet is refused and stores nothing, not even their
  own sheet's part; the wilderness app makes both by name (a player's screen brings and
  copies their own sheet), and with no campaign on its own table.
- The party joining a fight (each read from its sheet) is a declared table move: all
  stored in one unit; refused halfway, by the seat or by the rules, it stores nothing;
  the fight panel brings the seat's own sheet by name, and says why when it may bring
  nobody.
- A delve's fate goes on a sheet by a declared table move (the widget check found it
  going around the session): the owner's seat only, by the dungeon crawl's button.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.cairn_srd.downtime import Downtime
from companion.rulesets.cairn_srd.exploration import Delve
from companion.rulesets.cairn_srd.wilderness import Journey
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Accepted, Act, Refused, RollSpec
from companion.widgets.cairn_srd.wilderness import WildernessApp
from companion.widgets.table.members import DELVE, DOWNTIME, FIGHT, JOURNEY
from companion.widgets.table.pages import campaign_app
from tests.cairn_srd.widget_find import find_button, fixed_seeds
from tests.conftest import campaign_of, session_of

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Session:
    """Campaign "T" (GM Mira) with Ash and Bryn, each a Cairn sheet."""
    gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
    gm.add("Ash", new_character("Ash", 12, 10, 9, 5, armor=1))
    gm.add("Bryn", new_character("Bryn", 10, 11, 8, 4))
    return gm


def _seat(store: Store, who: str) -> Session:
    return Session.by_secret(store, "T", make_seat(store, "T", who, "player"))


def _stored(gm: Session, since: int) -> list[tuple[str, str, str]]:
    """(who, tracker, move) of every move stored after ``since`` (roll log entries left
    out)."""
    return [(e["who"], e["tracker"], e["move"]) for e in gm.events_since(since)
            if e["kind"] == "move"]


def _head(store: Store, gm: Session) -> int:
    return store.head(campaign_of(gm).info.id)


# -- downtime upkeep ----------------------------------------------------------------------


def _downtime(gm: Session) -> Downtime:
    downtime = Downtime()
    gm.add(DOWNTIME, downtime, role="minigame")
    for name, silver in (("Ash", 30), ("Bryn", 2)):
        gm.act(DOWNTIME, "add_member", name, purse=silver)
    return gm.tracker(DOWNTIME, Downtime)


def _upkeep(name: str, way: str = "pay", **more: Any) -> Act:
    return Act(DOWNTIME, "upkeep", {"name": name, "way": way, **more})


def test_upkeep_is_one_named_act_on_the_downtime(store: Store) -> None:
    gm = _table(store)
    _downtime(gm)
    head = _head(store, gm)
    paid = gm.perform(_upkeep("Ash", lifestyle="Meager"))
    assert isinstance(paid, Accepted), paid
    assert paid.result == "pays 5 silver (meager)"
    key = gm.key_of(gm.tracker(DOWNTIME, Downtime))
    assert _stored(gm, head) == [("Mira", key, "upkeep")]
    assert gm.tracker(DOWNTIME, Downtime).member("Ash").purse == 25


def test_a_refused_upkeep_stores_nothing(store: Store) -> None:
    gm = _table(store)
    _downtime(gm)
    head = _head(store, gm)
    refused = gm.perform(_upkeep("Bryn", lifestyle="Comfortable"))
    assert isinstance(refused, Refused)
    assert "Bryn has 2 silver" in refused.reason and "\n" not in refused.reason
    assert _head(store, gm) == head
    bryn = gm.tracker(DOWNTIME, Downtime).member("Bryn")
    assert (bryn.purse, bryn.upkept) == (2, False)


def test_a_player_settles_their_own_upkeep_only(store: Store) -> None:
    gm = _table(store)
    _downtime(gm)
    ash = _seat(store, "Ash")
    head = _head(store, gm)
    theirs = ash.perform(_upkeep("Bryn", "debt"))
    assert isinstance(theirs, Refused) and "Bryn" in theirs.reason
    assert _head(store, gm) == head
    mine = ash.perform(_upkeep("Ash", "debt"))
    assert isinstance(mine, Accepted), mine
    assert [(who, move) for who, _, move in _stored(gm, head)] == [("Ash", "upkeep")]


def _spy_acts(session: Session, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The moves ``session.act`` is asked for from now on (it still makes them)."""
    made: list[str] = []
    act = session.act

    def spy(tracker: Any, move: str, /, *args: Any, **kwargs: Any) -> Any:
        made.append(move)
        return act(tracker, move, *args, **kwargs)

    monkeypatch.setattr(session, "act", spy)
    return made


def test_the_downtime_app_pays_and_commits_crime_through_the_session(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    gm = _table(store)
    _downtime(gm)
    ash = _seat(store, "Ash")
    app = campaign_app(ash, "downtime").app
    asked = _spy_acts(ash, monkeypatch)
    head = _head(store, gm)
    app.member.value, app.way.value, app.lifestyle.value = "Ash", "pay", "Meager"
    find_button(app, "upkeep").click()
    assert app.error.message == "" and "Ash: pays 5 silver (meager)" in app.outcome.value
    assert asked == ["upkeep"]
    # Bryn's upkeep from Ash's screen is refused under the buttons and stores nothing.
    app.member.value = "Bryn"
    find_button(app, "upkeep").click()
    assert "Bryn" in app.error.message
    gm.refresh()
    assert [(w, m) for w, _, m in _stored(gm, head)] == [("Ash", "upkeep")]
    assert gm.tracker(DOWNTIME, Downtime).member("Bryn").upkept is False
    # A petty crime: the same act by name, rolled with the session's dice.
    bryn = _seat(store, "Bryn")
    acts: list[Act] = []
    bryn.on_act(lambda outcome: acts.append(outcome.act))
    theirs = campaign_app(bryn, "downtime").app
    theirs.member.value, theirs.way.value, theirs.skill.value = "Bryn", "crime", True
    find_button(theirs, "upkeep").click()
    assert theirs.error.message == "" and "Bryn: petty crime" in theirs.outcome.value
    assert [(a.move, a.args["name"], a.args["way"]) for a in acts] == [
        ("upkeep", "Bryn", "crime")]
    assert acts[0].roll is not None
    gm.refresh()
    assert [(w, m) for w, _, m in _stored(gm, head)][-1] == ("Bryn", "upkeep")
    assert gm.tracker(DOWNTIME, Downtime).member("Bryn").upkept


# -- the journey and the party's sheets ---------------------------------------------------

JOIN = "cairn_srd.wilderness.join_party"
COPY = "cairn_srd.wilderness.apply_to_sheets"


def _journey(gm: Session) -> str:
    gm.add(JOURNEY, Journey(), role="minigame")
    return gm.key_of(gm.tracker(JOURNEY, Journey))


def _table_act(name: str, **args: Any) -> Act:
    return Act("", "table", {"name": name, "args": args})


def _sheet(session: Session, name: str) -> Character:
    sheet = session.read(name)
    assert isinstance(sheet, Character)
    return sheet


def test_the_party_joins_the_journey_in_one_unit(store: Store) -> None:
    gm = _table(store)
    journey = _journey(gm)
    gm.act("Ash", "add_fatigue", 2)
    head = _head(store, gm)
    joined = gm.perform(_table_act(JOIN, journey=journey, characters=["Ash", "Bryn"]))
    assert isinstance(joined, Accepted), joined
    assert joined.result == ["Ash", "Bryn"]
    assert _stored(gm, head) == [("Mira", journey, "add_traveller")] * 2
    assert [e["seq"] for e in joined.events] == [head + 1, head + 2]
    party = gm.tracker(JOURNEY, Journey).party
    assert [(t.name, t.fatigue) for t in party] == [("Ash", 2), ("Bryn", 0)]
    # Already travelling: nobody joins twice, and nothing is stored.
    again = gm.perform(_table_act(JOIN, journey=journey, characters=["Ash"]))
    assert isinstance(again, Accepted) and again.result == [] and again.events == ()


def test_a_player_s_journey_joining_another_sheet_stores_nothing(store: Store) -> None:
    gm = _table(store)
    journey = _journey(gm)
    ash = _seat(store, "Ash")
    head = _head(store, gm)
    # Ash joins first on the way, then Bryn is refused: Ash's join is taken back too.
    refused = ash.perform(_table_act(JOIN, journey=journey, characters=["Ash", "Bryn"]))
    assert isinstance(refused, Refused), refused
    assert "Bryn" in refused.reason and "\n" not in refused.reason
    assert _head(store, gm) == head
    for session in (ash, gm):
        session.refresh()
        assert session.tracker(JOURNEY, Journey).party == []
    mine = ash.perform(_table_act(JOIN, journey=journey, characters=["Ash"]))
    assert isinstance(mine, Accepted) and mine.result == ["Ash"]


def _travelled(gm: Session, journey: str) -> None:
    """Ash (2 Fatigue, Deprived) and Bryn (1 Fatigue) join, then rest on their sheets:
    the journey now holds more than the sheets do."""
    gm.act("Ash", "add_fatigue", 2)
    gm.act("Ash", "set_deprived", True)
    gm.act("Bryn", "add_fatigue", 1)
    gm.perform(_table_act(JOIN, journey=journey))
    gm.act("Ash", "set_deprived", False)
    for name in ("Ash", "Bryn"):
        gm.act(name, "rest_night")


def test_copying_to_the_sheets_is_one_unit(store: Store) -> None:
    gm = _table(store)
    journey = _journey(gm)
    _travelled(gm, journey)
    head = _head(store, gm)
    copied = gm.perform(_table_act(COPY, journey=journey))  # the journey's own sheets
    assert isinstance(copied, Accepted), copied
    assert copied.result == ["Ash: Deprived", "Ash: +2 Fatigue", "Bryn: +1 Fatigue"]
    assert [(t, m) for _, t, m in _stored(gm, head)] == [
        ("ash", "set_deprived"), ("ash", "add_fatigue"), ("bryn", "add_fatigue")]
    assert [e["seq"] for e in copied.events] == [head + 1, head + 2, head + 3]
    assert (_sheet(gm, "Ash").fatigue, _sheet(gm, "Ash").deprived) == (2, True)
    assert _sheet(gm, "Bryn").fatigue == 1


def test_a_copy_refused_halfway_stores_nothing(store: Store) -> None:
    gm = _table(store)
    journey = _journey(gm)
    _travelled(gm, journey)
    ash = _seat(store, "Ash")
    head = _head(store, gm)
    refused = ash.perform(_table_act(COPY, journey=journey, characters=["Ash", "Bryn"]))
    assert isinstance(refused, Refused), refused
    assert "Bryn" in refused.reason and "\n" not in refused.reason
    assert _head(store, gm) == head
    # Ash's own sheet, marked first on the way, was put back with the rest.
    for session in (ash, gm):
        session.refresh()
        assert (_sheet(session, "Ash").fatigue, _sheet(session, "Ash").deprived) == (0, False)
        assert _sheet(session, "Bryn").fatigue == 0
    bad = ash.perform(_table_act(COPY, journey=journey, characters="Ash"))
    assert isinstance(bad, Refused) and "'characters'" in bad.reason


def test_the_wilderness_app_joins_and_copies_through_table_moves(store: Store) -> None:
    gm = _table(store)
    journey = _journey(gm)
    for name in ("Ash", "Bryn"):
        gm.act(name, "add_fatigue", 1)
    ash = _seat(store, "Ash")
    acts: list[Act] = []
    ash.on_act(lambda outcome: acts.append(outcome.act))
    head = _head(store, gm)
    app = campaign_app(ash, "wilderness").app
    # Ash's screen brings Ash alone (Bryn is Bryn's to bring), by one named table move.
    assert [t.name for t in app.journey.party] == ["Ash"]
    assert [a.args for a in acts] == [{"name": JOIN, "args": {
        "journey": journey, "characters": ["ash"]}}]
    assert _stored(gm, head) == [("Ash", journey, "add_traveller")]
    gm.act("Ash", "rest_night")
    gm.act("Bryn", "rest_night")
    ash.refresh()
    find_button(app, "copy-sheets").click()
    assert app.error.message == "" and "Ash: +1 Fatigue" in app.outcome.value
    assert acts[-1].args == {"name": COPY, "args": {"journey": journey,
                                                    "characters": ["ash"]}}
    gm.refresh()
    assert (_sheet(gm, "Ash").fatigue, _sheet(gm, "Bryn").fatigue) == (1, 0)


def test_an_app_with_no_campaign_copies_on_its_own_table_before_and_after_a_roll() -> None:
    ash = new_character("Ash", 10, 10, 10, 3)
    app = WildernessApp(party=[ash], seed_source=fixed_seeds(5))
    app.journey.party[0].fatigue = 1
    find_button(app, "copy-sheets").click()  # no session yet: this screen's own table
    assert app.error.message == "" and ash.fatigue == 1
    find_button(app, "add-leg").click()
    find_button(app, "weather").click()
    app.action.value = "travel"
    find_button(app, "choose").click()
    find_button(app, "travel").click()  # the roll keeps the app's trackers in a session
    assert app.journey.recorder is not None and ash.recorder is app.journey.recorder
    app.journey.party[0].fatigue = 3
    find_button(app, "copy-sheets").click()
    assert app.error.message == "" and ash.fatigue == 3
    assert "Ash: +2 Fatigue" in app.outcome.value


# -- joining a fight ---------------------------------------------------------------------

FIGHT_JOIN = "cairn_srd.combat.join_characters"


def _fight(gm: Session) -> str:
    gm.add(FIGHT, Encounter(), role="encounter")
    return gm.key_of(gm.tracker(FIGHT, Encounter))


def test_the_party_joins_the_fight_in_one_unit(store: Store) -> None:
    gm = _table(store)
    fight = _fight(gm)
    head = _head(store, gm)
    joined = gm.perform(_table_act(FIGHT_JOIN, encounter=fight))  # every sheet not fighting
    assert isinstance(joined, Accepted), joined
    assert [line.split(" (")[0] for line in joined.result] == [
        "Ash joins the PCs", "Bryn joins the PCs"]
    assert _stored(gm, head) == [("Mira", fight, "add")] * 2
    assert [e["seq"] for e in joined.events] == [head + 1, head + 2]
    encounter = gm.tracker(FIGHT, Encounter)
    assert [(c.name, c.sheet, c.guard) for c in encounter.combatants] == [
        ("Ash", "ash", 5), ("Bryn", "bryn", 4)]


def test_a_fight_joined_halfway_stores_nothing(store: Store) -> None:
    gm = _table(store)
    fight = _fight(gm)
    ash = _seat(store, "Ash")
    head = _head(store, gm)
    # Ash's seat may bring Ash, not Bryn: Ash's join, made first, is taken back too.
    theirs = ash.perform(_table_act(FIGHT_JOIN, encounter=fight, characters=["Ash", "Bryn"]))
    assert isinstance(theirs, Refused) and "Bryn" in theirs.reason
    # The GM's, refused by the rules on the second sheet (a foe already has the name).
    gm.act(FIGHT, "add", "Bryn", "Enemies", 3, 10)
    head = _head(store, gm)
    clash = gm.perform(_table_act(FIGHT_JOIN, encounter=fight, characters=["Ash", "Bryn"]))
    assert isinstance(clash, Refused) and "already a combatant named" in clash.reason
    assert _head(store, gm) == head
    for session in (ash, gm):
        session.refresh()
        assert [c.name for c in session.tracker(FIGHT, Encounter).combatants] == ["Bryn"]


def test_the_fight_panel_brings_the_seat_s_own_sheet_by_a_table_move(store: Store) -> None:
    gm = _table(store)
    fight = _fight(gm)
    ash = _seat(store, "Ash")
    acts: list[Act] = []
    ash.on_act(lambda outcome: acts.append(outcome.act))
    panel = campaign_app(ash, "cairn_combat")
    head = _head(store, gm)
    panel.join.click()
    assert panel.error.message == ""
    assert [a.args for a in acts] == [{"name": FIGHT_JOIN, "args": {
        "encounter": fight, "characters": ["ash"]}}]
    assert _stored(gm, head) == [("Ash", fight, "add")]
    assert "Bryn" in panel.note.value  # still missing: Bryn's (or the GM's) to bring
    # Nobody this seat may bring: the tap says why and stores nothing.
    panel.join.click()
    assert "Bryn" in panel.error.message and _head(store, gm) == head + 1


# -- a delve's fate on a sheet -------------------------------------------------------------

FATE = "cairn_srd.exploration.apply_fate"


def _fated(gm: Session) -> str:
    """A delve in which Ash's darkness fate is rolled from real dice: scarred, Rattled."""
    gm.add(DELVE, Delve(), role="encounter")
    delve = gm.key_of(gm.tracker(DELVE, Delve))
    fated = gm.perform(Act(delve, "darkness_fate", {"name": "Ash"},
                           RollSpec(own_dice=(10, 5))))
    assert isinstance(fated, Accepted), fated
    return delve


def test_a_fate_goes_on_its_own_sheet_only(store: Store) -> None:
    gm = _table(store)
    delve = _fated(gm)
    bryn = _seat(store, "Bryn")
    head = _head(store, gm)
    theirs = bryn.perform(_table_act(FATE, delve=delve, character="Ash"))
    assert isinstance(theirs, Refused) and "Ash" in theirs.reason
    assert _head(store, gm) == head
    ash = _seat(store, "Ash")
    app = campaign_app(ash, "dungeon_crawl").app
    acts: list[Act] = []
    ash.on_act(lambda outcome: acts.append(outcome.act))
    find_button(app, "fate-sheet-0").click()
    assert app.escape_error.value == "" and "Rattled" in app.outcome.value
    assert [a.args for a in acts] == [{"name": FATE, "args": {"delve": delve,
                                                              "character": "ash"}}]
    assert _stored(gm, head) == [("Ash", "ash", "suffer_scar")]
    gm.refresh()
    assert _sheet(gm, "Ash").scars == ["Rattled"]
