"""Dice Monarchs across devices, proved at the widget-state level: every widget state a
player's screen would send to their browser (all widgets under the app, layouts and
download links included, base64 payloads decoded) holds no other player's hole dice and
never the table seed, at every step of a whole hand with 3 players, until the showdown."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import ipywidgets.widgets.widget as ipw

from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.widgets.miasma import DiceMonarchsApp
from companion.widgets.miasma.common import dice_html
from tests.conftest import find_widget

SEED = 7318829104433  # distinctive: its digits cannot turn up by chance
PLAYERS = ["Ann", "Bo", "Cy"]


def page_states(app: Any) -> list[dict[str, Any]]:
    """The state of every widget the app's page holds (what the browser is sent)."""
    seen: set[str] = set()
    todo = [app.model_id]
    states = []
    while todo:
        mid = todo.pop()
        if mid in seen:
            continue
        seen.add(mid)
        state = ipw._instances[mid].get_state()
        states.append(state)
        todo += re.findall(r"IPY_MODEL_([0-9a-f]+)", json.dumps(state, default=str))
    return states


def page_text(app: Any) -> str:
    """All widget states as one text, with every base64 download decoded into it."""
    text = json.dumps(page_states(app), default=str, ensure_ascii=False)
    decoded = [base64.b64decode(p).decode("utf-8", "replace")
               for p in re.findall(r"base64,([A-Za-z0-9+/=]+)", text)]
    return "\n".join([text, *decoded])


def click(app: Any, name: str) -> None:
    find_widget(app, name, "btn").click()
    assert app.error.message == "", app.error.message


def secrets_seen(game: DiceMonarchsGame, viewer: str | None, text: str) -> list[str]:
    """Which secrets the viewer's page holds: the seed, or another's unrevealed dice."""
    found = [f"seed {SEED}"] if str(SEED) in text else []
    shown = set(game.revealed_seats())
    for seat, name in enumerate(game.players):
        hole = game.hole[seat]
        if name == viewer or seat in shown or not hole:
            continue
        mine = game.hole[game.players.index(viewer)] if viewer in game.players else None
        if hole == mine:
            continue
        if dice_html(hole) in text:
            found.append(f"{name}'s hole dice")
        if " ".join(map(str, hole)) in text or json.dumps(hole) in text:
            found.append(f"{name}'s hole dice as numbers")
    return found


def screens(game: DiceMonarchsGame) -> dict[str | None, DiceMonarchsApp]:
    apps: dict[str | None, DiceMonarchsApp] = {
        p: DiceMonarchsApp(game, viewer=p, role="player") for p in PLAYERS}
    # The table screen: someone not seated (a tablet in the middle of the table).
    apps[None] = DiceMonarchsApp(game, viewer="Table", role="player")
    return apps


def twin_text(game: DiceMonarchsGame, viewer: str | None, typed: str = "1") -> str:
    """The viewer's page for a table that differs only in secrets the viewer may not know
    (others' unrevealed hole dice and the seed): it must be the same page."""
    twin = DiceMonarchsGame.from_json(game.to_json())
    twin.seed = SEED + 1
    shown = set(game.revealed_seats())
    for seat, name in enumerate(twin.players):
        if name != viewer and seat not in shown and twin.hole[seat]:
            twin.hole[seat] = [(v % s) + 1 for v, s in zip(twin.hole[seat], (4, 6, 8, 10, 12),
                                                             strict=True)]
    app = DiceMonarchsApp(twin, viewer=viewer or "Table", role="player")
    app.amount.value = typed  # what the person typed on their own screen
    return normalised(app)


def normalised(app: DiceMonarchsApp) -> str:
    # Model ids, the render counter and the public save's commitments (hashes of the
    # secret, made to be published) differ between two apps by construction.
    states = page_states(app)
    for state in states:
        # A button's answer mark (tc-answer-0/1, the phone pages' tap guard) flips with
        # each tap of that screen: a count of taps, not a value of the game.
        if isinstance(state.get("_dom_classes"), (list, tuple)):
            state["_dom_classes"] = [c for c in state["_dom_classes"]
                                     if not str(c).startswith("tc-answer-")]
        value = state.get("value")
        if isinstance(value, str):
            value = re.sub(r'data-n="\d+"', "", value)
            state["value"] = "<download>" if 'download="' in value else value
    return json.dumps(sorted(re.sub(r"IPY_MODEL_[0-9a-f]+", "M",
                                     json.dumps(s, sort_keys=True, default=str))
                              for s in states))


def test_a_whole_hand_across_three_phones_sends_no_secret_before_the_showdown() -> None:
    game = DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED)
    apps = screens(game)
    apps[None].game.deal()
    checked = 0

    def check_all() -> None:
        nonlocal checked
        for viewer, app in apps.items():
            text = page_text(app)
            assert secrets_seen(game, viewer, text) == [], (viewer, game.phase)
            real, twin = json.loads(normalised(app)), json.loads(twin_text(game, viewer,
                                                                 app.amount.value))
            assert real == twin, (viewer, game.phase, set(real) ^ set(twin))
            checked += 1

    check_all()
    # Each player's own screen shows their own dice and nobody else's.
    for p in PLAYERS:
        assert f'data-player="{p}"' in apps[p].private.value
        assert dice_html(game.hole_dice(p)) in apps[p].private.value
    assert apps[None].private.value == ""
    assert "Waiting for <b>Bo</b>" in apps[None].cover.value
    # A whole hand, each move made on the mover's own screen.
    script = [("Bo", "bet", 3), ("Cy", "call", None), ("Ann", "raise", 2), ("Bo", "call", None),
              ("Cy", "call", None)]
    script += [("?", "check", None)] * 9  # the three rounds after the flop, all checks
    for who, name, amount in script:
        mover = game.player_to_act if who == "?" else who
        assert mover is not None
        app = apps[mover]
        for other in PLAYERS:
            if other != mover:  # not their turn: no betting buttons on their screens
                assert apps[other].betting.layout.display == "none"
        if amount is not None:
            app.amount.value = str(amount)
        click(app, name)
        if game.phase in ("hand_over", "game_over"):
            break
        check_all()
    assert game.phase == "hand_over" and len(game.community) == 5
    # At the showdown every hand still in is shown to all; the seed still to nobody.
    for viewer, app in apps.items():
        text = page_text(app)
        assert str(SEED) not in text
        for p in PLAYERS:
            assert f"{p} reveals hole dice" in app.outcome.value
        assert secrets_seen(game, viewer, text) == []
    assert checked >= 4 * 10


def test_a_players_screen_cannot_move_for_another_or_undo() -> None:
    game = DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED)
    apps = screens(game)
    game.deal()
    find_widget(apps["Cy"], "bet", "btn").click()
    assert "it is Bo's turn" in apps["Cy"].error.message and game.pot == 0
    gm = DiceMonarchsApp(game, viewer="Gail", role="gm")
    assert apps["Bo"].undo_button.layout.display == "none"
    assert apps[None].undo_button.layout.display == "none"
    assert gm.undo_button.layout.display is None
    # The GM can undo a move that revealed nothing.
    apps["Bo"].amount.value = "2"
    click(apps["Bo"], "bet")
    click(gm, "undo")
    assert game.pot == 0 and game.player_to_act == "Bo"


def test_the_gm_screen_draws_no_hole_dice_and_only_its_save_holds_them() -> None:
    game = DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED)
    gm = DiceMonarchsApp(game, viewer="Gail", role="gm")
    game.deal()
    drawn = json.dumps(page_states(gm), default=str)
    drawn = re.sub(r"base64,[A-Za-z0-9+/=]+", "", drawn)
    assert gm.private.value == "" and str(SEED) not in drawn
    assert all(dice_html(h) not in drawn for h in game.hole)
    assert str(SEED) not in page_text(gm)  # nor its save link, until asked
    # The GM's save is the whole table (the secrets included), made when the GM asks.
    click(gm, "gm-save")
    assert str(SEED) in page_text(gm)
    game.bet("Bo", 1)  # the next move drops it from the page again
    assert str(SEED) not in page_text(gm)


def test_the_hot_seat_stays_and_its_cover_sends_no_dice() -> None:
    game = DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED)
    app = DiceMonarchsApp(game)
    game.deal()
    # Nothing of it in the page, the save link decoded included: the cover hides nothing.
    assert secrets_seen(game, None, page_text(app)) == []
    click(app, "reveal")
    assert dice_html(game.hole_dice("Bo")) in app.private.value
    drawn = re.sub(r"base64,[A-Za-z0-9+/=]+", "", json.dumps(page_states(app), default=str))
    assert dice_html(game.hole_dice("Ann")) not in drawn
    assert dice_html(game.hole_dice("Cy")) not in drawn


def test_the_gm_seats_players_sells_chips_and_turns_the_odds_off() -> None:
    game = DiceMonarchsGame.start(PLAYERS, chips=30, seed=SEED)
    gm = DiceMonarchsApp(game, viewer="Gail", role="gm")
    ann = DiceMonarchsApp(game, viewer="Ann", role="player")
    assert ann.play.layout.display is None  # the empty table, waiting for the GM's deal
    gm.seat_name.value = "Di"
    gm.seat_chips.value = "40"
    click(gm, "join")
    assert game.players[-1] == "Di" and game.stacks[-1] == 40
    gm.seat_name.value = "Ann"
    gm.seat_chips.value = "5"
    click(gm, "rebuy")
    assert game.stacks[0] == 35
    gm.odds_toggle.value = False
    assert not game.show_odds
    game.deal()
    assert "Chance to win" not in ann.private.value and "your hole dice" in ann.private.value
    gm.odds_toggle.value = True
    assert "Chance to win the showdown" in ann.private.value
    find_widget(gm, "leave", "btn").click()
    assert "only between hands" in gm.error.message and len(game.players) == 4
