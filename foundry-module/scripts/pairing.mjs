/**
 * Joining the bridge by a code (the bridge's pair_handler.py): this browser asks at /pair, the
 * bridge shows the GM this page's origin and a code, the GM types the code here, and the bridge
 * answers with the GM token (kept in this browser) and the player token (the world's). The
 * bridge then allows this origin at /ws from now on. Nothing is sent but the request and the
 * code; nothing is stored before the bridge's `paired`.
 */
import { pairAddress } from "./logic/pair-address.mjs";

/**
 * Opens an attempt. `on.asked({origin, expires_in, tries})`, `on.refused({reason, tries_left})`,
 * `on.paired({gm_token, player_token, origin})`, `on.unreachable()`. Returns `{send(code),
 * close()}`; an attempt ends on `paired`, on a refusal other than a wrong code, or on close.
 */
export function askToPair(url, on) {
  const address = pairAddress(url);
  if (!address) {
    queueMicrotask(() => on.unreachable?.());
    return { send() {}, close() {} };
  }
  const socket = new WebSocket(address);
  let settled = false;
  socket.onopen = () => socket.send(JSON.stringify({ type: "pair", client: "foundry" }));
  socket.onmessage = (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message?.type === "pair_asked") on.asked?.(message);
    else if (message?.type === "pair_refused") {
      if (message.reason !== "wrong_code") settled = true;
      on.refused?.(message);
    } else if (message?.type === "paired") {
      settled = true;
      on.paired?.(message);
    }
  };
  socket.onclose = () => {
    if (!settled) on.unreachable?.();
    settled = true;
  };
  return {
    send(code) {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "pair_code", code }));
    },
    close() {
      settled = true;
      socket.close();
    },
  };
}
