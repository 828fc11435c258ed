/**
 * How the module talks to the bridge when things go wrong. Pure: never touches Foundry globals.
 *
 * - `backoffDelay`: how long to wait before the next reconnect attempt.
 * - `checkBridgeUrl`: whether a bridge URL setting is usable.
 * - `diagnose`: why a connection failed, as a reason key the shell turns into words.
 */

export const BACKOFF = Object.freeze({ first: 500, factor: 2, max: 30_000 });

/**
 * Delay in ms before reconnect attempt `attempt` (0 = first retry): doubling from 0.5 s up to
 * 30 s, with a jitter in [0.5, 1) of the step so that many clients do not retry in step.
 * `random` is a number in [0, 1) passed in (no hidden randomness).
 *
 * @example
 * backoffDelay(0, 0) // 250
 * backoffDelay(20, 0.999) // 29985
 */
export function backoffDelay(attempt, random) {
  if (!Number.isInteger(attempt) || attempt < 0) {
    throw new RangeError(`attempt: expected a whole number >= 0, got ${attempt}`);
  }
  if (typeof random !== "number" || !(random >= 0 && random < 1)) {
    throw new RangeError(`random: expected a number in [0, 1), got ${random}`);
  }
  const step = Math.min(BACKOFF.max, BACKOFF.first * BACKOFF.factor ** Math.min(attempt, 32));
  return Math.round(step * (0.5 + random / 2));
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const PRIVATE = /^(10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|[^.]+\.local)$/i;

/** Address space of a host name: "loopback", "private" or "public" (by its literal form). */
export function addressSpace(host) {
  if (LOOPBACK.test(host)) return "loopback";
  if (PRIVATE.test(host)) return "private";
  return "public";
}

/**
 * Checks the bridge URL setting. Returns {ok: true, url} or {ok: false, reason, field, accepted}.
 *
 * @example
 * checkBridgeUrl("ws://127.0.0.1:8765/ws").ok // true
 * checkBridgeUrl("http://127.0.0.1:8765").reason // "url_scheme"
 */
export function checkBridgeUrl(text) {
  const accepted = "ws://host:port/path or wss://host:port/path";
  if (typeof text !== "string" || !text.trim()) {
    return { ok: false, reason: "url_missing", field: "bridgeUrl", accepted };
  }
  let url;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: "url_invalid", field: "bridgeUrl", accepted };
  }
  if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    return { ok: false, reason: "url_scheme", field: "bridgeUrl", accepted };
  }
  return { ok: true, url: url.href };
}

/**
 * Why a connection attempt failed, from what the browser lets a page know.
 *
 * `page` is the Foundry page's location {protocol, hostname}; `url` the bridge URL;
 * `opened` whether the socket ever opened; `error` the bridge's error code if it sent one
 * (e.g. "bad_token"). A `closeCode` may come along and decides nothing: a browser closes a
 * failed connection with 1006 whatever went wrong.
 *
 * Reasons: "bad_token" (the bridge refused the token), "mixed_content" (an https page may not
 * open ws:// to a non-local host), "blocked_or_down" (a page from a public site reaching this
 * computer or the local network: the browser may have blocked it, or the bridge is not
 * running: the shell says both), "bridge_down" (nothing answered), "lost" (it was open and
 * closed).
 */
export function diagnose({ page, url, opened, error }) {
  if (error === "bad_token" || error === "unauthorized" || error === "forbidden") {
    return "bad_token";
  }
  if (opened) return "lost";
  let target;
  try {
    target = new URL(url);
  } catch {
    return "bridge_down";
  }
  const targetSpace = addressSpace(target.hostname);
  if (page.protocol === "https:" && target.protocol === "ws:" && targetSpace !== "loopback") {
    return "mixed_content";
  }
  const pageSpace = addressSpace(page.hostname);
  const rank = { public: 0, private: 1, loopback: 2 };
  if (rank[targetSpace] > rank[pageSpace]) return "blocked_or_down";
  return "bridge_down";
}
