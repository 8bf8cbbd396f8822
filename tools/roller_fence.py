"""The ```` ```roller ```` fence of the reference site.

Each non-empty line of the fence is a dice expression. At build time it becomes a static
block with the exact odds computed by ``companion.dice.odds`` (summary, SVG bar chart and a
table), readable with JavaScript off; ``docs/javascripts/roller.mjs`` then reveals a Roll
button that rolls the same expression with the project's own engine running in Pyodide.

A ```` ```table-roll ```` fence holding a table id gives the same live button for rolling
on that random table.

An option ``target=N`` (```` ```roller target="15" ````) highlights the results ``>= N`` in
the chart and prints the chance of reaching it.

Problems are logged as MkDocs warnings, so ``mkdocs build --strict`` fails on a broken
expression instead of publishing it.
"""

from __future__ import annotations

import html
import itertools
import logging
from fractions import Fraction
from typing import Any

log = logging.getLogger("mkdocs.plugins.roller_fence")

_counter = itertools.count(1)


def validate(
    language: str, inputs: dict[str, str], options: dict[str, Any], attrs: dict[str, str], md: Any
) -> bool:
    """Accept ``target=N``; anything else is a typo worth failing the build for."""
    for key, value in inputs.items():
        if key == "target":
            try:
                options["target"] = int(value)
            except ValueError:
                log.warning("roller fence: target=%r is not a whole number", value)
                return False
        else:
            log.warning("roller fence: unknown option %r (known: target)", key)
            return False
    return True


def _fraction_text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def _percent(p: Fraction) -> str:
    from companion.dice.render import percent

    text: str = percent(p)
    return text


def _number(x: Fraction | float | int) -> str:
    """A mean or deviation: the exact decimal when it ends within 4 places, else ``≈``."""
    if isinstance(x, int | Fraction):
        x = Fraction(x)
        for places in range(5):
            scaled = x * 10**places
            if scaled.denominator == 1:
                return f"{float(x):.{places}f}"
    return f"≈{float(x):.2f}"


def render_expression(expr: str, target: int | None = None) -> str:
    """The HTML of one roller cell for ``expr``."""
    from companion import dice
    from companion.errors import CompanionError, OddsTooCostlyError

    cell_id = f"roller-{next(_counter)}"
    esc = html.escape(expr, quote=True)
    parts = [
        f'<div class="roller" id="{cell_id}" data-expr="{esc}">',
        f'<p class="roller-head"><code class="roller-expr">{esc}</code>',
    ]
    try:
        dist = dice.odds(expr)
    except OddsTooCostlyError:
        # Not the engine's reason: it names its budget and its Python API (issue 45).
        parts.append("</p>")
        parts.append(
            '<p class="roller-note">Exact odds of these dice would take too long to work '
            "out, so they are not shown; rolling works as usual.</p>"
        )
    except CompanionError as exc:
        log.warning("roller fence %r: %s", expr, exc)
        parts.append("</p>")
        parts.append(f'<p class="roller-error">{html.escape(str(exc))}</p>')
    else:
        pairs = list(dist)
        summary = (
            f" — range {dist.min} to {dist.max}, mean {_number(dist.mean)}, "
            f"standard deviation {_number(dist.stdev)}"
        )
        if target is not None:
            reach = dist.at_least(target)
            summary += (
                f"; chance of {target} or more: <strong>{_percent(reach)}</strong> "
                f"(exactly {_fraction_text(reach)})"
            )
        parts.append(f'<span class="roller-summary">{summary}</span></p>')
        truncated = getattr(dist, "truncated", 0)
        if truncated:
            parts.append(
                '<p class="roller-note">Explosions are followed only so deep (see '
                "<code>companion.dice.limits</code>); the chance of going deeper, "
                f"{_fraction_text(truncated)}, is counted where the odds stop.</p>"
            )
        parts.append(f'<div class="roller-chart">{dist.to_svg(target=target, title=expr)}</div>')
        # "This or more", accumulated from the top in one pass.
        at_least: list[Fraction] = []
        running = Fraction(0)
        for _, p in reversed(pairs):
            running += p
            at_least.append(running)
        at_least.reverse()
        rows = "".join(
            f"<tr><td>{value}</td><td>{_fraction_text(p)}</td><td>{_percent(p)}</td>"
            f"<td>{_percent(reach)}</td></tr>"
            for (value, p), reach in zip(pairs, at_least, strict=True)
        )
        parts.append(
            f'<details class="roller-odds"><summary>Exact odds of {esc}</summary>'
            '<table><thead><tr><th>Result</th><th>Exact</th><th>Chance</th>'
            f"<th>This or more</th></tr></thead><tbody>{rows}</tbody></table></details>"
        )
    parts.append(_live_part(cell_id))
    parts.append("</div>")
    return "".join(parts)


def _live_part(cell_id: str) -> str:
    # Hidden until the script has loaded: with JavaScript off the block stays static.
    return (
        '<div class="roller-live" hidden>'
        '<button type="button" class="roller-roll md-button md-button--primary" '
        f'aria-controls="{cell_id}-out">Roll</button>'
        f'<div class="roller-result" id="{cell_id}-out" data-n="0" role="status" '
        'aria-live="polite"></div></div>'
    )


def render_table_roller(table_id: str) -> str:
    """A live cell rolling on the random table ``table_id`` (its odds are on the page)."""
    from companion import tables
    from companion.errors import CompanionError

    cell_id = f"roller-{next(_counter)}"
    esc = html.escape(table_id, quote=True)
    try:
        table = tables.get(table_id)
    except CompanionError as exc:
        log.warning("table-roll fence %r: %s", table_id, exc)
        return f'<p class="roller-error">{html.escape(str(exc))}</p>'
    return (
        f'<div class="roller roller-table" id="{cell_id}" data-table="{esc}">'
        f'<p class="roller-head">Roll on <strong>{html.escape(table.title)}</strong> '
        f"(<code>{html.escape(table.die)}</code>) in your browser:</p>"
        f"{_live_part(cell_id)}</div>"
    )


def format_table_roller(
    source: str,
    language: str,
    css_class: str,
    options: dict[str, Any],
    md: Any,
    **kwargs: Any,
) -> str:
    """Custom-fence formatter for ```` ```table-roll ````: one cell per table id line."""
    ids = [line.strip() for line in source.splitlines() if line.strip()]
    if not ids:
        log.warning("table-roll fence: empty fence (write a table id inside it)")
        return ""
    return "".join(render_table_roller(table_id) for table_id in ids)


def format_roller(
    source: str,
    language: str,
    css_class: str,
    options: dict[str, Any],
    md: Any,
    **kwargs: Any,
) -> str:
    """pymdownx.superfences custom-fence formatter: one roller cell per expression line."""
    target = options.get("target")
    lines = [line.strip() for line in source.splitlines() if line.strip()]
    if not lines:
        log.warning("roller fence: empty fence (write a dice expression inside it)")
        return ""
    cells = "".join(render_expression(expr, target) for expr in lines)
    return f'<div class="{css_class}-cells">{cells}</div>'


#: The entries for ``pymdownx.superfences``' ``custom_fences``.
FENCES = [
    {"name": "roller", "class": "roller", "format": format_roller, "validator": validate},
    {"name": "table-roll", "class": "roller", "format": format_table_roller},
]
