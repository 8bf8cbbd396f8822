"""What an act's stamp says it was (issue 44): one digest for one act however its JSON
was spelled, another for any other act; a stamp kept before digests were cannot tell."""

from __future__ import annotations

from companion.store.act_stamps import ActGuard, act_digest, same_act
from companion.table.acts import Act


def test_one_act_has_one_digest_and_another_act_another() -> None:
    act = Act.from_dict({"tracker": "Ash", "move": "add_fatigue", "args": {"count": 2},
                         "client": "ash-phone", "seq": 3})
    spelled = Act.from_json('{"seq": 9, "args": {"count": 2}, "move": "add_fatigue", '
                            '"client": "tablet", "tracker": "Ash"}')
    digest = act_digest(act.to_dict())
    assert act_digest(spelled.to_dict()) == digest  # its number and device are not in it
    assert len(digest) == 32 and int(digest, 16) >= 0
    others = [Act("Ash", "add_fatigue", {"count": 3}), Act("Ash", "add_fatigue", {}),
              Act("Bryn", "add_fatigue", {"count": 2}), Act("Ash", "undo"),
              Act("", "roll", {"expr": "1d6"})]
    assert len({act_digest(o.to_dict()) for o in others} | {digest}) == len(others) + 1


def test_a_stamp_names_its_act_and_an_older_stamp_is_taken_as_it_was() -> None:
    guard = ActGuard("ash-phone", 3, 0, act_digest(Act("Ash", "add_fatigue").to_dict()))
    stamp = guard.stamp()
    assert stamp == {"client": "ash-phone", "seq": 3, "digest": guard.digest}
    assert guard.numbers(stamp) and same_act(stamp, guard.digest)
    assert not same_act({**stamp, "digest": "0" * 32}, guard.digest)
    older = {"client": "ash-phone", "seq": 3}  # stored before stamps held a digest
    assert guard.numbers(older) and same_act(older, guard.digest)
    assert not guard.numbers({"client": "ash-phone", "seq": 4})
    assert not guard.numbers({"client": "tablet", "seq": 3})
    assert not guard.numbers({"client": "ash-phone", "seq": True})
    assert not guard.numbers(None)
