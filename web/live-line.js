// The connection, where the GM acts: a line by the round's controls in live mode (live,
// reconnecting, offline…), and a refusal for want of the bridge cleared once it is back ("Not
// connected to the bridge…" said nothing true any more).
import { errorMessage, t } from "./i18n.js";

export function paintLiveLine(state) {
  const line = document.querySelector("#round-live");
  const { mode, live } = state;
  const shown = mode === "live" && Boolean(live.bridge) && Boolean(live.role);
  if (line.hidden !== !shown) line.hidden = !shown;
  if (!shown) return;
  const now = live.status.key.split(".").pop();
  line.dataset.state = now;
  line.textContent = t(live.status.key, live.status.params);
  if (now === "live") clearStaleRefusals();
}

/** The "not connected" refusals under the battle's forms, which the bridge's return made stale. */
function clearStaleRefusals() {
  const stale = errorMessage({ code: "disconnected" });
  for (const slot of document.querySelectorAll("#battle .form-error")) {
    if (slot.textContent === stale) slot.textContent = "";
  }
}
