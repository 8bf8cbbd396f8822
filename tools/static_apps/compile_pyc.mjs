// Adds compiled bytecode to the static apps' packages zip, compiled by the very Pyodide the
// pages run (so the .pyc files match its Python exactly): imports in the page then skip
// compiling source, about half of their time. Run by tools/build_static_apps.py:
//
//   node tools/static_apps/compile_pyc.mjs PYODIDE_DIR IN.zip OUT.zip
//
// The .pyc files are "unchecked-hash" ones (never compared with the source's time, which
// unpacking does not keep) beside the sources, which stay for tracebacks.
import fs from "node:fs";
import path from "node:path";

const [pyodideDir, input, output] = process.argv.slice(2);
const { loadPyodide } = await import(path.resolve(pyodideDir, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(input)), "zip", { extractDir: "/pkg" });
pyodide.runPython(`
import compileall, os, py_compile, zipfile
ok = compileall.compile_dir("/pkg", quiet=1, workers=1,
                            invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
if not ok:
    raise SystemExit("a module of the packages does not compile")
names = []
for folder, _, files in os.walk("/pkg"):
    names += [os.path.join(folder, f) for f in files]
with zipfile.ZipFile("/out.zip", "w", zipfile.ZIP_DEFLATED) as out:
    for name in sorted(names):
        info = zipfile.ZipInfo(os.path.relpath(name, "/pkg"), date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(name, "rb") as f:
            out.writestr(info, f.read())
`);
fs.writeFileSync(output, pyodide.FS.readFile("/out.zip"));
