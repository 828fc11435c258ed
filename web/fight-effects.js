// The Influence result's effects (the core's data, read for the side that rolled) as a list the
// GM ticks off at the table: each in words, a damage's dice rolled on tap, fighters' round said.
// A row without effects (a GM's own table of text) says to apply it by hand. The ticks of a roll
// are kept while the page is open (per battle and log entry), so a repaint never loses them; on
// the GM's page, live, they are the bridge's marks, shared with Foundry.
import { diceText, errorMessage, has, t, term } from "./i18n.js";

const ticks = new Map(); // roll key → Set of the indexes of the effects ticked off

/** A die of `faces` from the browser's own random source (no rule of the battle: a table aid). */
function die(faces) {
  const values = new Uint32Array(1);
  crypto.getRandomValues(values);
  return (values[0] % faces) + 1;
}

/**
 * A dice formula (the core's canonical NdF, NdF+K or NdF-K) rolled: {total, dice}.
 *
 * @example rollDice("1d10+4", () => 7) // {total: 11, dice: [7]}
 */
export function rollDice(formula, roll = die) {
  const match = /^(\d+)d(\d+)([+-]\d+)?$/.exec(formula);
  if (!match) return null;
  const dice = Array.from({ length: Number(match[1]) }, () => roll(Number(match[2])));
  return { total: dice.reduce((sum, value) => sum + value, Number(match[3] ?? 0)), dice };
}

/** Whose fighters an effect is about, in words ("each PC", "any combatant"). */
const whose = (effect) => t(`effects.who.${effect.side ?? "any"}`);

/** One effect in the page's words. */
export function effectText(effect) {
  const who = whose(effect);
  switch (effect.kind) {
    case "advantage":
      if (effect.gain !== undefined) return t("effects.advantage_gain", { who, n: effect.gain });
      if (effect.lose === "all") return t("effects.advantage_lose_all", { who });
      return t("effects.advantage_lose", { who, n: effect.lose });
    case "damage":
      return t(`effects.damage_${effect.target}`, { who, dice: diceText(effect.dice) });
    case "test_modifier":
      return t("effects.test_modifier", { who, amount: effect.amount, count: effect.rounds });
    case "reinforcements":
      return t("effects.reinforcements", {
        side: term(effect.side),
        fighters: effect.fighters === "gm_choice" ? t("effects.gm_choice") : effect.fighters,
        count: effect.in_rounds,
      });
    case "test":
      return t("effects.test", {
        who,
        test: t(`effects.skill.${effect.skill ?? effect.characteristic}`),
        difficulty: t(`effects.difficulty.${effect.difficulty}`),
        condition: t(`effects.condition.${effect.on_failure}`),
      });
    case "condition":
      return t("effects.condition", { who, condition: t(`effects.condition.${effect.condition}`) });
    default:
      return effect.kind;
  }
}

/**
 * The list for a band (`key`: the roll, for its ticks), or a line saying to apply it by hand.
 * `shared` (the GM's page, live): {marks: {effect index: {by, result?}}, mark(list)}: the ticks
 * are the bridge's marks of the roll, shared with Foundry (docs/protocol.md "Influence effects
 * done"): one Foundry applied is ticked, "applied in Foundry" with what it gave, and stays so
 * (Foundry's Undo takes it back); a tick here is sent, with the dice rolled here, and shown
 * once the bridge has stored it.
 */
export function effectsList(band, key, shared = null) {
  const wrap = document.createElement("div");
  wrap.className = "fight-effects";
  if (!Array.isArray(band?.effects)) {
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = t("effects.text_only");
    wrap.append(note);
    return wrap;
  }
  if (!band.effects.length) return wrap;
  const title = document.createElement("p");
  title.className = "effects-title";
  title.textContent = t("effects.title");
  const list = document.createElement("ul");
  list.className = "effects";
  const done = ticks.get(key) ?? new Set();
  ticks.set(key, done);
  band.effects.forEach((effect, index) => {
    const item = document.createElement("li");
    item.dataset.kind = effect.kind;
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    const out = document.createElement("output");
    out.textContent = rolledHere.get(`${key}/${index}`) ?? "";
    label.append(box, ` ${effectText(effect)}`);
    item.append(label);
    if (shared) shareTick(item, box, out, effect, index, shared);
    else {
      box.checked = done.has(index);
      box.addEventListener("change", () => (box.checked ? done.add(index) : done.delete(index)));
    }
    if (effect.kind === "damage" && !box.disabled) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "roll-dice";
      button.textContent = t("effects.roll", { dice: diceText(effect.dice) });
      button.addEventListener("click", () => {
        const rolled = rollDice(effect.dice);
        out.textContent = t("effects.rolled", { total: rolled.total, dice: rolled.dice.join(" + ") });
        rolledHere.set(`${key}/${index}`, out.textContent);
      });
      item.append(" ", button);
    }
    item.append(" ", out);
    list.append(item);
  });
  wrap.append(title, list);
  return wrap;
}

const rolledHere = new Map(); // "roll key/effect index" → the dice rolled on this page, shown

/** A tick shared through the bridge: the roll's mark shown, a change sent (and undone if refused). */
function shareTick(item, box, out, effect, index, shared) {
  const mark = shared.marks[index];
  box.checked = Boolean(mark);
  if (mark && mark.by !== "web") {
    // Foundry's (or a script's): taken back where it was made, not here.
    box.disabled = true;
    item.dataset.by = mark.by;
    const where = document.createElement("span");
    where.className = "mark";
    where.textContent = t(mark.by === "foundry" ? "effects.applied_in_foundry" : "effects.done_elsewhere");
    item.append(" ", where);
  }
  if (mark?.result) out.textContent = mark.result;
  box.addEventListener("change", async () => {
    const ticked = box.checked;
    const sent = { effect: index, kind: effect.kind, done: ticked };
    if (ticked && out.value) sent.result = `${effect.dice} ${out.value}`;
    box.disabled = true;
    item.querySelector(".field-error")?.remove();
    const reply = await shared.mark([sent]);
    if (reply.type !== "error") return; // the bridge's effects_marked paints the list again
    box.checked = !ticked;
    box.disabled = false;
    const error = document.createElement("span");
    error.className = "field-error";
    error.textContent = has(`err.${reply.code}`) ? t(`err.${reply.code}`) : errorMessage(reply);
    item.append(error);
  });
}
