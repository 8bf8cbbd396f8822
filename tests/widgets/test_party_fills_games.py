"""The party fills the minigames' player lists (issue 22): Dice Monarchs in a campaign
offers the table's own people, not "Ann, Bo"."""

from __future__ import annotations

from pathlib import Path

from companion.store import create_campaign, open_store
from companion.widgets.table.pages import campaign_app
from companion.widgets.table.party import RULES
from tests.conftest import session_of


def test_dice_monarchs_players_are_the_party(tmp_path: Path) -> None:
    with open_store(tmp_path / "campaigns.db") as store:
        campaign = create_campaign(store, "Thursday", ["miasma", "cairn_srd"], who="Mira",
                                   role="gm")
        for name in ("Ash", "Bryn", "Corin"):
            RULES["cairn_srd"].add(session_of(campaign), name, "",
                                   {"str": 10, "dex": 10, "ctrl": 10, "guard": 3, "armor": 0})
        app = campaign_app(session_of(campaign), "dice_monarchs")
        assert app.players_box.text == "Ash, Bryn, Corin"
