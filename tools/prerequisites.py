"""What `make test` and `make run` need besides Python: a Chromium/Chrome, and Node with npm.

    python tools/prerequisites.py browser [--install]   # the browser's path, or one line why not
    python tools/prerequisites.py node                  # Node and npm there, or one line why not
    python3 tools/prerequisites.py python               # Python 3.11+ that can make a venv

A browser is looked for, in order: ``$BACKGROUND_BATTLE_CHROMIUM``, Debian's ``/usr/bin/chromium``
and Google Chrome's ``/opt/google/chrome/chrome`` (``$BACKGROUND_BATTLE_BROWSER_PLACES``, a
``:``-separated list, replaces these two), ``chromium`` / ``chromium-browser`` / ``google-chrome``
/ ``google-chrome-stable`` on PATH, then Playwright's own download (``$PLAYWRIGHT_BROWSERS_PATH``
or ``~/.cache/ms-playwright``). With ``--install`` and none found, ``playwright install chromium``
is tried once. Exit status 0 when found, 1 with one line on stderr saying what to do.
Standard library only: it runs before anything else is known to work.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

DEBIAN = "/usr/bin/chromium"
CHROME = "/opt/google/chrome/chrome"
ON_PATH = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PLAYWRIGHT_GLOBS = (
    "chromium-*/chrome-linux*/chrome",
    "chromium_headless_shell-*/chrome-linux*/headless_shell",
)
INSTALL_TIMEOUT_S = 900
NO_BROWSER = (
    "No Chromium or Chrome found (and `playwright install chromium` did not get one): "
    "run `apt-get install chromium` or `.venv/bin/playwright install chromium`, then make again."
)
NO_PYTHON = (
    "Python 3.11 or newer with venv is needed: run `apt-get install python3 python3-venv` "
    "(or make PYTHON=python3.12), then make again."
)
NO_NODE = (
    "Node.js 20 and npm are needed for the page and the Foundry module's tests: "
    "run `apt-get install nodejs npm` (or get Node 20 from nodejs.org), then make again."
)


def playwright_downloads() -> Path:
    """Where Playwright keeps the browsers it downloads."""
    own = os.environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if own and own != "0":
        return Path(own)
    return Path.home() / ".cache" / "ms-playwright"


def find_browser() -> Path | None:
    """The first Chromium or Chrome that is there and can be run, or None."""
    chosen = os.environ.get("BACKGROUND_BATTLE_CHROMIUM")
    places = os.environ.get("BACKGROUND_BATTLE_BROWSER_PLACES", f"{DEBIAN}{os.pathsep}{CHROME}")
    candidates = [Path(chosen)] if chosen else []
    candidates += [Path(place) for place in places.split(os.pathsep) if place]
    candidates += [Path(found) for name in ON_PATH if (found := shutil.which(name))]
    downloads = playwright_downloads()
    for pattern in PLAYWRIGHT_GLOBS:
        candidates += sorted(downloads.glob(pattern), reverse=True)
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


def install_browser() -> None:
    """Try Playwright's own download once (works wherever its download site is reachable)."""
    playwright = Path(sys.executable).parent / "playwright"
    command = [str(playwright)] if playwright.exists() else [sys.executable, "-m", "playwright"]
    print("No Chromium found; trying `playwright install chromium` ...", file=sys.stderr)
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        subprocess.run(
            [*command, "install", "chromium"],
            timeout=INSTALL_TIMEOUT_S,
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def main(argv: Sequence[str] | None = None) -> int:
    """``browser``, ``node`` or ``python``: 0 (the browser's path), or 1 and one line why not."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("need", choices=("browser", "node", "python"))
    parser.add_argument("--install", action="store_true", help="try playwright install chromium")
    args = parser.parse_args(argv)
    if args.need == "python":
        if sys.version_info >= (3, 11) and importlib.util.find_spec("ensurepip") is not None:
            return 0
        print(NO_PYTHON, file=sys.stderr)
        return 1
    if args.need == "node":
        if shutil.which("node") and shutil.which("npm"):
            return 0
        print(NO_NODE, file=sys.stderr)
        return 1
    browser = find_browser()
    if browser is None and args.install:
        install_browser()
        browser = find_browser()
    if browser is None:
        print(NO_BROWSER, file=sys.stderr)
        return 1
    print(browser)
    return 0


if __name__ == "__main__":
    sys.exit(main())
