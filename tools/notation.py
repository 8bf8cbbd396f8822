"""The constructs of the dice notation, as the site's "Dice notation" page lists them.

Kept apart from ``docs/gen_pages.py`` so the site tests can check the built page against
the same list. Each example gets a roller cell, so its exact odds are computed by
``companion.dice.odds`` during the build and a broken example fails ``mkdocs build --strict``.
"""

from __future__ import annotations

#: (construct, how to write it, example, what it does). Each example gets a roller cell.
NOTATION: list[tuple[str, str, str, str]] = [
    ("Dice", "`NdX`", "3d6", "Roll N dice with X faces each and add them up."),
    ("One die", "`dX`", "d20", "Leaving out the count means one die."),
    ("Whole numbers", "`N`", "7", "A constant: it always counts as itself."),
    ("Adding and subtracting", "`+`, `-`", "2d6+5",
     "Whole numbers and other dice add to or subtract from the total."),
    ("Negation", "`-expr`", "-1d6", "A minus sign in front turns the value around."),
    ("Percentile die", "`d%`", "d%", "A die from 1 to 100 (two d10s read as tens and ones)."),
    ("Fudge dice", "`dF`", "4dF", "Each die shows -1, 0 or +1."),
    ("Keep highest", "`khN`", "2d20kh1",
     "Keep only the N highest dice (`2d20kh1` is advantage); a missing N means 1."),
    ("Keep lowest", "`klN`", "2d20kl1",
     "Keep only the N lowest dice (`2d20kl1` is disadvantage); a missing N means 1."),
    ("Keep", "`kN`", "4d6k3", "Short for `khN`."),
    ("Drop lowest", "`dlN`", "4d6dl1", "Set aside the N lowest dice; a missing N means 1."),
    ("Drop highest", "`dhN`", "3d6dh1", "Set aside the N highest dice; a missing N means 1."),
    ("Exploding dice", "`!`", "1d6!",
     "A die that shows its highest face is rolled again and added, and so on."),
    ("Exploding on a condition", "`!>=N`", "1d10!>=9",
     "Explode on any face meeting the condition (`>=`, `>`, `<=`, `<`, `=`)."),
    ("Reroll", "`rN`, `r<N`", "1d20r1",
     "Reroll a die as long as it meets the condition (a bare number means `=N`)."),
    ("Reroll once", "`roN`, `ro<N`", "2d6ro<3",
     "Reroll a die meeting the condition once and keep the new face."),
    ("Minimum face", "`minN`", "1d20min10", "Faces below N count as N."),
    ("Maximum face", "`maxN`", "1d6max4", "Faces above N count as N."),
    ("Counting successes", "`>=N`", "5d6>=5",
     "Count the dice meeting the condition instead of adding their faces."),
    ("Combining modifiers", "`!kh2`, ...", "3d6!kh2",
     "Modifiers may be combined and apply in a fixed order whatever order they are written "
     "in: rerolls, explosions, `min`/`max`, keep/drop, then success counting. Each explosion "
     "is a die of its own, so `3d6!kh2` keeps the two highest of all the dice rolled."),
    ("Exploding and counting", "`!>=N>=M`", "4d6!>=6>=5",
     "A comparison right after `!` belongs to the explosion; a second one counts successes "
     "(here: explode on 6, count the dice showing 5 or more)."),
    ("Multiplying", "`*`", "2*1d6", "Multiply the values on each side."),
    ("Dividing", "`/`", "(1d6+1)/2",
     "Divide, rounding down. To round up, add one less than the divisor first: "
     "`(1d6+1)/2` is a d3 made from a d6 (halve and round up)."),
    ("Parentheses", "`( )`", "(1d4+1)*2", "Group a part of the expression."),
    ("Dice counts from dice", "`(expr)dX`", "(1d4)d6",
     "The number of dice may itself be rolled."),
    ("Dice sizes from dice", "`Nd(expr)`", "2d(1d4*2)",
     "The number of faces may itself be rolled (here: two dice of 2, 4, 6 or 8 faces)."),
    ("Labels", "`expr[label]`", "1d8[slashing]+1d6[fire]",
     "Name a part; the roll reports its subtotal beside the total."),
]


#: Inputs the engine refuses, each with why; the site prints the engine's own message.
REFUSED: list[tuple[str, str]] = [
    ("2d", "a die needs its number of sides"),
    ("3d6+", "an operator needs something after it"),
    ("2d6x", "an unknown modifier"),
    ("1d0", "a die has at least one side"),
    ("99999d6", "too many dice"),
    ("1d1!", "an explosion that could never stop"),
    ("1d6r<7", "a reroll that could never stop"),
]


def _limits() -> list[tuple[str, str]]:
    """Every ceiling in ``companion/dice/limits.py`` with its documentation, read from the
    source so the page can never disagree with the engine (the limits' one home)."""
    import ast
    from pathlib import Path

    source = Path(__file__).resolve().parents[1] / "companion" / "dice" / "limits.py"
    body = ast.parse(source.read_text(encoding="utf-8")).body
    found: list[tuple[str, str]] = []
    for node, after in zip(body, [*body[1:], None], strict=True):
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        doc = ""
        if (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            doc = " ".join(after.value.value.split())
        found.append((node.targets[0].id, doc))
    return found


#: (name, what it bounds) for every limit of the dice engine, in the order of limits.py.
LIMITS: list[tuple[str, str]] = _limits()


def limits_markdown() -> list[str]:
    """The notation page's "Limits" section: each ceiling, its value and what it bounds."""
    from companion.dice import limits

    lines = [
        "",
        "## Limits",
        "",
        "Every cost is estimated before the work starts (how many faces, cases and totals,",
        "how long the numbers get, how many dice a roll records) and refused past these",
        "budgets with a one-line message; exact odds past a budget suggest `simulate`. A",
        "5-second clock stops exact odds only as a last resort. The values are",
        "`companion.dice.limits`, read while this page was built.",
        "",
        "| Limit | Value | What it bounds |",
        "|---|---|---|",
    ]
    for name, doc in LIMITS:
        value = getattr(limits, name)
        shown = f"{value:,}" if isinstance(value, int) else f"{value:g}"
        escaped = doc.replace("|", "\\|")
        lines.append(f"| `{name}` | {shown} | {escaped} |")
    return lines
