"""Issue 30, item 2: a memory snapshot made at build time, tried on the first visit.

The page makes its snapshot on the device during the first visit and restores it on the next
ones (``worker.js``). Made once ahead instead (by the same Pyodide build, in the same browser:
the most favourable case, since a snapshot must match the exact build) and fetched on the first
visit, it would spare the phone starting Python and importing the core, for ~31 MB more to send
(gzipped as a host would). ``bench_web.py`` serves the site under ``/snapshot/`` with
``variant_worker`` and the snapshot beside it, and times it beside the page (``BENCH_SNAPSHOT=1``).
"""

from __future__ import annotations

import base64
import tempfile

from harness import timeout_ms
from phone_profile import SNAPSHOT_KEPT
from playwright.sync_api import Playwright

# The worker's two lines that choose the snapshot, and what the variant has instead: the file
# fetched at once, taken whatever the build's name for it.
KEPT = "const kept = readKeptSnapshot();"
FETCHED = (
    'const kept = fetch("./python-snapshot.bin").then(async (answer) =>'
    " ({ key: null, bytes: new Uint8Array(await answer.arrayBuffer()) }));"
)
MATCH = "found && found.key === snapshotKey"
CHUNK = 4_000_000

READ = """async ([start, end]) => {
  const cache = await caches.open("bb-python-snapshot");
  const [key] = await cache.keys();
  const bytes = new Uint8Array(await (await cache.match(key)).arrayBuffer());
  if (start >= bytes.length) return null;
  let text = "";
  for (const byte of bytes.subarray(start, end)) text += String.fromCharCode(byte);
  return btoa(text);
}"""


def made_snapshot(playwright: Playwright, launch: dict[str, object], url: str) -> bytes:
    """The snapshot the page makes on its first visit in a new profile, read out of the cache."""
    with tempfile.TemporaryDirectory(prefix="bench-snapshot-") as folder:
        context = playwright.chromium.launch_persistent_context(folder, **launch)  # type: ignore[arg-type]
        try:
            page = context.new_page()
            page.goto(url, timeout=timeout_ms())
            page.wait_for_selector('html[data-ready="true"]', timeout=timeout_ms())
            page.wait_for_function(SNAPSHOT_KEPT, timeout=timeout_ms(), polling=200)
            parts, start = [], 0
            while (chunk := page.evaluate(READ, [start, start + CHUNK])) is not None:
                parts.append(base64.b64decode(chunk))
                start += CHUNK
            return b"".join(parts)
        finally:
            context.close()


def variant_worker(worker: str) -> str:
    """The page's worker, restoring the fetched snapshot on its first visit."""
    if KEPT not in worker or MATCH not in worker:
        raise RuntimeError("worker.js no longer chooses its snapshot as build_snapshot.py expects")
    return worker.replace(KEPT, FETCHED).replace(MATCH, "found")
