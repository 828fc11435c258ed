"""One connection's answers, sent in the order its requests came.

A `command` is handled as soon as it arrives, without waiting for the one before it to be
stored, so that a client's burst of commands shares transactions (group commit). Any other
request waits until the requests before it are done, so that it sees what they changed (a
`subscribe` after a burst of commands gets the state after them). The answers leave in the
order of the requests. At most `DEPTH` requests of a connection are in hand at once; the
connection is not read further until the oldest is answered.

Every answer is written here, by one task, in order. Each request's answer is a future: its
handler's replies, or sooner, a command's `ack` the moment its change is stored (`now`, from
the commit's report; what the handler then returns is the same ack, not sent again), so that
the ack goes out before the fan-out writes the change to the other watchers (audience.py waits
a turn of the loop) when every answer before it is out already. What the fan-out queued for
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
    """The requests in hand, the answer each one owes, and the task that sends them in order."""

    def __init__(
        self,
        ws: ServerConnection,
        flush: Callable[[ServerConnection], None] = lambda _: None,
        depth: int = DEPTH,
    ) -> None:
        self.ws = ws
        self.flush = flush
        self._queue: asyncio.Queue[asyncio.Future[Replies]] = asyncio.Queue(depth)
        self._in_hand: dict[asyncio.Task[Replies], asyncio.Future[Replies]] = {}
        self._sender = asyncio.get_running_loop().create_task(self._send())

    async def add(self, work: Coroutine[Any, Any, Replies], alone: bool) -> None:
        """Handle a request (now, or when `alone` once those before it are done); its answer
        goes out after theirs."""
        if alone and self._in_hand:
            await asyncio.wait(set(self._in_hand))
        loop = asyncio.get_running_loop()
        task = loop.create_task(work)
        self._in_hand[task] = answer = loop.create_future()
        task.add_done_callback(self._handled)
        await self._queue.put(answer)

    def now(self, task: asyncio.Task[Replies] | None, replies: Replies) -> None:
        """A request's answer, known before its handler returns (a command's stored ack)."""
        answer = self._in_hand.get(task) if task is not None else None
        if answer is not None and not answer.done():
            answer.set_result(replies)

    def _handled(self, task: asyncio.Task[Replies]) -> None:
        answer = self._in_hand.pop(task)
        if answer.done():
            return
        if task.cancelled():
            answer.cancel()
        elif (error := task.exception()) is not None:
            answer.set_exception(error)
        else:
            answer.set_result(task.result())

    async def _send(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                replies = await (await self._queue.get())
                self.flush(self.ws)
                for reply in replies:
                    if reply["type"] == "ack":  # small: written at once, like the fan-out
                        broadcast([self.ws], p.dumps(reply))
                    else:  # a `state` or a page may be large: sent as the buffer drains
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
