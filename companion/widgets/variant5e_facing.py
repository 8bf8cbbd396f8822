"""Facing and flanking: arcs, shields, rear advantage, turning, flanking with sizes.

``FacingApp`` places a defender and two attackers (an attacker and an ally) on the grid by
their north-west square, size and facing, and says, from
[facing_and_flanking][companion.rulesets.variant5e.facing_and_flanking]: which arc each
attacker is in, whether the attacker can target the defender and has rear advantage,
whether the defender's shield counts, whether the two flank it (sight and incapacitation
included) and what flanking gives (advantage, or the +2 reading). A
[FacingTracker][companion.rulesets.variant5e.facing_and_flanking.FacingTracker] keeps the
defender's turning through a round.

Usage in a notebook::

    from companion.widgets.variant5e_facing import FacingApp
    FacingApp()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.variant5e.contests import Size
from companion.rulesets.variant5e.facing_and_flanking import (
    FACINGS,
    Creature,
    FacingTracker,
    arc_of_attacker,
    attacker_has_rear_advantage,
    can_target,
    flanking_benefit,
    is_flanked,
    shield_applies,
)
from companion.widgets.base import (
    ErrorLine,
    app_box,
    bind,
    button,
    int_box,
    log_html,
    one_line,
    row,
)
from companion.widgets.markup import el, frag
from companion.widgets.seat_controls import act, mover

__all__ = ["FacingApp"]

_SIZES = [s.name.lower() for s in Size]


def _pick(options: Sequence[str] | Sequence[tuple[str, str]], value: str, label: str, name: str,
          width: str = "190px") -> widgets.Dropdown:
    box = widgets.Dropdown(options=options, value=value, description=label,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width=width, max_width="100%"))
    box.add_class(f"tc-pick-{name}")
    return box


def _tick(label: str, name: str, value: bool = False) -> widgets.Checkbox:
    box = widgets.Checkbox(value=value, description=label, indent=False)
    box.add_class(f"tc-check-{name}")
    return box


class _CreatureBoxes:
    def __init__(self, title: str, name: str, x: int, y: int, facing: str) -> None:
        self.title = title
        self.x = int_box("x", x, f"{name}-x", -50, 50, width="110px")
        self.y = int_box("y", y, f"{name}-y", -50, 50, width="110px")
        self.size = _pick(_SIZES, "medium", "Size", f"{name}-size")
        self.facing = _pick(list(FACINGS), facing, "Faces", f"{name}-facing")
        self.sees = _tick("sees", f"{name}-sees", True)
        self.out = _tick("incapacitated", f"{name}-out")
        self.row = row(widgets.HTML(el("b", title)), self.x, self.y, self.size,
                       self.facing, self.sees, self.out)
        self.controls = (self.x, self.y, self.size, self.facing, self.sees, self.out)

    def creature(self, team: str) -> Creature:
        return Creature(self.title, self.x.read(), self.y.read(), Size.parse(self.size.value),
                        team, cast(Any, self.facing.value), bool(self.sees.value),
                        bool(self.out.value))


class FacingApp(widgets.VBox):
    """Arcs, targeting, shields and flanking for a defender and two attackers.

    ``tracker`` keeps the defender's facing and turning (the campaign passes its member's
    own, "Facing: NAME"; ``defender`` names it). The defender faces where its tracker says:
    it turns with the tracker's moves, so its facing is stored with them.
    """

    def __init__(self, tracker: FacingTracker | None = None, *, defender: str = "") -> None:
        super().__init__()
        self.add_class("tc-facing-app")
        self.tracker = tracker if tracker is not None else FacingTracker()
        self.error = e = ErrorLine()
        self.defender = _CreatureBoxes(defender or "Defender", "defender", 2, 2,
                                       self.tracker.facing)
        self.defender.facing.disabled = True  # follows the tracker (turn it below)
        self.attacker = _CreatureBoxes("Attacker", "attacker", 2, 1, "south")
        self.ally = _CreatureBoxes("Ally", "ally", 2, 3, "north")
        self.shield = _pick(["none", "left", "right"], "left", "Shield arm", "shield")
        self.benefit = _pick([("advantage", "advantage"), ("+2 to attack rolls", "plus_two")],
                             "advantage", "Flanking gives", "benefit", width="290px")
        self.report = widgets.HTML()
        t = self.tracker
        self.turn_to = _pick(list(FACINGS), "east", "Turn to", "turn-to")
        self.toward = widgets.Text(tooltip="Toward whom", value="", placeholder="toward whom",
                                   layout=widgets.Layout(width="160px"))

        def b(label: str, action: Callable[[], Any], name: str) -> widgets.Button:
            return button(label, action, error=e, name=name)

        self.buttons = {
            "end-move": b("End move facing", lambda: act(t, "end_move", self.turn_to.value),
                          "end-move"),
            "react": b("Turn (reaction)", lambda: act(t, "turn_as_reaction",
                self.turn_to.value, self.toward.value), "react"),
            "keep": b("Keep turning", lambda: act(t, "keep_turning", self.turn_to.value), "keep"),
            "oa": b("Opportunity attack", mover(t, "opportunity_attack_while_tracking"), "oa"),
            "start": b("Start turn", mover(t, "start_turn"), "start"),
        }
        self.status = widgets.HTML()
        self.history = widgets.HTML()
        bt = self.buttons
        app_box(
            widgets.HTML(frag(el("b", "Facing and flanking"), " — x grows east, y grows "
                              "south; a creature's square is its north-west corner")),
            self.defender.row, self.attacker.row, self.ally.row,
            row(self.shield, self.benefit),
            self.report,
            widgets.HTML(el("b", f"{defender + '’s' if defender else 'The defender’s'}"
                                 " turning")),
            self.status,
            row(self.turn_to, self.toward, bt["end-move"], bt["react"]),
            row(bt["keep"], bt["oa"], bt["start"]),
            e,
            self.history,
            box=self,
        )
        for part in (self.defender, self.attacker, self.ally):
            for control in part.controls:
                control.observe(lambda _ch: self.render_report(), names="value")
        for control in (self.shield, self.benefit):
            control.observe(lambda _ch: self.render_report(), names="value")
        bind(self.tracker, self.render, error=e)
        self.render_report()

    def render_report(self) -> None:
        try:
            defender = self.defender.creature("monsters")
            attacker = self.attacker.creature("party")
            ally = self.ally.creature("party")
            arc = arc_of_attacker(defender, attacker)
            ally_arc = arc_of_attacker(defender, ally)
            lines = [f"the attacker is in the defender's {arc} arc; the ally in its "
                     f"{ally_arc} arc",
                     "the attacker can target the defender" if can_target(attacker, defender)
                     else "the defender is in the attacker's rear arc: it cannot target it"]
            if attacker_has_rear_advantage(defender, attacker):
                lines.append("attacking from the rear arc: advantage")
            if self.shield.value != "none":
                arm = cast(Literal["left", "right"], self.shield.value)
                lines.append("the shield counts" if shield_applies(defender, attacker, arm)
                             else "the shield does not count against this attacker")
            flanked = is_flanked([attacker, ally], defender, by=attacker.name)
            benefit = flanking_benefit(cast(Any, self.benefit.value))
            lines.append(f"flanked: each flanker gains {benefit}" if flanked
                         else "not flanked")
        except CompanionError as exc:
            self.report.value = el("div", el("i", one_line(exc)), class_="tc-facing-report")
            return
        self.report.value = el("ul", (el("li", x) for x in lines), class_="tc-facing-report",
                               data_arc=arc, data_flanked=str(flanked).lower())

    def render(self) -> None:
        t = self.tracker
        if self.defender.facing.value != t.facing:
            self.defender.facing.value = t.facing  # the report follows (it observes)
        parts = [f"faces {t.facing}", "reaction spent" if t.reaction_used else "reaction ready"]
        if t.reaction_used:
            parts.append(f"{t.turns_left} more turns")
        if t.tracking:
            parts.append(f"tracking {t.tracking}")
        self.status.value = el("div", " · ".join(parts), class_="tc-facing")
        self.history.value = log_html(t.log)
