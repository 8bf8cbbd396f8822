"""Issue 46: the defender's Blinded, Prone and Dodge change the attack rolls made against
it; Dodge lasts to the start of the dodger's next turn and gives its cunning saving throws
advantage; the Move technique stands a Prone character up. Move by move, refusals
included; the odds the page shows before a roll are checked against brute force (every
face of the d20s, exact Fractions)."""

from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction

import pytest

from companion.dice.render import fraction_text
from companion.errors import RuleError
from companion.rulesets.monsters_and_magic import Adventurer, Tier
from companion.rulesets.monsters_and_magic.adventurer import (
    Defender,
    attack_against,
    defender_edge,
)
from tests.widgets.app_page import AppPage, Scope


def brute_tiers(modifier: int, edge: str, dc: int = 10) -> dict[Tier, Fraction]:
    """Each tier's chance by counting every face (pair of faces with an edge): natural 20
    a critical hit, natural 1 a critical miss, else DC+8 strong, DC weak, below a miss."""
    counts = dict.fromkeys(Tier, 0)
    faces = list(itertools.product(range(1, 21), repeat=1 if edge == "normal" else 2))
    for roll in faces:
        natural = max(roll) if edge == "advantage" else min(roll)
        total = natural + modifier
        tier = (Tier.CRITICAL_HIT if natural == 20 else Tier.CRITICAL_MISS if natural == 1
                else Tier.STRONG_HIT if total >= dc + 8 else Tier.WEAK_HIT if total >= dc
                else Tier.MISS)
        counts[tier] += 1
    return {t: Fraction(n, len(faces)) for t, n in counts.items()}


def sheet(name: str = "Ash", **stats: int) -> Adventurer:
    return Adventurer.new(name, **stats)


# -- the rule, state by state -------------------------------------------------------------

@pytest.mark.parametrize(("states", "dodging", "touch", "seen", "edge"), [
    ((), False, True, True, (False, False)),
    (("Blinded",), False, True, True, (True, False)),
    (("Prone", "Slowed"), False, True, True, (True, False)),
    (("Prone", "Slowed"), False, False, True, (False, True)),
    ((), True, True, True, (False, True)),
    ((), True, True, False, (False, False)),          # an Invisible attacker is not seen
    (("Blinded",), True, True, True, (True, False)),  # a blind dodger sees no attacker
    (("Stunned",), True, True, True, (False, False)),  # incapacitated: Dodge void
    (("Restrained",), True, True, True, (False, False)),  # no speed: Dodge void
    (("Prone", "Slowed"), True, True, True, (True, True)),  # both: they cancel
    (("Unconscious", "Prone", "Slowed", "Stunned"), True, True, True, (True, False)),
])
def test_what_the_defender_gives_the_attack(states: tuple[str, ...], dodging: bool,
                                            touch: bool, seen: bool,
                                            edge: tuple[bool, bool]) -> None:
    got = defender_edge(Defender("Bo", states, dodging), within_touch=touch,
                        attacker_seen=seen)
    assert got[:2] == edge


def test_a_defender_the_rules_do_not_know_is_refused() -> None:
    with pytest.raises(RuleError, match=r"^Attack Rolls: the target is not a creature"):
        defender_edge(Defender("Bo", ("Sleepy",)))
    with pytest.raises(RuleError, match=r"^Cover: a creature in total cover"):
        attack_against(Defender("Bo", cover="Total Cover"))


def test_dodge_lasts_until_the_start_of_the_next_turn() -> None:
    bo = sheet("Bo")
    bo.start_turn()
    bo.spend_ap("Dodge")
    assert bo.dodging and bo.dodge_holds and "dodging" in bo.log[-1].summary
    assert bo.as_defender().dodging
    bo.end_turn()
    assert bo.dodging  # through the other creatures' turns
    assert Adventurer.from_json(bo.to_json()).dodging
    bo.start_turn()
    assert not bo.dodging and "Dodge ends" in bo.log[-1].summary
    bo.undo()
    assert bo.dodging  # undone with the move that ended it


def test_dodge_ends_after_six_seconds_out_of_combat() -> None:
    bo = sheet("Bo")
    bo.start_turn()
    bo.spend_ap("Dodge")
    bo.end_turn()
    bo.six_seconds_pass()
    assert not bo.dodging
    with pytest.raises(RuleError, match=r"^Conditions & Statuses: Bo has no state that "
                                        r"runs out$"):
        bo.six_seconds_pass()


def test_a_dodge_stunned_gives_nothing_and_holds_again_after() -> None:
    bo = sheet("Bo")
    bo.start_turn()
    bo.spend_ap("Dodge")
    bo.end_turn()
    bo.inflict("Stunned")
    assert bo.dodging and not bo.dodge_holds
    bo.end_condition("Stunned")
    assert bo.dodge_holds


def test_dodge_refused_like_any_technique_changes_nothing() -> None:
    bo = sheet("Bo")
    with pytest.raises(RuleError, match=r"^Action Points: AP can only be spent on your own "
                                        r"turn$"):
        bo.spend_ap("Dodge")
    bo.start_turn()
    bo.spend_ap("Strike")
    bo.spend_ap("Strike")
    with pytest.raises(RuleError, match=r"^Action Points: Bo has 1 AP, Dodge needs 2$"):
        bo.spend_ap("Dodge")
    assert not bo.dodging


def test_move_stands_a_prone_character_up() -> None:
    bo = sheet("Bo")
    bo.inflict("Prone")
    bo.start_turn()
    bo.spend_ap("Strike")
    assert "Prone" in bo.conditions  # any other technique leaves them down
    bo.spend_ap("Move")
    assert "Prone" not in bo.conditions and "Prone" not in bo.durations
    assert "stands up" in bo.log[-1].summary
    bo.spend_ap("Move")  # standing already: Move is only a move
    assert "stands up" not in bo.log[-1].summary


def test_an_unconscious_character_cannot_move_to_stand_up() -> None:
    bo = sheet("Bo")
    bo.start_turn()
    bo.inflict("Unconscious")
    with pytest.raises(RuleError, match=r"^Stunned: Bo cannot spend AP$"):
        bo.spend_ap("Move")
    assert bo.has("Prone")


def test_a_dodgers_cunning_saving_throws_have_advantage() -> None:
    bo = sheet("Bo", cunning=1)
    assert bo.build_check("cunning", save=True).dice == "1d20"
    bo.start_turn()
    bo.spend_ap("Dodge")
    assert bo.build_check("cunning", save=True).dice == "2d20kh1"
    assert bo.build_check("power", save=True).dice == "1d20"  # cunning saves only
    assert bo.build_check("cunning").dice == "1d20"  # a cunning roll that is no save
    result = bo.roll_check("cunning", save=True, seed=4)
    assert result.check.dice == "2d20kh1" and bo.log[-1].args["save"] is True
    with pytest.raises(RuleError, match=r"^Ability Checks: a check is an attack roll or a "
                                        r"saving throw, not both$"):
        bo.build_check("power", save=True, attack=True)


def test_a_target_goes_with_attacks_only_and_brings_its_own_cover() -> None:
    ash, bo = sheet("Ash"), sheet("Bo")
    with pytest.raises(RuleError, match=r"^Attack Rolls: a target's conditions change "):
        ash.build_check("power", target=bo)
    with pytest.raises(RuleError, match=r"^Cover: the target's cover comes with the target"):
        ash.build_check("power", attack=True, target=bo, target_cover="Partial Cover")
    bo.take_cover("Partial Cover")
    plain = ash.build_check("power", attack=True)
    assert ash.build_check("power", attack=True, target=bo).modifier == plain.modifier - 2
    bo.take_cover("Total Cover")
    with pytest.raises(RuleError, match=r"^Cover: a creature in total cover"):
        ash.roll_check("power", attack=True, target=bo.as_defender(), seed=1)
    assert not ash.log  # refused: nothing rolled, nothing logged


def test_the_roll_logs_the_target_as_it_was_and_reads_back() -> None:
    ash, bo = sheet("Ash"), sheet("Bo")
    bo.inflict("Blinded")
    ash.roll_check("power", attack=True, target=bo.as_defender(), seed=5)
    logged = ash.log[-1].args["target"]
    assert logged["states"] == ["Blinded"] and logged["name"] == "Bo"
    from companion.store.registry import decode_args

    args = decode_args(Adventurer, "roll_check", json.loads(json.dumps(
        {k: v for k, v in ash.log[-1].args.items() if k != "rng"})))
    assert args["target"] == bo.as_defender()


def test_an_old_sheet_loads_without_a_dodge() -> None:
    data = json.loads(sheet("Bo").to_json())
    del data["state"]["dodging"]
    assert Adventurer.from_json(json.dumps(data)).dodging is False


# -- the odds, against brute force --------------------------------------------------------

def _target(bo: Adventurer, case: str) -> None:
    if case == "blinded":
        bo.inflict("Blinded")
    elif case in ("prone", "prone far"):
        bo.inflict("Prone")
    elif case == "dodging":
        bo.start_turn()
        bo.spend_ap("Dodge")
        bo.end_turn()


@pytest.mark.parametrize(("case", "touch", "edge"), [
    ("none", True, "normal"), ("blinded", True, "advantage"), ("prone", True, "advantage"),
    ("prone far", False, "disadvantage"), ("dodging", True, "disadvantage")])
@pytest.mark.parametrize("modifier", [-3, 0, 2, 7])
def test_the_attackers_odds_against_each_defender_are_the_brute_force_ones(
        case: str, touch: bool, edge: str, modifier: int) -> None:
    ash, bo = sheet("Ash", power=modifier), sheet("Bo")
    _target(bo, case)
    check = ash.build_check("power", attack=True, target=bo, within_touch=touch)
    assert check.tier_odds() == brute_tiers(modifier, edge)
    monster = attack_against(bo.as_defender(), modifier, within_touch=touch)
    assert monster.tier_odds() == brute_tiers(modifier, edge)


# -- from the app -------------------------------------------------------------------------

def sheet_of(page: AppPage, name: str) -> Scope:
    page.one("tc-select-character").value = name
    return page.within(f"tc-character-{name.lower()}")


def shown_odds(scope: Scope) -> dict[str, str]:
    """Each tier's exact chance as the odds box shows it before the roll."""
    markup = scope.one("tc-chance").value
    return dict(re.findall(r'data-tier="(\w+)".*?<small>\(([^)]*)\)</small>', markup))


def expected(modifier: int, edge: str) -> dict[str, str]:
    return {t.name.lower(): fraction_text(p) for t, p in brute_tiers(modifier, edge).items()}


def test_the_sheets_check_shows_the_targets_state_before_the_roll() -> None:
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    briar.tap("section-turn")
    briar.tap("start-turn")
    briar.one("tc-pick-technique").value = "Dodge"
    briar.tap("spend-ap")
    briar.tap("end-turn")
    assert 'data-dodging="true"' in briar.html() and "dodging" in briar.find_text("tc-sheet")
    ash = sheet_of(page, "Ash")
    check = ash.within("tc-check")
    target = check.one("tc-select-target")
    assert not page.visible(target)  # a target is for attack rolls: shown with one
    panel = ash.one("tc-check")
    panel.ability.value = "power"
    panel.attack.value = True
    assert page.visible(target)
    target.value = "Briar"
    power = panel.adventurer.check_modifier("power", attack=True)
    assert shown_odds(check) == expected(power, "disadvantage")
    # Briar's Dodge ends when her turn starts: the odds shown follow her sheet.
    briar = sheet_of(page, "Briar")
    briar.tap("section-turn")
    briar.tap("start-turn")
    ash = sheet_of(page, "Ash")
    assert shown_odds(ash.within("tc-check")) == expected(power, "normal")
    # Briar falls prone: advantage within touch range, disadvantage beyond it.
    briar = sheet_of(page, "Briar")
    briar.one("tc-pick-state").value = "Prone"
    briar.tap("add-state")
    ash = sheet_of(page, "Ash")
    check = ash.within("tc-check")
    assert shown_odds(check) == expected(power, "advantage")
    check.one("tc-check-far").value = True
    assert shown_odds(check) == expected(power, "disadvantage")
    check.one("tc-check-far").value = False
    check.one("tc-rule-own").value = True  # the player's own d20s: 3 and 15, keep 15
    check.fill("sheet-faces", "3 15")
    check.tap("roll")
    logged = panel.adventurer.log[-1]
    assert logged.args["target"]["name"] == "Briar" and "2d20kh1" in logged.summary


def test_the_roller_for_any_creature_attacks_a_character_of_the_table() -> None:
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    briar.one("tc-pick-state").value = "Blinded"
    briar.tap("add-state")
    panels = [p for p in page.all("tc-check") if getattr(p, "adventurer", 1) is None]
    assert len(panels) == 1
    monster = Scope(panels[0])
    monster.fill("modifier", "3")
    assert shown_odds(monster) == expected(3, "normal")
    monster.one("tc-select-target").value = "Briar"
    assert shown_odds(monster) == expected(3, "advantage")


def test_the_roller_for_any_creature_attacks_a_prone_character_near_and_far() -> None:
    """A Prone target: the monster's attack within touch range has advantage, beyond it
    disadvantage, and a Dodge taken as well cancels the advantage near it."""
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    briar.one("tc-pick-state").value = "Prone"
    briar.tap("add-state")
    panels = [p for p in page.all("tc-check") if getattr(p, "adventurer", 1) is None]
    monster = Scope(panels[0])
    monster.fill("modifier", "-1")
    monster.one("tc-select-target").value = "Briar"
    assert shown_odds(monster) == expected(-1, "advantage")
    monster.one("tc-check-far").value = True
    assert shown_odds(monster) == expected(-1, "disadvantage")
    monster.one("tc-check-far").value = False
    briar = sheet_of(page, "Briar")
    briar.tap("section-turn")
    briar.tap("start-turn")
    briar.one("tc-pick-technique").value = "Dodge"
    briar.tap("spend-ap")
    assert shown_odds(monster) == expected(-1, "normal")  # advantage and disadvantage


def test_the_app_stands_a_prone_character_up_with_move() -> None:
    """From the sheet's turn fold: a Prone character's Strike leaves them down, Move stands
    them up, and the attack odds against them (shown before a roll) follow."""
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    briar.one("tc-pick-state").value = "Prone"
    briar.tap("add-state")
    adventurer = briar.one("tc-check").adventurer
    assert adventurer.has("Prone")
    briar.tap("section-turn")
    briar.tap("start-turn")
    briar.one("tc-pick-technique").value = "Strike"
    briar.tap("spend-ap")
    assert adventurer.has("Prone")  # another technique: still down
    ash = sheet_of(page, "Ash")
    panel = ash.one("tc-check")
    panel.ability.value, panel.attack.value = "power", True
    check = ash.within("tc-check")
    check.one("tc-select-target").value = "Briar"
    power = panel.adventurer.check_modifier("power", attack=True)
    assert shown_odds(check) == expected(power, "advantage")
    briar = sheet_of(page, "Briar")
    briar.one("tc-pick-technique").value = "Move"
    briar.tap("spend-ap")
    assert not adventurer.has("Prone") and "stands up" in adventurer.log[-1].summary
    ash = sheet_of(page, "Ash")
    assert shown_odds(ash.within("tc-check")) == expected(power, "normal")


def test_the_app_gives_a_dodgers_cunning_saving_throw_advantage() -> None:
    """A Dodge taken in the app: the dodger's own cunning saving throw is shown (and
    rolled) with advantage; a power save, or a cunning check that is no save, is not."""
    page = AppPage("monsters_and_magic")
    briar = sheet_of(page, "Briar")
    briar.tap("section-turn")
    briar.tap("start-turn")
    briar.one("tc-pick-technique").value = "Dodge"
    briar.tap("spend-ap")
    panel = briar.one("tc-check")
    check = briar.within("tc-check")
    panel.ability.value = "cunning"
    cunning = panel.adventurer.check_modifier("cunning")
    assert shown_odds(check) == expected(cunning, "normal")  # a check, not a save
    check.one("tc-check-save").value = True
    assert shown_odds(check) == expected(cunning, "advantage")
    panel.ability.value = "power"
    assert shown_odds(check) == expected(panel.adventurer.check_modifier("power"), "normal")
    panel.ability.value = "cunning"
    check.tap("roll")
    logged = panel.adventurer.log[-1]
    assert logged.args["save"] is True and "2d20kh1" in logged.summary, logged.summary
