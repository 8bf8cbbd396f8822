"""One rule for names (issue 33): who is who is ``same_name`` everywhere; names that only
look alike (case, accents, Cyrillic or Greek letters) cannot be made next to each other."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from companion.names import looks_alike, name_skeleton, same_name
from companion.store.records import StoreError

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC_A = "\u0430"


@pytest.mark.parametrize("one, other", [
    ("Tuesday", "TUESDAY"), ("Tuesday", f"Tuesd{CYRILLIC_A}y"), ("Tuesday", " tuesday "),
    ("Ash", "\u0410sh"),  # Cyrillic capital А
    ("Mira", "M\u0456ra"),  # Cyrillic і
    ("Ophelia", "\u039fphelia"),  # Greek capital Ο
    ("Zoe", "Zoë"), ("Bryn", "Bryn\u200b"),  # an accent, an invisible space
    ("Lorn", "Lom"),  # rn reads as m
])
def test_lookalikes(one: str, other: str) -> None:
    assert looks_alike(one, other)


@pytest.mark.parametrize("one, other", [
    ("Tuesday", "Thursday"), ("Ash", "Asha"), ("Bryn", "Brin"), ("Mira", "Myra"),
])
def test_different_names(one: str, other: str) -> None:
    assert not looks_alike(one, other)
    assert name_skeleton(one) != name_skeleton(other)


def test_identity_never_uses_the_skeleton() -> None:
    # A hub login spelled with a Cyrillic letter is not the seat it looks like.
    assert same_name("ash", "ASH")
    assert not same_name("\u0430sh", "ash")
    assert looks_alike("\u0430sh", "ash")


def test_lookalike_campaigns_are_refused_naming_the_existing_one(tmp_path: Path) -> None:
    from companion.store import create_campaign
    from companion.store.db import Store, database_url
    from companion.store.memory import MemoryStore

    for store in (Store(database_url(str(tmp_path / "c.db"))), MemoryStore()):
        create_campaign(store, "Tuesday", ["cairn_srd"])
        for name in ("TUESDAY", f"Tuesd{CYRILLIC_A}y", "tuesday"):
            with pytest.raises(StoreError) as caught:
                create_campaign(store, name, ["cairn_srd"])
            line = str(caught.value)
            assert "'Tuesday' already exists" in line and repr(name) in line
            assert "\n" not in line
        create_campaign(store, "Thursday", ["cairn_srd"])  # a different name is fine
        assert [c.name for c in store.list_campaigns()] == ["Thursday", "Tuesday"]


def test_lookalike_party_members_and_seats_are_refused(tmp_path: Path) -> None:
    from companion.rulesets.cairn_srd.character import Character
    from companion.store import create_campaign
    from companion.store.db import Store, database_url
    from companion.store.seats import list_seats, make_seat

    store = Store(database_url(str(tmp_path / "c.db")))
    gm = create_campaign(store, "Tuesday", ["cairn_srd"], who="Mira", role="gm")
    gm.add("Ash", Character("Ash"))
    for name in ("ASH", f"{CYRILLIC_A.upper()}sh"):
        with pytest.raises(StoreError, match=f"already has 'Ash', and {name!r} looks"):
            gm.add(name, Character(name))
    assert [m.name for m in gm.party] == ["Ash"]
    make_seat(store, "Tuesday", "ash", "player")
    make_seat(store, "Tuesday", "ASH", "player")  # the same person: renewed, not a second
    with pytest.raises(StoreError, match=r"a seat named '(ash|ASH)' exists at Tuesday, and"):
        make_seat(store, "Tuesday", f"{CYRILLIC_A}sh", "player")
    seats = [s.who for s in list_seats(store, "Tuesday")]
    assert len(seats) == 2 and any(same_name(s, "ash") for s in seats)


#: Where two people's names are compared: each must use companion.names.same_name.
NAME_CHECKS = {
    "companion/store/seats.py": "seat lookup (secret or hub login)",
    "companion/widgets/table/binding.py": "the hub user's seat",
    "companion/store/permissions.py": "ownership of a move",
    # The campaign's parts (companion/store/_campaign/, split out of campaign.py).
    "companion/store/_campaign/permission_checks.py": "is this my character / record",
    "companion/store/_campaign/core.py": "the seat's proof is this seat's",
    "companion/store/_campaign/unit_of_work.py": "the seat the store checks",
    "companion/store/_campaign/seam.py": "a GM's move for another's character",
    "companion/fairplay.py": "who sees a self roll",
}


def _same_name_origin(path: Path) -> set[str]:
    """The modules ``same_name`` is imported from in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.module or "" for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and any(a.name == "same_name" for a in node.names)}


def test_one_function_decides_who_is_who_everywhere() -> None:
    import companion.names
    import companion.store.permissions

    # permissions re-exports the core's function: one object, not a copy.
    assert companion.store.permissions.same_name is companion.names.same_name
    for relative, what in NAME_CHECKS.items():
        origins = _same_name_origin(ROOT / relative)
        assert origins and origins <= {"companion.names", "companion.store.permissions"}, (
            f"{relative} ({what}) does not use the one name rule")
        source = (ROOT / relative).read_text(encoding="utf-8")
        assert "casefold()" not in source and ".lower() ==" not in source, relative
