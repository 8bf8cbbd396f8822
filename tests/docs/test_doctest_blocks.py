"""Bare ``>>>`` examples in docstrings render as code, not as reflowed text or links."""

from __future__ import annotations

import hypothesis.strategies as st
import markdown
from doctest_blocks import DoctestBlocksExtension, DoctestPreprocessor
from hypothesis import given


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


LINES = st.lists(
    st.sampled_from(
        [">>> roll('1d6')", "...     x", "4", "[7, 5]", "Prose.", "", "  >>> indented", "- item"]
    ),
    max_size=30,
)


@given(LINES)
def test_content_is_kept_in_order_and_every_prompt_is_fenced(lines: list[str]) -> None:
    out = DoctestPreprocessor(markdown.Markdown()).run(lines)
    added = {"```pycon", "```", "  ```pycon", "  ```"}
    assert [x for x in out if x.strip() and x not in added] == [x for x in lines if x.strip()]
    inside = False
    for line in out:
        if line.strip() == "```pycon":
            inside = True
        elif line.strip() == "```":
            inside = False
        elif line.lstrip().startswith(">>>"):
            assert inside, out
