"""Request ids: a retried request is answered as before, a reused id with another body refused.

A request's digest covers what it asks for (everything but its `id` and `expected_version`), so
a retry after a reconnect matches and a different request under an old id does not.

>>> digest({"id": "a", "battle": "x", "command": {"name": "y"}}) == digest(
...     {"id": "b", "battle": "x", "expected_version": 3, "command": {"name": "y"}})
True
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from typing import Any

from .messages import outgoing
from .protocol import ProtocolError
from .room import Receipt, Room

IGNORED = ("id", "expected_version")


def digest(message: dict[str, Any]) -> str:
    """A short fingerprint of what a request asks for."""
    body = {key: value for key, value in message.items() if key not in IGNORED}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def earlier(room: Room, request_id: str, fingerprint: str) -> Receipt | None:
    """The receipt of this very request if it was already stored; None for a new id.

    Raises:
        ProtocolError: `id_reused` when the id was stored for a different request.
    """
    receipt = room.ids.get(request_id)
    if receipt is None:
        return None
    if receipt[1] and receipt[1] != fingerprint:  # an empty digest: stored before digests
        raise reused(room, request_id, receipt[0])
    return receipt


def reused(room: Room, request_id: str, version: int) -> ProtocolError:
    return ProtocolError(
        "id_reused",
        f"id {request_id!r} was already used in battle {room.name!r} for a different request "
        f"(acknowledged at version {version}); make a new id for a new request",
        field="id",
        params={"version": version},
    )


async def repeated(room: Room, request_id: str, fingerprint: str) -> int | None:
    """The version this very request was acknowledged at (waiting for it if it is still
    being stored); None for a new id.

    Raises:
        ProtocolError: `id_reused`; NotStored: the first attempt could not be stored.
    """
    receipt = earlier(room, request_id, fingerprint)
    if receipt is not None:
        return receipt[0]
    waiting = room.head.waiting.get(request_id) if room.head is not None else None
    if waiting is None:
        return None
    if waiting[0] != fingerprint:
        raise reused(room, request_id, room.head.seq if room.head else room.seq)
    await asyncio.shield(waiting[1])
    return room.ids[request_id][0]


def ack(
    request_id: str | None, room: Room, version: int, duplicate: bool = False, **more: Any
) -> dict[str, Any]:
    """The `ack` of a request: its id (when it had one), the battle and the version (and what
    the request's own answer carries: `sent`, `job`)."""
    return outgoing(
        "ack",
        id=request_id,
        battle=room.name,
        version=version,
        duplicate=True if duplicate else None,
        **more,
    )
