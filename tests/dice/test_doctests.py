"""The examples in the dice engine's docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib
import sys

import pytest

MODULES = [
    "companion.dice",
    "companion.dice.distribution",
    "companion.dice.odds",
    "companion.dice.roller",
    "companion.dice.fast",
    "companion.dice.simulate",
    "companion.dice.parse",
    "companion.dice.render",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    importlib.import_module(name)
    result = doctest.testmod(sys.modules[name])
    assert result.failed == 0
