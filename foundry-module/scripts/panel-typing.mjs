/**
 * The GM's hands on the keyboard: what they typed, and where the caret was, survive every
 * re-render of the panel (another GM's command, a reconnect); Enter in a field runs its action.
 * Only fields the user changed are kept, so defaults that follow the battle (the winner's side
 * for Influence) still show in fields nobody touched.
 */

function key(input) {
  return `${input.name}|${input.dataset.unit ?? ""}`;
}

/** What the user typed in `content` and where the focus was, before it is replaced. */
export function keepTyping(content) {
  const typed = new Map();
  for (const input of content.querySelectorAll("[name][data-typed]")) {
    typed.set(key(input), input.type === "checkbox" ? input.checked : input.value);
  }
  const active = document.activeElement;
  let focus = null;
  if (active && content.contains(active) && active.name) {
    focus = { key: key(active), start: null, end: null };
    try {
      focus.start = active.selectionStart;
      focus.end = active.selectionEnd;
    } catch {
      // number inputs have no caret position to keep
    }
  } else if (active && content.contains(active) && active.dataset?.action) {
    focus = { action: active.dataset.action, unit: active.dataset.unit ?? "" };
  }
  return { typed, focus };
}

/** Puts the typed values and the focus back into the new content. */
export function restoreTyping(content, { typed, focus }) {
  for (const input of content.querySelectorAll("[name]")) {
    const k = key(input);
    if (!typed.has(k)) continue;
    if (input.type === "checkbox") input.checked = typed.get(k);
    else input.value = typed.get(k);
    input.dataset.typed = "1";
  }
  if (!focus) return;
  const target = [...content.querySelectorAll(focus.key ? "[name]" : "[data-action]")].find((el) =>
    focus.key ? key(el) === focus.key : el.dataset.action === focus.action && (el.dataset.unit ?? "") === focus.unit,
  );
  if (!target) return;
  target.focus({ preventScroll: true });
  if (focus.start !== null && focus.start !== undefined) {
    try {
      target.setSelectionRange(focus.start, focus.end);
    } catch {
      // not a text field
    }
  }
}

/**
 * Marks fields the user changed, and makes Enter in a field with `data-enter` run that action.
 * A field with `data-applied` (the battle shown, the Influence table) is not kept: its change
 * is applied at once, and the panel shows what is in force (a GM's battle in set-up, another
 * GM's choice).
 */
export function wireKeys(root) {
  const mark = (event) => {
    if (event.target.name && !("applied" in event.target.dataset)) event.target.dataset.typed = "1";
  };
  root.addEventListener("input", mark);
  root.addEventListener("change", mark);
  root.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    const action = event.target.dataset?.enter;
    if (!action) return;
    event.preventDefault();
    const scope = event.target.closest(".bb-unit, .bb-row, .bb-scene-proposal, .bb-panel") ?? root;
    const button = scope.querySelector(`[data-action="${action}"]`) ?? root.querySelector(`[data-action="${action}"]`);
    if (button && !button.disabled) button.click();
  });
}
