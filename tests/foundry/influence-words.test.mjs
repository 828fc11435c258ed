// An Influence effect read for the side that rolled (logic/influence-words.mjs): the same words
// as the core's (tests/golden/vectors.json holds the core's `influence_table` reply), and the
// house default table filled for each side with no placeholder left.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fill, placeholders } from "../../foundry-module/scripts/logic/influence-words.mjs";

const vectors = JSON.parse(readFileSync(new URL("../golden/vectors.json", import.meta.url), "utf8"));
const core = vectors.find((v) => v.request.op === "influence_table" && !v.request.side).response;

test("the placeholders and their words are the core's, in both languages", () => {
  for (const lang of ["en", "ru"]) assert.deepEqual(placeholders(lang), core.placeholders[lang], lang);
});

test("the house default table reads with no placeholder left, for either side", () => {
  for (const band of core.table.bands) {
    for (const [lang, text] of Object.entries(band.effect)) {
      for (const side of ["allies", "enemies"]) {
        const read = fill(text, lang, side);
        assert.doesNotMatch(read, /\{/, `${lang} ${side}: ${read}`);
      }
    }
  }
});

test("the side that rolled and the other side, a capital, and braces that are not ours", () => {
  const text = "A volley: one {other_one} takes damage; each {rolling_one} gains +1 Advantage.";
  assert.equal(fill(text, "en", "allies"), "A volley: one foe of the PCs takes damage; each PC gains +1 Advantage.");
  assert.equal(fill(text, "en", "enemies"), "A volley: one PC takes damage; each foe of the PCs gains +1 Advantage.");
  assert.equal(fill("{Rolling} получают −10.", "ru", "allies"), "Персонажи получают −10.");
  assert.equal(fill("{Other} дрогнули", "ru", "allies"), "Противники персонажей дрогнули");
  // an enricher's label and a placeholder of the other language stay as written
  assert.equal(
    fill("@UUID[Item.x]{Sword} for {rolling_gen}", "en", "allies"),
    "@UUID[Item.x]{Sword} for {rolling_gen}",
  );
  // words going into HTML are escaped by the caller's function
  assert.equal(
    fill("<p>{other}</p>", "en", "allies", (w) => w.replace("'", "&#39;")),
    "<p>the PCs&#39; foes</p>",
  );
});
