"""The luck panel under the roll log, driven in-process on a real campaign (SQLite file)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import create_campaign, open_campaign, open_store
from companion.store.db import Store
from companion.widgets.rolls import RollLogPanel
from tests.conftest import session_of
from tests.widgets.app_page import Scope

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(str(tmp_path / "table.db")) as opened:
        create_campaign(opened, "Tuesday", ["plot_points"], who="Mira", role="gm")
        yield opened


def test_the_panel_shows_each_seats_luck_and_counts_a_hidden_roll_once_revealed(
        store: Store) -> None:
    bryn = open_campaign(store, "Tuesday", who="Bryn", role="player")
    bryn.roll_entry("1d20+5", seed=1)
    bryn.roll_entry("1d20+5", seed=2)
    hidden = bryn.roll_entry("3d6", seed=3, mode="self").entry
    ash = open_campaign(store, "Tuesday", who="Ash", role="player")
    ash.roll_entry("2d6", dice=[6, 5])
    # Bryn's own screen: she sees her self roll in the log, the report does not count it.
    page = Scope(RollLogPanel(session_of(bryn), who="Bryn", role="player"))
    assert page.one("tc-luck-report").value == ""  # worked out when asked
    page.tap("luck")
    text = page.find_text("tc-luck-report")
    assert "Bryn's 2 rolls over the campaign: mean percentile" in text
    assert "Ash's 1 roll with their own dice over the campaign: mean percentile 94.4%" in text
    assert "Bryn, not placed over the campaign: 1 hidden, not yet revealed" in text
    assert page.html().count('class="tc-luck-chart"') == 2
    assert [label for label, _ in page.one("tc-luck-session").options] == \
        ["Whole campaign", "Session 1"]

    gm = open_campaign(store, "Tuesday", who="Mira", role="gm")
    gm.reveal(hidden)
    page.one("tc-luck-session").value = 1  # picking a session works it out again
    text = page.find_text("tc-luck-report")
    assert "Bryn's 3 rolls in session 1" in text
    assert "not yet revealed" not in text
    assert page.alerts() == []
