"""Carries the apps into the wheel (the rest of the build is declared in pyproject.toml).

The notebooks (``widgets/*.ipynb``) and the server settings (``server/``: ``voila.py``, the
page template, the kernel spec) have one home each, at the top of the checkout, where the
project's layout and every test look for them. A wheel has no top of a checkout, so
``build_py`` copies them into the built package as ``companion/app/notebooks/`` and
``companion/app/server/``, where ``companion app`` finds them once installed. An editable
install builds nothing: ``companion app`` reads the checkout's own folders there.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
#: checkout folder -> (folder inside the built package, the files of it to carry)
CARRIED = {
    "widgets": ("companion/app/notebooks", ("*.ipynb",)),
    "server": ("companion/app/server", ("*.py", "*.json", "*.j2", "*.txt", "*.css", "*.js",
                                        "*.html")),
    # The phone apps (issue 44), when built first (make phone-apps): a build output, not
    # a source, so a wheel built without them serves the Voila pages only.
    "build/phone": ("companion/app/phone", ("*",)),
}


class BuildPyWithApps(build_py):
    """``build_py`` plus the notebooks and server files (see the module docstring)."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for source, (target, patterns) in CARRIED.items():
            for path in carried_files(HERE / source, patterns):
                out = Path(self.build_lib, target, path.relative_to(HERE / source))
                self.mkpath(os.fspath(out.parent))
                self.copy_file(os.fspath(path), os.fspath(out))


def carried_files(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    """The files under ``folder`` matching ``patterns``, caches left out."""
    found = {p for pattern in patterns for p in folder.rglob(pattern)}
    return sorted(p for p in found if p.is_file() and "__pycache__" not in p.parts)


setup(cmdclass={"build_py": BuildPyWithApps})
