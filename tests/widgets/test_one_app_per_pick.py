"""A pick and another screen's move show one app (issue 27's hub flake, at its cause).

A page's kernel changes widgets on two threads: the one handling the page's messages (a
tap, a picked value) and the live watcher applying another screen's move. Both show the
member a panel has picked; unlocked, each found no app for the member yet and built one.
The page showed one, then the other, and a refusal said on the first was never seen. The
panel now shows one member at a time (``MemberPanel._show`` under the campaign's lock).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
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
from companion.widgets.table import campaign_page
from companion.widgets.table.binding import WIDGET_LOCK, PageContext, catch_up
from companion.widgets.table.panels import MemberPanel
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


def test_a_pick_and_another_screens_move_build_one_app(table: dict[str, str]) -> None:
    """Bryn picks Ash's sheet while Ash's move arrives: the watcher waits for the pick,
    finds Ash's app built, and shows it; Bryn's tap on it is refused on the line she sees."""
    page = campaign_page("cairn_character",
                         PageContext(campaign="Tuesday", seat=table["Bryn"]))
    panel = next(w for w in walk(page) if isinstance(w, MemberPanel))
    campaign = panel.campaign
    assert campaign.who == "Bryn"
    built: list[str] = []
    watcher_done = threading.Event()
    build = panel.build

    def slow_build(tracker: Any) -> widgets.Widget:
        # The pick's build is held until the watcher has finished (or 2 s): with no lock,
        # the watcher builds its own app for Ash meanwhile; with the campaign's, it waits.
        built.append(tracker.name)
        if tracker.name == "Ash":
            watcher_done.wait(2.0)
        return build(tracker)

    panel.build = slow_build
    with open_store(table["path"]) as store:
        ash = Session.by_secret(store, "Tuesday", table["Ash"])
        ash.act("Ash", "add_fatigue")

    def watcher() -> None:
        try:
            with WIDGET_LOCK:
                catch_up(campaign)
        finally:
            watcher_done.set()

    ash_index = [label for label, _ in panel.picker.options].index("Ash")
    picking = threading.Thread(target=_message, args=(panel.picker, {"index": ash_index}))
    picking.start()
    while not built and picking.is_alive():  # until the pick is building Ash's app
        picking.join(0.01)
    assert built == ["Ash"], "the pick built no app"
    watching = threading.Thread(target=watcher)
    watching.start()
    picking.join(30)
    watching.join(30)
    assert built == ["Ash"], built  # one app for Ash, not one per thread
    shown = panel.body.children[0]
    assert shown is panel.apps[panel.picker.value]
    assert "Fatigue 1" in shown.stats.value
    _click(shown.buttons["fatigue"])
    assert shown.error.message == "only Ash and the GM may move Ash"
    assert shown.error in list(walk(page))  # the line on the page, not a dropped app's
