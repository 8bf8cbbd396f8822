"""Issue 28: an app opened without a campaign acts through an unsaved session, the same
path as in a campaign (no ``campaign is None`` branch, no compensating undo).

- [Campaign.adopt][companion.store.campaign.Campaign.adopt] keeps the very tracker object
  live (views that hold it keep working); its moves, undo and load reach the seam.
- [Session.unsaved][companion.table.session.Session.unsaved] keeps nothing and says so.
- A Cairn app opened without a campaign acts through one from its first tap; real dice
  left over store nothing and put the sheet back (the unit of work, not an undo).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.dice.physical import OwnDiceError
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.plot_points.session import PlotPointSession
from companion.store import open_store
from companion.store.campaign import create
from companion.store.records import StoreError
from companion.table import Session
from companion.widgets.base import InputError
from companion.widgets.cairn_srd.character import CairnCharacterApp
from companion.widgets.cairn_srd.common import CairnAppBase
from companion.widgets.plot_points import PlotPointsApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds
from tests.conftest import campaign_of


def test_adopt_keeps_the_object_and_its_moves_reach_the_seam() -> None:
    ash = new_character("Ash", 12, 10, 9, 5)
    ash.add_fatigue()  # made before it came to the table: still undoable there
    seen: list[int] = []
    ash.on_change(lambda _t: seen.append(len(ash.log)))
    session = Session.unsaved([ash])
    assert ash.recorder is session.keeper and session.tracker("Ash") is ash
    assert not session.kept and campaign_of(session).store is not None
    head = campaign_of(session).head
    ash.rest_turn()
    session.act(ash, "add_fatigue")
    assert campaign_of(session).head == head + 2 and seen == [2, 3]
    assert [e.move for e in session.log() if e.kind == "move"] == ["rest_turn", "add_fatigue"]
    session.undo(ash)
    session.undo(ash)
    session.undo(ash)  # the move made before adoption: taken back through the seam too
    assert ash.fatigue == 0 and not ash.log
    assert [e.kind for e in session.log()][-3:] == ["undo", "undo", "undo"]
    assert session.adopt(ash) is ash  # already here: as it is


def test_adopt_names_each_tracker_once_and_keeps_a_table_of_its_own() -> None:
    one, two = PlotPointSession.new(["Ash"], "Mira"), PlotPointSession.new(["Bo"], "Mira")
    fight, sheet = Encounter(), new_character("Ash", 12, 10, 9, 5)
    fight.link({"ash": sheet})  # the fight's own table, set by the app that made it
    session = Session.unsaved([one, two, fight])
    names = [m.name for m in campaign_of(session)]
    assert len(set(names)) == 3 and names[0] != names[1]
    assert fight.linked(type(sheet)) == {"ash": sheet}


def test_only_an_unsaved_session_adopts_and_only_a_tracker_kept_nowhere(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "c.db")) as store:
        kept = Session(create(store, "Tuesday", ["cairn_srd"]))
        assert kept.kept
        with pytest.raises(StoreError, match="only an unsaved session adopts"):
            kept.adopt(new_character("Ash", 12, 10, 9, 5))
        member = kept.add("Bo", new_character("Bo", 12, 10, 9, 5))
        with pytest.raises(StoreError, match="already kept elsewhere"):
            Session.unsaved([member])
        assert member.recorder is kept.keeper


def test_a_cairn_app_without_a_campaign_acts_through_an_unsaved_session() -> None:
    ash = new_character("Ash", 12, 10, 9, 5)
    app = CairnCharacterApp(ash, seed_source=fixed_seeds(4))
    session = app.session()
    assert ash.recorder is session.keeper and not session.kept
    find_button(app, "fatigue").click()  # the first tap: stored in the unsaved log
    assert ash.fatigue == 1
    assert [e.move for e in session.log() if e.kind == "move"] == ["add_fatigue"]
    state = ash.to_json()
    app.controls.own.value = True
    app.controls.faces.value = "3 4"  # a panic save rolls one d20: a face left over
    with pytest.raises((InputError, OwnDiceError)):
        app.panic()
    assert ash.to_json() == state  # nothing stored, the sheet as it was: no undo needed
    assert [e.move for e in session.log() if e.kind == "move"] == ["add_fatigue"]
    app.controls.faces.value = "3"
    app.panic()
    assert [e.kind for e in session.log()][-2:] == ["move", "roll"]  # one unit: both


def _cairn_apps() -> list[type[CairnAppBase]]:
    import importlib
    import inspect
    import pkgutil

    import companion.widgets.cairn_srd as package

    found: list[type[CairnAppBase]] = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        found += [cls for _, cls in inspect.getmembers(module, inspect.isclass)
                  if issubclass(cls, CairnAppBase) and cls is not CairnAppBase
                  and cls.__module__ == module.__name__]
    return found


@pytest.mark.parametrize("app_class", _cairn_apps(), ids=lambda cls: cls.__name__)
def test_every_cairn_app_opened_without_a_campaign_keeps_its_trackers_in_one_session(
        app_class: type[CairnAppBase]) -> None:
    app = app_class()
    session = app.session()
    assert not session.kept
    assert all(t.recorder is session.keeper for t in app.trackers())
    assert len(_cairn_apps()) >= 10  # the search found the apps (not an empty list)


def test_the_plot_points_app_opened_without_a_campaign_acts_through_its_session() -> None:
    app = PlotPointsApp(["Ann"])
    assert app.session.recorder is app.table.keeper and not app.table.kept
    app.new_player.value = "Bo"
    app.add_player()
    assert "Bo" in app.session.players
    assert [e.move for e in app.table.log() if e.kind == "move"] == ["add_player"]
