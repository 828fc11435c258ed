"""Memory held for readers: bounded per connection, and for all of them together.

A reader whose unsent data passes `limit` bytes is closed (1013) so that nobody else waits for
it; it reconnects with `since_version` and catches up. The close has a deadline that covers
the drain (`connection.py`): a reader that never reads is aborted `close_timeout` seconds
later, its buffers freed. The fan-out checks before it writes to a connection, so a
connection's buffer stays under `limit` plus one frame (at most `max_message`).

The bytes buffered for every connection together (the watchers' and the ones being closed)
have a ceiling: past it, a new watcher is refused (`error overloaded`) until the slow readers
are gone.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Iterable

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from . import heap
from .protocol import ProtocolError

log = logging.getLogger("background_battle_bridge")

SLOW_READER_BYTES = 1024 * 1024
BUFFERED_CEILING = 64 * 1024 * 1024  # for every connection together
MIB = 1024 * 1024


class Eviction:
    """Closes a connection whose unsent data passed `limit` bytes; keeps the ones being closed
    until they are gone (counted in `buffered`), then gives the memory back (`heap.py`)."""

    def __init__(self, limit: int = SLOW_READER_BYTES, ceiling: int = BUFFERED_CEILING) -> None:
        self.limit = limit
        self.ceiling = ceiling
        self._closing: dict[ServerConnection, asyncio.Task[None]] = {}

    def too_slow(self, ws: ServerConnection) -> bool:
        """True when nothing more may be written to it: it is closing, or it reads too slowly
        (and is being closed now)."""
        if ws.state is not State.OPEN or ws in self._closing:
            return True
        transport = ws.transport
        if transport is None or transport.get_write_buffer_size() <= self.limit:
            return False
        log.warning("closing a client that reads too slowly")
        task = asyncio.get_running_loop().create_task(ws.close(1013, "reader too slow"))
        self._closing[ws] = task
        task.add_done_callback(functools.partial(self._gone, ws))
        return True

    def _gone(self, ws: ServerConnection, _: asyncio.Task[None]) -> None:
        """A reader closed: once the last of a burst is gone, its memory goes back."""
        self._closing.pop(ws, None)
        if not self._closing:
            heap.give_back()

    def buffered(self, connections: Iterable[ServerConnection]) -> int:
        """Bytes waiting to be sent: to `connections` and to the readers being closed."""
        held = 0
        for ws in set(connections) | set(self._closing):
            held += ws.transport.get_write_buffer_size()
        return held

    def admit_watcher(self, connections: Iterable[ServerConnection]) -> None:
        """Refuse a new watcher while the bytes buffered for everyone are past the ceiling.

        Raises:
            ProtocolError: `overloaded`.
        """
        held = self.buffered(connections)
        if held > self.ceiling:
            raise ProtocolError(
                "overloaded",
                f"the bridge holds {held / MIB:.1f} MiB for clients that read slowly (at most "
                f"{self.ceiling / MIB:g} MiB): no new watcher until they are gone; try again "
                "in a few seconds",
                field="battle",
                params={"max": self.ceiling, "buffered": held},
            )
