"""Every browser engine a GM or a player opens the page in, behind one small tab interface.

Chromium is tested through Playwright (tests/web); Firefox and WebKit cannot be: Playwright's own
builds of them are not Debian's and cannot be downloaded here, and its WebDriver BiDi path needs
newer Firefox commands than ESR has. So the scenarios of tests/engines and the per-engine part
of `make bench` speak to a ``Tab``, which each engine's module implements over the W3C protocol
that engine speaks: Firefox ESR over WebDriver BiDi (firefox_bidi.py), WebKitGTK over WebDriver
(webkit_webdriver.py). Both come from Debian's packages; tools/prerequisites.py finds them and
says what to install when one is missing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from prerequisites import engine_programs, missing_engine

ENGINES = ("firefox", "webkit")


class Tab(Protocol):
    """A page in a profile of its own (its own storage and service worker)."""

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def evaluate(self, function: str, *args: Any) -> Any: ...
    def click(self, selector: str) -> None: ...
    def type(self, selector: str, text: str) -> None: ...
    def close(self) -> None: ...


class Browser(Protocol):
    name: str
    version: str
    errors: list[str]

    def tab(self) -> Tab: ...
    def close(self) -> None: ...


class NoEngine(RuntimeError):
    """The engine is not installed (the message says what to install)."""


def launch(name: str) -> Browser:
    """Start the engine ``name`` ("firefox", "webkit").

    Raises:
        NoEngine: when its Debian package is missing.
    """
    missing = missing_engine(name)
    if missing:
        raise NoEngine(missing)
    programs = [str(path) for path in engine_programs(name)]
    if name == "firefox":
        from firefox_bidi import Firefox

        return Firefox(*programs)
    from webkit_webdriver import WebKit

    return WebKit(*programs)


def wait(tab: Tab, predicate: str, *args: Any, timeout_s: float = 60, what: str = "") -> Any:
    """Poll the JavaScript function ``predicate`` until it gives a truthy value; that value."""
    deadline = time.monotonic() + timeout_s
    while True:
        got = tab.evaluate(predicate, *args)
        if got:
            return got
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout_s} s for {what or predicate}")
        time.sleep(0.1)


def until(check: Callable[[], Any], timeout_s: float = 60, what: str = "") -> Any:
    """Poll ``check`` (Python) until it gives a truthy value; that value."""
    deadline = time.monotonic() + timeout_s
    while not (got := check()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout_s} s for {what}")
        time.sleep(0.1)
    return got
