"""Components for the Miasma apps, one module per app.

- [DiceMonarchsApp][companion.widgets.miasma.dice_monarchs.DiceMonarchsApp]: a hot-seat
  Dice Monarchs table.
- [EarthmotesApp][companion.widgets.miasma.earthmotes.EarthmotesApp]: generate earthmotes
  and keep the list.
- [MiasmaTrackerApp][companion.widgets.miasma.tracker.MiasmaTrackerApp]: psychosis and
  stress per character, day by day.

Each app is a VBox over one core tracker from `companion.rulesets.miasma`; it re-renders
after every move (`bind`) and holds no rule logic: buttons call the tracker's moves, a
refused move shows its one-line error, a bad typed value is refused under its box, and
buttons the rules do not allow right now are disabled.

Rolls (issue 13): an earthmote and a new region roll through the app's
[RollControls][companion.widgets.rolls.RollControls] (a roll mode, or real dice typed
in); at a Dice Monarchs table where the banker rolls by hand, the community dice can be
typed in on the table screen (the hole dice always come from the table's secret seed).
The Miasma tracker rolls no dice.
"""

from companion.widgets.miasma.dice_monarchs import DiceMonarchsApp
from companion.widgets.miasma.earthmotes import EarthmotesApp
from companion.widgets.miasma.tracker import MiasmaTrackerApp

__all__ = ["DiceMonarchsApp", "EarthmotesApp", "MiasmaTrackerApp"]
