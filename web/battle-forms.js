// The battle's forms wired to actions: submit -> command -> apply; the small controls around them.
import { BUILDERS } from "./commands.js";
import { clearErrors } from "./forms.js";
import { t } from "./i18n.js";
import { addModifierRow, renumberModifiers } from "./modifier-rows.js";
import { markTyped, typedForms, untyped } from "./pending.js";
import { redoList } from "./redo.js";
import { shownView } from "./state.js";
import { editUnit, resetUnitForm, wireRatedPreview } from "./unit-form.js";

const $ = (selector, root = document) => root.querySelector(selector);

/** What a form looks like after its command went through: ready for the next one. */
const AFTER_SUCCESS = {
  add_unit: resetUnitForm,
  resolve_round(form) {
    for (const input of form.querySelectorAll('input[inputmode="numeric"]')) input.value = "";
  },
  leader_command(form) {
    for (const name of ["sl", "leadership", "roll"]) form.elements.namedItem(name).value = "";
  },
  roll_influence(form) {
    form.elements.namedItem("roll").value = "";
  },
  detach_fighters(form) {
    form.elements.namedItem("fighters").value = "";
  },
};

/** Segmented choices that show one group of inputs or another. */
export function showChosenGroup(form, name, value) {
  for (const group of form.querySelectorAll(`[data-${name}]`)) group.hidden = group.dataset[name] !== value;
}

/** Send one form's command; ready for the next one when it went through. */
async function submitForm(apply, form, extra) {
  const type = form.dataset.command;
  const reply = await apply(BUILDERS[type](form), form, extra);
  if (reply.ok) {
    untyped(form);
    AFTER_SUCCESS[type]?.(form);
  }
  return reply;
}

/**
 * Start: what was typed into the set-up's forms and not yet saved (a unit, a side's modifiers)
 * is saved first, each by its own form, so that nothing typed is lost when the forms fold away;
 * a refusal stops here, next to its field. The start's card names what was saved.
 */
async function startBattle(store, apply, form) {
  const saved = [];
  for (const pending of typedForms(
    document.querySelector("#battle"),
    ".add-unit, .modifiers-form",
    shownView(store.get()),
  )) {
    const reply = await submitForm(apply, pending);
    if (!reply.ok) {
      pending.closest("details")?.setAttribute("open", "");
      return reply;
    }
    saved.push(shownView(store.get()).log.length - 1);
  }
  return submitForm(apply, form, saved.length ? { saved } : {});
}

export function wireBattleForms(store, apply, core) {
  for (const form of document.querySelectorAll("form[data-command]")) {
    const type = form.dataset.command;
    markTyped(form);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (type === "start") return startBattle(store, apply, form);
      if (type === "redo") {
        const next = redoList(store.get()).at(-1);
        return next && apply(next, form, { redone: true });
      }
      return submitForm(apply, form);
    });
  }
  store.watch(
    (s) => [s.redo, shownView(s), s.mode, s.live.role],
    (s) => {
      const button = $("#redo-button");
      const can = redoList(s).length > 0 && !(s.mode === "live" && s.live.role !== "gm");
      if (button.disabled === can) button.disabled = !can;
    },
  );
  for (const form of document.querySelectorAll("form")) {
    form.addEventListener("change", (event) => {
      if (event.target.type === "radio") showChosenGroup(form, event.target.name, event.target.value);
    });
  }
  for (const form of document.querySelectorAll(".add-unit")) wireRatedPreview(form, core);
  document.addEventListener("click", (event) => {
    const edit = event.target.closest(".edit-unit");
    const unit = edit && shownView(store.get())?.units.find((u) => u.id === edit.dataset.unit);
    if (unit) {
      // What was typed into the form (a unit not added yet) is not overwritten without asking.
      const form = $(".add-unit", edit.closest(".side"));
      if (typedForms(form.parentElement, ".add-unit", null).length === 0 || confirm(t("unit.confirm_replace")))
        editUnit(unit);
    }
    const cancel = event.target.closest(".cancel-edit");
    if (cancel) resetUnitForm(cancel.closest("form"));
    const remove = event.target.closest(".remove-unit");
    if (remove) {
      const form = $(".add-unit", remove.closest(".side"));
      if (form.dataset.editing === remove.dataset.unit) resetUnitForm(form);
      apply({ type: "remove_unit", unit: remove.dataset.unit }, form);
    }
    const addModifier = event.target.closest(".add-modifier");
    if (addModifier) {
      addModifierRow(addModifier.closest("form")).querySelector("input").focus();
      addModifier.closest("form").dataset.typed = "true";
    }
    const removeModifier = event.target.closest(".remove-modifier");
    if (removeModifier) {
      const form = removeModifier.closest("form");
      removeModifier.closest("li").remove();
      renumberModifiers(form);
      form.dataset.typed = "true";
    }
  });
  wireTableFile(apply);
}

/** The GM's own Influence table from a JSON file, and back to the house table. */
function wireTableFile(apply) {
  const form = $("#table-form");
  $("#table-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    clearErrors(form);
    let table;
    try {
      table = JSON.parse(await file.text());
    } catch (error) {
      $(".form-error", form).textContent = t("influence.bad_file", { message: error.message });
      return;
    }
    apply({ type: "set_influence_table", table }, form);
  });
  $("#house-table").addEventListener("click", () => apply({ type: "set_influence_table", table: null }, form));
}
