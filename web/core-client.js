// The page's side of the worker: send a request to background_battle.api.handle, get its reply.

// Each reply's JSON text as it came from the worker: kept as it is, it need not be written again.
const replyTexts = new WeakMap();

/** The JSON text a reply of `request` was parsed from (undefined for other objects). */
export const replyText = (reply) => replyTexts.get(reply);

export class CoreClient {
  /**
   * @param {URL|string} workerUrl (used unless an early-started worker is handed over)
   * @param {{onProgress?: (step: string) => void, onReady?: (info: object) => void,
   *          onFailed?: (failure: {step: string, message: string}) => void,
   *          onSnapshot?: (info: {bytes: number, ms: number}) => void}} hooks
   */
  constructor(workerUrl, hooks = {}, early = null) {
    this.hooks = hooks;
    this.pending = new Map();
    this.nextId = 1;
    this.timings = []; // round trips in ms, page side (request sent -> reply received)
    this.workerTimings = []; // time inside the worker (conversion + api.handle), ms
    this.worker = early?.worker || new Worker(workerUrl, { type: "module" });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      this.fail({ step: "worker", message: event.message || "the worker could not start" });
    };
    if (early?.worker) {
      // After the caller's synchronous setup, before any later message.
      queueMicrotask(() => {
        for (const message of early.messages.splice(0)) this.receive(message);
      });
    }
  }

  receive(message) {
    if (message.type === "progress") this.hooks.onProgress?.(message.step);
    else if (message.type === "ready") this.hooks.onReady?.(message);
    else if (message.type === "failed") this.fail(message);
    else if (message.type === "snapshot") this.hooks.onSnapshot?.(message);
    else if (message.type === "reply") {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      const reply = message.text === undefined ? message.reply : JSON.parse(message.text);
      if (message.text !== undefined && reply && typeof reply === "object") replyTexts.set(reply, message.text);
      this.timings.push(performance.now() - waiting.sent);
      if (typeof message.ms === "number") this.workerTimings.push(message.ms);
      waiting.resolve(reply);
    }
  }

  fail(failure) {
    this.failure = failure;
    this.hooks.onFailed?.(failure);
    for (const [id, waiting] of this.pending) {
      waiting.resolve({
        ok: false,
        error: { code: "runtime_failed", field: null, message: failure.message, params: {} },
      });
      this.pending.delete(id);
    }
  }

  /**
   * Send one request ({op, ...}); resolves with the core's reply dict (never rejects). It crosses
   * to the worker and back as JSON text (one string each way, parsed once on each side); `via:
   * "proxy"` sends the object for Pyodide's proxies to convert (the benchmark compares them).
   */
  request(request, via = "json") {
    if (this.failure) {
      return Promise.resolve({
        ok: false,
        error: { code: "runtime_failed", field: null, message: this.failure.message, params: {} },
      });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, sent: performance.now() });
      this.worker.postMessage(
        via === "proxy"
          ? { type: "request", id, request, via }
          : { type: "request", id, text: JSON.stringify(request) },
      );
    });
  }
}

/** A fresh 32-bit seed for a request that may roll dice. */
export function freshSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
