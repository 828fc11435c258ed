/**
 * Side modifiers in the panel: the side line names them and shows S0 as the core will fix it
 * (logic/initial-strength.mjs), and in set-up a GM adds, edits and removes them (a named
 * percent of the units' sum and/or a flat amount; the core's `set_modifiers` replaces a side's
 * list). A side whose numbers the player view hides shows players `?` and no modifiers.
 */
import { button, field } from "./panel-controls.mjs";
import { esc, t } from "./i18n.mjs";
import { initialStrength, modifierText } from "./logic/initial-strength.mjs";
import { shown } from "./step-words.mjs";

/** S0 in set-up: the core's rule on the units' sum and the modifiers; null when hidden. */
export function plannedInitial(side) {
  if (side?.units_strength === null || side?.units_strength === undefined) return null;
  return initialStrength(side.units_strength, side.modifiers ?? []);
}

/** The side's modifiers in words, after its figures ("" when none or hidden). */
export function modifiersLine(side) {
  const mods = side?.modifiers ?? [];
  if (!mods.length) return "";
  return ` <span class="bb-mods" data-count="${mods.length}">${esc(mods.map(modifierText).join(" · "))}</span>`;
}

/** The set-up figures of a side: S0 (the start will fix it), and the units' sum it comes from. */
export function setUpFigures(side, strengthLabel) {
  const s0 = plannedInitial(side);
  const mods = side?.modifiers ?? [];
  const from = mods.length
    ? ` <span class="bb-units-sum">${esc(t("Panel.FromUnits", { strength: shown(side.units_strength) }))}</span>`
    : "";
  return `${strengthLabel} <b data-s0="${esc(shown(s0))}">${esc(shown(s0))}</b>${from}`;
}

function modifierRow(side, index, mod) {
  const name = `mod-${side}-${index}`;
  const enter = "saveModifiers";
  const data = { "data-side": side };
  const value = (v) => (mod ? { value: String(v ?? 0) } : {});
  return (
    `<li class="bb-modifier" data-index="${esc(index)}">` +
    field(`${name}-name`, "Panel.ModifierName", {
      kind: "text",
      tip: "Tip.modifierName",
      enter,
      bare: true,
      attrs: { ...data, maxlength: 200, ...(mod ? { value: mod.name } : { placeholder: t("Panel.ModifierNew") }) },
    }) +
    field(`${name}-percent`, "Panel.ModifierPercent", {
      tip: "Tip.modifierPercent",
      enter,
      signed: true,
      attrs: { ...data, ...value(mod?.percent) },
    }) +
    field(`${name}-flat`, "Panel.ModifierFlat", {
      tip: "Tip.modifierFlat",
      enter,
      signed: true,
      attrs: { ...data, ...value(mod?.flat) },
    }) +
    (mod
      ? button("removeModifier", "Panel.ModifierRemove", { data: { "data-side": side, "data-index": String(index) } })
      : "") +
    "</li>"
  );
}

/** The set-up section's body: per side, its modifiers to edit, a row for a new one, Save. */
export function modifiersForm(view, ctx) {
  return ["allies", "enemies"]
    .map((side) => {
      const mods = view.sides?.[side]?.modifiers ?? [];
      const rows = [...mods.map((mod, i) => modifierRow(side, i, mod)), modifierRow(side, "new", null)].join("");
      return (
        `<div class="bb-row bb-modifiers" data-side="${side}"><strong>${esc(t(`Side.${side}`))}</strong>` +
        `<ul class="bb-modifier-list">${rows}</ul>` +
        button("saveModifiers", "Panel.ModifiersSave", { disabled: ctx.pending, data: { "data-side": side } }) +
        "</div>"
      );
    })
    .join("");
}
