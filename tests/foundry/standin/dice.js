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
// - Dice So Nice (module "dice-so-nice", query `dsn=1`): once the dice of a roll message have
//   landed it calls the hook `diceSoNiceRollComplete(messageId)`; here a short while after the
//   message is made, on the client that made it.
import { record, refuse } from "./record.js";

record.rolls = []; // every Roll evaluated: {formula, total}
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
CONFIG.Dice = {
  randomUniform: seeded(Number(params.get("diceSeed") ?? 1)),
  rollModes: Object.fromEntries(Object.values(DICE_ROLL_MODES).map((mode) => [mode, { label: mode, icon: "" }])),
};

class Roll {
  constructor(formula, data = {}, options = {}) {
    // NdX with an optional flat term (+K or -K), as a damage formula is written ("1d10+4")
    const match = /^\s*(\d+)d(\d+)\s*(?:([+-])\s*(\d+))?\s*$/.exec(String(formula));
    if (!match) refuse(`stand-in: Roll formula ${JSON.stringify(formula)} is not NdX or NdX+K`);
    this.flat = match[3] ? Number(`${match[3]}${match[4]}`) : 0;
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
    this._total = this.results.reduce((sum, r) => sum + r.result, this.flat);
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
  async toMessage(messageData = {}, { rollMode, create = true } = {}) {
    if (!this._evaluated) await this.evaluate();
    const data = { content: String(this.total), ...structuredClone(messageData), rolls: [this] };
    window.ChatMessage.applyRollMode(data, rollMode ?? "roll");
    if (!create) return data;
    return window.ChatMessage.create(data, { rollMode });
  }
}
window.Roll = Roll;

const Base = window.ChatMessage; // standin-panel.js: messages found again, visibility
class RollMessage extends Base {
  static applyRollMode(chatData, rollMode) {
    const mode = rollMode === "roll" ? DICE_ROLL_MODES.PUBLIC : rollMode; // "roll": the current mode (core default)
    if (!Object.values(DICE_ROLL_MODES).includes(mode))
      refuse(`stand-in: unknown roll mode ${JSON.stringify(rollMode)}`);
    const gms = game.users.filter((u) => u.isGM).map((u) => u.id);
    if (mode === DICE_ROLL_MODES.PUBLIC) Object.assign(chatData, { whisper: [], blind: false });
    else if (mode === DICE_ROLL_MODES.SELF) Object.assign(chatData, { whisper: [game.user.id], blind: false });
    else {
      const whisper = [...new Set([...(chatData.whisper ?? []).map((w) => w?.id ?? w), ...gms])];
      Object.assign(chatData, { whisper, blind: mode === DICE_ROLL_MODES.BLIND });
    }
    return chatData;
  }
  static async create(data, options = {}) {
    const rolls = (data.rolls ?? []).map((roll) => {
      const json = typeof roll === "string" ? JSON.parse(roll) : roll?.toJSON?.();
      if (!json?.evaluated) refuse("stand-in: a ChatMessage's rolls must be evaluated Roll instances");
      return JSON.stringify(json);
    });
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
