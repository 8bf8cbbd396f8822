"""MkDocs hooks of the reference site (listed under ``hooks:`` in mkdocs.yml).

MkDocs puts this file's folder on ``sys.path`` only while loading it, so the fence and
extension modules are imported here, at load time, and registered in ``on_config``;
mkdocs.yml then needs no ``!!python/name`` tag that would depend on the working directory.
"""

from __future__ import annotations

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
