// Build time (web/build.py runs it): the standard library the page needs, trimmed from the pinned
// Pyodide's python_stdlib.zip, and checked before it is shipped.
//
//   node web/trim_stdlib.mjs PINNED_PYODIDE_DIR SITE_PYODIDE_DIR CORE_WHEEL JOB.json
//
// JOB.json: {"modules": [every module of the core], "vectors": [the golden vectors],
//            "extra": [stdlib files to keep anyway]}.
// 1. Boot the pinned Pyodide in Node the way web/worker.js does (site-packages, the wheel unpacked,
//    the memory snapshot), import every core module and answer every golden vector: the files of
//    the standard library imported by then are the ones the page needs.
// 2. Write them into SITE_PYODIDE_DIR/python_stdlib.zip without comments, docstrings and
//    `if __name__ == "__main__"` blocks, indented by one space: parsed and unparsed by Pyodide's
//    own Python (ast), so the code is the same code.
// 3. Boot again from SITE_PYODIDE_DIR, the files the page ships: every core module must import
//    and every vector must give its recorded response, or the build fails (exit status 1).
// Prints one JSON line: {"files": n, "bytes": size of the zip}.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pinned, site, wheel, jobFile] = process.argv.slice(2);
const job = JSON.parse(fs.readFileSync(jobFile, "utf8"));
const STDLIB = "/lib/python314.zip";

async function bootLikeTheWorker(dir) {
  const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
  const pyodide = await loadPyodide({ indexURL: dir + path.sep, _makeSnapshot: true });
  const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
  pyodide.unpackArchive(new Uint8Array(fs.readFileSync(wheel)), "wheel", { extractDir: sitePackages });
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
  probe = await bootLikeTheWorker(pinned);
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
files = {getattr(m, "__file__", None) or "" for m in list(sys.modules.values())}
sorted({f[len(prefix):] for f in files if f.startswith(prefix)} | set(extra))
`,
  )
  .toJs();

// 2. The trimmed zip, written by Pyodide's Python (its ast knows its own syntax).
probe.globals.set("used", probe.toPy(used));
const zipBytes = probe
  .runPython(
    `
import ast, io, zipfile

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


def trimmed(source):
    """The same code without docstrings, comments, main blocks and blank lines, indented by one space
    (as Python runs with -OO: the standard library does not rely on its docstrings)."""
    tree = ast.parse(source)
    tree.body = [s for s in tree.body if not is_main_block(s)]
    for node in ast.walk(tree):
        if isinstance(node, BODIES) and node.body and is_docstring(node.body[0]):
            node.body = node.body[1:] or [ast.Pass()]
    lines = []
    for line in ast.unparse(tree).split("\\n"):  # no docstring left: no string spans lines
        code = line.lstrip(" ")
        if code:
            lines.append(" " * ((len(line) - len(code)) // 4) + code)
    return ("\\n".join(lines) + "\\n").encode()


with zipfile.ZipFile("${STDLIB}") as full:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for name in used:
            if name in full.namelist():
                data = full.read(name)
                data = trimmed(data) if name.endswith(".py") else data
                out.writestr(zipfile.ZipInfo(name, WHEN), data, zipfile.ZIP_DEFLATED, 9)
buffer.getvalue()
`,
  )
  .toJs();
fs.writeFileSync(path.join(site, "python_stdlib.zip"), zipBytes);

// 3. The shipped files, checked.
try {
  await bootLikeTheWorker(site);
} catch (error) {
  fs.rmSync(path.join(site, "python_stdlib.zip"), { force: true });
  console.error(`the trimmed standard library fails: ${lastLines(error)}`);
  process.exit(1);
}
console.log(JSON.stringify({ files: used.length, bytes: zipBytes.length }));
