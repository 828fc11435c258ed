"""Ctrl-C and SIGTERM stop the bridge cleanly, on every system.

`loop.add_signal_handler` is POSIX-only (Windows' event loops raise NotImplementedError); there
the handlers are set with `signal.signal`, which Windows has for SIGINT, SIGTERM and SIGBREAK
(Ctrl-Break), and hand the stop to the loop with `call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, name)
)


def on_stop_signals(
    loop: asyncio.AbstractEventLoop, stop: Callable[[], None]
) -> Callable[[], None]:
    """Call `stop` on SIGINT or SIGTERM (and SIGBREAK); returns what puts the old handlers back."""
    try:
        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, stop)
    except NotImplementedError:
        return _plain_handlers(loop, stop)

    def restore() -> None:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)

    return restore


def _plain_handlers(
    loop: asyncio.AbstractEventLoop, stop: Callable[[], None]
) -> Callable[[], None]:
    def handler(signum: int, frame: object) -> None:
        loop.call_soon_threadsafe(stop)

    old = {sig: signal.signal(sig, handler) for sig in STOP_SIGNALS}

    def restore() -> None:
        for sig, previous in old.items():
            signal.signal(sig, previous)

    return restore
