"""A real bridge on a free loopback port, real websocket clients, memory or SQLite storage."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from bridge_helpers import GM, PLAYER, Running, make_config

from background_battle_bridge.guard import Tokens
from background_battle_bridge.server import Bridge, serve_bridge
from background_battle_bridge.storage import MemoryStorage, SqliteStorage, Storage

StartBridge = Callable[..., Any]


@pytest.fixture
async def start_bridge(tmp_path: Path) -> AsyncIterator[StartBridge]:
    """Start bridges (several may run, e.g. before and after a restart); all stop at the end."""
    async with AsyncExitStack() as outer:

        async def start(
            storage: Storage | None = None, tokens: Tokens | None = None, **changes: Any
        ) -> Running:
            config = make_config(tmp_path, **changes)
            tokens = tokens or Tokens(gm=GM, player=PLAYER)
            bridge = Bridge(config, tokens, storage or MemoryStorage())
            bridge.hub.restore()
            bridge.hub.start()
            stack = await outer.enter_async_context(AsyncExitStack())
            stack.push_async_callback(bridge.hub.close)
            server = await stack.enter_async_context(serve_bridge(bridge))
            return Running(bridge, server.sockets[0].getsockname()[1], stack)

        yield start


@pytest.fixture(params=["memory", "sqlite"])
def storage_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Storage]:
    """Both stores: the in-memory twin and SQLite on a file (reopened by each call)."""

    def make() -> Storage:
        if request.param == "memory":
            if not hasattr(make, "memory"):
                make.memory = MemoryStorage()  # type: ignore[attr-defined]
            return make.memory  # type: ignore[attr-defined,no-any-return]
        return SqliteStorage(tmp_path / "battles.sqlite3")

    return make


@pytest.fixture
async def running(start_bridge: StartBridge) -> Running:
    result: Running = await start_bridge()
    return result
