"""The real bridge in a thread of the test's process, so that a test reads the bridge's own
registry of connections (`Audience.clients`) rather than counting sockets in a page; `restart()`
stops it (every connection closed, as a bridge that goes away) and starts it again on the same
port with the same battles (its in-memory storage kept)."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from background_battle_bridge.audience import Client
from background_battle_bridge.guard import Tokens
from background_battle_bridge.server import Bridge, Config, serve_bridge
from background_battle_bridge.storage import MemoryStorage

T = TypeVar("T")


class BridgeThread:
    """`start()` returns once it listens; `url` is its WebSocket; `connections()` the Foundry
    modules connected now, by role; `joined` every Foundry module welcomed since the last start,
    by role."""

    def __init__(self, data: Path, origin: str, gm_token: str, player_token: str) -> None:
        self.data, self.origin = data, origin
        self.tokens = Tokens(gm_token, player_token)
        self.storage = MemoryStorage()
        self.port = 0
        self.joined: Counter[str] = Counter()
        self._bridge: Bridge | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopped: asyncio.Future[None] | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> BridgeThread:
        ready = threading.Event()
        self.joined = Counter()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_until_complete, args=(self._run(ready),), daemon=True
        )
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the bridge did not start")
        return self

    def stop(self) -> None:
        if self._loop is None or self._thread is None:
            return
        if self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set_result, None)
        self._thread.join(15)
        self._loop.close()
        self._loop = self._thread = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def connections(self) -> Counter[str]:
        """The Foundry modules in the bridge's registry now (after their `hello`), by role."""

        async def count() -> Counter[str]:
            assert self._bridge is not None
            return _foundry_roles(self._bridge.hub.audience.clients)

        return self._in_loop(count)

    def _in_loop(self, make: Callable[[], Awaitable[T]]) -> T:
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(_awaited(make), self._loop).result(10)

    async def _run(self, ready: threading.Event) -> None:
        self._stopped = asyncio.get_running_loop().create_future()
        config = Config(
            host="127.0.0.1", port=self.port, data_dir=self.data, origins=frozenset({self.origin})
        )
        bridge = Bridge(config, self.tokens, self.storage)
        joining = bridge.hub.join

        async def join(client: Client, hello: dict[str, Any]) -> list[dict[str, Any]]:
            self.joined.update(_foundry_roles([client]))
            return await joining(client, hello)

        bridge.hub.join = join  # type: ignore[method-assign]
        bridge.hub.restore()
        bridge.hub.start()
        self._bridge = bridge
        try:
            async with serve_bridge(bridge) as server:
                self.port = server.sockets[0].getsockname()[1]
                ready.set()
                await self._stopped
        finally:
            await bridge.hub.close()


def _foundry_roles(clients: Any) -> Counter[str]:
    return Counter(client.role for client in clients if client.kind == "foundry")


async def _awaited(make: Callable[[], Awaitable[T]]) -> T:
    return await make()
