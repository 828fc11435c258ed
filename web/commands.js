// What each form of the battle asks the core: the form's values as typed, as a core command.
import { parseValue, putValues, valueOf } from "./forms.js";

const text = (form, name) => {
  const value = form.elements.namedItem(name).value.trim();
  return value === "" ? undefined : value;
};

/** form.dataset.command -> (form) -> the command. */
export const BUILDERS = {
  add_unit(form) {
    const editing = form.dataset.editing;
    const command = editing ? { type: "update_unit", unit: editing } : { type: "add_unit", side: form.dataset.side };
    const name = text(form, "name");
    if (name !== undefined) command.name = name;
    const fields = valueOf(form, "how") === "rating" ? ["fighters", "rating", "size"] : ["fighters", "strength"];
    return putValues(command, form, fields);
  },
  set_modifiers(form) {
    const modifiers = [...form.querySelectorAll(".modifier-row")].map((row) => {
      const modifier = { name: row.querySelector('[data-name="name"]').value.trim() };
      for (const key of ["percent", "flat"]) {
        const value = parseValue(row.querySelector(`[data-name="${key}"]`).value);
        if (value !== undefined) modifier[key] = value;
      }
      return modifier;
    });
    return { type: "set_modifiers", side: form.dataset.side, modifiers };
  },
  start: () => ({ type: "start" }),
  resolve_round(form) {
    const mode = valueOf(form, "mode");
    const command = { type: "resolve_round", mode };
    if (mode === "auto") return command;
    command[mode] = {};
    for (const side of ["allies", "enemies"]) {
      const value = valueOf(form, `${mode}.${side}`);
      if (value !== undefined) command[mode][side] = value;
    }
    // Strength lost by one side only: the other lost nothing (both blank stays an error).
    const typed = Object.keys(command[mode]).length;
    if (mode === "lost" && typed === 1) for (const side of ["allies", "enemies"]) command.lost[side] ??= 0;
    return command;
  },
  leader_command(form) {
    const command = { type: "leader_command", side: valueOf(form, "side") };
    if (valueOf(form, "how") === "test") return putValues(command, form, ["leadership", "roll"]);
    return putValues(command, form, ["sl", "success"]);
  },
  set_influence_table: () => ({ type: "set_influence_table", table: null }),
  set_strength: (form) => putValues({ type: "set_strength" }, form, ["side", "strength"]),
  detach_fighters: (form) => putValues({ type: "detach_fighters" }, form, ["unit", "fighters"]),
  pcs_won(form) {
    const fleeing = text(form, "fleeing");
    const command = { type: "pcs_won" };
    if (fleeing !== undefined) command.fleeing = fleeing; // as typed: the core reads 1/2, 0,5, 50%
    return command;
  },
  end_battle(form) {
    const winner = valueOf(form, "winner");
    const command = { type: "end_battle" };
    if (winner) command.winner = winner === "none" ? null : winner;
    return command;
  },
  roll_influence: (form) => putValues({ type: "roll_influence" }, form, ["side", "roll"]),
  rename(form) {
    const name = text(form, "name");
    return name === undefined ? { type: "rename" } : { type: "rename", name };
  },
  undo: () => ({ type: "undo" }),
};
