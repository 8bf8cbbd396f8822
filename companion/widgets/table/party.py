"""The party of a campaign in each ruleset's own model: listing, adding and editing.

Each ruleset's [PartyRules][companion.widgets.table.party.PartyRules] says which numbers a
member has (boxes), how a new member is made (the ruleset's own constructor, which checks
them) and how an edit changes an existing one (through the campaign: one stored change).

- Cairn: a ``Character`` (name, STR, DEX, CTRL, Guard, Armor).
- Monsters & Magic: an ``Adventurer`` (name, Focus, Power, Cunning, Luck, max HP, AC; threads
  follow from Luck).
- Plot points: a player in the table's session (the GM is the session's GM).
- 5e: a caster's ``SpellPoints`` (class level, caster kind) or a creature's ``DeathRecord``.
- Miasma: a character of the psychosis tracker (level, stress).

- Interpretation: editing a score changes its maximum and moves the current value by the
  same amount (clamped), so damage already taken stays taken.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.state import Tracker

if TYPE_CHECKING:
    from companion.store.campaign import Campaign

__all__ = ["RULES", "Box", "PartyRules", "leave", "leaving", "party_rows"]


@dataclass(frozen=True)
class Box:
    """One number of a member: its label, CSS name, default and limits."""

    label: str
    name: str
    default: int
    low: int
    high: int


def _shift(state: dict[str, Any], current: str, maximum: str, new_max: int) -> None:
    lost = state[maximum] - state[current]
    state[maximum] = new_max
    state[current] = max(0, min(new_max, new_max - lost))


def _edited(tracker: Tracker, change: Callable[[dict[str, Any]], None]) -> str:
    save = json.loads(tracker.to_json())
    change(save["state"])
    return json.dumps(save)


@dataclass(frozen=True)
class PartyRules:
    """How one ruleset's party members are listed, made and edited."""

    ruleset: str
    what: str
    boxes: tuple[Box, ...]
    kinds: tuple[str, ...] = ()
    summary: Callable[[Campaign], list[tuple[str, str]]] = field(default=lambda c: [])
    add: Callable[[Campaign, str, str, dict[str, int]], None] = field(
        default=lambda c, n, k, v: None)
    editable: Callable[[Campaign], list[tuple[str, str]]] = field(default=lambda c: [])
    values: Callable[[Campaign, str], dict[str, int]] = field(default=lambda c, i: {})
    edit: Callable[[Campaign, str, dict[str, int]], None] | None = None
    removable: Callable[[Campaign], list[tuple[str, str]]] | None = None
    """Who can leave: (shown name, key) pairs (default: the party's trackers of the
    ruleset, which leave the campaign; their events stay in its log)."""
    remove: Callable[[Campaign, str], None] | None = None


def _members(campaign: Campaign, cls: type[Tracker]) -> list[tuple[str, str]]:
    return [(m.name, m.id) for m in campaign.party if isinstance(m.tracker, cls)]


# --- Cairn ------------------------------------------------------------------------------


def _cairn_summary(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.cairn_srd.character import Character

    out = []
    for m in campaign.party:
        c = m.tracker
        if isinstance(c, Character):
            out.append((m.name, f"STR {c.strength}/{c.strength_max} · DEX {c.dexterity}/"
                        f"{c.dexterity_max} · CTRL {c.control}/{c.control_max} · Guard "
                        f"{c.guard}/{c.guard_max} · Armor {c.armor} · {c.status}"))
    return out


def _cairn_add(campaign: Campaign, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.cairn_srd.character import new_character

    campaign.add(name, new_character(name, v["str"], v["dex"], v["ctrl"], v["guard"],
                                     v["armor"]))


def _cairn_values(campaign: Campaign, ident: str) -> dict[str, int]:
    from companion.rulesets.cairn_srd.character import Character

    c = campaign.tracker(ident, Character)
    return {"str": c.strength_max, "dex": c.dexterity_max, "ctrl": c.control_max,
            "guard": c.guard_max, "armor": c.armor}


def _cairn_edit(campaign: Campaign, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.cairn_srd.character import Character
    from companion.rulesets.cairn_srd.saves import check_score

    c = campaign.tracker(ident, Character)
    for key, what in (("str", "STR"), ("dex", "DEX"), ("ctrl", "CTRL"), ("guard", "Guard"),
                      ("armor", "Armor")):
        check_score(v[key], what)

    def change(s: dict[str, Any]) -> None:
        _shift(s, "strength", "strength_max", v["str"])
        _shift(s, "dexterity", "dexterity_max", v["dex"])
        _shift(s, "control", "control_max", v["ctrl"])
        _shift(s, "guard", "guard_max", v["guard"])
        s["armor"] = v["armor"]

    c.load(_edited(c, change))


# --- Monsters & Magic -------------------------------------------------------------------


def _mm_summary(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    out = []
    for m in campaign.party:
        a = m.tracker
        if isinstance(a, Adventurer):
            out.append((m.name, f"Focus {a.focus:+d} · Power {a.power:+d} · Cunning "
                        f"{a.cunning:+d} · Luck {a.luck:+d} · HP {a.hp}/{a.max_hp} · AC {a.ac}"
                        f" · threads {a.threads}/{a.max_threads}"))
    return out


def _mm_add(campaign: Campaign, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    campaign.add(name, Adventurer.new(name, focus=v["focus"], power=v["power"],
                                      cunning=v["cunning"], luck=v["luck"], max_hp=v["hp"],
                                      ac=v["ac"]))


def _mm_values(campaign: Campaign, ident: str) -> dict[str, int]:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    a = campaign.tracker(ident, Adventurer)
    return {"focus": a.focus, "power": a.power, "cunning": a.cunning, "luck": a.luck,
            "hp": a.max_hp, "ac": a.ac}


def _mm_edit(campaign: Campaign, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    a = campaign.tracker(ident, Adventurer)
    Adventurer.new(a.name, focus=v["focus"], power=v["power"], cunning=v["cunning"],
                   luck=v["luck"], max_hp=v["hp"], ac=v["ac"])  # checks the numbers

    def change(s: dict[str, Any]) -> None:
        for key in ("focus", "power", "cunning", "luck", "ac"):
            s[key] = v[key]
        if a.hp > 0:
            _shift(s, "hp", "max_hp", v["hp"])
            s["hp"] = max(1, s["hp"])
        else:
            s["max_hp"] = v["hp"]

    a.load(_edited(a, change))


# --- plot points ------------------------------------------------------------------------


def _plot_session(campaign: Campaign) -> Any:
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.table.apps import PLOT_TABLE, ensure

    gm = campaign.who if campaign.role == "gm" and campaign.who else "GM"
    return ensure(campaign, PLOT_TABLE, PlotPointSession, lambda: PlotPointSession.new([], gm))


def _plot_summary(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.plot_points.session import PlotPointSession

    for m in campaign:
        s = m.tracker
        if isinstance(s, PlotPointSession):
            rows = [(s.gm, "GM")]
            rows += [(c.name, f"player · strain {c.strain}") for c in s.characters]
            return rows
    return []


def _plot_add(campaign: Campaign, name: str, kind: str, v: dict[str, int]) -> None:
    _plot_session(campaign).add_player(name)


# --- 5e ---------------------------------------------------------------------------------


def _5e_summary(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import SpellPoints

    out = []
    for m in campaign.party:
        t = m.tracker
        if isinstance(t, SpellPoints):
            out.append((m.name, f"caster: {t.caster} caster level {t.class_level} · "
                        f"spell points {t.points}/{t.maximum}"))
        elif isinstance(t, DeathRecord):
            out.append((m.name, f"creature: {t.condition} · deaths {t.deaths} · returns "
                        f"{t.returns}"))
    return out


def _5e_add(campaign: Campaign, name: str, kind: str, v: dict[str, int]) -> None:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import CASTER_KINDS, SpellPoints

    if kind == "creature":
        campaign.add(name, DeathRecord())
        return
    caster = kind.partition(" ")[0]
    campaign.add(name, SpellPoints.new(v["level"],
                                       caster if caster in CASTER_KINDS else "full"))


def _5e_editable(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.variant5e.spell_points import SpellPoints

    return _members(campaign, SpellPoints)


def _5e_values(campaign: Campaign, ident: str) -> dict[str, int]:
    from companion.rulesets.variant5e.spell_points import SpellPoints

    return {"level": campaign.tracker(ident, SpellPoints).class_level}


def _5e_edit(campaign: Campaign, ident: str, v: dict[str, int]) -> None:
    from companion.rulesets.variant5e.spell_points import SpellPoints

    t = campaign.tracker(ident, SpellPoints)
    fresh = SpellPoints.new(v["level"], t.caster)

    def change(s: dict[str, Any]) -> None:
        spent = s["maximum"] - s["points"]
        s["class_level"], s["maximum"] = fresh.class_level, fresh.maximum
        s["points"] = max(0, fresh.maximum - spent)

    t.load(_edited(t, change))


# --- Miasma -----------------------------------------------------------------------------


def _miasma_tracker(campaign: Campaign) -> Any:
    from companion.rulesets.miasma.psychosis import MiasmaTracker
    from companion.widgets.table.apps import MIASMA, ensure

    return ensure(campaign, MIASMA, MiasmaTracker, MiasmaTracker)


def _miasma_summary(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for m in campaign:
        t = m.tracker
        if isinstance(t, MiasmaTracker):
            return [(c.name, f"psychosis level {c.level} · stress {c.stress}"
                     + (" · inside the Miasma" if c.inside else ""))
                    for c in t.characters]
    return []


def _miasma_add(campaign: Campaign, name: str, kind: str, v: dict[str, int]) -> None:
    _miasma_tracker(campaign).add_character(name, v["level"], v["stress"])


def _plot_players(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.plot_points.session import PlotPointSession

    for m in campaign:
        if isinstance(m.tracker, PlotPointSession):
            return [(c.name, c.name) for c in m.tracker.characters]
    return []


def _plot_remove(campaign: Campaign, name: str) -> None:
    _plot_session(campaign).remove_player(name)


def _miasma_names(campaign: Campaign) -> list[tuple[str, str]]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for m in campaign:
        if isinstance(m.tracker, MiasmaTracker):
            return [(c.name, c.name) for c in m.tracker.characters]
    return []


def _miasma_remove(campaign: Campaign, name: str) -> None:
    _miasma_tracker(campaign).remove_character(name)


def leaving(campaign: Campaign, rules: PartyRules) -> list[tuple[str, str]]:
    """Who of this ruleset's party can leave: (shown name, key)."""
    if rules.removable is not None:
        return rules.removable(campaign)
    from companion.store.registry import tracker_kinds

    kinds = tuple(tracker_kinds(rules.ruleset).values())
    return [(m.name, m.id) for m in campaign.party if isinstance(m.tracker, kinds)]


def leave(campaign: Campaign, rules: PartyRules, key: str) -> None:
    """``key`` leaves the party (a tracker leaves the campaign; its events stay logged)."""
    if rules.remove is not None:
        rules.remove(campaign, key)
    else:
        campaign.remove(key)


_CAIRN_BOXES = (Box("STR", "str", 10, 0, 18), Box("DEX", "dex", 10, 0, 18),
                Box("CTRL", "ctrl", 10, 0, 18), Box("Guard", "guard", 3, 0, 18),
                Box("Armor", "armor", 0, 0, 18))
_MM_BOXES = (Box("Focus", "focus", 0, -10, 10), Box("Power", "power", 0, -10, 10),
             Box("Cunning", "cunning", 0, -10, 10), Box("Luck", "luck", 2, -10, 10),
             Box("Max HP", "hp", 12, 1, 999), Box("AC", "ac", 0, 0, 10))

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
        "variant5e", "caster or creature", (Box("Class level", "level", 5, 1, 20),),
        ("full caster", "half caster", "third caster", "creature"), _5e_summary, _5e_add,
        _5e_editable, _5e_values, _5e_edit),
    "miasma": PartyRules(
        "miasma", "character", (Box("Psychosis level", "level", 0, 0, 6),
                                Box("Stress", "stress", 0, 0, 99)),
        (), _miasma_summary, _miasma_add, removable=_miasma_names, remove=_miasma_remove),
}


def _cls(module: str, name: str) -> type[Tracker]:
    import importlib

    cls: type[Tracker] = getattr(importlib.import_module(module), name)
    return cls


def party_rows(campaign: Campaign) -> str:
    """The campaign's party as an HTML table (names escaped)."""
    rows = []
    for ruleset in campaign.rulesets:
        rules = RULES.get(ruleset)
        if rules is not None:
            rows += rules.summary(campaign)
    if not rows:
        return '<p class="tc-party tc-empty" data-count="0">Nobody at the table yet.</p>'
    body = "".join(f'<tr class="tc-member"><td><b>{html.escape(n)}</b></td>'
                   f"<td>{html.escape(s)}</td></tr>" for n, s in rows)
    return (f'<table class="tc-party tc-grid" data-count="{len(rows)}">'
            f"<tr><th>Name</th><th>Numbers</th></tr>{body}</table>")
