"""Downtime cycles: upkeep, petty crime, banks, actions, factions and the cycle, move by move."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from companion import dice
from companion.dice.roller import make_rng
from companion.errors import RuleError, StateError
from companion.rulesets.cairn_srd import downtime as d
from companion.rulesets.cairn_srd.saves import save

pytestmark = pytest.mark.timeout(60)


def test_lifestyles_and_upkeep() -> None:
    assert {k: v[0] for k, v in d.lifestyles().items()} == {
        "Meager": 5, "Comfortable": 25, "Luxurious": 125}
    with pytest.raises(RuleError, match="lifestyle is one of Meager"):
        d.upkeep_cost("Royal")
    assert d.CYCLES_PER_SEASON == 6


@pytest.mark.parametrize("amount,where,fee", [
    (1, "same branch", 1), (100, "same branch", 1), (101, "same branch", 2),
    (250, "same branch", 3), (10, "other branch", 1), (50, "other branch", 1),
    (51, "other branch", 2), (1000, "other branch", 20), (1, "other bank", 20),
    (400, "other bank", 20), (401, "other bank", 21), (1000, "other bank", 50)])
def test_withdrawal_fees(amount: int, where: str, fee: int) -> None:
    assert d.withdrawal_fee(amount, where) == fee


def test_withdrawal_fee_refusals() -> None:
    with pytest.raises(RuleError, match="withdraw 1-10,000,000"):
        d.withdrawal_fee(0, "same branch")
    with pytest.raises(RuleError, match="withdrawal is one of same branch"):
        d.withdrawal_fee(5, "under the mattress")
    assert d.withdrawal_kind("De Sapo", "Hoppland", "de sapo", "Ambrine") == "other branch"


def test_petty_crime_odds_against_enumeration() -> None:
    for modifier, push in itertools.product(range(-3, 4), (False, True)):
        target = min(6, max(2, 5 - modifier))
        win = bust = fail = Fraction(0)
        for a, b in itertools.product(range(1, 7), repeat=2):
            p = Fraction(1, 36)
            if a >= target:
                win += p
            elif not push:
                fail += p
            elif a + b >= 7:
                bust += p
            else:
                win += p
        odds = d.petty_crime_odds(2, modifier, push)
        assert (odds.success, odds.failure, odds.bust) == (win, fail, bust)
    # first die 1-4 fails; a clean push needs the sum at most 6: 5 + 4 + 3 + 2 = 14 of 36
    assert d.petty_crime_odds(2, 0, push=True).success == Fraction(1, 3) + Fraction(14, 36)
    assert d.petty_crime_odds(3).success == 1 and d.petty_crime_odds(1, push=True).bust == 0


def test_petty_crime_rolls_follow_the_seed() -> None:
    outcomes = set()
    for seed in range(200):
        res = d.petty_crime(2, push=True, seed=seed)
        r = make_rng(seed, None)
        first = dice.roll("1d6", rng=r).total
        assert res.rolls[0] == first
        if first >= 5:
            assert res.outcome == "success" and len(res.rolls) == 1
        else:
            second = dice.roll("1d6", rng=r).total
            assert res.rolls == (first, second)
            assert res.outcome == ("bust" if first + second >= 7 else "success")
        if res.outcome == "success":
            assert 1 <= res.silver <= 4
        outcomes.add(res.outcome)
    assert outcomes == {"success", "bust"}
    res = d.petty_crime(2, modifier=-9, accept_choice=True, seed=1)
    assert res.outcome == "hard choice" and res.funded
    assert d.petty_crime(1, seed=1).outcome == "failure"
    assert d.petty_crime(3, seed=1).silver in range(1, 7)
    with pytest.raises(RuleError, match="not both"):
        d.petty_crime(2, accept_choice=True, push=True)


def test_faction_odds() -> None:
    assert d.faction_odds() == {0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)}
    assert d.faction_odds(2) == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 2)}
    assert d.faction_odds(-2) == {0: Fraction(5, 6), 1: Fraction(1, 6), 2: Fraction(0)}
    assert d.faction_odds(-3)[0] == 1
    assert [d.faction_steps(t) for t in range(1, 9)] == [0, 0, 0, 1, 1, 2, 2, 2]


def party() -> d.Downtime:
    t = d.Downtime()
    t.add_member("Ash", purse=100, lifestyle="Comfortable")
    t.add_member("Bo", purse=3)
    return t


def test_cycle_steps_in_order() -> None:
    t = party()
    with pytest.raises(RuleError, match="step 1: upkeep comes next, not step 2"):
        t.choose_action("Ash", 0)
    with pytest.raises(RuleError, match="upkeep is still due from Ash, Bo"):
        t.finish_step()
    t.upkeep("Ash")
    assert t.member("Ash").purse == 75
    with pytest.raises(RuleError, match="Bo has 3 silver, meager costs 5"):
        t.upkeep("Bo")
    with pytest.raises(RuleError, match="already settled"):
        t.upkeep("Ash")
    t.upkeep("Bo", "odd job")
    assert t.member("Bo").odd_job and t.member("Bo").purse == 3
    assert t.allowed("finish_step")
    for expect in (2, 3, 4, 5):
        t.finish_step()
        assert t.step == expect
    t.finish_step()
    assert (t.season, t.cycle, t.step) == (1, 2, 1)
    assert not t.member("Ash").upkept
    for _ in range(5):
        t.upkeep("Ash", "debt")
        t.upkeep("Bo", "debt")
        for _ in range(5):
            t.finish_step()
    assert (t.season, t.cycle) == (2, 1)
    assert t.member("Bo").debt == 25 and t.member("Ash").debt == 125
    t.validate()


def test_upkeep_by_crime() -> None:
    for seed in range(40):
        t = party()
        t.upkeep("Bo", "crime", skill=True, gear=False, time=True, push=True, seed=seed)
        crime = d.petty_crime(2, push=True, seed=seed)
        bo = t.member("Bo")
        if crime.funded:
            assert bo.purse == 3 + crime.silver and bo.debt == 0
        else:
            assert bo.purse == 0 and bo.debt == 2   # 3 paid, 2 on debt
        assert "upkeep" in bo.ledger[-1]
    t = party()
    t.upkeep("Bo", "crime", skill=True, gear=True, time=False, seed=3)  # two of three
    t.upkeep("Ash", "crime", skill=False, gear=False, time=True, seed=3)  # one: fails
    assert t.member("Ash").purse == 75  # paid comfortable upkeep after the failure


def test_bank_and_caches() -> None:
    t = party()
    t.deposit("Ash", 60, "De Sapo", "Hoppland")
    assert t.member("Ash").purse == 40
    fee = t.withdraw("Ash", 20, "De Sapo", "Hoppland", at_branch="Ambrine")
    assert fee == 1 and t.member("Ash").accounts[0].balance == 39
    with pytest.raises(RuleError, match="plus a fee of 20 is more than the 39"):
        t.withdraw("Ash", 20, "De Sapo", "Hoppland", at_bank="Luden Trust")
    t.withdraw("Ash", 19, "De Sapo", "Hoppland", at_bank="Luden Trust")
    assert t.member("Ash").accounts[0].balance == 0 and t.member("Ash").purse == 79
    t.add_cache("Ash", "under the floor", 30)
    t.add_cache("Ash", "vault", 10, secured=True)
    assert [(o, i) for o, i, _ in t.targeted_caches()] == [("Ash", 0)]
    t.upkeep("Ash")
    t.upkeep("Bo", "debt")
    for _ in range(3):
        t.finish_step()
    assert "thieves target under the floor" in t.member("Ash").ledger[-1]
    t.rob_cache("Ash", 0, 30)
    assert len(t.member("Ash").caches) == 1
    with pytest.raises(RuleError, match="only unsecured"):
        t.rob_cache("Ash", 0, 5)


def test_downtime_action_with_costs_and_ctrl_save() -> None:
    t = party()
    idx = t.new_action("Ash", "Train with the sword master", 2,
                       [["Silver", "lessons", 50], ["Reputation", "a word at the guild", 0]])
    with pytest.raises(RuleError, match="a Silver cost names its silver"):
        t.new_action("Ash", "x", 1, [["Loss", "a finger", 5]])
    t.upkeep("Ash")
    t.upkeep("Bo", "odd job")
    t.finish_step()
    t.choose_action("Ash", idx)
    with pytest.raises(RuleError, match="action #1 is Ash's"):
        t.choose_action("Bo", idx)
    t.finish_step()
    with pytest.raises(RuleError, match="pay or waive the costs first"):
        t.mark_milestone(idx)
    t.pay_cost(idx, 0)
    assert t.member("Ash").purse == 25
    seed = next(s for s in range(100) if save(10, seed=s).success)
    assert t.contest_cost(idx, 1, control=10, seed=seed)
    assert t.actions[idx].costs[1].settled == "waived"
    t.mark_milestone(idx)
    t.mark_milestone(idx)
    assert t.actions[idx].done and "achieved" in t.log[-1].summary
    with pytest.raises(RuleError, match="0 milestones left"):
        t.mark_milestone(idx)


def test_failed_ctrl_save_keeps_the_cost() -> None:
    t = party()
    idx = t.new_action("Bo", "Research the tower", 1, [["Silver", "scribes", 40]])
    seed = next(s for s in range(100) if not save(8, seed=s).success)
    assert not t.contest_cost(idx, 0, control=8, reduce_to=10, seed=seed)
    assert t.actions[idx].costs[0].silver == 40 and not t.actions[idx].costs[0].settled
    seed = next(s for s in range(100) if save(8, seed=s).success)
    assert t.contest_cost(idx, 0, control=8, reduce_to=10, seed=seed)
    assert t.actions[idx].costs[0].silver == 10


def test_recovering_cannot_take_an_action() -> None:
    t = party()
    idx = t.new_action("Bo", "Tame a hawk", 3)
    t.set_recovering("Bo")
    t.upkeep("Ash")
    t.upkeep("Bo", "debt")
    t.finish_step()
    with pytest.raises(RuleError, match="recovering ability scores or Wounds"):
        t.choose_action("Bo", idx)


def test_factions_and_interference() -> None:
    t = party()
    t.add_faction("Red Hand", "Seize the docks", size=3, modifier=1)
    t.add_faction("Guild", "Corner the salt", size=6)
    t.upkeep("Ash")
    t.upkeep("Bo", "debt")
    for _ in range(3):
        t.finish_step()
    with pytest.raises(RuleError, match="factions have not had their turn"):
        t.finish_step()
    lines = t.faction_turn(seed=5)
    r = make_rng(5, None)
    faces = [dice.roll("1d6", rng=r).total for _ in range(2)]
    assert t.factions[0].progress == min(3, d.faction_steps(faces[0] + 1))
    assert t.factions[1].progress == d.faction_steps(faces[1])
    assert len(lines) == 2
    with pytest.raises(RuleError, match="had this cycle's turn"):
        t.faction_turn(seed=1)
    t.interfere("guild", -3)
    assert t.factions[1].progress == 0 and "play in the settlement begins" in t.log[-1].summary
    with pytest.raises(RuleError, match="1-3 steps"):
        t.interfere("Guild", 4)
    t.finish_step()


def test_settlement_hazard_in_cycle() -> None:
    t = party()
    t.enter_settlement("Brackenwold")
    t.upkeep("Ash")
    t.upkeep("Bo", "debt")
    for _ in range(3):
        t.finish_step()
    with pytest.raises(RuleError, match="hazard die has not been rolled"):
        t.finish_step()
    res = t.settlement_hazard(seed=4)
    assert 1 <= res.roll <= 6
    t.finish_step()
    assert t.step == 5


def test_round_trip_and_corrupt_save() -> None:
    t = party()
    t.new_action("Ash", "Craft a bow", 2, [["Resources", "yew", 0]])
    t.add_faction("Guild", "Salt")
    t.upkeep("Ash")
    back = d.Downtime.from_json(t.to_json())
    assert back == t
    bad = t.to_json().replace('"marked": 0', '"marked": 4')
    with pytest.raises(StateError, match="marked"):
        d.Downtime.from_json(bad)
    bad = t.to_json().replace('"owner": "Ash"', '"owner": "Zed"')
    with pytest.raises(StateError, match="nobody called “Zed”"):
        d.Downtime.from_json(bad)
    t.undo()
    assert not t.member("Ash").upkept


def test_crime_with_time_leaves_no_time_for_an_action() -> None:
    t = party()
    idx = t.new_action("Bo", "Tame a hawk", 3)
    t.upkeep("Ash")
    t.upkeep("Bo", "crime", skill=True, time=True, seed=1)
    t.finish_step()
    with pytest.raises(RuleError, match="spent this cycle's time on petty crime"):
        t.choose_action("Bo", idx)
    t2 = party()
    idx = t2.new_action("Bo", "Tame a hawk", 3)
    t2.upkeep("Ash")
    t2.upkeep("Bo", "crime", skill=True, gear=True, time=False, seed=1)
    t2.finish_step()
    t2.choose_action("Bo", idx)
    assert t2.member("Bo").action == idx
