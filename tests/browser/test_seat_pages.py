"""Seats in Chromium (issue 19): one browser context per seat -- the GM, players Ash and
Bryn, a spectator whose address claims ``who=Gail&role=gm``, a forged secret and a revoked
one -- each opening Dice Monarchs and then the dice tray's roll log on a real Voila, with
every websocket frame it receives recorded (``page.on("websocket")`` ->
``ws.on("framereceived")``).

Nothing a seat may not see reaches it: no other player's hole dice, no table seed or its
nonce, no hidden roll's dice it may not see, no other seat's secret. Each seat's own
hole dice and rolls are found in its own frames, so the search is known to work.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.widgets.miasma.common import dice_html
from tests.browser.test_secrets import Screen, wait_for
from tests.conftest import session_of

pytestmark = pytest.mark.timeout(900)

CAMPAIGN = "seats"
SEED = 6402218873315  # the table seed of Dice Monarchs
PLAYERS = ["Ash", "Bryn", "Cy"]
GM_ROLL = ("2d6+3", 5551234567891)  # a GM-only roll
ASH_ROLL = ("2d8+5", 5559876543211)  # Ash's self roll
PUBLIC_ROLL = ("1d20+2", 5550000000011)


@pytest.fixture(scope="module")
def seats_db(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
    from companion.store.campaign import Campaign, create
    from companion.store.db import Store, database_url
    from companion.store.seats import creator_secret, make_seat, revoke_seat
    from companion.widgets.table.apps import MONARCHS, ensure

    path = tmp_path_factory.mktemp("seats") / "campaigns.db"
    store = Store(database_url(str(path)))
    gm = create(store, CAMPAIGN, ["cairn_srd", "miasma"], who="Gail", role="gm")
    secrets = {"Gail": creator_secret(gm) or ""}
    game = ensure(session_of(gm), MONARCHS, DiceMonarchsGame,
                  lambda: DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED))
    game.deal()
    gm.roll_entry(GM_ROLL[0], GM_ROLL[1], mode="gm")
    gm.roll(PUBLIC_ROLL[0], PUBLIC_ROLL[1])
    for who in PLAYERS:
        secrets[who] = make_seat(store, CAMPAIGN, who, "player")
    Campaign.open(store, CAMPAIGN, who="Ash", role="player").roll_entry(
        ASH_ROLL[0], ASH_ROLL[1], mode="self")
    revoke_seat(store, CAMPAIGN, "Cy")  # Cy's link opens nothing now
    return {"path": path, "secrets": secrets, "hole": [list(h) for h in game.hole],
            "salt": game.salt}


@pytest.fixture(scope="module")
def seats_server(seats_db: dict[str, Any]) -> Iterator[Any]:
    from tests.browser.conftest import _running_voila

    with _running_voila(env={"COMPANION_DB": str(seats_db["path"])}) as server:
        yield server


def goto(screen: Screen, server: Any, notebook: str, query: str, ready: str) -> None:
    """Open ``notebook`` in the same context (its frames are recorded too)."""
    screen.page.goto(f"{server.base_url}/voila/render/{notebook}.ipynb?{query}",
                     wait_until="domcontentloaded")
    screen.page.wait_for_selector(ready, state="attached", timeout=120_000)


def _roll_text(expr: str, seed: int) -> str:
    from companion import dice

    return str(dice.roll(expr, seed=seed))


def test_each_seat_receives_only_what_it_may_see(browser: Any, seats_server: Any,
                                                 seats_db: dict[str, Any]) -> None:
    secrets: dict[str, str] = seats_db["secrets"]
    hole: list[list[int]] = seats_db["hole"]
    queries = {
        "gm": f"campaign={CAMPAIGN}&seat={secrets['Gail']}",
        "Ash": f"campaign={CAMPAIGN}&seat={secrets['Ash']}",
        "Bryn": f"campaign={CAMPAIGN}&seat={secrets['Bryn']}",
        "spectator": f"campaign={CAMPAIGN}&who=Gail&role=gm",  # claims grant nothing
        "forged": f"campaign={CAMPAIGN}&seat=forged-0123456789abcdefghijklmnopqrstuvwxyzAB",
        "revoked": f"campaign={CAMPAIGN}&seat={secrets['Cy']}",
    }
    screens: dict[str, Screen] = {}
    try:
        # The hand as each seat's Dice Monarchs shows it.
        for name, query in queries.items():
            screen = screens[name] = Screen(browser, seats_server, "dice_monarchs", "", "",
                                            ".tc-monarchs-status [data-phase]", query=query)
            watching = name in ("spectator", "forged", "revoked")
            join = screen.page.locator(".tc-join")
            if watching:
                expect(join).to_contain_text("You are watching")
            else:
                expect(join).to_have_count(0)
        for name in ("Ash", "Bryn"):  # their own dice reach them: the search works
            mine = hole[PLAYERS.index(name)]
            screen = screens[name]
            wait_for(lambda s=screen, m=mine: dice_html(m) in s.received(page=False),
                     f"{name}'s own hole dice on {name}'s page: "
                     f"{screen.page.locator('.tc-monarchs').first.inner_text()[:300]}")
        # Then the roll log, in the dice tray.
        for name, screen in screens.items():
            goto(screen, seats_server, "dice_tray", queries[name], ".tc-roll-log-panel")
            # Whose seat, before any tap (issue 31): a visitor learns they only watch.
            line = screen.page.locator(".tc-seat-line")
            if name in ("spectator", "forged", "revoked"):
                expect(line.locator(".tc-join")).to_contain_text("You are watching")
            else:
                expect(line.locator(".tc-where")).to_contain_text(
                    "Gail (GM)" if name == "gm" else f"{name} (player)")
        public = _roll_text(*PUBLIC_ROLL)
        for screen in screens.values():
            expect(screen.page.locator(".tc-roll-log-panel").first).to_contain_text(
                public.split(" = ")[-1])
        gm_roll, ash_roll = _roll_text(*GM_ROLL), _roll_text(*ASH_ROLL)
        gm_text = screens["gm"].received()
        assert gm_roll in gm_text and ash_roll in gm_text  # the GM sees every roll
        assert ash_roll in screens["Ash"].received()  # Ash their own self roll
        for name, screen in screens.items():
            text = screen.received()
            assert str(SEED) not in text and seats_db["salt"] not in text, name
            for who, secret in secrets.items():
                own = (name == "gm" and who == "Gail") or name == who
                if not own:
                    at = text.find(secret)
                    assert at < 0, (f"{name}'s page holds {who}'s seat secret: "
                                    f"{text[max(0, at - 200):at + 60]}")
            if name == "gm":
                continue
            assert gm_roll not in text, f"{name}'s page holds the GM-only roll"
            if name != "Ash":
                assert ash_roll not in text, f"{name}'s page holds Ash's self roll"
            for seat, player in enumerate(PLAYERS):
                if player == name or (name in PLAYERS and hole[seat] == hole[
                        PLAYERS.index(name)]):
                    continue  # their own (or the very same) dice
                assert dice_html(hole[seat]) not in text, \
                    f"{name}'s page holds {player}'s hole dice"
    finally:
        for screen in screens.values():
            screen.close()


def test_under_jupyterhub_the_hub_user_is_their_seat_without_a_link(
        browser: Any, seats_db: dict[str, Any]) -> None:
    """A notebook server JupyterHub starts for ``bryn``: ``JUPYTERHUB_USER`` (and the hub's
    other variables) set; the page has no ``seat=`` and is Bryn's seat all the same."""
    from tests.browser.conftest import _running_voila

    hub = {"COMPANION_DB": str(seats_db["path"]), "JUPYTERHUB_USER": "bryn",
           "JUPYTERHUB_API_URL": "http://127.0.0.1:8081/hub/api",
           "JUPYTERHUB_SERVICE_PREFIX": "/user/bryn/"}
    hole: list[list[int]] = seats_db["hole"]
    with _running_voila(env=hub) as server:
        screen = Screen(browser, server, "dice_monarchs", "", "",
                        ".tc-monarchs-status [data-phase]",
                        query=f"campaign={CAMPAIGN}&who=Gail&role=gm")
        try:
            expect(screen.page.locator(".tc-join")).to_have_count(0)
            mine = hole[PLAYERS.index("Bryn")]
            wait_for(lambda: dice_html(mine) in screen.received(page=False),
                     "Bryn's own hole dice on the hub user's page")
            text = screen.received()
            for seat, player in enumerate(PLAYERS):
                if player != "Bryn" and hole[seat] != mine:
                    assert dice_html(hole[seat]) not in text, f"the page holds {player}'s dice"
            assert str(SEED) not in text
        finally:
            screen.close()
