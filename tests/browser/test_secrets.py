"""Secrets on the player's own screen, proved in Chromium on a real Voila and campaign.

One browser context per person (their own phone), each opening the app with its own
seat (``seat=`` in the address, see ``tests/browser/seats.py``). Every websocket frame
the page receives (the widget state and comm messages the kernel sends, recorded with
``page.on("websocket")`` -> ``ws.on("framereceived")``) and the whole page HTML are
searched: before the reveal, no page holds another player's secret (another's hole dice,
the table seed, the other duelist's pick). Each page's own secret is found there, so the
search is known to work.
"""

from __future__ import annotations

import base64
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.widgets.miasma.common import dice_html
from tests.browser.conftest import _guarded_page
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(900)

SEED = 7318829104433
PLAYERS = ["Ann", "Bo", "Cy"]
CAMPAIGN = "fairplay"


@pytest.fixture(scope="module")
def secrets_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from companion.rulesets.cairn_srd.duel import Duel
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
    from companion.store.campaign import create
    from companion.store.db import Store, database_url
    from companion.widgets.table.apps import DUEL, MONARCHS, ensure

    path = tmp_path_factory.mktemp("secrets") / "campaigns.db"
    campaign = create(Store(database_url(str(path))), CAMPAIGN, ["cairn_srd", "miasma"],
                      who="Gail", role="gm")
    ensure(session_of(campaign), MONARCHS, DiceMonarchsGame,
           lambda: DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED))
    ensure(session_of(campaign), DUEL, Duel, Duel)
    return path


@pytest.fixture(scope="module")
def secrets_server(secrets_db: Path) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(secrets_db)}) as server:
        yield server


def gm_campaign(db: Path) -> Any:
    from companion.store.campaign import Campaign
    from companion.store.db import Store, database_url

    return Campaign.open(Store(database_url(str(db))), CAMPAIGN, who="Gail", role="gm")


def member(campaign: Any, name: str) -> Any:
    campaign.refresh()
    return next(m.tracker for m in campaign.members.values() if m.name == name)


class Screen:
    """One person's phone: a browser context, the app's page, every frame received."""

    def __init__(self, browser: Any, server: Any, notebook: str, who: str, role: str,
                 ready: str, *, campaign: str = CAMPAIGN, query: str | None = None) -> None:
        self._pages = _guarded_page(browser, viewport={"width": 390, "height": 844},
                                    is_mobile=True, has_touch=True)
        self.page = next(self._pages)
        self.frames: list[str] = []
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        from tests.browser.seats import seat_query  # who and role come from a seat

        if query is None:
            query = seat_query(server, campaign, who, role)
        self.page.goto(f"{server.base_url}/voila/render/{notebook}.ipynb?{query}",
                       wait_until="domcontentloaded")
        self.page.wait_for_selector(ready, state="attached", timeout=120_000)

    def _frame(self, payload: str | bytes) -> None:
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
        self.frames.append(text)

    def received(self, since: int = 0, page: bool = True) -> str:
        """Frames received (from ``since``) and the page HTML, JSON escapes undone and
        base64 downloads decoded."""
        text = "\n".join([*self.frames[since:], self.page.content() if page else ""])
        for _ in range(3):
            text = text.replace("\\\\", "\\").replace('\\"', '"').replace("\\'", "'")
            text = text.replace("\\/", "/")
        decoded = []
        for chunk in re.findall(r"base64,([A-Za-z0-9+/=]{8,})", text):
            try:
                decoded.append(base64.b64decode(chunk + "=" * (-len(chunk) % 4)).decode(
                    "utf-8", "replace"))
            except ValueError:
                continue
        return "\n".join([text, *decoded])

    def close(self) -> None:
        for _ in self._pages:
            pass


def wait_for(check: Any, what: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def log_count(screen: Screen) -> int:
    found = screen.page.locator(".tc-monarchs .tc-log").first.get_attribute("data-count")
    return int(found or 0)


def test_dice_monarchs_three_phones_a_whole_hand(browser: Any, secrets_server: Any,
                                                 secrets_db: Path) -> None:
    gm = gm_campaign(secrets_db)
    game = member(gm, "Dice Monarchs")
    game.deal()
    moves = len(game.log)
    ready = ".tc-monarchs-status [data-phase]"
    screens = {p: Screen(browser, secrets_server, "dice_monarchs", p, "player", ready)
               for p in PLAYERS}
    screens["Table"] = Screen(browser, secrets_server, "dice_monarchs", "Table", "player",
                              ready)
    try:
        for s in screens.values():
            wait_for(lambda s=s: log_count(s) == moves, "the deal on every screen")
        checks = 0

        def check_all() -> None:
            nonlocal checks
            gm.refresh()
            for viewer, screen in screens.items():
                text = screen.received()
                assert str(SEED) not in text, f"{viewer}'s page holds the table seed"
                for seat, name in enumerate(PLAYERS):
                    hole = game.hole[seat]
                    if name == viewer:  # the search works on the frames themselves
                        assert dice_html(hole) in screen.received(page=False), viewer
                    elif viewer in PLAYERS and hole == game.hole[PLAYERS.index(viewer)]:
                        continue
                    else:
                        assert dice_html(hole) not in text, f"{viewer}'s page holds {name}'s dice"
                checks += 1

        check_all()
        script = [("Bo", "bet", "3"), ("Cy", "call", None), ("Ann", "call", None)]
        script += [("?", "check", None)] * 9
        for who, name, amount in script:
            gm.refresh()
            mover = game.player_to_act if who == "?" else who
            assert mover is not None and mover == game.player_to_act
            page = screens[mover].page
            if amount is not None:
                box = page.locator(".tc-int-amount input").first
                box.fill(amount)
                box.press("Tab")
            page.locator(f".tc-btn-{name}").first.click()
            moves += 1
            for s in screens.values():
                wait_for(lambda s=s, n=moves: log_count(s) == n, f"{mover}'s {name} everywhere")
            gm.refresh()
            if game.phase != "hand_over":
                check_all()
        assert game.phase == "hand_over" and len(game.community) == 5
        for s in screens.values():
            outcome = s.page.locator(".tc-monarchs-outcome").inner_text()
            assert all(f"{p} reveals hole dice" in outcome for p in PLAYERS)
            assert str(SEED) not in s.received()
        assert checks >= 4 * 12
    finally:
        for s in screens.values():
            s.close()


def test_duel_two_phones_the_pick_stays_secret(browser: Any, secrets_server: Any,
                                               secrets_db: Path) -> None:
    gm = gm_campaign(secrets_db)
    duel = member(gm, "Duel")
    duel.start("Vera", "Osk", 8, 8, "the bridge toll")
    ready = ".tc-duel"
    vera = Screen(browser, secrets_server, "duel", "Vera", "player", ready)
    osk = Screen(browser, secrets_server, "duel", "Osk", "player", ready)
    try:
        since = len(osk.frames)
        vera.page.locator(".tc-btn-choose-0-attack").click()
        vera.page.wait_for_selector("text=you chose attack", timeout=60_000)
        osk.page.wait_for_selector("text=chosen ✓ (hidden)", timeout=60_000)
        time.sleep(1.0)  # anything else the kernel would send
        assert "you chose attack" in vera.received()
        # Nothing Osk's phone received since Vera's pick names it (his page's own
        # Attack buttons came before); nor does his whole page say what she chose.
        assert len(osk.frames) > since
        assert "attack" not in osk.received(since, page=False).lower()
        assert not re.search(r"chose (attack|defend|flourish)|Vera attack", osk.received())
        # Osk's pick reveals both on both phones at once.
        osk.page.locator(".tc-btn-choose-1-flourish").click()
        for s in (vera, osk):
            s.page.wait_for_selector("text=Vera attack (d8", timeout=60_000)
    finally:
        vera.close()
        osk.close()
