"""What the five Cairn apps share: the CSS, an outcome line with its seed, the seed source.

Seeds: every roll an app makes draws a fresh seed with ``seed_source`` (by default
[draw_seed][companion.widgets.base.draw_seed]), passes it to the move (so the tracker's log
records it with the move, and a save keeps it), and shows it beside the outcome. A seed
typed in the app's *Seed* box is used instead, for every roll until the box is emptied: to
replay a roll, undo it, type its seed and roll again. The same move with that seed gives
the same dice: ``python -m companion table ID --roll --seed S`` and
``companion.dice.roll(expr, seed=S)`` use the same generator. Tests pass a fixed
``seed_source``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.widgets.base import (
    SEED_BOUND,
    CheckedBox,
    ErrorLine,
    InputError,
    button,
    chance_html,
    draw_seed,
    escape,
    row,
)

__all__ = ["CAIRN_CSS", "CairnAppBase", "SeedBox", "cairn_css", "escape", "labelled", "pct"]

CAIRN_CSS = """
.tc-app .tc-slots { list-style: none; margin: 4px 0; padding: 0; }
.tc-app .tc-slot { padding: 4px 6px; border: 1px solid #ccc; border-radius: 4px; margin: 2px 0;
  min-height: 40px; display: flex; flex-flow: row wrap; align-items: center; gap: 6px;
  overflow-wrap: anywhere; }
.tc-app .tc-slot-empty { color: #666; font-style: italic; }
.tc-app .tc-slot.tc-slot-blank { min-height: 26px; padding: 1px 6px; }
.tc-app .tc-slot-fatigue { background: #fff4d6; }
.tc-app .tc-slot-wound { background: #fde2e2; }
.tc-app .tc-stats { font-size: 16px; line-height: 1.5; overflow-wrap: anywhere; }
.tc-app .tc-stats b { font-size: 17px; }
.tc-app .tc-outcome { padding: 6px; border-left: 4px solid #555; margin: 4px 0;
  background: #f6f6f6; overflow-wrap: anywhere; font-size: 16px; }
.tc-app .tc-seed { color: #555; font-size: 16px; }
.tc-app .tc-scar { color: #8a1c1c; font-weight: 700; }
.tc-app table.tc-grid { border-collapse: collapse; font-size: 16px; max-width: 100%; }
.tc-app table.tc-grid td, .tc-app table.tc-grid th { border: 1px solid #ccc; padding: 3px 6px; }
.tc-app .tc-labelled { gap: 4px; }
.tc-app .tc-label { font-size: 16px; color: #333; }
.tc-app table.tc-nowrap td { white-space: nowrap; }
.tc-app table.tc-nowrap td.tc-name-cell { white-space: normal; overflow-wrap: anywhere;
  min-width: 6em; }
.tc-app table.tc-grid th { white-space: nowrap; overflow-wrap: normal; }
.tc-app .tc-side { font-size: 16px; color: #555; }
.tc-app .tc-p { white-space: nowrap; }
.tc-app .widget-checkbox { align-items: center; }
.tc-app .widget-checkbox .widget-label-basic { display: flex; align-items: center; }
.tc-app .tc-joiners select, .tc-app .tc-blast-targets select { font-size: 16px; }
.tc-app .tc-joiners option, .tc-app .tc-blast-targets option { min-height: 40px;
  padding: 10px 4px; }
.tc-app .tc-dice-choice button { min-height: 40px; min-width: 48px; font-size: 16px; }
"""


#: An exact chance as a percentage with its fraction beside it (the apps' short name for
#: [chance_html][companion.widgets.base.chance_html]).
pct = chance_html


def labelled(label: str, widget: widgets.Widget) -> widgets.HBox:
    """A short label kept beside its input (placeholders vanish once a value is there)."""
    box = widgets.HBox(
        [widgets.HTML(f'<span class="tc-label">{escape(label)}</span>'), widget],
        layout=widgets.Layout(width="auto", flex="0 1 auto", align_items="center"),
    )
    box.add_class("tc-labelled")
    return box


def cairn_css() -> widgets.HTML:
    """The Cairn apps' own CSS (after the shared phone-width CSS that app_box adds)."""
    return widgets.HTML(f"<style>{CAIRN_CSS}</style>", layout=widgets.Layout(display="none"))


class SeedBox(CheckedBox):
    """A seed to roll with: empty (a fresh seed each roll) or a whole number below 2**53;
    anything else is refused under the box. ``read()`` gives the seed or ``None``."""

    kind = "seed"

    def __init__(self, name: str = "seed") -> None:
        super().__init__("Seed", "", name, width="230px", placeholder="empty = fresh")

    def read(self) -> int | None:
        value = super().read()
        return None if value == "" else int(value)

    def _parse(self, text: str) -> str:
        cleaned = text.strip()
        if not cleaned:
            return ""
        if not (cleaned.isascii() and cleaned.isdigit() and len(cleaned) <= 16
                and int(cleaned) < SEED_BOUND):
            raise InputError(f"a seed is a whole number from 0 to {SEED_BOUND - 1:,}, "
                             "or empty for a fresh one")
        return cleaned


class CairnAppBase(widgets.VBox):
    """Plumbing of every Cairn app: a seed source, an error line, an outcome line.

    ``outcome`` carries ``data-n`` (moves shown so far, so a browser test sees each click
    even when the text repeats) and ``data-seed`` (the seed of the last roll, if any).
    """

    def __init__(self, seed_source: Callable[[], int] | None = None) -> None:
        super().__init__()
        self.seed_source = seed_source or draw_seed
        self.seeds: list[int] = []
        """Every seed this app drew, in order (the last is shown with the outcome)."""
        self.error = ErrorLine()
        self.outcome = widgets.HTML('<div class="tc-outcome" data-n="0">Ready.</div>')
        self.n = 0
        self.seed_box = SeedBox()
        self.seed_row = row(self.seed_box)

    @property
    def last_seed(self) -> int | None:
        return self.seeds[-1] if self.seeds else None

    def draw(self) -> int:
        """The seed for the next roll (typed, or else fresh), recorded.

        A bad seed box raises its refusal, so the roll does not happen."""
        typed = self.seed_box.read()
        seed = typed if typed is not None else self.seed_source()
        self.seeds.append(seed)
        return seed

    def show(self, text: str, extra: str = "", seeds: list[int] | None = None) -> None:
        """Show ``text`` (escaped) and ``extra`` (HTML) as the latest outcome."""
        self.n += 1
        used = seeds or []
        seed_html = ""
        if used:
            label = "seed" if len(used) == 1 else "seeds"
            seed_html = (f' <span class="tc-seed">({label} '
                         f'{", ".join(str(s) for s in used)})</span>')
        attr = f' data-seed="{used[-1]}"' if used else ""
        self.outcome.value = (f'<div class="tc-outcome" data-n="{self.n}"{attr}>'
                              f"{escape(text)}{seed_html}{extra}</div>")

    def btn(self, label: str, action: Callable[[], Any], name: str,
            style: str = "") -> widgets.Button:
        """A button whose failure shows on this app's error line."""
        return button(label, action, error=self.error, name=name, style=style)
