"""The ``companion`` command line (also ``python -m companion``).

Subcommands are contributed by the areas that own them: every module named in
[COMMAND_MODULES][companion.cli.COMMAND_MODULES], and every ruleset package that has a
``cli`` module, defines ``add_commands(subparsers)``. Each subcommand sets
``func(args) -> int`` on its parser.

This package is two layers. Its root (this module: the parser, the error contract,
``print_json``) is core, standard library only: the rulesets' and the dice engine's
command lines build on it. Its submodules are the table's command lines
([campaigns][companion.cli.campaigns], [seats][companion.cli.seats],
[fairplay][companion.cli.fairplay], [luck][companion.cli.luck]): a face like any app, above
[companion.table][] (they act through a [Session][companion.table.session.Session]) and the
store, which knows nothing of them. The root imports them only by name, when the parser is
built.

The error contract, relied on by later tooling: bad input exits with status 2, prints
nothing on stdout and exactly one line on stderr starting with ``error:``; never a
traceback. The line quotes at most a short piece of the input (see
[quoted][companion.errors.quoted]), and ``--option=--`` is refused like a missing value.

Output never fails on the terminal's encoding: in a locale that cannot show a character
of a table (``PYTHONIOENCODING=cp1252``), that character is printed as ``?``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from companion.dice.render import fraction_text as fraction_text  # re-exported for subcommands
from companion.errors import CompanionError, clip_echoes, quoted

#: Modules (outside the rulesets) that contribute subcommands.
COMMAND_MODULES: tuple[str, ...] = (
    "companion.dice.cli",
    "companion.tables.cli",
    "companion.cli.campaigns",
    "companion.cli.fairplay",
    "companion.cli.luck",
    "companion.app.cli",
)


class UsageError(CompanionError):
    """Bad command-line usage (unknown option, missing argument...)."""


#: The longest error line the CLI prints (a last resort; raising sites clip their echoes).
MAX_ERROR = 300


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors follow the one-line ``error:`` contract."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # argparse drops a '--' given as the value (``--seed=--``), leaving an empty list
        # where one value belongs: refuse it as the missing value it is. (An optional value,
        # ``--token=--``, would otherwise silently become the option given alone.)
        if action.nargs in (None, "?") and arg_strings == ["--"]:
            name = "/".join(action.option_strings) or action.metavar or action.dest
            self.error(f"argument {name}: expected one argument")
        return super()._get_values(action, arg_strings)


def print_json(obj: Any) -> None:
    """Write ``obj`` as JSON on stdout (the ``--json`` form of every subcommand)."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMAND_MODULES:
        importlib.import_module(name).add_commands(sub)
    from companion import rulesets

    for ruleset in rulesets.all_rulesets():
        module = ruleset.cli_module()
        if module is not None:
            module.add_commands(sub)
    return parser


_PARSERS: list[argparse.ArgumentParser] = []


def _parser() -> argparse.ArgumentParser:
    """The command line's parser, built once per process: building it (every ruleset's
    commands) took about 20 ms, paid again by each command a long-lived process runs (a
    script, the tests' sweep of 2,800 command lines). Parsing leaves it as it was."""
    if not _PARSERS:
        _PARSERS.append(build_parser())
    return _PARSERS[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    _tolerant_output()
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        _check_text(words)
        if sys.stdout is None:  # started with its standard output closed
            raise CompanionError("standard output is closed: nowhere to write the answer")
        parser = _parser()
        args = parser.parse_args(words)
        if getattr(args, "func", None) is None:
            parser.print_help()
            return 0
        status: int = args.func(args)
        sys.stdout.flush()  # a full disk (>/dev/full) shows here, not after main returns
        return status
    except CompanionError as exc:
        _error(_one_line(str(exc)))
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except BrokenPipeError:
        _drop_output()
        return 0
    except OSError as exc:  # writing the answer failed (a full disk, a closed stream)
        _drop_output()
        _error(f"cannot write the output ({exc.strerror or type(exc).__name__})")
        return 2


def _error(line: str) -> None:
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            sys.stderr.write(f"error: {line}\n")
            sys.stderr.flush()


def _drop_output() -> None:
    """Point standard output at /dev/null: what is left in its buffer cannot be written,
    and Python's own flush at exit must not print a traceback for it."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


def _one_line(text: str) -> str:
    line = clip_echoes(" ".join(text.split()))
    if len(line) > MAX_ERROR:
        # Cut the middle: the start says what failed, the end usually why.
        half = (MAX_ERROR - 1) // 2
        line = line[:half] + "…" + line[-(MAX_ERROR - 1 - half):]
    return line


def _check_text(words: list[str]) -> None:
    """Refuse an argument that is not text (bytes that are not UTF-8 in the command line)."""
    for n, word in enumerate(words, start=1):
        try:
            word.encode("utf-8")
        except UnicodeEncodeError as exc:
            shown = word.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            raise UsageError(f"companion: argument {n} ({quoted(shown, exc.start)}) is not "
                             f"UTF-8 text") from None


def _tolerant_output() -> None:
    """Print what the terminal's encoding cannot show as ``?`` instead of crashing."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="replace")
