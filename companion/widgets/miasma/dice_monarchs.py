"""The Dice Monarchs app: a hot-seat table for 2–8 players on one device.

Between turns a cover hides every player's dice; the player whose turn it is taps *Show my
dice* to see their own hole dice, their best hand so far and their chance to win. *Save*
downloads the whole table as JSON (hole dice included: keep the file face down); pasting it
into the load box resumes it, covered, on any device.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame, hand_strength
from companion.rulesets.miasma.dice_monarchs.game import (
    MAX_CHIPS,
    MAX_PLAYERS,
    SEED_LIMIT,
    check_players,
    community_dice_text,
)
from companion.rulesets.miasma.dice_monarchs.hands import best_hand_so_far
from companion.rulesets.miasma.dice_monarchs.strength import max_samples
from companion.widgets.base import (
    CheckedBox,
    ErrorLine,
    InputError,
    SaveLoad,
    app_box,
    bind,
    button,
    column,
    draw_seed,
    escape,
    int_box,
    log_html,
    row,
)
from companion.widgets.miasma.common import LOG_SHOWN, css, dice_html

__all__ = ["DiceMonarchsApp"]

SETUP_LABEL = "New table / save / load"


class PlayersBox(CheckedBox):
    """The table's names, comma separated (``.tc-name-players``): refused under the box
    unless the rules accept them (2 to 8 distinct names of at most 40 characters)."""

    kind = "name"

    def _parse(self, text: str) -> list[str]:
        try:
            return check_players([n for n in text.split(",") if n.strip()])
        except CompanionError as exc:
            raise InputError(str(exc).removeprefix("Dice Monarchs: ")) from None


class SeedBox(CheckedBox):
    """A seed (``.tc-int-seed``): a whole number, or empty for a fresh one drawn when read
    (the table shows it, so the deal can be replayed)."""

    kind = "int"

    def _parse(self, text: str) -> int:
        raw = text.strip()
        if not raw:
            return draw_seed()
        if not raw.isdigit() or not raw.isascii() or len(raw) > 19 or int(raw) >= SEED_LIMIT:
            raise InputError(f"enter a whole number from 0 to 2^63 - 1, or leave it empty "
                             f"for a fresh seed (not \u201c{raw[:20]}\u201d)")
        return int(raw)


class DiceMonarchsApp(widgets.VBox):
    """A hot-seat Dice Monarchs table for 2–8 players.

    Set the players (comma separated), chips and optionally a seed, then *New table*; or
    paste a saved table and *Load*; or pass an existing `DiceMonarchsGame` as ``game``.
    While a hand is on, the setup is folded away behind *New table / load*; a new table is
    a move, so *Undo* brings the old one back.
    """

    def __init__(self, game: DiceMonarchsGame | None = None, *,
                 players: str = "Ann, Bo, Cy", chips: int = 100, seed: int | None = None,
                 samples: int = 800) -> None:
        super().__init__()
        self.add_class("tc-monarchs")
        self.error = ErrorLine()
        self.samples = samples
        self.game = game if game is not None else DiceMonarchsGame()
        self.shown_to: str | None = None  # the player whose dice are uncovered
        self._shown_at: tuple[int, int, str, int] | None = None
        self._setup_open = False
        self.renders = 0

        self.players_box = PlayersBox(
            f"Players (clockwise, 2 to {MAX_PLAYERS}, comma separated)", players, "players",
            width="100%")
        self.chips_box = int_box("Chips each", chips, "chips", 1, MAX_CHIPS)
        self.seed_box = SeedBox("Seed (empty: a fresh one)", "" if seed is None else str(seed),
                                "seed", width="240px")
        # Enter in any setup box starts the table (the phone keyboard's Go key).
        for box in (self.players_box, self.chips_box, self.seed_box):
            box.on_enter(self._new_table, self.error)
        self.new_button = self._btn("New table", self._new_table, "new-table", "primary")
        self.save_load = SaveLoad(self.game, "dice-monarchs.json", what="Dice Monarchs table")
        self.setup = column(
            widgets.HTML("<b>Dice Monarchs</b> — players sit clockwise in the order listed."),
            self.players_box,
            row(self.chips_box, self.seed_box, self.new_button),
            self.save_load,
        )
        self.setup_button = self._btn(SETUP_LABEL, self._toggle_setup, "setup")
        self.status = widgets.HTML()
        self.status.add_class("tc-monarchs-status")
        self.community = widgets.HTML()
        self.community.add_class("tc-monarchs-community")
        self.cover = widgets.HTML()
        self.cover.add_class("tc-monarchs-cover")
        self.reveal_button = self._btn("Show my dice", self._reveal, "reveal", "primary")
        self.private = widgets.HTML()
        self.private.add_class("tc-monarchs-private")
        self.amount = int_box("Chips", 1, "amount", 1, MAX_CHIPS * MAX_PLAYERS)
        self.moves = {
            "bin": self._btn("Bin", lambda: self._move("bin"), "bin", "danger"),
            "check": self._btn("Check", lambda: self._move("check"), "check"),
            "bet": self._btn("Bet", lambda: self._move("bet", True), "bet", "info"),
            "call": self._btn("Call", lambda: self._move("call"), "call", "success"),
            "raise_bet": self._btn("Raise by", lambda: self._move("raise_bet", True), "raise",
                                   "warning"),
        }
        # The amount sits beside the two moves that read it, its refusals under it.
        m = self.moves
        self.betting = column(row(m["bin"], m["check"], m["call"]),
                              row(self.amount, m["bet"], m["raise_bet"]))
        self.deal_button = self._btn("Deal", self._deal, "deal", "primary")
        self.undo_button = self._btn("Undo", self._undo, "undo")
        self.outcome = widgets.HTML()
        self.outcome.add_class("tc-monarchs-outcome")
        self.history = widgets.HTML()
        self.play = column(self.status, self.community, self.cover, row(self.reveal_button),
                           self.private, self.betting,
                           row(self.deal_button, self.undo_button, self.setup_button),
                           self.outcome, widgets.HTML("<b>Table talk</b>"), self.history)
        app_box(css(), self.setup, self.error, self.play, box=self)
        bind(self.game, self._changed, error=self.error)

    def _btn(self, label: str, action: Callable[[], Any], name: str,
             style: str = "") -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    # -- actions (each a model move or a view change) ----------------------------------

    def _new_table(self) -> None:
        names = self.players_box.read()
        chips = self.chips_box.read()
        self.game.new_table(names, chips, seed=self.seed_box.read())
        self.game.deal()

    def _changed(self) -> None:
        # A new table, a load or a move: the table is what matters now, fold the setup.
        self._setup_open = False
        self.render()

    def _toggle_setup(self) -> None:
        self._setup_open = not self._setup_open
        self.render()

    def _token(self) -> tuple[int, int, str, int]:
        # Changes with every move, undo or load: an uncovered hand is covered again then.
        g = self.game
        return (len(g.log), g.hand_no, g.phase, g.to_act)

    def _reveal(self) -> None:
        self.shown_to = self.game.player_to_act
        self._shown_at = self._token()
        self.render()

    def _move(self, name: str, with_amount: bool = False) -> None:
        game = self.game
        player = game.player_to_act
        if player is None:
            raise CompanionError("Dice Monarchs: nobody is betting now; deal the next hand")
        if self.shown_to != player:
            raise CompanionError(f"{player}: tap 'Show my dice' first (it is your turn)")
        args = [self.amount.read()] if with_amount else []
        getattr(game, name)(player, *args)

    def _deal(self) -> None:
        self.game.deal()

    def _undo(self) -> None:
        self.game.undo()

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> None:
        game = self.game
        self.renders += 1
        to_act = game.player_to_act
        if self.shown_to is not None and (self.shown_to != to_act
                                          or self._shown_at != self._token()):
            self.shown_to = None
        started = game.hand_no > 0
        self.setup.layout.display = None if (self._setup_open or not started) else "none"
        self.play.layout.display = None if started else "none"
        self.setup_button.description = "Hide setup" if self._setup_open else SETUP_LABEL
        seats = []
        for i, name in enumerate(game.players):
            classes = []
            if name == to_act:
                classes.append("tc-turn")
            if game.phase != "waiting" and not game.in_play[i] and game.hole[i]:
                classes.append("tc-out")
            tags = []
            if i == game.banker:
                tags.append("banker")
            if game.committed[i]:
                tags.append(f"in this round: {game.committed[i]}")
            if name == to_act:
                tags.append("to act")
            extra = f" — {', '.join(tags)}" if tags else ""
            seats.append(f'<li class="{" ".join(classes)}" data-seat="{i}">'
                         f"<b>{escape(name)}</b>: {game.stacks[i]} chips{escape(extra)}</li>")
        phase = game.phase.replace("_", " ")
        self.status.value = (
            f'<div data-n="{self.renders}" data-phase="{game.phase}">'
            f"<b>Hand {game.hand_no}</b> · {phase} · pot <b class='tc-pot'>{game.pot}</b>"
            f" · bet to match {game.current_bet} · seed {game.seed}</div>"
            f'<ul class="tc-seats">{"".join(seats)}</ul>'
        )
        self.community.value = (f"<b>Community dice</b> ({escape(community_dice_text())})"
                                + dice_html(game.community, hidden_from=len(game.community)))
        betting = to_act is not None
        uncovered = betting and self.shown_to == to_act
        self.reveal_button.layout.display = None if betting and not uncovered else "none"
        self.betting.layout.display = None if uncovered else "none"
        can_deal = "deal" in game.legal_moves()
        self.deal_button.layout.display = None if can_deal else "none"
        self.deal_button.disabled = not can_deal
        self.undo_button.disabled = not game.can_undo
        legal = set(game.legal_moves()) if uncovered else set()
        for name, btn in self.moves.items():
            btn.disabled = name not in legal
        if betting and not uncovered:
            self.cover.value = (f'<div class="tc-cover" data-player="{escape(to_act)}">Pass '
                                f"the device to <b>{escape(to_act)}</b>. Everyone else, look "
                                "away.</div>")
            self.private.value = ""
        elif uncovered:
            assert to_act is not None
            self.cover.value = ""
            self.private.value = self._private_html(game, to_act)
            self.moves["call"].description = f"Call {game.to_call(to_act)}"
        else:
            self.cover.value = ""
            self.private.value = ""
        self.outcome.value = (
            '<div class="tc-outcome">' + "<br>".join(escape(x) for x in game.announcements)
            + "</div>" if game.announcements else ""
        )
        self.history.value = log_html(game.log, LOG_SHOWN)

    def _private_html(self, game: DiceMonarchsGame, player: str) -> str:
        hole = game.hole_dice(player)
        so_far = best_hand_so_far(hole, game.community)
        opponents = sum(game.in_play) - 1
        odds = hand_strength(hole, game.community, opponents,
                             samples=min(self.samples, max_samples(opponents)),
                             rng=random.Random(f"{game.seed}:{game.hand_no}:{len(game.log)}"))
        name = so_far.hand.label if so_far.hand else "no hand yet"
        return (
            f'<div class="tc-card" data-player="{escape(player)}"><b>{escape(player)}</b>, '
            f"your hole dice:{dice_html(hole)}"
            f"Best hand so far: <b class='tc-best'>{escape(name)}</b><br>"
            f"<span class='tc-odds'>Chance to win the showdown: {escape(odds.describe())}"
            f"</span><br>To call: {game.to_call(player)} · your chips: "
            f"{game.stacks[game.seat(player)]} · table limit this round: {game.bet_limit}</div>"
        )
