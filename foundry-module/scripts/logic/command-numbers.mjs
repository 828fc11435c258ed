// Generated from the core's command shapes (background_battle.shapes.number_fields):
// do not edit. Rewrite it with
//   .venv/bin/python -m background_battle.shapes_doc --write-module foundry-module/scripts/logic/command-numbers.mjs
// (tests/core/test_shapes.py fails while it differs from the core).

/** The most characters of a number in text: longer is refused before it is read. */
export const MAX_TYPED = 400;

/** Every number field of every command by its path: {kind, min, max}. */
export const COMMAND_NUMBERS = Object.freeze({
  "add_unit.fighters": { kind: "integer", min: 1, max: 100000 },
  "add_unit.strength": { kind: "integer", min: 0, max: 1000000 },
  "add_unit.rating": { kind: "integer", min: 0, max: 1000 },
  "update_unit.fighters": { kind: "integer", min: 1, max: 100000 },
  "update_unit.strength": { kind: "integer", min: 0, max: 1000000 },
  "update_unit.rating": { kind: "integer", min: 0, max: 1000 },
  "set_modifiers.modifiers[].percent": { kind: "integer", min: -100, max: 1000 },
  "set_modifiers.modifiers[].flat": { kind: "integer", min: -1000000, max: 1000000 },
  "leader_command.sl": { kind: "integer", min: -100, max: 100 },
  "leader_command.leadership": { kind: "integer", min: 1, max: 200 },
  "leader_command.roll": { kind: "integer", min: 1, max: 100 },
  "resolve_round.rolls.allies": { kind: "integer", min: 1, max: 100 },
  "resolve_round.rolls.enemies": { kind: "integer", min: 1, max: 100 },
  "resolve_round.lost.allies": { kind: "integer", min: 0, max: 1000000 },
  "resolve_round.lost.enemies": { kind: "integer", min: 0, max: 1000000 },
  "set_strength.strength": { kind: "integer", min: 0, max: 1000000 },
  "detach_fighters.fighters": { kind: "integer", min: 1, max: 100000 },
  "pcs_won.fleeing": { kind: "share", min: 0, max: 1 },
  "roll_influence.roll": { kind: "integer", min: 1, max: 100 },
  "set_influence_table.table.bands[].min": { kind: "integer", min: -10000000, max: 10000000 },
  "set_influence_table.table.bands[].max": { kind: "integer", min: -10000000, max: 10000000 },
});
