"""The luck report beside the roll log: every seat's rolls placed on their exact odds, for
a play session or the whole campaign, with a small chart of the percentiles.

A view only: the report is [luck_report][companion.luck.luck_report] over the campaign's
log as this seat's session gives it; the report itself reads only what every player may
see (a hidden roll counts from its reveal), so it shows no seat anything the log does not.
It is worked out when asked (the **Luck** button, or picking a session), not on every roll:
a long campaign's report may take a second.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.luck import NOT_PLACED, LuckReport, luck_report, percentile_svg, play_sessions
from companion.table.session import Session
from companion.widgets.base import ErrorLine, button, row, safe
from companion.widgets.markup import Markup, el, frag

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["LuckPanel"]

#: The picker's value for the whole campaign.
WHOLE = 0


class LuckPanel(widgets.VBox):
    """The luck report of ``campaign`` (``.tc-luck-panel``): a session picker
    (``.tc-luck-session``: a session, or the whole campaign), the **Luck** button
    (``.tc-btn-luck``) and the report (``.tc-luck-report``)."""

    def __init__(self, session: Session, *, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error if error is not None else ErrorLine()
        self.pick = widgets.Dropdown(options=[("Whole campaign", WHOLE)], value=WHOLE,
                                     description="Luck in", style={"description_width":
                                                                   "initial"})
        self.pick.add_class("tc-luck-session")
        self.show_button = button("Luck", self.show, error=self.error, name="luck",
                                  tooltip="Each roll placed on its exact odds")
        self.report = widgets.HTML()
        self.report.add_class("tc-luck-report")
        self.pick.observe(safe(self.error)(lambda _c: self.show() if self.report.value
                                           else None), names="value")
        self.children = [row(self.pick, self.show_button), self.report,
                         *([self.error] if error is None else [])]
        self.add_class("tc-luck-panel")

    def show(self) -> LuckReport:
        """Work out the report for the picked span and show it."""
        events = [e.to_dict() for e in self.session.log()]
        sessions = sorted(set(play_sessions(events).values()))
        options = [("Whole campaign", WHOLE)] + [(f"Session {n}", n) for n in sessions]
        if list(self.pick.options) != options:
            keep = self.pick.value if self.pick.value in [v for _, v in options] else WHOLE
            with self.pick.hold_trait_notifications():
                self.pick.options = options
                self.pick.value = keep
        picked = int(self.pick.value or WHOLE)
        report = luck_report(events, self.session.name, None if picked == WHOLE else picked)
        self.report.value = report_html(report)
        return report


def report_html(report: LuckReport) -> Markup:
    """The report as the panel shows it: a line and a chart per seat and kind of dice."""
    items = []
    for who, per_session, whole in report.seats:
        spans = [whole] if report.session is None and whole is not None else list(per_session)
        for luck in spans:
            span = ("over the campaign" if luck.session is None
                    else f"in session {luck.session}")
            for summary, own in ((luck.dice, False), (luck.own, True)):
                if summary is None:
                    continue
                line = summary.line(who, span, own=own)
                # SVG companion.luck draws (its title escaped there): markup as it comes.
                chart = Markup(percentile_svg([r.percentile for r in summary.rolls],
                                              title=f"{who}: percentile of each roll"))
                items.append(el("li", line, el("br"), chart, class_="tc-luck-seat",
                                data_who=who))
            if luck.not_placed:
                parts = ", ".join(f"{n} {NOT_PLACED.get(k, k)}"
                                  for k, n in luck.not_placed.items())
                items.append(el("li", f"{who}, not placed {span}: {parts}",
                                class_="tc-luck-not-placed"))
    if not items:
        return el("div", "No roll to place yet.", class_="tc-roll-note")
    return frag(el("ul", items, class_="tc-luck"), el(
        "div", "Each roll's percentile is the share of rolls of its expression that come out "
        "lower (ties split); higher is luckier. Hidden rolls count once revealed; dice "
        "entered by hand are reported apart.", class_="tc-roll-note"))
