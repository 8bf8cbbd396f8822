"""Your own dice: a roll made with real dice and entered by hand, checked and scored by the
engine's own rules.

[enter][companion.dice.physical.enter] takes an expression and either the **total** ("I
rolled 14") or **each die** ("3, 5") and returns an engine
[Roll][companion.dice.roller.Roll] marked ``own dice`` in its notes, or refuses with one
line saying why the entry is impossible:

>>> str(enter("4d6kh3", dice=[6, 1, 5, 3]))
'4d6kh3 = [6, ~~1~~, 5, 3] = 14 — own dice'
>>> enter("2d6", total=8).total
8
>>> enter("2d6", total=13)
Traceback (most recent call last):
...
companion.dice.physical.OwnDiceError: 2d6 cannot total 13: its totals run from 2 to 12

What can be entered:

- Interpretation: a **total** can be entered for any expression whose exact odds the
  engine can work out; it is accepted exactly when those odds give it a chance above zero
  (so ``2d6*2`` refuses 5, and an exploding die refuses totals past the
  [explosions the odds follow][companion.dice.limits.ODDS_EXPLODE_DEPTH]).
- Interpretation: **each die** can be entered when every ``NdX`` of the expression has a
  fixed number of dice and a fixed number of sides (``(1d4)d6`` takes a total only). The
  dice are entered in the order the expression is written, every die that was rolled,
  in the order it was rolled: a rerolled face and then the face that replaced it, an
  exploding face and then its extra die (each die's own rerolls and explosions before the
  next die: ``3d6!`` entered as ``6, 2, 4, 5`` is a 6 that exploded into a 2, then 4 and
  5). Each face must be one the die has (``1`` to
  ``X``; ``-1``, ``0``, ``1`` for ``dF``) and the count must be what the expression
  takes with those rerolls and explosions.
- Interpretation: the engine then applies the expression's own rules to those faces,
  exactly as for a virtual roll: keep/drop (``4d6kh3`` keeps the three highest entered),
  success counting, ``min``/``max`` clamps (enter the face as rolled), arithmetic and
  labels. A die may be rerolled at most 99 times (one less than
  [MAX_REROLL_ATTEMPTS][companion.dice.limits.MAX_REROLL_ATTEMPTS]) and explode at most
  [MAX_EXPLOSIONS][companion.dice.limits.MAX_EXPLOSIONS] times: past those the engine
  stops rolling that die, so no more can be entered.

**Any roll an app asks for** can take real dice too: an
[EnteredDice][companion.dice.physical.EnteredDice] is a ``random.Random`` that hands the
faces entered, in order, to whatever rule rolls with ``rng=``. Each dice expression the rule
rolls through the engine (checks, tables, saves) takes the faces it needs from the queue,
checked and scored as above; a rule that draws a number between two bounds
(``randint``) takes the next face and checks it lies between them:

>>> from companion import dice
>>> rng = EnteredDice([14, 3, 5])
>>> dice.roll("1d20+2", rng=rng).total, dice.roll("2d6", rng=rng).total
(16, 8)
>>> rng.finish()
>>> dice.roll("2d6", rng=EnteredDice([3, 7]))
Traceback (most recent call last):
...
companion.dice.physical.OwnDiceError: die 2: a d6 shows 1 to 6, not 7

- Interpretation: the faces of one entry are numbered across the whole entry ("die 2" is
  the second face typed), since a player types them all in one box.
- Interpretation: a rule that draws a raw fraction (``random()``), shuffles or picks from a
  list cannot be played with real dice: it is refused with one line saying so, and the app
  rolls it virtually instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, NoReturn

from companion.dice import limits
from companion.dice.nodes import BinOp, Const, Dice, Group, Labeled, Neg, Node, face_range, spine
from companion.dice.parse import parse
from companion.dice.roller import Roll, RollState, compiled, face_facts
from companion.errors import DiceError, OddsTooCostlyError

__all__ = ["OWN_DICE", "EnteredDice", "OwnDiceError", "check_total", "dice_slots", "enter",
           "is_own", "parse_faces", "takes_dice"]

#: The sides of a die: a number, or ``"F"`` (Fudge) or ``"%"`` (1 to 100).
Sides = int | Literal["F", "%"]

#: The note an entered roll carries in ``Roll.notes`` (and its one-line text shows).
OWN_DICE = "own dice"

#: Most dice one entry may list (the engine records at most this many in a roll).
MAX_ENTERED = limits.MAX_ROLLED_DICE


class OwnDiceError(DiceError):
    """A hand-entered roll that the expression cannot give (one line saying why)."""


def is_own(roll: Roll) -> bool:
    """Whether ``roll`` was entered by hand."""
    return OWN_DICE in roll.notes


def enter(expr: str, *, total: int | None = None,
          dice: Sequence[int] | None = None) -> Roll:
    """The roll of ``expr`` made with real dice: ``total`` alone, or ``dice`` (each die as
    rolled; ``total``, if also given, must be what they make).

    Returns an engine [Roll][companion.dice.roller.Roll] with ``"own dice"`` in its
    ``notes``; a total alone gives a roll with no dice. Raises
    [OwnDiceError][companion.dice.physical.OwnDiceError] (or the engine's own error for a
    bad expression) naming why the entry is impossible.
    """
    parse(expr)  # a malformed expression is refused first, with the engine's message
    if total is not None and (type(total) is not int):
        raise OwnDiceError(f"a total is a whole number, not {total!r}")
    if dice is None:
        if total is None:
            raise OwnDiceError(f"enter the total of {expr} or each of its dice")
        check_total(expr, total)
        return Roll(expr, total, [], {}, [OWN_DICE], None)
    result = _enter_dice(expr, dice)
    if total is not None and total != result.total:
        raise OwnDiceError(f"the dice entered for {expr} make {result.total}, not {total}")
    return result


def check_total(expr: str, total: int) -> None:
    """Refuse a ``total`` that the exact odds of ``expr`` give no chance."""
    from companion.dice.odds import odds

    try:
        dist = odds(expr)
    except OddsTooCostlyError:
        raise OwnDiceError(f"the exact odds of {expr} are too costly to check a total "
                           "against: enter each die instead") from None
    if dist.p(total) > 0:
        return
    if total < dist.min or total > dist.max:
        more = (f" (as far as the odds follow its explosions, "
                f"{limits.ODDS_EXPLODE_DEPTH} per die)" if dist.truncated else "")
        raise OwnDiceError(f"{expr} cannot total {total}: its totals run from {dist.min} to "
                           f"{dist.max}{more}")
    raise OwnDiceError(f"{expr} cannot total {total}: no roll of it gives that total")


def dice_slots(expr: str) -> list[Sides]:
    """The dice to enter for ``expr`` before any reroll or explosion, in order: each one's
    sides (``6``, ``"F"``, ``"%"``). An app draws one box per die from it.

    >>> dice_slots("2d6+1d8[fire]-1")
    [6, 6, 8]

    Raises [OwnDiceError][companion.dice.physical.OwnDiceError] when the expression takes
    a total only (a rolled number of dice or sides).
    """
    return [shown for _, count, _, _, shown in _terms(parse(expr)) for _ in range(count)]


def takes_dice(expr: str) -> bool:
    """Whether each die of ``expr`` can be entered (every term has fixed dice and sides)."""
    try:
        _terms(parse(expr))
    except OwnDiceError:
        return False
    return True


def _terms(tree: Node) -> list[tuple[Dice, int, int, int, Sides]]:
    """The ``NdX`` terms in the order the engine rolls them: (node, count, low, high, shown)."""
    out: list[tuple[Dice, int, int, int, Sides]] = []
    stack: list[Node] = [tree]
    while stack:  # depth-first, left before right (a loop: chains can be long)
        node = stack.pop()
        if isinstance(node, Const):
            continue
        if isinstance(node, (Group, Labeled)):
            stack.append(node.inner)
        elif isinstance(node, Neg):
            stack.append(node.operand)
        elif isinstance(node, BinOp):
            first, steps = spine(node)
            stack.extend(right for _, right, _ in reversed(steps))
            stack.append(first)
        else:
            if not isinstance(node.count, Const) or not (
                    isinstance(node.sides, (str, Const))):
                raise OwnDiceError(f"{node} rolls a number of dice or of sides that is itself "
                                   "rolled: enter its total instead of each die")
            shown: Sides = node.sides if isinstance(node.sides, str) else node.sides.value
            low, high = face_range(shown)
            out.append((node, node.count.value, low, high, shown))
    return out


def _faces_text(low: int, high: int) -> str:
    return "-1, 0 or 1" if (low, high) == (-1, 1) else f"{low} to {high}"


def _enter_dice(expr: str, dice: Sequence[int]) -> Roll:
    if isinstance(dice, (str, bytes)) or not all(type(v) is int for v in dice):
        raise OwnDiceError("each die entered is a whole number")
    if len(dice) > MAX_ENTERED:
        raise OwnDiceError(f"{len(dice):,} dice entered; at most {MAX_ENTERED:,} can be")
    tree, _ = compiled(expr)  # also refuses costly rerolls/explosions up front
    draws, _ = _split(expr, _terms(tree), list(dice))
    return _roll_from_draws(expr, draws)


def _roll_from_draws(expr: str, draws: list[float]) -> Roll:
    """The engine's roll of ``expr`` fed ``draws`` (the entered faces, checked and turned
    into the generator's values by ``_split``), marked as own dice."""
    tree, program = compiled(expr)
    feed = iter(draws)

    def draw() -> float:
        try:
            return next(feed)
        except StopIteration:  # pragma: no cover - the split follows the roller
            raise OwnDiceError(f"the dice entered for {expr} could not be read in order"
                               ) from None

    state = RollState(draw)
    total = program(state)
    if next(feed, None) is not None:  # pragma: no cover - the split follows the roller
        raise OwnDiceError(f"the dice entered for {expr} could not be read in order")
    return Roll(expr, total, state.groups, state.labels, [*state.notes, OWN_DICE], tree)


def _split(expr: str, terms: list[tuple[Dice, int, int, int, Sides]],
           dice: Sequence[int], *, offset: int = 0,
           queue: bool = False) -> tuple[list[float], int]:
    """Check every entered face against the term that rolls it and turn each into the
    number the engine's ``random()`` must give to draw it (``low + floor(u * k)``).

    ``queue``: ``dice`` is an [EnteredDice][companion.dice.physical.EnteredDice] queue from
    position ``offset``; the roll takes what it needs and leaves the rest. Returns the
    draws and how many faces were taken."""
    draws: list[float] = []
    taken = 0
    needed = sum(count for _, count, _, _, _ in terms)
    varies = any(t[0].mods.reroll or t[0].mods.explode is not None or t[0].mods.explode_max
                 for t in terms)
    more = " (and one more for each reroll or explosion)" if varies else ""

    def take(node: Dice, i: int, low: int, high: int, shown: Sides, why: str) -> int:
        nonlocal taken
        if queue and offset + taken >= len(dice):
            reason = f" ({node} die {i} {why})" if why else ""
            raise OwnDiceError(f"this roll needs another d{shown}{reason}: enter it")
        if queue:
            value = dice[offset + taken]
            taken += 1
            if not low <= value <= high:
                raise OwnDiceError(f"die {offset + taken}: a d{shown} shows "
                                   f"{_faces_text(low, high)}, not {value}")
            draws.append((value - low + 0.5) / (high - low + 1))
            return value
        if taken >= len(dice):
            if why:
                raise OwnDiceError(f"die {i} of {node} {why}: enter that die too "
                                   f"({len(dice)} entered so far)")
            raise OwnDiceError(f"{expr} takes {max(needed, taken + 1)} dice{more}; "
                               f"{len(dice)} entered")
        value = dice[taken]
        taken += 1
        if not low <= value <= high:
            raise OwnDiceError(f"die {taken} entered ({value}): a d{shown} of {node} shows "
                               f"{_faces_text(low, high)}")
        draws.append((value - low + 0.5) / (high - low + 1))
        return value

    for node, count, low, high, shown in terms:
        mods = node.mods
        facts = face_facts(low, high, mods)
        if mods.reroll and not mods.reroll_once and not len(facts.allowed):
            raise OwnDiceError(f"{node} rerolls every face, so no roll of it ever ends")
        if facts.always_explodes:
            raise OwnDiceError(f"every face of {node} explodes, so no roll of it ever ends")
        conditions = mods.reroll
        explodes = facts.explode
        for i in range(1, count + 1):
            booms = 0
            why = ""
            while True:
                v = take(node, i, low, high, shown, why)
                attempts = 0
                while any(c(v) for c in conditions):
                    attempts += 1
                    if mods.reroll_once:
                        v = take(node, i, low, high, shown, f"shows {v}, which is rerolled")
                        break
                    if attempts >= limits.MAX_REROLL_ATTEMPTS:
                        raise OwnDiceError(f"die {i} of {node} is rerolled {attempts} times; "
                                           f"at most {limits.MAX_REROLL_ATTEMPTS - 1} rerolls "
                                           "of one die can be entered")
                    v = take(node, i, low, high, shown, f"shows {v}, which is rerolled")
                if explodes is None or not explodes(v):
                    break
                if booms >= limits.MAX_EXPLOSIONS:
                    raise OwnDiceError(f"die {i} of {node} explodes more than "
                                       f"{limits.MAX_EXPLOSIONS} times; the engine stops "
                                       "there, so no more can be entered")
                booms += 1
                why = f"shows {v}, which explodes"
    if not queue and taken < len(dice):
        faces = " with these faces" if varies else ""
        raise OwnDiceError(f"{expr} takes {taken} dice{faces}; {len(dice)} entered")
    return draws, taken


def parse_faces(text: str) -> list[int]:
    """The faces typed in one box (``"14"``, ``"3 5 2"``, ``"3, 5"``), or one line saying
    what is wrong.

    >>> parse_faces("3, 5 2")
    [3, 5, 2]
    """
    if not isinstance(text, str):
        raise OwnDiceError("type the faces rolled, e.g. 14 or 3 5 2")
    if len(text) > 8 * MAX_ENTERED:
        raise OwnDiceError(f"too long: at most {MAX_ENTERED:,} dice can be entered")
    parts = text.replace(",", " ").split()
    if not parts:
        raise OwnDiceError("type the faces rolled, e.g. 14 or 3 5 2")
    faces: list[int] = []
    for i, part in enumerate(parts, 1):
        plain = part[1:] if part[:1] in "+-" else part
        if not (plain.isascii() and plain.isdigit()) or len(plain) > 7:
            shown = part if len(part) <= 12 else part[:11] + "…"
            raise OwnDiceError(f"die {i}: {shown!r} is not a face (a whole number)")
        faces.append(int(part))
    if len(faces) > MAX_ENTERED:
        raise OwnDiceError(f"{len(faces):,} dice entered; at most {MAX_ENTERED:,} can be")
    return faces


class EnteredDice(random.Random):
    """Real dice, entered in order, fed to any rule that rolls with ``rng=``.

    The engine's [roll][companion.dice.roller.roll] (and so every check and table) takes
    the faces its expression needs from the queue and scores them with its own rules;
    [randint][companion.dice.physical.EnteredDice.randint] takes the next face, checked
    against its bounds. A raw ``random()`` (or a shuffle, a pick from a list) is refused:
    such a roll cannot be made with dice. [finish][companion.dice.physical.EnteredDice.finish]
    refuses faces left over. Every roll made from it is marked ``own dice``.

    >>> rng = EnteredDice([4, 2])
    >>> rng.randint(1, 6), rng.randint(1, 4), rng.used
    (4, 2, 2)
    """

    def __init__(self, faces: Sequence[int]) -> None:
        super().__init__(0)
        if isinstance(faces, (str, bytes)) or not all(type(v) is int for v in faces):
            raise OwnDiceError("each die entered is a whole number")
        if len(faces) > MAX_ENTERED:
            raise OwnDiceError(f"{len(faces):,} dice entered; at most {MAX_ENTERED:,} can be")
        #: Every face entered, in order.
        self.faces: tuple[int, ...] = tuple(faces)
        #: How many of them rolls have taken so far.
        self.used = 0

    def copy(self) -> EnteredDice:
        """A queue of the same faces at the same position (to try a move again)."""
        other = EnteredDice(self.faces)
        other.used = self.used
        return other

    @property
    def taken(self) -> tuple[int, ...]:
        """The faces rolls have taken so far."""
        return self.faces[:self.used]

    def roll_entered(self, expr: str) -> Roll:
        """The engine's roll of ``expr`` from the next faces (what
        [roll][companion.dice.roller.roll] does when given this generator)."""
        tree, _ = compiled(expr)
        draws, taken = _split(expr, _terms(tree), self.faces, offset=self.used, queue=True)
        result = _roll_from_draws(expr, draws)
        self.used += taken
        return result

    def randint(self, a: int, b: int) -> int:
        """The next face, which must lie between ``a`` and ``b``."""
        if a > b:
            raise ValueError(f"empty range for randint({a}, {b})")
        kind = f"a d{b}" if a == 1 else f"a die showing {a} to {b}"
        if self.used >= len(self.faces):
            raise OwnDiceError(f"this roll needs another {kind[2:]}: enter it")
        value = self.faces[self.used]
        if not a <= value <= b:
            shows = f"shows 1 to {b}" if a == 1 else f"must show {a} to {b}"
            name = f"a d{b}" if a == 1 else "it"
            raise OwnDiceError(f"die {self.used + 1}: {name} {shows}, not {value}")
        self.used += 1
        return value

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        """Like ``random.randrange``: the next face, checked to be one it can give."""
        if stop is None:
            start, stop = 0, start
        if step != 1:
            self._refuse("a roll in steps")
        return self.randint(start, stop - 1)

    def random(self) -> float:
        """Refused: a raw fraction is not a die."""
        self._refuse("a roll drawing a fraction")

    def getrandbits(self, k: int) -> int:
        """Refused: random bits (a shuffle, a pick from a list) are not a die."""
        self._refuse("a shuffle or a pick from a list")

    def _refuse(self, what: str) -> NoReturn:
        raise OwnDiceError(f"{what} cannot be made with real dice: roll it in the app")

    def finish(self) -> None:
        """Refuse faces entered but not used by the roll."""
        if self.used < len(self.faces):
            raise OwnDiceError(f"{len(self.faces)} dice entered, the roll used {self.used}")
