/**
 * The GM's eyes and hands after an action: its result where the GM clicked (a control down in a
 * section gets the result under its row too) and brought into view once inside the panel, which
 * scrolls, so it never lands scrolled away; then the focus on the next sensible control.
 * Works on the rendered panel (DOM), after every render of it.
 */
import { mainEvent } from "../client/battle-story.mjs";
import { setUpLine } from "./step-words.mjs";

/**
 * The GM's own last command when it was a set-up step (a unit made or changed…), which has no
 * result on top: its line as the set-up card says it, to show by its control; or null.
 */
function ownSetUpStep(shown) {
  const sent = shown.lastSent();
  const view = shown.view();
  if (!sent || sent.battle !== shown.battle() || !view || sent.version !== view.version) return null;
  const index = sent.version - 1;
  const entry = view.log?.[index];
  if (!entry || mainEvent(entry)) return null;
  const line = document.createElement("div");
  line.className = "bb-result";
  line.dataset.step = entry.events?.[0]?.type ?? "";
  line.dataset.version = String(sent.version);
  line.textContent = setUpLine(entry, view.log, index);
  return line;
}

/** The control of the last action ({action, unit}) in the rendered panel, or null. */
function control(root, acted) {
  if (!acted?.action) return null;
  const same = [...root.querySelectorAll(`[data-action="${acted.action}"]`)];
  return same.find((el) => (el.dataset.unit ?? "") === acted.unit) ?? null;
}

/**
 * Shows results and moves the focus for one panel. `shown`: the panel's front (`battle()`,
 * `view()`, `lastSent()`: wiring.mjs); `panel`: the BattlePanel's `acted` and `focusNext`.
 */
export class PanelEyes {
  constructor(shown, panel) {
    this.shown = shown;
    this.panel = panel;
    /** The version of the GM's own result last brought into view, and where that left the
     * panel's scroll (a later render may bring it back into view while the GM has not scrolled). */
    this.revealed = null;
    this.scrolledTo = null;
    /** How many units' results by *Apply casualties to every unit* were last brought into view. */
    this.appliedShown = 0;
  }

  /** After a render: the result, then the focus (`context`: the render's, `pending` in it). */
  rendered(root, context) {
    this.showResult(root);
    this.showApplied(root);
    this.moveFocus(root, context);
  }

  /**
   * After *Apply casualties to every unit*: the units' results by the button, brought into view
   * as they come (each unit's report arrives on its own), unless the GM has scrolled since.
   */
  showApplied(root) {
    if (this.panel.acted?.action !== "applyAll") return;
    const list = root.querySelector(".bb-applied-all");
    const content = list?.closest(".window-content");
    if (!list || !content) return;
    const count = list.children.length;
    if (count === this.appliedShown && content.scrollTop !== this.scrolledTo) return;
    this.appliedShown = count;
    list.scrollIntoView({ block: "nearest" });
    this.scrolledTo = content.scrollTop;
  }

  showResult(root) {
    const own = root.querySelector(".bb-result[data-own]") ?? ownSetUpStep(this.shown);
    if (!own) return;
    const acted = control(root, this.panel.acted);
    const row = acted?.closest(".bb-section, .bb-undo") ? acted.closest(".bb-row, .bb-unit-buttons") : null;
    if (!own.isConnected && !row) return; // a set-up step is shown only by its control
    let shown = own;
    if (row) {
      shown = own.cloneNode(true);
      shown.className = "bb-result-here"; // the one on top stays the panel's .bb-result
      shown.removeAttribute("role"); // one live region says it: the one on top
      shown.removeAttribute("aria-live");
      row.after(shown);
    }
    const content = shown.closest(".window-content");
    if (this.revealed === own.dataset.version) {
      // A later render of the same result (the world setting came back, a line above went):
      // brought into view again, unless the GM has scrolled since.
      if (!content || content.scrollTop !== this.scrolledTo) return;
    }
    this.revealed = own.dataset.version;
    shown.scrollIntoView({ block: "nearest" });
    this.scrolledTo = content?.scrollTop ?? null;
  }

  /**
   * The focus goes to the first of the controls the action named (`panel.focusNext`), in the
   * first render made once the action is over (its controls enabled again).
   */
  moveFocus(root, context) {
    const wanted = this.panel.focusNext;
    if (!wanted || context.pending) return;
    this.panel.focusNext = null;
    const next = wanted.map((selector) => root.querySelector(selector)).find((el) => el && !el.disabled);
    if (!next) return;
    next.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
  }
}
