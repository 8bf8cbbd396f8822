"""Every destructive button ignores a double tap (issue 31), in-process.

A destructive button is a ``confirm_button`` (it throws state away: a new character, a
new site, a party member leaving, a seat revoked, a hand undone at the table): its first
tap only arms it, and the confirming tap must be a separate one. Here every such button
of every app (each app's page as its notebook builds it, and the start page of a
campaign) gets a double tap (two clicks on a frozen ``tap_clock``): the page must not
change except for the armed button; a separate tap afterwards does the move once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from companion.widgets.layout import Fold
from companion.widgets.table.apps import APPS
from tests.conftest import TapClock, campaign_of
from tests.widgets.app_page import AppPage, Scope, walk


def confirm_buttons(root: Any) -> list[widgets.Button]:
    """The page's destructive buttons: drawn (every fold opened), enabled, made by
    ``confirm_button``."""
    for fold in [w for w in walk(root) if isinstance(w, Fold) and not w.opened]:
        fold.flip()
    page = Scope(root)
    return [w for w in walk(root) if isinstance(w, widgets.Button) and hasattr(w, "disarm")
            and not w.disabled and page.visible(w)]


def page_state(root: Any) -> list[str]:
    """What the page shows: its markup, and each button's label and colour."""
    return [f"{w.description}|{w.button_style}|{w.disabled}" if isinstance(w, widgets.Button)
            else str(w.value) for w in walk(root)
            if isinstance(w, widgets.Button | widgets.HTML)]


def double_tap_counts_once(root: Any, btn: widgets.Button, clock: TapClock) -> None:
    """Two taps in one instant: the second changes nothing at all. When the first armed
    the button (there is something to lose), a separate tap then makes the move."""
    label = btn.description
    clock.freeze()
    btn.click()
    after_one = page_state(root)
    btn.click()  # the second tap of a double tap: the same tap
    assert page_state(root) == after_one, f"{label!r}: a double tap counted twice"
    clock.frozen = False
    if btn.description != label:  # armed: asks for a separate tap
        assert btn.button_style == "danger"
        btn.click()  # a separate, deliberate tap: the move (or its refusal, said on the page)
        assert btn.description == label, f"{label!r}: the confirming tap was not taken"


@pytest.mark.parametrize("key", [a.key for a in APPS])
def test_every_app_s_destructive_buttons_take_a_double_tap_as_one(
        key: str, tap_clock: TapClock) -> None:
    page = AppPage(key)
    for btn in confirm_buttons(page.root):
        double_tap_counts_once(page.root, btn, tap_clock)


def test_the_apps_have_destructive_buttons_to_check() -> None:
    """The check above is not empty: the demos show the "new" buttons."""
    keys = {"cairn_character", "dungeon_crawl", "spell_points", "death_and_returning",
            "casters"}
    assert {key for key in keys if confirm_buttons(AppPage(key).root)} == keys


def test_a_sheet_s_new_character_on_a_double_tap_arms_and_replaces_nothing(
        tap_clock: TapClock) -> None:
    page = AppPage("cairn_character")
    page.tap("fold-new")
    new = page.button("new-character")
    page.fill("new-name", "Briar")
    before = page.text()
    tap_clock.freeze()
    new.click()
    new.click()
    assert page.text() == before and "Tap again" in new.description
    tap_clock.frozen = False
    new.click()
    assert page.text() != before and "Briar" in page.text()  # a separate tap: replaced


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    if not os.environ.get("CI"):
        pytest.importorskip("sqlalchemy")
    path = tmp_path / "taps.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    yield path


def test_the_start_page_s_leave_and_revoke_take_a_double_tap_as_one(
        db: Path, tap_clock: TapClock) -> None:
    from companion.rulesets.cairn_srd.character import Character
    from companion.store import create_campaign, open_store
    from companion.store.seats import list_seats, make_seat
    from companion.widgets.table import TableApp
    from companion.widgets.table.binding import PageContext

    with open_store(db) as store:
        gm = create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
        gm.add("Ash", Character("Ash"))
        gm.add("Bryn", Character("Bryn"))
        secret = make_seat(store, "Tuesday", "Mira", "gm")
        make_seat(store, "Tuesday", "Ash", "player")
    app = TableApp(PageContext(campaign="Tuesday", seat=secret), background=False)
    assert campaign_of(app.session) is not None
    leave = app.forms["cairn_srd"]["leave"]
    double_tap_counts_once(app, leave, tap_clock)
    assert [m.name for m in campaign_of(app.session).party] == ["Bryn"]  # one left, once
    app.seats.pick.value = "Ash"
    double_tap_counts_once(app, app.seats.revoke_button, tap_clock)
    with open_store(db) as store:
        assert [s.who for s in list_seats(store, "Tuesday")] == ["Mira"]


def test_a_button_answers_each_tap_once_its_handler_has_run() -> None:
    """The page's tap guard waits for this answer (issue 44): a button's answer class
    flips after its handler, a refusal's too, and not before."""
    from companion.errors import RuleError
    from companion.widgets.controls import ANSWER_CLASSES, button
    from companion.widgets.messages import ErrorLine

    seen: list[list[str]] = []
    fail = [False]

    def answers(btn: widgets.Button) -> list[str]:
        return [c for c in btn._dom_classes if c in ANSWER_CLASSES]

    def plus_one() -> None:
        seen.append(answers(plus))
        if fail[0]:
            raise RuleError("no more fatigue slots (Cairn: Fatigue)")

    error = ErrorLine()
    plus = button("+1", plus_one, error=error, name="plus")
    assert answers(plus) == [ANSWER_CLASSES[0]]
    plus.click()
    assert seen == [[ANSWER_CLASSES[0]]] and answers(plus) == [ANSWER_CLASSES[1]]
    fail[0] = True
    plus.click()  # refused: the line says why, and the tap is answered all the same
    assert "fatigue slots" in error.value and answers(plus) == [ANSWER_CLASSES[0]]
    assert seen[-1] == [ANSWER_CLASSES[1]]
