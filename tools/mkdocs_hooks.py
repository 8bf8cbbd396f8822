"""MkDocs hooks of the reference site (listed under ``hooks:`` in mkdocs.yml).

MkDocs puts this file's folder on ``sys.path`` only while loading it, so the fence and
extension modules are imported here, at load time, and registered in ``on_config``;
mkdocs.yml then needs no ``!!python/name`` tag that would depend on the working directory.
"""

from __future__ import annotations

import html
import re
from typing import Any

import roller_fence
from doctest_blocks import DoctestBlocksExtension
from mkdocs.plugins import event_priority
from mkdocs.structure.files import Files, InclusionLevel


# Early, so mkdocstrings (which renders docstrings with the same extensions) sees both.
@event_priority(100)
def on_config(config: Any, **kwargs: Any) -> Any:
    if not any(isinstance(e, DoctestBlocksExtension) for e in config["markdown_extensions"]):
        config["markdown_extensions"].append(DoctestBlocksExtension())
    superfences = config["mdx_configs"].setdefault("pymdownx.superfences", {})
    fences = superfences.setdefault("custom_fences", [])
    known = {f.get("name") for f in fences}
    fences.extend(f for f in roller_fence.FENCES if f["name"] not in known)
    return config


# Late, after mkdocs-gen-files wrote it: the generated nav file is read by
# mkdocs-literate-nav but is no page of its own.
@event_priority(-100)
def on_files(files: Files, **kwargs: Any) -> Files:
    summary = files.get_file_from_path("SUMMARY.md")
    if summary is not None:
        summary.inclusion = InclusionLevel.EXCLUDED
    return files


_TABLE = re.compile(r"<table>(.*?)</table>", re.S)
_HEAD_CELL = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_CELL = re.compile(r"<td(?=[\s>])")
_TAG = re.compile(r"<[^>]+>")
#: A table of this many columns or more is read row by row on a phone (stacked rows).
STACK_FROM_COLUMNS = 4


def labelled_tables(content: str) -> str:
    """Each Markdown table with its column headings on its cells (``data-label``), and
    ``data-tc-stack`` on the wide ones: at phone width ``access.css`` shows each of their
    rows as a card of "heading: value" lines, so no table needs a sideways swipe (issue 45:
    135 of 144 tables were wider than 390 px)."""

    def label(match: re.Match[str]) -> str:
        body = match.group(1)
        head, sep, rows = body.partition("</thead>")
        if not sep:
            return match.group(0)
        names = [html.escape(" ".join(html.unescape(_TAG.sub("", h)).split()), quote=True)
                 for h in _HEAD_CELL.findall(head)]

        def row(r: re.Match[str]) -> str:
            cells = iter(names)
            return "<tr>" + _CELL.sub(lambda c: f'<td data-label="{next(cells, "")}"',
                                      r.group(1)) + "</tr>"

        stack = ' data-tc-stack=""' if len(names) >= STACK_FROM_COLUMNS else ""
        return f"<table{stack}>{head}</thead>{_ROW.sub(row, rows)}</table>"

    return _TABLE.sub(label, content)


def on_page_content(html_text: str, page: Any, **kwargs: Any) -> str:
    # Every page a reader reads; the API reference's tables (parameters) are mkdocstrings'.
    if not page.file.src_uri.startswith("api/"):
        return labelled_tables(html_text)
    return html_text


#: Material's search dialog as its template writes it: a ``role="dialog"`` with no name
#: (axe's ``aria-dialog-name``, serious, on every page: issue 45).
_SEARCH_DIALOG = '<div class="md-search" data-md-component="search" role="dialog">'
SEARCH_DIALOG_NAMED = ('<div class="md-search" data-md-component="search" role="dialog" '
                       'aria-label="Search the rules">')


def named_search_dialog(output: str) -> str:
    """A page's HTML with its search dialog named for a screen reader."""
    return output.replace(_SEARCH_DIALOG, SEARCH_DIALOG_NAMED, 1)


def on_post_page(output: str, page: Any, **kwargs: Any) -> str:
    return named_search_dialog(output)
