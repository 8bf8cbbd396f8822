"""The start app in plain words (issue 22): where campaigns are kept is the GM's business,
and rulesets are listed as a person says them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import create_campaign, open_store
from companion.store.seats import make_seat
from companion.widgets.table import PageContext, TableApp


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "seats.db"
    monkeypatch.setenv("COMPANION_DB", str(path))
    monkeypatch.delenv("JUPYTERHUB_USER", raising=False)
    monkeypatch.delenv("COMPANION_URL", raising=False)
    yield path


def test_the_database_path_shows_to_the_gm_only(db: Path) -> None:
    with open_store(db) as store:
        create_campaign(store, "Tuesday", ["cairn_srd"])
        seats = {who: make_seat(store, "Tuesday", who, role)
                 for who, role in (("Mira", "gm"), ("Ash", "player"))}
    for who, shown in (("Mira", True), ("Ash", False)):
        app = TableApp(PageContext.from_query(f"campaign=Tuesday&seat={seats[who]}"),
                       background=False)
        assert app.context.who == who and db.name in app.db.value
        assert (app.db.layout.display != "none") is shown, who
    nobody = TableApp(PageContext(), background=False)  # no campaign open yet: shown
    assert nobody.db.layout.display != "none"


def test_rulesets_are_listed_as_a_person_says_them(db: Path) -> None:
    labels = [label for label, _name in TableApp(PageContext(), background=False).ruleset.options]
    assert "Cairn-derived SRD" in labels and "Monsters & Magic" in labels
    assert not any("_" in label or "(" in label for label in labels), labels
