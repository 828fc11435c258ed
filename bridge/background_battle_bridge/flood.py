"""Flood control: a message over the rate limit is dropped; a client that keeps sending over
its limit for `flood_seconds` is closed.

A flood is a run of dropped messages with less than a second between two of them: a client
that sends far above its rate has a message admitted now and then (the bucket refills), and
that does not end the flood.

>>> from background_battle_bridge.guard import RateLimit
>>> from types import SimpleNamespace
>>> client = SimpleNamespace(
...     bucket=RateLimit(rate=10, burst=1, now=0.0), over_limit_since=None, last_drop=-1.0)
>>> said = [verdict(client, t / 100, flood_seconds=2) for t in range(300)]  # 100 a second
>>> said[:3], said[10], said.index("close") / 100
(['pass', 'drop', 'drop'], 'pass', 2.02)
"""

from __future__ import annotations

from typing import Literal, Protocol

from .guard import RateLimit

FLOOD_SECONDS = 10.0
QUIET = 1.0  # seconds without a dropped message that end a flood

Verdict = Literal["pass", "drop", "close"]


class Flooding(Protocol):
    bucket: RateLimit
    over_limit_since: float | None
    last_drop: float


def verdict(client: Flooding, now: float, flood_seconds: float = FLOOD_SECONDS) -> Verdict:
    """Pass the message, drop it, or close the client (flooding for `flood_seconds`)."""
    quiet = now - client.last_drop >= QUIET
    if client.bucket.take(now):
        if quiet:
            client.over_limit_since = None
        return "pass"
    if client.over_limit_since is None or quiet:
        client.over_limit_since = now
    client.last_drop = now
    return "close" if now - client.over_limit_since >= flood_seconds else "drop"
