"""Issue 28 (the LEFT list): a table seated with the GM's typed seed, and the hidden-dice
games' undo rule, each through the table session.

- [Session.act_seeded][companion.table.session.Session.act_seeded]: the GM's typed table
  seed seats the table and the log marks it as the GM's; ``verify`` counts it apart, as
  not provably fair; a player's is refused (the move first, then the seed) and stores
  nothing; a player's log view never holds the seed.
- [Session.undo][companion.table.session.Session.undo] keeps the games' own rule (the
  tracker's ``undo_refusal``, applied by the seam): a player's undo at a hidden-dice table
  is refused even for their own newest move, and a move that revealed dice or picks stays,
  even for the GM. SQLite and PostgreSQL.
"""

from __future__ import annotations

import pytest

from companion import fairplay
from companion.errors import RuleError
from companion.rulesets.cairn_srd.character import Character
from companion.rulesets.cairn_srd.duel import Duel
from companion.rulesets.miasma.dice_monarchs import DiceMonarchsGame
from companion.store import open_store
from companion.store.campaign import SeatError, create
from companion.store.seats import make_seat
from companion.table import Session
from tests.conftest import campaign_of, session_of

pytestmark = pytest.mark.timeout(180)

MONARCHS = "Dice Monarchs"


def _gm(store: object) -> Session:
    gm = session_of(create(store, "T", ["cairn_srd", "miasma"],  # type: ignore[arg-type]
                           who="Mira", role="gm"))
    gm.add(MONARCHS, DiceMonarchsGame(), role="minigame")
    gm.add("Duel", Duel(), role="minigame")
    gm.add("Bryn", Character("Bryn"))
    return gm


def _player(store: object, who: str) -> Session:
    secret = make_seat(store, "T", who, "player")  # type: ignore[arg-type]
    return Session.by_secret(store, "T", secret)  # type: ignore[arg-type]


def _moves(session: Session) -> list[object]:
    return [e for e in session.log() if e.kind in ("move", "undo", "set")]


# --- the GM's table seed -----------------------------------------------------------------


def test_the_gm_seats_a_table_with_a_typed_seed_marked_and_counted_apart(db: str) -> None:
    with open_store(db) as store:
        gm = _gm(store)
        gm.act_seeded(MONARCHS, "new_table", 4242, ["Ash", "Bryn"], 100)
        game = gm.tracker(MONARCHS, DiceMonarchsGame)
        assert game.seed == 4242 and game.players == ["Ash", "Bryn"]
        (seated,) = [e for e in gm.log() if e.move == "new_table"]
        assert seated.data["seed_chosen_by"] == "Mira" and seated.seed == 4242
        # The same table seed deals the same hole dice: the GM's seed decides every die.
        twin = DiceMonarchsGame.start(["Ash", "Bryn"], 100, seed=4242)
        twin.deal()
        gm.act(MONARCHS, "deal")
        assert game.hole == twin.hole
        # A player's view of the log holds no table seed.
        bryn = _player(store, "Bryn")
        (seen,) = [e for e in bryn.log() if e.move == "new_table"]
        assert seen.seed is None and "4242" not in str(seen.to_dict())
        gm.roll("1d6")  # a sitting opens with a roll: the seed's count is its report's
        gm.close_sitting()
        notes: list[str] = []
        fairplay.verify({"events": [e.to_dict() for e in gm.log()]}, notes=notes)
        assert any("1 seed chosen by the GM, not derived (not provably fair)" in n
                   for n in notes), notes


def test_without_a_typed_seed_the_table_seed_is_the_sitting_s(db: str) -> None:
    with open_store(db) as store:
        gm = _gm(store)
        gm.act_seeded(MONARCHS, "new_table", None, ["Ash", "Bryn"], 100)
        (seated,) = [e for e in gm.log() if e.move == "new_table"]
        assert "seed_chosen_by" not in seated.data and "fair" in seated.data


def test_a_player_s_typed_table_seed_is_refused_and_stores_nothing(db: str) -> None:
    with open_store(db) as store:
        gm = _gm(store)
        gm.act_seeded(MONARCHS, "new_table", 7, ["Ash", "Bryn"], 100)
        bryn = _player(store, "Bryn")
        before = _moves(gm)
        # The move is the GM's: said first, before any word about the seed.
        with pytest.raises(SeatError, match="new table in Dice Monarchs is the GM's move"):
            bryn.act_seeded(MONARCHS, "new_table", 99, ["Bryn", "Ash"], 5000)
        # A seed on a move the player may make (her own save) is still the GM's.
        game = bryn.tracker(MONARCHS, DiceMonarchsGame)
        with pytest.raises(SeatError, match="only the GM chooses a seed"):
            bryn.act_seeded("Bryn", "panic_save", 3)
        with pytest.raises(SeatError, match="the session draws every seed"):
            bryn.act(MONARCHS, "new_table", ["Bryn", "Ash"], 5000, seed=99)
        gm.refresh()
        assert _moves(gm) == before and game.stacks == [100, 100]
        # The table seed is the GM's to see: a player's view of the table holds none.
        assert game.seed != 7 and gm.tracker(MONARCHS, DiceMonarchsGame).seed == 7


def test_a_seed_goes_only_to_a_move_that_takes_one(db: str) -> None:
    with open_store(db) as store:
        gm = _gm(store)
        with pytest.raises(Exception, match="deal takes no seed"):
            gm.act_seeded(MONARCHS, "deal", 3)
        with pytest.raises(Exception, match="a seed is a whole number"):
            gm.act_seeded(MONARCHS, "new_table", "3", ["Ash", "Bryn"])  # type: ignore[arg-type]
        assert _moves(gm) == []


# --- the games' undo rule, kept by Session.undo -------------------------------------------


def _dealt(store: object) -> tuple[Session, DiceMonarchsGame]:
    gm = _gm(store)
    gm.act_seeded(MONARCHS, "new_table", 11, ["Ash", "Bryn"], 100)
    gm.act(MONARCHS, "deal")
    return gm, gm.tracker(MONARCHS, DiceMonarchsGame)


def test_a_player_s_own_bet_is_the_gm_s_to_undo_at_the_monarchs_table(db: str) -> None:
    with open_store(db) as store:
        gm, game = _dealt(store)
        first = game.player_to_act
        assert first is not None
        player = _player(store, first)
        player.act(MONARCHS, "bet", first, 5)
        before = _moves(gm)
        # Their own newest move, no dice rolled: the seam alone would let it go; the
        # table's rule (hidden dice: the GM decides) does not.
        with pytest.raises(RuleError, match="only the GM can undo"):
            player.undo(MONARCHS)
        gm.refresh()
        assert _moves(gm) == before
        gm.undo(MONARCHS)  # the GM's undo of a move that revealed nothing
        assert game.current_bet == 0 and game.player_to_act == first


def test_a_move_that_revealed_dice_stays_even_for_the_gm(db: str) -> None:
    with open_store(db) as store:
        gm, game = _dealt(store)
        opener = game.player_to_act
        assert opener is not None
        gm.act(MONARCHS, "bet", opener, 5)  # the opening bet, then a call ends the round
        while not game.community:
            who = game.player_to_act
            assert who is not None
            gm.act(MONARCHS, "call", who)
        assert game.community
        before = _moves(gm)
        with pytest.raises(RuleError, match="revealed dice"):
            gm.undo(MONARCHS)
        assert _moves(gm) == before and game.community
        # The Undo button's reason says so too (the seam's may_undo).
        assert "revealed dice" in (campaign_of(gm).may_undo(game) or "")


def test_the_duel_s_reveal_stays_and_a_player_does_not_undo(db: str) -> None:
    with open_store(db) as store:
        gm = _gm(store)
        gm.act("Duel", "start", "Ash", "Bryn", 6, 6, "the bridge")
        gm.act("Duel", "choose", "Ash", "attack")
        ash = _player(store, "Ash")
        with pytest.raises(RuleError, match="only the GM can undo"):
            ash.undo("Duel")
        gm.undo("Duel")  # a pick not yet revealed: the GM may take it back
        duel = gm.tracker("Duel", Duel)
        assert duel.choices == ["", ""]
        gm.act("Duel", "choose", "Ash", "attack")
        gm.act("Duel", "choose", "Bryn", "defend")  # reveals both
        assert duel.rounds == 1
        with pytest.raises(RuleError, match="revealed both picks"):
            gm.undo("Duel")
        assert duel.rounds == 1


def test_the_holder_undoes_as_the_gm_under_the_same_rule() -> None:
    # The hot seat (an app with no campaign: an unsaved session's holder) once everyone
    # agreed: the GM's undo, a reveal kept.
    game = DiceMonarchsGame.start(["Ann", "Bo"], 100, seed=5)
    session = Session.unsaved([game])
    session.act(game, "deal")
    who = game.player_to_act
    assert who is not None
    session.act(game, "bet", who, 5)
    session.undo(game)
    assert game.player_to_act == who and game.current_bet == 0
    session.act(game, "bet", who, 5)
    while not game.community:
        turn = game.player_to_act
        assert turn is not None
        session.act(game, "call", turn)
    with pytest.raises(RuleError, match="revealed dice"):
        session.undo(game)
