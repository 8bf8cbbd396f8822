"""Whose action a move on a shared tracker is: the helper behind the trackers'
[Tracker.acting_for][companion.state.Tracker.acting_for].

A shared tracker (a fight, a journey, a card table) names, for each move a player takes
for their own character, the argument that names that character; every other move is the
table's own (the GM's). [named_actor][companion.acting.named_actor] reads that argument.

>>> named_actor({"bet": "player"}, "bet", {"player": "Ash", "amount": 2})
('Ash',)
>>> named_actor({"bet": "player"}, "deal", {}) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["named_actor"]


def named_actor(own: Mapping[str, str], move: str, arguments: Mapping[str, Any], *,
                table: Iterable[str] = ()) -> tuple[str, ...] | None:
    """The character a player's own move ``move`` acts for: the text of its argument
    ``own[move]``; ``None`` (the table's move) when ``move`` is not in ``own``, the
    argument names nobody, or it names one of ``table`` (the GM, the banker)."""
    argument = own.get(move)
    if argument is None:
        return None
    who = arguments.get(argument)
    if not isinstance(who, str) or not who.strip() or who in set(table):
        return None
    return (who,)
