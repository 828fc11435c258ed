"""The first result cold and warm in every other engine (Firefox ESR, WebKitGTK), page and bare
Pyodide in turns, as bench_web.py takes them in Chromium (part ``engines`` of `make bench-web`).

Each run opens a new tab in a profile of its own (tests/support/engines.py: a Firefox user
context, a WebKit session), a cold visit, then, once the page's service worker controls it, a
second visit in the same profile (warm). The time is the page's own: ``performance.now()`` when
``<html data-ready="true">`` comes, in milliseconds since the navigation started, as in
Chromium. These engines let no script in before the page's own, so the mark is set by a
MutationObserver put in once the navigation is done (the page loads long before its Python is
ready); a page already ready by then is counted at that moment (the figure is then an upper
bound, and said so).
"""

from __future__ import annotations

import time
from typing import Any

from engines import ENGINES, Browser, launch, wait
from harness import Report, median, ratio, retried, shown, timeout_ms

READY_AT = """(waitMs) => new Promise((resolve) => {
  const html = document.documentElement;
  const done = (late) => resolve({ ready: performance.now(), late });
  if (html.dataset.ready === "true") return done(true);
  new MutationObserver((_, observer) => {
    if (html.dataset.ready === "true") { observer.disconnect(); done(false); }
  }).observe(html, { attributes: true, attributeFilter: ["data-ready"] });
  setTimeout(() => resolve(null), waitMs);
})"""
BOTH = ("page", "bare")  # what each run opens: the page, and a bare Pyodide boot
CONTROLLED = "() => navigator.serviceWorker.controller !== null"


def visit(tab: Any, url: str) -> dict[str, Any]:
    """Open ``url``; the moment the page was ready (the benchmark's browser wait at most)."""
    tab.goto(url)
    wait_ms = timeout_ms()
    marks: dict[str, Any] | None = tab.evaluate(READY_AT, wait_ms)
    if marks is None:
        raise TimeoutError(f"the page was not ready within {wait_ms:,} ms")
    return marks


def one_profile(browser: Browser, name: str, url: str, out: dict[str, list[Any]]) -> None:
    """A cold visit, then a warm one, in a new profile; the marks are added to ``out``."""
    tab = browser.tab()
    try:
        cold = visit(tab, url)
        if name != "bare":
            wait(tab, CONTROLLED, timeout_s=timeout_ms("service-worker") / 1000)
        else:
            time.sleep(1)  # let the HTTP cache settle, as the page's wait does
        warm = visit(tab, url)
    finally:
        tab.close()
    out["cold"].append(cold)
    out["warm"].append(warm)


def engine_times(urls: dict[str, str], runs: int, report: Report) -> None:
    """Cold and warm per engine, page and bare in turns; printed per engine with the ratios."""
    for name in ENGINES:
        browser = report.part(f"{name}: the browser", lambda name=name: launch(name))
        if browser is not None:
            try:
                print_engine(browser, in_turns(browser, urls, runs, report))
            finally:
                browser.close()


def in_turns(
    browser: Browser, urls: dict[str, str], runs: int, report: Report
) -> dict[str, dict[str, list[Any]]]:
    """Each run: every page once (cold then warm), so that all see the same machine load."""
    out: dict[str, dict[str, list[Any]]] = {page: {"cold": [], "warm": []} for page in urls}
    for run in range(1, runs + 1):
        for page, url in urls.items():
            report.part(
                f"{browser.name}: {page} page, run {run}",
                lambda page=page, url=url: retried(
                    lambda: one_profile(browser, page, url, out[page])
                ),
            )
    return out


def print_engine(browser: Browser, out: dict[str, dict[str, list[Any]]]) -> None:
    """The engine's rows, in the columns of bench_web.py's Chromium table (``≤``: an upper
    bound, the page was ready before the mark could be set)."""
    where = f"{browser.name} {browser.version}:"
    print(f"{where:24}{'page ms':>10}{'bare ms':>10}  page/bare ({len(out['page']['cold'])} runs)")
    for kind in ("cold", "warm"):
        ready = {name: median([mark["ready"] for mark in out[name][kind]]) for name in BOTH}
        shows = {name: late(out[name][kind]) + shown(ready[name]) for name in BOTH}
        print(
            f"{'first result, ' + kind:24}{shows['page']:>10}{shows['bare']:>10}  "
            f"{shown(ratio(ready['page'], ready['bare']), 2, 'x')}"
        )


def late(marks: list[dict[str, Any]]) -> str:
    """``≤ `` when a visit's page was ready before its mark was set (the figure is a bound)."""
    return "≤ " if any(mark["late"] for mark in marks) else ""
