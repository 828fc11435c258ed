/**
 * Where the module's parts are put together: each part of the app (and the panel) gets a narrow
 * front of it, the few values and calls it uses, read live, and never the app itself.
 */
import { Applier } from "./applier.mjs";
import { GmChoice } from "./gm-choice.mjs";
import { StepCards } from "./step-cards.mjs";
import { jobLines } from "./panel-jobs.mjs";

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
 * (gm-choice.mjs, which asks the cards to begin a started battle's cards with its start) and who
 * applies casualties (applier.mjs).
 */
export function appParts(app) {
  const connections = connectionsOf(app);
  const cards = new StepCards(connections);
  return {
    connections,
    cards,
    choice: new GmChoice(connections, { shownFromStart: (battle) => cards.shownFromStart(battle) }),
    applier: new Applier(connections, () => app.changed()),
  };
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
