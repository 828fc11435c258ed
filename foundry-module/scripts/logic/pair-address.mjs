/**
 * Where the bridge takes a request to join by a code: its /pair beside the /ws of the bridge
 * address setting (the same host and port; any path before /ws kept for a bridge behind a
 * proxy). Null for an address that is not a ws:// or wss:// URL.
 *
 *   pairAddress("ws://127.0.0.1:8765/ws")  -> "ws://127.0.0.1:8765/pair"
 */
export function pairAddress(url) {
  let parsed;
  try {
    parsed = new URL(String(url ?? "").trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "ws:" && parsed.protocol !== "wss:") return null;
  parsed.pathname = parsed.pathname.replace(/\/ws\/?$/, "").replace(/\/$/, "") + "/pair";
  parsed.search = "";
  parsed.hash = "";
  return parsed.toString();
}

/** A code as typed: digits only ("123 456", "123-456" -> "123456"); at most 32 characters read. */
export function typedCode(text) {
  return String(text ?? "")
    .slice(0, 32)
    .replace(/[\s-]/g, "");
}
