"""Issue 32: the Fair dice page checks an exported log offline, in Chromium, with the
package's own verify running in Pyodide: a closed sitting's log holds; the same log with a
client seed changed after a roll is refused naming the entry."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.store import open_store
from companion.store.campaign import create
from companion.store.cli import log_rows
from companion.store.fairplay_cli import log_view
from companion.table import Session

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PYODIDE_TIMEOUT_MS = 120_000  # first load compiles a 9.6 MB wasm on a shared 2-core box


def _exported_log(tmp_path: Path) -> dict[str, Any]:
    """What ``companion log T --json`` writes for a closed sitting (a player's view)."""
    import argparse

    with open_store(tmp_path / "c.db") as store:
        gm = Session.of(create(store, "T", ["cairn_srd"], who="Mira", role="gm"))
        ash = Session.open(store, "T", who="Ash", role="player")
        gm.roll("1d20+3")
        ash.roll("3d6")
        ash.roll("1d8", mode="blind")
        gm.close_sitting()
        events = gm.campaign.log()
    view = log_view(events, argparse.Namespace(gm=False, player=None))
    rows = log_rows(view)
    for row, event in zip(rows, view, strict=True):
        if event.kind in ("roll", "reveal"):
            row["roll"] = event.data
        elif "sitting" in event.data:
            row["sitting"] = event.data["sitting"]
    return {"campaign": "T", "chain": "", "events": rows}


def test_the_fair_dice_page_checks_a_dropped_log_offline(
        in_browser: Any, site_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    good = _exported_log(tmp_path)
    bad = copy.deepcopy(good)
    bad["events"][1]["roll"]["sitting"]["clients"]["Ash"] = "f" * 32  # Ash's, rewritten

    def body(page: Any) -> None:
        page.goto(site_url + "fair-dice/")
        box = page.locator("#tc-verifier")
        expect(box).to_have_attribute("data-ready", "1", timeout=30_000)
        result = box.locator(".tc-verify-result")
        files = page.locator("#tc-verify-file")
        files.set_input_files(files=[{"name": "log.json", "mimeType": "application/json",
                                      "buffer": json.dumps(good).encode()}])
        expect(result).to_have_attribute("data-state", "ok", timeout=PYODIDE_TIMEOUT_MS)
        expect(result).to_contain_text("log.json: 2 rolls checked, all hold")
        expect(result).to_contain_text("2 seeds recomputed from the sittings' published seeds")
        expect(result).to_contain_text("1 hidden roll of closed sittings not revealed")

        files.set_input_files(files=[{"name": "changed.json", "mimeType": "application/json",
                                      "buffer": json.dumps(bad).encode()}])
        expect(result).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(result).to_have_text(
            "changed.json: entry 2: the client seeds published before it are not the ones "
            "it was rolled with: a client seed was changed after the roll")

        files.set_input_files(files=[{"name": "notes.txt", "mimeType": "text/plain",
                                      "buffer": b"not a log"}])
        expect(result).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(result).to_contain_text("notes.txt is not an exported log")

    in_browser(body)
