"""The project's error types.

Every error a player can cause (a malformed expression, an absurd dice count, a corrupt
state file, an illegal move) is a [CompanionError][companion.errors.CompanionError] whose message is one line that
names the problem and where it is. The CLI prints it as ``error: <message>`` and exits 2;
the widgets show it beside the control that caused it.
"""

from __future__ import annotations


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
        super().__init__(f"{message} at column {position} in {expr!r}")


class DiceLimitError(DiceError):
    """An expression that would hang or exhaust memory (too many dice, faces, depth...)."""


class OddsTooCostlyError(DiceError):
    """Exact odds would cost too much; the message suggests ``simulate`` instead."""


class TableError(CompanionError):
    """A random table whose data is malformed, incomplete or overlapping, or an unknown table."""


class RuleError(CompanionError):
    """A move the rules forbid. The message says which rule forbids it."""


class StateError(CompanionError):
    """A saved state that is corrupt or hand-edited wrongly; the message names the field."""


class UnknownNameError(CompanionError):
    """A ruleset, table or other named thing that does not exist."""
