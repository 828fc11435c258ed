// A long battle's older log (docs/protocol.md, "Keeping in step"): its `state` carries only the
// log's last page, from `log_from` on; the entries before come with `log_page`, asked for from 0,
// then from each answer's `until_version`, until `log_from`.

/**
 * Entries 1..logFrom of a battle's log, oldest first. `ask(message)` sends one request and
 * resolves with its answer (a `log_page`, or an `error` — it never rejects). `reached` < logFrom
 * when a page was refused (`error`, the bridge's reply) or came empty (an entry too big to send).
 */
export async function olderLog(ask, battle, logFrom) {
  const entries = [];
  let reached = 0;
  while (reached < logFrom) {
    const answer = await ask({ type: "log_page", battle, since_version: reached, until_version: logFrom });
    if (answer.type !== "log_page") return { entries, reached, error: answer };
    const until = Math.min(answer.until_version, logFrom);
    if (!(until > reached)) break;
    entries.push(...answer.entries.slice(0, until - reached));
    reached = until;
  }
  return { entries, reached, error: null };
}
