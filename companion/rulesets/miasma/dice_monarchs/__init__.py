"""Dice Monarchs (also called Wizard Poker): poker played with dice in a tavern.

Every player owns five *hole dice*, a d4, d6, d8, d10 and d12, rolled in secret. Five
*community dice* of the same sizes are rolled by the *banker* in three stages: the *flop*
(d4, d6, d8), the *turn* (d10) and the *river* (d12). Betting rounds come before the flop,
after it, after the turn and after the river; players bin, check, bet, call or raise, and
every chip bet goes to the *pot*. At the *showdown* each player still in builds a hand of
exactly one die of each size, choosing for each size their own die or the community one,
and the best hand takes the pot.

- `hands` — the 54 hands from highest to lowest, their patterns, the exact number of
  the 23,040 rolls holding each (beside the seed's printed counts), and the best hand.
- `game` — `game.DiceMonarchsGame`, a table for 2–8 players that enforces
  turn order and legal moves.
- `strength` — `strength.hand_strength`, the chance to win the showdown, and
  `strength.quick_strength`, the table's readout bounded to 200 ms.

Master the bluff, says the tavern wisdom: make your rivals bin and the pot is yours, but
let the pot grow before you try.
"""

from companion.rulesets.miasma.dice_monarchs.game import DiceMonarchsGame
from companion.rulesets.miasma.dice_monarchs.hands import (
    DICE,
    OUTCOMES,
    Hand,
    ShowdownHand,
    all_hands,
    best_hand,
    best_showdown_hand,
    hand_counts,
)
from companion.rulesets.miasma.dice_monarchs.strength import (
    Strength,
    hand_strength,
    quick_strength,
)

__all__ = [
    "DICE",
    "OUTCOMES",
    "DiceMonarchsGame",
    "Hand",
    "ShowdownHand",
    "Strength",
    "all_hands",
    "best_hand",
    "best_showdown_hand",
    "hand_counts",
    "hand_strength",
    "quick_strength",
]
