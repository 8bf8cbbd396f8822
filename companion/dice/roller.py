"""Rolling: walk the syntax tree with a seedable RNG and keep every detail.

Randomness: ``random.Random(seed)`` (Mersenne Twister, identical in CPython and Pyodide).
A face of a die with ``k`` faces is ``low + floor(random() * k)``, as
``random.choices`` draws; the same seed gives the same roll on every platform.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from companion.dice import limits
from companion.dice.nodes import (
    BinOp,
    Condition,
    Const,
    Dice,
    FaceRanges,
    Group,
    Keep,
    Labeled,
    Modifiers,
    Neg,
    Node,
    clamp_of,
    explode_span,
    explodes_on,
    face_range,
    spine,
)
from companion.dice.parse import parse, require_text
from companion.errors import DiceError, DiceLimitError

KEPT = "kept"
DROPPED = "dropped"
REROLLED = "rerolled"
EXPLODED = "exploded"
SUCCESS = "success"
CAPPED = "capped"

_KEPT = frozenset({KEPT})
_SYSTEM = random.Random()

SEED_BOUND = 2**53
"""Every seed the project draws is below this: a JSON reader that holds numbers as doubles
(a browser) keeps it exact. Seeds given by a player may be larger; drawn ones never are."""


class DrawnSeed(int):
    """A seed a page drew from the system's entropy for want of one (the apps' default
    seed source). In a campaign the table session draws the sitting's seed instead
    ([companion.sittings][]); a plain ``int`` from a page's source is a seed the page
    picked, logged as it is (and refused by ``verify`` in a sitting)."""

    __slots__ = ()


class SeededRandom(random.Random):
    """A ``random.Random(seed)`` that says which seed it was made from (``seed_value``):
    the table session hands one to a rule roll, so an app that records the seed with its
    move records the roll's own (in a sitting, the derived one), never one it drew itself.

    >>> SeededRandom(7).seed_value, SeededRandom(7).random() == random.Random(7).random()
    (7, True)
    """

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seed_value = seed


def draw_seed(rng: random.Random | None = None) -> int:
    """A fresh seed below `SEED_BOUND`, from ``rng`` or else the system's entropy.

    >>> draw_seed(random.Random(1)) < SEED_BOUND
    True
    """
    return (rng or random.SystemRandom()).randrange(SEED_BOUND)


class Die:
    """One die as rolled.

    ``state`` holds flags: ``kept`` (counts), ``dropped`` (removed by keep/drop),
    ``rerolled`` (replaced by a reroll; does not count), ``exploded`` (triggered an extra
    die), ``success`` (meets the success target), ``capped`` (explosions stopped at the cap).
    """

    __slots__ = ("label", "sides", "state", "value")

    def __init__(
        self,
        sides: int | Literal["F", "%"],
        value: int,
        state: frozenset[str] = _KEPT,
        label: str | None = None,
    ) -> None:
        self.sides = sides
        self.value = value
        self.state = state
        self.label = label

    @property
    def counted(self) -> bool:
        return KEPT in self.state

    def to_dict(self) -> dict[str, object]:
        return {
            "sides": self.sides,
            "value": self.value,
            "state": sorted(self.state),
            "label": self.label,
        }

    def __repr__(self) -> str:
        return f"Die(d{self.sides}={self.value}, {'/'.join(sorted(self.state))})"


@dataclass(slots=True)
class DiceGroup:
    """The dice one ``NdX`` term rolled, in order, and the value that term contributed."""

    node: Dice
    dice: list[Die]
    value: int

    def __repr__(self) -> str:
        return f"<DiceGroup {_short(str(self.node))}: {len(self.dice):,} dice = {self.value}>"


def _short(text: str, width: int = 40) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


@dataclass(slots=True)
class Roll:
    """A rolled expression with every detail kept.

    ``total``; ``dice`` (every die, rerolled and dropped ones included); ``labels`` (subtotal
    per ``[label]``); ``notes`` (caps that were hit); ``str()`` is one line such as
    ``4d6kh3 = [6, 5, 3, ~~1~~] = 14``. ``seed`` is the seed it was rolled with (``None``
    when its dice came from a generator or were entered); the ``repr`` shows it, but
    ``to_dict`` leaves it out, because a hidden roll's dict must not give away its seed.

    >>> roll("4d6kh3", seed=1)
    <Roll 4d6kh3 = 13, seed 1>
    >>> roll("4d6kh3", rng=random.Random(1))
    <Roll 4d6kh3 = 13>
    >>> "seed" in roll("1d6", seed=1).to_dict()
    False
    """

    expr: str
    total: int
    groups: list[DiceGroup]
    labels: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    tree: Node | None = None
    # Where the dice came from, not what they show: equal rolls are equal however made.
    seed: int | None = field(default=None, compare=False)

    @property
    def dice(self) -> list[Die]:
        return [d for g in self.groups for d in g.dice]

    def __str__(self) -> str:
        from companion.dice.render import roll_text

        return roll_text(self)

    def __int__(self) -> int:
        return self.total

    def __repr__(self) -> str:
        seed = "" if self.seed is None else f", seed {self.seed}"
        return f"<Roll {_short(self.expr)} = {self.total}{seed}>"

    def _repr_html_(self) -> str:
        from companion.dice.render import roll_html

        return roll_html(self)

    def to_dict(self) -> dict[str, object]:
        """JSON-able: ``expr``, ``total``, ``dice``, ``labels``, ``notes``, ``text``."""
        return {
            "expr": self.expr,
            "total": self.total,
            "dice": [d.to_dict() for d in self.dice],
            "labels": dict(self.labels),
            "notes": list(self.notes),
            "text": str(self),
        }


def make_rng(seed: int | None, rng: random.Random | None) -> random.Random:
    """``rng`` if given, else ``random.Random(seed)``, else the shared unseeded generator."""
    if rng is not None:
        if not isinstance(rng, random.Random):
            raise DiceError(f"rng must be a random.Random, not {type(rng).__name__}")
        return rng
    if seed is not None:
        if not isinstance(seed, int):
            raise DiceError(f"a seed must be a whole number, not {seed!r}")
        return random.Random(seed)
    return _SYSTEM


def reseed_shared() -> None:
    """Fresh entropy for the shared unseeded generator and for ``random``'s own.

    A process image restored more than once (the static apps resume a Pyodide memory
    snapshot on every page) would otherwise make the same unseeded rolls on every page.

    >>> before = make_rng(None, None).getstate()
    >>> reseed_shared()
    >>> make_rng(None, None).getstate() != before
    True
    """
    _SYSTEM.seed()
    random.seed()


def roll(expr: str, *, seed: int | None = None, rng: random.Random | None = None) -> Roll:
    """Roll ``expr`` once. Same ``seed`` (or same-state ``rng``), same result.

    An ``rng`` holding real dice ([EnteredDice][companion.dice.physical.EnteredDice]) gives
    the roll of the faces entered, scored by the same rules.

    >>> str(roll("4d6kh3", seed=1))
    '4d6kh3 = [~~1~~, 6, 5, 2] = 13'
    """
    if type(expr) is not str:
        require_text(expr)
    if rng is not None and type(rng) is not random.Random:
        entered = entered_dice(rng)
        if entered is not None:
            return entered(expr)
    tree, program = compiled(expr)
    state = RollState(make_rng(seed, rng).random)
    total = program(state)
    # A given rng wins over a seed (make_rng), so the roll keeps the seed only without one.
    return Roll(expr, total, state.groups, state.labels, state.notes, tree,
                seed if rng is None else None)


def entered_dice(rng: random.Random) -> Callable[[str], Roll] | None:
    """The "roll this expression from the faces entered" of an rng that holds real dice
    ([EnteredDice][companion.dice.physical.EnteredDice]), else ``None``."""
    hook = getattr(rng, "roll_entered", None)
    return hook if callable(hook) else None


Program = Callable[["RollState"], int]


@lru_cache(maxsize=1024)
def compiled(expr: str) -> tuple[Node, Program]:
    """The tree of ``expr`` and a closure that rolls it (cached by text)."""
    tree = parse(expr)
    return tree, compile_node(tree, None)


class RollState:
    """What one roll accumulates: dice groups, label subtotals, notes, dice counts."""

    __slots__ = ("dice_asked", "groups", "labels", "notes", "random", "rolled")

    def __init__(self, rand: Callable[[], float]) -> None:
        self.random = rand
        self.groups: list[DiceGroup] = []
        self.labels: dict[str, int] = {}
        self.notes: list[str] = []
        self.rolled = 0
        self.dice_asked = 0

    def count_rolled(self, n: int) -> None:
        self.rolled += n
        if self.rolled > limits.MAX_ROLLED_DICE:
            raise DiceLimitError(
                f"the roll needed more than {limits.MAX_ROLLED_DICE:,} dice "
                "(counting rerolls and explosions)"
            )


def compile_node(node: Node, label: str | None) -> Program:
    """A closure rolling ``node``; labels are resolved now, not on every roll."""
    if isinstance(node, Const):
        value = node.value
        return lambda st: value
    if isinstance(node, Group):
        return compile_node(node.inner, label)
    if isinstance(node, Neg):
        inner = compile_node(node.operand, label)
        return lambda st: -inner(st)
    if isinstance(node, Labeled):
        inner = compile_node(node.inner, node.label)
        name = node.label

        def labeled(st: RollState) -> int:
            value = inner(st)
            st.labels[name] = st.labels.get(name, 0) + value
            return value

        return labeled
    if isinstance(node, BinOp):
        first, steps = spine(node)
        if len(steps) > 8:
            return _compile_chain(compile_node(first, label), steps, label)
        left = compile_node(node.left, label)
        right = compile_node(node.right, label)
        if node.op == "+":
            return lambda st: left(st) + right(st)
        if node.op == "-":
            return lambda st: left(st) - right(st)
        if node.op == "*":
            return lambda st: left(st) * right(st)
        where = node.pos

        def divide(st: RollState) -> int:
            a, b = left(st), right(st)
            if b == 0:
                raise DiceError(f"division by zero at column {where}")
            return a // b

        return divide
    return _compile_dice(node, label)


def _compile_chain(
    first: Program, steps: list[tuple[str, Node, int]], label: str | None
) -> Program:
    """A long ``a + b - c ...`` chain folded in a loop (no recursion per term)."""
    compiled_steps = [(op, compile_node(right, label), pos) for op, right, pos in steps]

    def chain(st: RollState) -> int:
        value = first(st)
        for op, right, where in compiled_steps:
            b = right(st)
            if op == "+":
                value += b
            elif op == "-":
                value -= b
            elif op == "*":
                value *= b
            elif b == 0:
                raise DiceError(f"division by zero at column {where}")
            else:
                value //= b
        return value

    return chain


_DROPPED = frozenset({DROPPED})
_KEPT_SUCCESS = frozenset({KEPT, SUCCESS})
_REROLLED = frozenset({REROLLED})
_KEPT_EXPLODED = frozenset({KEPT, EXPLODED})
_KEPT_CAPPED = frozenset({KEPT, CAPPED})


def _compile_dice(node: Dice, label: str | None) -> Program:
    mods = node.mods
    where = node.pos
    static_count = node.count.value if isinstance(node.count, Const) else None
    count_program = None if static_count is not None else compile_node(node.count, label)
    static_sides: tuple[int, int, int | Literal["F", "%"]] | None = None
    sides_program: Program | None = None
    if isinstance(node.sides, str):
        low, high = face_range(node.sides)
        static_sides = (low, high, node.sides)
    elif isinstance(node.sides, Const):
        static_sides = (1, node.sides.value, node.sides.value)
    else:
        sides_program = compile_node(node.sides, label)
    simple = not mods.reroll and mods.explode is None and not mods.explode_max
    if not simple and static_count is not None and static_sides is not None:
        _record_budget(static_count, static_sides[0], static_sides[1], mods, where)
    clamp = clamp_of(mods) if mods.clamp_min is not None or mods.clamp_max is not None else None
    keep = mods.keep
    cond = mods.count
    if static_count is not None and static_sides is not None and simple:
        # The common case, bound into a closure with no per-roll checks: the parser has
        # already bounded static counts and sizes.
        low0, high0, shown0 = static_sides
        count0 = static_count
        if mods.plain and count0 == 1:
            k0 = high0 - low0 + 1

            def one_die(st: RollState) -> int:
                v = low0 + int(st.random() * k0)
                st.dice_asked += 1
                st.groups.append(DiceGroup(node, [Die(shown0, v, _KEPT, label)], v))
                return v

            return one_die

        def static_dice(st: RollState) -> int:
            st.dice_asked += count0
            group = DiceGroup(node, [], 0)
            st.groups.append(group)
            return _roll_simple(
                st, group, count0, low0, high0, shown0, label, clamp, keep, cond
            )

        return static_dice

    def roll_dice(st: RollState) -> int:
        if static_count is not None:
            count = static_count
        else:
            assert count_program is not None
            count = count_program(st)
            if count < 0:
                raise DiceError(f"cannot roll {count} dice (column {where})")
        st.dice_asked += count
        if st.dice_asked > limits.MAX_DICE:
            raise DiceLimitError(
                f"more than {limits.MAX_DICE:,} dice in one expression (column {where})"
            )
        shown: int | Literal["F", "%"]
        if static_sides is not None:
            low, high, shown = static_sides
        else:
            assert sides_program is not None
            high = sides_program(st)
            if high < 1:
                raise DiceError(f"a die cannot have {high} sides (column {where})")
            if high > limits.MAX_SIDES:
                raise DiceLimitError(
                    f"d{high:,} at column {where}; the limit is {limits.MAX_SIDES:,} sides"
                )
            low, shown = 1, high
        # Appended after the count and sides, so groups are in rendering order.
        group = DiceGroup(node, [], 0)
        st.groups.append(group)
        if simple:
            return _roll_simple(st, group, count, low, high, shown, label, clamp, keep, cond)
        return _roll_full(st, group, count, low, high, shown, label, where)

    return roll_dice


def _roll_simple(
    st: RollState,
    group: DiceGroup,
    count: int,
    low: int,
    high: int,
    shown: int | Literal["F", "%"],
    label: str | None,
    clamp: Callable[[int], int] | None,
    keep: Keep | None,
    cond: Condition | None,
) -> int:
    """Dice without rerolls or explosions: one draw per die, states known up front."""
    rand = st.random
    k = high - low + 1
    values = [low + int(rand() * k) for _ in range(count)]
    if clamp is not None:
        values = [clamp(v) for v in values]
    if keep is None:
        if cond is None:
            group.dice = [Die(shown, v, _KEPT, label) for v in values]
            group.value = sum(values)
            return group.value
        flags = [cond(v) for v in values]
        group.dice = [
            Die(shown, v, _KEPT_SUCCESS if f else _KEPT, label)
            for v, f in zip(values, flags, strict=True)
        ]
        group.value = sum(flags)
        return group.value
    n_kept, highest = keep.kept(count)
    ranked = sorted(range(count), key=values.__getitem__, reverse=highest)
    dropped = set(ranked[n_kept:])
    total = 0
    dice = []
    for i, v in enumerate(values):
        if i in dropped:
            dice.append(Die(shown, v, _DROPPED, label))
        elif cond is None:
            dice.append(Die(shown, v, _KEPT, label))
            total += v
        elif cond(v):
            dice.append(Die(shown, v, _KEPT_SUCCESS, label))
            total += 1
        else:
            dice.append(Die(shown, v, _KEPT, label))
    group.dice = dice
    group.value = total
    return total


@dataclass(frozen=True, slots=True)
class FaceFacts:
    """What rolling one die of ``low..high`` with some modifiers needs, worked out once per
    kind of die (not on every roll): the faces a reroll leaves, the explosion test, the
    clamp, and the expected number of dice one die records."""

    allowed: FaceRanges
    explode: Callable[[int], bool] | None
    always_explodes: bool
    clamp: Callable[[int], int]
    records_per_die: float


@lru_cache(maxsize=256)
def face_facts(low: int, high: int, mods: Modifiers) -> FaceFacts:
    """The [FaceFacts][companion.dice.roller.FaceFacts] of a die (cached)."""
    size = high - low + 1
    if mods.reroll and not mods.reroll_once:
        allowed = FaceRanges.allowed(low, high, mods.reroll)
        draws = min(size / max(len(allowed), 1), limits.MAX_REROLL_ATTEMPTS + 1.0)
    else:
        allowed = FaceRanges(((low, high),))
        if mods.reroll:
            draws = 1 + (size - len(FaceRanges.allowed(low, high, mods.reroll))) / size
        else:
            draws = 1.0
    span = explode_span(low, high, mods)
    booms = 0
    for lo, hi in allowed.ranges:
        if span is not None:
            booms += max(0, min(hi, span[1]) - max(lo, span[0]) + 1)
    q = booms / len(allowed) if len(allowed) else 0.0
    chain = min(1 / (1 - q), limits.MAX_EXPLOSIONS + 1.0) if q < 1 else 1.0
    return FaceFacts(
        allowed=allowed,
        explode=explodes_on(low, high, mods),
        always_explodes=allowed.within(span),
        clamp=clamp_of(mods),
        records_per_die=draws * chain,
    )


def _record_budget(count: int, low: int, high: int, mods: Modifiers, where: int) -> None:
    """Refuse, before rolling, dice expected to record more than MAX_ROLLED_DICE dice."""
    expected = count * face_facts(low, high, mods).records_per_die
    if expected > limits.MAX_ROLLED_DICE:
        sides = "F" if (low, high) == (-1, 1) else high
        raise DiceLimitError(
            f"{count}d{sides}{mods} at column {where} would roll about {expected:,.0f} dice "
            f"with its rerolls and explosions; the limit is {limits.MAX_ROLLED_DICE:,}"
        )


def _roll_full(
    st: RollState,
    group: DiceGroup,
    count: int,
    low: int,
    high: int,
    shown: int | Literal["F", "%"],
    label: str | None,
    where: int,
) -> int:
    """Dice with rerolls and/or explosions, each recorded as its own die."""
    mods = group.node.mods
    rand = st.random
    k = high - low + 1
    dice = group.dice
    rerolls = mods.reroll
    facts = face_facts(low, high, mods)
    allowed = facts.allowed if rerolls and not mods.reroll_once else None
    if allowed is not None and not len(allowed):
        raise DiceLimitError(
            f"reroll at column {where} matches every face of d{shown}, "
            "so it would reroll forever"
        )
    explode = facts.explode
    if facts.always_explodes:
        raise DiceLimitError(
            f"every face d{shown} can show explodes at column {where}, so it would never stop"
        )
    clamp = facts.clamp
    counted: list[Die] = []
    capped = False
    for _ in range(count):
        booms = 0
        while True:
            v = low + int(rand() * k)
            st.count_rolled(1)
            if rerolls:
                attempts = 0
                while any(c(v) for c in rerolls):
                    dice.append(Die(shown, v, _REROLLED, label))
                    attempts += 1
                    if mods.reroll_once:
                        v = low + int(rand() * k)
                        st.count_rolled(1)
                        break
                    if attempts >= limits.MAX_REROLL_ATTEMPTS:
                        # Same distribution as rerolling on, without the wait.
                        assert allowed is not None
                        v = allowed[int(rand() * len(allowed))]
                        break
                    v = low + int(rand() * k)
                    st.count_rolled(1)
            boom = explode is not None and explode(v)
            if boom and booms >= limits.MAX_EXPLOSIONS:
                capped = True
                die = Die(shown, clamp(v), _KEPT_CAPPED, label)
                dice.append(die)
                counted.append(die)
                break
            die = Die(shown, clamp(v), _KEPT_EXPLODED if boom else _KEPT, label)
            dice.append(die)
            counted.append(die)
            if not boom:
                break
            booms += 1
    if capped:
        st.notes.append(f"explosions stopped at {limits.MAX_EXPLOSIONS} per die (column {where})")
    if mods.keep is not None:
        n_kept, highest = mods.keep.kept(len(counted))
        ranked = sorted(range(len(counted)), key=lambda i: counted[i].value, reverse=highest)
        for i in ranked[n_kept:]:
            d = counted[i]
            d.state = (d.state - {KEPT}) | {DROPPED}
        counted = [d for d in counted if KEPT in d.state]
    if mods.count is not None:
        cond = mods.count
        total = 0
        for d in counted:
            if cond(d.value):
                d.state = d.state | {SUCCESS}
                total += 1
        group.value = total
    else:
        group.value = sum(d.value for d in counted)
    return group.value
