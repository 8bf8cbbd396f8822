"""The Dice Monarchs app: one device passed around (hot seat) or one screen per player.

Hot seat (no campaign): between turns a cover hides every player's dice; the player whose
turn it is taps *Show my dice* to see their own hole dice, their best hand so far and
their chance to win. *Save* downloads the table as everyone may know it (other hole dice
as commitments); *GM save* builds, on request only, the whole table as JSON (hole dice and
seed: keep it face down); pasting that into the load box resumes it, covered.

Across devices (a campaign, each person's own ``who``): a seated player's screen shows
their own hole dice and betting buttons on their turn; the table screen (the GM, or anyone
not seated) shows the community dice, the pot and whose turn it is. The GM's screen is
also the hot seat for every player who has no seat of their own (``hot_seat_for``): in the
serverless apps the device holder is the GM and nobody else has a screen, so the phone is
passed round there as on the demo table, and every move is kept in the campaign. A
player with their own seat bets only from it: the GM's screen never uncovers their dice.
Every screen is drawn from the game's
[view_for][companion.rulesets.miasma.dice_monarchs.game.DiceMonarchsGame.view_for]
for its viewer, so no other player's hole dice and never the table seed reach the page,
in any widget's state; a player's *Save* holds others' dice only as commitments.

Real dice: a table may let the banker roll the community dice by hand (a setup switch;
[set_banker_rolls][companion.rulesets.miasma.dice_monarchs.game.DiceMonarchsGame.set_banker_rolls]).
When a betting round is settled the table screen then asks for the flop (d4 d6 d8), the
turn (d10) or the river (d12): with "I rolled it myself" on, the faces typed are the dice
(checked against each die, and logged in the campaign's roll log as a physical roll);
with it off, the table seed rolls them as usual. The community dice are public by nature,
so their roll has no mode to pick. The hole dice always come from the table's secret
seed: dice typed on a shared screen would be seen by whoever types them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from companion.errors import CompanionError
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.miasma.dice_monarchs.game import (
    COMMUNITY_STAGES,
    MAX_CHIPS,
    MAX_PLAYERS,
    check_players,
    check_seed,
    community_dice_text,
)
from companion.rulesets.miasma.dice_monarchs.hands import best_hand_so_far, rank_table
from companion.rulesets.miasma.dice_monarchs.strength import quick_strength
from companion.table.session import mirror_save
from companion.widgets.base import (
    CheckedBox,
    ErrorLine,
    InputError,
    SaveLoad,
    app_box,
    bind,
    button,
    column,
    confirm_button,
    data_uri_link,
    draw_seed,
    int_box,
    log_html,
    name_box,
    row,
)
from companion.widgets.markup import Markup, el, frag, join
from companion.widgets.miasma.common import LOG_SHOWN, css, dice_html
from companion.widgets.rolls import RollControls
from companion.widgets.seat_controls import act, act_seeded, gm_screen, load, show_undo, undo

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["DiceMonarchsApp", "PublicSave"]

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


def _seed_ok(seed: int) -> bool:
    try:
        check_seed(seed)  # the game's own bound
    except CompanionError:
        return False
    return True


class SeedBox(CheckedBox):
    """A seed (``.tc-int-seed``): a whole number, or empty for a fresh one drawn when read.
    The seed decides every die, so the table never shows it: the box is emptied when the
    table starts, and only the GM's save holds it (to replay the deal)."""

    kind = "int"

    def _parse(self, text: str) -> int:
        raw = text.strip()
        if not raw:
            return draw_seed()
        if not raw.isdigit() or not raw.isascii() or len(raw) > 19 or not _seed_ok(int(raw)):
            raise InputError(f"enter a whole number from 0 to 2^63 - 1, or leave it empty "
                             f"for a fresh seed (not \u201c{raw[:20]}\u201d)")
        return int(raw)


class PublicSave:
    """What *Save* downloads on every screen: the table as that screen's viewer may know it
    ([public_save][companion.rulesets.miasma.dice_monarchs.game.DiceMonarchsGame.public_save]);
    loading a table (the GM's save) is for the GM and the hot seat."""

    def __init__(self, game: DiceMonarchsGame, viewer: str, can_load: bool = False) -> None:
        self.game, self.viewer, self.can_load = game, viewer, can_load

    def on_change(self, callback: Callable[..., Any], /) -> Any:
        return self.game.on_change(callback)

    def to_json(self) -> str:
        # A player's page holds a seat's mirror: its session gives the public save (the
        # mirror has no other hole dice to commit to).
        mirrored = mirror_save(self.game)
        viewer = self.viewer if self.viewer in self.game.players else None
        save = mirrored if mirrored is not None else self.game.public_save(viewer)
        return json.dumps(save, ensure_ascii=False, sort_keys=True)

    def load(self, text: str) -> None:
        if not self.can_load:
            raise CompanionError("Dice Monarchs: only the GM loads a saved table")
        load(self.game, text)


class DiceMonarchsApp(widgets.VBox):
    """A Dice Monarchs table for 2–8 players: hot seat on one device, or one screen each.

    Set the players (comma separated), chips and optionally a seed, then *New table*; or
    paste a saved table and *Load*; or pass an existing `DiceMonarchsGame` as ``game``.
    While a hand is on, the setup is folded away behind *New table / load*; a new table is
    a move, so *Undo* brings the old one back.

    ``viewer`` and ``role`` say who is looking (from the campaign's URL): a seated
    player's screen (``role`` not ``"gm"``), or the table screen (the GM, or a viewer not
    seated). With neither, the app is the hot-seat table. ``hot_seat_for(name)`` says
    whether the player ``name`` plays on the GM's screen, passed the device (no seat of
    their own): then, on their turn, the GM's screen covers the table and offers *Show my
    dice* as the hot seat does. Undo is the GM's: on the hot seat it asks everyone to
    agree (a second tap); it never takes back a reveal.
    """

    def __init__(self, game: DiceMonarchsGame | None = None, *,
                 players: str = "Ann, Bo, Cy", chips: int = 100, seed: int | None = None,
                 samples: int = 800, viewer: str | None = None, role: str = "",
                 session: Session | None = None,
                 hot_seat_for: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.add_class("tc-monarchs")
        self.error = ErrorLine()
        self.samples = samples
        self.game = game if game is not None else DiceMonarchsGame()
        self.viewer = viewer or None
        self.role = role
        self.table_session = session
        self.hot_seat = self.viewer is None and not role
        self.hot_seat_for = hot_seat_for
        rank_table()  # the hands table, built once per kernel: odds then answer at once
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
        # The page holds only the public save; the GM's save (every hidden die and the
        # seed) is built when asked for, and dropped again at the next move.
        self.save_load = SaveLoad(PublicSave(self.game, self.viewer or "", self.runs_table),
                                  "dice-monarchs.json", what="Dice Monarchs table")
        self.gm_save_button = self._btn("GM save (every hidden die)", self._gm_save,
                                        "gm-save", "warning")
        self.gm_save = widgets.HTML()
        self.gm_save.add_class("tc-gm-save")
        self.seat_name = name_box("Player", "", "seat-name", max_len=40, required=False)
        self.seat_chips = int_box("Chips", chips, "seat-chips", 1, MAX_CHIPS)
        self.odds_toggle = widgets.Checkbox(value=self.game.show_odds,
                                            description="Show each player's chance to win",
                                            indent=False)
        self.odds_toggle.add_class("tc-odds-toggle")
        self.odds_toggle.observe(self._toggle_odds, names="value")
        self.banker_toggle = widgets.Checkbox(
            value=self.game.banker_rolls, indent=False,
            description="The banker rolls the community dice by hand (real dice)")
        self.banker_toggle.add_class("tc-banker-toggle")
        self.banker_toggle.observe(self._toggle_banker, names="value")
        seats_row = row(self.seat_name, self.seat_chips,
                        self._btn("Join", self._join, "join"),
                        self._btn("Rebuy", self._rebuy, "rebuy"),
                        self._btn("Leave", self._leave, "leave", "danger"))
        self.setup = column(
            widgets.HTML(frag(el("b", "Dice Monarchs"),
                              " — players sit clockwise in the order listed.")),
            self.players_box,
            row(self.chips_box, self.seed_box, self.new_button),
            widgets.HTML(frag(el("b", "Between hands"),
                              ": seat a player, sell chips, or see one off.")),
            seats_row,
            self.odds_toggle,
            self.banker_toggle,
            self.save_load,
            row(self.gm_save_button, self.gm_save),
        )
        if not self.runs_table:  # a player's screen: only their own save
            self.setup.children = (self.save_load,)
        self.setup_button = self._btn(SETUP_LABEL if self.runs_table else "Save",
                                      self._toggle_setup, "setup")
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
        # The banker's own dice for the community stage the table waits for.
        self.community_button = self._btn("Roll the community dice", self._roll_community,
                                          "roll-community", "primary")
        self.community_controls = RollControls(
            session=session, who=self.viewer or "", role=role, hint="d4 d6 d8",
            name="community")
        # Dice everyone sees as they land: the roll has no hidden mode.
        self.community_controls.mode.layout.display = "none"
        self.community_roll = column(widgets.HTML(), self.community_controls,
                                     row(self.community_button))
        self.community_roll.add_class("tc-community-roll")
        if self.hot_seat:
            self.undo_button = confirm_button(
                "Undo", self._undo, risky=lambda: True, prompt="Undo: does everyone agree?",
                error=self.error, name="undo")
        else:
            self.undo_button = self._btn("Undo", self._undo, "undo")
        self.outcome = widgets.HTML()
        self.outcome.add_class("tc-monarchs-outcome")
        self.history = widgets.HTML()
        self.play = column(self.status, self.community, self.community_roll, self.cover,
                           row(self.reveal_button),
                           self.private, self.betting,
                           row(self.deal_button, self.undo_button, self.setup_button),
                           self.outcome, widgets.HTML(el("b", "Table talk")), self.history)
        app_box(css(), self.setup, self.error, self.play, box=self)
        bind(self.game, self._changed, error=self.error)

    @property
    def gm_screen(self) -> bool:
        """Whether this is the GM's screen: the table session's answer; a screen in no
        campaign (the app on its own, a test's twin screens) is as its ``role`` says."""
        return gm_screen(self.table_session, self.role)

    @property
    def runs_table(self) -> bool:
        """Whether this screen may set up, load and undo: the hot seat or the GM."""
        return self.hot_seat or self.gm_screen

    @property
    def seated(self) -> str | None:
        """The viewer's name when this is a seated player's own screen."""
        if self.hot_seat or self.gm_screen or self.viewer not in self.game.players:
            return None
        return self.viewer

    def passed_here(self, player: str | None) -> bool:
        """Whether ``player`` takes this device for their turn: the hot seat, or the GM's
        screen for a player with no seat of their own (asked afresh each time: a seat made
        mid-hand moves the player to their own screen at once)."""
        if player is None:
            return False
        if self.hot_seat:
            return True
        return (self.gm_screen and self.hot_seat_for is not None
                and bool(self.hot_seat_for(player)))

    def _btn(self, label: str, action: Callable[[], Any], name: str,
             style: str = "") -> widgets.Button:
        return button(label, action, error=self.error, name=name, style=style)

    # -- actions (each a model move or a view change) ----------------------------------

    def _new_table(self) -> None:
        names = self.players_box.read()
        chips = self.chips_box.read()
        seed = self.seed_box.read()
        self.seed_box.value = ""  # the seed decides every die: it does not stay on screen
        # The GM's typed seed goes through the session (the GM's alone, marked in the log).
        act_seeded(self.game, "new_table", seed, names, chips)
        act(self.game, "deal")

    def _gm_save(self) -> None:
        if not self.runs_table:
            raise CompanionError("Dice Monarchs: the GM's save is the GM's")
        self.gm_save.value = data_uri_link("GM save: keep it face down", "dice-monarchs-gm.json",
                                           "application/json", self.game.to_json())

    # The GM's chips: through the table session (the seam refuses them to a player).
    def _join(self) -> None:
        act(self.game, "join", self.seat_name.read(), self.seat_chips.read())

    def _rebuy(self) -> None:
        act(self.game, "rebuy", self.seat_name.read(), self.seat_chips.read())

    def _leave(self) -> None:
        act(self.game, "leave", self.seat_name.read())

    def _toggle_banker(self, change: dict[str, Any]) -> None:
        if bool(change["new"]) != self.game.banker_rolls:
            try:
                act(self.game, "set_banker_rolls", bool(change["new"]))
            except CompanionError as exc:
                self.error.show(exc)
                self.banker_toggle.value = self.game.banker_rolls

    def _roll_community(self) -> None:
        if not self.runs_table:
            raise CompanionError("Dice Monarchs: the banker's dice are entered on the table "
                                 "screen")
        game = self.game
        stage = game.awaiting
        if not self.community_controls.own.value:
            act(game, "reveal")  # the table seed rolls them, as on any table
            return
        self.community_controls.run_act(
            f"Dice Monarchs hand {game.hand_no}: the {stage}", game, "enter_community")

    def _toggle_odds(self, change: dict[str, Any]) -> None:
        if bool(change["new"]) != self.game.show_odds:
            try:
                act(self.game, "set_show_odds", bool(change["new"]))
            except CompanionError as exc:
                self.error.show(exc)

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
        to_act = self.game.player_to_act
        if to_act is None:
            raise CompanionError("Dice Monarchs: nobody is betting now; deal the next hand")
        if not self.passed_here(to_act):  # a seated player's dice stay on their own screen
            raise CompanionError(f"Dice Monarchs: {to_act} bets from their own screen")
        self.shown_to = to_act
        self._shown_at = self._token()
        self.render()

    def _move(self, name: str, with_amount: bool = False) -> None:
        game = self.game
        player = game.player_to_act
        if player is None:
            raise CompanionError("Dice Monarchs: nobody is betting now; deal the next hand")
        if self.seated is not None:
            if player != self.seated:
                raise CompanionError(f"Dice Monarchs: it is {player}'s turn")
        elif not self.passed_here(player):
            raise CompanionError(f"Dice Monarchs: {player} bets from their own screen")
        elif self.shown_to != player:
            raise CompanionError(f"{player}: tap 'Show my dice' first (it is your turn)")
        args = [self.amount.read()] if with_amount else []
        act(game, name, player, *args)

    def _deal(self) -> None:
        act(self.game, "deal")

    def _undo(self) -> None:
        # The hot seat's second tap is everyone agreeing. Who may undo, and that a reveal
        # stays, is the table's rule, applied by the seam to this screen's seat.
        if not self.runs_table:  # a seated player's screen (its Undo is not shown)
            raise CompanionError("Dice Monarchs: with hidden dice only the GM can undo a "
                                 "move (ask the GM)")
        undo(self.game)

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> None:
        game = self.game
        self.renders += 1
        self.gm_save.value = ""  # the GM's file is made again on request, never kept on the page
        table = game.view_for(None)  # what everyone may know: all the table screen uses
        to_act = game.player_to_act
        if self.shown_to is not None and (self.shown_to != to_act
                                          or self._shown_at != self._token()):
            self.shown_to = None
        started = table["hand_no"] > 0
        show_setup = self._setup_open or (not started and self.runs_table)
        self.setup.layout.display = None if show_setup else "none"
        # A player's screen before the first deal shows the empty table (the GM deals).
        self.play.layout.display = None if started or not self.runs_table else "none"
        label = SETUP_LABEL if self.runs_table else "Save"
        self.setup_button.description = "Hide setup" if self._setup_open else label
        self.odds_toggle.value = table["show_odds"]
        self.banker_toggle.value = table["banker_rolls"]
        self._render_community_roll(table)
        seats = []
        for i, name in enumerate(table["players"]):
            classes = []
            if name == to_act:
                classes.append("tc-turn")
            if table["phase"] != "waiting" and not table["in_play"][i] and table["dealt"][i]:
                classes.append("tc-out")
            tags = []
            if i == table["banker"]:
                tags.append("banker")
            if table["committed"][i]:
                tags.append(f"in this round: {table['committed'][i]}")
            if table["phase"] in ("opening", "round_one", "round_two", "final_round") and (
                    table["in_play"][i] and not table["stacks"][i]):
                tags.append("all-in")
            if name == to_act:
                tags.append("to act")
            extra = f" — {', '.join(tags)}" if tags else ""
            seats.append(el("li", el("b", name), f": {table['stacks'][i]} chips{extra}",
                            class_=" ".join(classes), data_seat=i))
        phase = table["phase"].replace("_", " ")
        you = frag(" · you are ", el("b", self.seated)) if self.seated else None
        self.status.value = frag(
            el("div", el("b", f"Hand {table['hand_no']}"), f" · {phase} · pot ",
               el("b", table["pot"], class_="tc-pot"),
               f" · bet to match {table['current_bet']}", you,
               data_n=self.renders, data_phase=table["phase"]),
            el("ul", seats, class_="tc-seats"))
        self.community.value = frag(el("b", "Community dice"), f" ({community_dice_text()})",
                                    dice_html(table["community"],
                                              hidden_from=len(table["community"])))
        betting = to_act is not None
        can_deal = "deal" in game.legal_moves()
        self.deal_button.layout.display = None if can_deal else "none"
        self.deal_button.disabled = not can_deal
        self.undo_button.layout.display = None if self.runs_table else "none"
        show_undo(self.undo_button, game)
        disarm = getattr(self.undo_button, "disarm", None)
        if callable(disarm):
            disarm()
        if self.hot_seat or (self.seated is None and self.passed_here(to_act)):
            self._render_hot_seat(to_act, betting)
        else:
            self._render_screen(to_act)
        self.outcome.value = (
            el("div", join(table["announcements"], el("br")), class_="tc-outcome")
            if table["announcements"] else ""
        )
        self.history.value = log_html(game.log, LOG_SHOWN)

    def _render_community_roll(self, table: dict[str, Any]) -> None:
        stage = next((s for s in COMMUNITY_STAGES if s.name == table["awaiting"]), None)
        self.community_roll.layout.display = None if stage is not None else "none"
        if stage is None:
            return
        dice = " ".join(f"d{sides}" for sides in stage.dice)
        head = self.community_roll.children[0]
        assert isinstance(head, widgets.HTML)
        if self.runs_table:
            head.value = el("div", "The banker rolls the ", el("b", stage.name),
                            f" ({dice}) and enters it here.", class_="tc-awaiting",
                            data_stage=stage.name)
            self.community_button.description = f"Roll the {stage.name}"
            self.community_button.layout.display = None
            self.community_controls.layout.display = None
            self.community_controls.set_hint(dice)
        else:
            head.value = el("div", "Waiting for the banker to roll the ", el("b", stage.name),
                            f" ({dice}).", class_="tc-awaiting", data_stage=stage.name)
            self.community_button.layout.display = "none"
            self.community_controls.layout.display = "none"

    def _render_hot_seat(self, to_act: str | None, betting: bool) -> None:
        game = self.game
        uncovered = betting and self.shown_to == to_act
        self.reveal_button.layout.display = None if betting and not uncovered else "none"
        self.betting.layout.display = None if uncovered else "none"
        legal = set(game.legal_moves()) if uncovered else set()
        for name, btn in self.moves.items():
            btn.disabled = name not in legal
        if betting and not uncovered:
            assert to_act is not None
            self.cover.value = el("div", "Pass the device to ", el("b", to_act),
                                  ". Everyone else, look away.", class_="tc-cover",
                                  data_player=to_act)
            self.private.value = ""
        elif uncovered:
            assert to_act is not None
            self.cover.value = ""
            self.private.value = self._private_html(game.view_for(to_act), to_act)
            self.moves["call"].description = f"Call {game.to_call(to_act)}"
        else:
            self.cover.value = ""
            self.private.value = ""

    def _render_screen(self, to_act: str | None) -> None:
        # One person's own screen: a seated player sees their own dice; others the table.
        game = self.game
        me = self.seated
        self.reveal_button.layout.display = "none"
        my_turn = me is not None and to_act == me
        self.betting.layout.display = None if my_turn else "none"
        legal = set(game.legal_moves(me)) if my_turn and me is not None else set()
        for name, btn in self.moves.items():
            btn.disabled = name not in legal
        if to_act is not None and not my_turn:
            where = " on their own screen" if self.runs_table else ""
            self.cover.value = el("div", "Waiting for ", el("b", to_act), f" to act{where}.",
                                  class_="tc-cover tc-waiting", data_player=to_act)
        else:
            self.cover.value = ""
        view = game.view_for(me) if me is not None else None
        if view is not None and me is not None and view["hole"][view["players"].index(me)]:
            self.private.value = self._private_html(view, me)
        else:
            self.private.value = ""
        self.moves["call"].description = (f"Call {game.to_call(me)}" if my_turn and me
                                          else "Call")

    def _private_html(self, view: dict[str, Any], player: str) -> Markup:
        # Drawn from the player's own view: their dice and what everyone knows, nothing else.
        seat = view["players"].index(player)
        hole = view["hole"][seat]
        community = view["community"]
        so_far = best_hand_so_far(hole, community)
        name = so_far.hand.label if so_far.hand else "no hand yet"
        odds = None
        opponents = sum(view["in_play"]) - 1
        betting = view["phase"] in ("opening", "round_one", "round_two", "final_round")
        if view["show_odds"] and view["in_play"][seat] and opponents >= 1 and betting:
            chance = quick_strength(hole, community, opponents,
                                    seed=f"{view['hand_no']}:{len(view['history'])}:{seat}")
            odds = frag(el("span", f"Chance to win the showdown: {chance.describe()}",
                           class_="tc-odds"), el("br"))
        to_call = max(0, view["current_bet"] - view["committed"][seat])
        return el(
            "div", el("b", player), ", your hole dice:", dice_html(hole),
            "Best hand so far: ", el("b", name, class_="tc-best"), el("br"), odds,
            f"To call: {min(to_call, view['stacks'][seat])} · your chips: "
            f"{view['stacks'][seat]}", class_="tc-card", data_player=player)
