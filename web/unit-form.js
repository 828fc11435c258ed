// A side's unit form: adding a unit, editing one in place before the start, the rated preview.
import { clearErrors, putValues, valueOf } from "./forms.js";
import { t } from "./i18n.js";
import { untyped } from "./pending.js";

const $ = (selector, root = document) => root.querySelector(selector);

/** Switch the form between adding a unit and saving the changes to one (id) or back (null). */
export function setEditing(form, id) {
  untyped(form); // what it shows now is the unit's (or nothing), not typed
  if (id) form.dataset.editing = id;
  else delete form.dataset.editing;
  const keys = id ? ["unit.edit_title", "unit.save"] : ["unit.add_title", "unit.add"];
  for (const [el, key] of [
    [$(".add-unit-title", form), keys[0]],
    [$(".add-unit-submit", form), keys[1]],
  ]) {
    el.dataset.i18n = key;
    el.textContent = t(key);
  }
  $(".cancel-edit", form).hidden = !id;
}

/** Empty the form for the next unit. */
export function resetUnitForm(form) {
  setEditing(form, null);
  for (const name of ["name", "fighters", "strength", "rating"]) form.elements.namedItem(name).value = "";
  $('[data-bind="rated"]', form).textContent = "";
  form.elements.namedItem("name").focus();
}

/** Put a unit's figures into its side's form, which then saves changes instead of adding. */
export function editUnit(unit) {
  const form = $(`.side[data-side="${unit.side}"] form.add-unit`);
  clearErrors(form);
  setEditing(form, unit.id);
  form.elements.namedItem("name").value = unit.name;
  form.elements.namedItem("fighters").value = String(unit.fighters);
  form.elements.namedItem("strength").value = String(unit.strength);
  const typed = form.querySelector('input[name="how"][value="strength"]');
  typed.checked = true;
  typed.dispatchEvent(new Event("change", { bubbles: true }));
  form.elements.namedItem("name").focus();
}

/** The strength a rating gives, computed by the core as the GM types. */
export function wireRatedPreview(form, core) {
  const output = $('[data-bind="rated"]', form);
  async function preview() {
    if (valueOf(form, "how") !== "rating") return;
    const reply = await core.request(putValues({ op: "unit_strength" }, form, ["fighters", "rating", "size"]));
    output.textContent = reply.ok ? t("unit.rated_preview", { strength: reply.strength }) : "";
  }
  let timer = null;
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(preview, 120);
  });
  form.addEventListener("change", preview);
}
