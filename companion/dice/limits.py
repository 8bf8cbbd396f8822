"""Every ceiling of the dice engine, in one place.

These keep a typo or a prank (``99999d99999999``, ``1d1!``) from hanging the app or
exhausting memory; each is reported as a [DiceLimitError][companion.errors.DiceLimitError].
"""

from __future__ import annotations

MAX_EXPR_CHARS = 1_000
"""Longest expression accepted, in characters."""

MAX_DEPTH = 100
"""Deepest nesting of parentheses and unary minus."""

MAX_DICE = 10_000
"""Most dice one expression may ask for (counted before rerolls and explosions)."""

MAX_SIDES = 1_000_000
"""Most faces on one die."""

MAX_EXPLOSIONS = 100
"""A rolled die explodes at most this many times; the roll says so when the cap is hit."""

MAX_REROLL_ATTEMPTS = 100
"""Rerolls shown one by one; past this the final face is drawn directly from the faces that
do not match (the same distribution, without the wait)."""

MAX_ROLLED_DICE = 100_000
"""Most dice one roll may record, counting rerolls and explosions (a roll of that many
dice prints as about 6 MB of JSON). A roll expected to need more is refused before it
starts; an unlucky roll that runs past it stops with the same error."""

ODDS_EXPLODE_DEPTH = 20
"""Exact odds follow an exploding die through this many extra rolls; the remaining mass is
reported as ``Distribution.truncated``."""

ODDS_MAX_OUTCOMES = 100_000
"""Most distinct totals an exact distribution may hold before odds suggest ``simulate``
(100,000 totals print as about 2.5 MB of JSON; text, JSON and chart take about half a
second together)."""

ODDS_MAX_FACES = 100_000
"""Most faces per die that exact odds follow one by one (a d1,000,000 rolls, but its exact
odds are refused: they would hold a million totals)."""

ODDS_MAX_STEPS = 1_000_000
"""Budget of one ``odds`` call, in steps of Python work (one face, one case or one pair
of outcomes touched), estimated before each piece of work starts: at most about a second
on a small machine. A refusal by this budget takes milliseconds."""

ODDS_MAX_PRODUCT_BITS = 4_000_000
"""Largest big-integer product (in bits) one convolution may need: about half a second on
a small machine (big-integer products grow faster than their length: 16,000,000 bits took
3 to 6 seconds for ``10d10000``). ``500d6`` fits; ``1000d6`` and ``100d100`` do not."""

ODDS_MAX_PAIRS = 1_000_000
"""Most pairs of outcomes a product or quotient of two distributions may combine."""

ODDS_MAX_KEEP_WORK = 100_000_000_000
"""Ceiling on the keep/drop DP's estimated work (big-integer products and powers, each
counted as its length times the other's length to the power 0.585, as Karatsuba
multiplication costs): about half a second."""

ODDS_MAX_MIXTURE = 2_500
"""Most separate cases (dice counts x sizes) a dynamic expression may split into."""

ODDS_TIME_LIMIT = 5.0
"""Last-resort net: exact odds that run longer than this many seconds stop and suggest
``simulate``. The budgets above refuse the known costly shapes before they start; this
net is not meant to be reached."""

MAX_BATCH_ROLLS = 2_000_000
"""Most rolls one ``roll_many`` / ``simulate`` call may make (about half a second of
``1d20+5``)."""

MAX_BATCH_DICE = 4_000_000
"""Most dice one ``roll_many`` / ``simulate`` call may roll on the batch path (about a
second on a small machine)."""

MAX_BATCH_DICE_DETAILED = 250_000
"""Most dice when some term needs the die-by-die roller (rerolls, explosions, dynamic
counts), which is about twenty times slower per die. Rerolls and explosions count with
the number of dice they are expected to add (``1000d20!>=2`` rolls about 20,000 dice)."""

EXACT_TEXT_MAX_DIGITS = 3_000
"""Longest numerator or denominator, in digits, written out exactly. Longer fractions
(``3500d20kh1`` has 4,554-digit denominators) are written as a 17-digit decimal such as
``1.2345678901234567e-4553``, worked out without turning the huge integers into text
(Python refuses that past 4,300 digits, and it takes quadratic time)."""
