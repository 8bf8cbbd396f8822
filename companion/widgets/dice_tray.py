"""DiceTray: type an expression (or tap a die), roll, see every die, the total and the odds.

All dice work is done by [companion.dice][]; the roll log lives in a plain
[companion.history.RollHistory][] that the tray's
[HistoryView][companion.widgets.base.HistoryView] observes.

In a notebook::

    from companion.widgets import DiceTray
    DiceTray()

Seeds: an empty seed box means a fresh seed for every roll, drawn from
``random.SystemRandom`` and recorded in the history, so any roll can be replayed with
``companion.dice.roll(expr, seed=seed)``. A seed typed in the box is used for every roll
until the box is emptied: the same expression then gives the same dice each time (that is
what replaying means).

Roll modes and your own dice: beside the roll sits a
[RollModePanel][companion.widgets.rolls.RollModePanel] ("I rolled it myself" enters real
dice, checked by the engine). When the page's URL names a campaign (``?campaign=..&who=..
&role=..``, see [PageContext][companion.widgets.table.binding.PageContext]) every roll goes
to the campaign's roll log in the chosen mode (public, GM only, blind, self) and the
[RollLogPanel][companion.widgets.rolls.RollLogPanel] shows that log; a roll this viewer may
not see shows only "hidden roll committed" and is kept out of the tray's history. Without a
campaign the modes are disabled (a roll stays on this screen). A roll made with real dice
has no seed, so it is not kept in the tray's replay history (with a campaign it is in the
roll log, marked as real dice).

On a phone (issue 44: a [RemoteSession][companion.table.remote.RemoteSession]) every roll
is an act the table judges and rolls: the tray says it waits
([WAITING_LINE][companion.widgets.rolls.WAITING_LINE]) and shows the table's answer when
it comes: the total and the dice (a roll with a seed made again from it, checked against
the table's, and kept in the replay history), the commitment of a roll this seat may not
see, or the table's refusal as its one line.

What the page holds stays bounded: a roll shows at most ``TRAY_MAX_DICE`` dice (the rest
are counted; the total is exact), the history is the bounded
[HistoryView][companion.widgets.base.HistoryView], and an expression the engine refuses
(too many dice, exact odds too costly) shows its one-line message under the box while the
tray keeps working.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion import dice
from companion.dice import render
from companion.errors import CompanionError, DiceSyntaxError, OddsTooCostlyError, clipped
from companion.history import RollHistory
from companion.table.acts import Refused
from companion.widgets.base import (
    SEED_BOUND,
    ErrorLine,
    HistoryView,
    app_box,
    button,
    column,
    draw_seed,
    one_line,
    row,
    safe,
    text_box,
)
from companion.widgets.markup import Markup, details_html, el, frag, join, roll_text_html
from companion.widgets.rolls import (
    RollLogPanel,
    RollModePanel,
    RollOutcome,
    hidden_line,
    seat_html,
)

if TYPE_CHECKING:
    from companion.table.acts import Accepted, Outcome
    from companion.table.session import Session

__all__ = ["QUICK_ROLLS", "SEED_BOUND", "TRAY_CHART_BARS", "TRAY_MAX_DICE", "DiceTray",
           "chart_svg", "plain_syntax_error"]

TRAY_MAX_DICE = 60
"""Dice drawn one by one in the tray's result; a bigger roll shows these and a count of the
rest, so a 1000-die roll sends a few kilobytes, not a page of dice."""

TRAY_CHART_BARS = 24
"""A distribution with more than ``TRAY_GROUP_OVER`` outcomes is charted in at most this
many bars, each a run of neighbouring totals (``1000d6`` has 5,001 totals with exact odds
of hundreds of digits: drawn one bar each with its exact tooltip, the chart alone was
225 KB)."""

TRAY_GROUP_OVER = 120
"""Outcomes charted one bar each (``1d100`` keeps its 100 bars)."""

TRAY_TIP_CHARS = 60
"""A bar's tooltip longer than this (an exact chance of hundreds of digits) keeps only its
percentage; the exact chance of any target is in the chance line."""

QUICK_ROLLS: tuple[tuple[str, str], ...] = (
    ("d4", "1d4"),
    ("d6", "1d6"),
    ("d8", "1d8"),
    ("d10", "1d10"),
    ("d12", "1d12"),
    ("d20", "1d20"),
    ("d%", "1d%"),
    ("Advantage", "2d20kh1"),
    ("Disadvantage", "2d20kl1"),
)
"""(button label, expression) for the one-tap rolls."""


TRAY_CSS = """
.tc-app .tc-result { padding: 6px 0; }
.tc-app .tc-total { font-size: 44px; font-weight: 800; line-height: 1.1; }
.tc-app .tc-result-dice { font-size: 18px; margin: 4px 0; overflow-wrap: anywhere; }
.tc-app .tc-result-labels { font-size: 16px; }
.tc-app .tc-result-meta { font-size: 16px; color: var(--tc-muted); }
.tc-app .tc-odds-note { font-size: 16px; color: var(--tc-strong); }
.tc-app .tc-chance { font-size: 16px; }
.tc-app .tc-chance b { font-size: 18px; }
.tc-app .tc-chart { max-width: 560px; }
.tc-app .tc-target { flex: 0 1 140px; }
.tc-app .tc-seed { flex: 0 1 220px; }
.tc-app .tc-section { font-weight: 700; margin-top: 8px; }
.tc-app .tc-seat-line { font-size: 16px; }
"""


_TIP = re.compile(r"<title>(-?\d+): ([^<]*) \(([^()<]*)\)</title>")


def chart_svg(dist: Any, *, target: int | None = None, title: str | None = None) -> Markup:
    """The tray's bar chart of ``dist``: the engine's chart, bounded in size.

    Up to ``TRAY_GROUP_OVER`` outcomes, one bar each; past it, the totals with more than
    0.01% at each end are grouped into at most ``TRAY_CHART_BARS`` runs of equal width
    (the ends' remainders join the first and last bar, whose tooltips say "or less" and
    "or more"); a grouped chart does not mark the target (the chance line gives it
    exactly). Tooltips longer than ``TRAY_TIP_CHARS`` keep their percentage only.

    The chart is the engine's SVG (its renderer escapes every text it writes): markup as
    it is, its tooltips rewritten with the builder.
    """
    values, weights, denom = dist.weights()
    if len(values) <= TRAY_GROUP_OVER:
        return Markup(_TIP.sub(_short_tip, dist.to_svg(target=target, title=title)))
    lo, hi, mass = 0, len(values), 0
    while lo < hi - 1 and (mass + weights[lo]) * 10_000 < denom:
        mass += weights[lo]
        lo += 1
    mass = 0
    while hi - 1 > lo and (mass + weights[hi - 1]) * 10_000 < denom:
        mass += weights[hi - 1]
        hi -= 1
    first, last = values[lo], values[hi - 1]
    size = max(1, -(-(last - first + 1) // TRAY_CHART_BARS))
    counts: dict[int, int] = {}
    for v, w in zip(values, weights, strict=True):
        start = first + (min(max(v, first), last) - first) // size * size
        counts[start] = counts.get(start, 0) + w
    grouped = dice.Distribution.from_counts(counts, denom)
    starts = sorted(counts)
    ends = {s: min(s + size - 1, last) for s in starts}

    def tip(match: re.Match[str]) -> str:
        start = int(match.group(1))
        if start == starts[0] and start == first and lo > 0:
            span = f"{ends[start]} or less"
        elif start == starts[-1] and hi < len(values):
            span = f"{start} or more"
        else:
            span = f"{start} to {ends[start]}" if ends[start] != start else str(start)
        return el("title", span, ": ", Markup(match.group(3)))  # the engine's escaped text

    heading = f"{title or 'Odds'} (totals grouped {size} to a bar)"
    return Markup(_TIP.sub(tip, grouped.to_svg(target=None, title=heading)))


def _short_tip(match: re.Match[str]) -> str:
    if len(match.group(0)) <= TRAY_TIP_CHARS:
        return match.group(0)
    return el("title", match.group(1), ": ", Markup(match.group(3)))  # the engine's escaped text


def plain_syntax_error(exc: DiceSyntaxError) -> str:
    """The parser's refusal in a player's words: what is wrong, where, and what dice
    notation looks like.

    >>> from companion import dice
    >>> try:
    ...     dice.roll("abc")
    ... except DiceSyntaxError as exc:
    ...     print(plain_syntax_error(exc)[:65])
    Dice: “a” does not belong in dice notation (character 1 of “abc”)
    """
    reason = exc.reason
    if reason.startswith("unexpected '") and reason.endswith("'"):
        reason = f"“{reason[12:-1]}” does not belong in dice notation"
    return (f"Dice: {reason} (character {exc.position + 1} of “{clipped(exc.expr, 40)}”); "
            "write dice like 2d6+1, 4d6kh3 or d20")


def keep_notes(expr: str) -> list[str]:
    """What a keep or drop asks that the dice cannot give, said instead of done silently:
    ``2d6kh5`` keeps all 2 dice, ``3d6dl3`` drops them all.

    >>> keep_notes("2d6kh5+1")
    ['2d6kh5: there are only 2 dice, so all 2 are kept']
    >>> keep_notes("4d6kh3")
    []
    """
    from companion.dice import nodes
    from companion.dice.parse import parse

    notes: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, nodes.Dice) and isinstance(node.count, nodes.Const) \
                and node.mods.keep is not None:
            keep, count = node.mods.keep, node.count.value
            if keep.keep and keep.n > count:
                notes.append(f"{node}: there are only {count} dice, so all {count} are kept")
            elif not keep.keep and keep.n >= count:
                notes.append(f"{node}: dropping {keep.n} of {count} dice leaves none")
        if dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                walk(getattr(node, f.name))
        elif isinstance(node, tuple | list):
            for item in node:
                walk(item)

    try:
        walk(parse(expr))
    except CompanionError:
        return []
    return notes


def _as_dict(value: object) -> dict[str, Any]:
    """``value`` if it is a JSON object (a part of a table's answer), else ``{}``."""
    return value if isinstance(value, dict) else {}


def _parse_int(text: str, what: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text.replace("_", ""), 10)
    except ValueError:
        raise CompanionError(f"{what}: expected a whole number, got {text!r}") from None


class DiceTray(widgets.VBox):
    """The dice tray component (a VBox, so it displays anywhere a widget does).

    ``history`` is the model the rolls go to (a fresh
    [RollHistory][companion.history.RollHistory] by default; pass one to share it).
    ``seed_source`` draws the seed when the seed box is empty (tests pass a fixed one). After
    a roll, ``last_roll`` is the engine's ``Roll`` and ``last_seed`` its seed.
    """

    def __init__(
        self,
        history: RollHistory | None = None,
        *,
        expr: str = "1d20",
        seed_source: Callable[[], int] = draw_seed,
        session: Session | None = None,
        who: str = "",
        role: str = "",
        from_page: bool = True,
    ) -> None:
        super().__init__()
        self.history = history if history is not None else RollHistory()
        self._seed_source = seed_source
        self.last_roll: Any = None
        self.last_seed: int | None = None
        self._odds_expr: str | None = None
        self._shown = 0
        self._distribution: Any = None

        self.error = ErrorLine()
        self.expr = text_box(
            "e.g. 4d6kh3, 2d20kh1+5, 1d8[fire]+2",
            value=expr,
            name="expr",
            on_enter=self.roll,
            error=self.error,
        )
        self.expr.layout.flex = "1 1 180px"
        self.roll_button = button("Roll", self.roll, error=self.error, style="primary", name="roll")
        self.quick_buttons = [
            button(
                label,
                self._quick(quick_expr),
                error=self.error,
                tooltip=f"Roll {quick_expr}",
                name=f"quick-{quick_expr}",
            )
            for label, quick_expr in QUICK_ROLLS
        ]
        self.seed = text_box("empty = random", name="seed")
        self.seed.add_class("tc-seed")
        seed_label = widgets.HTML("Seed")

        self.result = widgets.HTML(el("div", "No roll yet.", class_="tc-result", data_n=0))
        self.odds_note = widgets.HTML()
        self.target = text_box("e.g. 15", name="target")
        self.target.add_class("tc-target")
        self.target.continuous_update = True
        self.chance = widgets.HTML()
        self.chart = widgets.HTML()
        self.chart.add_class("tc-chart")
        self.target.observe(self._on_target, names="value")

        self.history_view = HistoryView(self.history, error=self.error)

        # Whose seat and what it may do, before any tap (a visitor with no seat learnt
        # they only watch by tapping Roll). On its own page the tray says the campaign and
        # person too; opened in place, the heading above it already does.
        self.seat = widgets.HTML()
        self.seat.add_class("tc-seat-line")
        if session is None and from_page:
            session, who, role = self._page_session()
            if session is not None:
                self.seat.value = seat_html(session.name, who, role)
        elif session is not None:
            self.seat.value = seat_html(session.name, who, role, where=False)
        self.session = session
        # In a campaign the seed box is the GM's (a chosen seed chooses the dice).
        self.seed_shown = session is None or session.may_choose_seed() is None
        self.modes = RollModePanel(expr, session=session, who=who, role=role,
                                   seed_source=seed_source, show_odds=False,
                                   show_status=False, error=self.error)
        self.roll_log = (RollLogPanel(session, who=who, role=role, error=self.error)
                         if session is not None else None)
        self.expr.observe(lambda change: self.modes.set_expr(str(change["new"])),
                          names="value")

        app_box(
            widgets.HTML(el("style", Markup(TRAY_CSS)),  # the style sheet: trusted markup
                         layout=widgets.Layout(display="none")),
            *([self.seat] if self.seat.value else []),
            row(self.expr, self.roll_button),
            self.error,
            row(*self.quick_buttons),
            *([row(seed_label, self.seed)] if self.seed_shown else []),
            self.modes,
            self.result,
            column(
                widgets.HTML(el("div", "Odds", class_="tc-section")),
                self.odds_note,
                row(widgets.HTML("Target (at least)"), self.target),
                self.chance,
                self.chart,
            ),
            self.history_view,
            *([self.roll_log] if self.roll_log is not None else []),
            box=self,
        )
        # Show the starting expression's odds before the first roll.
        safe(self.error)(self._update_odds)(expr.strip())
        #: The expressions of rolls sent to the table and not answered yet (a phone's:
        #: the table rolls them), oldest first.
        self._waiting: list[str] = []
        if session is not None:
            # An answer is no move of this page: a failure showing it is said on the error
            # line, never raised into the socket's handler.
            session.on_act(safe(self.error, clear_on_success=False)(self._answered))

    # -- moves ---------------------------------------------------------------------------
    def roll(self) -> Any:
        """Roll the expression in the box (Roll button and Enter both come here)."""
        expr = self.expr.value.strip()
        if not expr:
            raise CompanionError("expression: type a dice expression, e.g. 2d6+1")
        seed = _parse_int(self.seed.value, "seed") if self.seed_shown else None  # None: drawn
        from companion.dice.parse import parse

        try:
            # Read here first: on a phone the roll is an act for the table, and a typo is
            # said at once in the player's words rather than sent to be refused.
            parse(expr)
            outcome: RollOutcome = self.modes.perform(expr, seed=seed)
        except DiceSyntaxError as exc:
            raise CompanionError(plain_syntax_error(exc)) from None
        if outcome.sent:
            # A phone's roll: on its way to the table, which rolls it; its result is shown
            # when the answer comes (``_answered``), nothing asserted now.
            self._waiting.append(expr)
            self.last_roll, self.last_seed = None, None
            self.result.value = el("div", outcome.hidden_html(), class_="tc-result tc-waiting",
                                   data_n=self._shown)
            self._update_odds(expr)
            return None
        self._shown += 1
        result = outcome.roll
        self.last_roll, self.last_seed = result, outcome.seed
        if result is None:  # hidden from this viewer: only its commitment is shown
            self.result.value = el("div", outcome.hidden_html(), class_="tc-result",
                                   data_n=self._shown)
        elif outcome.seed is None:  # real dice: no seed, so not in the replay history
            self._show_result(result, self._shown, "your own dice")
        else:
            record = self.history.add_roll(result, seed=outcome.seed)
            # The seed (to replay it) folds under "details": a bare number is jargon.
            self._show_result(result, self._shown, details_html(f"seed {outcome.seed}"),
                              record.n)
        self._update_odds(expr)
        return result

    def _answered(self, outcome: Outcome) -> None:
        """The table's answer to an act of this seat: a roll this tray sent and waits for
        is shown (see the module's docstring), or its refusal said."""
        act = outcome.act
        expr = act.args.get("expr")
        if act.move != "roll" or act.tracker or expr not in self._waiting:
            return
        del self._waiting[self._waiting.index(expr)]  # answered: no longer waited for
        self._shown += 1
        n = self._shown
        if isinstance(outcome, Refused):
            self.result.value = el("div", f"Not rolled: {outcome.reason}",
                                   class_="tc-result tc-refused", data_n=n)
            return
        entry = outcome.roll or {}
        number = entry.get("entry")
        event = self._roll_event(outcome, number)
        number = number if type(number) is int else event.get("seq")
        logged = _as_dict(event.get("data"))
        # A hidden roll this seat may see (self) keeps its seed and dice in its secret.
        secret = _as_dict(logged.get("secret"))
        mode = str(entry.get("mode") or logged.get("mode") or "public")
        # What the table rolled: its answer's result, else its roll event's (an answer
        # given again after a drop may carry none).
        said = next((d for d in (_as_dict(outcome.result), secret, logged)
                     if type(d.get("total")) is int), {})
        if not said:
            if type(number) is int:  # hidden from this seat: its commitment only
                shown = hidden_line(entry.get("commitment") or logged.get("commitment"),
                                    mode, number)
            else:
                shown = el("div", "Rolled at the table: its result is in the roll log.",
                           class_="tc-hidden-roll")
            self.result.value = el("div", shown, class_="tc-result", data_n=n)
            return
        seed = event.get("seed") if type(event.get("seed")) is int else secret.get("seed")
        if type(seed) is int:
            # The table's seed makes the same roll here (the dice drawn one by one, the
            # keep notes, the replay history), checked against the table's own text.
            again = dice.roll(str(expr), seed=seed)
            if again.total == said["total"] and str(again) == said.get("text"):
                self.last_roll, self.last_seed = again, seed
                record = self.history.add_roll(again, seed=seed)
                self._show_result(again, n, details_html(f"seed {seed}"), record.n)
                return
        # Real dice (no seed), or a roll not made again here: the table's total and its
        # text of the dice.
        own = bool(logged.get("physical") or secret.get("physical"))
        labels = _as_dict(said.get("labels"))
        label_html = el("div", join((frag(f"{k}: ", el("b", v)) for k, v in labels.items()
                                     if type(v) is int), " · "),
                        class_="tc-result-labels") if labels else None
        self.result.value = el(
            "div", el("div", said["total"], class_="tc-total", aria_label="total"),
            el("div", roll_text_html(str(said.get("text", ""))), class_="tc-result-dice"),
            label_html,
            el("div", join([f"roll log entry {number}" if type(number) is int else
                            "rolled at the table", *(["your own dice"] if own else [])],
                           " · "), class_="tc-result-meta"),
            class_="tc-result", data_n=n)

    def _roll_event(self, outcome: Accepted, entry: object) -> dict[str, Any]:
        """The roll log's event of an answered roll (``entry``: its number, when the
        answer names it): among the answer's events, else in the log as this seat holds
        it (an answer given again after a drop brings none: the welcome had them)."""
        for e in outcome.events:
            if e.get("kind") == "roll" and (type(entry) is not int or e.get("seq") == entry):
                return e
        if type(entry) is not int or self.session is None:
            return {}
        found = next((e for e in reversed(self.session.log(["roll"])) if e.seq == entry), None)
        return found.to_dict() if found is not None else {}

    def _page_session(self) -> tuple[Session | None, str, str]:
        """The campaign the page's URL names (none: ``None``); a campaign that cannot be
        opened is said on the error line and the tray works without it."""
        from companion.widgets.table.binding import PageContext, page_session

        context = PageContext.from_query()
        if not context.campaign:
            return None, "", ""
        try:
            session = page_session(context)  # who and role: the seat's (issue 19)
            return session, session.who if session else "", session.seat_role if session else ""
        except CompanionError as exc:
            self.error.show(exc)
            return None, "", ""

    def _quick(self, quick_expr: str) -> Callable[[], Any]:
        def roll_it() -> Any:
            self.expr.value = quick_expr
            return self.roll()

        return roll_it

    # -- views ---------------------------------------------------------------------------
    def _show_result(self, result: Any, n: int, source: str, record: int | None = None
                     ) -> None:
        """Show ``result``; ``source`` (HTML) says what it came from."""
        labels = getattr(result, "labels", {}) or {}
        label_html = el("div", join((frag(f"{k}: ", el("b", int(v))) for k, v in labels.items()),
                                    " · "), class_="tc-result-labels") if labels else None
        # The engine's renderer (the core: no builder there) escapes what it writes.
        dice_html = Markup(render.roll_html(result, max_dice=TRAY_MAX_DICE))
        # A keep or drop past the dice rolled is said beside the result, not done silently.
        notes = (el("div", note, class_="tc-note tc-keep-note")
                 for note in keep_notes(str(getattr(result, "expr", ""))))
        number = f"roll #{record}" if record is not None else "not in the history"
        # data-n changes on every roll, so a browser sees a new value even for equal totals.
        self.result.value = el(
            "div", el("div", int(result.total), class_="tc-total", aria_label="total"),
            el("div", dice_html, class_="tc-result-dice"), label_html, notes,
            el("div", f"{number} · ", source, class_="tc-result-meta"),
            class_="tc-result", data_n=n)

    def _update_odds(self, expr: str) -> None:
        if expr == self._odds_expr:
            return
        self._odds_expr = expr
        self._distribution = None
        self.chart.value = ""
        try:
            dist = dice.odds(expr)
        except OddsTooCostlyError:
            # The engine's reason names its budget and its Python API (simulate(expr, n),
            # bit weights): words for a programmer, not a player (issue 45).
            self.odds_note.value = el(
                "div", "Exact odds for this expression would take too long to work out, so "
                "they are not shown; rolling works as usual.", class_="tc-odds-note")
            self.chance.value = ""
            return
        except DiceSyntaxError as exc:
            self.odds_note.value = el("div", f"No odds: {plain_syntax_error(exc)}",
                                      class_="tc-odds-note tc-error")
            self.chance.value = ""
            return
        except CompanionError as exc:
            # The roll (if any) already happened; odds trouble is told beside the odds.
            self.odds_note.value = el("div", f"No odds: {one_line(exc)}",
                                      class_="tc-odds-note tc-error")
            self.chance.value = ""
            return
        self._distribution = dist
        self.odds_note.value = el(
            "div", "Exact odds of ", el("b", expr),
            f": {dist.min} to {dist.max}, average {float(dist.mean):.2f}", class_="tc-odds-note")
        self._render_chance()

    def _on_target(self, _change: Any) -> None:
        # A bad target is reported beside the target box, leaving the roll's error line alone.
        try:
            self._render_chance()
        except Exception as exc:
            self.chance.value = el("div", one_line(exc), class_="tc-error")

    def _render_chance(self) -> None:
        dist = self._distribution
        if dist is None:
            self.chance.value = ""
            return
        target = _parse_int(self.target.value, "target")
        title = f"Odds of {self._odds_expr}"
        self.chart.value = chart_svg(dist, target=target, title=title)
        if target is None:
            self.chance.value = el("div", "Type a target to see the chance.", class_="tc-chance")
            return
        p: Fraction = dist.at_least(target)
        self.chance.value = el(
            "div", f"Chance of {target} or more: ", el("b", render.percent(p)), " ",
            el("small", f"(exactly {render.grouped_fraction_text(p)})"), class_="tc-chance")
