// "This battle": share link, export, import, new battle (the local battle only).
import { errorMessage, t } from "./i18n.js";
import { download, encodeShare, fileName } from "./store.js";

const $ = (selector) => document.querySelector(selector);

/** Lines under the tools: what happened, what went wrong. */
export const toolsLines = {
  output: (text) => ($("#share-output").textContent = text),
  error: (text) => ($("#tools-error").textContent = text),
};

/** What happened, and where the battle that was open went (kept in the list, or not). */
function keptLine(done, kept) {
  if (kept === null) return done; // nothing to keep: it had no change
  return `${done} ${t(kept ? "tools.kept" : "shelf.full", { name: kept || "" })}`;
}

export function wireTools(store, core, local) {
  $("#share-button").addEventListener("click", async () => {
    await local.haveBattle;
    const url = `${location.origin}${location.pathname}#${await encodeShare(store.get().local.battle)}`;
    const out = $("#share-output");
    out.textContent = "";
    const link = document.createElement("a");
    link.href = url;
    link.id = "share-link";
    link.textContent = url.length > 80 ? `${url.slice(0, 77)}…` : url;
    let copied = false;
    try {
      await navigator.clipboard.writeText(url);
      copied = true;
    } catch {
      copied = false;
    }
    out.append(copied ? t("tools.copied") : t("tools.link"), " ", link);
  });
  $("#export-button").addEventListener("click", async () => {
    await local.haveBattle;
    const { battle, view } = store.get().local;
    // The strength over the rounds goes along (drawn from the log by the core; import ignores it).
    const series = await core.request({ op: "series", battle });
    const data = series.ok ? { ...battle, strength_series: series.points } : battle;
    download(fileName(view.name), JSON.stringify(data, null, 2));
  });
  $("#import-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    event.target.value = "";
    if (!file) return;
    toolsLines.error("");
    toolsLines.output(""); // an earlier "Battle loaded." is not this file's answer
    let data;
    try {
      // The chart's points an export carries are drawn from the log again: not kept.
      const { strength_series: drawn, ...battle } = JSON.parse(await file.text());
      data = battle;
    } catch (error) {
      toolsLines.error(t("tools.bad_file", { message: error.message }));
      return;
    }
    const reply = await core.request({ op: "view", battle: data });
    if (!reply.ok) {
      toolsLines.error(t("tools.bad_file", { message: errorMessage(reply.error) }));
      return;
    }
    const kept = local.shelveOpen();
    store.set({ odds: null, result: null });
    local.adopt(data, reply.view);
    toolsLines.output(keptLine(t("tools.imported"), kept));
  });
  $("#new-button").addEventListener("click", async () => {
    if (!confirm(t("tools.confirm_new"))) return;
    const kept = local.shelveOpen();
    store.set({ odds: null, result: null });
    const reply = await local.newBattle();
    if (reply.ok) toolsLines.output(keptLine(t("tools.new_started"), kept));
  });
}
