"""The static site's "Campaigns in this browser" page (``tools/static_apps/campaigns_page.py``)
outside the browser, over a real store: export, import under a new name, and refusals
that leave the store as it was."""

from __future__ import annotations

import datetime
import html
import importlib.util
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from companion.store.campaign import create
    from companion.store.db import Store, database_url

    db = tmp_path / "campaigns.db"
    monkeypatch.setenv("COMPANION_DB", str(db))
    create(Store(database_url(str(db))), "Tuesday", ["cairn_srd"], who="Mira", role="gm")
    spec = importlib.util.spec_from_file_location(
        "tc_static_campaigns", ROOT / "tools" / "static_apps" / "campaigns_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.CampaignsPage()


def upload(page: Any, content: bytes, size: int | None = None) -> None:
    page.upload.value = ({"name": "tuesday.json", "type": "application/json",
                          "size": len(content) if size is None else size,
                          "content": memoryview(content),
                          "last_modified": datetime.datetime(2026, 11, 26, tzinfo=datetime.UTC)},)


def names(page: Any) -> list[str]:
    return [c.name for c in page.store.list_campaigns()]


def test_export_then_import_under_a_new_name(page: Any) -> None:
    assert page.pick.value == "Tuesday"  # the only campaign, chosen
    page._safe(page.export)
    assert page.error.value == ""
    text = page.link.value.split('readonly rows="6" style="width:100%">')[1]
    doc = json.loads(html.unescape(text.split("</textarea>")[0]))
    assert doc["name"] == "Tuesday"
    upload(page, json.dumps(doc).encode())
    page.new_name.value = "Tuesday again"
    page._safe(page.import_)
    assert page.error.value == ""
    assert names(page) == ["Tuesday", "Tuesday again"]
    assert 'data-campaign="Tuesday again"' in page.message.value


@pytest.mark.parametrize(("content", "size", "says"), [
    (b"{}", 100_000_001, "is 100,000,001 bytes: a campaign file is at most 100,000,000"),
    (b"\xff\xfe\x00junk", None, "tuesday.json is not a campaign file (not UTF-8 text)"),
    (b"{not json", None, "not a campaign file (not JSON)"),
])
def test_a_bad_file_is_one_line_and_nothing_is_imported(
        page: Any, content: bytes, size: int | None, says: str) -> None:
    upload(page, content, size)
    page._safe(page.import_)
    assert says in page.error.value and 'role="alert"' in page.error.value
    assert "\n" not in page.error.value
    assert names(page) == ["Tuesday"]


def _exported(page: Any) -> str:
    page._safe(page.export)
    text = page.link.value.split('readonly rows="6" style="width:100%">')[1]
    return html.unescape(text.split("</textarea>")[0])


@pytest.mark.parametrize(("content", "says"), [
    # 10,000 nested lists took the browser's Python down with no word (issue 45).
    (b"[" * 10_000 + b"]" * 10_000, "tuesday.json nests more than 64 levels deep: not a "
                                    "campaign file"),
    (b'{"format": ' + b"[" * 10_000, "tuesday.json nests more than 64 levels deep"),
    (b"[" + b"[]," * 1_000_000 + b"[]]", "tuesday.json holds 1,000,002 objects and lists, "
                                         "more than 1,000,000: too large to be a campaign "
                                         "file"),
])
def test_a_hostile_file_is_refused_by_its_shape_before_it_is_decoded(
        page: Any, content: bytes, says: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.store.records as records

    monkeypatch.setattr(records, "MAX_CONTAINERS", 1_000_000)
    # Refused before the page decodes anything (its json is the module's).
    monkeypatch.setitem(page.import_.__func__.__globals__, "json", SimpleNamespace(loads=_never))
    upload(page, content)
    page._safe(page.import_)
    assert says in page.error.value and "\n" not in page.error.value, page.error.value
    assert names(page) == ["Tuesday"]


def _never(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("decoded")


def test_pasted_text_is_bounded_as_a_file_is(page: Any,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.store.document as document

    page.text.value = "[" * 10_000 + "]" * 10_000
    page._safe(page.import_)
    assert "the pasted text nests more than 64 levels deep" in page.error.value
    good = _exported(page)
    monkeypatch.setattr(document, "MAX_IMPORT_BYTES", len(good.encode()) - 1)
    page.text.value = good
    page._safe(page.import_)
    assert (f"the pasted text is {len(good.encode()):,} bytes: a campaign file is at most "
            f"{len(good.encode()) - 1:,}") in page.error.value
    assert names(page) == ["Tuesday"]


def test_a_truncated_or_padded_export_is_one_line(page: Any) -> None:
    good = _exported(page)
    upload(page, good[:len(good) // 2].encode())
    page._safe(page.import_)
    assert "not a campaign file (not JSON)" in page.error.value
    assert "\n" not in page.error.value and names(page) == ["Tuesday"]
    # Padding is whitespace JSON allows: the same campaign, imported.
    upload(page, b" " * 100_000 + good.encode() + b"\n" * 100_000)
    page.new_name.value = "Padded"
    page._safe(page.import_)
    assert page.error.value == "" and sorted(names(page)) == ["Padded", "Tuesday"]


def test_an_import_under_a_taken_name_says_so_in_the_page_s_words(page: Any) -> None:
    page._safe(page.export)
    text = page.link.value.split('readonly rows="6" style="width:100%">')[1]
    upload(page, html.unescape(text.split("</textarea>")[0]).encode())
    page._safe(page.import_)
    assert "already exists: import it under another name" in page.error.value
    assert "--name" not in page.error.value and "Error" not in page.error.value
    assert names(page) == ["Tuesday"]


def test_a_second_tab_is_refused_in_one_line_without_a_class_name() -> None:
    """Another tab holds the campaigns: the kernel plugs the browser's refusal into the
    store port (kernel.py); the page says why, in its words, and offers nothing to tap."""
    from companion.store import port
    from companion.store.browser import OTHER_TAB

    spec = importlib.util.spec_from_file_location(
        "tc_static_campaigns", ROOT / "tools" / "static_apps" / "campaigns_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    port.use(None, refusal=OTHER_TAB)
    try:
        shown = module.CampaignsPage()
    finally:
        port.use(None)
    assert "open in another tab" in shown.error.value
    assert "StoreError" not in shown.error.value and "companion." not in shown.error.value
    assert shown.export_button.disabled and shown.import_button.disabled
