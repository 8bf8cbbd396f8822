"""The page's messages and the live watcher take turns (issue 27's hub flake, at its cause).

A page's kernel changes widgets on two threads: the one handling the page's messages (a
tap, a picked value) and the live watcher applying another screen's move. Unlocked, a
pick and a live update each built the picked member's app; the page showed one, then the
other, and a refusal said on the first was never seen. Every message from the page is now
handled under ``WIDGET_LOCK``, the lock the watcher holds while it re-renders.
"""

from __future__ import annotations

import os
import subprocess
import sys
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

ROOT = Path(__file__).resolve().parents[2]

#: Run in a fresh Python: a widget made before the guard (as a page's first error line
#: is) and one made after both run their page messages under the lock.
GUARD_CHECK = """
import threading
import ipywidgets as widgets
from companion.widgets.table.binding import WIDGET_LOCK, guard_page_messages

def held_by_caller():
    free = []
    probe = threading.Thread(target=lambda: free.append(WIDGET_LOCK.acquire(blocking=False)))
    probe.start(); probe.join()
    if free[0]:
        WIDGET_LOCK.release()
    return not free[0]

early = widgets.Button()
guard_page_messages()
late = widgets.Button()
seen = []
for button in (early, late):
    button.on_click(lambda _b: seen.append(held_by_caller()))
    button.comm.handle_msg({"content": {"data": {"method": "custom",
                                                 "content": {"event": "click"}}},
                            "buffers": []})
text = widgets.Text()
text.observe(lambda _c: seen.append(held_by_caller()), names="value")
text.comm.handle_msg({"content": {"data": {"method": "update", "state": {"value": "x"}}},
                      "buffers": []})
print(seen)
"""


def test_every_page_message_is_handled_under_the_widget_lock() -> None:
    done = subprocess.run([sys.executable, "-c", GUARD_CHECK], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    # A tap on a widget made before the guard, one made after, a typed value: all locked.
    assert done.stdout.strip() == "[True, True, True]", done.stdout + done.stderr[-2000:]


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


def _walk(root: Any) -> Iterator[Any]:
    yield root
    for child in getattr(root, "children", ()) or ():
        yield from _walk(child)


def test_a_pick_and_another_screens_move_build_one_app(table: dict[str, str]) -> None:
    """Bryn picks Ash's sheet while Ash's move arrives: the watcher waits for the pick,
    finds Ash's app built, and shows it; Bryn's tap on it is refused on the line she sees."""
    page = campaign_page("cairn_character",
                         PageContext(campaign="Tuesday", seat=table["Bryn"]))
    panel = next(w for w in _walk(page) if isinstance(w, MemberPanel))
    campaign = panel.campaign
    assert campaign.who == "Bryn"
    built: list[str] = []
    watcher_done = threading.Event()
    build = panel.build

    def slow_build(tracker: Any) -> widgets.Widget:
        # The pick's build is held until the watcher has finished (or 2 s): unguarded,
        # the watcher builds its own app for Ash meanwhile; guarded, it waits for this.
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
    assert shown.error in list(_walk(page))  # the line on the page, not a dropped app's
