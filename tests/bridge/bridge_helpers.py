"""Shared helpers of the bridge tests: a protocol-speaking client and a running bridge."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from background_battle_bridge.server import Bridge, Config

GM = "gm-token-for-tests"
PLAYER = "player-token-for-tests"
WAIT = 20  # seconds: only a guard against a hang, never a measured assertion

ORCS = {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12, "strength": 26}
StartBridge = Callable[..., Any]  # the `start_bridge` fixture: (storage=None, **config) -> Running
DWARVES = {"type": "add_unit", "name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30}
STARTING = (ORCS, DWARVES, {"type": "start"})  # a player is told of a started battle only


class Peer:
    """A websocket client speaking the bridge protocol."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self._ids = 0
        self._prefix = uuid.uuid4().hex[:8]

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        await self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    async def recv(self) -> dict[str, Any]:
        async with asyncio.timeout(WAIT):
            frame = await self.ws.recv()
        message: dict[str, Any] = json.loads(frame)
        return message

    async def until(self, kind: str) -> dict[str, Any]:
        """The next message of a type, skipping broadcasts of other types (never an error)."""
        while True:
            message = await self.recv()
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    async def ask(self, message: dict[str, Any], kind: str | None = None) -> dict[str, Any]:
        await self.send(message)
        return await (self.until(kind) if kind else self.recv())

    async def hello(self, token: str = GM, client: str = "cli", **extra: Any) -> dict[str, Any]:
        return await self.ask({"type": "hello", "token": token, "client": client, **extra})

    def next_id(self) -> str:
        self._ids += 1
        return f"{self._prefix}-{self._ids}"

    async def command(self, battle: str, command: dict[str, Any], **extra: Any) -> dict[str, Any]:
        """Send a command; its `ack` or `error` (events and battle lists on the way skipped)."""
        message = {"type": "command", "id": extra.pop("id", None) or self.next_id()}
        await self.send({**message, "battle": battle, "command": command, **extra})
        while True:
            reply = await self.recv()
            if reply["type"] in ("ack", "error") and reply.get("id") == message["id"]:
                return reply
            assert reply["type"] in ("battles", "event"), reply

    async def create(self, battle: str) -> dict[str, Any]:
        return await self.command(battle, {"type": "create_battle"})


async def started(gm: Peer, battle: str = "ambush") -> None:
    """A new battle, set up and started (version 3): one players are told of."""
    await gm.create(battle)
    for command in STARTING:
        reply = await gm.command(battle, command)
        assert reply["type"] == "ack", reply


@dataclass
class Running:
    bridge: Bridge
    port: int
    stack: AsyncExitStack

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def peer(self, **kwargs: Any) -> Peer:
        ws = await self.stack.enter_async_context(connect(self.url, **kwargs))
        return Peer(ws)

    async def gm(self, client: str = "cli", **extra: Any) -> Peer:
        peer = await self.peer()
        welcome = await peer.hello(GM, client, **extra)
        assert welcome["type"] == "welcome" and welcome["role"] == "gm"
        return peer

    async def player(self, **extra: Any) -> Peer:
        peer = await self.peer()
        welcome = await peer.hello(PLAYER, "web", **extra)
        assert welcome["type"] == "welcome" and welcome["role"] == "player"
        return peer


def make_config(tmp_path: Path, **changes: Any) -> Config:
    return replace(Config(host="127.0.0.1", port=0, data_dir=tmp_path, web_dir=None), **changes)


COMMAND = [sys.executable, "-m", "background_battle_bridge.server"]
ADDRESS = re.compile(r"http://127\.0\.0\.1:(\d+)/")
# Windows cannot send SIGTERM to another process (Popen.terminate kills it outright): there the
# bridge runs in a process group of its own and is stopped with Ctrl-Break (SIGBREAK).
WINDOWS = sys.platform == "win32"
OWN_GROUP = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
# The exit code of a process killed outright (kill -9; TerminateProcess gives 1).
KILLED = 1 if WINDOWS else -9
CTRL_BREAK = getattr(signal, "CTRL_BREAK_EVENT", signal.SIGTERM)


def stop_gently(process: subprocess.Popen[str]) -> None:
    """What Ctrl-C or SIGTERM does: the bridge closes its connections and its data, exit 0."""
    process.send_signal(CTRL_BREAK if WINDOWS else signal.SIGTERM)


TOKENS_ENV = {**os.environ, "BB_GM_TOKEN": GM, "BB_PLAYER_TOKEN": PLAYER}  # never in `ps`


def said(text: str) -> str:
    """What a command printed, as one line: its 80-column wrapping undone (columns.py)."""
    return " ".join(text.split())


def one_message(text: str) -> bool:
    """Whether `text` is one message, however it was wrapped: a first line, then only its
    continuation lines (indented)."""
    lines = text.splitlines()
    return (
        bool(lines)
        and not lines[0].startswith(" ")
        and all(line.startswith("  ") for line in lines[1:])
    )


def run_bridge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The command line run to its end (a care command, or a bridge that refuses to start)."""
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
    )


@contextmanager
def spawned(args: list[str], env: dict[str, str]) -> Iterator[subprocess.Popen[str]]:
    """The real bridge (or a care command) run with `args`, its output piped; stopped with
    SIGTERM (CTRL_BREAK on Windows) when the block ends, its pipes closed."""
    process = subprocess.Popen(
        [*COMMAND, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        creationflags=OWN_GROUP,
        env=env,
    )
    try:
        yield process
    finally:
        stop_gently(process)
        process.wait(timeout=30)
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


def start_up_lines(*args: str, env: dict[str, str] | None = None) -> list[str]:
    """What the real bridge started with `args` prints at start, up to its last start-up line
    (it ends with `tokens --new)`); then it is stopped gently, and must exit 0."""
    with spawned(list(args), env or dict(os.environ)) as process:
        assert process.stdout is not None
        lines: list[str] = []
        while not lines or not lines[-1].rstrip().endswith("--new)"):
            line = process.stdout.readline()
            assert line, "".join(lines)
            lines.append(line)
    assert process.returncode == 0, "".join(lines)
    return lines


@contextmanager
def bridge_running(data: Path) -> Iterator[subprocess.Popen[str]]:
    """The real bridge over `data` on a free port, its output piped; stopped with SIGTERM."""
    with spawned(["--port", "0", "--data", str(data)], TOKENS_ENV) as process:
        yield process


@contextmanager
def serving(data: Path) -> Iterator[int]:
    """The real bridge on a free port over `data`; yields its port."""
    with bridge_running(data) as process:
        assert process.stdout is not None
        found = ADDRESS.search(process.stdout.readline())
        assert found, process.stderr.read() if process.stderr else ""
        yield int(found.group(1))
