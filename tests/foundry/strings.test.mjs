// Every string key the module uses exists, in English and in Russian alike.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

const ROOT = new URL("../../foundry-module/", import.meta.url);
const en = JSON.parse(readFileSync(new URL("lang/en.json", ROOT), "utf8"));
const ru = JSON.parse(readFileSync(new URL("lang/ru.json", ROOT), "utf8"));

function keys(data, prefix = "") {
  return Object.entries(data).flatMap(([key, value]) =>
    typeof value === "object" ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

function placeholders(text) {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
}

function lookup(data, path) {
  return path.split(".").reduce((node, part) => node?.[part], data);
}

test("English and Russian have the same keys and the same placeholders", () => {
  assert.deepEqual(keys(ru).sort(), keys(en).sort());
  for (const key of keys(en)) {
    assert.deepEqual(placeholders(lookup(ru, key)), placeholders(lookup(en, key)), key);
  }
});

test("every literal key the scripts ask for exists", () => {
  const scripts = new URL("scripts/", ROOT);
  const files = readdirSync(scripts).filter((f) => f.endsWith(".mjs"));
  const used = new Set();
  for (const file of files) {
    const source = readFileSync(new URL(file, scripts), "utf8");
    for (const m of source.matchAll(/\bt\("([A-Za-z_.]+)"/g)) used.add(`BACKGROUND_BATTLE.${m[1]}`);
    for (const m of source.matchAll(/"(BACKGROUND_BATTLE\.[A-Za-z_.]+)"/g)) used.add(m[1]);
  }
  assert.ok(used.size > 50, `found only ${used.size} keys`);
  const known = new Set(keys(en));
  const missing = [...used].filter((k) => !known.has(k));
  assert.deepEqual(missing, []);
});

test("the manifest names both languages and an entry that exists", () => {
  const manifest = JSON.parse(readFileSync(new URL("module.json", ROOT), "utf8"));
  assert.equal(manifest.id, "background-battle");
  // Foundry 13 and 14 (WFRP4e 9.6 on v14 with warhammer-lib 3.x, on v13 with 2.10).
  assert.deepEqual(manifest.compatibility, { minimum: "13", verified: "14", maximum: "14" });
  // PackageManifestData.license: "A web url or relative file path where license details may be
  // found"; the release zip carries the repository's LICENSE at the module's root.
  assert.equal(manifest.license, "LICENSE");
  assert.match(readFileSync(new URL("../LICENSE", ROOT), "utf8"), /^MIT License/);
  assert.deepEqual(manifest.languages.map((l) => l.lang).sort(), ["en", "ru"]);
  for (const path of [...manifest.esmodules, ...manifest.styles, ...manifest.languages.map((l) => l.path)]) {
    assert.ok(readFileSync(new URL(path, ROOT)), path);
  }
  assert.deepEqual(manifest.relationships.systems, []);
  assert.equal(manifest.relationships.recommends[0].id, "wfrp4e");
});

test("the Russian words say «SL» as the rules write it, never «УУ»", () => {
  const text = JSON.stringify(ru);
  assert.ok(!text.includes("УУ"), "УУ in ru.json");
  assert.equal(lookup(ru, "BACKGROUND_BATTLE.Fields.sl"), "SL");
});
