"""Readers that fall behind are closed (1013) so that nobody else waits for them.

They reconnect with `since_version` and catch up. Runs while publishing, after the reply.
"""

from __future__ import annotations

import asyncio
import logging

from websockets.asyncio.server import ServerConnection

log = logging.getLogger("background_battle_bridge")

SLOW_READER_BYTES = 1024 * 1024


class Eviction:
    """Closes a connection whose unsent data passed `limit` bytes."""

    def __init__(self, limit: int = SLOW_READER_BYTES) -> None:
        self.limit = limit
        self._closing: set[asyncio.Task[None]] = set()

    def too_slow(self, ws: ServerConnection) -> bool:
        """True (and the connection is being closed) when it reads too slowly."""
        transport = ws.transport
        if transport is None or transport.get_write_buffer_size() <= self.limit:
            return False
        log.warning("closing a client that reads too slowly")
        task = asyncio.get_running_loop().create_task(ws.close(1013, "reader too slow"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return True
