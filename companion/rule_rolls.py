"""Rule rolls that move no tracker, made again from the log alone.

A rule roll that moves a tracker is checked by making its moves again
([companion.store.recompute][]). A rule roll that moves none (a hidden Plot Points check,
a Monsters & Magic check with no adventurer, a 5e contest) leaves nothing in the log but
its seed and the app's text, so ``verify`` could check only the seed. This registry closes
that gap: a ruleset **declares** each such rule once, by a dotted name
(``"plot_points.checks.check"``: the ruleset, the module that declares it, the
rule), as a function of JSON arguments and a ``random.Random``, with
the result fields that say what it gave (a total, a success). An app rolls it through a
[RuleCall][companion.rule_rolls.RuleCall] (the name and its arguments), and the roll's
entry records ``"call": {"name", "args", "result", "lead"}``; ``verify`` calls the same
rule with the same arguments and the entry's seed, and compares every result field and
the text ([remake][companion.rule_rolls.remake]). A changed total, outcome or text is
refused in one line naming the entry.

- The record is outside a hidden roll's commitment (like a table's id): it rides in the
  secret and comes out with the reveal; a changed record only makes the check fail.
- ``lead``: the words an app puts before the rule's own text (``"Ann: "``); the text
  logged is ``lead`` followed by the rule's text of its value, compared whole.
- A name says where its rule is declared (``companion.rulesets.plot_points.checks``),
  imported on first use, so a verifier finds every rule without a list of them here.
- Old entries (no ``"call"``) keep the seed check, and ``verify`` says so.

>>> from companion import rule_rolls
>>> call = rule_rolls.RuleCall("plot_points.checks.check", {"ability": "average",
...     "proficiency": 2, "advantage": 0, "difficulty": 12}, lead="Ann: ")
>>> from companion.dice.roller import SeededRandom
>>> value = call(SeededRandom(7))
>>> record = call.record(value)
>>> rule_rolls.remake(record, 7, call.text(value)) is None
True
"""

from __future__ import annotations

import contextlib
import importlib
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.errors import CompanionError, clipped

__all__ = ["RuleCall", "RuleFunction", "RuleRollError", "declare", "get", "remake"]


class RuleRollError(CompanionError):
    """A rule roll's record that cannot be made again, or gives another result."""


@dataclass(frozen=True)
class RuleFunction:
    """A declared rule: ``roll(args, rng)`` gives a value, ``result(value)`` its result
    fields (JSON), ``text(value)`` the rule's own wording of it."""

    name: str
    roll: Callable[[dict[str, Any], random.Random], Any]
    result: Callable[[Any], dict[str, Any]]
    text: Callable[[Any], str] = str


_RULES: dict[str, RuleFunction] = {}


def declare(name: str, roll: Callable[[dict[str, Any], random.Random], Any],
            result: Callable[[Any], dict[str, Any]],
            text: Callable[[Any], str] = str) -> RuleFunction:
    """Declare the rule ``name`` (``"<ruleset>.<module>.<rule>"``, the module declaring
    it), once."""
    parts = name.split(".")
    if len(parts) < 3 or not all(part.isidentifier() for part in parts):
        raise RuleRollError(f"a rule's name is '<ruleset>.<module>.<rule>', not {name!r}")
    known = _RULES.get(name)
    if known is not None and known.roll.__qualname__ != roll.__qualname__:
        # (The same function again is its module imported again: a test's reload.)
        raise RuleRollError(f"rule {name!r} is declared twice")
    rule = RuleFunction(name, roll, result, text)
    _RULES[name] = rule
    return rule


def get(name: str) -> RuleFunction:
    """The rule declared as ``name`` (its ruleset imported on first use)."""
    if not isinstance(name, str):
        raise RuleRollError(f"a rule's name is text, not {type(name).__name__}")
    if name not in _RULES:
        # The name says where it is declared: "<ruleset>.<module>.<rule>" in
        # companion.rulesets.<ruleset>.<module> (a ruleset's own, nothing else).
        where = name.rpartition(".")[0].split(".")
        from companion import rulesets

        if all(part.isidentifier() for part in where) and \
                where[0] in {r.name for r in rulesets.all_rulesets()}:
            # No such module: no such rule (said below).
            with contextlib.suppress(ImportError):
                importlib.import_module("companion.rulesets." + ".".join(where))
    rule = _RULES.get(name)
    if rule is None:
        raise RuleRollError(f"no rule is declared as {clipped(name, 40)!r}")
    return rule


def _json_args(args: Any) -> dict[str, Any]:
    """``args`` as the log will hold them (a JSON object that reads back the same)."""
    if not isinstance(args, dict):
        raise RuleRollError(f"a rule's arguments are an object, not {type(args).__name__}")
    try:
        back = json.loads(json.dumps(args, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise RuleRollError(f"a rule's arguments are not JSON: {clipped(str(exc), 60)}"
                            ) from None
    if back != args:
        raise RuleRollError("a rule's arguments do not read back the same from JSON")
    return dict(back)


@dataclass(frozen=True)
class RuleCall:
    """A declared rule with its arguments: called with the roll's ``rng`` it rolls (an
    ``action`` for [Session.rule_roll][companion.table.session.Session.rule_roll], which
    records it in the roll's entry). ``lead``: the app's words before the rule's text."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    lead: str = ""

    def __post_init__(self) -> None:
        get(self.name)  # an unknown rule is refused before anything rolls
        object.__setattr__(self, "args", _json_args(self.args))
        if not isinstance(self.lead, str):
            raise RuleRollError(f"a rule's lead is text, not {type(self.lead).__name__}")

    def __call__(self, rng: random.Random) -> Any:
        rule = get(self.name)
        try:
            return rule.roll(dict(self.args), rng)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # Arguments from a wire are anyone's: a field missing or of the wrong kind is
            # a one-line refusal naming the rule, never a traceback (a rule's own
            # refusals are CompanionErrors and pass as they are).
            what = f"no {exc.args[0]!r}" if isinstance(exc, KeyError) and exc.args else \
                clipped(str(exc), 60)
            raise RuleRollError(f"rule {rule.name} refuses its arguments ({what})") from None

    def text(self, value: Any) -> str:
        """The line the roll logs: the lead, then the rule's text of ``value``."""
        return self.lead + get(self.name).text(value)

    def record(self, value: Any) -> dict[str, Any]:
        """What the roll's entry records (``"call"``): the rule, its arguments, the result
        fields of ``value`` and the lead."""
        out: dict[str, Any] = {"name": self.name, "args": dict(self.args),
                               "result": _json_args(get(self.name).result(value))}
        if self.lead:
            out["lead"] = self.lead
        return out


def remake(record: Any, seed: int, text: Any) -> None:
    """Call the recorded rule again with its arguments and ``seed`` (a
    ``SeededRandom(seed)``, as the roll had) and compare its result fields and ``text``
    with the entry's; a difference raises [RuleRollError][companion.rule_rolls.RuleRollError]
    saying which field (the caller names the entry)."""
    from companion.dice.roller import SeededRandom

    if not isinstance(record, dict):
        raise RuleRollError("its rule record is not an object")
    name, args, stored = record.get("name"), record.get("args"), record.get("result")
    lead = record.get("lead", "")
    if not isinstance(stored, dict) or not isinstance(args, dict) or \
            not isinstance(lead, str):
        raise RuleRollError("its rule record lacks its arguments or result")
    try:
        rule = get(str(name))
    except RuleRollError:
        raise RuleRollError(f"it says it was rolled by rule {clipped(str(name), 40)!r}, "
                            "which this version does not declare: it cannot be made "
                            "again") from None
    try:
        value = rule.roll(dict(args), SeededRandom(seed))
        made = _json_args(rule.result(value))
        said = lead + rule.text(value)
    except (CompanionError, KeyError, TypeError, ValueError) as exc:
        raise RuleRollError(f"rule {rule.name} refuses its arguments "
                            f"({clipped(str(exc), 60)})") from None
    for key in sorted(made.keys() | stored.keys(), key=str):
        # Compared as JSON: ``true`` is not ``1``, a field missing is not ``null``.
        if key not in made or key not in stored or \
                _same_json(made[key]) != _same_json(stored[key]):
            raise RuleRollError(
                f"made again by rule {rule.name} with seed {seed}, its {key} is "
                f"{clipped(json.dumps(made.get(key)), 30)}, the log says "
                f"{clipped(json.dumps(stored.get(key)), 30)}: it was changed")
    if said != text:
        raise RuleRollError(f"made again by rule {rule.name} with seed {seed}, it reads "
                            f"{clipped(said, 50)!r}, not the text logged: it was changed")


def _same_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
