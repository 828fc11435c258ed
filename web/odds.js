// The odds from the core's simulation: who wins how often, and the expected casualties per unit.
import { ODDS_RUNS } from "./config.js";
import { freshSeed } from "./core-client.js";
import { clearErrors, showError } from "./forms.js";
import { formatNumber, t, term } from "./i18n.js";
import { casualtyBar } from "./render.js";

/**
 * Shares as percentages with one decimal that add up to 100 % (largest remainder: each share is
 * rounded down to a tenth of a percent, and the tenths left go to the largest remainders),
 * written the page's language's way ("69.4%", «69,4 %»).
 */
export function percents(shares) {
  const total = shares.reduce((sum, share) => sum + share, 0);
  if (!(total > 0)) return shares.map(() => formatNumber(0, { percent: true }));
  const exact = shares.map((share) => (share / total) * 1000);
  const tenths = exact.map(Math.floor);
  let left = 1000 - tenths.reduce((sum, n) => sum + n, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    tenths[i] += 1;
    left -= 1;
  }
  return tenths.map((n) => formatNumber(n / 1000, { percent: true }));
}

/** Paint an `odds` reply into the container. */
export function renderOdds(container, reply) {
  container.textContent = "";
  const chart = document.createElement("div");
  chart.className = "odds-chart";
  chart.setAttribute("role", "img");
  const parts = [
    ["allies_win", reply.allies_win],
    ["enemies_win", reply.enemies_win],
    ["unfinished", reply.unfinished],
  ];
  const shown = percents(parts.map(([, share]) => share));
  chart.setAttribute("aria-label", parts.map(([key], i) => `${t(`odds.${key}`)} ${shown[i]}`).join(", "));
  const legend = document.createElement("ul");
  legend.className = "odds-legend";
  for (const [i, [key, share]] of parts.entries()) {
    const seg = document.createElement("span");
    seg.className = `seg ${key}`;
    seg.style.flexGrow = String(share);
    chart.append(seg);
    const item = document.createElement("li");
    item.dataset.bind = key;
    item.dataset.value = String(share);
    item.innerHTML = `<span class="key ${key}"></span><b>${shown[i]}</b> `;
    item.append(t(`odds.${key}`));
    legend.append(item);
  }
  const summary = document.createElement("p");
  summary.textContent = t("odds.summary", { count: reply.runs, rounds: formatNumber(reply.expected_rounds) });
  const heading = document.createElement("h3");
  heading.textContent = t("odds.expected");
  const bars = document.createElement("ul");
  bars.className = "bars";
  for (const unit of reply.units) {
    bars.append(
      casualtyBar({
        name: unit.name,
        note: `(${term(unit.side)})`,
        killed: unit.killed,
        wounded: unit.wounded,
        fit: unit.fit,
        digits: 1,
      }),
    );
  }
  container.append(chart, legend, summary, heading, bars);
}

/** The odds panel: the form asks the local core to simulate the battle shown. */
export function wireOdds(store, core, local) {
  const form = document.querySelector("#odds-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    clearErrors(form);
    store.set({ odds: "running" });
    await Promise.race([local.haveBattle, local.bootFailed]); // the core may still be starting
    // Live, the GM's view holds the whole log: the core in Pyodide replays the battle from it.
    const { mode, live, local: own } = store.get();
    const which =
      mode === "live" && live.view
        ? { log: live.view.log, name: live.battle }
        : { battle: own.battle, kept: own.kept ?? null };
    const reply = await core.request({ op: "odds", ...which, runs: ODDS_RUNS, seed: freshSeed() });
    store.set({ odds: reply.ok ? reply : null });
    if (!reply.ok) showError(form, reply.error);
  });
}

/** Paint the odds the state holds (none, running, or the core's reply). */
export function paintOdds(odds) {
  const container = document.querySelector("#odds-result");
  if (odds === "running") container.textContent = t("odds.running");
  else if (odds) renderOdds(container, odds);
  else container.textContent = "";
}
