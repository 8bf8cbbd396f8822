"""Miasma: earthmotes, psychosis and Dice Monarchs.

Three pieces of one setting's rules:

- `earthmotes` — floating islands held aloft by magic. Roll a d6 for an earthmote's
  size and 2d12 for its biome (two terrain types combine into one landscape); an 11 adds a
  settlement, stronghold or ruin and a 12 a planar portal, and that die is rolled again.
- `psychosis` — the madness of the Miasma in six levels whose effects add up, gained
  from effects and from stress while inside, lost by resting outside with food and drink,
  by *greater restoration* or by being raised; level 6 is beyond ordinary cures.
- `dice_monarchs` — Dice Monarchs, a poker played with five dice per player and five
  community dice, with its 54-hand ranking, a table for 2–8 players and hand odds.
"""
