"""A pick and another screen's move show one app (issue 27's hub flake, at its cause).

A page's kernel changes widgets on two threads: the one handling the page's messages (a
tap, a picked value) and the live watcher applying another screen's move. Both show the
member a panel has picked; unlocked, each found no app for the member yet and built one.
The page showed one, then the other, and a refusal said on the first was never seen. The
panel now shows one member at a time (``MemberPanel._show`` under the campaign's lock).
The same holds for the 5e pages' character picker, the items and casters apps, and
``follow_campaign``, which every "now and after each change" callback goes through.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

if not os.environ.get("CI"):
    pytest.importorskip("sqlalchemy")

import ipywidgets as widgets

from companion.rulesets.cairn_srd.character import Character
from companion.store import create_campaign, open_store
from companion.store.seats import make_seat
from companion.table import Session
from companion.widgets.base import ErrorLine
from companion.widgets.table import campaign_page
from companion.widgets.table.binding import WIDGET_LOCK, PageContext, catch_up
from companion.widgets.table.panels import MemberPanel
from tests.conftest import campaign_of, session_of
from tests.widgets.app_page import walk


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """Tuesday (Cairn): Ash and Bryn, a seat for each."""
    path = tmp_path / "race.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    with open_store(path) as store:
        gm = create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Ash", Character("Ash", strength=10, strength_max=10))
        gm.add("Bryn", Character("Bryn", strength=10, strength_max=10))
        yield {"path": str(path), **{who: make_seat(store, "Tuesday", who, "player")
                                     for who in ("Ash", "Bryn")}}


def _message(widget: widgets.Widget, state: dict[str, Any]) -> None:
    """``state`` sent to ``widget`` as the page sends it: through its comm."""
    widget.comm.handle_msg({"content": {"data": {"method": "update", "state": state}},
                            "buffers": []})


def _click(button: widgets.Button) -> None:
    button.comm.handle_msg({"content": {"data": {"method": "custom",
                                                 "content": {"event": "click"}}},
                            "buffers": []})


def _pick_during_catch_up(campaign: Any, pick: Callable[[], None], building: list[str],
                          caught_up: threading.Event) -> None:
    """``pick()`` (the page's message) in one thread until it is building an app (its
    build appends to ``building`` and waits for ``caught_up``), then the live watcher's
    ``catch_up`` in another, which sets ``caught_up`` when done; both joined."""

    def watcher() -> None:
        try:
            with WIDGET_LOCK:
                catch_up(session_of(campaign))
        finally:
            caught_up.set()

    picking = threading.Thread(target=pick)
    picking.start()
    while not building and picking.is_alive():
        picking.join(0.01)
    assert building, "the pick built no app"
    watching = threading.Thread(target=watcher)
    watching.start()
    picking.join(30)
    watching.join(30)
    assert not picking.is_alive() and not watching.is_alive(), "a thread is stuck"


def _held(building: list[str], caught_up: threading.Event,
          make: Callable[..., widgets.Widget], label: Callable[..., str]) -> Callable[..., Any]:
    """``make`` that notes each build and holds it until the watcher has caught up (2 s at
    most: with the campaign's lock the watcher waits for the build, not the other way)."""

    def held(*args: Any, **kwargs: Any) -> widgets.Widget:
        building.append(label(*args, **kwargs))
        caught_up.wait(2.0)
        return make(*args, **kwargs)

    return held


def test_a_pick_and_another_screens_move_build_one_app(table: dict[str, str]) -> None:
    """Bryn picks Ash's sheet while Ash's move arrives: the watcher waits for the pick,
    finds Ash's app built, and shows it; Bryn's tap on it is refused on the line she sees."""
    page = campaign_page("cairn_character",
                         PageContext(campaign="Tuesday", seat=table["Bryn"]))
    panel = next(w for w in walk(page) if isinstance(w, MemberPanel))
    campaign = campaign_of(panel.session)
    assert campaign.who == "Bryn"
    built: list[str] = []
    caught_up = threading.Event()
    # The pick's build is held until the watcher has caught up (or 2 s): with no lock, the
    # watcher builds its own app for Ash meanwhile; with the campaign's, it waits.
    panel.build = _held(built, caught_up, panel.build, lambda tracker: tracker.name)
    with open_store(table["path"]) as store:
        ash = Session.by_secret(store, "Tuesday", table["Ash"])
        ash.act("Ash", "add_fatigue")
    ash_index = [label for label, _ in panel.picker.options].index("Ash")
    _pick_during_catch_up(campaign, lambda: _message(panel.picker, {"index": ash_index}),
                          built, caught_up)
    assert built == ["Ash"], built  # one app for Ash, not one per thread
    shown = panel.body.children[0]
    assert shown is panel.apps[panel.picker.value]
    assert "Fatigue 1" in shown.stats.value
    _click(shown.buttons["fatigue"])
    assert shown.error.message == "only Ash and the GM may move Ash"
    assert shown.error in list(walk(page))  # the line on the page, not a dropped app's


# --- the same race in the other pickers ----------------------------------------------------


@pytest.fixture
def five_e(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A 5e campaign: casters Ash and Briar; Ash carries a wand and a ring."""
    from companion.rulesets.variant5e.activating_items import MagicItem
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.table.members import ITEM

    path = tmp_path / "five.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    with open_store(path) as store:
        gm = create_campaign(store, "Tuesday", ["variant5e"], who="Mira", role="gm")
        gm.add("Ash", SpellPoints.new(5))
        gm.add("Briar", SpellPoints.new(3))
        for item in ("Wand", "Ring"):
            gm.add(ITEM.format("Ash", item), MagicItem(name=item, charges=3, max_charges=3),
                   role="record", owner="Ash")
    yield str(path)


def _screens(path: str, key: str) -> tuple[Any, Any, Any]:
    """The page's campaign, the app ``key`` built over it, and another screen's campaign."""
    from companion.store import open_campaign
    from companion.widgets.table.apps import spec

    here = open_campaign(open_store(path), "Tuesday", who="Mira", role="gm")
    there = open_campaign(open_store(path), "Tuesday", who="Mira's phone", role="gm")
    return here, spec(key).build(session_of(here)), there


def test_a_character_pick_and_another_screens_move_build_one_app(five_e: str) -> None:
    """The 5e pages' ``CharacterPanel``: Briar picked while a move arrives, one app."""
    from companion.rulesets.variant5e.activating_items import MagicItem
    from companion.widgets.table.panels import CharacterPanel

    here, panel, there = _screens(five_e, "magic_items")
    assert isinstance(panel, CharacterPanel) and panel.picker.value == "Ash"
    building: list[str] = []
    caught_up = threading.Event()
    panel.build = _held(building, caught_up, panel.build, lambda name, *_r: name)
    there.tracker("Item: Ash: Wand", MagicItem).activate(charges=1)
    briar = list(panel.picker.options).index("Briar")
    _pick_during_catch_up(here, lambda: _message(panel.picker, {"index": briar}),
                          building, caught_up)
    assert building == ["Briar"], building
    assert panel.app is next(a for (name, _), a in panel.apps.items() if name == "Briar")


def test_an_item_pick_and_another_screens_move_build_one_item_app(
        five_e: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ash's items: the ring picked while a move on the wand arrives, one ring app, and
    the wand's move is shown."""
    from companion.rulesets.variant5e.activating_items import MagicItem
    from companion.widgets import variant5e_items

    here, panel, there = _screens(five_e, "magic_items")
    items = panel.app
    assert isinstance(items, variant5e_items.CharacterItemsApp)
    building: list[str] = []
    caught_up = threading.Event()
    monkeypatch.setattr(variant5e_items, "ItemsApp", _held(
        building, caught_up, variant5e_items.ItemsApp, lambda item: item.name))
    there.tracker("Item: Ash: Wand", MagicItem).activate(charges=1)
    ring = [label for label, _ in items.picker.options].index("Ring")
    _pick_during_catch_up(here, lambda: _message(items.picker, {"index": ring}),
                          building, caught_up)
    assert building == ["Ring"], building
    assert items.body.children == (items.apps[items.picker.value],)
    assert here.tracker("Item: Ash: Wand", MagicItem).charges == 2


def test_a_caster_pick_and_a_newcomer_build_one_caster_app(
        five_e: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The party of casters: Briar picked while a new caster joins on another screen, one
    app for Briar, and the newcomer listed."""
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets import variant5e_casters

    here, casters, there = _screens(five_e, "casters")
    assert isinstance(casters, variant5e_casters.CastersApp)
    building: list[str] = []
    caught_up = threading.Event()
    monkeypatch.setattr(variant5e_casters, "SpellPointsApp", _held(
        building, caught_up, variant5e_casters.SpellPointsApp,
        lambda caster: f"level {caster.class_level}"))
    there.add("Cole", SpellPoints.new(1))
    briar = list(casters.picker.options).index("Briar")
    _pick_during_catch_up(here, lambda: _message(casters.picker, {"index": briar}),
                          building, caught_up)
    assert building == ["level 3"], building  # Briar's, once
    assert list(casters.picker.options) == ["Ash", "Briar", "Cole"]
    assert casters.body.children == (casters.apps["Briar"],)


def test_a_followed_callback_runs_under_the_campaigns_lock(five_e: str) -> None:
    """``follow_campaign`` runs its callback at once on the page's thread, and after each
    change, holding the campaign's lock: the watcher cannot apply a move meanwhile."""
    from companion.widgets.table.panels import follow_campaign

    here, _app, there = _screens(five_e, "casters")
    seen: list[bool] = []

    def watcher_could_take_the_lock() -> bool:
        took: list[bool] = []

        def attempt() -> None:
            took.append(here.lock.acquire(blocking=False))
            if took[0]:
                here.lock.release()

        thread = threading.Thread(target=attempt)
        thread.start()
        thread.join(10)
        return took[0]

    follow_campaign(here, ErrorLine(), lambda: seen.append(watcher_could_take_the_lock()))
    assert seen == [False]  # at once, on this thread
    from companion.rulesets.variant5e.spell_points import SpellPoints

    there.add("Cole", SpellPoints.new(1))
    with WIDGET_LOCK:
        assert catch_up(session_of(here))
    assert seen == [False, False]  # after the change, on the watcher's thread
    assert watcher_could_take_the_lock()  # and the lock is free again


# --- a newcomer does not move a pick, not even on the way -------------------------------


def test_a_newcomer_leaves_the_member_pick_and_builds_nothing_on_the_way(
        table: dict[str, str]) -> None:
    """Bryn's Cairn page shows Bryn; Cole joins on the GM's screen. The list gains Cole, the
    pick stays on Bryn, and no app is built for Ash (the first) while the list changes."""
    page = campaign_page("cairn_character",
                         PageContext(campaign="Tuesday", seat=table["Bryn"]))
    panel = next(w for w in walk(page) if isinstance(w, MemberPanel))
    bryn = panel.picker.value
    assert panel.picker.label == "Bryn"
    built: list[str] = []
    build = panel.build

    def noted(tracker: Any) -> widgets.Widget:
        built.append(tracker.name)
        return build(tracker)

    panel.build = noted
    from companion.store import open_campaign

    there = open_campaign(open_store(table["path"]), "Tuesday", who="Mira", role="gm")
    there.add("Cole", Character("Cole", strength=10, strength_max=10))
    with WIDGET_LOCK:
        assert catch_up(panel.session)
    assert [label for label, _ in panel.picker.options] == ["Ash", "Bryn", "Cole"]
    assert panel.picker.value == bryn
    assert built == [], built  # Ash's app was never built on the way
    assert panel.body.children == (panel.apps[bryn],)


def test_a_newcomer_leaves_the_character_pick_and_builds_nothing_on_the_way(
        five_e: str) -> None:
    """Briar's 5e items page opens on Briar; Cole joins on another screen: the pick stays
    on Briar and no app is built for Ash (the first) while the list changes."""
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.store import open_campaign
    from companion.widgets.table.apps import spec
    from companion.widgets.table.panels import CharacterPanel

    here = open_campaign(open_store(five_e), "Tuesday", who="Briar", role="player")
    panel = spec("magic_items").build(session_of(here))
    there = open_campaign(open_store(five_e), "Tuesday", who="Mira", role="gm")
    assert isinstance(panel, CharacterPanel)
    assert panel.picker.value == "Briar"
    built: list[str] = []
    build = panel.build

    def noted(name: str, *records: Any) -> widgets.Widget:
        built.append(name)
        return build(name, *records)

    panel.build = noted
    there.add("Cole", SpellPoints.new(1))
    with WIDGET_LOCK:
        assert catch_up(session_of(here))
    assert list(panel.picker.options) == ["Ash", "Briar", "Cole"]
    assert panel.picker.value == "Briar"
    assert "Ash" not in built, built
