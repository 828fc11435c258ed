// The first source of the state: the browser's own battle, run by the rules core in the worker.
import { freshSeed, replyText } from "./core-client.js";
import { errorMessage, t } from "./i18n.js";
import { shelfList, shelve, shelvePrevious, unshelveSame } from "./shelf.js";
import { decodeShare, loadSaved, saveSoon } from "./store.js";

const ROLLING = new Set(["resolve_round", "leader_command", "roll_influence"]);

/** The local battle: start it (saved, shared or new), apply commands, adopt other battles. */
export function localSource(core, store) {
  let resolveFirst, resolveFailed;
  const haveBattle = new Promise((resolve) => (resolveFirst = resolve));
  const bootFailed = new Promise((resolve) => (resolveFailed = resolve));

  /**
   * Take a battle and its view from the core: keep, save, show. `text`: the core's reply as JSON
   * text, when it holds both (saved as it is, not written again); `kept`: the number the core
   * keeps this battle under (the next command names it instead of sending the battle). Saved
   * once the change is painted (store.js), never lost.
   */
  function adopt(battle, view, text = undefined, kept = null) {
    saveSoon(text ?? { battle, view });
    store.set({ local: { battle, view, kept }, ready: true });
    resolveFirst();
  }

  /**
   * Keep the open battle in the list of battles on this device (before another replaces it).
   * Its name; null when there was nothing to keep (no battle, or not a single change yet);
   * false when the browser's storage is full.
   */
  function shelveOpen() {
    const { battle, view } = store.get().local;
    if (!battle || !view || view.version === 0) return null;
    const kept = shelve({ battle, view }) ? view.name : false;
    store.set({ shelf: shelfList() });
    return kept;
  }

  async function newBattle() {
    const reply = await core.request({ op: "new_battle", name: t("battle.default_name"), keep: true });
    if (reply.ok) adopt(reply.battle, reply.view, undefined, reply.kept);
    return reply;
  }

  /**
   * A share link's battle (`#b=…`): checked by the core, then opened, the open battle kept in the
   * list; when the open battle has changes, only after the GM says so (else it is only listed).
   * True when the fragment held a battle link.
   */
  async function openLink(hash, say) {
    let shared = null;
    try {
      shared = await decodeShare(hash);
    } catch (error) {
      say.error(t("tools.bad_link", { message: error.message }));
    }
    if (!shared) return false;
    history.replaceState(null, "", location.pathname + location.search);
    const reply = await core.request({ op: "view", battle: shared });
    if (!reply.ok) {
      say.error(t("tools.bad_link", { message: errorMessage(reply.error) }));
      return true;
    }
    const name = reply.view.name;
    const open = store.get().local.view;
    if (open?.version > 0 && !confirm(t("tools.confirm_shared", { name, open: open.name }))) {
      const listed = shelve({ battle: shared, view: reply.view });
      store.set({ shelf: shelfList() });
      say.output(t(listed ? "tools.shared_listed" : "shelf.full", { name }));
      return true;
    }
    const kept = shelveOpen();
    unshelveSame(shared); // listed before ("not now"): now it is the open one
    store.set({ shelf: shelfList() });
    adopt(shared, reply.view);
    say.output(kept ? t("tools.shared_loaded_kept", { kept }) : t("tools.shared_loaded"));
    if (kept === false) say.error(t("shelf.full", { name: open.name }));
    return true;
  }

  /** The battle saved in this browser (or a new one); then the one in a share link, if any. */
  async function start(say) {
    shelvePrevious();
    store.set({ shelf: shelfList() });
    const saved = loadSaved();
    // Show at once what the core said last time; refreshed below.
    if (saved?.view) store.set({ local: { battle: null, view: saved.view } });
    let opened = false;
    if (saved?.battle) {
      const reply = await core.request({ op: "view", battle: saved.battle, keep: true });
      if (reply.ok) {
        adopt(saved.battle, reply.view, undefined, reply.kept);
        opened = true;
      } else if (reply.error.code === "runtime_failed") {
        return;
      } else {
        if (saved.view) shelve(saved); // kept in the list, as it was
        say.error(errorMessage(reply.error));
      }
    }
    if (!opened) await newBattle();
    await openLink(location.hash, say);
    // A link pasted into the address bar of this open tab.
    addEventListener("hashchange", () => openLink(location.hash, say));
  }

  /**
   * One command on the local battle; resolves with the core's reply (never rejects). The battle
   * the core keeps is named, not sent, and the reply carries only what changed (the log's new
   * entries); a battle the core does not keep (adopted from elsewhere) is sent, and kept.
   */
  async function send(command) {
    await Promise.race([haveBattle, bootFailed]); // after a failed boot the reply says why
    const { battle, view, kept } = store.get().local;
    const seed = ROLLING.has(command.type) ? { seed: freshSeed() } : {};
    let reply =
      kept === null || kept === undefined ? null : await core.request({ op: "apply", kept, command, ...seed });
    if (reply?.ok) {
      const log = (held) => [...held.log, ...reply.entries];
      adopt({ ...battle, log: log(battle) }, { ...reply.view, log: log(view) }, undefined, reply.kept);
      return reply;
    }
    if (!reply || reply.error.field === "kept") {
      reply = await core.request({ op: "apply", battle, command, keep: true, ...seed });
      if (reply.ok) adopt(reply.battle, reply.view, replyText(reply), reply.kept);
    }
    return reply;
  }

  return { start, send, adopt, shelveOpen, newBattle, haveBattle, bootFailed, failed: () => resolveFailed() };
}
