// Choices a GM makes once and expects kept across reloads (the round mode).
import { STORAGE_KEYS } from "./config.js";
import { showChosenGroup } from "./battle-forms.js";

/** The round form's mode (roll for me, rolls typed in, strength lost), kept in this browser. */
export function rememberRoundMode() {
  const form = document.querySelector("#round-form");
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEYS.roundMode);
  } catch {
    saved = null;
  }
  const radio = saved && form.querySelector(`input[name="mode"][value="${CSS.escape(saved)}"]`);
  if (radio) {
    radio.checked = true;
    showChosenGroup(form, "mode", saved);
  }
  form.addEventListener("change", (event) => {
    if (event.target.name !== "mode") return;
    try {
      localStorage.setItem(STORAGE_KEYS.roundMode, event.target.value);
    } catch {
      /* private mode: kept for this visit */
    }
  });
}
