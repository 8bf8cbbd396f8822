"""Build the phone apps that ``companion app`` serves at ``/phone/`` (issue 44).

The same serverless apps as the site's (``tools/build_static_apps.py``: Pyodide on the
page's thread, Jupyter's stand-alone widget manager, the notebook's cells), with one
difference: the page does not keep its campaign in the browser, it joins its table
through the server's table socket (``companion.table.remote``; the page's Python side is
``tools/static_apps/kernel.py`` with ``phone.py``). The server judges every act; no
kernel is started for a phone.

Layout of ``OUT`` (what ``companion app`` serves under ``/phone/``):

- ``<app>.html``: one page per app, small, never cached for long (it names the build);
- ``<digest>/``: everything the pages load (Pyodide's runtime, ``packages.zip``, the widget
  manager, the page's script), under a folder named by the digest of its content, so it
  is cached for a year (``immutable``) and a new build is a new folder;
- a ``.gz`` beside each file that compresses (served to a browser that accepts gzip, on
  plain http as well).

Usage: python tools/build_phone_apps.py OUT [--cache DIR] [--pyodide DIR] [--apps APP ...]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import build_static_apps as static  # noqa: E402  (a tool beside this one)

#: The apps built by default: those whose widgets act only through named acts and show a
#: rolled act's outcome when the table answers (the other apps have no phone face yet).
DEFAULT_APPS = ("cairn_character", "plot_points", "dice_tray", "spell_points", "hit_dice",
                "death_and_returning", "miasma_tracker")
#: Files worth compressing (the zip and the images are compressed already).
COMPRESSED = {".js", ".mjs", ".css", ".wasm", ".json", ".html", ".woff", ".ttf", ".svg",
              ".eot", ".zip"}
PYODIDE_VERSION = "314.0.7"

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Table Companion</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{build}/apps/static/app.css">
<link rel="preload" href="{build}/apps/packages.zip" as="fetch" crossorigin>
<script src="{build}/apps/static/start.js" data-snapshot="{snapshot}"></script>
<script defer src="{build}/apps/static/require.js"></script>
<script defer src="{build}/apps/static/embed-amd.js"></script>
<script type="module" src="{build}/apps/static/runtime.mjs"></script>
</head>
<body data-tc-static="{app}" data-tc-phone="1">
<main class="tc-static-page">
<div id="tc-static-output" class="tc-static-output">
<p id="tc-static-status" class="tc-static-status" role="status">Loading the app…</p>
</div>
</main>
<script type="application/json" id="tc-static-cells">{cells}</script>
</body></html>
"""


def pyodide_runtime(cache: Path, dest: Path) -> None:
    """Pyodide's runtime from its npm package (``tools/fetch_pyodide.sh``: the site's)."""
    if (dest / "pyodide.mjs").exists():
        return
    subprocess.run(["bash", str(ROOT / "tools" / "fetch_pyodide.sh"), PYODIDE_VERSION,
                    str(cache), str(dest)], check=True, stdout=subprocess.DEVNULL)


def digest_of(folder: Path) -> str:
    sha = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix != ".gz":
            sha.update(path.relative_to(folder).as_posix().encode())
            sha.update(hashlib.sha256(path.read_bytes()).digest())
    return sha.hexdigest()[:12]


def compress(folder: Path) -> None:
    """A ``.gz`` beside each file that gets smaller by it (mtime 0: byte-stable)."""
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESSED:
            continue
        raw = path.read_bytes()
        packed = gzip.compress(raw, compresslevel=9, mtime=0)
        if len(packed) < len(raw) * 0.9:
            static.write_if_changed(path.with_name(path.name + ".gz"), packed)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--cache", type=Path, default=ROOT / "build/static-apps")
    parser.add_argument("--npm-cache", type=Path, default=ROOT / "build/npm")
    parser.add_argument("--apps", nargs="*", default=list(DEFAULT_APPS))
    args = parser.parse_args(argv[1:])
    out: Path = args.out.resolve()
    cache: Path = args.cache.resolve()
    work = out.parent / f".{out.name}-work"
    pyodide = work / "assets" / "pyodide"
    pyodide_runtime(args.npm_cache.resolve(), pyodide)
    packages = static.with_bytecode(static.packages_zip(cache / "pypi"), pyodide,
                                    cache / "pyc")
    static.write_if_changed(work / "apps" / "packages.zip", packages)
    sha = hashlib.sha256(packages)
    sha.update((pyodide / "pyodide.asm.wasm").read_bytes())
    snapshot = sha.hexdigest()[:16]
    static_dir = work / "apps" / "static"
    static.widget_manager(cache / "npm", static_dir)
    for name in ("start.js", "runtime.mjs", "app.css"):
        static.write_if_changed(static_dir / name, (static.HERE / name).read_bytes())
    static.write_if_changed(work / "javascripts" / "snapshot.mjs",
                            (ROOT / "docs" / "javascripts" / "snapshot.mjs").read_bytes())
    build = digest_of(work)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(work, out / build, ignore=shutil.ignore_patterns("*.gz"))
    for app in args.apps:
        path = static.WIDGETS / f"{app}.ipynb"
        _, codes = static.notebook_cells(json.loads(path.read_text()))
        cells = json.dumps(codes).replace("</", "<\\/")
        (out / f"{app}.html").write_text(PAGE.format(
            app=html.escape(app), title=html.escape(static.notebook_title(path)),
            build=build, snapshot=html.escape(snapshot), cells=cells))
    compress(out)
    print(f"phone apps: {len(args.apps)} apps, build {build} -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
