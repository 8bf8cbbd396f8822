"""Cairn-derived SRD (part 1): saves, burden, skills, spellcasting, damage, combat, duels.

A rules-light game of saving throws. A player character has three abilities that double
as saves (STR, DEX, CTRL, 0-18), a pool of **Guard** that soaks hits in combat, and a
**burden** of 10 slots holding gear, Fatigue and Wounds. Anything risky is a d20 roll at
or under an ability; tasks are settled by skill, time and tools; magic costs burden
slots and risks mishaps and dooms; combat is damage dice against Armor, Guard and STR.

Modules, named as the seed names the rules:

- :mod:`.saves`: saving throws, difficulty floors, the die of fate, inspiration;
- :mod:`.burden`: slots, encumbrance tags, usage dice;
- :mod:`.damage`: armor, Guard, STR, Critical Damage, scars;
- :mod:`.character`: the character tracker (burden, damage, rest, boasts, casting);
- :mod:`.skills`: skill tests and the yield die;
- :mod:`.lockpicking`: creating locks and the lockpicking minigame;
- :mod:`.social`: knowledge, perception, NPC wants, disposition, social checks;
- :mod:`.spellcasting`: magic dice, mishaps, dooms and their exact odds;
- :mod:`.combat`: attacks, gambits, morale, detachments and the encounter tracker;
- :mod:`.duel`: the dueling minigame;
- :mod:`.mass_combat`: detachments, ships, fleets and the scale attack matrix.

Time runs in rounds (a fight's exchange), turns (a few rooms), watches (a day's third)
and cycles (weeks). Distances are close, nearby and far; anything else is out of range.
Player roles (caller, mapper, note taker, quartermaster, timekeeper) share the
referee's bookkeeping. These lists live in ``data/rules.toml``.
"""
