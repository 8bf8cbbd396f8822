"""A Markdown extension that shows bare doctest examples as Python console code.

Docstrings across the package carry ``>>>`` examples outside any fence; plain Markdown
would reflow them into a paragraph and read ``[a]\\n[b]`` as a reference link (which
``--strict`` turns into a failed build). Each run of ``>>>`` / ``...`` lines and the output
lines after it, up to a blank line, is fenced as ``pycon``.
"""

from __future__ import annotations

import re

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

_FENCE = re.compile(r"^\s*(```|~~~)")
_PROMPT = re.compile(r"^(\s*)>>>( |$)")


class DoctestPreprocessor(Preprocessor):
    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        in_fence = False
        block: list[str] = []
        indent = ""

        def flush() -> None:
            if block:
                out.extend(["", f"{indent}```pycon", *block, f"{indent}```", ""])
                block.clear()

        for line in lines:
            if block:
                if line.strip():
                    block.append(line)
                    continue
                flush()
            if _FENCE.match(line):
                in_fence = not in_fence
            elif not in_fence and (match := _PROMPT.match(line)):
                indent = match.group(1)
                block.append(line)
                continue
            out.append(line)
        flush()
        return out


class DoctestBlocksExtension(Extension):
    def extendMarkdown(self, md: Markdown) -> None:
        # Before the fenced-code preprocessors (priority 25), so the new fences get parsed.
        md.preprocessors.register(DoctestPreprocessor(md), "doctest_blocks", 35)
