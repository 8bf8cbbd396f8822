"""The one rule for people's and campaigns' names (issue 33), standard library only.

**Who is who** ([same_name][companion.names.same_name]): two names are one person when they
are equal after Unicode NFKC, case folding and collapsing spaces
([name_key][companion.names.name_key]). A seat looked up by a hub login's name, the "is
this my character" check and who may see a self roll all ask it, so the hub's ``ash`` is
the seat ``Ash`` and plays the party member ``Ash``.

**What may not be made** ([looks_alike][companion.names.looks_alike]): a new campaign,
party member or seat whose name *looks* like an existing one's is refused, naming the
existing one. Looking alike is equality of the [name_skeleton][companion.names.name_skeleton]:
the name key with accents dropped and letters of other scripts that look like Latin ones
(Cyrillic ``а``, Greek ``ο``...) read as those, plus a few shapes (``rn`` as ``m``, ``0`` as
``o``, ``1`` and ``l`` as ``i``). Identity never uses the skeleton: a hub login named with a
Cyrillic ``а`` is not the seat ``Ash``; it cannot be made next to it either.

>>> same_name("ash", "Ａｓｈ "), same_name("Ash", "Asha"), same_name("Аsh", "Ash")
(True, False, False)
>>> looks_alike("Tuesdаy", "Tuesday"), looks_alike("TUESDAY", "Tuesday")
(True, True)
>>> looks_alike("Tuesday", "Thursday")
False
>>> lookalike_in("Bryn", ["Ash", "Bryn "])
'Bryn '
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

__all__ = ["lookalike_in", "looks_alike", "name_key", "name_skeleton", "same_name"]


def name_key(name: str) -> str:
    """The form two names are compared in: Unicode NFKC, case folded (``ß`` is ``ss``),
    spaces collapsed. Full-width ``Ａｓｈ``, ``ASH`` and ``ash`` are one name."""
    folded = unicodedata.normalize("NFKC", str(name)).casefold()
    # Folding can denormalise (NFKC(casefold(NFKC(x))) is the stable form).
    return " ".join(unicodedata.normalize("NFKC", folded).split())


def same_name(one: str, other: str) -> bool:
    """Whether two names name the same person (see [name_key][companion.names.name_key])."""
    key = name_key(one)
    return bool(key) and key == name_key(other)


#: Lower-case letters (names are case folded first) that look like a Latin letter, from
#: Unicode's confusables list: Cyrillic, Greek and a few others, plus digits.
_LOOKS_LIKE = {
    # Cyrillic
    "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "н": "h",
    "і": "i", "ї": "i", "ј": "j", "к": "k", "ӏ": "i", "м": "m", "о": "o", "р": "p",
    "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ԝ": "w", "х": "x", "ү": "y", "ɡ": "g",
    # Greek
    "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i", "κ": "k", "μ": "m",
    "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "ϳ": "j",
    # Latin shapes and digits
    "ı": "i", "l": "i", "1": "i", "|": "i", "0": "o", "5": "s", "ſ": "s",
}
_TABLE = str.maketrans(_LOOKS_LIKE)
#: Letter pairs that read as one letter at a glance.
_PAIRS = (("rn", "m"), ("vv", "w"))


def name_skeleton(name: str) -> str:
    """How a name looks: its [name_key][companion.names.name_key] without accents or
    invisible characters, with look-alike letters read as Latin ones (see the module)."""
    decomposed = unicodedata.normalize("NFD", name_key(name))
    bare = "".join(c for c in decomposed
                   if unicodedata.category(c) not in ("Mn", "Me", "Cf"))
    for pair, one in _PAIRS:
        bare = bare.replace(pair, one)
    return " ".join(bare.translate(_TABLE).split())


def looks_alike(one: str, other: str) -> bool:
    """Whether two names look the same to a person (equal skeletons)."""
    skeleton = name_skeleton(one)
    return bool(skeleton) and skeleton == name_skeleton(other)


def lookalike_in(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that looks like ``name`` (itself included), or ``None``."""
    skeleton = name_skeleton(name)
    if not skeleton:
        return None
    return next((n for n in names if name_skeleton(n) == skeleton), None)
