"""Bare ``>>>`` examples in docstrings render as code, not as reflowed text or links."""

from __future__ import annotations

import markdown
from doctest_blocks import DoctestBlocksExtension, DoctestPreprocessor


def render(text: str) -> str:
    return markdown.markdown(text, extensions=["fenced_code", DoctestBlocksExtension()])


def test_doctest_becomes_a_code_block() -> None:
    html = render("The history:\n\n>>> [r.total for r in h]\n[7, 5]\n\nAfter.")
    assert "<code" in html and "[7, 5]" in html
    assert "<a " not in html
    assert "<p>After.</p>" in html


def test_continuation_and_output_lines_stay_in_the_block() -> None:
    lines = [">>> for t in (1, 2):", "...     print(t)", "1", "2", "", "text"]
    out = DoctestPreprocessor(markdown.Markdown()).run(lines)
    start, end = out.index("```pycon"), out.index("```")
    assert out[start + 1 : end] == lines[:4]
    assert out[-1] == "text"


def test_fenced_code_is_left_alone() -> None:
    lines = ["```python", ">>> 1 + 1", "2", "```"]
    assert DoctestPreprocessor(markdown.Markdown()).run(lines) == lines
