"""Who may make a move at a campaign's table: one rule, read from the move's declaration,
the tracker's owner, the seat and the table's trust settings (issue 28).

The campaign's seam ([Campaign.record_move][companion.store.campaign.Campaign.record_move])
and what the apps show ([Campaign.may_move][companion.store.campaign.Campaign.may_move])
both ask [move_refusal][companion.store.permissions.move_refusal], so a button an app
shows is a move the seam accepts, and a crafted widget message can do no more than the
buttons.

- Each move declares who may make it ([who_may][companion.state.who_may]): ``OWNER``
  (the default: the player whose character the tracker is, or on a shared tracker the
  character [Tracker.acting_for][companion.state.Tracker.acting_for] names, and the GM),
  ``GM``, ``ANY_SEAT``, or ``OWN_NUMBERS`` (the owner only when the table trusts players
  to edit their own numbers).
- The table's trust ([TableTrust][companion.store.permissions.TableTrust]) is set once per
  campaign by the GM and kept in its log like any move; both settings are off until the
  GM turns them on. A player's entry made under a trust setting is marked in the log
  (``trusted`` in the event's data).
- Names match one way ([same_name][companion.names.same_name], from the core's
  [companion.names][]): Unicode NFKC, case folded, spaces collapsed. Seat lookup (a secret's
  or a hub login's), "is this my character" and who sees a self roll use it, so the hub's
  ``ash`` plays Ash; names that only look alike are refused when made.
- The seat itself is read again from the store inside the transaction that stores each
  move, undo or load ([seat_gone][companion.store.permissions.seat_gone] over the
  rows the store reads): a seat revoked or renewed a moment ago stores nothing.

This module imports no SQLAlchemy: the browser's store uses it too.

>>> same_name("ash", "Ａｓｈ "), same_name("Ash", "Asha")
(True, False)
>>> move_refusal(role="player", who="Bryn", declared="gm", owner="", actors=("Bryn",),
...              trust=TableTrust(), move="rebuy", tracker="Dice Monarchs")
"rebuy in Dice Monarchs is the GM's move (a player may not make it)"
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion.errors import RuleError
from companion.names import name_key, same_name  # the one rule for names (re-exported)
from companion.state import ANY_SEAT, GM, OWN_NUMBERS, OWNER, Tracker, move, state_field
from companion.store.records import StoreError

__all__ = [
    "OWN_DICE_LINE",
    "OWN_NUMBERS_LINE",
    "SeatError",
    "SeatKey",
    "TableTrust",
    "move_refusal",
    "name_key",
    "same_name",
    "seat_gone",
]

#: What a player hears when they enter their own dice and the table does not allow it.
OWN_DICE_LINE = ("the GM has not let players enter their own dice for saves and checks at "
                 "this table: roll here, or ask the GM (table trust)")

#: What a player hears when they edit their own numbers and the table does not allow it.
OWN_NUMBERS_LINE = ("only the GM may edit {name}'s numbers at this table (the GM can let "
                    "players edit their own: table trust)")


class SeatError(StoreError):
    """A move, undo or change this screen's seat may not make (the line says who may)."""


@dataclass
class TableTrust(Tracker):
    """The table's trust in its players, set by the GM once per campaign (like a virtual
    tabletop's permission settings). Both are off until the GM turns them on.

    ``own_dice``: a player may enter their own (physical) dice for their saves and checks.
    ``own_numbers``: a player may edit their own character's numbers (maxima, armour,
    levels) and load a save into it.
    """

    kind = "TableTrust"
    what = "table trust"

    own_dice: bool = state_field(False, doc="players may enter their own dice")
    own_numbers: bool = state_field(False, doc="players may edit their own numbers")

    @move(who_may=GM)
    def set_trust(self, own_dice: bool, own_numbers: bool) -> None:
        """Set both settings (the GM's alone)."""
        if type(own_dice) is not bool or type(own_numbers) is not bool:
            raise RuleError("table trust: each setting is on or off")
        self.own_dice, self.own_numbers = own_dice, own_numbers
        self.describe(f"table trust: players {'may' if own_dice else 'may not'} enter "
                      f"their own dice; {'may' if own_numbers else 'may not'} edit their "
                      "own numbers")


def move_refusal(*, role: str, who: str, declared: str, owner: str,
                 actors: Sequence[str] | None, trust: TableTrust, move: str,
                 tracker: str) -> str | None:
    """Why the seat (``role``, ``who``) may not make ``move`` on ``tracker``, or ``None``.

    ``declared``: the move's [who_may][companion.state.who_may]; ``owner``: the party
    member the tracker belongs to (``""``: a shared tracker); ``actors``: on a shared
    tracker, whose action the move is ([Tracker.acting_for][companion.state.Tracker.acting_for]).
    The GM and the database's holder (role ``""``) may make every move; a spectator none
    (the caller says so in its own words)."""
    if role in ("", "gm"):
        return None
    words = move.replace("_", " ")
    if role != "player":
        return f"{words} in {tracker}: a spectator makes no move"
    if declared == GM:
        return f"{words} in {tracker} is the GM's move (a player may not make it)"
    if declared == ANY_SEAT:
        return None
    if owner:
        if not same_name(owner, who):
            return f"only {owner} and the GM may move {tracker}"
        if declared == OWN_NUMBERS and not trust.own_numbers:
            return OWN_NUMBERS_LINE.format(name=owner)
        return None
    if declared == OWN_NUMBERS and not trust.own_numbers:
        return f"{words} in {tracker} is the GM's move (table trust: players do not edit numbers)"
    assert declared in (OWNER, OWN_NUMBERS)
    if actors and all(same_name(actor, who) for actor in actors):
        return None
    if actors:
        return f"{words} in {tracker} is {', '.join(actors)}'s to make, not {who or 'yours'}"
    return f"{words} in {tracker} is the GM's move"


@dataclass(frozen=True)
class SeatKey:
    """How a screen's seat was proven, to check it again in the store on every write: the
    seat's name and role and the SHA-256 of the secret that opened it (``""``: seated by
    name, by a hub login)."""

    who: str
    role: str
    secret_hash: str = ""

    def __repr__(self) -> str:  # never a hash of a secret in a repr or a log
        return f"SeatKey(who={self.who!r}, role={self.role!r})"


#: What a screen whose seat no longer holds hears (the page then watches).
SEAT_GONE_LINE = ("your seat was revoked or renewed: nothing was stored; you are watching "
                  "now (ask the GM for a new link)")


def seat_gone(rows: Iterable[Sequence[object]], key: SeatKey) -> str | None:
    """Why ``key``'s seat no longer holds, judged on the campaign's seat rows ``(who, role,
    secret_hash, created, revoked)`` as the store reads them now; ``None`` while it holds
    (not revoked, the same role, and the same secret when it was opened by one)."""
    for who, role, hashed, _, revoked in rows:
        if revoked is not None or not same_name(str(who), key.who):
            continue
        if role == key.role and (not key.secret_hash or hashed == key.secret_hash):
            return None
    return SEAT_GONE_LINE
