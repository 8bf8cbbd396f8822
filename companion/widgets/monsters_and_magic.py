"""Components for Monsters & Magic: a check roller with exact tier odds, and a sheet per
character for threads of fate, action points, fatigue, harm and rests.

The rules live in [companion.rulesets.monsters_and_magic][]; these components read the
controls, call the core (``AbilityCheck``, the table's
[Party][companion.rulesets.monsters_and_magic.party.Party], the ``Adventurer`` tracker's
moves) and re-render when a model says it changed. A refused move shows its rule's one-line
reason right under the buttons it came from; a button whose move the rules would refuse now
is disabled (its tooltip gives the reason), and a number box holding something that is not
an allowed whole number says so under the box and disables the buttons that read it.

The table shows one character at a time, chosen with the *Character* picker: every control
of a sheet exists once on the page, however many characters sit at the table. Built for a
phone at the table: the sheet comes first, with what is used every minute on top (HP,
fatigue, the threads of fate, the check); the rest of the sheet and the table's other tools
(a roller for any creature, the group check, the GM's threads) are sections that open with
one tap. Every roll goes through the sheet's (or the tool's)
[RollControls][companion.widgets.rolls.RollControls]: a mode (public, GM only, blind, self)
when the app runs in a campaign, and "I rolled it myself".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.dice.render import fraction_text, percent
from companion.errors import CompanionError, RuleError
from companion.fairplay import mode_name, player_json
from companion.rulesets.monsters_and_magic import (
    ABILITIES,
    AbilityCheck,
    Adventurer,
    GameMaster,
    Tier,
    group_odds,
)
from companion.rulesets.monsters_and_magic.ability_checks import (
    LIMIT,
    AbilityCheckResult,
    check_call,
)
from companion.rulesets.monsters_and_magic.action_points import BASIC_TECHNIQUES
from companion.rulesets.monsters_and_magic.adventurer import (
    COVER_KINDS,
    GM_THREAD_READINGS,
    MAX_NAME,
    SIGHT,
    Defender,
    attack_against,
)
from companion.rulesets.monsters_and_magic.conditions_and_statuses import CONDITIONS, STATUSES
from companion.rulesets.monsters_and_magic.group_checks import group_call, parse_modifiers
from companion.rulesets.monsters_and_magic.party import Party
from companion.rulesets.monsters_and_magic.threads_of_fate import GM_USES
from companion.state import jsonable
from companion.widgets.base import (
    MIN_BUTTON_HEIGHT,
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    check_box,
    column,
    disable_for,
    draw_seed,
    first_bad_box,
    int_box,
    log_html,
    name_box,
    offer,
    one_line,
    roll_text_html,
    row,
    safe,
    slug,
    text_box,
)
from companion.widgets.markup import Markup, details_html, el, frag, join
from companion.widgets.monsters_and_magic_sheet import Section, SheetMovesPanel, sheet_style
from companion.widgets.rolls import RollControls, RuleRoll, faces_hint
from companion.widgets.seat_controls import act, act_party, member_key, table_move, undo

if TYPE_CHECKING:
    from companion.table.session import Session

#: The party's rolled moves (a check, a thread spent, a rest) as one declared table move.
PARTY_ROLL = "monsters_and_magic.party.roll"

__all__ = ["AdventurerPanel", "CheckPanel", "GameMasterPanel", "GroupCheckPanel",
           "MonstersAndMagicApp"]

EDGES = ["normal", "advantage", "disadvantage"]
TIER_COLOURS = {Tier.CRITICAL_HIT: "#1b5e20", Tier.STRONG_HIT: "#2e7d32",
                Tier.WEAK_HIT: "#f9a825", Tier.MISS: "#c62828", Tier.CRITICAL_MISS: "#7f0000"}
STEP_LIMIT = 4
"""Effect steps the roller offers (a step past a critical result is refused by the rules)."""


def odds_html(check: AbilityCheck) -> Markup:
    """The exact chance of each tier as a small bar list (best first); a check that fails
    automatically says so instead (it rolls nothing)."""
    if check.fails:
        return el("div", el("b", "Automatic failure"), f", no roll: {check.fails} (a Miss)",
                  class_="tc-odds tc-automatic", data_automatic=1)
    odds = check.tier_odds()
    rows = []
    for tier in reversed(Tier):
        p = odds[tier]
        width = f"{float(p) * 100:.1f}%"
        bar = el("span", style=f"display:block;height:12px;width:{width};"
                 f"background:{TIER_COLOURS[tier]}")
        rows.append(el(
            "div", el("span", tier.label, style="min-width:104px"),
            el("span", bar, style="flex:1;background:var(--tc-line);height:12px;min-width:40px"),
            el("span", f"{percent(p)} ", el("small", f"({fraction_text(p)})"), class_="tc-p",
               style="min-width:120px;text-align:right"),
            class_="tc-tier", data_tier=tier.name.lower(),
            style="display:flex;gap:6px;align-items:center"))
    steps = f", {check.steps:+d} steps" if check.steps else ""
    return el("div", el("div", f"{check.expression} vs DC {check.effective_dc}{steps}: any hit ",
                        el("b", percent(check.hit_chance()), class_="tc-hit")),
              rows, class_="tc-odds")


class CheckPanel(widgets.VBox):
    """An ability check for any creature: modifier, DC, advantage, steps; odds, then roll.

    With ``adventurer`` (and the ``party`` it sits in) the modifier comes from that
    character's ability and sheet (ongoing, forward, conditions, exhaustion) and the roll is
    the table's move: the sheet rolls, and a critical miss gives the GM a thread.

    *Target* picks a character of the table as the creature attacked (``targets``, the
    table, for the roller without an adventurer; the adventurer's own party otherwise):
    its Blinded, Prone, Dodge and cover change the odds shown, as the rules say
    ([defender_edge][companion.rulesets.monsters_and_magic.adventurer.defender_edge]).
    """

    def __init__(self, adventurer: Adventurer | None = None,
                 error: ErrorLine | None = None, party: Party | None = None,
                 seed_source: Callable[[], int] = draw_seed, *,
                 controls: RollControls | None = None, targets: Party | None = None) -> None:
        super().__init__()
        if adventurer is not None and party is None:
            party = Party()
            party.add(adventurer)
        self.adventurer = adventurer
        self.party = party
        self.targets = targets if targets is not None else party
        # The picked target's sheet is followed, so its changes reach the odds shown.
        self._unfollow: Callable[[], Any] | None = None
        self._followed: Adventurer | None = None
        self.seed_source = seed_source
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.add_class("tc-check")
        # Widths that put two or three controls on a row of a 390 px phone.
        self.ability = widgets.Dropdown(options=[*ABILITIES, "none"], value="luck",
                                        description="Ability",
                                        layout=widgets.Layout(width="160px"))
        self.modifier = int_box("Modifier" if adventurer is None else "Bonus", 0,
                                "modifier", -LIMIT, LIMIT,
                                width="150px" if adventurer is None else "125px")
        self.dc = int_box("DC", 10, "dc", -LIMIT, LIMIT, width="105px")
        self.edge = widgets.Dropdown(options=EDGES, value="normal", description="Roll",
                                     layout=widgets.Layout(width="180px"))
        self.edge.add_class("tc-edge")
        self.steps = int_box("Steps", 0, "steps", -STEP_LIMIT, STEP_LIMIT, width="115px")
        self.attack = widgets.Checkbox(value=False, description="Attack roll", indent=False,
                                       layout=widgets.Layout(width="auto"))
        # What a sight-based check is against, and an attack's target's cover (the rules
        # in Adventurer.build_check).
        self.against = _choice(["—", *[s for s in SIGHT if s]], "Against", "against")
        self.target_cover = _choice(["—", *[c for c in COVER_KINDS if c]], "Target's cover",
                                    "target-cover")
        # The creature attacked, when it is a character at the table (its own state counts).
        self.target = _choice(["—"], "Target", "target")
        self.far = widgets.Checkbox(value=False, description="Beyond touch range",
                                    indent=False, layout=widgets.Layout(width="auto"))
        self.far.add_class("tc-check-far")
        self.save = widgets.Checkbox(value=False, description="Saving throw", indent=False,
                                     layout=widgets.Layout(width="auto"))
        self.save.add_class("tc-check-save")
        self.odds = widgets.HTML()
        self.odds.add_class("tc-chance")
        self.result = widgets.HTML(el("div", "No roll yet.", class_="tc-result", data_n=0))
        self.rolls = 0
        self.last_seed: int | None = None
        # The roll's mode and own dice: the sheet's (shared with its other rolls) or its own.
        self.controls = controls if controls is not None else RollControls(
            seed_source=lambda: self.seed_source(), name="check")
        self.roll_button = button("Roll check", self.roll, error=self.error, style="primary",
                                  name="roll")
        self.boxes = (self.modifier, self.dc, self.steps)
        rows = [row(self.modifier, self.dc), row(self.edge, self.steps)]
        if adventurer is not None:
            # The saving-throw box beside the numbers: a phone's row has room there.
            rows[0] = row(self.modifier, self.dc, self.save)
            rows.insert(0, row(self.ability, self.attack))
            rows.insert(1, row(self.against, self.target_cover))
        self.target_row = row(self.target, self.far)
        if self.targets is not None:
            rows.insert(2 if adventurer is not None else 0, self.target_row)
        for control in (self.ability, self.attack, self.edge, self.against, self.target_cover,
                        self.target, self.far, self.save, *self.boxes):
            control.observe(safe(self.error)(self.show_odds), names="value")
        self.children = [*rows, self.odds, self.controls, row(self.roll_button), *own_error,
                         self.result]
        if self.targets is not None:
            bind(self.targets, self._offer_targets, error=self.error)
        if adventurer is not None:
            bind(adventurer, self.show_odds, error=self.error)
        else:
            self.show_odds()

    def _offer_targets(self) -> None:
        """The table's characters (not the one attacking) as targets; after a change."""
        assert self.targets is not None
        own = self.adventurer.name if self.adventurer is not None else None
        offer(self.target, ["—", *[n for n in self.targets.names if n != own]], default="—")
        self.show_odds()

    def _target_sheet(self) -> Adventurer | None:
        picked = self.target.value
        if self.targets is None or picked in (None, "—") or picked not in self.targets.names:
            sheet = None
        else:
            sheet = self.targets.get(str(picked))
        if sheet is not self._followed:
            # Follow the picked target's sheet: its Dodge or Prone changes the odds shown.
            if self._unfollow is not None:
                self._unfollow()
            self._followed, self._unfollow = sheet, None
            if sheet is not None:
                self._unfollow = sheet.on_change(lambda *_a: safe(self.error)(self.show_odds)())
        return sheet

    def _defender(self) -> Defender | None:
        sheet = self._target_sheet()
        return sheet.as_defender() if sheet is not None else None

    def _refusal(self) -> str | None:
        bad = first_bad_box(*self.boxes)
        if bad is not None:
            return bad
        if self.adventurer is None:
            return None
        return self.adventurer.why_not("roll_check", seed=0)

    def _options(self) -> dict[str, Any]:
        edge = self.edge.value
        options = {"dc": self.dc.value, "advantage": edge == "advantage",
                   "disadvantage": edge == "disadvantage", "steps": self.steps.value}
        if self.adventurer is not None:
            options["against"] = "" if self.against.value == "—" else str(self.against.value)
            options["target_cover"] = ("" if self.target_cover.value == "—"
                                       else str(self.target_cover.value))
            if self.save.value:
                options["save"] = True
        defender = self._defender()
        if defender is not None:
            options["target"] = defender
            options["within_touch"] = not self.far.value
        return options

    def check(self) -> AbilityCheck:
        options = self._options()
        if self.adventurer is not None:
            return self.adventurer.build_check(self.ability.value, bonus=self.modifier.value,
                                               attack=self.attack.value, **options)
        if "target" in options:
            # Any creature's attack on a character of the table: the rules add its state.
            return attack_against(options["target"], self.modifier.value, options["dc"],
                                  advantage=options["advantage"],
                                  disadvantage=options["disadvantage"], steps=options["steps"],
                                  within_touch=options["within_touch"])
        return AbilityCheck(self.modifier.value, options["dc"], options["advantage"],
                            options["disadvantage"], options["steps"])

    def show_odds(self, _change: Any = None) -> None:
        # A sheet's target row is for attack rolls: shown only while one is made, so the
        # sheet stays short on a phone (the roller for any creature always attacks).
        self.target_row.layout.display = ("none" if self.adventurer is not None
                                          and not self.attack.value else "")
        disable_for(self.roll_button, self._refusal())
        if not all(box.valid for box in self.boxes):
            self.odds.value = el("div", el("i", "Fix the number above."), class_="tc-odds")
            return
        try:
            check = self.check()
        except RuleError as refusal:  # e.g. a sight check against something hidden
            disable_for(self.roll_button, str(refusal))
            self.odds.value = el("div", el("i", "No roll: see below."), class_="tc-odds")
            raise
        self.odds.value = odds_html(check)
        self.controls.set_hint("no dice" if check.fails else faces_hint(check.expression))

    def roll(self) -> Any:
        """Roll the check in the mode picked (with the faces entered, if the switch is on):
        a character's is the table's move (XP, forward used, the GM's thread on a critical
        miss), which a hidden mode applies without showing the roll. Returns the result
        (``None`` when this viewer may not see it)."""
        for box in self.boxes:
            box.read()  # a bad box stops the roll here, its refusal under it
        controls = self.controls
        if self.adventurer is not None and self.party is not None:
            a, party = self.adventurer, self.party
            ability, options = str(self.ability.value), self._options()
            # Through the table: a critical miss gives the GM a thread (one unit), the
            # party's declared roll, named (the sheet's own line is logged).
            out: RuleRoll[AbilityCheckResult] = controls.run_table(
                f"{a.name}: {ability} check", [a, party.gm], PARTY_ROLL, {
                    "move": "roll_check", "character": a, "options": {
                        "ability": ability, "bonus": self.modifier.value,
                        "attack": self.attack.value, **jsonable(options)}})
        else:
            check = self.check()
            # No adventurer: no tracker moves, so the declared rule is rolled (verify
            # makes its result again from the log: companion.rule_rolls).
            out = controls.run_rule(f"check {check.expression}", check_call(check))
        self.rolls += 1
        self.last_seed = out.seed
        result = out.value
        if result is None:
            self.result.value = el("div", out.hidden_html(), class_="tc-result tc-hidden",
                                   data_n=self.rolls)
            return None
        tier = result.tier
        how = ("no roll" if result.automatic else "your dice" if out.physical
               else details_html(f"seed {out.seed}"))
        mode = "" if out.mode == "public" else f" · {mode_name(out.mode)}"
        self.result.value = el(
            "div", el("span", "—" if result.total is None else result.total, class_="tc-total"),
            " — ", el("b", tier.label, class_="tc-verdict", style=f"color:{TIER_COLOURS[tier]}"),
            el("div", roll_text_html(str(result)), class_="tc-roll-text"),
            el("div", el("small", how, mode), class_="tc-seed"),
            class_=f"tc-result tc-{tier.name.lower()}", data_n=self.rolls,
            data_tier=tier.name.lower())
        return result


def _boxes(marked: int, total: int, colour: str, name: str) -> Markup:
    cells = (el("span", style="display:inline-block;width:18px;height:18px;margin:1px;"
                f"border:1px solid #555;background:{colour if i < marked else 'transparent'}")
             for i in range(total))
    return el("span", cells, class_=f"tc-{name}", data_n=marked)


class _SheetFile:
    """What [SaveLoad][companion.widgets.base.SaveLoad] needs of one seated character: a
    load goes through the table, which refuses a name already taken."""

    def __init__(self, party: Party, adventurer: Adventurer, role: str = "") -> None:
        self.party, self.adventurer, self.role = party, adventurer, role

    def on_change(self, callback: Callable[..., Any], /) -> Any:
        return self.adventurer.on_change(callback)

    def to_json(self) -> str:
        # Only the GM's page receives a hidden roll's last check (player_json).
        return (self.adventurer.to_json() if self.role == "gm"
                else player_json(self.adventurer))

    def load(self, text: str) -> None:
        # A named table move: the sheet loaded, and its name checked against the table's.
        table_move(self.party.characters, "monsters_and_magic.party.load_character",
                   {"character": member_key(self.adventurer), "text": text})
        self.party.notify_observers()  # the picker shows the sheet's new name


class AdventurerPanel(widgets.VBox):
    """One character: threads of fate, AP and reaction, fatigue and exhaustion, HP,
    conditions and statuses, rests, with the moves that change them, Undo, Save and Load."""

    def __init__(self, adventurer: Adventurer, error: ErrorLine | None = None,
                 party: Party | None = None,
                 seed_source: Callable[[], int] = draw_seed, *,
                 session: Session | None = None, who: str = "", role: str = "") -> None:
        """``campaign``, ``who``, ``role``: the page's campaign and viewer, for the rolls'
        modes (public, GM only, blind, self) and their roll log; without one every roll is
        public. Each roll of the sheet may be made with the player's own dice."""
        super().__init__()
        if party is None:
            party = Party()
            party.add(adventurer)
        self.party = party
        self.adventurer = a = adventurer
        self.seed_source = seed_source
        self.error = error or ErrorLine()
        self.add_class("tc-character")
        self.add_class(f"tc-character-{slug(a.name)}")
        self.layout = widgets.Layout(border="1px solid #bbb", padding="6px", margin="6px 0",
                                     max_width="100%")
        self.view = widgets.HTML()
        self.amount = int_box("Amount", 1, "amount", 1, LIMIT)
        self.technique = widgets.Dropdown(
            options=[n for n, (_, unit) in BASIC_TECHNIQUES.items() if unit == "AP"],
            value="Strike", description="Technique", layout=widgets.Layout(width="260px"))
        self.reaction = widgets.Dropdown(
            options=[n for n, (_, unit) in BASIC_TECHNIQUES.items() if unit == "R"],
            description="Reaction", layout=widgets.Layout(width="260px"))
        self.state = widgets.Dropdown(options=[*CONDITIONS, *STATUSES], value="Weakened",
                                      description="State",
                                      layout=widgets.Layout(width="220px"))
        for pick, name in ((self.technique, "technique"), (self.reaction, "reaction"),
                           (self.state, "state")):
            pick.add_class(f"tc-pick-{name}")
        # Ticked, a state added lasts until removed (its effect says so), not a turn.
        self.until_ended = check_box("lasts until ended", "until-ended")
        self.history = widgets.HTML()
        # One error line under each part, beside the buttons that can be refused.
        self.section_errors = {k: ErrorLine() for k in ("threads", "hp", "turn", "body",
                                                         "check")}
        # One mode picker and own-dice box for every roll of this sheet: the check, Feeling
        # Lucky, the death roll, detonating a condition, the GM's reroll, a rest's rolls.
        self.controls = RollControls(session=session, who=who, role=role,
                                     seed_source=lambda: self.seed_source(), name="sheet")
        self.roll_result = widgets.HTML()
        self.checks = CheckPanel(a, self.section_errors["check"], party, seed_source,
                                 controls=self.controls)
        self.file = SaveLoad(_SheetFile(party, a, role), f"{slug(a.name)}.json",
                             what="character sheet", error=self.error)
        own_error = [self.error] if error is None else []
        threads_error, hp_error, turn_error, body_error = (
            self.section_errors[k] for k in ("threads", "hp", "turn", "body"))
        # (button, the move it makes as (name, args, kwargs), whether it reads the amount)
        # for greying out refused moves.
        self.moves: list[tuple[widgets.Button,
                               Callable[[], tuple[str, tuple[Any, ...], dict[str, Any]]],
                               bool]] = []
        self.inspired = check_box("pay with Inspired", "inspired")

        def move_button(label: str, name: str, error: ErrorLine,
                        call: Callable[[], tuple[str, tuple[Any, ...], dict[str, Any]]],
                        amount: bool = False) -> widgets.Button:
            def make(move: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
                if move in ("feeling_lucky", "bend_luck", "lucky_find"):
                    # Through the table: the GM gains what the player spends (one unit).
                    return act_party(self.party, "spend_thread", a, move, *args, **kwargs)
                return act(a, move, *args, **kwargs)

            def run() -> Any:
                move, args, kwargs = call()  # a bad amount stops here, refused under its box
                if move not in ("feeling_lucky", "death_roll"):
                    return make(move, args, kwargs)
                controls = self.controls  # a roll: in the mode picked, maybe own dice
                if args:
                    raise RuleError(f"{label}: its arguments are named")
                out: RuleRoll[AbilityCheckResult]
                if move == "feeling_lucky":
                    # Through the table: the GM gains the thread spent (one unit).
                    out = controls.run_table(
                        f"{a.name}: {label}", [a, self.party.gm], PARTY_ROLL,
                        {"move": "spend_thread", "character": a, "use": move,
                         "options": jsonable(kwargs)})
                else:
                    out = controls.run_act(f"{a.name}: {label}", a, move, jsonable(kwargs))
                self.roll_result.value = (
                    el("div", out.text or "", class_="tc-roll-result", data_move=name)
                    if out.shown else out.hidden_html())
                return out.value

            btn = button(label, run, error=error, name=name)
            self.moves.append((btn, call, amount))
            return btn

        def amount() -> int:
            return int(self.amount.read())

        def paid() -> dict[str, Any]:
            return {"inspired": bool(self.inspired.value)}

        # What the table uses every minute stays on top; the rest opens a section at a time.
        self.sheet_moves = SheetMovesPanel(
            a, party, seed_source=seed_source, check=self.checks.check, inspired_here=False,
            controls=self.controls,
            lead={
                "turn": [
                    row(move_button("Start turn", "start-turn", turn_error,
                            lambda: ("start_turn", (), {})),
                        move_button("End turn", "end-turn", turn_error,
                                    lambda: ("end_turn", (), {}))),
                    row(self.technique,
                        move_button("Spend AP", "spend-ap", turn_error,
                            lambda: ("spend_ap", (self.technique.value,), {}))),
                    row(self.reaction,
                        move_button("React", "react", turn_error,
                            lambda: ("take_reaction", (self.reaction.value,), {}))),
                    turn_error],
                "states": [
                    row(self.state,
                        move_button("Add", "add-state", body_error,
                            lambda: ("add_state", (self.state.value,
                                                   bool(self.until_ended.value)), {})),
                        move_button("Remove", "remove-state", body_error,
                            lambda: ("remove_state", (self.state.value,), {})),
                        self.until_ended),
                    # Durations: extend by a turn; out of combat, time passes.
                    row(move_button("Extend +1 turn", "extend-state", body_error,
                            lambda: ("extend", (self.state.value,), {})),
                        move_button("6 seconds pass", "six-seconds", body_error,
                            lambda: ("six_seconds_pass", (), {}))),
                    body_error],
                # The benefit each quick rest takes is in the label: phones show no
                # tooltips.
                "rest": [
                    row(move_button("Short rest: clear fatigue", "short-rest", body_error,
                            lambda: ("short_rest", (["Clear Fatigue"],), {})),
                        move_button("Long rest: clear fatigue", "long-rest", body_error,
                            lambda: ("long_rest", (["Clear Fatigue"],), {})),
                        move_button("Extended rest: recuperate", "extended-rest", body_error,
                            lambda: ("extended_rest", ("Recuperate",), {})))],
            },
            tail={"sheet": [self.file, *own_error, self.history]})
        self.children = [
            sheet_style(),
            self.view,
            row(move_button("Feeling Lucky", "feeling-lucky", threads_error,
                    lambda: ("feeling_lucky", (), paid())),
                move_button("Bend Luck", "bend-luck", threads_error,
                    lambda: ("bend_luck", (), paid())),
                move_button("Lucky Find", "lucky-find", threads_error,
                    lambda: ("lucky_find", (), paid())),
                self.inspired),
            threads_error,
            row(self.amount,
                move_button("Damage", "damage", hp_error, lambda: ("take_damage", (amount(),), {}),
                    amount=True),
                move_button("Heal", "heal", hp_error, lambda: ("heal", (amount(),), {}),
                    amount=True)),
            row(move_button("Mark fatigue", "fatigue", hp_error,
                    lambda: ("mark_fatigue", (amount(),), {}), amount=True),
                move_button("Clear fatigue", "clear-fatigue", hp_error,
                    lambda: ("clear_fatigue", (amount(),), {}), amount=True),
                move_button("Mark exhaustion", "exhaustion", hp_error,
                    lambda: ("mark_exhaustion", (amount(),), {}), amount=True),
                move_button("Death roll", "death-roll", hp_error, lambda: ("death_roll", (), {})),
                button("Undo", self.undo, error=hp_error, name="undo")),
            hp_error,
            self.roll_result,
            self.checks,
            self.section_errors["check"],
            self.sheet_moves,
        ]
        for control in (self.technique, self.reaction, self.state, self.amount,
                        self.inspired, self.until_ended):
            control.observe(safe(self.error)(lambda _change: self.update_buttons()),
                            names="value")
        bind(a, self.render, error=self.error)

    def _why_not(self, call: Callable[[], tuple[str, tuple[Any, ...], dict[str, Any]]]
                 ) -> str | None:
        try:
            move, args, kwargs = call()
        except CompanionError as exc:
            return one_line(exc)
        if move in ("feeling_lucky", "death_roll"):
            kwargs = {**kwargs, "seed": 0}
        return self.adventurer.why_not(move, *args, **kwargs)

    def update_buttons(self) -> None:
        """Disable each button whose move the rules refuse now (or whose amount is bad)."""
        amount_refusal = first_bad_box(self.amount)
        for btn, call, reads_amount in self.moves:
            disable_for(btn, (amount_refusal if reads_amount else None)
                          or self._why_not(call))

    def undo(self) -> Any:
        return undo(self.adventurer)

    @property
    def message(self) -> str:
        """The error showing anywhere on this sheet ("" when there is none)."""
        lines = [*self.section_errors.values(), self.error]
        return next((line.message for line in lines if line.message),
                    self.sheet_moves.message)

    def render(self) -> None:
        a = self.adventurer
        # A move went through: an older refusal in another section no longer applies.
        for line in [*self.section_errors.values(), *self.sheet_moves.errors.values()]:
            line.clear()
        threads = frag(
            el("span", "T", class_="tc-token", style="display:inline-block;min-width:24px;"
               "padding:2px;margin:1px;border-radius:12px;background:#6a1b9a;color:#fff;"
               "text-align:center") for _ in range(min(a.threads, 20)))
        status = ("passed on" if a.passed_on else "dead — Death offers a bargain" if a.dead
                  else "dying" if a.dying else "stable" if a.stable else "")
        # A state that runs out shows its turn ends left (issue 30).
        states = ", ".join(f"{n} ({a.durations[n]} turn{'s' if a.durations[n] != 1 else ''})"
                           if n in a.durations else n
                           for n in [*a.active_conditions, *a.statuses]) or "none"
        if a.underwater:
            states += " · underwater"
        if a.dodging:
            states += (" · dodging" if a.dodge_holds else " · dodging (no benefit now)")
        holds = ", ".join(f"{k} {v}" for k, v in a.holds.items()) or "none"
        self.view.value = el(
            "div", el("b", a.name), " ",
            el("small", f"FOC {a.focus:+d} · POW {a.power:+d} · CUN {a.cunning:+d} · "
               f"LCK {a.luck:+d} · XP {a.xp}"),
            status and frag(" — ", el("b", status, class_="tc-status")),
            el("div", "Threads ", el("span", a.threads, class_="tc-threads"),
               f"/{a.max_threads} ", threads),
            el("div", "AP ", el("span", a.ap, class_="tc-ap"),
               f"{' (turn)' if a.in_turn else ''} · reaction "
               f"{'used' if a.reaction_used else 'ready'} · HP ",
               el("span", a.hp, class_="tc-hp"), f"/{a.max_hp} · AC {a.effective_ac}"),
            el("div", "Fatigue ", _boxes(a.fatigue, a.max_fatigue, "#ef6c00", "fatigue-boxes")),
            el("div", "Exhaustion ",
               _boxes(a.exhaustion, a.max_exhaustion, "#b71c1c", "exhaustion-boxes"), " ",
               el("small", f"(checks −{a.exhaustion_penalty})")),
            el("div", el("small", f"States: {states} · hold: {holds} · forward {a.forward:+d}"
                         f"{' · ' + a.resting + ' rest begun' if a.resting else ''}")),
            class_="tc-sheet", data_threads=a.threads, data_ap=a.ap, data_resting=a.resting,
            data_dodging=str(a.dodging).lower(), data_fatigue=a.fatigue,
            data_exhaustion=a.exhaustion, data_hp=a.hp)
        self.history.value = log_html(a.log)
        self.update_buttons()


class GroupCheckPanel(widgets.VBox):
    """A group check: everyone's modifier, the exact odds of the group's result, a roll."""

    def __init__(self, error: ErrorLine | None = None,
                 seed_source: Callable[[], int] = draw_seed, *,
                 controls: RollControls | None = None) -> None:
        super().__init__()
        self.error = error or ErrorLine()
        self.seed_source = seed_source
        own_error = [self.error] if error is None else []
        self.add_class("tc-group")
        self.controls = controls if controls is not None else RollControls(
            seed_source=lambda: self.seed_source(), name="group")
        self.modifiers = text_box("Modifiers, e.g. 2, 0, -1", value="2, 0, -1",
                                  name="group-modifiers", on_enter=self.show_odds,
                                  error=self.error)
        self.modifiers_error = ErrorLine()
        self.dc = int_box("DC", 10, "group-dc", -LIMIT, LIMIT)
        self.dc.observe(safe(self.error)(self._dc_changed), names="value")
        self.odds = widgets.HTML()
        self.odds.add_class("tc-group-odds")
        self.result = widgets.HTML(el("div", class_="tc-group-result", data_n=0))
        self.rolls = 0
        self.roll_button = button("Roll group check", self.roll, error=self.error,
                                  name="group-roll")
        self.odds_button = button("Odds", self.show_odds, error=self.error, name="group-odds")
        self.modifiers.observe(lambda _change: self._check_modifiers(), names="value")
        self.children = [row(self.modifiers, self.dc), self.modifiers_error, self.odds,
                         self.controls, row(self.odds_button, self.roll_button), *own_error,
                         self.result]
        self.show_odds()

    def _modifiers_refusal(self) -> str | None:
        try:
            self._parsed()
        except RuleError as exc:
            return one_line(exc)
        return None

    def _update_buttons(self) -> None:
        reason = first_bad_box(self.dc) or self._modifiers_refusal()
        for btn in (self.roll_button, self.odds_button):
            disable_for(btn, reason)

    def _dc_changed(self, _change: Any = None) -> None:
        self._update_buttons()
        if self.dc.valid and self._modifiers_refusal() is None:
            self.show_odds()

    def _parsed(self) -> list[int]:
        return parse_modifiers(self.modifiers.value)

    def _check_modifiers(self) -> None:
        reason = self._modifiers_refusal()
        if reason is None:
            self.modifiers_error.clear()
        else:
            self.modifiers_error.show(reason)
        self._update_buttons()

    def checks(self) -> list[AbilityCheck]:
        try:
            values = self._parsed()
        except RuleError as exc:
            self.modifiers_error.show(exc)
            raise
        return [AbilityCheck(m, self.dc.value) for m in values]

    def show_odds(self, _change: Any = None) -> None:
        checks = self.checks()
        odds = group_odds(checks)
        cells = join((el("span", f"{t.label}: ", el("b", percent(p)), " ",
                         el("small", f"({fraction_text(p)})"), data_tier=t.name.lower())
                      for t, p in reversed(odds.items())), " · ")
        self.odds.value = el("div", f"Group of {len(checks)} vs DC {self.dc.value}: ", cells)
        self.controls.set_hint(f"{len(checks)}d20, one per creature")

    def roll(self) -> Any:
        """Roll everyone's check in the mode picked (or with the faces entered, one d20 per
        creature in order); ``None`` when this viewer may not see the result."""
        checks, controls = self.checks(), self.controls
        # It moves no tracker: the declared rule, made again by verify from the log.
        out = controls.run_rule(f"group check of {len(checks)} vs DC {self.dc.value}",
                                group_call(checks))
        self.rolls += 1
        result = out.value
        if result is None:
            self.result.value = el("div", out.hidden_html(), class_="tc-group-result tc-hidden",
                                   data_n=self.rolls)
            return None
        how = "your dice" if out.physical else details_html(f"seed {out.seed}")
        self.result.value = el("div", el("b", result.tier.label), f" — {result} ",
                               el("small", "(", how, ")"), class_="tc-group-result",
                               data_n=self.rolls, data_tier=result.tier.name.lower())
        return result


class GameMasterPanel(widgets.VBox):
    """The GM's threads of fate: gained on players' critical misses, spent on three uses."""

    def __init__(self, gm: GameMaster, error: ErrorLine | None = None) -> None:
        super().__init__()
        self.gm = gm
        self.error = error or ErrorLine()
        own_error = [self.error] if error is None else []
        self.view = widgets.HTML()
        self.use = widgets.Dropdown(options=list(GM_USES), description="Use",
                                    layout=widgets.Layout(width="330px"))
        self.gain_button = button("+1 thread", lambda: act(gm, "gain_thread", 1), error=self.error,
                                  name="gm-gain")
        self.spend_button = button("Spend", lambda: act(gm, "spend_thread", self.use.value),
                                   error=self.error, name="gm-spend")
        self.file = SaveLoad(gm, "gm-threads.json", what="GM's threads", error=self.error)
        self.reading = widgets.Dropdown(options=list(GM_THREAD_READINGS), value=gm.reading,
                                        description="GM gains a thread when a player spends",
                                        style={"description_width": "initial"},
                                        layout=widgets.Layout(width="auto", max_width="100%"))
        self.reading.add_class("tc-pick-gm-reading")
        self.reading.observe(safe(self.error)(lambda ch: (
            act(gm, "set_reading", ch["new"]) if ch["new"] != gm.reading else None)), names="value")
        self.children = [self.view, row(self.gain_button, self.use, self.spend_button),
                         row(self.reading), *own_error, self.file]
        bind(gm, self.render, error=self.error)

    def render(self) -> None:
        self.view.value = el("div", el("b", "GM"), ": ",
                             el("span", self.gm.threads, class_="tc-gm-threads"),
                             f" thread{'s' if self.gm.threads != 1 else ''} of fate",
                             class_="tc-gm", data_threads=self.gm.threads)
        self.reading.value = self.gm.reading
        disable_for(self.spend_button, None if self.gm.can_spend
                      else "Threads of Fate: the GM has no thread to spend")
        disable_for(self.gain_button, None if self.gm.can_gain
                      else f"Threads of Fate: the GM holds at most {LIMIT} threads")


class MonstersAndMagicApp(widgets.VBox):
    """A table: the characters' sheets, one at a time (the *Character* picker chooses
    which), then a check roller for anyone, a group check and the GM's threads, each in a
    section opened with a tap."""

    def __init__(self, names: list[str] | None = None, *, luck: int = 2,
                 seed_source: Callable[[], int] = draw_seed, party: Party | None = None,
                 adopt: Callable[[Adventurer], Adventurer] | None = None,
                 session: Session | None = None, who: str | None = None,
                 role: str | None = None) -> None:
        """``party``: an existing table (a campaign's; ``names`` is then ignored).
        ``adopt``: hands a new character to its keeper (a campaign) and returns the
        sheet to seat (the campaign's live one). ``campaign``, ``who``, ``role``: the
        page's campaign and viewer (``who``/``role`` default to the campaign's), for the
        modes of every roll (public, GM only, blind, self, logged with commitments) and
        rolls with the players' own dice; without a campaign every roll is public."""
        super().__init__()
        self.error = ErrorLine()
        self.session = session
        self.who = who if who is not None else (session.who if session is not None else "")
        self.role = role if role is not None else (session.seat_role if session is not None
                                                   else "")
        self.party = party if party is not None else Party()
        self.adopt = adopt
        self.gm = self.party.gm
        self.seed_source = seed_source
        # Each part shows its own errors under its buttons; self.error is for the roster.
        self.roller = CheckPanel(None, seed_source=seed_source, controls=RollControls(
            session=session, who=self.who, role=self.role, seed_source=seed_source,
            name="check"), targets=self.party)
        self.group = GroupCheckPanel(seed_source=seed_source, controls=RollControls(
            session=session, who=self.who, role=self.role, seed_source=seed_source,
            name="group"))
        self.gm_view = GameMasterPanel(self.gm)
        self.sheets: dict[str, AdventurerPanel] = {}
        self.picker = widgets.Dropdown(options=[], description="Character",
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="260px",
                                                             min_height=MIN_BUTTON_HEIGHT))
        self.picker.add_class("tc-select-character")
        self.picker.observe(safe(self.error)(lambda _change: self.show_selected()),
                            names="value")
        self.characters = column()
        self.new_name = name_box("New character", name="new-character", max_len=MAX_NAME,
                                 required=False,
                                 placeholder=f"a name, up to {MAX_NAME} characters")
        self.new_name.on_enter(self.add_character, self.error)
        self.add_button = button("Add character", self.add_character, error=self.error,
                                 name="add-character")
        self.new_name.observe(lambda _change: self._check_name(), names="value")
        # The new character's own numbers (the sheet's Numbers can change them later).
        self.new_stats = {
            "focus": int_box("FOC", 0, "new-focus", -5, 10, width="90px"),
            "power": int_box("POW", 0, "new-power", -5, 10, width="90px"),
            "cunning": int_box("CUN", 0, "new-cunning", -5, 10, width="90px"),
            "luck": int_box("LCK", luck, "new-luck", -5, 10, width="90px"),
            "max_hp": int_box("HP", 12, "new-hp", 1, 999, width="90px"),
            "ac": int_box("AC", 0, "new-ac", 0, 30, width="90px"),
        }
        for box in self.new_stats.values():
            box.observe(lambda _change: self._check_name(), names="value")
        # The sheet in play comes first on a phone; the table's other tools open a tap away
        # (the GM's title keeps the thread count in sight).
        self.tools = {
            "roller": Section("table-roller", "Ability check for any creature",
                              [self.roller]),
            "group": Section("table-group", "Group check", [self.group]),
            "gm": Section("table-gm", "GM's threads of fate", [self.gm_view]),
        }
        bind(self.gm, self._gm_title, error=self.error)
        app_box(row(self.picker), self.characters, *self.tools.values(),
                row(self.new_name, *self.new_stats.values(), self.add_button), self.error,
                box=self)
        self.luck = luck
        self.party.on_change(safe(self.error)(lambda _party: self._refresh_picker()))
        if party is not None:
            for adventurer in party.characters:
                self.seat(adventurer)
        else:
            for name in names or ["Ash"]:
                self.seat(self.party.new_character(name, luck=luck, max_hp=12, supplies=2))
        self._check_name()

    def _gm_title(self) -> None:
        n = self.gm.threads
        self.tools["gm"].retitle(f"GM's threads of fate: {n}")

    def _check_name(self) -> None:
        bad = first_bad_box(*self.new_stats.values())
        disable_for(self.add_button, bad if bad is not None else
                    None if self.new_name.valid and self.new_name.text.strip()
                    else "type a name of up to 60 characters first")

    def seat(self, adventurer: Adventurer) -> AdventurerPanel:
        """Show the sheet of ``adventurer`` (already at the table) and pick it."""
        sheet = AdventurerPanel(adventurer, party=self.party, seed_source=self.seed_source,
                                session=self.session, who=self.who, role=self.role)
        self.sheets[adventurer.name] = sheet
        self._refresh_picker(sheet)
        return sheet

    def _refresh_picker(self, show: AdventurerPanel | None = None) -> None:
        """List the characters by their names now (a loaded sheet may bring another name)."""
        shown = show or next((p for p in self.sheets.values()
                              if p in self.characters.children), None)
        self.sheets = {panel.adventurer.name: panel for panel in self.sheets.values()}
        self.picker.options = list(self.sheets)
        if shown is not None:
            self.picker.value = shown.adventurer.name
        self.show_selected()

    @property
    def selected(self) -> AdventurerPanel:
        """The sheet on show."""
        return self.sheets[self.picker.value]

    def show_selected(self) -> None:
        if self.picker.value in self.sheets:
            self.characters.children = [self.sheets[self.picker.value]]

    def add_character(self) -> AdventurerPanel:
        name = self.new_name.read()  # too long: refused under the box, nobody added
        stats = {key: box.read() for key, box in self.new_stats.items()}
        if self.adopt is None:
            adventurer = self.party.new_character(name, **stats)
        else:
            self.party.check_name(name)
            adventurer = self.party.add(self.adopt(Adventurer.new(name, **stats)))
        sheet = self.seat(adventurer)
        self.new_name.value = ""
        return sheet


def _choice(options: list[str], description: str, name: str) -> widgets.Dropdown:
    box = widgets.Dropdown(options=options, value=options[0], description=description,
                           style={"description_width": "initial"},
                           layout=widgets.Layout(width="220px", min_height=MIN_BUTTON_HEIGHT))
    box.add_class(f"tc-select-{name}")
    return box
