"""The examples in the framework's docstrings (they are the site's API pages) run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["companion.state", "companion.checks", "companion.tables",
           "companion.rulesets.plot_points.checks"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
