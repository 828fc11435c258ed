/**
 * How the panel runs its actions (panel-act-set-up.mjs, panel-act-fight.mjs,
 * panel-act-apply.mjs): one at a time, a bad entry as a notification naming the field. Each
 * action gets its phase's front (the few values and calls it uses: wiring.mjs, with the
 * panel's own), the panel's form and the control clicked: never the panel or the app.
 */
import { errorText } from "./i18n.mjs";

/** Empties fields after their command was taken (and forgets that they were typed in). */
export function clear(form, ...names) {
  for (const name of names) {
    const input = form.querySelector(`[name="${name}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = input.defaultChecked;
    else input.value = "";
    delete input.dataset.typed;
  }
}

/**
 * Wraps an action of a phase ("setUp", "fight", "apply"): one at a time (the second click of a
 * double click, or any click while an action is on its way, does nothing), and a bad entry
 * becomes a notification naming the field. A handler `(front, form, target, event)` may return
 * the controls (selectors, the first one found wins) the focus moves to once the panel shows
 * the result.
 */
export function act(phase, handler) {
  return function (event, target) {
    if (event?.detail > 1) return null;
    return this.front.once(async () => {
      this.acted = { action: target?.dataset?.action ?? null, unit: target?.dataset?.unit ?? "" };
      try {
        const next = await handler(this.fronts[phase], this.element, target, event);
        if (Array.isArray(next)) this.focusNext = next;
      } catch (error) {
        if (error.code) ui.notifications.warn(errorText(error));
        else for (const message of error.messages ?? [error.message]) ui.notifications.warn(message);
      }
    });
  };
}

/** An action of a phase that sends nothing (the panel only shows something else): run at once. */
export function plain(phase, handler) {
  return function (event, target) {
    return handler(this.fronts[phase], this.element, target, event);
  };
}

/** The actions of a phase, each wrapped by `act`. */
export function phaseActions(phase, handlers) {
  return Object.fromEntries(Object.entries(handlers).map(([name, handler]) => [name, act(phase, handler)]));
}
