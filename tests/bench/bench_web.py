"""Benchmark of the static page in Chromium, side by side with a bare Pyodide boot in the same run.

Prints: time to first result cold and warm against a bare page that only boots the same vendored
Pyodide (ratios), time until the inputs are usable, the median recalculation after an edit inside
the page (and JSON text vs proxy conversion across the worker boundary), and the bytes a first
visit downloads, per file. Run with ``make bench-web`` (builds the site first).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "web"))
sys.path.insert(0, str(ROOT / "tests" / "support"))

from chromium import launch_args  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    Playwright,
    sync_playwright,
)
from static_server import StaticServer  # noqa: E402

DIST = ROOT / "web" / "dist"
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
EDITS = int(os.environ.get("BENCH_EDITS", "30"))
TIMEOUT_MS = 180_000

BARE_PAGE = b"""<!doctype html>
<html data-ready="false"><head><meta charset="utf-8"><title>bare Pyodide boot</title></head>
<body><script type="module">
const worker = new Worker("worker.js", { type: "module" });
worker.onmessage = () => { document.documentElement.dataset.ready = "true"; };
</script></body></html>
"""
BARE_WORKER = b"""import { loadPyodide } from "../pyodide/pyodide.mjs";
await loadPyodide({ indexURL: new URL("../pyodide/", self.location.href).href });
self.postMessage("ready");
"""
# Records, relative to navigation start, when the page became interactive and when it was ready.
MARKS = """
window.__marks = {};
new MutationObserver(() => {
  const html = document.documentElement;
  if (html.dataset.interactive === "true" && !("interactive" in window.__marks))
    window.__marks.interactive = performance.now();
  if (html.dataset.ready === "true" && !("ready" in window.__marks))
    window.__marks.ready = performance.now();
}).observe(document, { attributes: true, subtree: true,
                       attributeFilter: ["data-ready", "data-interactive"] });
"""


def visit(context: BrowserContext, url: str) -> dict[str, float]:
    """Open url in a new tab of context; the marks (ms since navigation start)."""
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('html[data-ready="true"]', timeout=TIMEOUT_MS)
    marks: dict[str, float] = page.evaluate("window.__marks")
    page.close()
    return marks


def wait_for_service_worker(context: BrowserContext, url: str) -> None:
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('html[data-ready="true"]', timeout=TIMEOUT_MS)
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.close()


def fresh_context(browser: Browser) -> BrowserContext:
    context = browser.new_context(locale="en-US")
    context.add_init_script(MARKS)
    return context


def profile_context(playwright: Playwright, launch: dict[str, Any], folder: Path) -> BrowserContext:
    """A browser with its own new profile on disk: an empty disk cache, as on a first visit."""
    context = playwright.chromium.launch_persistent_context(str(folder), locale="en-US", **launch)
    context.add_init_script(MARKS)
    return context


def cold_and_warm(
    playwright: Playwright, launch: dict[str, Any], urls: dict[str, str]
) -> dict[str, dict[str, list[float]]]:
    """Per run and per page (taken in turns, so that both see the same machine load): the first
    result in a new browser profile, then again on a second visit in the same profile."""
    out = {name: {"cold": [], "warm": [], "interactive": []} for name in urls}
    for _ in range(RUNS):
        for name, url in urls.items():
            with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
                context = profile_context(playwright, launch, Path(folder))
                try:
                    marks = visit(context, url)
                    out[name]["cold"].append(marks["ready"])
                    out[name]["interactive"].append(marks.get("interactive", float("nan")))
                    if name == "page":
                        wait_for_service_worker(context, url)
                    else:
                        time.sleep(1)  # let the HTTP cache settle, as the page's wait does
                    out[name]["warm"].append(visit(context, url)["ready"])
                finally:
                    context.close()
    return out


def first_visit_bytes(
    playwright: Playwright, launch: dict[str, Any], server: StaticServer
) -> dict[str, int]:
    """Bytes the server sent for one first visit, until the service worker has cached the site."""
    with tempfile.TemporaryDirectory(prefix="bench-web-") as folder:
        server.sent.clear()
        context = profile_context(playwright, launch, Path(folder))
        try:
            wait_for_service_worker(context, server.url)
        finally:
            context.close()
        return dict(server.sent)


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def recalculation(browser: Browser, url: str) -> dict[str, float]:
    """Edits typed into the page: time from the submit to the repainted view, and its parts."""
    context = fresh_context(browser)
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_selector('html[data-ready="true"]', timeout=TIMEOUT_MS)
        for side, name, fighters, strength in (
            ("allies", "Dwarves", "10", "30"),
            ("enemies", "Orcs", "12", "26"),
        ):
            form = page.locator(f'.side[data-side="{side}"] form.add-unit')
            form.locator('input[name="name"]').fill(name)
            form.locator('input[name="fighters"]').fill(fighters)
            form.locator('input[name="strength"]').fill(strength)
            submit_and_wait(page, lambda f=form: f.locator('button[type="submit"]').click())
        submit_and_wait(page, lambda: page.locator("#start-form button").click())
        strength_input = page.locator('#strength-form input[name="strength"]')

        def edits(submit: Callable[[], None]) -> list[float]:
            page.evaluate("window.backgroundBattle.recalcTimings.length = 0")
            for i in range(EDITS):
                strength_input.fill(str(30 - (i % 25)))
                submit_and_wait(page, submit)
            timings: list[float] = page.evaluate("window.backgroundBattle.recalcTimings")
            return timings

        # Inside the page: the form submitted by the page's own event (the goal's measure).
        recalcs = edits(
            lambda: page.evaluate("document.querySelector('#strength-form').requestSubmit()")
        )
        # Through Playwright's click: adds the headless browser's input and frame handling.
        clicked = edits(lambda: page.locator("#strength-form button").click())
        battle = page.evaluate("JSON.parse(localStorage.getItem('bb.battle.v1')).battle")
        request = {
            "op": "apply",
            "battle": battle,
            "command": {"type": "set_strength", "side": "allies", "strength": 20},
        }
        boundary = {via: boundary_times(page, request, via) for via in ("json", "proxy")}
        return {
            "recalc_median": median(recalcs),
            "recalc_last5": median(recalcs[-5:]),
            "recalc_clicked": median(clicked),
            "log_entries": len(battle.get("log", [])),
            "json_roundtrip": boundary["json"][0],
            "json_worker": boundary["json"][1],
            "proxy_roundtrip": boundary["proxy"][0],
            "proxy_worker": boundary["proxy"][1],
        }
    finally:
        context.close()


def submit_and_wait(page: Page, action: Callable[[], None]) -> None:
    before = page.get_attribute("html", "data-version")
    action()
    page.wait_for_function(
        "v => document.documentElement.dataset.version !== v", arg=before, timeout=TIMEOUT_MS
    )


def boundary_times(page: Page, request: dict[str, Any], via: str) -> tuple[float, float]:
    """Median round trip and median time inside the worker of one apply request."""
    result: list[float] = page.evaluate(
        """async ([request, via, n]) => {
            const client = window.backgroundBattle;
            const trips = [], inside = [];
            for (let i = 0; i < n; i++) {
              const t0 = performance.now();
              const reply = await client.request(request, via);
              trips.push(performance.now() - t0);
              inside.push(client.workerTimings[client.workerTimings.length - 1]);
              if (!reply.ok) throw new Error(JSON.stringify(reply.error));
            }
            const mid = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
            return [mid(trips), mid(inside)];
        }""",
        [request, via, EDITS],
    )
    return result[0], result[1]


def main() -> int:
    if not (DIST / "index.html").is_file():
        print("web/dist is not built: run `make site`", file=sys.stderr)
        return 1
    server = StaticServer(DIST)
    server.extra["/bare/index.html"] = (BARE_PAGE, "text/html")
    server.extra["/bare/worker.js"] = (BARE_WORKER, "text/javascript")
    launch = launch_args({})
    try:
        with sync_playwright() as playwright:
            report(playwright, launch, server)
    finally:
        server.close()
    return 0


def report(playwright: Playwright, launch: dict[str, Any], server: StaticServer) -> None:
    load = os.getloadavg()[0]
    print(f"bench-web: {RUNS} runs each (bare and page in turns), medians; load average {load:.1f}")
    times = cold_and_warm(
        playwright, launch, {"bare": f"{server.url}bare/index.html", "page": server.url}
    )
    bare, page = times["bare"], times["page"]
    rows = [
        ("first result, cold", median(page["cold"]), median(bare["cold"]), 1.15),
        ("first result, warm", median(page["warm"]), median(bare["warm"]), 1.0),
    ]
    print(f"{'':24}{'page ms':>10}{'bare ms':>10}{'ratio':>8}{'goal':>8}")
    for name, ours, theirs, goal in rows:
        ratio = ours / theirs
        verdict = "ok" if ratio <= goal else "over"
        print(f"{name:24}{ours:10.0f}{theirs:10.0f}{ratio:8.2f}{'<=' + str(goal):>8} {verdict}")
    warm_half = median(page["warm"]) / median(bare["warm"])
    print(f"stretch (warm <= 0.5x bare warm): {warm_half:.2f}x")
    interactive = median(page["interactive"])
    verdict = "ok" if interactive <= 500 else "over"
    print(f"inputs usable after navigation: {interactive:.0f} ms (goal <= 500) {verdict}")

    browser = playwright.chromium.launch(**launch)
    try:
        recalc = recalculation(browser, server.url)
    finally:
        browser.close()
    verdict = "ok" if recalc["recalc_median"] < 10 else "over"
    print(
        f"recalculation after an edit (submit -> repainted), {EDITS} edits: "
        f"median {recalc['recalc_median']:.1f} ms (goal < 10) {verdict}; "
        f"last 5 (log of {recalc['log_entries']}): {recalc['recalc_last5']:.1f} ms; "
        f"the same edits clicked through Playwright: median {recalc['recalc_clicked']:.1f} ms"
    )
    print(
        "worker boundary, one apply: JSON text "
        f"{recalc['json_roundtrip']:.1f} ms round trip / {recalc['json_worker']:.1f} ms in worker; "
        f"toPy/toJs proxies {recalc['proxy_roundtrip']:.1f} / {recalc['proxy_worker']:.1f} ms"
    )

    sent = first_visit_bytes(playwright, launch, server)
    total = sum(sent.values())
    print(f"first visit downloads {total:,} bytes ({total / 1e6:.2f} MB), by file:")
    for path, size in sorted(sent.items(), key=lambda item: -item[1]):
        print(f"  {size:>12,}  {path}")


if __name__ == "__main__":
    sys.exit(main())
