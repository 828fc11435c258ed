"""The Foundry server of one world, as the stand-in pages (tests/foundry/standin/) see it.

Every page of a test is a client of one of these, on 127.0.0.1 and a free port, in a thread of
its own (a WebSocket over HTTP; `GET /world` answers the world as JSON, for a look from
outside). Like Foundry's server, it is where the world lives, and it takes its time:

- **The world's documents are the server's.** Tokens, the actors' effects, chat messages and
  world settings are changed by a *write* that a client sends; the server commits it and then
  sends it to every connected client, the writer's included, whose document changes only then
  (api v13 `hookEvents.updateDocument`: "fires for all connected clients"; a client's own
  update resolves once the server answered). A client that connects later, or a page that is
  reloaded, receives the world as it is now: every committed write in order. What a page held
  and never sent is gone with it; what it sent is committed even when the page is closed
  before the answer comes back.
- **Writes take time**: `latency` seconds between a write reaching the server and its commit
  (a hosted Foundry's round trip is some 40 ms; 0 by default, so most tests stay fast). A
  client's writes commit in the order sent, never overtaking one another.
- **`ready` comes late**: `ready_delay` seconds between a page's login (the other clients see
  the user connect at once, `userConnected`, `User#active`) and its `ready` hook, while the
  page loads the world (a page's `readyDelay` query overrides it).
- **Who is logged in** (`User#active`): every connected page, and users logged in from a
  computer that runs no page here (`log_in`, `log_out`); the others are told when one comes or
  goes (`hookEvents.userConnected`).
- A package's socket message (`game.socket.emit`) reaches every other client at once, never
  the sender.
"""

from __future__ import annotations

import asyncio
import http
import json
import threading
from collections import Counter
from typing import Any
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import ServerConnection, broadcast, serve
from websockets.http11 import Request, Response

Message = dict[str, Any]


class FoundryServer:
    """`start()` returns once listening; `url` is its WebSocket address; `stop()` closes it.

    `latency` and `ready_delay` (seconds) may be changed at any time; a write takes the
    latency in force when it reaches the server.
    """

    def __init__(self, *, latency: float = 0.0, ready_delay: float = 0.0) -> None:
        self.latency = latency
        self.ready_delay = ready_delay
        self.settings: dict[str, Any] = {}
        self.writes: list[Message] = []  # every committed document write, in order: the world
        self.clients: set[ServerConnection] = set()
        self.users: dict[ServerConnection, str] = {}  # whose page each connection is
        self.logged_in: Counter[str] = Counter()  # pages and other computers, per user
        self.url = ""
        self.http_url = ""
        self._loop = asyncio.new_event_loop()
        self._stopped: asyncio.Future[None] | None = None
        self._ready = threading.Event()
        self._workers: set[asyncio.Task[None]] = set()
        self._thread = threading.Thread(target=self._run, daemon=True)

    # --- from the test's thread -------------------------------------------------------------
    def start(self) -> None:
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("the stand-in Foundry server did not start")

    def stop(self) -> None:
        stopped = self._stopped
        if stopped is not None:
            self._loop.call_soon_threadsafe(stopped.set_result, None)
        self._thread.join(10)

    def log_in(self, user: str) -> None:
        """A user logs in from a computer that runs no page of this test."""
        self._call(self._presence, user, +1)

    def log_out(self, user: str) -> None:
        self._call(self._presence, user, -1)

    def world(self) -> Message:
        """The world as the server holds it: settings, committed writes, who is logged in."""
        return asyncio.run_coroutine_threadsafe(self._snapshot(), self._loop).result(10)

    def _call(self, fn: Any, *args: Any) -> None:
        done = asyncio.run_coroutine_threadsafe(self._run_soon(fn, *args), self._loop)
        done.result(10)

    @staticmethod
    async def _run_soon(fn: Any, *args: Any) -> None:
        fn(*args)

    # --- in the server's thread -------------------------------------------------------------
    def _run(self) -> None:
        self._loop.run_until_complete(self._serve())

    async def _serve(self) -> None:
        self._stopped = self._loop.create_future()
        async with serve(self._client, "127.0.0.1", 0, process_request=self._http) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            self.url = f"ws://127.0.0.1:{port}"
            self.http_url = f"http://127.0.0.1:{port}"
            self._ready.set()
            await self._stopped
        for worker in list(self._workers):
            worker.cancel()

    async def _snapshot(self) -> Message:
        return json.loads(json.dumps(self._world_message()))  # type: ignore[no-any-return]

    def _world_message(self) -> Message:
        return {
            "type": "world",
            "settings": self.settings,
            "writes": self.writes,
            "users": sorted(u for u, n in self.logged_in.items() if n > 0),
            "readyDelay": round(self.ready_delay * 1000),
        }

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """`GET /world`: the world as JSON; anything else goes on to the WebSocket handshake."""
        if urlsplit(request.path).path != "/world":
            return None
        response = connection.respond(http.HTTPStatus.OK, json.dumps(self._world_message()))
        response.headers["Content-Type"] = "application/json"
        return response

    def _presence(self, user: str, change: int) -> None:
        """Counts a user's pages and other logins; tells every page when the user comes or goes."""
        before = self.logged_in[user] > 0
        self.logged_in[user] = max(0, self.logged_in[user] + change)
        now = self.logged_in[user] > 0
        if before != now:
            message = {"type": "user", "user": user, "connected": now}
            broadcast(self.clients, json.dumps(message))

    async def _client(self, ws: ServerConnection) -> None:
        path = ws.request.path if ws.request else ""
        user = parse_qs(urlsplit(path).query).get("user", ["?"])[0]
        self._presence(user, +1)
        self.clients.add(ws)
        self.users[ws] = user
        arrivals: asyncio.Queue[tuple[float, Message] | None] = asyncio.Queue()
        worker = asyncio.create_task(self._commit_in_order(arrivals, user))
        self._workers.add(worker)
        worker.add_done_callback(self._workers.discard)
        try:
            await ws.send(json.dumps(self._world_message()))
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "emit":
                    broadcast([c for c in self.clients if c is not ws], json.dumps(message))
                elif message["type"] in ("write", "setting"):
                    arrivals.put_nowait((self._loop.time() + self.latency, message))
        finally:
            arrivals.put_nowait(None)  # what reached the server is committed all the same
            self.clients.discard(ws)
            self.users.pop(ws, None)
            self._presence(user, -1)

    async def _commit_in_order(
        self, arrivals: asyncio.Queue[tuple[float, Message] | None], user: str
    ) -> None:
        """Commits one client's writes in the order they came, each `latency` after it came."""
        while (arrival := await arrivals.get()) is not None:
            due, message = arrival
            wait = due - self._loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self._commit(message, user)

    def _commit(self, message: Message, user: str) -> None:
        if message["type"] == "setting":
            self.settings[message["key"]] = message["value"]
            broadcast(self.clients, json.dumps(message))
            return
        write = {**message["write"], "user": user}
        self.writes.append(write)
        done = {"type": "written", "request": message["request"], "write": write}
        broadcast(self.clients, json.dumps(done))
