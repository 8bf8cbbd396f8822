"""The static site's "Campaigns in this browser" page (``site/apps/campaigns.html``).

A campaign started in the static apps lives in this browser. Here it leaves as the same
JSON document as ``companion campaign export NAME`` (a download link, and the text to
copy), and a document made by ``campaign export`` (or by this page) comes in as with
``companion campaign import FILE [--name NEW]``: checked first, nothing kept if it is bad.
``tools/build_static_apps.py`` makes the page's notebook from this file.
"""

from __future__ import annotations

import base64
import html
import json
from typing import Any

import ipywidgets as widgets

__all__ = ["CampaignsPage"]


class CampaignsPage(widgets.VBox):
    """Export a campaign kept in this browser, or import one."""

    def __init__(self) -> None:
        from companion.widgets.table.binding import page_store  # the plugged-in store

        refused = ""
        try:
            self.store: Any = page_store()
        except Exception as exc:  # another tab holds the campaigns: said in its words
            refused, self.store = _one_line(exc), None
        self.pick = widgets.Dropdown(description="Campaign", options=[])
        self.pick.add_class("tc-export-pick")
        self.export_button = widgets.Button(description="Export", button_style="primary")
        self.export_button.add_class("tc-btn-export")
        self.export_button.on_click(lambda _: self._safe(self.export))
        self.link = widgets.HTML()
        self.link.add_class("tc-export-link")
        self.text = widgets.Textarea(placeholder="Paste an exported campaign (JSON) here",
                                     layout=widgets.Layout(width="100%", height="8em"))
        self.text.add_class("tc-import-text")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description="Choose file")
        self.upload.add_class("tc-import-file")
        self.new_name = widgets.Text(description="Name", placeholder="(the file's name)")
        self.new_name.add_class("tc-import-name")
        self.import_button = widgets.Button(description="Import", button_style="primary")
        self.import_button.add_class("tc-btn-import")
        self.import_button.on_click(lambda _: self._safe(self.import_))
        self.message = widgets.HTML()
        self.message.add_class("tc-message")
        self.error = widgets.HTML()
        self.error.add_class("tc-error")
        where = html.escape(str(self.store.where)) if self.store is not None \
            else "this browser"
        super().__init__([
            widgets.HTML(f"<p>Campaigns are kept in {where}. Export one to keep a copy or "
                         "to play it on a server (<code>companion campaign import "
                         "FILE</code>); import a file made by <code>companion campaign "
                         "export NAME</code>.</p>"),
            widgets.HTML("<h3>Export</h3>"), widgets.HBox([self.pick, self.export_button]),
            self.link,
            widgets.HTML("<h3>Import</h3>"), self.upload, self.text,
            widgets.HBox([self.new_name, self.import_button]), self.message, self.error,
        ], layout=widgets.Layout(max_width="720px"))
        self.add_class("tc-app")
        self.add_class("tc-campaigns")
        if self.store is None:
            self.export_button.disabled = self.import_button.disabled = True
            self.error.value = f'<div role="alert">{html.escape(refused)}</div>'
            return
        self.refresh()

    def _safe(self, action: Any) -> None:
        self.error.value = ""
        try:
            action()
        except Exception as exc:  # shown on the page, one line
            self.error.value = f'<div role="alert">{html.escape(_one_line(exc))}</div>'

    def refresh(self) -> None:
        names = [c.name for c in self.store.list_campaigns()]
        keep = self.pick.value if self.pick.value in names else None
        self.pick.options = names
        # ipywidgets leaves nothing chosen when options arrive after an empty list.
        self.pick.value = keep or (names[0] if names else None)
        self.export_button.disabled = not names

    def export(self) -> None:
        from companion.table.opening import export_text

        name = str(self.pick.value or "")
        if not name:
            raise ValueError("no campaign to export yet")
        text = export_text(self.store, name)
        data = base64.b64encode(text.encode()).decode()
        file_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) + ".json"
        self.link.value = (
            f'<p><a class="tc-download" download="{html.escape(file_name)}" '
            f'href="data:application/json;base64,{data}">Download {html.escape(file_name)}'
            f'</a></p><textarea class="tc-export-text" readonly rows="6" '
            f'style="width:100%">{html.escape(text)}</textarea>')

    def import_(self) -> None:
        from companion.table.opening import (
            check_campaign_text,
            import_document,
            max_import_bytes,
        )

        limit = max_import_bytes()  # the CLI's own limit

        text, name = self.text.value, "the pasted text"
        if self.upload.value:
            item = self.upload.value[0]
            name = str(item.get("name") or "the file")[:80]
            size = int(item.get("size") or len(item["content"]))
            if size > limit:
                raise ValueError(f"{name} is {size:,} bytes: a campaign file is at most "
                                 f"{limit:,}")
            try:
                text = bytes(item["content"]).decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ValueError(f"{name} is not a campaign file (not UTF-8 text)") from None
        if not text.strip():
            raise ValueError("choose an exported campaign file or paste its text first")
        check_campaign_text(text, name)  # its size and depth, before anything decodes it
        try:
            doc = json.loads(text)
        except ValueError:
            raise ValueError("not a campaign file (not JSON)") from None
        kept, events = import_document(self.store, doc,
                                       " ".join(self.new_name.value.split()) or None)
        self.text.value = ""
        self.upload.value = ()
        self.new_name.value = ""
        self.refresh()
        self.pick.value = kept
        self.message.value = (f'<p class="tc-imported" data-campaign="'
                              f'{html.escape(kept)}">Imported '
                              f"{html.escape(kept)} ({events} events). "
                              f'<a href="table.html?campaign={_quote(kept)}">'
                              "Open it at the table</a></p>")


def _one_line(exc: BaseException) -> str:
    """A refusal as the page says it: its first line, never the exception's class."""
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else "that did not work: reload the page and try again"


def _quote(text: str) -> str:
    from urllib.parse import quote

    return html.escape(quote(text))
