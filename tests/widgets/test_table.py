"""The start app and the campaign binding, headless (no browser): real store, real apps."""

from __future__ import annotations

import html
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

if not os.environ.get("CI"):  # in CI (make installs the store extra) it fails, never skips
    pytest.importorskip("sqlalchemy")

from companion.rulesets.cairn_srd.character import Character, new_character
from companion.store import create_campaign, open_campaign, open_store
from companion.widgets.cairn_srd import CairnCharacterApp
from companion.widgets.table import TableApp, campaign_app, campaign_page
from companion.widgets.table.apps import PartyFightPanel, spec
from companion.widgets.table.binding import (
    LiveSync,
    PageContext,
    url_script,
)
from tests.conftest import campaign_of


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "table.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    yield path


def fresh_table(db: Path, ruleset: str, name: str = "Tuesday") -> TableApp:
    app = TableApp(PageContext(who="Mira", role="gm"))
    assert app.ready.wait(30)  # the campaigns load after the page shows
    assert db.name in app.db.value  # the database path is shown
    app.new_name.value = name
    app.ruleset.value = ruleset
    app.create_button.click()
    assert app.error.message == ""
    assert campaign_of(app.session) is not None and campaign_of(app.session).name == name
    return app


def add_member(app: TableApp, ruleset: str, name: str, **numbers: int) -> None:
    form = app.forms[ruleset]
    form["name"].value = name
    for key, value in numbers.items():
        form["boxes"][key].value = value
    form["add"].click()
    assert app.error.message == ""


# --- the URL ----------------------------------------------------------------------------


def test_page_context_reads_the_query_string(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING",
                       "campaign=Tue%20sday&seat=Ab-c_9&who=%20Mira%20%20K&role=GM&x=1")
    ctx = PageContext.from_query()
    # who= and role= grant nothing (issue 19): identity comes from the seat alone.
    assert ctx == PageContext(campaign="Tue sday", seat="Ab-c_9")
    assert (ctx.who, ctx.role) == ("", "")
    assert PageContext.from_query(ctx.query()) == ctx
    assert ctx.app_url("cairn_combat") == "cairn_combat.ipynb?campaign=Tue+sday&seat=Ab-c_9"
    assert "Ab-c_9" not in repr(ctx)  # a secret stays out of reprs and messages
    # A seat that cannot be a secret is dropped, not raised.
    assert PageContext.from_query("seat=a%00b").seat == ""
    assert PageContext.from_query("seat=" + "a" * 201).seat == ""


def test_url_script_cannot_be_broken_out_of_by_a_name() -> None:
    page = url_script(PageContext(campaign='"><script>x</script>\'', seat="s"))
    assert "<script>" not in page and 'onerror="' in page
    assert "campaign=%22%3E%3Cscript%3Ex%3C%2Fscript%3E%27&amp;seat=s" in page


def test_an_app_without_a_campaign_is_a_labelled_demo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "")
    page = campaign_page("plot_points")
    texts = " ".join(getattr(w, "value", "") for w in page.children if hasattr(w, "value"))
    assert "Demo: nothing here is kept" in texts


def test_an_unknown_campaign_is_one_line(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUERY_STRING", "campaign=Nowhere")
    page = campaign_page("cairn_character")
    errors = [w for w in page.children if w.__class__.__name__ == "ErrorLine"]
    assert "no campaign named 'Nowhere'" in errors[0].message


# --- two screens on one file ------------------------------------------------------------


def test_a_move_in_one_app_shows_in_the_other_after_refresh(db: Path) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm").add(
            "Ash", new_character("Ash", 12, 10, 9, 5, armor=1))
        laptop = open_campaign(store, "Tuesday", who="Mira", role="gm")
        phone = open_campaign(open_store(db), "Tuesday", who="Ash's player", role="player")
        sheet_a = CairnCharacterApp(laptop.tracker("Ash", Character))
        sheet_b = CairnCharacterApp(phone.tracker("Ash", Character))
        assert 'data-guard="5"' in sheet_b.stats.value
        sheet_a.damage_box.value = 3
        sheet_a.buttons["take-damage"].click()
        assert 'data-guard="3"' in sheet_a.stats.value  # armor 1 takes one
        assert 'data-guard="5"' in sheet_b.stats.value  # not yet applied on the phone
        assert phone.refresh()
        assert 'data-guard="3"' in sheet_b.stats.value  # the observer re-rendered it
        assert [e.who for e in phone.log()][-1] == "Mira"


def test_the_live_thread_applies_another_screen_s_move_within_a_second(db: Path) -> None:
    app = fresh_table(db, "cairn_srd")
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=5, armor=0)
    assert campaign_of(app.session) is not None
    sheet = campaign_app(app.session, "cairn_character")
    shown = sheet.body.children[0]
    other = open_campaign(open_store(db), "Tuesday", who="Ash", role="player")
    other.tracker("Ash", Character).add_fatigue()
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and "Fatigue 1" not in shown.stats.value:
        time.sleep(0.02)
    assert "Fatigue 1" in shown.stats.value
    assert LiveSync.get().thread.is_alive()


# --- the start app ----------------------------------------------------------------------


def test_start_app_party_is_shared_by_sheet_combat_and_spellcasting(db: Path) -> None:
    app = fresh_table(db, "cairn_srd")
    add_member(app, "cairn_srd", "Ash", str=12, dex=11, ctrl=14, guard=5, armor=0)
    add_member(app, "cairn_srd", "Briar", str=9, dex=13, ctrl=8, guard=4, armor=1)
    assert app.party.value.count('class="tc-member"') == 2
    assert app.warm.wait(30)  # the apps are built while the page is read
    assert "STR 12/12 · DEX 11/11 · CTRL 14/14 · Guard 5/5 · Armor 0" in app.party.value
    sheet = app.open_app("cairn_character")
    assert app.open_ms > 0  # measured; how fast is `make bench`'s (table_bench), not a test's
    assert app.context.app == "cairn_character"
    link = app.app_area.children[1].value
    assert "cairn_character.ipynb?campaign=Tuesday&amp;seat=" in link
    fight = app.open_app("cairn_combat")
    spells = app.open_app("spellcasting")
    assert isinstance(fight, PartyFightPanel)
    ash = campaign_of(app.session).tracker("Ash", Character)  # type: ignore[union-attr]
    assert sheet.body.children[0].character is ash
    assert spells.body.children[0].character is ash
    # The party joins the fight with the sheet's numbers; a hit in the fight is on the sheet.
    fight.join.click()
    assert fight.error.message == ""
    ash_fighting = fight.encounter.find("Ash")
    assert (ash_fighting.guard, ash_fighting.strength, ash_fighting.pc) == (5, 12, True)
    fight.encounter.apply_damage("Ash", 3, seed=1)
    assert (ash.guard, ash.strength) == (2, 12)
    assert 'data-guard="2"' in sheet.body.children[0].stats.value
    assert "Guard 2/5" in app.party.value
    fight.encounter.undo()  # the fight's undo gives it back on the sheet too
    assert ash.guard == 5
    # Stored: a new screen opening the campaign sees the same sheet.
    again = open_campaign(open_store(db), "Tuesday")
    assert again.tracker("Ash", Character).guard == 5
    assert [m.name for m in again.party] == ["Ash", "Briar"]
    assert again.tracker("Fight").to_dict()["state"] == fight.encounter.to_dict()["state"]


def test_start_app_edits_numbers_and_keeps_damage_taken(db: Path) -> None:
    app = fresh_table(db, "cairn_srd")
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=5, armor=0)
    assert campaign_of(app.session) is not None
    ash = campaign_of(app.session).tracker("Ash", Character)
    ash.damage_ability("STR", 2)
    form = app.forms["cairn_srd"]
    assert form["edit_boxes"]["str"].value == 12
    form["edit_boxes"]["str"].value = 14
    form["edit_boxes"]["armor"].value = 2
    form["save"].click()
    assert (ash.strength_max, ash.strength, ash.armor) == (14, 12, 2)
    form["edit_boxes"]["str"].value = 40  # refused under its box; nothing stored
    head = campaign_of(app.session).head
    form["save"].click()
    assert app.error.message == "STR: 40 is too high: enter a whole number from 0 to 18"
    assert campaign_of(app.session).head == head and ash.strength_max == 14


def test_reopening_an_app_is_the_same_widget(db: Path) -> None:
    app = fresh_table(db, "variant5e")
    add_member(app, "variant5e", "Vex", level=5)
    first = app.open_app("spell_points")
    assert app.open_app("spell_points") is first
    assert "spell points 27/27" in app.party.value
    first.body.children[0].model.cast(2)
    assert "spell points" in app.party.value and "27/27" not in app.party.value


def test_monsters_and_magic_reads_the_party_and_stores_new_characters(db: Path) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    app = fresh_table(db, "monsters_and_magic")
    add_member(app, "monsters_and_magic", "Ash", focus=1, power=2, cunning=0, luck=2, hp=14,
               ac=3)
    table = app.open_app("monsters_and_magic")
    assert list(table.picker.options) == ["Ash"]
    assert table.party.get("Ash") is campaign_of(app.session).tracker("Ash")  # type: ignore[union-attr]
    table.new_name.value = "Briar"
    table.add_button.click()
    assert table.error.message == ""
    again = open_campaign(open_store(db), "Tuesday")
    briar = again.tracker("Briar", Adventurer)
    assert briar.max_hp == 12
    # Added on another screen: seated here once the change arrives.
    again.add("Cole", Adventurer.new("Cole", luck=1))
    campaign_of(app.session).refresh()  # type: ignore[union-attr]
    assert list(table.picker.options) == ["Ash", "Briar", "Cole"]


@pytest.mark.parametrize(("ruleset", "member", "key", "shown"), [
    ("plot_points", {}, "plot_points", "Ash"),
    ("miasma", {"level": 2, "stress": 3}, "miasma_tracker", "psychosis level 2 · stress 3"),
])
def test_session_rulesets_add_members_to_their_table(db: Path, ruleset: str,
                                                     member: dict[str, int], key: str,
                                                     shown: str) -> None:
    app = fresh_table(db, ruleset)
    add_member(app, ruleset, "Ash", **member)
    assert shown in app.party.value
    opened = app.open_app(key)
    model = getattr(opened, "session", None) or opened.model
    assert "Ash" in [c.name for c in model.characters]


def test_every_app_of_every_ruleset_opens_in_place(db: Path) -> None:
    from companion.widgets.table.apps import apps_for
    from companion.widgets.table.pages import is_built

    for i, ruleset in enumerate(("cairn_srd", "monsters_and_magic", "plot_points",
                                 "variant5e", "miasma")):
        app = fresh_table(db, ruleset, name=f"Table {i}")
        assert app.warm.wait(30)  # the apps are built while the page is read
        assert campaign_of(app.session) is not None
        for each in apps_for((ruleset,)):
            # Built ahead, opening one is a swap, not a build (how fast the swap is, is
            # measured by `make bench`: a wall-clock bound here fails on a busy machine).
            assert is_built(app.session, each.key), each.key
            app.open_app(each.key)
            assert app.error.message == "", each.key
            assert html.escape(spec(each.key).title) in app.app_area.children[0].value


def test_the_cairn_party_apps_share_the_campaign_s_sheets(db: Path) -> None:
    from companion.rulesets.cairn_srd.downtime import Downtime
    from companion.rulesets.cairn_srd.exploration import Delve
    from companion.rulesets.cairn_srd.mass_combat import Vessel
    from companion.rulesets.cairn_srd.wilderness import Journey
    from companion.widgets.table.apps import apps_for

    app = fresh_table(db, "cairn_srd")
    keys = [a.key for a in apps_for(("cairn_srd",))]
    for key in ("wilderness", "downtime", "dungeon_crawl", "cairn_mass_combat", "cairn_tasks"):
        assert key in keys  # the start app lists them (and the test above opens each)
        notebook = json.loads((Path("widgets") / f"{key}.ipynb").read_text())
        assert f'campaign_page("{key}")' in "".join(notebook["cells"][-1]["source"])
        assert notebook["metadata"]["title"] == spec(key).title
    assert app.warm.wait(30)  # built before anyone joined the party
    for key in ("wilderness", "downtime", "dungeon_crawl", "cairn_mass_combat", "cairn_tasks"):
        opened = app.open_app(key)
        assert app.error.message == "", key
        assert app.app_area.children[-1] is opened
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=5, armor=0)
    # Added on another screen: the party apps follow the campaign.
    other = open_campaign(open_store(db), "Tuesday")
    other.add("Briar", new_character("Briar", 9, 13, 8, 4))
    campaign_of(app.session).refresh()  # type: ignore[union-attr]
    ash = campaign_of(app.session).tracker("Ash", Character)  # type: ignore[union-attr]
    travel = app.open_app("wilderness").app
    crawl = app.open_app("dungeon_crawl").app
    rest = app.open_app("downtime").app
    for each in (travel, crawl, rest):  # the party's own sheets, not copies
        assert [c.name for c in each.party] == ["Ash", "Briar"] and each.party[0] is ash
    assert [t.name for t in travel.journey.party] == ["Ash", "Briar"]
    assert [m.name for m in rest.downtime.members] == ["Ash", "Briar"]
    # The journey, delve, downtime and ship are the campaign's: stored, seen by a new screen.
    again = open_campaign(open_store(db), "Tuesday")
    assert [t.name for t in again.tracker("Journey", Journey).party] == ["Ash", "Briar"]
    assert [m.name for m in again.tracker("Downtime", Downtime).members] == ["Ash", "Briar"]
    assert again.tracker("Delve", Delve).to_dict() == crawl.delve.to_dict()
    ship = app.open_app("cairn_mass_combat").vessel
    assert again.tracker("Vessel", Vessel).to_dict() == ship.to_dict()


def test_a_reload_comes_back_to_the_same_table_and_app(db: Path) -> None:
    app = fresh_table(db, "cairn_srd")
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=5, armor=0)
    app.open_app("spellcasting")
    assert "app=spellcasting" in app.url.value and "campaign=Tuesday" in app.url.value
    again = TableApp(PageContext.from_query(app.context.query(app=True)), background=False)
    assert again.error.message == "" and again.opened == "spellcasting"
    assert again.app_area.children[-1] is app.app_area.children[-1]  # same kernel: same app


def test_an_app_page_without_a_seat_is_a_spectator_s(db: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(db) as store:
        create_campaign(store, "Friday", ["variant5e"])
    monkeypatch.setenv("QUERY_STRING", "campaign=Friday&who=Quinn&role=gm")
    page = campaign_page("combat_options")
    texts = " ".join(str(getattr(w, "value", "")) for w in page.children)
    assert "You are watching" in texts and "(watching)" in texts
    from companion.store.opening import shared_campaign

    table = shared_campaign("Friday")
    assert (table.who, table.role) == ("", "spectator")


@pytest.mark.parametrize(("ruleset", "member"), [
    ("cairn_srd", {}), ("variant5e", {"level": 3}), ("plot_points", {}),
    ("miasma", {"level": 1, "stress": 0}),
])
def test_a_member_leaves_the_party_on_a_second_tap(db: Path, ruleset: str,
                                                   member: dict[str, int]) -> None:
    app = fresh_table(db, ruleset)
    add_member(app, ruleset, "Ash", **member)
    add_member(app, ruleset, "Briar", **member)
    form = app.forms[ruleset]
    assert [name for name, _ in form["leave_pick"].options] == ["Ash", "Briar"]
    form["leave_pick"].value = form["leave_pick"].options[0][1]
    form["leave"].click()  # the first tap only asks
    assert "Ash" in app.party.value
    form["leave"].click()
    assert app.error.message == ""
    assert "Ash" not in app.party.value and "Briar" in app.party.value
    assert [name for name, _ in form["leave_pick"].options] == ["Briar"]
    again = open_campaign(open_store(db), "Tuesday")
    names = {m.name for m in again.party}
    names |= {c.name for m in again for c in getattr(m.tracker, "characters", [])}
    assert "Ash" not in names and "Briar" in names


def test_live_on_postgresql_through_listen_notify(request: pytest.FixtureRequest,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same live thread on a club's PostgreSQL: another server's move arrives by
    NOTIFY (no polling of the tables) within a second."""
    from tests.store.conftest import PostgresServer

    server = PostgresServer()
    request.addfinalizer(server.stop)
    request.addfinalizer(lambda: LiveSync.get().watch(None))  # before the server goes
    url = server.new_database()
    monkeypatch.setenv("COMPANION_DB", url)
    app = TableApp(PageContext(who="Mira", role="gm"), background=False)
    assert app.error.message == ""
    assert "postgresql://" in app.db.value
    app.new_name.value = "Club night"
    app.ruleset.value = "cairn_srd"
    app.create_button.click()
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=5, armor=0)
    sheet = app.open_app("cairn_character").body.children[0]
    other = open_campaign(open_store(url), "Club night", who="Ash", role="player")
    time.sleep(0.3)  # the watcher is listening
    other.tracker("Ash", Character).add_fatigue()
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline and "Fatigue 1" not in sheet.stats.value:
        time.sleep(0.02)
    assert "Fatigue 1" in sheet.stats.value


def test_the_fight_s_sheet_moves_use_the_campaign_s_sheets(db: Path) -> None:
    from companion.rulesets.cairn_srd.combat import Attack, Encounter

    app = fresh_table(db, "cairn_srd")
    add_member(app, "cairn_srd", "Ash", str=12, dex=10, ctrl=9, guard=3, armor=0)
    assert campaign_of(app.session) is not None
    fight = app.open_app("cairn_combat")
    fight.join.click()
    ash = campaign_of(app.session).tracker("Ash", Character)
    assert fight.encounter.sheet("Ash") is ash  # the fight is linked to Ash's own sheet
    # A sheet's Guard raised (a scar, a level) is the fight's at once: one state.
    ash.set_maxima(12, 10, 9, 5, 0)
    assert fight.encounter.fighter("Ash").guard_max == 5 and "<td>5/5</td>" in \
        fight.app.board.value
    fight.encounter.add("Ghoul", "Enemies", guard=1, strength=8)
    fight.encounter.roll_initiative(seed=1)  # round 1: the enemy acts
    fight.encounter.attack(Attack("Ghoul", "Ash"), seed=3)
    hit = fight.encounter.fighter("Ash")
    assert (hit.guard, hit.strength) == (ash.guard, ash.strength) and ash.guard < 5
    assert ash.log[-1].move == "take_damage"
    assert f"<td>{ash.guard}/5</td>" in fight.app.board.value
    # Opened again (another screen, a reload): the fight and the sheet still agree.
    again = open_campaign(open_store(db), campaign_of(app.session).name)
    sheet = again.tracker("Ash", Character)
    encounter = next(m.tracker for m in again if isinstance(m.tracker, Encounter))
    assert (sheet.guard, sheet.strength, sheet.guard_max) == (ash.guard, ash.strength, 5)
    assert encounter.fighter("Ash").guard == sheet.guard


def test_the_page_says_when_it_has_shown_its_widgets() -> None:
    """The start app's background work (every app built ahead) waits until the page has
    shown its widgets: the page types into a hidden box, which sets PAGE_SHOWN."""
    from companion.widgets.table import binding

    binding.PAGE_SHOWN.clear()
    signal = binding.page_shown_signal()
    box, script = signal.children
    assert "tc-page-shown" in box._dom_classes and "onerror=" in script.value
    box.value = ""
    assert not binding.PAGE_SHOWN.is_set()
    box.value = "shown"  # what the page's script sends
    assert binding.PAGE_SHOWN.is_set()
