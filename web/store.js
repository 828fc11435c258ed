// Keeping a battle: in this browser, in a share link, in a JSON file.
import { STORAGE_KEYS } from "./config.js";

export function loadSaved(key = STORAGE_KEYS.battle) {
  saveNow(); // what is about to be saved is what is read
  try {
    const text = localStorage.getItem(key);
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** Keep a value (or a JSON text of it, as it is) under key; false when the browser refuses. */
export function save(value, key = STORAGE_KEYS.battle) {
  waiting.delete(key); // an older value waiting for saveSoon must not come after this one
  try {
    localStorage.setItem(key, typeof value === "string" ? value : JSON.stringify(value));
    return true;
  } catch {
    return false; // private mode or full: the battle still lives in the page
  }
}

// Saved soon: the values waiting (key -> value, the last one of each key), written once the
// change is painted, so that writing the whole battle (which grows with its log) is not part of
// an edit's repaint. Never lost: written before anything reads the storage (loadSaved), when the
// page is hidden or left (a reload, a closed tab), and at most a moment later in a hidden tab,
// which paints no frame.
const waiting = new Map();
let soon = null;
const LATEST_MS = 250;

/** Keep a value under key as `save` does, right after the next paint. */
export function saveSoon(value, key = STORAGE_KEYS.battle) {
  waiting.set(key, value);
  if (soon) return;
  const frame = requestAnimationFrame(() => setTimeout(saveNow, 0)); // after this frame's paint
  const latest = setTimeout(saveNow, LATEST_MS);
  soon = { frame, latest };
}

/** Write every value waiting for `saveSoon`, now. */
export function saveNow() {
  if (soon) {
    cancelAnimationFrame(soon.frame);
    clearTimeout(soon.latest);
    soon = null;
  }
  for (const [key, value] of [...waiting]) save(value, key);
}

/** How many values wait for `saveSoon` (the tests read the storage once none does). */
export const savesWaiting = () => waiting.size;

addEventListener("pagehide", saveNow);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") saveNow();
});

function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

/** The fragment of a share link ("b=z…" deflated, or "b=j…" plain) that carries a battle. */
export async function encodeShare(battle) {
  const bytes = new TextEncoder().encode(JSON.stringify(battle));
  if (typeof CompressionStream === "function") {
    return `b=z${toBase64Url(await pipe(bytes, new CompressionStream("deflate-raw")))}`;
  }
  return `b=j${toBase64Url(bytes)}`;
}

/** The battle JSON in a location hash, null if there is none; throws on a damaged one. */
export async function decodeShare(hash) {
  const match = /^#?b=([zj])([A-Za-z0-9_-]*)$/.exec(hash || "");
  if (!match) return null;
  let bytes = fromBase64Url(match[2]);
  if (match[1] === "z") bytes = await pipe(bytes, new DecompressionStream("deflate-raw"));
  return JSON.parse(new TextDecoder().decode(bytes));
}

export function download(filename, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const fileName = (name) => `${String(name || "battle").replace(/[^\p{L}\p{N}_-]+/gu, "-")}.battle.json`;
