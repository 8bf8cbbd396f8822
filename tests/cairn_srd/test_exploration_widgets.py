"""Headless tests of the dungeon crawl app: the turn's buttons in order, the clock's odds
from the engine, seeds drawn and shown, lights, the party's darkness and escape, refusals
under their boxes, undo, save and load."""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets

from companion import dice
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.exploration import Delve, encounter_odds
from companion.rulesets.cairn_srd.saves import save
from companion.widgets.base import SaveLoad
from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp
from tests.cairn_srd.widget_find import find_button, fixed_seeds, has_button, walk


def seed_rolling(expr: str, want: set[int]) -> int:
    return next(s for s in range(1000) if dice.roll(expr, seed=s).total in want)


def enabled(app: DungeonCrawlApp) -> set[str]:
    return {name for name in ("declare", "describe", "roll-die", "mark")
            if not find_button(app, name).disabled}


def test_turn_steps_in_order_and_the_clock_odds_shown() -> None:
    app = DungeonCrawlApp(seed_source=fixed_seeds(41))
    d = app.delve
    assert enabled(app) == {"declare"}
    assert 'data-within="7777/15552"' in app.odds.value  # 6 turns ahead from 20 on a d6
    assert Fraction(7777, 15552) == encounter_odds(20, 6, 6).within
    find_button(app, "declare").click()
    assert enabled(app) == {"describe"} and d.action == "Explore a new room"
    app.note.value = "cobwebs"
    find_button(app, "describe").click()
    assert enabled(app) == {"roll-die"} and d.description == "cobwebs"
    find_button(app, "roll-die").click()
    assert d.clock == 20 - dice.roll("1d6", seed=41).total
    assert 'data-seed="41"' in app.outcome.value and d.log[-1].args["seed"] == 41
    assert enabled(app) == {"mark"}
    find_button(app, "mark").click()
    assert d.turn == 2 and enabled(app) == {"declare"}
    assert f'data-clock="{d.clock}"' in app.board.value
    app.lookahead.text = "0"
    assert "too low" in app.lookahead.refusal.message and app.odds.value == ""
    app.lookahead.text = "2"
    assert f'data-within="{encounter_odds(d.clock, 6, 2).within}"' in app.odds.value


def test_rest_and_other_actions() -> None:
    app = DungeonCrawlApp(seed_source=fixed_seeds(3))
    app.action.value = "rest"
    find_button(app, "declare").click()
    assert app.delve.die == 8 and 'data-die="8"' in app.board.value
    app.delve.undo()
    app.action.value = "other"
    app.other.text = ""
    find_button(app, "declare").click()
    assert "declare what" in app.turn_error.message and not app.delve.log
    app.other.text = "x" * 500
    find_button(app, "declare").click()
    assert "too long" in app.turn_error.message and not app.delve.log
    app.other.text = "Bargain with the ghoul"
    find_button(app, "declare").click()
    assert app.delve.action == "Bargain with the ghoul"


def test_encounter_details_rolled_with_seeds() -> None:
    seed = seed_rolling("1d6", {2, 3, 4, 5, 6})
    app = DungeonCrawlApp(delve=Delve(clock=1), seed_source=fixed_seeds(seed, 7, 8, 9))
    assert find_button(app, "roll-distance").disabled
    find_button(app, "declare").click()
    find_button(app, "describe").click()
    find_button(app, "roll-die").click()
    enc = app.delve.encounter
    assert enc is not None and "Encounter!" in app.encounter_view.value
    find_button(app, "roll-distance").click()
    assert enc.distance and find_button(app, "roll-distance").disabled
    assert 'data-seed="7"' in app.outcome.value
    find_button(app, "roll-activity").click()
    find_button(app, "roll-complication").click()
    assert enc.activity and enc.complication
    assert f"activity: {enc.activity}" in app.encounter_view.value


def test_lights_burn_down_and_candles_blow_out() -> None:
    app = DungeonCrawlApp(seed_source=fixed_seeds(1))
    app.new_name.value = "Ash"
    find_button(app, "add-pc").click()
    assert [c.name for c in app.party] == ["Ash"]
    app.light_bearer.value = "Ash"
    find_button(app, "add-light").click()
    app.light_kind.value = "Candle"
    find_button(app, "add-light").click()
    find_button(app, "light-0").click()
    find_button(app, "light-1").click()
    assert find_button(app, "light-0").disabled and not find_button(app, "put-out-0").disabled
    assert find_button(app, "shelter-1").disabled  # no lantern to carry it in
    app.action.value = "hurry"
    find_button(app, "declare").click()
    assert not app.delve.lights[1].lit and "blow out" in app.outcome.value
    find_button(app, "describe").click()
    find_button(app, "roll-die").click()
    find_button(app, "mark").click()
    torch = app.delve.lights[0]
    assert torch.bearer == "Ash" and torch.turns_left == 5
    assert 'data-turns="5"' in app.lights_view.children[1].children[0].value
    assert not has_button(app, "refill-0")  # a torch takes no oil
    app.light_kind.value = "Lantern"
    find_button(app, "add-light").click()
    assert find_button(app, "refill-2").disabled  # no oil yet
    find_button(app, "add-oil").click()
    assert not find_button(app, "refill-2").disabled and app.delve.oil == 10


def test_darkness_panic_and_fate_on_the_party_sheets() -> None:
    hero = new_character("Bryn", 10, 12, 9, 3)
    party = [hero]
    app = DungeonCrawlApp(party, seed_source=fixed_seeds(5, 6))
    assert not has_button(app, "add-pc")  # the campaign's party: no adding here
    # No light source at all: out of light. The save and the fate are two ways, not steps.
    assert not find_button(app, "fate-0").disabled
    find_button(app, "panic-0").click()
    expected = save(9, seed=5)
    assert hero.panicking == (not expected.success)
    assert app.delve.panic_saves == {"Bryn": expected.success}
    assert find_button(app, "panic-0").disabled and find_button(app, "fate-0").disabled
    find_button(app, "undo").click()
    assert app.delve.panic_saves == {} and not hero.panicking and len(hero.log) == 0
    find_button(app, "fate-0").click()
    assert "Bryn" in app.delve.fates and 'data-seed="6"' in app.outcome.value
    assert find_button(app, "panic-0").disabled


def test_escape_procedure_buttons_follow_the_stage() -> None:
    fail = seed_rolling("1d20", {20})
    party = [new_character("Ash", 8, 14, 9, 3), new_character("Cor", 12, 10, 10, 3)]
    app = DungeonCrawlApp(party, seed_source=fixed_seeds(fail))
    app.situations["lost"].value = True
    app.discard.value = 1
    assert 'data-dv="3"' in app.dv_view.value
    assert find_button(app, "escape-0").description == "Escape by DEX 14"
    app.discard.text = "-4"
    assert "too low" in app.discard.refusal.message
    assert find_button(app, "escape-0").disabled
    app.discard.value = 1
    find_button(app, "escape-0").click()
    ash = app.delve.escapee("Ash")
    assert (ash.ability, ash.score, ash.dv, ash.stage) == ("DEX", 14, 3, "failed")
    assert find_button(app, "escape-0").disabled and has_button(app, "failed-escape-0")
    seven = seed_rolling("1d8", {7})
    app.seed_box.value = str(seven)
    find_button(app, "failed-escape-0").click()
    assert ash.stage == "choice" and has_button(app, "reroll-0")
    assert find_button(app, "betray-0").disabled  # nobody else is escaping yet
    find_button(app, "reroll-0").click()
    assert ash.stage == "failed"


def test_save_and_load_through_saveload() -> None:
    app = DungeonCrawlApp(seed_source=fixed_seeds(2))
    find_button(app, "declare").click()
    files = [w for w in walk(app) if isinstance(w, SaveLoad)]
    assert len(files) == 1
    saved = app.delve.to_json()
    files[0].load_box.value = "{broken"
    find_button(files[0], "load").click()
    assert "not valid JSON" in files[0].error.message and app.delve.step == "describe"
    find_button(app, "new-site").click()  # the first tap only asks
    assert app.delve.step == "describe"
    find_button(app, "new-site").click()
    assert app.delve.step == "declare" and app.delve.turn == 1
    files[0].load_box.value = saved
    find_button(files[0], "load").click()
    assert app.delve.step == "describe" and enabled(app) == {"describe"}


def test_no_python_reprs_in_the_app() -> None:
    app = DungeonCrawlApp(seed_source=fixed_seeds(9))
    app.new_name.value = "Dara"
    find_button(app, "add-pc").click()
    texts = [w.value for w in walk(app) if isinstance(w, widgets.HTML)]
    assert not any("Character(" in t or "Fraction(" in t or "None" in t for t in texts)


def test_adding_a_character_refuses_an_empty_or_taken_name() -> None:
    app = DungeonCrawlApp()
    assert app.new_name.refusal.message == ""  # nothing refused before anything is typed
    find_button(app, "add-pc").click()
    assert "name the character" in app.party_error.message and app.party == []
    app.new_name.value = "Ash"
    find_button(app, "add-pc").click()
    find_button(app, "add-pc").click()
    assert "already a Ash" in app.party_error.message and len(app.party) == 1
    app.new_stats["STR"].text = "19"
    assert "too high" in app.new_stats["STR"].refusal.message


def test_major_wounds_can_count_against_the_escape() -> None:
    hero = new_character("Bryn", 10, 12, 9, 3)
    hero.add_wound("Blight", major=True)
    hero.add_wound("Scratch")
    app = DungeonCrawlApp([hero], seed_source=fixed_seeds(5))
    assert find_button(app, "escape-0").description == "Escape by DEX 12"
    app.wounds_count.value = True
    assert find_button(app, "escape-0").description == "Escape by DEX 11"
    find_button(app, "escape-0").click()
    assert app.delve.escapes[0].score == 11
