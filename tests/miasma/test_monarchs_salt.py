"""Dice Monarchs' commitments carry a random nonce (issue 19): a typed seed cannot be found
by trying seeds against a player's save; tables saved before the nonce still load."""

from __future__ import annotations

import hashlib
import json

from companion.fairplay import commitment
from companion.rulesets.miasma.dice_monarchs.game import DiceMonarchsGame


def _dealt(seed: int) -> DiceMonarchsGame:
    game = DiceMonarchsGame.start(["Ash", "Bryn", "Cy"], 100, seed=seed)
    game.deal()
    return game


def test_the_seed_commitment_is_salted_and_a_players_save_holds_no_salt() -> None:
    one, two = _dealt(2), _dealt(2)
    assert one.hole == two.hole  # the same seed deals the same dice...
    assert len(one.salt) == 32 and one.salt != two.salt  # ...under different nonces
    save = one.public_save("Ash")
    text = json.dumps(save)
    assert one.salt not in text
    unsalted = hashlib.sha256(b"dice-monarchs-seed:2").hexdigest()
    assert save["view"]["seed_commitment"] != unsalted  # trying seeds finds nothing
    assert save["view"]["seed_commitment"] == hashlib.sha256(
        f"dice-monarchs-seed:{one.salt}:2".encode()).hexdigest()
    assert save["view"]["commitments"]["Bryn"] != two.public_save("Ash")["view"][
        "commitments"]["Bryn"]


def test_the_gm_save_checks_every_commitment_after_the_hand() -> None:
    game = _dealt(7)
    save = game.public_save("Ash")
    gm = DiceMonarchsGame.from_json(game.to_json())  # the GM's save holds seed and salt
    assert gm.salt == game.salt
    assert save["view"]["seed_commitment"] == hashlib.sha256(
        f"dice-monarchs-seed:{gm.salt}:{gm.seed}".encode()).hexdigest()
    for seat, name in ((1, "Bryn"), (2, "Cy")):
        nonce = hashlib.sha256(f"dice-monarchs:{gm.salt}:{gm.seed}:{gm.hand_no}:{seat}:nonce"
                               .encode()).hexdigest()
        hole = gm.hole[seat]
        assert save["view"]["commitments"][name] == commitment("hole", None, hole, sum(hole),
                                                               nonce)


def test_a_table_saved_before_the_nonce_loads_and_keeps_its_commitments() -> None:
    game = _dealt(5)
    raw = json.loads(game.to_json())
    state = raw.get("state", raw)
    state.pop("salt")
    old = DiceMonarchsGame.from_json(json.dumps(raw))
    assert old.salt == "" and old.hole == game.hole
    assert old.seed_commitment() == hashlib.sha256(b"dice-monarchs-seed:5").hexdigest()
    nonce = hashlib.sha256(f"dice-monarchs:5:{old.hand_no}:1:nonce".encode()).hexdigest()
    assert old.hole_commitment(1) == commitment("hole", None, old.hole[1], sum(old.hole[1]),
                                                nonce)
