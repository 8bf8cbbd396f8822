"""The dungeon crawl app: exploration turns step by step, the site clock with its exact
odds, light burning down, encounters, the darkness and escaping the dungeon.

Every rule is the core's ([companion.rulesets.cairn_srd.exploration][]): this module only
calls the moves of a [Delve][companion.rulesets.cairn_srd.exploration.Delve] and of the
party's [Character][companion.rulesets.cairn_srd.character.Character] sheets, and shows
what they say. A button the rules would refuse now is disabled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.errors import CompanionError, RuleError
from companion.rulesets.cairn_srd import exploration as ex
from companion.rulesets.cairn_srd.character import MAX_NAME, Character
from companion.rulesets.cairn_srd.exploration import Delve
from companion.rulesets.cairn_srd.saves import MAX_SCORE
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    confirm_button,
    int_box,
    name_box,
    offer,
    row,
)
from companion.widgets.cairn_srd.common import (
    CairnAppBase,
    cairn_css,
    labelled,
    pct,
    said,
)
from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.rolls import TableRoll
from companion.widgets.seat_controls import act, member_key, show_undo, table_move

if TYPE_CHECKING:
    from companion.table.session import Session

#: The table moves that put a delve's fate or settled escape on a sheet.
_FATE_TO_SHEET = "cairn_srd.exploration.apply_fate"
_ESCAPE_TO_SHEET = "cairn_srd.exploration.apply_escape"

__all__ = ["DungeonCrawlApp"]

OTHER = "other"
#: Each encounter detail's move, named in full (so the project's face test sees it reached).
DETAIL_MOVES = {"distance": "roll_distance", "activity": "roll_activity",
                "complication": "roll_complication"}
DUNGEON_CSS = """
.tc-app .tc-pc { border: 1px solid #ccc; border-radius: 4px; padding: 4px 6px; margin: 6px 0 2px;
  overflow-wrap: anywhere; }
.tc-app .tc-light-row { border-bottom: 1px solid #eee; padding-bottom: 2px; }
"""


class DungeonCrawlApp(CairnAppBase):
    """Run a party through an adventure site, turn by turn.

    ``party``: the characters (their sheets) who delve; the campaign hands its party here.
    Without one the app starts with an empty party that the user fills by name.
    ``delve``: an existing [Delve][companion.rulesets.cairn_srd.exploration.Delve] (else a
    new site: clock 20, site die d6).

    Every roll (the site die, the encounter's details, panic in the dark and its fate, the
    escape checks, a failed escape, a betrayal) takes a roll mode and can be entered from
    real dice ([common][companion.widgets.cairn_srd.common]).
    """

    dice_hint = "the die"

    def __init__(self, party: list[Character] | None = None, delve: Delve | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.can_add = party is None
        self.party: list[Character] = party if party is not None else []
        self.delve = delve if delve is not None else Delve()
        d = self.delve

        # -- the clock and the turn ------------------------------------------------------
        self.board = widgets.HTML()
        self.lookahead = int_box("Turns ahead", ex.TURNS_PER_HOUR, "lookahead", 1,
                                 ex.MAX_ODDS_TURNS, width="220px")
        self.lookahead.observe(lambda _change: self._render_odds(), names="value")
        self.odds = widgets.HTML()
        self.action = widgets.Dropdown(tooltip="Action",
            options=[(a["name"], k) for k, a in ex.ACTIONS.items()] + [("Other…", OTHER)],
            value=next(iter(ex.ACTIONS)), layout=widgets.Layout(width="300px", max_width="100%"))
        self.action.add_class("tc-select-action")
        self.other = name_box("Other", "", "other-action", max_len=ex.MAX_NOTE, required=False,
                              placeholder="what the party does", width="220px")
        self.fast = widgets.Checkbox(value=False, description="Moving fast", indent=False,
                                     layout=widgets.Layout(width="auto"))
        self.fast.add_class("tc-check-fast")
        self.note = name_box("Note", "", "turn-note", max_len=ex.MAX_NOTE, required=False,
                             placeholder="what the referee describes", width="220px")
        self.turn_error = ErrorLine()
        self.declare_button = button("1 · Declare", self.declare, error=self.turn_error,
                                     name="declare", style="primary")
        self.describe_button = button("2 · Describe", self.describe_turn, error=self.turn_error,
                                      name="describe")
        self.roll_button = button("3 · Roll site die", self.roll_die, error=self.turn_error,
                                  name="roll-die")
        self.mark_button = button("4 · Mark lights", self.mark, error=self.turn_error,
                                  name="mark")
        self.turn_buttons = {"declare": self.declare_button, "describe": self.describe_button,
                             "roll": self.roll_button, "mark": self.mark_button}

        # -- encounter -------------------------------------------------------------------
        self.encounter_view = widgets.HTML()
        self.encounter_error = ErrorLine()
        self.detail_buttons = {
            detail: button(label, self._detail(detail), error=self.encounter_error,
                           name=f"roll-{detail}")
            for detail, label in (("distance", "Distance d6"), ("activity", "Activity d12"),
                                  ("complication", "Complication d10"))}

        # -- light -----------------------------------------------------------------------
        self.light_error = ErrorLine()
        self.light_kind = widgets.Dropdown(tooltip="Light",
                                           options=[k.capitalize() for k in ex.LIGHTS],
                                           value="Torch", layout=widgets.Layout(width="120px"))
        self.light_kind.add_class("tc-select-light-kind")
        self.light_bearer = widgets.Dropdown(tooltip="Carried by",
                                             options=[("nobody", "")], value="",
                                             layout=widgets.Layout(width="160px"))
        self.light_bearer.add_class("tc-select-light-bearer")
        self.lights_view = widgets.VBox(layout=widgets.Layout(max_width="100%"))

        # -- party -----------------------------------------------------------------------
        self.party_error = ErrorLine()
        self.new_name = name_box("Name", "", "pc-name", max_len=MAX_NAME, required=False,
                                 placeholder="name", width="200px")
        self.new_stats = {k: int_box(k, 10, f"pc-{k.lower()}", 1, MAX_SCORE, width="100px")
                          for k in ("STR", "DEX", "CTRL")}
        self.party_view = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.situations = {
            key: widgets.Checkbox(value=False, description=f"{m['situation']} ({m['dv']:+d})",
                                  indent=False, layout=widgets.Layout(width="auto"))
            for key, m in ex.ESCAPE_MODIFIERS.items() if not m.get("per_item")}
        for key, box in self.situations.items():
            box.add_class(f"tc-check-{key.replace('_', '-')}")
            box.observe(lambda _change: self.render(), names="value")
        self.discard = int_box("Discarded", 0, "discard", 0, 10 * MAX_SCORE,
                               width="200px")
        self.discard.observe(lambda _change: self.render(), names="value")
        # The referee may rule a character's major Wounds relevant: -1 each to the save.
        self.wounds_count = widgets.Checkbox(value=False, indent=False,
                                             description="Major Wounds count (-1 each)",
                                             layout=widgets.Layout(width="auto"))
        self.wounds_count.add_class("tc-check-escape-wounds")
        self.wounds_count.observe(lambda _change: self.render(), names="value")
        self.dv_view = widgets.HTML()
        self.escape_error = ErrorLine()
        # The darkness's panic save for someone with no sheet here (a hireling): its CTRL
        # is typed; a character with a sheet saves on it from its own row above.
        self.dark_name = name_box("No sheet", "", "dark-name", max_len=MAX_NAME,
                                  required=False, placeholder="a hireling", width="200px")
        self.dark_control = int_box("CTRL", 10, "dark-control", 1, MAX_SCORE, width="110px")
        self.dark_save_button = button("Panic save (no sheet)", self.panic_without_sheet,
                                       error=self.escape_error, name="panic-no-sheet")

        # -- the rest --------------------------------------------------------------------
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.new_site_button = confirm_button(
            "New site", self.new_site, risky=lambda: bool(d.log), error=self.error,
            prompt="Tap again: leave this site", name="new-site")
        self.file = SaveLoad(d, "cairn-dungeon.json", what="dungeon crawl")
        self._watched: set[int] = set()

        party_adder: list[widgets.Widget] = []
        if self.can_add:
            party_adder = [row(self.new_name, *self.new_stats.values(),
                               button("Add character", self.add_character,
                                      error=self.party_error, name="add-pc"))]
        app_box(
            cairn_css(),
            widgets.HTML(el("style", Markup(DUNGEON_CSS)), layout=widgets.Layout(display="none")),
            widgets.HTML(el("h3", "Site clock")),
            self.board,
            row(self.lookahead),
            self.odds,
            widgets.HTML(el("h3", "Exploration turn")),
            row(self.action, self.fast),
            row(self.other),
            row(self.note),
            row(*self.turn_buttons.values()),
            self.turn_error,
            self.encounter_view,
            row(*self.detail_buttons.values()),
            self.encounter_error,
            self.outcome,
            widgets.HTML(el("h3", "Light")),
            row(labelled("Light", self.light_kind), labelled("Bearer", self.light_bearer),
                button("Add light", self.add_light, error=self.light_error, name="add-light"),
                button(f"+1 flask of oil ({ex.OIL_USES} uses)", self.add_oil,
                       error=self.light_error, name="add-oil")),
            self.lights_view,
            self.light_error,
            widgets.HTML(el("h3", "Party")),
            *party_adder,
            self.party_error,
            widgets.HTML(frag(el("b", "Escaping the dungeon"), " (optional rule): the DV")),
            row(*self.situations.values()),
            row(self.discard, self.wounds_count, self.dv_view),
            self.party_view,
            row(self.dark_name, self.dark_control, self.dark_save_button),
            self.escape_error,
            row(self.undo_button, self.new_site_button),
            self.error,
            self.seed_row,
            self.file,
            box=self,
        )
        bind(d, self.render, error=self.error)

    # -- helpers -------------------------------------------------------------------------

    def _said(self, seeds: list[int] | None = None) -> None:
        """Show the last move's line from the delve's log."""
        if self.delve.log:
            self.show(self.delve.log[-1].summary, seeds=seeds)

    def _watch(self, character: Character) -> None:
        if id(character) not in self._watched:
            self._watched.add(id(character))
            character.on_change(lambda _c: self.render())

    def _dv(self) -> int:
        chosen = [k for k, box in self.situations.items() if box.value]
        return ex.escape_dv(chosen, self.discard.read())

    # -- moves ---------------------------------------------------------------------------

    def declare(self) -> None:
        action = self.action.value
        if action == OTHER:
            action = self.other.read()
        act(self.delve, "declare", action, fast=bool(self.fast.value))
        self._said()

    def describe_turn(self) -> None:
        act(self.delve, "describe_turn", self.note.read())
        self.note.value = ""
        self._said()

    def roll_die(self) -> None:
        d = self.delve
        self.roll(f"site die d{d.die}", d.roll_site_die, lambda step: said(d, str(step)))

    def mark(self) -> None:
        act(self.delve, "mark_lights")
        self._said()

    def _detail(self, detail: str) -> Callable[[], None]:
        def roll() -> None:
            d = self.delve
            self.roll(f"encounter {detail}", getattr(d, DETAIL_MOVES[detail]),
                      lambda text: said(d, str(text)))
        return roll

    def add_light(self) -> None:
        act(self.delve, "add_light", str(self.light_kind.value).lower(),
            str(self.light_bearer.value))
        self._said()

    def add_oil(self) -> None:
        act(self.delve, "add_oil", 1)
        self._said()

    def _light_move(self, name: str, index: int, *args: Any) -> Callable[[], None]:
        def run() -> None:
            act(self.delve, name, index, *args)
            self._said()
        return run

    def add_character(self) -> None:
        s, dx, c = (self.new_stats[k].read() for k in ("STR", "DEX", "CTRL"))
        character = ex.join_party(self.party, self.new_name.read(), s, dx, c)
        self.show(f"{character.name} joins the party")
        self.render()

    def _panic(self, character: Character) -> Callable[[], None]:
        def run() -> None:
            d = self.delve
            self.roll(f"{character.name}: panic save in the dark",
                      TableRoll("cairn_srd.exploration.darkness_panic",
                                {"delve": d, "character": character}),
                      lambda r: said(d, f"{character.name} saves against panic in the "
                                        f"dark: {r}"))
        return run

    def panic_without_sheet(self) -> None:
        d, name, control = self.delve, self.dark_name.read(), self.dark_control.read()
        self.roll(f"{name}: panic save in the dark",
                  (d, "darkness_panic_save", {"name": name, "control": control}),
                  lambda r: said(d, f"{name} saves against panic in the dark: {r}"))
        self.dark_name.value = ""

    def _fate(self, character: Character) -> Callable[[], None]:
        def run() -> None:
            d = self.delve
            self.roll(f"{character.name}: fate in the dark",
                      (d, "darkness_fate", {"name": character.name}),
                      lambda text: said(d, f"{character.name}'s fate in the dark: {text}"))
        return run

    def _to_sheet(self, name: str, character: Character) -> Callable[[], None]:
        """Put a rolled fate or a settled escape on the character's sheet: the table move
        ``name`` (it reads the delve and moves the sheet), asked for by name."""
        def run() -> None:
            self.show(table_move([self.delve, character], name, {
                "delve": member_key(self.delve), "character": member_key(character)}))
        return run

    def _darkvision(self, character: Character) -> Callable[[], None]:
        def run() -> None:
            has = character.name in self.delve.darkvision
            act(self.delve, "set_darkvision", character.name, not has)
            self._said()
        return run

    def _escape(self, character: Character) -> Callable[[], None]:
        def run() -> None:
            chosen = [k for k, box in self.situations.items() if box.value]
            ability, score = self._escape_save(character)
            d, discarded = self.delve, self.discard.read()
            self.roll(f"{character.name}: escape ({ability})",
                      (d, "escape_check", {"name": character.name, "ability": ability,
                                           "score": score, "situations": list(chosen),
                                           "discarded": discarded}),
                      lambda r: said(d, f"{character.name} escape {ability}: {r}"))
        return run

    def _escape_save(self, c: Character) -> tuple[str, int]:
        """The best save and the score the escape uses (less its major Wounds, when they
        count: [Character.save_score][companion.rulesets.cairn_srd.character.Character.save_score])."""  # noqa: E501
        ability, _ = ex.best_save(c.strength, c.dexterity, c.control)
        majors = [i + 1 for i, it in enumerate(c.items) if it.kind == "wound" and it.major]
        return ability, c.save_score(ability, majors if self.wounds_count.value else None)

    def _escape_move(self, name: str, who: str) -> Callable[[], None]:
        def run() -> None:
            if name == "reroll_escape":
                act(self.delve, "reroll_escape", who)
                self._said()
                return
            d = self.delve
            what = name.replace("_", " ")
            self.roll(f"{who}: {what}", (d, name, {"name": who}),
                      lambda result: said(d, f"{who} {what}: {result}"))
        return run

    def _betray(self, who: str, choice: widgets.Dropdown) -> Callable[[], None]:
        def run() -> None:
            if not choice.value:
                raise RuleError("Escaping the Dungeon: no comrade is escaping to betray")
            d, comrade = self.delve, str(choice.value)
            self.roll(f"{who}: betrays {comrade}",
                      (d, "betray", {"name": who, "comrade": comrade}), lambda text: said(d, text))
        return run

    def undo(self) -> None:
        self.show(f"Undone: {ex.undo(self.delve, self.party)}")

    def new_site(self) -> None:
        act(self.delve, "new_site")
        self._said()

    # -- render --------------------------------------------------------------------------

    def _render_odds(self) -> None:
        d = self.delve
        if not self.lookahead.valid:
            self.odds.value = Markup()
            return
        turns = self.lookahead.read()
        o = d.odds(turns)
        self.odds.value = el(
            "div", "Encounter on the next turn: ", pct(o.next), el("br"),
            f"At least one within {turns} turn(s): ", pct(o.within), el("br"),
            "Expected turns until one: ", el("b", f"{float(o.expected_turns):.2f}"), el("br"),
            "Clue or omen next turn: ", pct(o.omen_next),
            class_="tc-stats tc-clock-odds", data_next=o.next, data_within=o.within)

    def render(self) -> None:
        d = self.delve
        for c in self.party:
            self._watch(c)
        self.dark_save_button.disabled = not d.out_of_light  # the darkness only
        hours = d.hours
        omen = d.omen and frag(" · ", el("b", "clue or omen!", class_="tc-scar"))
        self.board.value = el(
            "div", "Clock ", el("b", d.clock), " · site die ", el("b", f"d{d.die}"), " · turn ",
            el("b", d.turn), f" ({float(hours):.2f} h) · encounters {d.encounters}", omen,
            el("br"), f"Now: {d.step_text}",
            d.action and frag(el("br"), "Action: ", el("b", d.action)),
            d.description and f" — {d.description}",
            class_="tc-stats tc-clock", data_clock=d.clock, data_die=d.die, data_step=d.step,
            data_turn=d.turn)
        self._render_odds()
        for step, b in self.turn_buttons.items():
            b.disabled = d.step != step
        self.action.disabled = self.fast.disabled = d.step != "declare"
        self.other.disabled = d.step != "declare"
        self.note.disabled = d.step != "describe"
        enc = d.encounter
        if enc is None:
            self.encounter_view.value = Markup()
        else:
            self.encounter_view.value = el("div", el("b", "Encounter!"), f" {enc.text}",
                                           class_="tc-outcome tc-encounter", data_turn=enc.turn)
        for detail, b in self.detail_buttons.items():
            b.disabled = enc is None or bool(getattr(enc, detail))
            b.layout.display = "none" if enc is None else ""
        self._render_lights()
        self._render_party()
        show_undo(self.undo_button, d)
        self.new_site_button.disarm()

    def _render_lights(self) -> None:
        d = self.delve
        names = [(c.name, c.name) for c in self.party]
        bearers = [("nobody", ""), *names]
        offer(self.light_bearer, bearers)  # the bearer picked stays when someone joins
        rows: list[widgets.Widget] = [widgets.HTML(el(
            "div", "Oil: ", el("b", d.oil), " uses · ",
            frag(el("b", "Darkness"), ": no light burns") if d.dark
            else f"{len(d.lit)} light(s) burning",
            class_="tc-stats tc-light-state", data_dark=str(d.dark).lower()))]
        for i, s in enumerate(d.lights):
            buttons = [
                button("Light", self._light_move("light", i), error=self.light_error,
                       name=f"light-{i}"),
                button("Put out", self._light_move("put_out", i), error=self.light_error,
                       name=f"put-out-{i}"),
            ]
            buttons[0].disabled = not s.can_light
            buttons[1].disabled = not s.lit
            if s.kind == "candle":
                fast = button("Bearer moves fast", self._light_move("move_fast", i),
                              error=self.light_error, name=f"fast-{i}")
                fast.disabled = not s.can_blow_out
                shelter = button("Out of lantern" if s.in_lantern else "Into lantern",
                                 self._light_move("carry_in_lantern", i, not s.in_lantern),
                                 error=self.light_error, name=f"shelter-{i}")
                shelter.disabled = not (s.in_lantern or d.has_lantern)
                buttons += [fast, shelter]
            if s.kind == "lantern":
                refill = button("Refill (1 oil)", self._light_move("refill", i),
                                error=self.light_error, name=f"refill-{i}")
                refill.disabled = d.oil < 1
                buttons.append(refill)
            buttons.append(button("Remove", self._light_move("remove_light", i),
                                   error=self.light_error, name=f"remove-light-{i}"))
            label = widgets.HTML(el("div", s.label, class_="tc-slot", data_kind=s.kind,
                                    data_lit=str(s.lit).lower(), data_turns=s.turns_left))
            rows.append(widgets.VBox([label, row(*buttons)],
                                     layout=widgets.Layout(max_width="100%")))
        self.lights_view.children = rows

    def _render_party(self) -> None:
        try:
            dv: int | None = self._dv()
        except CompanionError:
            dv = None
        self.dv_view.value = (el("span", "DV ", el("b", dv), class_="tc-stats tc-dv", data_dv=dv)
                              if dv is not None else Markup())
        if not self.party:
            self.party_view.children = (widgets.HTML(el(
                "div", "No characters yet" + (": add them above." if self.can_add else "."),
                class_="tc-slot tc-slot-empty")),)
            return
        rows: list[widgets.Widget] = []
        for i, c in enumerate(self.party):
            rows.append(self._party_row(i, c, dv))
        self.party_view.children = rows

    def _party_row(self, i: int, c: Character, dv: int | None) -> widgets.Widget:
        d = self.delve
        ability, score = self._escape_save(c)
        facts = [f"STR {c.strength} · DEX {c.dexterity} · CTRL {c.control} · {c.status}"]
        if c.name in d.darkvision:
            facts.append("darkvision: " + ex.exploration_data()["darkvision"]["text"])
        if c.name in d.panic_saves:
            facts.append("panic save in the dark: "
                         + ("passed" if d.panic_saves[c.name] else "failed"))
        if c.name in d.fates:
            facts.append(f"fate: {d.fates[c.name]}")
        escapee = next((e for e in d.escapes if e.name == c.name), None)
        if escapee is not None:
            facts.append(f"escape ({escapee.ability} {escapee.score} over DV {escapee.dv}): "
                         + escapee.stage_text)
        head = widgets.HTML(el("div", el("b", c.name), el("br"), join(facts, el("br")),
                               class_="tc-stats tc-pc", data_name=c.name,
                               data_stage=escapee.stage if escapee else ""))
        err = self.escape_error
        dark_buttons = [
            button("Darkvision", self._darkvision(c), error=err, name=f"darkvision-{i}"),
            button("Panic save (dark)", self._panic(c), error=err, name=f"panic-{i}"),
            button("Fate d10", self._fate(c), error=err, name=f"fate-{i}"),
        ]
        dark_buttons[1].disabled = c.dead or not d.can_darkness_save(c.name)
        dark_buttons[2].disabled = not d.can_roll_fate(c.name)
        to_sheet = button("Fate to sheet", self._to_sheet(_FATE_TO_SHEET, c), error=err,
                          name=f"fate-sheet-{i}")
        to_sheet.disabled = c.dead or c.name not in d.fates
        dark_buttons.append(to_sheet)
        chance = pct(ex.escape_chance(score, dv)) if dv is not None else "—"
        escape_button = button(f"Escape by {ability} {score}", self._escape(c), error=err,
                               name=f"escape-{i}")
        escape_button.disabled = c.dead or not d.can_escape(c.name) or dv is None
        escape_buttons: list[widgets.Widget] = [escape_button, widgets.HTML(
            el("span", "chance ", chance, class_="tc-side"))]
        if escapee is not None:
            stage = escapee.stage
            if stage == "failed":
                escape_buttons.append(button("Failed escapes d8",
                                             self._escape_move("failed_escape", c.name),
                                             error=err, name=f"failed-escape-{i}"))
            elif stage == "choice":
                comrades = d.comrades(c.name)
                choice = widgets.Dropdown(tooltip="Comrade", options=comrades or [""],
                                          layout=widgets.Layout(width="140px"))
                choice.add_class(f"tc-select-comrade-{i}")
                betray = button("Betray", self._betray(c.name, choice), error=err,
                                name=f"betray-{i}")
                betray.disabled = not comrades
                escape_buttons += [button("Reroll d8",
                                          self._escape_move("reroll_escape", c.name),
                                          error=err, name=f"reroll-{i}"), choice, betray]
            elif stage == "body":
                escape_buttons.append(button("Body check", self._escape_move("body_check",
                                                                             c.name),
                                             error=err, name=f"body-{i}"))
            else:
                settled = button("Escape to sheet", self._to_sheet(_ESCAPE_TO_SHEET, c),
                                 error=err, name=f"escape-sheet-{i}")
                settled.disabled = c.dead
                escape_buttons.append(settled)
        return widgets.VBox([head, row(*dark_buttons), row(*escape_buttons)],
                            layout=widgets.Layout(max_width="100%"))
