"""The browser for Playwright: the Chromium or Chrome that tools/prerequisites.py finds.

Nothing is downloaded at test time: `make test` runs `tools/prerequisites.py browser --install`
first, and stops with one line saying what to do when there is no browser.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from prerequisites import NO_BROWSER, find_browser

# As root, without a sandbox; and no background traffic, which this machine's network refuses.
# Shared memory in /tmp, not /dev/shm: a container's /dev/shm is often 64 MB, and there the
# browser stopped answering with no error and no timeout (bench-web hung at its first part every
# time with /dev/shm at 64 MB or 256 MB, never at 1 GB).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


class NoBrowser(RuntimeError):
    """No Chromium or Chrome on this machine (the message says how to get one)."""


def launch_args(base: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments with the browser found on this machine.

    ``PLAYWRIGHT_OWN_BROWSER=1`` leaves the choice to Playwright (its own download).

    Raises:
        NoBrowser: when no browser is found.
    """
    args = {**base, "args": CHROMIUM_ARGS}
    if os.environ.get("PLAYWRIGHT_OWN_BROWSER"):
        return args
    browser = find_browser()
    if browser is None:
        raise NoBrowser(NO_BROWSER)
    args["executable_path"] = str(browser)
    return args
