// Paint the battle the state shows (the local one or the bridge's): a render that only reads.
import { syncModifierRows } from "./modifier-rows.js";
import { renderView } from "./render.js";

const html = document.documentElement;

let formsDisabled = false; // by setReadOnly(true), last

/** Player pages show, never change: every form of the battle is disabled too (not only hidden). */
function setReadOnly(readOnly) {
  if (!readOnly && !formsDisabled) return; // nothing to enable again
  formsDisabled = readOnly;
  for (const form of document.querySelectorAll("#battle form[data-command], #odds-form")) {
    for (const control of form.elements) if (control.disabled !== readOnly) control.disabled = readOnly;
  }
}

/** `shared`: the GM's ticks of Influence effects shared through the bridge, live (fight-effects.js). */
export function paintBattle(view, state, shared = null) {
  const readOnly = state.mode === "live" && state.live.role !== null && state.live.role !== "gm";
  setReadOnly(readOnly);
  if (view) {
    renderView(view, document, shared);
    syncModifierRows(view);
    if (state.ready) {
      html.dataset.version = String(view.version);
      html.dataset.ready = "true";
    }
  }
  if (readOnly) setReadOnly(true); // again: renderView enables undo
}
