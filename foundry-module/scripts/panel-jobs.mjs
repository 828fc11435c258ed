/**
 * What a GM's panel says of each unit's Apply job (the bridge's `state.foundry.jobs`): waiting
 * for a browser (and for whom), being applied by a browser, or interrupted with how many of
 * its tokens are done (read from the tokens' own records: logic/fates.mjs planProgress).
 */
import { planProgress } from "./logic/fates.mjs";
import { describeTokens, resolveTokens } from "./tokens.mjs";
import { t } from "./i18n.mjs";

/** {unit: {kind: "waiting" | "applying" | "interrupted", text}} for the jobs of a battle. */
export function jobLines(jobs, applier) {
  const lines = {};
  for (const [unit, job] of Object.entries(jobs ?? {})) {
    if (job.claimed_by) {
      lines[unit] = { kind: "applying", text: t("Job.Applying", { name: job.claimed_by }) };
    } else if (job.plan) {
      const { docs } = resolveTokens(job.plan.tokens);
      const { done, total } = planProgress(describeTokens(docs), job.plan);
      lines[unit] = { kind: "interrupted", text: t("Job.Interrupted", { done, total }) };
    } else {
      lines[unit] = { kind: "waiting", text: t("Job.WaitingFor", { who: applier.waitsFor() }) };
    }
  }
  return lines;
}
