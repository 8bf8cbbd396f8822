"""Generated reference pages for the Cairn SRD (part 1): odds and fixed tables from the data."""

from __future__ import annotations

from companion.dice.render import chance_text
from companion.rulesets.cairn_srd import (
    _travel_reference,
    combat,
    duel,
    exploration,
    mass_combat,
    saves,
    spellcasting,
)
from companion.rulesets.cairn_srd.fixed_tables import rules_data


def _magic_page() -> str:
    lines = [
        "# Magic dice odds",
        "",
        "Exact chances for each number of magic dice the seed's table lists, computed by the "
        "dice engine (the pool evaluated face by face). The seed's own whole-percent figures "
        "stand beside them; **⚠** marks a printed figure that is not the exact one rounded.",
        "",
        "A mishap is any face on two or more dice; a doom any face on three or more "
        "(see *Interpretation* in the spellcasting rules). Fatigue: each die has a 1/2 "
        "chance (4-6), so the mean is half the dice.",
        "",
        "| Dice | Mishap (exact) | Mishap (seed) | Doom (exact) | Doom (seed) | Mean Fatigue |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    for r in spellcasting.magic_table():
        m_flag = " ⚠ differs" if r.mishap_differs else ""
        d_flag = " ⚠ differs" if r.doom_differs else ""
        lines.append(
            f"| {r.dice} | {chance_text(r.odds.mishap)} | {r.printed_mishap}%{m_flag} | "
            f"{chance_text(r.odds.doom)} | {r.printed_doom}%{d_flag} | {r.odds.fatigue_mean} |")
    lines += ["", "## Which mishap comes up", "",
              "The highest doubled face picks the mishap row, so high rows are likelier.", "",
              "| Dice | " + " | ".join(f"Mishap {f}" for f in range(1, 7)) + " |",
              "|---:|" + "---:|" * 6]
    for n in range(2, spellcasting.MAX_MAGIC_DICE + 1):
        odds = spellcasting.magic_dice_odds(n)
        cells = " | ".join(chance_text(odds.mishap_faces[f]) for f in range(1, 7))
        lines.append(f"| {n} | {cells} |")
    lines += ["", "## Fatigue from one cast", "", "| Dice | " +
              " | ".join(f"{k} Fatigue" for k in range(5)) + " |", "|---:|" + "---:|" * 5]
    for n in range(1, spellcasting.MAX_MAGIC_DICE + 1):
        odds = spellcasting.magic_dice_odds(n)
        lines.append(f"| {n} | " + " | ".join(
            chance_text(odds.fatigue[k]) if k in odds.fatigue else "—" for k in range(5)) + " |")
    lines += ["", "Roll three magic dice:", "", "```roller", "3d6", "```"]
    return "\n".join(lines)


def _saves_page() -> str:
    floors = range(0, 5)
    lines = [
        "# Save odds",
        "",
        "Chance that a d20 lands above the floor and at or under the ability. Initiative "
        "uses Armor as the floor: each point costs 5 %.",
        "",
        "| Ability | " + " | ".join(f"floor {f}" for f in floors) + " |",
        "|---:|" + "---:|" * len(floors),
    ]
    for ability in range(saves.MAX_SCORE + 1):
        lines.append(f"| {ability} | " + " | ".join(
            chance_text(saves.save_chance(ability, f)) for f in floors) + " |")
    lines += ["", "```roller", "1d20", "```"]
    return "\n".join(lines)


def _matrix_page() -> str:
    scales = mass_combat.scales()
    lines = [
        "# Mass-combat attack matrix",
        "",
        rules_data()["attack_matrix"]["note"],
        "",
        "| Attacker ↓ / defender → | " + " | ".join(scales) + " |",
        "|---|" + "---|" * len(scales),
    ]
    for a in scales:
        lines.append(f"| **{a}** | " + " | ".join(
            "—" if a == d else mass_combat.attack_effect(a, d) for d in scales) + " |")
    lines += ["", f"Vessels with a crew of {mass_combat.SHIP_CREW}+ are ships; ships carry "
              f"{mass_combat.HOLD_SLOTS} hold and {mass_combat.DECK_SLOTS} deck slots."]
    return "\n".join(lines)


def _duel_page() -> str:
    lines = ["# Duel exchanges", "", "Dice each side rolls against the other.", "",
             "| Row picks ↓ / column picks → | " + " | ".join(duel.TACTICS) + " |",
             "|---|" + "---|" * 3]
    for mine in duel.TACTICS:
        cells = []
        for theirs in duel.TACTICS:
            a, b = duel.exchange_dice(mine, theirs)
            cells.append(f"d{a} / d{b}")
        lines.append(f"| **{mine}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _data_page() -> str:
    data = rules_data()
    lines = ["# Fixed tables", "", "The seed's tables that are looked up, never rolled.", ""]
    lines += ["## Dooms", "", "| Count | Effect |", "|---|---|"]
    lines += [f"| {i} | {e} |" for i, e in enumerate(data["dooms"]["effects"], 1)]
    for key, title in (("time_scales", "Time"), ("ranges", "Range and distance"),
                       ("player_roles", "Player roles"),
                       ("environmental_damage", "Environmental damage"),
                       ("returning_from_death", "Returning from death")):
        section = data[key]
        lines += ["", f"## {title}", ""]
        if "note" in section:
            lines += [section["note"], ""]
        lines += ["| Name | Meaning |", "|---|---|"]
        lines += [f"| {k} | {v} |" for k, v in section.items() if k not in ("section", "note")]
    for key, field, title in (("gambits", "options", "Gambits"),
                              ("maneuvers", "examples", "Maneuvers"),
                              ("blaze_of_glory", "options", "Blaze of glory"),
                              ("blaze_of_glory", "final_words", "Final words")):
        lines += ["", f"## {title}", ""]
        if key == "gambits":
            lines += [combat.gambit_rule(), ""]
        elif field != "final_words":
            lines += [data[key]["note"], ""]
        lines += [f"- {x}" for x in data[key][field]]
    return "\n".join(lines)


def _clock_page() -> str:
    sizes = exploration.SITE_DICE
    head = "| Clock | " + " | ".join(f"d{d}" for d in sizes) + " |"
    rule = "|---:|" + "---:|" * len(sizes)
    hour = exploration.TURNS_PER_HOUR
    rows = exploration.clock_odds_table()
    lines = [
        "# Site clock odds",
        "",
        "Exact chances of an encounter from each value of the site clock, for each size of "
        "the site die (held at that size), computed by a Markov chain over the clock values "
        "with the clock rule itself: below zero an encounter, exactly zero back to "
        f"{exploration.OMEN_AT}. The same figures come from "
        "`python -m companion cairn clock --clock C --die N --turns T --json`.",
        "",
        "## Encounter on the next turn",
        "",
        head, rule,
    ]
    lines += [f"| {r[0].clock} | " + " | ".join(chance_text(o.next) for o in r) + " |"
              for r in rows]
    lines += ["", f"## At least one encounter within the next hour ({hour} turns)", "",
              head, rule]
    for r in rows:
        cells = [chance_text(exploration.encounter_odds(o.clock, o.die, hour).within)
                 for o in r]
        lines.append(f"| {r[0].clock} | " + " | ".join(cells) + " |")
    lines += ["", "## Expected turns until the first encounter", "",
              "Counting the turn it happens; rounded here (the exact fractions are long: the "
              "CLI prints them).", "", head, rule]
    lines += [f"| {r[0].clock} | " + " | ".join(f"{float(o.expected_turns):.2f}" for o in r)
              + " |" for r in rows]
    lines += ["", "## Clue or omen on the next turn", "", head, rule]
    lines += [f"| {r[0].clock} | " + " | ".join(chance_text(o.omen_next) for o in r) + " |"
              for r in rows]
    lines += ["", "Roll the site die:", "", "```roller", "1d6", "```"]
    return "\n".join(lines)


def _exploration_data_page() -> str:
    lines = ["# Exploration lists", "",
             "The fixed lists of *Exploration Turns*.", "",
             "## Actions that take a full turn", "", "| Action | Note |", "|---|---|"]
    for a in exploration.ACTIONS.values():
        note = ("moving fast: candles blow out" if a.get("fast") else
                "the site die grows one size" if a.get("rest") else "")
        lines.append(f"| {a['name']} | {note} |")
    lines += ["", "## Light sources", "", "| Light | Turns | Lights up | Note |",
              "|---|---:|---|---|"]
    lines += [f"| {k.capitalize()} | {v['turns']} | {v['reach']} | {v['note']} |"
              for k, v in exploration.LIGHTS.items()]
    lines += ["", f"A flask of oil holds {exploration.OIL_USES} uses.", "",
              "## Escaping the dungeon: DV modifiers", "",
              "The DV is the sum of the modifiers that apply, never below 0.", "",
              "| Situation | DV mod |", "|---|---:|"]
    for m in exploration.ESCAPE_MODIFIERS.values():
        mod = f"{m['dv']:+d}" + (" / item" if m.get("per_item") else "")
        lines.append(f"| {m['situation']} | {mod} |")
    lines += ["", "## Escape save odds", "",
              "A d20 above the DV and at or under the save.", "",
              "| Save | " + " | ".join(f"DV {dv}" for dv in range(0, 9, 2)) + " |",
              "|---:|" + "---:|" * 5]
    for score in range(4, saves.MAX_SCORE + 1, 2):
        lines.append(f"| {score} | " + " | ".join(
            chance_text(exploration.escape_chance(score, dv)) for dv in range(0, 9, 2)) + " |")
    return "\n".join(lines)


def reference_pages() -> dict[str, str]:
    """Pages under ``rules/cairn_srd/`` generated from the rules and their data."""
    return {
        "magic-dice.md": _magic_page(),
        "save-odds.md": _saves_page(),
        "attack-matrix.md": _matrix_page(),
        "duel-exchanges.md": _duel_page(),
        "fixed-tables.md": _data_page(),
        "site-clock-odds.md": _clock_page(),
        "exploration-lists.md": _exploration_data_page(),
        "travel-duration.md": _travel_reference.travel_page(),
        "downtime-odds.md": _travel_reference.downtime_page(),
    }
