// The first source of the state: the browser's own battle, run by the rules core in the worker.
import { DEFAULT_BATTLE_NAME, STORAGE_KEYS } from "./config.js";
import { freshSeed } from "./core-client.js";
import { errorMessage, t } from "./i18n.js";
import { decodeShare, loadSaved, save } from "./store.js";

const ROLLING = new Set(["resolve_round", "leader_command", "roll_influence"]);

/** The local battle: start it (saved, shared or new), apply commands, adopt other battles. */
export function localSource(core, store) {
  let resolveFirst, resolveFailed;
  const haveBattle = new Promise((resolve) => (resolveFirst = resolve));
  const bootFailed = new Promise((resolve) => (resolveFailed = resolve));

  /** Take a battle and its view from the core: keep, save, show. */
  function adopt(battle, view) {
    save({ battle, view });
    store.set({ local: { battle, view }, ready: true });
    resolveFirst();
  }

  /** Keep the current battle as the "previous" one in the browser (before replacing it). */
  function keepPrevious() {
    const { battle, view } = store.get().local;
    if (battle) save({ battle, view }, STORAGE_KEYS.previous);
  }

  async function newBattle() {
    const reply = await core.request({ op: "new_battle", name: DEFAULT_BATTLE_NAME });
    if (reply.ok) adopt(reply.battle, reply.view);
    return reply;
  }

  /** The battle saved in this browser, or the one in a share link, or a new one. */
  async function start(say) {
    let shared = null;
    try {
      shared = await decodeShare(location.hash);
    } catch (error) {
      say.error(t("tools.bad_link", { message: error.message }));
    }
    const saved = loadSaved();
    // Show at once what the core said last time; refreshed below.
    if (saved?.view) store.set({ local: { battle: null, view: saved.view } });
    if (shared) {
      const reply = await core.request({ op: "view", battle: shared });
      if (reply.ok) {
        if (saved?.battle) save(saved, STORAGE_KEYS.previous);
        history.replaceState(null, "", location.pathname + location.search);
        adopt(shared, reply.view);
        say.output(t("tools.shared_loaded"));
        return;
      }
      say.error(t("tools.bad_link", { message: errorMessage(reply.error) }));
    }
    if (saved?.battle) {
      const reply = await core.request({ op: "view", battle: saved.battle });
      if (reply.ok) return adopt(saved.battle, reply.view);
      if (reply.error.code === "runtime_failed") return;
      save(saved, STORAGE_KEYS.previous);
      say.error(errorMessage(reply.error));
    }
    await newBattle();
  }

  /** One command on the local battle; resolves with the core's reply (never rejects). */
  async function send(command) {
    await Promise.race([haveBattle, bootFailed]); // after a failed boot the reply says why
    const request = { op: "apply", battle: store.get().local.battle, command };
    if (ROLLING.has(command.type)) request.seed = freshSeed();
    const reply = await core.request(request);
    if (reply.ok) adopt(reply.battle, reply.view);
    return reply;
  }

  return { start, send, adopt, keepPrevious, newBattle, haveBattle, bootFailed, failed: () => resolveFailed() };
}
