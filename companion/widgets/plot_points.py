"""Components for the plot-points rules: check roller, plot-point pool, strain & wounds.

Every component observes one [PlotPointSession][companion.rulesets.plot_points.session.PlotPointSession]
and calls its moves; the rules (what may be spent, what a natural 1 does, how strain
becomes wounds) live in the session. :class:`PlotPointsApp` composes them for a table.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from companion.cli import fraction_text
from companion.dice.render import percent
from companion.rulesets.plot_points import (
    MAX_WOUNDS,
    STRAIN_PER_WOUND,
    PlotCheck,
    PlotPointSession,
)
from companion.widgets.base import (
    ErrorLine,
    app_box,
    bind,
    button,
    column,
    data_uri_link,
    draw_seed,
    int_box,
    roll_text_html,
    row,
    safe,
    text_box,
)

__all__ = ["CheckRoller", "PlotPointPool", "PlotPointsApp", "SessionLog", "StrainWounds"]

ABILITIES = ["weak", "average", "strong"]


class CheckRoller(widgets.VBox):
    """Pick who rolls and the check; shows the exact chance first, then rolls.

    After a roll, the buttons spend plot points on the check in play (the session refuses,
    with the rule's reason, a spend the rules do not allow).
    """

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.who = widgets.Dropdown(description="Who", layout=widgets.Layout(width="200px"))
        self.who.add_class("tc-who")
        self.ability = widgets.Dropdown(options=ABILITIES, value="average",
                                        description="Ability",
                                        layout=widgets.Layout(width="190px"))
        self.ability.add_class("tc-ability")
        self.proficiency = int_box("Proficiency", 0, "proficiency", width="160px")
        self.advantage = int_box("Net advantage (− = disadv.)", 0, "advantage", width="250px")
        self.difficulty = int_box("Difficulty", 10, "difficulty")
        self.chance = widgets.HTML()
        self.chance.add_class("tc-chance")
        self.result = widgets.HTML('<div class="tc-result" data-n="0">No check yet.</div>')
        self.rolls = 0
        spends = [  # label, session move, name, what it does
            ("Retry (lucky)", "retry_with_lucky", "retry",
             "spend a lucky point to retry a failed check"),
            ("Reroll (unlucky)", "reroll_with_unlucky", "reroll",
             "spend an unlucky point to reroll a success"),
            ("GM reroll", "gm_reroll", "gm-reroll",
             "the GM spends an unlucky point to reroll the GM's check"),
            ("GM forces reroll", "gm_force_reroll", "gm-force",
             "the GM spends an unlucky point; the player spent none"),
        ]
        spend = [
            button("Roll check", self.roll, error=self.error, style="primary", name="roll"),
            *(button(label, self._spend(move), error=self.error, name=name,
                     tooltip=f"{label}: {tip}") for label, move, name, tip in spends),
        ]
        # Said on the page too: a phone has no hover to show a tooltip.
        self.spend_help = widgets.HTML(
            "<small>" + " · ".join(f"<b>{html.escape(label)}</b>: {html.escape(tip)}"
                                   for label, _move, _name, tip in spends) + "</small>")
        self.spend_help.add_class("tc-spend-help")
        for control in (self.ability, self.proficiency, self.advantage, self.difficulty):
            control.observe(safe(self.error)(self._show_chance), names="value")
        self.children = [
            widgets.HTML("<b>Check</b>"),
            row(self.who, self.ability),
            row(self.proficiency, self.advantage, self.difficulty),
            self.chance,
            row(*spend),
            *own_error,
            self.result,
            self.spend_help,
        ]
        bind(session, self._sync_players, error=self.error)
        self._show_chance()

    def check(self) -> PlotCheck:
        return PlotCheck(self.ability.value, self.proficiency.value, self.advantage.value,
                         self.difficulty.value)

    def _sync_players(self) -> None:
        names = [*self.session.players, self.session.gm]
        if list(self.who.options) != names:
            current = self.who.value
            self.who.options = names
            self.who.value = current if current in names else names[0]

    def _show_chance(self, _change: Any = None) -> None:
        check = self.check()
        p = check.chance()
        one, twenty = check.natural_chances()
        self.chance.value = (
            f'<div>{html.escape(check.expression)} vs {check.difficulty}: '
            f'<b class="tc-p">{percent(p)}</b> chance of success '
            f'<small>({fraction_text(p)}; natural 1: {percent(one)}, '
            f'natural 20: {percent(twenty)})</small></div>'
        )

    def roll(self) -> Any:
        outcome = self.session.roll_check(self.who.value, self.ability.value,
                                          self.proficiency.value, self.advantage.value,
                                          self.difficulty.value, seed=draw_seed())
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


class PlotPointPool(widgets.VBox):
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


class StrainWounds(widgets.VBox):
    """One character's strain and wounds, with the moves that change them."""

    def __init__(self, session: PlotPointSession, name: str,
                 error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.character_name = name
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.fortitude = widgets.Dropdown(options=ABILITIES, value="average",
                                          description="Fortitude",
                                          layout=widgets.Layout(width="190px"))
        self.rest_dc = int_box("Rest DC", 10, "rest-dc")
        slug = "".join(ch if ch.isalnum() else "-" for ch in name.lower())
        self.add_class("tc-character")
        self.add_class(f"tc-character-{slug}")
        self.children = [
            self.view,
            row(
                button("+1 strain", lambda: session.gain_strain(name), error=self.error,
                       name="strain"),
                button("+1 wound", lambda: session.gain_wounds(name), error=self.error,
                       name="wound"),
                button("Heal 1 wound", lambda: session.heal_wounds(name), error=self.error,
                       name="heal"),
            ),
            row(self.fortitude, self.rest_dc,
                button("Long rest", self.long_rest, error=self.error, name="rest")),
            *own_error,
        ]
        bind(session, self._render, error=self.error)

    def long_rest(self) -> Any:
        return self.session.long_rest(self.character_name, self.rest_dc.value, self.fortitude.value,
                                      seed=draw_seed())

    def _render(self) -> None:
        if self.character_name not in self.session.players:
            self.view.value = f"<i>{html.escape(self.character_name)} has left the table.</i>"
            return
        c = self.session.character(self.character_name)
        tier = c.tier
        effect = html.escape(tier.effect) if tier else "No wounds."
        self.view.value = (
            f'<div class="tc-sheet" data-strain="{c.strain}" data-wounds="{c.wounds}">'
            f'<b>{html.escape(c.name)}</b> — <span class="tc-condition">{c.condition}</span>'
            f'<div>Strain <span class="tc-strain">{c.strain}</span>/{STRAIN_PER_WOUND} · '
            f'Wounds <span class="tc-wounds">{c.wounds}</span>/{MAX_WOUNDS}</div>'
            f'<div><small>{effect}</small></div></div>'
        )


class SessionLog(widgets.VBox):
    """Every move, newest first, with Undo and a JSON save link and loader."""

    def __init__(self, session: PlotPointSession, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.session = session
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.save = widgets.HTML()
        self.load_box = widgets.Textarea(placeholder="Paste a saved table (JSON) to load it",
                                         layout=widgets.Layout(width="100%", height="60px"))
        self.children = [
            widgets.HTML("<b>Log</b>"),
            row(button("Undo", self.undo, error=self.error, name="undo"), self.save),
            self.view,
            row(self.load_box, button("Load", self.load, error=self.error, name="load")),
            *own_error,
        ]
        bind(session, self._render, error=self.error)

    def undo(self) -> Any:
        return self.session.undo()

    def load(self) -> None:
        self.session.load(self.load_box.value)
        self.load_box.value = ""

    def _render(self) -> None:
        log = self.session.log
        items = "".join(
            f'<li data-n="{i + 1}">{roll_text_html(event.summary)}</li>'
            for i, event in reversed(list(enumerate(log))))
        self.view.value = f'<ol class="tc-history tc-log" data-count="{len(log)}">{items}</ol>'
        self.save.value = data_uri_link("Save table", "plot-points-table.json",
                                        "application/json", self.session.to_json())


class PlotPointsApp(widgets.VBox):
    """A whole table: check roller, plot-point pool, a strain & wounds tracker per player."""

    def __init__(self, players: list[str] | None = None, gm: str = "GM",
                 session: PlotPointSession | None = None) -> None:
        super().__init__()
        self.session = session or PlotPointSession.new(players or ["Player 1", "Player 2"], gm)
        self.error = ErrorLine()
        # Each part shows its errors beside its own buttons (a phone shows one part at a time).
        self.roller = CheckRoller(self.session)
        self.pool = PlotPointPool(self.session, self.error)
        self.characters = column()
        self.new_player = text_box("New player's name", name="new-player",
                                   on_enter=self.add_player, error=self.error)
        self.history = SessionLog(self.session)
        app_box(
            self.pool, self.roller,
            widgets.HTML("<b>Strain & wounds</b>"), self.characters,
            row(self.new_player, button("Add player", self.add_player, error=self.error,
                                        name="add-player")),
            self.error, self.history, box=self,
        )
        self._trackers: dict[str, StrainWounds] = {}
        bind(self.session, self._sync_characters, error=self.error)

    def add_player(self) -> None:
        self.session.add_player(self.new_player.value)
        self.new_player.value = ""

    def _sync_characters(self) -> None:
        names = self.session.players
        for name in names:
            if name not in self._trackers:
                self._trackers[name] = StrainWounds(self.session, name)
        self.characters.children = [self._trackers[n] for n in names]
