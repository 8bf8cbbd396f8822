"""Every app of every ruleset, bound to a campaign: the same trackers on every screen.

[APPS][companion.widgets.table.apps.APPS] lists the apps: their notebook, their title,
their ruleset, how to build them for a campaign and how to build them without one (a demo,
clearly labelled). [campaign_app][companion.widgets.table.apps.campaign_app] builds an app
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

import copy
import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import ipywidgets as widgets

from companion.state import Tracker
from companion.widgets.base import APP_MAX_WIDTH, ErrorLine, button, row, safe, style_tag
from companion.widgets.table.binding import PageContext

if TYPE_CHECKING:
    from companion.rulesets.cairn_srd.character import Character
    from companion.rulesets.cairn_srd.combat import Encounter
    from companion.rulesets.variant5e.healing import HitDice
    from companion.store.campaign import Campaign
    from companion.widgets.rolls import RollControls

__all__ = [
    "APPS",
    "DEMO_NAMES",
    "FACING",
    "HIT_DICE",
    "ITEM",
    "MEMBER_RECORDS",
    "REACTIONS",
    "TURN",
    "AppSpec",
    "CharacterPanel",
    "MemberPanel",
    "MemberRecords",
    "PartyAppPanel",
    "PartyFightPanel",
    "app_heading",
    "apps_for",
    "campaign_app",
    "campaign_page",
    "default_hit_dice",
    "ensure",
    "five_e_party",
    "is_built",
    "member_records",
    "page",
    "spec",
]

T = TypeVar("T", bound=Tracker)

#: The campaign trackers the apps share, by name.
FIGHT = "Fight"
DUEL = "Duel"
LOCK = "Lock"
GM_THREADS = "Game master"
PLOT_TABLE = "Table"
MIASMA = "Miasma"
MONARCHS = "Dice Monarchs"
EARTHMOTES = "Earthmotes"
JOURNEY = "Journey"
DELVE = "Delve"
DOWNTIME = "Downtime"
VESSEL = "Vessel"

#: A 5e party member's own records in the campaign, by the member's name.
HIT_DICE = "Hit Dice: {}"
TURN = "Turn: {}"
REACTIONS = "Reactions: {}"
FACING = "Facing: {}"
ITEM = "Item: {}: {}"
#: Every kind of record a 5e member owns (they leave the party with the member).
MEMBER_RECORDS = (HIT_DICE, TURN, REACTIONS, FACING)


def five_e_party(campaign: Campaign) -> list[str]:
    """The names of the campaign's 5e party members: its casters and creatures (their own
    records, like "Hit Dice: Ash", are not members)."""
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.rulesets.variant5e.spell_points import SpellPoints

    return [m.name for m in campaign.party if isinstance(m.tracker, (SpellPoints, DeathRecord))]


def member_records(campaign: Campaign, name: str) -> list[str]:
    """The ids of the records a 5e member owns (Hit Dice, turn, reactions, facing, items):
    the campaign's trackers of role "record" whose owner is ``name``."""
    return [m.id for m in campaign.records(name)]


def default_hit_dice(campaign: Campaign, name: str) -> HitDice:
    """A member's Hit Dice record made on first use when the start app did not make one:
    the caster's class level (else 1st), made by the ruleset
    ([HitDice.new][companion.rulesets.variant5e.healing.HitDice.new])."""
    from companion.rulesets.variant5e.healing import HitDice
    from companion.rulesets.variant5e.spell_points import SpellPoints

    member = campaign.member(name)
    level = member.tracker.class_level if isinstance(member.tracker, SpellPoints) else 1
    return HitDice.new(level)


def ensure(campaign: Campaign, name: str, cls: type[T], make: Callable[[], T],
           role: str = "minigame", owner: str = "") -> T:
    """The campaign's tracker ``name`` (of class ``cls``), added from ``make()`` if missing
    (a member's record: role "record" and its ``owner``)."""
    from companion.store.db import StoreError

    for member in campaign:
        if member.name == name and isinstance(member.tracker, cls):
            return member.tracker
    try:
        return campaign.add(name, make(), role=role, owner=owner)
    except StoreError:
        campaign.refresh()  # another screen added it first
        return campaign.tracker(name, cls)


def _escape(text: object) -> str:
    import html

    return html.escape(str(text))


class MemberPanel(widgets.VBox):
    """One of the campaign's trackers of a class, picked by name, shown by its own app.

    The list follows the campaign live (a member added on another screen appears); each
    member's app is built once and kept.
    """

    def __init__(self, campaign: Campaign, cls: type[Tracker],
                 build: Callable[[Any], widgets.Widget], *, label: str, empty: str,
                 name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-member-picker")
        self.campaign = campaign
        self.cls = cls
        self.build = build
        self.empty = empty
        self.error = ErrorLine()
        self.apps: dict[str, widgets.Widget] = {}
        self.picker = widgets.Dropdown(options=[], description=label,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.picker.add_class(f"tc-pick-{name}")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self.picker.observe(safe(self.error)(lambda _c: self._show()), names="value")
        self.children = (row(self.picker), self.error, self.body)
        campaign.on_change(safe(self.error)(lambda _c: self.sync()))
        self.sync()

    def members(self) -> list[tuple[str, str]]:
        return [(m.name, m.id) for m in self.campaign
                if isinstance(m.tracker, self.cls) and m.role == "party"]

    def sync(self) -> None:
        options = self.members()
        if list(self.picker.options) != options:
            keep = self.picker.value
            self.picker.options = options
            ids = [i for _, i in options]
            self.picker.value = keep if keep in ids else (ids[0] if ids else None)
        self._show()

    def _show(self) -> None:
        ident = self.picker.value
        if ident is None or ident not in self.campaign.members:
            self.body.children = (widgets.HTML(f'<p class="tc-empty">{_escape(self.empty)}'
                                               "</p>"),)
            return
        app = self.apps.get(ident)
        if app is None:
            app = self.apps[ident] = self.build(self.campaign.members[ident].tracker)
        if self.body.children != (app,):
            self.body.children = (app,)


class CharacterPanel(widgets.VBox):
    """A party member picked by name and the app over that member's own records.

    ``names()`` lists the members (followed live: one added on another screen appears);
    ``records(name, now)`` hands back the member's trackers (with
    [MemberRecords][companion.widgets.table.apps.MemberRecords]: stored on the member's
    first move, or at once when ``now``, when the member is picked by hand; building the
    panel stores nothing); ``build(name, *records)`` makes the app, once per member and
    records (a member who left and came back gets a new one).
    """

    def __init__(self, campaign: Campaign, names: Callable[[], list[str]],
                 records: Callable[[str, bool], tuple[Tracker, ...]],
                 build: Callable[..., widgets.Widget], *, label: str, empty: str,
                 name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class("tc-member-picker")
        self.add_class(f"tc-character-{name}")
        self.campaign = campaign
        self.names = names
        self.records = records
        self.build = build
        self.empty = empty
        self.error = ErrorLine()
        self.apps: dict[tuple[str, tuple[int, ...]], widgets.Widget] = {}
        self.picker = widgets.Dropdown(options=[], description=label,
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="auto", min_height="40px"))
        self.picker.add_class(f"tc-pick-{name}")
        self.body = widgets.VBox(layout=widgets.Layout(max_width="100%"))
        self._syncing = False  # the list changing under the picker is not a pick
        self.picker.observe(safe(self.error)(lambda _c: self._show(picked=not self._syncing)),
                            names="value")
        self.children = (row(self.picker), self.error, self.body)
        campaign.on_change(safe(self.error)(lambda _c: self.sync()))
        self.sync()

    @property
    def app(self) -> widgets.Widget | None:
        """The app shown now (``None`` when nobody is picked)."""
        shown = self.body.children
        return shown[0] if shown and not isinstance(shown[0], widgets.HTML) else None

    def sync(self) -> None:
        options = self.names()
        if list(self.picker.options) != options:
            keep = self.picker.value
            self._syncing = True
            try:
                self.picker.options = options
                self.picker.value = keep if keep in options else (options[0] if options
                                                                  else None)
            finally:
                self._syncing = False
        self._show()

    def _show(self, *, picked: bool = False) -> None:
        name = self.picker.value
        if name is None or name not in self.names():
            self.body.children = (widgets.HTML(f'<p class="tc-empty">{_escape(self.empty)}'
                                               "</p>"),)
            return
        records = self.records(str(name), picked)
        key = (str(name), tuple(id(r) for r in records))
        app = self.apps.get(key)
        if app is None:
            app = self.apps[key] = self.build(str(name), *records)
        if self.body.children != (app,):
            self.body.children = (app,)


class PartyFightPanel(widgets.VBox):
    """The Cairn fight with the campaign's party in it, linked to the party's own sheets
    ([Encounter.link][companion.rulesets.cairn_srd.combat.Encounter.link]): a party member
    in the fight is its sheet, on every screen (see the module's interpretation)."""

    def __init__(self, campaign: Campaign, encounter: Encounter) -> None:
        from companion.widgets.cairn_srd import CombatApp

        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.campaign = campaign
        self.encounter = encounter
        self.error = ErrorLine()
        encounter.link(self.sheet)
        self.app = CombatApp(encounter, campaign=campaign)
        self.join = button("Party joins the fight", self.party_joins, error=self.error,
                           name="party-joins", style="primary")
        self.note = widgets.HTML()
        self.children = (row(self.join), self.note, self.error, self.app)
        self._shown = self._board()
        self._watched: set[int] = set()
        follow = safe(self.error)(lambda _x: self._follow())
        self._follow_sheet = follow
        campaign.on_change(follow)
        self._follow()

    def party(self) -> dict[str, Character]:
        from companion.rulesets.cairn_srd.character import Character

        return {m.name: m.tracker for m in self.campaign.party
                if isinstance(m.tracker, Character)}

    def sheet(self, name: str) -> Character | None:
        """The party member ``name``'s own sheet (the fight's link)."""
        return self.party().get(name)

    def _board(self) -> list[tuple[object, ...]]:
        return [(c.name, c.guard, c.guard_max, c.strength, c.dexterity, c.armor, c.status,
                 c.no_guard, c.panicking) for c in self.encounter.fighters]

    def _follow(self) -> None:
        """A sheet changed (here, in another app or on another screen): show the fight as
        the sheets now say, and watch any sheet that joined the party."""
        for sheet in self.party().values():
            if id(sheet) not in self._watched:
                self._watched.add(id(sheet))
                sheet.on_change(self._follow_sheet)
        board = self._board()
        if board != self._shown:
            self._shown = board
            self.app.render()
            self.app.moves.render()
        self._note()

    def _note(self) -> None:
        names = set(self.party())
        fighting = {c.name for c in self.encounter.combatants}
        missing = sorted(names - fighting)
        self.join.disabled = not missing
        self.note.value = ('<span class="tc-side">Party not in the fight yet: '
                           f'{_escape(", ".join(missing))}</span>' if missing else "")

    def party_joins(self) -> None:
        from companion.rulesets.cairn_srd.combat import join_character

        fighting = {c.name for c in self.encounter.combatants}
        # A player's seat brings in their own character (Encounter.acting_for); the GM's,
        # everyone not fighting yet.
        mine = self.campaign.who if self.campaign.role == "player" else None
        for name, c in self.party().items():
            if name not in fighting and mine in (None, name):
                join_character(self.encounter, c)
        self._note()


class PartyAppPanel(widgets.VBox):
    """An app that takes the whole Cairn party (``build(party)``), following the campaign:
    when a character joins or leaves the party (here or on another screen) the app is built
    again over the same campaign trackers, so newcomers join the journey, delve or downtime.
    ``app`` is the app shown now."""

    def __init__(self, campaign: Campaign, build: Callable[[list[Character]], widgets.Widget],
                 *, name: str) -> None:
        super().__init__(layout=widgets.Layout(max_width="100%"))
        self.add_class(f"tc-party-app-{name}")
        self.campaign = campaign
        self.build = build
        self.error = ErrorLine()
        self.app: widgets.Widget = widgets.HTML()
        self._ids: tuple[int, ...] | None = None
        campaign.on_change(safe(self.error)(lambda _c: self.sync()))
        self.sync()

    def party(self) -> list[Character]:
        """The campaign's Cairn characters (the same sheets the other apps show)."""
        from companion.rulesets.cairn_srd.character import Character

        return [m.tracker for m in self.campaign.party if isinstance(m.tracker, Character)]

    def sync(self) -> None:
        party = self.party()
        ids = tuple(id(c) for c in party)
        if ids == self._ids:
            return
        self._ids = ids  # first: building may make moves that notify the campaign again
        self.app = self.build(party)
        self.children = (self.error, self.app)


@dataclass(frozen=True)
class AppSpec:
    """One app: its notebook (``widgets/<key>.ipynb``), title, ruleset and builders."""

    key: str
    title: str
    ruleset: str
    build: Callable[[Campaign], widgets.Widget]
    demo: Callable[[], widgets.Widget]
    about: str = ""


# --- builders ---------------------------------------------------------------------------


def _cairn_member_app(campaign: Campaign, app: str, label: str, name: str) -> widgets.Widget:
    """A Cairn app for one party character at a time (``app`` of companion.widgets.cairn_srd)."""
    from companion.rulesets.cairn_srd.character import Character
    from companion.widgets import cairn_srd

    return MemberPanel(campaign, Character,
                       functools.partial(getattr(cairn_srd, app), campaign=campaign),
                       label=label, name=name,
                       empty="No character in this campaign yet: add one in the Table "
                             "Companion.")


def _cairn_sheet(campaign: Campaign) -> widgets.Widget:
    return _cairn_member_app(campaign, "CairnCharacterApp", "Character", "character")


def _cairn_spells(campaign: Campaign) -> widgets.Widget:
    return _cairn_member_app(campaign, "SpellcastingApp", "Caster", "caster")


def _cairn_combat(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.combat import Encounter

    return PartyFightPanel(campaign, ensure(campaign, FIGHT, Encounter, Encounter, "encounter"))


def _cairn_duel(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.duel import Duel
    from companion.widgets.cairn_srd import DuelApp

    return DuelApp(ensure(campaign, DUEL, Duel, Duel), viewer=campaign.who or None,
                   role=campaign.role, campaign=campaign)


def _cairn_lock(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.lockpicking import LockPicking
    from companion.widgets.base import draw_seed
    from companion.widgets.cairn_srd import LockpickingApp

    return LockpickingApp(ensure(campaign, LOCK, LockPicking, lambda: LockPicking.create(
        seeds=(draw_seed(), draw_seed(), draw_seed()))), campaign=campaign)


def _wilderness(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.wilderness import Journey
    from companion.widgets.cairn_srd.wilderness import WildernessApp

    return PartyAppPanel(campaign, lambda party: WildernessApp(
        party, ensure(campaign, JOURNEY, Journey, Journey), campaign=campaign),
        name="wilderness")


def _downtime(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.downtime import Downtime
    from companion.widgets.cairn_srd.downtime import DowntimeApp

    return PartyAppPanel(campaign, lambda party: DowntimeApp(
        party, ensure(campaign, DOWNTIME, Downtime, Downtime), campaign=campaign),
        name="downtime")


def _dungeon_crawl(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.exploration import Delve
    from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp

    return PartyAppPanel(campaign, lambda party: DungeonCrawlApp(
        party, ensure(campaign, DELVE, Delve, Delve), campaign=campaign),
        name="dungeon-crawl")


def _mass_combat(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.cairn_srd.mass_combat import Vessel
    from companion.widgets.cairn_srd.vessels import MassCombatApp

    return MassCombatApp(ensure(campaign, VESSEL, Vessel, Vessel, "encounter"),
                         campaign=campaign)


def _cairn_tasks(campaign: Campaign) -> widgets.Widget:
    from companion.widgets.cairn_srd.skills import TasksApp

    return TasksApp(campaign=campaign)


def _mm_table(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
    from companion.rulesets.monsters_and_magic.party import Party
    from companion.widgets.monsters_and_magic import MonstersAndMagicApp

    party = Party(ensure(campaign, GM_THREADS, GameMaster, GameMaster))
    for member in campaign.party:
        if isinstance(member.tracker, Adventurer):
            party.add(member.tracker)

    adopting: list[bool] = []

    def adopt(adventurer: Adventurer) -> Adventurer:
        adopting.append(True)
        try:
            return campaign.add(adventurer.name, adventurer)
        finally:
            adopting.pop()

    app = MonstersAndMagicApp(party=party, adopt=adopt, campaign=campaign)

    def seat_newcomers(_campaign: object) -> None:
        if adopting:
            return  # this app seats its own new character
        seated = {id(a) for a in party.characters}
        for member in campaign.party:
            if isinstance(member.tracker, Adventurer) and id(member.tracker) not in seated:
                app.seat(party.add(member.tracker))

    campaign.on_change(safe(app.error)(seat_newcomers))
    seat_newcomers(campaign)  # anyone who joined while the app was being built
    return app


def _plot_points(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.plot_points.session import PlotPointSession
    from companion.widgets.plot_points import PlotPointsApp

    gm = campaign.who if campaign.role == "gm" and campaign.who else "GM"
    session = ensure(campaign, PLOT_TABLE, PlotPointSession,
                     lambda: PlotPointSession.new([], gm))
    return PlotPointsApp(session=session, campaign=campaign)


def _spell_points(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.variant5e import SpellPointsApp

    return MemberPanel(campaign, SpellPoints, SpellPointsApp, label="Caster",
                        empty="No caster in this campaign yet: add one in the Table Companion.",
                        name="caster")


def _death(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.death_and_returning import DeathRecord
    from companion.widgets.variant5e import DeathAndReturningApp

    return MemberPanel(campaign, DeathRecord,
                       lambda record: DeathAndReturningApp(record, campaign=campaign),
                       label="Creature",
                        empty="No creature in this campaign yet: add one in the Table "
                              "Companion.", name="creature")


def _combat_options(campaign: Campaign) -> widgets.Widget:
    from companion.widgets.variant5e import CombatOptionsApp

    return CombatOptionsApp(campaign=campaign)


#: Longest name of a campaign member (the store's limit).
_MAX_NAME = 80
_NO_5E = "Nobody in this campaign yet: add a caster or a creature in the Table Companion."


class _Draft:
    """A member's record an app shows before it is stored: a plain tracker whose keeper
    (its [Recorder][companion.state.Recorder], no method replaced) stores the record
    (role "record", owned by the member) on its first move or load and makes that move on
    the stored one. From then on every move, undo and load is the stored record's own and
    the draft shows it, so the app built on the draft keeps working and there is one
    state: the member's record in the campaign."""

    def __init__(self, campaign: Campaign, full: str, owner: str, tracker: Tracker) -> None:
        self.campaign = campaign
        self.full = full
        self.owner = owner
        self.tracker = tracker
        self.cls = type(tracker)
        self.live: Tracker | None = None
        tracker.attach(self)

    def stored(self) -> bool:
        """Whether the draft follows a record still in the campaign."""
        return self.live is not None and any(m.tracker is self.live for m in self.campaign)

    def store(self) -> Tracker:
        """The stored record (stored now from the draft's state if nobody has yet)."""
        if self.live is None:
            state = self.tracker.snapshot()
            live = ensure(self.campaign, self.full, self.cls,
                          lambda: self.cls.from_state(state), "record", owner=self.owner)
            self.live = live
            live.on_change(self._show)
            if live.snapshot() != state or live.log:
                self._show(live)
        return self.live

    def _show(self, live: Tracker) -> None:
        """The draft shows the stored record (loaded as itself: not a move to keep)."""
        self.tracker.attach(None)
        try:
            self.tracker.load(live.to_json())
        finally:
            self.tracker.attach(self)

    # -- the Recorder seam (companion.state.Recorder) ------------------------------------

    def record_move(self, tracker: Tracker, name: str, arguments: dict[str, Any],
                    perform: Callable[[dict[str, Any]], Any]) -> Any:
        if self.live is None:  # judged on a copy first: a refused move stores nothing
            trial = self.cls.from_dict(tracker.to_dict())
            getattr(trial, name)(**copy.deepcopy(arguments))
        return getattr(self.store(), name)(**arguments)

    def record_undo(self, tracker: Tracker, perform: Callable[[], Any]) -> Any:
        if self.live is None:
            return perform()  # nothing to undo yet: the rule's own refusal
        return self.live.undo()

    def record_load(self, tracker: Tracker, text: str | bytes,
                    perform: Callable[[], None]) -> None:
        self.cls.from_json(text)  # a bad save is refused before anything is stored
        self.store().load(text)

    def tracker_changed(self, tracker: Tracker) -> None:
        tracker.notify_observers()


class MemberRecords:
    """The members' own records one app shows, made lazily (nothing is stored by building
    or showing the app): a record in the campaign is used as it is; a missing one is a
    draft until the member's first move in the app, or until the member is picked in it
    (``now``), which stores it (see [ensure][companion.widgets.table.apps.ensure])."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.drafts: dict[str, _Draft] = {}

    def get(self, kind: str, name: str, cls: type[T], make: Callable[[], T], *,
            now: bool = False) -> T:
        full = kind.format(name)
        stored = next((m.tracker for m in self.campaign.records(name)
                       if m.name == full and isinstance(m.tracker, cls)), None)
        draft = self.drafts.pop(full, None)
        if draft is not None and draft.live is not None and draft.stored():
            self.drafts[full] = draft  # stored by its own first move: the app keeps it
            assert isinstance(draft.tracker, cls)
            return draft.tracker
        # (a draft whose record left with the member is dropped: a member back starts anew)
        if stored is not None:
            return stored
        if now:
            return ensure(self.campaign, full, cls, make, "record", owner=name)
        if draft is None or draft.live is not None:
            draft = _Draft(self.campaign, full, name, make())
        self.drafts[full] = draft
        assert isinstance(draft.tracker, cls)
        return draft.tracker


def _roll_controls(campaign: Campaign, hint: str, name: str) -> RollControls:
    """The roll mode picker and own-dice box of an app, for the campaign's viewer."""
    from companion.widgets.rolls import RollControls

    return RollControls(campaign=campaign, who=campaign.who, role=campaign.role, hint=hint,
                        name=name)


def _hit_dice(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.healing import HitDice
    from companion.widgets.variant5e_healing import HitDiceApp

    kept = MemberRecords(campaign)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(HIT_DICE, name, HitDice, lambda: default_hit_dice(campaign, name),
                         now=now),)

    def build(name: str, hd: HitDice) -> widgets.Widget:
        return HitDiceApp(hd, who=name, controls=_roll_controls(campaign, f"1d{hd.die}",
                                                                "hit-die"))

    return CharacterPanel(campaign, lambda: five_e_party(campaign), records, build,
                          label="Character", empty=_NO_5E, name="hit-dice")


def _combat_turn(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.actions import Turn
    from companion.rulesets.variant5e.mark import Reactions
    from companion.widgets.variant5e_turn import CombatTurnApp

    kept = MemberRecords(campaign)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(TURN, name, Turn, Turn, now=now),
                kept.get(REACTIONS, name, Reactions, Reactions, now=now))

    return CharacterPanel(campaign, lambda: five_e_party(campaign), records,
                          lambda name, turn, reactions: CombatTurnApp(turn, reactions,
                                                                      who=name),
                          label="Creature", empty=_NO_5E, name="turn")


def _facing(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.facing_and_flanking import FacingTracker
    from companion.widgets.variant5e_facing import FacingApp

    kept = MemberRecords(campaign)

    def records(name: str, now: bool) -> tuple[Tracker, ...]:
        return (kept.get(FACING, name, FacingTracker, FacingTracker, now=now),)

    return CharacterPanel(campaign, lambda: five_e_party(campaign), records,
                          lambda name, facing: FacingApp(facing, defender=name),
                          label="Defender", empty=_NO_5E, name="facing")


def _magic_items(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.activating_items import MagicItem
    from companion.widgets.variant5e_items import CharacterItemsApp

    def items(name: str) -> list[MagicItem]:
        return [m.tracker for m in campaign.records(name) if isinstance(m.tracker, MagicItem)]

    def adopt(name: str, item: MagicItem) -> MagicItem:
        full = ITEM.format(name, " ".join(item.name.split()))
        if len(full) > _MAX_NAME:
            from companion.errors import CompanionError

            room = _MAX_NAME - len(ITEM.format(name, ""))
            raise CompanionError(f"Items: {name}'s item names are at most {room} characters")
        return campaign.add(full, item, role="record", owner=name)

    def build(name: str) -> widgets.Widget:
        app = CharacterItemsApp(lambda: items(name), owner=name,
                                adopt=lambda item: adopt(name, item))
        campaign.on_change(safe(app.error)(lambda _c: app.sync()))
        return app

    return CharacterPanel(campaign, lambda: five_e_party(campaign), lambda _n, _now: (), build,
                          label="Character", empty=_NO_5E, name="items")


def _casters(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.variant5e.spell_points import SpellPoints
    from companion.widgets.variant5e_casters import CastersApp

    def casters() -> dict[str, SpellPoints]:
        return {m.name: m.tracker for m in campaign.party if isinstance(m.tracker, SpellPoints)}

    app = CastersApp(casters(), adopt=lambda name, caster: campaign.add(name, caster))
    campaign.on_change(safe(app.error)(lambda _c: app.follow(casters())))
    return app


def _mm_travel(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
    from companion.rulesets.monsters_and_magic.party import Party
    from companion.widgets.monsters_and_magic_travel import TravelApp

    gm = ensure(campaign, GM_THREADS, GameMaster, GameMaster)

    def party() -> Party:
        table = Party(gm)
        for member in campaign.party:
            if isinstance(member.tracker, Adventurer):
                table.add(member.tracker)
        return table

    app = TravelApp(party=party, controls=_roll_controls(campaign, "1d20 each", "travel"))
    campaign.on_change(safe(app.error)(lambda _c: app.render_party()))
    return app


def _miasma(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.miasma.psychosis import MiasmaTracker
    from companion.widgets.miasma import MiasmaTrackerApp

    return MiasmaTrackerApp(ensure(campaign, MIASMA, MiasmaTracker, MiasmaTracker))


def _monarchs(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
    from companion.widgets.miasma import DiceMonarchsApp

    # The table's own people: the Miasma characters, else the party, else two placeholders.
    party = _miasma_names(campaign) or [m.name for m in campaign.party]
    names = ", ".join(party[:8]) or "Ann, Bo"
    return DiceMonarchsApp(ensure(campaign, MONARCHS, DiceMonarchsGame, DiceMonarchsGame),
                           players=names if "," in names else f"{names}, GM",
                           viewer=campaign.who or None, role=campaign.role, campaign=campaign)


def _miasma_names(campaign: Campaign) -> list[str]:
    from companion.rulesets.miasma.psychosis import MiasmaTracker

    for member in campaign:
        if isinstance(member.tracker, MiasmaTracker):
            return [c.name for c in member.tracker.characters]
    return []


def _earthmotes(campaign: Campaign) -> widgets.Widget:
    from companion.rulesets.miasma.earthmotes import EarthmoteLog
    from companion.widgets.miasma import EarthmotesApp

    return EarthmotesApp(ensure(campaign, EARTHMOTES, EarthmoteLog, EarthmoteLog.start),
                         campaign=campaign)


def _dice_tray(campaign: Campaign) -> widgets.Widget:
    from companion.widgets.dice_tray import DiceTray

    return DiceTray()


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


_CACHE: dict[tuple[int, str], widgets.Widget] = {}
_CACHE_LOCK = threading.Lock()
_BUILDING: dict[tuple[int, str], threading.Lock] = {}


def campaign_app(campaign: Campaign, key: str) -> widgets.Widget:
    """The app ``key`` for ``campaign``, built once per kernel (then the same widget)."""
    app = spec(key)
    if app.ruleset and app.ruleset not in campaign.rulesets:
        from companion.errors import UnknownNameError

        raise UnknownNameError(f"{app.title} is a {app.ruleset} app; campaign "
                               f"{campaign.name!r} plays {', '.join(campaign.rulesets)}")
    with _CACHE_LOCK:
        lock = _BUILDING.setdefault((id(campaign), key), threading.Lock())
    with lock:  # held while building: a prebuild and a tap never build the same app twice
        found = _CACHE.get((id(campaign), key))
        if found is None:
            found = _CACHE[(id(campaign), key)] = app.build(campaign)
        return found


def is_built(campaign: Campaign, key: str) -> bool:
    return (id(campaign), key) in _CACHE


def app_heading(title: str, context: PageContext, *, demo: bool,
                with_title: bool = True) -> widgets.HTML:
    """The line above an app: its title and the campaign and person, or *demo*."""
    heading = f'<h3 class="tc-title">{_escape(title)}</h3>' if with_title else ""
    if demo:
        text = (f'{heading}<div class="tc-demo">Demo: '
                "nothing here is kept. Open the <a href=\"table.ipynb\">Table Companion</a> "
                "to play a campaign.</div>")
    else:
        who = f" · {_escape(context.who)}" if context.who else ""
        role = {"gm": " (GM)", "player": " (player)", "spectator": " (watching)"}.get(
            context.role, "")
        text = (f'{heading}<div class="tc-where" '
                f'data-campaign="{_escape(context.campaign)}">Campaign '
                f"<b>{_escape(context.campaign)}</b>{who}{role} · "
                f'<a href="table.ipynb?{_escape(context.query())}">Table Companion</a></div>')
    return widgets.HTML(text)


def campaign_page(key: str, context: PageContext | None = None) -> widgets.Widget:
    """What an app's notebook shows: the app for the URL's campaign, or its demo."""
    from companion.widgets.table.binding import (
        SPECTATOR,
        connection_banner,
        join_line,
        page_campaign,
    )

    app = spec(key)
    context = context or PageContext.from_query()
    error = ErrorLine()
    try:
        campaign = page_campaign(context)
    except Exception as exc:
        error.show(exc)
        return page(app_heading(app.title, context, demo=True, with_title=False), error)
    if campaign is None:
        return page(app_heading(app.title, context, demo=True, with_title=False), app.demo())
    body: widgets.Widget
    try:
        body = campaign_app(campaign, key)
    except Exception as exc:
        error.show(exc)
        body = widgets.HTML()
    context = context.with_(  # the seat's, issue 19; a dead secret is not linked on
        who=campaign.who, role=campaign.role,
        seat=context.seat if campaign.role != SPECTATOR else "")
    heading = app_heading(app.title, context, demo=False, with_title=False)
    parts: list[widgets.Widget] = [connection_banner(), heading]
    if campaign.role == SPECTATOR:
        parts.append(join_line())
    return page(*parts, error, body)


def page(*children: widgets.Widget) -> widgets.VBox:
    """The outer box of a page (``.tc-page``): its heading, error line and app."""
    box = widgets.VBox([style_tag(), *children],
                       layout=widgets.Layout(max_width=APP_MAX_WIDTH))
    box.add_class("tc-page")
    return box
