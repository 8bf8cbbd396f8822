"""Who may do what, asked for this screen's seat: the seam's checks before a move, a
load, an add or a roll, and the questions the apps ask to show only what a seat may do
(``may_move``, ``may_undo``, ``may_edit_numbers``, ``may_use_own_dice``). The rule itself
is [companion.store.permissions][]; this part says which member, owner and trust it is
asked about.

Package-private (``companion.store._campaign``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.state import OWN_NUMBERS, Tracker, who_may
from companion.store._campaign.core import SPECTATOR_LINE, Member
from companion.store._campaign.replay import Replay
from companion.store.permissions import OWN_DICE_LINE, SeatError, move_refusal, same_name

if TYPE_CHECKING:
    pass


class PermissionChecks(Replay):
    """The seat's permissions (see the module)."""

    @property
    def seat_role(self) -> str:
        """This screen's role: ``gm``, ``player``, ``spectator``, or ``""`` (the
        database's holder: the command line and the Python API, unrestricted)."""
        return self.role

    def _owner(self, member: Member) -> str:
        return member.name if member.role == "party" else member.owner

    def _may_change(self, member: Member, what: str) -> str | None:
        """Whether this seat may change ``member`` as a whole (load, replace, remove)."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        owner = self._owner(member)
        if owner and same_name(owner, self.who):
            # A whole state loaded is every number at once: the GM's trust decides.
            if not self.trust.own_numbers:
                return (f"only the GM may {what} {member.name} at this table (the GM can "
                        "let players edit their own numbers: table trust)")
            return None
        whose = f"{owner} and the GM" if owner else "the GM"
        return f"only {whose} may {what} {member.name}"

    def _may_roll(self, chosen_seed: int | None) -> None:
        """Anyone seated rolls; a spectator does not; only the GM chooses a seed."""
        if self.role == "spectator":
            raise SeatError(SPECTATOR_LINE)
        if chosen_seed is not None and self.role == "player":
            raise SeatError("in a campaign a player's dice choose themselves: only the GM "
                            "sets a seed")

    def _may_add(self, name: str, role: str, owner: str) -> None:
        """A player adds their own character and its records, and a shared tracker an app
        opens (an empty fight or minigame: every move in it is still checked); the GM all.

        Interpretation: opening the fight app before the GM has made the fight makes the
        campaign's (empty) fight; who may act in it is decided move by move."""
        if self.role in ("", "gm"):
            return
        if self.role == "spectator":
            raise SeatError(SPECTATOR_LINE)
        mine = (role == "party" and same_name(name, self.who)) or (
            role == "record" and same_name(owner, self.who))
        if not (mine or role in ("minigame", "encounter")):
            raise SeatError(f"only the GM may add {name} to the campaign")

    def may_move(self, tracker: Tracker, name: str, arguments: dict[str, Any]) -> str | None:
        """``None`` if this seat may make the move ``name`` on ``tracker``, else the
        one-line reason (the apps show only what a seat may do)."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        member = self._member_of(tracker)
        owner = self._owner(member)
        # One rule for the seam and the apps (companion.store.permissions).
        return move_refusal(role=self.role, who=self.who,
                            declared=who_may(getattr(type(tracker), name, None)),
                            owner=owner,
                            actors=None if owner else tracker.acting_for(name, arguments),
                            trust=self.trust, move=name, tracker=member.name)

    def may_edit_numbers(self, id_or_name: str) -> str | None:
        """``None`` if this seat may edit the numbers of the member ``id_or_name`` (its
        maxima, armour, level: the moves declared ``OWN_NUMBERS``), else why not: the
        GM's, or its owner's when the table trusts players with their own numbers."""
        if self.role in ("", "gm"):
            return None
        if self.role == "spectator":
            return SPECTATOR_LINE
        member = self.member(id_or_name)
        return move_refusal(role=self.role, who=self.who, declared=OWN_NUMBERS,
                            owner=self._owner(member), actors=None, trust=self.trust,
                            move="edit numbers", tracker=member.name)

    def may_use_own_dice(self) -> str | None:
        """``None`` if this seat may enter their own (physical) dice for the saves and
        checks of tracker moves, else why not (a player: only when the GM trusts them)."""
        if self.role == "spectator":
            return SPECTATOR_LINE
        if self.role == "player" and not self.trust.own_dice:
            return OWN_DICE_LINE
        return None

    def _undo_rule(self, tracker: Tracker) -> str | None:
        """The tracker's own undo rule for this seat (the holder asks as the GM)."""
        if not tracker.can_undo:
            return None  # nothing to undo: the rule's own refusal says so
        return tracker.undo_refusal("gm" if self.role in ("", "gm") else self.role)

    def may_undo(self, tracker: Tracker) -> str | None:
        """``None`` if this seat may take back ``tracker``'s newest move, else why not: the
        tracker's own rule first ([Tracker.undo_refusal][companion.state.Tracker.undo_refusal]:
        a game with hidden information keeps a reveal; the holder asks as the GM), then
        the seam's (a seat its own newest move, a player never a roll)."""
        if self.role == "spectator":
            return SPECTATOR_LINE
        own = self._undo_rule(tracker)
        if own is not None:
            return own
        if self.role in ("", "gm"):
            return None
        member = self._member_of(tracker)
        if not member.marks:
            return None  # nothing to undo: the rule's own refusal says so
        mark = member.marks[-1]
        if not same_name(mark.who, self.who) or mark.role != self.role:
            since = "the GM" if mark.role == "gm" else (mark.who or "someone")
            return f"cannot undo: {since} moved {member.name} since your move; only the GM may"
        if mark.rolled:
            return "a roll cannot be unmade to be rolled again: only the GM may take it back"
        return None
