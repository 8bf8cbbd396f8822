"""The downtime app: a cycle for the whole party, step by step.

Every rule is the core's ([companion.rulesets.cairn_srd.downtime][] and
[companion.rulesets.cairn_srd.settlements][]): the app calls the moves of a
[Downtime][companion.rulesets.cairn_srd.downtime.Downtime] tracker and shows what they
say: upkeep, downtime actions with their milestone trackers and costs, faction clocks,
the settlement's hazard die and conditions, and each character's coin ledger. A button
the procedure would refuse now is disabled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.errors import RuleError
from companion.rulesets.cairn_srd import downtime as dt
from companion.rulesets.cairn_srd import settlements
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.downtime import Downtime
from companion.widgets.base import (
    SaveLoad,
    app_box,
    bind,
    check_box,
    disable_for,
    int_box,
    name_box,
    offer,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, labelled, said
from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.seat_controls import act, seat_refusal, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["DowntimeApp"]


def _dropdown(options: list[str] | tuple[str, ...], name: str) -> widgets.Dropdown:
    box = widgets.Dropdown(tooltip=name.replace("-pick", "").replace("-", " ").capitalize(),
                           options=list(options), value=options[0] if options else None,
                           layout=widgets.Layout(width="auto", max_width="100%"))
    box.add_class(f"tc-select-{name}")
    return box


def _header_row(*names: str) -> Markup:
    return el("tr", (el("th", n) for n in names))


def _row(*cells: object) -> Markup:
    return el("tr", (el("td", c) for c in cells))


class DowntimeApp(CairnAppBase):
    """Run downtime cycles for a party.

    ``party``: the characters (the campaign hands its party here); each joins the downtime
    by name. Without one, characters are added by name with their silver. ``downtime``: an
    existing [Downtime][companion.rulesets.cairn_srd.downtime.Downtime] tracker.

    Every roll (petty crime, contesting a cost, the factions' turn, the settlement hazard,
    rumours) takes a roll mode and can be entered from real dice
    ([common][companion.widgets.cairn_srd.common]).
    """

    dice_hint = "d6"

    def __init__(self, party: list[Character] | None = None, downtime: Downtime | None = None,
                 *, seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.party: list[Character] = party if party is not None else []
        self.downtime = downtime if downtime is not None else Downtime()
        d = self.downtime
        for c in self.party:  # each character this page's seat may bring (a player: own)
            if not any(m.name.lower() == c.name.lower() for m in d.members) and \
                    seat_refusal(d, "add_member", {"name": c.name}) is None:
                act(d, "add_member", c.name)

        self.board = widgets.HTML()
        self.next_button = self.btn("Finish step", self.finish_step, "finish-step", "primary")
        # members and the ledger
        self.who = name_box("Name", "", "member", max_len=dt.MAX_NAME,
                            required=False, width="200px")
        self.purse = int_box("Silver", 0, "purse", 0, dt.MAX_SILVER)
        self.add_member_button = self.btn("Add character", self.add_member, "add-member")
        self.members = widgets.HTML()
        self.member = _dropdown(["—"], "member")
        self.amount = int_box("Amount", 10, "amount", 1, dt.MAX_SILVER)
        self.why = name_box("For", "", "why", max_len=dt.MAX_TEXT, required=False,
                            width="200px")
        self.earn_button = self.btn("Earn", self.earn, "earn")
        self.spend_button = self.btn("Spend", self.spend, "spend")
        self.repay_button = self.btn("Repay debt", self.repay, "repay")
        # Recovering ability scores or Wounds takes the cycle: no downtime action.
        self.recover_button = self.btn("Mark recovering", self.toggle_recovering,
                                       "recovering")
        self.bank = name_box("Bank", "De Sapo", "bank", max_len=dt.MAX_NAME,
                             required=False, width="160px")
        self.branch = name_box("Branch", "Hoppland", "branch", max_len=dt.MAX_NAME, required=False,
                               width="160px")
        self.at_bank = name_box("Cash at bank", "", "at-bank", max_len=dt.MAX_NAME,
                                required=False, width="160px")
        self.at_branch = name_box("at branch", "", "at-branch", max_len=dt.MAX_NAME,
                                  required=False, width="160px")
        self.deposit_button = self.btn("Deposit", self.deposit, "deposit")
        self.withdraw_button = self.btn("Withdraw", self.withdraw, "withdraw")
        # Caches: silver stashed outside a bank; thieves rob the unsecured ones.
        self.cache_where = name_box("Cache at", "", "cache-where", max_len=dt.MAX_NAME,
                                    required=False, width="160px")
        self.cache_secured = check_box("Secured", "cache-secured")
        self.cache_button = self.btn("Cache silver", self.add_cache, "add-cache")
        self.cache = widgets.Dropdown(tooltip="Cache", options=[("—", None)], value=None,
                                      layout=widgets.Layout(width="220px"))
        self.cache.add_class("tc-select-cache")
        self.rob_button = self.btn("Thieves take (amount)", self.rob_cache, "rob-cache")
        self.member.observe(lambda _c: self._caches(), "value")
        self.ledger = widgets.HTML()
        # step 1
        self.way = _dropdown(dt.UPKEEP_WAYS, "way")
        self.lifestyle = _dropdown(tuple(dt.lifestyles()), "lifestyle")
        self.skill = check_box("Skill", "skill")
        self.gear = check_box("Gear", "gear")
        self.time = check_box("Time", "time", True)
        self.push = check_box("Push luck", "push")
        self.accept = check_box("Accept hard choice", "accept")
        self.upkeep_button = self.btn("1 · Upkeep", self.upkeep, "upkeep")
        # actions
        self.goal = name_box("Goal", "", "goal", max_len=dt.MAX_TEXT, required=False, width="220px")
        self.milestones = int_box("Milestones", 3, "milestones", 1, dt.MAX_MILESTONES)
        self.cost = int_box("Silver cost", 0, "cost", 0, dt.MAX_SILVER)
        self.new_action_button = self.btn("New action", self.new_action, "new-action")
        self.actions = widgets.HTML()
        self.action = _dropdown(["—"], "action-pick")
        self.choose_button = self.btn("2 · Pick action", self.choose_action, "pick-action")
        self.pay_button = self.btn("Pay cost", self.pay_cost, "pay-cost")
        self.control = int_box("CTRL", 10, "control", 0, 18)
        self.contest_button = self.btn("CTRL save vs cost", self.contest, "contest")
        self.milestone_button = self.btn("3 · Mark milestone", self.milestone, "milestone")
        # factions and settlement
        self.faction_name = name_box("Faction", "", "faction", max_len=dt.MAX_NAME, required=False,
                                     width="180px")
        self.faction_goal = name_box("Goal", "", "faction-goal", max_len=dt.MAX_TEXT,
                                     required=False, width="200px")
        self.faction_size = int_box("Steps", 6, "faction-size", 1, dt.MAX_GOAL)
        self.faction_mod = int_box("Modifier", 0, "faction-mod", -6, 6)
        self.add_faction_button = self.btn("Add faction", self.add_faction, "add-faction")
        self.factions = widgets.HTML()
        self.faction_button = self.btn("4 · Faction turn", self.faction_turn, "faction-turn")
        self.faction_pick = _dropdown(["—"], "faction-pick")
        self.steps = int_box("Steps ±", 1, "interfere-steps", -dt.MAX_INTERFERENCE,
                             dt.MAX_INTERFERENCE)
        self.interfere_button = self.btn("Help or hinder", self.interfere, "interfere")
        self.town = name_box("Settlement", "", "town", max_len=dt.MAX_NAME, required=False,
                             width="180px")
        self.enter_button = self.btn("Stay in settlement", self.enter, "enter-settlement")
        self.leave_button = self.btn("Leave settlement", self.leave, "leave-settlement")
        self.hazard_button = self.btn("4 · Hazard die", self.hazard, "hazard")
        self.condition = _dropdown(["—"], "condition")
        self.end_button = self.btn("End condition", self.end_condition, "end-condition")
        self.rumour_button = self.btn("5 · Rumour", self.rumour, "rumour")
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.file = SaveLoad(d, "cairn-downtime.json", what="downtime")

        app_box(
            cairn_css(),
            self.board,
            row(self.next_button, self.undo_button),
            widgets.HTML(el("h3", "Party and ledger")),
            self.members,
            row(self.who, self.purse, self.add_member_button),
            row(labelled("Who", self.member), self.amount, self.why, self.earn_button,
                self.spend_button, self.repay_button),
            row(self.recover_button),
            row(self.bank, self.branch, self.deposit_button),
            row(self.at_bank, self.at_branch, self.withdraw_button),
            row(self.cache_where, self.cache_secured, self.cache_button),
            row(labelled("Cache", self.cache), self.rob_button),
            self.ledger,
            widgets.HTML(el("h3", "1 · Upkeep")),
            row(labelled("How", self.way), labelled("Lifestyle", self.lifestyle)),
            row(self.skill, self.gear, self.time, self.push, self.accept, self.upkeep_button),
            widgets.HTML(el("h3", "2-3 · Downtime actions")),
            row(self.goal, self.milestones, self.cost, self.new_action_button),
            self.actions,
            row(labelled("Action", self.action), self.choose_button, self.pay_button),
            row(self.control, self.contest_button, self.milestone_button),
            widgets.HTML(el("h3", "4 · Factions and settlement")),
            row(self.faction_name, self.faction_goal, self.faction_size, self.faction_mod,
                self.add_faction_button),
            self.factions,
            row(self.faction_button, labelled("Faction", self.faction_pick), self.steps,
                self.interfere_button),
            row(self.town, self.enter_button, self.leave_button, self.hazard_button),
            row(labelled("Condition", self.condition), self.end_button),
            widgets.HTML(el("h3", "5 · Resupply")),
            row(self.rumour_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        self.add_member_button.layout.display = "none" if self.party else ""
        bind(d, self.render, error=self.error)

    # -- helpers -------------------------------------------------------------------------

    def _last(self) -> None:
        self.show(self.downtime.log[-1].summary)

    def _action_index(self) -> int:
        value = self.action.value
        if not isinstance(value, int):
            raise RuleError("Downtime Actions: create an action first")
        return value

    # -- moves ---------------------------------------------------------------------------

    def finish_step(self) -> None:
        self.show(act(self.downtime, "finish_step"))

    def add_member(self) -> None:
        act(self.downtime, "add_member", self.who.read(), self.purse.read(), self.lifestyle.value)
        self._last()

    def earn(self) -> None:
        act(self.downtime, "earn", self.member.value, self.amount.read(), self.why.read())
        self._last()

    def spend(self) -> None:
        act(self.downtime, "spend", self.member.value, self.amount.read(), self.why.read())
        self._last()

    def repay(self) -> None:
        act(self.downtime, "repay", self.member.value, self.amount.read())
        self._last()

    def toggle_recovering(self) -> None:
        d = self.downtime
        m = d.member(self.member.value)
        act(d, "set_recovering", m.name, not m.recovering)
        self._last()

    def deposit(self) -> None:
        act(self.downtime, "deposit", self.member.value, self.amount.read(), self.bank.read(),
                              self.branch.read())
        self._last()

    def withdraw(self) -> None:
        act(self.downtime, "withdraw", self.member.value, self.amount.read(), self.bank.read(),
                               self.branch.read(), self.at_bank.read(), self.at_branch.read())
        self._last()

    def add_cache(self) -> None:
        act(self.downtime, "add_cache", self.member.value, self.cache_where.read(),
            self.amount.read(), bool(self.cache_secured.value))
        self._last()

    def rob_cache(self) -> None:
        if self.cache.value is None:
            raise RuleError("Banks: choose a cache first")
        act(self.downtime, "rob_cache", self.member.value, int(self.cache.value),
            self.amount.read())
        self._last()

    def _caches(self) -> None:
        """The chosen character's caches (secured ones named so: thieves pass them by)."""
        chosen = next((m for m in self.downtime.members if m.name == self.member.value), None)
        caches = [(f"#{i + 1} {c.where}: {c.silver}" + (" (secured)" if c.secured else ""), i)
                  for i, c in enumerate(chosen.caches if chosen else [])]
        if list(self.cache.options) != caches:
            self.cache.options = caches or [("—", None)]
            self.cache.value = caches[0][1] if caches else None
        disable_for(self.rob_button, None if any(
            not c.secured for c in (chosen.caches if chosen else [])) else "no unsecured cache")

    def upkeep(self) -> None:
        who, way, lifestyle = str(self.member.value), str(self.way.value), self.lifestyle.value
        # One named act on the downtime (upkeep moves the member's ledger there alone):
        # petty crime rolls it with the session's dice, the rest is an ordinary move.
        args = {"name": who, "way": way, "lifestyle": str(lifestyle or ""),
                "skill": bool(self.skill.value), "gear": bool(self.gear.value),
                "time": bool(self.time.value), "accept_choice": bool(self.accept.value),
                "push": bool(self.push.value)}
        if way != "crime":
            self.show(f"{who}: {act(self.downtime, 'upkeep', **args)}")
            return
        self.roll(f"{who}: petty crime", (self.downtime, "upkeep", args),
                  lambda text: f"{who}: {text}")

    def new_action(self) -> None:
        silver = self.cost.read()
        costs: list[list[object]] | None = [["Silver", "silver", silver]] if silver else []
        act(self.downtime, "new_action", self.member.value, self.goal.read(),
            self.milestones.read(), costs)
        self._last()

    def choose_action(self) -> None:
        index = self._action_index()
        act(self.downtime, "choose_action", self.downtime.actions[index].owner, index)
        self._last()

    def _open_cost(self, index: int) -> int:
        costs = self.downtime.actions[index].costs
        for i, c in enumerate(costs):
            if not c.settled:
                return i
        raise RuleError("Downtime Actions: no cost is left to settle")

    def pay_cost(self) -> None:
        index = self._action_index()
        act(self.downtime, "pay_cost", index, self._open_cost(index))
        self._last()

    def contest(self) -> None:
        index = self._action_index()
        cost, control = self._open_cost(index), self.control.read()
        d = self.downtime
        self.roll(f"{d.actions[index].owner}: CTRL save against a cost",
                  (d, "contest_cost", {"index": index, "cost": cost, "control": control}),
                  lambda waived: said(d, "CTRL save: " + ("the cost is waived" if waived
                                                          else "the cost stands")))

    def milestone(self) -> None:
        act(self.downtime, "mark_milestone", self._action_index())
        self._last()

    def add_faction(self) -> None:
        act(self.downtime, "add_faction", self.faction_name.read(), self.faction_goal.read(),
                                  self.faction_size.read(), self.faction_mod.read())
        self._last()

    def faction_turn(self) -> None:
        self.roll("factions' turn", self.downtime.faction_turn, "; ".join)

    def interfere(self) -> None:
        act(self.downtime, "interfere", self.faction_pick.value, self.steps.read())
        self._last()

    def enter(self) -> None:
        act(self.downtime, "enter_settlement", self.town.read())
        self._last()

    def leave(self) -> None:
        act(self.downtime, "leave_settlement")
        self._last()

    def hazard(self) -> None:
        self.roll("settlement hazard", self.downtime.settlement_hazard)

    def end_condition(self) -> None:
        act(self.downtime, "end_condition", self.condition.value)
        self._last()

    def rumour(self) -> None:
        self.roll("rumour", self.downtime.hear_rumour, lambda text: f"Rumour: {text}")

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.downtime).summary}")

    # -- rendering -----------------------------------------------------------------------

    def render(self) -> None:
        d = self.downtime
        town = d.settlement
        conditions = ", ".join(town.conditions) or "none"
        self.board.value = el(
            "div", el("b", f"Season {d.season}, cycle {d.cycle}"),
            f" of {dt.CYCLES_PER_SEASON} · next: ", el("b", d.next_step),
            d.in_settlement and frag(
                el("br"), f"In {town.name or 'a settlement'}: conditions {conditions} · prices "
                f"+{settlements.price_rise_dice(len(town.conditions))} %"),
            class_="tc-stats tc-cycle", data_step=d.step)
        self.members.value = el("div", join((frag(
            el("b", m.name), f": {m.lifestyle.lower()} · purse {m.purse} · debt "
            f"{m.debt} · banked {sum(a.balance for a in m.accounts)} · upkeep "
            f"{'done' if m.upkept else 'due'}" + (" · recovering" if m.recovering else ""))
            for m in d.members), el("br")), class_="tc-stats tc-members")
        names = [m.name for m in d.members]
        keep = self.member.value
        self.member.options = names or ["—"]
        if keep in names:
            self.member.value = keep
        chosen = next((m for m in d.members if m.name == self.member.value), None)
        self._caches()
        self.ledger.value = el("div", join(chosen.ledger[-8:] if chosen else [], el("br")),
                               class_="tc-side tc-ledger")
        self.actions.value = el(
            "table", _header_row("#", "Who", "Goal", "Milestones", "Costs"),
            (_row(i, a.owner, a.goal, f"{a.marked}/{a.milestones}", ", ".join(
                f"{c.kind}{f' {c.silver}' if c.silver else ''} ({c.settled or 'open'})"
                for c in a.costs) or "none") for i, a in enumerate(d.actions, 1)),
            class_="tc-grid tc-actions")
        options = [(f"#{i + 1} {a.owner}: {a.goal}", i) for i, a in enumerate(d.actions)]
        keep_action = self.action.value
        self.action.options = options or [("—", None)]
        if any(v == keep_action for _, v in options):
            self.action.value = keep_action
        elif options:
            self.action.value = options[0][1]
        self.factions.value = el(
            "table", _header_row("Faction", "Goal", "Progress"),
            (_row(f.name, f.goal, f"{f.progress}/{f.size}") for f in d.factions),
            class_="tc-grid tc-factions")
        offer(self.faction_pick, [f.name for f in d.factions] or ["—"])  # a pick stays
        offer(self.condition, list(town.conditions) or ["—"])
        has_action = bool(options)
        self.upkeep_button.disabled = d.step != 1 or not names
        self.choose_button.disabled = d.step != 2 or not has_action
        self.milestone_button.disabled = d.step != 3 or not has_action
        self.pay_button.disabled = self.contest_button.disabled = not has_action
        self.faction_button.disabled = not d.allowed("faction_turn")
        self.hazard_button.disabled = not d.allowed("settlement_hazard")
        self.interfere_button.disabled = not d.factions
        self.end_button.disabled = not town.conditions
        self.next_button.disabled = not d.allowed("finish_step")
        self.enter_button.disabled = d.in_settlement
        disable_for(self.leave_button, None if d.in_settlement else "not in a settlement")
        disable_for(self.repay_button, "add a character first" if chosen is None else
                    None if chosen.debt else f"{chosen.name} owes nothing")
        self.recover_button.description = ("Mark recovered" if chosen is not None
                                           and chosen.recovering else "Mark recovering")
        disable_for(self.recover_button, None if chosen else "add a character first")
        for b in (self.earn_button, self.spend_button, self.deposit_button,
                  self.withdraw_button, self.new_action_button):
            b.disabled = not names
        show_undo(self.undo_button, d)
