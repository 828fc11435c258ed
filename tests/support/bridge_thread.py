"""The real bridge in a thread of the test's process, so that a test reads what it holds: its
own registry of connections (`Audience.clients`) rather than sockets counted in a page, what it
says to the GM (`said`: a Foundry asking to join, its code), with the test's clock for codes.
`restart()` stops it (every connection closed, as a bridge that goes away) and starts it again
on the same port with the same battles (its in-memory storage kept) and the origins its data
folder remembers."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from background_battle_bridge.audience import Client
from background_battle_bridge.guard import DEFAULT_ORIGINS, Tokens
from background_battle_bridge.origins import Remembered
from background_battle_bridge.pairing import Pairing
from background_battle_bridge.server import Bridge, Config, serve_bridge
from background_battle_bridge.storage import MemoryStorage

T = TypeVar("T")


class BridgeThread:
    """`start()` returns once it listens (on `port`, 0: a free one); `url` is its WebSocket;
    `connections()` the Foundry modules connected now, by role; `joined` every Foundry module
    welcomed since the last start, by role. `origins`: the Foundry origins it allows (default:
    the bridge's defaults); `clock`: the time its codes go by (pairing.py)."""

    def __init__(
        self,
        data: Path,
        tokens: Tokens,
        *,
        origins: frozenset[str] = frozenset(DEFAULT_ORIGINS),
        clock: Callable[[], float] | None = None,
        port: int = 0,
    ) -> None:
        self.data, self.tokens, self.origins, self.clock = data, tokens, origins, clock
        self.storage = MemoryStorage()
        self.port = port
        self.said: list[str] = []
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
        self.said = []
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
        config = Config(host="127.0.0.1", port=self.port, data_dir=self.data, origins=self.origins)
        bridge = Bridge(
            config,
            self.tokens,
            self.storage,
            remembered=Remembered.load(self.data),
            pairing=Pairing(clock=self.clock) if self.clock else None,
            say=self.said.append,
        )
        registry = bridge.hub.audience
        joining = registry.join

        def join(client: Client) -> None:
            """Every client the registry takes in is counted (by role, the Foundry modules')."""
            self.joined.update(_foundry_roles([client]))
            joining(client)

        registry.join = join  # type: ignore[method-assign]
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
