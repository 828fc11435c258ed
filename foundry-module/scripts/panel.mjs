/**
 * The Background Battle panel (ApplicationV2): shows the battle from the bridge and, for a GM,
 * sends the commands. Every rule is the core's: the panel only collects what the GM typed.
 * One action at a time (app.once): a double click sends one command.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { reportUndone, undoApply } from "./casualties.mjs";
import { importDefaultTable } from "./influence.mjs";
import { counted, errorText, t } from "./i18n.mjs";
import { readChecked, readNumber, readNumbers, readText } from "./panel-input.mjs";
import { lastStep } from "../client/battle-story.mjs";
import { PanelEyes } from "./panel-eyes.mjs";
import { panelHtml } from "./panel-view.mjs";
import { keepTyping, restoreTyping, wireKeys } from "./panel-typing.mjs";
import { PANEL_SETTINGS, panelSetting, setPanelSetting } from "./panel-settings.mjs";
import { createSides, proposeSides, tokensDropped } from "./scene-sides.mjs";
import { setSetting, setting } from "./settings.mjs";
import { markLinked, markUnlinked, selectedTokenDocuments } from "./tokens.mjs";
import { requestId } from "../client/bridge-client.mjs";
import { headCounts } from "./logic/head-counts.mjs";
import { influenceDie, roundDice } from "./foundry-dice.mjs";
import { LEADER_ACTIONS, leaderTest, wireLeaderDrops } from "./leader-test.mjs";

const { ApplicationV2 } = foundry.applications.api;

/** Empties fields after their command was taken (and forgets that they were typed in). */
function clear(form, ...names) {
  for (const name of names) {
    const input = form.querySelector(`[name="${name}"]`);
    if (!input) continue;
    if (input.type === "checkbox") input.checked = input.defaultChecked;
    else input.value = "";
    delete input.dataset.typed;
  }
}

/** Where the GM's hands go after a round: the allies' d100 for the next one (after the end: Apply). */
const AFTER_ROUND = ['[name="rollAllies"]', '[data-action="applyAll"]'];
/** After the end of the battle: *Apply casualties to every unit*. */
const AFTER_END = ['[data-action="applyAll"]'];

/**
 * Wraps an action: one at a time (the second click of a double click, or any click while an
 * action is on its way, does nothing), and a bad entry becomes a notification naming the field.
 * A handler may return the controls (selectors, the first one found wins) the focus moves to
 * once the panel shows the result.
 */
function act(handler) {
  return function (event, target) {
    if (event?.detail > 1) return null;
    return this.app.once(async () => {
      this.acted = { action: target?.dataset?.action ?? null, unit: target?.dataset?.unit ?? "" };
      try {
        const next = await handler.call(this, this.element, target, event);
        if (Array.isArray(next)) this.focusNext = next;
      } catch (error) {
        if (error.code) ui.notifications.warn(errorText(error));
        else for (const message of error.messages ?? [error.message]) ui.notifications.warn(message);
      }
    });
  };
}

function command(type, next) {
  return act(async function () {
    return (await this.app.command({ type })) && next;
  });
}

export class BattlePanel extends ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: `${ID}-panel`,
    classes: [ID],
    tag: "section",
    window: { title: "BACKGROUND_BATTLE.Title", icon: "fa-solid fa-people-group", resizable: true },
    position: { width: 460, height: "auto" },
    actions: {
      reconnect: BattlePanel.#reconnect,
      toggleCompact: BattlePanel.#toggleCompact,
      createBattle: act(BattlePanel.#createBattle),
      newUnit: act(BattlePanel.#newUnit),
      linkSelected: act(BattlePanel.#linkSelected),
      unlinkSelected: act(BattlePanel.#unlinkSelected),
      sceneSides: BattlePanel.#sceneSides,
      sceneConfirm: act(BattlePanel.#sceneConfirm),
      sceneCancel: BattlePanel.#sceneCancel,
      start: command("start", ['[name="rollAllies"]']),
      roundAuto: act(BattlePanel.#roundAuto),
      detach: act(BattlePanel.#detach),
      setStrength: act(BattlePanel.#setStrength),
      roundRolls: act(BattlePanel.#roundRolls),
      roundLost: act(BattlePanel.#roundLost),
      leader: act(BattlePanel.#leader),
      pcsWon: act(BattlePanel.#pcsWon),
      endBattle: act(BattlePanel.#endBattle),
      toggleShown: act(BattlePanel.#toggleShown),
      undo: act(BattlePanel.#undo),
      applyUnit: act(BattlePanel.#applyUnit),
      applyAll: act(BattlePanel.#applyAll),
      undoApply: act(BattlePanel.#undoApply),
      influence: act(BattlePanel.#influence),
      importTable: act(BattlePanel.#importTable),
      ...Object.fromEntries(Object.entries(LEADER_ACTIONS).map(([name, handler]) => [name, act(handler)])),
    },
  };

  /** @param {import("./app.mjs").BattleApp} app */
  constructor(app, options = {}) {
    const saved = panelSetting(PANEL_SETTINGS.POSITION) ?? {};
    const position = {};
    for (const key of ["left", "top", "width", "height"]) {
      if (typeof saved[key] === "number") position[key] = saved[key];
    }
    super({ ...options, position: { ...BattlePanel.DEFAULT_OPTIONS.position, ...position, ...options.position } });
    this.app = app;
    this.sceneSides = null;
    /** The control of the GM's last action ({action, unit}) and where the focus goes next. */
    this.acted = null;
    this.focusNext = null;
    this.eyes = new PanelEyes(this);
    const rerender = () => {
      if (this.rendered) this.render();
    };
    this.stopListening = app.onChange(rerender);
    // A player waiting for a GM: the panel says whether one is online (hookEvents.userConnected).
    this.userHook = Hooks.on("userConnected", rerender);
  }

  async _prepareContext() {
    const app = this.app;
    const state = app.state;
    return {
      status: app.missingToken ? { state: "idle", reason: "no_token" } : app.status,
      // A player through the relay waits for a GM's Foundry: none online, or the one answering.
      relayedThrough: app.relayed ? { gm: game.users.activeGM?.name ?? null } : null,
      // Controls for a GM connected with the GM token; a GM on the player token reads only.
      isGM: Boolean(game.user.isGM) && app.client?.role !== "player",
      gmAsPlayer: Boolean(game.user.isGM) && app.client?.role === "player",
      // Who changes the tokens, when not this browser (applier.mjs).
      applierLine: game.user.isGM ? app.applier.line() : null,
      battles: app.client?.battles ?? [],
      battle: app.battle,
      shownToPlayers: setting(SETTINGS.BATTLE) || null,
      view: state?.view ?? null,
      foundry: state?.foundry ?? null,
      tables: (game.tables?.contents ?? []).map((tb) => ({ id: tb.id, name: tb.name })),
      tableId: setting(SETTINGS.INFLUENCE_TABLE),
      pending: Boolean(app.pending),
      compact: panelSetting(PANEL_SETTINGS.COMPACT),
      closed: new Set(panelSetting(PANEL_SETTINGS.CLOSED) ?? []),
      sceneSides: this.sceneSides,
      lastSent: app.lastSent?.battle === app.battle ? app.lastSent : null,
    };
  }

  async _renderHTML(context) {
    return panelHtml(context);
  }

  /** Replaces the content and keeps what the user was typing, and where (focus, caret). */
  _replaceHTML(result, content) {
    const typing = keepTyping(content);
    content.innerHTML = result;
    restoreTyping(content, typing);
  }

  _onRender(context, options) {
    super._onRender?.(context, options);
    const root = this.element;
    this.eyes.rendered(root, context);
    if (this.#wired) return;
    this.#wired = true;
    wireKeys(root);
    wireLeaderDrops(this);
    root.addEventListener("change", (event) => this.#onChange(event));
    root.addEventListener("toggle", (event) => this.#onToggle(event), true);
    // A unit under a dragged token or actor is marked; dropping links the tokens to it.
    const target = (event) => event.target.closest?.("[data-drop=unit]");
    root.addEventListener("dragover", (event) => {
      const row = target(event);
      if (!row) return;
      event.preventDefault();
      row.classList.add("bb-drop-target");
    });
    root.addEventListener("dragleave", (event) => target(event)?.classList.remove("bb-drop-target"));
    root.addEventListener("drop", (event) => {
      target(event)?.classList.remove("bb-drop-target");
      this.#onDrop(event);
    });
  }

  #wired = false;

  /** Remembers where the GM put the window and how big (client setting). */
  _onPosition(position) {
    super._onPosition?.(position);
    const keep = {};
    for (const key of ["left", "top", "width", "height"]) {
      if (typeof position?.[key] === "number") keep[key] = Math.round(position[key]);
    }
    clearTimeout(this.#savePosition);
    this.#savePosition = setTimeout(() => setPanelSetting(PANEL_SETTINGS.POSITION, keep), 250);
  }

  #savePosition = null;

  async #onChange(event) {
    const name = event.target.name;
    if (name === "battle") await this.app.selectBattle(event.target.value || null);
    else if (name === "influenceTable") await setSetting(SETTINGS.INFLUENCE_TABLE, event.target.value);
  }

  async #onToggle(event) {
    const id = event.target.dataset?.section;
    if (!id) return;
    const closed = new Set(panelSetting(PANEL_SETTINGS.CLOSED) ?? []);
    // A render that draws a section open fires "toggle" too: only the GM's own clicks count.
    if (event.target.open !== closed.has(id)) return;
    if (event.target.open) closed.delete(id);
    else closed.add(id);
    await setPanelSetting(PANEL_SETTINGS.CLOSED, [...closed]);
  }

  async #onDrop(event) {
    const row = event.target.closest?.("[data-drop=unit]");
    if (!row || !game.user.isGM) return;
    event.preventDefault();
    await this.app.once(async () => {
      const docs = tokensDropped(event);
      if (!docs.length) {
        ui.notifications.warn(t("Notices.drop_tokens"));
        return;
      }
      await linkToUnit(this.app, row.dataset.unit, docs);
    });
  }

  _onClose(options) {
    super._onClose?.(options);
    this.stopListening();
    Hooks.off("userConnected", this.userHook);
  }

  static #reconnect() {
    this.app.connect();
  }

  static async #toggleCompact() {
    await setPanelSetting(PANEL_SETTINGS.COMPACT, !panelSetting(PANEL_SETTINGS.COMPACT));
    this.render();
  }

  static async #createBattle(form) {
    const name = readText(form, "newBattle");
    if (!name) throw new Error(t("Errors.required", { field: t("Panel.NewBattleName") }));
    const ack = await this.app.send(() => this.app.client.command(name, { type: "create_battle" }));
    if (ack) {
      clear(form, "newBattle");
      await this.app.selectBattle(name);
    }
  }

  static async #newUnit(form) {
    const docs = selectedTokenDocuments();
    const name = readText(form, "unitName");
    const side = readText(form, "unitSide");
    const oneForMany = readChecked(form, "oneForMany");
    const [strength, rating, headCount] = readNumbers(form, [
      ["unitStrength", "strength", t("Fields.strength")],
      ["unitRating", "rating", t("Fields.rating")],
      ["headCount", "fighters", t("Panel.HeadCount"), { required: oneForMany }],
    ]);
    if (!docs.length) throw new Error(t("Notices.select_tokens"));
    if (oneForMany && docs.length !== 1) throw new Error(t("Notices.select_one_token"));
    const fighters = oneForMany ? headCount : docs.length;
    const unit = `u-${requestId()}`.slice(0, 40);
    const order = { type: "add_unit", id: unit, name: name || docs[0].name, side, fighters };
    if (strength !== null) order.strength = strength;
    else if (rating !== null) Object.assign(order, { rating, size: readText(form, "unitSize") });
    else throw new Error(t("Errors.required", { field: t("Fields.strength") }));
    const ack = await this.app.command(order);
    if (!ack) return;
    await linkToUnit(this.app, unit, docs, oneForMany ? headCount : 1);
    clear(form, "unitName", "unitStrength", "unitRating", "headCount", "oneForMany");
  }

  static async #linkSelected(form, target) {
    const docs = selectedTokenDocuments();
    if (!docs.length) throw new Error(t("Notices.select_tokens"));
    await linkToUnit(this.app, target.dataset.unit, docs);
  }

  static async #unlinkSelected(form, target) {
    const unit = target.dataset.unit;
    const docs = selectedTokenDocuments();
    if (!docs.length) throw new Error(t("Notices.select_tokens"));
    const drop = new Set(docs.map((doc) => doc.uuid));
    const current = this.app.state?.foundry?.tokens?.[unit] ?? [];
    const leaving = docs.filter((doc) => current.includes(doc.uuid));
    // The tokens' own marks first, so that they are right when the bridge's list arrives.
    await markUnlinked(leaving);
    const ids = current.filter((id) => !drop.has(id));
    const fighters = headCounts(this.app.state?.foundry?.fighters?.[unit], ids);
    const ack = await this.app.send(() =>
      this.app.client.request("tokens", { battle: this.app.battle, unit, token_ids: ids, fighters }),
    );
    if (!ack) await markLinked(leaving, unit);
  }

  /** Both sides from the scene: a proposal the GM confirms (nothing is sent before). */
  static #sceneSides() {
    const by = readText(this.element, "sceneGroupBy") || "actor";
    const linked = new Set(Object.values(this.app.state?.foundry?.tokens ?? {}).flat());
    this.sceneSides = proposeSides(by, linked);
    if (!this.sceneSides.allies.length && !this.sceneSides.enemies.length) {
      this.sceneSides = null;
      ui.notifications.warn(t("Scene.NoTokens"));
    }
    this.render();
  }

  static #sceneCancel() {
    this.sceneSides = null;
    this.render();
  }

  static async #sceneConfirm(form) {
    const done = await createSides(this.app, this.sceneSides, form, linkToUnit);
    if (!done) return null;
    this.sceneSides = null;
    this.render();
    return ['[data-action="start"]'];
  }

  /** Foundry's dice (posted in chat) as the round's rolls, or the core rolls (the setting); the
   * GM's hand stays on the button for the next round. */
  static async #roundAuto() {
    const rolls = await roundDice(this.app.state?.view);
    const ack = await this.app.command(rolls ? { type: "resolve_round", mode: "rolls", rolls } : { type: "resolve_round", mode: "auto" });
    return ack && ['[data-action="roundAuto"]', '[data-action="applyAll"]'];
  }

  /** Moves fighters of a unit into the PCs' fight (the core takes them and their strength out). */
  static async #detach(form, target) {
    const unit = target.dataset.unit;
    const fighters = readNumber(form, `detach-${unit}`, "fighters", t("Panel.DetachCount"), { required: true });
    const ack = await this.app.command({ type: "detach_fighters", unit, fighters });
    if (ack) clear(form, `detach-${unit}`);
  }

  static async #setStrength(form) {
    const side = readText(form, "strengthSide");
    const strength = readNumber(form, "strengthValue", "strength", t("Panel.NewStrength"), { required: true });
    const ack = await this.app.command({ type: "set_strength", side, strength });
    if (ack) clear(form, "strengthValue");
  }

  static async #roundRolls(form) {
    const [allies, enemies] = readNumbers(form, [
      ["rollAllies", "roll", t("Fields.rolls.allies"), { required: true }],
      ["rollEnemies", "roll", t("Fields.rolls.enemies"), { required: true }],
    ]);
    const ack = await this.app.command({ type: "resolve_round", mode: "rolls", rolls: { allies, enemies } });
    if (ack) clear(form, "rollAllies", "rollEnemies");
    return ack && AFTER_ROUND;
  }

  /** A round fought out at the table: the strength each side lost (a blank reads 0, as on the page). */
  static async #roundLost(form) {
    const [allies, enemies] = readNumbers(form, [
      ["lostAllies", "lost", t("LostRound.Allies")],
      ["lostEnemies", "lost", t("LostRound.Enemies")],
    ]);
    if (allies === null && enemies === null) {
      form.querySelector('[name="lostAllies"]')?.focus();
      throw new Error(t("Typed.LostNone"));
    }
    const lost = { allies: allies ?? 0, enemies: enemies ?? 0 };
    const ack = await this.app.command({ type: "resolve_round", mode: "lost", lost });
    if (ack) clear(form, "lostAllies", "lostEnemies");
    return ack && ['[name="lostAllies"]', ...AFTER_ROUND];
  }

  static async #leader(form) {
    if (await leaderTest(this.app, form, { readNumber, clear })) return;
    const ack = await this.app.command({
      type: "leader_command",
      side: readText(form, "leaderSide"),
      sl: readNumber(form, "leaderSl", "sl", t("Panel.SL"), { required: true }),
      success: readChecked(form, "leaderSuccess"),
    });
    if (ack) clear(form, "leaderSl", "leaderSuccess");
  }

  static async #pcsWon(form) {
    const fleeing = readNumber(form, "fleeing", "share", t("Panel.Fleeing"));
    const order = fleeing === null ? { type: "pcs_won" } : { type: "pcs_won", fleeing };
    const ack = await this.app.command(order);
    if (ack) clear(form, "fleeing");
    return ack && AFTER_END;
  }

  static async #endBattle(form) {
    const winner = readText(form, "winner");
    const ack = await this.app.command(winner ? { type: "end_battle", winner } : { type: "end_battle" });
    return ack && AFTER_END;
  }

  /** Shows a side's strength and head count to players, or hides them (`set_hidden`). */
  static async #toggleShown(form, target) {
    const side = target.dataset.side;
    const hidden = new Set(this.app.state?.view?.hidden ?? []);
    const mine = [`${side}.strength`, `${side}.fighters`];
    if (target.dataset.shown === "1") mine.forEach((h) => hidden.add(h));
    else mine.forEach((h) => hidden.delete(h));
    await this.app.command({ type: "set_hidden", hidden: [...hidden].sort() });
  }

  /** Undo last step; undoing the end of the battle asks first. */
  static async #undo() {
    const step = lastStep(this.app.state?.view);
    const endsBattle = (step?.entry?.events ?? []).some((e) => e.type === "battle_ended");
    if (endsBattle) {
      const sure = await foundry.applications.api.DialogV2.confirm({
        window: { title: t("Panel.Undo") },
        content: `<p>${t("Panel.UndoEndConfirm")}</p>`,
      });
      if (!sure) return;
    }
    await this.app.command({ type: "undo" });
  }

  /**
   * Apply: ask the bridge to send the unit's result to the Foundry clients, where the active GM's
   * module carries it out. After Undo apply the bridge has no report of the unit, so it is sent
   * as any other. A unit the bridge still has a report of is sent again with `force` (after the
   * battle changed, the new result replaces the old one): tokens already showing it change
   * nothing.
   */
  static async #applyUnit(form, target) {
    const unit = target.dataset.unit;
    const force = Boolean(this.app.state?.foundry?.applied?.[unit]);
    const ack = await this.app.send(() =>
      this.app.client.request("request_casualties", {
        battle: this.app.battle,
        unit,
        ...(force ? { force: true } : {}),
      }),
    );
    const applier = this.app.applier;
    if (ack && !applier.mine) ui.notifications.info(t("Applier.Sent", { name: applier.user?.name ?? "?" }));
  }

  static async #applyAll() {
    const ack = await this.app.send(() => this.app.client.request("request_casualties", { battle: this.app.battle }));
    const applier = this.app.applier;
    if (ack && !(ack.sent ?? []).length) ui.notifications.info(t("Notices.nothing_to_apply"));
    else if (ack && !applier.mine) ui.notifications.info(t("Applier.Sent", { name: applier.user?.name ?? "?" }));
  }

  static async #undoApply(form, target) {
    if (!this.app.applier.mine) {
      throw new Error(t("Applier.OnlyApplier", { name: this.app.applier.user?.name ?? "?" }));
    }
    const unit = target.dataset.unit;
    const foundryData = this.app.state?.foundry ?? {};
    const report = foundryData.applied?.[unit];
    const ids = [...(foundryData.tokens?.[unit] ?? []), ...Object.values(report?.token_ids ?? {}).flat()];
    const restored = await undoApply(this.app.battle, unit, ids);
    ui.notifications.info(counted("Notices.undone", restored));
    this.app.changed();
    // Then the bridge: it forgets the report and tells every GM's panel. When that fails the
    // tokens are back anyway; pressing Undo apply again (nothing left to put back) retries.
    try {
      await reportUndone(this.app, this.app.battle, unit, report);
    } catch (error) {
      ui.notifications.warn(t("Notices.unapplied_failed", { error: errorText(error) }));
    }
  }

  /** Influence: a d100 typed, Foundry's or the core's; the active GM's browser posts the card (step-cards.mjs). */
  static async #influence(form) {
    const order = { type: "roll_influence", side: readText(form, "influenceSide") };
    const roll = readNumber(form, "influenceRoll", "roll", t("Panel.Roll")) ?? (await influenceDie(order.side));
    if (roll !== null) order.roll = roll;
    const ack = await this.app.command(order);
    if (ack) clear(form, "influenceRoll");
  }

  static async #importTable() {
    const table = await importDefaultTable(this.app.state?.view?.influence_table);
    await setSetting(SETTINGS.INFLUENCE_TABLE, table.id);
    ui.notifications.info(t("Notices.table_imported", { name: table.name }));
    this.render();
  }
}

/**
 * Adds tokens to a unit: their own marks first (so that they are right when the bridge's list
 * arrives), then the unit's list on the bridge with the head count of each token standing for
 * many (`fighters`: kept by the bridge for the GMs only); a refusal takes the new marks back.
 */
export async function linkToUnit(app, unit, docs, fighters = 1) {
  const current = app.state?.foundry?.tokens?.[unit] ?? [];
  const joining = docs.filter((doc) => !current.includes(doc.uuid));
  await markLinked(docs, unit);
  const uuids = docs.map((doc) => doc.uuid);
  const ids = [...new Set([...current, ...uuids])];
  const counts = headCounts(app.state?.foundry?.fighters?.[unit], ids, uuids, fighters);
  const ack = await app.send(() =>
    app.client.request("tokens", { battle: app.battle, unit, token_ids: ids, fighters: counts }),
  );
  if (!ack) await markUnlinked(joining);
  return ack;
}
