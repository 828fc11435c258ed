// Benchmark of the Foundry module's pure logic: planning Apply and Undo for units of many
// tokens. Prints milliseconds per plan and the ratio to a baseline measured in the same run
// (structuredClone of the same token list: the least work any plan has to do to read them).
// Bounded: fixed sizes and repetitions; it stops by itself. A size that fails is reported as
// not measured, with the reason, and the next one runs; the exit status is 0 either way.
import { performance } from "node:perf_hooks";

const OPTIONS = { flagScope: "background-battle", groupName: (n, c) => `${n} (${c.fit}/${c.fighters})` };
const TARGET = { battle: "bench", unit: "u1" };

function tokens(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: `Scene.s.Token.t${i}`,
    name: `Soldier ${i}`,
    fighters: i % 50 === 49 ? 20 : 1,
    dead: i % 7 === 0,
    unconscious: i % 11 === 0,
    applied: null,
  }));
}

function time(fn, reps) {
  fn();
  const start = performance.now();
  for (let i = 0; i < reps; i++) fn();
  return (performance.now() - start) / reps;
}

const missing = [];
function notMeasured(label, error) {
  const reason = `${error?.name ?? "Error"}: ${String(error?.message ?? error).split("\n")[0]}`;
  missing.push(`${label}: ${reason}`);
  console.log(`not measured: ${label} — ${reason}`);
}

function measure(planApply, planUndo, size) {
  const list = tokens(size);
  const fighters = list.reduce((sum, t) => sum + t.fighters, 0);
  const killed = Math.floor(fighters * 0.3);
  const wounded = Math.min(2 * killed, fighters - killed);
  const result = { killed, wounded, fit: fighters - killed - wounded };
  const reps = Math.max(3, Math.floor(20000 / size));
  const baseline = time(() => structuredClone(list), reps);
  const apply = time(() => planApply(list, result, TARGET, OPTIONS), reps);
  const applied = list.map((t) => ({
    ...t,
    applied: { battle: "bench", unit: "u1", before: { dead: false, unconscious: false, name: t.name } },
  }));
  const undo = time(() => planUndo(applied, TARGET, OPTIONS), reps);
  console.log(
    `foundry fates: ${String(size).padStart(5)}  ${apply.toFixed(3).padStart(8)}  ${undo.toFixed(3).padStart(7)}  ${baseline.toFixed(3).padStart(11)}  ${(apply / baseline).toFixed(1).padStart(14)}`,
  );
}

console.log("foundry fates: size  apply_ms  undo_ms  baseline_ms  apply/baseline");
try {
  const { planApply, planUndo } = await import("../../foundry-module/scripts/logic/fates.mjs");
  for (const size of [10, 100, 1000, 10000]) {
    try {
      measure(planApply, planUndo, size);
    } catch (error) {
      notMeasured(`${size} tokens`, error);
    }
  }
} catch (error) {
  notMeasured("the module's logic (fates.mjs)", error);
}
console.log(
  missing.length
    ? `bench-foundry: ${missing.length} figure(s) not measured:\n${missing.map((m) => `  - ${m}`).join("\n")}`
    : "bench-foundry: every figure measured",
);
