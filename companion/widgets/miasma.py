"""Components for the Miasma apps: a Dice Monarchs table, an earthmote list, a psychosis tracker.

Each component is a VBox over one core model from `companion.rulesets.miasma`; it
re-renders after every move (``bind``) and holds no rule logic: buttons call the model's
moves, and a refused move shows its one-line error in the app.

The Dice Monarchs table is hot-seat: one device passes round the table. Between turns a
cover screen hides every player's dice; the player whose turn it is taps *Show my dice*
to see their own hole dice, their best hand so far and their chance to win.
*Save game* downloads the whole table as JSON (hole dice included: keep the file face down);
pasting it into the setup's load box resumes it, covered, on any device.
"""

from __future__ import annotations

import functools
import html
import random
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.miasma.dice_monarchs import DICE, DiceMonarchsGame, hand_strength
from companion.rulesets.miasma.dice_monarchs.hands import best_hand_so_far
from companion.rulesets.miasma.earthmotes import EarthmoteLog
from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.widgets.base import (
    ErrorLine,
    SaveLoad,
    app_box,
    bind,
    button,
    column,
    data_uri_link,
    row,
    text_box,
)

__all__ = ["DiceMonarchsTable", "EarthmoteList", "MiasmaPanel"]

MIASMA_CSS = """
.tc-app .tc-dice { display: flex; flex-flow: row wrap; gap: 6px; margin: 4px 0; }
.tc-app .tc-die { min-width: 44px; min-height: 44px; border: 2px solid #333; border-radius: 8px;
  display: inline-flex; flex-direction: column; align-items: center; justify-content: center;
  font-size: 18px; font-weight: 700; background: #fff; }
.tc-app .tc-die small { font-size: 11px; font-weight: 400; color: #555; }
.tc-app .tc-die-hidden { background: #ddd; color: #888; border-style: dashed; }
.tc-app .tc-seats { list-style: none; margin: 4px 0; padding: 0; }
.tc-app .tc-seats li { padding: 4px 6px; border: 1px solid #ccc; border-radius: 4px;
  margin: 2px 0; overflow-wrap: anywhere; }
.tc-app .tc-seats li.tc-turn { border: 2px solid #1565c0; background: #e8f0fe; }
.tc-app .tc-seats li.tc-out { color: #888; text-decoration: line-through; }
.tc-app .tc-cover { padding: 12px; border: 2px dashed #555; border-radius: 8px;
  background: #f3f3f3; margin: 6px 0; font-size: 16px; }
.tc-app .tc-outcome { padding: 6px; border-left: 4px solid #555; margin: 4px 0;
  background: #f6f6f6; overflow-wrap: anywhere; }
.tc-app .tc-small { flex: 0 1 90px; }
.tc-app .tc-log { font-size: 13px; color: #333; max-height: 220px; overflow-y: auto; }
.tc-app .tc-pick select { min-height: 40px; font-size: 16px; }
.tc-app .tc-pot { font-size: 22px; }
.tc-app .tc-card { padding: 6px; border: 1px solid #ccc; border-radius: 6px; margin: 4px 0; }
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _css() -> widgets.HTML:
    return widgets.HTML(f"<style>{MIASMA_CSS}</style>", layout=widgets.Layout(display="none"))


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise CompanionError(f"{what}: expected a whole number, got {text.strip()!r}") from None


def _small_box(placeholder: str, value: str = "", name: str | None = None,
               on_enter: Callable[[], Any] | None = None,
               error: ErrorLine | None = None) -> widgets.Text:
    box = text_box(placeholder, value=value, name=name, on_enter=on_enter, error=error)
    box.add_class("tc-small")
    box.continuous_update = True
    return box


def _dice_html(values: list[int] | tuple[int, ...], *, hidden_from: int = 5) -> str:
    cells = []
    for i, sides in enumerate(DICE):
        if i < len(values) and i < hidden_from:
            cells.append(f'<span class="tc-die" data-d="{sides}">{values[i]}'
                         f"<small>d{sides}</small></span>")
        else:
            cells.append(f'<span class="tc-die tc-die-hidden" data-d="{sides}">?'
                         f"<small>d{sides}</small></span>")
    return f'<div class="tc-dice">{"".join(cells)}</div>'


def _log_html(model: Any, last: int = 12) -> str:
    events = list(model.log)[-last:]
    items = "".join(f"<li>{_e(e.summary)}</li>" for e in reversed(events))
    return f'<ol class="tc-log" data-count="{len(model.log)}" reversed>{items}</ol>'


# -- Dice Monarchs ----------------------------------------------------------------------


class DiceMonarchsTable(widgets.VBox):
    """A hot-seat Dice Monarchs table for 2–8 players.

    Set the players (comma separated), chips and optionally a seed, then *New table*; or
    paste a saved game and *Load game*; or pass an existing `DiceMonarchsGame` as ``game``.
    While a game is on, the setup is folded away behind *New table / load* so that a stray
    tap cannot wipe the table.
    """

    def __init__(self, game: DiceMonarchsGame | None = None, *,
                 players: str = "Ann, Bo, Cy", chips: int = 100, seed: int | None = None,
                 samples: int = 800) -> None:
        super().__init__()
        self.add_class("tc-monarchs")
        self.error = ErrorLine()
        self.samples = samples
        self.rng = random.Random(seed)
        self.game: DiceMonarchsGame | None = None
        self.shown_to: str | None = None  # the player whose dice are uncovered
        self.renders = 0
        self._unsubscribe: Callable[[], Any] | None = None

        # Enter in any setup box starts the table (the phone keyboard's Go key).
        new, err = self._new_table, self.error
        self.players_box = text_box("players, comma separated", value=players, name="players",
                                    on_enter=new, error=err)
        self.chips_box = _small_box("chips", str(chips), name="chips", on_enter=new, error=err)
        self.seed_box = _small_box("seed", "" if seed is None else str(seed), name="seed",
                                   on_enter=new, error=err)
        self.new_button = self._btn("New table", self._new_table, "new-table", "primary")
        self.load_box = widgets.Textarea(placeholder="Paste a saved game (JSON) to load it",
                                         layout=widgets.Layout(width="100%", height="60px"))
        self.load_box.add_class("tc-load")
        self.load_button = self._btn("Load game", self._load, "load")
        self.setup = column(
            widgets.HTML("<b>Dice Monarchs</b> — players sit clockwise in the order listed."),
            row(self.players_box),
            row(widgets.HTML("Chips each"), self.chips_box, widgets.HTML("Seed"), self.seed_box,
                self.new_button),
            row(self.load_box, self.load_button),
        )
        self.setup_button = self._btn("New table / load", self._toggle_setup, "setup")
        self.save = widgets.HTML()
        self.save.add_class("tc-monarchs-save")
        self.status = widgets.HTML()
        self.status.add_class("tc-monarchs-status")
        self.community = widgets.HTML()
        self.community.add_class("tc-monarchs-community")
        self.cover = widgets.HTML()
        self.cover.add_class("tc-monarchs-cover")
        self.reveal_button = self._btn("Show my dice", self._reveal, "reveal", "primary")
        self.private = widgets.HTML()
        self.private.add_class("tc-monarchs-private")
        self.amount = _small_box("chips", "1", name="amount")
        self.moves = {
            "bin": self._btn("Bin", lambda: self._move("bin"), "bin", "danger"),
            "check": self._btn("Check", lambda: self._move("check"), "check"),
            "bet": self._btn("Bet", lambda: self._move("bet", True), "bet", "info"),
            "call": self._btn("Call", lambda: self._move("call"), "call", "success"),
            "raise_bet": self._btn("Raise by", lambda: self._move("raise_bet", True), "raise",
                                   "warning"),
        }
        # The amount sits beside the two moves that read it, labelled, not alone on a line.
        m = self.moves
        self.betting = column(row(m["bin"], m["check"], m["call"]),
                              row(widgets.HTML("Chips"), self.amount, m["bet"], m["raise_bet"]))
        self.deal_button = self._btn("Deal", self._deal, "deal", "primary")
        self.undo_button = self._btn("Undo", self._undo, "undo")
        self.outcome = widgets.HTML()
        self.outcome.add_class("tc-monarchs-outcome")
        self.history = widgets.HTML()
        self.play = column(self.status, self.community, self.cover, row(self.reveal_button),
                           self.private, self.betting,
                           row(self.deal_button, self.undo_button, self.save, self.setup_button),
                           self.outcome, widgets.HTML("<b>Table talk</b>"), self.history)
        app_box(_css(), self.setup, self.error, self.play, box=self)
        if game is not None:
            self._attach(game)
        else:
            self.play.layout.display = "none"

    def _btn(self, label: str, action: Callable[[], Any], name: str,
             style: str = "") -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    # -- actions (each a model move or a view change) ----------------------------------

    def _new_table(self) -> None:
        names = [n.strip() for n in self.players_box.value.split(",") if n.strip()]
        chips = _int(self.chips_box.value, "chips")
        seed = _int(self.seed_box.value, "seed") if self.seed_box.value.strip() else None
        game = DiceMonarchsGame.start(names, chips, seed=seed, rng=self.rng)
        game.deal()
        self._attach(game)

    def _load(self) -> None:
        text = self.load_box.value
        if not text.strip():
            raise CompanionError("Load game: paste a saved Dice Monarchs game into the box first")
        # from_json checks every field first: a bad paste leaves the current table as it was.
        self._attach(DiceMonarchsGame.from_json(text))
        self.load_box.value = ""

    def _toggle_setup(self) -> None:
        self._show_setup(self.setup.layout.display == "none")

    def _show_setup(self, shown: bool) -> None:
        self.setup.layout.display = None if shown else "none"
        self.setup_button.description = "Hide setup" if shown else "New table / load"

    def _attach(self, game: DiceMonarchsGame) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        self.game = game
        self.shown_to = None
        self.play.layout.display = None
        self._show_setup(False)
        self._unsubscribe = bind(game, self.render, error=self.error)

    def _reveal(self) -> None:
        game = self._game()
        self.shown_to = game.player_to_act
        self.render()

    def _move(self, name: str, with_amount: bool = False) -> None:
        game = self._game()
        player = game.player_to_act
        if player is None:
            raise CompanionError("Dice Monarchs: nobody is betting now; deal the next hand")
        if self.shown_to != player:
            raise CompanionError(f"{player}: tap 'Show my dice' first (it is your turn)")
        args = [_int(self.amount.value, "amount")] if with_amount else []
        # Cover the dice before the move renders; a refused move leaves them uncovered.
        self.shown_to = None
        try:
            getattr(game, name)(player, *args)
        except Exception:
            self.shown_to = player
            raise

    def _deal(self) -> None:
        self.shown_to = None
        self._game().deal()

    def _undo(self) -> None:
        self.shown_to = None
        self._game().undo()

    def _game(self) -> DiceMonarchsGame:
        if self.game is None:
            raise CompanionError("Dice Monarchs: start a new table first")
        return self.game

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> None:
        game = self._game()
        self.renders += 1
        to_act = game.player_to_act
        if self.shown_to is not None and self.shown_to != to_act:
            self.shown_to = None
        seats = []
        for i, name in enumerate(game.players):
            classes = []
            if name == to_act:
                classes.append("tc-turn")
            if game.phase not in ("waiting",) and not game.in_play[i] and game.hole[i]:
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
                         f"<b>{_e(name)}</b>: {game.stacks[i]} chips{_e(extra)}</li>")
        phase = game.phase.replace("_", " ")
        self.status.value = (
            f'<div data-n="{self.renders}" data-phase="{game.phase}">'
            f"<b>Hand {game.hand_no}</b> · {phase} · pot <b class='tc-pot'>{game.pot}</b>"
            f" · bet to match {game.current_bet}</div>"
            f'<ul class="tc-seats">{"".join(seats)}</ul>'
        )
        self.community.value = ("<b>Community dice</b> (flop d4 d6 d8 · turn d10 · river d12)"
                                + _dice_html(game.community, hidden_from=len(game.community)))
        betting = to_act is not None
        uncovered = betting and self.shown_to == to_act
        self.reveal_button.layout.display = None if betting and not uncovered else "none"
        self.betting.layout.display = None if uncovered else "none"
        self.deal_button.layout.display = (None if game.phase in ("waiting", "hand_over")
                                           else "none")
        self.undo_button.disabled = not game.can_undo
        if betting and not uncovered:
            self.cover.value = (f'<div class="tc-cover" data-player="{_e(to_act)}">Pass the '
                                f"device to <b>{_e(to_act)}</b>. Everyone else, look away."
                                "</div>")
            self.private.value = ""
        elif uncovered:
            assert to_act is not None
            self.cover.value = ""
            self.private.value = self._private_html(game, to_act)
            legal = set(game.legal_moves())
            for name, btn in self.moves.items():
                btn.disabled = name not in legal
            self.moves["call"].description = f"Call {game.to_call(to_act)}"
        else:
            self.cover.value = ""
            self.private.value = ""
        self.outcome.value = (
            '<div class="tc-outcome">' + "<br>".join(_e(x) for x in game.announcements)
            + "</div>" if game.announcements else ""
        )
        self.history.value = _log_html(game)
        self.save.value = data_uri_link("Save game", f"dice-monarchs-hand-{game.hand_no}.json",
                                        "application/json", game.to_json())

    def _private_html(self, game: DiceMonarchsGame, player: str) -> str:
        hole = game.hole_dice(player)
        so_far = best_hand_so_far(hole, game.community)
        opponents = sum(game.in_play) - 1
        odds = hand_strength(hole, game.community, opponents, samples=self.samples,
                             rng=random.Random(f"{game.seed}:{game.hand_no}:{len(game.log)}"))
        name = so_far.hand.label if so_far.hand else "no hand yet"
        return (
            f'<div class="tc-card" data-player="{_e(player)}"><b>{_e(player)}</b>, your hole '
            f"dice:{_dice_html(hole)}"
            f"Best hand so far: <b class='tc-best'>{_e(name)}</b><br>"
            f"<span class='tc-odds'>Chance to win the showdown: {_e(odds.describe())}</span>"
            f"<br>To call: {game.to_call(player)} · your chips: "
            f"{game.stacks[game.seat(player)]} · table limit this round: {game.bet_limit}</div>"
        )


# -- Earthmotes -------------------------------------------------------------------------


class EarthmoteList(widgets.VBox):
    """Generate earthmotes and keep the list (an `EarthmoteLog`)."""

    def __init__(self, log: EarthmoteLog | None = None, *, seed: int | None = None) -> None:
        super().__init__()
        self.add_class("tc-earthmotes")
        self.error = ErrorLine()
        self.model = log if log is not None else EarthmoteLog.start(seed=seed)
        self.generate_button = button("Generate earthmote", self.model.generate,
                                      error=self.error, name="generate", style="primary")
        self.index_box = _small_box("#", "1", name="index")
        self.region_buttons = [
            button(f"New region (keep die {k + 1})", functools.partial(self._region, k),
                   error=self.error, name=f"region-{k + 1}")
            for k in (0, 1)
        ]
        self.remove_button = button("Remove #", self._remove, error=self.error, name="remove")
        self.undo_button = button("Undo", self.model.undo, error=self.error, name="undo")
        self.clear_button = button("Clear", self.model.clear, error=self.error, name="clear")
        self.listing = widgets.HTML()
        self.listing.add_class("tc-earthmote-list")
        app_box(
            _css(),
            widgets.HTML("<b>Earthmotes</b> — size d6, biome 2d12 (11: settlement, 12: portal,"
                         " and roll that die again)"),
            row(self.generate_button, self.undo_button, self.clear_button),
            row(widgets.HTML("Earthmote"), self.index_box, *self.region_buttons,
                self.remove_button),
            self.error, self.listing,
            SaveLoad(self.model, "earthmotes.json", what="earthmote list"),
            box=self,
        )
        bind(self.model, self.render, error=self.error)

    def _index(self) -> int:
        return _int(self.index_box.value, "earthmote number") - 1

    def _region(self, keep: int) -> None:
        self.model.new_region(self._index(), keep)

    def _remove(self) -> None:
        self.model.remove(self._index())

    def render(self) -> None:
        items = "".join(
            f'<li class="tc-card" data-i="{i + 1}"><b>#{i + 1}</b> {_e(m.describe())}<br>'
            f"<small>{_e(m.rolls())}</small></li>"
            for i, m in enumerate(self.model.earthmotes)
        )
        empty = "" if items else "<p>No earthmotes yet.</p>"
        self.listing.value = (f'<ol class="tc-seats" data-count="{len(self.model.earthmotes)}" '
                              f'data-made="{self.model.made}">{items}</ol>{empty}')
        self.undo_button.disabled = not self.model.can_undo
        self.clear_button.disabled = not self.model.earthmotes


# -- Psychosis --------------------------------------------------------------------------


class MiasmaPanel(widgets.VBox):
    """Psychosis and stress per character over days (a `MiasmaTracker`)."""

    def __init__(self, tracker: MiasmaTracker | None = None) -> None:
        super().__init__()
        self.add_class("tc-miasma")
        self.error = ErrorLine()
        self.model = tracker if tracker is not None else MiasmaTracker()
        self.name_box = text_box("character name", name="name", on_enter=self._add,
                                 error=self.error)
        self.add_button = self._btn("Add character", self._add, "add", "primary")
        self.who = widgets.Dropdown(options=[], description="", layout=widgets.Layout(
            width="auto", max_width="100%", min_height="40px"))
        self.who.add_class("tc-who")
        self.who.add_class("tc-pick")
        self.levels_box = _small_box("levels", "1", name="levels")
        self.stress_box = _small_box("stress", "0", name="stress")
        self.raised = widgets.Dropdown(options=["other", "reincarnate", "true resurrection"],
                                       value="other", layout=widgets.Layout(width="auto"))
        self.raised.add_class("tc-pick")
        c = self._on_character
        # Each button and the box it reads wrap together, never split across lines.
        self.character_buttons = row(
            row(self._btn("Gain levels", c(lambda n: self.model.gain_psychosis(
                n, _int(self.levels_box.value, "levels"))), "gain", "danger"),
                self.levels_box),
            row(self._btn("Set stress", c(lambda n: self.model.set_stress(
                n, _int(self.stress_box.value, "stress"))), "stress"),
                self.stress_box),
        )
        self.place_buttons = row(
            self._btn("Enter Miasma", c(self.model.enter_miasma), "enter"),
            self._btn("Leave Miasma", c(self.model.leave_miasma), "leave"),
            self._btn("Eat & drink", c(self.model.eat_and_drink), "eat"),
            self._btn("Long rest", c(self.model.long_rest), "rest", "success"),
        )
        self.cure_buttons = row(
            self._btn("Greater restoration", c(self.model.greater_restoration), "restoration"),
            row(self._btn("Raised from dead", c(lambda n: self.model.raised_from_dead(
                n, self.raised.value)), "raised"),
                self.raised),
        )
        self.time_buttons = row(
            widgets.HTML("Time passes:"),
            *(self._btn(label, functools.partial(self.model.pass_time, h), f"time-{h}")
              for label, h in (("+1 hour", 1), ("+8 hours", 8), ("+24 hours", 24))),
            self._btn("Undo", self.model.undo, "undo"),
        )
        self.sheet = widgets.HTML()
        self.sheet.add_class("tc-miasma-sheet")
        self.history = widgets.HTML()
        app_box(
            _css(),
            widgets.HTML("<b>Miasma tracker</b> — psychosis and stress per character"),
            row(self.name_box, self.add_button),
            row(widgets.HTML("Character:"), self.who),
            self.character_buttons, self.place_buttons, self.cure_buttons, self.time_buttons,
            self.error, self.sheet, widgets.HTML("<b>History</b>"), self.history,
            SaveLoad(self.model, "miasma.json", what="Miasma record"), box=self,
        )
        bind(self.model, self.render, error=self.error)

    def _btn(self, label: str, action: Callable[[], Any], name: str,
             style: str = "") -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    def _on_character(self, move: Callable[[str], Any]) -> Callable[[], Any]:
        def run() -> Any:
            if not self.who.value:
                raise CompanionError("Psychosis: add a character first")
            return move(self.who.value)

        return run

    def _add(self) -> None:
        self.model.add_character(self.name_box.value)
        self.name_box.value = ""

    def render(self) -> None:
        names = [ch.name for ch in self.model.characters]
        if list(self.who.options) != names:
            keep = self.who.value if self.who.value in names else (names[-1] if names else None)
            self.who.options = names
            self.who.value = keep
        cards = []
        for ch in self.model.characters:
            effects = "".join(f"<li>{_e(x)}</li>" for x in ch.effects())
            state = [f"level <b class='tc-level'>{ch.level}</b>", f"stress {ch.stress}",
                     "inside the Miasma" if ch.inside else "outside the Miasma"]
            if ch.poisoned:
                state.append("poisoned")
            if ch.daily_gain:
                state.append(f"+{ch.daily_gain} per 24 h ({ch.clock} h counted)")
            if ch.fed:
                state.append("has eaten")
            cards.append(f'<div class="tc-card" data-name="{_e(ch.name)}" '
                         f'data-level="{ch.level}"><b>{_e(ch.name)}</b>: {", ".join(state)}'
                         f"<ul>{effects}</ul></div>")
        self.sheet.value = (f'<div data-hours="{self.model.hours}"><b>Day {self.model.day}</b>, '
                            f"hour {self.model.hours % 24}</div>" + "".join(cards))
        self.history.value = _log_html(self.model)
