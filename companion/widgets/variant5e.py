"""Components for the 5e optional rules: spell points, death and returning, combat options.

Each component observes a core model from [companion.rulesets.variant5e][] and calls
its moves; no rule is decided here. A button whose move the rules refuse now is disabled;
a number box holding anything but an allowed whole number says so under the box and the
buttons that read it are disabled until it is fixed. Every roll draws its seed with
[draw_seed][companion.widgets.base.draw_seed] and shows it.

Roll modes and your own dice (issue 13): the death-and-returning and combat-options apps
hold one [RollControls][companion.widgets.rolls.RollControls] each, and every roll they
make (a death save, a return's Fragile Soul check and d100, a contest) goes through it:
the mode picked (public, GM only, blind, self) decides who sees the roll, a hidden one
is logged in the campaign's roll log as its commitment, and with "I rolled it myself" on
the faces typed are the dice the rule rolls, checked against each die (a death save
entered as 21 is refused under the box, and nothing changes). An app gets its campaign
(and so the viewer and role) as ``campaign=``; without one every roll is public.

On a phone (issue 44: a [RemoteSession][companion.table.remote.RemoteSession]) a death
save or a return attempt is sent to the table, which rolls it: the app says it waits
([WAITING_LINE][companion.widgets.rolls.WAITING_LINE]) and shows the table's roll when
its answer comes, or the table's refusal as its line.

- Interpretation: a hidden death save or return still moves the creature's shared record
  (its successes, failures, condition): those consequences are visible by nature; the
  roll is not (the policy of [companion.fairplay][]).

In a notebook::

    from companion.widgets.variant5e import SpellPointsApp
    SpellPointsApp()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.rulesets.variant5e.contests import Combatant, Edge, Size, contest_call
from companion.rulesets.variant5e.death_and_returning import (
    RETURN_SPELLS,
    DeathRecord,
    ReturnAttempt,
)
from companion.rulesets.variant5e.diagonal_moves import MAX_SPEED, MovementCounter
from companion.rulesets.variant5e.facing_and_flanking import Battlefield
from companion.rulesets.variant5e.grapple import speed_while_moving_grappled
from companion.rulesets.variant5e.identify_a_spell import identify_a_spell, identify_timing
from companion.rulesets.variant5e.maneuvers import MANEUVERS, maneuver
from companion.rulesets.variant5e.spell_points import (
    CASTER_KINDS,
    SpellPoints,
    mentality_cost,
)
from companion.widgets.base import (
    ErrorLine,
    NumberBox,
    SaveLoad,
    app_box,
    bind,
    button,
    chance_html,
    check_box,
    confirm_button,
    disable_for,
    draw_seed,
    first_bad_box,
    int_box,
    log_html,
    row,
    safe,
)
from companion.widgets.markup import Markup, details_html, el, frag, join
from companion.widgets.rolls import RollControls, RuleRoll, TableAnswers, act_of, faces_hint
from companion.widgets.seat_controls import act, load, mover, seat_refusal, undo

if TYPE_CHECKING:
    from companion.table.acts import Act
    from companion.table.session import Session

#: A return attempt (and the psychosis it may end) as one declared table move.
RETURN_ATTEMPT = "variant5e.death_and_returning.return_attempt"

__all__ = ["CombatOptionsApp", "CombatantPanel", "DeathAndReturningApp", "SpellPointsApp"]

ORDINALS = ("Cantrip", "1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")

#: The caster's modifier a return attempt takes (a guard on the box, far past any caster).
MODIFIER_RANGE = (-10, 30)
#: A creature's contest modifiers the form takes.
SKILL_RANGE = (-10, 30)


#: Newest moves a log shows (the whole log stays in the tracker and its save).
LOG_SHOWN = 12

#: What dice the death app's rolls take (the own-dice box's hint).
DEATH_DICE_HINT = "d20; a return: d20, then d100"


def roll_controls(session: Session | None, seed_source: Callable[[], int], hint: str,
                  name: str) -> RollControls:
    """The mode picker and own-dice box of an app, for ``campaign``'s viewer (if any)."""
    return RollControls(session=session, who=session.who if session is not None else "",
                        role=session.seat_role if session is not None else "",
                        seed_source=seed_source, hint=hint, name=name)


def how_rolled(out: RuleRoll[Any]) -> str:
    """``own dice``, or the seed folded under *details* (jargon at the table, issue 31):
    what a shown roll came from."""
    return "own dice" if out.physical else details_html(f"seed {out.seed}")


def _dropdown(options: Any, value: Any, description: str, name: str,
              width: str = "200px") -> widgets.Dropdown:
    box = widgets.Dropdown(options=options, value=value, description=description,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width=width, min_height="40px"))
    box.add_class(f"tc-select-{name}")
    return box


def _heading(text: str) -> widgets.HTML:
    return widgets.HTML(el("h3", text, style="margin:8px 0 4px"))


# -- spell points ---------------------------------------------------------------------------


class SpellPointsApp(widgets.VBox):
    """Spend mentality by spell level until the pool refuses; long rest; undo; save/load.

    A spell level the pool cannot pay for now has its button disabled.
    """

    def __init__(self, caster: SpellPoints | None = None) -> None:
        super().__init__()
        self.model = caster if caster is not None else SpellPoints.new(class_level=5)
        self.error = ErrorLine()
        self.level = _dropdown(list(range(1, 21)), self.model.class_level, "Class level",
                               "level", "150px")
        self.caster = _dropdown(list(CASTER_KINDS), self.model.caster, "Caster", "caster",
                                "150px")
        # Each dropdown changes this caster at once, as a move (spent points stay spent);
        # "New caster" is the fresh, rested pool.
        self.level.observe(safe(self.error)(lambda ch: (
            act(self.model, "set_class_level", int(ch["new"]))
            if int(ch["new"]) != self.model.class_level else None)), names="value")
        self.caster.observe(safe(self.error)(lambda ch: (
            act(self.model, "set_caster", str(ch["new"]))
            if ch["new"] != self.model.caster else None)), names="value")
        self.limits = widgets.Checkbox(value=self.model.dmg_limits, indent=False,
                                       description="DMG limits (level cap, 6th+ once a rest)")
        self.limits.add_class("tc-check-dmg-limits")
        self.limits.observe(safe(self.error)(lambda ch: (
            act(self.model, "set_dmg_limits", bool(ch["new"]))
            if bool(ch["new"]) != self.model.dmg_limits else None)), names="value")
        self.new_button = new = confirm_button(
            "New caster", self.new_caster, risky=lambda: bool(self.model.log),
            prompt="Tap again: new caster (this one is lost)", error=self.error, name="new")
        self.status = widgets.HTML()
        self.cast_buttons = [
            button(f"{ORDINALS[lvl]} ({mentality_cost(lvl)})", self._cast(lvl),
                   error=self.error, name=f"cast-{lvl}",
                   tooltip=f"cast a {ORDINALS[lvl].lower()} spell")
            for lvl in range(10)
        ]
        rest = button("Long rest", mover(self.model, "long_rest"), error=self.error,
                      name="long-rest")
        self.undo_button = button("Undo", lambda: undo(self.model), error=self.error,
                                  name="undo")
        self.history = widgets.HTML()
        self.file = SaveLoad(self.model, "spell-points.json", what="spell-point pool",
                             error=self.error)
        # Identify a Spell: the Arcana check's exact chance (it needs no pool).
        self.arcana = int_box("Arcana modifier", 3, "arcana", -10, 20)
        self.spell_level = _dropdown(list(range(10)), 1, "Spell level", "spell-level", "150px")
        self.same_class = check_box("Same class (advantage)", "same-class")
        self.being_cast = check_box("While it is cast", "being-cast", value=True)
        self.identify = widgets.HTML()
        for control in (self.arcana, self.spell_level, self.same_class, self.being_cast):
            control.observe(safe(self.error)(lambda _c: self.render_identify()),
                            names="value")
        app_box(
            row(self.level, self.caster, new),
            row(self.limits),
            self.status,
            row(*self.cast_buttons),
            row(rest, self.undo_button),
            self.error,
            self.history,
            self.file,
            _heading("Identify a Spell"),
            row(self.arcana, self.spell_level, self.same_class, self.being_cast),
            self.identify,
            box=self,
        )
        bind(self.model, self.render, error=self.error)
        self.render_identify()

    def render_identify(self) -> None:
        """The Intelligence (Arcana) check to name a spell: DC, timing and exact chance."""
        if first_bad_box(self.arcana) is not None:
            self.identify.value = el("div", el("i", "Fix the Arcana modifier above."))
            return
        check = identify_a_spell(self.arcana.read(), int(self.spell_level.value),
                                 same_class=bool(self.same_class.value))
        when = identify_timing(bool(self.being_cast.value))
        self.identify.value = el(
            "div", f"{check.expression} vs DC {check.target} (uses your {when}): ",
            chance_html(check.chance()), class_="tc-identify")

    def _cast(self, level: int) -> Callable[[], None]:
        return lambda: act(self.model, "cast", level)

    def new_caster(self) -> None:
        fresh = SpellPoints.new(int(self.level.value), self.caster.value)
        load(self.model, fresh.to_json())

    def render(self) -> None:
        m = self.model
        self.new_button.disarm()
        self.status.value = frag(
            el("div", el("b", m.points), f" / {m.maximum} mentality", class_="tc-points",
               data_points=m.points, style="font-size:20px"),
            el("div", f"level {m.class_level} {m.caster} caster, spells up to level "
               f"{m.max_spell_level}"))
        self.limits.value = m.dmg_limits
        self.level.value, self.caster.value = m.class_level, m.caster  # after undo or load
        # Level and caster kind are numbers the GM edits unless trusted (issue 28).
        self.level.disabled = self.caster.disabled = seat_refusal(
            m, "set_class_level", {}) is not None
        for lvl, btn in enumerate(self.cast_buttons):
            disable_for(btn, m.cast_refusal(lvl))
            btn.button_style = "" if m.can_cast(lvl) else "warning"
        disable_for(self.undo_button, None if m.can_undo else "nothing to undo")
        self.history.value = log_html(m.log, LOG_SHOWN)


# -- death and returning --------------------------------------------------------------------


class DeathAndReturningApp(widgets.VBox):
    """Death saves, deaths and returns under the strike modules, with Fragile Soul rolls.

    ``seed_source`` draws the seed of each roll (tests pass a fixed one); the seed is shown
    with the roll so it can be replayed. Every roll goes through ``controls`` (its mode,
    or the real dice typed in): a death save takes one d20, a return attempt the caster's
    d20 and, when that check fails, the d100 on the Fragile Soul table.
    """

    def __init__(self, record: DeathRecord | None = None, *,
                 seed_source: Callable[[], int] = draw_seed,
                 psychosis: tuple[MiasmaTracker, str] | None = None,
                 session: Session | None = None) -> None:
        super().__init__()
        self.model = record if record is not None else DeathRecord()
        #: The Miasma tracker and the name this creature has there: a return lowers its
        #: psychosis (raised from the dead).
        self.psychosis = psychosis
        self.seed_source = seed_source
        self.error = ErrorLine()
        self.module = _dropdown([("Three strikes", "three_strikes"),
                                 ("Escalation strikes", "escalation_strikes")],
                                self.model.module, "Module", "module", "240px")
        self.permanent = widgets.Checkbox(value=self.model.permanent_death_failures,
                                          description="Permanent death failures", indent=False)
        self.fragile = widgets.Checkbox(value=self.model.fragile_soul,
                                        description="The Soul is Fragile", indent=False)
        self.wish = widgets.Checkbox(value=self.model.escalation_wish,
                                     description="Escalation: a wish still works", indent=False)
        self.new_button = new = confirm_button(
            "New creature", self.new_creature, risky=lambda: bool(self.model.log),
            prompt="Tap again: new creature (this record is lost)", error=self.error,
            name="new")
        self.status = widgets.HTML()
        m = self.model
        self.buttons = {
            "drop": button("Drop to 0 HP", mover(m, "drop_to_zero"), error=self.error, name="drop"),
            "save": button("Death save (d20)", self.death_save, error=self.error, name="save"),
            "hit": button("Hit at 0 HP", mover(m, "damage_while_down"), error=self.error,
                          name="hit"),
            "crit": button("Crit at 0 HP", lambda: act(m, "damage_while_down", True),
                           error=self.error, name="crit"),
            "heal": button("Heal", mover(m, "heal"), error=self.error, name="heal"),
            "die": button("Die", mover(m, "die"), error=self.error, name="die"),
            "return": button("Attempt return (roll)", self.attempt_return, error=self.error,
                             name="return"),
            "evict": button("Remove inhabitant", mover(m, "remove_inhabitant"), error=self.error,
                            name="evict"),
            "undo": button("Undo", lambda: undo(m), error=self.error, name="undo"),
        }
        b = self.buttons
        self.controls = roll_controls(session, lambda: self.seed_source(), DEATH_DICE_HINT,
                                      "death")
        self.saves = 0
        self.spell = _dropdown(list(RETURN_SPELLS), "revivify", "Spell", "spell", "240px")
        self.modifier = int_box("Caster modifier", 3, "modifier", *MODIFIER_RANGE)
        self.odds = widgets.HTML()
        self.attempt = widgets.HTML()
        self.save_roll = widgets.HTML()
        self.attempts = 0
        self.history = widgets.HTML()
        self.file = SaveLoad(self.model, "death-record.json", what="death record",
                             error=self.error)
        app_box(
            row(self.module, self.permanent, self.fragile, self.wish, new),
            self.status,
            self.controls,
            row(b["drop"], b["save"], b["hit"], b["crit"], b["heal"], b["die"]),
            self.save_roll,
            row(self.spell, self.modifier),
            self.odds,
            row(b["return"], b["evict"], b["undo"]),
            self.error,
            self.attempt,
            self.history,
            self.file,
            box=self,
        )
        for box in (self.spell, self.modifier):
            box.observe(safe(self.error)(lambda _change: self.render_return()), names="value")
        for switch in (self.module, self.permanent, self.fragile, self.wish):
            switch.observe(safe(self.error)(lambda _change: self.apply_switches()),
                           names="value")
        #: Death saves and returns sent to the table and not answered yet (a phone's).
        self.save_answers = TableAnswers(session, self._show_save, self._refused_save)
        self.return_answers = TableAnswers(session, self._show_return, self._refused_return)
        bind(self.model, self.render, error=self.error)

    def apply_switches(self) -> None:
        """A module switch applies at once to this creature (see DeathRecord.set_modules)."""
        m = self.model
        if getattr(self, "_showing", False):
            return
        wanted = (self.module.value, bool(self.permanent.value), bool(self.fragile.value),
                  bool(self.wish.value))
        if wanted == (m.module, m.permanent_death_failures, m.fragile_soul, m.escalation_wish):
            return
        try:
            act(m, "set_modules", *wanted)
        finally:
            self.render()

    def new_creature(self) -> None:
        fresh = DeathRecord(module=self.module.value,
                            permanent_death_failures=bool(self.permanent.value),
                            fragile_soul=bool(self.fragile.value),
                            escalation_wish=bool(self.wish.value))
        load(self.model, fresh.to_json())
        self.attempt.value = ""
        self.save_roll.value = ""

    def death_save(self) -> None:
        """Roll a death save (a d20) in the mode picked, or from the d20 typed in."""
        out = self.controls.run_act("5e death save (d20)", self.model, "roll_death_save")
        if self.save_answers.wait(out, act_of(self.controls.session, self.model,
                                              "roll_death_save")):
            # A phone's: the table rolls it; shown when its answer comes (_show_save).
            self.save_roll.value = el("div", out.hidden_html(), class_="tc-save-roll",
                                      data_face="waiting", data_n=self.saves)
            return
        self._show_save(out)

    def _show_save(self, out: RuleRoll[Any]) -> None:
        """A death save as this viewer may see it: the d20's face and how it was rolled."""
        self.saves += 1
        face = out.value
        if out.shown and type(face) is int:
            self.save_roll.value = el(
                "div", "death save: d20 shows ", el("b", face), " ",
                el("small", "(", how_rolled(out), ")"), class_="tc-save-roll", data_face=face,
                data_n=self.saves)
        elif out.shown:  # a resent act answered from its events: the roll's log line
            self.save_roll.value = el("div", out.text or "rolled at the table",
                                      class_="tc-save-roll", data_face="table",
                                      data_n=self.saves)
        else:
            self.save_roll.value = el("div", out.hidden_html(), class_="tc-save-roll",
                                      data_face="hidden", data_n=self.saves)

    def _refused_save(self, reason: str) -> None:
        self.saves += 1
        self.save_roll.value = el("div", f"Not rolled: {reason}",
                                  class_="tc-save-roll tc-refused", data_face="refused",
                                  data_n=self.saves)

    def attempt_return(self) -> None:
        """Try a return: the caster's d20 check and, if it fails, the d100 on the Fragile
        Soul table, in the mode picked or from the dice typed in."""
        modifier = self.modifier.read()
        spell = self.spell.value
        # One named table move: the return and, when it works, the soul's psychosis.
        soul, name = self.psychosis if self.psychosis is not None else (None, "")
        out = self.controls.run_table(f"5e return attempt ({spell})", [], RETURN_ATTEMPT, {
            "record": self.model, "spell": spell, "caster_modifier": modifier,
            "psychosis": soul, "name": name})
        if self.return_answers.wait(out, self._return_act()):
            # A phone's: the table rolls it; shown when its answer comes (_show_return).
            self.attempt.value = el("div", out.hidden_html(), class_="tc-attempt",
                                    data_n=self.attempts, data_outcome="waiting")
            return
        self._show_return(out)

    def _return_act(self) -> Callable[[Act], bool]:
        """Picks this record's return attempt (a table move naming it by its key)."""
        session = self.controls.session
        key = session.key_of(self.model) if session is not None else ""

        def mine(act: Act) -> bool:
            return (act.tracker == "" and act.move == "table"
                    and act.args.get("name") == RETURN_ATTEMPT
                    and isinstance(act.args.get("args"), dict)
                    and act.args["args"].get("record") == key)

        return mine

    def _show_return(self, out: RuleRoll[Any]) -> None:
        """A return attempt as this viewer may see it: its outcome and the dice's line."""
        self.attempts += 1
        result = _return_result(out.value)
        if out.shown and result is not None:
            self.attempt.value = el(
                "div", el("b", result.outcome.replace("_", " ")), f": {result} ",
                el("small", "(", how_rolled(out), ")"), class_="tc-attempt",
                data_n=self.attempts, data_outcome=result.outcome)
        elif out.shown:  # a resent act answered from its events: the roll's log line
            self.attempt.value = el("div", out.text or "rolled at the table",
                                    class_="tc-attempt", data_n=self.attempts,
                                    data_outcome="table")
        else:
            self.attempt.value = el("div", out.hidden_html(), class_="tc-attempt",
                                    data_n=self.attempts, data_outcome="hidden")

    def _refused_return(self, reason: str) -> None:
        self.attempts += 1
        self.attempt.value = el("div", f"Not rolled: {reason}", class_="tc-attempt tc-refused",
                                data_n=self.attempts, data_outcome="refused")

    def render_return(self) -> None:
        """The return attempt's exact odds and whether it can be tried now."""
        m = self.model
        spell = self.spell.value
        disable_for(self.buttons["return"], first_bad_box(self.modifier) or m.why_no_return(spell))
        if not self.modifier.valid:
            self.odds.value = el("div", el("i", "Fix the caster modifier above."))
            return
        odds = m.return_odds(spell, self.modifier.read())
        if odds is None:
            self.odds.value = el("div", "No Fragile Soul check for this spell.")
            return
        self.odds.value = el("table", (el("tr", el("td", k.replace("_", " ")),
                                          el("td", chance_html(p)))
                                       for k, p in odds.items()), class_="tc-odds")

    def render(self) -> None:
        m = self.model
        self.new_button.disarm()
        dying = (f" · successes {m.successes}/3 · failures {m.failures}/3"
                 if m.can_save else "")
        flags = []
        if m.final_death:
            flags.append("final death" if m.wish_limited else "final death: only a wish")
        if m.soul_destroyed:
            flags.append("soul destroyed")
        if m.body_inhabited:
            flags.append("body inhabited")
        allowed = ", ".join(m.allowed_spells()) or "none"
        self.status.value = frag(
            el("div", el("b", m.condition), dying, class_="tc-condition",
               data_condition=m.condition, style="font-size:20px"),
            el("div", f"deaths {m.deaths} · returns {m.returns} of {m.max_returns} · "
               f"permanent failures {m.permanent_failures}"),
            flags and el("div", el("b", "; ".join(flags))),
            m.condition == "dead" and el("div", f"can be returned by: {allowed}"))
        self._showing = True  # the switches follow the record; no set_modules meanwhile
        try:
            self.module.value, self.permanent.value = m.module, m.permanent_death_failures
            self.fragile.value, self.wish.value = m.fragile_soul, m.escalation_wish
        finally:
            self._showing = False
        state = f"the creature is {m.condition}"
        b = self.buttons
        disable_for(b["drop"], None if m.can_drop else f"only a living creature drops; {state}")
        disable_for(b["save"], None if m.can_save else f"only a dying creature saves; {state}")
        for name in ("hit", "crit", "heal"):
            disable_for(b[name], None if m.down else f"the creature is not at 0 HP; {state}")
        disable_for(b["die"], None if m.can_die else "the creature is already dead")
        disable_for(b["evict"], None if m.body_inhabited
                else "no celestial or fiend inhabits the body")
        disable_for(b["undo"], None if m.can_undo else "nothing to undo")
        self.render_return()
        self.history.value = log_html(m.log, LOG_SHOWN)


def _return_result(value: Any) -> ReturnAttempt | None:
    """A return attempt's result: the object (a page that rolled it), or the table's
    answer as JSON (a phone's) made into one; ``None`` for anything else."""
    if isinstance(value, ReturnAttempt) or not isinstance(value, dict):
        return value if isinstance(value, ReturnAttempt) else None
    if set(value) != {f.name for f in dataclasses.fields(ReturnAttempt)}:
        return None
    texts = all(isinstance(value[k], str) for k in ("spell", "outcome", "effect"))
    numbers = type(value["caster_modifier"]) is int and all(
        value[k] is None or type(value[k]) is int for k in ("check_roll", "table_roll"))
    return ReturnAttempt(**value) if texts and numbers else None


# -- combat options ---------------------------------------------------------------------------


class CombatantPanel(widgets.VBox):
    """The numbers a contest needs about one creature."""

    def __init__(self, title: str, name: str) -> None:
        super().__init__()
        self.title = widgets.HTML(el("b", title))
        self.size = _dropdown([s.name.lower() for s in Size], "medium", "Size", f"{name}-size",
                              "170px")
        self.athletics = int_box("Athletics", 0, f"{name}-athletics", *SKILL_RANGE)
        self.acrobatics = int_box("Acrobatics", 0, f"{name}-acrobatics", *SKILL_RANGE)
        self.attack = int_box("Attack", 0, f"{name}-attack", *SKILL_RANGE)
        self.edge = _dropdown([e.value for e in Edge], "normal", "Also", f"{name}-edge", "190px")
        self.incapacitated = widgets.Checkbox(description="incapacitated", indent=False)
        self.children = (self.title, row(self.size, self.edge),
                         row(self.athletics, self.acrobatics, self.attack), self.incapacitated)
        self.layout.max_width = "100%"

    @property
    def numbers(self) -> tuple[NumberBox, ...]:
        return (self.athletics, self.acrobatics, self.attack)

    def controls(self) -> list[widgets.Widget]:
        return [self.size, self.athletics, self.acrobatics, self.attack, self.edge,
                self.incapacitated]

    def combatant(self, role: str) -> Combatant:
        return Combatant(role, Size.parse(self.size.value), self.athletics.read(),
                         self.acrobatics.read(), self.attack.read(),
                         Edge(self.edge.value), bool(self.incapacitated.value))


class CombatOptionsApp(widgets.VBox):
    """Contests with exact odds, flanking on a small grid, and a diagonal movement counter.

    ``seed_source`` draws the seed of each contest roll (tests pass a fixed one). A contest
    rolls through ``controls`` (its mode, or the real dice typed in: the acting creature's
    d20s first, then the resisting one's, two for advantage or disadvantage).
    """

    GRID = 6

    def __init__(self, *, seed_source: Callable[[], int] = draw_seed,
                 session: Session | None = None) -> None:
        super().__init__()
        self.seed_source = seed_source
        self.controls = roll_controls(session, lambda: self.seed_source(), "d20, then d20",
                                      "contest")
        # One error line per part, under its own buttons: the page is three screens tall on a
        # phone, and a refused step must not report itself beside the contest far above.
        self.error = ErrorLine()
        self.field_error = ErrorLine()
        self.move_error = ErrorLine()
        # contests
        self.option = _dropdown(list(MANEUVERS), "grapple", "Option", "option", "300px")
        self.first = CombatantPanel("Acting creature", "a")
        self.second = CombatantPanel("Resisting creature", "b")
        self.flag = widgets.Checkbox(description="", indent=False)
        self.contest_odds = widgets.HTML()
        self.contest_result = widgets.HTML()
        self.rolls = 0
        for control in [self.option, self.flag, *self.first.controls(),
                        *self.second.controls()]:
            control.observe(safe(self.error)(lambda _c: self.render_contest()), names="value")
        self.roll_button = button("Roll contest", self.roll_contest, error=self.error,
                                  name="roll")
        # flanking
        self.field = Battlefield(self.GRID, self.GRID)
        self.cells: dict[tuple[int, int], widgets.Button] = {}
        for y in range(self.GRID):
            for x in range(self.GRID):
                cell = button("·", self._cycle(x, y), error=self.field_error,
                              name=f"cell-{x}-{y}",
                              tooltip=f"square ({x},{y}): empty, ally, enemy")
                cell.layout = widgets.Layout(width="44px", height="44px", min_height="40px")
                self.cells[(x, y)] = cell
        grid = widgets.GridBox(
            [self.cells[(x, y)] for y in range(self.GRID) for x in range(self.GRID)],
            layout=widgets.Layout(grid_template_columns=f"repeat({self.GRID}, 46px)",
                                  grid_gap="2px", max_width="100%"))
        self.flank_text = widgets.HTML()
        clear = button("Clear grid", self.field.clear, error=self.field_error, name="clear")
        # diagonal counter
        self.counter = MovementCounter(speed=30)
        self.speed = int_box("Speed (ft)", 30, "speed", 0, MAX_SPEED)
        self.steps = {d: self._step_button(d)
                      for d in ("nw", "n", "ne", "w", "e", "sw", "s", "se")}
        pad = widgets.GridBox(
            [self.steps[d] if d else widgets.HTML("")
             for d in ("nw", "n", "ne", "w", "", "e", "sw", "s", "se")],
            layout=widgets.Layout(grid_template_columns="repeat(3, 56px)", grid_gap="2px"))
        self.move_text = widgets.HTML()
        self.move_buttons = {
            "set-speed": button("Set speed",
                                lambda: act(self.counter, "set_speed", self.speed.read()),
                                error=self.move_error, name="set-speed"),
            "dash": button("Dash", mover(self.counter, "dash"), error=self.move_error, name="dash"),
            "new-turn": button("New turn", mover(self.counter, "new_turn"), error=self.move_error,
                               name="new-turn"),
            "undo-move": button("Undo", lambda: undo(self.counter), error=self.move_error,
                                name="undo-move"),
        }
        self.speed.observe(lambda _c: self.render_counter(), names="value")
        self.speed.observe(safe(self.error)(lambda _c: self.render_contest()), names="value")
        self.file = SaveLoad(self.counter, "movement.json", what="movement count",
                             error=self.move_error)
        app_box(
            _heading("Contests"),
            self.option, self.first, self.second, self.flag,
            self.contest_odds, self.controls, row(self.roll_button), self.contest_result,
            self.error,
            _heading("Flanking"),
            widgets.HTML("Tap a square: empty → ally (A) → enemy (E). Flanked creatures "
                         "turn red, their flankers green."),
            grid, self.flank_text, row(clear), self.field_error,
            _heading("Diagonal moves"),
            row(self.speed), pad, self.move_error, self.move_text,
            row(*self.move_buttons.values()), self.file,
            box=self,
        )
        self.render_contest()
        bind(self.field, self.render_field, error=self.field_error)
        bind(self.counter, self.render_counter, error=self.move_error)

    # contests
    def contest(self) -> Any:
        option = maneuver(self.option.value)
        return option.build(self.first.combatant(option.initiator),
                            self.second.combatant(option.resister), bool(self.flag.value))

    def render_contest(self) -> None:
        option = maneuver(self.option.value)
        self.first.title.value = frag(el("b", option.initiator.capitalize()), " (acts)")
        self.second.title.value = frag(el("b", option.resister.capitalize()), " (resists)")
        self.flag.description = option.flag
        self.flag.layout.display = "" if option.flag else "none"
        bad = first_bad_box(*self.first.numbers, *self.second.numbers)
        disable_for(self.roll_button, bad)
        if bad is not None:
            self.contest_odds.value = el("div", el("i", "Fix the numbers above."),
                                         class_="tc-contest-odds")
            return
        try:
            contest = self.contest()
        except Exception:
            disable_for(self.roll_button, "this contest is not allowed (see the message below)")
            raise
        odds = contest.odds()
        self.controls.set_hint("no dice: automatic" if contest.automatic else faces_hint(
            f"{contest.initiator.as_check().dice}+{contest.resister.as_check().dice}"))
        auto = (el("div", f"Automatic success: {contest.automatic}")
                if contest.automatic else None)
        self.contest_odds.value = el(
            "div", auto,
            el("div", f"{contest.initiator} vs {contest.resister}"),
            el("div", el("b", f"{option.initiator} wins"), ": ", chance_html(odds.initiator)),
            el("div", el("b", f"{option.resister} wins"), ": ", chance_html(odds.resister),
               " (ties ", chance_html(odds.tie), ", status quo)"),
            el("div", f"On a win: {contest.on_success}"), self._drag_html(),
            class_="tc-contest-odds")

    def _drag_html(self) -> Markup:
        """For a grapple: the grappler's speed (the movement counter's) while moving the
        grappled target, from the two sizes."""
        if self.option.value != "grapple" or first_bad_box(self.speed) is not None:
            return Markup()
        speed = self.speed.read()
        dragged = speed_while_moving_grappled(speed, Size.parse(self.first.size.value),
                                              Size.parse(self.second.size.value))
        return el("div", f"Moving the grappled target: speed {speed} ft becomes ",
                  el("b", f"{dragged} ft"), class_="tc-drag-speed", data_feet=dragged)

    def roll_contest(self) -> None:
        """Roll the contest in the mode picked, or from the d20s typed in."""
        contest = self.contest()
        # A contest moves no tracker: rolled as the declared rule, so that verify makes
        # both totals and the winner again from the log (companion.rule_rolls).
        out = self.controls.run_rule(f"5e contest: {self.option.value}", contest_call(contest))
        self.rolls += 1
        if out.shown and out.value is not None:
            self.contest_result.value = el("div", f"{out.value} ",
                                           el("small", "(", how_rolled(out), ")"),
                                           class_="tc-contest-roll", data_n=self.rolls)
        else:
            self.contest_result.value = el("div", out.hidden_html(), class_="tc-contest-roll",
                                           data_n=self.rolls, data_hidden=1)

    # flanking
    def _cycle(self, x: int, y: int) -> Callable[[], None]:
        def cycle() -> None:
            self.field.cycle(x, y)
        return cycle

    def render_field(self) -> None:
        flanked, flanking = self.field.flanked_squares(), self.field.flanking_squares()
        for (x, y), cell in self.cells.items():
            kind = self.field.kind_at(x, y)
            cell.description = {"": "·", "ally": "A", "enemy": "E"}[kind]
            cell.button_style = ("danger" if (x, y) in flanked else
                                 "success" if (x, y) in flanking else
                                 "info" if kind == "ally" else "warning" if kind else "")
        found = self.field.flanked()
        lines = [el("li", f"{target} is flanked by ",
                    join((f"{a} and {b}" for a, b in pairs), "; "))
                 for target, pairs in found.items()]
        self.flank_text.value = (el("ul", lines, class_="tc-flanked", data_n=len(found))
                                 if lines else
                                 el("div", "Nobody is flanked.", class_="tc-flanked", data_n=0))

    # diagonal moves
    def _step_button(self, direction: str) -> widgets.Button:
        btn = button(direction.upper(), lambda: act(self.counter, "step", direction),
                     error=self.move_error, name=f"step-{direction}")
        btn.layout = widgets.Layout(width="56px", height="44px", min_height="40px")
        return btn

    def render_counter(self) -> None:
        c = self.counter
        self.move_text.value = frag(
            el("div", el("b", c.feet), f" / {c.allowance} ft moved",
               " (dashed)" if c.dashed else "", class_="tc-feet", data_feet=c.feet,
               style="font-size:18px"),
            el("div", f"next diagonal costs {c.next_cost('ne')} ft · {c.remaining} ft left"))
        for direction, btn in self.steps.items():
            disable_for(btn, c.step_refusal(direction))
        b = self.move_buttons
        disable_for(b["dash"], None if not c.dashed else "already dashed this turn")
        disable_for(b["set-speed"], first_bad_box(self.speed))
        disable_for(b["undo-move"], None if c.can_undo else "nothing to undo")
