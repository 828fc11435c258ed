/**
 * Casualties onto tokens: apply a result the bridge sent (once, on the active GM), undo it (and
 * tell the bridge, so that its record agrees with the tokens), and post a chat card. The numbers always come from the bridge (the core's view); this file
 * only carries them out through logic/fates.mjs.
 */
import { ID } from "./constants.mjs";
import { postCard, whisperCards, withdrawCards } from "./chat.mjs";
import { isEmptyPlan, planApply, planUndo } from "./logic/fates.mjs";
import { carryOut, carryOutUndo, checkPlan, describeTokens, resolveTokens } from "./tokens.mjs";
import { counted, esc, t } from "./i18n.mjs";
import { log } from "./log.mjs";
import { unset } from "./generation.mjs";
import { BridgeError } from "../client/bridge-client.mjs";

/** A group token's name: its own name and how many of its fighters still stand. */
export function groupName(name, counts) {
  return t("Token.GroupName", { name, fit: counts.fit, fighters: counts.fighters });
}

const OPTIONS = { flagScope: ID, groupName, unset };

/**
 * Whether players may see a unit's head count (the GM's view lists what is hidden): a token
 * standing for many keeps its own name, for everyone, when they may not.
 */
function headCountShown(connections, battle, unit) {
  const view = connections.client?.states.get(battle)?.view;
  const side = (view?.units ?? []).find((u) => u.id === unit)?.side;
  return !side || !(view?.hidden ?? []).includes(`${side}.fighters`);
}

/**
 * Applies an `apply_casualties` message to its tokens and tells the bridge what was done.
 * Applying a result the tokens already show changes nothing. `connections`: this browser's
 * bridge client and players' eye, read live (wiring.mjs).
 */
export async function applyCasualties(connections, message) {
  const { battle, unit } = message;
  const result = { killed: message.killed, wounded: message.wounded, fit: message.fit };
  const { docs, missing } = resolveTokens(message.token_ids);
  if (!docs.length) {
    // Nothing to mark: leave the result unreported, so it can be applied once tokens are linked.
    ui.notifications.warn(t("Notices.no_tokens", { name: message.name ?? unit }));
    return { plan: null, changes: 0 };
  }
  const options = headCountShown(connections, battle, unit) ? OPTIONS : { ...OPTIONS, groupName: (name) => name };
  // The head counts of tokens standing for many: the bridge keeps them for the GMs.
  const fighters = connections.client?.states.get(battle)?.foundry?.fighters?.[unit] ?? {};
  const plan = planApply(describeTokens(docs, fighters), result, { battle, unit }, options);
  // Everything is checked before anything is written: a refusal changes nothing.
  const problems = checkPlan(plan, docs);
  if (problems.length) {
    const p = problems[0];
    ui.notifications.error(
      t(`ApplyCheck.${p.reason}`, { token: p.token, status: p.status ?? "", unit: message.name ?? unit }),
    );
    return { plan: null, changes: 0, problems };
  }
  const shared = plan.summary.groups.filter((g) => g.tokens);
  for (const group of shared) {
    ui.notifications.info(counted("Shared.Notice", group.fighters, { tokens: tokenNames(group.tokens) }));
  }
  const changes = isEmptyPlan(plan) ? 0 : await carryOut(plan, docs);
  const placed = {
    killed: result.killed - plan.unplaced.killed,
    wounded: result.wounded - plan.unplaced.wounded,
    fit: result.fit - plan.unplaced.fit,
  };
  const note = noteFor(plan, missing);
  // The card first: once the bridge has the report, every GM's panel shows the unit applied.
  if (changes > 0) {
    const seen = playersSee(connections, battle, unit);
    await postResultCard({
      name: message.name ?? unit,
      result: seen ?? result,
      plan,
      missing,
      about: { battle, unit, kind: "casualties" },
      gmOnly: !seen,
    });
  }
  try {
    await connections.client.request("applied", {
      battle,
      unit,
      version: message.version,
      ...placed,
      token_ids: {
        killed: plan.summary.killed,
        wounded: plan.summary.wounded,
        fit: plan.summary.fit,
      },
      ...(note ? { note } : {}),
    });
  } catch (error) {
    // Another GM browser reported first: the tokens are right either way.
    if (error.code !== "already_applied") throw error;
    log.debug("already reported", error.params);
  }
  log.info(`applied ${battle}/${unit}`, result, `${changes} changes`);
  return { plan, changes };
}

function noteFor(plan, missing) {
  const parts = [];
  const u = plan.unplaced;
  if (u.killed || u.wounded) {
    parts.push(`not on tokens: ${u.killed} killed, ${u.wounded} wounded, ${u.fit} fit`);
  }
  if (missing.length) parts.push(`${missing.length} tokens not found`);
  for (const g of plan.summary.groups) {
    const who = g.tokens ? `${g.tokens.join(" + ")} (one actor)` : g.id;
    parts.push(`${who}: ${g.killed}/${g.wounded}/${g.fit} of ${g.fighters}`);
  }
  return parts.join("; ").slice(0, 500);
}

/** The names of tokens given by UUID, joined for a sentence. */
function tokenNames(uuids) {
  return uuids.map((uuid) => foundry.utils.fromUuidSync(uuid)?.name ?? uuid).join(", ");
}

/**
 * Puts a unit's tokens back as they were before Apply: every condition Apply changed on their
 * actors (the system's own additions too) and their names. `tokenIds`: every UUID that may
 * carry the record (the unit's list and the report's). A condition changed again since Apply
 * is left as it is, and the GM is told. Returns how many tokens were put back.
 */
export async function undoApply(battle, unit, tokenIds) {
  const { docs } = resolveTokens([...new Set(tokenIds)]);
  const plan = planUndo(describeTokens(docs), { battle, unit }, OPTIONS);
  if (isEmptyPlan(plan)) return 0;
  const { kept, left } = await carryOutUndo(plan, docs);
  for (const { token, status } of kept) ui.notifications.warn(t("Undo.Kept", { token, status }));
  for (const { token, status } of left) ui.notifications.warn(t("Undo.Left", { token, status }));
  await withdrawCards({ battle, unit, kind: "casualties" }, t("Card.Withdrawn"));
  return plan.restored.length;
}

/**
 * Tells the bridge that the unit's report is taken back (after `undoApply`): the bridge forgets
 * it and tells every GM, and the unit can be applied again without `force`. `report` is the
 * bridge's stored report as this browser knows it (none: nothing to take back).
 *
 * Throws the BridgeError of a refusal, except `not_applied` on the unit: the bridge has no
 * report of it (taken back already), so it and the tokens agree.
 */
export async function reportUndone(connections, battle, unit, report) {
  if (!report) return;
  if (!connections.client) throw new BridgeError({ code: "disconnected", message: "not connected" });
  try {
    await connections.client.request("unapplied", { battle, unit, version: report.version });
  } catch (error) {
    if (error.code !== "not_applied" || error.field !== "unit") throw error;
    log.debug("no report to take back", battle, unit);
  }
}

/**
 * The casualties of a unit as a public card may show them: the players' eye's view of the unit
 * when its numbers are not hidden; null when the card must go to the GMs only (the setting says
 * so, no players' eye, or the player view hides the unit's casualties).
 */
function playersSee(connections, battle, unit) {
  if (whisperCards() || !connections.eye) return null;
  const seen = (connections.eye.view(battle)?.units ?? []).find((u) => u.id === unit)?.casualties;
  return seen && [seen.killed, seen.wounded, seen.fit].every((n) => typeof n === "number") ? seen : null;
}

/** The chat card that sums up an Apply (public only with numbers the players may see). */
async function postResultCard({ name, result, plan, missing, about, gmOnly }) {
  const names = (uuids) =>
    uuids
      .map((uuid) => foundry.utils.fromUuidSync(uuid)?.name)
      .filter(Boolean)
      .map(esc)
      .join(", ");
  const rows = [
    ["Killed", result.killed, names(plan.summary.killed)],
    ["Wounded", result.wounded, names(plan.summary.wounded)],
    ["Fit", result.fit, names(plan.summary.fit)],
  ]
    .map(
      ([key, count, who]) =>
        `<li class="bb-${key.toLowerCase()}"><strong>${esc(t(`Fate.${key}`))}: ${count}</strong>` +
        (who ? ` — ${who}` : "") +
        "</li>",
    )
    .join("");
  const groups = plan.summary.groups
    .map((g) =>
      g.tokens
        ? `<li class="bb-shared">${esc(t("Shared.Chat", { ...g, tokens: tokenNames(g.tokens) }))}</li>`
        : `<li>${esc(foundry.utils.fromUuidSync(g.id)?.name ?? g.id)}</li>`,
    )
    .join("");
  const u = plan.unplaced;
  const warnings = [];
  if (u.killed || u.wounded) warnings.push(t("Chat.Unplaced", u));
  if (missing.length) warnings.push(counted("Chat.Missing", missing.length));
  return postCard(
    `<h3>${esc(t("Chat.Title", { name }))}</h3><ul>${rows}${groups}</ul>` +
      warnings.map((w) => `<p class="bb-warning">${esc(w)}</p>`).join(""),
    { about, gmOnly },
  );
}
