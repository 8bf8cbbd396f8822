"""Plot-points contests at the table: two checks against each other, exact odds, a roll.

``PlotContestPanel`` shows the exact chances that the first side wins, ties or loses
([PlotCheck.contest][companion.rulesets.plot_points.checks.PlotCheck.contest]) and rolls
the contest through the session
([PlotPointSession.contest][companion.rulesets.plot_points.session.PlotPointSession.contest]),
so natural 1s and 20s turn plot points and the loser's wounds add strain.

The roll goes through [RollControls][companion.widgets.rolls.RollControls] (mode, own
dice: both sides' faces in one box, the first side's first). A contest rolled in a hidden
mode is rolled off the shared table, like a hidden check (see
[companion.widgets.plot_points][]).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.checks import ContestResult
from companion.errors import CompanionError
from companion.fairplay import mode_name
from companion.rulesets.plot_points.checks import (
    MAX_ADVANTAGE,
    MAX_PROFICIENCY,
    PlotCheck,
    contest_call,
)
from companion.rulesets.plot_points.lookup import ABILITIES, ADVANTAGE_DICE
from companion.rulesets.plot_points.session import PlotPointSession
from companion.table.acts import Refused
from companion.widgets.base import (
    ErrorLine,
    NumberBox,
    bind,
    button,
    chance_html,
    draw_seed,
    first_bad_box,
    int_box,
    one_line,
    row,
    text_box,
)
from companion.widgets.markup import Markup, details_html, el, frag
from companion.widgets.rolls import RollControls, RuleRoll, faces_hint
from companion.widgets.seat_controls import mover

if TYPE_CHECKING:
    from companion.rulesets.plot_points.session import ContestOutcome
    from companion.table.acts import Outcome
    from companion.table.session import Session

__all__ = ["PlotContestPanel", "advantage_note"]


def _side(label: str, name: str) -> tuple[widgets.Dropdown, NumberBox, NumberBox]:
    ability = widgets.Dropdown(options=list(ABILITIES), value=ABILITIES[len(ABILITIES) // 2],
                               description=label, layout=widgets.Layout(width="190px"))
    ability.add_class(f"tc-{name}-ability")
    proficiency = int_box("Proficiency", 0, f"{name}-proficiency", -MAX_PROFICIENCY,
                          MAX_PROFICIENCY, width="160px")
    advantage = int_box("Net advantage", 0, f"{name}-advantage", -MAX_ADVANTAGE,
                        MAX_ADVANTAGE, width="160px")
    return ability, proficiency, advantage



def advantage_note(net: int) -> Markup:
    """Past the last advantage die the die stays the same: a note saying so ("" when the
    net advantage has its own die), so a net of 6 or 99 is not silently rolled as 5."""
    top = max(ADVANTAGE_DICE)
    if abs(net) <= top:
        return Markup()
    return el("div", f"Net {net:+d} rolls as {top if net > 0 else -top:+d}: "
              f"d{ADVANTAGE_DICE[top]} is the largest advantage die.",
              class_="tc-note tc-advantage-note")

class PlotContestPanel(widgets.VBox):
    """A contest between a player (or the GM) and another side."""

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None, *,
                 seed_source: Callable[[], int] = draw_seed,
                 table: Session | None = None, who: str = "", role: str = "") -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-contest")
        self.session = session
        self.seed_source = seed_source
        self.controls = RollControls(session=table, who=who, role=role,
                                     seed_source=lambda: self.seed_source(), name="contest")
        self.error = error if error is not None else ErrorLine()
        self.who = widgets.Dropdown(options=[], description="Who",
                                    layout=widgets.Layout(width="200px"))
        self.who.add_class("tc-contest-who")
        self.opponent = text_box("opponent (a player or a creature)", value="Opponent",
                                 name="opponent")
        self.mine = _side("Ability", "first")
        self.theirs = _side("Opponent", "second")
        self.odds = widgets.HTML()
        self.result = widgets.HTML()
        self.roll_button = button("Roll contest", self.roll, error=self.error, name="contest")
        self.close_button = button("Close the check in play", mover(session, "end_check"),
                                   error=self.error, name="end-check")
        self.children = (
            widgets.HTML(frag(el("b", "Contest"), " — the higher result wins")),
            row(self.who, *self.mine),
            row(self.opponent, *self.theirs),
            self.odds,
            self.controls,
            row(self.roll_button, self.close_button),
            self.result,
            *([] if error is not None else [self.error]),
        )
        for box in (*self.mine, *self.theirs):
            box.observe(lambda _ch: self.render_odds(), names="value")
        bind(session, self.sync, error=self.error)
        #: Contests sent to the table and not answered yet (a phone's: the table rolls).
        self._waiting = 0
        if table is not None:
            table.on_act(self._answered)

    def _checks(self) -> tuple[PlotCheck, PlotCheck]:
        a, ap, aa = self.mine
        b, bp, ba = self.theirs
        return (PlotCheck(str(a.value), int(ap.read()), int(aa.read())),
                PlotCheck(str(b.value), int(bp.read()), int(ba.read())))

    def sync(self) -> None:
        names = [*self.session.players, self.session.gm]
        if list(self.who.options) != names:
            keep = self.who.value if self.who.value in names else names[0]
            self.who.options = names
            self.who.value = keep
        self.close_button.disabled = self.session.current is None
        self.render_odds()

    def render_odds(self) -> None:
        bad = first_bad_box(self.mine[1], self.mine[2], self.theirs[1], self.theirs[2])
        if bad:
            self.odds.value = el("div", el("i", bad))
            self.roll_button.disabled = True
            return
        try:
            mine, theirs = self._checks()
            odds = mine.contest(theirs)
        except CompanionError as exc:
            self.odds.value = el("div", el("i", one_line(exc)))
            self.roll_button.disabled = True
            return
        self.roll_button.disabled = False
        self.controls.set_hint(f"{faces_hint(mine.expression)}; "
                               f"then {faces_hint(theirs.expression)}")
        self.odds.value = frag(
            el("div", f"{mine.expression} vs {theirs.expression}: wins ",
               chance_html(odds.win), ", tie ", chance_html(odds.tie), ", loses ",
               chance_html(odds.lose), class_="tc-contest-odds"),
            advantage_note(mine.advantage), advantage_note(theirs.advantage))

    def roll(self) -> None:
        """Roll the contest in the mode picked (hidden: off the shared table)."""
        mine, theirs = self._checks()
        who, opponent = str(self.who.value), str(self.opponent.value)
        label = f"contest {who} ({mine.expression}) vs {opponent} ({theirs.expression})"
        controls = self.controls
        if controls.hidden:
            # Off the table it moves no tracker: the declared rule, so that verify makes
            # both totals again from the log (companion.rule_rolls).
            hidden: RuleRoll[tuple[str, str, ContestResult]] = controls.run_rule(
                label, contest_call(who, mine, opponent, theirs))
            how = f"rolled {mode_name(hidden.mode)}, off the table, entry {hidden.entry}"
            self.result.value = (
                el("div", f"{hidden.text} ", el("small", f"({how})"),
                   class_="tc-contest-result tc-hidden") if hidden.shown and hidden.text
                else hidden.hidden_html())
            return
        out: RuleRoll[ContestOutcome] = controls.run_act(label, self.session, "contest", {
            "who": who, "opponent": opponent, "ability": mine.ability,
            "proficiency": mine.proficiency, "advantage": mine.advantage,
            "opponent_ability": theirs.ability, "opponent_proficiency": theirs.proficiency,
            "opponent_advantage": theirs.advantage})
        if out.value is None:
            # A phone's: the table rolls it, and its answer is shown (``_answered``).
            self._waiting += 1
            self.result.value = out.hidden_html()
            return
        how = details_html(f"seed {out.seed}") if out.seed is not None else "own dice"
        self.result.value = el("div", f"{out.value} ", el("small", "(", how, ")"),
                               class_="tc-contest-result", data_margin=out.value.margin)

    def _answered(self, outcome: Outcome) -> None:
        """The table's answer to a contest this panel sent: the contest's own line in
        the log (its events'), or the refusal."""
        if not self._waiting or outcome.act.move != "contest" or outcome.act.tracker \
                != self._key():
            return
        self._waiting -= 1
        if isinstance(outcome, Refused):
            self.result.value = el("div", f"Not rolled: {outcome.reason}",
                                   class_="tc-contest-result tc-refused")
            return
        said = next((e["data"].get("summary") for e in outcome.events
                     if e.get("move") == "contest" and isinstance(e.get("data"), dict)), None)
        data = outcome.result
        margin = data.get("margin") if isinstance(data, dict) else None
        if isinstance(said, str) and type(margin) is int:
            self.result.value = el("div", said, class_="tc-contest-result",
                                   data_margin=margin)

    def _key(self) -> str:
        """The member key this panel's acts name its tracker by."""
        try:
            return self.controls.session_for([self.session]).key_of(self.session)
        except CompanionError:
            return ""
