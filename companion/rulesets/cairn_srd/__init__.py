"""Cairn-derived SRD (part 1): saves, burden, skills, spellcasting, damage, combat, duels.

A rules-light game of saving throws. A player character has three abilities that double
as saves (STR, DEX, CTRL, 0-18), a pool of **Guard** that soaks hits in combat, and a
**burden** of 10 slots holding gear, Fatigue and Wounds. Anything risky is a d20 roll at
or under an ability; tasks are settled by skill, time and tools; magic costs burden
slots and risks mishaps and dooms; combat is damage dice against Armor, Guard and STR.

Modules, named as the seed names the rules:

- [saves][companion.rulesets.cairn_srd.saves]: saving throws, difficulty floors, the die of fate,
  inspiration;
- [burden][companion.rulesets.cairn_srd.burden]: slots, encumbrance tags, usage dice;
- [damage][companion.rulesets.cairn_srd.damage]: armor, Guard, STR, Critical Damage, scars;
- [character][companion.rulesets.cairn_srd.character]: the character tracker (burden, damage, rest,
  boasts, casting);
- [skills][companion.rulesets.cairn_srd.skills]: skill tests and the yield die;
- [lockpicking][companion.rulesets.cairn_srd.lockpicking]: creating locks and the lockpicking
  minigame;
- [social][companion.rulesets.cairn_srd.social]: knowledge, perception, NPC wants, disposition,
  social checks;
- [spellcasting][companion.rulesets.cairn_srd.spellcasting]: magic dice, mishaps, dooms and their
  exact odds;
- [combat][companion.rulesets.cairn_srd.combat]: attacks, gambits, morale, detachments and the
  encounter tracker;
- [duel][companion.rulesets.cairn_srd.duel]: the dueling minigame;
- [mass_combat][companion.rulesets.cairn_srd.mass_combat]: detachments, ships, fleets and the scale
  attack matrix;
- [exploration][companion.rulesets.cairn_srd.exploration]: exploration turns, the site clock and
  site die (with exact encounter odds), encounters, light, the darkness, escaping the dungeon;
- [wilderness][companion.rulesets.cairn_srd.wilderness]: wilderness watches, the route planner
  (travel duration), navigation, supply, camps, cooking, event checks and threats;
- [downtime][companion.rulesets.cairn_srd.downtime]: downtime cycles, upkeep, petty crime, banks,
  downtime actions, factions and the coin ledger;
- [settlements][companion.rulesets.cairn_srd.settlements]: the settlement hazard die, upheavals,
  conditions, shifts and rumours.

Time runs in rounds (a fight's exchange), turns (a few rooms), watches (a day's third)
and cycles (weeks). Distances are close, nearby and far; anything else is out of range.
Player roles (caller, mapper, note taker, quartermaster, timekeeper) share the
referee's bookkeeping.

Every roll of these rules (a save, a skill test, a table, a move that rolls) can be
seeded, and the same seed gives the same result; dice rolled at the table by hand are
entered and scored by the same rules.

## In code

These lists live in ``data/rules.toml``. Every roll takes ``seed=`` or ``rng=``: the same
seed gives the same result through either, and dice rolled at the table reach the rule as
an ``rng`` holding them ([EnteredDice][companion.dice.physical.EnteredDice]).
"""
