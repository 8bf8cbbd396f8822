"""Headless tests of the Miasma components: clicks drive the core models, errors show."""

from __future__ import annotations

import json

from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.widgets.base import SaveLoad, press_enter
from companion.widgets.miasma import DiceMonarchsApp, EarthmotesApp, MiasmaTrackerApp
from tests.conftest import find_widget


def click(app, name: str) -> None:
    find_widget(app, name, "btn").click()


def test_monarchs_hot_seat_deal_to_showdown() -> None:
    app = DiceMonarchsApp(players="Ann, Bo", chips=10, seed=3, samples=100)
    click(app, "new-table")
    game = app.game
    assert game is not None and game.phase == "opening"
    # Covered: nobody's dice are on screen, the cover names the player to act.
    assert "Pass the device to <b>Bo</b>" in app.cover.value and app.private.value == ""
    assert app.betting.layout.display == "none"
    click(app, "reveal")
    hole = game.hole_dice("Bo")
    assert app.betting.layout.display is None and 'data-player="Bo"' in app.private.value
    assert "Chance to win the showdown" in app.private.value
    assert app.moves["check"].disabled and not app.moves["bet"].disabled
    app.amount.value = "2"
    click(app, "bet")
    assert game.pot == 2 and app.private.value == "" and "Ann" in app.cover.value
    for name in ["call", "check", "check", "check", "check", "check", "check"]:
        click(app, "reveal")
        click(app, name)
        assert app.error.message == ""
    assert game.phase == "hand_over" and len(game.community) == 5
    assert "the pot of 4 (" in app.outcome.value
    # The showdown reveals the hole dice, read as dice (no Python list).
    shown = ", ".join(f"d{s} {v}" for s, v in zip((4, 6, 8, 10, 12), hole, strict=True))
    assert f"Bo reveals hole dice {shown}" in app.outcome.value
    assert "[" not in app.outcome.value
    assert app.deal_button.layout.display is None
    click(app, "deal")
    assert game.hand_no == 2 and app.cover.value


def test_monarchs_refusals_show_one_line_errors() -> None:
    app = DiceMonarchsApp(players="Ann, Bo, Cy", chips=5, seed=1, samples=50)
    click(app, "new-table")
    click(app, "bet")  # not revealed yet
    assert "tap 'Show my dice' first" in app.error.message
    click(app, "reveal")
    app.amount.value = "99"
    click(app, "bet")
    assert "can bet at most 5" in app.error.message and app.game.pot == 0
    app.amount.value = "two"
    click(app, "bet")
    # Refused under its own box; the bet does not run and the table is unchanged.
    refusal = "Chips: \u201ctwo\u201d is not a whole number: enter a whole number from 1 to"
    assert app.amount.refusal.message.startswith(refusal)
    assert app.game.pot == 0 and len(app.game.log) == 2
    app.amount.value = "-5"
    click(app, "bet")
    assert "-5 is too low" in app.amount.refusal.message and app.game.pot == 0
    assert "-5 is too low" in app.error.message  # the app line repeats it
    app.amount.value = "1"  # fixing the box clears its refusal at once
    assert app.amount.refusal.message == "" and app.error.message == ""
    click(app, "bet")
    assert app.error.message == "" and app.game.pot == 1


def test_monarchs_bad_setup() -> None:
    app = DiceMonarchsApp(players="Solo", seed=1)
    click(app, "new-table")
    assert "2 to 8 players" in app.players_box.refusal.message and app.game.hand_no == 0
    assert app.play.layout.display == "none" and not app.game.log
    app.players_box.value = "Ann, " + "x" * 5000
    click(app, "new-table")
    assert "at most 40 characters" in app.players_box.refusal.message and not app.game.log
    assert len(app.players_box.refusal.message) < 120
    app.players_box.value = "A, B, C, D, E, F, G, H"
    assert app.players_box.refusal.message == ""
    click(app, "new-table")
    assert app.error.message == "" and len(app.game.players) == 8 and app.game.seed == 1


def test_monarchs_shows_an_existing_game() -> None:
    game = DiceMonarchsGame.start(["X", "Y"], seed=4)
    game.deal()
    app = DiceMonarchsApp(game, samples=50)
    assert "Pass the device to <b>Y</b>" in app.cover.value


def test_earthmote_list() -> None:
    app = EarthmotesApp(seed=7)
    click(app, "generate")
    click(app, "generate")
    assert app.listing.value.count('class="tc-card"') == 2
    first = app.model.earthmotes[0].describe()
    assert first.split(":")[0] in app.listing.value
    click(app, "region-2")
    assert len(app.model.earthmotes) == 3
    app.index_box.value = "9"
    click(app, "remove")
    assert app.index_box.refusal.message == ("Earthmote #: 9 is too high: enter a whole "
                                             "number from 1 to 3")
    assert len(app.model.earthmotes) == 3
    app.index_box.value = "x"
    click(app, "region-1")
    assert "\u201cx\u201d is not a whole number" in app.index_box.refusal.message
    assert len(app.model.earthmotes) == 3
    app.index_box.value = "3"
    click(app, "remove")
    assert app.index_box.refusal.message == "" and len(app.model.earthmotes) == 2
    click(app, "undo")
    click(app, "undo")
    assert len(app.model.earthmotes) == 2 and app.error.message == ""
    click(app, "clear")
    assert "No earthmotes yet" in app.listing.value and app.clear_button.disabled
    assert app.remove_button.disabled and all(b.disabled for b in app.region_buttons)


def test_miasma_panel_over_days() -> None:
    app = MiasmaTrackerApp()
    assert app.gain_button.disabled and app.gated["enter_miasma"].disabled  # nobody yet
    app.name_box.value = "Vel"
    click(app, "add")
    assert app.who.value == "Vel"
    app.stress_box.value = "400"
    click(app, "stress")
    assert "400 is too high: enter a whole number from 0 to 99" in app.stress_box.refusal.message
    assert app.model.character("Vel").stress == 0
    app.levels_box.value = ""
    click(app, "gain")
    assert "the box is empty" in app.levels_box.refusal.message
    assert app.model.character("Vel").level == 0
    app.stress_box.value = "4"
    click(app, "stress")
    click(app, "enter")
    click(app, "time-24")
    assert app.model.character("Vel").level == 2
    assert 'data-level="2"' in app.sheet.value and "Day 2" in app.sheet.value
    assert "speed is halved" in app.sheet.value and "poisoned" in app.sheet.value
    click(app, "rest")
    assert app.model.character("Vel").level == 2  # inside the Miasma: no recovery
    click(app, "leave")
    click(app, "eat")
    click(app, "rest")
    assert app.model.character("Vel").level == 1
    click(app, "restoration")
    assert "greater restoration removes psychosis" in app.history.value
    # Level 0: nothing to remove, so the button is off; eating twice neither.
    assert app.gated["greater_restoration"].disabled and app.gated["leave_miasma"].disabled
    click(app, "eat")
    assert app.gated["eat_and_drink"].disabled and not app.gated["enter_miasma"].disabled


def test_monarchs_save_and_load_resume_covered() -> None:
    app = DiceMonarchsApp(players="Ann, Bo, Cy", chips=20, seed=5, samples=50)
    click(app, "new-table")
    game = app.game
    assert app.setup.layout.display == "none"  # folded away while a game is on
    click(app, "reveal")
    app.amount.value = "2"
    click(app, "bet")
    click(app, "reveal")
    click(app, "call")
    click(app, "reveal")  # the next player looks at their dice, then the game is saved
    part = _save_load(app)
    # The page's own save link holds no hidden die; the GM's save is made on request.
    public = json.loads(_link_payload(part.save.value))
    assert all(h == [] for h in public["view"]["hole"]) and "seed" not in public["view"]
    assert len(public["view"]["commitments"]) == len(game.players)
    assert 'download="dice-monarchs.json"' in part.save.value
    assert app.gm_save.value == ""
    click(app, "gm-save")
    saved = _link_payload(app.gm_save.value)
    assert saved == game.to_json() and 'download="dice-monarchs-gm.json"' in app.gm_save.value

    other = DiceMonarchsApp(samples=50)
    assert other.play.layout.display == "none" and other.setup.layout.display is None
    other_part = _save_load(other)
    other_part.load_box.value = saved
    click(other, "load")
    assert other_part.error.message == ""
    loaded = other.game
    assert loaded.to_json() == saved and len(loaded.log) == 4
    assert other_part.load_box.value == "" and other.setup.layout.display == "none"
    # Resumed covered: whoever was looking when it was saved must tap again.
    assert other.private.value == ""
    assert f"Pass the device to <b>{loaded.player_to_act}</b>" in other.cover.value
    click(other, "reveal")
    click(other, "call")
    assert other.error.message == "" and len(loaded.log) == 5
    assert loaded.pot == game.pot + 2 and game.pot == 4  # the saved table is untouched
    click(other, "undo")  # first tap: "does everyone agree?"
    assert other.undo_button.description == "Undo: does everyone agree?"
    click(other, "undo")  # that call revealed the flop: it stays (hidden information)
    assert "revealed dice" in other.error.message and len(loaded.log) == 5


def test_a_bare_game_saves_loads_and_deals() -> None:
    bare = DiceMonarchsGame()
    assert bare.players == ["Player 1", "Player 2"] and bare.legal_moves() == ["deal"]
    again = DiceMonarchsGame.from_json(bare.to_json())
    assert again == bare
    again.deal()
    assert again.phase == "opening" and len(again.hole_dice("Player 2")) == 5
    app = DiceMonarchsApp(bare, samples=20)
    assert app.play.layout.display == "none"  # nothing dealt yet: the setup shows
    click(app, "new-table")
    assert app.game is bare and bare.players == ["Ann", "Bo", "Cy"] and bare.hand_no == 1
    # "New table" seats the players (a move) and deals the first hand (a move). On the hot
    # seat each undo is two taps (everyone agrees): the first undo takes the deal back...
    click(app, "undo")
    assert app.undo_button.description == "Undo: does everyone agree?"
    click(app, "undo")
    assert bare.players == ["Ann", "Bo", "Cy"] and bare.hand_no == 0
    click(app, "undo")
    click(app, "undo")  # ...the second: a new table is a move, undo brings the old one back
    assert bare.players == ["Player 1", "Player 2"] and app.undo_button.disabled


def test_monarchs_bad_load_keeps_the_table() -> None:
    app = DiceMonarchsApp(players="Ann, Bo", chips=10, seed=2, samples=50)
    click(app, "new-table")
    game, before = app.game, app.game.to_json()
    click(app, "setup")
    assert app.setup.layout.display is None and app.setup_button.description == "Hide setup"
    part = _save_load(app)
    click(app, "load")
    assert part.error.message.startswith("Load: paste a saved Dice Monarchs table")
    broken = before.replace('"stacks": [', '"stacks": [-5, ', 1)
    part.load_box.value = broken
    click(app, "load")
    assert "stacks" in part.error.message and "\n" not in part.error.message
    part.load_box.value = "{not json"
    click(app, "load")
    assert "not valid JSON" in part.error.message and "Expecting" not in part.error.message
    assert "DiceMonarchsGame" not in part.error.message
    assert app.game is game and game.to_json() == before
    assert part.load_box.value == "{not json"  # the paste stays, to be fixed
    click(app, "setup")
    assert app.setup.layout.display == "none"


def test_monarchs_load_replaces_a_running_game() -> None:
    first = DiceMonarchsGame.start(["X", "Y"], 30, seed=8)
    first.deal()
    app = DiceMonarchsApp(players="Ann, Bo", chips=10, seed=2, samples=50)
    click(app, "new-table")
    click(app, "setup")
    _save_load(app).load_box.value = first.to_json()
    click(app, "load")
    assert app.game.players == ["X", "Y"] and app.game.to_json() == first.to_json()
    assert app.setup.layout.display == "none" and app.error.message == ""
    renders = app.renders
    first.bet(first.player_to_act, 1)  # the loaded copy is the app's own, not ``first``
    assert app.renders == renders and app.game.pot == 0


def test_monarchs_buttons_that_cannot_work_are_disabled() -> None:
    app = DiceMonarchsApp(players="Ann, Bo", chips=10, seed=3, samples=50)
    assert app.undo_button.disabled
    click(app, "new-table")
    assert all(b.disabled for b in app.moves.values())  # covered: nobody may act yet
    click(app, "reveal")
    # Opening bets: only a bet is allowed (rule 2).
    assert [n for n, b in app.moves.items() if not b.disabled] == ["bet"]
    assert app.deal_button.disabled and not app.undo_button.disabled


def test_miasma_enter_adds_a_character() -> None:
    app = MiasmaTrackerApp()
    assert app.name_box.refusal.message == ""  # nothing typed yet: nothing refused
    click(app, "add")
    assert "needs a name" in app.name_box.refusal.message and not app.model.characters
    app.name_box.value = "Vel"
    assert app.name_box.refusal.message == ""
    press_enter(app.name_box.control)
    assert [c.name for c in app.model.characters] == ["Vel"] and app.name_box.text == ""
    assert app.who.value == "Vel"
    app.name_box.value = "Vel"
    press_enter(app.name_box.control)
    assert "already tracked" in app.name_box.refusal.message and len(app.model.characters) == 1
    assert app.name_box.text == "Vel"  # the refused name stays, to be fixed
    app.name_box.value = "V" * 5000
    click(app, "add")
    assert "at most 40" in app.name_box.refusal.message
    assert len(app.model.characters) == 1


def test_monarchs_enter_in_a_setup_box_starts_the_table() -> None:
    app = DiceMonarchsApp(players="Ann, Bo", chips=10, seed=3, samples=50)
    app.chips_box.value = "ten"
    press_enter(app.chips_box.control)
    assert app.chips_box.refusal.message.startswith("Chips each: \u201cten\u201d is not a whole")
    assert app.game.hand_no == 0 and not app.game.log
    app.chips_box.value = "12"
    press_enter(app.players_box.control)
    assert app.chips_box.refusal.message == "" and app.game.stacks == [12, 12]
    app.seed_box.value = "-3"
    assert "leave it empty for a fresh seed" in app.seed_box.refusal.message


def _save_load(app):
    return next(w for w in _walk(app) if isinstance(w, SaveLoad))


def _walk(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from _walk(child)


def _link_payload(html_value: str) -> str:
    import base64

    return base64.b64decode(html_value.split("base64,", 1)[1].split('"', 1)[0]).decode()


def test_earthmotes_save_and_load() -> None:
    app = EarthmotesApp(seed=4)
    click(app, "generate")
    click(app, "generate")
    part = _save_load(app)
    saved = _link_payload(part.save.value)
    assert saved == app.model.to_json() and 'download="earthmotes.json"' in part.save.value
    other = EarthmotesApp(seed=9)
    other_part = _save_load(other)
    other_part.load_box.value = "[1, 2]"
    click(other, "load")
    assert "not a saved state" in other_part.error.message and not other.model.earthmotes
    other_part.load_box.value = saved
    click(other, "load")
    assert other_part.error.message == "" and other_part.load_box.value == ""
    assert other.model.to_json() == saved and 'data-count="2"' in other.listing.value
    click(other, "undo")  # the loaded log comes along: undo works on it
    assert len(other.model.earthmotes) == 1


def test_miasma_save_and_load_keeps_the_panel_working() -> None:
    app = MiasmaTrackerApp()
    app.name_box.value = "Vel"
    click(app, "add")
    app.stress_box.value = "4"
    click(app, "stress")
    click(app, "enter")
    click(app, "time-24")
    saved = _link_payload(_save_load(app).save.value)
    other = MiasmaTrackerApp()
    part = _save_load(other)
    click(other, "load")
    assert part.error.message == "Load: paste a saved Miasma record into the box first"
    part.load_box.value = saved.replace('"hours": 24', '"hours": "x"')
    click(other, "load")
    assert "hours" in part.error.message and not other.model.characters
    assert part.load_box.value  # the bad paste stays, to be fixed
    part.load_box.value = saved
    click(other, "load")
    assert other.model.to_json() == saved and other.who.value == "Vel"
    assert 'data-level="2"' in other.sheet.value and "Day 2" in other.sheet.value
    click(other, "time-24")  # the loaded record plays on
    assert other.model.character("Vel").level > 2 and other.model.hours == 48
