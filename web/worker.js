// The rules core in Pyodide, in a Web Worker. Messages in: {type: "request", id, request, via?}.
// Messages out: {type: "progress", step}, {type: "ready", timings}, {type: "failed", step, message},
// {type: "reply", id, reply, ms}. Every rule is computed by background_battle.api.handle.

const BOOT_STEPS = ["runtime", "core", "ready"];
let core = null; // {handleJson, handleProxy} once booted
let failure = null; // {step, message} if booting failed

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

async function boot() {
  const t0 = performance.now();
  post({ type: "progress", step: BOOT_STEPS[0] });
  const { BUILD } = await importModule("./build-info.js", "runtime");
  const wheelUrl = new URL(BUILD.wheel, self.location.href).href;
  const wheelBytes = fetchBytes(wheelUrl, "core"); // downloads while Python boots
  wheelBytes.catch(() => {}); // reported when awaited below
  const { loadPyodide } = await importModule("./pyodide/pyodide.mjs", "runtime");
  let pyodide;
  try {
    pyodide = await loadPyodide({ indexURL: new URL("./pyodide/", self.location.href).href });
  } catch (error) {
    throw new LoadError("runtime", error.message);
  }
  const tRuntime = performance.now();
  post({ type: "progress", step: BOOT_STEPS[1] });
  const bytes = await wheelBytes;
  const sysconfig = pyodide.pyimport("sysconfig");
  const sitePackages = sysconfig.get_path("purelib");
  sysconfig.destroy();
  try {
    pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
  } catch (error) {
    throw new LoadError("core", `${wheelUrl}: ${error.message}`);
  }
  let api, json;
  try {
    api = pyodide.pyimport("background_battle.api");
    json = pyodide.pyimport("json");
  } catch (error) {
    throw new LoadError("core", error.message);
  }
  core = {
    // JSON text across the boundary: exact numbers, null stays null, two short-lived proxies.
    handleJson(request) {
      let pyRequest, pyReply;
      try {
        pyRequest = json.loads(JSON.stringify(request));
        pyReply = api.handle(pyRequest);
        return JSON.parse(json.dumps(pyReply));
      } finally {
        pyRequest?.destroy();
        pyReply?.destroy();
      }
    },
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
    pyodide: pyodide.version,
  });
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
    post({ type: "reply", id: message.id ?? null, reply: failedReply("unknown_message", `unknown message type: ${message.type}`) });
    return;
  }
  await booted;
  if (!core) {
    post({ type: "reply", id: message.id, reply: failedReply("runtime_failed", failure.message) });
    return;
  }
  const start = performance.now();
  let reply;
  try {
    reply = message.via === "proxy" ? core.handleProxy(message.request) : core.handleJson(message.request);
  } catch (error) {
    reply = failedReply("internal", error.message);
  }
  post({ type: "reply", id: message.id, reply, ms: performance.now() - start });
};
