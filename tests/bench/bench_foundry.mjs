// Benchmark of the Foundry module's pure logic: planning Apply and Undo for units of many
// tokens. Prints milliseconds per plan and the ratio to a baseline measured in the same run
// (structuredClone of the same token list: the least work any plan has to do to read them).
// Bounded: fixed sizes and repetitions; it stops by itself.
import { performance } from "node:perf_hooks";
import { planApply, planUndo } from "../../foundry-module/scripts/logic/fates.mjs";

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

console.log("foundry fates: size  apply_ms  undo_ms  baseline_ms  apply/baseline");
for (const size of [10, 100, 1000, 10000]) {
  const list = tokens(size);
  const fighters = list.reduce((sum, t) => sum + t.fighters, 0);
  const killed = Math.floor(fighters * 0.3);
  const wounded = Math.min(2 * killed, fighters - killed);
  const result = { killed, wounded, fit: fighters - killed - wounded };
  const reps = Math.max(3, Math.floor(20000 / size));
  const baseline = time(() => structuredClone(list), reps);
  const apply = time(() => planApply(list, result, TARGET, OPTIONS), reps);
  const applied = list.map((t) => ({ ...t, applied: { battle: "bench", unit: "u1", before: { dead: false, unconscious: false, name: t.name } } }));
  const undo = time(() => planUndo(applied, TARGET, OPTIONS), reps);
  console.log(
    `foundry fates: ${String(size).padStart(5)}  ${apply.toFixed(3).padStart(8)}  ${undo.toFixed(3).padStart(7)}  ${baseline.toFixed(3).padStart(11)}  ${(apply / baseline).toFixed(1).padStart(14)}`,
  );
}
