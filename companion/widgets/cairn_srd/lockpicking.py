"""The lockpicking app: roll a lock on its three tables, then tap, probe, rake, study."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as widgets

from companion.rulesets.cairn_srd import lockpicking
from companion.rulesets.cairn_srd.lockpicking import LockPicking
from companion.widgets.base import SaveLoad, app_box, bind, row
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css
from companion.widgets.markup import el
from companion.widgets.seat_controls import act, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["LockpickingApp"]


class LockpickingApp(CairnAppBase):
    """Roll a lock and pick it: tap, probe, rake, study, break off.

    The first lock rolls each of its three tables with its own drawn seed, so each column
    is the row ``python -m companion table ID --roll --seed S`` gives. *New lock* and
    *Study* take a roll mode and can be entered from real dice
    ([common][companion.widgets.cairn_srd.common]): a new lock rolls its three d12s, in
    table order, from one seed (shown) or from the three faces entered. A button that
    cannot work on this lock (picking a jammed or open lock) is disabled.
    """

    dice_hint = "3 d12s"

    def __init__(self, lock: LockPicking | None = None, *,
                 seed_source: Callable[[], int] | None = None,
                 session: Session | None = None) -> None:
        super().__init__(seed_source, session=session)
        if lock is None:
            lock = LockPicking.create(seeds=self._three())
        self.lock = lock
        lp = self.lock
        self.board = widgets.HTML()
        self.pick_buttons = [self.btn(f"{name.capitalize()} ({key})", self._pick(key),
                                      f"pick-{key}")
                             for key, name in lockpicking.ACTIONS.items()]
        self.study_button = self.btn("Study (2 of 3)", self.study, "study")
        self.break_button = self.btn("Break off", lambda: self.show(act(lp, "break_off")), "break")
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.file = SaveLoad(lp, "cairn-lock.json", what="lock")
        app_box(
            cairn_css(),
            self.board,
            row(*self.pick_buttons),
            row(self.study_button, self.break_button,
                self.btn("New lock", self.new_lock, "new-lock", "primary"), self.undo_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        bind(lp, self.render, error=self.error)

    def _three(self) -> tuple[int, int, int]:
        return (self.draw(), self.draw(), self.draw())

    def new_lock(self) -> None:
        self.roll("new lock", self.lock.new_lock)

    def _pick(self, key: str) -> Callable[[], None]:
        return lambda: self.show(act(self.lock, "pick", key))

    def study(self) -> None:
        lp = self.lock
        self.roll("study the lock", (lp, "study", {"have": 2}),
                  lambda result: f"Study: {lp.log[-1].summary}")  # says if it jammed

    def undo(self) -> None:
        self.show(f"Undone: {undo(self.lock).summary}")

    def render(self) -> None:
        lp = self.lock
        effect = lockpicking.complications().get(lp.complication, "")
        self.board.value = el(
            "div", el("b", lp.lock_type), f" lock (DV {lp.dv}) · complication ",
            el("b", lp.complication), f": {effect}", el("br"), "Tumblers open: ",
            el("b", f"{lp.progress}/3"), " · state: ", el("b", lp.state), " · known: ",
            el("code", lp.hint), f" · turns {lp.turns} · mistakes {lp.mistakes}"
            + (" · ALARM" if lp.alarm else "")
            + (f" · traps sprung {lp.traps_sprung}" if lp.traps_sprung else ""),
            class_="tc-stats tc-lock", data_state=lp.state)
        for b in self.pick_buttons:
            b.disabled = not lp.can_pick
        self.study_button.disabled = not lp.can_study
        self.break_button.disabled = lp.done
        show_undo(self.undo_button, lp)
