"""Dueling: a one-on-one contest that need not kill (first blood, wits, a court case).

1. Set the **stakes**: what winning and losing mean.
2. Set the **hit points**: Guard for a physical duel; for a contest of words, CTRL
   (counted only: it inflicts no real CTRL damage).
3. Each side **secretly** picks *attack* (batter, accuse, intimidate), *defend* (parry,
   cite, reason) or *flourish* (charm, taunt, feint).
4. Reveal together: defend beats attack, attack beats flourish, flourish beats defend.
   The winner deals 1d8 to the other's hit points and the loser still deals 1d4; the same
   pick on both sides deals 1d6 each way.

Interpretation: the duel ends when a side's hit points reach 0; if both reach 0 in the
same exchange, the duel is a draw. Choices stay hidden until both are made, and the
second choice reveals both at once (nobody has to press "reveal"). No one chooses before
the duel is started with its stakes.

Interpretation (hidden information): a choice made is known only to the one who made it
until the reveal: [Duel.view_for][companion.rulesets.cairn_srd.duel.Duel.view_for] is
what one person may know (the other side only "has chosen"), and
[Duel.public_save][companion.rulesets.cairn_srd.duel.Duel.public_save] leaves a pending
choice out (it is made again after loading). An undo is the GM's decision and never takes
back a reveal ([Duel.undo_refusal][companion.rulesets.cairn_srd.duel.Duel.undo_refusal],
which the campaign's seam applies to every undo).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar

from companion import dice
from companion.acting import named_actor
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd.saves import MAX_SCORE
from companion.state import Event, Tracker, move, state_field

TACTICS = ("attack", "defend", "flourish")
MAX_DUEL_HP = MAX_SCORE
"""Hit points are Guard or CTRL, both at most 18."""
MAX_NAME = 40
MAX_STAKES = 200
MAX_EXCHANGES = 1_000
#: Each tactic and the one it beats.
BEATS = {"defend": "attack", "attack": "flourish", "flourish": "defend"}


def exchange_dice(mine: str, theirs: str) -> tuple[int, int]:
    """Sides of the die each duelist rolls against the other: (mine, theirs)."""
    for t in (mine, theirs):
        if t not in TACTICS:
            raise RuleError(f"Dueling Rules: choose attack, defend or flourish, not “{t}”")
    if mine == theirs:
        return 6, 6
    return (8, 4) if BEATS[mine] == theirs else (4, 8)


@dataclass
class Exchange:
    """One revealed exchange: both picks, both dice and what each side dealt."""

    choices: list[str] = state_field(choices=TACTICS, max_len=2)
    dice: list[int] = state_field(choices=(4, 6, 8), max_len=2)
    damage: list[int] = state_field(min=1, max=8, max_len=2)

    def check_state(self) -> None:
        if not len(self.choices) == len(self.dice) == len(self.damage) == 2:
            raise StateError("field 'choices': an exchange has two picks, two dice, two hits")
        if self.dice != list(exchange_dice(self.choices[0], self.choices[1])):
            raise StateError(f"field 'dice': {self.choices[0]} against {self.choices[1]} "
                             f"rolls d{exchange_dice(self.choices[0], self.choices[1])[0]}")
        for i in (0, 1):
            if self.damage[i] > self.dice[i]:
                raise StateError(f"field 'damage[{i}]': a d{self.dice[i]} cannot deal "
                                 f"{self.damage[i]}")


@dataclass
class Duel(Tracker):
    """A duel between two sides, with secret choices and recorded stakes."""

    #: Arguments of a move a player's view of the campaign log leaves out (the pick).
    SECRET_ARGS: ClassVar[dict[str, tuple[str, ...]]] = {"choose": ("tactic",)}

    names: list[str] = state_field(default_factory=lambda: ["Left", "Right"], max_len=2)
    stakes: str = state_field("", max_len=MAX_STAKES)
    hit_points: list[int] = state_field(default_factory=lambda: [6, 6], min=0,
                                        max=MAX_DUEL_HP, max_len=2)
    choices: list[str] = state_field(default_factory=lambda: ["", ""],
                                     choices=("", *TACTICS), max_len=2)
    exchanges: list[Exchange] = state_field(default_factory=list, max_len=MAX_EXCHANGES)
    winner: str = state_field("", max_len=MAX_NAME)
    rounds: int = state_field(0, min=0, max=MAX_EXCHANGES)

    def acting_for(self, move: str, arguments: dict[str, Any]) -> tuple[str, ...] | None:
        """A duellist's secret choice is that duellist's (``who``: a name, or 0/1 for the
        first or second); starting a duel is the table's."""
        who = arguments.get("who")
        if move == "choose" and type(who) is int and 0 <= who < len(self.names):
            arguments = {"who": self.names[who]}
        return named_actor({"choose": "who"}, move, arguments)

    def check_state(self) -> None:
        if not len(self.names) == len(self.hit_points) == len(self.choices) == 2:
            raise StateError("field 'names': a duel has two duelists, each with hit points "
                             "and a choice")
        if self.names[0] == self.names[1] or any(
                not n.strip() or len(n) > MAX_NAME for n in self.names):
            raise StateError(f"field 'names': two different names of 1-{MAX_NAME} characters")
        if self.rounds != len(self.exchanges):
            raise StateError(f"field 'rounds': {len(self.exchanges)} exchanges were fought, "
                             f"not {self.rounds}")
        if all(self.choices):
            raise StateError("field 'choices': both have chosen, so the exchange was revealed")
        if not self.stakes and (self.exchanges or any(self.choices)):
            raise StateError("field 'stakes': a duel under way has stakes")
        down = [hp == 0 for hp in self.hit_points]
        expected = ("draw" if all(down) else self.names[down.index(False)] if any(down)
                    else "")
        if self.winner != expected:
            raise StateError(f"field 'winner': with hit points {self.hit_points[0]} and "
                             f"{self.hit_points[1]} the winner is "
                             f"{expected or 'nobody yet'}")
        if self.winner and any(self.choices):
            raise StateError("field 'choices': nobody chooses once the duel is over")

    @property
    def over(self) -> bool:
        return bool(self.winner)

    @property
    def started(self) -> bool:
        """Whether the duelists, hit points and stakes are set (step 1 and 2 done)."""
        return bool(self.stakes)

    def can_choose(self, who: int | str) -> bool:
        """Whether ``who`` may pick a tactic now (started, not over, not yet chosen)."""
        return self.started and not self.over and not self.choices[self._side(who)]

    def ready(self) -> bool:
        return all(self.choices)

    def _side(self, who: int | str) -> int:
        if isinstance(who, int) and who in (0, 1):
            return who
        if isinstance(who, str) and who in self.names:
            return self.names.index(who)
        raise RuleError(f"Dueling Rules: no duelist “{who}”")

    @move
    def start(self, first: str, second: str, first_hp: int, second_hp: int,
              stakes: str) -> None:
        """Establish the duelists, their hit points and the stakes."""
        if not stakes.strip():
            raise RuleError("Dueling Rules step 1: establish the stakes first")
        if min(first_hp, second_hp) < 1 or max(first_hp, second_hp) > MAX_DUEL_HP:
            raise RuleError(f"Dueling Rules step 2: hit points (Guard or CTRL) run 1-"
                            f"{MAX_DUEL_HP}, got {first_hp} and {second_hp}")
        names = [first.strip() or "Left", second.strip() or "Right"]
        if any(len(n) > MAX_NAME for n in names) or len(stakes.strip()) > MAX_STAKES:
            raise RuleError(f"Dueling Rules: names have at most {MAX_NAME} characters and "
                            f"the stakes at most {MAX_STAKES}")
        if names[0] == names[1]:
            names[1] += " (2)"
        self.names, self.hit_points, self.stakes = names, [first_hp, second_hp], stakes.strip()
        self.choices, self.exchanges, self.winner, self.rounds = ["", ""], [], "", 0
        self.describe(f"duel {names[0]} ({first_hp}) vs {names[1]} ({second_hp}): {self.stakes}")

    @move
    def choose(self, who: int | str, tactic: str, rng: random.Random | None = None,
               seed: int | None = None) -> Exchange | None:
        """Secretly pick a tactic (the history does not say which); the second pick reveals
        both and deals the damage (returned), rolled with ``rng`` or ``seed``."""
        side = self._side(who)
        if not self.started:
            raise RuleError("Dueling Rules step 1: start the duel with its stakes first")
        if self.over:
            raise RuleError(f"Dueling Rules: the duel is over ({self.winner})")
        tactic = tactic.strip().lower()
        if tactic not in TACTICS:
            raise RuleError(
                f"Dueling Rules step 3: choose attack, defend or flourish, not “{tactic}”")
        if self.choices[side]:
            raise RuleError(f"Dueling Rules step 3: {self.names[side]} has already chosen")
        self.choices[side] = tactic
        if not self.ready():
            self.describe(f"{self.names[side]} has chosen")
            return None
        return self._reveal(make_rng(seed, rng))

    def view_for(self, who: str | None = None) -> dict[str, Any]:
        """What ``who`` may know (``None``: the table screen): their own pending choice,
        only whether the other side has chosen, and every revealed exchange."""
        mine = self.names.index(who) if who in self.names else -1
        return {
            "names": list(self.names), "stakes": self.stakes,
            "hit_points": list(self.hit_points), "rounds": self.rounds,
            "winner": self.winner, "chosen": [bool(c) for c in self.choices],
            "my_choice": self.choices[mine] if mine >= 0 else "",
            "exchanges": [{"choices": list(e.choices), "dice": list(e.dice),
                           "damage": list(e.damage)} for e in self.exchanges],
            "history": [e.summary for e in self.log],
        }

    def public_save(self) -> dict[str, Any]:
        """The saved form without a pending secret choice (nor the move that made it)."""
        copy = Duel.from_dict(self.to_dict())
        while any(copy.choices) and copy.can_undo:
            Tracker.undo(copy)
        # A trimmed log, or a duel restarted over an unrevealed pick: no pick stays.
        copy.choices = ["", ""]
        data = copy.to_dict()
        for event in data["log"]:
            if "choices" in event.get("before", {}):
                event["before"]["choices"] = ["", ""]
        return data

    #: What a seat holds in place of the other side's unrevealed pick (that a pick was
    #: made is public: "chosen ✓ (hidden)").
    HIDDEN_PICK: ClassVar[str] = "hidden"

    @classmethod
    def visible_save(cls, save: dict[str, Any], who: str, role: str) -> dict[str, Any]:
        """The duel's saved form as the seat ``who`` (``role``: a player or a spectator)
        may hold it (see [companion.table.views][]): their own pending pick; the other
        side's only as ``HIDDEN_PICK`` (that it was made), in the state and in every
        logged ``before``; no pick among the logged arguments. The GM reads it whole."""
        names = list(save["state"].get("names") or [])

        def hide(choices: Any) -> Any:
            if not isinstance(choices, list):
                return choices
            return [c if not c or (i < len(names) and names[i] == who) else cls.HIDDEN_PICK
                    for i, c in enumerate(choices)]

        state = {**save["state"], "choices": hide(save["state"].get("choices"))}
        secret = set(cls.SECRET_ARGS.get("choose", ()))
        log = []
        for event in save["log"]:
            before = dict(event.get("before") or {})
            if "choices" in before:
                before["choices"] = hide(before["choices"])
            args = event.get("args") or {}
            if event.get("move") == "choose":
                args = {k: v for k, v in args.items() if k not in secret}
            log.append({**event, "before": before, "args": args})
        return {**save, "state": state, "log": log}

    def revealing(self, event: Event) -> bool:
        """Whether the move of ``event`` revealed an exchange."""
        return len(self.exchanges) > len(event.before.get("exchanges", []))

    def undo_refusal(self, role: str) -> str | None:
        """The duel's undo rule, which the campaign's seam applies to every undo: only the
        GM (``"gm"``) decides, and a reveal stays (undoing it would let a side choose
        again knowing the other's pick), whoever asks."""
        if role != "gm":
            return "Dueling Rules: choices are secret, so only the GM can undo"
        if self.log and self.revealing(self.log[-1]):
            return ("Dueling Rules: that choice revealed both picks; undoing it would let a "
                    "side choose again knowing the other's, so it stays")
        return None

    def waiting(self) -> list[str]:
        """The duelists who have not chosen yet."""
        return [n for n, c in zip(self.names, self.choices, strict=True) if not c]

    def _reveal(self, r: random.Random) -> Exchange:
        """Reveal both picks and deal the damage (step 4)."""
        sides = list(exchange_dice(self.choices[0], self.choices[1]))
        dealt = [dice.roll(f"1d{sides[0]}", rng=r).total, dice.roll(f"1d{sides[1]}", rng=r).total]
        # dealt[0] is what side 0 inflicts on side 1
        self.hit_points = [max(0, self.hit_points[0] - dealt[1]),
                           max(0, self.hit_points[1] - dealt[0])]
        ex = Exchange(list(self.choices), sides, dealt)
        self.exchanges.append(ex)
        self.rounds += 1
        self.choices = ["", ""]
        down = [hp == 0 for hp in self.hit_points]
        if all(down):
            self.winner = "draw"
        elif any(down):
            self.winner = self.names[down.index(False)]
        self.describe(
            f"{self.names[0]} {ex.choices[0]} vs {self.names[1]} {ex.choices[1]}: "
            f"{self.names[0]} deals d{sides[0]} = {dealt[0]}, {self.names[1]} deals "
            f"d{sides[1]} = {dealt[1]}" + (f"; winner: {self.winner}" if self.winner else ""))
        return ex
