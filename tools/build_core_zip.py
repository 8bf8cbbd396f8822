"""Pack the standard-library-only core (``companion/`` minus ``companion/widgets``,
``companion/app``, ``companion/server`` and most of ``companion/store``) into a zip.

The reference site's live roller cells fetch this zip and unpack it into Pyodide's file
system, so the browser rolls with the very code the CLI uses. Entries carry a fixed
timestamp and sorted order, so an unchanged package gives a byte-identical zip; the file
is only rewritten when its content changes (keeps ``mkdocs serve`` from looping).

Usage: python tools/build_core_zip.py OUT.zip
"""

from __future__ import annotations

import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion"
EXCLUDED_DIRS = {"widgets", "store", "app", "server", "__pycache__"}
#: The store's modules the site's verifier needs to judge a file as ``companion verify``
#: does (companion.store.judge): a campaign export's chain and its rule rolls made again
#: (companion.store.recompute rebuilds the trackers from the log's facts), a seat's view's
#: places in the chain (companion.store.view_chain). Standard library only, none of them
#: opens a database. The rest of the store stays out.
VERIFIER_STORE = ("__init__.py", "act_stamps.py", "campaign.py", "chain.py", "document.py",
                  "judge.py", "permissions.py", "recompute.py", "records.py", "registry.py",
                  "upcast.py", "view_chain.py")
#: The campaign's parts (``store/_campaign/``, issue 43) go with ``campaign.py``.
CAMPAIGN_PARTS = "_campaign"
INCLUDED_SUFFIXES = {".py", ".toml", ".json"}
FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def core_files() -> list[Path]:
    """The files of the core, sorted, relative to the repository root."""
    files = []
    for path in PACKAGE.rglob("*"):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] == "store" and (
                (len(rel.parts) == 2 and rel.name in VERIFIER_STORE)
                or (len(rel.parts) == 3 and rel.parts[1] == CAMPAIGN_PARTS
                    and "__pycache__" not in rel.parts)):
            pass  # the verifier's replay (above)
        elif any(part in EXCLUDED_DIRS for part in rel.parts):
            continue
        if path.is_file() and path.suffix in INCLUDED_SUFFIXES:
            files.append(path.relative_to(ROOT))
    return sorted(files)


def build_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rel in core_files():
            info = zipfile.ZipInfo(rel.as_posix(), date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, (ROOT / rel).read_bytes())
    return buffer.getvalue()


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: build_core_zip.py OUT.zip\n")
        return 2
    out = Path(argv[1])
    data = build_zip()
    if out.exists() and out.read_bytes() == data:
        return 0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print(f"core zip: {out} ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
