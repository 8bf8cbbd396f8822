"""5e Optional Rules: combat options, healing variants, spell points and death modules.

A collection of optional and clarified rules for fifth-edition play. Each rule lives in a
module named after its heading in the document:

- **Activating items** (:mod:`.activating_items`): what it costs to use an object, speak
  a command word, use up a consumable, cast a spell from an item or spend its charges.
- **Combat actions**: :mod:`.cleaving` (excess damage carries to the next creature),
  :mod:`.climbing` (clambering onto a bigger creature), :mod:`.dash`,
  :mod:`.diagonal_moves` (diagonals cost 5 ft, then 10 ft, alternately),
  :mod:`.actions` (disengage, dodge, help, hide, ready, search, improvising, end
  concentration, other activities), :mod:`.identify_a_spell` (DC 15 + spell level),
  :mod:`.mark` and :mod:`.opportunity_attack`.
- **Contests** (:mod:`.contests`): d20 + modifier against d20 + modifier, with the exact
  odds of each side; the maneuvers that use them are :mod:`.disarm`, :mod:`.grapple`
  (with moving a grappled target and escaping), :mod:`.overrun`, :mod:`.shove` (with
  shove aside), :mod:`.tumble`; :mod:`.two_weapon_fighting` sets the off-hand attack.
- **Facing and flanking** (:mod:`.facing_and_flanking`): arcs on a square grid and who
  flanks whom.
- **Healing** (:mod:`.healing`): healer's kit dependency, healing surges, slow natural
  healing.
- **Spell points / mentality** (:mod:`.spell_points`): a pool of points paid per spell
  level, sized by class level, half refilled by a long rest.
- **Death and returning** (:mod:`.death_and_returning`): three strikes and you're out,
  permanent death failures, escalation strikes and the Fragile Soul check with its d100
  tables.
"""
