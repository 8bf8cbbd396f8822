"""Text, HTML and SVG renderings of rolls and distributions (standard library only).

Die states are told apart by more than colour: dropped and rerolled dice are struck
through, rerolled ones also carry "↻", exploded ones "!", successes "✓".
"""

from __future__ import annotations

import html
import zlib
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from companion.dice import limits
from companion.dice.nodes import BinOp, Const, Dice, Group, Neg, Node, spine

if TYPE_CHECKING:
    from companion.dice.distribution import Distribution
    from companion.dice.roller import DiceGroup, Die, Roll


# Bits that are surely fewer than EXACT_TEXT_MAX_DIGITS digits (10 ** 0.3 < 2).
_EXACT_BITS = int(limits.EXACT_TEXT_MAX_DIGITS / 0.302)


def fraction_text(p: Fraction) -> str:
    """``"p/q"``, or ``"n"`` for a whole number; a fraction with more than
    [EXACT_TEXT_MAX_DIGITS][companion.dice.limits.EXACT_TEXT_MAX_DIGITS] digits is written
    as a 17-digit decimal, cut rather than rounded so that a chance just below 1 never
    reads as 1 (``Fraction()`` still reads it).

    >>> fraction_text(Fraction(3, 4)), fraction_text(Fraction(1, 6**5600))
    ('3/4', '2.2542280607205454e-4358')
    """
    num, den = p.numerator, p.denominator
    if max(num.bit_length(), den.bit_length()) > _EXACT_BITS:
        return decimal_text(p)
    return str(num) if den == 1 else f"{num}/{den}"


def grouped_fraction_text(p: Fraction) -> str:
    """[fraction_text][companion.dice.render.fraction_text] with thousands separators, as
    the apps show it: ``"1,001/216,000"``."""
    num, den = p.numerator, p.denominator
    if max(num.bit_length(), den.bit_length()) > _EXACT_BITS:
        return decimal_text(p)
    return f"{num:,}" if den == 1 else f"{num:,}/{den:,}"


def decimal_text(p: Fraction, digits: int = 17) -> str:
    """``p`` as a decimal with ``digits`` significant digits (cut, not rounded), in exponent
    form, computed with integer arithmetic only (no text of the huge numerator or
    denominator).

    >>> decimal_text(Fraction(1, 3)), decimal_text(Fraction(-7, 2), 3), decimal_text(Fraction(0))
    ('3.3333333333333333e-1', '-3.5e0', '0')
    """
    return decimal_ratio(p.numerator, p.denominator, digits)


def decimal_ratio(num: int, den: int, digits: int = 17) -> str:
    """``num / den`` (``den > 0``) as [decimal_text][companion.dice.render.decimal_text]
    writes it, without reducing the fraction first (no gcd of huge numbers)."""
    sign = "-" if num < 0 else ""
    num = abs(num)
    if num == 0:
        return "0"
    # log10(p) to within one: then ``digits`` (+-1) digits of p * 10**shift as an integer.
    estimate = int((num.bit_length() - den.bit_length()) * 0.30102999566398120)
    shift = digits - 1 - estimate
    text = ""
    while len(text) < digits:  # the estimate may be one too high: then one more digit
        q = num * 10**shift // den if shift >= 0 else num // (den * 10**-shift)
        text = str(q)
        shift += 1
    shift -= 1
    exponent = len(text) - 1 - shift
    mantissa = (text[0] + "." + text[1:digits]).rstrip("0").rstrip(".")
    return f"{sign}{mantissa}e{exponent}"


def percent(p: Fraction, digits: int = 2) -> str:
    """A probability as a percentage; tiny non-zero odds never round to a bare 0.

    >>> percent(Fraction(1, 3)), percent(Fraction(1, 10**6)), percent(Fraction(1, 8), 1)
    ('33.33%', '<0.01%', '12.5%')
    """
    return percent_ratio(p.numerator, p.denominator, digits)


def percent_ratio(num: int, den: int, digits: int = 2) -> str:
    """[percent][companion.dice.render.percent] of ``num / den`` (``den > 0``), with no
    fraction built: the renderers call it on integer weights, however long."""
    value = num / den * 100  # int / int is exact to the last bit, even for huge ints
    text = f"{value:.{digits}f}%"
    if num > 0 and float(text[:-1]) == 0:
        return f"<{10 ** -digits:.{digits}f}%"
    if num < den and text == f"{100:.{digits}f}%":
        return f">{100 - 10 ** -digits:.{digits}f}%"
    return text


def chance_text(p: Fraction, digits: int = 2) -> str:
    """A probability as the reference and the apps show it: percent, then the exact value.

    >>> chance_text(Fraction(1, 3))
    '33.33% (1/3)'
    """
    return f"{percent(p, digits)} ({fraction_text(p)})"


# -- rolls ------------------------------------------------------------------------------
def die_text(d: Die) -> str:
    state = d.state
    if len(state) == 1 and "kept" in state:
        return str(d.value)
    text = str(d.value)
    if "exploded" in state:
        text += "!"
    if "success" in state:
        text += "✓"
    if "rerolled" in state:
        return f"~~{text}~~↻"
    if "dropped" in state:
        return f"~~{text}~~"
    return text


def _group_text(g: DiceGroup) -> str:
    return "[" + ", ".join([die_text(d) for d in g.dice]) + "]"


_MARK = "\x00"  # stands for a dice group while a template is built


def _walk(node: Node, html_out: bool) -> str:
    """The expression's text with ``_MARK`` where each dice term's dice go."""
    if isinstance(node, Dice):
        if isinstance(node.count, Const) and isinstance(node.sides, (str, Const)):
            return _MARK
        # Dynamic count or size: show the sub-rolls that decided it, then the dice.
        count = _walk(node.count, html_out)
        sides = node.sides if isinstance(node.sides, str) else _walk(node.sides, html_out)
        return f"{count}d{sides} {_MARK}"
    if isinstance(node, Const):
        return str(node.value)
    if isinstance(node, BinOp):
        first, steps = spine(node)
        parts = [_walk(first, html_out)]
        for op, right, _ in steps:
            parts.append({"*": "×", "/": "÷"}.get(op, op) if html_out else op)
            parts.append(_walk(right, html_out))
        return " ".join(parts)
    if isinstance(node, Group):
        return "(" + _walk(node.inner, html_out) + ")"
    if isinstance(node, Neg):
        return "-" + _walk(node.operand, html_out)
    label = html.escape(node.label) if html_out else node.label
    return _walk(node.inner, html_out) + f"[{label}]"


@lru_cache(maxsize=1024)
def _template(expr: str, html_out: bool) -> tuple[str, ...]:
    """The roll text of ``expr`` split at its dice groups, worked out once per expression."""
    from companion.dice.parse import parse

    return tuple(_walk(parse(expr), html_out).split(_MARK))


def _detail(r: Roll, html_out: bool, max_dice: int = 0) -> str:
    pieces = _template(r.expr, html_out)
    out = [pieces[0]]
    if not html_out:
        for group, piece in zip(r.groups, pieces[1:], strict=True):
            out.append(_group_text(group))
            out.append(piece)
        return "".join(out)
    left = max_dice
    for group, piece in zip(r.groups, pieces[1:], strict=True):
        out.append(_group_html(group, left))
        left = max(left - len(group.dice), 0)
        out.append(piece)
    return "".join(out)


def roll_text(r: Roll) -> str:
    """One line: ``4d6kh3 = [6, 5, 3, ~~1~~] = 14`` (labels and notes appended)."""
    if r.tree is None:
        return f"{r.expr} = {r.total}"
    detail = _detail(r, False)
    line = f"{r.expr} = {detail}"
    if detail != str(r.total):
        line += f" = {r.total}"
    if r.labels:
        line += " (" + ", ".join(f"{k}: {v}" for k, v in r.labels.items()) + ")"
    if r.notes:
        line += " — " + "; ".join(r.notes)
    return line


def _die_html(d: Die) -> str:
    state = d.state
    value = str(d.value)
    title = ", ".join(sorted(state))
    mark = ""
    if "exploded" in state:
        mark += "!"
    if "success" in state:
        mark += "✓"
    body = f"{value}{mark}"
    style = "display:inline-block;min-width:1.6em;padding:0 .25em;border:1px solid #888;"
    style += "border-radius:4px;margin:0 1px;text-align:center;"
    if "rerolled" in state:
        body = f"<del>{body}</del>↻"
        style += "opacity:.6;border-style:dotted;"
    elif "dropped" in state:
        body = f"<del>{body}</del>"
        style += "opacity:.6;border-style:dashed;"
    elif "success" in state or "exploded" in state:
        body = f"<strong>{body}</strong>"
        style += "border-width:2px;"
    return f'<span class="die" title="{html.escape(title)}" style="{style}">{body}</span>'


HTML_MAX_DICE = 300
"""Dice drawn one by one in a roll's HTML, over all its groups; the rest are counted (the
page stays small: a roll of 10,000 dice would otherwise be megabytes of HTML)."""


def _group_html(g: DiceGroup, limit: int) -> str:
    shown = "".join(_die_html(d) for d in g.dice[:limit])
    more = len(g.dice) - min(limit, len(g.dice))
    if more > 0:
        shown += f" <em>and {more:,} more {'die' if more == 1 else 'dice'}</em>"
    return "[" + shown + "]"


def roll_html(r: Roll, *, max_dice: int = HTML_MAX_DICE) -> str:
    """An inline HTML rendering of a roll for notebooks and widgets; at most ``max_dice``
    dice are drawn (over all the roll's groups), the others are counted."""
    expr = html.escape(r.expr)
    detail = _detail(r, True, max_dice) if r.tree is not None else ""
    parts = [
        f'<div class="dice-roll"><code>{expr}</code> = {detail} = '
        f"<strong style=\"font-size:1.2em\">{r.total}</strong>"
    ]
    if r.labels:
        parts.append(
            "<div>" + ", ".join(
                f"{html.escape(k)}: <strong>{v}</strong>" for k, v in r.labels.items()
            ) + "</div>"
        )
    if r.notes:
        parts.append("<div><em>" + html.escape("; ".join(r.notes)) + "</em></div>")
    parts.append("</div>")
    return "".join(parts)


# -- distributions ----------------------------------------------------------------------
def _short_fraction(p: Fraction, width: int = 18) -> str:
    return _short_ratio(p.numerator, p.denominator, width)


def _short_ratio(num: int, den: int, width: int = 18) -> str:
    """The exact fraction if it fits ``width`` characters, else ``~`` and 6 digits."""
    if max(num.bit_length(), den.bit_length()) > 4 * width:
        return f"~{_float_text(num, den)}"
    text = fraction_text(Fraction(num, den))
    return text if len(text) <= width else f"~{_float_text(num, den)}"


def _exact_ratio(num: int, den: int) -> str:
    """The exact fraction, or its 17-digit decimal when it is too long to write out."""
    if max(num.bit_length(), den.bit_length()) > _EXACT_BITS:
        return decimal_ratio(num, den)
    return fraction_text(Fraction(num, den))


def _float_text(num: int, den: int) -> str:
    """6 significant digits, even for values too small for a float."""
    value = num / den
    if value == 0 and num != 0:
        return decimal_ratio(num, den, 6)
    return f"{value:.6g}"


def distribution_text(dist: Distribution, *, width: int = 40, max_rows: int = 120) -> str:
    """A readable table: value, exact probability, percent, at-least, bar.

    Over ``max_rows`` outcomes it lists percentiles instead (every outcome is in ``--json``).
    Fractions too long for the column are shown as decimals, marked ``~``.
    """
    rows: list[str] = []
    # Integer weights over one denominator throughout: no Fraction (and no gcd of numbers
    # thousands of digits long) per row.
    values, weights, denom = dist.weights()
    if len(dist) <= max_rows:
        rows.append("value  probability              %   at least")
        top = max(weights)
        at_least = denom
        for v, w in zip(values, weights, strict=True):
            bar = "#" * round(w / top * width)
            rows.append(
                f"{v:>5}  {_short_ratio(w, denom):<18} {percent_ratio(w, denom):>8} "
                f"{percent_ratio(at_least, denom):>9}  {bar}"
            )
            at_least -= w
    else:
        rows.append(f"{len(dist):,} possible totals; percentiles (use --json for every one):")
        marks = iter((1, 5, 10, 25, 50, 75, 90, 95, 99))
        mark = next(marks, None)
        below = 0
        for v, w in zip(values, weights, strict=True):
            below += w
            while mark is not None and below * 100 >= mark * denom:
                rows.append(f"{mark:>4}% of rolls are at most {v}")
                mark = next(marks, None)
    # The exact mean, when it is short; a decimal form would add nothing to the float.
    mean = _short_fraction(dist.mean, 24)
    rows.append(
        f"mean {float(dist.mean):.4f}{'' if mean.startswith('~') else f' ({mean})'}, "
        f"stdev {dist.stdev:.4f}, min {dist.min}, max {dist.max}"
    )
    if dist.truncated:
        rows.append(f"exploding dice cut off; mass truncated: {percent(dist.truncated, 6)}")
    return "\n".join(rows)


def distribution_svg(
    dist: Distribution, *, target: int | None = None, title: str | None = None
) -> str:
    """A bar chart as standalone, scalable SVG; values ``>= target`` are highlighted
    (filled darker and hatched, so it does not rely on colour alone)."""
    values, weights, denom = dist.weights()
    items = list(zip(values, weights, strict=True))
    # Long exploding tails would squash the chart: leave out at most 0.01% at each end
    # (integer weights: mass / denom < 1 / 10,000).
    lo, hi, mass = 0, len(items), 0
    while lo < hi - 1 and (mass + items[lo][1]) * 10_000 < denom:
        mass += items[lo][1]
        lo += 1
    mass = 0
    while hi - 1 > lo and (mass + items[hi - 1][1]) * 10_000 < denom:
        mass += items[hi - 1][1]
        hi -= 1
    trimmed = (lo, hi) != (0, len(items))
    items = items[lo:hi]
    if len(items) > 200:
        # Group neighbouring values into at most 200 bars so the chart stays legible.
        size = -(-len(items) // 200)
        items = [
            (items[i][0], sum(w for _, w in items[i : i + size]))
            for i in range(0, len(items), size)
        ]
    n = len(items)
    width, height = 640, 240
    # Header rows above the bars: the title, then a line of notes (trimmed tails, target).
    title_h = 22 if title else 0
    notes_h = 16 if trimmed or target is not None else 0
    left, bottom, top_pad = 8, 28, 8 + title_h + notes_h
    notes_y = title_h + 16
    plot_h = height - bottom - top_pad
    bar_w = (width - 2 * left) / n
    top = max(w for _, w in items)
    label_every = max(1, -(-n * 36 // (width - 2 * left)))
    label = title or (
        f"Bar chart of outcomes {dist.min} to {dist.max}, mean {float(dist.mean):.2f}"
    )
    # Distinct per chart (two charts of one distribution on a page, e.g. 4d6k3 and 4d6dl1,
    # must not share an id) and stable across runs: ints hash the same everywhere, the title
    # goes through crc32 (str hashes are salted per process).
    chart_key = hash((dist, target, zlib.crc32((title or "").encode())))
    pattern = f"tc-hatch-{chart_key & 0xFFFFFFFF:08x}"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{html.escape(label)}" '
        # Text in the colour of the text around it (fill inherits): readable on a light
        # page and a dark one alike (it was black, unreadable on the site's dark theme).
        'style="max-width:100%;height:auto" font-family="sans-serif" font-size="14" '
        'fill="currentColor">',
        f"<title>{html.escape(label)}</title>",
        f'<defs><pattern id="{pattern}" width="6" height="6" patternUnits="userSpaceOnUse" '
        "patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" "
        "stroke=\"#fff\" stroke-width=\"2\" stroke-opacity=\".5\"/></pattern></defs>",
    ]
    if title:
        out.append(
            f'<text x="{width / 2}" y="18" text-anchor="middle" font-size="16">'
            f"{html.escape(title)}</text>"
        )
    for i, (v, w) in enumerate(items):
        h = w / top * plot_h
        x = left + i * bar_w
        y = top_pad + plot_h - h
        hit = target is not None and v >= target
        fill = "#1f5fa8" if hit else "#8fb3dc"
        tip = f"{v}: {_exact_ratio(w, denom)} ({percent_ratio(w, denom)})"
        out.append(
            f'<rect x="{x:.2f}" y="{y:.2f}" width="{max(bar_w - 1, 0.5):.2f}" height="{h:.2f}" '
            f'fill="{fill}"><title>{html.escape(tip)}</title></rect>'
        )
        if hit:
            out.append(
                f'<rect x="{x:.2f}" y="{y:.2f}" width="{max(bar_w - 1, 0.5):.2f}" '
                f'height="{h:.2f}" fill="url(#{pattern})"/>'
            )
        if i % label_every == 0:
            out.append(
                f'<text x="{x + bar_w / 2:.2f}" y="{height - 10}" text-anchor="middle">{v}</text>'
            )
    if trimmed:
        out.append(
            f'<text x="{left}" y="{notes_y}">'
            f"showing {items[0][0]} to {items[-1][0]}; the rest: under 0.01% each end</text>"
        )
    if target is not None:
        out.append(
            f'<text x="{width - left}" y="{notes_y}" text-anchor="end">'
            f"≥ {target}: {percent(dist.at_least(target))}</text>"
        )
    out.append("</svg>")
    return "".join(out)
