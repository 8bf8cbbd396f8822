"""Build the apps of ``widgets/`` into the static site: ``site/apps/<app>.html``.

Each app is one page that needs no server: Pyodide runs the notebook's cells on the page's
thread and Jupyter's stand-alone widget manager (``@jupyter-widgets/html-manager``, the
one ipywidgets publishes for pages outside Jupyter) draws the widgets; the same notebooks
and components as ``make app``. ``tools/static_apps/runtime.mjs`` is the page's script,
``tools/static_apps/kernel.py`` the Python side between the widgets and the manager.
Everything the pages load comes from the site itself:

- Pyodide's runtime: the site's own copy from the npm package (``assets/pyodide/``, the
  one the roller cells use: one download, one cache, already warm after reading a page);
- ``apps/packages.zip``: the Python the apps import (the project, ipywidgets, traitlets,
  comm; wheels from PyPI, cached in ``build/static-apps/pypi``) with its bytecode compiled
  by the same Pyodide in Node (imports then take half the time), unpacked in one step;
- ``apps/static/``: the widget manager and require.js (npm), the page's script and CSS.

Why not Voici (JupyterLite): it worked, but each page loaded 8 MB of JupyterLab's front
end, booted a kernel in a Web Worker with IPython and 27 packages, and became usable after
21 s cold and 11 s warm on the test machine (``benchmarks/RESULTS.md``); a Web Worker's
requests also missed the service worker in Chromium, so the apps could not run offline.

``apps/<app>.html`` holds the notebook's code cells (run in order, the last expression of
each shown, as in Jupyter) and its markdown cells rendered at build time. ``sw.js`` (the
site's service worker, ``tools/static_apps/sw.js``) keeps every file of the site for
offline use after one visit.

Usage: python tools/build_static_apps.py SITE_DIR [--cache DIR] [--apps APP ...]
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import markdown

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tools" / "static_apps"
WIDGETS = ROOT / "widgets"
PACKAGE = ROOT / "companion"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
#: The widget manager for pages outside Jupyter, matching ipywidgets 8.1 (wheels.txt).
HTML_MANAGER = "@jupyter-widgets/html-manager@1.0.15"
REQUIREJS = "requirejs@2.3.7"
PROJECT = "table-companion"
CAMPAIGNS_TITLE = "Campaigns in this browser"
#: The page's Python side, as the module name the page imports.
KERNEL_MODULE = "tc_static_kernel"


def wheel_name_version(path: Path) -> tuple[str, str]:
    name, version = path.name.split("-")[:2]
    return name.lower().replace("_", "-"), version


def write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# --- Python packages -------------------------------------------------------------------


def project_files() -> dict[str, bytes]:
    """The whole ``companion`` package (widgets included), as zip entries."""
    files: dict[str, bytes] = {}
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(ROOT)
        if "__pycache__" in rel.parts or not path.is_file():
            continue
        if path.suffix in {".py", ".toml", ".json", ".css", ".js"}:
            files[rel.as_posix()] = path.read_bytes()
    return files


def pypi_wheels(cache: Path) -> dict[str, Path]:
    """The wheels of ``wheels.txt``: downloaded into ``cache`` once (pip, from PyPI)."""
    wanted: dict[str, str] = {}
    for line in (HERE / "wheels.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        spec = line.split()[0]
        wanted[spec.split("==")[0]] = spec
    cache.mkdir(parents=True, exist_ok=True)
    have = {wheel_name_version(p): p for p in cache.glob("*.whl")}
    missing = [spec for name, spec in wanted.items()
               if (name, spec.split("==")[1]) not in have]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q",
                        "--disable-pip-version-check", "--no-deps", "--only-binary=:all:",
                        "--platform", "any", "--python-version", "3.14",
                        "--implementation", "py", "--abi", "none", "-d", str(cache),
                        *missing], check=True)
        have = {wheel_name_version(p): p for p in cache.glob("*.whl")}
    return {name: have[(name, spec.split("==")[1])] for name, spec in wanted.items()}


def packages_zip(cache: Path) -> bytes:
    """One zip of every Python file the apps import beyond Pyodide's standard library,
    byte-stable (the same input gives the same bytes, so caches keep it)."""
    files: dict[str, bytes] = {}
    for path in pypi_wheels(cache).values():
        with zipfile.ZipFile(path) as wheel:
            for name in wheel.namelist():
                top = name.split("/")[0]
                if top.endswith(".dist-info") or "/tests/" in name or name.endswith("/"):
                    continue
                files[name] = wheel.read(name)
    files.update(project_files())
    files[f"{KERNEL_MODULE}.py"] = (HERE / "kernel.py").read_bytes()
    files["tc_static_campaigns.py"] = (HERE / "campaigns_page.py").read_bytes()
    # The phone apps' end of the table socket (tools/build_phone_apps.py).
    files["tc_static_phone.py"] = (HERE / "phone.py").read_bytes()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def with_bytecode(packages: bytes, pyodide_dir: Path, cache: Path) -> bytes:
    """``packages`` with each module's bytecode, compiled by the site's Pyodide in Node
    (``compile_pyc.mjs``); kept in ``cache`` by the input's digest (it takes seconds)."""
    digest = hashlib.sha256(packages)
    digest.update((pyodide_dir / "pyodide.asm.wasm").read_bytes())
    done = cache / f"packages-{digest.hexdigest()[:16]}.zip"
    if not done.exists():
        if shutil.which("node") is None:
            raise SystemExit("static apps: node is missing (Debian: apt-get install nodejs); it "
                             "compiles the apps' bytecode with the site's Pyodide")
        cache.mkdir(parents=True, exist_ok=True)
        for old in cache.glob("packages-*.zip"):
            old.unlink()
        source = cache / "source.zip"
        source.write_bytes(packages)
        subprocess.run(["node", str(HERE / "compile_pyc.mjs"), str(pyodide_dir), str(source),
                        str(done)], check=True, stdout=subprocess.DEVNULL)
        source.unlink()
    return done.read_bytes()


# --- the widget manager ----------------------------------------------------------------

def npm_tarball(package: str, cache: Path) -> Path:
    """The npm package's tarball, packed into ``cache`` once (npm, from the registry)."""
    cache.mkdir(parents=True, exist_ok=True)
    stem = package.lstrip("@").replace("/", "-").replace("@", "-")
    path = cache / f"{stem}.tgz"
    if not path.exists():
        subprocess.run(["npm", "pack", package, "--silent"], cwd=cache, check=True,
                       stdout=subprocess.DEVNULL)
    if not path.exists():
        raise SystemExit(f"npm pack {package} made no {path.name}")
    return path


#: Every browser the apps run in reads WOFF2, and the CSS names it first: the older formats
#: (2.7 MB of the 2.9 MB of fonts) were only ever fetched by the offline copy.
FONT_FORMATS_NOT_NEEDED = (".woff", ".ttf", ".eot", ".svg")
FONT_FOLDERS = ("@jupyter-widgets/html-manager/dist", "@jupyter-widgets")


def widget_manager(cache: Path, dest: Path) -> None:
    """require.js and the html-manager's AMD bundle (with its fonts) into ``dest``."""
    with tarfile.open(npm_tarball(REQUIREJS, cache)) as tar:
        data = tar.extractfile("package/require.js")
        assert data is not None
        write_if_changed(dest / "require.js", data.read())
    with tarfile.open(npm_tarball(HTML_MANAGER, cache)) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if len(parts) != 3 or parts[1] != "dist" or not member.isfile():
                continue
            if parts[2].endswith((".map", ".txt")) or parts[2] in {"embed.js",
                                                                  "libembed-amd.js"}:
                continue
            if parts[2].endswith(FONT_FORMATS_NOT_NEEDED):
                continue
            data = tar.extractfile(member)
            assert data is not None
            if parts[2].endswith(".js"):
                write_if_changed(dest / parts[2], data.read())
                continue
            # Its CSS finds its fonts beside the require.js name of the module that brought
            # the CSS: "@jupyter-widgets/html-manager/dist/" for the apps' own widgets,
            # "@jupyter-widgets/" for the file-upload button of the campaigns page.
            asset = data.read()
            for folder in FONT_FOLDERS:
                write_if_changed(dest.parent / folder / parts[2], asset)


# --- pages -----------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Table Companion</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="static/app.css">
<script src="static/start.js" data-snapshot="{snapshot}"></script>
<script defer src="static/require.js"></script>
<script defer src="static/embed-amd.js"></script>
<script type="module" src="static/runtime.mjs"></script>
</head>
<body data-tc-static="{app}">
<main class="tc-static-page">
{nav}
{heading}
<div id="tc-static-output" class="tc-static-output">
<p id="tc-static-status" class="tc-static-status" role="status">Loading the app…</p>
</div>
</main>
<script type="application/json" id="tc-static-cells">{cells}</script>
</body></html>
"""


def notebook_title(path: Path) -> str:
    nb = json.loads(path.read_text())
    title = nb.get("metadata", {}).get("title")
    return str(title) if title else path.stem.replace("_", " ").capitalize()


def notebook_cells(nb: dict[str, object]) -> tuple[str, list[str]]:
    """The notebook's markdown cells as HTML and its code cells' source, in order."""
    texts, codes = [], []
    for cell in nb.get("cells", []):  # type: ignore[union-attr]
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "markdown":
            texts.append(markdown.markdown(source))
        elif cell.get("cell_type") == "code" and source.strip():
            codes.append(source)
    return "\n".join(texts), codes


#: Notebooks of ``widgets/`` that are no app here: the Voila server's rules page (the site
#: has its own rules pages, which the apps link to).
NOT_APPS = {"rules"}


def app_ruleset(app: str) -> str:
    """The ruleset an app belongs to ("" for the start app, the dice tray, Campaigns)."""
    try:
        from companion.widgets.table.apps import spec
    except ImportError:  # the widgets not installed: the links go to the rules index
        return ""
    try:
        return spec(app).ruleset
    except Exception:  # not an app of the list (the start app, the Campaigns page)
        return ""


def way_back(app: str) -> str:
    """The page's links back into the site: the Apps page and the rules of the app's
    ruleset (plain links, there before the app loads; the service worker keeps them)."""
    from companion import rulesets

    ruleset = app_ruleset(app)
    if ruleset:
        rules = (f'<a class="tc-way-rules" href="../rules/{html.escape(ruleset)}/">Rules: '
                 f"{html.escape(rulesets.get(ruleset).title)}</a>")
    else:
        rules = '<a class="tc-way-rules" href="../rules/">Rules</a>'
    links = ['<a class="tc-way-apps" href="../play/">All apps</a>', rules]
    if app not in {"table", "campaigns"}:
        links.append('<a class="tc-way-table" href="table.html">Table Companion</a>')
    elif app == "table":
        links.append('<a class="tc-way-campaigns" href="campaigns.html">Campaigns in this '
                     "browser</a>")
    return (f'<nav class="tc-static-nav" aria-label="Back to the site">{" ".join(links)}'
            "</nav>")


def app_page(app: str, nb: dict[str, object], title: str, snapshot: str) -> str:
    heading, codes = notebook_cells(nb)
    # JSON inside <script>: "</" would end the element early.
    cells = json.dumps(codes).replace("</", "<\\/")
    return PAGE.format(app=html.escape(app), title=html.escape(title), heading=heading,
                       cells=cells, snapshot=html.escape(snapshot), nav=way_back(app))


def campaigns_notebook() -> dict[str, object]:
    return {"cells": [
        {"cell_type": "markdown", "source": f"## {CAMPAIGNS_TITLE}"},
        {"cell_type": "code",
         "source": "from tc_static_campaigns import CampaignsPage\n\nCampaignsPage()\n"}]}


def precache_list(site: Path) -> list[str]:
    """Every file of the site the service worker keeps (paths relative to the site).

    The API reference (about 30 MB of pages) comes last: it is kept offline like the rest
    (a page of it was missing offline unless visited before), after the pages and apps a
    table needs first."""
    skip_suffix = {".map", ".gz", ".ipynb"}
    out, api = [], []
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.suffix in skip_suffix:
            continue
        rel = path.relative_to(site).as_posix()
        if rel in {"sw.js", "precache.json"} or "/tests/" in rel:
            continue
        (api if rel.startswith("api/") else out).append(rel)
    return out + api


def service_worker(site: Path) -> None:
    files = precache_list(site)
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode())
        digest.update(hashlib.sha256((site / rel).read_bytes()).digest())
    version = digest.hexdigest()[:16]
    (site / "precache.json").write_text(json.dumps({"version": version, "files": files}))
    sw = (HERE / "sw.js").read_text().replace("__VERSION__", version)
    (site / "sw.js").write_text(sw)
    print(f"static apps: service worker {version}, {len(files)} files")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--cache", type=Path, default=ROOT / "build/static-apps")
    parser.add_argument("--apps", nargs="*", help="only these apps (default: every one)")
    args = parser.parse_args(argv[1:])
    site: Path = args.site.resolve()
    cache: Path = args.cache.resolve()
    apps = args.apps or sorted(p.stem for p in WIDGETS.glob("*.ipynb")
                               if p.stem not in NOT_APPS)
    if not (site / "assets" / "pyodide" / "pyodide.mjs").exists():
        raise SystemExit(f"{site} has no assets/pyodide/ (build the site first: make docs)")

    out = site / "apps"
    # What earlier builds left (Voici's JupyterLite and its own Pyodide, stale pages).
    for stale in ("lite", "pyodide", "wheels", "@jupyter-widgets"):
        shutil.rmtree(out / stale, ignore_errors=True)
    for page in out.glob("*.html"):
        page.unlink()
    packages = with_bytecode(packages_zip(cache / "pypi"), site / "assets" / "pyodide",
                             cache / "pyc")
    write_if_changed(out / "packages.zip", packages)
    # A Pyodide snapshot kept in a browser is for this Pyodide and these packages only.
    digest = hashlib.sha256(packages)
    digest.update((site / "assets" / "pyodide" / "pyodide.asm.wasm").read_bytes())
    snapshot = digest.hexdigest()[:16]
    static = out / "static"
    widget_manager(cache / "npm", static)
    for name in ("start.js", "runtime.mjs", "app.css"):
        write_if_changed(static / name, (HERE / name).read_bytes())
    for app in apps:
        path = WIDGETS / f"{app}.ipynb"
        nb = json.loads(path.read_text())
        (out / f"{app}.html").write_text(app_page(app, nb, notebook_title(path), snapshot))
    (out / "campaigns.html").write_text(app_page("campaigns", campaigns_notebook(),
                                                 CAMPAIGNS_TITLE, snapshot))
    service_worker(site)
    print(f"static apps: {len(apps)} apps -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
