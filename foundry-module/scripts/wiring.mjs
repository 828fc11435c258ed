/**
 * Where the module's parts are put together: each part of the app (and the panel) gets a narrow
 * front of it, the few values and calls it uses, read live, and never the app itself.
 */
import { marksChanged } from "./fight-marks.mjs";
import { Applier } from "./applier.mjs";
import { GmChoice } from "./gm-choice.mjs";
import { StepCards } from "./step-cards.mjs";
import { jobLines } from "./panel-jobs.mjs";
import { MessageHandlers } from "./message-handlers.mjs";

/** This browser's bridge connections: its client (GM or player token) and the players' eye. */
export function connectionsOf(app) {
  return {
    get client() {
      return app.client;
    },
    get eye() {
      return app.eye;
    },
  };
}

/**
 * The app's parts: the cards (step-cards.mjs), the GM's choice of the battle shown
 * (gm-choice.mjs, which asks the cards to begin a started battle's cards with its start), who
 * applies casualties (applier.mjs) and what each message of the bridge does (`messages`).
 */
export function appParts(app) {
  const connections = connectionsOf(app);
  const cards = new StepCards(connections);
  return {
    connections,
    cards,
    choice: new GmChoice(connections, { shownFromStart: (battle) => cards.shownFromStart(battle) }),
    applier: new Applier(connections, () => app.changed()),
    messages: bridgeMessages(app, cards),
  };
}

/**
 * What this browser does with each message of the bridge, by type (message-handlers.mjs). `own`:
 * this browser's connection (the GM or the player token); `players`: a GM's browser's players'
 * eye (player-eye.mjs), whose welcome and pushes the relay also takes (relay-host.mjs registers
 * there). Each type's handlers run in the order written here.
 */
export function bridgeMessages(app, cards) {
  const own = new MessageHandlers();
  const players = new MessageHandlers();
  own.handle("apply_casualties", (message) => app.offered(message));
  own.handle("apply_job", (message) => app.jobChanged(message));
  own.handle("state", (message) => app.moveOldFlags(message.battle));
  own.handle("error", (message) => app.refused(message));
  // Influence effects done (on the GM's page, in Foundry): the roll's cards drawn again.
  own.handle("effects_marked", (message) => marksChanged(message));
  // What the panel shows.
  for (const type of ["state", "event", "events", "battles", "tokens", "applied", "unapplied", "welcome"]) {
    own.handle(type, () => app.changed());
  }
  for (const type of ["apply_job", "detached"]) own.handle(type, () => app.changed());
  // A GM's own battle that starts goes to the world; a world's battle back in set-up leaves it.
  for (const type of ["state", "event", "events", "battles", "welcome"]) own.handle(type, () => app.choice.check());
  for (const heard of [own, players]) {
    // A step to card may be complete; a list of battles tells which are back in set-up.
    for (const type of ["state", "event", "events"])
      heard.handle(type, (message) => message.battle && cards.catchUp(message.battle));
    for (const type of ["welcome", "battles"]) heard.handle(type, (message) => cards.told(message.battles));
  }
  return { own, players };
}

/**
 * The panel's fronts of the app (panel.mjs, and its actions by phase: panel-act-*.mjs). Each
 * reads the app when called, so a panel always acts on the battle shown now.
 */
export function panelFronts(app) {
  const battle = () => app.battle;
  const view = () => app.state?.view ?? null;
  const foundryData = () => app.state?.foundry ?? null;
  const command = (order) => app.command(order);
  const once = (action) => app.once(action);
  const selectBattle = (name) => app.selectBattle(name);
  /** A request about the battle shown (`battle` added); a refusal becomes a notification and null. */
  const request = (type, fields = {}) => app.send(() => app.client.request(type, { battle: app.battle, ...fields }));
  return {
    /** What the panel shows, and its own controls (reconnect, the battle chosen). */
    panel: {
      battle,
      view,
      foundryData,
      once,
      selectBattle,
      onChange: (render) => app.onChange(render),
      connect: () => app.connect(),
      status: () => app.status,
      missingToken: () => app.missingToken,
      relayed: () => app.relayed,
      role: () => app.client?.role,
      battles: () => app.client?.battles ?? [],
      applierLine: () => app.applier.line(),
      jobLines: () => (game.user?.isGM ? jobLines(app.state?.foundry?.jobs, app.applier) : {}),
      pending: () => Boolean(app.pending),
      lastSent: () => app.lastSent,
    },
    setUp: {
      battle,
      view,
      foundryData,
      command,
      request,
      selectBattle,
      create: (name) => app.send(() => app.client.command(name, { type: "create_battle" })),
    },
    fight: {
      battle,
      view,
      command,
      once,
      foundryData,
      request,
    },
    apply: {
      battle,
      foundryData,
      request,
      applier: {
        mine: () => app.applier.mine,
        name: () => app.applier.user?.name ?? "?",
        hasGmLine: () => app.applier.hasGmLine,
      },
      connections: app.connections,
      changed: () => app.changed(),
      asked: (units) => app.askedFor(app.battle, units),
      runJob: (unit, version, kind) => app.runJob(app.battle, unit, version, kind),
    },
  };
}

/** The front of the combat's rhythm (fight-rounds.mjs): the battle shown, its view, a command. */
export function rhythmFront(app) {
  return { battle: () => app.battle, view: () => app.state?.view ?? null, command: (order) => app.command(order) };
}
