"""Whose action each move of a shared tracker is (``Tracker.acting_for``, which the
campaign's seam reads to let a player's seat make only their own character's moves).

For every shared tracker the moves that act for a character are exactly the expected ones
(every move is asked with each of its arguments naming "Ash", so a misspelt move name in
a tracker's list fails here), and the table's own moves, a name that is the GM's and an
argument that names nobody are the table's (``None``)."""

from __future__ import annotations

import inspect

import pytest

from companion.acting import named_actor
from companion.rulesets.cairn_srd.combat import Encounter
from companion.rulesets.cairn_srd.downtime import Downtime
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.cairn_srd.exploration import Delve
from companion.rulesets.cairn_srd.wilderness import Journey
from companion.rulesets.miasma.dice_monarchs.game import DiceMonarchsGame
from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.rulesets.plot_points.session import PlotPointSession
from companion.state import Tracker, is_move

OWN: dict[type[Tracker], set[str]] = {
    PlotPointSession: {"roll_check", "contest", "gain_strain", "gain_wounds", "heal_wounds",
                       "long_rest"},
    Downtime: {"add_cache", "add_member", "choose_action", "deposit", "earn", "repay",
               "set_recovering", "spend", "upkeep", "withdraw"},
    Journey: {"add_traveller", "lookout", "supply", "load_cargo", "unload_cargo",
              "bring_vehicles"},
    Duel: {"choose"},
    Delve: {"darkness_panic_save", "record_panic_save", "escape_check", "reroll_escape",
            "betray"},
    DiceMonarchsGame: {"bet", "bin", "call", "check", "raise_bet", "rebuy", "join", "leave"},
    MiasmaTracker: {"enter_miasma", "leave_miasma", "eat_and_drink", "long_rest"},
}


def moves(cls: type[Tracker]) -> list[str]:
    return [n for n in dir(cls) if is_move(getattr(cls, n, None))]


def naming_ash(cls: type[Tracker], move: str) -> dict[str, object]:
    params = inspect.signature(getattr(cls, move)).parameters
    return {p: "Ash" for p in params if p not in ("self", "rng", "seed")}


@pytest.mark.parametrize("cls", list(OWN), ids=lambda c: c.__name__)
def test_exactly_the_players_own_moves_act_for_the_named_character(
        cls: type[Tracker]) -> None:
    tracker = cls()
    acting = {m for m in moves(cls)
              if tracker.acting_for(m, naming_ash(cls, m)) == ("Ash",)}
    assert acting == OWN[cls]
    for m in set(moves(cls)) - OWN[cls]:
        assert tracker.acting_for(m, naming_ash(cls, m)) is None, m
    for m in OWN[cls]:  # an argument naming nobody (missing, blank, not text) is the table's
        assert tracker.acting_for(m, {}) is None
        assert tracker.acting_for(m, dict.fromkeys(naming_ash(cls, m), "  ")) is None
        assert tracker.acting_for(m, dict.fromkeys(naming_ash(cls, m), None)) is None


def test_plot_points_the_gm_and_the_roller() -> None:
    session = PlotPointSession.new(["Ash", "Bo"], gm="Mira")
    assert session.acting_for("roll_check", {"who": "Mira"}) is None  # the GM's own check
    assert session.acting_for("retry_with_lucky", {}) is None  # no check in play
    session.roll_check("Bo", seed=1)
    assert session.acting_for("retry_with_lucky", {}) == ("Bo",)
    assert session.acting_for("reroll_with_unlucky", {}) == ("Bo",)
    assert session.acting_for("gm_force_reroll", {}) is None
    session.roll_check("Mira", seed=1)
    assert session.acting_for("retry_with_lucky", {}) is None


def test_duel_by_name_or_by_side() -> None:
    duel = Duel()
    duel.start("Ash", "Bo", 5, 5, "honour")
    assert duel.acting_for("choose", {"who": 1, "tactic": "attack"}) == ("Bo",)
    assert duel.acting_for("choose", {"who": "Ash"}) == ("Ash",)
    assert duel.acting_for("choose", {"who": 2}) is None
    assert duel.acting_for("start", {"first": "Ash"}) is None


def test_the_fight_is_covered_in_its_own_tests() -> None:
    assert "acting_for" in Encounter.__dict__  # tests/cairn_srd/test_combat_linked.py


def test_named_actor_reads_the_argument_and_leaves_the_table_out() -> None:
    own = {"bet": "player"}
    assert named_actor(own, "bet", {"player": "Ash"}) == ("Ash",)
    assert named_actor(own, "bet", {"player": "Mira"}, table=("Mira",)) is None
    assert named_actor(own, "bet", {"player": 3}) is None
    assert named_actor(own, "deal", {"player": "Ash"}) is None
