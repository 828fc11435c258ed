"""The Foundry server as several clients of one world see it, for the stand-in pages.

Foundry's server keeps the world settings and tells every client when one changes (the client
that changed it too: the setting's onChange runs everywhere), passes a package's socket
message to every other connected client, never back to the sender, and tells the others when a
user connects or leaves (hookEvents.userConnected); a client that connects is told who is
logged in already (User#active). It also keeps the world's token documents:
an update of tokens reaches every other client (hookEvents.updateDocument fires on every
connected client), and a client that connects later receives the tokens as they are now, flags
and names included, whoever the user is. Each browser context of a
test opens the stand-in with `?server=ws://...` and talks to one of these, on 127.0.0.1 and a
free port, in a thread of its own.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, broadcast, serve


class FoundryServer:
    """`start()` returns once listening; `url` is its address; `stop()` closes it."""

    def __init__(self) -> None:
        self.settings: dict[str, Any] = {}
        self.token_updates: list[dict[str, Any]] = []  # every batch, in order: the world's tokens
        self.clients: set[ServerConnection] = set()
        self.users: dict[ServerConnection, str] = {}  # who is logged in, by connection
        self.url = ""
        self._loop = asyncio.new_event_loop()
        self._stopped: asyncio.Future[None] | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the stand-in Foundry server did not start")

    def stop(self) -> None:
        stopped = self._stopped
        if stopped is not None:
            self._loop.call_soon_threadsafe(stopped.set_result, None)
        self._thread.join(10)

    def _run(self) -> None:
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stopped = self._loop.create_future()
        async with serve(self._client, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            self.url = f"ws://127.0.0.1:{port}"
            self._ready.set()
            await self._stopped

    def _presence(self, ws: ServerConnection, user: str, connected: bool) -> None:
        message = {"type": "user", "user": user, "connected": connected}
        broadcast([c for c in self.clients if c is not ws], json.dumps(message))

    async def _client(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request else ""
        user = parse_qs(urlsplit(path).query).get("user", ["?"])[0]
        self._presence(ws, user, True)
        self.clients.add(ws)
        self.users[ws] = user
        try:
            hello = {
                "type": "settings",
                "values": self.settings,
                "tokens": self.token_updates,
                "users": sorted(set(self.users.values())),  # who is logged in now (User#active)
            }
            await ws.send(json.dumps(hello))
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "emit":
                    others = [c for c in self.clients if c is not ws]
                    broadcast(others, json.dumps(message))
                elif message["type"] == "tokens":
                    self.token_updates.append(message)
                    broadcast([c for c in self.clients if c is not ws], json.dumps(message))
                elif message["type"] == "setting":
                    self.settings[message["key"]] = message["value"]
                    broadcast(self.clients, json.dumps(message))
        finally:
            self.clients.discard(ws)
            self.users.pop(ws, None)
            self._presence(ws, user, False)
