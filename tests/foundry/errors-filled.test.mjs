// Every refusal the core and the bridge can send (error_shapes.py reads them from the Python
// source: each literal code with the params it carries), rendered by the module's own
// `errorText` in English and in Russian: each has a sentence of its own in both languages, and
// no placeholder is left unfilled ("SL must be between 0 and {max}" was one), whichever bound of
// a range is open (null).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { useLanguage } from "./lang-game.mjs";
import { errorText } from "../../foundry-module/scripts/i18n.mjs";

const script = fileURLToPath(new URL("error_shapes.py", import.meta.url));
const python = process.env.PYTHON ?? "python3";
const shapes = JSON.parse(execFileSync(python, [script], { encoding: "utf8" }));

const SAMPLES = {
  accepted: ["allies", "enemies"],
  bonus: 5,
  expected: 11,
  expected_version: 7,
  rate: 20,
  reason: "no events",
  report: { unit: "u1" },
  retry_after: 2,
  size: 70000,
  status: "setup",
  version: 6,
  winner: "allies",
};

/** The codes whose bounds may be open (null): the core's `whole` ("either bound may be open"). */
const OPEN_BOUNDS = new Set(["out_of_range", "not_integer", "not_number"]);

/** Each way the params of a shape can come: a range's bounds each a number or, where the core
 * allows, open (null). */
function variants(code, names) {
  let all = [{}];
  const open = OPEN_BOUNDS.has(code) ? [null] : [];
  for (const name of names) {
    const values = name === "min" ? [1, ...open] : name === "max" ? [100, ...open] : [SAMPLES[name] ?? "x"];
    all = all.flatMap((params) => values.map((value) => ({ ...params, [name]: value })));
  }
  return all;
}

test("the shapes were read from the source", () => {
  const codes = new Set(shapes.map((s) => s.code));
  for (const code of ["out_of_range", "required", "wrong_phase", "no_foundry", "stale_version"]) {
    assert.ok(codes.has(code), code);
  }
  assert.ok(shapes.length > 40, `only ${shapes.length} shapes`);
});

for (const lang of ["en", "ru"]) {
  test(`every refusal reads whole in ${lang}`, () => {
    useLanguage(lang);
    const left = [];
    for (const shape of shapes) {
      for (const params of variants(shape.code, shape.params)) {
        const fallback = `FALLBACK ${shape.code}`;
        const words = errorText({ code: shape.code, field: "sl", message: fallback, params });
        if (words === fallback || /\{\w*\}|undefined|null|BACKGROUND_BATTLE/.test(words)) {
          left.push(`${shape.code} ${JSON.stringify(params)} (${shape.where}): ${words}`);
        }
      }
    }
    assert.deepEqual(left, []);
  });
}

test("the SL refusal of a passed test names its one bound", () => {
  useLanguage("en");
  const sl = { code: "out_of_range", field: "sl", params: { min: 0 } };
  assert.match(errorText(sl), /at least 0$/);
  useLanguage("ru");
  assert.match(errorText(sl), /^SL: допустимо не меньше 0$/);
});
