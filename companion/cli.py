"""The ``companion`` command line (also ``python -m companion``).

Subcommands are contributed by the areas that own them: every module named in
[COMMAND_MODULES][companion.cli.COMMAND_MODULES], and every ruleset package that has a ``cli`` module, defines
``add_commands(subparsers)``. Each subcommand sets ``func(args) -> int`` on its parser.

The error contract, relied on by later tooling: bad input exits with status 2, prints
nothing on stdout and exactly one line on stderr starting with ``error:``; never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from companion.dice.render import fraction_text as fraction_text  # re-exported for subcommands
from companion.errors import CompanionError

#: Modules (outside the rulesets) that contribute subcommands.
COMMAND_MODULES: tuple[str, ...] = (
    "companion.dice.cli",
    "companion.tables.cli",
    "companion.store.cli",
)


class UsageError(CompanionError):
    """Bad command-line usage (unknown option, missing argument...)."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors follow the one-line ``error:`` contract."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


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


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if getattr(args, "func", None) is None:
            parser.print_help()
            return 0
        status: int = args.func(args)
        return status
    except CompanionError as exc:
        sys.stderr.write(f"error: {_one_line(str(exc))}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())
