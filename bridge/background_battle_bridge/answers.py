"""One connection's answers, sent in the order its requests came.

A `command` is handled as soon as it arrives, without waiting for the one before it to be
stored, so that a client's burst of commands shares transactions (group commit). Any other
request waits until the requests before it are done, so that it sees what they changed (a
`subscribe` after a burst of commands gets the state after them). At most `DEPTH` requests of
a connection are in hand at once; the connection is not read further until the oldest is
answered.

Every answer leaves by one path: a request's answer is what its handler returns, written by
the task that finishes it, as soon as every answer before it is out (or by the one that writes
those, in its turn). A command's handler is woken the moment its change is stored, before the
fan-out to the other watchers begins (`committer.py`), so its ack is not kept waiting behind
them. What the fan-out queued for this connection is written before any answer (`flush`): the
sender receives its event, then its ack. A client that does not read holds up the writing of
its own answers only (`send` waits for its buffer), and so, through `DEPTH`, its own requests.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from . import protocol as p

DEPTH = 32
Replies = list[dict[str, Any]]


class _Request:
    """A request in hand; its answer once its handler has returned it."""

    __slots__ = ("replies",)

    def __init__(self) -> None:
        self.replies: Replies | None = None


class Answers:
    """The requests in hand, oldest first, and the writing of their answers in that order."""

    def __init__(
        self,
        ws: ServerConnection,
        flush: Callable[[ServerConnection], None] = lambda _: None,
        depth: int = DEPTH,
    ) -> None:
        self.ws = ws
        self.flush = flush
        self.depth = depth
        self._order: collections.deque[_Request] = collections.deque()
        self._in_hand: set[asyncio.Task[None]] = set()
        self._writing = False  # a task is writing answers (waiting for the reader, maybe)
        self._answered = asyncio.Event()  # set whenever answers went out

    async def add(self, work: Coroutine[Any, Any, Replies], alone: bool) -> None:
        """Handle a request (now, or when `alone` once those before it are done); its answer
        goes out after theirs."""
        if alone and self._in_hand:
            await asyncio.wait(set(self._in_hand))
        while len(self._order) >= self.depth:
            self._answered.clear()
            await self._answered.wait()
        request = _Request()
        self._order.append(request)
        task = asyncio.get_running_loop().create_task(self._handle(request, work))
        self._in_hand.add(task)
        task.add_done_callback(self._in_hand.discard)

    async def _handle(self, request: _Request, work: Coroutine[Any, Any, Replies]) -> None:
        try:
            request.replies = await work
        finally:  # a handler never raises; if it was cancelled, it has nothing to say
            if request.replies is None:
                request.replies = []
            await self._write()

    async def _write(self) -> None:
        """Write, in order, every answer whose turn has come (unless a task is at it)."""
        if self._writing:
            return
        self._writing = True
        try:
            while self._order and (replies := self._order[0].replies) is not None:
                self._order.popleft()
                self.flush(self.ws)
                for reply in replies:
                    await self.ws.send(p.dumps(reply))
                self._answered.set()
        except ConnectionClosed:  # nobody to answer: the rest is dropped with it
            self._order.clear()
            self._answered.set()
        finally:
            self._writing = False

    async def close(self) -> None:
        """Send what is still in hand (when the connection is still open)."""
        if self.ws.close_code is None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(30):
                    while self._order:
                        self._answered.clear()
                        await self._answered.wait()
