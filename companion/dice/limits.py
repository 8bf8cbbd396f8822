"""Every ceiling of the dice engine, in one place.

These keep a typo or a prank (``99999d99999999``, ``1d1!``) from hanging the app or
exhausting memory; each is reported as a [DiceLimitError][companion.errors.DiceLimitError].

Exact odds estimate their cost before the work and refuse past a budget with an
[OddsTooCostlyError][companion.errors.OddsTooCostlyError] that suggests ``simulate``: the
number of totals, the bits their exact weights take together, and the work, counted as
Python steps and as big-integer digit operations (operations times the size of the integers
they touch). Only what is truly costly is refused: ``1000d6``, ``100d100``, ``2d100000``, a
d1,000,000 and ``10000d20kl3`` are answered, each within a tenth of a second.
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

ODDS_MAX_OUTCOMES = 1_000_000
"""Most distinct totals an exact distribution may hold before odds suggest ``simulate``
(a d1,000,000 holds a million: computed in 0.05 s; its text and chart are summaries,
its JSON lists every total, about 23 MB in 1.5 s)."""

ODDS_MAX_FACES = 1_000_000
"""Most faces per die that exact odds follow one by one (every die up to
``MAX_SIDES``)."""

ODDS_MAX_STEPS = 1_000_000
"""Budget of one ``odds`` call, in steps of Python work (one face, one case or one pair
of outcomes touched), estimated before each piece of work starts: at most about a second
on a small machine. A refusal by this budget takes milliseconds."""

ODDS_MAX_WORK = 300_000_000
"""Budget of one ``odds`` call for its big-integer arithmetic, in digit operations
(CPython's integers have 30-bit digits), estimated before each product, power or
recurrence starts: a product of ``a`` by ``b`` digits counts ``a * b`` below 70 digits and
``a * b**0.585`` above (Karatsuba); a power counts one and a half times its last
squaring; a recurrence counts, per total, its terms times (the weight's digits + 30 for
the Python step). About 3.6 ns each: the budget is about a second on a small machine.
Sums of identical dice take the cheapest way (a recurrence rather than a big power):
``1000d6`` and ``100d100`` cost under 2 million (5 ms), ``10d10000`` 10 million; keeping
500 of ``1000d6`` would cost 84 billion and is refused before it starts."""

ODDS_MAX_WEIGHT_BITS = 40_000_000
"""Most bits the exact weights of one distribution (or one product on the way) may take
together, about 5 MB: ``1000d6`` holds 13,000,000 (5,001 totals of 2,592 bits); ``1000d20``
(82,000,000) and ``100d1000000kh1`` (2,000,000,000) are refused before any work."""

ODDS_MAX_PAIRS = 1_000_000
"""Most pairs of outcomes a product or quotient of two distributions may combine."""

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
