"""One connection's answers, sent in the order its requests came.

A `command` is handled as soon as it arrives, without waiting for the one before it to be
stored, so that a client's burst of commands shares transactions (group commit). Any other
request waits until the requests before it are done, so that it sees what they changed (a
`subscribe` after a burst of commands gets the state after them). The answers leave in the
order of the requests. At most `DEPTH` requests of a connection are in hand at once; the
connection is not read further until the oldest is answered.

A command's `ack` may go out the moment its change is stored (`now`), before the change is sent
to the other watchers, when every answer before it is out already. What the fan-out queued for
this connection is written before any answer (`flush`): the sender receives its event, then its
ack.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from websockets.asyncio.server import ServerConnection, broadcast
from websockets.exceptions import ConnectionClosed

from . import protocol as p

DEPTH = 32
Replies = list[dict[str, Any]]


class Answers:
    """The requests in hand and the task that sends their answers in order."""

    def __init__(
        self,
        ws: ServerConnection,
        flush: Callable[[ServerConnection], None] = lambda _: None,
        depth: int = DEPTH,
    ) -> None:
        self.ws = ws
        self.flush = flush
        self._queue: asyncio.Queue[asyncio.Task[Replies]] = asyncio.Queue(depth)
        self._in_hand: set[asyncio.Task[Replies]] = set()
        self._next: asyncio.Task[Replies] | None = None  # the one whose answer goes out next
        self._answered: set[asyncio.Task[Replies]] = set()
        self._sender = asyncio.get_running_loop().create_task(self._send())

    async def add(self, work: Coroutine[Any, Any, Replies], alone: bool) -> None:
        """Handle a request (now, or when `alone` once those before it are done); its answer
        goes out after theirs."""
        if alone and self._in_hand:
            await asyncio.wait(set(self._in_hand))
        task = asyncio.get_running_loop().create_task(work)
        self._in_hand.add(task)
        task.add_done_callback(self._in_hand.discard)
        await self._queue.put(task)

    def now(self, task: asyncio.Task[Replies] | None, replies: Replies) -> None:
        """Send a request's answer at once if every answer before it is out (it is the next
        one); what its task then returns is not sent again."""
        if task is None or task is not self._next or self.ws.close_code is not None:
            return
        self.flush(self.ws)
        for reply in replies:
            broadcast([self.ws], p.dumps(reply))
        self._answered.add(task)

    async def _send(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                self._next = task = await self._queue.get()
                replies = await task
                self._next = None
                if task in self._answered:
                    self._answered.discard(task)
                else:
                    self.flush(self.ws)
                    for reply in replies:
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
