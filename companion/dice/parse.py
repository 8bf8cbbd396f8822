"""Dice notation: a scannerless recursive-descent parser that keeps positions.

Grammar (spaces allowed between tokens; ``d``, ``F``, modifiers case-insensitive)::

    expr    := term (("+" | "-") term)*
    term    := unary (("*" | "/") unary)*
    unary   := ("-" | "+") unary | postfix
    postfix := primary ["[" label "]"]
    primary := INT [dice] | dice | "(" expr ")" [dice]
    dice    := ("d" | "D") sides modifier*
    sides   := INT | "%" | "F" | "(" expr ")"
    modifier:= ("kh"|"kl"|"dh"|"dl"|"k") [INT] | ("r"|"ro") [cmp] INT | "!" [cmp INT]
             | "min" INT | "max" INT | cmp INT
    cmp     := ">=" | ">" | "<=" | "<" | "="

Parsed trees are cached by text, so rolling the same expression twice parses once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from companion.dice import limits
from companion.dice.nodes import (
    BinOp,
    CompareOp,
    Condition,
    Const,
    Dice,
    Group,
    Keep,
    Labeled,
    Modifiers,
    Neg,
    Node,
)
from companion.errors import DiceLimitError, DiceSyntaxError

_CMP_OPS: tuple[CompareOp, ...] = (">=", "<=", ">", "<", "=")


@lru_cache(maxsize=1024)
def parse(expr: str) -> Node:
    """The syntax tree of ``expr``; raises DiceSyntaxError / DiceLimitError."""
    require_text(expr)
    if len(expr) > limits.MAX_EXPR_CHARS:
        raise DiceLimitError(
            f"expression is {len(expr):,} characters long; the limit is {limits.MAX_EXPR_CHARS:,}"
        )
    return _Parser(expr).parse()


def require_text(expr: object) -> None:
    """Refuse a non-text expression with the same error contract as a malformed one."""
    if not isinstance(expr, str):
        shown = repr(expr)
        raise DiceSyntaxError(
            f"a dice expression must be text, not {type(expr).__name__}",
            shown if len(shown) <= 40 else shown[:37] + "...",
            0,
        )


def _describe(ch: str) -> str:
    return "end of expression" if ch == "" else repr(ch)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.depth = 0
        self.dice_bound = 0

    # -- scanning -------------------------------------------------------------------------
    def _skip(self) -> None:
        text, i = self.text, self.i
        while i < len(text) and text[i] in " \t":
            i += 1
        self.i = i

    def _peek(self, n: int = 1) -> str:
        self._skip()
        return self.text[self.i : self.i + n]

    def _accept(self, token: str) -> bool:
        if self._peek(len(token)).lower() == token.lower():
            self.i += len(token)
            return True
        return False

    def _fail(self, message: str | None = None, at: int | None = None) -> DiceSyntaxError:
        self._skip()
        pos = self.i if at is None else at
        if message is None:
            ch = self.text[pos : pos + 1]
            message = f"unexpected {_describe(ch)}"
        return DiceSyntaxError(message, self.text, pos)

    def _int(self, what: str) -> int:
        self._skip()
        start = self.i
        text = self.text
        while self.i < len(text) and text[self.i].isdigit() and text[self.i].isascii():
            self.i += 1
        if self.i == start:
            ch = text[start : start + 1]
            raise self._fail(f"expected {what}, found {_describe(ch)}", start)
        digits = text[start : self.i]
        if len(digits) > 9:
            raise DiceLimitError(
                f"number {digits[:12]}{'...' if len(digits) > 12 else ''} at column {start}"
                f" is too large"
            )
        return int(digits)

    def _signed_int(self, what: str) -> int:
        if self._accept("-"):
            return -self._int(what)
        return self._int(what)

    # -- grammar --------------------------------------------------------------------------
    def parse(self) -> Node:
        if self._peek() == "":
            raise self._fail("empty dice expression", 0)
        node = self._expr()
        if self._peek() != "":
            raise self._fail()
        return node

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > limits.MAX_DEPTH:
            raise DiceLimitError(
                f"expression nests deeper than {limits.MAX_DEPTH} levels at column {self.i}"
            )

    def _expr(self) -> Node:
        node = self._term()
        while True:
            ch = self._peek()
            if ch in ("+", "-"):
                pos = self.i
                self.i += 1
                op: Literal["+", "-"] = "+" if ch == "+" else "-"
                node = BinOp(op, node, self._term(), pos)
            else:
                return node

    def _term(self) -> Node:
        node = self._unary()
        while True:
            ch = self._peek()
            if ch in ("*", "/"):
                pos = self.i
                self.i += 1
                op: Literal["*", "/"] = "*" if ch == "*" else "/"
                node = BinOp(op, node, self._unary(), pos)
            else:
                return node

    def _unary(self) -> Node:
        ch = self._peek()
        if ch in ("-", "+"):
            pos = self.i
            self.i += 1
            self._enter()
            operand = self._unary()
            self.depth -= 1
            return Neg(operand, pos) if ch == "-" else operand
        return self._postfix()

    def _postfix(self) -> Node:
        pos = self.i
        node = self._primary()
        if self._peek() == "[":
            start = self.i
            close = self.text.find("]", start + 1)
            if close < 0:
                raise self._fail("unclosed label '['", start)
            label = self.text[start + 1 : close].strip()
            if not label:
                raise self._fail("empty label '[]'", start)
            if "[" in label:
                raise self._fail("unexpected '[' inside a label", self.text.index("[", start + 1))
            if any(not ch.isprintable() for ch in label):
                raise self._fail("a label cannot hold control characters", start)
            self.i = close + 1
            node = Labeled(node, label, pos)
        return node

    def _primary(self) -> Node:
        ch = self._peek()
        pos = self.i
        if ch == "(":
            self.i += 1
            self._enter()
            inner = self._expr()
            if not self._accept(")"):
                raise self._fail("expected ')'" if self._peek() == "" else None)
            self.depth -= 1
            node: Node = Group(inner, pos)
            if self._peek() in ("d", "D"):
                return self._dice(node, pos)
            return node
        if ch.isdigit() and ch.isascii():
            value = self._int("a number")
            if self._peek() in ("d", "D"):
                return self._dice(Const(value, pos), pos)
            return Const(value, pos)
        if ch in ("d", "D"):
            return self._dice(Const(1, pos), pos)
        if ch == "":
            raise self._fail("expression ends too early")
        raise self._fail()

    def _dice(self, count: Node, pos: int) -> Dice:
        self.i += 1  # the 'd'
        ch = self._peek()
        sides: Node | Literal["F", "%"]
        if ch == "%":
            self.i += 1
            sides = "%"
        elif ch in ("F", "f"):
            self.i += 1
            sides = "F"
        elif ch == "(":
            start = self.i
            self.i += 1
            self._enter()
            inner = self._expr()
            if not self._accept(")"):
                raise self._fail("expected ')'" if self._peek() == "" else None)
            self.depth -= 1
            sides = Group(inner, start)
        else:
            at = self.i
            n = self._int("the number of sides after 'd'")
            if n < 1:
                raise self._fail("a die needs at least 1 side", at)
            if n > limits.MAX_SIDES:
                raise DiceLimitError(
                    f"d{n} at column {at} has more than {limits.MAX_SIDES:,} sides"
                )
            sides = Const(n, at)
        if isinstance(count, Const):
            self.dice_bound += count.value
            if self.dice_bound > limits.MAX_DICE:
                raise DiceLimitError(
                    f"more than {limits.MAX_DICE:,} dice in one expression "
                    f"(at column {pos})"
                )
        return Dice(count, sides, self._modifiers(), pos)

    def _cmp(self) -> CompareOp | None:
        self._skip()
        text, i = self.text, self.i
        first = text[i : i + 1]
        if first not in ("<", ">", "="):
            return None
        for op in _CMP_OPS:
            if text.startswith(op, i):
                self.i = i + len(op)
                return op
        return None

    def _modifiers(self) -> Modifiers:
        reroll: list[Condition] = []
        reroll_once: bool | None = None
        explode: Condition | None = None
        explode_max = False
        clamp_min: int | None = None
        clamp_max: int | None = None
        keep: Keep | None = None
        count: Condition | None = None
        seen: set[str] = set()

        def once(kind: str, at: int) -> None:
            if kind in seen:
                raise self._fail(f"'{kind}' given twice", at)
            seen.add(kind)

        while True:
            self._skip()
            at = self.i
            if at >= len(self.text) or self.text[at] in "+-*/)[":
                break  # the common case: no (more) modifiers
            low = self.text[at : at + 3].lower()
            if low.startswith("min"):
                once("min", at)
                self.i += 3
                clamp_min = self._signed_int("a number after 'min'")
            elif low.startswith("max"):
                once("max", at)
                self.i += 3
                clamp_max = self._signed_int("a number after 'max'")
            elif low[:2] in ("kh", "kl", "dh", "dl") or low[:1] == "k":
                once("keep/drop", at)
                is_keep = low[0] == "k"
                two = low[:2] in ("kh", "kl", "dh", "dl")
                highest = (low[1] != "l") if two else True
                self.i += 2 if two else 1
                n = self._int("a count") if self._peek().isdigit() else 1
                keep = Keep(is_keep, highest, n)
            elif low[:1] == "d":
                raise self._fail("expected 'dh' or 'dl' (drop highest/lowest)", at)
            elif low[:1] == "r":
                once_flag = low[:2] == "ro"
                self.i += 2 if once_flag else 1
                if reroll_once is not None and reroll_once != once_flag:
                    raise self._fail("cannot mix 'r' and 'ro' on the same dice", at)
                reroll_once = once_flag
                op = self._cmp() or "="
                reroll.append(Condition(op, self._signed_int("a face to reroll")))
            elif low[:1] == "!":
                once("!", at)
                self.i += 1
                op2 = self._cmp()
                if op2 is None:
                    explode_max = True
                else:
                    explode = Condition(op2, self._signed_int("a face to explode on"))
            elif (op3 := self._cmp()) is not None:
                once("success count", at)
                count = Condition(op3, self._signed_int("a target number"))
            else:
                break
        return Modifiers(
            reroll=tuple(reroll),
            reroll_once=bool(reroll_once),
            explode=explode,
            explode_max=explode_max,
            clamp_min=clamp_min,
            clamp_max=clamp_max,
            keep=keep,
            count=count,
        )
