// Events as the core writes them, shared by the node tests (copied from a run of
// background_battle.api: a round the core rolled, in the GM's view).
export const ROUND_1 = Object.freeze({
  type: "round_resolved",
  round: 1,
  mode: "auto",
  strength_before: { allies: 30, enemies: 60 },
  targets: { allies: 35, enemies: 60 },
  rolls: { allies: 14, enemies: 85 },
  sl: { allies: 2, enemies: -2 },
  success: { allies: true, enemies: false },
  decided_by: "sl",
  winner: "allies",
  lost: { allies: 0, enemies: 4 },
  strength: { allies: 30, enemies: 56 },
});
