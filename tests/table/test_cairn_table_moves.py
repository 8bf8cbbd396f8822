"""Issue 43 (Cairn): the moves the Cairn apps made around the session are named acts.

- Downtime upkeep moves the member's ledger on the downtime alone: one named act on the
  downtime tracker (a petty crime rolled with the session's dice), one event stored; a
  refused upkeep stores nothing; a player settles their own character's upkeep, not
  another's; the app's button makes it through the session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.downtime import Downtime
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Accepted, Act, Refused
from companion.widgets.table.members import DOWNTIME
from companion.widgets.table.pages import campaign_app
from tests.cairn_srd.widget_find import find_button

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Session:
    """Campaign "T" (GM Mira) with Ash and Bryn, each a Cairn sheet."""
    gm = Session.of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
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
    return store.head(gm.campaign.info.id)


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
    app = campaign_app(ash.campaign, "downtime").app
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
    theirs = campaign_app(bryn.campaign, "downtime").app
    theirs.member.value, theirs.way.value, theirs.skill.value = "Bryn", "crime", True
    find_button(theirs, "upkeep").click()
    assert theirs.error.message == "" and "Bryn: petty crime" in theirs.outcome.value
    assert [(a.move, a.args["name"], a.args["way"]) for a in acts] == [
        ("upkeep", "Bryn", "crime")]
    assert acts[0].roll is not None
    gm.refresh()
    assert [(w, m) for w, _, m in _stored(gm, head)][-1] == ("Bryn", "upkeep")
    assert gm.tracker(DOWNTIME, Downtime).member("Bryn").upkept
