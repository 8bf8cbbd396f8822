"""The Monsters & Magic sheet's further controls, in sections that open one tap at a time.

``SheetMovesPanel`` sits in each character's panel of the Monsters & Magic app, under what
a table uses every minute (HP, the check, threads of fate), and makes the rest of the
sheet's moves, grouped in collapsible sections (each a
[Section][companion.widgets.monsters_and_magic_sheet.Section], closed at first, so the
sheet stays short on a phone):

- **Turn and action points** — variable AP costs and breaking free;
- **Harm, dying and recovery** — temporary HP and damage affinities; recovering
  exhaustion; an ally's help for a PC knocked out by exhaustion; Death's bargain and how
  death rolls are read;
- **Conditions and statuses** — detonating a condition;
- **Rests and supplies** — rests with the two activities chosen and the supplies spent
  (and, for Take Watch, the GM's hidden DC when the GM gives it), tending an ally's
  wounds (one of the tender's two activities: the section says what is left of a rest
  begun that way), gaining supplies and spending them on what the sheet does not follow;
- **Ongoing, forward and hold** — with Prepared;
- **Bonds, reputation and fate** — bonds, reputation, Bonds of Fate and Lucky Find with
  a cost (paid with a thread or with Inspired, the GM gaining per the table's reading);
- **GM moves** — the GM's reroll of the check the sheet has set up;
- **The sheet** — the sheet's real numbers (and whatever the owner adds: save, log).

The owner (the app's character panel) may lead a section with its own rows (the turn's
buttons, the state picker, the quick rests). Each section shows its refusals on its own
error line, right under its buttons. The rules are the sheet's
([Adventurer][companion.rulesets.monsters_and_magic.adventurer.Adventurer]); this panel
only reads boxes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic.ability_checks import (
    LIMIT,
    AbilityCheck,
    AbilityCheckResult,
)
from companion.rulesets.monsters_and_magic.action_points import BASIC_TECHNIQUES
from companion.rulesets.monsters_and_magic.adventurer import COVER_KINDS, Adventurer
from companion.rulesets.monsters_and_magic.conditions_and_statuses import CONDITIONS
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.rest_and_recovery import activities, rest_rules
from companion.state import Tracker, jsonable
from companion.widgets.base import (
    MIN_BUTTON_HEIGHT,
    ErrorLine,
    bind,
    button,
    check_box,
    disable_for,
    draw_seed,
    int_box,
    row,
    safe,
    text_box,
)
from companion.widgets.markup import Markup, el
from companion.widgets.rolls import RollControls, RuleRoll
from companion.widgets.seat_controls import act, act_party, mover, seat_refusal

T = TypeVar("T")

__all__ = ["SECTIONS", "SHEET_CSS", "Section", "SheetMovesPanel", "sheet_style"]

SHEET_CSS = """
/* A sheet's empty error lines take no room (an ipywidgets HTML keeps its inner div, so
   :empty never matches the widget itself); one shows as soon as it holds a refusal. */
.tc-app .tc-character .tc-error:not(:has([role=alert])) { display: none; }
/* Section titles read left to right like headings. */
.tc-app .tc-section > .tc-btn { text-align: left; font-weight: 600; }
"""
"""The sheet's own rules, scoped under a character's panel."""


def sheet_style() -> widgets.HTML:
    """A hidden HTML widget carrying [SHEET_CSS][companion.widgets.monsters_and_magic_sheet.SHEET_CSS]."""  # noqa: E501
    return widgets.HTML(el("style", Markup(SHEET_CSS)),  # the style sheet: trusted markup
                        layout=widgets.Layout(display="none"))

_AFFINITIES = ("normal", "resistant", "vulnerable", "immune")

#: The AP picker's choice for a technique that is not a basic one (a class's, a spell).
OTHER_TECHNIQUE = "another technique"

#: The sections of the sheet, in order: key -> title.
SECTIONS = {
    "turn": "Turn and action points",
    "body": "Harm, dying and recovery",
    "states": "Conditions and statuses",
    "rest": "Rests and supplies",
    "modifiers": "Ongoing, forward and hold",
    "bonds": "Bonds, reputation and fate",
    "gm": "GM moves",
    "sheet": "The sheet: numbers, save, log",
}


def _pick(options: list[str], value: str, label: str, name: str,
          width: str = "220px") -> widgets.Dropdown:
    box = widgets.Dropdown(options=options, value=value, description=label,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width=width, max_width="100%"))
    box.add_class(f"tc-pick-{name}")
    return box


class Section(widgets.VBox):
    """A titled part of a sheet that opens and closes with one tap on its title.

    The title is a full-width button (``.tc-btn-section-<key>``) showing ▸ when closed and
    ▾ when open; the body (``.tc-section-body``) is not drawn while closed, so a closed
    section costs one button's height.
    """

    def __init__(self, key: str, title: str, children: Sequence[widgets.Widget],
                 opened: bool = False) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%", margin="0"))
        self.key, self.title = key, title
        self.add_class("tc-section")
        self.add_class(f"tc-section-{key}")
        self.toggle = button(title, self.flip, name=f"section-{key}")
        self.toggle.layout = widgets.Layout(width="100%", min_height=MIN_BUTTON_HEIGHT,
                                            height="auto", justify_content="flex-start")
        self.body = widgets.VBox(list(children), layout=widgets.Layout(
            max_width="100%", padding="0 0 0 6px", border_left="3px solid #ccc"))
        self.body.add_class("tc-section-body")
        self.children = (self.toggle, self.body)
        self.opened = opened
        self._show()

    def _show(self) -> None:
        self.body.layout.display = None if self.opened else "none"
        self.toggle.description = ("▾ " if self.opened else "▸ ") + self.title
        self.toggle.tooltip = ("close " if self.opened else "open ") + self.title

    def retitle(self, title: str) -> None:
        """Show another title (a count that changed), open or closed as it was."""
        self.title = title
        self._show()

    def flip(self) -> None:
        """Open a closed section, close an open one."""
        self.opened = not self.opened
        self._show()

    def expand(self) -> None:
        self.opened = True
        self._show()

    def collapse(self) -> None:
        self.opened = False
        self._show()


class SheetMovesPanel(widgets.VBox):
    """The rest of one character's moves, in collapsible sections (see the module docs).

    ``lead``/``tail``: the owner's rows put first/last in a section (by key of
    [SECTIONS][companion.widgets.monsters_and_magic_sheet.SECTIONS]). ``check``: the check
    the GM's reroll rerolls (default: this character's LUCK check as the sheet stands).
    ``inspired_here``: False when the owner shows ``inspired`` (the "pay with Inspired"
    box) elsewhere, beside its own thread buttons. ``controls``: the owner's
    [RollControls][companion.widgets.rolls.RollControls] (mode and own dice) for this
    panel's rolls.
    """

    def __init__(self, adventurer: Adventurer, party: Party | None = None, *,
                 seed_source: Callable[[], int] = draw_seed,
                 lead: Mapping[str, Sequence[widgets.Widget]] | None = None,
                 tail: Mapping[str, Sequence[widgets.Widget]] | None = None,
                 check: Callable[[], AbilityCheck] | None = None,
                 inspired_here: bool = True,
                 controls: RollControls | None = None) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-sheet-moves")
        a = self.adventurer = adventurer
        if party is None:
            party = Party()
            party.add(a)
        self.party = party
        self.seed_source = seed_source
        self.check = check if check is not None else a.build_check
        # The mode and own dice of this panel's rolls (detonate, the GM's reroll, a rest's
        # rolls): the owner's, shown beside its check; alone, plain seeded public rolls.
        self.controls = controls if controls is not None else RollControls(
            seed_source=lambda: self.seed_source(), name="sheet-moves")
        self.detonated = widgets.HTML()
        #: One error line per section, under its buttons.
        self.errors = {key: ErrorLine() for key in SECTIONS}
        self.result = widgets.HTML()  # what a rest or a tending did
        self.gm_result = widgets.HTML()

        def b(label: str, action: Callable[[], Any], name: str,
              section: str) -> widgets.Button:
            return button(label, action, error=self.errors[section], name=name)

        # Turn: a variable AP cost.
        self.ap_what = _pick([OTHER_TECHNIQUE, *(n for n, (_, unit)
                                                 in BASIC_TECHNIQUES.items() if unit == "AP")],
                             OTHER_TECHNIQUE, "For", "ap-what", "250px")
        self.ap_cost = int_box("AP", 2, "ap-cost", 1, LIMIT, width="110px")
        # Harm and dying.
        self.body_value = int_box("Amount", 1, "body-value", 1, 10_000, width="150px")
        self.affinity = _pick(list(_AFFINITIES), "normal", "Affinity", "affinity", "200px")
        self.cover_kind = _pick([k or "no cover" for k in COVER_KINDS], "Partial Cover",
                                "Cover", "cover", "220px")
        self.who = text_box("who helps, or the bargain", name="who")
        # Damage of a type (fire is resisted underwater) and being underwater.
        self.damage_type = text_box("damage type (fire...)", name="damage-type")
        self.underwater = check_box("underwater", "underwater")
        self.swimmer = check_box("has a swimming speed", "swimmer")
        self.underwater.value, self.swimmer.value = a.underwater, a.swimming_speed
        for box in (self.underwater, self.swimmer):
            box.observe(safe(self.errors["body"])(lambda _ch: self._underwater()),
                        names="value")
        # Restrained by a creature, and holding someone restrained.
        self.holder = text_box("who restrains, or whom you hold", name="holder")
        self.held = check_box("the restrainer marks the same", "held")
        self.death_reading = _pick(["sheet", "bare"], a.death_roll_reading,
                                   "Death rolls read", "death-reading", "240px")
        self.death_reading.observe(lambda ch: self._death_reading(str(ch["new"])),
                                   names="value")
        # Conditions.
        self.condition = _pick(list(CONDITIONS), next(iter(CONDITIONS)), "Condition",
                               "condition")
        # Rests.
        short = list(activities("short"))
        every = list(dict.fromkeys([*activities("long"), *activities("extended")]))
        self.rest_kind = _pick(["short", "long", "extended"], "short", "Rest", "rest-kind",
                               "180px")
        self.first = _pick(["(none)", *every], short[0], "Activity 1", "activity-1", "260px")
        self.second = _pick(["(none)", *every], short[1], "Activity 2", "activity-2", "260px")
        self.supplies = int_box("Supplies spent", 0, "supplies", 0, 10_000, width="195px")
        self.exhaustion_supplies = int_box("On exhaustion", 0, "exhaustion-supplies", 0,
                                           10_000, width="185px")
        self.together = check_box("prepared with the party", "together")
        # Take Watch's hidden DC, when the GM gives it (the GM's screen, or told after):
        # the watch's roll then reads the results table (1 XP on a miss...) as any
        # check's; unticked, the sheet applies only a natural 20 or 1.
        self.watch_dc_given = check_box("the GM gives the watch DC", "watch-dc-given")
        self.watch_dc = int_box("Watch DC", 10, "watch-dc", -LIMIT, LIMIT, width="150px")
        self.ally_pick = widgets.Dropdown(options=[], description="Ally",
                                          layout=widgets.Layout(width="200px"))
        self.ally_pick.add_class("tc-pick-ally")
        self.rest_state = widgets.HTML()
        self.gained = int_box("Supplies", 1, "gained", 1, LIMIT, width="140px")
        # Ongoing, forward, hold.
        self.label = text_box("source or kind (blessing, arrows...)", value="blessing",
                              name="label")
        self.value = int_box("Value", 1, "value", -LIMIT, LIMIT, width="130px")
        # Bonds, reputation, fate.
        self.other = text_box("the other character, or a group", value="", name="other")
        self.statement = text_box("bond statement", name="statement")
        self.change = int_box("±1", 1, "change", -1, 1, width="110px")
        self.cost = int_box("Cost", 1, "cost", 1, LIMIT, width="120px")
        self.inspired = check_box("pay with Inspired", "inspired")
        # The sheet's numbers.
        self.numbers = {
            key: int_box(label, int(getattr(a, key)), f"num-{key.replace('_', '-')}", low,
                         high, width="130px")
            for key, label, low, high in (
                ("focus", "FOC", -LIMIT, LIMIT), ("power", "POW", -LIMIT, LIMIT),
                ("cunning", "CUN", -LIMIT, LIMIT), ("luck", "LCK", -LIMIT, LIMIT),
                ("max_hp", "Max HP", 1, 10_000), ("ac", "AC", 0, LIMIT),
                ("max_threads", "Threads", 0, LIMIT), ("max_fatigue", "Fatigue", 0, LIMIT),
                ("max_exhaustion", "Exhaustion", 0, LIMIT),
                ("supplies", "Supplies", 0, 10_000))
        }

        def label() -> str:
            return str(self.label.value)

        def other() -> str:
            return str(self.other.value)

        def who() -> str:
            return str(self.who.value)

        paid = self._inspired
        self.buttons = {
            "spend-ap-amount": b("Spend AP (cost)", self.spend_ap, "spend-ap-amount", "turn"),
            # Through the table: a restrainer seated here marks the same on its sheet.
            "break-free": b("Break free (3 fatigue)", lambda: act_party(
                self.party, "break_free", a, bool(self.held.value)), "break-free", "turn"),
            "restrained-by": b("Restrained by them", lambda: act(a, "inflict",
                "Restrained", by=str(self.holder.value)), "restrained-by", "turn"),
            "hold-restrained": b("Hold them restrained (3 fatigue)", lambda: act(
                a, "hold_restrained", str(self.holder.value)), "hold-restrained", "turn"),
            "temp-hp": b("Temporary HP", lambda: act(a, "gain_temp_hp", self.body_value.read()),
                         "temp-hp", "body"),
            "damage-affinity": b("Damage (affinity)", lambda: act(a, "take_damage",
                self.body_value.read(), self.affinity.value, str(self.damage_type.value)),
                "damage-affinity", "body"),
            "recover": b("Recover exhaustion", lambda: act(a, "recover_exhaustion",
                self.body_value.read()), "recover", "body"),
            "take-cover": b("Take cover", lambda: act(a, "take_cover",
                "" if self.cover_kind.value == "no cover" else str(self.cover_kind.value)),
                "take-cover", "body"),
            "ally": b("An ally helps recover", lambda: act(a, "ally_helps_recover", who()), "ally",
                      "body"),
            "accept-bargain": b("Accept Death's bargain", lambda: act(a, "accept_deaths_bargain",
                who()), "accept-bargain", "body"),
            "refuse-bargain": b("Refuse Death's bargain", mover(a, "refuse_deaths_bargain"),
                                "refuse-bargain", "body"),
            "detonate": b("Detonate (1d10)", self.detonate, "detonate", "states"),
            "rest": b("Rest", self.rest, "rest", "rest"),
            "tend-ally": b("Tend the ally's wounds", self.tend_ally, "tend-ally", "rest"),
            "gain-supplies": b("Gain supplies", lambda: act(a, "gain_supplies", self.gained.read()),
                               "gain-supplies", "rest"),
            "spend-supplies": b("Spend supplies", lambda: act(a, "spend_supplies",
                self.gained.read()), "spend-supplies", "rest"),
            "ongoing": b("Add ongoing", lambda: act(a, "add_ongoing", label(), self.value.read()),
                         "ongoing", "modifiers"),
            "end-ongoing": b("End ongoing", lambda: act(a, "end_ongoing", label()), "end-ongoing",
                             "modifiers"),
            "forward": b("Take forward", lambda: act(a, "take_forward", self.value.read()),
                         "forward", "modifiers"),
            "hold": b("Gain hold", lambda: act(a, "gain_hold", label(), self.value.read()), "hold",
                      "modifiers"),
            "spend-hold": b("Spend hold", lambda: act(a, "spend_hold", label(), self.value.read()),
                            "spend-hold", "modifiers"),
            "prepared": b("Use Prepared (+2 forward)", mover(a, "use_prepared"), "prepared",
                          "modifiers"),
            "prepared-hold": b("Spend prepared hold", lambda: act(a, "use_prepared", True),
                               "prepared-hold", "modifiers"),
            "bond": b("Add bond", lambda: act(a, "add_bond", other(), self.statement.value), "bond",
                      "bonds"),
            "resolve": b("Resolve bond", lambda: act(a, "resolve_bond",
                other(), self.change.read(), self.statement.value), "resolve", "bonds"),
            "session": b("End session", mover(a, "end_session"), "session", "bonds"),
            "reputation": b("Reputation ±1", lambda: act(a, "change_reputation",
                other(), self.change.read()), "reputation", "bonds"),
            "bonds-of-fate": b("Bonds of Fate", lambda: act_party(
                self.party, "spend_thread", a, "bonds_of_fate", other(), paid()),
                "bonds-of-fate", "bonds"),
            "lucky-find-cost": b("Lucky Find (cost)", lambda: act_party(
                self.party, "spend_thread", a, "lucky_find", other(), self.cost.read(),
                paid()), "lucky-find-cost", "bonds"),
            "gm-reroll": b("GM: spend a thread to reroll the check", self.gm_reroll,
                           "gm-reroll", "gm"),
            "set-numbers": b("Set the sheet's numbers", lambda: act(
                a, "set_numbers", **{k: box.read() for k, box in self.numbers.items()}),
                "set-numbers", "sheet"),
        }
        bt = self.buttons
        own: dict[str, list[widgets.Widget]] = {
            "turn": [row(self.ap_what, self.ap_cost, bt["spend-ap-amount"]),
                     row(self.holder, self.held),
                     row(bt["break-free"], bt["restrained-by"], bt["hold-restrained"])],
            "body": [row(self.body_value, bt["temp-hp"], bt["recover"]),
                     row(self.affinity, self.damage_type, bt["damage-affinity"]),
                     row(self.underwater, self.swimmer),
                     row(self.cover_kind, bt["take-cover"]),
                     row(self.who, bt["ally"]),
                     row(bt["accept-bargain"], bt["refuse-bargain"]),
                     row(self.death_reading)],
            "states": [row(self.condition, bt["detonate"]), self.detonated],
            "rest": [self.rest_state, self.result,
                     row(self.rest_kind, self.first, self.second),
                     row(self.supplies, self.exhaustion_supplies, self.together),
                     row(self.watch_dc_given, self.watch_dc),
                     row(bt["rest"]),
                     row(self.ally_pick, bt["tend-ally"]),
                     row(self.gained, bt["gain-supplies"], bt["spend-supplies"])],
            "modifiers": [row(self.label, self.value),
                          row(bt["ongoing"], bt["end-ongoing"], bt["forward"]),
                          row(bt["hold"], bt["spend-hold"]),
                          row(bt["prepared"], bt["prepared-hold"])],
            "bonds": [row(self.other), row(self.statement),
                      row(self.change, bt["bond"], bt["resolve"]),
                      row(bt["reputation"], bt["session"]),
                      row(*([self.inspired] if inspired_here else []), bt["bonds-of-fate"]),
                      row(self.cost, bt["lucky-find-cost"])],
            "gm": [row(bt["gm-reroll"]), self.gm_result],
            "sheet": [row(*self.numbers.values()), row(bt["set-numbers"])],
        }
        lead, tail = lead or {}, tail or {}
        self.sections = {
            key: Section(key, title, [*lead.get(key, ()), *own[key], self.errors[key],
                                      *tail.get(key, ())])
            for key, title in SECTIONS.items()
        }
        self.children = tuple(self.sections.values())
        self.party.on_change(lambda _party: self._allies())
        self._allies()
        bind(a, self._render_rest, error=self.errors["rest"])
        # The sheet's numbers are the GM's unless the table trusts players (issue 28).
        bind(a, lambda: disable_for(self.buttons["set-numbers"],
                                    seat_refusal(a, "set_numbers", {})),
             error=self.errors["sheet"])

    @property
    def message(self) -> str:
        """The refusal showing in any section ("" when there is none)."""
        return next((line.message for line in self.errors.values() if line.message), "")

    def _inspired(self) -> bool:
        return bool(self.inspired.value)

    def _underwater(self) -> None:
        a, wet, swims = self.adventurer, bool(self.underwater.value), bool(self.swimmer.value)
        if (wet, swims) != (a.underwater, a.swimming_speed):
            act(a, "set_underwater", wet, swims)

    def _death_reading(self, reading: str) -> None:
        if reading != self.adventurer.death_roll_reading:
            act(self.adventurer, "set_death_roll_reading", reading)

    def _allies(self) -> None:
        names = [n for n in self.party.names if n != self.adventurer.name]
        if list(self.ally_pick.options) != names:
            keep = self.ally_pick.value
            self.ally_pick.options = names
            self.ally_pick.value = keep if keep in names else (names[0] if names else None)

    def _render_rest(self) -> None:
        # The sheet moved (an undo, a load): the underwater box follows it.
        a = self.adventurer
        if (self.underwater.value, self.swimmer.value) != (a.underwater, a.swimming_speed):
            # Both at once: the observer sees the sheet's pair, not half of it.
            with self.underwater.hold_trait_notifications(), \
                    self.swimmer.hold_trait_notifications():
                self.underwater.value, self.swimmer.value = a.underwater, a.swimming_speed
        """Say what is left of a rest begun by tending an ally (nothing when none is)."""
        a = self.adventurer
        if not a.resting:
            self.rest_state.value = el("div", class_="tc-rest-state", data_resting="")
            return
        left = rest_rules(a.resting)["choose"] - len(a.rest_done)
        self.rest_state.value = el(
            "div", f"{a.resting.capitalize()} rest begun: {a.name} tended {a.tended}'s wounds "
            f"(Tend to Wounds). {left} activit{'y' if left == 1 else 'ies'} left: choose "
            f"{'it' if left == 1 else 'them'} below and press Rest.",
            class_="tc-rest-state", data_resting=a.resting, data_left=left)
        if self.rest_kind.value != a.resting:
            self.rest_kind.value = a.resting

    def tend_ally(self) -> int:
        """This character spends supplies on the chosen ally's wounds: the tender's Tend
        to Wounds, one of their two activities of this rest."""
        self._allies()
        if not self.ally_pick.value:
            raise RuleError("Tend to Wounds: there is no ally at the table to tend")
        healed: int = act_party(self.party, "tend_ally", self.adventurer,
                                self.party.get(self.ally_pick.value),
                                self.supplies.read(), str(self.rest_kind.value))
        self.result.value = el("div", f"tends {self.ally_pick.value}: +{healed} HP",
                               class_="tc-tend", data_healed=healed)
        self.sections["rest"].expand()
        return healed

    def spend_ap(self) -> int:
        """Spend the AP typed: on a basic technique at that cost (at least its own), or
        on another technique (a class's, a spell) that costs what the box says."""
        what = str(self.ap_what.value)
        spent: int = act(self.adventurer, "spend_ap", "" if what == OTHER_TECHNIQUE else what,
                         self.ap_cost.read())
        return spent

    def _rolled(self, label: str, tracker: Tracker, move: str,
                args: dict[str, Any]) -> RuleRoll[Any]:
        """Roll ``tracker``'s ``move`` (by name, JSON ``args``) through the controls, as
        a named act: the session hands it its dice and logs its own line."""
        return self.controls.run_act(f"{self.adventurer.name}: {label}", tracker, move, args)

    def _party_rolled(self, label: str, args: dict[str, Any]) -> RuleRoll[Any]:
        """Roll a character's move through the party (the declared table move
        ``monsters_and_magic.party.roll``: the GM's thread a critical miss gives, in the
        same unit)."""
        a = self.adventurer
        return self.controls.run_table(f"{a.name}: {label}", [a, self.party.gm],
                                       "monsters_and_magic.party.roll",
                                       {"character": a, **args})

    @staticmethod
    def _shown(out: RuleRoll[Any], css: str, body: str) -> Markup:
        if not out.shown:
            return el("div", out.hidden_html(), class_=f"{css} tc-hidden")
        return el("div", body, class_=css)

    def detonate(self) -> int | None:
        """End the chosen condition at once for 1d10 damage (after AC), rolled in the
        controls' mode. Returns the damage taken (``None`` when this viewer may not see
        the roll)."""
        a, name = self.adventurer, str(self.condition.value)
        out = self._rolled(f"detonates {name} (1d10)", a, "detonate", {
            "condition": name, "damage_type": str(self.damage_type.value)})
        self.detonated.value = self._shown(out, "tc-detonated", out.text or "")
        return out.value

    def rest(self) -> list[str] | None:
        """A short or long rest with the activities chosen (none, one or two), or an
        extended rest with one; its rolls (Gather Supplies, Take Watch) in the controls'
        mode."""
        chosen = [v for v in (self.first.value, self.second.value) if v != "(none)"]
        kind = str(self.rest_kind.value)
        supplies, together = self.supplies.read(), bool(self.together.value)
        exhaustion = self.exhaustion_supplies.read()
        watch: dict[str, Any] = {}
        if self.watch_dc_given.value:
            if kind != "long":
                raise RuleError("Take Watch: it is a long rest activity; untick the watch "
                                f"DC for a {kind} rest")
            watch["watch_dc"] = self.watch_dc.read()

        # Through the table: a critical miss on a rest's roll gives the GM a thread.
        options: dict[str, Any]
        if kind == "short":
            options = {"activities": chosen, "supplies": supplies,
                       "prepare_with_party": together}
        elif kind == "extended":
            options = {"activity": chosen}
        else:
            options = {"activities": chosen, "heal_supplies": supplies,
                       "exhaustion_supplies": exhaustion, "prepare_with_party": together,
                       **watch}
        out = self._party_rolled(f"{kind} rest", {"move": "rest", "kind": kind,
                                                  "options": options})
        self.result.value = self._shown(out, "tc-rest-result", out.text or "")
        return out.value

    def gm_reroll(self) -> AbilityCheckResult | None:
        """The GM spends a thread to reroll the check the sheet has set up (ability,
        bonus, DC, advantage); the table keeps either result."""
        check = self.check()
        out = self._rolled("GM's reroll", self.party.gm, "reroll_check",
                           {"check": jsonable(check)})
        total = "" if out.value is None or out.value.total is None else out.value.total
        self.gm_result.value = (el("div", out.text or "", class_="tc-gm-reroll",
                                   data_total=total) if out.shown
                                else out.hidden_html())
        return out.value
