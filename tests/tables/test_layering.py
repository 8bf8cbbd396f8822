"""The dependency arrows: the registry hands the table engine its folders, not the reverse."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion import rulesets, tables
from companion.tables import Table

ROOT = Path(__file__).resolve().parent.parent.parent
#: Modules of the tables/registry/command-line area.
AREA = [*sorted((ROOT / "companion" / "tables").glob("*.py")),
        ROOT / "companion" / "rulesets" / "__init__.py", ROOT / "companion" / "cli" / "__init__.py",
        ROOT / "companion" / "errors.py", ROOT / "companion" / "__main__.py"]


def imported(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every import in the file, functions included."""
    found: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "companion" / "tables").glob("*.py")),
                         ids=lambda p: p.name)
def test_tables_never_import_the_registry(path: Path) -> None:
    for module, names in imported(path):
        assert not module.startswith("companion.rulesets"), (path.name, module)
        assert not (module == "companion" and "rulesets" in names), path.name


@pytest.mark.parametrize("path", AREA, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_is_imported_across_modules(path: Path) -> None:
    for module, names in imported(path):
        if module.startswith("companion"):
            private = [n for n in names if n.startswith("_")]
            assert not private, (path.name, module, private)
            assert not any(part.startswith("_") for part in module.split(".")), module


def test_a_rulesets_tables_are_tables() -> None:
    found = [t for r in rulesets.all_rulesets() for t in r.tables()]
    assert found and all(isinstance(t, Table) for t in found)
    assert sorted(t.id for t in found) == sorted(t.id for t in tables.all_tables())
    # Each ruleset's tables are the TOML files in its own folder (read here, not by the
    # registry): none missing, none borrowed from another ruleset.
    import tomllib

    for r in rulesets.all_rulesets():
        on_disk = sorted(tomllib.loads(p.read_text(encoding="utf-8"))["id"]
                         for p in r.tables_dir.glob("*.toml"))
        assert sorted(t.id for t in r.tables()) == on_disk, r.name


def test_the_registry_hands_over_its_folders(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "coin.toml").write_text(
        'id = "coin"\ntitle = "Coin"\nsection = "S"\ndie = "1d2"\n'
        '[[rows]]\nrange = "1"\nResult = "heads"\n[[rows]]\nrange = "2"\nResult = "tails"\n',
        encoding="utf-8")
    try:
        tables.use_folders(lambda: {"mine": folder})
        assert [(t.id, t.ruleset) for t in tables.all_tables()] == [("coin", "mine")]
        assert {tables.get("coin").roll(seed=s).text for s in range(20)} == {"heads", "tails"}
    finally:
        tables.use_folders(rulesets.table_folders)
    assert {t.ruleset for t in tables.all_tables()} == {
        r.name for r in rulesets.all_rulesets() if r.tables_dir.is_dir()}


def test_short_reprs() -> None:
    table = tables.get("earthmote_size")
    assert repr(table) == "<Table earthmote_size: 1d6, 6 rows>"
    result = table.roll(seed=3)
    assert repr(result) == f"<TableResult earthmote_size: {result.row.range}>"
