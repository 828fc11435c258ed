/**
 * The Background Battle panel (ApplicationV2): shows the battle from the bridge and, for a GM,
 * sends the commands. Every rule is the core's: the panel only collects what the GM typed.
 * Its actions, by phase: panel-act-set-up.mjs, panel-act-fight.mjs, panel-act-apply.mjs, one at
 * a time (panel-act.mjs): a double click sends one command. It holds only fronts of the app
 * (wiring.mjs), never the app.
 */
import { ID, SETTINGS } from "./constants.mjs";
import { t } from "./i18n.mjs";
import { PanelEyes } from "./panel-eyes.mjs";
import { panelHtml } from "./panel-view.mjs";
import { keepTyping, restoreTyping, wireKeys } from "./panel-typing.mjs";
import { PANEL_SETTINGS, panelSetting, setPanelSetting } from "./panel-settings.mjs";
import { tokensDropped } from "./scene-sides.mjs";
import { setSetting, setting } from "./settings.mjs";
import { wireLeaderDrops } from "./leader-test.mjs";
import { SET_UP_ACTIONS, linkToUnit } from "./panel-act-set-up.mjs";
import { FIGHT_ACTIONS } from "./panel-act-fight.mjs";
import { APPLY_ACTIONS } from "./panel-act-apply.mjs";

const { ApplicationV2 } = foundry.applications.api;

/** Per unit, its tokens standing for many: {name, fighters}, by the bridge's GM-only head counts. */
function crowdTokens(data) {
  return Object.fromEntries(
    Object.entries(data?.fighters ?? {}).map(([unit, counts]) => [
      unit,
      Object.entries(counts ?? {})
        .filter(([, fighters]) => fighters > 1)
        .map(([uuid, fighters]) => ({ name: foundry.utils.fromUuidSync(uuid)?.name ?? uuid, fighters })),
    ]),
  );
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
      ...SET_UP_ACTIONS,
      ...FIGHT_ACTIONS,
      ...APPLY_ACTIONS,
    },
  };

  /** `fronts`: the app's fronts for the panel and its phases (wiring.mjs `panelFronts`). */
  constructor(fronts, options = {}) {
    const saved = panelSetting(PANEL_SETTINGS.POSITION) ?? {};
    const position = {};
    for (const key of ["left", "top", "width", "height"]) {
      if (typeof saved[key] === "number") position[key] = saved[key];
    }
    super({ ...options, position: { ...BattlePanel.DEFAULT_OPTIONS.position, ...position, ...options.position } });
    /** What the panel shows; its actions get their phase's front with the panel's own calls. */
    this.front = fronts.panel;
    const render = () => this.render();
    this.fronts = {
      setUp: {
        ...fronts.setUp,
        render,
        proposal: () => this.sceneSides,
        propose: (sides) => {
          this.sceneSides = sides;
        },
      },
      fight: { ...fronts.fight, render },
      apply: fronts.apply,
    };
    this.sceneSides = null;
    /** The control of the GM's last action ({action, unit}) and where the focus goes next. */
    this.acted = null;
    this.focusNext = null;
    this.eyes = new PanelEyes(this.front, this);
    const rerender = () => {
      if (this.rendered) this.render();
    };
    this.stopListening = this.front.onChange(rerender);
    // A player waiting for a GM: the panel says whether one is online (hookEvents.userConnected).
    this.userHook = Hooks.on("userConnected", rerender);
  }

  async _prepareContext() {
    const front = this.front;
    const role = front.role();
    return {
      status: front.missingToken() ? { state: "idle", reason: "no_token" } : front.status(),
      // A player through the relay waits for a GM's Foundry: none online, or the one answering.
      relayedThrough: front.relayed() ? { gm: game.users.activeGM?.name ?? null } : null,
      // Controls for a GM connected with the GM token; a GM on the player token reads only.
      isGM: Boolean(game.user.isGM) && role !== "player",
      gmAsPlayer: Boolean(game.user.isGM) && role === "player",
      // Who changes the tokens, when not this browser (applier.mjs).
      applierLine: game.user.isGM ? front.applierLine() : null,
      // Each unit's Apply job: waiting (for whom), being applied, or interrupted (panel-jobs.mjs).
      jobs: game.user.isGM ? front.jobLines() : {},
      battles: front.battles(),
      battle: front.battle(),
      shownToPlayers: setting(SETTINGS.BATTLE) || null,
      view: front.view(),
      foundry: front.foundryData(),
      // A GM sees each crowd token's head count at once (kept by the bridge for the GMs only).
      crowds: game.user.isGM ? crowdTokens(front.foundryData()) : {},
      tables: (game.tables?.contents ?? []).map((tb) => ({ id: tb.id, name: tb.name })),
      tableId: setting(SETTINGS.INFLUENCE_TABLE),
      pending: front.pending(),
      compact: panelSetting(PANEL_SETTINGS.COMPACT),
      closed: new Set(panelSetting(PANEL_SETTINGS.CLOSED) ?? []),
      sceneSides: this.sceneSides,
      lastSent: front.lastSent()?.battle === front.battle() ? front.lastSent() : null,
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
    wireLeaderDrops(root, this.fronts.fight);
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
    if (name === "battle") await this.front.selectBattle(event.target.value || null);
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
    await this.front.once(async () => {
      const docs = tokensDropped(event);
      if (!docs.length) {
        ui.notifications.warn(t("Notices.drop_tokens"));
        return;
      }
      await linkToUnit(this.fronts.setUp, row.dataset.unit, docs);
    });
  }

  _onClose(options) {
    super._onClose?.(options);
    this.stopListening();
    Hooks.off("userConnected", this.userHook);
  }

  static #reconnect() {
    this.front.connect();
  }

  static async #toggleCompact() {
    await setPanelSetting(PANEL_SETTINGS.COMPACT, !panelSetting(PANEL_SETTINGS.COMPACT));
    this.render();
  }
}
