"""A phone in Chromium for `make bench`: a slow network and a 4x slower CPU for the page and its
worker, driven over the DevTools protocol (CDP) itself.

The CPU: CDP's ``Emulation.setCPUThrottlingRate`` slows a page's main thread only; asked on a
worker's own session (caught with ``Target.setAutoAttach``), Chromium 156 answers "Operation is
only supported for pages, not workers", and the worker, where Pyodide runs, keeps full speed.
So the phone's CPU is made the way Chromium's own throttle works, one level up: ``Slower``
stops the browser's renderer processes (``SIGSTOP``) for 3 of every 4 slices of 20 ms and lets
them run (``SIGCONT``) for one, every thread in them (page, worker, service worker) alike; the
renderers are found through ``SystemInfo.getProcessInfo`` and looked for again every 0.2 s.
``cpu_check`` shows it: the same loop timed in the page and in a worker, with no throttle, with
CDP's page throttle and with ``Slower``.

The network is the static server's (``static_server.Network``): CDP's
``Network.emulateNetworkConditions`` on the page's session did not slow its worker's downloads
here (a worker's own session refuses it, "Not supported"), while a server that sends slowly
slows every request, whoever makes it, in any browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from static_server import Network
from websockets.asyncio.client import ClientConnection, connect


@dataclass(frozen=True)
class Phone:
    """What the phone is: its network and how much slower its CPU is than this machine's."""

    down_mbit: float = 9.0  # DevTools' "Fast 4G" download rate
    latency_ms: float = 150.0
    cpu_rate: float = 4.0  # 4x slower

    def network(self) -> Network:
        """The network for ``StaticServer(network=...)``."""
        return Network(self.down_mbit * 1_000_000 / 8, self.latency_ms / 1000)

    def floor_s(self, body_bytes: int, round_trips: int) -> float:
        """The least time these bytes take on this network: sent at its rate, plus the latency
        of the round trips that must follow one another."""
        return body_bytes * 8 / (self.down_mbit * 1_000_000) + round_trips * self.latency_ms / 1000


class Browser:
    """One Chromium with a new profile, each page caught as it starts (the marks set; CDP's
    page-only CPU throttle when ``page_cpu``, for ``cpu_check``'s comparison)."""

    def __init__(self, chromium: str, args: list[str], phone: Phone, timeout_s: float) -> None:
        self.chromium, self.args, self.phone, self.timeout_s = chromium, args, phone, timeout_s
        self.page_cpu = False  # CDP's page-only CPU throttle (cpu_check's comparison)
        self._folder = tempfile.TemporaryDirectory(prefix="bench-phone-")
        self._process: subprocess.Popen[bytes] | None = None
        self._socket: ClientConnection | None = None
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._jobs: set[asyncio.Task[None]] = set()
        self.configured: dict[str, asyncio.Event] = {}  # page's session -> set up and running
        self.kinds: dict[str, str] = {}  # session -> target type
        self.refused: set[str] = set()  # set-up steps a target refused

    async def __aenter__(self) -> Browser:
        command = [
            self.chromium,
            "--headless=new",
            "--remote-debugging-port=0",
            f"--user-data-dir={self._folder.name}",
            *self.args,
            "about:blank",
        ]
        self._process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            address = await asyncio.wait_for(asyncio.to_thread(self._devtools_address), 60)
            self._socket = await connect(address, max_size=None, ping_interval=None)
            self._reader = asyncio.create_task(self._read())
            await self.send(
                "Target.setAutoAttach",
                {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True},
            )
        except BaseException:
            await self.__aexit__()  # no browser left behind
            raise
        return self

    def _devtools_address(self) -> str:
        assert self._process and self._process.stderr
        for raw in self._process.stderr:
            found = re.search(rb"DevTools listening on (ws://\S+)", raw)
            if found:
                return found.group(1).decode()
        raise RuntimeError("Chromium exited before it listened for DevTools")

    async def __aexit__(self, *_: object) -> None:
        if self._socket:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send("Browser.close"), 10)
        if self._reader:
            self._reader.cancel()
        for job in list(self._jobs):
            job.cancel()
        if self._socket:
            with contextlib.suppress(Exception):
                await self._socket.close()
        if self._process:
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.terminate()
                try:
                    self._process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait(timeout=10)
            if self._process.stderr:
                self._process.stderr.close()
        self._folder.cleanup()

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        """One CDP command (to ``session``, a target's, or to the browser) and its result."""
        assert self._socket
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        answer = asyncio.get_running_loop().create_future()
        self._waiting[self._next_id] = answer
        await self._socket.send(json.dumps(message))
        reply = await asyncio.wait_for(answer, self.timeout_s)
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error'].get('message')}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    async def _read(self) -> None:
        assert self._socket
        async for raw in self._socket:
            message = json.loads(raw)
            if "id" in message:
                answer = self._waiting.pop(message["id"], None)
                if answer and not answer.done():
                    answer.set_result(message)
            elif message.get("method") == "Target.attachedToTarget":
                job = asyncio.create_task(self._set_up(message["params"]))
                self._jobs.add(job)
                job.add_done_callback(self._jobs.discard)

    async def _set_up(self, attached: dict[str, Any]) -> None:
        """A target that just started, paused: throttle it, then let it run (always, even when
        a step is refused: what was refused is kept in ``refused``)."""
        session, kind = attached["sessionId"], attached["targetInfo"]["type"]
        self.kinds[session] = kind
        steps: list[tuple[str, dict[str, Any]]] = []
        if kind == "page":
            auto = {"autoAttach": True, "waitForDebuggerOnStart": True, "flatten": True}
            steps += [
                ("Page.enable", {}),
                ("Page.addScriptToEvaluateOnNewDocument", {"source": MARKS}),
            ]
            steps += [("Target.setAutoAttach", auto)]
            if self.page_cpu:
                steps += [("Emulation.setCPUThrottlingRate", {"rate": self.phone.cpu_rate})]
        for method, params in [*steps, ("Runtime.runIfWaitingForDebugger", {})]:
            try:
                await self.send(method, params, session)
            except Exception as error:  # not on this target, it is gone, or the browser is
                self.refused.add(f"{kind}: {method}: {error!r}")
        self.configured.setdefault(session, asyncio.Event()).set()

    async def open(self, url: str) -> str:
        """A new tab, throttled, navigated to ``url``; its session."""
        before = {s for s, k in self.kinds.items() if k == "page"}
        created = await self.send("Target.createTarget", {"url": "about:blank"})
        session = await self._wait(lambda: self._new_page(before), "the new tab to attach")
        await self.configured.setdefault(session, asyncio.Event()).wait()
        await self.send("Page.navigate", {"url": url}, session)
        self.kinds[session + ":target"] = created["targetId"]
        return session

    def _new_page(self, before: set[str]) -> str | None:
        fresh = [s for s, k in self.kinds.items() if k == "page" and s not in before]
        return fresh[0] if fresh and fresh[0] in self.configured else None

    async def close(self, session: str) -> None:
        target = self.kinds.pop(session + ":target", None)
        if target:
            with contextlib.suppress(RuntimeError, TimeoutError):
                await self.send("Target.closeTarget", {"targetId": target})

    async def renderers(self) -> list[int]:
        """The process ids of the browser's renderers (pages, workers, service workers)."""
        info = await self.send("SystemInfo.getProcessInfo")
        return [p["id"] for p in info.get("processInfo", []) if p.get("type") == "renderer"]

    async def evaluate(self, session: str, expression: str) -> Any:
        """The value of ``expression`` in the tab (awaited when it is a promise)."""
        result = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session,
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:60]}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    async def until(self, session: str, expression: str, what: str) -> Any:
        """Poll ``expression`` in the tab until it is truthy (every 0.25 s; the marks it reads
        carry their own times, so the polling does not change the figures)."""

        async def value() -> Any:
            with contextlib.suppress(RuntimeError):  # a navigation in between
                return await self.evaluate(session, expression)
            return None

        return await self._wait_async(value, what)

    async def _wait(self, check: Callable[[], Any], what: str) -> Any:
        async def value() -> Any:
            return check()

        return await self._wait_async(value, what)

    async def _wait_async(self, check: Callable[[], Awaitable[Any]], what: str) -> Any:
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            found = await check()
            if found:
                return found
            await asyncio.sleep(0.25)
        raise TimeoutError(f"waited {self.timeout_s:.0f} s for {what}")


# Relative to navigation start: when the page became interactive and when it was ready (the
# desktop benchmark records the same, with this script), and the worker's boot parts once ready.
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
READY = "window.__marks && window.__marks.ready ? JSON.stringify(window.__marks) : null"
BOOT = """(() => {
  const boot = window.backgroundBattle && window.backgroundBattle.boot;
  return boot && boot.timings ? boot.timings.runtime : null;
})()"""
# The page's snapshot of Python kept for the next visit (taken after its first reply), or none to
# keep: the page came from a snapshot (the build-time snapshot's variant fetches its own).
SNAPSHOT_KEPT = """(async () => {
  if (window.backgroundBattle?.boot?.fromSnapshot) return true;
  const cache = await caches.open("bb-python-snapshot");
  const [key] = await cache.keys();
  return Boolean(key && (await cache.match(key)));
})()"""
CONTROLLED = (
    "navigator.serviceWorker.controller ? navigator.serviceWorker.ready.then(() => true) : false"
)


async def visit(browser: Browser, url: str) -> dict[str, float]:
    """Open ``url`` in a new tab until the page is ready; its marks (ms since navigation)."""
    session = await browser.open(url)
    try:
        marks: dict[str, float] = json.loads(await browser.until(session, READY, f"{url} ready"))
        runtime = await browser.evaluate(session, BOOT)
        if runtime is not None:
            marks["runtime"] = runtime
        return marks
    finally:
        await browser.close(session)


async def cold_then_warm(
    browser: Browser, url: str, service_worker: bool, on_ready: Callable[[], object] = lambda: None
) -> dict[str, float]:
    """The first visit in this (new) profile (``on_ready`` called as soon as it is seen ready),
    then a second one once the page is cached."""
    session = await browser.open(url)
    try:
        marks = json.loads(await browser.until(session, READY, f"{url} ready (cold)"))
        on_ready()
        runtime = await browser.evaluate(session, BOOT)
        if service_worker:
            await browser.until(session, CONTROLLED, "the service worker")
            await browser.until(session, SNAPSHOT_KEPT, "Python's snapshot kept")
    finally:
        await browser.close(session)
    if not service_worker:
        await asyncio.sleep(1)  # let the HTTP cache settle, as the desktop benchmark does
    warm = await visit(browser, url)
    out = {"cold": marks["ready"], "warm": warm["ready"]}
    if "interactive" in marks:
        out["interactive"] = marks["interactive"]
    if runtime is not None:
        out["runtime"] = runtime
    return out


class Slower:
    """The browser's renderers ``rate`` times slower while inside ``async with``: stopped for
    ``rate - 1`` slices of ``SLICE_S`` and running for one, in a thread; every one of them
    continued on the way out, whatever happens."""

    SLICE_S = 0.005

    def __init__(self, browser: Browser, rate: float) -> None:
        self.browser, self.rate = browser, rate
        self.pids: list[int] = []
        self.stopped_s = self.running_s = 0.0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._cycle, daemon=True)
        self._finder: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Slower:
        self.pids = await self.browser.renderers()
        self._finder = asyncio.create_task(self._find())
        self._thread.start()
        return self

    async def _find(self) -> None:
        while True:
            await asyncio.sleep(0.2)
            with contextlib.suppress(RuntimeError, TimeoutError):
                self.pids = await self.browser.renderers()

    def _signal(self, pids: list[int], sig: signal.Signals) -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)

    def _cycle(self) -> None:
        while not self._done.is_set():
            pids = list(self.pids)
            start = time.monotonic()
            self._signal(pids, signal.SIGSTOP)
            time.sleep(self.SLICE_S * (self.rate - 1))
            self._signal(pids, signal.SIGCONT)
            middle = time.monotonic()
            time.sleep(self.SLICE_S)
            self.stopped_s += middle - start
            self.running_s += time.monotonic() - middle

    @property
    def effective(self) -> float:
        """How many times slower the renderers ran, by the time they were stopped and let run."""
        total = self.stopped_s + self.running_s
        return total / self.running_s if self.running_s else float("nan")

    async def __aexit__(self, *_: object) -> None:
        self._done.set()
        if self._finder:
            self._finder.cancel()
        await asyncio.to_thread(self._thread.join, 10)
        self._signal(self.pids, signal.SIGCONT)


CPU_PAGE = b"""<!doctype html><html><head><meta charset="utf-8"><title>cpu</title></head><body>
<script type="module">
const loop = `let x = 0; const t = performance.now();
for (let i = 0; i < 30000000; i++) x = (x + i * 7) % 1000003;
const ms = performance.now() - t;`;
await new Promise((resolve) => setTimeout(resolve, 1000)); // the renderer found meanwhile
const page = new Function(`${loop} return ms;`)();
const work = `${loop} const t1 = performance.now();
const answer = await fetch("%s?" + Math.random(), { cache: "no-store" });
const bytes = (await answer.arrayBuffer()).byteLength;
postMessage({ ms, fetch: performance.now() - t1, bytes });`;
const blob = new Blob([work], { type: "text/javascript" });
const worker = new Worker(URL.createObjectURL(blob), { type: "module" });
worker.onmessage = (event) => { window.__cpu = { page, ...event.data }; };
</script></body></html>
"""
CPU_DONE = "window.__cpu ? JSON.stringify(window.__cpu) : null"


def cpu_page(download: str) -> bytes:
    """The CPU check's page, its worker downloading ``download`` (an absolute URL)."""
    return CPU_PAGE.replace(b"%s", download.encode())


async def cpu_check(browser: Browser, url: str) -> dict[str, dict[str, float]]:
    """The same loop timed in the page and in its worker (and the worker's download of a file):
    with no CPU throttle, with CDP's throttle on the page, and with ``Slower``."""
    out = {}
    for name in ("none", "CDP page throttle", "renderers stopped 3/4"):
        browser.page_cpu = name == "CDP page throttle"
        async with contextlib.AsyncExitStack() as stack:
            if name.startswith("renderers"):
                slower = await stack.enter_async_context(Slower(browser, browser.phone.cpu_rate))
            session = await browser.open(url)
            try:
                out[name] = json.loads(await browser.until(session, CPU_DONE, "the CPU loop"))
            finally:
                await browser.close(session)
            if name.startswith("renderers"):
                out[name]["effective"] = slower.effective
    browser.page_cpu = False
    return out
