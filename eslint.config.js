// ESLint over every JavaScript file of the repository (`make lint`): ESLint's recommended rules,
// with the globals of the place each file runs in. A name that is not listed for a file's place
// is an error (no-undef), so a file cannot lean on a global its runtime does not have.
import js from "@eslint/js";
import globals from "globals";

// What Foundry VTT (v13, v14) and its game system put on the page for a module, each named from
// the module's own use (foundry-module/scripts/). The stand-in page (tests/foundry/standin/)
// defines the same names for the browser tests.
const FOUNDRY = Object.fromEntries(
  [
    "game", // game.user, .users, .settings, .socket, .i18n, .system, .modules, .tables, .messages
    "ui", // ui.notifications
    "Hooks", // Hooks.on, Hooks.once, Hooks.off
    "foundry", // foundry.applications, foundry.utils, foundry.data, foundry.dice
    "CONFIG", // CONFIG.statusEffects, CONFIG.specialStatusEffects, CONFIG.ChatMessage
    "CONST", // CONST.DICE_ROLL_MODES
    "canvas", // canvas.tokens.controlled, canvas.scene.tokens
    "ChatMessage", // ChatMessage.create, ChatMessage.getWhisperRecipients
    "Roll", // new Roll("1d100").evaluate()
    "RollTable", // RollTable.create (the core's Influence table imported)
  ].map((name) => [name, "readonly"]),
);

export default [
  {
    // Not ours or not source: installed packages, builds, the generated page.
    ignores: ["**/node_modules/", "**/dist/", "build/", ".venv/", "web/.wheels/", "data/"],
  },
  js.configs.recommended,
  {
    rules: {
      // `const { id, ...rest } = frame` is how a key is left out of a copy: `id` is used by
      // being left out.
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
      // It flags `let saved = null; try { saved = read() } catch { saved = null }`, a default
      // written out on purpose in the page's storage reads; not a bug there.
      "no-useless-assignment": "off",
    },
  },
  {
    // The page: ES modules in the browser.
    files: ["web/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // The page's service worker (registered as a classic script) and its Web Worker.
    files: ["web/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["web/worker.js"],
    languageOptions: { globals: globals.worker },
  },
  {
    // The Foundry module's shell: a browser page with Foundry's globals.
    files: ["foundry-module/**/*.mjs"],
    ignores: ["foundry-module/scripts/logic/**", "foundry-module/client/**"],
    languageOptions: { globals: { ...globals.browser, ...FOUNDRY } },
  },
  {
    // The module's logic runs in Node's tests as in Foundry: only what both have, no DOM, no
    // Foundry (its socket, timers and storage are passed in).
    files: ["foundry-module/scripts/logic/**/*.mjs"],
    languageOptions: { globals: globals["shared-node-browser"] },
  },
  {
    // The one client of the bridge (docs/client.md), shipped by the module and the page, tested
    // in Node: the same, its socket, timers, randomness and words passed in.
    files: ["foundry-module/client/**/*.mjs"],
    languageOptions: { globals: globals["shared-node-browser"] },
  },
  {
    // The Foundry stand-in: a browser page that plays Foundry for the module's real files.
    files: ["tests/foundry/standin/**/*.js"],
    languageOptions: { globals: { ...globals.browser, ...FOUNDRY } },
  },
  {
    // Node: tests, benchmarks, build helpers and this file.
    files: ["tests/**/*.mjs", "tests/**/*.js", "web/trim_stdlib.mjs", "*.js"],
    ignores: ["tests/foundry/standin/**"],
    languageOptions: { globals: globals.node },
  },
];
