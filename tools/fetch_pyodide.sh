#!/usr/bin/env bash
# Copy Pyodide's runtime from its npm package into the site's assets, so the live roller
# cells load it from the site itself (no CDN at page-load time).
# Usage: tools/fetch_pyodide.sh VERSION CACHE_DIR DEST_DIR
set -euo pipefail
version="$1" cache="$2" dest="$3"
files=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json)

mkdir -p "$cache" "$dest"
tarball="$cache/pyodide-$version.tgz"
if [[ ! -s "$tarball" ]]; then
    (cd "$cache" && npm pack "pyodide@$version" --silent >/dev/null)
fi
unpacked="$cache/pyodide-$version"
rm -rf "$unpacked" && mkdir -p "$unpacked"
tar -xzf "$tarball" -C "$unpacked"
for f in "${files[@]}"; do
    cp "$unpacked/package/$f" "$dest/$f"
done
# A stale stamp from another version must not claim these files.
rm -f "$dest"/.version-*
echo "pyodide $version -> $dest"
