"""The parts a [Campaign][companion.store.campaign.Campaign] is composed of, one
responsibility each (issue 43), each building only on the parts below it:

- ``core``: the state every part shares, the seat this object acts as, the change
  notices and the lock, reading the members; the records the parts pass around
  (``Member``, ``Mark``, ``RollScope``);
- ``replay``: the live state rebuilt from stored facts (opening, snapshots, applying
  events along the chain, following other screens);
- ``permission_checks``: who may do what, asked for this screen's seat;
- ``unit_of_work``: events stored whole in one transaction, and the retry with the
  writer lock after a lost race;
- ``seam``: every live tracker's moves, undo and load, judged, made and stored;
- ``roll_log``: the table's roll log, rule rolls, hidden rolls and their reveals.

[companion.store.campaign][] composes them (with the members' changes, the table's
trust, the sittings, and export and import) and re-exports every public name. This
package is private to [companion.store][]: nothing outside it imports it.
"""
