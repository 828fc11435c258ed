"""Debian's WebKitGTK (Safari's engine family) driven over W3C WebDriver.

``WebKitWebDriver`` (package webkit2gtk-driver) starts WebKitGTK's MiniBrowser in automation
mode; it needs a display, so each ``WebKit`` runs its own Xvfb (package xvfb). The protocol is
WebDriver's HTTP one (https://w3c.github.io/webdriver/), spoken here with the standard library.
Each tab is a session of its own: a fresh, ephemeral profile, as another device would have.
Clicks and keys are WebDriver's Element Click and Element Send Keys (real input).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any

from in_view import STEADY_IN_VIEW

DRIVER = "/usr/bin/WebKitWebDriver"
XVFB = "/usr/bin/Xvfb"
START_TIMEOUT_S = 60
COMMAND_TIMEOUT_S = 300
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"  # WebDriver's key of an element reference


class WebDriverError(RuntimeError):
    """A command the driver refused, with its error and message."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class WebKit:
    """One Xvfb; ``tab()`` starts a WebKitWebDriver and its session (an isolated MiniBrowser).

    WebKitWebDriver holds one session at a time, so each tab has a driver of its own."""

    name = "webkit"

    def __init__(self, driver: str = DRIVER, xvfb: str = XVFB) -> None:
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [xvfb, "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as display:
            self.display = f":{display.readline().strip()}"
        if self.display == ":":
            stop(self.xvfb)
            raise WebDriverError("Xvfb did not start")
        self.driver = driver
        self.tabs: list[WebKitTab] = []
        self.version = ""
        self.errors: list[str] = []  # WebDriver's HTTP protocol does not report page errors

    def tab(self) -> WebKitTab:
        made = WebKitTab(Driver(self.driver, self.display))
        self.version = made.version
        self.tabs.append(made)
        return made

    def close(self) -> None:
        for tab in self.tabs:
            tab.close()
        stop(self.xvfb)


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Driver:
    """One WebKitWebDriver process on a free port of 127.0.0.1."""

    def __init__(self, program: str, display: str) -> None:
        port = free_port()
        self.process = subprocess.Popen(
            [program, f"--port={port}"],
            env={**os.environ, "DISPLAY": display, "LANG": "en_US.UTF-8", "LANGUAGE": "en"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                self.request("GET", "/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    stop(self.process)
                    raise WebDriverError("WebKitWebDriver did not answer") from None
                time.sleep(0.1)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=COMMAND_TIMEOUT_S) as answer:
                return json.loads(answer.read())["value"]
        except urllib.error.HTTPError as refused:
            value = json.loads(refused.read() or b"{}").get("value", {})
            raise WebDriverError(
                f"{method} {path}: {value.get('error')}: {value.get('message')}"
            ) from None


# Calls `function` with the arguments (JSON) and gives back its result through JSON, or the error.
ASYNC_CALL = """
const done = arguments[arguments.length - 1];
const run = (%s);
Promise.resolve()
  .then(() => run(...JSON.parse(arguments[0])))
  .then((result) => done(JSON.stringify({ result: result ?? null })))
  .catch((error) => done(JSON.stringify({ error: String((error && error.stack) || error) })));
"""


class WebKitTab:
    """One WebDriver session (its own driver): a MiniBrowser window with a profile of its own."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        try:
            made = driver.request("POST", "/session", {"capabilities": {"alwaysMatch": {}}})
        except (OSError, WebDriverError):
            stop(driver.process)
            raise
        self.session = made["sessionId"]
        self.version = str(made["capabilities"]["browserVersion"])
        self.closed = False
        self._send("POST", "/timeouts", {"script": COMMAND_TIMEOUT_S * 1000})

    def _send(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.driver.request(method, f"/session/{self.session}{path}", body)

    def goto(self, url: str) -> None:
        self._send("POST", "/url", {"url": url})

    def reload(self) -> None:
        self._send("POST", "/refresh", {})

    def evaluate(self, function: str, *args: Any) -> Any:
        """``function`` (JavaScript source of a function, maybe async) called with ``args``; its
        result through JSON."""
        answer = json.loads(
            self._send(
                "POST",
                "/execute/async",
                {"script": ASYNC_CALL % function, "args": [json.dumps(args)]},
            )
        )
        if "error" in answer:
            raise WebDriverError(answer["error"])
        return answer["result"]

    def _element(self, selector: str) -> str:
        # WebKitWebDriver's Element Click does not scroll the element into view (2.50: "element
        # not interactable" below the fold), so the page brings it into view, steady, first
        # (the element itself does not cross WebDriver's JSON: "true" once it is there).
        self.evaluate(f"async (selector) => Boolean(await ({STEADY_IN_VIEW})(selector))", selector)
        found = self._send("POST", "/element", {"using": "css selector", "value": selector})
        return str(found[ELEMENT])

    def click(self, selector: str) -> None:
        self._send("POST", f"/element/{self._element(selector)}/click", {})

    def type(self, selector: str, text: str) -> None:
        """Empty the field, then type ``text`` key by key."""
        element = self._element(selector)
        self._send("POST", f"/element/{element}/clear", {})
        self._send("POST", f"/element/{element}/value", {"text": text})

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            with contextlib.suppress(OSError, WebDriverError):
                self._send("DELETE", "")
            stop(self.driver.process)
