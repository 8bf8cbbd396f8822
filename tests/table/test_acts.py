"""Issue 43: every move is a named act of plain data, judged by the session.

- An act reads back from its JSON exactly (hypothesis), and a malformed one is refused in
  one line naming the field, bounded before it is parsed.
- ``Session.perform`` makes an accepted act and answers with the events it stored (as the
  seat sees them); a refused act (no such move, wrong arguments, a seat that may not,
  a seed chosen by the caller, a spectator) stores nothing.
- A rolled act takes the session's dice inside the tracker's own move and logs the roll.
- ``Session.read`` is a read-only view: every move, undo and load on it raises.
- The test of the door: an act log written down from a scripted session of every
  ruleset, replayed act by act through a fresh session on a fresh campaign, gives the
  same facts (same moves, arguments, seeds, changes and roll entries) and a chain that
  holds; an act from that log sent by a seat that may not make it is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.combat import Attack, Encounter
from companion.rulesets.cairn_srd.exploration import Delve
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.rulesets.miasma.earthmotes import EarthmoteLog
from companion.rulesets.miasma.psychosis import MiasmaTracker
from companion.rulesets.monsters_and_magic.adventurer import Adventurer, GameMaster
from companion.rulesets.plot_points.session import PlotPointSession
from companion.rulesets.variant5e.death_and_returning import DeathRecord
from companion.rulesets.variant5e.healing import HitDice
from companion.state import jsonable
from companion.store import chain
from companion.store.campaign import create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.acts import Accepted, Act, ActError, Refused, RollSpec
from companion.table.session import ReadOnlyError
from tests.conftest import campaign_of, session_of

RULESETS = ["plot_points", "cairn_srd", "miasma", "variant5e", "monsters_and_magic"]
SERVER_SEED = "5e" * 32


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


# --- acts as data --------------------------------------------------------------------------

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=12)

_acts = st.builds(
    Act, st.text(max_size=20), st.text(min_size=1, max_size=20),
    st.dictionaries(st.text(max_size=8), _json, max_size=4),
    st.none() | st.builds(RollSpec, st.sampled_from(["public", "gm", "blind", "self"]),
                          st.text(max_size=20),
                          st.none() | st.lists(st.integers(1, 20), max_size=5).map(tuple)),
    st.text(max_size=10), st.integers(0, 2**40))


@given(_acts)
def test_an_act_reads_back_from_its_json_exactly(act: Act) -> None:
    again = Act.from_json(act.to_json())
    assert again == act
    assert again.to_json() == act.to_json()


@pytest.mark.parametrize(("text", "message"), [
    ("[]", "act must be an object, not list"),
    ('{"tracker": "Ash"}', "act: 'move' names the move to make"),
    ('{"tracker": "Ash", "move": 3}', "act: 'move' must be text, not int"),
    ('{"tracker": "Ash", "move": "x", "args": [1]}', "'args' must be an object"),
    ('{"tracker": "Ash", "move": "x", "how": 1}', "act has no field 'how'"),
    ('{"tracker": "Ash", "move": "x", "seq": -1}', "'seq' must be a whole number"),
    ('{"tracker": "Ash", "move": "x", "roll": {"mode": "loud"}}', "mode must be one of"),
    ('{"tracker": "Ash", "move": "x", "roll": {"own_dice": ["6"]}}', "own_dice must be"),
    ('{"tracker": "Ash", "move": "x", "args": {"a": ' + "[" * 10_000 + "]" * 10_000 + "}}",
     "act nests deeper than 32 levels"),
    ("{nope", "act is not JSON"),
    ('{"tracker": "' + "x" * 2_000_000 + '"}', "act is larger than 1,000,000 bytes"),
])
def test_a_malformed_act_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(ActError, match=message) as caught:
        Act.from_json(text)
    assert "\n" not in str(caught.value)


def test_brackets_inside_a_string_are_not_nesting() -> None:
    act = Act("Ash", "load", {"text": "[" * 500 + '"\\"[' + "]" * 500})
    assert Act.from_json(act.to_json()) == act


# --- perform --------------------------------------------------------------------------------


def _table(store: Store) -> Session:
    gm = session_of(create(store, "T", RULESETS, who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
    return gm


def test_an_accepted_act_answers_with_the_events_it_stored(store: Store) -> None:
    gm = _table(store)
    head = campaign_of(gm).head
    outcome = gm.perform(Act("Ash", "add_fatigue", {"count": 2}))
    assert isinstance(outcome, Accepted)
    assert [(e["kind"], e["tracker"], e["move"]) for e in outcome.events] == [
        ("move", "ash", "add_fatigue")]
    assert outcome.events[0]["seq"] == head + 1 == campaign_of(gm).head
    assert gm.read("Ash").fatigue == 2  # type: ignore[attr-defined]
    assert json.loads(json.dumps(outcome.to_dict()))["ok"] is True


@pytest.mark.parametrize(("act", "reason"), [
    (Act("Ash", "fly"), "Character has no move 'fly'"),
    (Act("Ash", "take_damage", {"amount": "lots"}), "must be a whole number"),
    (Act("Ash", "take_damage"), "missing a required argument: 'amount'"),
    (Act("Ash", "take_damage", {"amount": 1, "wings": 2}), "has no argument 'wings'"),
    (Act("Ash", "panic_save", {"seed": 7}), "the session draws every seed"),
    (Act("Ash", "add_fatigue", roll=RollSpec()), "add_fatigue rolls no dice"),
    (Act("Nobody", "add_fatigue"), "Nobody"),
    (Act("", "dance"), "the table has no act 'dance'"),
    (Act("", "roll", {"expr": "2d"}), "2d"),
    (Act("", "roll", {"expr": "1000000d6"}), "dice"),
    (Act("Ash", "undo", {"all": True}), "undo takes no argument 'all'"),
    (Act("Ash", "load", {"text": "{"}), ""),
])
def test_a_refused_act_stores_nothing(store: Store, act: Act, reason: str) -> None:
    gm = _table(store)
    gm.perform(Act("Ash", "add_fatigue"))
    head = campaign_of(gm).head
    outcome = gm.perform(act)
    assert isinstance(outcome, Refused), outcome
    assert reason in outcome.reason and "\n" not in outcome.reason
    assert store.head(campaign_of(gm).info.id) == head


def test_a_seat_may_only_make_what_its_seat_may(store: Store) -> None:
    gm = _table(store)
    gm.perform(Act("Dice Monarchs", "new_table", {"players": ["Ash", "Bryn"], "chips": 50}))
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    watcher = Session.by_secret(store, "T", "forged")
    head = store.head(campaign_of(gm).info.id)
    for session, act, reason in [
            (ash, Act("Dice Monarchs", "rebuy", {"player": "Ash", "chips": 5000}),
             "is the GM's move"),
            (watcher, Act("Ash", "add_fatigue"), "watching"),
            (watcher, Act("", "roll", {"expr": "1d20"}), "watching")]:
        outcome = session.perform(act)
        assert isinstance(outcome, Refused) and reason in outcome.reason, outcome
    assert store.head(campaign_of(gm).info.id) == head
    assert isinstance(ash.perform(Act("Ash", "add_fatigue")), Accepted)


def test_a_player_s_answer_holds_no_other_seat_s_hidden_value(store: Store) -> None:
    gm = _table(store)
    gm.perform(Act("Dice Monarchs", "new_table", {"players": ["Ash", "Bryn"], "chips": 50}))
    bryn = Session.by_secret(store, "T", make_seat(store, "T", "Bryn", "player"))
    seen = campaign_of(bryn).head
    gm.perform(Act("Dice Monarchs", "deal"))
    live = campaign_of(gm).tracker("Dice Monarchs", DiceMonarchsGame)
    ash_hole, bryn_hole = live.hole
    assert ash_hole and bryn_hole  # dealt
    # The GM's answer holds Ash's hole roll; Bryn's holds neither it nor the table seed.
    assert json.dumps(ash_hole) in json.dumps(gm.events_since(seen))
    answer = json.dumps(bryn.events_since(seen - 1))
    assert json.dumps(ash_hole) not in answer and str(live.seed) not in answer
    mine = bryn.read("Dice Monarchs")
    assert isinstance(mine, DiceMonarchsGame)
    assert mine.hole[0] != ash_hole and mine.seed != live.seed


def test_a_rolled_act_takes_the_session_s_dice_and_logs_the_roll(store: Store) -> None:
    gm = _table(store)
    outcome = gm.perform(Act("Ash", "panic_save", roll=RollSpec("public", "Ash keeps calm")))
    assert isinstance(outcome, Accepted)
    kinds = [e["kind"] for e in outcome.events]
    assert kinds == ["move", "roll"]
    move, roll = outcome.events
    assert roll["data"]["label"] == "Ash keeps calm"
    assert roll["data"]["moves"] == [move["seq"]]
    assert move["seed"] == roll["seed"] == outcome.roll["seed"]  # type: ignore[index]
    assert roll["data"]["fair"]["n"] >= 1  # the sitting's provably fair seed
    assert outcome.result["roll"] == roll["data"]["text"].split("d20 = ")[1].split()[0] \
        or isinstance(outcome.result["roll"], int)  # type: ignore[index]


def test_a_rolled_act_with_real_dice_waits_for_the_table_s_trust(store: Store) -> None:
    gm = _table(store)
    ash = Session.by_secret(store, "T", make_seat(store, "T", "Ash", "player"))
    refused = ash.perform(Act("Ash", "panic_save", roll=RollSpec(own_dice=(3,))))
    assert isinstance(refused, Refused) and "own dice" in refused.reason
    gm.set_trust(own_dice=True)
    ash.refresh()
    taken = ash.perform(Act("Ash", "panic_save", roll=RollSpec(own_dice=(3,))))
    assert isinstance(taken, Accepted) and taken.result["roll"] == 3  # type: ignore[index]
    leftover = ash.perform(Act("Ash", "panic_save", roll=RollSpec(own_dice=(3, 4))))
    assert isinstance(leftover, Refused)


def test_a_read_only_view_refuses_every_move(store: Store) -> None:
    gm = _table(store)
    view = gm.read("Ash")
    assert isinstance(view, Character)
    head = campaign_of(gm).head
    for attempt in (lambda: view.add_fatigue(), lambda: view.undo(),
                    lambda: view.load(view.to_json())):
        with pytest.raises(ReadOnlyError, match="read-only view"):
            attempt()
    assert campaign_of(gm).head == head and view.fatigue == 0


# --- the test of the door: an act log replays ---------------------------------------------


def _setup(store: Store, name: str) -> dict[str, Session]:
    """The same campaign made twice: its members and seats (not acts: the table's set-up)."""
    gm = session_of(create(store, name, RULESETS, who="Mira", role="gm"))
    gm.add("Ash", Character("Ash"))
    gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
    gm.add("Plot", PlotPointSession(), role="minigame")
    gm.add("Miasma", MiasmaTracker(), role="minigame")
    gm.add("Motes", EarthmoteLog(), role="minigame")
    gm.add("Death", DeathRecord(), role="minigame")
    gm.add("Fallen", DeathRecord(), role="minigame")
    gm.add("Bryn", Adventurer(name="Bryn"))
    gm.add("GM threads", GameMaster(), role="minigame")
    gm.add("Fight", Encounter(), role="encounter")
    gm.add("Delve", Delve(), role="minigame")
    gm.add("Hit Dice", HitDice(), role="minigame")
    seats = {"Mira": gm}
    for who in ("Ash", "Bryn"):
        seats[who] = Session.by_secret(store, name, make_seat(store, name, who, "player"))
    return seats


SCRIPT: list[tuple[str, Act]] = [
    ("Mira", Act("", "client_seed", {"seed": "mira-device"})),
    ("Ash", Act("", "client_seed", {"seed": "ash-phone"})),
    ("Bryn", Act("", "client_seed", {"seed": "bryn-phone"})),
    # Cairn
    ("Ash", Act("Ash", "add_fatigue", {"count": 2})),
    ("Ash", Act("Ash", "undo")),
    ("Mira", Act("Ash", "take_damage", {"amount": 4})),
    ("Ash", Act("Ash", "panic_save", roll=RollSpec(label="Ash: panic"))),
    ("Ash", Act("Ash", "ability_save", {"ability": "DEX"}, roll=RollSpec())),
    ("Ash", Act("Ash", "cast", {"dice": 1, "spell": ""}, roll=RollSpec())),
    # Cairn's fight and delve, as the apps roll them (issue 43: named, no closure).
    ("Mira", Act("Fight", "add", {"name": "Ogre", "side": "Enemies", "guard": 3,
                                  "strength": 6, "control": 8, "weapon": 6})),
    ("Mira", Act("Fight", "add", {"name": "Hob", "side": "PCs", "guard": 2,
                                  "strength": 10})),
    ("Mira", Act("Fight", "attack", {"description": jsonable(Attack("Ogre", "Hob"))},
                 roll=RollSpec())),
    ("Mira", Act("Delve", "darkness_panic_save", {"name": "Pip", "control": 9},
                 roll=RollSpec())),
    ("Mira", Act("", "table", {"name": "cairn_srd.exploration.darkness_panic",
                               "args": {"delve": "Delve", "character": "Ash"}},
                 roll=RollSpec(label="Ash: panic save in the dark"))),
    # Dice Monarchs
    ("Mira", Act("Dice Monarchs", "new_table", {"players": ["Ash", "Bryn"], "chips": 50})),
    ("Mira", Act("Dice Monarchs", "set_banker_rolls", {"on": True})),
    ("Mira", Act("Dice Monarchs", "deal")),
    ("Bryn", Act("Dice Monarchs", "bet", {"player": "Bryn", "amount": 1})),
    ("Ash", Act("Dice Monarchs", "call", {"player": "Ash"})),
    # The banker's own community dice (the flop's d4 d6 d8), entered as rolled.
    ("Mira", Act("Dice Monarchs", "enter_community", roll=RollSpec(own_dice=(2, 5, 7)))),
    # Plot Points
    ("Mira", Act("Plot", "add_player", {"name": "Ash"})),
    ("Mira", Act("Plot", "roll_check", {"who": "Ash", "ability": "strong", "difficulty": 12},
                 roll=RollSpec())),
    ("Mira", Act("Plot", "end_check")),
    ("Mira", Act("Plot", "gain_strain", {"who": "Ash", "amount": 2})),
    # Miasma
    ("Mira", Act("Miasma", "add_character", {"name": "Ash"})),
    ("Mira", Act("Miasma", "enter_miasma", {"name": "Ash"})),
    ("Mira", Act("Miasma", "pass_time", {"hours": 3})),
    ("Mira", Act("Motes", "generate", roll=RollSpec())),
    ("Mira", Act("Motes", "new_region", {"index": 0, "keep": 1, "new_size": False,
                                         "keep_seed": False}, roll=RollSpec("gm"))),
    # 5e death and returning
    ("Mira", Act("Death", "drop_to_zero")),
    ("Mira", Act("Death", "roll_death_save", roll=RollSpec("gm"))),
    ("Mira", Act("Fallen", "die")),
    # The return and the soul's psychosis in one unit (a rolled table move).
    ("Mira", Act("", "table", {"name": "variant5e.death_and_returning.return_attempt",
                               "args": {"record": "Fallen", "spell": "raise dead",
                                        "caster_modifier": 3, "psychosis": "Miasma",
                                        "name": "Ash"}}, roll=RollSpec())),
    ("Mira", Act("Hit Dice", "take_damage", {"amount": 5})),
    ("Mira", Act("Hit Dice", "short_rest")),
    ("Mira", Act("Hit Dice", "roll_hit_die", roll=RollSpec())),
    # Monsters & Magic
    ("Bryn", Act("Bryn", "roll_check", {"ability": "luck", "dc": 12}, roll=RollSpec())),
    ("Bryn", Act("Bryn", "mark_fatigue")),
    # ... and through the party, as the sheet sends them (the GM's threads in one unit).
    ("Bryn", Act("", "table", {"name": "monsters_and_magic.party.roll", "args": {
        "move": "roll_check", "character": "Bryn",
        "options": {"ability": "luck", "dc": 12, "advantage": True}}}, roll=RollSpec())),
    ("Bryn", Act("", "table", {"name": "monsters_and_magic.party.roll", "args": {
        "move": "rest", "kind": "short", "character": "Bryn",
        "options": {"activities": []}}}, roll=RollSpec())),
    ("Mira", Act("", "table", {"name": "monsters_and_magic.party.road_check", "args": {
        "hexes": 2, "speed": "Slow", "ability": "cunning", "forage": True}},
        roll=RollSpec(label="foraging"))),
    ("Mira", Act("", "table", {"name": "monsters_and_magic.party.fall", "args": {
        "feet": 20, "who": "Bryn"}}, roll=RollSpec())),
    # The table's own
    ("Ash", Act("", "roll", {"expr": "4d6kh3"})),
    ("Mira", Act("", "rule", {"name": "plot_points.checks.check",
                              "args": {"ability": "average", "proficiency": 2,
                                       "advantage": 0, "difficulty": 12}, "lead": "Ann: "},
                 roll=RollSpec())),
    # Named rule rolls that move no tracker, as the apps send them (RollControls.run_rule).
    ("Bryn", Act("", "rule", {"name": "monsters_and_magic.group_checks.group",
                              "args": {"checks": [{"modifier": 1, "dc": 12},
                                                  {"modifier": -1, "dc": 12}]}},
                 roll=RollSpec(label="group check"))),
    ("Mira", Act("", "rule", {"name": "variant5e.contests.contest", "args": {
        "rule": "grapple", "initiator": {"who": "Ash", "check": "Athletics", "modifier": 4,
                                         "edge": "advantage"},
        "resister": {"who": "Orc", "check": "Acrobatics", "modifier": 2, "edge": "normal"},
        "on_success": "grappled", "automatic": ""}}, roll=RollSpec("gm", "5e contest"))),
    ("Ash", Act("", "rule", {"name": "cairn_srd.social.specialised_knowledge", "args": {}},
                roll=RollSpec(label="knowledge"))),
]


def _facts(store: Store, name: str) -> list[dict[str, Any]]:
    """What the campaign's log says happened, without what differs between two honest
    copies (the time, the campaign's random identity in the chain, a hidden roll's
    nonce and so its commitment, a table's salt)."""
    info = store.get_campaign(name)
    events = store.events_since(info.id, 0)
    chain.check_chain(info.uid, events)
    out = []
    for event in events:
        data = json.loads(json.dumps(event.data))
        data.pop("commitment", None)
        # A nonce state drawn from the system's entropy on purpose (the Monarchs' salt:
        # no die depends on it; NONCE_STATE) differs between two honest copies.
        if isinstance(data.get("change"), list):
            data["change"] = [c for c in data["change"] if c[0] != ["salt"]]
        if isinstance(data.get("secret"), dict):
            data["secret"].pop("nonce", None)
        out.append({"kind": event.kind, "who": event.who, "role": event.role,
                    "tracker": event.tracker, "move": event.move, "seed": event.seed,
                    "data": data})
    return out


def test_an_act_log_replays_through_a_fresh_session_to_the_same_campaign(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # The sitting's server seed fixed for both copies (in play it is the server's own
    # random secret): with it and the seats' client seeds (acts of the log) every derived
    # seed, and so every die, is the same.
    monkeypatch.setattr("companion.store.campaign.new_server_seed", lambda: SERVER_SEED)
    first = _setup(store, "First")
    journal: list[str] = []
    for session in first.values():
        session.on_act(lambda outcome, who=session.who: journal.append(json.dumps(
            {"who": who, "act": outcome.act.to_dict()}) if outcome.ok else ""))
    for who, act in SCRIPT:
        outcome = first[who].perform(act)
        assert isinstance(outcome, Accepted), (who, act, outcome)
    written = "\n".join(line for line in journal if line)
    assert len(written.splitlines()) == len(SCRIPT)

    second = _setup(store, "Second")
    for line in written.splitlines():
        entry = json.loads(line)
        outcome = second[entry["who"]].perform(Act.from_dict(entry["act"]))
        assert isinstance(outcome, Accepted), (entry, outcome)

    assert _facts(store, "Second") == _facts(store, "First")
    # And every tracker stands where the facts say, the same in both.
    def states(seats: dict[str, Session]) -> dict[str, Any]:
        seats["Mira"].refresh()
        return {m.name: {k: v for k, v in m.tracker.snapshot().items() if k != "salt"}
                for m in campaign_of(seats["Mira"])}

    one, two = states(first), states(second)
    assert json.dumps(one, sort_keys=True, default=str) == json.dumps(
        two, sort_keys=True, default=str)


def test_an_act_from_the_log_sent_by_a_seat_that_may_not_make_it_is_refused(
        store: Store) -> None:
    seats = _setup(store, "T")
    gm_act = Act.from_json(Act("Dice Monarchs", "new_table",
                               {"players": ["Ash", "Bryn"], "chips": 50}).to_json())
    head = store.head(campaign_of(seats["Mira"]).info.id)
    for who in ("Ash", "Bryn"):
        outcome = seats[who].perform(gm_act)
        assert isinstance(outcome, Refused) and "GM" in outcome.reason, outcome
    # Bryn's own move, sent by Ash, is refused as well.
    outcome = seats["Ash"].perform(Act("Bryn", "mark_fatigue"))
    assert isinstance(outcome, Refused), outcome
    assert store.head(campaign_of(seats["Mira"]).info.id) == head
