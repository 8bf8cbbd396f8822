"""The Monsters & Magic sheet's further controls: every move of the sheet a button.

``SheetMovesPanel`` sits in each character's panel of the Monsters & Magic app and makes
the moves the first rows do not: ongoing, forward and hold; Prepared; bonds and
reputation; temporary HP and damage affinities; variable AP costs and breaking free;
detonating a condition; an ally's help for a PC knocked out by exhaustion; Death's
bargain; rests with the two activities chosen and the supplies spent; Bonds of Fate and
Lucky Find (paid with a thread or with Inspired, the GM gaining per the table's reading);
and the GM's reroll of this character's check. The rules are the sheet's
([Adventurer][companion.rulesets.monsters_and_magic.adventurer.Adventurer]); this panel
only reads boxes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import LIMIT
from companion.rulesets.monsters_and_magic.adventurer import Adventurer
from companion.rulesets.monsters_and_magic.conditions_and_statuses import CONDITIONS
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.rest_and_recovery import activities
from companion.widgets.base import (
    ErrorLine,
    button,
    check_box,
    draw_seed,
    escape,
    int_box,
    row,
    text_box,
)

__all__ = ["SheetMovesPanel"]

_AFFINITIES = ("normal", "resistant", "vulnerable", "immune")


def _pick(options: list[str], value: str, label: str, name: str,
          width: str = "220px") -> widgets.Dropdown:
    box = widgets.Dropdown(options=options, value=value, description=label,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width=width, max_width="100%"))
    box.add_class(f"tc-pick-{name}")
    return box


class SheetMovesPanel(widgets.VBox):
    """The rest of one character's moves (see the module docs)."""

    def __init__(self, adventurer: Adventurer, party: Party | None = None,
                 error: ErrorLine | None = None,
                 seed_source: Callable[[], int] = draw_seed) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-sheet-moves")
        a = self.adventurer = adventurer
        if party is None:
            party = Party()
            party.add(a)
        self.party = party
        self.seed_source = seed_source
        self.error = e = error if error is not None else ErrorLine()
        self.result = widgets.HTML()

        def b(label: str, action: Callable[[], Any], name: str) -> widgets.Button:
            return button(label, action, error=e, name=name)

        self.label = text_box("source, kind, ally, group...", value="blessing", name="label")
        self.value = int_box("Value", 1, "value", -LIMIT, LIMIT, width="130px")
        self.statement = text_box("bond statement", name="statement")
        self.affinity = _pick(list(_AFFINITIES), "normal", "Affinity", "affinity", "200px")
        self.condition = _pick(list(CONDITIONS), next(iter(CONDITIONS)), "Condition", "condition")
        self.inspired = check_box("pay with Inspired", "inspired")
        short, long = list(activities("short")), list(activities("long"))
        self.rest_kind = _pick(["short", "long"], "short", "Rest", "rest-kind", "160px")
        self.first = _pick(long, short[0], "Activity 1", "activity-1", "260px")
        self.second = _pick(["(none)", *long], short[1], "Activity 2", "activity-2", "260px")
        self.supplies = int_box("Supplies spent", 0, "supplies", 0, 10_000)
        self.exhaustion_supplies = int_box("On exhaustion", 0, "exhaustion-supplies", 0, 10_000)
        self.together = check_box("prepared with the party", "together")
        self.numbers = {
            key: int_box(label, int(getattr(a, key)), f"num-{key.replace('_', '-')}", low, high,
                         width="130px")
            for key, label, low, high in (
                ("focus", "FOC", -LIMIT, LIMIT), ("power", "POW", -LIMIT, LIMIT),
                ("cunning", "CUN", -LIMIT, LIMIT), ("luck", "LCK", -LIMIT, LIMIT),
                ("max_hp", "Max HP", 1, 10_000), ("ac", "AC", 0, LIMIT),
                ("max_threads", "Threads", 0, LIMIT), ("max_fatigue", "Fatigue", 0, LIMIT),
                ("max_exhaustion", "Exhaustion", 0, LIMIT), ("supplies", "Supplies", 0, 10_000))
        }
        self.death_reading = _pick(["sheet", "bare"], a.death_roll_reading,
                                   "Death rolls read", "death-reading", "240px")
        self.death_reading.observe(lambda ch: self._death_reading(str(ch["new"])),
                                   names="value")
        self.ally_pick = widgets.Dropdown(options=[], description="Ally",
                                          layout=widgets.Layout(width="200px"))
        self.ally_pick.add_class("tc-pick-ally")
        ab = self.label

        def text() -> str:
            return str(ab.value)

        self.buttons = {
            "ongoing": b("Add ongoing", lambda: a.add_ongoing(text(), self.value.read()),
                         "ongoing"),
            "end-ongoing": b("End ongoing", lambda: a.end_ongoing(text()), "end-ongoing"),
            "forward": b("Take forward", lambda: a.take_forward(self.value.read()), "forward"),
            "hold": b("Gain hold", lambda: a.gain_hold(text(), self.value.read()), "hold"),
            "spend-hold": b("Spend hold", lambda: a.spend_hold(text(), self.value.read()),
                            "spend-hold"),
            "prepared": b("Use Prepared (+2 forward)", a.use_prepared, "prepared"),
            "prepared-hold": b("Spend prepared hold", lambda: a.use_prepared(True),
                               "prepared-hold"),
            "bond": b("Add bond", lambda: a.add_bond(text(), self.statement.value), "bond"),
            "resolve": b("Resolve bond", lambda: a.resolve_bond(
                text(), self.value.read(), self.statement.value), "resolve"),
            "session": b("End session", a.end_session, "session"),
            "reputation": b("Reputation ±", lambda: a.change_reputation(
                text(), self.value.read()), "reputation"),
            "temp-hp": b("Temporary HP", lambda: a.gain_temp_hp(self.value.read()), "temp-hp"),
            "damage": b("Damage (affinity)", lambda: a.take_damage(
                self.value.read(), self.affinity.value), "damage-affinity"),
            "ap": b("Spend AP (amount)", lambda: a.spend_ap(text(), self.value.read()),
                    "spend-ap-amount"),
            "break-free": b("Break free", a.break_free, "break-free"),
            "detonate": b("Detonate", lambda: a.detonate(self.condition.value,
                                                         seed=self.seed_source()), "detonate"),
            "ally": b("An ally helps recover", lambda: a.ally_helps_recover(text()), "ally"),
            "recover": b("Recover exhaustion", lambda: a.recover_exhaustion(
                self.value.read()), "recover"),
            "supplies": b("Gain supplies", lambda: a.gain_supplies(self.value.read()),
                          "gain-supplies"),
            "accept": b("Accept Death's bargain", lambda: a.accept_deaths_bargain(text()),
                        "accept-bargain"),
            "refuse": b("Refuse Death's bargain", a.refuse_deaths_bargain, "refuse-bargain"),
            "bonds-of-fate": b("Bonds of Fate", lambda: self.party.spend_thread(
                a, "bonds_of_fate", text(), bool(self.inspired.value)), "bonds-of-fate"),
            "lucky-find": b("Lucky Find (cost)", lambda: self.party.spend_thread(
                a, "lucky_find", text(), self.value.read(), bool(self.inspired.value)),
                "lucky-find-cost"),
            "rest": b("Rest", self.rest, "rest"),
            "numbers": b("Set the sheet's numbers", lambda: a.set_numbers(
                **{k: box.read() for k, box in self.numbers.items()}), "set-numbers"),
            "tend-ally": b("Tend the ally's wounds", self.tend_ally, "tend-ally"),
            "gm-reroll": b("GM: reroll this check", self.gm_reroll, "gm-reroll"),
        }
        bt = self.buttons
        self.children = (
            widgets.HTML("<b>More of the sheet</b> — the box above names the source, kind, "
                         "ally or group; Value is the number"),
            row(self.label, self.value),
            row(bt["ongoing"], bt["end-ongoing"], bt["forward"], bt["hold"], bt["spend-hold"]),
            row(bt["prepared"], bt["prepared-hold"]),
            row(self.statement, bt["bond"], bt["resolve"], bt["session"], bt["reputation"]),
            row(self.inspired, bt["bonds-of-fate"], bt["lucky-find"]),
            row(bt["temp-hp"], self.affinity, bt["damage"], bt["ap"], bt["break-free"]),
            row(self.condition, bt["detonate"], bt["ally"], bt["recover"], bt["supplies"]),
            row(bt["accept"], bt["refuse"], self.death_reading),
            row(self.rest_kind, self.first, self.second),
            row(self.supplies, self.exhaustion_supplies, self.together, bt["rest"]),
            row(self.ally_pick, bt["tend-ally"]),
            widgets.HTML("<b>The sheet's numbers</b>"),
            row(*self.numbers.values(), bt["numbers"]),
            row(bt["gm-reroll"]),
            self.result,
        )
        self.party.on_change(lambda _party: self._allies())
        self._allies()

    def _death_reading(self, reading: str) -> None:
        if reading != self.adventurer.death_roll_reading:
            self.adventurer.set_death_roll_reading(reading)

    def _allies(self) -> None:
        names = [n for n in self.party.names if n != self.adventurer.name]
        if list(self.ally_pick.options) != names:
            keep = self.ally_pick.value
            self.ally_pick.options = names
            self.ally_pick.value = keep if keep in names else (names[0] if names else None)

    def tend_ally(self) -> int:
        """This character spends supplies on the chosen ally's wounds (Tend to Wounds)."""
        self._allies()
        if not self.ally_pick.value:
            raise RuleError("Tend to Wounds: there is no ally at the table to tend")
        healed = self.party.tend_ally(self.adventurer, self.party.get(self.ally_pick.value),
                                      self.supplies.read(), str(self.rest_kind.value))
        self.result.value = (f'<div class="tc-tend" data-healed="{healed}">tends '
                             f"{escape(self.ally_pick.value)}: +{healed} HP</div>")
        return healed

    def rest(self) -> list[str]:
        """A short or long rest with the activities chosen (one or two)."""
        a = self.adventurer
        chosen = [self.first.value] + ([self.second.value]
                                       if self.second.value != "(none)" else [])
        seed = self.seed_source()
        if self.rest_kind.value == "short":
            notes = a.short_rest(chosen, self.supplies.read(), bool(self.together.value),
                                 seed=seed)
        else:
            notes = a.long_rest(chosen, self.supplies.read(), self.exhaustion_supplies.read(),
                                bool(self.together.value), seed=seed)
        self.result.value = ('<div class="tc-rest-result">' + escape("; ".join(notes))
                             + "</div>")
        return notes

    def gm_reroll(self) -> None:
        """The GM spends a thread to reroll this character's check as it stands now."""
        result = self.party.gm.reroll_check(self.adventurer.build_check(),
                                            seed=self.seed_source())
        self.result.value = (f'<div class="tc-gm-reroll" data-total="{result.total}">GM '
                             f"reroll: {escape(result)}</div>")
