"""Perception and detection: light, senses, concealment and cover.

Light has four levels: bright, dim (things in it are concealed), darkness (hidden) and
magical darkness (no mundane light lifts it; only creatures that specifically pierce it
see through, not darkvision). Senses (low-light vision, darkvision, tremorsense,
blindsight, truesight) work within a range. Concealed things impose -2 ongoing on
sight-based checks against them; hidden ones make you blinded for such checks;
undetected ones are treated as hidden and the GM rolls against a secret DC. Partial cover
gives -2 ongoing to attacks against you and +2 AC; total cover blocks direct targeting.

The entries are data (``data/rules.toml``); the sheet applies them
([Adventurer.build_check][companion.rulesets.monsters_and_magic.adventurer.Adventurer.build_check],
[Adventurer.take_cover][companion.rulesets.monsters_and_magic.adventurer.Adventurer.take_cover]).
The seed spells one sense "Tremmorsense";
the data uses the usual spelling.

>>> visibility("Dim Light")
'concealed'
>>> concealment_modifier("Concealed")
-2
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleError
from companion.rulesets.monsters_and_magic._data import entries

__all__ = [
    "CONCEALMENT",
    "COVER",
    "LIGHT",
    "SENSES",
    "concealment_modifier",
    "cover",
    "visibility",
]

LIGHT: dict[str, str] = entries("light")
SENSES: dict[str, str] = entries("senses")
CONCEALMENT: dict[str, dict[str, Any]] = entries("concealment")
COVER: dict[str, dict[str, Any]] = entries("cover")

_VISIBILITY = {"Bright Light": "seen", "Dim Light": "concealed", "Darkness": "hidden",
               "Magical Darkness": "hidden"}


def _find(text: str, known: dict[str, Any], what: str) -> str:
    for name in known:
        if name.lower() == text.strip().lower():
            return name
    raise RuleError(f"Perception and Detection: no {what} called {text!r} "
                    f"({', '.join(known)})")


def visibility(light: str) -> str:
    """How a creature or item in ``light`` counts to ordinary sight."""
    return _VISIBILITY[_find(light, LIGHT, "light level")]


def concealment_modifier(state: str) -> int:
    """The ongoing modifier to sight-based checks against something ``state``."""
    return int(CONCEALMENT[_find(state, CONCEALMENT, "concealment")]["modifier"])


def cover(kind: str) -> dict[str, Any]:
    """A cover entry: ``attack_modifier``, ``ac_bonus``, ``effect``."""
    return COVER[_find(kind, COVER, "cover")]
