"""Components for the Cairn SRD apps, one module per app.

- [CairnCharacterApp][companion.widgets.cairn_srd.character.CairnCharacterApp]: the
  character sheet (burden slots, damage and scars, rest, boasts, inspiration);
- [SpellcastingApp][companion.widgets.cairn_srd.spellcasting.SpellcastingApp] with its
  [MagicOddsPanel][companion.widgets.cairn_srd.spellcasting.MagicOddsPanel];
- [DuelApp][companion.widgets.cairn_srd.duel.DuelApp];
- [LockpickingApp][companion.widgets.cairn_srd.lockpicking.LockpickingApp];
- [CombatApp][companion.widgets.cairn_srd.combat.CombatApp] with its
  [GambitPanel][companion.widgets.cairn_srd.combat.GambitPanel];
- [DungeonCrawlApp][companion.widgets.cairn_srd.dungeon_crawl.DungeonCrawlApp]: exploration
  turns, the site clock with its odds, light, encounters, the darkness and escaping;
- [WildernessApp][companion.widgets.cairn_srd.wilderness.WildernessApp]: the route planner
  and the watch-by-watch journey;
- [DowntimeApp][companion.widgets.cairn_srd.downtime.DowntimeApp]: downtime cycles for the
  party, factions, settlement hazards and the coin ledger;
- [MassCombatApp][companion.widgets.cairn_srd.vessels.MassCombatApp]: the attack matrix
  beside a ship (damage to its parts, boarding, repair, rest at port);
- [TasksApp][companion.widgets.cairn_srd.skills.TasksApp]: skill tests with their yield,
  social checks and knowledge checks.

Panels composed into those apps:
[ConditionsPanel][companion.widgets.cairn_srd.conditions.ConditionsPanel] (the sheet),
[CombatMovesPanel][companion.widgets.cairn_srd.combat_moves.CombatMovesPanel] (combat),
[SpellbookPanel][companion.widgets.cairn_srd.spellbook.SpellbookPanel] (spellcasting).

Each app is a VBox over one core tracker ([companion.rulesets.cairn_srd][]): it renders
from the model after every move and holds no rule logic. Buttons call the tracker's moves;
a refused move shows its one-line error under the buttons; a typed value is refused under
its own box; a button that cannot work now is disabled. Every app takes an optional
existing tracker, ``seed_source`` and the page's ``campaign`` (see
[common][companion.widgets.cairn_srd.common]), and offers Save and Load. Every roll an app
makes takes a roll mode (public, GM only, blind, self) and can be entered from real dice,
through the app's one [RollControls][companion.widgets.rolls.RollControls].
"""

from __future__ import annotations

from companion.widgets.cairn_srd.character import CairnCharacterApp
from companion.widgets.cairn_srd.combat import CombatApp, GambitPanel, demo_encounter
from companion.widgets.cairn_srd.downtime import DowntimeApp
from companion.widgets.cairn_srd.duel import DuelApp
from companion.widgets.cairn_srd.dungeon_crawl import DungeonCrawlApp
from companion.widgets.cairn_srd.lockpicking import LockpickingApp
from companion.widgets.cairn_srd.skills import TasksApp
from companion.widgets.cairn_srd.spellcasting import MagicOddsPanel, SpellcastingApp
from companion.widgets.cairn_srd.vessels import MassCombatApp
from companion.widgets.cairn_srd.wilderness import WildernessApp

__all__ = [
    "CairnCharacterApp",
    "CombatApp",
    "DowntimeApp",
    "DuelApp",
    "DungeonCrawlApp",
    "GambitPanel",
    "LockpickingApp",
    "MagicOddsPanel",
    "MassCombatApp",
    "SpellcastingApp",
    "TasksApp",
    "WildernessApp",
    "demo_encounter",
]
