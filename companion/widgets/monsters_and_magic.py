"""Components for Monsters & Magic: a check roller with exact tier odds, and a sheet per
character for threads of fate, action points, fatigue, harm and rests.

The rules live in [companion.rulesets.monsters_and_magic][]; these components read the
controls, call the core (``AbilityCheck``, the ``Adventurer`` tracker's moves) and
re-render when the tracker says it changed. A refused move shows its rule's one-line
reason right under the buttons it came from: the app is several screens tall on a phone, so
one error line at the top would be out of sight when a sheet's button is tapped.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from companion.cli import fraction_text
from companion.dice.render import percent
from companion.rulesets.monsters_and_magic import (
    ABILITIES,
    AbilityCheck,
    Adventurer,
    GameMaster,
    Tier,
    group_odds,
    roll_group,
)
from companion.rulesets.monsters_and_magic.action_points import BASIC_TECHNIQUES
from companion.rulesets.monsters_and_magic.conditions_and_statuses import CONDITIONS, STATUSES
from companion.rulesets.monsters_and_magic.group_checks import parse_modifiers
from companion.rulesets.monsters_and_magic.threads_of_fate import GM_USES
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

__all__ = ["AdventurerSheet", "CheckRoller", "GameMasterThreads", "GroupCheckRoller",
           "MonstersAndMagicApp"]

EDGES = ["normal", "advantage", "disadvantage"]
TIER_COLOURS = {Tier.CRITICAL_HIT: "#1b5e20", Tier.STRONG_HIT: "#2e7d32",
                Tier.WEAK_HIT: "#f9a825", Tier.MISS: "#c62828", Tier.CRITICAL_MISS: "#7f0000"}


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower())


def odds_html(check: AbilityCheck) -> str:
    """The exact chance of each tier as a small bar list (best first)."""
    odds = check.tier_odds()
    rows = []
    for tier in reversed(Tier):
        p = odds[tier]
        width = f"{float(p) * 100:.1f}%"
        rows.append(
            f'<div class="tc-tier" data-tier="{tier.name.lower()}" style="display:flex;'
            f'gap:6px;align-items:center"><span style="min-width:104px">{tier.label}</span>'
            f'<span style="flex:1;background:#eee;height:12px;min-width:40px">'
            f'<span style="display:block;height:12px;width:{width};'
            f'background:{TIER_COLOURS[tier]}"></span></span>'
            f'<span class="tc-p" style="min-width:120px;text-align:right">{percent(p)} '
            f'<small>({fraction_text(p)})</small></span></div>')
    return (f'<div class="tc-odds"><div>{html.escape(check.expression)} vs DC '
            f'{check.effective_dc}{f", {check.steps:+d} steps" if check.steps else ""}: '
            f'any hit <b class="tc-hit">{percent(check.hit_chance())}</b></div>'
            + "".join(rows) + "</div>")


class CheckRoller(widgets.VBox):
    """An ability check for any creature: modifier, DC, advantage, steps; odds, then roll.

    With ``adventurer`` the modifier comes from that character's ability and sheet
    (ongoing, forward, conditions, exhaustion) and the roll is the sheet's move.
    """

    def __init__(self, adventurer: Adventurer | None = None,
                 error: ErrorLine | None = None, gm: GameMaster | None = None) -> None:
        super().__init__()
        self.adventurer = adventurer
        self.gm = gm
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.add_class("tc-check")
        self.ability = widgets.Dropdown(options=[*ABILITIES, "none"], value="luck",
                                        description="Ability",
                                        layout=widgets.Layout(width="170px"))
        self.modifier = int_box("Modifier" if adventurer is None else "Bonus", 0, "modifier")
        self.dc = int_box("DC", 10, "dc")
        self.edge = widgets.Dropdown(options=EDGES, value="normal", description="Roll",
                                     layout=widgets.Layout(width="190px"))
        self.edge.add_class("tc-edge")
        self.steps = int_box("Steps", 0, "steps", -4, 4)
        self.attack = widgets.Checkbox(value=False, description="Attack roll", indent=False,
                                       layout=widgets.Layout(width="120px"))
        self.odds = widgets.HTML()
        self.odds.add_class("tc-chance")
        self.result = widgets.HTML('<div class="tc-result" data-n="0">No roll yet.</div>')
        self.rolls = 0
        controls: list[widgets.Widget] = [self.modifier, self.dc, self.edge, self.steps]
        if adventurer is not None:
            controls = [self.ability, self.attack, *controls]
        for control in controls:
            control.observe(safe(self.error)(self.show_odds), names="value")
        self.children = [row(*controls[:3]), row(*controls[3:]), self.odds,
                         row(button("Roll check", self.roll, error=self.error,
                                    style="primary", name="roll")),
                         *own_error, self.result]
        if adventurer is not None:
            bind(adventurer, self.show_odds, error=self.error)
        else:
            self.show_odds()

    def check(self) -> AbilityCheck:
        edge = self.edge.value
        advantage, disadvantage = edge == "advantage", edge == "disadvantage"
        if self.adventurer is not None:
            return self.adventurer.build_check(
                self.ability.value, bonus=self.modifier.value, dc=self.dc.value,
                advantage=advantage, disadvantage=disadvantage, steps=self.steps.value,
                attack=self.attack.value)
        return AbilityCheck(self.modifier.value, self.dc.value, advantage, disadvantage,
                            self.steps.value)

    def show_odds(self, _change: Any = None) -> None:
        self.odds.value = odds_html(self.check())

    def roll(self) -> Any:
        seed = draw_seed()
        if self.adventurer is not None:
            edge = self.edge.value
            result = self.adventurer.roll_check(
                self.ability.value, self.modifier.value, self.dc.value,
                edge == "advantage", edge == "disadvantage", self.steps.value,
                self.attack.value, seed=seed)
        else:
            result = self.check().roll(seed=seed)
        if self.gm is not None and self.adventurer is not None:
            self.gm.note_result(result.tier)
        self.rolls += 1
        tier = result.tier
        self.result.value = (
            f'<div class="tc-result tc-{tier.name.lower()}" data-n="{self.rolls}" '
            f'data-tier="{tier.name.lower()}"><span class="tc-total">{result.total}</span> — '
            f'<b class="tc-verdict" style="color:{TIER_COLOURS[tier]}">{tier.label}</b>'
            f'<div class="tc-roll-text">{roll_text_html(str(result))}</div></div>')
        return result


def _boxes(marked: int, total: int, colour: str, name: str) -> str:
    cells = "".join(
        f'<span style="display:inline-block;width:18px;height:18px;margin:1px;'
        f'border:1px solid #555;background:{colour if i < marked else "transparent"}">'
        f'</span>' for i in range(total))
    return f'<span class="tc-{name}" data-n="{marked}">{cells}</span>'


class AdventurerSheet(widgets.VBox):
    """One character: threads of fate, AP and reaction, fatigue and exhaustion, HP,
    conditions and statuses, rests, with the moves that change them and Undo."""

    def __init__(self, adventurer: Adventurer, error: ErrorLine | None = None,
                 gm: GameMaster | None = None) -> None:
        super().__init__()
        self.adventurer = a = adventurer
        self.error = error or ErrorLine()
        self.add_class("tc-character")
        self.add_class(f"tc-character-{_slug(a.name)}")
        self.layout = widgets.Layout(border="1px solid #bbb", padding="6px", margin="6px 0",
                                     max_width="100%")
        self.view = widgets.HTML()
        self.amount = int_box("Amount", 1, "amount", 1, 999)
        self.technique = widgets.Dropdown(
            options=[n for n, (_, unit) in BASIC_TECHNIQUES.items() if unit == "AP"],
            value="Strike", description="Technique", layout=widgets.Layout(width="260px"))
        self.reaction = widgets.Dropdown(
            options=[n for n, (_, unit) in BASIC_TECHNIQUES.items() if unit == "R"],
            description="Reaction", layout=widgets.Layout(width="260px"))
        self.state = widgets.Dropdown(options=[*CONDITIONS, *STATUSES], value="Weakened",
                                      description="State",
                                      layout=widgets.Layout(width="220px"))
        self.history = widgets.HTML()
        self.save = widgets.HTML()
        # One error line under each section, beside the buttons that can be refused.
        self.section_errors = {k: ErrorLine() for k in ("threads", "turn", "body", "check")}
        self.checks = CheckRoller(a, self.section_errors["check"], gm)
        own_error = [self.error] if error is None else []
        threads_error, turn_error, body_error = (
            self.section_errors[k] for k in ("threads", "turn", "body"))
        self.children = [
            self.view,
            widgets.HTML("<b>Threads of fate</b>"),
            row(button("Feeling Lucky", lambda: a.feeling_lucky(seed=draw_seed()),
                       error=threads_error, name="feeling-lucky"),
                button("Bend Luck", a.bend_luck, error=threads_error, name="bend-luck"),
                button("Lucky Find", lambda: a.lucky_find(), error=threads_error,
                       name="lucky-find")),
            threads_error,
            widgets.HTML("<b>Turn</b>"),
            row(button("Start turn", a.start_turn, error=turn_error, name="start-turn"),
                self.technique,
                button("Spend AP", lambda: a.spend_ap(self.technique.value), error=turn_error,
                       name="spend-ap"),
                button("End turn", a.end_turn, error=turn_error, name="end-turn")),
            row(self.reaction,
                button("React", lambda: a.take_reaction(self.reaction.value), error=turn_error,
                       name="react")),
            turn_error,
            widgets.HTML("<b>Fatigue, harm and rests</b>"),
            row(self.amount,
                button("Mark fatigue", lambda: a.mark_fatigue(self.amount.value),
                       error=body_error, name="fatigue"),
                button("Clear fatigue", lambda: a.clear_fatigue(self.amount.value),
                       error=body_error, name="clear-fatigue"),
                button("Mark exhaustion", lambda: a.mark_exhaustion(self.amount.value),
                       error=body_error, name="exhaustion")),
            row(button("Damage", lambda: a.take_damage(self.amount.value), error=body_error,
                       name="damage"),
                button("Heal", lambda: a.heal(self.amount.value), error=body_error, name="heal"),
                button("Death roll", lambda: a.death_roll(seed=draw_seed()), error=body_error,
                       name="death-roll")),
            # The benefit each rest takes is in the label: phones show no tooltips.
            row(button("Short rest: clear fatigue", lambda: a.short_rest(["Clear Fatigue"]),
                       error=body_error, name="short-rest"),
                button("Long rest: clear fatigue", lambda: a.long_rest(["Clear Fatigue"]),
                       error=body_error, name="long-rest"),
                button("Extended rest: recuperate", lambda: a.extended_rest("Recuperate"),
                       error=body_error, name="extended-rest")),
            row(self.state, button("Add", self.add_state, error=body_error, name="add-state"),
                button("Remove", self.remove_state, error=body_error, name="remove-state")),
            body_error,
            widgets.HTML("<b>Check</b>"),
            self.checks,
            self.section_errors["check"],
            row(button("Undo", self.undo, error=self.error, name="undo"), self.save),
            *own_error,
            self.history,
        ]
        bind(a, self.render, error=self.error)

    def add_state(self) -> None:
        name = self.state.value
        if name in CONDITIONS:
            self.adventurer.inflict(name)
        else:
            self.adventurer.bestow(name)

    def remove_state(self) -> None:
        name = self.state.value
        if name in CONDITIONS:
            self.adventurer.end_condition(name)
        else:
            self.adventurer.end_status(name)

    def undo(self) -> Any:
        return self.adventurer.undo()

    @property
    def message(self) -> str:
        """The error showing anywhere on this sheet ("" when there is none)."""
        lines = [*self.section_errors.values(), self.error]
        return next((line.message for line in lines if line.message), "")

    def render(self) -> None:
        a = self.adventurer
        # A move went through: an older refusal in another section no longer applies.
        for line in self.section_errors.values():
            line.clear()
        threads = "".join(
            '<span class="tc-token" style="display:inline-block;min-width:24px;padding:2px;'
            'margin:1px;border-radius:12px;background:#6a1b9a;color:#fff;text-align:center">'
            'T</span>' for _ in range(a.threads))
        status = ("passed on" if a.passed_on else "dead — Death offers a bargain" if a.dead
                  else "dying" if a.dying else "stable" if a.stable else "")
        states = ", ".join([*a.active_conditions, *a.statuses]) or "none"
        holds = ", ".join(f"{k} {v}" for k, v in a.holds.items()) or "none"
        self.view.value = (
            f'<div class="tc-sheet" data-threads="{a.threads}" data-ap="{a.ap}" '
            f'data-fatigue="{a.fatigue}" data-exhaustion="{a.exhaustion}" data-hp="{a.hp}">'
            f'<b>{html.escape(a.name)}</b> <small>FOC {a.focus:+d} · POW {a.power:+d} · '
            f'CUN {a.cunning:+d} · LCK {a.luck:+d} · XP {a.xp}</small>'
            f'{" — <b class=tc-status>" + status + "</b>" if status else ""}'
            f'<div>Threads <span class="tc-threads">{a.threads}</span>/{a.max_threads} '
            f'{threads}</div>'
            f'<div>AP <span class="tc-ap">{a.ap}</span>'
            f'{" (turn)" if a.in_turn else ""} · reaction '
            f'{"used" if a.reaction_used else "ready"} · HP <span class="tc-hp">{a.hp}</span>'
            f'/{a.max_hp} · AC {a.effective_ac}</div>'
            f'<div>Fatigue {_boxes(a.fatigue, a.max_fatigue, "#ef6c00", "fatigue-boxes")}'
            f'</div><div>Exhaustion '
            f'{_boxes(a.exhaustion, a.max_exhaustion, "#b71c1c", "exhaustion-boxes")} '
            f'<small>(checks −{a.exhaustion_penalty})</small></div>'
            f'<div><small>States: {html.escape(states)} · hold: {html.escape(holds)} · '
            f'forward {a.forward:+d}</small></div></div>')
        items = "".join(f'<li data-n="{i + 1}">{roll_text_html(ev.summary)}</li>'
                        for i, ev in reversed(list(enumerate(a.log))))
        self.history.value = (f'<ol class="tc-history tc-log" data-count="{len(a.log)}">'
                          f"{items}</ol>")
        self.save.value = data_uri_link("Save sheet", f"{_slug(a.name)}.json",
                                        "application/json", a.to_json())


class GroupCheckRoller(widgets.VBox):
    """A group check: everyone's modifier, the exact odds of the group's result, a roll."""

    def __init__(self, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.add_class("tc-group")
        self.modifiers = text_box("Modifiers, e.g. 2, 0, -1", value="2, 0, -1",
                                  name="group-modifiers", on_enter=self.show_odds,
                                  error=self.error)
        self.dc = int_box("DC", 10, "group-dc")
        self.dc.observe(safe(self.error)(self.show_odds), names="value")
        self.odds = widgets.HTML()
        self.odds.add_class("tc-group-odds")
        self.result = widgets.HTML('<div class="tc-group-result" data-n="0"></div>')
        self.rolls = 0
        self.children = [row(self.modifiers, self.dc), self.odds,
                         row(button("Odds", self.show_odds, error=self.error,
                                    name="group-odds"),
                             button("Roll group check", self.roll, error=self.error,
                                    name="group-roll")),
                         *own_error, self.result]
        self.show_odds()

    def checks(self) -> list[AbilityCheck]:
        return [AbilityCheck(m, self.dc.value) for m in parse_modifiers(self.modifiers.value)]

    def show_odds(self, _change: Any = None) -> None:
        checks = self.checks()
        odds = group_odds(checks)
        cells = " · ".join(
            f'<span data-tier="{t.name.lower()}">{t.label}: <b>{percent(p)}</b> '
            f"<small>({fraction_text(p)})</small></span>"
            for t, p in reversed(odds.items()))
        self.odds.value = f"<div>Group of {len(checks)} vs DC {self.dc.value}: {cells}</div>"

    def roll(self) -> Any:
        result = roll_group(self.checks(), seed=draw_seed())
        self.rolls += 1
        self.result.value = (
            f'<div class="tc-group-result" data-n="{self.rolls}" '
            f'data-tier="{result.tier.name.lower()}"><b>{result.tier.label}</b> — '
            f"{html.escape(str(result))}</div>")
        return result


class GameMasterThreads(widgets.VBox):
    """The GM's threads of fate: gained on players' critical misses, spent on three uses."""

    def __init__(self, gm: GameMaster, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.gm = gm
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.use = widgets.Dropdown(options=list(GM_USES), description="Use",
                                    layout=widgets.Layout(width="330px"))
        self.children = [self.view, row(
            button("+1 thread", lambda: gm.gain_thread(1), error=self.error,
                   name="gm-gain"),
            self.use,
            button("Spend", lambda: gm.spend_thread(self.use.value), error=self.error,
                   name="gm-spend")), *own_error]
        bind(gm, self.render, error=self.error)

    def render(self) -> None:
        self.view.value = (f'<div class="tc-gm" data-threads="{self.gm.threads}"><b>GM</b>: '
                           f'<span class="tc-gm-threads">{self.gm.threads}</span> '
                           f"thread{'s' if self.gm.threads != 1 else ''} of fate</div>")


class MonstersAndMagicApp(widgets.VBox):
    """A table: a check roller for anyone, and one sheet per character."""

    def __init__(self, names: list[str] | None = None, *, luck: int = 2) -> None:
        super().__init__()
        self.error = ErrorLine()
        self.gm = GameMaster()
        # Each part shows its own errors under its buttons; self.error is for adding characters.
        self.roller = CheckRoller(None)
        self.group = GroupCheckRoller()
        self.gm_view = GameMasterThreads(self.gm)
        self.sheets: dict[str, AdventurerSheet] = {}
        self.characters = column()
        self.new_name = text_box("New character's name", name="new-character",
                                 on_enter=self.add_character, error=self.error)
        app_box(widgets.HTML("<b>Ability check</b>"), self.roller,
                widgets.HTML("<b>Group check</b>"), self.group, self.gm_view,
                widgets.HTML("<b>Characters</b>"), self.characters,
                row(self.new_name, button("Add character", self.add_character,
                                          error=self.error, name="add-character")),
                self.error, box=self)
        self.luck = luck
        for name in names or ["Ash"]:
            self._add(Adventurer.new(name, luck=luck, max_hp=12, supplies=2))

    def _add(self, adventurer: Adventurer) -> AdventurerSheet:
        if adventurer.name in self.sheets:
            from companion.errors import RuleError

            raise RuleError(f"Characters: {adventurer.name!r} is already at the table")
        sheet = AdventurerSheet(adventurer, gm=self.gm)
        self.sheets[adventurer.name] = sheet
        self.characters.children = [*self.characters.children, sheet]
        return sheet

    def add_character(self) -> AdventurerSheet:
        sheet = self._add(Adventurer.new(self.new_name.value, luck=self.luck, max_hp=12))
        self.new_name.value = ""
        return sheet
