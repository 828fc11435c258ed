/**
 * The browser that writes casualties onto tokens (logic/applier.mjs decides): each GM's
 * browser says on the module's socket whether it is connected to the bridge with the GM token
 * (`{kind: "gm-line", from, gm}`), when that changes and when another GM's browser asks
 * (`{kind: "gm-line-ask"}`, on its `ready`). A GM who leaves (`userConnected`) is forgotten.
 */
import { ID } from "./constants.mjs";
import { chooseApplier } from "./logic/applier.mjs";
import { t } from "./i18n.mjs";

const CHANNEL = `module.${ID}`;

export class Applier {
  /** `connections`: this browser's bridge client, read live; `changed()`: the panels show it again. */
  constructor(connections, changed) {
    this.connections = connections;
    this.changed = changed;
    this.lines = new Map(); // GM user id → connected with the GM token (as that browser said)
    this.said = null; // what this browser said last
  }

  /** Listens on the module's socket (once, on `ready`) and asks the other GMs' browsers. */
  start() {
    game.socket.on(CHANNEL, (data) => this.heard(data));
    Hooks.on("userConnected", (user, connected) => {
      if (!connected) this.lines.delete(user.id);
      this.changed();
    });
    if (game.user.isGM) game.socket.emit(CHANNEL, { kind: "gm-line-ask", from: game.user.id });
    // This browser's own word comes once its connection is made or found impossible (app.mjs
    // connect): said before, a browser about to connect with the GM token would be passed over.
  }

  heard(data) {
    if (data?.kind === "gm-line" && typeof data.from === "string" && typeof data.gm === "boolean") {
      this.lines.set(data.from, data.gm);
      this.changed();
    } else if (data?.kind === "gm-line-ask") {
      this.said = null;
      this.announce();
    }
  }

  /** Whether this browser is connected to the bridge with the GM token. */
  get hasGmLine() {
    return (
      Boolean(game.user?.isGM) && Boolean(this.connections.client?.connected) && this.connections.client.role === "gm"
    );
  }

  /** Says what changed of this GM browser's bridge connection (after every status change).
   * Nothing while its first connection is on its way: the active GM's browser that has said
   * nothing counts as connected, so a browser that is about to connect with the GM token is not
   * passed over for the moment it takes (a refusal or a failure says "not" at once). */
  announce() {
    if (!game.user?.isGM || !game.socket) return;
    const state = this.connections.client?.status?.state;
    if (this.said === null && (state === "idle" || state === "connecting")) return;
    const gm = this.hasGmLine;
    if (this.said === gm) return;
    this.said = gm;
    game.socket.emit(CHANNEL, { kind: "gm-line", from: game.user.id, gm });
  }

  /** The user whose browser applies casualties now, or null when no GM's browser can. */
  get user() {
    const gms = (game.users?.filter((user) => user.isGM && user.active) ?? []).map((user) => user.id);
    const lines = new Map(this.lines);
    if (game.user?.isGM) lines.set(game.user.id, this.hasGmLine);
    const id = chooseApplier({ active: game.users?.activeGM?.id ?? null, gms, lines });
    return id ? game.users.get(id) : null;
  }

  /** Whether this browser is the one that applies. */
  get mine() {
    return this.hasGmLine && this.user?.id === game.user.id;
  }

  /** Whom a job nobody holds waits for, in words: the active GM still loading (its browser
   * has said nothing yet), the browser that applies, or any GM browser with the GM token. */
  waitsFor() {
    const user = this.user;
    if (!user) return t("Job.WhoNone");
    if (user.id === game.users.activeGM?.id && user.id !== game.user.id && !this.lines.has(user.id)) {
      return t("Job.WhoLoading", { name: user.name });
    }
    return t("Job.WhoBrowser", { name: user.name });
  }

  /** For a GM's panel: who changes the tokens, in words (null when this browser does). */
  line() {
    // While this browser connects, its light says so; who applies is told once it is connected.
    if (!this.connections.client?.connected) return null;
    const user = this.user;
    if (user?.id === game.user.id && this.hasGmLine) return null;
    if (!user) return t("Applier.None");
    const active = game.users.activeGM;
    if (active && active.id !== user.id) return t("Applier.StandsIn", { name: user.name, active: active.name });
    return t("Applier.ActiveGM", { name: user.name });
  }
}
