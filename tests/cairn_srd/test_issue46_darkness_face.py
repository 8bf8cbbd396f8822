"""Issue 46: ``Delve.darkness_panic_save`` (a panic save in the dark for someone with no
sheet at the table) has a face in the dungeon-crawl app; refusals included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import new_character
from companion.rulesets.cairn_srd.exploration import Delve
from companion.table.acts import Act
from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp
from tests.widgets.app_page import AppPage, walk


def test_a_hireling_saves_in_the_dark_once() -> None:
    d = Delve()
    assert d.out_of_light
    result = d.darkness_panic_save("Hob", 9, rng=random.Random(3))
    assert d.panic_saves == {"Hob": result.success}
    with pytest.raises(RuleError, match=r"^The Darkness Consumes You: Hob has already saved"):
        d.darkness_panic_save("Hob", 9, seed=1)
    with pytest.raises(RuleError, match=r"^The Darkness Consumes You: Hob has already saved"):
        d.darkness_fate("Hob", seed=1)


def test_no_save_while_the_party_has_light() -> None:
    d = Delve()
    d.add_light("torch", lit=True)
    with pytest.raises(RuleError, match=r"^The Darkness Consumes You: the party still has "
                                        r"light"):
        d.darkness_panic_save("Hob", 9, seed=1)
    assert not d.panic_saves


def test_a_character_with_a_sheet_at_the_table_saves_on_it() -> None:
    d, ash = Delve(), new_character("Ash", 10, 10, 10, 3)
    d.link({"ash": ash})
    with pytest.raises(RuleError, match=r"^The Darkness Consumes You: Ash has a sheet at "
                                        r"the table"):
        d.darkness_panic_save("Ash", 10, seed=1)
    assert not d.panic_saves and not d.log


def test_the_dungeon_crawl_app_rolls_a_hirelings_panic_save() -> None:
    page = AppPage("dungeon_crawl")
    app = next(w for w in walk(page.root) if isinstance(w, DungeonCrawlApp))
    assert not page.button("panic-no-sheet").disabled  # a new site: no light yet
    page.fill("dark-name", "Hob")
    page.fill("dark-control", "9")
    page.tap("panic-no-sheet")
    assert set(app.delve.panic_saves) == {"Hob"}
    assert "Hob saves against panic in the dark" in page.text()
    page.fill("dark-name", "Hob")
    page.tap("panic-no-sheet")  # a second save: refused under the party's buttons
    assert any("Hob has already saved against panic" in a for a in page.alerts())
    page.one("tc-select-light-kind").value = "Torch"
    page.tap("add-light")
    assert page.button("panic-no-sheet").disabled  # light at hand: no darkness


def test_the_apps_panic_save_goes_to_the_session_as_the_named_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The "no sheet" button sends ``darkness_panic_save`` by name with its arguments (a
    named act the session rolls and logs), not a closure into the app; a refusal is the
    move's own, and stores nothing."""
    from companion.table.session import Session

    sent: list[Act] = []
    perform = Session.perform

    def spy(self: Session, act: Act, **kw: Any) -> Any:
        sent.append(act)
        return perform(self, act, **kw)

    monkeypatch.setattr(Session, "perform", spy)
    page = AppPage("dungeon_crawl")
    app = next(w for w in walk(page.root) if isinstance(w, DungeonCrawlApp))
    page.fill("dark-name", "Hob")
    page.fill("dark-control", "9")
    page.tap("panic-no-sheet")
    assert [(a.move, dict(a.args)) for a in sent] == [
        ("darkness_panic_save", {"name": "Hob", "control": 9})]
    assert app.delve.log[-1].move == "darkness_panic_save"
    # The outcome line is the move's own (the delve's log line), shown as logged.
    assert app.delve.log[-1].summary in page.text()
    page.fill("dark-name", "Hob")
    page.tap("panic-no-sheet")
    assert [a.move for a in sent] == ["darkness_panic_save"] * 2
    assert list(app.delve.panic_saves) == ["Hob"]  # refused: nothing more stored
