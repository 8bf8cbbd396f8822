"""Plain words in the server apps (issue 31): rulesets by their names, never their ids
("(cairn_srd)" and "(miasma)" sat in the start app's heading), and a player's start screen
that leads with the party and the apps, not with the GM's forms."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.errors import UnknownNameError
from companion.store import open_campaign, open_store
from companion.widgets.table import TableApp
from companion.widgets.table.binding import PageContext
from companion.widgets.table.pages import campaign_app
from tests.conftest import session_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "table.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    yield path


def gm_table(name: str, ruleset: str) -> TableApp:
    app = TableApp(PageContext(who="Mira", role="gm"), background=False)
    app.new_name.value, app.ruleset.value = name, ruleset
    app.create_button.click()
    assert app.error.message == ""
    return app


def test_the_campaign_heading_names_its_rules_in_words(db: Path) -> None:
    app = gm_table("Tuesday", "cairn_srd")
    assert "Cairn-derived SRD" in app.heading.value and "cairn_srd" not in app.heading.value
    miasma = gm_table("Fog", "miasma")
    assert "(Miasma: Earthmotes, Psychosis, Dice Monarchs)" in miasma.heading.value
    # An app of another ruleset is refused in the same words.
    with pytest.raises(UnknownNameError) as refused:
        campaign_app(session_of(open_campaign(open_store(db), "Fog")), "cairn_character")
    said = str(refused.value)
    assert "Cairn-derived SRD" in said and "Miasma:" in said
    assert "cairn_srd" not in said and "(miasma)" not in said


def test_a_player_s_start_screen_leads_with_the_party(db: Path) -> None:
    gm = gm_table("Tuesday", "cairn_srd")
    form = gm.forms["cairn_srd"]
    form["name"].value = "Ash"
    form["add"].click()
    assert gm.error.message == ""
    kids = list(gm.children)
    # The GM's page: the campaign list and the new-campaign form first, as before.
    assert kids.index(gm.pick_row) < kids.index(gm.create_row) < kids.index(gm.campaign_box)
    player = TableApp(PageContext(campaign="Tuesday", who="Ash", role="player"),
                      background=False)
    assert player.error.message == "" and player.context.role == "player"
    kids = list(player.children)
    assert kids.index(player.campaign_box) < kids.index(player.pick_row)
    assert kids.index(player.campaign_box) < kids.index(player.create_row)
    assert kids.index(player.error) < kids.index(player.campaign_box)  # refusals in sight
    assert "Ash" in player.party.value
    # Every widget is still on the page once (only the order changed).
    assert len(kids) == len(set(map(id, kids))) == len(gm.children)


def test_the_roll_log_folds_seeds_and_commitments_under_details() -> None:
    from companion.widgets.rolls import _log_item

    public = _log_item({"seq": 3, "kind": "roll", "who": "Ash", "role": "player",
                        "at": "2026-11-27T20:00:00+00:00", "seed": 123456789,
                        "data": {"expr": "1d20", "text": "1d20 (7) = 7"}})
    shown = re.sub(r"<details.*?</details>", "", public)
    assert "123456789" in public and "123456789" not in shown and "seed" not in shown
    assert "rolled 1d20 (7) = 7" in shown
    digest = "50c52db5df0f" + "0" * 52
    hidden = _log_item({"seq": 4, "kind": "roll", "who": "Mira", "role": "gm",
                        "at": "2026-11-27T20:00:00+00:00", "seed": None,
                        "data": {"mode": "gm", "commitment": digest, "revealed": 9}})
    shown = re.sub(r"<details.*?</details>", "", hidden)
    assert "50c52db5df0f" in hidden and "50c52db5df0f" not in shown
    assert "commitment" not in shown
    assert "rolled in secret (GM only); revealed in entry 9" in shown


def test_a_player_s_sheet_opens_on_their_own_character(db: Path) -> None:
    from companion.widgets.table.apps import spec

    gm = gm_table("Tuesday", "cairn_srd")
    form = gm.forms["cairn_srd"]
    for name in ("Ash", "Bryn"):
        form["name"].value = name
        form["add"].click()
        assert gm.error.message == ""
    bryn = spec("cairn_character").build(session_of(open_campaign(open_store(db), "Tuesday",
                                                       who="bryn", role="player")))
    picked = dict((i, n) for n, i in bryn.picker.options)[bryn.picker.value]
    assert picked == "Bryn"  # it opened on Ash, the first of the party
    mira = spec("cairn_character").build(session_of(open_campaign(open_store(db), "Tuesday",
                                                       who="Mira", role="gm")))
    assert dict((i, n) for n, i in mira.picker.options)[mira.picker.value] == "Ash"
