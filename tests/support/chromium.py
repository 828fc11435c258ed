"""Debian's Chromium for Playwright: nothing is downloaded at test time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
# As root, without a sandbox; and no background traffic, which this machine's network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def launch_args(base: dict[str, Any]) -> dict[str, Any]:
    """pytest-playwright's launch arguments with Debian's Chromium when it is there."""
    args = {**base, "args": CHROMIUM_ARGS}
    if CHROMIUM.exists() and not os.environ.get("PLAYWRIGHT_OWN_BROWSER"):
        args["executable_path"] = str(CHROMIUM)
    return args
