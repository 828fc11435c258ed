/**
 * The module's one live object: the bridge connections (this browser's own and, in a GM's
 * browser, the players' eye: one per role), the battle the panel shows, the notices
 * when the bridge cannot be reached, and the hand-off of `apply_casualties` to the browser that
 * applies it (applier.mjs). Its parts, and the panel, get narrow fronts of it (wiring.mjs).
 */
import { SETTINGS } from "./constants.mjs";
import { BridgeClient } from "../client/bridge-client.mjs";
import { checkBridgeUrl } from "../client/connection-policy.mjs";
import { errorText, t } from "./i18n.mjs";
import { log } from "./log.mjs";
import { setting } from "./settings.mjs";
import { applyCasualties, finishApply, undoInterrupted } from "./casualties.mjs";
import { BROWSER, PlayerEye } from "./player-eye.mjs";
import { RelaySocket } from "./relay.mjs";
import { moveOldFlags } from "./old-flags.mjs";
import { appParts } from "./wiring.mjs";

export class BattleApp {
  constructor() {
    this.client = null;
    this.lastNotice = null;
    this.renderers = new Set();
    this.busy = new Set();
    this.ownBattle = null;
    /** The battles this browser watches: the one shown, and for a GM the world's (its cards). */
    this.watching = [];
    this.missingToken = false;
    /** A GM's browser's one connection with the player token (player-eye.mjs), or null. */
    this.eye = null;
    const parts = appParts(this);
    /** The bridge connections, as the parts get them (wiring.mjs). */
    this.connections = parts.connections;
    /** What this browser does with each message of the bridge, by type (wiring.mjs): `own` for
     * its connection, `players` for the players' eye's. */
    this.messages = parts.messages;
    this.cards = parts.cards;
    /** A GM's choice of the battle shown: the world's (started) or the GM's own (in set-up). */
    this.choice = parts.choice;
    /** The command on its way to the bridge (a second click meanwhile does nothing). */
    this.pending = null;
    /** The result of the last command this browser sent: {battle, version} of its step. */
    this.lastSent = null;
    this.applying = Promise.resolve();
    /** Units whose Apply this browser's GM asked for: told when a browser takes them. */
    this.asked = new Set();
    /** Jobs this browser tried to take and could not ("battle/unit/version"), until the
     * bridge tells of a change to them: not asked for again meanwhile. */
    this.tried = new Set();
    /** Jobs whose run failed here ("battle/unit/version"): not taken by itself again (a GM's
     * Finish or Undo still runs them), so that a refusal does not go round and round. */
    this.failed = new Set();
    /** Battles whose tokens' old flags are being moved to the bridge (old-flags.mjs). */
    this.moving = new Set();
    /** Which GM's browser writes casualties onto tokens (applier.mjs). */
    this.applier = parts.applier;
  }

  /** Something to call when what the panel shows changed. */
  onChange(render) {
    this.renderers.add(render);
    return () => this.renderers.delete(render);
  }

  changed() {
    for (const render of this.renderers) render();
    this.takeJobs();
  }

  /** The battle shown: a player's own choice, a GM's own battle in set-up, else the world's. */
  get battle() {
    return this.ownBattle ?? ((game.user?.isGM && this.choice.own) || setting(SETTINGS.BATTLE) || null);
  }

  get state() {
    return this.battle ? (this.client?.states.get(this.battle) ?? null) : null;
  }

  get status() {
    return this.client?.status ?? { state: "idle" };
  }

  /** The token this user connects with: the GM's own for GMs, the player token otherwise. */
  token() {
    if (game.user.isGM) return setting(SETTINGS.GM_TOKEN) || setting(SETTINGS.PLAYER_TOKEN);
    return setting(SETTINGS.PLAYER_TOKEN);
  }

  /** A player follows the battle through the active GM's browser (relay.mjs), unless the GM
   * lets players connect to the bridge themselves. */
  get relayed() {
    return !game.user.isGM && !setting(SETTINGS.PLAYERS_DIRECT);
  }

  /** Connects (or reconnects with changed settings), then says to the other GMs' browsers
   * whether this one can apply (applier.mjs: nothing while the connection is on its way). */
  connect() {
    this.openConnection();
    this.applier.announce();
  }

  openConnection() {
    this.client?.stop();
    this.client = null;
    this.eye?.stop();
    this.eye = null;
    this.lastNotice = null;
    if (this.relayed) {
      this.missingToken = false;
      this.start("relay:", "", () => new RelaySocket());
      return;
    }
    const url = checkBridgeUrl(setting(SETTINGS.URL));
    if (!url.ok) {
      this.notice("error", t(`Notices.${url.reason}`, { accepted: url.accepted }));
      this.changed();
      return;
    }
    const token = this.token();
    if (!token) {
      // Players are not told on every load that the GM has not set the module up; the panel says it.
      if (game.user.isGM) this.notice("warn", t("Notices.no_gm_token"));
      this.missingToken = true;
      this.changed();
      return;
    }
    this.missingToken = false;
    this.start(url.url, token, (address) => new WebSocket(address));
  }

  /**
   * Starts this browser's connections on the given socket factory, watching the battles shown:
   * its own (the GM or the player token) and, in a GM's browser, the players' eye (the one with
   * the player token; the own one when the GM connects with the player token).
   */
  start(url, token, createSocket) {
    this.eye = this.relayed ? null : this.openEye(url, createSocket);
    const shared = this.eye?.client.token === token;
    const client = shared ? this.eye.client : newClient(url, token, createSocket);
    this.client = client;
    client.on("status", (status) => this.onStatus(status));
    this.messages.own.attach(client);
    this.watching = [];
    this.watch(this.battlesWatched());
    client.start();
    if (this.eye && !shared) this.eye.start();
  }

  /**
   * A GM's browser also watches the battles as the players see them (the player token), so that
   * public cards hold only the player view; the relay passes that connection on to the players
   * (relay-host.mjs). Without a player token cards go to the GMs only, and nobody is relayed.
   */
  openEye(url, createSocket) {
    const playerToken = setting(SETTINGS.PLAYER_TOKEN);
    if (!game.user.isGM || !playerToken) return null;
    const eye = new PlayerEye(newClient(url, playerToken, createSocket));
    this.messages.players.attach(eye.client);
    return eye;
  }

  onStatus(status) {
    log.debug("status", status);
    this.applier.announce();
    if (status.state === "open") {
      if (this.lastNotice) ui.notifications.info(t("Notices.connected"));
      this.lastNotice = null;
    } else if ((status.state === "failed" || status.state === "closed") && !this.relayed) {
      this.noticeFailure(status.reason);
    }
    this.changed();
  }

  /** Says once (per reason) why the bridge cannot be reached and what to do. */
  noticeFailure(reason) {
    if (this.lastNotice === reason) return;
    const data = {
      url: setting(SETTINGS.URL),
      origin: window.location.origin,
      site: window.location.host,
    };
    this.notice(reason === "lost" ? "warn" : "error", t(`Notices.${reason}`, data), reason);
  }

  notice(level, text, key = text) {
    this.lastNotice = key;
    ui.notifications[level](text, { permanent: level === "error" });
    log.warn(text);
  }

  /** A unit's Apply offered to the Foundry browsers: taken here when this browser applies. */
  offered({ battle, unit, version }) {
    if (this.applier.mine && !this.failed.has(`${battle}/${unit}/${version}`))
      this.runJob(battle, unit, version, "apply");
  }

  /** A unit's job changed: the tries at it start afresh; "sent" when another browser took it. */
  jobChanged(message) {
    for (const key of this.tried) if (key.startsWith(`${message.battle}/${message.unit}/`)) this.tried.delete(key);
    this.jobTaken(message);
  }

  /** A refusal that answers no request of this browser (a refused subscribe...): said. */
  refused(message) {
    if (message.id) return;
    log.warn("bridge error", message);
    if (message.code !== "bad_token") ui.notifications.warn(errorText(message));
  }

  /** Earlier versions' flags that players could read leave the battle's tokens: the active GM's
   * browser moves them once it holds the battle (a later `state` finds nothing left to move). */
  async moveOldFlags(battle) {
    if (!this.applier.mine || this.moving.has(battle)) return;
    this.moving.add(battle);
    try {
      await moveOldFlags(this.connections, battle);
    } catch (error) {
      log.error("old flags not moved", error);
    } finally {
      this.moving.delete(battle);
    }
  }

  /**
   * The Apply jobs this browser takes by itself, when it is the one that applies
   * (applier.mjs): every job of the battles it holds that nobody holds and that has no journal
   * yet (an interrupted one waits for a GM's Finish or Undo). The bridge gives a job to one
   * browser only (`claim`), so two browsers never both apply it.
   */
  takeJobs() {
    if (!this.client || !this.applier.mine) return;
    for (const [battle, state] of this.client.states) {
      for (const [unit, job] of Object.entries(state.foundry?.jobs ?? {})) {
        const key = `${battle}/${unit}/${job.version}`;
        const fresh = !this.tried.has(key) && !this.failed.has(key);
        if (!job.plan && !job.claimed_by && fresh) this.runJob(battle, unit, job.version, "apply");
      }
    }
  }

  /**
   * Takes a unit's job (`claim`) and carries it out: "apply" (a new journal), "finish" (the
   * stored one) or "undo" (what the interrupted one wrote). One unit after another: tokens of
   * one actor may fight in two units. Another browser holding it, or the job gone, ends quietly.
   */
  async runJob(battle, unit, version, kind) {
    const key = `${battle}/${unit}/${version}`;
    if (this.busy.has(key) || !this.client) return null;
    this.busy.add(key);
    const client = this.client;
    const run = this.applying.then(async () => {
      const ack = await client.request("claim", { battle, unit, version, by: game.user.name });
      const job = ack.job;
      if (kind === "undo") return undoInterrupted(this.connections, job);
      if (job.plan) return finishApply(this.connections, job);
      return applyCasualties(this.connections, job);
    });
    this.applying = run.catch(() => undefined);
    try {
      return await run;
    } catch (error) {
      // Failed half-way (a write refused, the bridge gone): let the job go, so that it waits for
      // a GM's Finish or Undo (or, not planned yet, is offered again) instead of looking busy.
      if (!["claimed", "no_job", "not_claimed"].includes(error.code)) {
        this.failed.add(key);
        client.request("unclaim", { battle, unit, version }).catch(() => undefined);
      }
      if (error.code === "claimed" || error.code === "no_job") {
        this.tried.add(key);
        log.debug(`job ${key} not taken`, error.code, error.params);
        if (kind !== "apply" && error.code === "claimed") {
          ui.notifications.warn(t("Job.Claimed", { name: error.params?.by ?? "?" }));
        }
        return null;
      }
      log.error("apply failed", error);
      ui.notifications.error(t("Notices.apply_failed", { error: errorText(error) }));
      return null;
    } finally {
      this.busy.delete(key);
      this.changed();
    }
  }

  /**
   * After this GM's *Apply*: the units sent are followed until a browser takes them. One taken
   * already says "sent" now; one nobody holds says whom it waits for (this browser, when it is
   * the one that applies, takes it itself and says nothing: its result follows).
   */
  askedFor(battle, units) {
    const jobs = this.client?.states.get(battle)?.foundry?.jobs ?? {};
    for (const unit of units) {
      const job = jobs[unit];
      if (job?.claimed_by) {
        if (job.claimed_by !== game.user.name) ui.notifications.info(t("Applier.Sent", { name: job.claimed_by }));
        continue;
      }
      this.asked.add(`${battle}/${unit}`);
      if (!this.applier.mine) ui.notifications.info(t("Job.WaitingFor", { who: this.applier.waitsFor() }));
    }
  }

  /** A job this browser's GM asked for was taken by another browser: say so ("sent"), once. */
  jobTaken({ battle, unit, job }) {
    const key = `${battle}/${unit}`;
    if (!this.asked.has(key)) return;
    if (!job) {
      this.asked.delete(key);
      return;
    }
    if (!job.claimed_by) return;
    this.asked.delete(key);
    if (job.claimed_by !== game.user.name || !this.applier.hasGmLine) {
      ui.notifications.info(t("Applier.Sent", { name: job.claimed_by }));
    }
  }

  /**
   * Shows another battle in the panel: a GM's choice of a started battle for everyone, of one in
   * set-up for this GM until it starts (gm-choice.mjs); a player's for this player.
   */
  async selectBattle(name) {
    // Either setting's onChange calls follow() (the world's on every client).
    if (game.user.isGM) await this.choice.choose(name ?? "");
    else {
      this.ownBattle = name ?? null;
      this.follow();
    }
  }

  /**
   * The battles to watch: the one shown and, for a GM, also the world's: while a GM prepares a
   * battle of their own, the active GM's browser still cards the one the players follow.
   */
  battlesWatched() {
    const world = game.user?.isGM ? setting(SETTINGS.BATTLE) || null : null;
    return [...new Set([this.battle, world].filter(Boolean))];
  }

  /** Watches the battles now shown, and stops watching those shown before. */
  follow() {
    this.watch(this.battlesWatched());
    this.choice.check();
    this.changed();
  }

  /** Watches `now` on this browser's connections (the players' eye: beside relayed players'). */
  watch(now) {
    if (this.client && this.client !== this.eye?.client) {
      for (const battle of this.watching) if (!now.includes(battle)) this.client.unwatch(battle);
      for (const battle of now) this.client.watch(battle);
    }
    this.watching = now;
    this.eye?.watchFor(BROWSER, now);
  }

  /**
   * Sends a core command for the shown battle; reports a refusal in the user's language.
   * Returns the ack, or null when refused.
   */
  async command(command) {
    if (!this.battle) {
      ui.notifications.warn(t("Notices.no_battle"));
      return null;
    }
    const battle = this.battle;
    const ack = await this.send(() => this.client.command(battle, command, { expectedVersion: this.state?.version }));
    if (ack) {
      await this.caughtUp(battle, ack.version);
      this.lastSent = { battle, version: ack.version };
      this.changed();
    }
    return ack;
  }

  /** Waits (at most `ms`) until this browser holds the battle at `version`. */
  caughtUp(battle, version, ms = 3000) {
    const holds = () => (this.client?.states.get(battle)?.version ?? -1) >= version;
    if (!this.client || holds()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const stop = this.client.on("message", () => {
        if (!holds()) return;
        stop();
        clearTimeout(timer);
        resolve(true);
      });
      const timer = setTimeout(() => {
        stop();
        resolve(false);
      }, ms);
    });
  }

  /** Runs a bridge request; a refusal becomes a notification and null. */
  async send(makeRequest) {
    if (!this.client?.connected) {
      ui.notifications.warn(t("Notices.not_connected"));
      return null;
    }
    try {
      return await makeRequest();
    } catch (error) {
      // Every field the core found at fault in one check, the first first.
      for (const each of [error, ...(error?.reply?.others ?? [])]) ui.notifications.warn(errorText(each));
      log.debug("refused", error);
      return null;
    }
  }

  /**
   * Runs one user action at a time: a click while another action of this browser is on its way
   * (a double click) does nothing, instead of sending a command the bridge would find stale.
   */
  async once(action) {
    if (this.pending) {
      log.debug("busy: click ignored");
      return null;
    }
    this.pending = action;
    this.changed();
    try {
      return await action();
    } finally {
      this.pending = null;
      this.changed();
    }
  }
}

/** A bridge client of this page on the given socket factory. */
function newClient(url, token, createSocket) {
  return new BridgeClient({
    url,
    token,
    createSocket,
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) },
    page: { protocol: window.location.protocol, hostname: window.location.hostname },
  });
}
