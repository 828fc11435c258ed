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
  const applier = front.applier;
  if (ack && !applier.mine()) ui.notifications.info(t("Applier.Sent", { name: applier.name() }));
}

async function applyAll(front) {
  const ack = await front.request("request_casualties");
  const applier = front.applier;
  if (ack && !(ack.sent ?? []).length) ui.notifications.info(t("Notices.nothing_to_apply"));
  else if (ack && !applier.mine()) ui.notifications.info(t("Applier.Sent", { name: applier.name() }));
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

export const APPLY_ACTIONS = phaseActions("apply", { applyUnit, applyAll, undoApply });
