"""Every app of every ruleset, bound to a campaign: the same trackers on every screen.

[APPS][companion.widgets.table.apps.APPS] lists the apps: their notebook, their title,
their ruleset, how to build them for a campaign and how to build them without one (a demo,
clearly labelled). [campaign_app][companion.widgets.table.pages.campaign_app] builds an app
for a campaign once per kernel and hands the same widget back afterwards, so the start app
opens it again at once and no observer is left behind.

What an app reads from the campaign:

- Cairn: the party's ``Character`` sheets (sheet and spellcasting: one picker; wilderness,
  downtime and the dungeon crawl: the whole party, followed live), the
  campaign's fight ("Fight", an ``Encounter``), its duel, its lock, its journey, delve,
  downtime and ship ("Journey", "Delve", "Downtime", "Vessel").
- Monsters & Magic: the party's ``Adventurer`` sheets and the GM's threads ("Game master");
  travel marks exhaustion, rolls the group check and adds foraged supplies on the sheets,
  and falling damage is taken on the sheet of whoever fell.
- Plot points: the table's session ("Table": its players and GM).
- 5e: the party's casters (``SpellPoints``) and creatures (``DeathRecord``); the party of
  casters; each member's own records (role "record", owned by the member), stored on the
  member's first move in the app or when picked in it, never by building the app:
  "Hit Dice: NAME" (``HitDice``), "Turn: NAME" and "Reactions: NAME" (``Turn``,
  ``Reactions``), "Facing: NAME" (``FacingTracker``) and their magic items
  "Item: NAME: ITEM" (``MagicItem``).
- Miasma: the characters' psychosis tracker ("Miasma"), the Dice Monarchs table and the
  earthmote log.

- Interpretation: the party fights as themselves. *Party joins the fight* adds every Cairn
  character not yet in the fight as a PC (weapon d6) linked to the character's own sheet:
  the fight reads Guard, STR, DEX, CTRL, Armor and condition off the sheet, and its hits,
  scars, Fatigue and critical kills are the sheet's own moves (the campaign stores them
  with the fight's move and an undo of the fight takes them back), so the sheet and the
  fight never disagree.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from companion.state import Tracker
from companion.table import Session
from companion.widgets.base import safe

if TYPE_CHECKING:
    from companion.rulesets.variant5e.healing import HitDice
    from companion.table.session import Session
    from companion.widgets.rolls import RollControls

from companion.widgets.table.members import (
    DELVE,
    DOWNTIME,
    DUEL,
    EARTHMOTES,
    FACING,
    FIGHT,
    GM_THREADS,
    HIT_DICE,
    ITEM,
    JOURNEY,
    LOCK,
    MAX_MEMBER_NAME,
    MEMBER_RECORDS,
    MIASMA,
    MONARCHS,
    PLOT_TABLE,
    REACTIONS,
    TURN,
    VESSEL,
    MemberRecords,
    default_hit_dice,
    ensure,
    five_e_party,
    member_records,
)
from companion.widgets.table.panels import (
    CharacterPanel,
    MemberPanel,
    PartyAppPanel,
    PartyFightPanel,
    follow_campaign,
)

__all__ = [
    "APPS",
    "DELVE",
    "DEMO_NAMES",
    "DOWNTIME",
    "DUEL",
    "EARTHMOTES",
    "FACING",
    "FIGHT",
    "GM_THREADS",
    "HIT_DICE",
    "ITEM",
    "JOURNEY",
    "LOCK",
    "MEMBER_RECORDS",
    "MIASMA",
    "MONARCHS",
    "PLOT_TABLE",
    "REACTIONS",
    "TURN",
    "VESSEL",
    "AppSpec",
    "CharacterPanel",
    "MemberPanel",
    "MemberRecords",
    "PartyAppPanel",
    "PartyFightPanel",
    "apps_for",
    "default_hit_dice",
    "ensure",
    "five_e_party",
    "member_records",
    "spec",
]

T = TypeVar("T", bound=Tracker)

@dataclass(frozen=True)
class AppSpec:
    """One app: its notebook (``widgets/<key>.ipynb``), title, ruleset and builders."""

    key: str
    title: str
    ruleset: str
    build: Callable[[Session], widgets.Widget]
    demo: Callable[[], widgets.Widget]
    about: str = ""


# --- builders ---------------------------------------------------------------------------


def _cairn_member_app(session: Session, app: str, label: str, name: str) -> widgets.Widget:
    """A Cairn app for one party character at a time (``app`` of companion.widgets.cairn_srd)."""
    from companion.rulesets.cairn_srd.character import Character
    from companion.widgets import cairn_srd

    return MemberPanel(session, Character,
                       functools.partial(getattr(cairn_srd, app), session=session),
                       label=label, name=name,
                       empty="No character in this campaign yet: add one in the Table "
                             "Companion.")


def _cairn_sheet(session: Session) -> widgets.Widget:
    return _cairn_member_app(session, "CairnCharacterApp", "Character", "character")


def _cairn_spells(session: Session) -> widgets.Widget:
    return _cairn_member_app(session, "SpellcastingApp", "Caster", "caster")


def _cairn_combat(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.combat import Encounter

    return PartyFightPanel(session, ensure(session, FIGHT, Encounter, Encounter, "encounter"))


def _cairn_duel(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.duel import Duel
    from companion.widgets.cairn_srd import DuelApp

    # The duel as this seat may read it (a player's: no pending pick of the other side).
    duel = session.view(ensure(session, DUEL, Duel, Duel), Duel)
    return DuelApp(duel, viewer=session.who or None,
                   role=session.seat_role, session=session,
                   hot_seat_for=functools.partial(_no_seat_of_their_own, session))


def _cairn_lock(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.lockpicking import LockPicking
    from companion.widgets.base import draw_seed
    from companion.widgets.cairn_srd import LockpickingApp

    return LockpickingApp(ensure(session, LOCK, LockPicking, lambda: LockPicking.create(
        seeds=(draw_seed(), draw_seed(), draw_seed()))), session=session)


def _wilderness(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.wilderness import Journey
    from companion.widgets.cairn_srd.wilderness import WildernessApp

    return PartyAppPanel(session, lambda party: WildernessApp(
        party, ensure(session, JOURNEY, Journey, Journey), session=session),
        name="wilderness")


def _downtime(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.downtime import Downtime
    from companion.widgets.cairn_srd.downtime import DowntimeApp

    return PartyAppPanel(session, lambda party: DowntimeApp(
        party, ensure(session, DOWNTIME, Downtime, Downtime), session=session),
        name="downtime")


def _dungeon_crawl(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.exploration import Delve
    from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp

    return PartyAppPanel(session, lambda party: DungeonCrawlApp(
        party, ensure(session, DELVE, Delve, Delve), session=session),
        name="dungeon-crawl")


def _mass_combat(session: Session) -> widgets.Widget:
    from companion.rulesets.cairn_srd.mass_combat import Vessel
    from companion.widgets.cairn_srd.vessels import MassCombatApp

    return MassCombatApp(ensure(session, VESSEL, Vessel, Vessel, "encounter"),
                         session=session)


def _cairn_tasks(session: Session) -> widgets.Widget:
    from companion.widgets.cairn_srd.skills import TasksApp

    return TasksApp(session=session)


def _mm_table(session: Session) -> widgets.Widget:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
    from companion.rulesets.monsters_and_magic.party import Party
    from companion.widgets.monsters_and_magic import MonstersAndMagicApp

    party = Party(ensure(session, GM_THREADS, GameMaster, GameMaster))
    # Each sheet as this seat may read it (a player's: no hidden roll's dice).
    for member in session.party():
        if issubclass(member.kind, Adventurer):
            party.add(session.view(member.id, Adventurer))

    adopting: list[bool] = []

    def adopt(adventurer: Adventurer) -> Adventurer:
        adopting.append(True)
        try:
            added = session.add(adventurer.name, adventurer)
            return session.view(added, Adventurer)
        finally:
            adopting.pop()

    app = MonstersAndMagicApp(party=party, adopt=adopt, session=session)

    def seat_newcomers() -> None:
        if adopting:
            return  # this app seats its own new character
        seated = {id(a) for a in party.characters}
        for member in session.party():
            if issubclass(member.kind, Adventurer):
                sheet = session.view(member.id, Adventurer)
                if id(sheet) not in seated:
                    app.seat(party.add(sheet))

    # Now (anyone who joined while the app was being built) and after each change, one
    # thread at a time: a newcomer is seated once.
    follow_campaign(session, app.error, seat_newcomers)
    return app


def _plot_points(session: Session) -> widgets.Widget:
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.plot_points import PlotPointsApp

    gm = session.who if session.is_gm and session.who else "GM"
    plot = ensure(session, PLOT_TABLE, PlotPointSession, lambda: PlotPointSession.new([], gm))
    return PlotPointsApp(session=plot, table=session)


def _spell_points(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.variant5e import SpellPointsApp

    return MemberPanel(session, SpellPoints, SpellPointsApp, label="Caster",
                        empty="No caster in this campaign yet: add one in the Table Companion.",
                        name="caster")


def _death(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.widgets.variant5e import DeathAndReturningApp

    return MemberPanel(session, DeathRecord,
                       lambda record: DeathAndReturningApp(record, session=session),
                       label="Creature",
                        empty="No creature in this campaign yet: add one in the Table "
                              "Companion.", name="creature")


def _combat_options(session: Session) -> widgets.Widget:
    from companion.widgets.variant5e import CombatOptionsApp

    return CombatOptionsApp(session=session)


_NO_5E = "Nobody in this campaign yet: add a caster or a creature in the Table Companion."


def _roll_controls(session: Session, hint: str, name: str) -> RollControls:
    """The roll mode picker and own-dice box of an app, for the campaign's viewer."""
    from companion.widgets.rolls import RollControls

    return RollControls(session=session, who=session.who, role=session.seat_role, hint=hint,
                        name=name)


def _hit_dice(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.healing import HitDice
    from companion.widgets.variant5e_healing import HitDiceApp

    kept = MemberRecords(session)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(HIT_DICE, name, HitDice, lambda: default_hit_dice(session, name),
                         now=now),)

    def build(name: str, hd: HitDice) -> widgets.Widget:
        return HitDiceApp(hd, who=name, controls=_roll_controls(session, f"1d{hd.die}",
                                                                "hit-die"))

    return CharacterPanel(session, lambda: five_e_party(session), records, build,
                          label="Character", empty=_NO_5E, name="hit-dice")


def _combat_turn(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.actions import Turn
    from companion.rulesets.variant5e.mark import Reactions
    from companion.widgets.variant5e_turn import CombatTurnApp

    kept = MemberRecords(session)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(TURN, name, Turn, Turn, now=now),
                kept.get(REACTIONS, name, Reactions, Reactions, now=now))

    return CharacterPanel(session, lambda: five_e_party(session), records,
                          lambda name, turn, reactions: CombatTurnApp(turn, reactions,
                                                                      who=name),
                          label="Creature", empty=_NO_5E, name="turn")


def _facing(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.facing_and_flanking import FacingTracker
    from companion.widgets.variant5e_facing import FacingApp

    kept = MemberRecords(session)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(FACING, name, FacingTracker, FacingTracker, now=now),)

    return CharacterPanel(session, lambda: five_e_party(session), records,
                          lambda name, facing: FacingApp(facing, defender=name),
                          label="Defender", empty=_NO_5E, name="facing")


def _magic_items(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.activating_items import MagicItem
    from companion.widgets.variant5e_items import CharacterItemsApp

    def items(name: str) -> list[MagicItem]:
        # The seat's views: the items app acts on them.
        return [session.view(m.id, MagicItem) for m in session.records(name)
                if issubclass(m.kind, MagicItem)]

    def adopt(name: str, item: MagicItem) -> MagicItem:
        full = ITEM.format(name, " ".join(item.name.split()))
        if len(full) > MAX_MEMBER_NAME:
            from companion.errors import CompanionError

            room = MAX_MEMBER_NAME - len(ITEM.format(name, ""))
            raise CompanionError(f"Items: {name}'s item names are at most {room} characters")
        return session.add(full, item, role="record", owner=name)

    def build(name: str) -> widgets.Widget:
        app = CharacterItemsApp(lambda: items(name), owner=name,
                                adopt=lambda item: adopt(name, item), lock=session.lock)
        session.on_change(safe(app.error)(lambda _c: app.sync()))
        return app

    return CharacterPanel(session, lambda: five_e_party(session), lambda _n, _now: (), build,
                          label="Character", empty=_NO_5E, name="items")


def _casters(session: Session) -> widgets.Widget:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.variant5e_casters import CastersApp

    def casters() -> dict[str, SpellPoints]:
        # The seat's views: the casters app acts on them.
        return {m.name: session.view(m.id, SpellPoints) for m in session.party()
                if issubclass(m.kind, SpellPoints)}

    app = CastersApp(casters(), adopt=lambda name, caster: session.add(name, caster),
                     lock=session.lock)
    session.on_change(safe(app.error)(lambda _c: app.follow(casters())))
    return app


def _mm_travel(session: Session) -> widgets.Widget:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
    from companion.rulesets.monsters_and_magic.party import Party
    from companion.widgets.monsters_and_magic_travel import TravelApp

    gm = ensure(session, GM_THREADS, GameMaster, GameMaster)

    def party() -> Party:
        table = Party(gm)
        for member in session.party():
            if issubclass(member.kind, Adventurer):
                table.add(session.view(member.id, Adventurer))
        return table

    app = TravelApp(party=party, controls=_roll_controls(session, "1d20 each", "travel"))
    session.on_change(safe(app.error)(lambda _c: app.render_party()))
    return app


def _miasma(session: Session) -> widgets.Widget:
    from companion.rulesets.miasma.psychosis import MiasmaTracker
    from companion.widgets.miasma import MiasmaTrackerApp

    return MiasmaTrackerApp(ensure(session, MIASMA, MiasmaTracker, MiasmaTracker))


def _monarchs(session: Session) -> widgets.Widget:
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
    from companion.widgets.miasma import DiceMonarchsApp

    # The table's own people: the Miasma characters, else the party, else two placeholders.
    party = _miasma_names(session) or [m.name for m in session.party()]
    names = ", ".join(party[:8]) or "Ann, Bo"
    # The table as this seat may read it (a player's: their own hole dice, no seed).
    game = session.view(
        ensure(session, MONARCHS, DiceMonarchsGame, DiceMonarchsGame), DiceMonarchsGame)
    return DiceMonarchsApp(game,
                           players=names if "," in names else f"{names}, GM",
                           viewer=session.who or None, role=session.seat_role, session=session,
                           hot_seat_for=functools.partial(_no_seat_of_their_own, session))


def _no_seat_of_their_own(session: Session, name: str) -> bool:
    """Whether ``name`` has no player seat at ``campaign`` (so plays on the GM's screen,
    passed the device). Read from the store each time: a seat made or revoked mid-game
    moves the player at once. A campaign with no store has no other screens: everyone
    plays on the GM's. A store that cannot answer keeps the dice covered (the player may
    hold a seat whose dice the GM's screen must not show)."""
    from companion.table.opening import StoreError

    if not session.kept:
        return True
    try:
        return session.seat_role_of(name) != "player"
    except StoreError:
        return False


def _miasma_names(session: Session) -> list[str]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for member in session.members():
        if issubclass(member.kind, MiasmaTracker):
            seen = member.seen  # read-only: the names are all it reads
            assert isinstance(seen, MiasmaTracker)
            return [c.name for c in seen.characters]
    return []


def _earthmotes(session: Session) -> widgets.Widget:
    from companion.rulesets.miasma.earthmotes import EarthmoteLog
    from companion.widgets.miasma import EarthmotesApp

    return EarthmotesApp(ensure(session, EARTHMOTES, EarthmoteLog, EarthmoteLog.start),
                         session=session)


def _dice_tray(session: Session) -> widgets.Widget:
    from companion.widgets.dice_tray import DiceTray

    # The campaign given, not the page's address: opened in place right after the
    # campaign was created, the address named none and the tray had no roll modes.
    return DiceTray(session=session, who=session.who, role=session.seat_role)


# --- demos (no campaign in the URL) -----------------------------------------------------


def _demo(name: str, module: str, *args: Any, **kwargs: Any) -> Callable[[], widgets.Widget]:
    def build() -> widgets.Widget:
        import importlib

        cls = getattr(importlib.import_module(module), name)
        return cls(*args, **kwargs)
    return build


def _demo_combat() -> widgets.Widget:
    from companion.widgets.cairn_srd import CombatApp, demo_encounter

    return CombatApp(demo_encounter())


def _demo_travel() -> widgets.Widget:
    from companion.rulesets.monsters_and_magic.party import Party
    from companion.widgets.monsters_and_magic_travel import TravelApp

    table = Party()
    for name in DEMO_NAMES[:2]:
        table.new_character(name)
    return TravelApp(party=lambda: table)


#: The made-up party of the demos (a page without a campaign, labelled as a demo).
DEMO_NAMES = ["Ash", "Briar", "Cole"]

_CAIRN = "companion.widgets.cairn_srd"
_MIASMA = "companion.widgets.miasma"
_5E = "companion.widgets.variant5e"

#: Every app, in the order the start app offers them.
APPS: tuple[AppSpec, ...] = (
    AppSpec("cairn_character", "Cairn character sheet", "cairn_srd", _cairn_sheet,
            _demo("CairnCharacterApp", _CAIRN), "burden, damage, rest, boasts"),
    AppSpec("cairn_combat", "Cairn combat", "cairn_srd", _cairn_combat, _demo_combat,
            "the party's fight: initiative, attacks, gambits, morale"),
    AppSpec("spellcasting", "Cairn spellcasting", "cairn_srd", _cairn_spells,
            _demo("SpellcastingApp", _CAIRN), "magic dice, exact odds, casting"),
    AppSpec("duel", "Cairn duel", "cairn_srd", _cairn_duel, _demo("DuelApp", _CAIRN),
            "secret choices"),
    AppSpec("lockpicking", "Cairn lockpicking", "cairn_srd", _cairn_lock,
            _demo("LockpickingApp", _CAIRN), "a lock to pick"),
    AppSpec("wilderness", "Cairn wilderness", "cairn_srd", _wilderness,
            _demo("WildernessApp", f"{_CAIRN}.wilderness"),
            "the party's route, watch by watch"),
    AppSpec("dungeon_crawl", "Cairn dungeon crawl", "cairn_srd", _dungeon_crawl,
            _demo("DungeonCrawlApp", f"{_CAIRN}.dungeon_crawl"),
            "the party's delve, turn by turn"),
    AppSpec("downtime", "Cairn downtime", "cairn_srd", _downtime,
            _demo("DowntimeApp", f"{_CAIRN}.downtime"), "the party's downtime cycles"),
    AppSpec("cairn_mass_combat", "Cairn mass combat and vessels", "cairn_srd", _mass_combat,
            _demo("MassCombatApp", f"{_CAIRN}.vessels"), "the attack matrix and a ship"),
    AppSpec("cairn_tasks", "Cairn skill, social and knowledge checks", "cairn_srd",
            _cairn_tasks, _demo("TasksApp", f"{_CAIRN}.skills"),
            "skill tests, social and knowledge checks"),
    AppSpec("monsters_and_magic", "Monsters & Magic table", "monsters_and_magic", _mm_table,
            _demo("MonstersAndMagicApp", "companion.widgets.monsters_and_magic", DEMO_NAMES[:2]),
            "checks, group checks, the GM's threads, the sheets"),
    AppSpec("mm_travel", "Monsters & Magic travel", "monsters_and_magic", _mm_travel,
            _demo_travel, "the party on the road: pace, group checks, foraging, falling"),
    AppSpec("plot_points", "Plot points table", "plot_points", _plot_points,
            _demo("PlotPointsApp", "companion.widgets.plot_points", DEMO_NAMES, gm="GM"),
            "checks, the plot-point pool, strain and wounds"),
    AppSpec("spell_points", "5e spell points", "variant5e", _spell_points,
            _demo("SpellPointsApp", _5E), "each caster's mentality pool"),
    AppSpec("death_and_returning", "5e death and returning", "variant5e", _death,
            _demo("DeathAndReturningApp", _5E), "each creature's death saves and returns"),
    AppSpec("combat_options", "5e combat options", "variant5e", _combat_options,
            _demo("CombatOptionsApp", _5E), "contests and maneuvers"),
    AppSpec("casters", "5e party of casters", "variant5e", _casters,
            _demo("CastersApp", f"{_5E}_casters"), "every caster's mentality at a glance"),
    AppSpec("combat_turn", "5e combat turn", "variant5e", _combat_turn,
            _demo("CombatTurnApp", f"{_5E}_turn"),
            "each creature's action economy, mark, opportunity attacks, cleaving"),
    AppSpec("facing", "5e facing and flanking", "variant5e", _facing,
            _demo("FacingApp", f"{_5E}_facing"),
            "each creature's facing: arcs, shields, rear advantage, flanking"),
    AppSpec("hit_dice", "5e Hit Dice and healing", "variant5e", _hit_dice,
            _demo("HitDiceApp", f"{_5E}_healing"),
            "each character's Hit Dice: healer's kit, surges, slow healing"),
    AppSpec("magic_items", "5e activating items", "variant5e", _magic_items,
            _demo("ItemsApp", f"{_5E}_items"), "each character's items: charges, command words"),
    AppSpec("miasma_tracker", "Miasma tracker", "miasma", _miasma,
            _demo("MiasmaTrackerApp", _MIASMA), "psychosis and stress per character"),
    AppSpec("dice_monarchs", "Dice Monarchs", "miasma", _monarchs,
            _demo("DiceMonarchsApp", _MIASMA), "the dice game"),
    AppSpec("earthmotes", "Earthmotes", "miasma", _earthmotes,
            _demo("EarthmotesApp", _MIASMA), "earthmotes found"),
    AppSpec("dice_tray", "Dice tray", "", _dice_tray, _demo("DiceTray", "companion.widgets"),
            "any dice"),
)


def spec(key: str) -> AppSpec:
    """The app whose notebook is ``widgets/<key>.ipynb``."""
    for app in APPS:
        if app.key == key:
            return app
    from companion.errors import UnknownNameError

    raise UnknownNameError(f"no app called {key!r} (apps: {', '.join(a.key for a in APPS)})")


def apps_for(rulesets: Sequence[str]) -> list[AppSpec]:
    """The apps a campaign playing ``rulesets`` can open (the dice tray for every one)."""
    return [a for a in APPS if a.ruleset in rulesets or not a.ruleset]
