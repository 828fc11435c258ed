// The rules core in Pyodide, in a Web Worker. Every rule is computed by background_battle.api.handle.
// Messages in: {type: "request", id, text} (the request as JSON text), or
// {type: "request", id, request, via: "proxy"} (an object converted by proxies: the benchmark).
// Messages out: {type: "progress", step}, {type: "ready", timings}, {type: "failed", step, message},
// {type: "reply", id, text, ms} (the reply as JSON text) or {type: "reply", id, reply, ms};
// {type: "snapshot", bytes, ms} once Python's memory is kept for the next visit.

const BOOT_STEPS = ["runtime", "core", "ready"];
const steps = {}; // when each step of the boot ended, ms since the worker started (the benchmark)
let core = null; // {handleJson, handleProxy} once booted
let failure = null; // {step, message} if booting failed
// Work off the first result's path, done right after the first reply is posted (not later: a
// phone's tab closed or frozen soon after would never do it): the snapshot of a first visit, the
// core's files after a restore.
let later = null;

const post = (message) => self.postMessage(message);

class LoadError extends Error {
  constructor(step, message) {
    super(message);
    this.step = step;
  }
}

async function fetchBytes(url, step) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new LoadError(step, `${url}: ${error.message}`);
  }
  if (!response.ok) throw new LoadError(step, `${url}: HTTP ${response.status}`);
  return response.arrayBuffer();
}

async function importModule(url, step) {
  try {
    return await import(url);
  } catch (error) {
    throw new LoadError(step, `${url}: ${error.message}`);
  }
}

// A memory snapshot of Python with the core imported, kept in Cache Storage: a second visit
// restores it instead of starting Python and importing again (Pyodide's _makeSnapshot and
// _loadSnapshot options). Where Cache Storage is missing (not a secure context) it boots normally.
const SNAPSHOTS = "bb-python-snapshot";
const canSnapshot = typeof caches !== "undefined";

// The snapshot kept (there is one at most: keepSnapshot drops the others), read at once, while the
// build's name for it is still on its way: {key, bytes} or null.
async function readKeptSnapshot() {
  if (!canSnapshot) return null;
  try {
    const cache = await caches.open(SNAPSHOTS);
    const [request] = await cache.keys();
    const hit = request && (await cache.match(request));
    return hit ? { key: request.url, bytes: new Uint8Array(await hit.arrayBuffer()) } : null;
  } catch {
    return null;
  }
}

async function keepSnapshot(key, bytes) {
  try {
    const cache = await caches.open(SNAPSHOTS);
    for (const old of await cache.keys()) await cache.delete(old);
    if (bytes) await cache.put(key, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
  } catch {
    /* quota or no Cache Storage: the next visit boots normally */
  }
}

// The standard library is the build's (trimmed and compiled: build-info.js names it), not the
// python_stdlib.zip next to pyodide.mjs: given as stdLibURL.
async function startPython(loadPyodide, where, snapshotKey, kept) {
  const found = await kept;
  steps.snapshotRead = performance.now();
  const snapshot = found && found.key === snapshotKey ? found.bytes : null;
  if (snapshot) {
    try {
      return { pyodide: await loadPyodide({ ...where, _loadSnapshot: snapshot }), fromSnapshot: true };
    } catch {
      await keepSnapshot(snapshotKey, null); // stale or damaged: drop it, boot from scratch
    }
  }
  return { pyodide: await loadPyodide({ ...where, _makeSnapshot: canSnapshot }), fromSnapshot: false };
}

async function boot() {
  const t0 = performance.now();
  post({ type: "progress", step: BOOT_STEPS[0] });
  const kept = readKeptSnapshot(); // while the modules load
  const [{ BUILD }, { loadPyodide }] = await Promise.all([
    importModule("./build-info.js", "runtime"),
    importModule("./pyodide/pyodide.mjs", "runtime"),
  ]);
  steps.imported = performance.now();
  const wheelUrl = new URL(BUILD.wheel, self.location.href).href;
  const wheelBytes = fetchBytes(wheelUrl, "core"); // downloads while Python boots
  wheelBytes.catch(() => {}); // reported when awaited below
  const snapshotKey = new URL(`./snapshot/${BUILD.snapshot}`, self.location.href).href;
  let pyodide, fromSnapshot;
  try {
    const where = {
      indexURL: new URL("./pyodide/", self.location.href).href,
      stdLibURL: new URL(BUILD.stdlib, self.location.href).href,
      lockFileContents: BUILD.lock, // given here: one request fewer (the page loads no package)
    };
    ({ pyodide, fromSnapshot } = await startPython(loadPyodide, where, snapshotKey, kept));
  } catch (error) {
    throw new LoadError("runtime", error.message);
  }
  const tRuntime = performance.now();
  post({ type: "progress", step: BOOT_STEPS[1] });
  let api, handleJson;
  // The core's files, into site-packages as Pyodide itself finds it (sysconfig would add 15 kB
  // to the library).
  const unpackWheel = async () => {
    const bytes = await wheelBytes;
    steps.wheel = performance.now();
    const sitePackages = pyodide.runPython("import site; site.getsitepackages()[0]");
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
    steps.unpacked = performance.now();
  };
  try {
    if (fromSnapshot) {
      // Every module of the core is imported in the snapshot and its one data file read (the
      // default Influence table, cached): only a traceback's source lines need the files, so
      // they go in after the first reply, off the first result's path.
      later = () => unpackWheel().catch(() => {}); // a traceback then shows no source
    } else {
      await unpackWheel();
      if (canSnapshot) {
        pyodide.runPython(
          "import json, background_battle.api, background_battle.odds, background_battle.influence\n" +
            "background_battle.influence.default_table()",
        );
        later = () => takeSnapshot(pyodide, snapshotKey);
      }
    }
    api = pyodide.pyimport("background_battle.api");
    handleJson = api.handle_json; // kept for the worker's life
  } catch (error) {
    if (error instanceof LoadError) throw error; // the wheel did not come: it says so itself
    throw new LoadError("core", `${wheelUrl}: ${error.message}`);
  }
  core = {
    // JSON text across the boundary, as the page sent it and as the page gets it (parsed once,
    // on the page's side): exact numbers, null stays null; a string each way, no proxy.
    handleText: (text) => handleJson(text),
    // Proxy conversion (toPy / toJs with Object.fromEntries), measured by the benchmark.
    handleProxy(request) {
      let pyRequest, pyReply;
      try {
        pyRequest = pyodide.toPy(request);
        pyReply = api.handle(pyRequest);
        return pyReply.toJs({ dict_converter: Object.fromEntries });
      } finally {
        pyRequest?.destroy();
        pyReply?.destroy();
      }
    },
  };
  const tCore = performance.now();
  post({
    type: "ready",
    timings: { runtime: tRuntime - t0, core: tCore - tRuntime, total: tCore - t0 },
    steps: { start: t0, ...steps, runtime: tRuntime, core: tCore },
    pyodide: pyodide.version,
    fromSnapshot,
  });
}

/**
 * Python's memory, kept for the next visit, once the first replies are out (off the first
 * result's path). Across the boundary only strings have passed, so Python holds no JavaScript
 * object the snapshot could not name; one it refuses is simply not kept (the next visit boots
 * normally). Posts {type: "snapshot", bytes, ms}.
 */
async function takeSnapshot(pyodide, key) {
  const t = performance.now();
  let snapshot;
  try {
    snapshot = pyodide.makeMemorySnapshot();
  } catch (error) {
    post({ type: "snapshot", bytes: 0, ms: performance.now() - t, refused: error.message });
    return;
  }
  post({ type: "snapshot", bytes: snapshot.length, ms: performance.now() - t });
  await keepSnapshot(key, snapshot);
}

const booted = boot().catch((error) => {
  failure = { step: error.step || "runtime", message: error.message || String(error) };
  post({ type: "failed", ...failure });
});

function failedReply(code, message) {
  return { ok: false, error: { code, field: null, message, params: {} } };
}

self.onmessage = async (event) => {
  const message = event.data || {};
  if (message.type !== "request") {
    post({
      type: "reply",
      id: message.id ?? null,
      reply: failedReply("unknown_message", `unknown message type: ${message.type}`),
    });
    return;
  }
  await booted;
  if (!core) {
    post({ type: "reply", id: message.id, reply: failedReply("runtime_failed", failure.message) });
    return;
  }
  const start = performance.now();
  try {
    if (message.via === "proxy") {
      const reply = core.handleProxy(message.request);
      post({ type: "reply", id: message.id, reply, ms: performance.now() - start });
    } else {
      const text = core.handleText(message.text);
      post({ type: "reply", id: message.id, text, ms: performance.now() - start });
    }
  } catch (error) {
    post({
      type: "reply",
      id: message.id,
      reply: failedReply("internal", error.message),
      ms: performance.now() - start,
    });
  }
  if (later) {
    setTimeout(later, 0);
    later = null;
  }
};
