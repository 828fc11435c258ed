// The second source of the state: a battle held by the bridge (live.js is the connection).
import { STORAGE_KEYS } from "./config.js";
import { t } from "./i18n.js";
import { LiveClient, findBridge, storeToken, storedToken } from "./live.js";
import { livePatch } from "./state.js";

const status = (key, params = {}) => livePatch({ status: { key, params } });

function rememberedBattle() {
  try {
    return localStorage.getItem(STORAGE_KEYS.liveBattle);
  } catch {
    return null;
  }
}

function rememberBattle(name) {
  try {
    localStorage.setItem(STORAGE_KEYS.liveBattle, name);
  } catch {
    /* private mode */
  }
}

/** Live mode: find the bridge, go live with a token, follow a battle, send commands, leave. */
export function liveSource(store, hooks) {
  let bridge = null; // {ws, protocol} when a bridge serves this page
  let client = null; // the LiveClient while live

  function go(token) {
    client?.stop();
    store.set((s) => ({
      mode: "live",
      live: {
        ...s.live,
        role: null,
        playerToken: null,
        pairing: null,
        battles: [],
        battle: null,
        view: null,
        marks: {},
      },
    }));
    client = new LiveClient(bridge.ws, token, {
      onStatus(state, detail) {
        if (state === "offline") store.set(status("live.state.offline", { seconds: Math.round(detail / 1000) || 1 }));
        else store.set(status(`live.state.${state}`));
      },
      onWelcome(welcome) {
        // The GM's welcome carries the player token: the GM's page shows the player link's QR code.
        store.set(livePatch({ role: welcome.role, playerToken: welcome.player_token ?? null }));
      },
      onBattles(battles) {
        store.set(livePatch({ battles }));
        if (client.battle) return;
        // The battle followed last time, else the only one there is: followed without a click.
        const wanted = rememberedBattle();
        if (battles.some((b) => b.name === wanted)) follow(wanted);
        else if (battles.length === 1) follow(battles[0].name);
      },
      onPairing({ type, origin, code, outcome }) {
        store.set(livePatch({ pairing: type === "pairing" ? { origin, code } : { origin, outcome } }));
      },
      onMarks(marks) {
        store.set(livePatch({ marks }));
      },
      onView(view) {
        store.set((s) => ({ ready: true, live: { ...s.live, view, battle: client.battle } }));
      },
      onProblem(error) {
        if (error.code === "bad_token") {
          storeToken(null);
          leave();
          store.set(status("live.state.bad_token"));
          hooks.badToken(error);
          return;
        }
        hooks.problem(error);
      },
    });
  }

  function follow(name) {
    client.follow(name);
    rememberBattle(name);
    store.set((s) => ({ odds: null, result: null, live: { ...s.live, battle: name, marks: {} } }));
  }

  /** Back to the battle in this browser, run by the local core. */
  function leave() {
    client?.stop();
    client = null;
    store.set((s) => ({
      mode: "local",
      odds: null,
      result: null,
      live: {
        ...s.live,
        role: null,
        playerToken: null,
        battle: null,
        view: null,
        marks: {},
        status: { key: "live.state.local", params: {} },
      },
    }));
  }

  /** A change in live mode: a bridge command (never a local apply), answered like the core. */
  async function send(command) {
    const { live } = store.get();
    if (!client || !live.battle || !live.view) {
      return { ok: false, error: { code: "not_following", field: null, message: t("live.pick_first"), params: {} } };
    }
    const reply = await client.command(command);
    if (reply.type !== "error") return { ok: true }; // the event (sent before the ack) is shown already
    // The bridge names a field of the command as the core does: the form's own names.
    return { ok: false, error: { ...reply, others: reply.others || [] } };
  }

  /** Create a battle on the bridge; resolves with the bridge's ack or error. */
  const create = (name) => client.command({ type: "create_battle" }, name);

  /** At start: is there a bridge? With a token (in the link or kept), go live. */
  async function start(urlToken) {
    bridge = await findBridge();
    if (!bridge) return; // a static host: local mode only, as always
    store.set(livePatch({ bridge: true }));
    const token = urlToken || storedToken();
    if (urlToken) storeToken(urlToken);
    if (token) go(token);
  }

  function goWith(token) {
    storeToken(token);
    if (bridge) go(token); // on a static host the token waits for a bridge
  }

  /** A tick of an Influence effect shared with Foundry (the GM's, live): the bridge's ack or error. */
  const markEffects = (version, marks) => client.markEffects(version, marks);

  return { start, go: goWith, follow, leave, send, create, markEffects, client: () => client };
}
