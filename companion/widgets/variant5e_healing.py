"""Hit Dice and the healing variants: healer's kit dependency, healing surges, slow natural
healing.

``HitDiceApp`` drives a [HitDice][companion.rulesets.variant5e.healing.HitDice] tracker:
damage, short and long rests, the healer's kit, a surge and each Hit Die (rolled, or a die
the player rolled at the table), with the exact odds of what the next dice heal. On a
phone (issue 44) a rolled Hit Die is sent to the table, which rolls it: the app says it
waits, then shows the table's face (or its refusal) when the answer comes.

Usage in a notebook::

    from companion.widgets.variant5e_healing import HitDiceApp
    HitDiceApp()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.rulesets.variant5e.healing import HitDice, hit_dice_healing, rest_recovery
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    chance_html,
    draw_seed,
    int_box,
    log_html,
    row,
    safe,
)
from companion.widgets.markup import details_html, el, frag
from companion.widgets.rolls import RollControls, RuleRoll, TableAnswers, act_of
from companion.widgets.seat_controls import act, mover, show_undo, undo

__all__ = ["HitDiceApp"]

_SWITCHES = (("healers_kit_dependency", "Healer's kit dependency"),
             ("healing_surges", "Healing surges"),
             ("slow_natural_healing", "Slow natural healing"))


class HitDiceApp(widgets.VBox):
    """A character's hit points and Hit Dice under the chosen healing variants.

    ``seed_source`` draws the seed of each rolled Hit Die (shown, so it can be replayed);
    ``who`` names the character in the heading (the campaign passes its member's record,
    "Hit Dice: NAME").
    """

    def __init__(self, tracker: HitDice | None = None, *,
                 seed_source: Callable[[], int] = draw_seed, who: str = "",
                 controls: RollControls | None = None) -> None:
        super().__init__()
        self.add_class("tc-hit-dice-app")
        self.who = who
        self.model = tracker if tracker is not None else HitDice(
            level=5, die=8, con_modifier=2, max_hp=44, hp=44, hit_dice=5)
        self.seed_source = seed_source
        self.error = e = ErrorLine()
        m = self.model
        # The roll mode and "I rolled it myself" for the rolled Hit Dice (the campaign
        # passes controls for its viewer; alone, every roll is public).
        self.controls = controls if controls is not None else RollControls(
            seed_source=seed_source, hint=f"1d{m.die}", name="hit-die")
        self.switches = {}
        for field, label in _SWITCHES:
            box = widgets.Checkbox(value=bool(getattr(m, field)), description=label,
                                   indent=False)
            box.add_class(f"tc-check-{field.replace('_', '-')}")
            # A switch the seat may not turn (another's record) says so on the error line.
            box.observe(safe(e)(lambda ch, f=field: self._switch(f, bool(ch["new"]))),
                        names="value")
            self.switches[field] = box
        self.damage = int_box("Damage", 10, "damage", 0, 999)
        self.face = int_box("Die shows", 1, "face", 1, 12)
        self.buttons = {
            "damage": button("Take damage", lambda: act(m, "take_damage", self.damage.read()),
                             error=e, name="damage"),
            "short": button("Short rest", mover(m, "short_rest"), error=e, name="short"),
            "long": button("Long rest", mover(m, "long_rest"), error=e, name="long"),
            "kit": button("Healer's kit", mover(m, "treat_with_healers_kit"), error=e, name="kit"),
            "surge": button("Healing surge", mover(m, "healing_surge"), error=e, name="surge"),
            "roll": button("Roll a Hit Die", self.roll_die, error=e, name="roll"),
            "enter": button("Spend die shown", lambda: act(m, "spend_hit_die", self.face.read()),
                            error=e, name="enter"),
            "undo": button("Undo", lambda: undo(m), error=e, name="undo"),
        }
        self.last = widgets.HTML()
        self.status = widgets.HTML()
        self.odds = widgets.HTML()
        self.history = widgets.HTML()
        b = self.buttons
        app_box(
            widgets.HTML(frag(el("b", "Hit Dice and healing"),
                              who and frag(": ", el("span", who, class_="tc-who")))),
            row(*self.switches.values()),
            self.status,
            row(self.damage, b["damage"], b["short"], b["long"]),
            row(b["kit"], b["surge"], b["undo"]),
            self.controls,
            row(b["roll"], self.face, b["enter"]),
            self.last,
            self.odds,
            self.error,
            self.history,
            SaveLoad(m, "hit-dice.json", what="Hit Dice record", error=e),
            box=self,
        )
        #: Hit Dice sent to the table and not answered yet (a phone's: the table rolls).
        self.answers = TableAnswers(self.controls.session, self._shown, self._refused)
        bind(m, self.render, error=e)

    def _switch(self, field: str, value: bool) -> None:
        """A variant switch applies at once (it is part of the saved record)."""
        if getattr(self.model, field) != value:
            try:
                act(self.model, "set_variant", field, value)
            finally:
                self.render()  # a refused switch shows the record's setting again

    def roll_die(self) -> None:
        """Roll a Hit Die (or take the die rolled at the table) and spend it, in the mode
        the controls say (logged in the campaign's roll log)."""
        m = self.model
        label = f"{self.who}: Hit Die d{m.die}" if self.who else f"Hit Die d{m.die}"
        out = self.controls.run_act(label, m, "roll_hit_die")
        session = self.controls.session
        if self.answers.wait(out, act_of(session, m, "roll_hit_die")):
            # A phone's: the table rolls it; its answer is shown when it comes (_shown).
            self.last.value = el("div", out.hidden_html(), class_="tc-hit-die tc-waiting",
                                 data_face="waiting")
            return
        self._shown(out)

    def _shown(self, out: RuleRoll[Any]) -> None:
        """A Hit Die's roll as this viewer may see it: its face and how it was rolled."""
        if not out.shown:
            self.last.value = out.hidden_html()
            return
        face = out.value
        if type(face) is not int:  # a resent act answered from its events: its log line
            self.last.value = el("div", out.text or "rolled at the table",
                                 class_="tc-hit-die", data_face="table")
            return
        how = "real dice" if out.physical else details_html(f"seed {out.seed}")
        self.last.value = el("div", f"d{self.model.die} shows ", el("b", face), " ",
                             el("small", "(", how, ")"), class_="tc-hit-die",
                             data_face=face)

    def _refused(self, reason: str) -> None:
        self.last.value = el("div", f"Not rolled: {reason}", class_="tc-hit-die tc-refused",
                             data_face="refused")

    def render(self) -> None:
        m = self.model
        self.controls.set_hint(f"1d{m.die}")
        self.face.max = m.die  # the box says "1 to 8" for a d8, as the rule does
        for field, box in self.switches.items():
            if box.value != getattr(m, field):
                box.value = bool(getattr(m, field))
        rest = rest_recovery(m.level, healing_surges=m.healing_surges,
                             slow_natural_healing=m.slow_natural_healing)
        window = ("spend Hit Dice now" if m.can_spend and not m.needs_healers_kit
                  else "a healer's kit first" if m.needs_healers_kit
                  else f"surge: {m.surge_dice_left} dice" if m.surge_dice_left
                  else "Hit Dice are spent after a rest or in a surge")
        self.status.value = frag(
            el("div", el("b", m.hp), f" / {m.max_hp} HP · {m.hit_dice}/{m.level} "
               f"Hit Dice (d{m.die}{m.con_modifier:+d})", class_="tc-hp", data_hp=m.hp,
               data_hit_dice=m.hit_dice, style="font-size:20px"),
            el("div", f"{window} · long rest +{rest['long_rest_hit_dice']} Hit Dice, "
               f"{'full HP' if rest['long_rest_restores_hp'] else 'no HP'}"))
        spendable = m.surge_dice_left or (m.hit_dice if m.can_spend else 0)
        if spendable:
            dist = hit_dice_healing(1, m.die, m.con_modifier)
            # One chip per outcome, wrapping on a phone (a wide table squeezes each cell).
            cells = (el("span", f"{k} hp: ", chance_html(p),
                        style="display:inline-block;white-space:nowrap;margin-right:12px")
                     for k, p in dist.items())
            self.odds.value = el("div", el("b", "next die heals"), ": ", cells,
                                 class_="tc-odds")
        else:
            self.odds.value = ""
        show_undo(self.buttons["undo"], m)
        self.history.value = log_html(m.log)
