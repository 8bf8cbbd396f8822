"""Roll modes and your own dice for any app: a panel beside a roll, and the campaign's roll log.

[RollModePanel][companion.widgets.rolls.RollModePanel] sits beside an app's roll. It holds

- a **mode** picker (public, GM only, blind, self; see [companion.fairplay][]), offered per
  role: the GM picks public or GM only (the GM sees every roll, so blind and self would be
  the same as GM only); a player picks public, blind (the GM sees it, not you) or self (you
  and the GM); a person with no name picks public or blind (a self roll under no name
  would be seen by the GM only). Without a campaign on the page the picker is disabled
  with a note: a roll then stays on this screen, so there is nobody to hide it from;
- an **I rolled it myself** switch: one checked number box per die (from
  [dice_slots][companion.dice.physical.dice_slots]) or one total box (for an expression
  whose dice cannot be entered one by one, for more than
  [MAX_DIE_BOXES][companion.widgets.rolls.MAX_DIE_BOXES] dice, or when the player picks
  "the total"). An impossible entry is refused under its box with the line of
  [OwnDiceError][companion.dice.physical.OwnDiceError];
- the exact **odds** of the expression, shown before the roll (unless the app shows them
  itself).

[RollModePanel.perform][companion.widgets.rolls.RollModePanel.perform] makes the roll for
the app. With a campaign it goes to the campaign's roll log
([roll_entry][companion.store.campaign.Campaign.roll_entry]) and the outcome carries the
roll only when this viewer may see it
([shown_to][companion.fairplay.LoggedRoll.shown_to]); otherwise the panel says
"hidden roll committed" and the commitment's first digits, and nothing of the roll reaches
the page. Without a campaign it takes the same path through the panel's unsaved session
([Session.unsaved][companion.table.session.Session.unsaved]): public, logged in a log kept
nowhere.

[RollLogPanel][companion.widgets.rolls.RollLogPanel] shows the campaign's rolls as this
viewer may see them ([visible_to][companion.store.campaign.Campaign.visible_to]): who
rolled what, when (in the viewer's own clock and zone), with which seed once revealed; a
Reveal button for the hidden rolls this viewer may reveal and a Check button that runs
[verify_entry][companion.fairplay.verify_entry] on a revealed roll. It re-renders when the
campaign changes (another screen's roll arrives through the page's live sync). Under it,
the sitting of provably fair seeds, this seat's client seed and the GM's close
([SittingPanel][companion.widgets.sitting.SittingPanel]), and the luck report
([LuckPanel][companion.widgets.luck.LuckPanel]).

- Interpretation: while the own-dice switch is on, the app's seed is not used (real dice
  have none); dice that were rerolled or exploded are entered as "the total".

[RollControls][companion.widgets.rolls.RollControls] gives the same to **every roll an app
makes for a rule** (a check, a save, a deal), not only to a dice expression: one compact
row (the mode picker and the own-dice switch, one box for the faces) placed beside the
app's buttons. Every roll is a named act of plain data, never a function of the app:
[run_act][companion.widgets.rolls.RollControls.run_act] (a tracker's move, by name, with
JSON arguments), [run_rule][companion.widgets.rolls.RollControls.run_rule] (a declared
rule that moves no tracker) or [run_table][companion.widgets.rolls.RollControls.run_table]
(a declared table move that moves several). The session rolls it with its dice (a fresh
seed, or the faces entered: [EnteredDice][companion.dice.physical.EnteredDice]), logs it
in the campaign's roll log in the mode picked and hands back a
[RuleRoll][companion.widgets.rolls.RuleRoll] holding the result only when this viewer may
see it.

- Interpretation: faces entered for a rule roll are all typed in one box, in the order the
  rule rolls them (``14``, or ``3 5 2``); a roll that needs more faces, or gets more than
  it uses, is refused under the box and nothing is logged (a move it made is undone).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import ipywidgets as widgets

from companion import dice, fairplay
from companion.dice import physical
from companion.errors import CompanionError, OddsTooCostlyError
from companion.state import Tracker, is_move
from companion.table import session as session_rolls
from companion.table.acts import Act, Refused, RollSpec
from companion.table.session import Session
from companion.widgets.base import (
    LOCAL_TIME_SCRIPT,
    CheckedBox,
    ErrorLine,
    InputError,
    NumberBox,
    button,
    column,
    draw_seed,
    int_box,
    local_time_html,
    one_line,
    row,
    safe,
)
from companion.widgets.markup import Markup, details_html, el, frag
from companion.widgets.sitting import SittingPanel

if TYPE_CHECKING:
    from companion.rule_rolls import RuleCall
    from companion.table.acts import Accepted, Outcome
    from companion.table.session import Session

__all__ = ["LOG_ROWS", "MAX_DIE_BOXES", "FacesBox", "RollControls", "RollLogPanel",
           "RollModePanel", "RollOutcome", "RuleRoll", "TableAnswers", "TableRoll",
           "TableRollPanel", "act_of", "faces_hint", "hidden_line", "modes_for", "seat_html",
           "short_code", "waiting"]

T = TypeVar("T")

#: Most dice entered one box each; a bigger pool is entered as its total.
MAX_DIE_BOXES = 20

#: Newest roll-log rows a [RollLogPanel][companion.widgets.rolls.RollLogPanel] shows.
LOG_ROWS = 30

#: Most hidden or revealed rolls offered in the Reveal and Check pickers (newest first).
PICK_ROWS = 50

#: A total typed by hand stays within this many digits.
TOTAL_BOUND = 10**12

_MODE_LABELS = {"public": "Public", "gm": "GM only", "blind": "Blind", "self": "Self"}

_MODE_TIPS = {
    "public": "everyone sees the roll",
    "gm": "only the GM sees the roll",
    "blind": "the GM sees the roll, you do not",
    "self": "you and the GM see the roll",
}

ROLLS_CSS = """
.tc-app .tc-roll-note { font-size: 16px; color: var(--tc-muted); }
.tc-app .tc-hidden-roll { font-size: 18px; padding: 6px 0; }
.tc-app .tc-roll-log ol { padding-left: 1.4em; margin: 4px 0; }
.tc-app .tc-roll-log li { font-size: 15px; margin: 2px 0; overflow-wrap: anywhere; }
.tc-app .tc-check-ok { color: var(--tc-ok); font-weight: 700; }
.tc-app .tc-roll-mode, .tc-app .tc-own-kind { flex-wrap: wrap; max-width: 100%; }
.tc-app .tc-roll-log-panel .widget-dropdown { max-width: 100%; }
"""


def unsaved_session_for(trackers: Sequence[Tracker], owner: object) -> Session:
    """The unsaved session an app opened without a campaign acts through: the one
    ``trackers`` are already kept in (an app's trackers share one), else ``owner``'s own
    (made on its first roll); every tracker not kept yet joins it, as itself."""
    kept = {id(found): found for found in map(Session.holding, trackers)
            if found is not None}
    if len(kept) > 1:
        raise CompanionError("these trackers are kept in different campaigns: one roll "
                             "cannot move them together")
    if kept:
        session = next(iter(kept.values()))
    else:
        session = owner.__dict__.get("_unsaved_session") or Session.unsaved()
    owner.__dict__["_unsaved_session"] = session
    for tracker in trackers:
        if tracker.recorder is None:
            session.adopt(tracker)
    return session


def modes_for(role: str, who: str = "") -> list[str]:
    """The modes offered to ``role`` (see the module's docstring)."""
    if role == "gm":
        return ["public", "gm"]
    if not who:
        return ["public", "blind"]
    return ["public", "blind", "self"]


def seat_html(campaign: str, who: str, role: str, *, where: bool = True) -> Markup:
    """Whose seat a roll is made from and what it may do, said before any tap: "Campaign
    Tuesday · Ash (player)" (``where``: the campaign and person too; an app opened in
    place has them in its heading already) and the modes this seat rolls in, or, for a
    page with no seat, that it only watches and how to join (``.tc-join``).

    >>> "watching" in seat_html("Tuesday", "", "spectator")
    True
    """
    if role in ("gm", "player"):
        named = [f"{'GM only' if m == 'gm' else _MODE_LABELS[m].lower()} ({_MODE_TIPS[m]})"
                 for m in modes_for(role, who)[1:]]
        said = ", ".join(["in public", *named[:-1]]) + f" or {named[-1]}"
        may = f"You roll {said}" + (", and reveal hidden rolls." if role == "gm" else ".")
        may_html = el("div", may, class_="tc-may")
    else:
        from companion.widgets.table.binding import join_text

        may_html = el("div", join_text(), class_="tc-join", role="note")
    if not where:
        return may_html
    person = f" · {who}" if who else ""
    shown_role = {"gm": "GM", "player": "player"}.get(role, "watching")
    return frag(el("div", "Campaign ", el("b", campaign), person, f" ({shown_role})",
                   class_="tc-where", data_campaign=campaign), may_html)


def short_code(commitment: str | None) -> str:
    """A commitment as a player reads it aloud: its first 8 digits, as two groups.

    >>> short_code("9ba4b3bc3cc1e2d0")
    '9BA4 B3BC'
    """
    digits = (commitment or "").upper()[:8]
    return f"{digits[:4]} {digits[4:]}".strip()


#: What a phone app shows for a roll it sent (issue 44): the table rolls it (its provably
#: fair dice), and the sheet changes when its answer comes.
WAITING_LINE = ("Sent to the table: its dice are rolled there, and this sheet shows the "
                "result when the table answers.")


def hidden_line(commitment: str | None, mode: str, entry: int | None) -> Markup:
    """The line an app shows instead of a roll this viewer may not see: a short check code
    (the full commitment in its tooltip) and where to check it once revealed; for a roll
    not yet judged (no entry, no commitment: a phone's act on its way to the table),
    [WAITING_LINE][companion.widgets.rolls.WAITING_LINE]."""
    if commitment is None and entry is None:
        return el("div", WAITING_LINE, class_="tc-hidden-roll tc-waiting")
    return el("div", f"Hidden roll committed ({fairplay.mode_name(mode)}, roll log entry "
              f"{entry}): check code ", el("code", short_code(commitment),
                                           title=commitment or ""),
              ". Once it is revealed, Check in the roll log shows it was not changed.",
              class_="tc-hidden-roll")


@dataclass(frozen=True)
class RollOutcome:
    """A roll made through a [RollModePanel][companion.widgets.rolls.RollModePanel].

    ``roll`` is the engine's ``Roll`` only when this viewer may see it (``None`` for a
    hidden roll they may not); ``seed`` likewise (``None`` for real dice). ``entry`` and
    ``commitment`` are the roll log's (without a campaign, the unsaved session's; no
    commitment for a public roll)."""

    mode: str
    roll: Any
    seed: int | None
    physical: bool
    entry: int | None = None
    commitment: str | None = None

    @property
    def shown(self) -> bool:
        return self.roll is not None

    @property
    def sent(self) -> bool:
        """Not judged yet: a phone's roll on its way to the table (no entry, no
        commitment); the table's answer tells its result
        ([Session.on_act][companion.table.session.Session.on_act])."""
        return self.roll is None and self.entry is None and self.commitment is None

    def hidden_html(self) -> str:
        """The line an app shows instead of a hidden roll (or one not judged yet:
        [WAITING_LINE][companion.widgets.rolls.WAITING_LINE])."""
        return hidden_line(self.commitment, self.mode, self.entry)


class RollModePanel(widgets.VBox):
    """Mode picker, own dice and odds for one app's roll (a VBox, placed beside the roll).

    ``campaign``, ``who``, ``role``: the page's campaign and viewer (``None``: the panel's
    own unsaved session, no roll log shown);
    ``seed_source`` draws a seed when the app gives none; ``show_odds`` shows the exact odds
    of the expression (off when the app shows them itself); ``show_status`` shows the
    hidden-roll line in the panel (off when the app shows it in its result); ``error`` is
    the app's error line (the panel's own otherwise).
    """

    def __init__(self, expr: str = "1d20", *, session: Session | None = None, who: str = "",
                 role: str = "", seed_source: Callable[[], int] = draw_seed,
                 show_odds: bool = True, show_status: bool = True,
                 error: ErrorLine | None = None) -> None:
        super().__init__()
        self._show_status = show_status
        self.session = session
        self.who = who
        self.role = role
        self._seed_source = seed_source
        self._show_odds = show_odds
        self.error = error if error is not None else ErrorLine()
        self.expr = ""
        self.last: RollOutcome | None = None
        modes = modes_for(role, who) if session is not None else ["public"]
        self.mode = widgets.ToggleButtons(
            options=[(_MODE_LABELS[m], m) for m in modes], value="public",
            tooltips=[_MODE_TIPS[m] for m in modes], style={"button_width": "auto"})
        self.mode.add_class("tc-roll-mode")
        self.mode_note = widgets.HTML()
        self.mode.observe(lambda _c: self._on_mode(), names="value")
        if session is None:
            self.mode.disabled = True
            self.mode_note.value = el("div", "Roll modes need a campaign: open this app "
                                      "from the table to roll hidden.", class_="tc-roll-note")
        self.own = widgets.Checkbox(value=False, description="I rolled it myself",
                                    indent=False)
        self.own.add_class("tc-own-dice")
        self.entry_kind = widgets.ToggleButtons(
            options=[("Each die", "dice"), ("The total", "total")], value="dice",
            style={"button_width": "auto"})
        self.entry_kind.add_class("tc-own-kind")
        self.die_boxes: list[NumberBox] = []
        self.total_box = int_box("Total", 0, "own-total", -TOTAL_BOUND, TOTAL_BOUND)
        self.total_box.text = ""
        self.own_note = widgets.HTML()
        self.own_error = ErrorLine()
        self.own_error.add_class("tc-own-error")
        self.own_area = column()
        self.odds = widgets.HTML()
        self.status = widgets.HTML()
        self._built_for: str | None = None
        self._slots_reason = ""
        self.own.observe(lambda _c: self._on_own(), names="value")
        self.entry_kind.observe(lambda _c: self._layout(), names="value")
        self.children = [
            widgets.HTML(el("style", Markup(ROLLS_CSS)), layout=widgets.Layout(display="none")),
            row(widgets.HTML("Mode"), self.mode), self.mode_note,
            self.own, self.own_area, self.odds, self.status]
        self.add_class("tc-roll-panel")
        self.set_expr(expr)

    def _on_mode(self) -> None:
        self.mode_note.value = (el("div", f"{fairplay.mode_name(m)}: {_MODE_TIPS[m]}.",
                                   class_="tc-roll-note")
                                if (m := str(self.mode.value)) != "public" else "")

    # -- the expression ----------------------------------------------------------------
    def set_expr(self, expr: str) -> None:
        """Take ``expr`` as the roll's expression: its odds now, its own-dice boxes when the
        switch is on (a bad expression: no boxes; the app's roll reports it)."""
        expr = expr.strip()
        if expr == self.expr:
            return
        self.expr = expr
        self._built_for = None
        if self.own.value:
            self._build()
        if self._show_odds:
            self.odds.value = _odds_html(expr)

    def _build(self) -> None:
        """The own-dice boxes for the expression (once per expression)."""
        if self._built_for == self.expr:
            return
        self._built_for = self.expr
        self.die_boxes = []
        self._slots_reason = ""
        try:
            if physical.takes_dice(self.expr):
                slots = physical.dice_slots(self.expr)
                if len(slots) > MAX_DIE_BOXES:
                    self._slots_reason = (f"{len(slots):,} dice: enter their total "
                                          f"(one box each up to {MAX_DIE_BOXES})")
                else:
                    self.die_boxes = [self._die_box(i, sides) for i, sides in
                                      enumerate(slots, start=1)]
            else:
                self._slots_reason = ("this expression rolls its number of dice or sides: "
                                      "enter its total")
        except CompanionError as exc:
            self._slots_reason = one_line(exc)
        self._layout()

    def _die_box(self, i: int, sides: physical.Sides) -> NumberBox:
        box = int_box(f"d{sides} #{i}", 0, f"own-die-{i}", -999, 999, width="110px")
        box.text = ""
        return box

    def _on_own(self) -> None:
        if self.own.value:
            self._build()
        self._layout()

    def _layout(self) -> None:
        if not self.own.value:
            self.own_area.children = []
            return
        parts: list[widgets.Widget] = []
        by_dice = bool(self.die_boxes)
        if by_dice:
            parts.append(self.entry_kind)
            by_dice = self.entry_kind.value == "dice"
        if by_dice:
            parts.append(row(*self.die_boxes))
            self.own_note.value = el("div", "Each die as rolled, in the order written; "
                                     "rerolled or exploded dice: enter the total.",
                                     class_="tc-roll-note")
        else:
            parts.append(self.total_box)
            reason = f" ({self._slots_reason})" if self._slots_reason else ""
            self.own_note.value = el("div", f"The total you rolled{reason}.",
                                     class_="tc-roll-note")
        self.own_area.children = [*parts, self.own_note, self.own_error]

    # -- rolling -----------------------------------------------------------------------
    def read_own(self) -> tuple[list[int] | None, int | None]:
        """The real dice (or total) entered; a box that is empty or not a number raises its
        refusal."""
        self._build()
        if self.die_boxes and self.entry_kind.value == "dice":
            return [box.read() for box in self.die_boxes], None
        return None, self.total_box.read()

    def perform(self, expr: str | None = None, seed: int | None = None) -> RollOutcome:
        """Roll ``expr`` (default: the panel's) in the chosen mode, with the real dice if the
        switch is on; log it in the campaign if there is one. Shows the hidden-roll line in
        ``status`` when this viewer may not see the roll.

        ``seed``: the seed the player chose (``None``: one is drawn). A roll its roller may
        not see (a player's blind or GM-only roll) refuses a chosen seed: it would tell
        them the roll."""
        if expr is not None:
            self.set_expr(expr)
        expr = self.expr
        if not expr:
            raise CompanionError("expression: type a dice expression, e.g. 2d6+1")
        self.own_error.clear()
        self.status.value = ""
        mode = str(self.mode.value)
        faces: list[int] | None = None
        total: int | None = None
        if self.own.value:
            faces, total = self.read_own()
            seed = None
        own = bool(self.own.value)
        chosen = seed is not None and not own
        try:
            outcome = self._roll(expr, mode, seed, faces, total, chosen)
        except physical.OwnDiceError as exc:
            self._refuse(exc, faces is not None)
        self.last = outcome
        if not outcome.shown and self._show_status:
            self.status.value = outcome.hidden_html()
        return outcome

    def _roll(self, expr: str, mode: str, seed: int | None, faces: list[int] | None,
              total: int | None, chosen: bool = False) -> RollOutcome:
        own = faces is not None or total is not None
        # The table session rolls: it draws the seed (from this page's seed source), checks
        # the seat, logs the roll and hands back only what this seat may see. Without a
        # campaign it is this panel's unsaved session (the same path; nothing kept).
        session = (self.session if self.session is not None
                   else unsaved_session_for((), self))
        logged = session.roll(
            expr, mode=mode, dice=faces, total=total, chosen_seed=seed if chosen else None,
            seeds=self._seed_source)
        if logged.roll is not None:
            return RollOutcome(logged.mode, logged.roll, logged.roll.seed, own, logged.entry,
                               logged.commitment)
        # Entry 0: no entry yet (a phone's roll, sent to the table that rolls it).
        return RollOutcome(logged.mode, None, None, own, logged.entry or None,
                           logged.commitment)

    def _refuse(self, exc: physical.OwnDiceError, by_dice: bool) -> NoReturn:
        """Show an impossible entry under its box and raise it as that box's refusal."""
        line = one_line(exc)
        box: NumberBox | None = self.total_box
        if by_dice:
            match = re.match(r"die (\d+) entered", line)
            n = int(match.group(1)) if match else 0
            box = self.die_boxes[n - 1] if 0 < n <= len(self.die_boxes) else None
        if box is not None:
            box.refusal.show(line)
            raise InputError(line, box) from None
        self.own_error.show(line)
        raise InputError(line) from None


def _odds_html(expr: str) -> Markup:
    if not expr:
        return Markup()
    try:
        dist = dice.odds(expr)
    except OddsTooCostlyError:
        return el("div", "Exact odds of this expression would take too long to work out; "
                  "rolling works as usual.", class_="tc-roll-note")
    except CompanionError:
        return Markup()
    return el("div", "Exact odds of ", el("b", expr),
              f": {dist.min} to {dist.max}, average {float(dist.mean):.2f}",
              class_="tc-roll-note")


class RollLogPanel(widgets.VBox):
    """The campaign's roll log as ``who`` (``role``) may see it, with Reveal and Check.

    Re-renders on every change of the campaign (its observers: a roll here, or another
    screen's applied by the page's live sync).
    """

    def __init__(self, session: Session, *, who: str = "", role: str = "",
                 rows: int = LOG_ROWS, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.who = who
        self.role = role
        self.rows = rows
        self.error = error if error is not None else ErrorLine()
        self.list = widgets.HTML()
        self.list.add_class("tc-roll-log")
        self.reveal_pick = widgets.Dropdown(options=[], description="Hidden roll",
                                            style={"description_width": "initial"})
        self.reveal_button = button("Reveal", self.reveal, error=self.error, name="reveal")
        self.check_pick = widgets.Dropdown(options=[], description="Revealed roll",
                                           style={"description_width": "initial"})
        self.check_button = button("Check", self.check, error=self.error, name="check")
        self.check_result = widgets.HTML()
        self.check_result.add_class("tc-check-result")
        from companion.widgets.luck import LuckPanel  # the luck report (issue 32)

        self.luck = LuckPanel(session, error=self.error)
        self.sitting = SittingPanel(session, error=self.error)
        self.tables = TableRollPanel(session, who=who, role=role, error=self.error)
        self.children = [
            widgets.HTML(el("div", "Roll log", class_="tc-section")),
            self.list,
            self.tables,
            row(self.reveal_pick, self.reveal_button),
            row(self.check_pick, self.check_button),
            self.check_result,
            self.sitting,
            self.luck,
            # A shared error line is shown where its owner put it: a widget shown twice
            # would say each message twice.
            *([self.error] if error is None else []),
        ]
        self.add_class("tc-roll-log-panel")
        self._unsubscribe = session.on_change(lambda *_a: safe(self.error)(self.render)())
        self.render()

    def close(self) -> None:
        self._unsubscribe()
        super().close()

    def events(self) -> list[dict[str, Any]]:
        """The roll log (rolls and reveals) as this viewer may see it."""
        # The session filters: this page never holds another seat's hidden roll.
        return [e.to_dict() for e in
                self.session.log(kinds=("roll", "reveal"))]

    def render(self) -> None:
        events = self.events()
        rolls = [e for e in events if e["kind"] == "roll"]
        newest = events[-self.rows:][::-1]
        items = [_log_item(e) for e in newest]
        more = (el("div", f"{len(events) - len(newest):,} older entries not shown",
                   class_="tc-roll-note") if len(events) > len(newest) else None)
        self.list.value = frag(
            (el("ol", items, reversed=True), LOCAL_TIME_SCRIPT) if items else
            el("div", "No rolls yet.", class_="tc-roll-note"), more,
            chain_footer(self.session.head, self.session.chain))
        hidden = [e for e in rolls if "commitment" in e["data"]]
        can_reveal = [e for e in hidden if "revealed" not in e["data"] and self._may_reveal(e)]
        revealed = [e for e in hidden if "revealed" in e["data"]]
        self._offer(self.reveal_pick, self.reveal_button, can_reveal)
        self._offer(self.check_pick, self.check_button, revealed)
        self.sitting.render()  # the sitting's news comes with the log's events

    def _may_reveal(self, event: dict[str, Any]) -> bool:
        return self.session.may_reveal(event) is None  # the session's answer

    @staticmethod
    def _offer(pick: widgets.Dropdown, btn: widgets.Button,
               events: Sequence[dict[str, Any]]) -> None:
        options = [(f"entry {e['seq']} ({fairplay.mode_name(str(e['data'].get('mode')))}"
                    f"{', ' + e['who'] if e['who'] else ''})", int(e["seq"]))
                   for e in list(events)[::-1][:PICK_ROWS]]
        keep = pick.value if pick.value in [v for _, v in options] else None
        pick.options = options
        pick.value = keep if keep is not None else (options[0][1] if options else None)
        btn.disabled = not options

    def reveal(self) -> None:
        """Reveal the picked hidden roll."""
        entry = self.reveal_pick.value
        if entry is None:
            raise CompanionError("reveal: there is no hidden roll you may reveal")
        self.session.reveal(int(entry))
        self.render()

    def check(self) -> bool:
        """Check the picked revealed roll against its commitment; say whether it holds."""
        entry = self.check_pick.value
        if entry is None:
            raise CompanionError("check: no roll has been revealed yet")
        try:
            fairplay.verify_entry(self.events(), int(entry))
        except fairplay.FairPlayError as exc:
            self.check_result.value = el("div", f"Entry {entry} does not hold: "
                                         f"{one_line(exc)}", class_="tc-error")
            return False
        self.check_result.value = el("div", f"Entry {entry} holds: the revealed roll matches "
                                     "the commitment published before it.",
                                     class_="tc-check-ok")
        return True


class TableRollPanel(widgets.VBox):
    """Roll on a random table for the roll log: a pick of the campaign's rulesets' tables
    (an NPC's reaction, an encounter, a betrayal...), the roll's mode, and a Roll button.
    The roll goes through [Session.roll_table][companion.table.session.Session.roll_table]
    (the sitting's seed, the seat checked), so its entry records the table and ``verify``
    rolls it again; the result shows here and in the log (a hidden roll: its commitment)."""

    def __init__(self, session: Session, *, who: str = "", role: str = "",
                 error: ErrorLine | None = None) -> None:
        from companion import tables

        super().__init__()
        self.session = session
        self.error = error if error is not None else ErrorLine()
        self.shown = 0  # rolls shown here, for the result's data-n
        everything = tables.all_tables()
        mine = [t for t in everything if t.ruleset in session.rulesets] or everything
        self.pick = widgets.Dropdown(options=[(t.title, t.id) for t in mine],
                                     value=mine[0].id if mine else None,
                                     description="Table",
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(max_width="100%"))
        self.pick.add_class("tc-table-pick")
        modes = modes_for(role, who)
        self.mode = widgets.Dropdown(options=[(_MODE_LABELS[m], m) for m in modes],
                                     value="public", description="Mode",
                                     style={"description_width": "initial"},
                                     layout=widgets.Layout(width="150px", max_width="100%"))
        self.mode.add_class("tc-table-mode")
        self.roll_button = button("Roll on the table", self.roll, error=self.error,
                                  name="roll-table")
        self.roll_button.disabled = not mine
        self.result = widgets.HTML()
        self.result.add_class("tc-table-result")
        self.children = [row(self.pick, self.mode, self.roll_button), self.result]
        self.add_class("tc-table-roll")

    def roll(self) -> session_rolls.RuleRoll[Any]:
        """Roll the picked table in the picked mode; show the result (or the commitment of
        a roll this seat may not see)."""
        table_id = self.pick.value
        if not table_id:
            raise CompanionError("table: pick a table to roll on")
        made = self.session.roll_table(str(table_id), mode=str(self.mode.value))
        self.shown += 1
        if made.shown and made.text is not None:
            body = frag(f"entry {made.entry}: {self.pick.label}: ", el("b", made.text))
        else:
            body = hidden_line(made.commitment, made.mode, made.entry)
        self.result.value = el("div", body, class_="tc-table-line", data_n=self.shown)
        return made


def chain_footer(head: int, chain: str) -> Markup:
    """The roll log's footer: the campaign's chain head (issue 29), where players look, so
    a log rewritten later no longer ends where the table saw it end (see
    [companion.store.chain][])."""
    from companion.table.opening import short_hash as short

    if not head:
        return Markup()
    # A hash is for the curious (issue 31): folded under "details" like a seed.
    said = details_html(frag("Chain head: ", el("code", short(chain)), f" (event {int(head)}): "
                             "note it; a log rewritten later would not end here"),
                        "chain-head")
    return el("div", said, class_="tc-roll-note tc-chain-head")



def _log_item(event: dict[str, Any]) -> Markup:
    data = event.get("data") or {}
    kind = str(event["kind"])
    who = str(event.get("who") or "someone")
    role = " (GM)" if event.get("role") == "gm" else ""
    summary = fairplay.summary(kind, data)
    # A hidden roll's commitment (a hash) under "details" too, after the line it ends.
    said, _, rest = summary.partition(" — commitment ")
    code, _, after = rest.partition("…")
    text = frag(said + after, code and frag(" ", details_html(frag(f"commitment {code}…"),
                                                                "commitment")))
    seed = event.get("seed")
    # The seed (to replay the roll) under "details": jargon to a player reading the log.
    seed_html = frag(" · ", details_html(frag(f"seed {int(seed)}"))) if type(seed) is int else ""
    if kind == "roll" and data.get("physical") is True:
        seed_html = frag(" · real dice")
    seq = int(event["seq"])
    return el("li", f"#{seq} · ", local_time_html(str(event.get("at", ""))), " · ", el("b", who),
              f"{role} ", text, seed_html, data_entry=seq)


# -- every rule roll: RollControls ------------------------------------------------------


def faces_hint(expr: str) -> str:
    """What dice a roll of ``expr`` takes, for the faces box: ``"1d20"``,
    ``"d20, d20, then d6"`` (an expression whose dice cannot be listed: itself).

    >>> faces_hint("2d20kh1+1d6")
    'd20, d20, then d6'
    """
    try:
        slots = physical.dice_slots(expr)
    except CompanionError:
        return expr
    names = [f"d{s}" for s in slots]
    if len(names) <= 1 or len(names) > 8:
        return expr
    return f"{', '.join(names[:-1])}, then {names[-1]}"


class FacesBox(CheckedBox):
    """One box for the faces of real dice: ``14`` or ``3 5 2`` (``.tc-faces-<name>``); an
    empty box reads as no faces."""

    kind = "faces"

    def _parse(self, text: str) -> list[int]:
        if not text.strip():
            return []
        try:
            return physical.parse_faces(text)
        except physical.OwnDiceError as exc:
            # The table's words: a face is what a die shows, a number.
            raise InputError(str(exc).replace(
                "is not a face (a whole number)",
                "is not a number a die shows: type the faces rolled, e.g. 14 or 3 5 2")) from None

    def _format(self, value: Any) -> str:
        if isinstance(value, str):
            return value
        return " ".join(str(v) for v in value)

    def read(self) -> list[int]:
        return list(super().read())


@dataclass(frozen=True)
class RuleRoll(session_rolls.RuleRoll[T]):
    """A rule roll made through [RollControls][companion.widgets.rolls.RollControls]:
    the session's [RuleRoll][companion.table.session.RuleRoll] (the same fields, one
    definition) with the line an app shows in place of a hidden result."""

    def hidden_html(self) -> str:
        """The line an app shows instead of a hidden result."""
        return hidden_line(self.commitment, self.mode, self.entry)


def _rule_roll(roll: Mapping[str, Any] | None, value: Any) -> RuleRoll[Any]:
    """A rolled act's roll entry (``Accepted.roll``) and what the move gave, as the
    [RuleRoll][companion.widgets.rolls.RuleRoll] an app shows (the value only when shown)."""
    info = roll or {}
    shown = bool(info.get("shown"))
    return RuleRoll(str(info.get("mode", "public")), value if shown else None,
                    info.get("seed"), bool(info.get("physical")), info.get("entry"),
                    info.get("commitment"), info.get("text"), shown)


def waiting(out: session_rolls.RuleRoll[Any]) -> bool:
    """Whether ``out`` is a rolled act sent to the table and not judged yet (a phone's:
    no entry, no commitment, nothing shown; the table rolls it and answers later)."""
    return not out.shown and out.entry is None and out.commitment is None


class TableAnswers:
    """The rolled acts one panel sent to the table and waits for (issue 44: on a phone the
    table rolls them and answers later, through
    [Session.on_act][companion.table.session.Session.on_act]).

    ``show(out)`` is called with the table's answer read as the
    [RuleRoll][companion.widgets.rolls.RuleRoll] the act gives on a page whose session
    rolls it itself (on a phone its value is the move's result as JSON: ``None`` for a
    resent act answered from its stored events, whose ``text`` still says what it rolled);
    ``refused(reason)`` with the table's one-line refusal. A session that judges its acts
    itself (a Voila page's) never leaves one waiting, so neither is called there."""

    def __init__(self, session: Session | None, show: Callable[[RuleRoll[Any]], None],
                 refused: Callable[[str], None]) -> None:
        self._show = show
        self._refused = refused
        self._session = session
        self._waiting: list[Callable[[Act], bool]] = []
        if session is not None:
            session.on_act(self._answered)

    def wait(self, out: session_rolls.RuleRoll[Any], mine: Callable[[Act], bool]) -> bool:
        """Whether ``out`` waits for the table; if so, the answer to the next act that
        ``mine`` picks is this one's."""
        if not waiting(out):
            return False
        self._waiting.append(mine)
        return True

    def _answered(self, outcome: Outcome) -> None:
        for i, mine in enumerate(self._waiting):
            if mine(outcome.act):
                del self._waiting[i]
                if isinstance(outcome, Refused):
                    self._refused(outcome.reason)
                    return
                roll = outcome.roll if outcome.roll is not None else self._stored(outcome)
                self._show(_rule_roll(roll, outcome.value if outcome.value is not None
                                      else outcome.result))
                return


    def _stored(self, outcome: Accepted) -> dict[str, Any] | None:
        """The roll entry of an act answered from its stored events (a resend judged
        before a restart, or by another process: no roll or result kept), read off its
        roll event, stamped with the act's client and number, as this seat was sent it
        (its text only where the seat may see the roll; the welcome may have brought it
        before the answer)."""
        held = self._session.events_since(0) if self._session is not None else []
        for event in [*outcome.events, *reversed(held)]:
            data = event.get("data")
            stamp = data.get("act") if isinstance(data, dict) else None
            # A stamp also carries the act's digest (same number, other act: refused
            # before it was stored), so the client and number name it.
            if event.get("kind") == "roll" and isinstance(stamp, dict) \
                    and stamp.get("client") == outcome.act.client \
                    and stamp.get("seq") == outcome.act.seq:
                text = data.get("text")
                return {"entry": event.get("seq"), "mode": data.get("mode", "public"),
                        "commitment": data.get("commitment"),
                        "shown": isinstance(text, str),
                        "text": text if isinstance(text, str) else None}
        return None


def act_of(session: Session | None, tracker: Tracker, move: str) -> Callable[[Act], bool]:
    """Picks the act ``move`` on ``tracker`` (by its member key in ``session``)."""
    key = session.key_of(tracker) if session is not None else ""

    def mine(act: Act) -> bool:
        return act.move == move and act.tracker == key

    return mine


#: A tracker's move named for a roll: the tracker, the move's name, its JSON arguments.
NamedMove = tuple[Tracker, str, Mapping[str, Any]]


def named_move(move: object) -> tuple[Tracker, str, dict[str, Any]] | None:
    """``move`` as a named act's parts: a ``(tracker, name, args)`` triple, or a bound
    move of a tracker (``character.panic_save``: no arguments); ``None`` for anything
    else (a rule's own function)."""
    if isinstance(move, tuple) and len(move) == 3 and isinstance(move[0], Tracker) \
            and isinstance(move[1], str) and isinstance(move[2], Mapping):
        return move[0], move[1], dict(move[2])
    owner = getattr(move, "__self__", None)
    name = getattr(move, "__name__", "")
    if isinstance(owner, Tracker) and is_move(getattr(type(owner), name, None)):
        return owner, name, {}
    return None


@dataclass(frozen=True)
class TableRoll:
    """A declared table move ([companion.table_moves][]) named for a roll: its ``name``
    and JSON ``args``, where an argument that is a tracker stands for that tracker's
    member key (filled in by [run_table][companion.widgets.rolls.RollControls.run_table]
    once the session keeping it is known)."""

    name: str
    args: Mapping[str, Any]

    @property
    def trackers(self) -> list[Tracker]:
        """The trackers the arguments name."""
        return [v for v in self.args.values() if isinstance(v, Tracker)]


class RollControls(widgets.VBox):
    """Mode and own dice for the rule rolls of an app: one compact row.

    ``campaign``, ``who``, ``role``: the page's campaign and viewer (``None``: an unsaved
    session keeps the rolled trackers, the mode picker is not shown and every roll is
    public); ``seed_source`` draws a seed;
    ``hint`` says what dice the roll takes (see [faces_hint][companion.widgets.rolls.faces_hint]).
    """

    def __init__(self, *, session: Session | None = None, who: str = "", role: str = "",
                 seed_source: Callable[[], int] = draw_seed, hint: str = "1d20",
                 name: str = "roll") -> None:
        super().__init__()
        self.session = session
        self.who = who
        self.role = role
        self._seed_source = seed_source
        self.last: RuleRoll[Any] | None = None
        modes = modes_for(role, who) if session is not None else ["public"]
        self.mode = widgets.Dropdown(
            options=[(_MODE_LABELS[m], m) for m in modes], value="public",
            description="Mode", style={"description_width": "initial"},
            layout=widgets.Layout(width="150px", max_width="100%"))
        self.mode.add_class("tc-rule-mode")
        if session is None:
            self.mode.layout.display = "none"
        self.own = widgets.Checkbox(value=False, description="I rolled it myself",
                                    indent=False, layout=widgets.Layout(width="auto"))
        self.own.add_class("tc-rule-own")
        self.faces = FacesBox("Faces", "", f"{name}-faces", width="220px",
                              placeholder=hint)
        self.faces.layout.display = "none"
        self.note = widgets.HTML()
        self.note.add_class("tc-rule-note")
        self.error = ErrorLine()
        self.error.add_class("tc-rule-error")
        self.mode.observe(lambda _c: self._on_mode(), names="value")
        self.own.observe(lambda _c: self._on_own(), names="value")
        self.children = [row(self.mode, self.own), self.faces, self.note, self.error]
        if session is not None:  # the switch shows only where the seam takes own dice
            session.on_change(lambda _c: self._offer_own())
        self._offer_own()
        self.add_class("tc-roll-controls")
        self.add_class(f"tc-roll-controls-{name}")
        self.set_hint(hint)

    @property
    def mode_value(self) -> str:
        return str(self.mode.value)

    @property
    def hidden(self) -> bool:
        """Whether the mode picked hides the roll (``gm``, ``blind``, ``self``)."""
        return self.session is not None and self.mode_value in fairplay.HIDDEN_MODES

    def set_hint(self, hint: str) -> None:
        """Say what dice the next roll takes (the faces box's placeholder and label)."""
        self.faces.control.placeholder = f"e.g. {hint}"[:60]
        self.faces.description = f"Faces ({hint})"[:40]

    def _on_mode(self) -> None:
        m = self.mode_value
        self.note.value = (el("div", f"{fairplay.mode_name(m)}: {_MODE_TIPS[m]}.",
                              class_="tc-roll-note") if m != "public" else "")

    def _on_own(self) -> None:
        self.faces.layout.display = "" if self.own.value else "none"

    def _offer_own(self) -> None:
        """Offer "I rolled it myself" only when the campaign would take the entry (a
        player's own dice: when the GM trusts them, issue 28); a crafted message that
        ticks it anyway is refused at the campaign's seam."""
        refusal = self.session.may_use_own_dice() if self.session is not None else None
        self.own.layout.display = "none" if refusal else ""
        if refusal and self.own.value:
            self.own.value = False

    def run_act(self, label: str, tracker: Tracker, move: str,
                args: Mapping[str, Any] | None = None, *, seed: int | None = None,
                trackers: Sequence[Tracker] = ()) -> RuleRoll[Any]:
        """Roll ``tracker``'s ``move`` (by name, with JSON ``args``) in the mode picked, with
        the faces entered if the switch is on, as a named act
        ([Session.perform][companion.table.session.Session.perform]): the session hands
        the move its dice and logs it with the move's own line; nothing of this page is
        called back. Returns the [RuleRoll][companion.widgets.rolls.RuleRoll]; a refusal
        is raised as it was raised (an impossible entry under the faces box).
        ``seed``: a seed the player chose (``None``: one is drawn; a roll its roller may
        not see refuses it); ``trackers``: without a campaign, those the move reaches
        (they join an unsaved session first, so that real dice left over restore them)."""
        self.error.clear()
        faces = self._faces()
        session = self.session_for([tracker, *trackers])
        return self._perform(session, session.key_of(tracker), move, args, label, faces, seed)

    def run_rule(self, label: str, call: RuleCall, *, seed: int | None = None,
                 trackers: Sequence[Tracker] = ()) -> RuleRoll[Any]:
        """Roll the declared rule ``call`` (a roll that moves no tracker:
        [companion.rule_rolls][]) in the mode picked, with the faces entered if the switch
        is on, as the table's named act ``rule`` (its name, JSON arguments and lead):
        the session rolls it with its dice, logs the rule's own text and records the call
        in the entry, so that verify makes it again. ``seed``, ``trackers``: as for
        [run_act][companion.widgets.rolls.RollControls.run_act] (``trackers`` only find
        the unsaved session of a page without a campaign)."""
        self.error.clear()
        faces = self._faces()
        session = self.session_for(trackers)
        rule: dict[str, Any] = {"name": call.name, "args": dict(call.args)}
        if call.lead:
            rule["lead"] = call.lead
        return self._perform(session, "", "rule", rule, label, faces, seed)

    def run_table(self, label: str, trackers: Sequence[Tracker], name: str,
                  args: Mapping[str, Any] | None = None, *, seed: int | None = None
                  ) -> RuleRoll[Any]:
        """Roll the declared table move ``name`` ([companion.table_moves][]: one that
        moves several of ``trackers``) with JSON ``args``, in the mode picked, as the
        table's named act ``table``: every move it makes is judged for this seat and
        stored with the roll as one unit of work. An argument that is a tracker is sent
        as its member key (``{"delve": delve}``: the delve's key)."""
        self.error.clear()
        faces = self._faces()
        given = dict(args or {})
        session = self.session_for(
            [*trackers, *(v for v in given.values() if isinstance(v, Tracker))])
        named = {k: session.key_of(v) if isinstance(v, Tracker) else v
                 for k, v in given.items()}
        return self._perform(session, "", "table", {"name": name, "args": named},
                             label, faces, seed)

    def _perform(self, session: Session, tracker: str, move: str,
                 args: Mapping[str, Any] | None, label: str, faces: list[int] | None,
                 seed: int | None) -> RuleRoll[Any]:
        """Perform the rolled act (plain data) through ``session`` and read its outcome
        back as a [RuleRoll][companion.widgets.rolls.RuleRoll]."""
        act = Act(tracker, move, dict(args or {}),
                  RollSpec(self.mode_value, label,
                           tuple(faces) if faces is not None else None,
                           seed if faces is None else None))
        # The page's own seed source is asked here, before the act (nothing of the page
        # runs once the session has it); the session takes a seed it drew for want of
        # one (a DrawnSeed) as no choice at all: the sitting's seed instead.
        outcome = session.perform(act, page_seed=self._seed_source())
        if isinstance(outcome, Refused):
            if isinstance(outcome.error, physical.OwnDiceError):
                self._refuse(outcome.reason)
            raise outcome.error if outcome.error is not None else \
                CompanionError(outcome.reason)
        out: RuleRoll[Any] = _rule_roll(outcome.roll, outcome.value)
        self.last = out
        return out

    def _faces(self) -> list[int] | None:
        """The faces typed when the switch is on (``None``: the session's dice)."""
        if not self.own.value:
            return None
        faces = self.faces.read()
        if not faces:
            self._refuse("type the faces you rolled, e.g. 14 or 3 5 2")
        return faces

    def session_for(self, trackers: Sequence[Tracker] = ()) -> Session:
        """The table session this panel's rolls go through: the page's campaign's, or,
        opened without one, the unsaved session that keeps ``trackers`` (the one they
        are already kept in, else this panel's own; a tracker not kept yet joins it)."""
        if self.session is not None:
            return self.session
        return unsaved_session_for(trackers, self)

    def _refuse(self, line: str) -> NoReturn:
        """Show an impossible entry under the faces box and raise it as its refusal."""
        self.faces.refusal.show(line)
        raise InputError(line, self.faces) from None
