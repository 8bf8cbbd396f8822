"""The party of a campaign in each ruleset's own model: listing, adding and editing.

Each ruleset's [PartyRules][companion.widgets.table.party.PartyRules] says which numbers a
member has (boxes), how a new member is made (the ruleset's own constructor, which checks
them) and how an edit changes an existing one (through the campaign: one stored change).

- Cairn: a ``Character`` (name, STR, DEX, CTRL, Guard, Armor).
- Monsters & Magic: an ``Adventurer`` (name, Focus, Power, Cunning, Luck, max HP, AC; threads
  follow from Luck).
- Plot points: a player in the table's session (the GM is the session's GM).
- 5e: a caster's ``SpellPoints`` (class level, caster kind) or a creature's ``DeathRecord``,
  each with a Hit Dice record "Hit Dice: NAME" (``HitDice``: level, max HP, Hit Die, CON
  modifier) that the Hit Dice app drives; a member who leaves takes their records along.
- Miasma: a character of the psychosis tracker (level, stress).

- Editing a member's numbers is the ruleset's own move, stored like any other (and undone
  like one): [Character.set_maxima][companion.rulesets.cairn_srd.character.Character.set_maxima],
  [Adventurer.set_maxima][companion.rulesets.monsters_and_magic.adventurer.Adventurer.set_maxima],
  [SpellPoints.set_class_level][companion.rulesets.variant5e.spell_points.SpellPoints.set_class_level]
  and [HitDice.set_maxima][companion.rulesets.variant5e.healing.HitDice.set_maxima]: a
  maximum changed moves the current value by as much, so damage already taken stays taken.
  Numbers left as they were store nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.state import Tracker
from companion.table import Session
from companion.widgets.markup import el
from companion.widgets.seat_controls import act

if TYPE_CHECKING:
    from companion.table.session import Session

__all__ = ["RULES", "Box", "PartyRules", "leave", "leaving", "party_rows"]


@dataclass(frozen=True)
class Box:
    """One number of a member: its label, CSS name, default and limits."""

    label: str
    name: str
    default: int
    low: int
    high: int


@dataclass(frozen=True)
class PartyRules:
    """How one ruleset's party members are listed, made and edited."""

    ruleset: str
    what: str
    boxes: tuple[Box, ...]
    kinds: tuple[str, ...] = ()
    summary: Callable[[Session], list[tuple[str, str]]] = field(default=lambda c: [])
    add: Callable[[Session, str, str, dict[str, int]], None] = field(
        default=lambda c, n, k, v: None)
    editable: Callable[[Session], list[tuple[str, str]]] = field(default=lambda c: [])
    values: Callable[[Session, str], dict[str, int]] = field(default=lambda c, i: {})
    edit: Callable[[Session, str, dict[str, int]], None] | None = None
    removable: Callable[[Session], list[tuple[str, str]]] | None = None
    """Who can leave: (shown name, key) pairs (default: the party's trackers of the
    ruleset, which leave the campaign; their events stay in its log)."""
    remove: Callable[[Session, str], None] | None = None


def _members(session: Session, cls: type[Tracker]) -> list[tuple[str, str]]:
    return [(m.name, m.id) for m in session.party() if issubclass(m.kind, cls)]


# --- Cairn ------------------------------------------------------------------------------


def _cairn_summary(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.cairn_srd.character import Character

    out = []
    for m in session.party():
        c = session.read(m.id)  # a read-only view: a summary makes no move
        if isinstance(c, Character):
            out.append((m.name, f"STR {c.strength}/{c.strength_max} · DEX {c.dexterity}/"
                        f"{c.dexterity_max} · CTRL {c.control}/{c.control_max} · Guard "
                        f"{c.guard}/{c.guard_max} · Armor {c.armor} · {c.status}"))
    return out


def _cairn_add(session: Session, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.cairn_srd.character import new_character

    session.add(name, new_character(name, v["str"], v["dex"], v["ctrl"], v["guard"],
                                     v["armor"]))


def _cairn_values(session: Session, ident: str) -> dict[str, int]:
    from companion.rulesets.cairn_srd.character import Character

    c = session.tracker(ident, Character)
    return {"str": c.strength_max, "dex": c.dexterity_max, "ctrl": c.control_max,
            "guard": c.guard_max, "armor": c.armor}


def _cairn_edit(session: Session, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.cairn_srd.character import Character

    c = session.tracker(ident, Character)
    if _cairn_values(session, ident) != v:
        act(c, "set_maxima", v["str"], v["dex"], v["ctrl"], v["guard"], v["armor"])


# --- Monsters & Magic -------------------------------------------------------------------


def _mm_summary(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    out = []
    for m in session.party():
        a = session.read(m.id)  # a read-only view
        if isinstance(a, Adventurer):
            out.append((m.name, f"Focus {a.focus:+d} · Power {a.power:+d} · Cunning "
                        f"{a.cunning:+d} · Luck {a.luck:+d} · HP {a.hp}/{a.max_hp} · AC {a.ac}"
                        f" · threads {a.threads}/{a.max_threads}"))
    return out


def _mm_add(session: Session, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    session.add(name, Adventurer.new(name, focus=v["focus"], power=v["power"],
                                      cunning=v["cunning"], luck=v["luck"], max_hp=v["hp"],
                                      ac=v["ac"]))


def _mm_values(session: Session, ident: str) -> dict[str, int]:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    a = session.tracker(ident, Adventurer)
    return {"focus": a.focus, "power": a.power, "cunning": a.cunning, "luck": a.luck,
            "hp": a.max_hp, "ac": a.ac}


def _mm_edit(session: Session, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    a = session.tracker(ident, Adventurer)
    if _mm_values(session, ident) != v:
        act(a, "set_maxima", focus=v["focus"], power=v["power"], cunning=v["cunning"],
            luck=v["luck"], max_hp=v["hp"], ac=v["ac"])


# --- plot points ------------------------------------------------------------------------


def _plot_session(session: Session) -> Any:
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.table.apps import PLOT_TABLE, ensure

    gm = session.who if session.is_gm and session.who else "GM"
    return ensure(session, PLOT_TABLE, PlotPointSession, lambda: PlotPointSession.new([], gm))


def _plot_summary(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.plot_points.session import PlotPointSession

    for m in session.members():
        s = session.read(m.id)  # a read-only view
        if isinstance(s, PlotPointSession):
            rows = [(s.gm, "GM")]
            rows += [(c.name, f"player · strain {c.strain}") for c in s.characters]
            return rows
    return []


def _plot_add(session: Session, name: str, kind: str, v: dict[str, int]) -> None:
    act(_plot_session(session), "add_player", name)


# --- 5e ---------------------------------------------------------------------------------


def _hit_dice_of(session: Session, name: str) -> Any:
    """The member's Hit Dice record, or None before its first use."""
    from companion.rulesets.variant5e.healing import HitDice
    from companion.widgets.table.apps import HIT_DICE

    for m in session.records(name):
        if m.name == HIT_DICE.format(name) and issubclass(m.kind, HitDice):
            return session.view(m.id, HitDice)  # edited through it: the seat's view
    return None


def _5e_summary(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import SpellPoints

    out = []
    for m in session.party():
        t = session.read(m.id)  # a read-only view
        if isinstance(t, SpellPoints):
            text = (f"caster: {t.caster} caster level {t.class_level} · "
                    f"spell points {t.points}/{t.maximum}")
        elif isinstance(t, DeathRecord):
            text = f"creature: {t.condition} · deaths {t.deaths} · returns {t.returns}"
        else:
            continue
        hd = _hit_dice_of(session, m.name)
        if hd is not None:
            text += (f" · HP {hd.hp}/{hd.max_hp} · Hit Dice {hd.hit_dice}/{hd.level} "
                     f"d{hd.die}{hd.con_modifier:+d}")
        out.append((m.name, text))
    return out


def _5e_hit_dice(v: dict[str, int], level: int) -> Any:
    """A new Hit Dice record from the form's boxes (the ruleset checks them)."""
    from companion.rulesets.variant5e.healing import HitDice

    return HitDice.new(level, v["die"], v["con"], v["hp"])


def _5e_add(session: Session, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import CASTER_KINDS, SpellPoints
    from companion.table.opening import StoreError
    from companion.widgets.table.apps import HIT_DICE

    hit_dice = _5e_hit_dice(v, v["level"])  # checked before anything is stored
    caster = kind.partition(" ")[0]
    member = DeathRecord() if kind == "creature" else SpellPoints.new(
        v["level"], caster if caster in CASTER_KINDS else "full")
    if any(m.name == name for m in session.members()):
        raise StoreError(f"campaign {session.name!r} already has {name!r}")
    # The record first: the member's arrival (on every screen) finds its numbers.
    session.add(HIT_DICE.format(name), hit_dice, role="record", owner=name)
    session.add(name, member)


def _5e_editable(session: Session) -> list[tuple[str, str]]:
    from companion.widgets.table.apps import five_e_party

    return [(n, session.member(n).id) for n in five_e_party(session)]


def _5e_values(session: Session, ident: str) -> dict[str, int]:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.table.apps import default_hit_dice

    member = session.member(ident)
    hd = _hit_dice_of(session, member.name) or default_hit_dice(session, member.name)
    seen = member.seen  # read-only: the level is all it reads
    level = seen.class_level if isinstance(seen, SpellPoints) else hd.level
    return {"level": level, "hp": hd.max_hp, "die": hd.die, "con": hd.con_modifier}


def _5e_edit(session: Session, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.table.apps import HIT_DICE

    member = session.member(ident)
    fresh_hd = _5e_hit_dice(v, v["level"])  # checks the numbers before anything changes
    t = session.view(member.id)  # the seat's view: a move is made on it
    if isinstance(t, SpellPoints) and t.class_level != v["level"]:
        act(t, "set_class_level", v["level"])
    hd = _hit_dice_of(session, member.name)
    if hd is None:
        session.add(HIT_DICE.format(member.name), fresh_hd, role="record",
                                 owner=member.name)
    elif (hd.level, hd.max_hp, hd.die, hd.con_modifier) != (v["level"], v["hp"], v["die"],
                                                              v["con"]):
        act(hd, "set_maxima", v["level"], v["hp"], v["die"], v["con"])


def _5e_remove(session: Session, ident: str) -> None:
    """The member leaves with their own records (Hit Dice, turn, facing, items)."""
    from companion.widgets.table.apps import member_records

    member = session.member(ident)
    records = member_records(session, member.name)
    session.remove(member.id)
    for record in records:
        session.remove(record)


# --- Miasma -----------------------------------------------------------------------------


def _miasma_tracker(session: Session) -> Any:
    from companion.rulesets.miasma.psychosis import MiasmaTracker
    from companion.widgets.table.apps import MIASMA, ensure

    return ensure(session, MIASMA, MiasmaTracker, MiasmaTracker)


def _miasma_summary(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for m in session.members():
        t = session.read(m.id)  # a read-only view
        if isinstance(t, MiasmaTracker):
            return [(c.name, f"psychosis level {c.level} · stress {c.stress}"
                     + (" · inside the Miasma" if c.inside else ""))
                    for c in t.characters]
    return []


def _miasma_add(session: Session, name: str, kind: str, v: dict[str, int]) -> None:
    act(_miasma_tracker(session), "add_character", name, v["level"], v["stress"])


def _plot_players(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.plot_points.session import PlotPointSession

    for m in session.members():
        if issubclass(m.kind, PlotPointSession):
            seen = m.seen  # read-only: the names are all it reads
            assert isinstance(seen, PlotPointSession)
            return [(c.name, c.name) for c in seen.characters]
    return []


def _plot_remove(session: Session, name: str) -> None:
    act(_plot_session(session), "remove_player", name)


def _miasma_names(session: Session) -> list[tuple[str, str]]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for m in session.members():
        if issubclass(m.kind, MiasmaTracker):
            seen = m.seen  # read-only: the names are all it reads
            assert isinstance(seen, MiasmaTracker)
            return [(c.name, c.name) for c in seen.characters]
    return []


def _miasma_remove(session: Session, name: str) -> None:
    act(_miasma_tracker(session), "remove_character", name)


def leaving(session: Session, rules: PartyRules) -> list[tuple[str, str]]:
    """Who of this ruleset's party can leave: (shown name, key)."""
    if rules.removable is not None:
        return rules.removable(session)
    from companion.table.opening import tracker_kinds

    kinds = tuple(tracker_kinds(rules.ruleset).values())
    return [(m.name, m.id) for m in session.party() if issubclass(m.kind, kinds)]


def leave(session: Session, rules: PartyRules, key: str) -> None:
    """``key`` leaves the party (a tracker leaves the campaign; its events stay logged)."""
    if rules.remove is not None:
        rules.remove(session, key)
    else:
        session.remove(key)


_CAIRN_BOXES = (Box("STR", "str", 10, 0, 18), Box("DEX", "dex", 10, 0, 18),
                Box("CTRL", "ctrl", 10, 0, 18), Box("Guard", "guard", 3, 0, 18),
                Box("Armor", "armor", 0, 0, 18))
_MM_BOXES = (Box("Focus", "focus", 0, -10, 10), Box("Power", "power", 0, -10, 10),
             Box("Cunning", "cunning", 0, -10, 10), Box("Luck", "luck", 2, -10, 10),
             Box("Max HP", "hp", 12, 1, 999), Box("AC", "ac", 0, 0, 10))
_5E_BOXES = (Box("Class level", "level", 5, 1, 20), Box("Max HP", "hp", 38, 1, 999),
             Box("Hit Die d", "die", 8, 6, 12), Box("CON mod", "con", 2, -5, 10))

#: Each ruleset's party rules, by ruleset name.
RULES: dict[str, PartyRules] = {
    "cairn_srd": PartyRules(
        "cairn_srd", "character", _CAIRN_BOXES, (), _cairn_summary, _cairn_add,
        lambda c: _members(c, _cls("companion.rulesets.cairn_srd.character", "Character")),
        _cairn_values, _cairn_edit),
    "monsters_and_magic": PartyRules(
        "monsters_and_magic", "adventurer", _MM_BOXES, (), _mm_summary, _mm_add,
        lambda c: _members(c, _cls("companion.rulesets.monsters_and_magic.adventurer",
                                   "Adventurer")),
        _mm_values, _mm_edit),
    "plot_points": PartyRules("plot_points", "player", (), (), _plot_summary, _plot_add,
                              removable=_plot_players, remove=_plot_remove),
    "variant5e": PartyRules(
        "variant5e", "caster or creature", _5E_BOXES,
        ("full caster", "half caster", "third caster", "creature"), _5e_summary, _5e_add,
        _5e_editable, _5e_values, _5e_edit, removable=_5e_editable, remove=_5e_remove),
    "miasma": PartyRules(
        "miasma", "character", (Box("Psychosis level", "level", 0, 0, 6),
                                Box("Stress", "stress", 0, 0, 99)),
        (), _miasma_summary, _miasma_add, removable=_miasma_names, remove=_miasma_remove),
}


def _cls(module: str, name: str) -> type[Tracker]:
    import importlib

    cls: type[Tracker] = getattr(importlib.import_module(module), name)
    return cls


def party_rows(session: Session) -> str:
    """The campaign's party as an HTML table (names escaped)."""
    rows = []
    for ruleset in session.rulesets:
        rules = RULES.get(ruleset)
        if rules is not None:
            rows += rules.summary(session)
    if not rows:
        return el("p", "Nobody at the table yet.", class_="tc-party tc-empty", data_count=0)
    return el("table", el("tr", el("th", "Name"), el("th", "Numbers")),
              (el("tr", el("td", el("b", n)), el("td", s), class_="tc-member") for n, s in rows),
              class_="tc-party tc-grid", data_count=len(rows))
