/**
 * The Background Battle panel (ApplicationV2): shows the battle from the bridge and, for a GM,
 * sends the commands. Every rule is the core's: the panel only collects what the GM typed.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { isActiveGM } from "./app.mjs";
import { reportUndone, undoApply } from "./casualties.mjs";
import { importDefaultTable, lastInfluence, postInfluence } from "./influence.mjs";
import { errorText, t } from "./i18n.mjs";
import { panelHtml } from "./panel-view.mjs";
import { setSetting, setting } from "./settings.mjs";
import { markLinked, markUnlinked, selectedTokenDocuments } from "./tokens.mjs";
import { requestId } from "./logic/bridge-client.mjs";

const { ApplicationV2 } = foundry.applications.api;

/** Reads a whole number from an input; null when empty; throws a clear message when bad. */
function readInt(form, name, label) {
  const raw = form.querySelector(`[name="${name}"]`)?.value?.trim() ?? "";
  if (raw === "") return null;
  const value = Number(raw);
  if (!Number.isInteger(value)) throw new Error(t("Errors.not_integer", { field: label }));
  return value;
}

function readText(form, name) {
  return form.querySelector(`[name="${name}"]`)?.value?.trim() ?? "";
}

function readChecked(form, name) {
  return Boolean(form.querySelector(`[name="${name}"]`)?.checked);
}

export class BattlePanel extends ApplicationV2 {
  static DEFAULT_OPTIONS = {
    id: `${ID}-panel`,
    classes: [ID],
    tag: "section",
    window: { title: "BACKGROUND_BATTLE.Title", icon: "fa-solid fa-people-group", resizable: true },
    position: { width: 600, height: "auto" },
    actions: {
      reconnect: BattlePanel.#reconnect,
      createBattle: BattlePanel.#createBattle,
      newUnit: BattlePanel.#newUnit,
      linkSelected: BattlePanel.#linkSelected,
      unlinkSelected: BattlePanel.#unlinkSelected,
      start: BattlePanel.#simple("start"),
      roundAuto: BattlePanel.#roundAuto,
      detach: BattlePanel.#detach,
      setStrength: BattlePanel.#setStrength,
      roundRolls: BattlePanel.#roundRolls,
      leader: BattlePanel.#leader,
      pcsWon: BattlePanel.#pcsWon,
      endBattle: BattlePanel.#endBattle,
      undo: BattlePanel.#simple("undo"),
      applyUnit: BattlePanel.#applyUnit,
      applyAll: BattlePanel.#applyAll,
      undoApply: BattlePanel.#undoApply,
      influence: BattlePanel.#influence,
      importTable: BattlePanel.#importTable,
    },
  };

  /** @param {import("./app.mjs").BattleApp} app */
  constructor(app, options = {}) {
    super(options);
    this.app = app;
    this.stopListening = app.onChange(() => {
      if (this.rendered) this.render();
    });
  }

  async _prepareContext() {
    const app = this.app;
    const state = app.state;
    return {
      status: app.missingToken ? { state: "idle", reason: "no_token" } : app.status,
      // Controls for a GM connected with the GM token; a GM on the player token reads only.
      isGM: Boolean(game.user.isGM) && app.client?.role !== "player",
      gmAsPlayer: Boolean(game.user.isGM) && app.client?.role === "player",
      isActiveGM: isActiveGM(),
      activeGMName: game.users.activeGM?.name,
      battles: app.client?.battles ?? [],
      battle: app.battle,
      view: state?.view ?? null,
      foundry: state?.foundry ?? null,
      tables: (game.tables?.contents ?? []).map((tb) => ({ id: tb.id, name: tb.name })),
      tableId: setting(SETTINGS.INFLUENCE_TABLE),
    };
  }

  async _renderHTML(context) {
    return panelHtml(context);
  }

  /** Replaces the content and keeps what the user was typing. */
  _replaceHTML(result, content) {
    const typed = new Map();
    for (const input of content.querySelectorAll("input[name], select[name]")) {
      typed.set(input.name, input.type === "checkbox" ? input.checked : input.value);
    }
    content.innerHTML = result;
    for (const input of content.querySelectorAll("input[name], select[name]")) {
      if (!typed.has(input.name) || input.name === "battle" || input.name === "influenceTable") continue;
      if (input.type === "checkbox") input.checked = typed.get(input.name);
      else input.value = typed.get(input.name);
    }
  }

  _onRender(context, options) {
    super._onRender?.(context, options);
    const root = this.element;
    root.querySelector('[name="battle"]')?.addEventListener("change", (event) => {
      this.app.selectBattle(event.target.value || null);
    });
    root.querySelector('[name="influenceTable"]')?.addEventListener("change", async (event) => {
      await setSetting(SETTINGS.INFLUENCE_TABLE, event.target.value);
    });
  }

  _onClose(options) {
    super._onClose?.(options);
    this.stopListening();
  }

  /** Runs an action; a bad entry becomes a notification that names the field. */
  async run(action) {
    try {
      await action(this.element);
    } catch (error) {
      ui.notifications.warn(error.code ? errorText(error) : error.message);
    }
  }

  static #simple(type) {
    return function () {
      return this.app.command({ type });
    };
  }

  static #reconnect() {
    this.app.connect();
  }

  static async #createBattle() {
    await this.run(async (form) => {
      const name = readText(form, "newBattle");
      if (!name) throw new Error(t("Errors.required", { field: t("Panel.NewBattleName") }));
      const ack = await this.app.send(() =>
        this.app.client.command(name, { type: "create_battle" }),
      );
      if (ack) {
        form.querySelector('[name="newBattle"]').value = "";
        await this.app.selectBattle(name);
      }
    });
  }

  static async #newUnit() {
    await this.run(async (form) => {
      const docs = selectedTokenDocuments();
      const name = readText(form, "unitName");
      const side = readText(form, "unitSide");
      const strength = readInt(form, "unitStrength", t("Panel.Strength"));
      const rating = readInt(form, "unitRating", t("Panel.Rating"));
      const oneForMany = readChecked(form, "oneForMany");
      const headCount = readInt(form, "headCount", t("Panel.HeadCount"));
      if (!docs.length) throw new Error(t("Notices.select_tokens"));
      if (oneForMany && docs.length !== 1) throw new Error(t("Notices.select_one_token"));
      if (oneForMany && headCount === null) {
        throw new Error(t("Errors.required", { field: t("Panel.HeadCount") }));
      }
      const fighters = oneForMany ? headCount : docs.length;
      const unit = `u-${requestId()}`.slice(0, 40);
      const command = { type: "add_unit", id: unit, name: name || docs[0].name, side, fighters };
      if (strength !== null) command.strength = strength;
      else if (rating !== null) Object.assign(command, { rating, size: readText(form, "unitSize") });
      else throw new Error(t("Errors.required", { field: t("Panel.Strength") }));
      const ack = await this.app.command(command);
      if (!ack) return;
      await linkToUnit(this.app, unit, docs, oneForMany ? headCount : 1);
      for (const field of ["unitName", "unitStrength", "unitRating", "headCount"]) {
        form.querySelector(`[name="${field}"]`).value = "";
      }
      form.querySelector('[name="oneForMany"]').checked = false;
    });
  }

  static async #linkSelected(event, target) {
    await this.run(async () => {
      const unit = target.dataset.unit;
      const docs = selectedTokenDocuments();
      if (!docs.length) throw new Error(t("Notices.select_tokens"));
      await linkToUnit(this.app, unit, docs);
    });
  }

  static async #unlinkSelected(event, target) {
    await this.run(async () => {
      const unit = target.dataset.unit;
      const docs = selectedTokenDocuments();
      if (!docs.length) throw new Error(t("Notices.select_tokens"));
      const drop = new Set(docs.map((doc) => doc.uuid));
      const current = this.app.state?.foundry?.tokens?.[unit] ?? [];
      const leaving = docs.filter((doc) => current.includes(doc.uuid));
      // The tokens' own marks first, so that they are right when the bridge's list arrives.
      await markUnlinked(leaving);
      const ids = current.filter((id) => !drop.has(id));
      const ack = await this.app.send(() =>
        this.app.client.request("tokens", { battle: this.app.battle, unit, token_ids: ids }),
      );
      if (!ack) await markLinked(leaving, this.app.battle, unit);
    });
  }

  static async #roundAuto() {
    await this.app.command({ type: "resolve_round", mode: "auto" });
  }

  /** Moves fighters of a unit into the PCs' fight (the core takes them and their strength out). */
  static async #detach(event, target) {
    await this.run(async (form) => {
      const unit = target.dataset.unit;
      const fighters = readInt(form, `detach-${unit}`, t("Panel.DetachCount"));
      const ack = await this.app.command({ type: "detach_fighters", unit, fighters });
      if (ack) form.querySelector(`[name="detach-${unit}"]`).value = "";
    });
  }

  static async #setStrength() {
    await this.run(async (form) => {
      const side = readText(form, "strengthSide");
      const strength = readInt(form, "strengthValue", t("Panel.Strength"));
      const ack = await this.app.command({ type: "set_strength", side, strength });
      if (ack) form.querySelector('[name="strengthValue"]').value = "";
    });
  }

  static async #roundRolls() {
    await this.run(async (form) => {
      const allies = readInt(form, "rollAllies", t("Side.allies"));
      const enemies = readInt(form, "rollEnemies", t("Side.enemies"));
      const ack = await this.app.command({ type: "resolve_round", mode: "rolls", rolls: { allies, enemies } });
      if (ack) for (const n of ["rollAllies", "rollEnemies"]) form.querySelector(`[name="${n}"]`).value = "";
    });
  }

  static async #leader() {
    await this.run(async (form) => {
      const command = {
        type: "leader_command",
        side: readText(form, "leaderSide"),
        sl: readInt(form, "leaderSl", t("Panel.SL")),
        success: readChecked(form, "leaderSuccess"),
      };
      await this.app.command(command);
    });
  }

  static async #pcsWon() {
    await this.run(async (form) => {
      const raw = readText(form, "fleeing");
      const command = { type: "pcs_won" };
      if (raw) command.fleeing = /^\d+\s*\/\s*\d+$/.test(raw) ? raw.replace(/\s/g, "") : Number(raw);
      await this.app.command(command);
    });
  }

  static async #endBattle() {
    await this.run(async (form) => {
      const winner = readText(form, "winner");
      await this.app.command(winner ? { type: "end_battle", winner } : { type: "end_battle" });
    });
  }

  /**
   * Apply: ask the bridge to send the unit's result to the Foundry clients, where the active GM's
   * module carries it out. After Undo apply the bridge has no report of the unit, so it is sent
   * as any other. A unit the bridge still has a report of is sent again with `force` (after the
   * battle changed, the new result replaces the old one): tokens already showing it change
   * nothing.
   */
  static async #applyUnit(event, target) {
    const unit = target.dataset.unit;
    const force = Boolean(this.app.state?.foundry?.applied?.[unit]);
    const ack = await this.app.send(() =>
      this.app.client.request("request_casualties", {
        battle: this.app.battle,
        unit,
        ...(force ? { force: true } : {}),
      }),
    );
    if (ack && !isActiveGM()) {
      ui.notifications.info(t("Notices.sent_to_active_gm", { name: game.users.activeGM?.name ?? "?" }));
    }
  }

  static async #applyAll() {
    const ack = await this.app.send(() =>
      this.app.client.request("request_casualties", { battle: this.app.battle }),
    );
    if (ack && !(ack.sent ?? []).length) ui.notifications.info(t("Notices.nothing_to_apply"));
  }

  static async #undoApply(event, target) {
    await this.run(async () => {
      if (!isActiveGM()) {
        throw new Error(t("Notices.only_active_gm", { name: game.users.activeGM?.name ?? "?" }));
      }
      const unit = target.dataset.unit;
      const foundryData = this.app.state?.foundry ?? {};
      const report = foundryData.applied?.[unit];
      const ids = [
        ...(foundryData.tokens?.[unit] ?? []),
        ...Object.values(report?.token_ids ?? {}).flat(),
      ];
      const restored = await undoApply(this.app.battle, unit, ids);
      ui.notifications.info(t("Notices.undone", { count: restored }));
      this.app.changed();
      // Then the bridge: it forgets the report and tells every GM's panel. When that fails the
      // tokens are back anyway; pressing Undo apply again (nothing left to put back) retries.
      try {
        await reportUndone(this.app, this.app.battle, unit, report);
      } catch (error) {
        ui.notifications.warn(t("Notices.unapplied_failed", { error: errorText(error) }));
      }
    });
  }

  static async #influence() {
    await this.run(async (form) => {
      const command = { type: "roll_influence", side: readText(form, "influenceSide") };
      const roll = readInt(form, "influenceRoll", t("Panel.Roll"));
      if (roll !== null) command.roll = roll;
      const ack = await this.app.command(command);
      if (!ack) return;
      form.querySelector('[name="influenceRoll"]').value = "";
      const event = lastInfluence(this.app.state?.view);
      if (event) await postInfluence(event, this.app.state.view);
    });
  }

  static async #importTable() {
    await this.run(async () => {
      const table = await importDefaultTable(this.app.state?.view?.influence_table);
      await setSetting(SETTINGS.INFLUENCE_TABLE, table.id);
      ui.notifications.info(t("Notices.table_imported", { name: table.name }));
      this.render();
    });
  }
}

/**
 * Adds tokens to a unit: their own marks first (so that they are right when the bridge's list
 * arrives), then the unit's list on the bridge; a refusal takes the new marks back.
 */
async function linkToUnit(app, unit, docs, fighters = 1) {
  const current = app.state?.foundry?.tokens?.[unit] ?? [];
  const joining = docs.filter((doc) => !current.includes(doc.uuid));
  await markLinked(docs, app.battle, unit, fighters);
  const ids = [...new Set([...current, ...docs.map((doc) => doc.uuid)])];
  const ack = await app.send(() =>
    app.client.request("tokens", { battle: app.battle, unit, token_ids: ids }),
  );
  if (!ack) await markUnlinked(joining);
  return ack;
}
