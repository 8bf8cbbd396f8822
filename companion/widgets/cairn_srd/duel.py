"""The duel app: two players choose in secret; the second choice reveals both.

On one device (hot seat) both rows of choices show and neither pick is ever drawn before
the reveal. Across devices (a campaign, each person's own ``who``) a duelist's screen has
only their own row of choices; the other side shows only "chosen"; the table screen (the
GM, or anyone else) shows both sides' state without buttons, except that the GM's screen
is the hot seat for a duelist with no seat of their own (``hot_seat_for``: in the
serverless apps the device holder is the GM, so both duelists choose there, in turn, and
the duel is kept in the campaign). Every screen is drawn from
[Duel.view_for][companion.rulesets.cairn_srd.duel.Duel.view_for], so the other side's
pick never reaches the page before the reveal, and *Save* leaves a pending pick out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.duel import MAX_DUEL_HP, TACTICS, Duel, Exchange
from companion.table.session import mirror_save
from companion.widgets.base import (
    SaveLoad,
    app_box,
    bind,
    confirm_button,
    int_box,
    name_box,
    row,
)
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, said
from companion.widgets.markup import el, frag
from companion.widgets.seat_controls import act, gm_screen, load, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["DuelApp", "PublicDuelSave"]


class PublicDuelSave:
    """The duel's *Save*: [Duel.public_save][companion.rulesets.cairn_srd.duel.Duel.public_save]
    (no pending pick); loading is for the hot seat and the GM."""

    def __init__(self, duel: Duel, can_load: bool) -> None:
        self.duel, self.can_load = duel, can_load

    def on_change(self, callback: Callable[..., Any], /) -> Any:
        return self.duel.on_change(callback)

    def to_json(self) -> str:
        # A player's page holds a seat's mirror: its session gives the public save.
        mirrored = mirror_save(self.duel)
        save = mirrored if mirrored is not None else self.duel.public_save()
        return json.dumps(save, ensure_ascii=False, sort_keys=True)

    def load(self, text: str) -> None:
        if not self.can_load:
            raise CompanionError("Duel: only the GM loads a saved duel")
        load(self.duel, text)


class DuelApp(CairnAppBase):
    """Two players choose in secret; the choices show only once both are in.

    ``viewer`` and ``role`` say who is looking (from the campaign's URL): a duelist's own
    screen, or the table screen (the GM, or anyone else). With neither, the hot seat.
    ``hot_seat_for(name)``: whether the duelist ``name`` chooses on the GM's screen (no
    seat of their own; the device is passed to them).
    The choice that reveals both rolls the exchange dice: that roll takes a roll mode and
    can be entered from real dice ([common][companion.widgets.cairn_srd.common]).
    """

    dice_hint = "2 dice"

    def __init__(self, duel: Duel | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 viewer: str | None = None, role: str = "",
                 session: Session | None = None,
                 hot_seat_for: Callable[[str], bool] | None = None) -> None:
        super().__init__(seed_source, session=session)
        self.hot_seat_for = hot_seat_for
        self.duel = duel or Duel()
        self.viewer = viewer or None
        self.role = role
        self.hot_seat = self.viewer is None and not role
        d = self.duel
        self.name_boxes = [name_box("First", "Vera", "name-0"),
                           name_box("Second", "Osk", "name-1")]
        self.hp_boxes = [int_box("HP", 8, "hp-0", 1, MAX_DUEL_HP, width="110px"),
                         int_box("HP", 8, "hp-1", 1, MAX_DUEL_HP, width="110px")]
        self.stakes = name_box("Stakes", "", "stakes", max_len=200, required=False,
                               placeholder="what winning and losing mean")
        self.board = widgets.HTML()
        self.choice_rows = [
            row(widgets.HTML(), *[self.btn(t.capitalize(), self._choose(side, t),
                                           f"choose-{side}-{t}") for t in TACTICS])
            for side in (0, 1)]
        if self.hot_seat:
            self.undo_button = confirm_button(
                "Undo", self.undo, risky=lambda: True, prompt="Undo: do both agree?",
                error=self.error, name="undo")
        else:
            self.undo_button = self.btn("Undo", self.undo, "undo")
        self.file = SaveLoad(PublicDuelSave(d, self.runs_table), "cairn-duel.json",
                             what="duel")
        self.setup_row = widgets.VBox([
            row(self.name_boxes[0], self.hp_boxes[0]),
            row(self.name_boxes[1], self.hp_boxes[1]),
            row(self.stakes, self.btn("Start duel", self.start, "start", "primary"))])
        app_box(
            cairn_css(),
            self.setup_row,
            self.board,
            *self.choice_rows,
            row(self.undo_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        if not self.runs_table:
            self.setup_row.layout.display = "none"
            self.undo_button.layout.display = "none"
        bind(d, self.render, error=self.error)

    @property
    def gm_screen(self) -> bool:
        """Whether this is the GM's screen: the table session's answer; a screen in no
        campaign (the app on its own, a test's twin screens) is as its ``role`` says."""
        return gm_screen(self.table_session, self.role)

    @property
    def runs_table(self) -> bool:
        """Whether this screen may start, load and undo: the hot seat or the GM."""
        return self.hot_seat or self.gm_screen

    @property
    def side(self) -> int | None:
        """The viewer's side when this is a duelist's own screen."""
        if self.hot_seat or self.gm_screen or self.viewer not in self.duel.names:
            return None
        return self.duel.names.index(self.viewer)

    def passed_here(self, side: int) -> bool:
        """Whether ``side`` chooses on this screen: the hot seat, or the GM's screen for a
        duelist with no seat of their own (asked afresh: a seat made mid-duel moves them)."""
        if self.hot_seat:
            return True
        names = self.duel.names
        return (self.gm_screen and self.hot_seat_for is not None and side < len(names)
                and bool(names[side]) and bool(self.hot_seat_for(names[side])))

    def start(self) -> None:
        if not self.runs_table:
            raise CompanionError("Duel: the GM starts the duel")
        names = [b.read() for b in self.name_boxes]
        hps = [b.read() for b in self.hp_boxes]
        act(self.duel, "start", names[0], names[1], hps[0], hps[1], self.stakes.read())
        self.show(self.duel.log[-1].summary)

    def _choose(self, side: int, tactic: str) -> Callable[[], None]:
        def choose() -> None:
            if self.side != side and not (self.side is None and self.passed_here(side)):
                raise CompanionError("Duel: each duelist chooses on their own screen")
            d = self.duel
            if d.waiting() != [d.names[side]]:
                act(d, "choose", side, tactic)
                self.show(f"{d.names[side]} has chosen (hidden).")
                return

            def exchange_text(ex: Exchange | None) -> str:
                if ex is None:
                    return said(d)
                return said(d, f"{d.names[0]} {ex.choices[0]} vs {d.names[1]} "
                               f"{ex.choices[1]}: d{ex.dice[0]} = {ex.damage[0]}, "
                               f"d{ex.dice[1]} = {ex.damage[1]}")

            self.roll("duel exchange", (d, "choose", {"who": side, "tactic": tactic}),
                      exchange_text)
        return choose

    def undo(self) -> None:
        # The hot seat's second tap is both agreeing. Who may undo, and that a reveal
        # stays, is the duel's rule, applied by the seam to this screen's seat.
        if not self.runs_table:  # a duelist's own screen (its Undo is not shown)
            raise CompanionError("Dueling Rules: choices are secret, so only the GM can undo")
        self.show(f"Undone: {undo(self.duel).summary}")

    def render(self) -> None:
        mine = self.side
        here = [mine is None and self.passed_here(side) for side in (0, 1)]
        # Only a screen that chooses rolls the exchange: the table screen has no roll controls.
        self.controls.layout.display = None if any(here) or mine is not None else "none"
        view = self.duel.view_for(self.viewer if mine is not None else None)
        names, hp = view["names"], view["hit_points"]
        if not view["stakes"]:
            self.board.value = el("div", "Set names, hit points and stakes.", class_="tc-stats")
        else:
            state = (el("b", f"Winner: {view['winner']}") if view["winner"]
                     else f"Round {view['rounds'] + 1}: choose in secret")
            last = None
            if view["exchanges"]:
                ex = view["exchanges"][-1]
                last = frag(el("br"), el(
                    "span", f"Last exchange: {names[0]} {ex['choices'][0]} (d{ex['dice'][0]} = "
                    f"{ex['damage'][0]}), {names[1]} {ex['choices'][1]} (d{ex['dice'][1]} = "
                    f"{ex['damage'][1]})", class_="tc-last"))
            you = (frag(el("br"), "You are ", el("b", names[mine]), ".") if mine is not None
                   else None)
            self.board.value = el(
                "div", f"Stakes: {view['stakes']}", el("br"), f"{names[0]} ", el("b", hp[0]),
                f" hp · {names[1]} ", el("b", hp[1]), " hp", el("br"), state, last, you,
                class_="tc-stats tc-duel", data_rounds=view["rounds"])
        for side, box in enumerate(self.choice_rows):
            chosen = view["chosen"][side]
            if chosen and side == mine:
                label = f"{names[side]}: you chose {view['my_choice']}"
            elif chosen:
                label = f"{names[side]}: chosen ✓ (hidden)"
            else:
                label = f"{names[side]}: " + ("choose" if view["stakes"] and not
                                              view["winner"] else "—")
            head = box.children[0]
            assert isinstance(head, widgets.HTML)
            head.value = el("span", label, class_=f"tc-choice-{side}")
            mine_row = here[side] or side == mine
            for b in box.children[1:]:
                assert isinstance(b, widgets.Button)
                b.layout.display = None if mine_row else "none"
                b.disabled = not (mine_row and self.duel.can_choose(side))
        show_undo(self.undo_button, self.duel)
        disarm = getattr(self.undo_button, "disarm", None)
        if callable(disarm):
            disarm()
