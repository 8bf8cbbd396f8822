"""Issue 43: one tap travels one way, widget → session → tracker → store.

A tap on the Cairn sheet's "Panic save" is traced (``sys.setprofile``): once the session
has the act, no function of the app (``companion/widgets/``) runs until the move is
stored, except the change notices the store sends when it is done (observers, the one way
back a face is told of any change). The rolled move made the old way — a closure into the
app handed to ``rule_roll`` — turns back into the app, and the same trace catches it:
the test can fail.

The figures (calls, files, file-to-file hops) are printed for CONTRIBUTING's note.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from companion.rulesets.cairn_srd.character import new_character
from companion.store import create_campaign, open_store
from companion.store.db import Store
from companion.widgets.cairn_srd.common import CairnAppBase
from companion.widgets.table.apps import spec
from tests.cairn_srd.widget_find import find_button, walk
from tests.conftest import campaign_of, session_of

PACKAGE = Path(__file__).resolve().parents[2] / "companion"


def _layer(path: str) -> str | None:
    """Which part of the house a function's file is (``None``: outside the package)."""
    try:
        part = Path(path).resolve().relative_to(PACKAGE).parts
    except ValueError:
        return None
    if part[0] in ("widgets", "table", "store", "rulesets"):
        return part[0]
    return "core"


@dataclass
class Trace:
    """What a profiled tap called inside the package."""

    calls: int = 0
    files: set[str] = field(default_factory=set)
    hops: int = 0
    #: Functions of the app called while the session was at work (not a change notice).
    turned_back: list[str] = field(default_factory=list)
    _last_file: str = ""
    _stack: list[tuple[str | None, bool]] = field(default_factory=list)

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            path = frame.f_code.co_filename
            layer = _layer(path)
            notice = frame.f_code.co_name == "notify_observers"
            in_session = any(lay == "table" for lay, _ in self._stack)
            in_notice = any(n for _, n in self._stack)
            if layer is not None:
                self.calls += 1
                self.files.add(path)
                if path != self._last_file:
                    self.hops += 1
                    self._last_file = path
                if layer == "widgets" and in_session and not in_notice:
                    self.turned_back.append(f"{Path(path).name}:{frame.f_code.co_name}")
            self._stack.append((layer, notice))
        elif event == "return" and self._stack:
            self._stack.pop()


def traced(tap: Callable[[], None]) -> Trace:
    trace = Trace()
    sys.setprofile(trace.profile)
    try:
        tap()
    finally:
        sys.setprofile(None)
    return trace


@pytest.fixture
def sheet(tmp_path: Path) -> Iterator[CairnAppBase]:
    with open_store(str(tmp_path / "table.db")) as store:
        gm = create_campaign(store, "Barrow", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Ash", new_character("Ash", 10, 12, 9, 5))
        (app,) = [w for w in walk(spec("cairn_character").build(session_of(gm)))
                  if isinstance(w, CairnAppBase)]
        app.seed_source = lambda: 5
        yield app


def _panics(store_of: CairnAppBase) -> int:
    campaign = campaign_of(store_of.table_session)
    assert campaign is not None and isinstance(campaign.store, Store)
    campaign.refresh()
    return sum(1 for e in campaign.log(["move"]) if e.move == "panic_save")


def test_a_tap_goes_one_way_from_the_app_to_the_store(sheet: CairnAppBase) -> None:
    trace = traced(find_button(sheet, "panic").click)
    assert not sheet.error.message, sheet.error.message
    assert _panics(sheet) == 1
    assert trace.turned_back == []
    print(f"\nnamed act: {trace.calls} calls, {len(trace.files)} files, {trace.hops} hops")


def test_the_trace_sees_a_closure_turn_back_into_the_app(sheet: CairnAppBase) -> None:
    character = sheet.trackers()[0]
    # The shape every rolled move had before named acts, planted as if an app's source
    # (the apps hold no closure roll any more: the architecture test sees to it): a
    # closure handed to the session's roll, called back from inside it.
    planted = compile(
        "def old_way():\n"
        "    session._rule_roll('Ash: panic save', lambda rng: character.panic_save(rng=rng))\n",
        str(PACKAGE / "widgets" / "planted_closure.py"), "exec")
    space: dict[str, Any] = {"session": sheet.table_session, "character": character}
    exec(planted, space)

    trace = traced(space["old_way"])
    assert _panics(sheet) == 1
    assert any(name == "planted_closure.py:<lambda>" for name in trace.turned_back), \
        trace.turned_back
    print(f"\nclosure: {trace.calls} calls, {len(trace.files)} files, {trace.hops} hops, "
          f"{len(trace.turned_back)} calls back into the app")
