"""Headless tests of the Miasma components: clicks drive the core models, errors show."""

from __future__ import annotations

from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.widgets.base import press_enter
from companion.widgets.miasma import DiceMonarchsTable, EarthmoteList, MiasmaPanel


def click(app, name: str) -> None:
    for w in _walk(app):
        if f"tc-btn-{name}" in getattr(w, "_dom_classes", ()):
            w.click()
            return
    raise AssertionError(f"no button {name}")


def _walk(w):
    yield w
    for child in getattr(w, "children", ()):
        yield from _walk(child)


def test_monarchs_hot_seat_deal_to_showdown() -> None:
    app = DiceMonarchsTable(players="Ann, Bo", chips=10, seed=3, samples=100)
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
    assert "the pot of 4 (showdown)" in app.outcome.value
    assert str(list(hole)) in app.outcome.value  # the showdown reveals the hole dice
    assert app.deal_button.layout.display is None
    click(app, "deal")
    assert game.hand_no == 2 and app.cover.value


def test_monarchs_refusals_show_one_line_errors() -> None:
    app = DiceMonarchsTable(players="Ann, Bo, Cy", chips=5, seed=1, samples=50)
    click(app, "new-table")
    click(app, "bet")  # not revealed yet
    assert "tap 'Show my dice' first" in app.error.message
    click(app, "reveal")
    app.amount.value = "99"
    click(app, "bet")
    assert "table limit" in app.error.message and app.game.pot == 0
    app.amount.value = "two"
    click(app, "bet")
    assert app.error.message == "amount: expected a whole number, got 'two'"
    app.amount.value = "1"
    click(app, "bet")
    assert app.error.message == "" and app.game.pot == 1


def test_monarchs_bad_setup() -> None:
    app = DiceMonarchsTable(players="Solo", seed=1)
    click(app, "new-table")
    assert "2 to 8 players" in app.error.message and app.game is None
    app.players_box.value = "A, B, C, D, E, F, G, H"
    click(app, "new-table")
    assert app.error.message == "" and len(app.game.players) == 8


def test_monarchs_shows_an_existing_game() -> None:
    game = DiceMonarchsGame.start(["X", "Y"], seed=4)
    game.deal()
    app = DiceMonarchsTable(game, samples=50)
    assert "Pass the device to <b>Y</b>" in app.cover.value


def test_earthmote_list() -> None:
    app = EarthmoteList(seed=7)
    click(app, "generate")
    click(app, "generate")
    assert app.listing.value.count('class="tc-card"') == 2
    first = app.model.earthmotes[0].describe()
    assert first.split(":")[0] in app.listing.value
    click(app, "region-2")
    assert len(app.model.earthmotes) == 3
    app.index_box.value = "9"
    click(app, "remove")
    assert "no earthmote #9" in app.error.message
    click(app, "undo")
    assert len(app.model.earthmotes) == 2 and app.error.message == ""
    click(app, "clear")
    assert "No earthmotes yet" in app.listing.value and app.clear_button.disabled


def test_miasma_panel_over_days() -> None:
    app = MiasmaPanel()
    click(app, "gain")
    assert "add a character first" in app.error.message
    app.name_box.value = "Vel"
    click(app, "add")
    assert app.who.value == "Vel"
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
    click(app, "restoration")
    assert "no psychosis to remove" in app.error.message
    assert "greater restoration removes psychosis" in app.history.value


def _saved(app: DiceMonarchsTable) -> str:
    # The Save game link carries the file inline: base64 after "base64,", up to the quote.
    import base64
    import re

    match = re.search(r'download="([^"]+)" href="data:application/json;charset=utf-8;base64,'
                      r'([^"]+)"', app.save.value)
    assert match is not None, app.save.value
    return base64.b64decode(match.group(2)).decode("utf-8")


def test_monarchs_save_and_load_resume_covered() -> None:
    app = DiceMonarchsTable(players="Ann, Bo, Cy", chips=20, seed=5, samples=50)
    click(app, "new-table")
    game = app.game
    assert app.setup.layout.display == "none"  # folded away while a game is on
    click(app, "reveal")
    app.amount.value = "2"
    click(app, "bet")
    click(app, "reveal")
    click(app, "call")
    click(app, "reveal")  # the next player looks at their dice, then the game is saved
    saved = _saved(app)
    assert saved == game.to_json() and 'download="dice-monarchs-hand-1.json"' in app.save.value

    other = DiceMonarchsTable(samples=50)
    assert other.play.layout.display == "none" and other.setup.layout.display is None
    other.load_box.value = saved
    click(other, "load")
    assert other.error.message == ""
    loaded = other.game
    assert loaded is not None and loaded.to_json() == saved and len(loaded.log) == 3
    assert other.load_box.value == "" and other.setup.layout.display == "none"
    # Resumed covered: whoever was looking when it was saved must tap again.
    assert other.private.value == ""
    assert f"Pass the device to <b>{loaded.player_to_act}</b>" in other.cover.value
    click(other, "reveal")
    click(other, "call")
    assert other.error.message == "" and len(loaded.log) == 4
    assert loaded.pot == game.pot + 2 and game.pot == 4  # the saved table is untouched
    click(other, "undo")
    assert loaded.to_json() == saved


def test_monarchs_bad_load_keeps_the_table() -> None:
    app = DiceMonarchsTable(players="Ann, Bo", chips=10, seed=2, samples=50)
    click(app, "new-table")
    game, before = app.game, app.game.to_json()
    click(app, "setup")
    assert app.setup.layout.display is None and app.setup_button.description == "Hide setup"
    click(app, "load")
    assert app.error.message.startswith("Load game: paste a saved Dice Monarchs game")
    broken = before.replace('"stacks": [', '"stacks": [-5, ', 1)
    app.load_box.value = broken
    click(app, "load")
    assert "stacks" in app.error.message and "\n" not in app.error.message
    app.load_box.value = "{not json"
    click(app, "load")
    assert "not valid JSON" in app.error.message
    assert app.game is game and game.to_json() == before
    assert app.load_box.value == "{not json"  # the paste stays, to be fixed
    click(app, "setup")
    assert app.setup.layout.display == "none"


def test_monarchs_load_replaces_a_running_game() -> None:
    first = DiceMonarchsGame.start(["X", "Y"], 30, seed=8)
    first.deal()
    app = DiceMonarchsTable(players="Ann, Bo", chips=10, seed=2, samples=50)
    click(app, "new-table")
    old = app.game
    click(app, "setup")
    app.load_box.value = first.to_json()
    click(app, "load")
    assert app.game is not old and app.game.players == ["X", "Y"]
    assert app.setup.layout.display == "none" and app.error.message == ""
    renders = app.renders
    old.bet(old.player_to_act, 1)  # the old game is detached: its moves no longer render here
    assert app.renders == renders
    click(app, "reveal")
    assert app.renders == renders + 1


def test_miasma_enter_adds_a_character() -> None:
    app = MiasmaPanel()
    app.name_box.value = "Vel"
    press_enter(app.name_box)
    assert [c.name for c in app.model.characters] == ["Vel"] and app.name_box.value == ""
    assert app.who.value == "Vel"
    app.name_box.value = "Vel"
    press_enter(app.name_box)
    assert app.error.message and len(app.model.characters) == 1
    assert app.name_box.value == "Vel"  # the refused name stays, to be fixed


def test_monarchs_enter_in_a_setup_box_starts_the_table() -> None:
    app = DiceMonarchsTable(players="Ann, Bo", chips=10, seed=3, samples=50)
    app.chips_box.value = "ten"
    press_enter(app.chips_box)
    assert app.error.message == "chips: expected a whole number, got 'ten'" and app.game is None
    app.chips_box.value = "12"
    press_enter(app.players_box)
    assert app.error.message == "" and app.game is not None and app.game.stacks == [12, 12]


def _save_load(app):
    from companion.widgets.base import SaveLoad

    return next(w for w in _walk(app) if isinstance(w, SaveLoad))


def _link_payload(html_value: str) -> str:
    import base64

    return base64.b64decode(html_value.split("base64,", 1)[1].split('"', 1)[0]).decode()


def test_earthmotes_save_and_load() -> None:
    app = EarthmoteList(seed=4)
    click(app, "generate")
    click(app, "generate")
    part = _save_load(app)
    saved = _link_payload(part.save.value)
    assert saved == app.model.to_json() and 'download="earthmotes.json"' in part.save.value
    other = EarthmoteList(seed=9)
    other_part = _save_load(other)
    other_part.load_box.value = "[1, 2]"
    click(other, "load")
    assert "expected a JSON object" in other_part.error.message and not other.model.earthmotes
    other_part.load_box.value = saved
    click(other, "load")
    assert other_part.error.message == "" and other_part.load_box.value == ""
    assert other.model.to_json() == saved and 'data-count="2"' in other.listing.value
    click(other, "undo")  # the loaded log comes along: undo works on it
    assert len(other.model.earthmotes) == 1


def test_miasma_save_and_load_keeps_the_panel_working() -> None:
    app = MiasmaPanel()
    app.name_box.value = "Vel"
    click(app, "add")
    app.stress_box.value = "4"
    click(app, "stress")
    click(app, "enter")
    click(app, "time-24")
    saved = _link_payload(_save_load(app).save.value)
    other = MiasmaPanel()
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
