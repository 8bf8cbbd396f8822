"""The lockpicking minigame and creating locks.

Picking a lock needs lockpicks and the right three actions in the right order: **tap
(T)**, **probe (P)** or **rake (R)**, one per tumbler, never the same action twice in a
row. Every lock of a type opens the same way, and once a type's sequence is set it never
changes, so solving one lock teaches the character all locks of that type.

A wrong action makes the lock **stiff** until it is opened; a wrong action on a stiff lock
**jams** it for good: it must be broken off or destroyed (loud, messy, obvious). Each full
attempt is one exploration turn; a character may also spend a turn studying the lock (a
skill test) to learn its next action. A failed study of a stiff lock jams it too.

The referee creates a lock with 3d12, one die per column: type (and its DV),
sequence, complication (``cairn_lock_type``, ``cairn_lock_sequence``,
``cairn_lock_complication``). Complications: *cracked* (the first
tumbler takes any action), *worn* (the first jam is ignored), *reinforced* (two attacks
to break it off), *delicate* (the first mistake jams it), *trapped* (every mistake
springs a trap: STR or DEX damage), *alarmed* (the first mistake summons guardians).

**The lock book.** Once a lock type has a sequence, it is that type's sequence for good:
the referee's [LockBook][companion.rulesets.cairn_srd.lockpicking.LockBook] (kept by the
campaign) records each type's sequence the first time the type is rolled, whether that
lock is then opened, jammed or broken off, and the types the party has solved. A later
lock of a recorded type takes the recorded sequence, whatever the sequence die shows.

Interpretation: a type's sequence is "assigned" when a lock of that type is first rolled
(not only when one is solved), so a jammed or broken-off lock still fixes it.

Interpretation: actions are tried one tumbler at a time; a correct action opens the
tumbler, a mistake ends the attempt (the turn) and the pins fall back to the first
tumbler. A *worn* lock's ignored jam leaves it stiff. Breaking off takes one attack (two
if reinforced).

Interpretation: "a failure on a stiff lock" is a failed study (the skill test) of a lock
already stiff; it jams the lock as a wrong action would, and a *worn* lock ignores it if it
is its first jam. A failed study of a lock that is not stiff costs only the turn. A failed
study is no wrong action: it springs no trap, sounds no alarm and does not count as a
*delicate* lock's first mistake.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion import tables
from companion.dice.roller import make_rng
from companion.errors import RuleError
from companion.rulesets.cairn_srd.fixed_tables import rows
from companion.rulesets.cairn_srd.skills import SkillResult, check_modifier, skill_test
from companion.state import Tracker, move, state_field

ACTIONS = {"T": "tap", "P": "probe", "R": "rake"}
LOCK_TABLES = ("cairn_lock_type", "cairn_lock_sequence", "cairn_lock_complication")
"""The three d12 columns rolled to create a lock, in the order they are rolled."""


def complications() -> dict[str, str]:
    """Each complication and its effect (table ``cairn_lock_complication``)."""
    return dict(zip(rows("cairn_lock_complication", "Complication"),
                    rows("cairn_lock_complication", "Effect"), strict=True))


@dataclass
class LockPicking(Tracker):
    """One lock being picked, plus the sequences the party has learned (the lock book)."""

    lock_type: str = state_field("Crude", max_len=40)
    dv: int = state_field(0, min=0, max=20)
    sequence: str = "TPT"
    complication: str = "None"
    progress: int = state_field(0, min=0, max=3)
    stiff: bool = False
    jammed: bool = False
    opened: bool = False
    broken: bool = False
    mistakes: int = state_field(0, min=0)
    jam_ignored: bool = False
    alarm: bool = False
    traps_sprung: int = state_field(0, min=0)
    turns: int = state_field(0, min=0)
    attacks: int = state_field(0, min=0)
    revealed: int = state_field(0, min=0, max=3)
    known: dict[str, str] = state_field(default_factory=dict, max_len=12)
    assigned: dict[str, str] = state_field(default_factory=dict, max_len=12)
    """Every lock type's sequence fixed so far (solved or not): permanent."""

    def check_state(self) -> None:
        from companion.errors import StateError

        if len(self.sequence) != 3 or any(a not in ACTIONS for a in self.sequence):
            raise StateError("field 'sequence' must be three of T, P, R")
        if any(a == b for a, b in zip(self.sequence, self.sequence[1:], strict=False)):
            raise StateError("field 'sequence' repeats an action on neighbouring tumblers")
        if self.complication not in complications():
            raise StateError(f"field 'complication' is unknown: “{self.complication}”")
        types = dict(zip(rows("cairn_lock_type", "Lock type"), rows("cairn_lock_type", "DV"),
                         strict=True))
        if types.get(self.lock_type) != str(self.dv):
            raise StateError(f"field 'lock_type': no “{self.lock_type}” lock of DV {self.dv} "
                             "on the lock table")
        for name in ("known", "assigned"):
            for kind, seq in getattr(self, name).items():
                if kind not in types or len(seq) != 3 or any(a not in ACTIONS for a in seq):
                    raise StateError(f"field '{name}.{kind}': a lock type and three of T, P, R")
        for kind, seq in self.known.items():
            if self.assigned.get(kind, seq) != seq:
                raise StateError(f"field 'known.{kind}': differs from the assigned sequence")
        if self.assigned.get(self.lock_type, self.sequence) != self.sequence:
            raise StateError(f"field 'sequence': {self.lock_type} locks are "
                             f"{self.assigned[self.lock_type]} for good")
        if self.opened and (self.progress != 3 or self.broken):
            raise StateError("field 'opened': an open lock has all three tumblers turned")
        if self.revealed > 3 or self.progress > 3:
            raise StateError("field 'progress': a lock has three tumblers")

    @property
    def done(self) -> bool:
        return self.opened or self.broken

    @property
    def state(self) -> str:
        """Where the lock stands: open, broken off, jammed, stiff, untouched or picking."""
        if self.opened:
            return "open"
        if self.broken:
            return "broken off"
        if self.jammed:
            return "jammed"
        if self.stiff:
            return "stiff"
        return "untouched" if not self.mistakes else "picking"

    @property
    def can_pick(self) -> bool:
        """Whether tap, probe or rake can be tried (not open, broken off or jammed)."""
        return not (self.opened or self.broken or self.jammed)

    @property
    def can_study(self) -> bool:
        """Whether studying can still teach something (pickable, an action unknown)."""
        return self.can_pick and self.revealed < 3

    @property
    def attacks_needed(self) -> int:
        return 2 if self.complication == "Reinforced" else 1

    @property
    def hint(self) -> str:
        """The actions learned by study, e.g. ``"TP?"``."""
        return self.sequence[: self.revealed] + "?" * (3 - self.revealed)

    @classmethod
    def create(cls, rng: random.Random | None = None, seed: int | None = None,
               known: dict[str, str] | None = None,
               seeds: tuple[int, int, int] | None = None,
               assigned: dict[str, str] | None = None) -> LockPicking:
        """A freshly rolled lock (not a move: nothing to undo before it); ``known`` are the
        solved types, ``assigned`` every type's permanent sequence so far."""
        lock = cls(known=dict(known or {}), assigned={**(known or {}), **(assigned or {})})
        lock._roll(make_rng(seed, rng), seeds)
        return lock

    def _roll(self, r: random.Random, seeds: tuple[int, int, int] | None = None) -> str:
        gens = [r] * 3 if seeds is None else [make_rng(s, None) for s in seeds]
        if len(gens) != len(LOCK_TABLES):
            raise RuleError("Creating Locks: one seed for each of the three d12 columns")
        rolled = [tables.get(t).roll(rng=g) for t, g in zip(LOCK_TABLES, gens, strict=True)]
        type_row, seq_row, comp_row = (res.values for res in rolled)
        t, s, c = (res.roll for res in rolled)
        kind = type_row["Lock type"]
        self.lock_type, self.dv = kind, int(type_row["DV"])
        self.sequence = self.assigned.get(kind, self.known.get(kind, seq_row["Sequence"]))
        fixed = kind in self.assigned
        self.assigned[kind] = self.sequence
        self.complication = comp_row["Complication"]
        self.progress = self.mistakes = self.traps_sprung = self.turns = self.attacks = 0
        self.revealed = 3 if kind in self.known else 0
        self.stiff = self.jammed = self.opened = self.broken = False
        self.jam_ignored = self.alarm = False
        text = (f"3d12 = {t}, {s}, {c}: {kind} lock (DV {self.dv}), "
                f"complication {self.complication}")
        if kind in self.known:
            text += " (type already solved)"
        elif fixed:
            text += " (its sequence is already fixed)"
        return text

    @move
    def new_lock(self, rng: random.Random | None = None, seed: int | None = None,
                 seeds: tuple[int, int, int] | None = None) -> str:
        """Roll 3d12 for a new lock; a type already solved keeps its sequence.

        Each column is a roll on its table
        ([LOCK_TABLES][companion.rulesets.cairn_srd.lockpicking.LOCK_TABLES]). With ``seeds``, each
        table is
        rolled with its own seed, exactly as ``python -m companion table ID --roll --seed S``
        rolls it; otherwise the three come one after another from ``rng`` (or ``seed``).
        """
        text = self._roll(make_rng(seed, rng), seeds)
        self.describe(text)
        return text

    def _can_pick(self) -> None:
        if self.opened:
            raise RuleError("Lockpicking: the lock is already open")
        if self.broken:
            raise RuleError("Lockpicking: the lock was broken off")
        if self.jammed:
            raise RuleError("Lockpicking rule 3: a jammed lock cannot be unlocked; break it off")

    @move
    def pick(self, action: str) -> str:
        """Try ``action`` (T, P or R, or its name) on the next tumbler."""
        self._can_pick()
        key = action.strip().upper()[:1]
        if key not in ACTIONS or action.strip().lower() not in (key.lower(), ACTIONS[key]):
            raise RuleError(
                f"Lockpicking: the actions are tap (T), probe (P), rake (R), not “{action}”")
        first_cracked = self.progress == 0 and self.complication == "Cracked"
        if first_cracked or self.sequence[self.progress] == key:
            self.progress += 1
            if self.progress == 3:
                self.opened, self.turns = True, self.turns + 1
                self.known[self.lock_type] = self.sequence
                text = f"{ACTIONS[key]}: the lock opens ({self.lock_type} locks: {self.sequence})"
            else:
                text = f"{ACTIONS[key]}: tumbler {self.progress} turns"
        else:
            text = f"{ACTIONS[key]}: wrong action; " + self._mistake()
        self.describe(text)
        return text

    def _mistake(self) -> str:
        self.mistakes += 1
        self.turns += 1
        self.progress = 0
        notes = []
        if self.complication == "Trapped":
            self.traps_sprung += 1
            notes.append("a trap springs (STR or DEX damage)")
        if self.complication == "Alarmed" and not self.alarm:
            self.alarm = True
            notes.append("an alarm sounds: guardians come")
        if self.complication == "Delicate" and self.mistakes == 1:
            self.jammed = True
            notes.insert(0, "the delicate lock jams at the first mistake")
        elif not self.stiff:
            self.stiff = True
            notes.insert(0, "the lock goes stiff")
        else:
            notes.insert(0, self._jam())
        return "; ".join(notes)

    def _jam(self) -> str:
        """A stiff lock fails again: it jams, unless it is worn and this is its first jam."""
        if self.complication == "Worn" and not self.jam_ignored:
            self.jam_ignored = True
            return "the worn lock would jam, but holds (still stiff)"
        self.jammed = True
        return "the stiff lock jams"

    @move
    def study(self, have: int = 2, modifier: int = 0, rng: random.Random | None = None,
              seed: int | None = None) -> SkillResult:
        """Spend a turn studying the lock: a skill test that reveals the next action; a
        failure on a stiff lock jams it.

        Interpretation: the lock's DV (from its type) is shown but does not enter the
        study: the seed has the study made "per the Skill Test Procedure", a d6 against 5+
        moved by skill, time and tools (``have``, ``modifier``), which has no DV to meet.
        The DV stays for the referee's own use (a harder lock, a bigger ``modifier``).
        """
        check_modifier(modifier)
        self._can_pick()
        if self.revealed >= 3:
            raise RuleError("Lockpicking: every action of this lock is already known")
        result = skill_test(have, modifier, rng=make_rng(seed, rng))
        self.turns += 1
        jam = ""
        if result.success:
            self.revealed += 1
        elif self.stiff:
            jam = "; " + self._jam()
        self.describe(f"study ({result}): sequence {self.hint}{jam}")
        return result

    @move
    def break_off(self) -> str:
        """Attack the lock (loud, messy, obvious); reinforced locks need two attacks."""
        if self.done:
            raise RuleError("Lockpicking: the lock is already open or broken")
        self.attacks += 1
        if self.attacks >= self.attacks_needed:
            self.broken = True
            text = "the lock is broken off"
        else:
            text = "the reinforced lock holds: one more attack"
        self.describe(text)
        return text


def check_sequence(sequence: str) -> str:
    """A lock sequence in capitals, checked: three of T, P, R, no action twice in a row."""
    seq = sequence.strip().upper()
    if len(seq) != 3 or any(a not in ACTIONS for a in seq):
        raise RuleError(f"Lockpicking: a sequence is three of T, P, R, not “{sequence[:20]}”")
    if seq[0] == seq[1] or seq[1] == seq[2]:
        raise RuleError("Lockpicking rule 1: no two neighbouring tumblers take the same action")
    return seq


def lock_types() -> dict[str, int]:
    """Each lock type and its DV (table ``cairn_lock_type``)."""
    return {t: int(dv) for t, dv in zip(rows("cairn_lock_type", "Lock type"),
                                         rows("cairn_lock_type", "DV"), strict=True)}


@dataclass
class LockBook(Tracker):
    """The campaign's lock book: each lock type's sequence (permanent once assigned) and
    the types the party has solved.

    >>> book = LockBook()
    >>> book.record("Screw", "RPR")
    'Screw locks: RPR'
    >>> book.record("Screw", "TPT")
    Traceback (most recent call last):
    ...
    companion.errors.RuleError: Creating Locks: Screw locks are RPR for good, not TPT
    """

    sequences: dict[str, str] = state_field(default_factory=dict, max_len=12)
    solved: list[str] = state_field(default_factory=list, max_len=12)

    def check_state(self) -> None:
        from companion.errors import StateError

        types = lock_types()
        for kind, seq in self.sequences.items():
            if kind not in types:
                raise StateError(f"field 'sequences': no “{kind[:40]}” lock type")
            try:
                check_sequence(seq)
            except RuleError as exc:
                raise StateError(f"field 'sequences.{kind}': {exc}") from None
        for kind in self.solved:
            if kind not in self.sequences:
                raise StateError(f"field 'solved': {kind[:40]} has no sequence")
        if len(set(self.solved)) != len(self.solved):
            raise StateError("field 'solved': a type is listed twice")

    @move
    def record(self, lock_type: str, sequence: str, solved: bool = False) -> str:
        """Record a type's sequence (refused if it differs from the one already fixed);
        ``solved`` marks the type solved by the party."""
        kind = lock_type.strip().title()
        if kind not in lock_types():
            raise RuleError(f"Creating Locks: no “{lock_type[:40]}” lock type")
        seq = check_sequence(sequence)
        if self.sequences.get(kind, seq) != seq:
            raise RuleError(f"Creating Locks: {kind} locks are {self.sequences[kind]} "
                            f"for good, not {seq}")
        self.sequences[kind] = seq
        if solved and kind not in self.solved:
            self.solved.append(kind)
        text = f"{kind} locks: {seq}" + (" (solved)" if kind in self.solved else "")
        self.describe(text)
        return text

    def new_lock(self, rng: random.Random | None = None, seed: int | None = None,
                 seeds: tuple[int, int, int] | None = None) -> LockPicking:
        """Roll a lock from the book (a recorded type keeps its sequence) and record it."""
        known = {k: self.sequences[k] for k in self.solved}
        lock = LockPicking(known=known, assigned=dict(self.sequences))
        lock.new_lock(rng=rng, seed=seed, seeds=seeds)
        self.record(lock.lock_type, lock.sequence)
        return lock

    def learn(self, lock: LockPicking) -> str:
        """Take what a lock taught into the book: its type's sequence, solved if opened."""
        for kind, seq in lock.assigned.items():
            if self.sequences.get(kind, seq) != seq:
                raise RuleError(f"Creating Locks: {kind} locks are {self.sequences[kind]} "
                                f"for good, not {seq}")
        for kind, seq in lock.assigned.items():
            solved = kind in lock.known or (kind == lock.lock_type and lock.opened)
            if kind not in self.sequences or (solved and kind not in self.solved):
                self.record(kind, seq, solved=solved)
        return "; ".join(self.lines())

    def lines(self) -> list[str]:
        """The book as lines a referee reads, in lock-table order."""
        return [f"{kind} (DV {dv}): {self.sequences[kind]}"
                + (", solved by the party" if kind in self.solved else "")
                for kind, dv in lock_types().items() if kind in self.sequences]
