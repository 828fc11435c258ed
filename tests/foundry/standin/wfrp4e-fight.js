// The PCs' fight for the stand-in: Foundry's Combat and Combatant, the round hook, and the WFRP4e
// actor calls "Apply to the fight" makes, each as its public source has it (read for facts, not
// copied). Loaded after wfrp4e-tests.js and chat-log.js, before the module boots.
// - Combat (api v13/v14 classes/foundry.documents.Combat.html): `round`, `combatants` (a
//   Collection of Combatant), `started`, `nextRound()`; `getCombatantByActor(actor)`.
//   game.combat: "the currently active Combat encounter" (Game#combat), game.combats: the world's.
//   hookEvents.updateDocument → `updateCombat(combat, changed, options, userId)` "fires for all
//   connected clients" after an update: here on this client, with `{round}` changed.
// - Combatant (classes/foundry.documents.Combatant.html): `actor`, `token`, `name`, `combat`.
// - WFRP4e (moo-man/WFRP4e-FoundryVTT):
//   src/documents/actor.js: `setAdvantage(v)` = update system.status.advantage.value;
//   `modifyAdvantage(d)` = setAdvantage(current + d); `setWounds`, `modifyWounds` likewise;
//   `advantageGroup`: "players" when player-owned or FRIENDLY, else "enemies";
//   `applyBasicDamage(damage, {damageType = NORMAL, minimumOne = true, loc = "body",
//   suppressMsg})` → the owner's `applyDamage`: `loc: "roll"` rolls `hitloc`; damage less the
//   location's AP (NORMAL, IGNORE_TB) and the Toughness Bonus (NORMAL, IGNORE_AP), at least 1
//   with minimumOne, wounds not below 0; a chat message unless suppressed; at 0 wounds a
//   critical is offered, no condition is added.
//   src/model/actor/standard.js preUpdate: `_handleWoundsUpdate` (wounds not above max),
//   `_handleAdvantageUpdate` (without Group Advantage, above the maximum (setting advantagemax,
//   10) it is the maximum), `_handleGroupAdvantage` (with the setting `useGroupAdvantage`, unless
//   `skipGroupAdvantage` or `fromGroupAdvantage`: not a combatant → notice
//   "GroupAdvantageNoCombatant"; else `WFRP_Utility.updateGroupAdvantage({[group]: value})` and
//   the actor's own change dropped).
//   src/system/utility-wfrp4e.js `updateGroupAdvantage({players, enemies})`: the unique GM sets
//   the world setting `groupAdvantageValues` (src/hooks/init.js: {players: 0, enemies: 0});
//   src/hooks/settings.js: on that setting's update the GM sets each combatant's advantage to its
//   group's value (`fromGroupAdvantage: true`) — here as the setting's onChange.
//   src/system/config-wfrp4e.js: DAMAGE_TYPE {NORMAL 0, IGNORE_AP 1, IGNORE_TB 2, IGNORE_ALL 3};
//   the hit locations of the `hitloc` table (WFRP 4th edition rulebook: 01–09 head, 10–24 left
//   arm, 25–44 right arm, 45–79 body, 80–89 left leg, 90–00 right leg).
//   static/lang/en.json: NAME.Cool and the other skill names.
import { record, refuse } from "./record.js";
import { Collection } from "./documents.js";
import { WfrpActor } from "./wfrp4e.js";

record.fight = []; // every advantage, wounds or damage call of the module: {actor, call, value}

const params = new URLSearchParams(window.location.search);
const wfrp = game.system.id === "wfrp4e";
const DAMAGE_TYPE = { NORMAL: 0, IGNORE_AP: 1, IGNORE_TB: 2, IGNORE_ALL: 3 };
const LOCATIONS = [
  [9, "head"],
  [24, "lArm"],
  [44, "rArm"],
  [79, "body"],
  [89, "lLeg"],
  [100, "rLeg"],
];
const SKILL_STRINGS = {
  "NAME.Athletics": "Athletics",
  "NAME.Cool": "Cool",
  "NAME.Dodge": "Dodge",
  "NAME.Endurance": "Endurance",
  "NAME.Intimidate": "Intimidate",
  "NAME.Melee": "Melee",
  "NAME.Perception": "Perception",
};

// --- DialogV2.prompt (api v13/v14 classes/foundry.applications.api.DialogV2.html): one "ok"
// button; its callback(event, button, dialog) gets the clicked button, whose `form` is the
// dialog's form; the promise resolves to what the callback returns; closing the dialog resolves
// null, or rejects with `rejectClose`.
record.prompts = []; // every DialogV2.prompt: {title, content}
foundry.applications.api.DialogV2.prompt = function ({
  window: win = {},
  content = "",
  ok = {},
  rejectClose = false,
} = {}) {
  record.prompts.push({ title: win.title ?? "", content });
  return new Promise((resolve, reject) => {
    const dialog = document.createElement("dialog");
    dialog.className = "application dialog prompt";
    dialog.innerHTML =
      `<header class="window-header"><h1></h1><button type="button" data-action="close">×</button></header>` +
      `<form class="window-content">${content}<footer><button type="submit" data-action="ok">OK</button></footer></form>`;
    dialog.querySelector("h1").textContent = win.title ?? "";
    dialog.querySelector("[data-action=close]").addEventListener("click", () => {
      dialog.remove();
      if (rejectClose) reject(new Error("Dialog was dismissed without pressing a button."));
      else resolve(null);
    });
    dialog.querySelector("form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = dialog.querySelector("[data-action=ok]");
      const result = ok.callback ? await ok.callback(event, button, dialog) : "ok";
      dialog.remove();
      resolve(result);
    });
    document.body.append(dialog);
    dialog.show();
  });
};

// --- Combat and Combatant ------------------------------------------------------------------------
let combatCount = 0;
class Combatant {
  constructor(combat, id, token) {
    Object.assign(this, { combat, id, token });
  }
  get tokenId() {
    return this.token.id;
  }
  get actor() {
    return this.token.actor;
  }
  get name() {
    return this.token.name;
  }
}

class Combat {
  constructor() {
    combatCount += 1;
    this.id = `combat${combatCount}`;
    this.round = 0;
    this.combatants = new Collection();
  }
  get started() {
    return this.round > 0;
  }
  /** Document#createEmbeddedDocuments("Combatant", data): each names a token of the scene. */
  async createEmbeddedDocuments(name, data) {
    if (name !== "Combatant") refuse(`stand-in: Combat has no embedded ${name}`);
    const made = data.map((d) => {
      const token = window.StandIn.scene.tokens.get(d.tokenId);
      if (!token || d.sceneId !== window.StandIn.scene.id)
        refuse(`Combatant: no token ${d.tokenId} in scene ${d.sceneId}`);
      const id = `cbt${this.combatants.size + 1}`;
      const combatant = new Combatant(this, id, token);
      this.combatants.set(id, combatant);
      return combatant;
    });
    record.fight.push({ call: "createCombatants", tokens: data.map((d) => d.tokenId) });
    return made;
  }
  getCombatantByActor(actor) {
    return this.combatants.find((c) => c.actor === actor) ?? null;
  }
  /** Combat#nextRound: round + 1; the update reaches every client's updateCombat hook. */
  async nextRound() {
    this.round += 1;
    Hooks.callAll("updateCombat", this, { round: this.round }, {}, game.user.id);
    return this;
  }
}
game.combats = new Collection();
game.combat = null;

// --- WFRP4e actors in a fight --------------------------------------------------------------------
if (wfrp) {
  const localize = game.i18n.localize;
  game.i18n.localize = (key) => SKILL_STRINGS[key] ?? localize(key);
  const groupOn = () => Boolean(game.settings.get("wfrp4e", "useGroupAdvantage"));

  Hooks.once("init", () => {
    game.settings.register("wfrp4e", "useGroupAdvantage", {
      scope: "world",
      config: true,
      type: Boolean,
      default: params.get("groupAdvantage") === "1",
    });
    game.settings.register("wfrp4e", "groupAdvantageValues", {
      scope: "world",
      config: false,
      type: Object,
      default: { players: 0, enemies: 0 },
      // src/hooks/settings.js (updateSetting): the GM sets each combatant to its group's value.
      onChange: async (value) => {
        if (!game.user.isGM || !game.combat) return;
        for (const combatant of game.combat.combatants) {
          const actor = combatant.actor;
          if (actor.status.advantage.value !== value[actor.advantageGroup]) {
            await actor.update(
              { "system.status.advantage.value": value[actor.advantageGroup] },
              { fromGroupAdvantage: true },
            );
          }
        }
      },
    });
  });

  Object.assign(game.wfrp4e, {
    utility: {
      async updateGroupAdvantage({ players = undefined, enemies = undefined } = {}) {
        if (!game.user.isGM || game.users.activeGM?.id !== game.user.id) {
          refuse(
            "stand-in: updateGroupAdvantage from a client that is not the unique GM (the system sends it by socket)",
          );
        }
        const advantage = structuredClone(game.settings.get("wfrp4e", "groupAdvantageValues"));
        if (Number.isFinite(players)) advantage.players = players;
        if (Number.isFinite(enemies)) advantage.enemies = enemies;
        return game.settings.set("wfrp4e", "groupAdvantageValues", advantage);
      },
    },
    tables: {
      async rollTable(name) {
        if (name !== "hitloc") refuse(`stand-in: no table ${name}`);
        const roll = await new window.Roll("1d100").evaluate();
        return { result: LOCATIONS.find(([top]) => roll.total <= top)[1], roll: roll.total };
      },
    },
  });
  Object.assign(game.wfrp4e.config, { DAMAGE_TYPE });

  Object.defineProperties(WfrpActor.prototype, {
    status: {
      get() {
        return this.system.status;
      },
    },
    characteristics: {
      get() {
        return this.system.characteristics;
      },
    },
    advantageGroup: {
      get() {
        if (this.hasPlayerOwner) return "players";
        const disposition = (this.token ?? this.prototypeToken)?.disposition;
        return disposition === 1 ? "players" : "enemies";
      },
    },
  });

  /** Document#update with the system's preUpdate handling of wounds and advantage. */
  WfrpActor.prototype.update = async function (data, options = {}) {
    await Promise.resolve(); // a write takes its time
    const change = { ...data };
    const advantage = "system.status.advantage.value";
    const wounds = "system.status.wounds.value";
    if (wounds in change) change[wounds] = Math.min(change[wounds], this.status.wounds.max);
    if (advantage in change && !groupOn()) change[advantage] = Math.min(change[advantage], 10);
    if (advantage in change && groupOn() && !options.skipGroupAdvantage) {
      if (!game.combat?.getCombatantByActor(this)) ui.notifications.notify?.("GroupAdvantageNoCombatant");
      else if (!options.fromGroupAdvantage) {
        await game.wfrp4e.utility.updateGroupAdvantage({ [this.advantageGroup]: change[advantage] });
        delete change[advantage];
      }
    }
    for (const [key, value] of Object.entries(change)) {
      const parts = key.split(".");
      const node = parts.slice(0, -1).reduce((n, p) => n[p], this);
      node[parts.at(-1)] = value;
    }
    return this;
  };
  WfrpActor.prototype.setAdvantage = function (value) {
    record.fight.push({ actor: this.uuid, call: "setAdvantage", value });
    return this.update({ "system.status.advantage.value": value });
  };
  WfrpActor.prototype.modifyAdvantage = function (value) {
    record.fight.push({ actor: this.uuid, call: "modifyAdvantage", value });
    return this.update({ "system.status.advantage.value": this.status.advantage.value + value });
  };
  WfrpActor.prototype.setWounds = function (value) {
    return this.update({ "system.status.wounds.value": value });
  };
  WfrpActor.prototype.applyBasicDamage = async function (
    damage,
    { damageType = DAMAGE_TYPE.NORMAL, minimumOne = true, loc = "body", suppressMsg = false } = {},
  ) {
    if (!Number.isFinite(damage)) refuse(`stand-in: applyBasicDamage of ${damage}`);
    if (loc === "roll") loc = (await game.wfrp4e.tables.rollTable("hitloc")).result;
    if (!(loc in this.status.armour)) refuse(`stand-in: no hit location ${loc}`);
    const ap = [DAMAGE_TYPE.NORMAL, DAMAGE_TYPE.IGNORE_TB].includes(damageType) ? this.status.armour[loc].value : 0;
    const tb = [DAMAGE_TYPE.NORMAL, DAMAGE_TYPE.IGNORE_AP].includes(damageType) ? this.characteristics.t.bonus : 0;
    let lost = damage - ap - tb;
    if (minimumOne && lost <= 0) lost = 1;
    else if (lost < 0) lost = 0;
    record.fight.push({ actor: this.uuid, call: "applyBasicDamage", value: damage, loc, lost });
    await this.update({ "system.status.wounds.value": Math.max(0, this.status.wounds.value - lost) });
    if (!suppressMsg) await window.ChatMessage.create({ content: `<p>${this.name} takes ${lost} Damage (${loc})</p>` });
    return lost;
  };
}

/**
 * Makes a token's actor a fighter (`wounds`, Toughness Bonus `tb`, armour `ap` on every
 * location, `advantage`), player-owned or of a disposition (1 friendly, -1 hostile, 0 neutral).
 */
window.StandIn.makeFighter = (
  tokenId,
  { wounds = 12, tb = 3, ap = 0, advantage = 0, playerOwned = false, disposition = -1 } = {},
) => {
  const token = window.StandIn.scene.tokens.get(tokenId);
  token._source.disposition = disposition;
  const actor = token.actor;
  actor.hasPlayerOwner = playerOwned;
  actor.system = {
    status: {
      advantage: { value: advantage, max: 10 },
      wounds: { value: wounds, max: wounds },
      armour: Object.fromEntries(LOCATIONS.map(([, loc]) => [loc, { value: ap }])),
    },
    characteristics: { t: { bonus: tb }, i: { bonus: 4 } },
  };
  return actor.uuid;
};

/** Starts a combat of these tokens (the active combat), at round 1. */
window.StandIn.startCombat = (tokenIds) => {
  const combat = new Combat();
  for (const [i, tokenId] of tokenIds.entries()) {
    combat.combatants.set(
      `cbt${i + 1}`,
      new Combatant(combat, `cbt${i + 1}`, window.StandIn.scene.tokens.get(tokenId)),
    );
  }
  game.combats.set(combat.id, combat);
  game.combat = combat;
  combat.round = 1;
  return combat.id;
};

/** Each combatant's actor as the tests read it: advantage, wounds, conditions. */
window.StandIn.fighters = () =>
  (game.combat?.combatants.contents ?? []).map((c) => ({
    token: c.token.id,
    advantage: c.actor.system?.status.advantage.value,
    wounds: c.actor.system?.status.wounds.value,
    statuses: [...c.actor.statuses].sort(),
  }));
