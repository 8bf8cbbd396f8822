"""The duel app: two players choose in secret; the second choice reveals both."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as widgets

from companion.rulesets.cairn_srd.duel import MAX_DUEL_HP, TACTICS, Duel
from companion.widgets.base import SaveLoad, app_box, bind, int_box, name_box, row
from companion.widgets.cairn_srd.common import CairnAppBase, cairn_css, escape

__all__ = ["DuelApp"]


class DuelApp(CairnAppBase):
    """Two players choose in secret; the choices show only once both are in."""

    def __init__(self, duel: Duel | None = None, *,
                 seed_source: Callable[[], int] | None = None) -> None:
        super().__init__(seed_source)
        self.duel = duel or Duel()
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
        self.undo_button = self.btn("Undo", self.undo, "undo")
        self.file = SaveLoad(d, "cairn-duel.json", what="duel")
        app_box(
            cairn_css(),
            row(self.name_boxes[0], self.hp_boxes[0]),
            row(self.name_boxes[1], self.hp_boxes[1]),
            row(self.stakes, self.btn("Start duel", self.start, "start", "primary")),
            self.board,
            *self.choice_rows,
            row(self.undo_button),
            self.error,
            self.outcome,
            self.seed_row,
            self.file,
            box=self,
        )
        bind(d, self.render, error=self.error)

    def start(self) -> None:
        names = [b.read() for b in self.name_boxes]
        hps = [b.read() for b in self.hp_boxes]
        self.duel.start(names[0], names[1], hps[0], hps[1], self.stakes.read())
        self.show(self.duel.log[-1].summary)

    def _choose(self, side: int, tactic: str) -> Callable[[], None]:
        def choose() -> None:
            seed = self.draw() if len(self.duel.waiting()) == 1 else None
            exchange = self.duel.choose(side, tactic, seed=seed)
            if exchange is not None and seed is not None:
                self.show(self.duel.log[-1].summary, seeds=[seed])
            else:
                self.show(f"{self.duel.names[side]} has chosen (hidden).")
        return choose

    def undo(self) -> None:
        self.show(f"Undone: {self.duel.undo().summary}")

    def render(self) -> None:
        d = self.duel
        if not d.started:
            self.board.value = "<div class='tc-stats'>Set names, hit points and stakes.</div>"
        else:
            state = (f"<b>Winner: {escape(d.winner)}</b>" if d.winner
                     else f"Round {d.rounds + 1}: choose in secret")
            self.board.value = (
                f'<div class="tc-stats tc-duel" data-rounds="{d.rounds}">Stakes: '
                f"{escape(d.stakes)}<br>{escape(d.names[0])} <b>{d.hit_points[0]}</b> hp · "
                f"{escape(d.names[1])} <b>{d.hit_points[1]}</b> hp<br>{state}</div>")
        for side, box in enumerate(self.choice_rows):
            chosen = bool(d.choices[side])
            label = f"{escape(d.names[side])}: " + ("chosen ✓ (hidden)" if chosen else "choose")
            head = box.children[0]
            assert isinstance(head, widgets.HTML)
            head.value = f'<span class="tc-choice-{side}">{label}</span>'
            for b in box.children[1:]:
                assert isinstance(b, widgets.Button)
                b.disabled = not d.can_choose(side)
        self.undo_button.disabled = not d.log
