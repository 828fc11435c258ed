"""Requests that change nothing: the list of battles, watching one, a page of its log, ping.

They read only what is stored: a watcher never sees a change before its sender's `ack` could.
"""

from __future__ import annotations

from typing import Any

from . import pages
from . import protocol as p
from .audience import Client
from .battles import Battles
from .messages import outgoing, with_fields
from .protocol import ProtocolError

MAX_WATCHED = 32
Replies = list[dict[str, Any]]


async def list_battles(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """One page of the battles a role is told of, in order of name: at most `BATTLES_PAGE`
    after `after`; `more` says whether to ask again from the last one."""
    archived = p.field(message, "archived")
    after = p.field(message, "after")
    listed = sorted(battles.summaries(client.role, archived), key=lambda battle: battle["name"])
    if after is not None:
        listed = [battle for battle in listed if battle["name"] > after]
    page = listed[: p.BATTLES_PAGE]
    more = len(listed) > len(page)
    return [outgoing("battles", battles=page, more=more, id=_id(message))]


async def subscribe(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """Watch a battle: its `state`, or with `since_version` only what was missed (`events`)."""
    room = battles.room(message, client.role)
    since = p.field(message, "since_version")
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
    return [with_fields(missed or pages.state(room, client.role), id=_id(message))]


async def unsubscribe(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    name = p.field(message, "battle")
    battles.audience.unwatch(client, name)
    return [outgoing("unsubscribed", battle=name, id=_id(message))]


async def log_page(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """One page of a battle's log, as the client's role sees it."""
    room = battles.room(message, client.role)
    since = p.field(message, "since_version", high=room.version)
    until = p.field(message, "until_version", high=room.version)
    if until is not None and until < since:
        raise ProtocolError(
            "out_of_range",
            f"until_version must be from {since} to {room.version}",
            field="until_version",
            params={"min": since, "max": room.version},
        )
    page = pages.log_page(room, client.role, since, room.version if until is None else until)
    return [with_fields(page, id=_id(message))]


async def ping(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    data = {"data": message["data"]} if "data" in message else {}
    return [outgoing("pong", id=_id(message), **data)]


def _id(message: dict[str, Any]) -> str | None:
    """The request's `id`, echoed in its answer when it had one."""
    request_id: str | None = p.field(message, "id")
    return request_id
