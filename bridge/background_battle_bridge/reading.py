"""Requests that change nothing: the list of battles, watching one, a page of its log, ping.

They read only what is stored: a watcher never sees a change before its sender's `ack` could.
"""

from __future__ import annotations

from typing import Any

from . import pages
from . import protocol as p
from .audience import Client
from .battles import Battles
from .pipeline import MAX_VERSION
from .protocol import ProtocolError

MAX_WATCHED = 32
Replies = list[dict[str, Any]]


async def list_battles(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """One page of the battles a role is told of, in order of name: at most `BATTLES_PAGE`
    after `after`; `more` says whether to ask again from the last one."""
    archived = p.boolean(message, "archived", default=False)
    after = p.text(message, "after", max_len=p.MAX_NAME, optional=True)
    listed = sorted(battles.summaries(client.role, archived), key=lambda battle: battle["name"])
    if after is not None:
        listed = [battle for battle in listed if battle["name"] > after]
    page = listed[: p.BATTLES_PAGE]
    more = len(listed) > len(page)
    return [{"type": "battles", "battles": page, "more": more, **_id(message)}]


async def subscribe(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """Watch a battle: its `state`, or with `since_version` only what was missed (`events`)."""
    room = battles.room(message, client.role)
    since = p.integer(message, "since_version", low=0, high=MAX_VERSION, optional=True)
    if since is not None and since > room.version:
        raise ProtocolError(
            "out_of_range",
            f"since_version must be from 0 to {room.version}, the current version",
            field="since_version",
            params={"min": 0, "max": room.version},
            version=room.version,
        )
    if room.name not in client.watching and len(client.watching) >= MAX_WATCHED:
        raise ProtocolError(
            "too_many",
            f"a connection may watch at most {MAX_WATCHED} battles",
            field="battle",
            params={"max": MAX_WATCHED},
        )
    if room.name not in client.watching:
        battles.audience.admit_watcher()
    battles.audience.watch(client, room.name)
    missed = pages.catch_up(room, client.role, since) if since is not None else None
    return [{**(missed or pages.state(room, client.role)), **_id(message)}]


async def unsubscribe(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    name = p.text(message, "battle", max_len=p.MAX_NAME)
    battles.audience.unwatch(client, name)
    return [{"type": "unsubscribed", "battle": name, **_id(message)}]


async def log_page(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """One page of a battle's log, as the client's role sees it."""
    room = battles.room(message, client.role)
    since = p.integer(message, "since_version", low=0, high=room.version)
    until = p.integer(message, "until_version", low=since, high=room.version, optional=True)
    page = pages.log_page(room, client.role, since, room.version if until is None else until)
    return [{**page, **_id(message)}]


async def ping(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    reply: dict[str, Any] = {"type": "pong", **_id(message)}
    if "data" in message:
        reply["data"] = message["data"]
    return [reply]


def _id(message: dict[str, Any]) -> dict[str, Any]:
    """The request's `id`, echoed in its answer when it had one."""
    request_id = p.text(message, "id", max_len=p.MAX_ID, optional=True)
    return {} if request_id is None else {"id": request_id}
