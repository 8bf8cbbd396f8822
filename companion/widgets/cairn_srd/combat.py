"""The combat app: combatants, initiative, one attack form, gambits, morale and turns."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.cairn_srd.combat import (
    GAMBITS,
    MAX_NAME,
    WEAPON_DICE,
    Attack,
    Combatant,
    Encounter,
    damage_odds,
    gambit,
    gambit_rule,
)
from companion.rulesets.cairn_srd.saves import MAX_SCORE
from companion.state import jsonable
from companion.widgets.base import SaveLoad, app_box, bind, int_box, name_box, row
from companion.widgets.cairn_srd.combat_moves import CombatMovesPanel
from companion.widgets.cairn_srd.common import (
    CairnAppBase,
    cairn_css,
    labelled,
    pct,
    said,
)
from companion.widgets.markup import Markup, el, frag
from companion.widgets.seat_controls import act, seat_refusal, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["CombatApp", "GambitPanel", "demo_encounter"]

class GambitPanel(widgets.VBox):
    """The held dice of a rolled attack, each 4+ die with a gambit to spend it on."""

    def __init__(self, app: CombatApp) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-gambits")
        self.app = app
        self.choices: dict[int, widgets.Dropdown] = {}

    def render(self) -> None:
        p = self.app.encounter.pending
        self.choices = {}
        if p is None:
            self.children = ()
            return
        rows: list[widgets.Widget] = [widgets.HTML(el(
            "div", el("b", f"{' + '.join(p.attackers)} → {p.target}"),
            f": {gambit_rule()} Keep a die for damage: the highest die kept deals it.",
            class_="tc-stats tc-pending"))]
        for i, (die, rolled) in enumerate(zip(p.dice, p.rolls, strict=True)):
            label = widgets.HTML(el("span", f"d{die} = ", el("b", rolled), class_=f"tc-die-{i}"))
            if p.can_gambit(i):
                dd = widgets.Dropdown(tooltip="Use of this die",
                                      options=[("keep for damage", "")] + [(g, g)
                                                                          for g in GAMBITS],
                                      value="", layout=widgets.Layout(width="260px"))
                dd.add_class(f"tc-gambit-{i}")
                self.choices[i] = dd
                rows.append(row(label, dd, widgets.HTML(
                    el("span", f"as a gambit: {gambit(rolled)}", class_="tc-side"))))
            else:
                rows.append(row(label, widgets.HTML(
                    el("span", "kept (too low for a gambit)", class_="tc-side"))))
        rows.append(row(self.app.btn("Apply attack", self.app.resolve, "resolve", "danger")))
        self.children = tuple(rows)

class CombatApp(CairnAppBase):
    """An encounter: combatants, initiative, attacks, gambits, morale and turns.

    Every roll (initiative, attacks, the dice held for gambits, damage saves, morale,
    maneuvers, escapes) takes a roll mode and can be entered from real dice
    ([common][companion.widgets.cairn_srd.common]). The board shows each combatant as the
    fight sees it ([Encounter.fighters][companion.rulesets.cairn_srd.combat.Encounter.fighters]):
    a party member of a linked fight as its own sheet says."""

    dice_hint = "d20 save or weapon die"  # not "d20" alone: attacks roll d6s

    def __init__(self, encounter: Encounter | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.encounter = encounter or Encounter()
        e = self.encounter
        self.f_name = name_box("Name", "", "c-name", max_len=MAX_NAME, required=False,
                               placeholder="name")
        self.f_side = widgets.Dropdown(tooltip="Side", options=["PCs", "Enemies"], value="Enemies",
                                       layout=widgets.Layout(width="110px"))
        self.f_side.add_class("tc-c-side")
        self.f_stats = {k: int_box(k, v, f"c-{k.lower()}", 0, MAX_SCORE, width="110px")
                        for k, v in (("GD", 3), ("STR", 10), ("DEX", 10), ("CTRL", 10),
                                     ("Armor", 0))}
        self.f_weapon = widgets.Dropdown(tooltip="Weapon die",
                                         options=[(f"d{d}", d) for d in WEAPON_DICE], value=6,
                                         layout=widgets.Layout(width="80px"))
        self.f_flags = {k: widgets.Checkbox(description=k, indent=False,
                                            layout=widgets.Layout(width="auto"))
                        for k in ("PC", "detachment", "leader")}
        for k, box in self.f_flags.items():
            box.add_class(f"tc-c-flag-{k.lower()}")
        self.attacker = widgets.Dropdown(tooltip="Attacker", layout=widgets.Layout(width="160px"))
        self.target = widgets.Dropdown(tooltip="Target", layout=widgets.Layout(width="160px"))
        self.attacker.add_class("tc-attacker")
        self.target.add_class("tc-target-select")
        self.joiners = widgets.SelectMultiple(tooltip="Attackers joining",
                                              rows=3, layout=widgets.Layout(width="170px"))
        self.joiners.add_class("tc-joiners")
        self.blast_targets = widgets.SelectMultiple(tooltip="Blast targets",
                                                    rows=3, layout=widgets.Layout(width="170px"))
        self.blast_targets.add_class("tc-blast-targets")
        self.second_weapon = widgets.Dropdown(tooltip="Second weapon",
            options=[("none", 0)] + [(f"d{d}", d) for d in WEAPON_DICE], value=0,
            layout=widgets.Layout(width="80px"))
        self.second_weapon.add_class("tc-second")
        self.flags = {k: widgets.Checkbox(description=k, indent=False,
                                          layout=widgets.Layout(width="auto"))
                      for k in ("impaired", "enhanced", "unarmed", "blast")}
        for k, box in self.flags.items():
            box.add_class(f"tc-flag-{k}")
        # Who acts first: the fiction decides (no roll), initiative only when in doubt.
        self.surprised = widgets.SelectMultiple(tooltip="Surprised player characters",
                                                rows=2, layout=widgets.Layout(width="170px"))
        self.surprised.add_class("tc-surprised")
        self.gambits = GambitPanel(self)
        self.board = widgets.HTML()
        self.odds = widgets.HTML()  # the described attack's exact damage odds
        for box in (self.attacker, self.target, self.second_weapon, *self.flags.values()):
            box.observe(lambda _c: self.render_odds(), "value")
        self.morale_row = row()
        self.buttons = {
            "initiative": self.btn("Roll initiative (in doubt)", self.initiative, "initiative",
                                   "primary"),
            "begin-pcs": self.btn("PCs act first", lambda: self.begin("PCs"), "begin-pcs"),
            "begin-enemies": self.btn("Enemies act first", lambda: self.begin("Enemies"),
                                      "begin-enemies"),
            "end-turn": self.btn("End turn", lambda: self.show(f"Now: {act(e, 'end_turn')}"),
                                 "end-turn"),
            "undo": self.btn("Undo", self.undo, "undo"),
            "attack": self.btn("Attack", self.attack, "attack", "danger"),
            "roll-gambit": self.btn("Roll for a gambit", self.roll_for_gambit, "roll-gambit"),
        }
        b = self.buttons
        self.file = SaveLoad(e, "cairn-encounter.json", what="encounter")
        self.moves = CombatMovesPanel(e, self)
        app_box(
            cairn_css(),
            self.board,
            widgets.HTML(el("b", "Add combatant")),
            row(self.f_name, self.f_side, self.f_weapon),
            row(*self.f_stats.values()),
            row(*self.f_flags.values(), self.btn("Add", self.add, "add")),
            widgets.HTML(frag(el("b", "Who acts first"), " ", el(
                "span", "by the fiction; roll initiative only when it is in doubt",
                class_="tc-side"))),
            row(b["begin-pcs"], b["begin-enemies"], labelled("surprised", self.surprised)),
            row(b["initiative"], b["end-turn"], b["undo"]),
            widgets.HTML(el("b", "Attack")),
            row(self.attacker, widgets.HTML("→"), self.target),
            row(labelled("joined by", self.joiners),
                labelled("second weapon", self.second_weapon),
                labelled("blast also hits", self.blast_targets)),
            widgets.HTML(el("span", "Several attackers or two weapons: every die is rolled, "
                            "the highest is applied. A blast rolls for each target in its area.",
                            class_="tc-side")),
            row(*self.flags.values()),
            self.odds,
            row(b["attack"], b["roll-gambit"]),
            self.gambits,
            self.morale_row,
            self.moves,
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        bind(e, self.render, error=self.error)

    @property
    def gambit_choices(self) -> dict[int, widgets.Dropdown]:
        return self.gambits.choices

    def add(self) -> None:
        name = self.f_name.read()
        s = {k: box.read() for k, box in self.f_stats.items()}
        act(self.encounter, "add", name, self.f_side.value, s["GD"], s["STR"], s["DEX"], s["CTRL"],
                           s["Armor"], self.f_weapon.value, pc=self.f_flags["PC"].value,
                           detachment=self.f_flags["detachment"].value,
                           leader=self.f_flags["leader"].value)
        self.f_name.value = ""
        self.show(self.encounter.log[-1].summary)

    def initiative(self) -> None:
        e = self.encounter
        surprised = list(self.surprised.value)

        def text(results: dict[str, Any]) -> str:
            return said(e, "; ".join(f"{name}: {result}" for name, result in results.items()))

        self.roll("initiative", (e, "roll_initiative", {"surprised": surprised}), text)

    def begin(self, first: str) -> None:
        self.show(act(self.encounter, "begin", first, list(self.surprised.value)))

    def description(self) -> Attack:
        """The attack as the form describes it (the model checks it)."""
        return Attack(self.attacker.value or "", self.target.value or "",
                      joined=tuple(self.joiners.value),
                      second_weapon=self.second_weapon.value or None,
                      blast_area=tuple(self.blast_targets.value),
                      **{k: bool(box.value) for k, box in self.flags.items()})

    def render_odds(self) -> None:
        """The dice the attack as described would roll and its exact damage odds (before
        Armor), or nothing while the rules would refuse it."""
        e = self.encounter
        try:
            sides = e.attack_dice(self.description())
        except RuleError:
            self.odds.value = Markup()
            return
        odds = damage_odds(sides)
        shown = ", ".join(f"d{d}" for d in sides)
        self.odds.value = el(
            "div", f"Damage dice {shown}" + (", the highest kept" if len(sides) > 1 else "")
            + f": average {float(odds.mean):.2f}; {odds.max} or more ",
            pct(odds.at_least(odds.max)), class_="tc-side tc-damage-odds")

    def _label(self, what: str) -> str:
        return f"{self.attacker.value or '?'} → {self.target.value or '?'}: {what}"

    def attack(self) -> None:
        described = self.description()
        self.roll(self._label("attack"),
                  (self.encounter, "attack", {"description": jsonable(described)}))

    def roll_for_gambit(self) -> None:
        described = self.description()
        self.roll(self._label("attack dice (gambits)"), (self.encounter, "attack", {
            "description": jsonable(described), "hold_for_gambits": True}))

    def resolve(self) -> None:
        chosen = {i: dd.value for i, dd in self.gambits.choices.items() if dd.value}
        pending = self.encounter.pending
        label = (f"{' + '.join(pending.attackers)} → {pending.target}: damage"
                 if pending is not None else "damage")
        # (JSON object keys are text: the move reads a die's position back as a number.)
        self.roll(label, (self.encounter, "resolve_attack",
                          {"gambits": {str(i): g for i, g in chosen.items()}}))

    def _morale(self, name: str) -> Callable[[], None]:
        def roll_it() -> None:
            e = self.encounter
            self.roll(f"{name}: morale save", (e, "morale_save", {"name": name}),
                      lambda r: said(e, f"{name} morale save: {r}"))
        return roll_it

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.encounter).summary}")

    def render(self) -> None:
        e = self.encounter
        rows = (el("tr", el("td", c.name + (" ★" if c.leader else ""), el("br"), el(
                    "span", ("PC" if c.pc else c.side) + (" · detachment" if c.detachment else ""),
                    class_="tc-side"), class_="tc-name-cell"),
                   el("td", f"{c.guard}/{c.guard_max}"), el("td", c.strength), el("td", c.armor),
                   el("td", f"d{c.weapon}"), el("td", c.status), class_=f"tc-c-{c.status}")
                for c in e.fighters)
        phase = {"setup": "setting up", "over": "over"}.get(e.phase, f"{e.phase} act")
        # Initiative's winners act before the enemy: say so, or the header contradicts the log.
        first = [c.name for c in e.combatants if c.acted_first]
        if first and e.phase == "Enemies":
            phase = f"acting first: {', '.join(first)}, then Enemies act"
        self.board.value = el(
            "div", "Round ", el("b", e.round), f" · {phase}"
            + (f" · morale due: {', '.join(e.morale_due)}" if e.morale_due else ""),
            el("table", el("tr", (el("th", h) for h in ("Name", "GD", "STR", "AR", "Die",
                                                        "Status"))),
               rows, class_="tc-grid tc-nowrap"),
            class_="tc-stats tc-combat", data_round=e.round, data_phase=e.phase)
        names = [c.name for c in e.fighters if c.active]
        # A player's seat attacks as their own character only (the GM: anyone).
        attackers = [n for n in names if seat_refusal(
            e, "attack", {"description": {"attacker": n, "joined": []}}) is None]
        for dd, offered in ((self.attacker, attackers), (self.target, names)):
            keep = dd.value
            dd.options = offered
            dd.value = keep if keep in offered else (offered[0] if offered else None)
        if len(names) > 1 and self.target.value == self.attacker.value:
            self.target.value = next(n for n in names if n != self.attacker.value)
        # The same list as the dropdowns, changed only by moves: a selection the browser
        # sends while another change is in flight still means the same names.
        for many in (self.joiners, self.blast_targets):
            if tuple(many.options) != tuple(names):
                chosen = many.value
                many.options = names
                many.rows = max(2, min(5, len(names)))  # every name in view, up to five
                many.value = tuple(n for n in chosen if n in names)
        pcs = [c.name for c in e.fighters if c.pc and c.active]
        if tuple(self.surprised.options) != tuple(pcs):
            chosen = self.surprised.value
            self.surprised.options = pcs
            self.surprised.rows = max(2, min(5, len(pcs)))
            self.surprised.value = tuple(n for n in chosen if n in pcs)
        self.gambits.render()
        self.render_odds()
        self.morale_row.children = tuple(
            self.btn(f"Morale save: {n}", self._morale(n), f"morale-{i}")
            for i, n in enumerate(e.morale_due))
        b = self.buttons
        fighting = e.phase not in ("setup", "over")
        b["initiative"].disabled = b["begin-pcs"].disabled = e.phase != "setup"
        b["begin-enemies"].disabled = e.phase != "setup"
        b["end-turn"].disabled = not fighting or bool(e.morale_due) or e.pending is not None
        b["attack"].disabled = b["roll-gambit"].disabled = (
            e.phase == "over" or e.pending is not None or len(names) < 2)
        show_undo(b["undo"], e)


def demo_encounter() -> Encounter:
    """A small starting fight for the app (the players can add their own)."""
    return Encounter(combatants=[
        Combatant("Ash", "PCs", 5, 5, 12, 12, 10, armor=1, weapon=8, pc=True),
        Combatant("Goblin boss", "Enemies", 3, 3, 8, 10, 8, weapon=8, leader=True),
        Combatant("Goblin", "Enemies", 2, 2, 6, 10, 6, weapon=6),
    ])
