"""What the Cairn apps share: the CSS, an outcome line with its seed, the seed source, and
the roll controls every roll goes through.

Seeds: every roll an app makes draws a fresh seed with ``seed_source`` (by default
[draw_seed][companion.widgets.base.draw_seed]), passes it to the move (so the tracker's log
records it with the move, and a save keeps it), and shows it beside the outcome. A seed
typed in the app's *Seed* box is used instead, for every roll until the box is emptied: to
replay a roll, undo it, type its seed and roll again. The same move with that seed gives
the same dice: ``python -m companion table ID --roll --seed S`` and
``companion.dice.roll(expr, seed=S)`` use the same generator. Tests pass a fixed
``seed_source``.

Roll modes and your own dice (issue 13): every app holds one
[RollControls][companion.widgets.rolls.RollControls] (``controls``, shown above the seed
box) and every roll it makes goes through
[CairnAppBase.roll][companion.widgets.cairn_srd.common.CairnAppBase.roll]: the mode
picked (public, GM only, blind, self) decides who sees the roll, a hidden one is logged in
the campaign's roll log as its commitment, and with "I rolled it myself" on, the faces
typed are the dice the rule rolls (checked against each die: a d20 entered as 21 is
refused under the box, and nothing is rolled). An app gets its campaign (and so the
viewer and role) as ``campaign=``; without one its trackers join an unsaved session as the
app is built (the same path, kept nowhere) and every roll is public.

- Interpretation: a roll in the seeded path passes its seed to the move (``seed=S``),
  exactly as before, so the tracker's log keeps the seed and the same seed gives the same
  dice everywhere; a roll from real dice passes them as ``rng=`` (no seed).
- Interpretation: the consequences of a hidden roll that moves a tracker of the table
  (the Guard a GM-only save costs) are visible on that tracker by nature; the roll is not
  (see [companion.fairplay][]'s policy). A hidden roll the viewer may not see shows the
  commitment line instead of the result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from companion.rule_rolls import RuleCall
from companion.state import Tracker
from companion.widgets.base import (
    SEED_BOUND,
    CheckedBox,
    ErrorLine,
    InputError,
    button,
    chance_html,
    draw_seed,
    row,
)
from companion.widgets.markup import Markup, details_html, el
from companion.widgets.rolls import NamedMove, RollControls, RuleRoll, TableRoll, named_move

if TYPE_CHECKING:
    from companion.table import Session

T = TypeVar("T")

__all__ = ["CAIRN_CSS", "HIDDEN_LINE", "CairnAppBase", "SeedBox", "cairn_css", "labelled",
           "pct", "said"]

#: How a hidden roll's move begins in a shared tracker's log (the policy of
#: [companion.fairplay][]: the stored line names no result).
HIDDEN_LINE = "a hidden roll"

CAIRN_CSS = """
.tc-app .tc-slots { list-style: none; margin: 4px 0; padding: 0; }
.tc-app .tc-slot { padding: 4px 6px; border: 1px solid #ccc; border-radius: 4px; margin: 2px 0;
  min-height: 40px; display: flex; flex-flow: row wrap; align-items: center; gap: 6px;
  overflow-wrap: anywhere; }
.tc-app .tc-slot-empty { color: var(--tc-muted); font-style: italic; }
.tc-app .tc-slot.tc-slot-blank { min-height: 26px; padding: 1px 6px; }
.tc-app .tc-slot-fatigue { background: var(--tc-warn-bg); }
.tc-app .tc-slot-wound { background: var(--tc-bad-bg); }
.tc-app .tc-stats { font-size: 16px; line-height: 1.5; overflow-wrap: anywhere; }
.tc-app .tc-stats b { font-size: 17px; }
.tc-app .tc-outcome { padding: 6px; border-left: 4px solid #555; margin: 4px 0;
  background: var(--tc-panel); overflow-wrap: anywhere; font-size: 16px; }
.tc-app .tc-seed { color: var(--tc-muted); font-size: 16px; }
.tc-app .tc-scar { color: var(--tc-error); font-weight: 700; }
.tc-app table.tc-grid { border-collapse: collapse; font-size: 16px; max-width: 100%; }
.tc-app table.tc-grid td, .tc-app table.tc-grid th { border: 1px solid #ccc; padding: 3px 6px; }
.tc-app .tc-labelled { gap: 4px; }
.tc-app .tc-label { font-size: 16px; color: var(--tc-strong); }
.tc-app table.tc-nowrap td { white-space: nowrap; }
.tc-app table.tc-nowrap td.tc-name-cell { white-space: normal; overflow-wrap: anywhere;
  min-width: 6em; }
.tc-app table.tc-grid th { white-space: nowrap; overflow-wrap: normal; }
.tc-app .tc-side { font-size: 16px; color: var(--tc-muted); }
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
        [widgets.HTML(el("span", label, class_="tc-label")), widget],
        layout=widgets.Layout(width="auto", flex="0 1 auto", align_items="center"),
    )
    box.add_class("tc-labelled")
    return box


def said(tracker: Tracker, fallback: str = "") -> str:
    """The last move's line from ``tracker``'s log, or ``fallback`` (made from what the move
    returned) when that line is a hidden roll's, which names no result."""
    line = tracker.log[-1].summary if tracker.log else ""
    return fallback if not line or line.startswith(HIDDEN_LINE) else line


def cairn_css() -> widgets.HTML:
    """The Cairn apps' own CSS (after the shared phone-width CSS that app_box adds)."""
    return widgets.HTML(el("style", Markup(CAIRN_CSS)), layout=widgets.Layout(display="none"))


class SeedBox(CheckedBox):
    """A seed to roll with: empty (a fresh seed each roll) or a whole number below 2**53;
    anything else is refused under the box. ``read()`` gives the seed or ``None``."""

    kind = "seed"

    def __init__(self, name: str = "seed") -> None:
        super().__init__("Seed", "", name, width="230px",
                         placeholder="blank: fresh dice")

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
    """Plumbing of every Cairn app: a seed source, an error line, an outcome line, and the
    roll controls (mode, own dice) of ``campaign`` (the page's campaign, or ``None``: the
    app's trackers then join an unsaved session on its first roll).

    ``outcome`` carries ``data-n`` (moves shown so far, so a browser test sees each click
    even when the text repeats) and ``data-seed`` (the seed of the last roll, if any).
    ``seed_row`` holds the roll controls and the seed box (an app places it once).
    """

    #: What dice the app's rolls mostly take, the faces box's short hint (its label and
    #: placeholder: kept short, so the box stays wide enough to type in on a phone).
    dice_hint = "d20"

    def __init__(self, seed_source: Callable[[], int] | None = None, *,
                 session: Session | None = None) -> None:
        super().__init__()
        self.seed_source = seed_source or draw_seed
        self.seeds: list[int] = []
        """Every seed this app drew, in order (the last is shown with the outcome)."""
        self.error = ErrorLine()
        self.outcome = widgets.HTML(el("div", "Ready.", class_="tc-outcome", data_n=0))
        self.n = 0
        self.seed_box = SeedBox()
        self.table_session = session
        self.controls = RollControls(
            session=session, who=session.who if session is not None else "",
            role=session.seat_role if session is not None else "",
            seed_source=self._fresh_seed, hint=self.dice_hint)
        self.controls.add_class("tc-cairn-roll-controls")
        # In a campaign the seed box is the GM's (a chosen seed chooses the dice).
        self.seed_shown = session is None or session.may_choose_seed() is None
        self.seed_row = widgets.VBox(
            [self.controls, *([row(self.seed_box)] if self.seed_shown else [])],
            layout=widgets.Layout(max_width="100%"))
        self.last_roll: RuleRoll[Any] | None = None
        """The last roll made through
        [roll][companion.widgets.cairn_srd.common.CairnAppBase.roll]."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every Cairn app, once built, acts through a table session: opened without a
        # campaign, its trackers join an unsaved one as soon as the app exists (not at
        # its first roll), so its first tap already takes the one path (issue 28). Done
        # here once, after the most derived __init__ has set the app's trackers.
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return

        @functools.wraps(init)
        def built(self: CairnAppBase, *args: Any, **kw: Any) -> None:
            init(self, *args, **kw)
            if type(self) is cls:
                self.session()

        cls.__init__ = built  # type: ignore[method-assign]

    def session(self) -> Session:
        """The table session this app acts through: the page's campaign's, or one kept
        nowhere that holds the app's trackers (a tracker it takes on later joins it at its
        next roll or here)."""
        return self.controls.session_for(self.trackers())

    def trackers(self) -> list[Tracker]:
        """The trackers this app moves (its own and its party's sheets)."""
        found: dict[int, Tracker] = {}
        for value in vars(self).values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, Tracker):
                    found.setdefault(id(item), item)
        return list(found.values())

    def _fresh_seed(self) -> int:
        return self.seed_source()

    @property
    def last_seed(self) -> int | None:
        return self.seeds[-1] if self.seeds else None

    def draw(self) -> int:
        """The seed for the next roll (typed, or else fresh), recorded.

        A bad seed box raises its refusal, so the roll does not happen."""
        typed = self.seed_box.read() if self.seed_shown else None
        seed = typed if typed is not None else self.seed_source()
        self.seeds.append(seed)
        return seed

    def roll(self, label: str, move: Callable[..., T] | NamedMove | TableRoll,
             text: Callable[[T], str] = str, extra: Callable[[T], Markup] | None = None,
             ) -> RuleRoll[T]:
        """Make one rule roll through the roll controls and show it.

        ``move`` names what rolls, as plain data: ``text(result)`` is the outcome line when
        the log holds none, ``extra(result)`` HTML shown under it. A refused move or entry
        raises before anything is logged; a roll this viewer may not see shows its
        commitment line. Each roll is a named act (a function is refused: a closure
        cannot be written down or sent over a wire):

        - a tracker's own move, ``(tracker, "move", {args})`` or the bound move itself
          (``character.panic_save``);
        - a declared rule that moves no tracker
          ([RuleCall][companion.rule_rolls.RuleCall]);
        - a declared table move that moves several
          ([TableRoll][companion.widgets.rolls.TableRoll]).

        A tracker's move is a named act
        ([RollControls.run_act][companion.widgets.rolls.RollControls.run_act]): the
        session hands the move its dice and logs the move's own line (shown here too: what
        the log says is what the app says), and nothing of this app is called back on the
        way."""
        typed = self.seed_box.read() if self.seed_shown else None
        named = named_move(move)
        if named is not None:
            tracker, name, args = named
            out: RuleRoll[T] = self.controls.run_act(label, tracker, name, args, seed=typed,
                                                     trackers=self.trackers())
            return self._shown(label, out, text, extra)
        if isinstance(move, RuleCall):
            # A declared rule (a roll that moves no tracker) is the table's named act
            # ``rule``: the session rolls it with its dice, logs the rule's own text and
            # records the call in the entry, so that verify makes it again.
            rolled: RuleRoll[T] = self.controls.run_rule(label, move, seed=typed,
                                                         trackers=self.trackers())
            return self._shown(label, rolled, move.text, extra)
        if isinstance(move, TableRoll):
            # A roll that moves several trackers is a declared table move, by name: the
            # session runs it as one unit of work and logs the move's own line.
            moved: RuleRoll[T] = self.controls.run_table(
                label, [*move.trackers, *self.trackers()], move.name, move.args, seed=typed)
            return self._shown(label, moved, text, extra)
        # Anything else would be a closure: it cannot be written down or sent.
        raise TypeError(f"{label}: a roll names its move (a tracker's move, a declared "
                        "rule or a table move), not a function")

    def _shown(self, label: str, out: RuleRoll[T], text: Callable[[T], str],
               extra: Callable[[T], Markup] | None) -> RuleRoll[T]:
        """Show a roll's outcome: the line the roll log holds (else ``text(value)``),
        ``extra``, the seeds; a hidden roll's commitment line."""
        self.last_roll = out
        seeds: list[int] = []
        if out.seed is not None:
            self.seeds.append(out.seed)
            seeds = [out.seed]
        if out.shown and out.value is not None:
            own = " (own dice)" if out.physical else ""
            line = out.text if out.text is not None else text(out.value)
            self.show(line + own, extra(out.value) if extra else None, seeds)
        else:
            self.n += 1
            self.outcome.value = el("div", f"{label}: ", out.hidden_html(),
                                    class_="tc-outcome tc-hidden", data_n=self.n)
        return out

    def show(self, text: str, extra: Markup | None = None, seeds: list[int] | None = None) -> None:
        """Show ``text`` (escaped) and ``extra`` (built markup) as the latest outcome."""
        self.n += 1
        used = seeds or []
        seed_html = Markup()
        if used:
            label = "seed" if len(used) == 1 else "seeds"
            # The seeds under "details": a number means nothing to a player at the table.
            seed_html = details_html(el("span", f"({label} {', '.join(str(s) for s in used)})",
                                        class_="tc-seed"))
        self.outcome.value = el("div", text, seed_html, extra, class_="tc-outcome",
                                data_n=self.n, data_seed=used[-1] if used else None)

    def btn(self, label: str, action: Callable[[], Any], name: str,
            style: str = "") -> widgets.Button:
        """A button whose failure shows on this app's error line."""
        return button(label, action, error=self.error, name=name, style=style)
