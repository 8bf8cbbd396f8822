"""Every face rolls the same row for the same seed, on every table of every ruleset.

The faces: ``python -m companion table ID --roll --seed S --json`` (in-process for 200
seeds, and a few real subprocesses), ``tables.get(ID).roll(seed=S)``, the site's
table-roll cell running in Pyodide (the very setup code of ``roller.mjs``, in one page,
for every table and 200 seeds), and the apps that roll a table with a seed.

The same for dice: one expression of each kind the apps roll (a d20 check with advantage,
ability scores, a d% roll, an exploding pool, a d6 step die), from ``companion roll EXPR
--seed S --json``, ``dice.roll(EXPR, seed=S)`` and Pyodide.

Which app rolls which table with a seed (the Cairn apps have tests of their own in
``tests/cairn_srd``): the Earthmotes app rolls ``earthmote_size`` (its earthmote's seed
starts the roll, so the row is the CLI's row for that seed) and ``earthmote_biome`` (the
second roll from that generator, so it is replayed by ``companion earthmote`` with the
list's seed, not by ``table earthmote_biome``). No app rolls ``mm_ability_check_results``
(the Monsters & Magic check reads its row for a rolled d20), nor the three
``fragile_soul_*`` tables (the 5e apps show their odds; ``companion 5e fragile-soul
--roll`` rolls them on the command line).
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import io
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from companion import cli, tables
from tests.served import FolderServer

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "site"
SEEDS = range(200)
TABLES = tables.all_tables()
#: One expression of each kind the apps roll.
EXPRESSIONS = ["2d20kh1+3", "4d6kh3", "1d100", "5d10!>=8", "1d8+2", "3d12"]


def face_of_result(result: tables.TableResult) -> tuple[Any, str, str]:
    roll = list(result.roll) if isinstance(result.roll, tuple) else result.roll
    return roll, result.row.range, result.text


PARSER = cli.build_parser()


def cli_face(table_id: str, seed: int, *, whole: bool = False) -> tuple[Any, str, str]:
    """The row the command line prints. ``whole``: through ``cli.main`` (which builds the
    parser anew, 20 ms); else the same parser, built once, and the subcommand it picks."""
    argv = ["table", table_id, "--roll", "--seed", str(seed), "--json"]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        if whole:
            status = cli.main(argv)
        else:
            args = PARSER.parse_args(argv)
            status = args.func(args)
    assert (status, err.getvalue()) == (0, ""), err.getvalue()
    data = json.loads(out.getvalue())
    return data["roll"], data["row"], data["result"]


@pytest.mark.parametrize("table", TABLES, ids=lambda t: t.id)
def test_cli_and_library_give_the_same_row(table: tables.Table) -> None:
    rows = set()
    for seed in SEEDS:
        library = face_of_result(tables.get(table.id).roll(seed=seed))
        assert cli_face(table.id, seed, whole=seed % 20 == 0) == library, (table.id, seed)
        rows.add(library[1])
    # The seed matters: 200 seeds reach more than one row (every table has several).
    assert len(rows) > 1, (table.id, rows)


@pytest.mark.parametrize("table", TABLES[:: max(1, len(TABLES) // 4)], ids=lambda t: t.id)
def test_a_real_command_line_gives_the_same_row(table: tables.Table) -> None:
    for seed in (0, 7, 123456789):
        done = subprocess.run(
            [sys.executable, "-m", "companion", "table", table.id, "--roll", "--seed",
             str(seed), "--json"], capture_output=True, text=True, timeout=60, cwd=ROOT,
            check=True)
        data = json.loads(done.stdout)
        assert (data["roll"], data["row"], data["result"]) == face_of_result(
            table.roll(seed=seed))


def dice_face(expr: str, seed: int) -> tuple[int, list[int], str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        args = PARSER.parse_args(["roll", expr, "--seed", str(seed), "--json"])
        assert args.func(args) == 0
    data = json.loads(out.getvalue())
    return data["total"], [d["value"] for d in data["dice"]], data["text"]


@pytest.mark.parametrize("expr", EXPRESSIONS)
def test_cli_and_library_roll_the_same_dice(expr: str) -> None:
    from companion import dice

    totals = set()
    for seed in SEEDS:
        rolled = dice.roll(expr, seed=seed)
        assert dice_face(expr, seed) == (rolled.total, [d.value for d in rolled.dice],
                                         rolled.to_dict()["text"]), (expr, seed)
        totals.add(rolled.total)
    assert len(totals) > 1


# -- the Earthmotes app ------------------------------------------------------------------


def test_the_earthmotes_app_rolls_the_clis_rows() -> None:
    import os

    if not os.environ.get("CI"):  # in CI (make installs the widgets extra) it fails instead
        pytest.importorskip("ipywidgets")
    from companion.widgets.miasma import EarthmotesApp

    size = tables.get("earthmote_size")
    seen_sizes = set()
    for list_seed in range(20):
        app = EarthmotesApp(seed=list_seed)
        for _ in range(10):
            app.generate_button.click()
        assert app.error.value == ""
        items = re.findall(r'<li class="tc-card" data-i="(\d+)">(.*?)</li>', app.listing.value)
        assert len(items) == 10 == len(app.model.earthmotes)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.main(["earthmote", "--count", "10", "--seed", str(list_seed),
                             "--json"]) == 0
        from_cli = json.loads(out.getvalue())
        for (_, shown), mote, replay in zip(items, app.model.earthmotes, from_cli,
                                            strict=True):
            shown = html.unescape(shown)
            seed = int(re.search(r"seed (\d+)", shown).group(1))  # type: ignore[union-attr]
            assert seed == mote.seed == replay["seed"]
            # The size row: the CLI's `table earthmote_size --seed S` for the shown seed.
            row = size.roll(seed=seed).row
            assert cli_face("earthmote_size", seed)[1] == row.range
            assert shown.split("</b> ", 1)[1].startswith(row.values["Size"].split(" (")[0])
            assert f"d6 {row.range};" in shown
            seen_sizes.add(row.range)
            # The biome: the app's earthmote is `companion earthmote --seed LIST`'s.
            assert (replay["size_roll"], replay["biome_roll"], replay["biome"]) == (
                mote.size_roll, list(mote.biome_roll), mote.biome)
            assert mote.biome in shown
    assert len(seen_sizes) > 1


# -- the site's table-roll cell in Pyodide ------------------------------------------------


@pytest.fixture(scope="module")
def served_site() -> Iterator[str]:
    needed = [SITE / "javascripts" / "roller.mjs", SITE / "assets" / "pyodide" / "pyodide.mjs"]
    missing = [str(p.relative_to(ROOT)) for p in needed if not p.exists()]
    if missing:
        pytest.fail(f"the built site lacks {missing}: run `make docs`")
    with FolderServer(SITE) as served:
        yield served.url


def current_core_zip() -> bytes:
    """The core as ``make docs`` packs it, from the working tree (the built site's copy
    may be older than the code under test)."""
    spec = importlib.util.spec_from_file_location("build_core_zip",
                                                  ROOT / "tools" / "build_core_zip.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    data: bytes = module.build_zip()
    return data


def roller_setup() -> tuple[str, str]:
    """``roller.mjs``'s Python setup, as the table-roll cell runs it, and its core folder."""
    source = (SITE / "javascripts" / "roller.mjs").read_text(encoding="utf-8")
    core_dir = re.search(r'const coreDir = "([^"]+)";', source)
    setup = re.search(r"const PY_SETUP = `(.*?)`;", source, re.DOTALL)
    assert core_dir and setup, "roller.mjs no longer has coreDir/PY_SETUP where expected"
    code = setup.group(1).replace("${JSON.stringify(coreDir)}", json.dumps(core_dir.group(1)))
    assert "${" not in code, "roller.mjs interpolates something this test does not know"
    assert "tables.get(table_id).roll(seed=seed)" in code, "the cell's table path changed"
    return code, core_dir.group(1)


PYODIDE_ROLLS = """
import json
_rows = []
for _id in json.loads(TABLE_IDS):
    for _seed in range(SEED_COUNT):
        _r = tables.get(_id).roll(seed=_seed)
        _rows.append([_id, _seed, list(_r.roll) if isinstance(_r.roll, tuple) else _r.roll,
                      _r.row.range, _r.text])
_dice = [[_e, _seed, (_d := dice.roll(_e, seed=_seed)).total, [x.value for x in _d.dice],
          str(_d)] for _e in json.loads(EXPRESSIONS) for _seed in range(SEED_COUNT)]
# The cells' own functions, which draw their seed and report it.
_cells = [json.loads(_companion_roll_table(_id)) for _id in json.loads(TABLE_IDS)]
_dice_cells = [json.loads(_companion_roll(_e)) for _e in json.loads(EXPRESSIONS)]
json.dumps({"rows": _rows, "cells": _cells, "dice": _dice, "dice_cells": _dice_cells})
"""


@pytest.mark.browser
@pytest.mark.timeout(600)
def test_pyodide_rolls_the_same_rows_and_dice(
    served_site: str, chromium_launch: dict[str, Any]
) -> None:
    setup, core_dir = roller_setup()
    core = current_core_zip()
    ids = [t.id for t in TABLES]
    served: list[str] = []

    def fresh_core(route: Any) -> None:
        served.append(route.request.url)
        route.fulfill(status=200, body=core, content_type="application/zip")

    def in_page() -> Any:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(**chromium_launch)
            try:
                context = browser.new_context()
                context.route("**/assets/wheels/companion-core.zip", fresh_core)
                page = context.new_page()
                page.goto(served_site)
                return page.evaluate(
                    """async ({setup, coreDir, ids, seeds, exprs, code}) => {
                        const root = new URL("./", location.href);
                        const dir = new URL("assets/pyodide/", root).href;
                        const { loadPyodide } = await import(new URL("pyodide.mjs", dir).href);
                        const pyodide = await loadPyodide({ indexURL: dir });
                        const zip = await fetch(new URL("assets/wheels/companion-core.zip", root));
                        pyodide.unpackArchive(await zip.arrayBuffer(), "zip",
                                              { extractDir: coreDir });
                        pyodide.runPython(setup);
                        pyodide.globals.set("TABLE_IDS", JSON.stringify(ids));
                        pyodide.globals.set("SEED_COUNT", seeds);
                        pyodide.globals.set("EXPRESSIONS", JSON.stringify(exprs));
                        return JSON.parse(pyodide.runPython(code));
                    }""",
                    {"setup": setup, "coreDir": core_dir, "ids": ids, "seeds": len(SEEDS),
                     "exprs": EXPRESSIONS, "code": PYODIDE_ROLLS},
                )
            finally:
                browser.close()

    # Playwright's sync API wants a thread of its own (the app suites keep one open).
    with ThreadPoolExecutor(max_workers=1) as pool:
        found = pool.submit(in_page).result(timeout=540)
    # Every fetch of the core is routed to the code under test (the page also preloads it
    # while idle, so it may be asked for twice), never the site's older copy.
    assert len(served) >= 1
    expected = [[t.id, seed, *face_of_result(t.roll(seed=seed))] for t in TABLES for seed in SEEDS]
    assert len(found["rows"]) == len(expected)
    differ = [(got, want) for got, want in zip(found["rows"], expected, strict=True)
              if got != want]
    assert not differ, f"{len(differ)} rows differ, e.g. {differ[:3]}"
    for table, cell in zip(TABLES, found["cells"], strict=True):
        assert "error" not in cell, cell
        assert cell["text"] == str(table.roll(seed=cell["seed"])), (table.id, cell)
    from companion import dice

    expected_dice = [[e, seed, (d := dice.roll(e, seed=seed)).total, [x.value for x in d.dice],
                      str(d)] for e in EXPRESSIONS for seed in SEEDS]
    assert found["dice"] == expected_dice
    for expr, cell in zip(EXPRESSIONS, found["dice_cells"], strict=True):
        assert "error" not in cell, cell
        assert cell["text"] == str(dice.roll(expr, seed=cell["seed"])), (expr, cell)
