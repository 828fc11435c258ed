// Strength over the rounds: both sides' strength after each entry of the fight, as inline SVG,
// from the core's `series` (the leader's bonus and the end marked). No library.
import { t, term } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 320;
const H = 150;
const PAD = { left: 30, right: 10, top: 12, bottom: 22 };
const SIDES = ["allies", "enemies"];

function el(name, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

/** A mark with a tooltip (the title beside it in a group, so the mark's own text stays its own). */
function titled(mark, title) {
  const group = el("g");
  group.append(el("title", {}, title), mark);
  return group;
}

/** The chart of a series of points ({round, allies, enemies, bonus?, ended?}); null if too short. */
export function strengthChart(points) {
  if (!points || points.length < 1) return null;
  const top = Math.max(1, ...points.flatMap((p) => SIDES.map((s) => p[s] ?? 0)));
  const x = (i) => PAD.left + (points.length === 1 ? 0 : (i * (W - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v) => PAD.top + (1 - v / top) * (H - PAD.top - PAD.bottom);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "strength-chart", role: "img" });
  const first = points[0];
  const last = points[points.length - 1];
  const shown = (n) => (n === null || n === undefined ? "?" : String(n)); // hidden from players
  const label = t("chart.label", {
    allies: `${shown(first.allies)} → ${shown(last.allies)}`,
    enemies: `${shown(first.enemies)} → ${shown(last.enemies)}`,
    count: last.round, // "1 round", "2 rounds"; «1 раунд», «2 раунда», «5 раундов»
  });
  svg.setAttribute("aria-label", label);
  svg.append(el("title", {}, label));
  svg.append(el("line", { x1: PAD.left, y1: y(0), x2: W - PAD.right, y2: y(0), class: "axis" }));
  svg.append(el("text", { x: PAD.left - 4, y: y(top) + 4, class: "tick", "text-anchor": "end" }, String(top)));
  svg.append(el("text", { x: PAD.left - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }, "0"));
  points.forEach((point, i) => {
    if (i === 0 || point.round !== points[i - 1].round) {
      svg.append(el("text", { x: x(i), y: H - 6, class: "tick", "text-anchor": "middle" }, String(point.round)));
    }
  });
  for (const side of SIDES) {
    if (points.every((p) => p[side] === null || p[side] === undefined)) continue; // hidden from players
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p[side] ?? 0).toFixed(1)}`).join(" ");
    svg.append(el("polyline", { points: line, class: `line ${side}`, "data-side": side }));
    points.forEach((p, i) => {
      svg.append(el("circle", { cx: x(i), cy: y(p[side] ?? 0), r: 2.5, class: `dot ${side}` }));
      if (p.bonus?.[side]) {
        const mark = el(
          "text",
          { x: x(i), y: y(p[side] ?? 0) - 6, class: `mark bonus ${side}`, "text-anchor": "middle" },
          `+${p.bonus[side]}`,
        );
        svg.append(titled(mark, t("chart.bonus", { side: term(side), bonus: p.bonus[side] })));
      }
    });
  }
  // The end stays marked where it came: an Influence roll after it adds a point, not a new end.
  const i = points.findLastIndex((p) => p.ended);
  if (i >= 0) {
    const ended = points[i].ended;
    svg.append(el("line", { x1: x(i), y1: PAD.top, x2: x(i), y2: y(0), class: "mark end" }));
    const end = el(
      "text",
      { x: x(i) - 3, y: PAD.top + 8, class: "mark end-label", "text-anchor": "end" },
      t("chart.end"),
    );
    svg.append(titled(end, t(`winner.${ended.winner || "none"}`)));
  }
  return svg;
}

/**
 * A player's series, read from the strengths the player's view shows (its log's events and the
 * sides now; what is hidden stays null): a player's page asks the core for no working.
 */
export function visibleSeries(view) {
  if (!view || view.status === "setup") return null;
  const undone = new Set(view.undone || []);
  const points = [];
  let round = 0;
  let now = null;
  view.log.forEach((entry, index) => {
    if (undone.has(index) || entry.command.type === "undo") return;
    for (const event of entry.events) {
      if (event.type === "battle_started") now = { ...event.initial };
      else if (!now) continue;
      else if (event.type === "round_resolved") [round, now] = [event.round, { ...event.strength }];
      else if (event.type === "strength_set") now = { ...now, [event.side]: event.strength };
      else if (event.type !== "battle_ended") continue;
      points.push({ round, ...now, ...(event.type === "battle_ended" ? { ended: { winner: event.winner } } : {}) });
    }
  });
  const last = points.at(-1);
  const sides = { allies: view.sides.allies.strength, enemies: view.sides.enemies.strength };
  if (last && !last.ended && SIDES.some((s) => last[s] !== sides[s])) points.push({ round, ...sides });
  return points;
}

/** Paint the chart of the series the state holds (the core's; a player's from the view). */
export function paintChart(state) {
  const holder = document.querySelector("#strength-chart");
  holder.textContent = "";
  const player = state.mode === "live" && state.live.role === "player";
  const chart = strengthChart(player ? visibleSeries(state.live.view) : state.working?.series);
  if (chart) holder.append(chart);
  document.querySelector("#chart-panel").hidden = !chart;
}
