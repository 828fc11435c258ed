// Every error of a form at once: the core stops at the first bad field, so the page asks it again
// (a dry run, nothing kept) with that field set to a value the core's own error calls valid (its
// `min`, else its `max`), and so on, to find the next one. No rule is written here.

function setPath(command, field, value) {
  const parts = String(field).replace(/\[(\d+)\]/g, ".$1").split(".");
  let holder = command;
  for (const part of parts.slice(0, -1)) {
    if (holder === null || typeof holder !== "object" || !(part in holder)) return false;
    holder = holder[part];
  }
  const last = parts[parts.length - 1];
  if (holder === null || typeof holder !== "object" || !(last in holder)) return false;
  holder[last] = value;
  return true;
}

/** The errors after the first one, as the core finds them (at most `limit`). */
export async function otherErrors(core, which, command, first, limit = 4) {
  const errors = [];
  const probe = structuredClone(command);
  let current = first;
  for (let i = 0; i < limit && which; i += 1) {
    const value = current.params?.min ?? current.params?.max;
    if (value === undefined || value === null || !current.field) break;
    if (!setPath(probe, current.field, value)) break;
    const reply = await core.request({ op: "apply", ...which, command: probe });
    if (reply.ok || !reply.error.field || reply.error.field === current.field) break;
    errors.push(reply.error);
    current = reply.error;
  }
  return errors;
}
