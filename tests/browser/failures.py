"""The record a failed browser test leaves: what every open page showed at that moment.

A flaky failure seen once in CI is found from the page at the moment it failed (its
address, its text, the widget errors it hid, its console), not from the assertion alone.
``tests/browser/conftest.py`` records the pages of its ``page`` fixtures after a failure;
tests that run their own Playwright in a thread (the serverless apps, whose browsers are
closed before pytest reports) use :func:`recording_playwright`, which records before
Playwright closes them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FAILURES = ARTIFACTS / "failures"


def listen(context: Any) -> Any:
    """Keep ``context``'s complaints (console errors and warnings, failed responses, page
    errors) in ``context.console_lines`` for the record of a failure: the screen alone
    rarely says why a widget is missing."""
    context.console_lines = []

    def heard(message: Any) -> None:
        # Not JupyterLab's shared-module version notices: every page prints twenty.
        if message.type in ("error", "warning") and "satisfi" not in message.text:
            context.console_lines.append(f"[console {message.type}] {message.text[:500]}")

    def answered(response: Any) -> None:
        if response.status >= 400:
            context.console_lines.append(f"[{response.status}] {response.url[:300]}")

    context.on("console", heard)
    context.on("response", answered)
    context.on("weberror", lambda error: context.console_lines.append(
        f"[page error] {str(error.error)[:500]}"))
    return context


def describe(contexts: Iterable[Any], test_name: str) -> str:
    """Each open page of ``contexts``: its address, the end of its text, its hidden widget
    errors and its context's complaints, with a screenshot in ``test-artifacts/failures/``."""
    FAILURES.mkdir(parents=True, exist_ok=True)
    slug = "".join(c if c.isalnum() else "-" for c in test_name)[-120:]
    lines = []
    for c, context in enumerate(contexts):
        try:
            pages = list(context.pages)
        except Exception:  # a closed context (a browser restarted by the test) has none
            pages = []
        for p, open_page in enumerate(pages):
            shot = FAILURES / f"{slug}-{c}-{p}.png"
            try:
                open_page.screenshot(path=str(shot), timeout=10_000)
                text = open_page.evaluate("() => document.body.innerText")[-3000:]
                # A widget the page could not show says why only when clicked: its hidden
                # message and stack, so a failure names the cause without a rerun.
                errors = open_page.evaluate(
                    "() => [...document.querySelectorAll('.jupyter-widgets-error-widget')]"
                    ".map(e => e.textContent.slice(0, 1500))")
                text += "".join(f"\n[widget error] {e}" for e in errors)
                text += "".join(f"\n{line}" for line in
                                getattr(context, "console_lines", [])[-30:])
                lines.append(f"--- page {c}.{p}: {open_page.url}\n{text}\n({shot})")
            except Exception as exc:  # the record of a failure must not hide the failure
                lines.append(f"--- page {c}.{p}: {open_page.url}: not recorded ({exc})")
    return "\n".join(lines)


@contextmanager
def recording_playwright(test_name: str | None = None) -> Iterator[Any]:
    """``sync_playwright()`` whose open pages are recorded if the block fails.

    A context to record is added to the yielded instance's ``recorded_contexts`` (the
    serverless tests' ``Phone`` and ``Profile`` add theirs, through :func:`listen`). The
    record goes on the exception as a note, which pytest prints with the failure. The test's
    name defaults to the one pytest is running."""
    from playwright.sync_api import sync_playwright

    name = test_name or os.environ.get("PYTEST_CURRENT_TEST", "browser").split(" ")[0]

    with sync_playwright() as playwright:
        playwright.recorded_contexts = []
        playwright.recorded_as = name
        try:
            yield playwright
        except BaseException as failure:
            note_open_pages(playwright, failure)
            raise


def note_open_pages(playwright: Any, failure: BaseException) -> None:
    """Put the record of ``playwright``'s open pages on ``failure`` (once). A test that
    closes its browser in a ``finally`` calls this first, in an ``except``: by the time
    the failure leaves :func:`recording_playwright`, the pages are gone."""
    contexts = getattr(playwright, "recorded_contexts", [])
    if not contexts:
        return
    record = describe(contexts, getattr(playwright, "recorded_as", "browser"))
    playwright.recorded_contexts = []  # noted: the enclosing block adds nothing more
    failure.add_note(f"open pages at the failure:\n{record}")


def record(playwright: Any, context: Any) -> Any:
    """Listen to ``context`` and record it with the other pages of ``playwright`` (a
    :func:`recording_playwright` instance) if the test fails; returns ``context``."""
    listen(context)
    if hasattr(playwright, "recorded_contexts"):
        playwright.recorded_contexts.append(context)
    return context
