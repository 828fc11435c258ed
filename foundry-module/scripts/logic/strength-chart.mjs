/**
 * A small chart of both sides' strength over the rounds (the end card's story), in plain HTML:
 * a row of bars per side, one bar a round, its height the strength. Chat cards are HTML that
 * Foundry may clean against `CONST.ALLOWED_HTML_TAGS` (api v13 and v14): `svg` is not among
 * them, `div` and `span` are, and `style` is an attribute allowed on every tag
 * (`CONST.ALLOWED_HTML_ATTRIBUTES`). Pure: points in, HTML text out; colours come from the
 * stylesheet (classes, no colours here).
 */

/**
 * The chart for points [{round, allies, enemies}] (strengthHistory). A side whose numbers are
 * hidden (null) has no row. `title`: the chart's accessible name (already escaped).
 */
export function strengthChart(points, title = "") {
  const known = points.flatMap((p) => [p.allies, p.enemies]).filter((v) => typeof v === "number");
  const top = Math.max(1, ...known);
  const row = (side) => {
    if (!points.length || points.some((p) => typeof p[side] !== "number")) return "";
    const bars = points
      .map(
        (p) =>
          `<span class="bb-bar" data-round="${p.round}" style="height: ${((100 * p[side]) / top).toFixed(1)}%"></span>`,
      )
      .join("");
    return `<div class="bb-line bb-${side}" data-side="${side}">${bars}</div>`;
  };
  return `<div class="bb-chart" role="img" aria-label="${title}">${row("allies")}${row("enemies")}</div>`;
}
