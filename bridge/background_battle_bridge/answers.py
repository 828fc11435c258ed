"""One connection's answers, sent in the order its requests came.

Each request is handled as soon as it arrives, without waiting for the one before it to be
stored, so that a client's burst of commands shares transactions (group commit); the answers
still leave in the order of the requests. At most `DEPTH` requests of a connection are in
hand at once; the connection is not read further until the oldest is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from . import protocol as p

DEPTH = 32
Replies = list[dict[str, Any]]


class Answers:
    """The requests in hand and the task that sends their answers in order."""

    def __init__(self, ws: ServerConnection, depth: int = DEPTH) -> None:
        self.ws = ws
        self._queue: asyncio.Queue[asyncio.Task[Replies]] = asyncio.Queue(depth)
        self._sender = asyncio.get_running_loop().create_task(self._send())

    async def add(self, work: Coroutine[Any, Any, Replies]) -> None:
        """Start handling a request now; its answer goes out after those before it."""
        await self._queue.put(asyncio.get_running_loop().create_task(work))

    async def _send(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                task = await self._queue.get()
                for reply in await task:
                    await self.ws.send(p.dumps(reply))
                self._queue.task_done()

    async def close(self) -> None:
        """Send what is still in hand (when the connection is still open), then stop."""
        if self.ws.close_code is None:
            with contextlib.suppress(ConnectionClosed):
                await asyncio.wait_for(self._queue.join(), timeout=30)
        self._sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._sender
