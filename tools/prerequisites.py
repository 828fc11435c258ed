"""What `make test` and `make run` need besides Python: a Chromium/Chrome, the other browser
engines (Firefox ESR, WebKitGTK), and Node with npm.

    python tools/prerequisites.py browser [--install]   # the browser's path, or one line why not
    python tools/prerequisites.py engines [--missing]   # Firefox ESR and WebKitGTK, or one line
    python tools/prerequisites.py node                  # Node and npm there, or one line why not
    python3 tools/prerequisites.py python               # Python 3.11+ that can make a venv

A browser is looked for, in order: ``$BACKGROUND_BATTLE_CHROMIUM``, Debian's ``/usr/bin/chromium``
and Google Chrome's ``/opt/google/chrome/chrome`` (``$BACKGROUND_BATTLE_BROWSER_PLACES``, a
``:``-separated list, replaces these two), ``chromium`` / ``chromium-browser`` / ``google-chrome``
/ ``google-chrome-stable`` on PATH, then Playwright's own download (``$PLAYWRIGHT_BROWSERS_PATH``
or ``~/.cache/ms-playwright``). With ``--install`` and none found, ``playwright install chromium``
is tried once. Exit status 0 when found, 1 with one line on stderr saying what to do.
The other engines are Debian's packages, looked for on PATH: ``firefox-esr`` (or ``firefox``)
from firefox-esr; ``WebKitWebDriver`` from webkit2gtk-driver with ``Xvfb`` from xvfb (WebKitGTK
needs a display). Nothing is downloaded for them: one line names the packages to install
(``--missing`` prints just their names, none when all are there, for ``.ci/run``'s apt line).
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


# The other engines: each one's programs, and the Debian packages that hold them.
ENGINE_PROGRAMS = {
    "firefox": ((("firefox-esr", "firefox"), "firefox-esr"),),
    "webkit": ((("WebKitWebDriver",), "webkit2gtk-driver"), (("Xvfb",), "xvfb")),
}


def engine_programs(engine: str) -> list[Path] | list[str]:
    """The paths of the engine's programs (as ENGINE_PROGRAMS orders them), or else the Debian
    packages missing for it."""
    found: list[Path] = []
    missing: list[str] = []
    for names, package in ENGINE_PROGRAMS[engine]:
        path = next((where for name in names if (where := shutil.which(name))), None)
        if path is None:
            missing.append(package)
        else:
            found.append(Path(path))
    return missing or found


def missing_engine(engine: str) -> str:
    """One line saying what to install for the engine, or "" when it is there."""
    programs = engine_programs(engine)
    if programs and isinstance(programs[0], Path):
        return ""
    return no_engines([str(package) for package in programs])


def no_engines(packages: list[str]) -> str:
    return (
        f"Firefox ESR and WebKitGTK are needed for the tests in every browser engine: "
        f"run `apt-get install {' '.join(packages)}`, then make again."
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
    """``browser``, ``engines``, ``node`` or ``python``: 0 (the browser's path), or 1 and one
    line why not."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("need", choices=("browser", "engines", "node", "python"))
    parser.add_argument("--install", action="store_true", help="try playwright install chromium")
    parser.add_argument("--missing", action="store_true", help="engines: print the packages")
    args = parser.parse_args(argv)
    if args.need == "python":
        if sys.version_info >= (3, 11) and importlib.util.find_spec("ensurepip") is not None:
            return 0
        print(NO_PYTHON, file=sys.stderr)
        return 1
    if args.need == "engines":
        missing = [
            package
            for engine in ENGINE_PROGRAMS
            for package in engine_programs(engine)
            if isinstance(package, str)
        ]
        if args.missing:
            print(" ".join(missing))
            return 0
        if missing:
            print(no_engines(missing), file=sys.stderr)
            return 1
        return 0
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
