/**
 * The older part of a long battle's log (protocol: "Keeping in step"). A `state` of a long battle
 * carries only the log's last page, from `log_from` on; the entries before it are asked for page
 * by page: `log_page {battle, since_version: 0}`, then again from each answer's `until_version`,
 * until `log_from` is reached.
 */

/**
 * Entries 1..`logFrom` of a battle's log, oldest first.
 *
 * @param {(fields: object) => Promise<object>} askPage  sends one `log_page` request, resolves
 *   with its answer
 * @param {string} battle
 * @param {number} logFrom  where the `state`'s log begins
 * @returns {Promise<{entries: object[], reached: number, error: Error | null}>}  `reached` <
 *   `logFrom` when a page was refused (`error`) or came with no entries (an entry too big for a
 *   message): the log then has a hole from `reached` to `logFrom`
 */
export async function olderLog(askPage, battle, logFrom) {
  const entries = [];
  let since = 0;
  while (since < logFrom) {
    let page;
    try {
      page = await askPage({ battle, since_version: since, until_version: logFrom });
    } catch (error) {
      return { entries, reached: since, error };
    }
    const until = Math.min(page.until_version, logFrom);
    if (!(until > since)) break;
    entries.push(...page.entries.slice(0, until - since));
    since = until;
  }
  return { entries, reached: since, error: null };
}
