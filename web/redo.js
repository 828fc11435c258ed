// Redo: the commands taken back by Undo, the latest last, kept while nothing else changed the
// battle. A redone command brings back the rolls its entry had (never a new roll).
import { shownView } from "./state.js";

/** What the battle shown is now: a redo list made for another state of it is stale. */
const keyOf = (view) =>
  view ? `${view.name}\u0000${view.version}\u0000${JSON.stringify(view.log.at(-1) ?? null)}` : "";

/** The commands Redo can bring back, the next one last (none when the battle changed since). */
export function redoList(state) {
  const redo = state.redo;
  return redo && redo.key === keyOf(shownView(state)) ? redo.commands : [];
}

/** The command that does again what an undone entry did, with the rolls it had. */
export function redoCommand(entry) {
  const command = { ...entry.command };
  const event = entry.events[0] ?? {};
  if (command.type === "resolve_round" && command.mode === "auto" && event.rolls) {
    return { type: "resolve_round", mode: "rolls", rolls: { ...event.rolls } };
  }
  const rolled =
    command.type === "roll_influence" || (command.type === "leader_command" && command.leadership !== undefined);
  if (rolled && command.roll === undefined && Number.isInteger(event.roll)) command.roll = event.roll;
  return command;
}

/**
 * The redo list after a command went through: Undo adds what it took back, Redo takes its
 * command off, anything else empties it. `before`: the state the command was sent in.
 */
export function redoAfter(before, command, redone, state) {
  const view = shownView(state);
  const kept = redoList(before);
  let commands = [];
  if (command.type === "undo") {
    const undone = view.log.at(-1)?.events.find((event) => event.type === "undone");
    const entry = undone && view.log[undone.entry];
    if (entry) commands = [...kept, redoCommand(entry)];
  } else if (redone) {
    commands = kept.slice(0, -1);
  }
  return commands.length ? { key: keyOf(view), commands } : null;
}
