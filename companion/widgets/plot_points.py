"""Components for the plot-points rules: a check panel, the plot-point pool, strain & wounds.

Every component observes one
[PlotPointSession][companion.rulesets.plot_points.session.PlotPointSession] and calls its
moves; the rules (what may be spent, what a natural 1 does, how strain becomes wounds) live
in the session. [PlotPointsApp][companion.widgets.plot_points.PlotPointsApp] composes them
for a table. A number typed badly is refused under its box and nothing is rolled; a spend
the rules do not allow right now is a disabled button.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from companion.cli import fraction_text
from companion.dice.render import percent
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
)
from companion.rulesets.plot_points.session import SPEND_RULES
from companion.rulesets.plot_points.wounds import MAX_NAME
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
from companion.widgets.plot_points_contest import PlotContestPanel

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


def _ability_picker(description: str, name: str) -> widgets.Dropdown:
    picker = widgets.Dropdown(options=list(ABILITIES), value=ABILITIES[len(ABILITIES) // 2],
                              description=description, layout=widgets.Layout(width="190px"))
    picker.add_class(f"tc-{name}")
    return picker


class PlotPointCheckPanel(widgets.VBox):
    """Pick who rolls and the check; shows the exact chance first, then rolls.

    After a roll, the buttons spend plot points on the check in play; a spend the rules do
    not allow now is disabled (the session would refuse it with the rule's reason).
    """

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.who = widgets.Dropdown(description="Who", layout=widgets.Layout(width="200px"))
        self.who.add_class("tc-who")
        self.ability = _ability_picker("Ability", "ability")
        self.proficiency = int_box("Proficiency", 0, "proficiency", -MAX_PROFICIENCY,
                                   MAX_PROFICIENCY, width="160px")
        self.advantage = int_box("Net advantage (− = disadv.)", 0, "advantage", -MAX_ADVANTAGE,
                                 MAX_ADVANTAGE, width="250px")
        self.difficulty = int_box("Difficulty", 10, "difficulty", -MAX_DIFFICULTY,
                                  MAX_DIFFICULTY)
        self.fields = (self.proficiency, self.advantage, self.difficulty)
        self.chance = widgets.HTML()
        self.chance.add_class("tc-chance")
        self.result = widgets.HTML('<div class="tc-result" data-n="0">No check yet.</div>')
        self.rolls = 0
        self.roll_button = button("Roll check", self.roll, error=self.error, style="primary",
                                  name="roll")
        self.spend_buttons = {
            move: button(label, self._spend(move), error=self.error, name=name,
                         tooltip=f"{label}: {SPEND_RULES[move]}")
            for label, move, name in SPENDS
        }
        self.spend_help = widgets.HTML(
            "<span class='tc-note'>"
            + " · ".join(f"<b>{html.escape(label)}</b>: {html.escape(SPEND_RULES[move])}"
                         for label, move, _name in SPENDS) + "</span>")
        self.spend_help.add_class("tc-spend-help")
        self.ability.observe(self._show_chance, names="value")
        for f in self.fields:
            f.observe(self._show_chance, names="value")
        self.children = [
            widgets.HTML("<b>Check</b>"),
            row(self.who, self.ability),
            row(*self.fields),
            self.chance,
            row(self.roll_button, *self.spend_buttons.values()),
            *own_error,
            self.result,
            self.spend_help,
        ]
        bind(session, self._sync, error=self.error)
        self._show_chance()

    def check(self) -> PlotCheck:
        """The check the controls describe (a bad box raises its refusal)."""
        return PlotCheck(self.ability.value, self.proficiency.read(), self.advantage.read(),
                         self.difficulty.read())

    def _sync(self) -> None:
        names = [*self.session.players, self.session.gm]
        if list(self.who.options) != names:
            current = self.who.value
            self.who.options = names
            self.who.value = current if current in names else names[0]
        allowed = set(self.session.available_spends())
        for move, btn in self.spend_buttons.items():
            btn.disabled = move not in allowed

    def _show_chance(self, _change: Any = None) -> None:
        if not all(f.valid for f in self.fields):
            self.chance.value = "<div>Fix the box marked below it to see the chance.</div>"
            return
        check = self.check()
        p = check.chance()
        one, twenty = check.natural_chances()
        self.chance.value = (
            f'<div>{html.escape(check.expression)} vs {check.difficulty}: '
            f'<b class="tc-p">{percent(p)}</b> chance of success '
            f'<span class="tc-note">({fraction_text(p)}; natural 1: {percent(one)}, '
            f'natural 20: {percent(twenty)})</span></div>'
        )

    def roll(self) -> Any:
        outcome = self.session.roll_check(
            self.who.value, self.ability.value, self.proficiency.read(), self.advantage.read(),
            self.difficulty.read(), seed=draw_seed())
        self._show(outcome)
        return outcome

    def _spend(self, move: str) -> Any:
        def spend() -> Any:
            outcome = getattr(self.session, move)(seed=draw_seed())
            self._show(outcome)
            return outcome

        spend.__name__ = move
        return spend

    def _show(self, outcome: Any) -> None:
        self.rolls += 1
        result = outcome.result
        verdict = "success" if result.success else "failure"
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in outcome.notes)
        action = f"<div>{html.escape(outcome.action)}</div>" if outcome.action else ""
        self.result.value = (
            f'<div class="tc-result tc-{verdict}" data-n="{self.rolls}">{action}'
            f'<div><b>{html.escape(outcome.who)}</b>: '
            f'<span class="tc-total">{result.total}</span> — <b class="tc-verdict">'
            f'{verdict}</b> (margin {result.margin:+d})</div>'
            f'<div class="tc-roll-text">{roll_text_html(str(result.result.roll))}</div>'
            f'<ul>{notes}</ul></div>'
        )


class PlotPointPoolPanel(widgets.VBox):
    """The shared plot points: how many are lucky and unlucky."""

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.view = widgets.HTML()
        self.view.add_class("tc-pool")
        self.children = [widgets.HTML("<b>Plot points</b>"), self.view]
        bind(session, self._render, error=error)

    def _render(self) -> None:
        s = self.session
        tokens = ('<span class="tc-token tc-lucky" title="lucky" style="display:inline-block;'
                  'min-width:28px;padding:4px;margin:2px;border-radius:14px;background:#2e7d32;'
                  'color:#fff;text-align:center">L</span>') * s.lucky + (
                  '<span class="tc-token tc-unlucky" title="unlucky" style="display:inline-block;'
                  'min-width:28px;padding:4px;margin:2px;border-radius:14px;background:#6a1b9a;'
                  'color:#fff;text-align:center">U</span>') * s.unlucky
        self.view.value = (
            f'<div data-lucky="{s.lucky}" data-unlucky="{s.unlucky}">{tokens}</div>'
            f'<div><span class="tc-lucky-count">{s.lucky}</span> lucky, '
            f'<span class="tc-unlucky-count">{s.unlucky}</span> unlucky '
            f'(one per player and the GM: {s.size})</div>'
        )


class StrainWoundsPanel(widgets.VBox):
    """One character's strain and wounds, with the moves that change them."""

    def __init__(self, session: PlotPointSession, name: str,
                 error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.character_name = name
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.fortitude = _ability_picker("Fortitude", "fortitude")
        self.rest_dc = int_box("Rest DC", 10, "rest-dc", -MAX_DIFFICULTY, MAX_DIFFICULTY)
        self.rest_proficiency = int_box("Proficiency", 0, "rest-proficiency", -MAX_PROFICIENCY,
                                        MAX_PROFICIENCY)
        self.amount = int_box("Amount", 1, "amount", 1, 100)
        self.add_class("tc-character")
        self.add_class(f"tc-character-{slug(name)}")
        self.strain_button = button("+ strain", lambda: session.gain_strain(
            name, self.amount.read()), error=self.error, name="strain")
        self.wound_button = button("+ wounds", lambda: session.gain_wounds(
            name, self.amount.read()), error=self.error, name="wound")
        self.heal_button = button("Heal wounds", lambda: session.heal_wounds(
            name, self.amount.read()), error=self.error, name="heal")
        self.rest_button = button("Long rest", self.long_rest, error=self.error, name="rest")
        self.children = [
            self.view,
            row(self.amount, self.strain_button, self.wound_button, self.heal_button),
            row(self.fortitude, self.rest_proficiency, self.rest_dc, self.rest_button),
            *own_error,
        ]
        bind(session, self._render, error=self.error)

    def long_rest(self) -> Any:
        return self.session.long_rest(self.character_name, self.rest_dc.read(),
                                      self.fortitude.value, self.rest_proficiency.read(),
                                      seed=draw_seed())

    def _render(self) -> None:
        here = self.character_name in self.session.players
        for btn in (self.strain_button, self.wound_button, self.heal_button, self.rest_button):
            btn.disabled = not here
        if not here:
            self.view.value = f"<i>{html.escape(self.character_name)} has left the table.</i>"
            return
        c = self.session.character(self.character_name)
        self.wound_button.disabled = c.wounds >= MAX_WOUNDS
        self.heal_button.disabled = c.wounds == 0
        tier = c.tier
        effect = html.escape(tier.effect) if tier else "No wounds."
        self.view.value = (
            f'<div class="tc-sheet" data-strain="{c.strain}" data-wounds="{c.wounds}">'
            f'<b>{html.escape(c.name)}</b> — <span class="tc-condition">{c.condition}</span>'
            f'<div>Strain <span class="tc-strain">{c.strain}</span>/{STRAIN_PER_WOUND} · '
            f'Wounds <span class="tc-wounds">{c.wounds}</span>/{MAX_WOUNDS}</div>'
            f'<div><span class="tc-note">{effect}</span></div></div>'
        )


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
            widgets.HTML("<b>Log</b>"),
            row(self.undo_button),
            *own_error,
            self.view,
            self.save_load,
        ]
        bind(session, self._render, error=self.error)

    def undo(self) -> Any:
        return self.session.undo()

    def _render(self) -> None:
        self.undo_button.disabled = not self.session.log
        self.view.value = log_html(self.session.log)


class PlotPointsApp(widgets.VBox):
    """A whole table: check panel, plot-point pool, a strain & wounds panel per player."""

    def __init__(self, players: list[str] | None = None, gm: str = "GM",
                 session: PlotPointSession | None = None) -> None:
        super().__init__()
        self.session = session or PlotPointSession.new(players or ["Player 1", "Player 2"], gm)
        self.error = ErrorLine()
        # Each part shows its errors beside its own buttons (a phone shows one part at a time).
        self.roller = PlotPointCheckPanel(self.session)
        self.pool = PlotPointPoolPanel(self.session, self.error)
        self.characters = column()
        # Not "required": an empty box is refused when Add is tapped, not before typing.
        self.new_player = name_box("New player", name="new-player", max_len=MAX_NAME,
                                   required=False, placeholder="New player's name")
        self.new_player.on_enter(self.add_player, self.error)
        self.history = PlotPointLogPanel(self.session)
        self.contest = PlotContestPanel(self.session)
        app_box(
            self.pool, self.roller, self.contest,
            widgets.HTML("<b>Strain & wounds</b>"), self.characters,
            row(self.new_player, button("Add player", self.add_player, error=self.error,
                                        name="add-player")),
            self.error, self.history, box=self,
        )
        self._panels: dict[str, StrainWoundsPanel] = {}
        bind(self.session, self._sync_characters, error=self.error)

    def add_player(self) -> None:
        # E.g. the name is taken: said under the box it came from, and in the app line.
        self.new_player.apply(self.session.add_player)

    def _sync_characters(self) -> None:
        names = self.session.players
        for name in names:
            if name not in self._panels:
                self._panels[name] = StrainWoundsPanel(self.session, name)
        self.characters.children = [self._panels[n] for n in names]
