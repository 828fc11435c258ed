// The module's files import one another without a circle: read from their `import … from "./…"`
// (and `export … from "./…"`) lines, every import names a file that is there, and following the
// imports from any file never comes back to it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { fileURLToPath } from "node:url";

const SCRIPTS = fileURLToPath(new URL("../../foundry-module/scripts/", import.meta.url));

/** A statement at the start of a line, up to its `from "./…"` (an import may span lines). */
const RELATIVE_IMPORT =
  /^(?:import|export)\s[^;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']|^import\s*["'](\.{1,2}\/[^"']+)["']/gm;

/** The relative files one source imports, as paths from the scripts folder. */
function importsOf(source, file) {
  return [...source.matchAll(RELATIVE_IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? m[2])));
}

/** Every .mjs file under `root`, relative to it. */
function modules(root, under = "") {
  return readdirSync(join(root, under), { withFileTypes: true }).flatMap((entry) => {
    const path = join(under, entry.name);
    if (entry.isDirectory()) return modules(root, path);
    return entry.name.endsWith(".mjs") ? [path] : [];
  });
}

/** The first circle found in `graph` (file → the files it imports) as a path back to its start, or null. */
function findCircle(graph) {
  const done = new Set();
  const path = [];
  const onPath = new Set();
  function visit(file) {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return null;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return null;
  }
  for (const file of [...graph.keys()].sort()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return null;
}

function moduleGraph() {
  const graph = new Map();
  for (const file of modules(SCRIPTS)) {
    graph.set(file, importsOf(readFileSync(join(SCRIPTS, file), "utf8"), file));
  }
  return graph;
}

test("the check reads imports over several lines and finds a circle where there is one", () => {
  const source =
    'import { a } from "./a.mjs";\nimport {\n  b,\n  c,\n} from "../b.mjs";\nexport { d } from "./logic/d.mjs";\n// import { e } from "./e.mjs"; is a comment\n';
  assert.deepEqual(importsOf(source, "logic/x.mjs"), ["logic/a.mjs", "b.mjs", "logic/logic/d.mjs"]);
  const graph = new Map([
    ["app.mjs", ["gm-choice.mjs", "log.mjs"]],
    ["gm-choice.mjs", ["step-cards.mjs"]],
    ["step-cards.mjs", ["app.mjs"]],
    ["log.mjs", []],
  ]);
  assert.deepEqual(findCircle(graph), ["app.mjs", "gm-choice.mjs", "step-cards.mjs", "app.mjs"]);
  graph.set("step-cards.mjs", ["log.mjs"]);
  assert.equal(findCircle(graph), null);
});

test("every file the module imports is there", () => {
  const graph = moduleGraph();
  assert.ok(graph.size > 30, `only ${graph.size} files read`);
  for (const [file, imports] of graph) {
    for (const imported of imports) {
      assert.ok(existsSync(join(SCRIPTS, imported)), `${file} imports ${relative(".", imported)}, which is not there`);
    }
  }
});

test("the module's imports form no circle", () => {
  const circle = findCircle(moduleGraph());
  assert.equal(circle, null, `import circle: ${circle?.join(" → ")}`);
});
