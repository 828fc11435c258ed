/**
 * The panel's building blocks: buttons, fields and sections, each with its tooltip (Foundry's
 * `data-tooltip`) and an accessible name. Every label and tooltip is a key of lang/*.json.
 */
import { esc, t } from "./i18n.mjs";

function attributes(extra) {
  return Object.entries(extra)
    .filter(([, value]) => value !== undefined && value !== null && value !== false)
    .map(([key, value]) => (value === true ? ` ${key}` : ` ${key}="${esc(value)}"`))
    .join("");
}

/** A button for an action; `tip`: the tooltip's key (default `Tip.<action>`). */
export function button(action, label, { tip = `Tip.${action}`, unit, disabled, cls, data = {} } = {}) {
  return `<button type="button"${attributes({
    "data-action": action,
    "data-unit": unit,
    "data-tooltip": t(tip),
    class: cls,
    disabled,
    ...data,
  })}>${esc(t(label))}</button>`;
}

/**
 * A labelled input. `enter`: the action Enter runs from it; `tip`: the tooltip's key;
 * `kind`: number (default), text or checkbox; `attrs`: placeholder, value...; `bare`: no visible
 * label (the tooltip and the accessible name say it). A number is a text field (the browser's
 * number field drops what it cannot read, "0,5" or "abc", so the GM's typo would vanish
 * unseen): panel-input.mjs reads it strictly; `signed`: it may be negative (no digit keyboard).
 */
export function field(
  name,
  label,
  { kind = "number", tip, enter, attrs = {}, labelFirst = true, bare = false, signed = false } = {},
) {
  const number = kind === "number";
  const input = `<input type="${number ? "text" : kind}"${attributes({
    name,
    "data-enter": enter,
    "data-tooltip": tip ? t(tip) : t(label),
    "aria-label": t(label),
    ...(number ? { class: "bb-number", inputmode: signed ? "text" : "numeric", autocomplete: "off" } : {}),
    ...attrs,
  })}>`;
  if (bare) return input;
  const text = `<span>${esc(t(label))}</span>`;
  return `<label class="bb-field bb-${kind}">${labelFirst ? `${text} ${input}` : `${input} ${text}`}</label>`;
}

/** A select of the two sides (or of `options`: [{value, label}]), with a tooltip. */
export function sideSelect(name, { tip, selected, auto } = {}) {
  const options = [
    ...(auto ? [{ value: "", label: t(auto) }] : []),
    ...["allies", "enemies"].map((side) => ({ value: side, label: t(`Side.${side}`) })),
  ];
  return (
    `<select${attributes({ name, "data-tooltip": t(tip), "aria-label": t(tip) })}>` +
    options
      .map(
        (o) =>
          `<option value="${esc(o.value)}"${o.value === (selected ?? "") ? " selected" : ""}>${esc(o.label)}</option>`,
      )
      .join("") +
    "</select>"
  );
}

/** A section that collapses; `open` unless the GM closed it (kept per section id). */
export function section(id, title, body, { closed = new Set(), cls = "" } = {}) {
  if (!body) return "";
  return (
    `<details class="bb-section ${cls}" data-section="${esc(id)}"${closed.has(id) ? "" : " open"}>` +
    `<summary data-tooltip="${esc(t("Tip.section"))}">${esc(t(title))}</summary>${body}</details>`
  );
}
