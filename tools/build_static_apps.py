"""Build the apps of ``widgets/`` into the static site: ``site/apps/<app>.html``.

Voici (Voila's static counterpart, on JupyterLite) renders each notebook into a page whose
kernel is Pyodide running in a Web Worker; the same notebooks and components as ``make
app``, no server. Everything the pages load comes from the site itself:

- Pyodide's runtime: the site's own copy from the npm package (``assets/pyodide/``, the
  one the live roller cells use, so both share one download and one cache);
- the kernel's Python packages: wheels in ``apps/wheels/`` listed in their own
  ``pyodide-lock.json`` (the kernel's shims from jupyterlite-pyodide-kernel, IPython and
  its dependencies, ipywidgets, SQLAlchemy and the project's own wheel), all loaded in one
  parallel step when the kernel starts (nothing is resolved or installed at run time);
- Font Awesome (Voila's template links it from a CDN) from its npm package.

Each notebook gets one first cell (``tools/static_apps/boot.py``) that opens the
campaigns kept in this browser and reads the page's address; the notebook's own cells
follow unchanged. ``apps/<app>.html`` forwards to the rendered page with its query.
``sw.js`` (the site's service worker, ``tools/static_apps/sw.js``) keeps every file of the
site for offline use after one visit.

Usage: python tools/build_static_apps.py SITE_DIR [--voici PATH] [--cache DIR]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import html
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tools" / "static_apps"
WIDGETS = ROOT / "widgets"
PACKAGE = ROOT / "companion"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
FONTAWESOME = "@fortawesome/fontawesome-free@5.15.4"
#: The npm package pyodide the apps run on. The site's roller cells use a newer one, which
#: refuses classic Web Workers: jupyterlite-pyodide-kernel 0.7 starts its kernel in one.
PYODIDE = "0.29.3"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The kernel's shims that jupyterlite-pyodide-kernel ships (name -> import names).
SHIMS = {"pyodide_kernel": ["pyodide_kernel"], "piplite": ["piplite"],
         "ipykernel": ["ipykernel"], "widgetsnbextension": ["widgetsnbextension"]}
#: What the kernel itself asks for (the extension skips installing what is listed here).
KERNEL_PACKAGES = ["sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython",
                   "micropip", "piplite"]
PROJECT = "table-companion"
CAMPAIGNS_TITLE = "Campaigns in this browser"


def wheel_name_version(path: Path) -> tuple[str, str]:
    name, version = path.name.split("-")[:2]
    return name.lower().replace("_", "-"), version


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def write_if_changed(path: Path, data: bytes) -> None:
    if path.exists() and path.read_bytes() == data:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


# --- wheels --------------------------------------------------------------------------


def project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M)
    return match.group(1) if match else "0"


def project_wheel() -> tuple[str, bytes]:
    """The project's pure-Python wheel (the whole ``companion`` package), byte-stable."""
    version = project_version()
    dist = f"table_companion-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(ROOT)
        if "__pycache__" in rel.parts or not path.is_file():
            continue
        if path.suffix in {".py", ".toml", ".json", ".css", ".js"}:
            files[rel.as_posix()] = path.read_bytes()
    files[f"{dist}/METADATA"] = (f"Metadata-Version: 2.1\nName: {PROJECT}\n"
                                 f"Version: {version}\n").encode()
    files[f"{dist}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: build_static_apps\n"
                              b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    files[f"{dist}/top_level.txt"] = b"companion\n"
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return f"table_companion-{version}-py3-none-any.whl", buffer.getvalue()


def stub_wheel(name: str) -> bytes:
    """A wheel with metadata only: ``sqlite3`` is in this Pyodide's standard library, but
    the kernel asks for it by name (an empty package satisfies it, shadowing nothing)."""
    dist = f"{name}-1.0.0.dist-info"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for entry, text in ((f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {name}\n"
                                                  "Version: 1.0.0\n"),
                            (f"{dist}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: true\n"
                                              "Tag: py3-none-any\n"),
                            (f"{dist}/RECORD", "")):
            archive.writestr(zipfile.ZipInfo(entry, date_time=FIXED_TIME), text)
    return buffer.getvalue()


def pypi_wheels(cache: Path) -> dict[str, tuple[Path, list[str]]]:
    """The wheels of ``wheels.txt``: downloaded into ``cache`` once (pip, from PyPI)."""
    wanted: dict[str, tuple[str, list[str]]] = {}
    for line in (HERE / "wheels.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        spec, imports = line.split()
        wanted[spec.split("==")[0]] = (spec, imports.split(","))
    cache.mkdir(parents=True, exist_ok=True)
    have = {wheel_name_version(p): p for p in cache.glob("*.whl")}
    missing = [spec for name, (spec, _) in wanted.items()
               if (name, spec.split("==")[1]) not in have]
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "download", "-q",
                        "--disable-pip-version-check", "--no-deps", "--only-binary=:all:",
                        "--platform", "any", "--python-version", "3.14",
                        "--implementation", "py", "--abi", "none", "-d", str(cache),
                        *missing], check=True)
        have = {wheel_name_version(p): p for p in cache.glob("*.whl")}
    out = {}
    for name, (spec, imports) in wanted.items():
        out[name] = (have[(name, spec.split("==")[1])], imports)
    return out


def build_wheels(dest: Path, cache: Path, lite_share: Path, pyodide_lock: Path) -> list[str]:
    """Fill ``dest`` with every wheel the kernel loads and their ``pyodide-lock.json``;
    returns the package names to load at start."""
    dest.mkdir(parents=True, exist_ok=True)
    entries: dict[str, tuple[str, bytes, list[str]]] = {}
    for name, (path, imports) in pypi_wheels(cache / "pypi").items():
        entries[name] = (path.name, path.read_bytes(), imports)
    shim_dir = lite_share / "labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    for shim, imports in SHIMS.items():
        found = sorted(shim_dir.glob(f"{shim}-*-py3-none-any.whl"))
        if shim == "widgetsnbextension":
            found = [p for p in found if "-4." in p.name]
        if not found:
            raise SystemExit(f"no {shim} wheel in {shim_dir}")
        entries[shim.replace("_", "-")] = (found[-1].name, found[-1].read_bytes(), imports)
    entries["sqlite3"] = ("sqlite3-1.0.0-py3-none-any.whl", stub_wheel("sqlite3"), [])
    wheel_name, wheel = project_wheel()
    entries[PROJECT] = (wheel_name, wheel, ["companion"])

    keep = set()
    packages = {}
    for name, (file_name, data, imports) in sorted(entries.items()):
        write_if_changed(dest / file_name, data)
        keep.add(file_name)
        packages[name] = {
            "name": name, "version": file_name.split("-")[1], "file_name": file_name,
            "install_dir": "site", "sha256": sha256(data), "package_type": "package",
            "imports": imports, "depends": [], "unvendored_tests": False,
        }
    for stale in dest.glob("*.whl"):
        if stale.name not in keep:
            stale.unlink()
    info = json.loads(pyodide_lock.read_text())["info"]
    lock = {"info": info, "packages": packages}
    write_if_changed(dest / "pyodide-lock.json",
                     json.dumps(lock, indent=1, sort_keys=True).encode())
    return sorted(packages)


# --- notebooks -------------------------------------------------------------------------


def staged_notebook(path: Path, boot: str) -> dict[str, object]:
    """The notebook with the boot cell first (its own cells unchanged)."""
    nb = json.loads(path.read_text())
    cell = {"cell_type": "code", "execution_count": None, "id": "tc-static-boot",
            "metadata": {"tags": ["tc-static-boot"]}, "outputs": [], "source": boot}
    nb["cells"] = [cell, *nb["cells"]]
    return nb


def stage(content: Path, apps: list[str]) -> None:
    if content.exists():
        shutil.rmtree(content)
    content.mkdir(parents=True)
    boot = (HERE / "boot.py").read_text() + "\n\nawait boot()\n"
    for app in apps:
        nb = staged_notebook(WIDGETS / f"{app}.ipynb", boot)
        (content / f"{app}.ipynb").write_text(json.dumps(nb, indent=1))
    # The page that moves campaigns in and out of this browser (export / import).
    source = (HERE / "campaigns_page.py").read_text()
    nb = {"cells": [
        {"cell_type": "markdown", "id": "campaigns-0", "metadata": {},
         "source": f"## {CAMPAIGNS_TITLE}"},
        {"cell_type": "code", "execution_count": None, "id": "campaigns-1", "metadata": {},
         "outputs": [], "source": source + "\n\nCampaignsPage()\n"}],
        "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)",
                                    "language": "python", "name": "python3"},
                     "title": CAMPAIGNS_TITLE},
        "nbformat": 4, "nbformat_minor": 5}
    path = content / "campaigns.ipynb"
    path.write_text(json.dumps(nb, indent=1))
    path.write_text(json.dumps(staged_notebook(path, boot), indent=1))


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


def pyodide_runtime(version: str, cache: Path, dest: Path) -> Path:
    """Pyodide's runtime from its npm package into ``dest``; returns its lock file."""
    with tarfile.open(npm_tarball(f"pyodide@{version}", cache)) as tar:
        for name in PYODIDE_FILES:
            data = tar.extractfile(f"package/{name}")
            assert data is not None
            write_if_changed(dest / name, data.read())
    return dest / "pyodide-lock.json"


# --- Font Awesome ----------------------------------------------------------------------


def fontawesome(cache: Path, dest: Path) -> None:
    """Font Awesome 5's CSS and web fonts from its npm package (Voila's template uses it)."""
    with tarfile.open(npm_tarball(FONTAWESOME, cache)) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if len(parts) == 3 and parts[1] in {"css", "webfonts"} and member.isfile():
                if parts[1] == "css" and parts[2] not in {"all.min.css", "v4-shims.min.css"}:
                    continue
                data = tar.extractfile(member)
                assert data is not None
                write_if_changed(dest / parts[1] / parts[2], data.read())


# --- pages -----------------------------------------------------------------------------

FORWARD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Table Companion</title>
<script>location.replace("lite/voici/render/{app}.html" + location.search + location.hash);</script>
<noscript><meta http-equiv="refresh" content="0; url=lite/voici/render/{app}.html"></noscript>
</head><body><p><a href="lite/voici/render/{app}.html">{title}</a></p></body></html>
"""


def notebook_title(path: Path) -> str:
    nb = json.loads(path.read_text())
    title = nb.get("metadata", {}).get("title")
    return str(title) if title else path.stem.replace("_", " ").capitalize()


def patch_render_pages(lite: Path) -> None:
    """Font Awesome from the site; the page script (address -> kernel, links) first."""
    page_js = (HERE / "page.js").read_text()
    for page in sorted((lite / "voici" / "render").glob("*.html")):
        text = page.read_text()
        text = re.sub(r"https://cdn\.jsdelivr\.net/npm/@fortawesome/fontawesome-free@\^5/css/",
                      "../../static/fontawesome/css/", text)
        if "tc-static-page" not in text:
            text = text.replace("<head>", "<head>\n<script id=\"tc-static-page\">\n"
                                + page_js + "\n</script>", 1)
        page.write_text(text)


def lite_config(lite_dir: Path, packages: list[str]) -> None:
    """``jupyter-lite.json``: the site's Pyodide, our lock file, every package at start."""
    settings = {
        # The classic script: this kernel's worker cannot import() a module by URL.
        "pyodideUrl": "../../../pyodide/pyodide.js",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {
            "indexURL": "../pyodide/",
            "lockFileURL": "../wheels/pyodide-lock.json",
            "packages": sorted(set(packages) | set(KERNEL_PACKAGES)),
        },
    }
    config = {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": settings},
            "disabledExtensions": ["@jupyterlite/application-extension:service-worker-manager"],
        },
    }
    lite_dir.mkdir(parents=True, exist_ok=True)
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(config, indent=1))


def precache_list(site: Path) -> list[str]:
    """Every file of the site the service worker keeps (paths relative to the site)."""
    skip_suffix = {".map", ".gz", ".ipynb"}
    out = []
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.suffix in skip_suffix:
            continue
        rel = path.relative_to(site).as_posix()
        # The API reference (30 MB of pages for developers) is kept when visited.
        if rel in {"sw.js", "precache.json"} or rel.startswith(("apps/lite/doc/", "api/")) \
                or "/tests/" in rel:
            continue
        out.append(rel)
    return out


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
    parser.add_argument("--voici", default=str(ROOT / "build/lite-venv/bin/voici"))
    parser.add_argument("--cache", type=Path, default=ROOT / "build/static-apps")
    parser.add_argument("--pyodide", default=PYODIDE,
                        help=f"the npm package pyodide's version for the apps ({PYODIDE})")
    parser.add_argument("--apps", nargs="*", help="only these apps (default: every one)")
    args = parser.parse_args(argv[1:])
    site: Path = args.site.resolve()
    cache: Path = args.cache.resolve()
    voici = Path(args.voici).absolute()  # Voici runs in the cache folder: no relative path
    lite_share = voici.parent.parent / "share" / "jupyter"
    apps = args.apps or sorted(p.stem for p in WIDGETS.glob("*.ipynb"))

    out = site / "apps"
    pyodide_lock = pyodide_runtime(args.pyodide, cache / "npm", out / "pyodide")
    packages = build_wheels(out / "wheels", cache, lite_share, pyodide_lock)
    content = cache / "content"
    stage(content, apps)
    lite_dir = cache / "lite-dir"
    lite_config(lite_dir, packages)
    lite = out / "lite"
    if lite.exists():
        shutil.rmtree(lite)
    # JupyterLite's task cache would skip steps whose output was just deleted.
    (cache / ".jupyterlite.doit.db").unlink(missing_ok=True)
    # The venv's own Python runs Voici's entry point: the `voici` script can go missing
    # when pip replaces a package that shipped the same script (seen on a clean install).
    command = ([str(voici)] if voici.exists()
               else [str(voici.parent / "python"), "-c",
                     "import sys; from voici_core.app import main; sys.exit(main())"])
    subprocess.run([*command, "build", "--contents", str(content), "--lite-dir",
                    str(lite_dir), "--output-dir", str(lite), "--no-sourcemaps",
                    "--no-unused-shared-packages", "--log-level", "WARN"],
                   cwd=cache, check=True)
    # JupyterLite's notebook UI and Voici's list of notebooks (it links Font Awesome 4 from
    # a CDN): not part of the apps, which the site's Apps page lists.
    shutil.rmtree(lite / "doc", ignore_errors=True)
    shutil.rmtree(lite / "voici" / "tree", ignore_errors=True)
    # No JupyterLite service worker: its registration fails, so the kernel mounts no drive
    # (the campaigns have their own folder) and the site's sw.js keeps every file.
    (lite / "service-worker.js").unlink(missing_ok=True)
    fontawesome(cache / "npm", lite / "static" / "fontawesome")
    # The apps' lost-connection banner asks the server for Voila's script every few
    # seconds (the page's data-base-url + static/voila.js): here the site is the server.
    write_if_changed(lite / "voila" / "static" / "voila.js",
                     b"// Present: the static site answers the apps' connection check.\n")
    patch_render_pages(lite)
    for stale in out.glob("*.html"):
        stale.unlink()
    for path in [*(WIDGETS / f"{a}.ipynb" for a in apps), content / "campaigns.ipynb"]:
        (out / f"{path.stem}.html").write_text(FORWARD.format(
            app=path.stem, title=html.escape(notebook_title(path))))
    service_worker(site)
    print(f"static apps: {len(apps)} apps -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
