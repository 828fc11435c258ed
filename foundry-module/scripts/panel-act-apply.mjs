/**
 * The panel's actions after the battle: *Apply casualties* to a unit or to every unit, and
 * *Undo apply*. The front (wiring.mjs): `battle()`, `foundryData()`, `request(type, fields)`,
 * `applier` (`mine()`, `name()`), `connections` (for `unapplied`) and `changed()`.
 */
import { reportUndone, undoApply as undoOnTokens } from "./casualties.mjs";
import { counted, errorText, t } from "./i18n.mjs";
import { phaseActions } from "./panel-act.mjs";

/**
 * Apply: ask the bridge to send the unit's result to the Foundry clients, where the active GM's
 * module carries it out. After Undo apply the bridge has no report of the unit, so it is sent
 * as any other. A unit the bridge still has a report of is sent again with `force` (after the
 * battle changed, the new result replaces the old one): tokens already showing it change
 * nothing.
 */
async function applyUnit(front, form, target) {
  const unit = target.dataset.unit;
  const force = Boolean(front.foundryData()?.applied?.[unit]);
  const ack = await front.request("request_casualties", { unit, ...(force ? { force: true } : {}) });
  // "Sent" only once a browser has taken it (app.mjs askedFor / jobTaken); until then, for whom it waits.
  if (ack) front.asked(ack.sent ?? []);
}

async function applyAll(front) {
  const ack = await front.request("request_casualties");
  if (ack && !(ack.sent ?? []).length) ui.notifications.info(t("Notices.nothing_to_apply"));
  else if (ack) front.asked(ack.sent);
}

/** The unit's interrupted Apply, by its journal: "finish" or "undo" (this browser takes it). */
function interrupted(front, target) {
  if (!front.applier.hasGmLine()) throw new Error(t("Job.NoLine"));
  const unit = target.dataset.unit;
  const job = front.foundryData()?.jobs?.[unit];
  if (!job?.plan) return null;
  return { unit, job };
}

async function finishApply(front, form, target) {
  const found = interrupted(front, target);
  if (found) await front.runJob(found.unit, found.job.version, "finish");
}

async function undoInterrupted(front, form, target) {
  const found = interrupted(front, target);
  if (!found) return;
  const restored = await front.runJob(found.unit, found.job.version, "undo");
  if (restored !== null) ui.notifications.info(counted("Notices.undone", restored));
}

async function undoApply(front, form, target) {
  if (!front.applier.mine()) {
    throw new Error(t("Applier.OnlyApplier", { name: front.applier.name() }));
  }
  const unit = target.dataset.unit;
  const battle = front.battle();
  const foundryData = front.foundryData() ?? {};
  const report = foundryData.applied?.[unit];
  const ids = [...(foundryData.tokens?.[unit] ?? []), ...Object.values(report?.token_ids ?? {}).flat()];
  const restored = await undoOnTokens(battle, unit, ids);
  ui.notifications.info(counted("Notices.undone", restored));
  front.changed();
  // Then the bridge: it forgets the report and tells every GM's panel. When that fails the
  // tokens are back anyway; pressing Undo apply again (nothing left to put back) retries.
  try {
    await reportUndone(front.connections, battle, unit, report);
  } catch (error) {
    ui.notifications.warn(t("Notices.unapplied_failed", { error: errorText(error) }));
  }
}

export const APPLY_ACTIONS = phaseActions("apply", {
  applyUnit,
  applyAll,
  undoApply,
  finishApply,
  undoInterrupted,
});
