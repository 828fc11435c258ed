"""Fixtures for the Foundry module's browser tests: the stand-in page and the real bridge.

The stand-in page (tests/foundry/standin/) is served from the repository root by a small
HTTP server on 127.0.0.1 (a free port), so the module's real files load as Foundry would load
them. The bridge is the real `background-battle-bridge`, started as a subprocess on 127.0.0.1
with a free port, fresh data and fixed tokens.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

ROOT = Path(__file__).resolve().parents[2]
GM_TOKEN = "gm-token-for-tests-0123456789"
PLAYER_TOKEN = "player-token-for-tests-0123456789"
CHROMIUM = "/usr/bin/chromium"
ADDRESS = re.compile(r"Background Battle bridge: http://127\.0\.0\.1:(\d+)/")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """The repository served over HTTP on 127.0.0.1; yields its origin."""
    handler = functools.partial(_QuietHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _bridge_command() -> list[str]:
    script = Path(sys.executable).parent / "background-battle-bridge"
    if script.exists():
        return [str(script)]
    found = shutil.which("background-battle-bridge")
    if found:
        return [found]
    return [sys.executable, "-m", "background_battle_bridge.server"]


class Bridge:
    """The real bridge as a subprocess; `stop()` and `start()` keep its port and data."""

    def __init__(self, data: Path, origin: str) -> None:
        self.data = data
        self.origin = origin
        self.port = 0
        self.gm_token = GM_TOKEN
        self.player_token = PLAYER_TOKEN
        self.process: subprocess.Popen[str] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        command = [
            *_bridge_command(),
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            "--gm-token",
            GM_TOKEN,
            "--player-token",
            PLAYER_TOKEN,
            "--origin",
            self.origin,
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("BB_")}
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        assert self.process.stdout is not None
        lines = []
        for line in self.process.stdout:
            lines.append(line)
            found = ADDRESS.search(line)
            if found:
                self.port = int(found.group(1))
                break
        else:
            raise RuntimeError("the bridge did not start:\n" + "".join(lines))
        # Keep reading its output so that the pipe never fills up.
        threading.Thread(target=self.process.stdout.read, daemon=True).start()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@pytest.fixture
def bridge(tmp_path: Path, site: str) -> Iterator[Bridge]:
    running = Bridge(tmp_path / "bridge-data", site)
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    args = dict(browser_type_launch_args)
    if Path(CHROMIUM).exists():
        args["executable_path"] = CHROMIUM
    args["args"] = [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    return args


def standin_url(site: str, **params: Any) -> str:
    """The stand-in page's address with its query (user, gm, active, system, url, tokens...)."""
    clean = {k: v for k, v in params.items() if v is not None}
    return f"{site}/tests/foundry/standin/index.html?{urlencode(clean)}"


@pytest.fixture
def open_foundry(site: str, bridge: Bridge) -> Callable[..., Any]:
    """Opens the stand-in world in a page as a user, and the panel from the token controls.

    Keywords: user (gm1, gm2, player1), active (the active GM's id), system (e.g. wfrp4e),
    gm_token / player_token (None: not set), url (default: the bridge's), battle (preselected).
    """
    from playwright.sync_api import Page, expect

    def open_page(
        page: Page,
        *,
        user: str = "gm1",
        active: str = "gm1",
        system: str | None = None,
        gm_token: str | None = GM_TOKEN,
        player_token: str | None = PLAYER_TOKEN,
        url: str | None = None,
        battle: str | None = None,
        tokens: int = 4,
    ) -> Any:
        page.goto(
            standin_url(
                site,
                user=user,
                active=active,
                system=system,
                url=url or bridge.url,
                gmToken=gm_token,
                playerToken=player_token,
                battle=battle,
                tokens=tokens,
            )
        )
        expect(page.locator("body")).to_have_attribute("data-ready", "1")
        page.click("button[data-tool='background-battle']")
        panel = page.locator("#background-battle-panel")
        expect(panel).to_be_visible()
        return panel

    return open_page
