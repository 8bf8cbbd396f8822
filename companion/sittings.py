"""Provably fair seeds: a sitting's every roll derived from seeds nobody could pick alone.

A **sitting** is one evening of play (the word keeps it apart from a table
[Session][companion.table.session.Session], which is one screen's seat). It begins with the
campaign's first roll after the last close:

1. The server draws a secret **server seed** (32 random bytes, written as 64 lowercase hex
   digits) and logs at once its SHA-256, before any client seed the sitting takes is
   published (issue 49, sittings whose ``open`` says ``"v": 3``): the entry that
   publishes the first client seed for the next sitting commits that sitting's seed first
   (``sitting`` news, ``commit``: its number and hash); a sitting nobody set a seed for
   commits it at its opening (``open``). From then on the server cannot change the seed
   without the change showing at the opening or the close. The seed itself is kept by
   the store beside the log, never in it (issue 49: a sitting record of the campaign,
   written in the transaction that stores the commitment, deleted with the close), so no
   export, log or view shows it before the close, the GM's neither; whoever holds the
   database can still read it there. A sitting opened by an earlier version kept it in
   its opening's data (``"secret"``): it goes on so until it closes.
2. The opening publishes every **client seed** of the sitting (``clients``), fixed for
   its whole length (issue 49, sittings whose ``open`` says ``"v"`` 2 or 3): the seeds
   the seats set for it before it opened (``act: next``, ``"next": {seat: seed}``,
   published at once, after the sitting's commitment: ``companion session seed NAME SEED
   --who WHO`` or [Session.set_client_seed][companion.table.session.Session.set_client_seed];
   a seat with no seed in the open sitting offers a fresh one with its first roll), and,
   at an opening that commits its own seed, the opening seat's device seed
   (``os.urandom``, fresh for each sitting). Nothing published while the sitting is open
   changes its rolls, so even someone who reads the server seed then (whoever holds the
   database: no export holds it) finds no client seed that aims a roll; a seat never uses
   a client seed twice. Sittings opened by earlier versions keep their rules: ``"v": 2``,
   the server seed drawn at the opening; no ``"v"``, a seat's client seed published with
   its first roll, changed at will.
3. Every roll of the sitting (a dice roll for the roll log in any mode, a rule roll: a
   check, a fight's attack, a table, the Monarchs' deal, an NPC table; a move that rolls)
   gets the next **roll number** ``n`` (1, 2, 3... in the sitting) and the seed::

       message = {"clients":{"<seat>":"<client seed>",...},"n":<n>,"v":1}
       seed    = int(HMAC-SHA256(key=<server seed>, message)[:16 hex digits], 16) mod 2^53

   ``message`` is one line of JSON with no spaces, keys sorted, non-ASCII characters as
   ``\\uXXXX`` (Python's ``json.dumps(obj, sort_keys=True, separators=(",", ":"))``), its
   ``clients`` the client seeds fixed at the opening (an older sitting: every client seed
   published in it before the roll, a seat's newest), by the seat's name; the HMAC's key
   is the server seed's 64 hex characters as text (ASCII). The seed is then rolled as
   every seed is (``companion roll EXPR --seed N``, ``random.Random(seed)``). The roll's
   entry says its number and sitting (``"fair": {"sitting": k, "n": n, "clients": <first
   16 hex digits of the SHA-256 of the clients' JSON>}``).
4. The GM closes the sitting (``companion session close NAME``): the server seed is
   published (``act: close``) with the count of rolls it numbered (``rolls``: a roll
   deleted from the sitting's end is refused by ``verify``). Anyone then checks that its
   SHA-256 is the hash published at the start, and recomputes every roll's seed, dice
   and total
   (``companion verify log.json``, or the site's verifier with no server at all).

By hand, for roll 3 of a sitting (any shell with OpenSSL)::

    printf '%s' '{"clients":{"Ann":"9f...","GM":"41..."},"n":3,"v":1}' \\
        | openssl dgst -sha256 -hmac '<server seed>'
    python3 -c 'print(int("<first 16 hex digits>", 16) % 2**53)'

>>> server = "00" * 32
>>> server_hash(server)[:16]
'60e05bd1b195af2f'
>>> roll_message({"Ann": "ab"}, 1)
'{"clients":{"Ann":"ab"},"n":1,"v":1}'
>>> roll_seed(server, {"Ann": "ab"}, 1)
7148293621836149

- Interpretation: one count per sitting. The issue says a changed client seed "starts a new
  count"; a count that restarts would let a seat that switches back to a seed it used
  before get the very rolls it has already seen. The roll number never restarts in a
  sitting; a changed client seed changes every later seed all the same.
- Interpretation (older sittings): a seat's client seed is contributed by the first of
  its devices to roll in the sitting; a second device of the same seat rolls with it (the
  seat's seed is one, published in the log), unless the seat sets a new one.
- Interpretation (issue 49): "client seeds set only at a sitting's opening" was chosen
  over commit-reveal for client seeds: it needs no second round trip from every seat
  before the first roll, and no seat can stall a sitting by never revealing. The server
  seed is committed before the first client seed for the sitting, so the host cannot
  draw it after seeing them; what the host can still do (try the seeds it draws for a
  seat, or sets for its own seat, against the seed it holds) is in docs/fair-dice.md,
  what a host, a GM and a player can and cannot do.
- Interpretation (sitting 1, older campaigns): a sitting with nothing committed before it
  (the campaign's first, or one nobody set a seed for) commits its seed at its opening and
  takes the opening seat's device seed, drawn at the same moment. A campaign logged under
  the rules before (``"v": 2`` openings, seeds for the next sitting with no commitment)
  verifies as before; seeds it set for its next sitting without a commitment open that
  sitting under those rules, and its first commitment starts the new ones: from there on
  ``verify`` refuses a client seed before its sitting's commitment and an opening of the
  rules before. A committed seed the database does not hold (a campaign imported between
  the commitment and the opening) is withdrawn by the opening (``"withdrawn": true``): a
  fresh seed, the seeds set for it dropped, and ``verify`` names the sitting.
- Interpretation: a seed the GM types (``seed_chosen_by`` in the log) and real dice (the
  player's own, ``physical``) are not derived: the log marks them, and ``verify`` counts
  them apart. Every other seeded roll of a sitting must carry its number.
- Interpretation: closing a sitting publishes the seeds of its hidden rolls too (anyone
  can derive them): a hidden roll not yet revealed keeps its expression and result
  secret, but someone who guesses its expression can roll its seed. ``session close``
  says how many such rolls there are.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.dice.roller import SEED_BOUND  # derived seeds stay below it, as drawn ones
from companion.errors import CompanionError, clipped

__all__ = [
    "FAIR_VERSION",
    "FIXED_VERSIONS",
    "SITTING_VERSION",
    "FairCheck",
    "SittingError",
    "SittingState",
    "clients_digest",
    "new_client_seed",
    "new_server_seed",
    "roll_message",
    "roll_seed",
    "seat_name",
    "server_hash",
    "summary",
]

#: Version of the message's encoding (its ``"v"``).
FAIR_VERSION = 1

#: The version of a sitting's rules its opening says (``"v"``): 2 (issue 49) fixes every
#: client seed at the opening, each fresh for the sitting; an opening without it is of the
#: rules before (a client seed published with a seat's first roll, changed at will).
SITTING_VERSION = 3

#: The versions whose client seeds are fixed at the opening: 2 (issue 49, the server seed
#: drawn at the opening) and 3 (issue 49, the server seed committed before any client
#: seed the sitting takes was published).
FIXED_VERSIONS = (2, 3)

#: Longest client seed a seat may set (any text of visible characters).
MAX_CLIENT_SEED = 64

_HEX64 = re.compile(r"[0-9a-f]{64}")
_CLIENT = re.compile(r"[\x21-\x7e]{1,64}")


class SittingError(CompanionError):
    """A sitting that cannot be opened or closed, a client seed refused, or a log whose
    seeds do not hold."""


def new_server_seed() -> str:
    """A fresh secret server seed: 32 bytes of the system's secure source, as hex."""
    return secrets.token_hex(32)


def new_client_seed() -> str:
    """A device's client seed: 16 bytes of ``os.urandom``, as 32 hex digits."""
    return os.urandom(16).hex()


def check_client_seed(seed: object) -> str:
    """A client seed a seat sets: 1 to 64 visible ASCII characters (no spaces)."""
    if not isinstance(seed, str) or not _CLIENT.fullmatch(seed):
        raise SittingError("a client seed is 1 to 64 visible ASCII characters (letters, "
                           "digits, punctuation; no spaces)")
    return seed


def server_hash(server_seed: str) -> str:
    """The SHA-256 of the server seed's hex text, published when the sitting opens."""
    return hashlib.sha256(server_seed.encode("ascii")).hexdigest()


def seat_name(who: str, role: str) -> str:
    """The name a seat's client seed is published under: its name, else ``GM`` for a GM
    with no name, else ``holder`` (whoever holds the database: the command line)."""
    if who:
        return who
    return "GM" if role == "gm" else (role or "holder")


def _clients_json(clients: Mapping[str, str]) -> str:
    return json.dumps(dict(clients), sort_keys=True, separators=(",", ":"),
                      ensure_ascii=True)


def roll_message(clients: Mapping[str, str], n: int) -> str:
    """The exact text the HMAC of roll ``n`` signs (see the module's docstring)."""
    obj = {"clients": dict(clients), "n": n, "v": FAIR_VERSION}
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def clients_digest(clients: Mapping[str, str]) -> str:
    """The first 16 hex digits of the SHA-256 of the client seeds' JSON: a roll's entry
    names the client seeds it was derived from (a seed changed afterwards is caught)."""
    return hashlib.sha256(_clients_json(clients).encode("ascii")).hexdigest()[:16]


def roll_seed(server_seed: str, clients: Mapping[str, str], n: int) -> int:
    """The seed of roll ``n`` of a sitting (see the module's docstring)."""
    mac = hmac.new(server_seed.encode("ascii"), roll_message(clients, n).encode("ascii"),
                   hashlib.sha256).hexdigest()
    return int(mac[:16], 16) % SEED_BOUND


@dataclass
class SittingState:
    """A campaign's sitting as its log has it so far (the live campaign keeps one): the
    sitting's number, its published hash, its client seeds, how many rolls it numbered,
    and, for a sitting opened by an earlier version, its secret server seed as its log
    holds it (since issue 49 the store keeps a new sitting's seed apart, outside the log
    and the snapshots: [open_seed][companion.sittings.SittingState.open_seed])."""

    number: int = 0
    open: bool = False
    hash: str = ""
    #: The open sitting's server seed where the log holds it (older sittings); in a
    #: state [news][companion.sittings.SittingState.news] hands out, the seed it derives
    #: from, however it was found.
    server_seed: str | None = None
    clients: dict[str, str] = field(default_factory=dict)
    rolls: int = 0
    opened_at: int = 0  # the open event's entry number
    #: The open sitting's client seeds are fixed at its opening (sittings opened by this
    #: version, ``"v": 2``; issue 49): none is published, changed or added after it.
    fixed: bool = False
    #: Client seeds the seats set for the next sitting (``"next"`` news), published
    #: before it opens: its opening takes every one of them.
    pending: dict[str, str] = field(default_factory=dict)
    #: The hash of the next sitting's server seed, committed before any client seed for
    #: it was published (``"commit"`` news, issue 49), and that sitting's number; the
    #: store keeps the seed apart, as an open sitting's.
    committed: str = ""
    committed_for: int = 0

    @property
    def next_number(self) -> int:
        """The number of the sitting the next opening opens."""
        return self.number + 1

    @property
    def legacy(self) -> bool:
        """Seeds set for the next sitting before this version committed server seeds (no
        commitment precedes them): that sitting opens under the rules they were set by."""
        return bool(self.pending) and not self.committed

    def apply(self, seq: int, kind: str, data: Mapping[str, Any]) -> None:
        """Follow one stored event: the sitting news it carries (``"sitting"``: a close,
        an open, client seeds, in that order), then the roll number it took."""
        info = data.get("sitting")
        if isinstance(info, Mapping):
            if isinstance(info.get("close"), Mapping):
                self.open, self.server_seed, self.clients = False, None, {}
            opening = info.get("open")
            if isinstance(opening, Mapping):
                secret = info.get("secret")
                seed = secret.get("server_seed") if isinstance(secret, Mapping) else None
                self.number = int(opening.get("number", self.number + 1))
                self.open, self.hash, self.rolls, self.opened_at = (
                    True, str(opening.get("server_hash", "")), 0, seq)
                self.server_seed = seed if isinstance(seed, str) else None
                self.clients = {}
                self.fixed = opening.get("v") in FIXED_VERSIONS
                self.pending = {}
                if self.committed_for == self.number:  # taken (or withdrawn) here
                    self.committed, self.committed_for = "", 0
            clients = info.get("clients")
            if isinstance(clients, Mapping) and self.open:
                self.clients.update({str(k): str(v) for k, v in clients.items()})
            commit = info.get("commit")
            if isinstance(commit, Mapping):
                self.committed = str(commit.get("server_hash", ""))
                self.committed_for = int(commit.get("number", self.next_number))
            coming = info.get("next")
            if isinstance(coming, Mapping):
                self.pending.update({str(k): str(v) for k, v in coming.items()})
        fair = data.get("fair")
        if self.open and isinstance(fair, Mapping) and type(fair.get("n")) is int:
            self.rolls = max(self.rolls, int(fair["n"]))

    def news(self, seat: str, client_seed: str, server_seed: str | None = None,
             commit_seed: str | None = None
             ) -> tuple[SittingState, dict[str, Any] | None]:
        """Before a roll of ``seat``: the state to derive it from, and the news the roll's
        event must carry (a sitting opened, the seat's client seed), or ``None`` when
        there is none. ``server_seed``: with no sitting open, the seed the next one opens
        with: the one committed for it (as the store keeps it), else a fresh one; with one
        open, its seed as the store keeps it (checked against the published hash), unless
        the log itself holds it (an older sitting). ``commit_seed``: the seed to commit
        the sitting after with, if this roll's news must commit it (else a fresh one).
        ``self`` is not changed (nothing is news until its event is stored).

        An opening's news carries the seeds it draws as ``"secret"`` (``server_seed``: the
        sitting's, ``next_server_seed``: the one it commits the next sitting to) for the
        store only: it keeps them apart from the chained event ([keep_apart][companion.
        store.port.keep_apart]), so no export, log or view holds them until the close.

        - Interpretation (issue 49, the server seed committed first): a sitting opens with
          the seed committed for it, and takes exactly the client seeds set for it after
          that commitment; no seed is added at the opening (the opening seat's device
          seed would be one the host draws knowing the server seed: a free try at every
          roll). A sitting with no commitment (sitting 1, or none set for it) draws its
          seed at its opening and takes the opening seat's device seed with it, drawn at
          the same moment. A committed seed this database does not hold (a campaign
          imported between the commitment and the opening) is withdrawn: the opening says
          so (``"withdrawn": true``), draws a fresh seed and drops the seeds set for it
          (``verify`` names the sitting). Seeds set for the next sitting by an earlier
          version (no commitment before them) open that sitting under its rules (v2)."""
        state = SittingState.from_dict(self.to_dict())
        info: dict[str, Any] = {}
        if not state.open:
            number = state.next_number
            if state.committed and state.committed_for == number and server_seed \
                    and server_hash(server_seed) == state.committed:
                info["open"] = {"number": number, "server_hash": state.committed,
                                "v": SITTING_VERSION}
                if state.pending:
                    info["clients"] = dict(state.pending)
            elif state.legacy:
                server = server_seed or new_server_seed()
                info["open"] = {"number": number, "server_hash": server_hash(server),
                                "v": 2}
                info["secret"] = {"server_seed": server}
                info["clients"] = {seat: client_seed, **state.pending}
            else:
                server = new_server_seed() if state.committed else (
                    server_seed or new_server_seed())
                info["open"] = {"number": number, "server_hash": server_hash(server),
                                "v": SITTING_VERSION}
                if state.committed:
                    info["open"]["withdrawn"] = True
                    state.pending = {}
                info["secret"] = {"server_seed": server}
                info["clients"] = {seat: client_seed}
            state.apply(0, "", {"sitting": info})
            state.server_seed = str(server_seed if "secret" not in info
                                    else info["secret"]["server_seed"])
            if seat not in state.clients:
                # The opening seat has no seed in this sitting: it offers one for the
                # next, after committing that one's seed (issue 49).
                extra = state.offer(seat, new_client_seed(), commit_seed)
                state.apply(0, "", {"sitting": extra})
                secret = {**info.get("secret", {}), **extra.pop("secret", {})}
                info.update(extra)
                if secret:
                    info["secret"] = secret
            return state, info
        state.server_seed = state.open_seed(server_seed)
        if not state.fixed and state.clients.get(seat) != client_seed:
            info["clients"] = {seat: client_seed}  # an older sitting, still open
        elif state.fixed and seat not in state.clients and seat not in state.pending:
            # A seat with no client seed in this sitting offers one for the next: it
            # is published after the next server seed is committed.
            info = state.offer(seat, client_seed, commit_seed)
        if info:
            seed = state.server_seed
            state.apply(0, "", {"sitting": info})
            state.server_seed = seed
        return state, info or None

    def offer(self, seat: str, seed: str, commit_seed: str | None = None
              ) -> dict[str, Any]:
        """The news that publishes ``seed`` as ``seat``'s client seed for the next
        sitting: first, if none is committed yet, that sitting's server seed's hash
        (``"commit"``; the seed itself in ``"secret"``, kept apart by the store), so the
        server seed exists before the client seed is public (issue 49). Seeds already
        set under an earlier version's rules get no commitment (see ``legacy``)."""
        info: dict[str, Any] = {}
        if not self.committed and not self.pending:
            server = commit_seed or new_server_seed()
            info["commit"] = {"number": self.next_number, "server_hash": server_hash(server)}
            info["secret"] = {"next_server_seed": server}
        info["next"] = {seat: seed}
        return info

    def open_seed(self, kept: str | None) -> str:
        """The open sitting's server seed: the one its log holds (a sitting opened by an
        earlier version, which kept it in the opening's data), else ``kept``, the one
        the store keeps apart, if it hashes to the published hash."""
        if self.server_seed is not None:
            return self.server_seed
        if kept is not None and server_hash(kept) == self.hash:
            return kept
        raise SittingError(f"sitting {self.number} is open but its server seed is not in "
                           "this database (it stays in the one where the sitting opened): "
                           "its rolls cannot be derived here; close the sitting there")

    def to_dict(self) -> dict[str, Any]:
        """The state as a campaign's snapshot keeps it. Its ``server_seed`` is set only
        for a sitting opened by an earlier version, whose log holds the seed anyway;
        since issue 49 the store keeps it apart, and a snapshot never holds it."""
        return {"number": self.number, "open": self.open, "hash": self.hash,
                "server_seed": self.server_seed, "clients": dict(self.clients),
                "rolls": self.rolls, "opened_at": self.opened_at, "fixed": self.fixed,
                "pending": dict(self.pending), "committed": self.committed,
                "committed_for": self.committed_for}

    @classmethod
    def from_dict(cls, saved: Any) -> SittingState:
        """A snapshot's sitting state (none saved: no sitting yet)."""
        if not isinstance(saved, Mapping):
            return cls()
        seed = saved.get("server_seed")
        return cls(int(saved.get("number", 0)), bool(saved.get("open", False)),
                   str(saved.get("hash", "")), seed if isinstance(seed, str) else None,
                   {str(k): str(v) for k, v in dict(saved.get("clients") or {}).items()},
                   int(saved.get("rolls", 0)), int(saved.get("opened_at", 0)),
                   bool(saved.get("fixed", False)),
                   {str(k): str(v) for k, v in dict(saved.get("pending") or {}).items()},
                   str(saved.get("committed", "")), int(saved.get("committed_for", 0)))

    def tag(self, n: int) -> dict[str, Any]:
        """What roll ``n``'s entry records (``"fair"``)."""
        return {"sitting": self.number, "n": n, "clients": clients_digest(self.clients)}

    def seed(self, n: int) -> int:
        """The seed of roll ``n`` (the server's: it holds the secret)."""
        if not self.open or self.server_seed is None:
            raise SittingError("no sitting is open on this screen (its server seed is not "
                               "known here)")
        return roll_seed(self.server_seed, self.clients, n)


# -- checking a log ------------------------------------------------------------------------


@dataclass
class _Sitting:
    number: int
    opened: int
    hash: str
    clients: dict[str, str] = field(default_factory=dict)
    #: Rolls to check once the seed is out: (entry, n, clients at the roll, digest
    #: recorded, seed logged or None for a hidden roll not revealed yet, what it is).
    rolls: list[tuple[int, int, dict[str, str], Any, int | None]] = field(
        default_factory=list)
    numbers: set[int] = field(default_factory=set)
    server_seed: str | None = None
    closed: int = 0
    hidden: dict[int, tuple[int, dict[str, str]]] = field(default_factory=dict)
    fixed: bool = False  # its client seeds fixed at its opening (FIXED_VERSIONS)
    committed: int = 0  # the entry that committed its server seed before it opened
    v3: bool = False  # opened under the rules that commit the server seed first


class FairCheck:
    """The sitting half of [verify][companion.fairplay.verify]: follows the ``sitting``
    events and every roll that says its number, and checks each roll's seed once its
    sitting's server seed is published (one line naming the first entry that does not
    hold). [LogVerifier][companion.fairplay.LogVerifier] feeds it."""

    def __init__(self) -> None:
        self.sittings: dict[int, _Sitting] = {}
        self.current: _Sitting | None = None
        self.began = 0  # the first sitting event's entry (0: none yet)
        self.before = 0  # rolls with a seed logged before the first sitting
        self.derived = 0  # rolls whose seed was recomputed and holds
        self.chosen = 0  # seeds a GM typed
        self.given = 0  # seeds a program gave and the log says so
        self.own = 0  # real dice
        self.unrevealed = 0  # hidden rolls of closed sittings with no revealed seed
        self.where: dict[int, int] = {}  # hidden roll entry -> its sitting
        #: Hidden rolls with no roll number: their reveal must show real dice (or, before
        #: the first sitting, any seed).
        self.loose_hidden: dict[int, bool] = {}
        #: Client seeds set for the next sitting (seat -> (seed, entry)), and every seed
        #: each seat used in a sitting (seed -> the sitting), to hold them fresh.
        self.pending: dict[str, tuple[str, int]] = {}
        self.used: dict[tuple[str, str], int] = {}
        #: The next sitting's commitment (its number, server seed's hash, entry), and the
        #: first entry of the rules that commit the server seed first (issue 49: from
        #: there on every client seed needs its sitting's commitment before it).
        self.commitment: tuple[int, str, int] | None = None
        self.committing = 0
        self.withdrawn: list[str] = []

    def news(self, seq: int, info: Any) -> None:
        """The sitting news an entry carries (its ``"sitting"``): a close, an open, client
        seeds, in that order."""
        if info is None:
            return
        if not isinstance(info, Mapping):
            raise SittingError(f"entry {seq}: its sitting news is not an object")
        self.began = self.began or seq
        close = info.get("close")
        if close is not None:
            self._close(seq, close)
        opening = info.get("open")
        if opening is not None:
            self._open(seq, opening)
        clients = info.get("clients")
        if clients is not None:
            sitting = self.current
            if sitting is None:
                raise SittingError(f"entry {seq}: a client seed with no sitting open")
            _check_clients(seq, clients)
            if sitting.fixed:
                self._fixed_clients(seq, sitting, clients, opening is not None)
            sitting.clients.update(clients)
        elif opening is not None and self.current is not None and self.current.fixed:
            self._fixed_clients(seq, self.current, {}, True)
        commit = info.get("commit")
        if commit is not None:
            self._commit(seq, commit)
        coming = info.get("next")
        if coming is not None:
            _check_clients(seq, coming)
            number = self._next_number()
            if self.committing and (self.commitment is None
                                    or self.commitment[0] != number):
                seat = next(iter(coming), "")
                raise SittingError(f"entry {seq}: the client seed of {clipped(seat, 40)} "
                                   f"for sitting {number} is published before that "
                                   "sitting's server seed was committed: the host could "
                                   "draw the server seed after seeing it")
            self.pending.update({k: (v, seq) for k, v in coming.items()})

    def _next_number(self) -> int:
        """The number of the sitting the next opening opens."""
        return max(self.sittings, default=0) + 1

    def _commit(self, seq: int, commit: Any) -> None:
        """The next sitting's server seed committed (its hash) before any client seed for
        it is published (issue 49)."""
        number = commit.get("number") if isinstance(commit, Mapping) else None
        digest = commit.get("server_hash") if isinstance(commit, Mapping) else None
        if number != self._next_number():
            raise SittingError(f"entry {seq}: commits the server seed of sitting "
                               f"{clipped(repr(number), 20)}, which is not the next "
                               "sitting")
        if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
            raise SittingError(f"entry {seq}: commits sitting {number}'s server seed with "
                               "no hash (64 hex digits)")
        if self.commitment is not None:
            raise SittingError(f"entry {seq}: commits sitting {number}'s server seed again "
                               f"(it was committed in entry {self.commitment[2]}): the "
                               "host could draw it again after seeing the client seeds")
        self.commitment = (number, digest, seq)
        self.committing = self.committing or seq

    def _fixed_clients(self, seq: int, sitting: _Sitting, clients: Mapping[str, str],
                       opening: bool) -> None:
        """A sitting of this version's rules: its client seeds all in its opening, each
        set for it there, none a seat used in a sitting before (issue 49: a GM who reads
        the server seed could otherwise pick a client seed that aims the next roll)."""
        if not opening:
            raise SittingError(f"entry {seq}: a client seed published after sitting "
                               f"{sitting.number} opened (entry {sitting.opened}): its "
                               "client seeds are fixed at its opening")
        if sitting.committed:
            # Committed first: every client seed set for it after the commitment, none
            # added at the opening (the host knows the server seed by then).
            for seat, seed in clients.items():
                set_at = self.pending.get(seat)
                if set_at is None or set_at[0] != seed:
                    raise SittingError(
                        f"entry {seq}: sitting {sitting.number} opens with a client seed "
                        f"of {clipped(seat, 40)} not set for it after its server seed was "
                        f"committed (entry {sitting.committed}): the host could pick it "
                        "knowing the server seed")
                if set_at[1] < sitting.committed:
                    raise SittingError(
                        f"entry {seq}: the client seed of {clipped(seat, 40)} for sitting "
                        f"{sitting.number} was published in entry {set_at[1]}, before its "
                        f"server seed was committed (entry {sitting.committed}): the host "
                        "could draw the server seed after seeing it")
        elif sitting.v3 and self.pending:
            seat, (_, where) = next(iter(self.pending.items()))
            raise SittingError(f"entry {seq}: the client seed of {clipped(seat, 40)} for "
                               f"sitting {sitting.number} was published in entry {where}, "
                               "before its server seed was committed (it opens drawing a "
                               "new one): the host could draw the server seed after "
                               "seeing it")
        for seat, (seed, where) in self.pending.items():
            if clients.get(seat) != seed:
                raise SittingError(f"entry {seq}: sitting {sitting.number} opens without "
                                   f"the client seed {clipped(seat, 40)} set for it "
                                   f"(entry {where})")
        self.pending = {}
        for seat, seed in clients.items():
            before = self.used.get((seat, seed))
            if before is not None:
                raise SittingError(f"entry {seq}: the client seed of {clipped(seat, 40)} "
                                   f"in sitting {sitting.number} is the one it had in "
                                   f"sitting {before}: client seeds are fresh for each "
                                   "sitting")

    def _open(self, seq: int, opening: Any) -> None:
        number = opening.get("number") if isinstance(opening, Mapping) else None
        if type(number) is not int or number < 1:
            raise SittingError(f"entry {seq}: a sitting opens with no number")
        if self.current is not None:
            raise SittingError(f"entry {seq} opens sitting {number} while sitting "
                               f"{self.current.number} is open")
        if number in self.sittings or (self.sittings and number != max(self.sittings) + 1):
            raise SittingError(f"entry {seq} opens sitting {number} out of turn")
        digest = opening.get("server_hash")
        if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
            raise SittingError(f"entry {seq}: sitting {number} opens with no server seed's "
                               "hash (64 hex digits)")
        version = opening.get("v")
        committed = 0
        if version == SITTING_VERSION:
            self.committing = self.committing or seq
            promised, self.commitment = self.commitment, None
            if promised is not None and opening.get("withdrawn") is True:
                # The committed seed was not in the database the sitting opened in (a
                # campaign imported meanwhile): a fresh seed, the seeds set dropped.
                dropped = len(self.pending)
                self.pending = {}
                self.withdrawn.append(
                    f"sitting {number} (entry {seq}) opened with a new server seed, not "
                    f"the one committed in entry {promised[2]} (withdrawn: not in the "
                    f"database it opened in); {dropped} client seed"
                    f"{'s' if dropped != 1 else ''} set for it dropped")
            elif promised is not None:
                if promised[1] != digest:
                    raise SittingError(
                        f"entry {seq}: sitting {number} opens with a server seed whose "
                        "hash is not the one committed for it in entry "
                        f"{promised[2]}: the server seed was drawn again after the client "
                        "seeds were published")
                committed = promised[2]
        elif self.committing:
            raise SittingError(f"entry {seq}: sitting {number} opens under the rules before "
                               "server seeds were committed first, after the log began "
                               f"committing them (entry {self.committing}): its server "
                               "seed could be drawn after seeing its client seeds")
        self.current = self.sittings[number] = _Sitting(
            number, seq, digest, fixed=version in FIXED_VERSIONS, committed=committed,
            v3=version == SITTING_VERSION)

    def _close(self, seq: int, close: Any) -> None:
        number = close.get("number") if isinstance(close, Mapping) else None
        sitting = self.current
        if sitting is None or sitting.number != number:
            raise SittingError(f"entry {seq} closes sitting {number}, which is not open")
        seed = close.get("server_seed")
        if not isinstance(seed, str) or not _HEX64.fullmatch(seed):
            raise SittingError(f"entry {seq}: sitting {number} closes with no server seed "
                               "(64 hex digits)")
        if server_hash(seed) != sitting.hash:
            raise SittingError(f"entry {seq}: the server seed revealed for sitting {number} "
                               "is not the one whose hash was published when it opened "
                               f"(entry {sitting.opened}): the server seed was changed")
        sitting.server_seed, sitting.closed = seed, seq
        self._check_sitting(sitting)  # a number skipped inside it, then every seed
        for seat, client in sitting.clients.items():
            self.used.setdefault((seat, client), number)
        rolls, last = close.get("rolls"), max(sitting.numbers, default=0)
        if type(rolls) is not int or rolls != last:
            # Issue 49: the close commits how many rolls the sitting numbered, so a roll
            # deleted from its end (and the log rechained) is named, not passed over.
            raise SittingError(f"entry {seq}: sitting {number} closes after "
                               f"{clipped(repr(rolls), 20)} rolls, but the log holds its "
                               f"rolls up to number {last}: a roll was dropped or added")
        self.current = None

    def roll(self, seq: int, fair: Any, seed: Any, *, chosen: bool = False,
             physical: bool = False, hidden: bool = False, given: bool = False) -> None:
        """A roll or a move that rolled: ``fair`` its entry's record (or ``None``),
        ``seed`` the seed it shows (``None`` for a hidden roll)."""
        if physical:
            self.own += 1
            return
        if fair is None:
            if seed is None and not hidden:
                return
            if given:
                # A seed the program says it gave (a page's own source, code): said in
                # the log and counted apart, never passed off as derived.
                self.given += 1
                return
            if hidden and not chosen:
                # Real dice or a seed not derived: the reveal (or the GM's export) says.
                self.loose_hidden[seq] = bool(self.began)
                return
            if chosen:
                self.chosen += 1
            elif self.began:
                raise SittingError(f"entry {seq}: a roll with a seed that is not its "
                                   "sitting's (no roll number): the seed was picked, not "
                                   "derived")
            else:
                self.before += 1
            return
        sitting = self.current
        if not isinstance(fair, Mapping) or type(fair.get("n")) is not int \
                or type(fair.get("sitting")) is not int:
            raise SittingError(f"entry {seq}: its roll number is not a number")
        if sitting is None or sitting.number != fair["sitting"]:
            raise SittingError(f"entry {seq}: a roll of sitting {fair['sitting']}, which is "
                               "not open there")
        n = int(fair["n"])
        if n < 1 or n in sitting.numbers:
            raise SittingError(f"entry {seq}: roll number {n} of sitting {sitting.number} "
                               "is used twice (a roll made again with a seed already seen)")
        sitting.numbers.add(n)
        clients = dict(sitting.clients)
        if fair.get("clients") != clients_digest(clients):
            raise SittingError(f"entry {seq}: the client seeds published before it are not "
                               "the ones it was rolled with: a client seed was changed "
                               "after the roll")
        if hidden and seed is None:
            sitting.hidden[seq] = (n, clients)
            self.where[seq] = sitting.number
            return
        sitting.rolls.append((seq, n, clients, None, seed))

    def revealed(self, entry: int, seed: Any, where: str, *, physical: bool = False) -> None:
        """A hidden roll's seed, revealed (or in the GM's export): checked against its
        number once its sitting's seed is out."""
        if entry in self.loose_hidden:
            in_sitting = self.loose_hidden.pop(entry)
            if physical:
                self.own += 1
            elif in_sitting:
                raise SittingError(f"{where}: a hidden roll with a seed that is not its "
                                   "sitting's (no roll number): the seed was picked, not "
                                   "derived")
            else:
                self.before += 1
            return
        number = self.where.pop(entry, None)  # checked once (the export's secret, or
        if number is None:                   # its reveal: the same seed, by commitment)
            return
        sitting = self.sittings[number]
        n, clients = sitting.hidden.pop(entry)
        if sitting.server_seed is None:
            sitting.rolls.append((entry, n, clients, where, seed))
        else:
            self._check_one(sitting, entry, n, clients, seed, where)

    def _check_sitting(self, sitting: _Sitting) -> None:
        numbers = sorted(sitting.numbers)
        if numbers and numbers[-1] != len(numbers):
            missing = next(i for i in range(1, numbers[-1] + 1) if i not in sitting.numbers)
            raise SittingError(f"sitting {sitting.number}: roll number {missing} is missing "
                               "(a roll was made and not logged: a seed skipped)")
        for entry, n, clients, where, seed in sitting.rolls:
            self._check_one(sitting, entry, n, clients, seed, where)
        sitting.rolls.clear()

    def _check_one(self, sitting: _Sitting, entry: int, n: int, clients: dict[str, str],
                   seed: Any, where: Any) -> None:
        assert sitting.server_seed is not None
        want = roll_seed(sitting.server_seed, clients, n)
        if seed != want:
            name = where or f"entry {entry}"
            raise SittingError(f"{name}: its seed {seed} is not the one roll {n} of sitting "
                               f"{sitting.number} gets from the published seeds ({want}): "
                               "the seed was picked, not derived")
        self.derived += 1

    def finish(self) -> list[str]:
        """The sittings' report lines: each sitting never closed, rolls before the scheme."""
        lines = []
        for sitting in self.sittings.values():
            if sitting.server_seed is None:
                lines.append(f"sitting {sitting.number} (from entry {sitting.opened}) is not "
                             "closed: its seeds cannot be checked yet")
            else:
                self.unrevealed += len(sitting.hidden)
        if self.derived:
            lines.insert(0, f"{self.derived} seed{'s' if self.derived != 1 else ''} "
                         "recomputed from the sittings' published seeds")
        if self.unrevealed:
            lines.append(f"{self.unrevealed} hidden roll{'s' if self.unrevealed != 1 else ''}"
                         " of closed sittings not revealed (their seeds are known, not "
                         "their dice)")
        if self.before:
            lines.append(f"{self.before} roll{'s' if self.before != 1 else ''} before "
                         "provably fair seeds (checked against their own seeds)")
        if self.chosen:
            lines.append(f"{self.chosen} seed{'s' if self.chosen != 1 else ''} chosen by "
                         "the GM, not derived (not provably fair)")
        if self.given:
            lines.append(f"{self.given} seed{'s' if self.given != 1 else ''} given by the "
                         "program, not derived (not provably fair)")
        if self.own:
            lines.append(f"{self.own} roll{'s' if self.own != 1 else ''} with the "
                         "player's own dice")
        lines.extend(self.withdrawn)
        return lines


def _check_clients(seq: int, clients: Any) -> None:
    if not isinstance(clients, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) and _CLIENT.fullmatch(v)
            for k, v in clients.items()):
        raise SittingError(f"entry {seq}: a client seed that is not one (a seat's name "
                           "and 1 to 64 visible characters)")


def summary(info: Any) -> str:
    """The log's words for the sitting news an entry carries (``""`` for none)."""
    if not isinstance(info, Mapping):
        return ""
    parts = []
    close = info.get("close")
    if isinstance(close, Mapping):
        parts.append(f"sitting {close.get('number')} closes after {close.get('rolls', '?')} "
                     f"rolls: server seed {close.get('server_seed', '')}")
    opening = info.get("open")
    if isinstance(opening, Mapping):
        parts.append(f"sitting {opening.get('number')} opens: server seed committed "
                     f"(SHA-256 {str(opening.get('server_hash', ''))[:16]}…)")
    clients = info.get("clients")
    if isinstance(clients, Mapping):
        parts.extend(f"client seed of {seat}: {seed}" for seat, seed in clients.items())
    commit = info.get("commit")
    if isinstance(commit, Mapping):
        parts.append(f"sitting {commit.get('number')}'s server seed committed (SHA-256 "
                     f"{str(commit.get('server_hash', ''))[:16]}…)")
    coming = info.get("next")
    if isinstance(coming, Mapping):
        parts.extend(f"client seed of {seat} for the next sitting: {seed}"
                     for seat, seed in coming.items())
    return "; ".join(parts)
