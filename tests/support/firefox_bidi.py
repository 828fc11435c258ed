"""Debian's Firefox ESR driven over WebDriver BiDi (the W3C protocol Firefox speaks natively).

Firefox is started headless with its Remote Agent on a free port (``--remote-debugging-port=0``,
the address read from its stderr line "WebDriver BiDi listening on ws://..."), then a BiDi-only
session is opened on that socket (https://w3c.github.io/webdriver-bidi/#transport). No
geckodriver, no download: the browser is the one apt installed. Each tab is in a user context of
its own (``browser.createUserContext``): its own storage, cookies and service workers, as another
device would have. Clicks and keys are real input (``input.performActions``).
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

from in_view import STEADY_IN_VIEW
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

FIREFOX = "/usr/bin/firefox-esr"
LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
START_TIMEOUT_S = 120
COMMAND_TIMEOUT_S = 180
# The user.js of the throwaway profile: no first-run pages, no update or telemetry traffic, the
# page in English (the Remote Agent adds its own recommended preferences on top).
PREFS = {
    "intl.accept_languages": "en-US",
    "intl.locale.requested": "en-US",
    "browser.shell.checkDefaultBrowser": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.aboutwelcome.enabled": False,
}
# WebDriver's key codes (https://w3c.github.io/webdriver/#keyboard-actions)
CONTROL, BACKSPACE = "\ue009", "\ue003"


class BidiError(RuntimeError):
    """A command the browser refused, with its error and message."""


class Firefox:
    """One Firefox process and its BiDi session; ``tab()`` opens an isolated tab."""

    name = "firefox"

    def __init__(self, executable: str = FIREFOX) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="bb-firefox-"))
        prefs = "".join(f'user_pref("{k}", {json.dumps(v)});\n' for k, v in PREFS.items())
        (self.profile / "user.js").write_text(prefs)
        profile = ("--profile", str(self.profile), "about:blank")
        self.process = subprocess.Popen(
            [executable, "--headless", "--no-remote", "--remote-debugging-port=0", *profile],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        address = self._address()
        self.ws: ClientConnection = connect(
            f"{address}/session", max_size=None, open_timeout=60, legacy=True
        )
        self._sent = 0
        self._lock = threading.Lock()
        self.version = self.send("session.new", {"capabilities": {}})["capabilities"][
            "browserVersion"
        ]
        self.errors: list[str] = []  # uncaught errors in any tab, as they come
        self.console: list[tuple[str, str]] = []  # (level, text) of what pages log
        self.send("session.subscribe", {"events": ["log.entryAdded"]})

    def _address(self) -> str:
        assert self.process.stderr is not None
        seen: list[str] = []
        timer = threading.Timer(START_TIMEOUT_S, self.process.kill)
        timer.start()
        try:
            for line in self.process.stderr:
                seen.append(line)
                if found := LISTENING.search(line):
                    break
            else:
                raise BidiError(f"Firefox did not start its Remote Agent: {''.join(seen)[-2000:]}")
        finally:
            timer.cancel()
        # keep reading stderr so that Firefox never blocks on a full pipe
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        return found.group(1)

    def send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """One command and its result; events that come before it are kept (page errors)."""
        with self._lock:
            self._sent += 1
            wanted = self._sent
            self.ws.send(json.dumps({"id": wanted, "method": method, "params": params}))
            while True:
                message = json.loads(self.ws.recv(timeout=COMMAND_TIMEOUT_S))
                if message.get("type") == "event":
                    self._event(message)
                elif message.get("id") == wanted:
                    if message.get("type") == "error":
                        raise BidiError(f"{method}: {message['error']}: {message['message']}")
                    return message["result"]  # type: ignore[no-any-return]

    def _event(self, message: dict[str, Any]) -> None:
        entry = message["params"]
        if message["method"] != "log.entryAdded":
            return
        if entry.get("type") == "javascript":
            self.errors.append(str(entry.get("text")))
        elif entry.get("type") == "console":
            self.console.append((str(entry.get("level")), str(entry.get("text"))))

    def tab(self) -> FirefoxTab:
        user = self.send("browser.createUserContext", {})["userContext"]
        context = self.send("browsingContext.create", {"type": "tab", "userContext": user})
        return FirefoxTab(self, context["context"])

    def close(self) -> None:
        # the socket may close before the answer comes
        with contextlib.suppress(BidiError, OSError, ConnectionClosed):
            self.send("browser.close", {})
        self.ws.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


class FirefoxTab:
    """A tab (a top-level browsing context) of its own user context."""

    def __init__(self, browser: Firefox, context: str) -> None:
        self.browser = browser
        self.context = context

    def goto(self, url: str) -> None:
        self.browser.send(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def reload(self) -> None:
        self.browser.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def evaluate(self, function: str, *args: Any) -> Any:
        """``function`` (JavaScript source of a function, maybe async) called with ``args``; its
        result through JSON."""
        result = self._call(
            "async (given) => JSON.stringify((await (" + function + ")(...JSON.parse(given)))"
            " ?? null)",
            [{"type": "string", "value": json.dumps(args)}],
        )
        return json.loads(result["value"])

    def _call(self, declaration: str, arguments: list[dict[str, Any]]) -> dict[str, Any]:
        answer = self.browser.send(
            "script.callFunction",
            {
                "functionDeclaration": declaration,
                "arguments": arguments,
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": "none",
                "serializationOptions": {"maxDomDepth": 0},
            },
        )
        if answer["type"] == "exception":
            raise BidiError(answer["exceptionDetails"]["text"])
        return answer["result"]  # type: ignore[no-any-return]

    def _element(self, selector: str) -> dict[str, Any]:
        found = self._call(STEADY_IN_VIEW, [{"type": "string", "value": selector}])
        return {"sharedId": found["sharedId"]}

    def click(self, selector: str) -> None:
        """A real click (pointer down and up) at the middle of the element."""
        origin = {"type": "element", "element": self._element(selector)}
        self._act(
            [
                {
                    "type": "pointer",
                    "id": "mouse",
                    "actions": [
                        {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0},
                    ],
                }
            ]
        )

    def type(self, selector: str, text: str) -> None:
        """Click into the field, select what is there, and type ``text`` key by key."""
        self.click(selector)
        keys = [
            {"type": "keyDown", "value": CONTROL},
            {"type": "keyDown", "value": "a"},
            {"type": "keyUp", "value": "a"},
            {"type": "keyUp", "value": CONTROL},
            {"type": "keyDown", "value": BACKSPACE},
            {"type": "keyUp", "value": BACKSPACE},
        ]
        for char in text:
            keys += [{"type": "keyDown", "value": char}, {"type": "keyUp", "value": char}]
        self._act([{"type": "key", "id": "keyboard", "actions": keys}])

    def _act(self, actions: list[dict[str, Any]]) -> None:
        self.browser.send("input.performActions", {"context": self.context, "actions": actions})
        self.browser.send("input.releaseActions", {"context": self.context})

    def close(self) -> None:
        self.browser.send("browsingContext.close", {"context": self.context})
