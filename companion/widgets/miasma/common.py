"""Pieces the three Miasma apps share: their CSS and dice tiles."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from companion.rulesets.miasma.dice_monarchs import DICE
from companion.widgets.markup import Markup, el

__all__ = ["LOG_SHOWN", "MIASMA_CSS", "css", "dice_html"]


MIASMA_CSS = """
.tc-app .tc-dice { display: flex; flex-flow: row wrap; gap: 6px; margin: 4px 0; }
.tc-app .tc-die { min-width: 44px; min-height: 44px; border: 2px solid #333; border-radius: 8px;
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  font-size: 18px; font-weight: 700; background: var(--tc-card); }
.tc-app .tc-die .tc-note { font-size: 16px; font-weight: 400; color: var(--tc-muted); }
.tc-app .tc-die-hidden { background: var(--tc-panel); color: var(--tc-muted);
  border-style: dashed; }
.tc-app .tc-seats { list-style: none; margin: 4px 0; padding: 0; }
.tc-app .tc-seats li { padding: 4px 6px; border: 1px solid #ccc; border-radius: 4px;
  margin: 2px 0; overflow-wrap: anywhere; }
.tc-app .tc-seats li.tc-turn { border: 2px solid #1565c0; background: var(--tc-turn-bg); }
.tc-app .tc-seats li.tc-out { color: var(--tc-muted); text-decoration: line-through; }
.tc-app .tc-cover { padding: 12px; border: 2px dashed #555; border-radius: 8px;
  background: var(--tc-panel); margin: 6px 0; font-size: 16px; }
.tc-app .tc-outcome { padding: 6px; border-left: 4px solid #555; margin: 4px 0;
  background: var(--tc-panel); overflow-wrap: anywhere; }
.tc-app .tc-log { font-size: 16px; color: var(--tc-strong); max-height: 220px; overflow-y: auto; }
.tc-app .tc-pick select { min-height: 40px; font-size: 16px; }
.tc-app .tc-pot { font-size: 22px; }
.tc-app .tc-card { padding: 6px; border: 1px solid #ccc; border-radius: 6px; margin: 4px 0;
  overflow-wrap: anywhere; }
"""

LOG_SHOWN = 12
"""Newest log lines an app shows (the whole log stays in the tracker and its save)."""


def css() -> widgets.HTML:
    return widgets.HTML(el("style", Markup(MIASMA_CSS)), layout=widgets.Layout(display="none"))


def dice_html(values: Sequence[int], *, hidden_from: int = 5) -> Markup:
    """The five dice (d4..d12) as tiles; those from ``hidden_from`` on show "?"."""
    cells = []
    for i, sides in enumerate(DICE):
        shown = i < len(values) and i < hidden_from
        cells.append(el("span", values[i] if shown else "?",
                        el("span", f"d{sides}", class_="tc-note"),
                        class_="tc-die" if shown else "tc-die tc-die-hidden", data_d=sides))
    return el("div", cells, class_="tc-dice")

