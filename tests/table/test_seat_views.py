"""Issue 28: what a seat may read. A player's (or a spectator's) session never holds another
seat's hidden values: every object reachable from what the session hands out (its trackers,
its log, its saves) is walked, and the other seat's hole dice, the table seed and its salt,
or the other side's unrevealed pick appear nowhere; the GM's session holds them all (so the
check can fail), and a leak planted in a player's tracker is found. Moves made on a
player's mirror reach the live tracker through the seam."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.errors import CompanionError
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store.campaign import Campaign, create
from companion.store.db import Store
from companion.store.seats import make_seat
from companion.table import Session
from companion.table.session import ReadOnlyError
from companion.table.views import visible_save
from tests.conftest import session_of
from tests.table.reach import leaks, reachable

#: The table seed the GM types (a number found nowhere else).
SEED = 731_906_254_118_437

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(f"sqlite:///{tmp_path / 'c.db'}")


def _table(store: Store) -> Session:
    gm = session_of(create(store, "T", ["cairn_srd", "miasma"], who="Mira", role="gm"))
    gm.add("Dice Monarchs", DiceMonarchsGame(), role="minigame")
    gm.tracker("Dice Monarchs", DiceMonarchsGame).new_table(["Ash", "Bryn"], 100, seed=SEED)
    gm.act("Dice Monarchs", "deal")
    gm.add("Duel", Duel(), role="minigame")
    gm.act("Duel", "start", "Ash", "Bryn", 6, 6, "the bridge")
    return gm


def _seat(store: Store, who: str, role: str = "player") -> Session:
    return Session.by_secret(store, "T", make_seat(store, "T", who, role))


def _reads(session: Session) -> list[Any]:
    """Everything a face can ask this session for, and each in its JSON form."""
    out: list[Any] = [session.tracker("Dice Monarchs"), session.view("Duel"), session.log(),
                      session.visible_save("Dice Monarchs"), session.visible_save("Duel")]
    out += [json.dumps(session.visible_save(n)) for n in ("Dice Monarchs", "Duel")]
    out += [session.view(n).to_json() for n in ("Dice Monarchs", "Duel")]
    out += [repr(e) for e in session.log()] + [json.dumps(e.to_dict()) for e in session.log()]
    return out


def _secrets(gm: Session) -> dict[str, Any]:
    game = gm.tracker("Dice Monarchs", DiceMonarchsGame)
    bryn, ash = game.hole_dice("Bryn"), game.hole_dice("Ash")
    assert bryn and ash and list(bryn) != list(ash)
    return {"ints": [SEED], "texts": [game.salt], "dice": [list(bryn)]}


def test_a_player_s_session_holds_no_other_seat_s_hole_dice_seed_or_salt(
        store: Store) -> None:
    gm = _table(store)
    secrets = _secrets(gm)
    everything = {f"int {SEED}", f"text {secrets['texts'][0]!r}", f"dice {secrets['dice'][0]}"}
    boundary = (Session, Campaign)
    # The GM's session holds every one of them: the check below can fail.
    assert leaks(reachable(_reads(gm), boundary), **secrets) == everything
    ash = _seat(store, "Ash")
    spectator = Session.open(store, "T", role="spectator")
    for seat in (ash, spectator):
        assert leaks(reachable(_reads(seat), boundary), **secrets) == set(), seat
    mirror = ash.tracker("Dice Monarchs", DiceMonarchsGame)
    live = gm.tracker("Dice Monarchs", DiceMonarchsGame)
    assert mirror is not live and mirror.hole_dice("Ash") == live.hole_dice("Ash")
    assert mirror.hole_dice("Bryn") == () and mirror.seed == 0
    # A leak planted where a page could reach it is found.
    mirror.__dict__["_planted"] = {"cache": [live]}
    assert leaks(reachable(_reads(ash), boundary), **secrets) == everything
    del mirror.__dict__["_planted"]


def test_a_player_s_moves_on_the_mirror_reach_the_live_table_through_the_seam(
        store: Store) -> None:
    gm = _table(store)
    ash, bryn = _seat(store, "Ash"), _seat(store, "Bryn")
    first = gm.tracker("Dice Monarchs", DiceMonarchsGame).player_to_act
    assert first is not None
    other = "Ash" if first == "Bryn" else "Bryn"
    mover, watcher = (ash, bryn) if first == "Ash" else (bryn, ash)
    game = mover.tracker("Dice Monarchs", DiceMonarchsGame)
    with pytest.raises(CompanionError, match="GM"):
        game.rebuy(first, 5000)  # the seam judges a mirror's move as any other
    with pytest.raises(CompanionError):
        game.bet(other, 3)  # another seat's turn: not this seat's to make
    game.bet(first, 3)
    assert game.committed[game.players.index(first)] == 3  # the mirror follows at once
    gm.refresh()
    assert gm.tracker("Dice Monarchs", DiceMonarchsGame).player_to_act == other
    watcher.refresh()
    assert watcher.tracker("Dice Monarchs", DiceMonarchsGame).player_to_act == other
    # A mirror is its own session's: another seat's session refuses it.
    with pytest.raises(CompanionError, match="not in campaign"):
        watcher.act(game, "call", other)
    # The session draws every seed: dice handed to a mirror's move outside a rule roll
    # are refused.
    with pytest.raises(CompanionError, match="draws every seed"):
        ash.tracker("Duel", Duel).choose("Ash", "attack", rng=random.Random(1))


def test_a_duel_pick_stays_hidden_from_the_other_side_until_both_have_chosen(
        store: Store) -> None:
    gm = _table(store)
    ash, bryn = _seat(store, "Ash"), _seat(store, "Bryn")
    ash.act("Duel", "choose", "Ash", "flourish")
    assert ash.view("Duel", Duel).choices == ["flourish", ""]  # their own pick
    for session in (gm, bryn):
        session.refresh()
    pick = {"texts": ["flourish"]}
    assert leaks(reachable([gm.view("Duel"), gm.log()], (Session, Campaign)), **pick)
    mirror = bryn.view("Duel", Duel)
    assert mirror.choices == [Duel.HIDDEN_PICK, ""]
    assert mirror.view_for("Bryn")["chosen"] == [True, False]  # that Ash chose is public
    assert leaks(reachable(_reads(bryn), (Session, Campaign)), **pick) == set()
    # Bryn's pick reveals both: now the exchange says Ash's.
    mirror.choose("Bryn", "attack")
    assert mirror.exchanges and mirror.exchanges[-1].choices == ["flourish", "attack"]
    assert mirror.choices == ["", ""]


def test_the_projection_is_the_ruleset_s_and_the_gm_s_is_whole(store: Store) -> None:
    gm = _table(store)
    live = gm.tracker("Dice Monarchs", DiceMonarchsGame)
    assert visible_save(live, "Mira", "gm") == live.to_dict()
    assert visible_save(live, "", "") == live.to_dict()
    ash = visible_save(live, "Ash", "player")
    assert ash == DiceMonarchsGame.visible_save(live.to_dict(), "Ash", "player")
    assert ash["state"]["seed"] == 0 and ash["state"]["salt"] == ""
    assert all("seed" not in e["args"] for e in ash["log"])
    # A copy: changing it changes nothing live.
    ash["state"]["hole"][0].append(99)
    assert 99 not in live.hole[0]


def _marked(objects: list[Any]) -> list[Any]:
    """A hidden roll's dice a sheet keeps: a record marked with the roll's mode."""
    return [o for o in objects if getattr(o, "hidden", None) == "gm"
            or (isinstance(o, dict) and o.get("hidden") == "gm" and "natural" in o)]


def test_a_hidden_check_s_dice_on_a_sheet_stay_out_of_the_player_s_view(
        store: Store) -> None:
    from companion.rulesets.monsters_and_magic.adventurer import Adventurer

    gm = session_of(create(store, "M", ["monsters_and_magic"], who="Mira", role="gm"))
    gm.add("Ash", Adventurer.new("Ash", max_hp=12))
    sheet = gm.tracker("Ash", Adventurer)
    out = gm._rule_roll("Ash: power check", lambda rng: sheet.roll_check("power", dc=12, rng=rng),
                       mode="gm")
    assert out.shown and sheet.last_check is not None and sheet.last_check.hidden == "gm"
    ash = Session.by_secret(store, "M", make_seat(store, "M", "Ash", "player"))
    mirror = ash.tracker("Ash", Adventurer)
    assert mirror is not sheet and mirror.last_check is None
    assert mirror.xp == sheet.xp  # the consequences stay public
    reads = [mirror, ash.log(), ash.visible_save("Ash"), mirror.to_json()]
    boundary = (Session, Campaign)
    assert _marked(reachable(reads, boundary)) == []
    assert _marked(reachable([gm.tracker("Ash")], boundary))  # the GM's holds it
    mirror.__dict__["_planted"] = sheet
    assert _marked(reachable(reads, boundary))  # a planted leak is found


def test_a_spectator_s_mirror_moves_nothing_and_a_wrong_kind_is_named(store: Store) -> None:
    gm = _table(store)
    spectator = Session.open(store, "T", role="spectator")
    game = spectator.tracker("Dice Monarchs", DiceMonarchsGame)
    assert all(h == [] for h in game.hole) and game.seed == 0  # before the showdown
    player = gm.tracker("Dice Monarchs", DiceMonarchsGame).player_to_act
    assert player is not None
    with pytest.raises(CompanionError, match="you are watching"):
        game.bet(player, 2)
    with pytest.raises(CompanionError, match="not a DiceMonarchsGame"):
        spectator.view("Duel", DiceMonarchsGame)
    with pytest.raises(CompanionError, match="not a Duel"):
        spectator.view(game, Duel)
    gm.refresh()
    assert gm.tracker("Dice Monarchs", DiceMonarchsGame).pot == 0  # nothing was stored


def _listed(session: Session) -> list[Any]:
    """Everything a face reads of the session's member listings (issue 43)."""
    seen = [*session.members(), *session.party(), session.member("Dice Monarchs"),
            session.member("Duel")]
    return [*seen, *(m.seen for m in seen), *(m.to_dict() for m in seen)]


def test_the_member_listings_hand_a_face_no_live_tracker(store: Store) -> None:
    """Issue 43: ``members()``, ``party()``, ``records()`` and ``member()`` hand a face
    each member as it may read it: its kind and a read-only view, no live tracker."""
    gm = _table(store)
    secrets = _secrets(gm)
    boundary = (Session, Campaign)
    live = gm.tracker("Dice Monarchs", DiceMonarchsGame)
    # The GM reads every value whole (so the leak check below can fail) but no live
    # tracker: a copy, whose moves raise.
    gm_seen = gm.member("Dice Monarchs")
    assert gm_seen.kind is DiceMonarchsGame and gm_seen.seen is not live
    assert gm_seen.seen.to_dict() == live.to_dict()
    assert leaks(reachable(_listed(gm), boundary), **secrets) != set()
    copy = gm_seen.seen
    assert isinstance(copy, DiceMonarchsGame)
    with pytest.raises(ReadOnlyError):
        copy.deal()
    assert all(m.seen is not gm.view(m.id) for m in gm.members())
    # A player's and a spectator's listings: what visible_save leaves them, nothing more.
    ash = _seat(store, "Ash")
    spectator = Session.open(store, "T", role="spectator")
    for seat in (ash, spectator):
        assert leaks(reachable(_listed(seat), boundary), **secrets) == set(), seat
        for member in seat.members():
            assert member.seen.to_dict() == visible_save(gm.view(member.id), seat.who,
                                                         seat.role)
    assert [m.name for m in ash.members()] == [m.name for m in gm.members()]
    assert ash.member("Duel").to_dict(state=False) == gm.member("Duel").to_dict(state=False)


def test_holds_tells_a_member_s_tracker_from_one_that_left(store: Store) -> None:
    gm = _table(store)
    duel = gm.view("Duel")
    assert gm.holds(duel)
    ash = _seat(store, "Ash")
    mirror = ash.view("Duel")
    assert ash.holds(mirror) and not gm.holds(Duel())
    gm.remove("Duel")
    ash.refresh()
    assert not gm.holds(duel) and not ash.holds(mirror)
