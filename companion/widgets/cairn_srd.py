"""Components for the Cairn SRD apps: character sheet, spellcasting, duel, lockpicking, combat.

Each component is a VBox over one core tracker ([companion.rulesets.cairn_srd][]); it
renders from the model after every move (``bind``) and holds no rule logic: buttons call
the tracker's moves, and a refused move shows its one-line error in the app.

Every component takes ``seed`` (an ``int`` replays the same dice; ``None`` draws one) and
an optional existing tracker to show.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.dice.render import fraction_text, percent
from companion.errors import CompanionError
from companion.rulesets.cairn_srd import lockpicking, spellcasting
from companion.rulesets.cairn_srd.burden import SLOTS, TAGS, USAGE_DICE
from companion.rulesets.cairn_srd.character import Character, new_character
from companion.rulesets.cairn_srd.combat import (
    GAMBITS,
    WEAPON_DICE,
    Attack,
    Combatant,
    Encounter,
    gambit,
)
from companion.rulesets.cairn_srd.duel import TACTICS, Duel
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.widgets.base import ErrorLine, app_box, bind, button, column, row, safe, text_box

__all__ = [
    "CairnCharacterSheet",
    "CombatTracker",
    "DuelPanel",
    "LockpickingPanel",
    "SpellcastingPanel",
]

CAIRN_CSS = """
.tc-app .tc-slots { list-style: none; margin: 4px 0; padding: 0; }
.tc-app .tc-slot { padding: 4px 6px; border: 1px solid #ccc; border-radius: 4px; margin: 2px 0;
  min-height: 40px; display: flex; flex-flow: row wrap; align-items: center; gap: 6px; }
.tc-app .tc-slot-empty { color: #888; font-style: italic; }
.tc-app .tc-slot.tc-slot-blank { min-height: 26px; padding: 1px 6px; }
.tc-app .tc-slot-fatigue { background: #fff4d6; }
.tc-app .tc-slot-wound { background: #fde2e2; }
.tc-app .tc-stats { font-size: 15px; line-height: 1.5; }
.tc-app .tc-stats b { font-size: 17px; }
.tc-app .tc-outcome { padding: 6px; border-left: 4px solid #555; margin: 4px 0;
  background: #f6f6f6; overflow-wrap: anywhere; }
.tc-app .tc-scar { color: #8a1c1c; font-weight: 700; }
.tc-app table.tc-grid { border-collapse: collapse; font-size: 14px; max-width: 100%; }
.tc-app table.tc-grid td, .tc-app table.tc-grid th { border: 1px solid #ccc; padding: 3px 6px; }
.tc-app .tc-small { flex: 0 1 70px; width: 70px; }
.tc-app .tc-labelled { gap: 4px; }
.tc-app .tc-label { font-size: 14px; color: #333; }
.tc-app table.tc-nowrap td { white-space: nowrap; }
.tc-app table.tc-grid th { white-space: nowrap; overflow-wrap: normal; }
.tc-app .tc-side { font-size: 12px; color: #555; }
.tc-app .tc-p { white-space: nowrap; }
.tc-app .widget-checkbox { align-items: center; }
.tc-app .widget-checkbox .widget-label-basic { display: flex; align-items: center; }
.tc-app .tc-joiners select, .tc-app .tc-blast-targets select { font-size: 16px; }
.tc-app .tc-dice-choice button { min-height: 40px; min-width: 48px; font-size: 16px; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise CompanionError(f"{what}: expected a whole number, got {text.strip()!r}") from None


def _pct(p: Any) -> str:
    return f'<span class="tc-p">{percent(p)}</span> <small>({fraction_text(p)})</small>'


def _small_box(placeholder: str, value: str = "", name: str | None = None) -> widgets.Text:
    box = text_box(placeholder, value=value, name=name)
    box.add_class("tc-small")
    box.continuous_update = True
    return box


def _labelled(label: str, widget: widgets.Widget) -> widgets.HBox:
    """A short label kept beside its input (placeholders vanish once a value is there)."""
    box = widgets.HBox(
        [widgets.HTML(f'<span class="tc-label">{_e(label)}</span>'), widget],
        layout=widgets.Layout(width="auto", flex="0 1 auto", align_items="center"),
    )
    box.add_class("tc-labelled")
    return box


def _css() -> widgets.HTML:
    return widgets.HTML(f"<style>{CAIRN_CSS}</style>", layout=widgets.Layout(display="none"))


class _Panel(widgets.VBox):
    """Shared plumbing: an rng, an error line, an outcome line with a move counter."""

    def __init__(self, seed: int | None) -> None:
        super().__init__()
        self.rng = random.Random(seed if seed is not None else random.SystemRandom().random())
        self.error = ErrorLine()
        self.outcome = widgets.HTML('<div class="tc-outcome" data-n="0">Ready.</div>')
        self.n = 0

    def _show(self, text: str, extra: str = "") -> None:
        self.n += 1
        self.outcome.value = f'<div class="tc-outcome" data-n="{self.n}">{_e(text)}{extra}</div>'

    def _btn(
        self, label: str, action: Callable[[], Any], name: str, style: str = ""
    ) -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    def _save_load(self, model: Any) -> widgets.VBox:
        """Save (JSON into the box) and Load (from the box) for any tracker."""
        area = widgets.Textarea(
            placeholder="saved state (JSON)",
            layout=widgets.Layout(width="96%", height="70px"),
        )
        area.add_class("tc-json")

        def save() -> None:
            area.value = model.to_json()
            self._show("State saved below: copy it somewhere safe.")

        def load() -> None:
            model.load(area.value)
            self._show("State loaded.")

        return column(row(self._btn("Save", save, "save"), self._btn("Load", load, "load")), area)


# -- character sheet ---------------------------------------------------------------------


class CairnCharacterSheet(_Panel):
    """A character sheet: stats, 10 burden slots to fill and empty, damage and rest."""

    def __init__(self, character: Character | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed)
        self.character = character or new_character("Ash", 12, 10, 9, 5, armor=2)
        c = self.character
        self.stats = widgets.HTML()
        self.slots = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.item_name = text_box("item name", name="item-name")
        self.item_name.continuous_update = True
        self.item_tag = widgets.Dropdown(
            options=list(TAGS), value="normal", layout=widgets.Layout(width="110px")
        )
        self.item_qty = _small_box("qty", "1", name="item-qty")
        die_options = [("no Ud", 0)] + [(f"Ud{d}", d) for d in USAGE_DICE]
        self.item_die = widgets.Dropdown(
            options=die_options, value=0, layout=widgets.Layout(width="90px")
        )
        self.damage_box = _small_box("damage", "7", name="damage")
        self.boast_goal = text_box("boast: the goal you vow before an audience", name="boast")
        self.boast_goal.continuous_update = True
        self.boast_ability = widgets.Dropdown(options=["STR", "DEX", "CTRL"], value="STR",
                                              layout=widgets.Layout(width="90px"))
        self.new_name = text_box("name", value=c.name, name="new-name")
        self.new_name.continuous_update = True
        self.new_stats = {k: _small_box(k, str(v), name=f"new-{k.lower()}") for k, v in
                          (("STR", c.strength_max), ("DEX", c.dexterity_max),
                           ("CTRL", c.control_max), ("GD", c.guard_max), ("Armor", c.armor))}
        self.direct = widgets.Checkbox(
            description="direct", indent=False, layout=widgets.Layout(width="80px")
        )
        self.children = ()
        app_box(
            _css(),
            self.stats,
            widgets.HTML("<b>Burden</b>"),
            self.slots,
            row(
                self.item_name,
                self.item_tag,
                self.item_qty,
                self.item_die,
                self._btn("Add item", self.add_item, "add-item", "primary"),
            ),
            row(
                self._btn("+ Fatigue", lambda: self._move(c.add_fatigue), "fatigue"),
                self._btn("+ Wound", lambda: self._move(c.add_wound), "wound"),
            ),
            widgets.HTML("<b>Damage</b>"),
            row(
                self.damage_box,
                self.direct,
                self._btn("Take damage", self.take_damage, "take-damage", "danger"),
            ),
            row(
                self._btn("Rest a turn", lambda: self._move(c.rest_turn), "rest-turn"),
                self._btn("Rest a night", lambda: self._move(c.rest_night), "rest-night"),
                self._btn("Rest a day", lambda: self._move(c.rest_day), "rest-day"),
                self._btn("Panic save", self.panic, "panic"),
                self._btn("Undo", self.undo, "undo"),
            ),
            self.error,
            self.outcome,
            widgets.HTML("<b>Boasts and inspiration</b>"),
            row(self.boast_goal, self.boast_ability),
            row(
                self._btn("Boast", self.boast, "boast"),
                self._btn("Fulfil", lambda: self._move(c.fulfil_boast), "fulfil"),
                self._btn("Shirk", lambda: self._move(c.shirk_boast), "shirk"),
                self._btn("+ Inspiration", lambda: self._move(c.earn_inspiration), "inspire"),
                self._btn("Roll inspiration", self.inspiration, "roll-inspiration"),
            ),
            widgets.HTML("<b>New character</b> (replaces this one)"),
            row(self.new_name),
            row(*[_labelled(k, b) for k, b in self.new_stats.items()],
                self._btn("New character", self.new, "new-character")),
            self._save_load(c),
            box=self,
        )
        bind(c, self.render, error=self.error)

    def _move(self, fn: Callable[[], Any]) -> None:
        fn()
        self._show(self.character.log[-1].summary)

    def new(self) -> None:
        s = {k: _int(b.value, k) for k, b in self.new_stats.items()}
        fresh = new_character(self.new_name.value, s["STR"], s["DEX"], s["CTRL"], s["GD"],
                              s["Armor"])
        self.character.load(fresh.to_json())
        self._show(f"New character: {self.character.name}")

    def add_item(self) -> None:
        qty = _int(self.item_qty.value or "1", "Quantity")
        self.character.add_item(
            self.item_name.value, self.item_tag.value, qty, self.item_die.value or None
        )
        self.item_name.value = ""
        self._show(self.character.log[-1].summary)

    def take_damage(self) -> None:
        amount = _int(self.damage_box.value, "Damage")
        report = self.character.take_damage(amount, direct=self.direct.value, rng=self.rng)
        extra = ""
        if report.scar:
            extra = (
                f'<div class="tc-scar" data-scar="{_e(report.scar)}">Scar: '
                f"{_e(report.scar)} — {_e(report.scar_effect)}</div>"
            )
        self._show(str(report), extra)

    def boast(self) -> None:
        self.character.make_boast(self.boast_goal.value, self.boast_ability.value)
        self._show(self.character.log[-1].summary)

    def inspiration(self) -> None:
        dice = self.character.use_inspiration(rng=self.rng)
        self._show(f"Inspiration dice {dice}: keep one (best {max(dice)})")

    def panic(self) -> None:
        result = self.character.panic_save(rng=self.rng)
        self._show(f"Panic save: {result}")

    def undo(self) -> None:
        event = self.character.undo()
        self._show(f"Undone: {event.summary}")

    def _slot_row(self, index: int) -> widgets.Widget:
        c = self.character
        item = c.items[index]
        label = widgets.HTML(
            f"{_e(item.label)} <small>({item.slots} slot{'s' if item.slots != 1 else ''})</small>"
        )
        buttons: list[widgets.Widget] = []
        if item.kind == "item":
            if item.usage_die or item.tag in ("bundle", "stack", "coins"):
                buttons.append(
                    self._btn(
                        "Use",
                        lambda: self._move(lambda: c.use_item(index, rng=self.rng)),
                        f"use-{index}",
                    )
                )
            buttons.append(
                self._btn("Drop", lambda: self._move(lambda: c.drop_item(index)), f"drop-{index}")
            )
        elif item.kind == "wound":
            buttons.append(
                self._btn("Heal", lambda: self._move(lambda: c.heal_wound(index)), f"heal-{index}")
            )
        box = row(label, *buttons)
        box.add_class("tc-slot")
        box.add_class(f"tc-slot-{item.kind}")
        return box

    def render(self) -> None:
        c = self.character
        guard_note = "" if c.effective_guard == c.guard else " (counts as 0)"
        scars = ", ".join(c.scars) or "none"
        self.stats.value = (
            f'<div class="tc-stats" data-guard="{c.guard}" data-free="{c.free_slots}">'
            f"<b>{_e(c.name)}</b> — {_e(c.status)}<br>"
            f"STR <b>{c.strength}</b>/{c.strength_max} · DEX <b>{c.dexterity}</b>/"
            f"{c.dexterity_max} · CTRL <b>{c.control}</b>/{c.control_max}<br>"
            f'Guard <b class="tc-guard">{c.guard}</b>/{c.guard_max}{guard_note} · Armor '
            f"{c.armor} · Fatigue {c.fatigue} · Dooms {c.dooms} · Inspiration {c.inspiration}"
            + (f"<br>Boast: {_e(c.boast)}" if c.boast else "")
            + f'<br>Scars: <span class="tc-scars">{_e(scars)}</span> · Slots used '
            f"{c.slots_used}/{SLOTS}</div>"
        )
        rows: list[widgets.Widget] = [self._slot_row(i) for i in range(len(c.items))]
        for _ in range(c.free_slots):
            empty = widgets.HTML('<span class="tc-slot-empty">— empty slot —</span>')
            box = row(empty)
            box.add_class("tc-slot")
            box.add_class("tc-slot-blank")  # nothing to tap: shorter, so Damage stays in reach
            rows.append(box)
        self.slots.children = rows


# -- spellcasting --------------------------------------------------------------------------


class SpellcastingPanel(_Panel):
    """Choose magic dice, see the exact odds, cast and see what happened."""

    def __init__(self, character: Character | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed)
        self.character = character or new_character("Mage", 9, 10, 14, 3)
        c = self.character
        self.dice = widgets.ToggleButtons(
            options=[str(n) for n in range(1, 5)], value="1", style={"button_width": "48px"}
        )
        self.dice.add_class("tc-dice-choice")
        self.odds = widgets.HTML()
        self.status = widgets.HTML()
        self.dice.observe(lambda _c: safe(self.error)(self.render_odds)(), names="value")
        app_box(
            _css(),
            widgets.HTML("<b>Magic dice to invest</b>"),
            self.dice,
            row(
                self._btn("Cast", self.cast, "cast", "primary"),
                self._btn("Rest a night", lambda: self._note(c.rest_night), "rest-night"),
                self._btn("Ban over", lambda: self._note(c.end_casting_ban), "ban-over"),
                self._btn("Undo", self.undo, "undo"),
            ),
            self.error,
            self.outcome,
            self.status,
            self.odds,
            box=self,
        )
        bind(c, self.render, error=self.error)

    def _note(self, fn: Callable[[], Any]) -> None:
        fn()
        self._show(self.character.log[-1].summary)

    def render_odds(self) -> None:
        n = int(self.dice.value)
        c = self.character
        odds = spellcasting.magic_dice_odds(n, 3 if c.mishap_fatigue_from_3 else 4)
        fatigue = "".join(
            f"<tr><td>{k}</td><td>{_pct(p)}</td></tr>" for k, p in odds.fatigue.items()
        )
        faces = "".join(
            f"<tr><td>{f}</td><td>{_pct(odds.mishap_faces[f])}</td>"
            f"<td>{_e(spellcasting.read_magic_dice((f, f)).mishap)}</td></tr>"
            for f in range(1, 7)
        )
        self.odds.value = (
            f'<div class="tc-odds" data-dice="{n}">With <b>{n}</b> magic '
            f'{"die" if n == 1 else "dice"}: mishap <b class="tc-mishap-p">'
            f'{_pct(odds.mishap)}</b> · doom <b class="tc-doom-p">{_pct(odds.doom)}</b> · '
            f"mean Fatigue <b>{odds.fatigue_mean}</b> (max now: {c.max_magic_dice()})"
            f'<table class="tc-grid"><tr><th>Fatigue</th><th>chance</th></tr>{fatigue}'
            "</table>"
            '<table class="tc-grid"><tr><th>Mishap</th><th>chance</th><th>effect</th></tr>'
            f"{faces}</table></div>"
        )

    def render(self) -> None:
        c = self.character
        bar = c.casting_bar or "no"
        self.status.value = (
            f'<div class="tc-stats">{_e(c.name)}: free slots {c.free_slots}, Fatigue '
            f"{c.fatigue}, CTRL {c.control}/{c.control_max}, dooms {c.dooms}, "
            f"casting barred: {_e(bar)}</div>"
        )
        self.render_odds()

    def cast(self) -> None:
        report = self.character.cast(int(self.dice.value), rng=self.rng)
        r = report.reading
        mishap = ""
        if r.mishap_face is not None:
            mishap = (
                f'<div class="tc-mishap" data-mishap="{r.mishap_face}">Mishap '
                f"{r.mishap_face}: {_e(r.mishap)}</div>"
            )
        self._show(str(report), mishap)

    def undo(self) -> None:
        self._show(f"Undone: {self.character.undo().summary}")


# -- duel --------------------------------------------------------------------------------------


class DuelPanel(_Panel):
    """Two players choose in secret; the choices show only once both are in."""

    def __init__(self, duel: Duel | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed)
        self.duel = duel or Duel()
        d = self.duel
        self.name_boxes = [
            text_box("first duelist", value="Vera", name="name-0"),
            text_box("second duelist", value="Osk", name="name-1"),
        ]
        self.hp_boxes = [
            _small_box("hit points", "8", name="hp-0"),
            _small_box("hit points", "8", name="hp-1"),
        ]
        self.stakes = text_box("the stakes: what winning and losing mean", name="stakes")
        for box in (*self.name_boxes, self.stakes):
            box.continuous_update = True
        self.board = widgets.HTML()
        self.choice_rows = [
            row(
                widgets.HTML(),
                *[
                    self._btn(t.capitalize(), self._choose(side, t), f"choose-{side}-{t}")
                    for t in TACTICS
                ],
            )
            for side in (0, 1)
        ]
        app_box(
            _css(),
            row(self.name_boxes[0], _labelled("HP", self.hp_boxes[0])),
            row(self.name_boxes[1], _labelled("HP", self.hp_boxes[1])),
            row(self.stakes, self._btn("Start duel", self.start, "start", "primary")),
            self.board,
            *self.choice_rows,
            row(self._btn("Undo", self.undo, "undo")),
            self.error,
            self.outcome,
            box=self,
        )
        bind(d, self.render, error=self.error)

    def start(self) -> None:
        self.duel.start(
            self.name_boxes[0].value,
            self.name_boxes[1].value,
            _int(self.hp_boxes[0].value, "Hit points"),
            _int(self.hp_boxes[1].value, "Hit points"),
            self.stakes.value,
        )
        self._show(self.duel.log[-1].summary)

    def _choose(self, side: int, tactic: str) -> Callable[[], None]:
        def choose() -> None:
            if self.duel.choose(side, tactic, rng=self.rng) is not None:
                self._show(self.duel.log[-1].summary)
            else:
                self._show(f"{self.duel.names[side]} has chosen (hidden).")

        return choose

    def undo(self) -> None:
        self._show(f"Undone: {self.duel.undo().summary}")

    def render(self) -> None:
        d = self.duel
        if not d.stakes:
            self.board.value = "<div class='tc-stats'>Set names, hit points and stakes.</div>"
        else:
            state = (
                f"<b>Winner: {_e(d.winner)}</b>"
                if d.winner
                else f"Round {d.rounds + 1}: choose in secret"
            )
            self.board.value = (
                f'<div class="tc-stats tc-duel" data-rounds="{d.rounds}">Stakes: '
                f"{_e(d.stakes)}<br>{_e(d.names[0])} <b>{d.hit_points[0]}</b> hp · "
                f"{_e(d.names[1])} <b>{d.hit_points[1]}</b> hp<br>{state}</div>"
            )
        for side, box in enumerate(self.choice_rows):
            chosen = bool(d.choices[side])
            label = f"{_e(d.names[side])}: " + ("chosen ✓ (hidden)" if chosen else "choose")
            box.children[0].value = f'<span class="tc-choice-{side}">{label}</span>'
            for b in box.children[1:]:
                b.disabled = chosen or d.over or not d.stakes


# -- lockpicking -------------------------------------------------------------------------------


class LockpickingPanel(_Panel):
    """Roll a lock and pick it: tap, probe, rake, study, break off."""

    def __init__(self, lock: LockPicking | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed)
        self.lock = lock or LockPicking.create(rng=self.rng)
        lp = self.lock
        self.board = widgets.HTML()
        app_box(
            _css(),
            self.board,
            row(
                *[
                    self._btn(f"{name.capitalize()} ({key})", self._pick(key), f"pick-{key}")
                    for key, name in lockpicking.ACTIONS.items()
                ]
            ),
            row(
                self._btn("Study (2 of 3)", self.study, "study"),
                self._btn("Break off", lambda: self._show(lp.break_off()), "break"),
                self._btn(
                    "New lock", lambda: self._show(lp.new_lock(rng=self.rng)), "new-lock", "primary"
                ),
                self._btn("Undo", self.undo, "undo"),
            ),
            self.error,
            self.outcome,
            self._save_load(lp),
            box=self,
        )
        bind(lp, self.render, error=self.error)

    def _pick(self, key: str) -> Callable[[], None]:
        return lambda: self._show(self.lock.pick(key))

    def study(self) -> None:
        result = self.lock.study(2, rng=self.rng)
        self._show(f"Study: {result}; known: {self.lock.hint}")

    def undo(self) -> None:
        self._show(f"Undone: {self.lock.undo().summary}")

    def render(self) -> None:
        lp = self.lock
        state = (
            "open"
            if lp.opened
            else "broken off"
            if lp.broken
            else "jammed"
            if lp.jammed
            else "stiff"
            if lp.stiff
            else "untouched"
            if not lp.mistakes
            else "picking"
        )
        effect = lockpicking.complications().get(lp.complication, "")
        self.board.value = (
            f'<div class="tc-stats tc-lock" data-state="{state}">'
            f"<b>{_e(lp.lock_type)}</b> lock (DV {lp.dv}) · complication "
            f"<b>{_e(lp.complication)}</b>: {_e(effect)}<br>Tumblers open: <b>{lp.progress}/3"
            f"</b> · state: <b>{state}</b> · known: <code>{_e(lp.hint)}</code> · turns "
            f"{lp.turns} · mistakes {lp.mistakes}"
            + (" · ALARM" if lp.alarm else "")
            + (f" · traps sprung {lp.traps_sprung}" if lp.traps_sprung else "")
            + "</div>"
        )


# -- combat ------------------------------------------------------------------------------------


class CombatTracker(_Panel):
    """An encounter: combatants, initiative, attacks, morale and turns."""

    def __init__(self, encounter: Encounter | None = None, *, seed: int | None = None) -> None:
        super().__init__(seed)
        self.encounter = encounter or Encounter()
        e = self.encounter
        self.f_name = text_box("name", name="c-name")
        self.f_name.continuous_update = True
        self.f_side = widgets.Dropdown(
            options=["PCs", "Enemies"], value="Enemies", layout=widgets.Layout(width="110px")
        )
        self.f_stats = {
            k: _small_box(k, v, name=f"c-{k.lower()}")
            for k, v in (("GD", "3"), ("STR", "10"), ("DEX", "10"), ("CTRL", "10"), ("Armor", "0"))
        }
        self.f_weapon = widgets.Dropdown(
            options=[(f"d{d}", d) for d in WEAPON_DICE],
            value=6,
            layout=widgets.Layout(width="80px"),
        )
        self.f_flags = {
            k: widgets.Checkbox(description=k, indent=False, layout=widgets.Layout(width="auto"))
            for k in ("PC", "detachment", "leader")
        }
        self.f_side.add_class("tc-c-side")
        for k, box in self.f_flags.items():
            box.add_class(f"tc-c-flag-{k.lower()}")
        self.attacker = widgets.Dropdown(description="", layout=widgets.Layout(width="140px"))
        self.target = widgets.Dropdown(description="", layout=widgets.Layout(width="140px"))
        self.attacker.add_class("tc-attacker")
        self.target.add_class("tc-target-select")
        self.joiners = widgets.SelectMultiple(rows=3, layout=widgets.Layout(width="160px"))
        self.joiners.add_class("tc-joiners")
        self.blast_targets = widgets.SelectMultiple(rows=3, layout=widgets.Layout(width="160px"))
        self.blast_targets.add_class("tc-blast-targets")
        self.second_weapon = widgets.Dropdown(
            options=[("none", 0)] + [(f"d{d}", d) for d in WEAPON_DICE],
            value=0,
            layout=widgets.Layout(width="80px"),
        )
        self.second_weapon.add_class("tc-second")
        self.flags = {
            k: widgets.Checkbox(description=k, indent=False, layout=widgets.Layout(width="auto"))
            for k in ("impaired", "enhanced", "unarmed", "blast")
        }
        self.impaired, self.enhanced = self.flags["impaired"], self.flags["enhanced"]
        for k, box in self.flags.items():
            box.add_class(f"tc-flag-{k}")
        self.gambit_choices: dict[int, widgets.Dropdown] = {}
        self.gambit_box = column()
        self.gambit_box.add_class("tc-gambits")
        self.board = widgets.HTML()
        self.morale_row = row()
        app_box(
            _css(),
            self.board,
            widgets.HTML("<b>Add combatant</b>"),
            row(self.f_name, self.f_side, self.f_weapon),
            row(*[_labelled(k, b) for k, b in self.f_stats.items()]),
            row(*self.f_flags.values(), self._btn("Add", self.add, "add")),
            row(
                self._btn("Roll initiative", self.initiative, "initiative", "primary"),
                self._btn("End turn", lambda: self._show(f"Now: {e.end_turn()}"), "end-turn"),
                self._btn("Undo", self.undo, "undo"),
            ),
            widgets.HTML("<b>Attack</b>"),
            row(self.attacker, widgets.HTML("→"), self.target),
            row(
                _labelled("joined by", self.joiners),
                _labelled("second weapon", self.second_weapon),
                _labelled("blast also hits", self.blast_targets),
            ),
            widgets.HTML(
                '<span class="tc-side">Several attackers or two weapons: every die is rolled, '
                "the highest is applied. A blast rolls for each target in its area.</span>"
            ),
            row(*self.flags.values()),
            row(
                self._btn("Attack", self.attack, "attack", "danger"),
                self._btn("Roll for a gambit", self.roll_for_gambit, "roll-gambit"),
            ),
            self.gambit_box,
            self.morale_row,
            self.error,
            self.outcome,
            self._save_load(e),
            box=self,
        )
        bind(e, self.render, error=self.error)

    def add(self) -> None:
        s = {k: _int(v.value, k) for k, v in self.f_stats.items()}
        self.encounter.add(
            self.f_name.value,
            self.f_side.value,
            s["GD"],
            s["STR"],
            s["DEX"],
            s["CTRL"],
            s["Armor"],
            self.f_weapon.value,
            pc=self.f_flags["PC"].value,
            detachment=self.f_flags["detachment"].value,
            leader=self.f_flags["leader"].value,
        )
        self.f_name.value = ""
        self._show(self.encounter.log[-1].summary)

    def initiative(self) -> None:
        self.encounter.roll_initiative(rng=self.rng)
        self._show(self.encounter.log[-1].summary)

    def _attack_args(self) -> dict[str, Any]:
        if not self.attacker.value or not self.target.value:
            raise CompanionError("Attacking: choose an attacker and a target")
        # Picking the attacker or the target as a helper too means nothing more: dropped.
        joined = [n for n in self.joiners.value
                  if n not in (self.attacker.value, self.target.value)]
        return {
            "attackers": [self.attacker.value, *joined],
            "target": self.target.value,
            "second_weapon": self.second_weapon.value or None,
            **{k: box.value for k, box in self.flags.items()},
        }

    def _blast_area(self) -> list[str]:
        return [n for n in self.blast_targets.value if n != self.target.value]

    def _description(self) -> Attack:
        return Attack(self.attacker.value or "", self.target.value or "",
                      joined=tuple(self.joiners.value),
                      second_weapon=self.second_weapon.value or None,
                      blast_area=tuple(self.blast_targets.value),
                      **{k: box.value for k, box in self.flags.items()})

    def attack(self) -> None:
        self._show(self.encounter.attack(self._description(), rng=self.rng))

    def roll_for_gambit(self) -> None:
        self._show(self.encounter.attack(self._description(), hold_for_gambits=True,
                                         rng=self.rng))

    def resolve(self) -> None:
        chosen = {i: dd.value for i, dd in self.gambit_choices.items() if dd.value}
        self._show(self.encounter.resolve_attack(chosen, rng=self.rng))

    def _render_gambits(self) -> None:
        p = self.encounter.pending
        self.gambit_choices = {}
        if p is None:
            self.gambit_box.children = ()
            return
        rows: list[widgets.Widget] = [widgets.HTML(
            f'<div class="tc-stats tc-pending"><b>{_e(" + ".join(p.attackers))} → '
            f"{_e(p.target)}</b>: spend a die of 4+ on a gambit, or keep it; the highest "
            "die kept deals the damage.</div>"
        )]
        for i, (die, rolled) in enumerate(zip(p.dice, p.rolls, strict=True)):
            label = widgets.HTML(f'<span class="tc-die-{i}">d{die} = <b>{rolled}</b></span>')
            if p.can_gambit(i):
                dd = widgets.Dropdown(
                    options=[("keep for damage", "")] + [(g, g) for g in GAMBITS],
                    value="",
                    layout=widgets.Layout(width="210px"),
                )
                dd.add_class(f"tc-gambit-{i}")
                self.gambit_choices[i] = dd
                rows.append(row(label, dd, widgets.HTML(
                    f'<span class="tc-side">as a gambit: {_e(gambit(rolled))}</span>')))
            else:
                rows.append(row(label, widgets.HTML('<span class="tc-side">kept (under 4)'
                                                    "</span>")))
        rows.append(row(self._btn("Apply attack", self.resolve, "resolve", "danger")))
        self.gambit_box.children = tuple(rows)

    def _morale(self, name: str) -> Callable[[], None]:
        def roll_it() -> None:
            self.encounter.morale_save(name, rng=self.rng)
            self._show(self.encounter.log[-1].summary)

        return roll_it

    def undo(self) -> None:
        self._show(f"Undone: {self.encounter.undo().summary}")

    def render(self) -> None:
        e = self.encounter
        rows = "".join(
            f"<tr class='tc-c-{c.status}'><td>{_e(c.name)}{' ★' if c.leader else ''}<br>"
            f"<span class='tc-side'>{'PC' if c.pc else _e(c.side)}"
            f"{' · detachment' if c.detachment else ''}</span></td>"
            f"<td>{c.guard}/{c.guard_max}</td><td>{c.strength}</td>"
            f"<td>{c.armor}</td><td>d{c.weapon}</td><td>{c.status}</td></tr>"
            for c in e.combatants
        )
        phase = {"setup": "setting up", "over": "over"}.get(e.phase, f"{e.phase} act")
        self.board.value = (
            f'<div class="tc-stats tc-combat" data-round="{e.round}" data-phase="{e.phase}">'
            f"Round <b>{e.round}</b> · {phase}"
            + (f" · morale due: {_e(', '.join(e.morale_due))}" if e.morale_due else "")
            + "<table class='tc-grid tc-nowrap'><tr><th>Name</th><th>GD</th><th>STR</th>"
            f"<th>AR</th><th>Die</th><th>Status</th></tr>{rows}</table></div>"
        )
        names = [c.name for c in e.combatants if c.active]
        for dd in (self.attacker, self.target):
            keep = dd.value
            dd.options = names
            dd.value = keep if keep in names else (names[0] if names else None)
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
        self._render_gambits()
        self.morale_row.children = tuple(
            self._btn(f"Morale save: {n}", self._morale(n), f"morale-{i}")
            for i, n in enumerate(e.morale_due)
        )


def demo_encounter() -> Encounter:
    """A small starting fight for the app (the players can add their own)."""
    return Encounter(
        combatants=[
            Combatant("Ash", "PCs", 5, 5, 12, 12, 10, armor=1, weapon=8, pc=True),
            Combatant("Goblin boss", "Enemies", 3, 3, 8, 10, 8, weapon=8, leader=True),
            Combatant("Goblin", "Enemies", 2, 2, 6, 10, 6, weapon=6),
        ]
    )
