// Build time (web/build.py runs it): the standard library the page needs, trimmed from the pinned
// Pyodide's python_stdlib.zip and compiled by that Pyodide's own Python, the core's wheel with its
// bytecode beside its sources, both checked before they are shipped.
//
//   node web/trim_stdlib.mjs PINNED_PYODIDE_DIR SITE_PYODIDE_DIR CORE_WHEEL JOB.json SITE_WHEEL
//
// JOB.json: {"modules": [every module of the core], "vectors": [the golden vectors],
//            "extra": [stdlib files to keep anyway], "stdlib": "file name in SITE_PYODIDE_DIR"}.
// 1. Boot the pinned Pyodide in Node the way web/worker.js does (site-packages, the wheel unpacked,
//    the memory snapshot), import every core module and answer every golden vector: the files of
//    the standard library imported by then are the ones the page needs.
// 2. Compile them, without docstrings and `if __name__ == "__main__"` blocks (the same code, its
//    line numbers those of Python's own files), into unchecked-hash .pyc files (PEP 552: Python
//    never reads a source to check them) and write those alone into SITE_PYODIDE_DIR/<stdlib>:
//    nothing is compiled when the page starts. Write SITE_WHEEL: CORE_WHEEL with each module's
//    .pyc in its __pycache__ (and in RECORD), its sources kept for the tracebacks of its errors.
//    Compiled by the pinned Pyodide's Python, so the bytecode is the one the page's Python reads.
// 3. Boot again from SITE_PYODIDE_DIR, the stdlib and SITE_WHEEL, the files the page ships: every
//    core module must import (the standard library from its .pyc, the core from its __pycache__)
//    and every vector must give its recorded response, or the build fails (exit status 1).
// Prints one JSON line: {"files": n, "bytes": size of the stdlib zip, "wheel": size of the wheel}.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pinned, site, wheel, jobFile, siteWheel] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(jobFile, "utf8"));
const STDLIB = "/lib/python314.zip";

async function bootLikeTheWorker(dir, stdLibURL, wheelFile, env = {}) {
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: dir + path.sep, stdLibURL, env, _makeSnapshot: true });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(wheelFile)), "wheel", { extractDir: sitePackages });
  pyodide.runPython("import json, background_battle.api, background_battle.odds");
  pyodide.makeMemorySnapshot();
  pyodide.globals.set("core_modules", pyodide.toPy(job.modules));
  pyodide.runPython("import importlib\nfor name in core_modules: importlib.import_module(name)");
  const api = pyodide.pyimport("background_battle.api");
  const json = pyodide.pyimport("json");
  for (const vector of job.vectors) {
    const reply = JSON.parse(json.dumps(api.handle(json.loads(JSON.stringify(vector.request)))));
    assert.deepEqual(reply, vector.response, `golden vector "${vector.name}"`);
  }
  return pyodide;
}

// An error in one line: a Python error's last lines (the exception itself), else the first line.
function lastLines(error) {
  const lines = String(error?.message ?? error)
    .trim()
    .split("\n");
  return (error?.name === "PythonError" ? lines.slice(-3) : lines.slice(0, 1)).join(" ");
}

// 1. What the page imports.
let probe;
try {
  // PYTHONNODEBUGRANGES: the bytecode this Python compiles keeps each instruction's line but not
  // its columns (a quarter smaller; a traceback then marks no column range with ^^^).
  probe = await bootLikeTheWorker(pinned, path.join(pinned, "python_stdlib.zip"), wheel, {
    PYTHONNODEBUGRANGES: "1",
  });
} catch (error) {
  console.error(`the pinned Pyodide fails the check before any trimming: ${lastLines(error)}`);
  process.exit(1);
}
probe.globals.set("extra", probe.toPy(job.extra ?? []));
const used = probe
  .runPython(
    `
import sys
prefix = "${STDLIB}/"
def frozen(m):  # in Python's binary already (os, site, io, ...): its __file__ names the zip
    return getattr(getattr(m, "__spec__", None), "origin", None) == "frozen"
files = {getattr(m, "__file__", None) or "" for m in list(sys.modules.values()) if not frozen(m)}
sorted({f[len(prefix):] for f in files if f.startswith(prefix)} | set(extra))
`,
  )
  .toJs();

// 2. The compiled zip and wheel, written by Pyodide's Python (its ast and its compiler).
probe.globals.set("used", probe.toPy(used));
probe.globals.set("core_wheel", new Uint8Array(fs.readFileSync(wheel)));
const [zipBytes, wheelBytes] = probe
  .runPython(
    `
import ast, importlib.util, io, os, site, zipfile
from importlib._bootstrap_external import _code_to_hash_pyc

BODIES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
WHEN = (1980, 1, 1, 0, 0, 0)  # the same bytes for the same input


def is_docstring(statement):
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def is_main_block(statement):  # if __name__ == "__main__": never true in the page
    test = getattr(statement, "test", None)
    return (
        isinstance(statement, ast.If)
        and isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == "__name__"
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "__main__"
    )


def compiled(source, filename, strip):
    """An unchecked-hash .pyc of source, as if it lived at filename; with strip, without
    docstrings and main blocks (as Python runs with -OO: the standard library does not rely on
    its docstrings), each line where it is in the source."""
    tree = ast.parse(source, filename)
    if strip:
        tree.body = [s for s in tree.body if not is_main_block(s)] or [ast.Pass()]
        for node in ast.walk(tree):
            if isinstance(node, BODIES) and node.body and is_docstring(node.body[0]):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), node.body[0])]
        ast.fix_missing_locations(tree)
    code = compile(tree, filename, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def stdlib_zip():
    buffer = io.BytesIO()
    with zipfile.ZipFile("${STDLIB}") as full, zipfile.ZipFile(buffer, "w") as out:
        names = set(full.namelist())
        for name in sorted(n for n in used if n in names):
            data = full.read(name)
            if name.endswith(".py"):
                name, data = name[:-3] + ".pyc", compiled(data, f"${STDLIB}/{name}", True)
            out.writestr(zipfile.ZipInfo(name, WHEN), data, zipfile.ZIP_DEFLATED, 9)
    return buffer.getvalue()


def compiled_wheel():
    """The core's wheel, each module's .pyc added where Python looks for it in site-packages
    (and listed in RECORD), before the .dist-info files as a wheel has them last."""
    packages = site.getsitepackages()[0]
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(bytes(core_wheel))) as pure, zipfile.ZipFile(buffer, "w") as out:
        code = [e for e in pure.infolist() if ".dist-info/" not in e.filename]
        meta = [e for e in pure.infolist() if ".dist-info/" in e.filename]
        added = {}
        for entry in code:
            out.writestr(entry, pure.read(entry))
            if entry.filename.endswith(".py"):
                where = importlib.util.cache_from_source(f"{packages}/{entry.filename}")
                pyc = compiled(pure.read(entry), f"{packages}/{entry.filename}", False)
                added[os.path.relpath(where, packages)] = (entry, pyc)
        for name in sorted(added):
            entry, data = added[name]
            info = zipfile.ZipInfo(name, entry.date_time)
            info.external_attr = entry.external_attr
            out.writestr(info, data, zipfile.ZIP_DEFLATED)
        for entry in meta:
            data = pure.read(entry)
            if entry.filename.endswith(".dist-info/RECORD"):
                data += "".join(f"{name},,\\n" for name in sorted(added)).encode()
            out.writestr(entry, data)
    return buffer.getvalue()


[stdlib_zip(), compiled_wheel()]
`,
  )
  .toJs();
fs.writeFileSync(path.join(site, job.stdlib), zipBytes);
fs.writeFileSync(siteWheel, wheelBytes);

// 3. The shipped files, checked.
try {
  const shipped = await bootLikeTheWorker(site, path.join(site, job.stdlib), siteWheel);
  const sources = shipped.runPython(`
import sys
[m.__name__ for m in list(sys.modules.values())
 if str(getattr(m, "__file__", "")).startswith("${STDLIB}/") and not m.__file__.endswith(".pyc")
 and getattr(m.__spec__, "origin", None) != "frozen"]
`);
  assert.deepEqual(sources.toJs(), [], `standard library modules not loaded from their .pyc: ${sources.toJs()}`);
} catch (error) {
  fs.rmSync(path.join(site, job.stdlib), { force: true });
  fs.rmSync(siteWheel, { force: true });
  console.error(`the compiled standard library or core fails: ${lastLines(error)}`);
  process.exit(1);
}
console.log(JSON.stringify({ files: used.length, bytes: zipBytes.length, wheel: wheelBytes.length }));
