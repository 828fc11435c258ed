// Dice for the stand-in: Foundry VTT v13's Roll, roll messages and roll modes, and Dice So
// Nice's hook, as their public documentation describes them (Foundry's own code not read).
// Loaded after standin-panel.js (it wraps that file's ChatMessage), before the module boots.
// - Roll (foundryvtt.com/api/v13/classes/foundry.dice.Roll.html): `new Roll(formula)`;
//   `evaluate()` is async and resolves to the Roll; "once evaluated the Roll is immutable"
//   (`_evaluated`): a second evaluate is refused; `total` is undefined before (the community
//   wiki foundryvtt.wiki/en/development/api/roll: "roll.total is undefined until evaluated");
//   `toMessage(messageData, {rollMode, create})` evaluates the roll if it is not yet, and makes
//   a ChatMessage with `rolls: [roll]`, the total as content and the roll mode applied.
// - CONFIG.Dice.randomUniform (api v13 variables/CONFIG.Dice.html): "A function used to provide
//   random uniform values": each die is ceil(u * faces). Here it is seeded (query `diceSeed`,
//   default 1); a test may replace it, as a module may in Foundry.
// - CONST.DICE_ROLL_MODES (api v13 variables/CONST.DICE_ROLL_MODES.html): publicroll, gmroll,
//   blindroll, selfroll. ChatMessage.applyRollMode(chatData, mode) (its doc comment, quoted in
//   foundryvtt/foundryvtt#11442): public → whisper [] and blind false; self → [the user];
//   private → the GMs added to whisper; blind → the GMs added and blind true.
// - ChatMessageData.rolls (api v13/v14 ChatMessageData): "Serialized content of any Roll
//   instances": stored as JSON strings; a message's `blind`: "Is this message sent blindly".
// - hookEvents.preCreateDocument (api v13): a `preCreateChatMessage` listener returning false
//   stops the creation; `ChatMessage.create` then resolves to undefined.
// - v14 renames roll modes to message modes (generations.js decides which the page plays):
//   `CONFIG.ChatMessage.modes` (api v14 variables/CONFIG.ChatMessage.html: "Supported chat
//   message visibility modes", a record of {handler(data), icon, label}) with the keys public,
//   gm, blind, self and ic (foundryvtt/dnd5e#6958: "`CONFIG.Dice.rollModes` is now
//   `CONFIG.ChatMessage.modes`", "the old names like `gmroll` instead of `gm`");
//   `Roll#toMessage(data, {messageMode})` and `ChatMessage.create(data, {messageMode})` apply
//   the mode's handler; a `rollMode` option still works, mapped to its message mode, with a
//   deprecation warning ("The rollMode option … is deprecated in favor of the `messageMode`
//   option, a string key of CONFIG.ChatMessage.modes", since 14, until 16);
//   `ChatMessage.applyRollMode` warns in favour of `ChatMessage.applyMode`
//   (JohanFalt/Foundry_WoD20#1396, "Deprecated since Version 14"), and reading
//   `CONFIG.Dice.rollModes` warns (dnd5e#6958: "still exists (though deprecated)"). A mode not
//   in the record falls back to the user's default, public. v13 has no `CONFIG.ChatMessage.modes`
//   and ignores a `messageMode` option (the roll then goes out in the default mode, public).
//   The system's own code (WFRP4e still calls `applyRollMode`) reaches the same rules through
//   `systemRollMode`, so its warnings are not counted against the module.
// - Dice So Nice (module "dice-so-nice", query `dsn=1`): once the dice of a roll message have
//   landed it calls the hook `diceSoNiceRollComplete(messageId)`; here a short while after the
//   message is made, on the client that made it.
import { record, refuse } from "./record.js";
import { V14, deprecated } from "./generations.js";

record.rolls = []; // every Roll evaluated: {formula, total}
record.messageModes = []; // every roll message's visibility: {via: "rollMode" | "messageMode", mode}
record.dsn = []; // every diceSoNiceRollComplete fired: message id

const params = new URLSearchParams(window.location.search);

/** mulberry32: a small seeded source of uniform values in [0, 1). */
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const DICE_ROLL_MODES = Object.freeze({
  PUBLIC: "publicroll",
  PRIVATE: "gmroll",
  BLIND: "blindroll",
  SELF: "selfroll",
});
CONST.DICE_ROLL_MODES = DICE_ROLL_MODES;
/** CONFIG.Dice.rollModes (v13; v14: deprecated), by the roll mode's name. */
export const ROLL_MODES = Object.freeze(
  Object.fromEntries(Object.values(DICE_ROLL_MODES).map((mode) => [mode, { label: mode, icon: "" }])),
);
CONFIG.Dice = { randomUniform: seeded(Number(params.get("diceSeed") ?? 1)) };
Object.defineProperty(CONFIG.Dice, "rollModes", {
  enumerable: true,
  get() {
    if (V14) deprecated("CONFIG.Dice.rollModes is deprecated in favor of CONFIG.ChatMessage.modes");
    return ROLL_MODES;
  },
});

/** Who a message goes to, by visibility (the v13 roll modes' rules, which v14's modes keep). */
function gmsAdded(chatData) {
  const gms = game.users.filter((u) => u.isGM).map((u) => u.id);
  return [...new Set([...(chatData.whisper ?? []).map((w) => w?.id ?? w), ...gms])];
}
const VISIBILITY = {
  public: (chatData) => Object.assign(chatData, { whisper: [], blind: false }),
  gm: (chatData) => Object.assign(chatData, { whisper: gmsAdded(chatData), blind: false }),
  blind: (chatData) => Object.assign(chatData, { whisper: gmsAdded(chatData), blind: true }),
  self: (chatData) => Object.assign(chatData, { whisper: [game.user.id], blind: false }),
};
/** v14's message mode of each v13 roll mode (Roll._mapLegacyRollMode). */
const LEGACY = { roll: "public", publicroll: "public", gmroll: "gm", blindroll: "blind", selfroll: "self" };

if (V14) {
  CONFIG.ChatMessage = {
    modes: {
      public: { label: "CHAT.MessageModes.Public", icon: "fa-solid fa-globe", handler: VISIBILITY.public },
      gm: { label: "CHAT.MessageModes.GM", icon: "fa-solid fa-user-secret", handler: VISIBILITY.gm },
      blind: { label: "CHAT.MessageModes.Blind", icon: "fa-solid fa-eye-slash", handler: VISIBILITY.blind },
      self: { label: "CHAT.MessageModes.Self", icon: "fa-solid fa-user", handler: VISIBILITY.self },
      ic: { label: "CHAT.MessageModes.IC", icon: "fa-solid fa-comment", handler: VISIBILITY.public },
    },
  };
}

/** The v13 roll mode as ChatMessage.applyRollMode applies it (no warning: the system's path). */
export function systemRollMode(chatData, rollMode) {
  const mode = rollMode === "roll" ? DICE_ROLL_MODES.PUBLIC : rollMode; // "roll": the current mode (core default)
  if (!Object.values(DICE_ROLL_MODES).includes(mode)) refuse(`stand-in: unknown roll mode ${JSON.stringify(rollMode)}`);
  return VISIBILITY[LEGACY[mode]](chatData);
}

/** v14 ChatMessage.applyMode(chatData, mode): the mode's handler; an unknown one: public. */
function applyMessageMode(chatData, mode) {
  const modes = CONFIG.ChatMessage.modes;
  const known = Object.hasOwn(modes, mode) ? mode : "public";
  modes[known].handler(chatData);
  return chatData;
}

/** The visibility a roll message's options ask for, by generation; recorded. */
function applyOptions(chatData, { rollMode, messageMode } = {}) {
  if (V14 && messageMode !== undefined) {
    record.messageModes.push({ via: "messageMode", mode: messageMode });
    return applyMessageMode(chatData, messageMode);
  }
  if (V14 && rollMode !== undefined) {
    deprecated(
      "The rollMode option is deprecated in favor of the `messageMode` option, a string key of CONFIG.ChatMessage.modes",
    );
    record.messageModes.push({ via: "rollMode", mode: rollMode });
    return applyMessageMode(chatData, LEGACY[rollMode] ?? rollMode);
  }
  // v13: a `messageMode` is no option it knows; the roll mode (default: the current one) applies
  record.messageModes.push({ via: "rollMode", mode: rollMode ?? "roll" });
  return systemRollMode(chatData, rollMode ?? "roll");
}

class Roll {
  constructor(formula, data = {}, options = {}) {
    const match = /^\s*(\d+)d(\d+)\s*$/.exec(String(formula));
    if (!match) refuse(`stand-in: Roll formula ${JSON.stringify(formula)} is not NdX`);
    this.formula = String(formula).trim();
    this.data = data;
    this.options = options;
    this.number = Number(match[1]);
    this.faces = Number(match[2]);
    this._evaluated = false;
    this._total = undefined;
    this.results = [];
  }
  get total() {
    return this._total;
  }
  async evaluate() {
    if (this._evaluated) refuse("The Roll has already been evaluated and is now immutable");
    await Promise.resolve(); // asynchronous, as in Foundry
    for (let i = 0; i < this.number; i++) {
      this.results.push({ result: Math.ceil(CONFIG.Dice.randomUniform() * this.faces) || 1, active: true });
    }
    this._total = this.results.reduce((sum, r) => sum + r.result, 0);
    this._evaluated = true;
    record.rolls.push({ formula: this.formula, total: this._total });
    return this;
  }
  toJSON() {
    return {
      class: "Roll",
      formula: this.formula,
      total: this._total,
      evaluated: this._evaluated,
      results: this.results,
    };
  }
  async toMessage(messageData = {}, { rollMode, messageMode, create = true } = {}) {
    if (!this._evaluated) await this.evaluate();
    const data = { content: String(this.total), ...structuredClone(messageData), rolls: [this] };
    applyOptions(data, { rollMode, messageMode });
    if (!create) return data;
    return window.ChatMessage.create(data);
  }
}
window.Roll = Roll;

const Base = window.ChatMessage; // standin-panel.js: messages found again, visibility
class RollMessage extends Base {
  static applyRollMode(chatData, rollMode) {
    if (V14) deprecated("ChatMessage.applyRollMode is deprecated in favor of ChatMessage.applyMode");
    return systemRollMode(chatData, rollMode);
  }
  static async create(data, options = {}) {
    const rolls = (data.rolls ?? []).map((roll) => {
      const json = typeof roll === "string" ? JSON.parse(roll) : roll?.toJSON?.();
      if (!json?.evaluated) refuse("stand-in: a ChatMessage's rolls must be evaluated Roll instances");
      return JSON.stringify(json);
    });
    // ChatMessage#_preCreate applies a visibility given in the options, only then (#11442)
    if (options.messageMode !== undefined || options.rollMode !== undefined) applyOptions(data, options);
    const stored = { ...data, ...(data.rolls ? { rolls } : {}), blind: Boolean(data.blind) };
    if (Hooks.call("preCreateChatMessage", stored, stored, options, game.user.id) === false) return undefined;
    const message = await super.create(stored);
    if (rolls.length && game.modules.get("dice-so-nice")?.active) {
      setTimeout(() => {
        record.dsn.push(message.id);
        Hooks.callAll("diceSoNiceRollComplete", message.id);
      }, 50);
    }
    return message;
  }
}
// v14 ChatMessage.applyMode(chatData, mode) (JohanFalt/Foundry_WoD20#1396); none in v13
if (V14) RollMessage.applyMode = applyMessageMode;
window.ChatMessage = RollMessage;

if (params.get("dsn") === "1") {
  game.modules.set("dice-so-nice", { id: "dice-so-nice", active: true });
  game.dice3d = {
    /** Dice So Nice's showForRoll(roll, user, synchronize, whisper, blind): the dice animated. */
    async showForRoll(roll, user, sync, whisper, blind) {
      record.dsn.push({ roll: roll.total, whisper, blind });
      return true;
    },
  };
}
