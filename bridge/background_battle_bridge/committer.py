"""Group commit: changes that arrive while the disk is busy share the next transaction.

One writer at a time. While a transaction is being written (in a thread, so the event loop
keeps reading and deciding), new changes queue up; the next transaction takes all of them at
once: with `--sync full` they share one fsync. The committer only commits and reports: each
change is told, in order, whether it was stored (`stored`, which takes it into its room and
says the room's version after it) or not (`failed`); a failed transaction stores none of its
changes. A stored change's sender is woken first (`answer`, its handler's own future), then,
in the same step, its watchers are told (`told`): the sender's ack is written before the
fan-out to the others begins.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from .stored import Record, Storage

log = logging.getLogger("background_battle_bridge")


def _future() -> asyncio.Future[int]:
    return asyncio.get_running_loop().create_future()


class NotStored(Exception):
    """The change was not written; nothing of it is on disk."""


@dataclass(eq=False)
class Write:
    """One record waiting for the disk, with what to do once the answer is known."""

    battle: str
    seq: int
    record: Record
    stored: Callable[[], int]  # the battle's version once this record is taken in
    failed: Callable[[BaseException], None]
    current: Callable[[], bool] = lambda: True  # False: decided on changes that failed
    told: Callable[[], None] = lambda: None  # once stored and its sender woken: the watchers
    done: asyncio.Future[int] = field(default_factory=_future)  # awaited by anyone
    answer: asyncio.Future[int] = field(default_factory=_future)  # by its sender alone


class Committer:
    """The queue of writes and the one task that writes them, batch after batch."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.batches = 0  # transactions written (the benchmark compares it with the changes)
        self._queue: list[Write] = []
        self._task: asyncio.Task[None] | None = None

    def write(self, write: Write) -> asyncio.Future[int]:
        """Queue a record; the future is the battle's version once it is stored (or fails
        with `NotStored`)."""
        self._queue.append(write)
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return write.done

    async def _run(self) -> None:
        while self._queue:
            batch, self._queue = self._queue, []
            live = []
            for write in batch:
                if write.current():
                    live.append(write)
                else:
                    _finish(write, NotStored("it followed a change that could not be stored"))
            if not live:
                continue
            rows = [(w.battle, w.seq, w.record) for w in live]
            try:
                await asyncio.to_thread(self.storage.append_many, rows)
            except Exception as exc:  # the disk is full, the file is gone, ...
                log.error("could not store %d change(s): %s", len(live), exc)
                for write in live:
                    _finish(write, NotStored(str(exc)))
            else:
                self.batches += 1
                for write in live:
                    _finish(write, None)

    async def drain(self) -> None:
        """Wait until every queued write is answered (before closing the store)."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)


def _finish(write: Write, error: NotStored | None) -> None:
    """Tell the change its fate (in queue order), wake whoever awaits it, then, when it was
    stored and taken in, let it tell its watchers."""
    version, taken = 0, False
    try:
        if error is None:
            version, taken = write.stored(), True
        else:
            write.failed(error)
    except Exception:  # a bug in a follow-up must not stop the writer; the disk decided
        log.exception("a follow-up of a written change failed")
    for future in (write.done, write.answer):  # the sender's may be cancelled (it left)
        if future.done():
            continue
        if error is None:
            future.set_result(version)
        else:
            future.set_exception(error)
            future.exception()  # marked as retrieved: a retry may never await it
    if taken:
        try:
            write.told()
        except Exception:
            log.exception("telling the watchers of a written change failed")
