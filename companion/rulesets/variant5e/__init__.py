"""5e Optional Rules: combat options, healing variants, spell points and death modules.

A collection of optional and clarified rules for fifth-edition play. Each rule lives in a
module named after its heading in the document:

- **Activating items** ([activating_items][companion.rulesets.variant5e.activating_items]): what it
  costs to use an object, speak
  a command word, use up a consumable, cast a spell from an item or spend its charges.
- **Combat actions**: [cleaving][companion.rulesets.variant5e.cleaving] (excess damage carries to
  the next creature),
  [climbing][companion.rulesets.variant5e.climbing] (clambering onto a bigger creature),
  [dash][companion.rulesets.variant5e.dash],
  [diagonal_moves][companion.rulesets.variant5e.diagonal_moves] (diagonals cost 5 ft, then 10 ft,
  alternately),
  [actions][companion.rulesets.variant5e.actions] (disengage, dodge, help, hide, ready, search,
  improvising, end
  concentration, other activities),
  [identify_a_spell][companion.rulesets.variant5e.identify_a_spell] (DC 15 + spell level),
  [mark][companion.rulesets.variant5e.mark] and
  [opportunity_attack][companion.rulesets.variant5e.opportunity_attack].
- **Contests** ([contests][companion.rulesets.variant5e.contests]): d20 + modifier against d20 +
  modifier, with the exact
  odds of each side; the maneuvers that use them are [disarm][companion.rulesets.variant5e.disarm],
  [grapple][companion.rulesets.variant5e.grapple]
  (with moving a grappled target and escaping), [overrun][companion.rulesets.variant5e.overrun],
  [shove][companion.rulesets.variant5e.shove] (with
  shove aside), [tumble][companion.rulesets.variant5e.tumble];
  [two_weapon_fighting][companion.rulesets.variant5e.two_weapon_fighting] sets the off-hand attack.
- **Facing and flanking** ([facing_and_flanking][companion.rulesets.variant5e.facing_and_flanking]):
  arcs on a square grid and who
  flanks whom.
- **Healing** ([healing][companion.rulesets.variant5e.healing]): healer's kit dependency, healing
  surges, slow natural
  healing.
- **Spell points / mentality** ([spell_points][companion.rulesets.variant5e.spell_points]): a pool
  of points paid per spell
  level, sized by class level, half refilled by a long rest.
- **Death and returning** ([death_and_returning][companion.rulesets.variant5e.death_and_returning]):
  three strikes and you're out,
  permanent death failures, escalation strikes and the Fragile Soul check with its d100
  tables.
"""
