"""Issue 32: the Fair dice page checks an exported log offline, in Chromium, with the
package's own verify running in Pyodide: a closed sitting's log holds; the same log with a
client seed changed after a roll is refused naming the entry. Issue 47: a seat's view with
an entry deleted or taken from another campaign is refused with the command line's line,
and a chain head typed in is checked as ``verify --head`` checks it (every forged view,
without a browser: tests/docs/test_site_verifier_views.py)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.store import open_store
from companion.store.campaign import create
from companion.table import Session
from tests.conftest import session_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PYODIDE_TIMEOUT_MS = 120_000  # first load compiles a 9.6 MB wasm on a shared 2-core box


def _exported_log(tmp_path: Path) -> dict[str, Any]:
    """What ``companion log T --json`` writes for a closed sitting (what every player may
    see), each entry's place in the chain included (issue 47)."""
    from tests.fairplay.test_seat_view_complete import _Capture

    path = str(tmp_path / "c.db")
    with open_store(path) as store:
        gm = session_of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20+3")
        ash.roll("3d6")
        ash.roll("1d8", mode="blind")
        gm.close_sitting()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPANION_DB", path)
        view: dict[str, Any] = _Capture().json("log", "T", "--json")
    return view


def _verifier(page: Any, site_url: str) -> tuple[Any, Callable[[str, Any], None]]:
    """The Fair dice page opened, its verifier ready: its result line, and ``drop(name,
    doc)`` to give it a file (``doc`` written as JSON; bytes as they are)."""
    from playwright.sync_api import expect

    page.goto(site_url + "fair-dice/")
    box = page.locator("#tc-verifier")
    expect(box).to_have_attribute("data-ready", "1", timeout=30_000)
    files = page.locator("#tc-verify-file")

    def drop(name: str, doc: Any) -> None:
        data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
        kind = "application/json" if name.endswith(".json") else "text/plain"
        files.set_input_files(files=[{"name": name, "mimeType": kind, "buffer": data}])

    return box.locator(".tc-verify-result"), drop


def _campaign_export(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """``companion campaign export T`` (the campaign in ``COMPANION_DB``), read back."""
    from companion.cli import main

    capsys.readouterr()
    assert main(["campaign", "export", "T"]) == 0
    doc: dict[str, Any] = json.loads(capsys.readouterr().out)
    return doc


def test_the_fair_dice_page_checks_a_dropped_log_offline(
        in_browser: Any, site_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    good = _exported_log(tmp_path)
    bad = copy.deepcopy(good)
    # The sitting's client seed (fixed at its opening, issue 49), rewritten.
    bad["events"][0]["roll"]["sitting"]["clients"]["Mira"] = "f" * 32

    def body(page: Any) -> None:
        result, drop = _verifier(page, site_url)
        drop("log.json", good)
        expect(result).to_have_attribute("data-state", "ok", timeout=PYODIDE_TIMEOUT_MS)
        expect(result).to_contain_text("log.json: 2 rolls checked, all hold")
        expect(result).to_contain_text("2 seeds recomputed from the sittings' published seeds")
        expect(result).to_contain_text("1 hidden roll of closed sittings not revealed")

        drop("changed.json", bad)
        expect(result).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(result).to_have_text(
            "changed.json: entry 1: the client seeds published before it are not the ones "
            "it was rolled with: a client seed was changed after the roll")

        drop("notes.txt", b"not a log")
        expect(result).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(result).to_contain_text("notes.txt is not an exported log")

    in_browser(body)


def test_the_fair_dice_page_makes_an_exports_rule_rolls_again(
        in_browser: Any, site_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A campaign export dropped on the page has its rule rolls made again whole, as
    ``companion verify`` does (the store's replay is in the site's core): a Dice Monarchs
    deal changed under its right seed is refused naming the entry."""
    from playwright.sync_api import expect

    from tests.fairplay.test_rule_rolls_remade import _table
    from tests.store.forge import rechain

    db = str(tmp_path / "export.db")
    monkeypatch.setenv("COMPANION_DB", db)
    _table(db)
    good = _campaign_export(capsys)
    bad = copy.deepcopy(good)
    deal = next(r for r in bad["events"] if r["move"] == "deal")
    hole = next(s for s in deal["data"]["change"] if s[0][:1] == ["hole"] and s[1])
    hole[1][0] = 1 if hole[1][0] != 1 else 2  # the right table seed, other dice
    bad = rechain(bad)

    def body(page: Any) -> None:
        result, drop = _verifier(page, site_url)
        drop("export.json", good)
        expect(result).to_have_attribute("data-state", "ok", timeout=PYODIDE_TIMEOUT_MS)
        expect(result).to_contain_text(
            "7 rule rolls and 1 move that rolled recomputed whole by replay")
        drop("dealt.json", bad)
        expect(result).to_have_attribute("data-state", "failed", timeout=60_000)
        expect(result).to_contain_text(
            f"entry {deal['seq']} (move deal): made again from its seed, it gives other "
            "facts than the log")

    in_browser(body)


def test_the_fair_dice_page_makes_a_declared_rule_roll_again(
        in_browser: Any, site_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A check that moved no tracker, rolled through a declared rule
    (companion.rule_rolls), is made again on the page as by ``companion verify``: its
    total changed in the export is refused naming the entry."""
    from playwright.sync_api import expect

    from tests.fairplay.test_declared_rule_rolls import _evening
    from tests.store.forge import rechain

    db = str(tmp_path / "declared.db")
    monkeypatch.setenv("COMPANION_DB", db)
    entries = _evening(db)
    good = _campaign_export(capsys)
    bad = copy.deepcopy(good)
    row = next(r for r in bad["events"] if r["seq"] == entries["check"])
    row["data"]["call"]["result"]["total"] += 1
    bad = rechain(bad)

    def body(page: Any) -> None:
        result, drop = _verifier(page, site_url)
        drop("export.json", good)
        expect(result).to_have_attribute("data-state", "ok", timeout=PYODIDE_TIMEOUT_MS)
        expect(result).to_contain_text("5 rolls recomputed whole from their seeds")
        drop("total.json", bad)
        expect(result).to_have_attribute("data-state", "failed", timeout=60_000)
        expect(result).to_contain_text(
            f"entry {entries['check']} (rule plot_points.checks.check): made again by rule "
            "plot_points.checks.check with seed")

    in_browser(body)


def test_the_fair_dice_page_refuses_a_forged_seat_view_as_the_command_line_does(
        in_browser: Any, site_url: str, tmp_path: Path) -> None:
    """One page: a seat's honest view holds (with the head noted at the table typed in
    too); an entry deleted, another campaign's hidden roll put in its place, the newest
    entry cut and the chain made to fit: each refused with the line ``companion verify``
    says."""
    from playwright.sync_api import expect

    from tests.docs.test_site_verifier_views import cli_line
    from tests.fairplay.test_seat_view_complete import TAMPERINGS, _Capture, _play

    path = str(tmp_path / "views.db")
    with open_store(path) as store:
        _play(store, "T")
        _play(store, "U")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COMPANION_DB", path)
        view = _Capture().json("log", "T", "--json", "--player", "Ash")
        other = _Capture().json("log", "U", "--json", "--player", "Ash")
    deleted, foreign, refit = (copy.deepcopy(view) for _ in range(3))
    TAMPERINGS["deleted"](deleted, 4, other)
    TAMPERINGS["foreign"](foreign, 5, other)  # the blind roll: a placeholder to Ash
    last = refit["events"].pop()
    refit["chain"] = refit["events"][-1]["hash"]
    noted = last["hash"][:16]
    cases = [("view.json", view, ""), ("deleted.json", deleted, ""),
             ("foreign.json", foreign, ""), ("view.json", view, noted),
             ("refit.json", refit, noted)]
    said = [cli_line(tmp_path, name, doc, *(["--head", head] if head else []))
            for name, doc, head in cases]
    assert [held for held, _ in said] == [True, False, False, True, False], said

    def body(page: Any) -> None:
        result, drop = _verifier(page, site_url)
        head = page.locator("#tc-verify-head")
        for (name, doc, typed), (held, line) in zip(cases, said, strict=True):
            head.fill(typed)
            drop(name, doc)
            expect(result).to_have_attribute("data-state", "ok" if held else "failed",
                                             timeout=PYODIDE_TIMEOUT_MS)
            expect(result).to_have_text(line)
        # The head changed after the file: the same file is checked again against it.
        head.fill(noted[:8])
        head.dispatch_event("change")
        expect(result).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(result).to_contain_text(f"refit.json: the head typed in {noted[:8]}: 8 hex "
                                       "digits are too few to trust")

    in_browser(body)
