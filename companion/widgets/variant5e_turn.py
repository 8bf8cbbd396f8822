"""The 5e combat-turn tracker: the action economy of one creature through a round.

``CombatTurnApp`` drives a [Turn][companion.rulesets.variant5e.actions.Turn] (action, object
interactions, ready, reaction, dodge, concentration) and a
[Reactions][companion.rulesets.variant5e.mark.Reactions] record (mark, opportunity
attacks), says whether a movement provokes an opportunity attack, checks two-weapon
fighting and carries a cleaving blow on. Every rule is the package's; the app only reads
boxes and shows results.

Usage in a notebook::

    from companion.widgets.variant5e_turn import CombatTurnApp
    CombatTurnApp()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.variant5e.actions import ACTIONS, CASTING_TIMES, Turn
from companion.rulesets.variant5e.cleaving import Foe, cleave
from companion.rulesets.variant5e.mark import Reactions
from companion.rulesets.variant5e.opportunity_attack import provokes_opportunity_attack
from companion.rulesets.variant5e.two_weapon_fighting import (
    Weapon,
    bonus_attack_damage_modifier,
    check_two_weapon_fighting,
)
from companion.widgets.base import (
    ErrorLine,
    app_box,
    bind,
    button,
    check_box,
    int_box,
    log_html,
    row,
    text_box,
)
from companion.widgets.markup import el, frag
from companion.widgets.seat_controls import act, mover

__all__ = ["CombatTurnApp"]

#: Most creatures a cleave carries through (a bound on the typed list, not a rule).
MAX_FOES = 20


class CombatTurnApp(widgets.VBox):
    """One creature's turn: action, object interactions, ready, reaction, concentration,
    mark and opportunity attacks, with two-weapon fighting and cleaving beside them.

    ``turn`` and ``reactions`` are the trackers to drive (the campaign passes its
    member's own, "Turn: NAME" and "Reactions: NAME"); ``who`` names the creature.
    """

    def __init__(self, turn: Turn | None = None, reactions: Reactions | None = None, *,
                 who: str = "") -> None:
        super().__init__()
        self.add_class("tc-turn-app")
        self.who = who
        self.turn = turn if turn is not None else Turn()
        self.reactions = reactions if reactions is not None else Reactions()
        self.error = ErrorLine()
        e = self.error

        def b(label: str, action: Callable[[], Any], name: str) -> widgets.Button:
            return button(label, action, error=e, name=name)

        t, r = self.turn, self.reactions
        self.action = widgets.Dropdown(tooltip="Action", options=list(ACTIONS), value="attack",
                                       layout=widgets.Layout(width="auto"))
        self.action.add_class("tc-pick-action")
        self.trigger = text_box("trigger, e.g. the orc steps out", name="trigger")
        self.spell = text_box("readied spell (optional)", name="spell")
        # The readied spell's casting time: the rules refuse any but 1 action.
        self.casting_time = widgets.Dropdown(tooltip="Casting time", options=CASTING_TIMES,
                                             value=CASTING_TIMES[0],
                                             layout=widgets.Layout(width="auto"))
        self.casting_time.add_class("tc-pick-casting-time")
        self.target = text_box("target", value="" if who else "orc", name="target")
        self.buttons = {
            "start": b("Start turn", mover(t, "start_turn"), "start"),
            "action": b("Take action", lambda: act(t, "take_action", self.action.value), "action"),
            "object": b("Object interaction", mover(t, "interact_with_object"), "object"),
            "ready": b("Ready", lambda: act(t, "ready", self.trigger.value, self.spell.value,
                                                 self.casting_time.value),
                       "ready"),
            "release": b("Release readied", mover(t, "release_readied"), "release"),
            "reaction": b("Use reaction", mover(t, "use_reaction"), "reaction"),
            "end-conc": b("End concentration", mover(t, "end_concentration"), "end-conc"),
            "break-conc": b("Concentration broken", mover(t, "break_concentration"), "break-conc"),
            "lose-dodge": b("Lose dodge", mover(t, "lose_dodge"), "lose-dodge"),
            "own-start": b("Mark: my turn starts", mover(r, "start_own_turn"), "own-start"),
            "melee": b("Melee attack (mark)", lambda: act(r, "melee_attack", self.target.value),
                       "melee"),
            "own-end": b("Mark: my turn ends", mover(r, "end_own_turn"), "own-end"),
            "next": b("Another creature's turn", mover(r, "next_turn"), "next"),
            "oa": b("Opportunity attack", self.opportunity_attack, "oa"),
        }
        self.can_react = check_box("can take reactions", "can-react")
        self.can_react.value = self.reactions.can_take_reactions
        self.can_react.observe(lambda ch: self._react_switch(bool(ch["new"])), names="value")
        self.oa_result = widgets.HTML()
        # Provoking: the movement's circumstances.
        self.leaves = check_box("leaves your reach", "leaves")
        self.sees = check_box("you can see it", "sees")
        self.sees.value = True
        self.disengaged = check_box("it disengaged", "disengaged")
        self.teleported = check_box("teleported", "teleported")
        self.moved = check_box("moved by another", "moved")
        self.provokes = widgets.HTML()
        for box in (self.leaves, self.sees, self.disengaged, self.teleported, self.moved):
            box.observe(lambda _ch: self.render_provoke(), names="value")
        # Two-weapon fighting.
        self.main_light = check_box("main weapon light", "main-light")
        self.off_light = check_box("off-hand weapon light", "off-light")
        self.main_light.value = self.off_light.value = True
        self.ability = int_box("Ability modifier", 3, "ability", -5, 10, width="210px")
        self.twf = b("Bonus attack?", self.two_weapon, "twf")
        self.twf_result = widgets.HTML()
        # Cleaving.
        self.damage = int_box("Damage", 12, "damage", 0, 999)
        self.attack_roll = int_box("Attack total", 18, "attack-roll", -10, 99)
        self.foes = text_box("foes: name hp ac; ...", value="goblin 7 13; orc 15 13",
                             name="foes")
        self.cleave_button = b("Cleave", self.cleave, "cleave")
        self.cleave_result = widgets.HTML()
        self.status = widgets.HTML()
        self.history = widgets.HTML()
        bt = self.buttons
        app_box(
            widgets.HTML(frag(el("b", f"Combat turn{': ' + who if who else ''}"),
                              " — action economy, mark, opportunity attacks")),
            self.status,
            row(bt["start"], self.action, bt["action"], bt["object"]),
            row(self.trigger, self.spell, self.casting_time, bt["ready"], bt["release"]),
            row(bt["reaction"], bt["end-conc"], bt["break-conc"], bt["lose-dodge"]),
            widgets.HTML(el("b", "Mark and opportunity attacks")),
            row(self.target, bt["melee"], bt["oa"], self.can_react),
            row(bt["own-start"], bt["own-end"], bt["next"]),
            self.oa_result,
            widgets.HTML(el("b", "Does this movement provoke?")),
            row(self.leaves, self.sees, self.disengaged, self.teleported, self.moved),
            self.provokes,
            widgets.HTML(el("b", "Two-weapon fighting")),
            row(self.main_light, self.off_light),
            row(self.ability, self.twf),
            self.twf_result,
            widgets.HTML(el("b", "Cleaving")),
            row(self.damage, self.attack_roll),
            row(self.foes, self.cleave_button),
            self.cleave_result,
            self.error,
            self.history,
            box=self,
        )
        bind(self.turn, self.render, error=e)
        bind(self.reactions, self.render, error=e)
        self.render_provoke()

    def _react_switch(self, able: bool) -> None:
        if able != self.reactions.can_take_reactions:
            act(self.reactions, "set_can_take_reactions", able)

    def opportunity_attack(self) -> None:
        edge = act(self.reactions, "opportunity_attack", self.target.value)
        self.oa_result.value = el("div", f"opportunity attack: {edge.value}", class_="tc-oa",
                                  data_edge=edge.value)

    def render_provoke(self) -> None:
        yes = provokes_opportunity_attack(
            leaves_reach=bool(self.leaves.value), can_see_mover=bool(self.sees.value),
            disengaged=bool(self.disengaged.value), teleported=bool(self.teleported.value),
            moved_by_other=bool(self.moved.value))
        self.provokes.value = el("div", "provokes an opportunity attack" if yes
                                 else "no opportunity attack", class_="tc-provokes",
                                 data_provokes=str(yes).lower())

    def two_weapon(self) -> None:
        self.twf_result.value = ""
        check_two_weapon_fighting(Weapon("main weapon", light=bool(self.main_light.value)),
                                  Weapon("off-hand weapon", light=bool(self.off_light.value)))
        bonus = bonus_attack_damage_modifier(self.ability.read())
        self.twf_result.value = el("div", f"bonus attack allowed; damage adds {bonus:+d}",
                                   class_="tc-twf", data_bonus=bonus)

    def cleave(self) -> None:
        foes = parse_foes(self.foes.value)
        hits = cleave(self.damage.read(), self.attack_roll.read(), foes[0], foes[1:])
        items = (el("li", f"{h.name}: {h.damage} damage, {h.hp_left} HP left"
                    f"{' (drops)' if h.dropped else ''}", data_name=h.name, data_left=h.hp_left)
                 for h in hits)
        self.cleave_result.value = el("ol", items, class_="tc-cleave")

    def render(self) -> None:
        t, r = self.turn, self.reactions
        parts = [f"action: {t.action or 'unused'}",
                 f"object interactions {t.object_interactions}",
                 "reaction used" if t.reaction_used else "reaction ready"]
        if t.dodging:
            parts.append("dodging")
        if t.disengaged:
            parts.append("disengaged")
        if t.readied:
            parts.append(f"readied: {t.readied}"
                         + (f" ({t.readied_spell} held)" if t.readied_spell else ""))
        if t.dissipated:
            parts.append(f"{t.dissipated} dissipated")
        if t.concentrating:
            parts.append(f"concentrating on {t.concentrating}")
        parts.append(f"marked: {r.marked}" if r.marked else "no mark")
        self.status.value = el("div", " · ".join(parts), class_="tc-turn")
        self.history.value = log_html(list(t.log) + list(r.log))
        if self.can_react.value != r.can_take_reactions:
            self.can_react.value = r.can_take_reactions


def parse_foes(text: str) -> list[Foe]:
    """``"goblin 7 13; orc 15 13"`` -> foes at full HP (name, HP, AC), first one hit first."""
    foes = []
    for i, part in enumerate(p for p in text.split(";") if p.strip()):
        words = part.split()
        if len(words) < 3 or not words[-1].lstrip("-").isdigit() or not words[-2].isdigit():
            raise RuleError(f"Cleaving: foe {i + 1} must be written 'name HP AC', "
                            f"like 'orc 15 13'")
        hp, ac = int(words[-2]), int(words[-1])
        foes.append(Foe(" ".join(words[:-2]), hp, hp, ac))
    if not foes:
        raise RuleError("Cleaving: name the creature hit first, like 'orc 15 13'")
    if len(foes) > MAX_FOES:
        raise RuleError(f"Cleaving: at most {MAX_FOES} creatures")
    return foes
