"""Fair play: roll modes, hidden rolls anyone can check once revealed, and your own dice.

Every roll of a campaign's roll log has a **mode**, as on the virtual tabletops players
know:

- ``public``: everyone sees it.
- ``gm`` (GM only): only the GM sees it.
- ``blind``: the GM sees it, the player who rolled does not.
- ``self``: the player who rolled sees it, and the GM.

A hidden roll (``gm``, ``blind``, ``self``) publishes at once in the log a **commitment**:
the SHA-256 of the roll and a random nonce. When it is revealed, the log gets the roll and
the nonce; anyone can hash them again and compare with the commitment published before
(``python -m companion verify`` does it for a whole exported log, and also rolls the
expression again with the seed to check the dice).

The commitment, exactly (to check one by hand): the SHA-256, written as 64 lowercase hex
digits, of the UTF-8 bytes of this one line of JSON, with no spaces, keys in this order
(alphabetical), every non-ASCII character written as a ``\\uXXXX`` escape (Python's
``json.dumps(obj, sort_keys=True, separators=(",", ":"))``):

    {"dice":[3,5],"expr":"2d6+1","nonce":"<64 hex digits>","seed":812,"total":9,"v":1}

- ``dice``: the value of every die the roll recorded, in order, rerolled and dropped ones
  included (``[d.value for d in roll.dice]``: a ``min``/``max`` clamp shows in it); for a
  roll made with real dice, the faces as entered (``[]`` when only the total was entered).
- ``expr``: the expression as written; ``seed``: the seed it was rolled with (``null`` for
  real dice); ``total``: the result; ``nonce``: 32 random bytes as 64 lowercase hex
  digits (so nobody can find the roll by trying every seed); ``v``: this encoding's version, 1.

For example, in a shell: ``printf '%s' '{"dice":[3,5],...,"v":1}' | sha256sum``.

**Where the seeds come from** ([companion.sittings][]): in a campaign every seed is derived
from a server seed committed when the evening's *sitting* opens and the seats' published
client seeds, by the roll's number in the sitting. A commitment proves a roll was not
changed after it was made; a closed sitting proves its seed was not picked.
[verify][companion.fairplay.verify] checks both.

>>> commitment_text("2d6", 7, [3, 5], 8, "00" * 32)[:39]
'{"dice":[3,5],"expr":"2d6","nonce":"000'
>>> commitment("2d6", 7, [3, 5], 8, "00" * 32)
'2f800d598fe3d4a986021438b3c6af20ed22491db15a1e5eb6ca06be00d2bb11'

Who sees what ([visible_to][companion.fairplay.visible_to]): the GM sees every roll; a
player sees public rolls, their own ``self`` rolls and every revealed roll; a ``gm`` or
``blind`` roll, or another player's ``self`` roll, reaches a player only as its commitment.

- Interpretation: the expression of a hidden roll is part of its secret (a GM's ``1d20+7``
  would tell the monster's bonus); the log shows only who rolled, the mode and the
  commitment until the reveal.
- Interpretation: a player is known by the name they act under (``who``); a ``self`` roll
  made under no name is seen by the GM only. Anyone who is not the GM (role ``player`` or
  no role) is treated as a player.
- Interpretation: the GM reveals any hidden roll; a player may also reveal their own
  ``self`` roll; a ``blind`` roll is revealed by the GM only. A roll is revealed once.
- Interpretation: a roll made with real dice ([companion.dice.physical][]) takes any mode
  too (a GM rolling behind the screen commits to the dice they entered); the log marks it
  ``physical``, its seed is ``null``, and checking it means checking that the expression
  can give those dice and that total.

Event data in the campaign's log (kind ``roll``; the event's ``who``/``role`` say who
rolled):

- public: ``{"mode": "public", "expr", "total", "text", "dice"}`` (the seed is the event's
  seed), plus ``"physical": true`` for real dice (seed ``null``);
- hidden: ``{"mode", "commitment", "secret": {"expr", "seed", "dice", "total", "nonce",
  "text", "physical"}}``, and the event's seed is ``null``. The secret is in the GM's
  database; [visible_to][companion.fairplay.visible_to] leaves it out for whoever may not
  see it.
- a reveal (kind ``reveal``): ``{"entry": <the roll's seq>, "mode", "expr", "seed",
  "dice", "total", "nonce", "text", "physical"}``; its seed is the roll's seed.

**Rule rolls.** Every roll an app makes for a rule (a check, a save, a deal: any move that
rolls with an ``rng``) takes a mode too. Its commitment is the SHA-256, as above, of:

    {"faces":[14],"label":"Ann: check","nonce":"<64 hex>","result":"16: success","seed":null,"v":1}

- ``label``: what was rolled, as the app names it; ``result``: the result's text as the
  app shows it; ``seed``: the seed the rule rolled with (``null`` for real dice);
  ``faces``: the faces entered by hand, in order (``[]`` for a seeded roll); ``nonce`` and
  ``v`` as above ([rule_commitment][companion.fairplay.rule_commitment]).
- Event data (kind ``roll``): public ``{"mode": "public", "rule": true, "label", "text",
  "faces", "physical"}``; hidden ``{"mode", "rule": true, "commitment", "secret": {"label",
  "seed", "faces", "text", "nonce", "physical"}}`` (plus ``"moves"``, below); a reveal
  carries the secret's keys and ``"rule": true``.
- Interpretation: the label of a hidden rule roll is part of its secret, like the
  expression of a hidden dice roll (a GM's "goblin: stealth" would say what is coming).
- Interpretation: verifying a rule roll checks the revealed label, seed, faces and result
  against the commitment. On a campaign's export (given a ``replay``) its tracker moves are
  made again with its seed on the state the log's facts give just before them, and must
  give the facts and summaries the log stored ([companion.store.recompute][]); a rule roll
  that moved no tracker, or a log view (no facts), has only its seed checked, and
  ``verify`` says which.
- A rule roll on a random table ([Session.roll_table][companion.table.session.Session.roll_table])
  records the table's id (``"table"``, in the secret of a hidden one; not in the
  commitment: a changed id only makes the check fail) and logs
  [table_text][companion.fairplay.table_text] of the result: ``verify`` rolls that table
  again with the entry's seed and compares the result, so such a roll is recomputed whole,
  like a dice roll.
- A rule roll that moves no tracker (a hidden check, a contest) rolled through a declared
  rule ([companion.rule_rolls][]) records it (``"call"``: its name, JSON arguments, result
  fields and lead; in the secret of a hidden one, outside the commitment like a table's
  id): ``verify`` calls the same rule with the entry's seed and compares every result
  field and the text. An entry without it (an older log) keeps the seed check, said in the
  answer.

**A hidden roll that moves a shared tracker** (policy). When a rule roll in a hidden mode is
also a move of a tracker the table shares (a GM-only save that marks damage), the move's
event in the log would give the roll away by its seed and its summary. So such a move is
stored with **no seed**, no ``seed`` argument, the summary "a hidden roll (entry N in the
roll log)" and the tracker's state after the move (``after``: replay loads it instead of
rolling again); the roll-log entry lists the move's event numbers (``"moves"``). The seed
and the real summary are in the roll's secret and come out with its reveal. A move made
with real dice is stored the same way (with its faces, not a seed). The consequences on the
shared sheet (the damage marked, a point spent) are visible to everyone by nature: the
roll itself is not. An app that must keep even the consequences secret (a blind check whose
success nobody may know yet) makes the roll without moving the shared tracker and applies
the consequence after the reveal.

A tracker may keep the dice of its last roll in its state (a Monsters & Magic sheet keeps
its last check, natural die and total, for Bend Luck): its class names such fields in
``ROLL_STATE``. A move made under a hidden roll marks the ones it changed with the roll's
mode ([mark_hidden_rolls][companion.fairplay.mark_hidden_rolls]); the GM's tracker keeps
them, and every player's view of the state leaves them out
([player_state][companion.fairplay.player_state]): the log as a player sees it
([visible_to][companion.fairplay.visible_to]), ``campaign show NAME --json`` without
``--gm``, and a player's Save link ([player_json][companion.fairplay.player_json]). The
roll itself reaches players with its reveal, in the roll log; the field stays out of
their view of the state until a later roll replaces it.

**A rule roll is atomic.** The moves a rule roll makes on a campaign's trackers
([Campaign.rolling][companion.store.campaign.Campaign.rolling]) are stored together with
its roll entry, in one transaction, once the roll is whole. A roll refused on the way (an
illegal move, an impossible face, real dice left over) stores nothing, not even an undo,
and the trackers it moved are put back from their saved form before the roll.

Games with hidden information (Dice Monarchs' hole dice and table seed, a Cairn duel's
pending pick) keep their secrets out of a player's view of the log too
([visible_to][companion.fairplay.visible_to]): their states appear in their public form,
their moves without seeds or secret arguments. The GM's view and the campaign's export
(the GM's backup) keep everything; ``campaign show NAME --json`` gives the public form
unless ``--gm`` is asked.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.dice.roller import draw_seed
from companion.errors import CompanionError, clipped
from companion.names import same_name
from companion.sittings import FairCheck, SittingError

__all__ = [
    "HIDDEN_MODES",
    "MODES",
    "FairPlayError",
    "LogVerifier",
    "LoggedRoll",
    "PreparedRoll",
    "Replayer",
    "can_see",
    "commitment",
    "commitment_text",
    "hidden_information",
    "hide_move",
    "mark_hidden_rolls",
    "mode_name",
    "new_nonce",
    "parse_log",
    "player_json",
    "player_save",
    "player_state",
    "prepare_roll",
    "prepare_rule_roll",
    "public_form",
    "reveal_data",
    "reveals",
    "roll_state_fields",
    "roll_text",
    "rule_commitment",
    "rule_commitment_text",
    "summary",
    "table_text",
    "verify",
    "verify_entry",
    "visible_to",
]

#: Every roll mode.
MODES = ("public", "gm", "blind", "self")

#: The modes whose roll is published as a commitment.
HIDDEN_MODES = ("gm", "blind", "self")

#: Version of the commitment's encoding (its ``"v"``).
COMMITMENT_VERSION = 1

#: Random bytes in a nonce.
NONCE_BYTES = 32

#: Most roll entries (rolls and reveals) one [verify][companion.fairplay.verify] reads.
MAX_VERIFY_ENTRIES = 50_000

#: Most dice [verify][companion.fairplay.verify] rolls again over a whole log (about two
#: seconds); past it, one error line (a single roll may take it past by at most the
#: engine's own cap on one roll).
MAX_VERIFY_DICE = 2_000_000

#: Most different expressions whose exact odds [verify][companion.fairplay.verify] works
#: out to check totals entered by hand.
MAX_VERIFY_ODDS = 200

#: Most outcomes, summed over those expressions' exact odds, one verify works out: the
#: cost is the odds' size, not their count (60 rolls of ``1d1000000+i`` are 60 million
#: outcomes, gigabytes, where 200 of ``3d6`` are 3,200).
MAX_VERIFY_OUTCOMES = 3_000_000

#: Odds kept for the rest of a verify once worked out (larger ones are worked out, spent
#: and dropped: memory stays bounded by one expression's odds).
_ODDS_KEPT = 10_000

_HEX64 = re.compile(r"[0-9a-f]{64}")

_MODE_NAMES = {"public": "public", "gm": "GM only", "blind": "blind", "self": "self"}


class FairPlayError(CompanionError):
    """A roll mode, reveal or check that cannot be done, or a log that does not verify."""


def mode_name(mode: str) -> str:
    """What players call a mode: ``"GM only"`` for ``gm``."""
    return _MODE_NAMES.get(mode, mode)


def check_mode(mode: object) -> str:
    if mode not in MODES:
        raise FairPlayError(f"a roll's mode is public, gm, blind or self, not {mode!r}")
    return str(mode)


def commitment_text(expr: str, seed: int | None, dice: Sequence[int], total: int,
                    nonce: str) -> str:
    """The exact text a commitment hashes (see the module's docstring)."""
    obj = {"dice": list(dice), "expr": expr, "nonce": nonce, "seed": seed, "total": total,
           "v": COMMITMENT_VERSION}
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment(expr: str, seed: int | None, dice: Sequence[int], total: int,
               nonce: str) -> str:
    """SHA-256 of [commitment_text][companion.fairplay.commitment_text], in lowercase hex.

    >>> commitment("2d6", 7, [3, 5], 8, "00" * 32)[:16]
    '2f800d598fe3d4a9'
    """
    text = commitment_text(expr, seed, dice, total, nonce)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def new_nonce() -> str:
    """A fresh random nonce: 32 bytes from the system's secure source, as hex."""
    return secrets.token_hex(NONCE_BYTES)


def roll_text(roll: Any) -> str:
    """A roll's one line, ending in ``— own dice`` when it was entered by hand."""
    from companion.dice.physical import OWN_DICE

    text = str(roll)
    if OWN_DICE in roll.notes and OWN_DICE not in text:
        text += f" — {OWN_DICE}"
    return text


@dataclass(frozen=True)
class PreparedRoll:
    """A roll ready for the log: the engine's ``Roll``, its mode, the event's seed column
    (``None`` for a hidden roll or real dice) and the event's data."""

    roll: Any
    mode: str
    seed: int | None
    data: dict[str, Any]

    @property
    def commitment(self) -> str | None:
        value = self.data.get("commitment")
        return value if isinstance(value, str) else None


def prepare_roll(expr: str, *, mode: str = "public", seed: int | None = None,
                 dice: Sequence[int] | None = None, total: int | None = None,
                 rng: random.Random | None = None, nonce: str | None = None) -> PreparedRoll:
    """Roll ``expr`` (or take real dice: ``dice`` and/or ``total``, see
    [enter][companion.dice.physical.enter]) and build its log entry for ``mode``.

    Without a seed one is drawn (from ``rng`` if given, else the system's secure source).
    """
    from companion import dice as engine
    from companion.dice.physical import enter

    mode = check_mode(mode)
    physical = dice is not None or total is not None
    if physical:
        if seed is not None:
            raise FairPlayError("a roll made with real dice has no seed")
        result = enter(expr, total=total, dice=dice)
        faces = list(dice) if dice is not None else []
    else:
        if seed is None:
            seed = draw_seed(rng)
        result = engine.roll(expr, seed=seed)
        faces = [d.value for d in result.dice]
    text = roll_text(result)
    if mode == "public":
        data: dict[str, Any] = {"mode": mode, "expr": result.expr, "total": result.total,
                                "text": text, "dice": faces}
        if physical:
            data["physical"] = True
        return PreparedRoll(result, mode, seed, data)
    nonce = new_nonce() if nonce is None else nonce
    digest = commitment(result.expr, seed, faces, result.total, nonce)
    secret = {"expr": result.expr, "seed": seed, "dice": faces, "total": result.total,
              "nonce": nonce, "text": text, "physical": physical}
    return PreparedRoll(result, mode, None,
                        {"mode": mode, "commitment": digest, "secret": secret})


def rule_commitment_text(label: str, seed: int | None, text: str, nonce: str,
                         faces: Sequence[int] = ()) -> str:
    """The exact text a rule roll's commitment hashes (see the module's docstring)."""
    obj = {"faces": list(faces), "label": label, "nonce": nonce, "result": text,
           "seed": seed, "v": COMMITMENT_VERSION}
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def rule_commitment(label: str, seed: int | None, text: str, nonce: str,
                    faces: Sequence[int] = ()) -> str:
    """SHA-256 of [rule_commitment_text][companion.fairplay.rule_commitment_text], in hex.

    >>> rule_commitment("Ann: check", 7, "16: success", "00" * 32)[:16]
    '87c71810594169d3'
    """
    text = rule_commitment_text(label, seed, text, nonce, faces)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: Longest label and result text of a rule roll.
MAX_RULE_TEXT = 2000


def prepare_rule_roll(label: str, seed: int | None, text: str, *, mode: str = "public",
                      faces: Sequence[int] | None = None, nonce: str | None = None,
                      moves: Sequence[int] = (), table: str | None = None,
                      call: dict[str, Any] | None = None) -> PreparedRoll:
    """The log entry of a rule roll (a move that rolled with ``seed``, or with real dice
    ``faces``), whose result reads ``text``, in ``mode``. ``moves``: the tracker moves the
    roll made (event numbers), listed in a hidden roll's entry. ``table``: the id of the
    random table it rolled (its ``text`` is then
    [table_text][companion.fairplay.table_text] of the result), so that
    [verify][companion.fairplay.verify] rolls it again whole; kept in a hidden roll's
    secret, like its label. ``call``: the declared rule it rolled (a
    [RuleCall][companion.rule_rolls.RuleCall]'s record), made again the same way."""
    mode = check_mode(mode)
    if table is not None and not isinstance(table, str):
        raise FairPlayError(f"a rule roll's table is a table's id, not {table!r}")
    if call is not None and not isinstance(call, dict):
        raise FairPlayError(f"a rule roll's rule record is an object, not {call!r}")
    for name, value in (("label", label), ("result", text)):
        if not isinstance(value, str):
            raise FairPlayError(f"a rule roll's {name} is text, not {type(value).__name__}")
        if len(value) > MAX_RULE_TEXT:
            raise FairPlayError(f"a rule roll's {name} is over {MAX_RULE_TEXT:,} characters")
    physical = faces is not None
    if physical and seed is not None:
        raise FairPlayError("a roll made with real dice has no seed")
    if seed is not None and type(seed) is not int:
        raise FairPlayError(f"a seed is a whole number, not {seed!r}")
    shown = [int(v) for v in faces] if faces is not None else []
    if mode == "public":
        data: dict[str, Any] = {"mode": mode, "rule": True, "label": label, "text": text,
                                "faces": shown}
        if physical:
            data["physical"] = True
        if moves:
            data["moves"] = list(moves)
        if table is not None:
            data["table"] = table
        if call is not None:
            data["call"] = call
        return PreparedRoll(text, mode, seed, data)
    nonce = new_nonce() if nonce is None else nonce
    digest = rule_commitment(label, seed, text, nonce, shown)
    secret: dict[str, Any] = {"label": label, "seed": seed, "faces": shown, "text": text,
                              "nonce": nonce, "physical": physical}
    if table is not None:
        secret["table"] = table
    if call is not None:
        secret["call"] = call
    data = {"mode": mode, "rule": True, "commitment": digest, "secret": secret}
    if moves:
        data["moves"] = list(moves)
    return PreparedRoll(text, mode, None, data)


@dataclass(frozen=True)
class LoggedRoll:
    """A roll as logged: its entry (the event's ``seq``), mode, commitment (hidden rolls),
    who rolled, and the roll itself.

    An app shows ``roll`` only when [shown_to][companion.fairplay.LoggedRoll.shown_to] says
    so: a blind roll is returned to the roller's own screen too, which must not show it.
    """

    entry: int
    mode: str
    commitment: str | None
    who: str
    role: str
    roll: Any

    def shown_to(self, who: str, role: str) -> bool:
        """Whether ``who`` (``role``) may see this roll's dice now."""
        return can_see_roll(self.mode, self.who, who, role)


def can_see_roll(mode: str, roller: str, who: str, role: str) -> bool:
    """Whether ``who`` (``role``) may see the dice of a ``mode`` roll made by ``roller``."""
    if mode == "public" or role == "gm":
        return True
    return mode == "self" and same_name(who, roller)  # the one rule for names


def reveals(events: Iterable[Mapping[str, Any]], into: dict[int, int] | None = None
            ) -> dict[int, int]:
    """The entry of the first reveal of each hidden roll (roll entry -> reveal entry), of
    ``events`` (added to ``into`` when given: a log read a page at a time)."""
    revealed = {} if into is None else into
    for event in events:
        if event.get("kind") == "reveal":
            entry = (event.get("data") or {}).get("entry")
            if type(entry) is int:
                revealed.setdefault(entry, int(event["seq"]))
    return revealed


def can_see(event: dict[str, Any], who: str, role: str) -> bool:
    """Whether ``who`` (``role``) may see everything in the log event ``event`` (a
    ``StoredEvent.to_dict()``): only a hidden roll's secret is ever withheld."""
    data = event.get("data") or {}
    if event.get("kind") != "roll" or "secret" not in data:
        return True
    return can_see_roll(str(data.get("mode")), str(event.get("who", "")), who, role)


def visible_to(events: Iterable[dict[str, Any]], who: str, role: str,
               tracker_class: Callable[[str], type[Any]] | None = None, *,
               revealed: Mapping[int, int] | None = None,
               kinds: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The log events as ``who`` (``role``: ``"gm"`` or ``"player"``) may see them.

    Every event is kept (so entry numbers stay), but a hidden roll's ``secret`` (its
    expression, seed, dice, nonce) is left out unless ``who`` may see it; a hidden roll
    that was revealed gets ``"revealed": <seq of the reveal>``. The input is not changed.

    For anyone but the GM, the events of a tracker with hidden information
    ([hidden_information][companion.fairplay.hidden_information]) lose their secrets too:
    the state of an ``add``/``set`` event (and a move's saved result) is replaced by its
    public form ([public_form][companion.fairplay.public_form], an ``add`` keeping its
    state part at the form's schema version, as the log keeps it: other players' hole dice
    and the table seed only as commitments, no unrevealed duel choice), a move's ``seed``
    (event and argument) is left out, and so are the arguments its class names in
    ``SECRET_ARGS`` (the duel's ``tactic``: the move that reveals the picks says them in
    its summary). A tracker whose kind the events do not say is treated the same way, its
    arguments all left out. Pass the whole log: the ``add`` events say each tracker's kind.

    ``tracker_class`` finds the class of a kind key (the store passes
    [tracker_class][companion.store.registry.tracker_class]; the core never imports the
    store). Without it, or for a key it does not know, every tracker is treated as one
    with hidden information: nothing secret can leak by omission.

    A log read a page at a time (``log --json``, ``luck``: issue 49) passes each page in
    turn with ``revealed`` (every reveal of the whole log:
    [reveals][companion.fairplay.reveals]) and one ``kinds`` dict kept across the pages
    (the trackers' kinds, filled from the ``add`` events as they come): the pages' views
    are then the whole log's view, page by page.
    """
    events = list(events)
    if revealed is None:
        revealed = reveals(events)
    kinds = {} if kinds is None else kinds
    out = []
    for event in events:
        if event.get("kind") == "add" and event.get("tracker"):
            kinds[str(event["tracker"])] = str((event.get("data") or {}).get("kind", ""))
        news = (event.get("data") or {}).get("sitting")
        if isinstance(news, dict) and "secret" in news:
            # A sitting's server seed is nobody's to read before its close, the GM's
            # neither (whoever holds the database can: see companion.sittings).
            news = {k: v for k, v in news.items() if k != "secret"}
            event = {**event, "data": {**event["data"], "sitting": news}}
        if event.get("kind") == "roll" and "commitment" in (event.get("data") or {}):
            data = dict(event["data"])
            if not can_see(event, who, role):
                del data["secret"]
            if event.get("seq") in revealed:
                data["revealed"] = revealed[event["seq"]]
            event = {**event, "data": data}
        elif role != "gm" and event.get("kind") in ("add", "set", "move", "undo"):
            event = _public_tracker_event(event, kinds.get(str(event.get("tracker"))), who,
                                          tracker_class)
        out.append(event)
    return out


# -- trackers with hidden information ----------------------------------------------------


def hidden_information(cls: type[Any]) -> bool:
    """Whether a tracker class holds hidden information: it offers a ``public_save`` (the
    save a player may keep: Dice Monarchs' table, the Cairn duel)."""
    return callable(getattr(cls, "public_save", None))


def public_form(tracker: Any, who: str = "") -> dict[str, Any]:
    """The ``public_save`` of a tracker with hidden information, as ``who`` may keep it
    (their own hole dice when ``public_save`` takes a seated player's name)."""
    import inspect

    save = tracker.public_save
    if who and len(inspect.signature(save).parameters) >= 1:
        try:
            return dict(save(who))
        except CompanionError:
            pass  # not seated at this table: the table screen's view
    return dict(save())


# -- a hidden roll's dice kept in a tracker's state ---------------------------------------


def roll_state_fields(cls: type[Any] | None) -> tuple[str, ...]:
    """The fields of a tracker class's state that keep the dice of its last roll (its
    ``ROLL_STATE``, e.g. a Monsters & Magic sheet's ``last_check``, which Bend Luck reads)."""
    fields = getattr(cls, "ROLL_STATE", ()) if cls is not None else ()
    return tuple(str(f) for f in fields)


def mark_hidden_rolls(cls: type[Any], state: dict[str, Any], before: dict[str, Any],
                      mode: str) -> None:
    """Mark, in ``state`` (a tracker's snapshot after a move of a hidden roll), each roll
    field ([roll_state_fields][companion.fairplay.roll_state_fields]) the move changed
    from ``before``: it gets ``"hidden": mode``, and a player's view leaves it out."""
    for name in roll_state_fields(cls):
        value = state.get(name)
        if isinstance(value, dict) and value != before.get(name):
            value["hidden"] = mode


def hide_move(tracker: Any, before: dict[str, Any], mode: str) -> None:
    """Make the newest move of ``tracker`` (its state ``before`` it) a hidden roll's, as
    the shared log keeps it (the policy above): no seed in its arguments, a summary that
    points to the roll log, and its roll fields marked
    ([mark_hidden_rolls][companion.fairplay.mark_hidden_rolls]). The campaign stores a
    hidden roll's move this way, and ``verify`` makes the same move again this way."""
    cls = type(tracker)
    save = tracker.to_dict()
    save["log"][-1]["args"] = {k: v for k, v in save["log"][-1]["args"].items()
                               if k != "seed"}
    save["log"][-1]["summary"] = f"a hidden roll ({mode_name(mode)}): see the roll log"
    if roll_state_fields(cls):
        mark_hidden_rolls(cls, save["state"], before, mode)
    tracker.restore_save(save)


def player_state(cls: type[Any] | None, state: Any) -> Any:
    """A tracker's snapshot as a player may receive it: each roll field marked by a hidden
    roll ([mark_hidden_rolls][companion.fairplay.mark_hidden_rolls]) is empty (``None``).
    The state is not changed; one with nothing marked is returned as it is."""
    if not isinstance(state, dict):
        return state
    hidden = [n for n in roll_state_fields(cls)
              if isinstance(state.get(n), dict) and state[n].get("hidden")]
    if not hidden:
        return state
    return {**state, **dict.fromkeys(hidden)}


def player_save(tracker: Any, who: str = "") -> dict[str, Any]:
    """A tracker's saved form (``to_dict``) as a player may receive or export it: the
    public form of a game with hidden information
    ([public_form][companion.fairplay.public_form]), else its save with no hidden roll's
    dice ([player_state][companion.fairplay.player_state])."""
    if hidden_information(type(tracker)):
        return public_form(tracker, who)
    save = dict(tracker.to_dict())
    save["state"] = player_state(type(tracker), save["state"])
    return save


def player_json(tracker: Any, who: str = "") -> str:
    """[player_save][companion.fairplay.player_save] as JSON text (exactly the tracker's own
    ``to_json`` when nothing in it is kept from players)."""
    return json.dumps(player_save(tracker, who), ensure_ascii=False, sort_keys=True)


def _tracker_of(key: str | None,
                lookup: Callable[[str], type[Any]] | None) -> type[Any] | None:
    if not key or lookup is None:
        return None
    try:
        return lookup(key)
    except CompanionError:
        return None


def _public_state(cls: type[Any] | None, saved: Any, who: str, *, whole: bool,
                  schema: Any = 1) -> Any:
    """The public form of a saved state (``whole``: a ``to_dict`` save, else a snapshot
    of the schema version ``schema``); ``None`` if it cannot be read (nothing of it is
    shown then). History: restored as stored, not judged by today's invariants."""
    if cls is None:
        return None
    try:
        tracker = (cls.from_dict(saved, checked=False) if whole
                   else cls.from_state(saved, schema=schema, checked=False))
        return public_form(tracker, who)
    except (CompanionError, KeyError, TypeError, ValueError):
        return None


def _public_added_state(cls: type[Any] | None, data: dict[str, Any], who: str) -> None:
    """Put in ``data`` (an ``add`` event's, a copy) the public form of the state it adds,
    in the shape an ``add`` keeps it: a bare state (a snapshot) at the schema version the
    event names. The public form is a whole save (``to_dict``: a Cairn duel's), so the
    event takes its ``state`` and its ``schema`` (the version the form was written at,
    today's: an older state is upgraded on the way). A replay of the view (a phone's
    mirror) builds the tracker from it as from the log's own ``add``.

    Interpretation: a public form of another kind (Dice Monarchs' ``public_save`` is a
    ``DiceMonarchsPublicView``, its other players' hole dice as commitments) has no state
    of the tracker's kind: it is kept whole, naming its own kind (``tracker``), so that no
    reader takes it for a state of the game; a replay cannot make the game from it."""
    public = _public_state(cls, data["state"], who, whole=False,
                           schema=data.get("schema", 1))
    data["state"] = public
    if cls is None or not isinstance(public, dict) \
            or public.get("tracker") != cls.saved_kind() or "state" not in public:
        return
    data["state"] = public["state"]
    schema = public.get("schema", 1)
    if schema != 1:
        data["schema"] = schema
    else:  # as the store writes an add of schema 1: no field
        data.pop("schema", None)


def _public_tracker_event(event: dict[str, Any], key: str | None, who: str,
                          lookup: Callable[[str], type[Any]] | None = None,
                          ) -> dict[str, Any]:
    """A player's view of an ``add``, ``set`` or ``move`` event of a tracker: unchanged
    unless the tracker holds hidden information (or its kind is unknown, then treated as
    if it did); then its state is the public form, its seeds and secret arguments are out."""
    data = dict(event.get("data") or {})
    kind = event.get("kind")
    if kind == "add":
        key = str(data.get("kind", "")) or key
    cls = _tracker_of(key, lookup)
    if cls is not None and not hidden_information(cls):
        secret = set(getattr(cls, "SECRET_ARGS", {}).get(str(event.get("move")), ()))
        if kind == "move" and secret and isinstance(data.get("args"), dict):
            # An argument only the GM knows (a hidden DC given to a player's sheet).
            data["args"] = {k: v for k, v in data["args"].items() if k not in secret}
            event = {**event, "data": data}
        if not roll_state_fields(cls):
            return event
        # The dice of a hidden roll the tracker keeps (a sheet's last check): left out.
        if kind == "add" and "state" in data:
            data["state"] = player_state(cls, data["state"])
        for name in ("save", "after"):
            saved = data.get(name)
            if kind in ("set", "move") and isinstance(saved, dict):
                data[name] = {**saved, "state": player_state(cls, saved.get("state"))}
        if kind in ("move", "undo") and "change" in data:
            # A change step that touches a roll field could carry a hidden roll's dice.
            hidden = set(roll_state_fields(cls))
            data["change"] = [step for step in data["change"]
                              if not (isinstance(step, list) and step and isinstance(step[0], list)
                                      and step[0][:1] and step[0][0] in hidden)]
        return {**event, "data": data}
    if kind == "add" and "state" in data:
        _public_added_state(cls, data, who)
    if kind == "set" and "save" in data:
        data["save"] = _public_state(cls, data["save"], who, whole=True)
    if kind in ("move", "undo"):
        # What a move of a game with hidden information changed holds its secrets (a
        # hole die dealt): a player's view of the log keeps only that it happened.
        data.pop("change", None)
    if kind == "move":
        if "after" in data:
            data["after"] = _public_state(cls, data["after"], who, whole=True)
        data.pop("faces", None)  # real dice entered for the move: its hidden dice perhaps
        secret = set(getattr(cls, "SECRET_ARGS", {}).get(str(event.get("move")), ()))
        if isinstance(data.get("args"), dict):
            data["args"] = {k: v for k, v in data["args"].items()
                            if k != "seed" and k not in secret and cls is not None}
    return {**event, "data": data, "seed": None}


def reveal_data(event: dict[str, Any], events: Iterable[dict[str, Any]], who: str,
                role: str) -> tuple[int | None, dict[str, Any]]:
    """The seed and data of the ``reveal`` event for the roll ``event``, after checking
    that it is a hidden roll, not yet revealed (``events``: the log's reveals), and that
    ``who`` (``role``) may reveal it."""
    seq = event.get("seq")
    data = event.get("data") or {}
    if event.get("kind") != "roll":
        raise FairPlayError(f"entry {seq} is not a roll")
    if "commitment" not in data:
        raise FairPlayError(f"entry {seq} is a public roll: there is nothing to reveal")
    for other in events:
        if other.get("kind") == "reveal" and (other.get("data") or {}).get("entry") == seq:
            raise FairPlayError(f"entry {seq} is already revealed (entry {other.get('seq')})")
    mode = str(data.get("mode"))
    roller = str(event.get("who", ""))
    if role != "gm" and not (mode == "self" and same_name(who, roller)):
        raise FairPlayError(f"only the GM can reveal entry {seq} (a {mode_name(mode)} roll"
                            f"{' by ' + roller if roller else ''})")
    secret = data.get("secret")
    if not isinstance(secret, dict):
        raise FairPlayError(f"entry {seq} has lost its secret: it cannot be revealed")
    keys = _RULE_SECRET_KEYS if data.get("rule") is True else _SECRET_KEYS
    out = {"entry": seq, "mode": mode, **{k: secret.get(k) for k in keys}}
    if data.get("rule") is True:
        out["rule"] = True
        for key in ("table", "call"):  # which table or rule it rolled: made again whole
            if key in secret:
                out[key] = secret[key]
    seed = secret.get("seed")
    return (seed if type(seed) is int else None), out


_SECRET_KEYS = ("expr", "seed", "dice", "total", "nonce", "text", "physical")
_RULE_SECRET_KEYS = ("label", "seed", "faces", "text", "nonce", "physical")


def rule_line(label: Any, text: Any) -> str:
    """``label: text``, said once: a result that begins with the label's own subject
    ("Ghoul → Ash: attack" and "Ghoul → Ash: d6 = 2") does not repeat it."""
    label, text = str(label), str(text)
    subject = label.rpartition(": ")[0]
    if subject and text.startswith(subject + ": "):
        text = text[len(subject) + 2:]
    return f"{label}: {text}"


def table_text(result: Any) -> str:
    """The result line a table roll logs (a
    [TableResult][companion.tables.model.TableResult]): ``1d6 → 1: Tiny``, the die, what
    it showed and the row's text; [verify][companion.fairplay.verify] rolls the table
    again with the entry's seed and compares this line.

    >>> from companion import tables
    >>> table_text(tables.get("earthmote_size").roll(seed=1))
    '1d6 → 1: Tiny (≤ 1,759 sq. ft.)'
    """
    roll = result.roll
    shown = ", ".join(map(str, roll)) if isinstance(roll, tuple) else str(roll)
    noted = "".join(f" ({face}: rolled again)" for face, _row in result.noted)
    return f"{result.table.die}{noted} → {shown}: {result.text}"


def summary(kind: str, data: dict[str, Any]) -> str:
    """The log's one-line summary of a ``roll`` or ``reveal`` event (as it is seen)."""
    mode = str(data.get("mode", "public"))
    rule = data.get("rule") is True
    own = " (own dice)" if rule and data.get("physical") is True else ""
    if kind == "reveal":
        what = (f"{rule_line(data.get('label', ''), data.get('text', ''))}{own}" if rule
                else f"rolled {data.get('text', '')}")
        return f"revealed entry {data.get('entry')} ({mode_name(mode)}): {what}"
    if "commitment" not in data:
        if rule:
            return f"{rule_line(data.get('label', ''), data.get('text', ''))}{own}"
        return f"rolled {data.get('text', '')}"
    what = {"gm": "rolled in secret (GM only)", "blind": "rolled blind (the GM sees it)",
            "self": "rolled for themselves"}.get(mode, f"rolled ({mode})")
    secret = data.get("secret")
    shown = f": {secret.get('text', '')}" if isinstance(secret, dict) else ""
    if rule and isinstance(secret, dict):
        mine = " (own dice)" if secret.get("physical") is True else ""
        shown = f": {rule_line(secret.get('label', ''), secret.get('text', ''))}{mine}"
    after = f"; revealed in entry {data['revealed']}" if "revealed" in data else ""
    return f"{what}{shown} — commitment {str(data.get('commitment'))[:12]}…{after}"


# -- checking an exported log ------------------------------------------------------------


def verify(doc: Any, *, max_entries: int | None = None, max_dice: int | None = None,
           sittings: bool = True, notes: list[str] | None = None,
           replay: Replayer | None = None) -> int:
    """Check an exported log: every revealed roll against its commitment and its seed, every
    secret present (the GM's export) likewise, every public roll against its seed (or, made
    with real dice, against the expression). Returns how many rolls were checked; the first
    that does not hold raises [FairPlayError][companion.fairplay.FairPlayError] naming its
    entry.

    ``doc`` is the JSON of ``log NAME --json`` (any view: the GM's or a player's) or of
    ``campaign export``. Besides the dice, the log must hang together: each revealed roll
    revealed once, by a reveal still in the log (a roll that says it was revealed names
    it); a public roll's shown text is what its dice give; no roll passed off as another
    kind of event. ``max_entries`` and ``max_dice`` raise the bounds for a whole campaign
    (an import checks every roll of it).

    The log's sittings ([companion.sittings][]) are checked too: each closed sitting's
    server seed against the hash it published, and every roll's seed recomputed from the
    published seeds (``sittings=False``: a few rows taken out of a log, as an app's "check
    it" button passes). ``notes`` gets the lines the answer adds: a sitting never closed,
    rolls before provably fair seeds, seeds the GM chose, the players' own dice.

    ``replay``: a [Replayer][companion.fairplay.Replayer] that recomputes every rule roll
    of a campaign's export whole: its moves made again with its seed on the trackers as
    the log's facts leave them just before it, and compared with what the log stored
    (``verify`` on the command line passes [companion.store.recompute][]'s; the core
    carries no replay of its own, an import asks for none).
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("events"), list):
        raise FairPlayError("not an exported log (expected the JSON of 'log NAME --json')")
    rows = sum(1 for r in doc["events"] if isinstance(r, dict) and r.get("kind") in
               ("roll", "reveal"))
    most = MAX_VERIFY_ENTRIES if max_entries is None else max_entries
    if rows > most:
        raise FairPlayError(f"the log has {rows:,} rolls and reveals; at most "
                            f"{most:,} are checked at once")
    checker = LogVerifier(max_entries=most, max_dice=max_dice, sittings=sittings,
                          replay=replay)
    for row in doc["events"]:
        checker.add(row)
    checked = checker.finish()
    if notes is not None:
        notes.extend(checker.notes)
    return checked


class Replayer(Protocol):
    """What [verify][companion.fairplay.verify] asks of a replay of rule rolls (the
    store's [Recomputer][companion.store.recompute.Recomputer]): every row of the log in
    order (``add``; a unit of work that does not give the stored facts raises
    [FairPlayError][companion.fairplay.FairPlayError] naming its entry), then ``finish``;
    what it made again (``rolls``: roll entries, ``moves``: lone moves that rolled,
    ``made``: moves made in all), what it could not and why (``skipped``), and ``off``
    when the log holds no facts to replay (a log view)."""

    rolls: set[int]
    moves: set[int]
    made: int
    skipped: dict[str, list[int]]
    off: bool

    def add(self, row: dict[str, Any]) -> None: ...

    def finish(self) -> None: ...


class LogVerifier:
    """[verify][companion.fairplay.verify] one entry at a time (``add``, then ``finish``),
    so a long log read from a file as a stream is checked without holding it: what is
    kept is each hidden roll's commitment, not the entries."""

    def __init__(self, *, max_entries: int | None = None, max_dice: int | None = None,
                 sittings: bool = True, replay: Replayer | None = None) -> None:
        self.most = MAX_VERIFY_ENTRIES if max_entries is None else max_entries
        self.budget = _Budget(MAX_VERIFY_DICE if max_dice is None else max_dice)
        self.commitments: dict[int, tuple[str, Any]] = {}
        self.rules: dict[int, bool] = {}
        self.revealed_in: dict[int, int] = {}  # hidden roll -> the reveal that revealed it
        self.said_revealed: dict[int, Any] = {}  # hidden roll -> the reveal it names
        #: The sittings' half: every seed of a closed sitting recomputed
        #: ([companion.sittings][]).
        self.fair = FairCheck()
        #: Moves whose seed is not theirs to draw (a rule roll's moves share its seed):
        #: explained by the roll entry stored with them, else refused.
        self._loose: list[tuple[int, Any]] = []
        self.sittings = sittings
        self.notes: list[str] = []
        self.checked = 0
        self.last = 0
        self.i = 0
        self.rolls = 0
        #: Rolls whose result was rolled again from its seed (dice rolls, table rolls),
        #: for the answer's plain words; rule rolls and tracker moves whose seed alone
        #: could be checked (the rule is the app's code, not in the log), counted with
        #: their first entries named. Counts, not sets: a long log streams through.
        self.whole = 0
        self.seed_only = _Named()
        self.moves_seed_only = _Named()
        self._counted: set[int] = set()  # hidden rolls counted (a GM's export: the
        #                                  secret and the reveal are one roll)
        #: Rule rolls recomputed whole by making their moves again (an export's).
        self.remade = 0
        #: Makes an export's moves again (companion.store.recompute); a whole log only.
        self.replay = replay if sittings else None

    def add(self, row: Any) -> None:
        """Check the next entry of the log (one line naming it if it does not hold)."""
        i = self.i
        self.i += 1
        if not isinstance(row, dict):
            raise FairPlayError(f"events[{i}] is not an entry of a log")
        self.last = _check_row(i, row, self.last)
        kind = row.get("kind")
        if self.replay is not None:
            self.replay.add(row)  # a unit that does not hold raises FairPlayError
        if kind == "sitting" and not self.sittings:
            return
        try:
            if self.sittings:
                self._seeds(row)
        except SittingError as exc:
            raise FairPlayError(str(exc)) from None
        if kind not in ("roll", "reveal"):
            _not_a_roll(i, row)
            return
        self.rolls += 1
        if self.rolls > self.most:
            raise FairPlayError(f"the log has more than {self.most:,} rolls and reveals; "
                                f"at most {self.most:,} are checked at once")
        seq = row.get("seq")
        if type(seq) is not int:
            raise FairPlayError(f"events[{i}]: its entry number is missing")
        payload = row.get("roll", row.get("data"))
        if not isinstance(payload, dict):
            raise FairPlayError(f"entry {seq}: its roll is missing (export it with 'log NAME "
                                "--json')")
        budget, commitments = self.budget, self.commitments
        if kind == "roll":
            if "commitment" in payload:
                digest = payload["commitment"]
                commitments[seq] = (str(payload.get("mode")), digest)
                self.rules[seq] = payload.get("rule") is True
                if "revealed" in payload:
                    self.said_revealed[seq] = payload["revealed"]
                if isinstance(payload.get("secret"), dict):
                    _check_secret(f"entry {seq}", payload["secret"], digest, budget,
                                  rule=self.rules[seq])
                    self._revealed(seq, payload["secret"], f"entry {seq}")
                    self._recomputed(seq, payload["secret"], payload["secret"].get("seed"),
                                     rule=self.rules[seq], hidden=True)
                    self.checked += 1
            elif payload.get("rule") is True:
                _rule_fields(f"entry {seq}", payload)
                _check_table(f"entry {seq}", payload, row.get("seed"), budget)
                _check_call(f"entry {seq}", payload, row.get("seed"), budget)
                self._recomputed(seq, payload, row.get("seed"), rule=True)
                self.checked += 1
            else:
                _check_public(seq, row.get("seed"), payload, budget)
                self._recomputed(seq, payload, row.get("seed"), rule=False)
                self.checked += 1
            return
        entry = payload.get("entry")
        if type(entry) is not int or entry not in commitments:
            raise FairPlayError(f"entry {seq} reveals entry {entry!r}, which is not a hidden "
                                "roll earlier in this log")
        if entry in self.revealed_in:
            raise FairPlayError(f"entry {seq} reveals entry {entry} again (it was revealed in "
                                f"entry {self.revealed_in[entry]}): a reveal was copied or "
                                "added")
        self.revealed_in[entry] = seq
        mode, digest = commitments[entry]
        if payload.get("mode") != mode:
            raise FairPlayError(f"entry {entry} (revealed in entry {seq}): revealed as a "
                                f"{mode_name(str(payload.get('mode')))} roll, but it was "
                                f"logged as {mode_name(mode)}")
        where = f"entry {entry} (revealed in entry {seq})"
        _check_secret(where, payload, digest, budget, rule=self.rules.get(entry, False))
        self._revealed(entry, payload, where)
        self._recomputed(entry, payload, payload.get("seed"),
                         rule=self.rules.get(entry, False), hidden=True)
        self.checked += 1

    def _recomputed(self, entry: int, payload: dict[str, Any], seed: Any, *,
                    rule: bool, hidden: bool = False) -> None:
        """Note how much of a checked roll was worked out again: all of it (dice, a
        table) or, for a rule roll of no table, its seed alone. Real dice are neither."""
        if payload.get("physical") is True or type(seed) is not int:
            return
        if hidden:
            if entry in self._counted:
                return
            self._counted.add(entry)
        if rule and payload.get("table") is None and payload.get("call") is None:
            if self.replay is not None and entry in self.replay.rolls:
                self.remade += 1
            else:
                self.seed_only.add(entry)
        else:
            self.whole += 1

    def _revealed(self, entry: int, secret: dict[str, Any], where: str) -> None:
        if not self.sittings:
            return
        try:
            self.fair.revealed(entry, secret.get("seed"), where,
                               physical=secret.get("physical") is True)
        except SittingError as exc:
            raise FairPlayError(str(exc)) from None

    def _seeds(self, row: dict[str, Any]) -> None:
        """The row's part in its sitting: a sitting event followed, a roll's or a move's
        seed set against its number (checked when the sitting's seed is out)."""
        seq, kind = int(row["seq"]), row.get("kind")
        data = row.get("data")
        info: dict[str, Any] = data if isinstance(data, dict) else row
        payload = row.get("roll", data)
        news = payload.get("sitting") if isinstance(payload, dict) and kind == "roll" \
            else info.get("sitting")
        if news is not None or kind == "sitting":
            self._no_loose(seq)
            self.fair.news(seq, news)
        if kind == "sitting":
            return
        if kind == "move":
            fair, seed = info.get("fair"), row.get("seed")
            chosen = "seed_chosen_by" in info
            if fair is None and seed is not None and not chosen and self.fair.began \
                    and not info.get("physical"):
                self._loose.append((seq, seed))  # a rule roll's move: its roll follows
                return
            self.fair.roll(seq, fair, seed, chosen=chosen,
                           physical=info.get("physical") is True,
                           hidden=seed is None)  # a hidden roll's, or a game's secret
            if fair is not None and type(seed) is int and (
                    self.replay is None or self.replay.off):
                self.moves_seed_only.add(seq)  # a move that rolled (a deal): its seed
            return
        if kind in ("add", "set"):
            return  # a rule roll may add a member's record or load a tracker among its moves
        if kind != "roll" or not isinstance(payload, dict):
            self._no_loose(seq)
            return
        hidden = "commitment" in payload
        seed = None if hidden else row.get("seed")
        if self._loose:
            if seed is None or any(s != seed for _, s in self._loose):
                self._no_loose(seq)
            self._loose.clear()
        self.fair.roll(seq, payload.get("fair"), seed,
                       chosen="seed_chosen_by" in payload,
                       given=payload.get("seed_given") is True,
                       physical=payload.get("physical") is True, hidden=hidden)

    def _no_loose(self, seq: int | None = None) -> None:
        if self._loose:
            entry = self._loose[0][0]
            raise FairPlayError(f"entry {entry}: a move with a seed that is not its "
                                "sitting's (no roll number, and no roll of the same seed "
                                "stored with it): the seed was picked, not derived")

    def finish(self) -> int:
        """The log's end: every reveal a roll names is there; how many rolls were checked."""
        for entry, reveal in self.said_revealed.items():
            if self.revealed_in.get(entry) != reveal:
                raise FairPlayError(f"entry {entry} says it was revealed in entry "
                                    f"{reveal!r}, but that reveal is not in this log "
                                    "(deleted or changed)")
        self._no_loose()
        if self.replay is not None:
            self.replay.finish()
        if not self.sittings:
            return self.checked
        try:
            #: What the sittings add to the answer (a sitting never closed, rolls before
            #: the scheme, seeds the GM chose, own dice).
            self.notes = self.fair.finish()
        except SittingError as exc:
            raise FairPlayError(str(exc)) from None
        at = 1 if self.fair.derived else 0  # after "N seeds recomputed", when said
        self.notes[at:at] = self.recomputed_notes()
        return self.checked

    def recomputed_notes(self) -> list[str]:
        """The answer's plain words on how much of each roll was worked out again: the
        rolls recomputed whole, and the rule rolls (named by entry) whose seed alone was
        checked."""
        lines = []
        whole = self.whole
        if whole:
            lines.append(f"{whole} roll{'s' if whole != 1 else ''} recomputed whole from "
                         f"{'their seeds' if whole != 1 else 'its seed'} (dice rolls and "
                         "table rolls, and rules declared: every die, total and result "
                         "rolled again)")
        replay = self.replay
        remade = self.remade
        if replay is not None and not replay.off:
            lone = len(replay.moves)
            if remade or lone:
                said = [f"{remade} rule roll{'s' if remade != 1 else ''}"] if remade else []
                if lone:
                    said.append(f"{lone} move{'s' if lone != 1 else ''} that rolled")
                lines.append(f"{' and '.join(said)} recomputed whole by replay (the moves "
                             "made again with the seed on the trackers as the log's facts "
                             "leave them before it: every fact and summary as stored; "
                             f"{replay.made} move{'s' if replay.made != 1 else ''} made "
                             "again in all)")
        if self.seed_only:
            why = ("the rule's result is as the app logged it, the rule itself is not "
                   "rolled again; its entry names no declared rule: logged before rule "
                   "rolls recorded their rule, or a rule that records none")
            if replay is None:
                why += ("; 'companion verify' on the campaign's export makes their moves "
                        "again")
            elif replay.off:
                why += (" (a log view holds no facts: verify the campaign's export, "
                        "'campaign export NAME', to make its rule rolls' moves again)")
            else:
                why = ("a check that moved no tracker, or moves that could not be made "
                       "again: " + why)
            lines.append(_seed_only_line(self.seed_only, "rule roll", why))
        if replay is not None and not replay.off:
            for reason, entries in replay.skipped.items():
                named = _Named()
                for entry in entries:
                    named.add(entry)
                lines.append(_not_remade_line(named, reason))
        if self.moves_seed_only:
            lines.append(_seed_only_line(self.moves_seed_only, "tracker move",
                                         "a game's or a sheet's move that rolled: the move "
                                         "itself is not rolled again"))
        return lines


class _Named:
    """Entries counted, the first ``_NAMED_ENTRIES`` of them kept to be named."""

    def __init__(self) -> None:
        self.count = 0
        self.first: list[int] = []

    def add(self, entry: int) -> None:
        self.count += 1
        if len(self.first) < _NAMED_ENTRIES:
            self.first.append(entry)

    def __bool__(self) -> bool:
        return self.count > 0


def _seed_only_line(entries: _Named, what: str, why: str) -> str:
    """``3 rule rolls with only their seed checked (entries 4, 7, 9: why)``."""
    n = entries.count
    shown = ", ".join(map(str, sorted(entries.first)))
    more = f" and {n - _NAMED_ENTRIES:,} more" if n > _NAMED_ENTRIES else ""
    seeds, entries_word = ("their seeds", "entries") if n != 1 else ("its seed", "entry")
    return (f"{n} {what}{'s' if n != 1 else ''} with only {seeds} checked ({entries_word} "
            f"{shown}{more}: {why})")


def _not_remade_line(entries: _Named, why: str) -> str:
    """``2 rolls not made again (entries 4, 9: made with the player's own dice)``."""
    n = entries.count
    shown = ", ".join(map(str, sorted(entries.first)))
    more = f" and {n - _NAMED_ENTRIES:,} more" if n > _NAMED_ENTRIES else ""
    return (f"{n} roll{'s' if n != 1 else ''} whose moves were not made again "
            f"({'entries' if n != 1 else 'entry'} {shown}{more}: {why})")


#: Rule rolls with only their seed checked that verify's answer names one by one.
_NAMED_ENTRIES = 10


#: Fields only a roll's data has: an event of another kind holding them is a roll
#: relabelled (which would take it out of the check).
_ROLL_FIELDS = ("commitment", "secret", "nonce", "expr", "dice", "total", "mode")


#: The kinds of event a log holds (as the store writes them).
_LOG_KINDS = ("add", "move", "undo", "set", "remove", "roll", "reveal", "sitting")


def _check_row(i: int, row: dict[str, Any], last: int) -> int:
    """A row is an entry as the store writes it (a number after the one before, a kind,
    who and when), not an empty or invented object; returns its number."""
    seq = row.get("seq")
    if type(seq) is not int or seq < 1:
        raise FairPlayError(f"events[{i}] is not an entry of a log (it has no entry number)")
    if seq <= last:
        raise FairPlayError(f"entry {seq} comes after entry {last}: the log is out of order "
                            "or an entry was copied")
    if row.get("kind") not in _LOG_KINDS:
        raise FairPlayError(f"entry {seq}: its kind {str(row.get('kind'))[:20]!r} is not a "
                            "kind of log entry")
    when = row.get("at", row.get("time"))
    if not isinstance(when, str) or not isinstance(row.get("who"), str) \
            or row.get("role") not in ("gm", "player", "spectator", ""):
        raise FairPlayError(f"entry {seq} does not say who made it, as whom and when")
    return seq


def _not_a_roll(i: int, row: dict[str, Any]) -> None:
    """Refuse an event that is not a roll or reveal but carries one."""
    payload = row.get("roll", row.get("data"))
    seq = row.get("seq")
    where = f"entry {seq}" if type(seq) is int else f"events[{i}]"
    if "roll" in row or (isinstance(payload, dict)
                         and sum(k in payload for k in _ROLL_FIELDS) >= 2):
        raise FairPlayError(f"{where} is logged as a {str(row.get('kind'))[:20]!r} but holds "
                            "a roll: a roll relabelled as another event")
    if row.get("kind") == "move" and not row.get("move") and not row.get("tracker"):
        raise FairPlayError(f"{where} is a move of no tracker and no name: a roll "
                            "relabelled as a move?")


def verify_entry(events: Iterable[dict[str, Any]], entry: int) -> None:
    """Check one revealed roll (an app's "check it" button): the roll logged as ``entry``
    and its reveal, among ``events`` (a log view's ``to_dict()`` events, or the rows of
    ``log NAME --json``). Raises [FairPlayError][companion.fairplay.FairPlayError] saying
    what does not hold, or that the roll is not revealed yet."""

    def payload(event: dict[str, Any]) -> Any:
        return event.get("roll", event.get("data")) or {}

    rows = [e for e in events if isinstance(e, dict) and (
        (e.get("kind") == "roll" and e.get("seq") == entry)
        or (e.get("kind") == "reveal" and payload(e).get("entry") == entry))]
    if not any(e.get("kind") == "roll" for e in rows):
        raise FairPlayError(f"there is no roll numbered {entry}")
    if "commitment" not in payload(rows[0]):
        raise FairPlayError(f"entry {entry} is a public roll: there is no commitment to check")
    if not any(e.get("kind") == "reveal" for e in rows):
        raise FairPlayError(f"entry {entry} is not revealed yet")
    verify({"events": rows}, sittings=False)


class _Budget:
    """What one verify has spent: dice rolled again, exact odds worked out (counted by
    their outcomes: an expression's size, not one per expression)."""

    def __init__(self, max_dice: int) -> None:
        self.max_dice = max_dice
        self.dice = 0
        self.outcomes = 0
        self.odds: dict[str, Any] = {}
        self.seen: set[str] = set()

    def spend_dice(self, where: str, n: int) -> None:
        self.dice += n
        if self.dice > self.max_dice:
            raise FairPlayError(f"{where}: checking the log needs more than "
                                f"{self.max_dice:,} dice rolled again; check a shorter log")

    def odds_of(self, where: str, expr: str) -> Any:
        from companion import dice as engine

        if expr in self.odds:
            return self.odds[expr]
        if expr not in self.seen and len(self.seen) >= MAX_VERIFY_ODDS:
            raise FairPlayError(f"{where}: the log has totals entered by hand for more "
                                f"than {MAX_VERIFY_ODDS} different expressions; check a "
                                "shorter log")
        if self.outcomes >= MAX_VERIFY_OUTCOMES:
            raise FairPlayError(f"{where}: checking the totals entered by hand needs exact "
                                f"odds of more than {MAX_VERIFY_OUTCOMES:,} outcomes; check "
                                "a shorter log")
        self.seen.add(expr)
        dist = engine.odds(expr)
        self.outcomes += len(dist)
        if len(dist) <= _ODDS_KEPT:
            self.odds[expr] = dist
        return dist


def _field(where: str, payload: dict[str, Any], key: str, kind: type) -> Any:
    value = payload.get(key)
    if type(value) is not kind:
        raise FairPlayError(f"{where}: its {key} is missing or not {_KINDS[kind]}")
    return value


_KINDS = {str: "text", int: "a whole number", list: "a list of dice"}


def _dice_list(where: str, payload: dict[str, Any]) -> list[int]:
    from companion.dice import limits

    dice: list[int] = _field(where, payload, "dice", list)
    if len(dice) > limits.MAX_ROLLED_DICE or not all(type(v) is int for v in dice):
        raise FairPlayError(f"{where}: its dice are not a list of faces")
    return dice


def _rule_fields(where: str, payload: dict[str, Any]) -> tuple[str, str, list[int]]:
    """A rule roll's label, result text and faces (checked to be there)."""
    label = _field(where, payload, "label", str)
    text = _field(where, payload, "text", str)
    faces = payload.get("faces", [])
    if type(faces) is not list or not all(type(v) is int for v in faces):
        raise FairPlayError(f"{where}: its faces are not a list of faces")
    return label, text, faces


def _check_secret(where: str, payload: dict[str, Any], digest: Any, budget: _Budget,
                  *, rule: bool = False) -> None:
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        raise FairPlayError(f"{where}: its commitment is not a SHA-256 digest (64 hex digits)")
    if rule:
        label, text, faces = _rule_fields(where, payload)
        nonce, seed = _nonce_and_seed(where, payload)
        if rule_commitment(label, seed, text, nonce, faces) != digest:
            raise FairPlayError(f"{where}: the revealed roll does not match its commitment "
                                "(its label, seed, faces, result or nonce, or the "
                                "commitment, was changed)")
        _check_table(where, payload, seed, budget)
        _check_call(where, payload, seed, budget)
        return
    expr = _field(where, payload, "expr", str)
    total = _field(where, payload, "total", int)
    nonce, seed = _nonce_and_seed(where, payload)
    dice = _dice_list(where, payload)
    if commitment(expr, seed, dice, total, nonce) != digest:
        raise FairPlayError(f"{where}: the revealed roll does not match its commitment (its "
                            "expression, seed, dice, total or nonce, or the commitment, "
                            "was changed)")
    _check_text(where, payload, _check_roll(where, expr, seed, dice, total, budget,
                                            physical=seed is None))


def _check_table(where: str, payload: dict[str, Any], seed: Any, budget: _Budget) -> None:
    """A rule roll that says which table it rolled (``"table"``): the table rolled again
    with its seed gives the result it logged (a changed result, or a seed that is not the
    one it rolled, is caught). Real dice (no seed) are not rolled again."""
    from companion import tables

    table_id = payload.get("table")
    if table_id is None or payload.get("physical") is True or seed is None:
        return
    if not isinstance(table_id, str) or not table_id:
        raise FairPlayError(f"{where}: its table is not a table's id")
    try:
        table = tables.get(table_id)
    except CompanionError:
        raise FairPlayError(f"{where}: it says it rolled table {clipped(table_id, 40)!r}, "
                            "which this version does not have: it cannot be rolled "
                            "again") from None
    if type(seed) is not int:
        raise FairPlayError(f"{where}: its seed is not a whole number")
    try:
        result = table.roll(seed=seed)
    except CompanionError as exc:
        raise FairPlayError(f"{where}: {exc}") from None
    budget.spend_dice(where, 1 + len(result.nested) + len(result.noted))
    want = table_text(result)
    if payload.get("text") != want:
        raise FairPlayError(f"{where}: its result is not what seed {seed} gives on table "
                            f"{table.id} ({clipped(want, 60)}): it was changed")


def _check_call(where: str, payload: dict[str, Any], seed: Any, budget: _Budget) -> None:
    """A rule roll that says which declared rule it rolled (``"call"``,
    [companion.rule_rolls][]): the rule called again with its arguments and the entry's
    seed gives the result fields and text it logged. Real dice are not rolled again."""
    from companion import rule_rolls

    call = payload.get("call")
    if call is None or payload.get("physical") is True or seed is None:
        return
    if type(seed) is not int:
        raise FairPlayError(f"{where}: its seed is not a whole number")
    budget.spend_dice(where, 1)
    try:
        rule_rolls.remake(call, seed, payload.get("text"))
    except CompanionError as exc:
        name = call.get("name") if isinstance(call, dict) else None
        said = f" (rule {clipped(str(name), 40)})" if isinstance(name, str) else ""
        raise FairPlayError(f"{where}{said}: {exc}") from None


def _nonce_and_seed(where: str, payload: dict[str, Any]) -> tuple[str, int | None]:
    """A revealed roll's nonce (64 hex digits) and seed (a whole number, or none for real
    dice), each refused in one line naming the entry."""
    nonce = _field(where, payload, "nonce", str)
    if not _HEX64.fullmatch(nonce):
        raise FairPlayError(f"{where}: its nonce is not 64 hex digits")
    seed = payload.get("seed")
    if seed is not None and type(seed) is not int:
        raise FairPlayError(f"{where}: its seed is not a whole number")
    return nonce, seed


def _check_public(seq: int, seed: Any, payload: dict[str, Any], budget: _Budget) -> None:
    where = f"entry {seq}"
    expr = _field(where, payload, "expr", str)
    total = _field(where, payload, "total", int)
    physical = payload.get("physical") is True
    if physical:
        result = _check_roll(where, expr, None, _dice_list(where, payload), total, budget,
                             physical=True)
    else:
        if type(seed) is not int:
            raise FairPlayError(f"{where}: a public roll without its seed")
        dice = _dice_list(where, payload) if "dice" in payload else None
        result = _check_roll(where, expr, seed, dice, total, budget, physical=False)
    _check_text(where, payload, result)


def _check_text(where: str, payload: dict[str, Any], result: Any) -> None:
    """The roll's shown text is the one its dice give (a rewritten line is caught). Rolls
    logged before modes existed (no mode, no dice) kept an older form of the line: their
    total is what is checked."""
    current = "mode" in payload or "dice" in payload
    if current and "text" in payload and payload["text"] != roll_text(result):
        raise FairPlayError(f"{where}: its shown text is not what its dice give "
                            f"({clipped(roll_text(result), 60)}): it was rewritten")


def _check_roll(where: str, expr: str, seed: int | None, dice: list[int] | None, total: int,
                budget: _Budget, *, physical: bool) -> Any:
    """The dice and total are what the engine gives (the seed's roll, or real dice that
    the expression can show); returns the engine's roll."""
    from companion import dice as engine
    from companion.dice.physical import OWN_DICE, enter
    from companion.dice.roller import Roll

    try:
        if physical:
            if dice:
                budget.spend_dice(where, len(dice))
                return enter(expr, total=total, dice=dice)
            if budget.odds_of(where, expr).p(total) == 0:
                enter(expr, total=total)  # refuses, saying why
            return Roll(expr, total, [], {}, [OWN_DICE], None)  # as enter makes it
        result = engine.roll(expr, seed=seed)
    except FairPlayError:
        raise
    except CompanionError as exc:
        raise FairPlayError(f"{where}: {exc}") from None
    budget.spend_dice(where, len(result.dice))
    got = [d.value for d in result.dice]
    if dice is not None and got != dice:
        raise FairPlayError(f"{where}: its dice are not what seed {seed} gives for {expr}")
    if result.total != total:
        raise FairPlayError(f"{where}: its total {total} is not what seed {seed} gives for "
                            f"{expr} ({result.total})")
    return result


def parse_log(text: str, name: str = "the file") -> Any:
    """An exported log's JSON text, parsed; one line if it is not JSON."""
    try:
        return json.loads(text)
    except ValueError as exc:
        raise FairPlayError(f"{name} is not an exported log (not JSON, line "
                            f"{getattr(exc, 'lineno', '?')})") from None
    except RecursionError:
        raise FairPlayError(f"{name} is nested too deeply to be an exported log") from None


def verify_text(text: str, name: str = "the file") -> int:
    """[verify][companion.fairplay.verify] on a JSON text."""
    return verify(parse_log(text, name))
