"""The project's error types.

Every error a player can cause (a malformed expression, an absurd dice count, a corrupt
state file, an illegal move) is a [CompanionError][companion.errors.CompanionError] whose
message is one line that names the problem and where it is. The CLI prints it as
``error: <message>`` and exits 2; the widgets show it beside the control that caused it.
"""

from __future__ import annotations

import re

#: The most characters of a player's input an error message quotes (see
#: [quoted][companion.errors.quoted]).
ECHO_LIMIT = 40


def clipped(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, ending with "… (N characters)" when cut (the
    unquoted form of [quoted][companion.errors.quoted], for text shown as it is).

    >>> clipped("2d6 = [3, 4] = 7")
    '2d6 = [3, 4] = 7'
    >>> clipped("x" * 5000, 10)
    'xxxxxxxxxx… (5,000 characters)'
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quoted(text: str, position: int | None = None, *, limit: int = ECHO_LIMIT) -> str:
    """``text`` quoted for an error message, cut to about ``limit`` characters.

    Short input is quoted whole (``'2d6+(3))'``). Longer input keeps the part around
    ``position`` (the 0-based index of the problem; the start when ``None``) and says
    where that part is and how long the whole is, so the message stays one readable line
    however large the input:

    >>> quoted("2d6+(3))", 7)
    "'2d6+(3))'"
    >>> quoted("1" * 50000 + "x" + "2" * 50000, 50000, limit=10)
    "'11111x2222' (around column 50000 of 100,001 characters)"
    >>> quoted("y" * 5000)
    "'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy' (the first 40 of 5,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    if position is None:
        return f"{text[:limit]!r} (the first {limit} of {len(text):,} characters)"
    start = max(0, min(position - limit // 2, len(text) - limit))
    return f"{text[start:start + limit]!r} (around column {position} of {len(text):,} characters)"


#: A quoted piece of a message, or a word, too long to echo whole (twice the limit).
_LONG = 2 * ECHO_LIMIT + 1
#: A quote opens only after a non-word character and closes only before one: the
#: apostrophe of "Mira's" or "can't" never pairs with a later quote, which would clip the
#: words between them (the reason of the error) as if they were an echo.
_LONG_ECHO = re.compile(rf"(?<!\w)'([^']{{{_LONG},}})'(?!\w)|(?<!\w)\"([^\"]{{{_LONG},}})\"(?!\w)"
                        rf"|(\S{{{_LONG},}})")


def clip_echoes(message: str) -> str:
    """``message`` with every long quoted piece (or long word) cut to a readable length.

    For messages built by code that quotes a whole value without knowing where the problem
    is (argparse's ``invalid choice: '…'``, a saved field's ``got '…'``):

    >>> clip_echoes("bad size '" + "x" * 5000 + "' (known: tiny)").replace("x" * 40, "x…x")
    "bad size 'x…x' (the first 40 of 5,000 characters) (known: tiny)"

    An apostrophe is not a quote, so the reason after it stays:

    >>> msg = "Mira's table: " + "a " * 50 + "can't be read: it is damaged"
    >>> clip_echoes(msg) == msg
    True
    """

    def clip(match: re.Match[str]) -> str:
        piece = next(g for g in match.groups() if g is not None)
        if match.group(3) is not None:
            return clipped(piece)
        return quoted(piece)

    return _LONG_ECHO.sub(clip, message)


class CompanionError(Exception):
    """Base class: a problem with the player's input, told in one line."""


class DiceError(CompanionError):
    """A dice expression that cannot be parsed, evaluated or rolled."""


class DiceSyntaxError(DiceError):
    """A dice expression that does not parse.

    ``position`` is the 0-based index of the offending character, and the message's
    column is that same number (the count of characters before the problem), as in the
    contract's example ``unexpected ')' at column 7 in '2d6+(3))'``.
    """

    def __init__(self, message: str, expr: str, position: int) -> None:
        self.expr = expr
        self.position = position
        self.reason = message
        super().__init__(f"{message} at column {position} in {quoted(expr, position)}")


class DiceLimitError(DiceError):
    """An expression that would hang or exhaust memory (too many dice, faces, depth...)."""


class OddsTooCostlyError(DiceError):
    """Exact odds would cost too much; the message suggests ``simulate`` instead."""


class TableError(CompanionError):
    """A random table whose data is malformed, incomplete or overlapping, or an unknown table."""


class RuleError(CompanionError):
    """A move the rules forbid. The message says which rule forbids it."""


class StateError(CompanionError):
    """A saved state that is corrupt or hand-edited wrongly; the message names the field.

    A saved value the message quotes is cut to a readable length (a save can hold a
    100,000-character string where a name belongs).
    """

    def __init__(self, message: str) -> None:
        super().__init__(clip_echoes(message))


class UnknownNameError(CompanionError):
    """A ruleset, table or other named thing that does not exist."""
