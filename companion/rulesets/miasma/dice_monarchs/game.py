"""A table of Dice Monarchs: dealing, the four betting rounds, the pot and the showdown.

Seats are numbered clockwise from 0. Each hand runs like this:

1. **Hole dice.** Every player with chips rolls a d4, d6, d8, d10 and d12 and keeps them
   hidden (`DiceMonarchsGame.deal`).
2. **Opening bets.** The first player clockwise of the banker must bet. Then, clockwise,
   each player calls or raises to stay in, or bins their dice and leaves the hand.
3. **The flop.** When the betting is settled the banker rolls the first three community
   dice (d4, d6, d8).
4. **Round one.** The highest better of the previous round opens: they may bet or check.
   Clockwise, each player may bin, check (only when nobody has bet this round), bet
   (likewise), call the current bet, or raise it and become the highest better.
5. **The turn** (community d10), then **round two**, opened the same way.
6. **The river** (community d12), then the **final round**.
7. **Showdown.** The players still in reveal their hole dice; each makes the best hand
   using one die of each size, from their hole or the community (see `hands`). The
   best hand takes the pot; equal hands go to the player with the highest hole number.
   If everyone else bins, the last player in takes the pot at once.

Betting is settled when every player still in has acted since the last bet or raise and
all have put in the same amount this round.

Interpretation: the banker is one of the players (like a dealer button) and passes
clockwise after each hand to the next player with chips.
Interpretation: "must place a bet" means the opening player can neither check nor bin
before betting; a bet is at least 1 chip.
Interpretation: when a round had no bet (everyone checked), the player who opened it
opens the next one too (or the next player still in, clockwise).
Interpretation (all-in and side pots, as at a poker table): a bet or raise is limited
only by the better's own chips. A player who cannot match the bet may call with all they
have (*all-in*); they stay in the hand but act no more, and the betting goes on among the
others. At the showdown the pot is split into a *main pot*, which everyone still in
contests, and *side pots* above each all-in player's total stake, which only players who
put in at least as much contest (`DiceMonarchsGame.pots`); chips nobody matched go back
to the one who bet them. When at most one player still in has chips left, the banker
rolls the remaining community dice and the showdown follows.
Interpretation (real dice): a table may let the banker roll the community dice by hand
(`DiceMonarchsGame.set_banker_rolls`). Then, when a betting round is settled, play waits
for the banker (nobody is to act) until the dice rolled at the table are entered
(`DiceMonarchsGame.enter_community`, with ``rng`` a `companion.dice.physical.EnteredDice`)
or the banker lets the table seed roll them after all (`DiceMonarchsGame.reveal`). The
hole dice always come from the table's secret seed: dice typed in on a shared screen
would be seen by whoever types them, and a deal decided by anything but the table seed
would not be the one the table committed to.
Interpretation: between hands a player may join (`DiceMonarchsGame.join`), leave with their
chips (`DiceMonarchsGame.leave`) or buy more chips (`DiceMonarchsGame.rebuy`).
Interpretation (hidden information): undoing is the GM's call, and never takes back a move
that revealed dice (a community die, the showdown), so an undo cannot let a player change
a decision with more knowledge (`DiceMonarchsGame.undo_refusal`, which the campaign's
seam applies to every undo). `DiceMonarchsGame.view_for` is everything one person may know, and
`DiceMonarchsGame.public_save` a save that holds other players' hole dice and the table
seed only as commitments. Each table draws a random nonce (``salt``, never shown to
players) that goes into those commitments, so a seed someone typed cannot be found by
trying seeds against a player's save; the GM's save holds it, to check them after.
Interpretation: "highest hole number" compares the hole dice from the highest down
(8-3-... beats 7-7-...; on 8-3 vs 8-3 the third-highest decides). Players whose hands and
hole dice are all equal split the pot; odd chips go to the first of them clockwise from
the banker.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from companion.acting import named_actor
from companion.dice import draw_seed
from companion.dice import roll as engine_roll
from companion.errors import RuleError, StateError, quoted
from companion.fairplay import commitment
from companion.rulesets.miasma.dice_monarchs.hands import (
    DICE,
    ShowdownHand,
    best_showdown_hand,
    dice_text,
)
from companion.state import GM, Event, Tracker, move, state_field

__all__ = ["COMMUNITY_STAGES", "PHASES", "DiceMonarchsGame", "Phase", "Pot", "Stage",
           "community_dice_text"]

Phase = Literal["waiting", "opening", "round_one", "round_two", "final_round", "hand_over",
                "game_over"]

PHASES: tuple[str, ...] = ("waiting", "opening", "round_one", "round_two", "final_round",
                           "hand_over", "game_over")

BETTING_PHASES = ("opening", "round_one", "round_two", "final_round")



@dataclass(frozen=True)
class Stage:
    """One reveal of community dice by the banker: its name and the dice it rolls."""

    name: str
    dice: tuple[int, ...]

    @property
    def text(self) -> str:
        """How players read it: ``"flop d4 d6 d8"``."""
        return f"{self.name} " + " ".join(f"d{s}" for s in self.dice)


COMMUNITY_STAGES: tuple[Stage, ...] = (
    Stage("flop", DICE[:3]),
    Stage("turn", DICE[3:4]),
    Stage("river", DICE[4:]),
)
"""The community dice in the order the banker reveals them (rules 3, 5 and 7)."""


def community_dice_text() -> str:
    """The community dice by stage, as the app and the reference page show them."""
    return " · ".join(stage.text for stage in COMMUNITY_STAGES)


#: What the banker reveals when each betting round is settled, and the round that follows.
_NEXT: dict[str, tuple[Stage, Phase]] = {
    "opening": (COMMUNITY_STAGES[0], "round_one"),
    "round_one": (COMMUNITY_STAGES[1], "round_two"),
    "round_two": (COMMUNITY_STAGES[2], "final_round"),
}

ROUND_NAMES = {
    "opening": "opening bets (rule 2)",
    "round_one": "round one (rule 4)",
    "round_two": "round two (rule 6)",
    "final_round": "the final round (rule 8)",
}


@dataclass(frozen=True)
class Pot:
    """One pot of a hand: its chips and the seats that contest it (main pot first)."""

    chips: int
    seats: tuple[int, ...]


MAX_PLAYERS = 8
MIN_PLAYERS = 2
MAX_NAME = 40
"""Longest player name (a name is shown on every seat and in every log line)."""
MAX_CHIPS = 10**9
"""Largest starting stack (a guard against runaway input, not a rule)."""
SEED_LIMIT = 2**63
"""Seeds a table accepts (older tables drew 63-bit seeds); drawn ones stay below
`companion.dice.SEED_BOUND`."""


def _roll_die(rng: random.Random, sides: int) -> int:
    # The engine's die, as every rule rolls one: a seed gives the same face as any "1dN"
    # roll from it, and real dice (EnteredDice) are read and checked the engine's way.
    return engine_roll(f"1d{sides}", rng=rng).total

#: How many community dice are on the table during each betting round.
_COMMUNITY_IN = {"waiting": 0, "opening": 0, "round_one": 3, "round_two": 4, "final_round": 5}


def check_players(players: list[str]) -> list[str]:
    """The table's names, cleaned; a `RuleError` says what is wrong with them."""
    names = [str(p).strip() for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise RuleError(f"Dice Monarchs is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                        f"not {len(names)}")
    if any(not n for n in names):
        raise RuleError("Dice Monarchs: every player needs a name")
    long = next((n for n in names if len(n) > MAX_NAME), None)
    if long is not None:
        raise RuleError(f"Dice Monarchs: a name is at most {MAX_NAME} characters "
                        f"({long[:12]}… has {len(long)})")
    if len(set(names)) != len(names):
        raise RuleError("Dice Monarchs: two players have the same name")
    return names


def check_seed(seed: int) -> int:
    """A table's seed: a whole number from 0 to 2^63 - 1 (older tables kept 63-bit seeds)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise RuleError(f"Dice Monarchs: a seed is a whole number from 0 to 2^63 - 1, "
                        f"not {seed}")
    return seed


def check_chips(chips: int) -> int:
    """A starting stack: a whole number of chips from 1 to `MAX_CHIPS`."""
    if isinstance(chips, bool) or not isinstance(chips, int) or not 1 <= chips <= MAX_CHIPS:
        raise RuleError(f"Dice Monarchs: each stack must be 1 to {MAX_CHIPS:,} chips, "
                        f"not {chips}")
    return chips


@dataclass
class DiceMonarchsGame(Tracker):
    """One Dice Monarchs table for 2–8 players; its methods are the players' moves.

    Build one with `start` (or `new_table` on an existing one). A bare
    ``DiceMonarchsGame()`` is a valid table too: "Player 1" and "Player 2" with 100 chips
    each and seed 0, ready to deal. Every move names the player making it and is refused
    with a `companion.errors.RuleError` (naming the rule) when it is not that
    player's turn or the rules forbid it; a refused move changes nothing.

    What a table may hold (checked by `check_state` on every load and snapshot): 2 to 8
    players with distinct names of 1 to 40 characters; one stack, hole roll, in-play flag,
    round commitment and acted flag per player; seats that exist; hole dice and community
    dice that those dice can show, as many community dice as the round has revealed; chips
    in the pot at least those committed this round; a current bet that is the largest
    commitment; during betting, at least two players in and the player to act one of them;
    between hands an empty pot.
    """

    kind = "DiceMonarchsGame"
    what = "Dice Monarchs table"
    #: State a move fills from the system's entropy on purpose, not from its seed: the
    #: salt is a nonce of the commitments (no die depends on it), so ``verify``, making
    #: the table's moves again, takes it from the log (companion.store.recompute).
    NONCE_STATE: ClassVar[tuple[str, ...]] = ("salt",)

    players: list[str] = state_field(default_factory=lambda: ["Player 1", "Player 2"],
                                     max_len=MAX_PLAYERS)
    stacks: list[int] = state_field(default_factory=lambda: [100, 100], min=0,
                                    max=MAX_CHIPS * MAX_PLAYERS, max_len=MAX_PLAYERS)
    seed: int = state_field(0, min=0, max=SEED_LIMIT - 1)
    banker: int = state_field(0, min=0, max=MAX_PLAYERS - 1)
    hand_no: int = state_field(0, min=0)
    phase: Phase = "waiting"
    hole: list[list[int]] = state_field(default_factory=lambda: [[], []], max_len=MAX_PLAYERS)
    community: list[int] = state_field(default_factory=list, min=1, max=max(DICE),
                                       max_len=len(DICE))
    in_play: list[bool] = state_field(default_factory=lambda: [False, False],
                                      max_len=MAX_PLAYERS)
    committed: list[int] = state_field(default_factory=lambda: [0, 0], min=0,
                                       max=MAX_CHIPS * MAX_PLAYERS, max_len=MAX_PLAYERS)
    acted: list[bool] = state_field(default_factory=lambda: [False, False],
                                    max_len=MAX_PLAYERS)
    current_bet: int = state_field(0, min=0)
    pot: int = state_field(0, min=0)
    to_act: int = state_field(-1, min=-1, max=MAX_PLAYERS - 1)
    round_opener: int = state_field(-1, min=-1, max=MAX_PLAYERS - 1)
    highest_better: int = state_field(-1, min=-1, max=MAX_PLAYERS - 1)
    winners: list[str] = state_field(default_factory=list, max_len=MAX_PLAYERS)
    announcements: list[str] = state_field(default_factory=list, max_len=2 * MAX_PLAYERS + 4)
    contributed: list[int] = state_field(default_factory=lambda: [0, 0], min=0,
                                         max=MAX_CHIPS * MAX_PLAYERS, max_len=MAX_PLAYERS)
    show_odds: bool = True
    banker_rolls: bool = False
    """The banker rolls the community dice by hand (`reveal`); else the table seed does."""
    awaiting: str = state_field("", choices=("", *(stage.name for stage in COMMUNITY_STAGES)))
    """The community stage the banker is to roll by hand now (``""``: none)."""
    salt: str = state_field("", max_len=64)
    """The table's random nonce (32 hex digits) in its seed and hole commitments; ``""``
    in tables saved before it (their commitments keep the old, unsalted form)."""

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """A player's bets, folds, calls, checks, raises, buying in, joining and leaving
        are that player's (``player``); a new table (its hidden dice), dealing, the
        community dice, the reveal and the table's settings are the table's. Buying in,
        joining and leaving are still the GM's to make (declared ``who_may=GM``: chips
        are what the table hands out), whoever they are for."""
        own = dict.fromkeys(("bet", "bin", "call", "check", "raise_bet", "rebuy", "join",
                             "leave"), "player")
        return named_actor(own, move, arguments)

    def __post_init__(self) -> None:
        # A table built by hand must be one the rules allow (loading checks the same).
        self.check_state()

    # -- building -----------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        players: list[str],
        chips: int = 100,
        *,
        banker: int = 0,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> DiceMonarchsGame:
        """A new table: ``players`` in clockwise order, each with ``chips`` chips."""
        game = cls()
        game._setup(players, chips, banker, seed, rng)
        return game

    @move
    def new_table(self, players: list[str], chips: int = 100, *, banker: int = 0,
                  seed: int | None = None, rng: random.Random | None = None) -> None:
        """Clear the table and seat new players (undo brings the old table back).

        The table seed is ``seed``, else drawn from ``rng``, else fresh (as `start`)."""
        self._setup(players, chips, banker, seed, rng)
        # The seed decides every die: it is never written where players read.
        self.describe(f"new table: {', '.join(self.players)} with {chips:,} chips each")

    def _setup(self, players: list[str], chips: int, banker: int, seed: int | None,
               rng: random.Random | None) -> None:
        names = check_players(players)
        check_chips(chips)
        if isinstance(banker, bool) or not isinstance(banker, int) or not (
                0 <= banker < len(names)):
            raise RuleError(f"Dice Monarchs: banker must be seat 0-{len(names) - 1}")
        if seed is None:
            seed = draw_seed(rng)
        check_seed(seed)
        n = len(names)
        fresh = {
            "players": names, "stacks": [chips] * n, "seed": seed, "banker": banker,
            "hand_no": 0, "phase": "waiting", "hole": [[] for _ in names], "community": [],
            "in_play": [False] * n, "committed": [0] * n, "acted": [False] * n,
            "current_bet": 0, "pot": 0, "to_act": -1, "round_opener": -1,
            "highest_better": -1, "winners": [], "announcements": [],
            "contributed": [0] * n, "awaiting": "",
            # Random even when the seed was typed: the commitments must not be guessable.
            "salt": secrets.token_hex(16),
        }
        for name, value in fresh.items():
            setattr(self, name, value)

    @classmethod
    def _decode_state(cls, raw: Any, prefix: str) -> dict[str, Any]:
        _upgrade(raw)
        return super()._decode_state(raw, prefix)

    def check_state(self) -> None:
        """The invariants of a table (see the class docs); a broken one raises `StateError`."""
        n = len(self.players)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise StateError(f"field 'players' must name {MIN_PLAYERS} to {MAX_PLAYERS} "
                             f"players, not {n}")
        for i, name in enumerate(self.players):
            if not name.strip() or len(name) > MAX_NAME or name != name.strip():
                raise StateError(f"field 'players[{i}]' must be a name of 1 to {MAX_NAME} "
                                 "characters")
        if len(set(self.players)) != n:
            raise StateError("field 'players' names a player twice")
        for name in ("stacks", "hole", "in_play", "committed", "acted", "contributed"):
            if len(getattr(self, name)) != n:
                raise StateError(f"field '{name}' must have one entry per player ({n})")
        for seat in ("banker", "to_act", "round_opener", "highest_better"):
            if getattr(self, seat) >= n:
                raise StateError(f"field '{seat}' is not a seat at this table of {n}")
        for i, dice in enumerate(self.hole):
            if dice and (len(dice) != len(DICE) or any(
                    not 1 <= v <= s for v, s in zip(dice, DICE, strict=True))):
                raise StateError(f"field 'hole[{i}]' is not a roll of d4, d6, d8, d10, d12")
        if any(not 1 <= v <= s for v, s in zip(self.community, DICE, strict=False)):
            raise StateError("field 'community' is not a roll of the community dice")
        unknown = [w for w in self.winners if w not in self.players]
        if unknown:
            raise StateError("field 'winners' names someone not at the table")
        betting = self.phase in BETTING_PHASES
        if self.phase != "waiting" and self.hand_no == 0:
            raise StateError(f"field 'hand_no' must be at least 1 in phase '{self.phase}'")
        if self.phase in _COMMUNITY_IN and len(self.community) != _COMMUNITY_IN[self.phase]:
            raise StateError(f"field 'community' must hold {_COMMUNITY_IN[self.phase]} dice "
                             f"in phase '{self.phase}', not {len(self.community)}")
        if self.pot < sum(self.committed):
            raise StateError("field 'pot' holds fewer chips than were bet this round")
        if any(c < m for c, m in zip(self.contributed, self.committed, strict=True)):
            raise StateError("field 'contributed': a player's stake in the hand is at least "
                             "their bet this round")
        if betting and self.pot != sum(self.contributed):
            raise StateError("field 'pot' must hold every chip staked this hand")
        if self.current_bet != max(self.committed):
            raise StateError("field 'current_bet' must be the largest bet this round")
        if betting:
            inside = [i for i in range(n) if self.in_play[i]]
            if len(inside) < 2:
                raise StateError("field 'in_play': a betting round needs two players in")
            if self.awaiting:
                if self.to_act != -1 or not self.banker_rolls:
                    raise StateError("field 'awaiting': while the banker rolls by hand nobody "
                                     "is to act (to_act -1)")
                if not _NEXT.get(self.phase) or _NEXT[self.phase][0].name != self.awaiting:
                    raise StateError(f"field 'awaiting' must be the stage after phase "
                                     f"'{self.phase}'")
            elif (self.to_act < 0 or not self.in_play[self.to_act]
                  or not self.stacks[self.to_act]):
                raise StateError("field 'to_act' must be a player still in play with chips")
            if self.round_opener < 0:
                raise StateError("field 'round_opener' must be a seat during betting")
            if any(not self.hole[i] for i in inside):
                raise StateError("field 'hole': every player in play has hole dice")
            if any(self.committed[i] for i in range(n) if not self.hole[i]):
                raise StateError("field 'committed': a player without dice cannot bet")
        else:
            if self.awaiting:
                raise StateError("field 'awaiting' must be empty between hands")
            if self.pot or self.to_act != -1:
                raise StateError(f"fields 'pot' and 'to_act' must be 0 and -1 between hands "
                                 f"(phase '{self.phase}')")
            holders = sum(s > 0 for s in self.stacks)
            if self.phase == "game_over" and holders > 1:
                raise StateError("field 'phase': the game is over only when one player "
                                 "holds every chip")
            if self.phase != "game_over" and holders < 2:
                raise StateError(f"field 'stacks': at least two players need chips in phase "
                                 f"'{self.phase}'")

    # -- reading the table (not moves) --------------------------------------------------

    def seat(self, player: str) -> int:
        """Seat number of the player called ``player``."""
        try:
            return self.players.index(player)
        except ValueError:
            raise RuleError(f"Dice Monarchs: no player named {quoted(str(player))} at this "
                            "table") from None

    @property
    def player_to_act(self) -> str | None:
        """Name of the player whose turn it is, or ``None`` between betting rounds."""
        if self.phase not in BETTING_PHASES or self.awaiting:
            return None
        return self.players[self.to_act]

    def to_call(self, player: str) -> int:
        """Chips the player must put in to call the current bet."""
        return self.current_bet - self.committed[self.seat(player)]

    @property
    def bet_limit(self) -> int:
        """Highest total bet the player to act could make this round (all their chips)."""
        if self.phase not in BETTING_PHASES or self.awaiting:
            return 0
        return self.committed[self.to_act] + self.stacks[self.to_act]

    def all_in(self, player: str) -> bool:
        """Whether the player is still in the hand with no chips left to bet."""
        i = self.seat(player)
        return self.phase in BETTING_PHASES and self.in_play[i] and self.stacks[i] == 0

    def pots(self) -> list[Pot]:
        """The main pot and the side pots of the hand so far, from what each player staked.

        Each all-in stake is a level: the chips up to the lowest level (from everyone,
        binned players included) form the main pot, contested by every player still in;
        the chips between one level and the next form a side pot, contested by the
        players still in who staked at least that much. Chips above what anyone else
        matched form a pot of their own, returned to the player who staked them.
        """
        stakes = self.contributed
        live = [i for i in range(len(self.players)) if self.in_play[i]]
        levels = sorted({stakes[i] for i in live if stakes[i] > 0})
        result: list[Pot] = []
        low = 0
        for level in levels:
            chips = sum(min(s, level) - min(s, low) for s in stakes)
            seats = tuple(i for i in live if stakes[i] >= level)
            if chips:
                result.append(Pot(chips, seats))
            low = level
        # Binned players' chips above every live stake join the last pot.
        rest = sum(s - min(s, low) for s in stakes)
        if rest and result:
            result[-1] = Pot(result[-1].chips + rest, result[-1].seats)
        elif rest:
            result.append(Pot(rest, tuple(live)))
        return result

    def legal_moves(self, player: str | None = None) -> list[str]:
        """Names of the moves open to ``player`` (default: the player to act) right now."""
        if self.phase not in BETTING_PHASES:
            return ["deal"] if self.phase in ("waiting", "hand_over") else []
        if self.awaiting:
            return ["enter_community", "reveal"] if player is None else []
        who = self.to_act if player is None else self.seat(player)
        if who != self.to_act:
            return []
        return [name for name in ("bin", "check", "bet", "call", "raise_bet")
                if self._refusal(name, who, 1) is None]

    def hole_dice(self, player: str) -> tuple[int, ...]:
        """The player's hole dice (hidden from the others until the showdown)."""
        return tuple(self.hole[self.seat(player)])

    def showdown_hand(self, player: str) -> ShowdownHand:
        """The player's best hand with the community dice (needs all five revealed)."""
        if len(self.community) < 5:
            raise RuleError("Dice Monarchs rule 9: hands are made at the showdown, after the river")
        return best_showdown_hand(self.hole[self.seat(player)], self.community)

    # -- moves ---------------------------------------------------------------------------

    @move
    def deal(self) -> None:
        """Start a hand: every player with chips rolls hole dice (rule 1)."""
        if self.phase in BETTING_PHASES:
            raise RuleError("Dice Monarchs: the current hand is still being played")
        if self.phase == "game_over":
            raise RuleError("Dice Monarchs: the game is over, one player holds every chip")
        seated = [i for i, s in enumerate(self.stacks) if s > 0]
        if self.hand_no > 0 or self.stacks[self.banker] == 0:
            self.banker = self._next_from(self.banker, lambda i: self.stacks[i] > 0)
        self.hand_no += 1
        rng = self._rng("hole")
        self.hole = [[_roll_die(rng, s) for s in DICE] if i in seated else []
                     for i in range(len(self.players))]
        self.community = []
        self.in_play = [i in seated for i in range(len(self.players))]
        self.pot = 0
        self.contributed = [0] * len(self.players)
        self.winners, self.announcements = [], []
        self.phase = "opening"
        self._begin_round(self._next_from(self.banker, lambda i: self.in_play[i]))
        self.describe(
            f"hand {self.hand_no}: {self.players[self.banker]} is banker; hole dice rolled; "
            f"{self.players[self.to_act]} must open the betting"
        )

    @move
    def bin(self, player: str) -> None:
        """Leave the hand, forfeiting every chip already in the pot."""
        who = self._turn(player, "bin")
        self.in_play[who] = False
        self.describe(f"{player} bins")
        self._after_action(who)

    @move
    def check(self, player: str) -> None:
        """Pass without betting (only while nobody has bet this round)."""
        who = self._turn(player, "check")
        self.acted[who] = True
        self.describe(f"{player} checks")
        self._after_action(who)

    @move
    def bet(self, player: str, amount: int) -> None:
        """Open the betting of this round with ``amount`` chips."""
        who = self._turn(player, "bet", amount)
        self._put_in(who, amount)
        self.current_bet = amount
        self.highest_better = who
        self._everyone_else_must_act(who)
        self.describe(f"{player} bets {amount}" + (" (all-in)" if not self.stacks[who] else ""))
        self._after_action(who)

    @move
    def call(self, player: str) -> None:
        """Match the current bet and stay in (all-in with every chip left if short)."""
        who = self._turn(player, "call")
        paid = min(self.current_bet - self.committed[who], self.stacks[who])
        self._put_in(who, paid)
        self.acted[who] = True
        short = " (all-in)" if self.stacks[who] == 0 else ""
        self.describe(f"{player} calls {paid}{short}")
        self._after_action(who)

    @move
    def raise_bet(self, player: str, amount: int) -> None:
        """Raise the current bet by ``amount`` chips and become the highest better."""
        who = self._turn(player, "raise_bet", amount)
        self.current_bet += amount
        self._put_in(who, self.current_bet - self.committed[who])
        self.highest_better = who
        self._everyone_else_must_act(who)
        self.describe(f"{player} raises by {amount} to {self.current_bet}"
                      + (" (all-in)" if not self.stacks[who] else ""))
        self._after_action(who)

    # -- rules ----------------------------------------------------------------------------

    def _refusal(self, name: str, who: int, amount: int) -> str | None:
        """Why the move is illegal for seat ``who`` now, or ``None`` if it is legal."""
        rnd = ROUND_NAMES.get(self.phase, self.phase)
        opening_bet_due = self.phase == "opening" and self.current_bet == 0
        if isinstance(amount, bool) or not isinstance(amount, int):
            return f"the amount must be a whole number of chips, not {amount}"
        if name == "bin" and opening_bet_due:
            return "rule 2: the player clockwise of the banker must place a bet"
        if name == "check":
            if opening_bet_due:
                return "rule 2: the player clockwise of the banker must place a bet"
            if self.current_bet > 0:
                return (f"rule 4 (Check): there is a bet of {self.current_bet} in {rnd};"
                        " call, raise or bin")
        if name == "bet":
            if self.current_bet > 0:
                return (f"rule 4 (Bet): there is already a bet of {self.current_bet} in {rnd};"
                        " call or raise it")
            if amount < 1:
                return f"rule 4 (Bet): a bet is at least 1 chip, not {amount}"
            if amount > self.bet_limit:
                return self._limit_reason(amount)
        if name == "call" and self.current_bet == 0:
            return f"rule 4 (Call): there is no bet to call in {rnd}"
        if name == "raise_bet":
            if self.current_bet == 0:
                return f"rule 4 (Raise): there is no bet to raise in {rnd}; bet instead"
            if amount < 1:
                return f"rule 4 (Raise): a raise is at least 1 chip, not {amount}"
            if self.current_bet + amount > self.bet_limit:
                return self._limit_reason(self.current_bet + amount)
        return None

    def _limit_reason(self, total: int) -> str:
        who = self.to_act
        return (f"(all-in): {self.players[who]} has {self.stacks[who]} chips left, so can "
                f"bet at most {self.bet_limit} in all this round, not {total}")

    def _turn(self, player: str, name: str, amount: int = 1) -> int:
        if self.phase not in BETTING_PHASES:
            when = "before the deal" if self.phase == "waiting" else "between hands"
            if self.phase == "game_over":
                when = "after the game is over"
            raise RuleError(f"Dice Monarchs: there is no betting {when}")
        if self.awaiting:
            raise RuleError(f"Dice Monarchs: the betting waits for the banker to roll the "
                            f"{self.awaiting}")
        who = self.seat(player)
        if not self.in_play[who]:
            raise RuleError(f"Dice Monarchs rule 4: {player} has binned and is out of this hand")
        if who != self.to_act:
            raise RuleError(
                f"Dice Monarchs rule 4: play goes clockwise; it is {self.players[self.to_act]}'s"
                f" turn, not {player}'s"
            )
        reason = self._refusal(name, who, amount)
        if reason is not None:
            raise RuleError(f"Dice Monarchs {reason}")
        return who

    def _put_in(self, who: int, chips: int) -> None:
        self.stacks[who] -= chips
        self.committed[who] += chips
        self.contributed[who] += chips
        self.pot += chips

    def _everyone_else_must_act(self, who: int) -> None:
        self.acted = [i == who for i in range(len(self.players))]

    def _in_play_seats(self) -> list[int]:
        return [i for i, inside in enumerate(self.in_play) if inside]

    def _can_act(self, i: int) -> bool:
        return self.in_play[i] and self.stacks[i] > 0

    def _next_from(self, seat: int, ok: Callable[[int], bool]) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            i = (seat + step) % n
            if ok(i):
                return i
        raise RuleError("Dice Monarchs: no player can take that seat")

    def _begin_round(self, opener: int) -> None:
        self.round_opener = opener
        self.to_act = opener
        self.highest_better = -1
        self.current_bet = 0
        self.committed = [0] * len(self.players)
        self.acted = [False] * len(self.players)

    def _after_action(self, who: int) -> None:
        inside = self._in_play_seats()
        if len(inside) == 1:
            self._award_all(inside[0])
            return
        actors = [i for i in inside if self.stacks[i] > 0]
        # Settled: everyone who can still bet has acted and matched; a lone player with
        # chips who owes nothing has nobody to bet against.
        settled = all(self.committed[i] == self.current_bet for i in actors) and (
            len(actors) < 2 or all(self.acted[i] for i in actors))
        if not settled:
            self.to_act = self._next_from(who, self._can_act)
            return
        self._roll_on([], None)

    def _roll_on(self, news: list[str], rng: random.Random | None) -> None:
        # The betting round is settled: the banker reveals the next community dice (from
        # ``rng``, or the table seed) and the next round opens, or the showdown comes.
        actors = [i for i in self._in_play_seats() if self.stacks[i] > 0]
        while True:
            if self.phase == "final_round":
                self._showdown(news)
                return
            stage, following = _NEXT[self.phase]
            if self.banker_rolls and rng is None:
                self.awaiting, self.to_act = stage.name, -1
                text = f"the banker rolls the {stage.text} by hand"
                news.append(text[0].upper() + text[1:])
                self._also(text)
                self.announcements = news
                return
            dice = rng if rng is not None else self._rng(self.phase)
            rng = None  # one stage per roll by hand
            self.awaiting = ""
            self.community += [_roll_die(dice, s) for s in stage.dice]
            opener = self.highest_better if self.highest_better >= 0 else self.round_opener
            self.phase = following
            text = f"the banker reveals the {stage.name}: {', '.join(map(str, self.community))}"
            news.append(text[0].upper() + text[1:])
            self._also(text)
            if len(actors) < 2:
                # Nobody left to bet against: the dice are rolled out to the showdown.
                self.committed = [0] * len(self.players)
                self.current_bet = 0
                continue
            if not self._can_act(opener):
                opener = self._next_from(opener, self._can_act)
            self._begin_round(opener)
            self.announcements = news
            return

    @move
    def enter_community(self, *, rng: random.Random) -> None:
        """The banker's community dice the table waits for (a table where the banker rolls
        by hand, `set_banker_rolls`), from ``rng``: the real dice entered
        (`companion.dice.physical.EnteredDice`), in order (the flop d4 d6 d8, the turn
        d10, the river d12)."""
        if not self.awaiting:
            raise RuleError("Dice Monarchs: no community dice are waiting to be rolled")
        if not isinstance(rng, random.Random):
            raise RuleError("Dice Monarchs: the banker's dice are needed")
        self._roll_on([], rng)

    @move
    def reveal(self) -> None:
        """The community dice the table waits for, rolled by the table seed after all (the
        same dice a table without the banker's own dice would show)."""
        if not self.awaiting:
            raise RuleError("Dice Monarchs: no community dice are waiting to be rolled")
        self._roll_on([], self._rng(self.phase))

    def _showdown(self, news: list[str]) -> None:
        shown = {i: best_showdown_hand(self.hole[i], self.community) for i in self._in_play_seats()}
        lines = [*news, *(f"{self.players[i]} reveals hole dice {dice_text(DICE, self.hole[i])}:"
                          f" {h.describe()}" for i, h in shown.items())]
        pots = self.pots()
        results: list[str] = []
        winners: list[int] = []
        for k, pot in enumerate(pots):
            best = max(shown[i].key() for i in pot.seats)
            won = [i for i in pot.seats if shown[i].key() == best]
            tied_rank = [i for i in pot.seats if shown[i].rank == -best[0]]
            name = self._pot_name(k, pots)
            if len(pot.seats) == 1:
                why = "nobody else matched these chips: returned"
            elif len(tied_rank) > 1:
                why = ("equal hands, the highest hole number decides (rule 9): " + "; ".join(
                    f"{self.players[i]} {', '.join(map(str, shown[i].tiebreak))}"
                    for i in tied_rank))
            else:
                hand = shown[won[0]].hand
                why = hand.label if hand is not None else "no hand"
            results.append(self._pay(won, pot.chips, name, why))
            winners += [i for i in won if i not in winners]
        self._finish(winners, lines, results)

    @staticmethod
    def _pot_name(k: int, pots: list[Pot]) -> str:
        if len(pots) == 1:
            return "the pot"
        return "the main pot" if k == 0 else f"side pot {k}"

    def _award_all(self, winner: int) -> None:
        result = self._pay([winner], self.pot, "the pot", "everyone else binned")
        self._finish([winner], [], [result])

    def _pay(self, winners: list[int], chips: int, name: str, why: str) -> str:
        # Odd chips of a split pot go to the first winner clockwise from the banker.
        n = len(self.players)
        order = sorted(winners, key=lambda i: (i - self.banker - 1) % n)
        share, odd = divmod(chips, len(order))
        for k, i in enumerate(order):
            self.stacks[i] += share + (1 if k < odd else 0)
        names = [self.players[i] for i in order]
        if len(names) == 1 and why.endswith("returned"):
            return f"{names[0]} takes back {chips} unmatched chips"
        verb = "wins" if len(names) == 1 else "split"
        return f"{' and '.join(names)} {verb} {name} of {chips} ({why})"

    def _finish(self, winners: list[int], lines: list[str], results: list[str]) -> None:
        n = len(self.players)
        self.announcements = [*lines, *results]
        for result in results:
            self._also(result)
        self.winners = [self.players[i] for i in winners]
        self.pot = 0
        self.committed = [0] * n
        self.contributed = [0] * n
        self.current_bet = 0
        self.to_act = -1
        self.phase = "game_over" if sum(s > 0 for s in self.stacks) < 2 else "hand_over"

    def _also(self, text: str) -> None:
        # Add what the banker did to the history line of the move that caused it.
        summary = self.summary_so_far
        self.describe(f"{summary}; {text}" if summary else text)

    def _rng(self, stage: str) -> random.Random:
        # One generator per hand and stage, from the table's seed: the same seed deals the
        # same dice however the betting goes, and saving mid-hand loses nothing.
        return random.Random(f"dice-monarchs:{self.seed}:{self.hand_no}:{stage}")

    # -- between hands: seats, chips and table options ----------------------------------

    def _between_hands(self, what: str) -> None:
        if self.phase in BETTING_PHASES:
            raise RuleError(f"Dice Monarchs: {what} only between hands (this hand is still "
                            "being played)")

    def _settle_phase(self) -> None:
        holders = sum(s > 0 for s in self.stacks)
        if holders < 2:
            self.phase = "game_over"
        elif self.phase == "game_over":
            self.phase = "hand_over" if self.hand_no else "waiting"

    @move(who_may=GM)  # chips come from the GM's bank, never a player's click
    def join(self, player: str, chips: int) -> None:
        """Seat a new player (clockwise after the last seat) with ``chips`` chips."""
        self._between_hands("a player joins")
        names = check_players([*self.players, player])
        check_chips(chips)
        self.players = names
        for name, value in (("stacks", chips), ("hole", []), ("in_play", False),
                            ("committed", 0), ("acted", False), ("contributed", 0)):
            getattr(self, name).append(value)
        self._settle_phase()
        self.describe(f"{names[-1]} joins the table with {chips:,} chips")

    @move(who_may=GM)
    def leave(self, player: str) -> None:
        """The player leaves the table, taking their chips with them."""
        self._between_hands("a player leaves")
        seat = self.seat(player)
        n = len(self.players)
        if n <= MIN_PLAYERS:
            raise RuleError(f"Dice Monarchs is played by at least {MIN_PLAYERS}: "
                            f"{player} cannot leave a table of {n}")
        chips = self.stacks[seat]
        for name in ("players", "stacks", "hole", "in_play", "committed", "acted",
                     "contributed"):
            del getattr(self, name)[seat]
        if seat < self.banker:
            self.banker -= 1
        elif seat == self.banker:
            # The next deal passes the bank to the player who sat after the leaver.
            self.banker = (seat - 1) % (n - 1)
        self.winners = [w for w in self.winners if w != player]
        self._settle_phase()
        self.describe(f"{player} leaves the table with {chips:,} chips")

    @move(who_may=GM)
    def rebuy(self, player: str, chips: int) -> None:
        """The player buys ``chips`` more chips (between hands)."""
        self._between_hands("chips are bought")
        seat = self.seat(player)
        check_chips(chips)
        if self.stacks[seat] + chips > MAX_CHIPS:
            raise RuleError(f"Dice Monarchs: a stack is at most {MAX_CHIPS:,} chips")
        self.stacks[seat] += chips
        self._settle_phase()
        self.describe(f"{player} buys {chips:,} chips")

    @move
    def set_banker_rolls(self, on: bool) -> None:
        """Let the banker roll the community dice by hand (between hands), or go back to
        the table seed rolling them."""
        self._between_hands("the way community dice are rolled changes")
        self.banker_rolls = bool(on)
        self.describe("the banker rolls the community dice by hand" if on
                      else "the table rolls the community dice")

    @move
    def set_show_odds(self, on: bool) -> None:
        """Turn the chance-to-win readout on or off for the whole table."""
        self.show_odds = bool(on)
        self.describe(f"chance to win {'shown' if on else 'hidden'} at this table")

    # -- hidden information -----------------------------------------------------------------

    def revealing(self, event: Event) -> bool:
        """Whether the move of ``event`` showed something new: community dice or hole dice
        at the showdown (undoing it would let someone decide again knowing more)."""
        before = event.before
        shown_before = len(before.get("community", []))
        if len(self.community) > shown_before:
            return True
        return (before.get("phase") in BETTING_PHASES and self.phase not in BETTING_PHASES)

    def undo_refusal(self, role: str) -> str | None:
        """The table's undo rule, which the campaign's seam applies to every undo: only
        the GM (``"gm"``) decides an undo at a table with hidden dice (on a shared screen
        the app asks everyone to agree, then undoes as the device's holder, the GM), and
        a move that revealed dice (`revealing`) stays, whoever asks."""
        if role != "gm":
            return "Dice Monarchs: with hidden dice only the GM can undo a move (ask the GM)"
        log = self.log
        if log and self.revealing(log[-1]):
            return ("Dice Monarchs: that move revealed dice; undoing it would let players "
                    "decide again knowing them, so it stays")
        return None

    def revealed_seats(self) -> list[int]:
        """Seats whose hole dice everyone has seen (those who went to the showdown)."""
        if (self.phase in ("hand_over", "game_over") and len(self.community) == len(DICE)
                and sum(self.in_play) >= 2):
            return self._in_play_seats()
        return []

    def view_for(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` may know of the table (``None``: the table screen, what everyone
        knows): no table seed, no other player's hole dice until the showdown shows them,
        no history but its public lines."""
        mine = self.seat(player) if player is not None else -1
        shown = set(self.revealed_seats())
        return {
            "players": list(self.players), "stacks": list(self.stacks), "banker": self.banker,
            "hand_no": self.hand_no, "phase": self.phase,
            "hole": [list(h) if i == mine or i in shown else [] for i, h in
                     enumerate(self.hole)],
            "dealt": [bool(h) for h in self.hole],
            "community": list(self.community), "in_play": list(self.in_play),
            "committed": list(self.committed), "contributed": list(self.contributed),
            "acted": list(self.acted), "current_bet": self.current_bet, "pot": self.pot,
            "to_act": self.to_act, "winners": list(self.winners),
            "announcements": list(self.announcements), "show_odds": self.show_odds,
            "banker_rolls": self.banker_rolls, "awaiting": self.awaiting,
            "viewer": player, "history": [e.summary for e in self.log],
        }

    def _nonce(self, seat: int) -> str:
        salt = f"{self.salt}:" if self.salt else ""  # an older table: as it was committed
        return hashlib.sha256(f"dice-monarchs:{salt}{self.seed}:{self.hand_no}:{seat}:nonce"
                              .encode()).hexdigest()

    def seed_commitment(self) -> str:
        """SHA-256 of ``dice-monarchs-seed:SALT:SEED`` (an older table without a salt:
        ``dice-monarchs-seed:SEED``), checkable with the GM's save after the game."""
        salt = f"{self.salt}:" if self.salt else ""
        return hashlib.sha256(f"dice-monarchs-seed:{salt}{self.seed}".encode()).hexdigest()

    def hole_commitment(self, seat: int) -> str:
        """SHA-256 commitment to a seat's hole dice this hand (see `companion.fairplay`):
        expression ``"hole"``, no seed, the dice, their total, and a nonce derived from the
        secret table seed; the GM's save lets anyone check it after the hand."""
        hole = self.hole[seat]
        return commitment("hole", None, hole, sum(hole), self._nonce(seat))

    def public_save(self, player: str | None = None) -> dict[str, Any]:
        """A save a player may keep: `view_for` ``player``, with every hidden hole roll as
        its commitment and the table seed as its salted `seed_commitment`."""
        view = self.view_for(player)
        view["commitments"] = {
            self.players[i]: self.hole_commitment(i)
            for i, h in enumerate(self.hole) if h and not view["hole"][i]}
        view["seed_commitment"] = self.seed_commitment()
        return {"tracker": "DiceMonarchsPublicView", "format": 1, "view": view}

    @classmethod
    def visible_save(cls, save: dict[str, Any], who: str, role: str) -> dict[str, Any]:
        """The table's saved form as the seat ``who`` (``role``: a player or a spectator)
        may hold it, in this class's own format (see [companion.table.views][]): their own
        hole dice and those the showdown revealed; no other hole die, no table seed, no
        salt, in the state and in every logged ``before`` (an earlier hand's dice
        included), and no seed among the logged arguments. The GM reads the whole save."""
        game = cls.from_dict(save, checked=False)
        mine = game.players.index(who) if who in game.players else -1
        shown = set(game.revealed_seats())
        state = dict(save["state"])
        state["hole"] = [list(h) if i == mine or i in shown else []
                         for i, h in enumerate(game.hole)]
        state.update(seed=0, salt="")
        log = []
        for event in save["log"]:
            before = dict(event.get("before") or {})
            if isinstance(before.get("hole"), list):
                before["hole"] = [[] for _ in before["hole"]]
            before.update({k: v for k, v in (("seed", 0), ("salt", "")) if k in before})
            args = {k: v for k, v in (event.get("args") or {}).items() if k != "seed"}
            log.append({**event, "before": before, "args": args})
        return {**save, "state": state, "log": log}


def _upgrade(raw: Any) -> None:
    """A table saved before side pots (no ``contributed``, no ``show_odds``) gets them, in
    place: the odds shown, and the pot's chips from earlier rounds shared equally by the
    players still in (under the old rules everyone still in had matched every bet)."""
    if not isinstance(raw, dict) or "contributed" in raw:
        return
    raw.setdefault("show_odds", True)
    players, committed, in_play = (raw.get(k) for k in ("players", "committed", "in_play"))
    pot = raw.get("pot")
    if not (isinstance(players, list) and isinstance(committed, list)
            and isinstance(in_play, list) and isinstance(pot, int)
            and len(committed) == len(in_play) == len(players)
            and all(isinstance(c, int) for c in committed)):
        return  # the normal checks name what is wrong
    contributed = list(committed)
    inside = [i for i, flag in enumerate(in_play) if flag is True]
    rest = pot - sum(committed)
    if raw.get("phase") in BETTING_PHASES and inside and rest > 0:
        share, odd = divmod(rest, len(inside))
        for k, i in enumerate(inside):
            contributed[i] += share + (1 if k < odd else 0)
    elif raw.get("phase") not in BETTING_PHASES:
        contributed = [0] * len(players)
    raw["contributed"] = contributed
