"""The duel across devices: a duelist's screen (every widget state sent to the browser,
download links decoded) is the same whatever the other side picked, until the reveal;
the save leaves a pending pick out; undo is the GM's and never takes back a reveal."""

from __future__ import annotations

import json

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.duel import Duel
from companion.widgets.cairn_srd import DuelApp
from tests.conftest import find_widget
from tests.miasma.test_miasma_monarchs_screens import normalised, page_text


def started() -> Duel:
    duel = Duel()
    duel.start("Vera", "Osk", 8, 8, "the bridge toll")
    return duel


def screens(duel: Duel) -> dict[str, DuelApp]:
    return {"Vera": DuelApp(duel, viewer="Vera", role="player"),
            "Osk": DuelApp(duel, viewer="Osk", role="player"),
            "Table": DuelApp(duel, viewer="Table", role="player")}


def twin_page(duel: Duel, viewer: str, pick: str) -> str:
    twin = Duel.from_json(duel.to_json())
    side = twin.choices.index(next(c for c in twin.choices if c))
    twin.choices[side] = pick
    for event in twin._event_log():
        if event.move == "choose" and event.args.get("who") == side:
            event.args["tactic"] = pick
    return normalised(DuelApp(twin, viewer=viewer, role="player"))


def test_the_other_sides_pick_never_reaches_a_screen_before_the_reveal() -> None:
    duel = started()
    apps = screens(duel)
    find_widget(apps["Vera"], "choose-0-attack", "btn").click()
    assert apps["Vera"].error.message == ""
    assert duel.choices == ["attack", ""]
    assert "you chose attack" in page_text(apps["Vera"])
    for viewer in ("Osk", "Table"):
        text = normalised(apps[viewer])
        # The same page whatever Vera picked: her pick is not in it, in any form.
        for other in ("defend", "flourish"):
            assert text == twin_page(duel, viewer, other), (viewer, other)
        assert "(hidden)" in text and "you chose" not in text
        saved = json.loads(page_text(apps[viewer]).rsplit("\n", 1)[-1])
        assert saved["state"]["choices"] == ["", ""]
        assert all(e["move"] != "choose" for e in saved["log"])
    # Osk's screen has only his own row of buttons; the table screen none.
    assert find_widget(apps["Osk"], "choose-0-attack", "btn").layout.display == "none"
    assert find_widget(apps["Osk"], "choose-1-defend", "btn").layout.display is None
    assert find_widget(apps["Table"], "choose-1-defend", "btn").layout.display == "none"
    find_widget(apps["Osk"], "choose-0-defend", "btn").click()
    assert "own screen" in apps["Osk"].error.message and duel.choices == ["attack", ""]
    # The second pick reveals both, to everyone at once.
    find_widget(apps["Osk"], "choose-1-flourish", "btn").click()
    assert duel.rounds == 1
    for app in apps.values():
        assert "Vera attack (d8" in app.board.value and "Osk flourish (d4" in app.board.value


def test_undo_is_the_gms_and_keeps_a_reveal() -> None:
    duel = started()
    duel.choose("Vera", "attack")
    with pytest.raises(RuleError, match="only the GM can undo"):
        duel.undo_as("player")
    duel.undo_as("gm")
    assert duel.choices == ["", ""]
    duel.choose("Vera", "attack")
    duel.choose("Osk", "defend", seed=3)
    with pytest.raises(RuleError, match="revealed both picks"):
        duel.undo_as("gm")
    assert duel.rounds == 1


def test_view_and_save_hold_no_pending_pick() -> None:
    duel = started()
    duel.choose("Osk", "flourish")
    assert duel.view_for("Osk")["my_choice"] == "flourish"
    vera = duel.view_for("Vera")
    assert vera["my_choice"] == "" and vera["chosen"] == [False, True]
    assert "flourish" not in json.dumps(vera) and "flourish" not in json.dumps(
        duel.public_save())
    loaded = Duel.from_dict(duel.public_save())
    assert loaded.choices == ["", ""] and loaded.stakes == "the bridge toll"


def test_hot_seat_stays_with_both_rows_and_an_agreed_undo() -> None:
    duel = started()
    app = DuelApp(duel)
    find_widget(app, "choose-0-attack", "btn").click()
    assert not find_widget(app, "choose-1-defend", "btn").disabled
    assert "attack" not in app.board.value
    undo = find_widget(app, "undo", "btn")
    undo.click()
    assert duel.choices == ["attack", ""] and undo.description == "Undo: do both agree?"
    undo.click()
    assert duel.choices == ["", ""]
