"""The generator's source readers: interpretations, defined names, submodules."""

from __future__ import annotations

import textwrap
from pathlib import Path

from source_info import (
    as_list_item,
    defined_names,
    first_heading,
    interpretations,
    local_links,
    submodules,
    title_of,
    without_examples,
)

MODULE = '''\
"""Rules text.

Interpretation: the first reading,
spread over two lines.

- Interpretation: a listed reading.
- Not a reading.

Interpretation (the seed stops mid-way):

- "You have ..." — read as one.
- "Whenever ..." — read as
  two lines.

More rules text.
"""

from os import path as imported_name


class Board:
    """A board. Interpretation: inline reading. Interpretation: a second one."""

    def move(self) -> None:
        """Interpretation: a method's reading."""

    def jump(self) -> None:
        """Jump (Interpretation: as far as (at most) 3 squares) and land."""


def _private() -> None:
    """Interpretation: private readings count too."""


def helper() -> None:
    """No readings here."""
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.py"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_every_interpretation_with_its_object(tmp_path: Path) -> None:
    found = interpretations(write(tmp_path, MODULE), "pkg.rules")
    assert found == [
        ("pkg.rules", "The first reading, spread over two lines."),
        ("pkg.rules", "A listed reading."),
        (
            "pkg.rules",
            'The seed stops mid-way.\n- "You have ..." — read as one.\n'
            '- "Whenever ..." — read as two lines.',
        ),
        ("pkg.rules.Board", "Inline reading."),
        ("pkg.rules.Board", "A second one."),
        ("pkg.rules.Board.move", "A method's reading."),
        ("pkg.rules.Board.jump", "As far as (at most) 3 squares."),
        ("pkg.rules._private", "Private readings count too."),
    ]


def test_rules_text_leaves_out_examples() -> None:
    doc = "Rule one.\n\n>>> roll(1)\n3\n>>> f(\n...   2)\n4\n\nRule two.\n    >>> x\n    1"
    assert without_examples(doc) == "Rule one.\n\nRule two."


def test_local_links_point_at_pages_others_stay_cross_references() -> None:
    pages = {"c.r.dash": "rules/r/dash.md", "c.r": "rules/r/index.md"}
    text = "See [dash][c.r.dash], [`c.r`][] and [Turn][c.r.actions.Turn]."
    assert local_links(text, "rules/r/sub/page.md", pages) == (
        "See [dash](../dash.md), [`c.r`](../index.md) and [Turn][c.r.actions.Turn]."
    )


def test_a_reading_with_items_is_one_list_item() -> None:
    assert as_list_item("[x](x.md): ", "Intro.\n- one\n- two") == (
        "- [x](x.md): Intro.\n    - one\n    - two"
    )
    assert as_list_item("", "Plain.") == "- Plain."


def test_defined_names_leave_out_imports_and_private(tmp_path: Path) -> None:
    assert defined_names(write(tmp_path, MODULE)) == ["Board", "helper"]


def test_submodules_recurse_into_packages_only(tmp_path: Path) -> None:
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "__init__.py").write_text("")
    (tmp_path / "game" / "hands.py").write_text("")
    (tmp_path / "tables").mkdir()  # data folder, not a package
    (tmp_path / "tables" / "x.toml").write_text("")
    (tmp_path / "_private.py").write_text("")
    (tmp_path / "cli.py").write_text("")
    assert submodules(tmp_path, "r") == ["r.cli", "r.game", "r.game.hands"]


def test_headings_and_titles() -> None:
    assert first_heading("intro\n\n# Hands and odds\n\n## Later") == "Hands and odds"
    assert first_heading("no heading") is None
    assert title_of("dice_monarchs") == "Dice monarchs"
