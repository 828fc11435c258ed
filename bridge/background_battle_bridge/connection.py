"""A connection that is gone within a bounded time, whatever its peer does.

`websockets` (17.4, `asyncio/connection.py`, `send_context`) writes the close frame, then waits
for the transport to drain before its close deadline starts; the keepalive's `ping()` waits for
the same drain before its pong timeout starts. A peer that never reads never lets the transport
drain: `close()` and the keepalive wait forever, and the connection keeps its socket, its write
buffer and the kernel's send queue. Here both waits count from the start:

- `close()` ends within `close_timeout` seconds (the drain of what is queued included); past it
  the transport is aborted, with a reset that drops the kernel's send queue too (SO_LINGER 0).
  Every close goes through it: eviction, flood, a wrong token, the end of a handler, the
  server stopping.
- the keepalive's `ping()` must be written within `ping_timeout` seconds; a peer that cannot
  take in what is queued before it in that time is aborted the same way.

The kernel's send buffer is fixed at `SEND_BUFFER` bytes (the kernel doubles it for its own
bookkeeping): left to itself, Linux grows it to 4 MiB for a peer that does not read, all of it
held for that one connection, before the bridge sees any of its own buffer grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
from collections.abc import Awaitable

from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode
from websockets.typing import DataLike

log = logging.getLogger("background_battle_bridge")

SEND_BUFFER = 64 * 1024  # enough for 64 MB/s at 1 ms, 1.3 MB/s at 50 ms of round trip
# l_onoff 1, l_linger 0: close() resets the connection and drops what the kernel still holds
RESET = struct.pack("ii", 1, 0)


class Connection(ServerConnection):
    """`ServerConnection` whose close and keepalive have a deadline that covers the drain."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        super().connection_made(transport)

    async def close(
        self, code: CloseCode | int = CloseCode.NORMAL_CLOSURE, reason: str = ""
    ) -> None:
        """The closing handshake, or the transport aborted after `close_timeout` seconds."""
        if self.close_timeout is None:
            await super().close(code, reason)
            return
        try:
            async with asyncio.timeout(self.close_timeout):
                await super().close(code, reason)
        except TimeoutError:
            log.info("a connection did not close within %g s: aborted", self.close_timeout)
            await self.abort()

    async def ping(self, data: DataLike | None = None) -> Awaitable[float]:
        """Send a ping; a peer that does not take it (and what is queued before it) within
        `ping_timeout` seconds is aborted.

        Raises:
            ConnectionClosed: the connection is closed (or was aborted here).
        """
        if self.ping_timeout is None:
            return await super().ping(data)
        try:
            async with asyncio.timeout(self.ping_timeout):
                return await super().ping(data)
        except TimeoutError:
            log.info("a client read nothing for %g s: aborted", self.ping_timeout)
            await self.abort()
            raise self.close_exc from None

    async def abort(self) -> None:
        """Drop the connection now: a reset, the write buffer and the kernel's queue freed."""
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
        self.transport.abort()
        await asyncio.shield(self.connection_lost_waiter)
