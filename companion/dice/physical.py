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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from companion.dice import limits
from companion.dice.nodes import BinOp, Const, Dice, Group, Labeled, Neg, Node, face_range, spine
from companion.dice.parse import parse
from companion.dice.roller import Roll, RollState, compiled, face_facts
from companion.errors import DiceError, OddsTooCostlyError

__all__ = ["OWN_DICE", "OwnDiceError", "check_total", "dice_slots", "enter", "is_own",
           "takes_dice"]

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
    tree, program = compiled(expr)  # also refuses costly rerolls/explosions up front
    draws = _split(expr, _terms(tree), list(dice))
    feed = iter(draws)

    def draw() -> float:
        try:
            return next(feed)
        except StopIteration:  # pragma: no cover - the split follows the roller
            raise OwnDiceError(f"the dice entered for {expr} could not be read in order"
                               ) from None

    roll_state = RollState(draw)
    total = program(roll_state)
    if next(feed, None) is not None:  # pragma: no cover - the split follows the roller
        raise OwnDiceError(f"the dice entered for {expr} could not be read in order")
    return Roll(expr, total, roll_state.groups, roll_state.labels,
                [*roll_state.notes, OWN_DICE], tree)


def _split(expr: str, terms: list[tuple[Dice, int, int, int, Sides]],
           dice: list[int]) -> list[float]:
    """Check every entered face against the term that rolls it and turn each into the
    number the engine's ``random()`` must give to draw it (``low + floor(u * k)``)."""
    draws: list[float] = []
    taken = 0
    needed = sum(count for _, count, _, _, _ in terms)
    varies = any(t[0].mods.reroll or t[0].mods.explode is not None or t[0].mods.explode_max
                 for t in terms)
    more = " (and one more for each reroll or explosion)" if varies else ""

    def take(node: Dice, i: int, low: int, high: int, shown: Sides, why: str) -> int:
        nonlocal taken
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
    if taken < len(dice):
        faces = " with these faces" if varies else ""
        raise OwnDiceError(f"{expr} takes {taken} dice{faces}; {len(dice)} entered")
    return draws
