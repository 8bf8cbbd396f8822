"""Sheets as cards (issue 22): the Cairn sheet shows its vital numbers on top and folds the
rest, the rarely used parts folded to start with."""

from __future__ import annotations

from companion.widgets.base import Fold
from companion.widgets.cairn_srd.character import CairnCharacterApp


def test_the_cairn_sheet_is_a_card_of_folds() -> None:
    app = CairnCharacterApp()
    parts = list(app.children[1:])  # after the style tag
    assert parts[1] is app.stats  # the vital numbers first (after the sheet's own CSS)
    folds = {p.key: p for p in parts if isinstance(p, Fold)}
    assert list(folds) == ["damage", "burden", "conditions", "boasts", "new", "file"]
    assert [k for k, f in folds.items() if not f.opened] == ["boasts", "new", "file"]
    boasts = folds["boasts"]
    assert boasts.body.layout.display == "none" and boasts.toggle.description.startswith("▸")
    boasts.toggle.click()
    assert boasts.opened and boasts.body.layout.display is None
    assert boasts.toggle.description == "▾ Boasts and inspiration"
