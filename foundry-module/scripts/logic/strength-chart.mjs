/**
 * A small inline SVG chart of both sides' strength over the rounds (the end card's story).
 * Pure: points in, SVG text out; colours come from the stylesheet (classes, no colours here).
 */
const WIDTH = 240;
const HEIGHT = 90;
const PAD = 6;

/**
 * The chart for points [{round, allies, enemies}] (strengthHistory). A side whose numbers are
 * hidden (null) has no line. `title`: the chart's accessible name (already escaped).
 */
export function strengthChart(points, title = "") {
  const known = points.flatMap((p) => [p.allies, p.enemies]).filter((v) => typeof v === "number");
  const top = Math.max(1, ...known);
  const steps = Math.max(1, points.length - 1);
  const x = (i) => PAD + ((WIDTH - 2 * PAD) * i) / steps;
  const y = (v) => HEIGHT - PAD - ((HEIGHT - 2 * PAD) * v) / top;
  const line = (side) => {
    if (points.some((p) => typeof p[side] !== "number")) return "";
    const path = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p[side]).toFixed(1)}`).join(" ");
    const dots = points
      .map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p[side]).toFixed(1)}" r="2"/>`)
      .join("");
    return `<g class="bb-line bb-${side}" data-side="${side}"><path d="${path}"/>${dots}</g>`;
  };
  return (
    `<svg class="bb-chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<line class="bb-axis" x1="${PAD}" y1="${HEIGHT - PAD}" x2="${WIDTH - PAD}" y2="${HEIGHT - PAD}"/>` +
    line("allies") +
    line("enemies") +
    "</svg>"
  );
}
