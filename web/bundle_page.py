"""The page's modules as one file: ``main.js`` and everything it imports, bundled by the pinned
esbuild (``web/package.json``) into the site's ``main.js``.

The page's own modules are small ES modules, one idea each (``main.js`` only wires them). Loaded
one by one they are some 50 requests in eight levels of imports: on a phone (150 ms a round trip,
six connections to a host on HTTP/1.1) the inputs came 2.7 s after the page, and the worker's
requests for Pyodide waited behind them. Bundled, the page is one request. What ``import()``
loads later stays apart: the QR code library (live mode) and the Rules text (its tab). The
modules themselves stay in the site, unbundled, for tools and tests that import one of them;
the service worker does not cache them (``bundled_modules``): the page never asks for them.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

from minify_runtime import esbuild_command

ENTRY = "main.js"
LATER = ("./vendor/*", "./rules/*")  # loaded by import() when needed, not in the bundle


def bundle_page(out: Path, node_modules: Path, package_json: Path) -> frozenset[str]:
    """Replace ``out/main.js`` by the bundle of the page's modules; the site's files it holds
    (``main.js`` itself left out), relative to ``out``.

    Raises:
        SystemExit: when esbuild is missing or fails.
    """
    esbuild = esbuild_command(node_modules, package_json)
    with tempfile.TemporaryDirectory(prefix="bundle-page-") as folder:
        bundle, meta = Path(folder) / ENTRY, Path(folder) / "meta.json"
        done = subprocess.run(
            [
                str(esbuild),
                ENTRY,
                "--bundle",
                "--format=esm",
                "--log-level=warning",
                *(f"--external:{later}" for later in LATER),
                f"--metafile={meta}",
                f"--outfile={bundle}",
            ],
            cwd=out,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or done.stderr.strip():
            raise SystemExit(f"esbuild {ENTRY} failed: {done.stderr.strip()[-2000:]}")
        inputs = json.loads(meta.read_text(encoding="utf-8"))["inputs"]
        (out / ENTRY).write_bytes(bundle.read_bytes())
    return frozenset(Path(name).as_posix() for name in inputs) - {ENTRY}
