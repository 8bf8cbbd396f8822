"""The core zip the site's roller cells load into Pyodide: complete, stdlib-only, stable."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import build_core_zip

ROOT = Path(__file__).resolve().parents[2]


def test_zip_holds_the_core_and_not_the_widgets() -> None:
    names = zipfile.ZipFile(io.BytesIO(build_core_zip.build_zip())).namelist()
    assert "companion/__init__.py" in names
    assert "companion/dice/__init__.py" in names
    assert not [n for n in names if n.startswith("companion/widgets")]
    assert not [n for n in names if "__pycache__" in n]
    tomls = {p.relative_to(ROOT).as_posix() for p in (ROOT / "companion").rglob("*.toml")}
    assert tomls <= set(names)


def test_zip_is_byte_identical_when_nothing_changed() -> None:
    assert build_core_zip.build_zip() == build_core_zip.build_zip()


def test_unpacked_zip_rolls_like_the_package(tmp_path: Path) -> None:
    # What Pyodide does: unpack, put the folder on sys.path, roll. -I -S keeps the editable
    # install (and every third-party package) out of reach, as in the browser.
    zipfile.ZipFile(io.BytesIO(build_core_zip.build_zip())).extractall(tmp_path)
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from companion import dice;"
        "r = dice.roll('4d6kh3', seed=7); print(json.dumps([r.total, str(r), dice.__file__]))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code, str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    total, text, where = json.loads(done.stdout)
    assert Path(where).is_relative_to(tmp_path)

    from companion import dice

    here = dice.roll("4d6kh3", seed=7)
    assert (total, text) == (here.total, str(here))
