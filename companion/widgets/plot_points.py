"""Components for the plot-points rules: a check panel, the plot-point pool, strain & wounds.

Every component observes one
[PlotPointSession][companion.rulesets.plot_points.session.PlotPointSession] and calls its
moves; the rules (what may be spent, what a natural 1 does, how strain becomes wounds) live
in the session. [PlotPointsApp][companion.widgets.plot_points.PlotPointsApp] composes them
for a table. A number typed badly is refused under its box and nothing is rolled; a spend
the rules do not allow right now is a disabled button.

Every roll (a check, a spend's retry or reroll, a contest, the recovery checks of a long
rest) goes through [RollControls][companion.widgets.rolls.RollControls]: a mode (public,
GM only, blind, self, with a commitment in the campaign's roll log) and "I rolled it
myself" (the faces typed in one box, checked against the check's dice).

- Interpretation: a check or contest rolled in a hidden mode is rolled off the shared
  table: it is logged (as its commitment) but is not the check in play, so it turns no plot
  point over and adds no strain; the GM settles it after the reveal. Plot points are the
  table's open alternative to a quiet fudge, and a spend, a natural 1 or 20 or a loser's
  strain on the shared pool would give a hidden roll away. Spends are therefore public
  only (their buttons are disabled while a hidden mode is picked).
- Interpretation: a long rest's recovery checks may be hidden: the wounds healed show on
  the sheet (a consequence everyone sees), the rolls themselves only after the reveal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.cli import fraction_text
from companion.dice.render import percent
from companion.errors import CompanionError
from companion.fairplay import FairPlayError, mode_name
from companion.rulesets.plot_points import (
    ABILITIES,
    MAX_WOUNDS,
    STRAIN_PER_WOUND,
    PlotCheck,
    PlotPointSession,
)
from companion.rulesets.plot_points.checks import (
    MAX_ADVANTAGE,
    MAX_DIFFICULTY,
    MAX_PROFICIENCY,
    check_call,
)
from companion.rulesets.plot_points.session import SPEND_RULES
from companion.rulesets.plot_points.wounds import MAX_NAME
from companion.table.acts import Refused
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    column,
    draw_seed,
    int_box,
    log_html,
    name_box,
    roll_text_html,
    row,
    slug,
)
from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.plot_points_contest import PlotContestPanel, advantage_note
from companion.widgets.rolls import RollControls, RollLogPanel, RuleRoll, faces_hint
from companion.widgets.seat_controls import mover, seat_refusal, show_undo, undo

if TYPE_CHECKING:
    from collections.abc import Callable

    from companion.rulesets.plot_points.checks import PlotCheckResult
    from companion.rulesets.plot_points.session import CheckOutcome
    from companion.table.acts import Outcome
    from companion.table.session import Session

__all__ = ["PlotPointCheckPanel", "PlotPointLogPanel", "PlotPointPoolPanel", "PlotPointsApp",
           "StrainWoundsPanel"]

#: The spend buttons: label, session move, button name. What each does is the session's
#: own text (SPEND_RULES), said on the page too: a phone has no hover to show a tooltip.
SPENDS = (
    ("Retry (lucky)", "retry_with_lucky", "retry"),
    ("Reroll (unlucky)", "reroll_with_unlucky", "reroll"),
    ("GM reroll", "gm_reroll", "gm-reroll"),
    ("GM forces reroll", "gm_force_reroll", "gm-force"),
)


#: The check panel's rolled moves (a check, and the spends that roll it again): on a
#: phone their outcome comes with the table's answer.
CHECK_MOVES = frozenset({"roll_check", *(move for _label, move, _name in SPENDS)})


def _ability_picker(description: str, name: str) -> widgets.Dropdown:
    picker = widgets.Dropdown(options=list(ABILITIES), value=ABILITIES[len(ABILITIES) // 2],
                              description=description, layout=widgets.Layout(width="190px"))
    picker.add_class(f"tc-{name}")
    return picker


def _total_line(who: str, total: int, verdict: str, margin: int | None) -> Markup:
    """A check's line: who, the total, success or failure and the margin."""
    return el("div", el("b", who), ": ", el("span", total, class_="tc-total"), " — ",
              el("b", verdict, class_="tc-verdict"), f" (margin {margin:+d})")


def _token(kind: str, letter: str, colour: str) -> Markup:
    """One plot point as a round coloured token."""
    return el("span", letter, class_=f"tc-token tc-{kind}", title=kind,
              style="display:inline-block;min-width:28px;padding:4px;margin:2px;"
                    f"border-radius:14px;background:{colour};color:#fff;text-align:center")


class PlotPointCheckPanel(widgets.VBox):
    """Pick who rolls and the check; shows the exact chance first, then rolls.

    After a roll, the buttons spend plot points on the check in play; a spend the rules do
    not allow now is disabled (the session would refuse it with the rule's reason).
    """

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None, *,
                 table: Session | None = None, who: str = "", role: str = "",
                 seed_source: Callable[[], int] = draw_seed) -> None:
        super().__init__()
        self.session = session
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.controls = RollControls(session=table, who=who, role=role,
                                     seed_source=seed_source, name="check")
        self.who = widgets.Dropdown(description="Who", layout=widgets.Layout(width="200px"))
        self.who.add_class("tc-who")
        self.ability = _ability_picker("Ability", "ability")
        self.proficiency = int_box("Proficiency", 0, "proficiency", -MAX_PROFICIENCY,
                                   MAX_PROFICIENCY, width="160px")
        self.advantage = int_box("Net advantage (− = disadv.)", 0, "advantage", -MAX_ADVANTAGE,
                                 MAX_ADVANTAGE, width="250px")
        # A difficulty under 1 is a typo, not a check: refused under its box, not rolled.
        self.difficulty = int_box("Difficulty", 10, "difficulty", 1, MAX_DIFFICULTY)
        self.fields = (self.proficiency, self.advantage, self.difficulty)
        self.chance = widgets.HTML()
        self.chance.add_class("tc-chance")
        self.result = widgets.HTML(el("div", "No check yet.", class_="tc-result", data_n=0))
        self.rolls = 0
        self._shown_at = 0  # the log's length when the outcome shown was made (0: none)
        self.roll_button = button("Roll check", self.roll, error=self.error, style="primary",
                                  name="roll")
        self.spend_buttons = {
            move: button(label, self._spend(move), error=self.error, name=name,
                         tooltip=f"{label}: {SPEND_RULES[move]}")
            for label, move, name in SPENDS
        }
        self.spend_help = widgets.HTML(el("span", join(
            (frag(el("b", label), f": {SPEND_RULES[move]}") for label, move, _name in SPENDS),
            " · "), class_="tc-note"))
        self.spend_help.add_class("tc-spend-help")
        self.ability.observe(self._show_chance, names="value")
        for f in self.fields:
            f.observe(self._show_chance, names="value")
        self.children = [
            widgets.HTML(el("b", "Check")),
            row(self.who, self.ability),
            row(*self.fields),
            self.chance,
            self.controls,
            row(self.roll_button, *self.spend_buttons.values()),
            *own_error,
            self.result,
            self.spend_help,
        ]
        bind(session, self._sync, error=self.error)
        self.controls.mode.observe(lambda _c: self._sync(), names="value")
        self._show_chance()
        #: Checks sent to the table and not answered yet (a phone's: the table rolls).
        self._waiting = 0
        if table is not None:
            table.on_act(self._answered)

    def check(self) -> PlotCheck:
        """The check the controls describe (a bad box raises its refusal)."""
        return PlotCheck(self.ability.value, self.proficiency.read(), self.advantage.read(),
                         self.difficulty.read())

    def _sync(self) -> None:
        names = [*self.session.players, self.session.gm]
        # A player's seat rolls for their own character only.
        names = [n for n in names
                 if seat_refusal(self.session, "roll_check", {"who": n}) is None] or names
        if list(self.who.options) != names:
            current = self.who.value
            self.who.options = names
            self.who.value = current if current in names else names[0]
        if self._shown_at and len(self.session.log) < self._shown_at:
            # Undo took back the outcome shown here: say so rather than keep showing it.
            self._shown_at = 0
            self.result.value = el("div", "Undone: that check was taken back.",
                                   class_="tc-result tc-undone", data_n=self.rolls)
        allowed = set(self.session.available_spends()) if not self.controls.hidden else set()
        for move, btn in self.spend_buttons.items():
            btn.disabled = move not in allowed or seat_refusal(self.session, move, {}) is not None

    def _show_chance(self, _change: Any = None) -> None:
        if not all(f.valid for f in self.fields):
            self.chance.value = el("div", "Fix the box marked below it to see the chance.")
            return
        check = self.check()
        self.controls.set_hint(faces_hint(check.expression))
        p = check.chance()
        one, twenty = check.natural_chances()
        capped = advantage_note(check.advantage)
        self.chance.value = frag(
            el("div", f"{check.expression} vs {check.difficulty}: ",
               el("b", percent(p), class_="tc-p"), " chance of success ",
               el("span", f"({fraction_text(p)}; natural 1: {percent(one)}, "
                  f"natural 20: {percent(twenty)})", class_="tc-note")),
            capped)

    def roll(self) -> Any:
        """Roll the check in the mode picked: public, it becomes the check in play; hidden,
        it is rolled off the table (see the module's docstring). Returns the session's
        outcome (public) or the [RuleRoll][companion.widgets.rolls.RuleRoll] (hidden)."""
        who = str(self.who.value)
        check = self.check()
        label = f"{who}: check"
        controls = self.controls
        if controls.hidden:
            # Off the table it moves no tracker: rolled as the declared rule, so that
            # verify makes its result again from the log (companion.rule_rolls).
            hidden: RuleRoll[PlotCheckResult] = controls.run_rule(
                label, check_call(check, f"{who}: "))
            self._show_hidden(hidden, who)
            return hidden
        out: RuleRoll[CheckOutcome] = controls.run_act(label, self.session, "roll_check", {
            "who": who, "ability": check.ability, "proficiency": check.proficiency,
            "advantage": check.advantage, "difficulty": self.difficulty.read()})
        return self._rolled(out)

    def _rolled(self, out: RuleRoll[CheckOutcome]) -> CheckOutcome | None:
        """Show a public check's outcome; a phone's is on its way to the table (its dice
        are rolled there): said so, and shown when the answer comes (``_answered``)."""
        if out.value is None:
            self._waiting += 1
            self.result.value = el("div", out.hidden_html(), class_="tc-result tc-waiting",
                                   data_n=self.rolls)
            return None
        self._show(out.value)
        return out.value

    def _answered(self, outcome: Outcome) -> None:
        """The table's answer to an act of this seat: a check (or a spend's roll) this
        panel sent and waits for is shown, or its refusal said."""
        act = outcome.act
        if not self._waiting or act.move not in CHECK_MOVES or act.tracker != self._key():
            return
        self._waiting -= 1
        if isinstance(outcome, Refused):
            self.result.value = el("div", f"Not rolled: {outcome.reason}",
                                   class_="tc-result tc-refused", data_n=self.rolls)
            return
        # As JSON: the outcome's who, action and notes; its check result's own result
        # (a Check's) holds the total, the verdict and the margin.
        data = outcome.result
        check = data.get("result") if isinstance(data, dict) else None
        result = check.get("result") if isinstance(check, dict) else None
        if not isinstance(data, dict) or not isinstance(result, dict):
            return  # (a result this seat may not see: the log panel says what it can)
        total, margin = result.get("total"), result.get("margin")
        if type(total) is not int or type(margin) is not int:
            return
        who = str(data.get("who", ""))
        # The table's text of the dice is the check in play's (the mirror holds it now).
        current = self.session.current
        dice = current.text if current is not None and current.roller == who else ""
        notes = data.get("notes")
        self._show_parts(who, str(data.get("action") or ""), total, result.get("success") is True,
                         margin, dice, [str(n) for n in notes] if isinstance(notes, list) else [])

    def _key(self) -> str:
        """The member key this panel's acts name its tracker by."""
        try:
            return self.controls.session_for([self.session]).key_of(self.session)
        except CompanionError:
            return ""

    def _spend(self, move: str) -> Any:
        label = next(text for text, name, _ in SPENDS if name == move)

        def spend() -> Any:
            if self.controls.hidden:
                raise FairPlayError("plot points are spent in the open: pick the Public mode "
                                    "to spend one")
            current = self.session.current
            roller = current.roller if current is not None else ""
            out: RuleRoll[CheckOutcome] = self.controls.run_act(
                f"{roller}: {label}", self.session, move)
            return self._rolled(out)

        spend.__name__ = move
        return spend

    def _show_hidden(self, out: RuleRoll[PlotCheckResult], who: str) -> None:
        """A check rolled off the table: its result if this viewer may see it, else only
        the commitment."""
        self.rolls += 1
        mode = mode_name(out.mode)
        if not out.shown or out.value is None:
            self.result.value = el("div", out.hidden_html(), class_="tc-result tc-hidden",
                                   data_n=self.rolls)
            return
        result = out.value
        verdict = "success" if result.success else "failure"
        self.result.value = el(
            "div", el("div", f"Rolled {mode}, off the table (entry {out.entry})"),
            _total_line(who, result.total, verdict, result.margin),
            el("div", roll_text_html(str(result.result.roll)), class_="tc-roll-text"),
            class_=f"tc-result tc-{verdict}", data_n=self.rolls)

    def _show(self, outcome: Any) -> None:
        result = outcome.result
        self._show_parts(outcome.who, outcome.action, result.total, result.success,
                         result.margin, str(result.result.roll), list(outcome.notes))

    def _show_parts(self, who: str, action: str, total: int, success: bool, margin: int,
                    dice: str, notes: list[str]) -> None:
        """A check's outcome: the move made, who, total, verdict, the dice and the notes."""
        self.rolls += 1
        self._shown_at = len(self.session.log)
        verdict = "success" if success else "failure"
        self.result.value = el(
            "div", action and el("div", action),
            _total_line(who, total, verdict, margin),
            dice and el("div", roll_text_html(dice), class_="tc-roll-text"),
            el("ul", (el("li", n) for n in notes)),
            class_=f"tc-result tc-{verdict}", data_n=self.rolls)


class PlotPointPoolPanel(widgets.VBox):
    """The shared plot points: how many are lucky and unlucky."""

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.view = widgets.HTML()
        self.view.add_class("tc-pool")
        self.children = [widgets.HTML(el("b", "Plot points")), self.view]
        bind(session, self._render, error=error)

    def _render(self) -> None:
        s = self.session
        tokens = [_token("lucky", "L", "#2e7d32")] * s.lucky + (
            [_token("unlucky", "U", "#6a1b9a")] * s.unlucky)
        self.view.value = frag(
            el("div", tokens, data_lucky=s.lucky, data_unlucky=s.unlucky),
            el("div", el("span", s.lucky, class_="tc-lucky-count"), " lucky, ",
               el("span", s.unlucky, class_="tc-unlucky-count"),
               f" unlucky (one per player and the GM: {s.size})"))


class StrainWoundsPanel(widgets.VBox):
    """One character's strain and wounds, with the moves that change them."""

    def __init__(self, session: PlotPointSession, name: str,
                 error: ErrorLine | None = None, *,
                 controls: RollControls | None = None) -> None:
        super().__init__()
        self.session = session
        self.character_name = name
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        # The recovery checks' mode and own dice (an app shares one among its characters).
        own_controls = controls is None
        self.controls = controls if controls is not None else RollControls(
            hint="1d20 per wound", name="rest")
        self.rest_result = widgets.HTML()
        self.rest_result.add_class("tc-rest-result")
        self.view = widgets.HTML()
        self.fortitude = _ability_picker("Fortitude", "fortitude")
        self.rest_dc = int_box("Rest DC", 10, "rest-dc", 1, MAX_DIFFICULTY)
        self.rest_proficiency = int_box("Proficiency", 0, "rest-proficiency", -MAX_PROFICIENCY,
                                        MAX_PROFICIENCY)
        self.amount = int_box("Amount", 1, "amount", 1, 100)
        self.add_class("tc-character")
        self.add_class(f"tc-character-{slug(name)}")
        # What a move did, beside its buttons: "+100 strain" says the wounds it made and
        # any past the last one that were ignored, instead of only showing 16/16.
        self.did = widgets.HTML()
        self.did.add_class("tc-did")
        self.strain_button = button("+ strain", self._did(mover(session, "gain_strain")),
                                    error=self.error, name="strain")
        self.wound_button = button("+ wounds", self._did(mover(session, "gain_wounds")),
                                   error=self.error, name="wound")
        self.heal_button = button("Heal wounds", self._did(mover(session, "heal_wounds")),
                                  error=self.error, name="heal")
        self.rest_button = button("Long rest", self.long_rest, error=self.error, name="rest")
        self.children = [
            self.view,
            row(self.amount, self.strain_button, self.wound_button, self.heal_button),
            self.did,
            *([self.controls] if own_controls else []),
            row(self.fortitude, self.rest_proficiency, self.rest_dc, self.rest_button),
            *own_error,
            self.rest_result,
        ]
        bind(session, self._render, error=self.error)

    def _did(self, move: Callable[[str, int], None]) -> Callable[[], None]:
        def act() -> None:
            self.did.value = ""
            move(self.character_name, self.amount.read())
            summary = self.session.log[-1].summary
            self.did.value = el("div", summary, class_="tc-note")

        return act

    def long_rest(self) -> Any:
        """A long rest, its recovery checks rolled in the mode picked (and with the faces
        entered); returns the session's results (``None`` when this viewer may not see
        them)."""
        name = self.character_name
        dc, ability = self.rest_dc.read(), str(self.fortitude.value)
        proficiency = self.rest_proficiency.read()
        controls = self.controls

        out: RuleRoll[list[PlotCheckResult]] = controls.run_act(
            f"{name}: long rest", self.session, "long_rest", {
                "who": name, "difficulty": dc, "ability": ability,
                "proficiency": proficiency})
        self.rest_result.value = (el("div", out.text or "", class_="tc-note")
                                  if out.shown else out.hidden_html())
        return out.value

    def _render(self) -> None:
        here = self.character_name in self.session.players
        for btn in (self.strain_button, self.wound_button, self.heal_button, self.rest_button):
            btn.disabled = not here
        if not here:
            self.view.value = el("i", f"{self.character_name} has left the table.")
            return
        c = self.session.character(self.character_name)
        self.wound_button.disabled = not c.can_take_wound
        self.heal_button.disabled = c.wounds == 0
        tier = c.tier
        effect = tier.effect if tier else "No wounds."
        self.view.value = el(
            "div", el("b", c.name), " — ", el("span", c.condition, class_="tc-condition"),
            el("div", "Strain ", el("span", c.strain, class_="tc-strain"),
               f"/{STRAIN_PER_WOUND} · Wounds ", el("span", c.wounds, class_="tc-wounds"),
               f"/{MAX_WOUNDS}"),
            el("div", el("span", effect, class_="tc-note")),
            class_="tc-sheet", data_strain=c.strain, data_wounds=c.wounds)


class PlotPointLogPanel(widgets.VBox):
    """The newest moves first, with Undo, and the table's Save link and load box."""

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.undo_button = button("Undo", self.undo, error=self.error, name="undo")
        self.save_load = SaveLoad(session, "plot-points-table.json", what="plot-points table")
        self.children = [
            widgets.HTML(el("b", "Log")),
            row(self.undo_button),
            *own_error,
            self.view,
            self.save_load,
        ]
        bind(session, self._render, error=self.error)

    def undo(self) -> Any:
        return undo(self.session)

    def _render(self) -> None:
        show_undo(self.undo_button, self.session)
        self.view.value = log_html(self.session.log)


class PlotPointsApp(widgets.VBox):
    """A whole table: check panel, plot-point pool, a strain & wounds panel per player."""

    def __init__(self, players: list[str] | None = None, gm: str = "GM",
                 session: PlotPointSession | None = None, *,
                 table: Session | None = None, who: str | None = None,
                 role: str | None = None, seed_source: Callable[[], int] = draw_seed) -> None:
        super().__init__()
        self.session = session or PlotPointSession.new(players or ["Player 1", "Player 2"], gm)
        self.error = ErrorLine()
        # The page's viewer: the campaign's unless told otherwise (modes need a campaign).
        viewer = who if who is not None else (table.who if table is not None else "")
        seat = role if role is not None else (table.seat_role if table is not None else "")
        roll_args: dict[str, Any] = {"table": table, "who": viewer, "role": seat,
                                     "seed_source": seed_source}
        # Each part shows its errors beside its own buttons (a phone shows one part at a time).
        self.roller = PlotPointCheckPanel(self.session, **roll_args)
        self.recovery = RollControls(hint="1d20 per wound", name="rest", session=table,
                                     who=viewer, role=seat, seed_source=seed_source)
        # The session every part acts through: the campaign's, or opened without one an
        # unsaved session that keeps this table's tracker (one path from the first tap).
        self.table = self.recovery.session_for([self.session])
        self.pool = PlotPointPoolPanel(self.session, self.error)
        self.characters = column()
        # Not "required": an empty box is refused when Add is tapped, not before typing.
        self.new_player = name_box("New player", name="new-player", max_len=MAX_NAME,
                                   required=False, placeholder="New player's name")
        self.new_player.on_enter(self.add_player, self.error)
        self.history = PlotPointLogPanel(self.session)
        self.contest = PlotContestPanel(self.session, **roll_args)
        # The campaign's roll log as this viewer may see it (reveal, check a commitment).
        self.roll_log = (RollLogPanel(table, who=viewer, role=seat)
                         if table is not None else None)
        app_box(
            self.pool, self.roller, self.contest,
            widgets.HTML(el("b", "Strain & wounds")), self.recovery, self.characters,
            row(self.new_player, button("Add player", self.add_player, error=self.error,
                                        name="add-player")),
            self.error, self.history, *([self.roll_log] if self.roll_log else []), box=self,
        )
        self._panels: dict[str, StrainWoundsPanel] = {}
        bind(self.session, self._sync_characters, error=self.error)

    def add_player(self) -> None:
        # E.g. the name is taken: said under the box it came from, and in the app line.
        self.new_player.apply(mover(self.session, "add_player"))

    def _sync_characters(self) -> None:
        names = self.session.players
        for name in names:
            if name not in self._panels:
                self._panels[name] = StrainWoundsPanel(self.session, name,
                                                       controls=self.recovery)
        self.characters.children = [self._panels[n] for n in names]
