"""The site's offline verifier refuses the same forged seat views as ``companion verify``
(issue 47), with the same line.

The Python the "Fair dice" page runs (``verifier.mjs``'s ``PY_SETUP``) is run here in a
plain CPython (``-I -S``: the standard library only) over the core zip the site ships,
unpacked in a folder of its own, so what it imports is exactly what the zip holds. Each
role's view (the GM's seat, a player's seat, the spectator's), honest and with one entry
deleted, duplicated, swapped or taken from another campaign (a public entry and a hidden
one), plus a view cut short, a changed entry, a view without places, a campaign export
with an entry deleted and the noted head: the page's line is the command line's (its
``error: `` left out, the file's name in front once). The real page, in Chromium, is
driven for a few of them in ``tests/docs/test_site_verifier.py``.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fairplay.test_seat_view_complete import (
    ROLES,
    TAMPERINGS,
    _hidden_entry,
    seat_views,
)
from tests.test_same_row import current_core_zip

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parent.parent.parent
VERIFIER = ROOT / "docs" / "javascripts" / "verifier.mjs"


def site_setup() -> tuple[str, str]:
    """``verifier.mjs``'s Python setup as the page runs it, and its core folder."""
    source = VERIFIER.read_text(encoding="utf-8")
    core_dir = re.search(r'const coreDir = "([^"]+)";', source)
    setup = re.search(r"const PY_SETUP = `(.*?)`;", source, re.DOTALL)
    assert core_dir and setup, "verifier.mjs no longer has coreDir/PY_SETUP where expected"
    return setup.group(1), core_dir.group(1)


class SiteVerifier:
    """The page's ``_companion_verify`` over the core zip, in a CPython of its own."""

    def __init__(self, folder: Path) -> None:
        self.core = folder / "companion-core"
        with zipfile.ZipFile(io.BytesIO(current_core_zip())) as archive:
            archive.extractall(self.core)
        setup, _ = site_setup()
        code = setup.replace("${JSON.stringify(coreDir)}", json.dumps(str(self.core)))
        assert "${" not in code, "verifier.mjs interpolates something this test does not know"
        self.code = code
        self.folder = folder

    def answers(self, files: list[tuple[str, Any, str]]) -> list[dict[str, Any]]:
        """The page's answer (``ok``, ``line``) for each (name, document, noted head)."""
        program = self.code + (
            "\nimport json as _j, sys as _s\n"
            "_s.stdout.write(_j.dumps([_j.loads(_companion_verify(t, n, h)) "
            "for n, t, h in _j.load(_s.stdin)]))\n")
        given = json.dumps([[n, json.dumps(d), h] for n, d, h in files])
        done = subprocess.run([sys.executable, "-I", "-S", "-c", program], input=given,
                              capture_output=True, text=True, cwd=self.folder, timeout=240)
        assert done.returncode == 0, done.stderr[-3000:]
        out: list[dict[str, Any]] = json.loads(done.stdout)
        return out


def cli_line(folder: Path, name: str, doc: Any, *options: str) -> tuple[bool, str]:
    """``companion verify NAME`` in ``folder`` (the file named as the page names it):
    whether it held, and its one line as the page would say it."""
    from companion.cli import main

    (folder / name).write_text(json.dumps(doc))
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["verify", name, *options])
    if status == 0:
        assert err.getvalue() == ""
        return True, out.getvalue().rstrip("\n")
    line = err.getvalue()
    assert status == 2 and out.getvalue() == "" and line.count("\n") == 1, (out, line)
    said = line.removeprefix("error: ").rstrip("\n")
    return False, said if said.startswith(name) else f"{name}: {said}"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Each role's view of campaign T, the same seat's view of campaign U (the source of
    a foreign entry), and T's export, as the command line writes them."""
    yield seat_views(str(tmp_path_factory.mktemp("played") / "campaigns.db"),
                     with_export=True)


def forged_files(played: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """Every file both verifiers are given: (name, document, noted head or "")."""
    files: list[tuple[str, Any, str]] = []
    for role in ROLES:
        view = played[role]
        files.append((f"{role}.json", view, ""))
        files.append((f"{role}-head.json", view, view["chain"][:16]))
        for tampering, tamper in TAMPERINGS.items():
            for k in (4, _hidden_entry(view)):  # a public entry, then the blind roll
                forged = copy.deepcopy(view)
                tamper(forged, k, played[f"foreign {role}"])
                files.append((f"{role}-{tampering}-{k}.json", forged, ""))
        cut = copy.deepcopy(view)
        last = cut["events"].pop()
        files.append((f"{role}-cut.json", copy.deepcopy(cut), ""))
        cut["chain"] = cut["events"][-1]["hash"]  # made to fit: the noted head refuses it
        files.append((f"{role}-refit.json", cut, last["hash"][:16]))
        changed = copy.deepcopy(view)
        changed["events"][-1]["who"] = "Ash"
        files.append((f"{role}-changed.json", changed, ""))
        bare = copy.deepcopy(view)
        for row in bare["events"]:
            del row["prev"], row["hash"]
        files.append((f"{role}-bare.json", bare, ""))
    files.append(("export.json", played["export"], ""))
    export = copy.deepcopy(played["export"])
    del export["events"][3]
    files.append(("export-deleted.json", export, ""))
    return files


def test_the_site_refuses_every_forged_view_the_command_line_refuses(
        played: dict[str, Any], tmp_path: Path) -> None:
    files = forged_files(played)
    site = SiteVerifier(tmp_path)
    answers = site.answers(files)
    refused = 0
    for (name, doc, head), answer in zip(files, answers, strict=True):
        held, line = cli_line(tmp_path, name, doc, *(["--head", head] if head else []))
        assert (answer["ok"], answer["line"]) == (held, line), name
        refused += not held
        honest = name in {f"{r}.json" for r in ROLES} | {f"{r}-head.json" for r in ROLES}
        assert held == (honest or name == "export.json"), (name, line)
    assert refused == len(files) - 2 * len(ROLES) - 1
    said = {a["line"] for a in answers}
    # The lines name the entry, as the command line's do (a sample, read by eye once).
    assert "player-deleted-4.json: entry 4 is missing (the view goes from entry 3 to " \
        "entry 5): deleted or moved" in said
    assert any(s.startswith("spectator-foreign-5.json: entry 5 does not follow entry 4 "
                            "in the chain") for s in said), said
    assert any(s.startswith("gm-refit.json: the view's chain does not pass through the "
                            "head noted at the table") for s in said), said
    assert ("export-deleted.json: event 4 is missing (the file goes from event 3 to event "
            "5): deleted or renumbered") in said, said


def test_a_noted_head_too_short_or_not_hex_is_refused_on_the_page(
        played: dict[str, Any], tmp_path: Path) -> None:
    view = played["spectator"]
    site = SiteVerifier(tmp_path)
    short, bad = site.answers([("log.json", view, view["chain"][:8]),
                               ("log.json", view, "not a head")])
    assert short == {"ok": False, "line": (
        f"log.json: the head typed in {view['chain'][:8]}: 8 hex digits are too few "
        "to trust (a rewritten log could be ground to match them); give at least 16, as "
        "'campaign show' prints it")}
    assert bad == {"ok": False, "line": (
        "log.json: the head typed in is not a chain head: give the one noted at the "
        "table, 16 to 64 hex digits, as 'campaign show' prints it")}
