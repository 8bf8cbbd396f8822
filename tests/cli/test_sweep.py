"""Every subcommand, every option, fed bad input: exit 0 or 2, no traceback, one error line.

The subcommands and their options are discovered from the parser (nothing is listed by
hand). For each leaf command a working command line is found first (from the options'
choices, types and the ``e.g.`` in their help); then each option and positional in turn
gets a missing, empty, wrong-typed, negative, huge, ``--``, ``--opt=--``, very long and
non-UTF-8 value, and the command gets an unknown option and an unexpected argument. The
runs are made by one worker process per test process (``sweep_worker.py --serve``), which
bounds each run's CPU time and the process's memory; a few real subprocess runs check the
locale and raw argv bytes.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion import cli, tables

pytestmark = pytest.mark.timeout(300)

HERE = Path(__file__).parent
#: Seconds one in-process run may take (the cost budgets refuse long before this).
RUN_LIMIT = 4.0
#: Commands that keep data (campaigns) keep it here, never in the player's own files.
SCRATCH = Path(tempfile.mkdtemp(prefix="companion-cli-sweep-"))
atexit.register(shutil.rmtree, SCRATCH, ignore_errors=True)
ENV = {"COMPANION_DB": str(SCRATCH / "campaigns.db"), "XDG_DATA_HOME": str(SCRATCH)}

#: Commands that serve until stopped (``companion app`` would start Voila in place of the
#: sweep's process): every line of theirs carries the option that prints instead of serving.
SERVING = {"app": ["--dry-run"]}

NON_UTF8 = b"\xff\xfe2d6".decode("utf-8", "surrogateescape")
BAD_VALUES: dict[str, list[str]] = {
    "empty": [""],
    "letters": ["abc"],
    "negative": ["-1"],
    "very negative": ["-1000000000"],
    "zero": ["0"],
    "huge": ["1000000000"],
    "enormous": ["9" * 100],
    "too many digits": ["9" * 5000],
    "long text": ["x" * 5000],
    "non-utf8": [NON_UTF8],
    "fullwidth digits": ["\uff11\uff12"],
}


@dataclass
class Leaf:
    """A command that runs (has ``func``): its words, positionals and options."""

    words: list[str]
    parser: argparse.ArgumentParser
    positionals: list[argparse.Action] = field(default_factory=list)
    options: list[argparse.Action] = field(default_factory=list)

    @property
    def name(self) -> str:
        return " ".join(self.words) or "companion"


def _leaves(parser: argparse.ArgumentParser, words: list[str]) -> Iterator[Leaf]:
    leaf = Leaf(words, parser)
    children: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action.choices, dict) and all(
            isinstance(p, argparse.ArgumentParser) for p in action.choices.values()
        ):
            children = dict(action.choices)
        elif action.option_strings:
            if action.nargs != 0 and action.dest != "help":
                leaf.options.append(action)
        else:
            leaf.positionals.append(action)
    yield leaf
    seen: set[int] = set()
    for word, child in children.items():
        if id(child) not in seen:  # aliases share a parser
            seen.add(id(child))
            yield from _leaves(child, [*words, word])


LEAVES = list(_leaves(cli.build_parser(), []))
EXAMPLE = re.compile(r"(?:e\.g\.|one of:|comma-separated:)\s*([\w.+-]+(?:,[\w.+-]+)*)")
#: Every example any help text gives (a sibling command's example often fits).
EXAMPLES = sorted({found for leaf in LEAVES for action in leaf.parser._actions
                   for found in EXAMPLE.findall(action.help or "")})


def _candidates(action: argparse.Action) -> list[str]:
    """Values worth trying as a working value for ``action``, best first."""
    if action.choices:
        return [str(next(iter(action.choices)))]
    found = EXAMPLE.findall(action.help or "")
    if action.type is int:
        return [*found, "3", "1", "10"]
    return [*found, "2d6", tables.all_tables()[0].id, "3", *EXAMPLES]


def _option_argv(action: argparse.Action, value: str) -> list[str]:
    return [action.option_strings[-1], value]


@dataclass
class Plan:
    leaf: Leaf
    positional_values: list[str]
    required: list[str]
    works: bool = False

    def argv(self, positional_values: list[str] | None = None,
             extra: list[str] | None = None) -> list[str]:
        values = self.positional_values if positional_values is None else positional_values
        return [*self.leaf.words, *values, *self.required, *(extra or [])]


def _ok(argv: list[str]) -> bool:
    from contextlib import redirect_stderr, redirect_stdout
    from io import StringIO

    # Only commands that are cheap with ordinary values reach here (the base argv).
    with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
        try:
            return cli.main(argv) == 0
        except SystemExit:
            return False


def _plan(leaf: Leaf) -> Plan:
    required: list[str] = list(SERVING.get(leaf.name, []))
    for action in leaf.options:
        if action.required:
            required += _option_argv(action, _candidates(action)[0])
    values = [_candidates(a)[0] for a in leaf.positionals]
    plan = Plan(leaf, values, required)
    worked: set[tuple[str, ...]] = set()
    for _round in range(2):  # coordinate search: positionals can depend on each other
        for i, action in enumerate(leaf.positionals):
            for candidate in _candidates(action):
                trial = [*values[:i], candidate, *values[i + 1:]]
                if _ok(plan.argv(trial)):
                    worked.add(tuple(plan.argv(trial)))
                    values[i] = candidate
                    break
    # (A command that creates something works once with the same words.)
    plan.works = tuple(plan.argv()) in worked or _ok(plan.argv())
    return plan


def _cases(plan: Plan) -> dict[str, list[str]]:
    leaf = plan.leaf
    cases: dict[str, list[str]] = {
        "working": plan.argv(),
        "help": plan.argv(extra=["-h"]),
        "unknown option": plan.argv(extra=["--no-such-option"]),
        "unknown option=value": plan.argv(extra=["--no-such-option=3"]),
        "unexpected argument": plan.argv(extra=["unexpected"]),
        "bare --": plan.argv(extra=["--"]),
        "-- then junk": plan.argv(extra=["--", "--", "x"]),
        "non-utf8 argument": plan.argv(extra=[NON_UTF8]),
        "nothing after the command": [*leaf.words, *SERVING.get(leaf.name, [])],
    }
    for action in leaf.options:
        option = action.option_strings[-1]
        cases[f"{option} missing value"] = plan.argv(extra=[option])
        cases[f"{option} --"] = plan.argv(extra=[option, "--"])
        cases[f"{option}=--"] = plan.argv(extra=[f"{option}=--"])
        cases[f"{option}="] = plan.argv(extra=[f"{option}="])
        for label, values in BAD_VALUES.items():
            for value in values:
                cases[f"{option} {label}"] = plan.argv(extra=[f"{option}={value}"])
    for i, action in enumerate(leaf.positionals):
        if isinstance(action.choices, dict):
            continue
        name = action.dest
        for label, values in {**BAD_VALUES, "--": ["--"]}.items():
            for value in values:
                trial = [*plan.positional_values[:i], value, *plan.positional_values[i + 1:]]
                if value.startswith("-") and value != "--":
                    trial = [*plan.positional_values[:i], *plan.positional_values[i + 1:]]
                    cases[f"{name} {label}"] = plan.argv(trial, ["--", value])
                else:
                    cases[f"{name} {label}"] = plan.argv(trial)
    return cases


def _plans() -> dict[str, Plan]:
    saved = {key: os.environ.get(key) for key in ENV}
    os.environ.update(ENV)
    here = Path.cwd()
    os.chdir(SCRATCH)  # a command that writes a file writes it there
    try:
        return {leaf.name: _plan(leaf) for leaf in LEAVES}
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


PLANS = _plans()
CASES: dict[str, dict[str, list[str]]] = {name: _cases(plan) for name, plan in PLANS.items()}


class Sweeper:
    """One sweep worker (``sweep_worker.py --serve``) for this test process: each test asks
    for its own command's cases, so under pytest-xdist the two processes sweep side by side
    (one shared sweep made the other process wait for it, a minute of an idle core)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "sweep_worker.py"), "--timeout", str(RUN_LIMIT),
             "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=SCRATCH, env={**os.environ, **ENV})
        self.answered: dict[tuple[str, str], dict[str, Any]] = {}

    def answers(self, leaf: str, labels: list[str]) -> dict[str, dict[str, Any]]:
        """The results of ``leaf``'s cases named ``labels`` (each run once per process)."""
        missing = [label for label in labels if (leaf, label) not in self.answered]
        if missing:
            assert self.process.stdin and self.process.stdout
            self.process.stdin.write(json.dumps([CASES[leaf][label] for label in missing])
                                     + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            if not line:  # the worker died: say how
                self.process.wait(timeout=60)
                stderr = self.process.stderr.read() if self.process.stderr else ""
                raise AssertionError(f"the sweep worker stopped: {stderr[-3000:]}")
            for label, result in zip(missing, json.loads(line), strict=True):
                self.answered[(leaf, label)] = result
        return {label: self.answered[(leaf, label)] for label in labels}

    def close(self) -> None:
        if self.process.stdin:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="module")
def sweeper() -> Iterator[Sweeper]:
    worker = Sweeper()
    yield worker
    worker.close()


def test_the_walk_finds_every_command() -> None:
    names = {leaf.name for leaf in LEAVES}
    # Spot checks that the walk reaches nested and top-level commands.
    assert {"roll", "odds", "table", "cairn save", "5e contest", "mm group"} <= names
    assert len(LEAVES) >= 30
    assert sum(len(leaf.options) for leaf in LEAVES) >= 50


@pytest.mark.parametrize("leaf", sorted(CASES))
def test_bad_input_is_refused_in_one_line(sweeper: Sweeper, leaf: str) -> None:
    problems = []
    for label, result in sweeper.answers(leaf, list(CASES[leaf])).items():
        err_lines = result["err"].splitlines()
        errors = [line for line in err_lines if line.startswith("error:")]
        if result["crash"]:
            problems.append(f"{label}: {result['argv']!r} crashed:\n{result['crash']}")
        elif result["status"] not in (0, 2):
            problems.append(f"{label}: exit {result['status']}: {result['err']}")
        elif "Traceback" in result["err"] or len(errors) > 1:
            problems.append(f"{label}: stderr {result['err']!r}")
        elif result["status"] == 2 and (err_lines != errors or not errors):
            problems.append(f"{label}: exit 2 without one error line: {result['err']!r}")
        elif any(len(line) > cli.MAX_ERROR + 10 for line in err_lines):
            problems.append(f"{label}: an error line of {len(errors[0])} characters")
        elif any(run in result["err"] for run in ("x" * 100, "9" * 100)):
            problems.append(f"{label}: the error quotes the whole input: {result['err']!r}")
        elif result["status"] == 2 and result["out_chars"]:
            problems.append(f"{label}: exit 2 but printed {result['out_chars']} characters")
    assert not problems, "\n".join(problems)


def test_a_working_command_line_is_found_for_nearly_every_command() -> None:
    # The sweep is only as good as its base: a bad value must meet a command line that
    # would otherwise run. (A command that needs data made by another, such as a saved
    # campaign, or a file, may have none.)
    failing = sorted(name for name, plan in PLANS.items() if not plan.works)
    assert len(failing) <= len(PLANS) // 10, failing


@pytest.mark.parametrize("leaf", sorted(CASES))
def test_option_eq_dashdash_is_a_missing_value(sweeper: Sweeper, leaf: str) -> None:
    labels = [label for label in CASES[leaf]
              if label.endswith("=--") and not label.startswith("unknown")]
    for result in sweeper.answers(leaf, labels).values():
        assert result["status"] == 2, result
        assert "expected one argument" in result["err"], result


def _run(args: list[str | bytes], env: dict[str, str] | None = None,
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, timeout=60,
        cwd=SCRATCH, env={**os.environ, **ENV, **(env or {})}, check=False,
    )


#: Printed between two tables by the one process that prints them all.
_BETWEEN = "@@ next table @@"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_table_text_in_a_non_utf8_locale(
    capsys: pytest.CaptureFixture[str], encoding: str
) -> None:
    # Tables hold '≤', '›', '×'...: what the locale cannot show is printed as '?', no crash.
    # One real process prints every table through its own stdout (set up by Python from the
    # locale, as a player's terminal would have it): a process per table took a minute.
    ids = [table.id for table in tables.all_tables()]
    script = ("import sys\nfrom companion.cli import main\n"
              f"for table_id in {ids!r}:\n"
              "    status = main(['table', table_id])\n"
              f"    print({_BETWEEN!r}, status, flush=True)\n")
    env = {"PYTHONIOENCODING": encoding, "LC_ALL": "C", "PYTHONUTF8": "0"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120,
                          cwd=SCRATCH, env={**os.environ, **ENV, **env}, check=False)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr[-2000:]
    printed = done.stdout.split(f"{_BETWEEN} ".encode())
    assert len(printed) == len(ids) + 1, printed[-1][-200:]
    replaced = 0
    for i, table in enumerate(tables.all_tables()):
        assert cli.main(["table", table.id]) == 0
        expected = capsys.readouterr().out.encode(encoding, "replace")
        # Each piece after the first starts with the previous table's status line.
        shown = printed[i] if i == 0 else printed[i].split(b"\n", 1)[1]
        assert printed[i + 1].startswith(b"0\n"), (table.id, printed[i + 1][:20])
        assert shown == expected, table.id
        replaced += expected.count(b"?") > table.to_markdown().count("?")
    assert replaced, "no table has a character outside the locale: the test proves nothing"


def test_non_utf8_argv_bytes() -> None:
    for argv in (["roll", b"\xff\xfe"], ["table", b"\xe9t\xe9"],
                 ["odds", b"2d6", b"--at-least=\xff"], ["cairn", "save", b"1\xff"], [b"\xff"]):
        done = _run(argv, {"LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
        lines = done.stderr.decode("ascii", "replace").splitlines()
        assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error:"), (
            argv, done.stderr)
        assert done.stdout == b""


def test_a_real_opt_eq_dashdash() -> None:
    done = _run(["odds", "2d6", "--at-least=--"])
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr.decode() == (
        "error: companion odds: argument --at-least: expected one argument\n")
