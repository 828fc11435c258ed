// The client is one package both shells ship (docs/client.md): its modules import only each
// other and name no browser or Foundry global (socket, timers, storage, randomness are passed in).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";

const CLIENT = new URL("../../foundry-module/client/", import.meta.url);
const files = readdirSync(CLIENT).filter((name) => name.endsWith(".mjs"));
const code = (name) =>
  readFileSync(new URL(name, CLIENT), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/\/\/.*$/gm, "");

test("the package's modules import only each other", () => {
  assert.ok(files.length >= 5);
  for (const name of files) {
    for (const [, target] of code(name).matchAll(/\bfrom\s*["']([^"']+)["']/g)) {
      assert.match(target, /^\.\/[\w-]+\.mjs$/, `${name} imports ${target}`);
      assert.ok(files.includes(target.slice(2)), `${name} imports ${target}, not in the package`);
    }
  }
});

test("no browser or Foundry global is named", () => {
  const globals =
    /\b(window|document|location|localStorage|sessionStorage|crypto|WebSocket|game|ui|Hooks|CONFIG|fetch)\b(?!\s*:)/;
  const foundryApi = /\bfoundry\.(utils|applications|documents|abstract|data|canvas|dice)\b/;
  const bareTimers = /(?<![.\w])(setTimeout|clearTimeout|setInterval)\s*\(/;
  for (const name of files) {
    const text = code(name).replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '""');
    assert.doesNotMatch(text, globals, name);
    assert.doesNotMatch(text, foundryApi, name);
    assert.doesNotMatch(text, bareTimers, name);
  }
});
