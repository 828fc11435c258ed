"""What a watcher is sent to get in step, bounded: no message over `MAX_MESSAGE` bytes.

`state` carries the view and the last page of the log (`log_from` says where it starts);
`events` carries what a reconnecting client missed, when it fits in one page; `log_page`
answers for any stretch of the log, one page at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from background_battle.view import Role

from . import protocol as p
from . import visibility
from .budget import SLACK, size
from .messages import outgoing
from .room import Room


def entries(room: Room, role: Role, start: int, stop: int, budget: int) -> list[dict[str, Any]]:
    """Log entries `start`..`stop` as the role sees them, oldest first, within a page and
    `budget` bytes; fewer (possibly none) when they do not all fit."""
    indexes = range(start, min(stop, start + p.LOG_PAGE))
    return _within((_seen(room, role, index) for index in indexes), budget)


def last_entries(room: Room, role: Role, budget: int) -> tuple[int, list[dict[str, Any]]]:
    """The newest entries that fit a page and `budget` bytes, and the index of the first."""
    newest_first = range(room.version - 1, max(room.version - p.LOG_PAGE, 0) - 1, -1)
    taken = _within((_seen(room, role, index) for index in newest_first), budget)
    taken.reverse()
    return room.version - len(taken), taken


def _seen(room: Room, role: Role, index: int) -> dict[str, Any]:
    """Log entry `index` (from 0) as the role sees it."""
    return visibility.entry_seen(room.battle, room.battle.log[index].to_dict(), role)


def _within(entries: Iterable[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """The entries, in order, while they fit in `budget` bytes (a comma after each)."""
    taken: list[dict[str, Any]] = []
    used = 0
    for entry in entries:
        used += size(entry) + 1
        if used > budget:
            break
        taken.append(entry)
    return taken


def state(room: Room, role: Role) -> dict[str, Any]:
    """The whole battle for a role; the log's older pages come with `log_page`."""
    view = room.view_without_log(role)
    foundry = visibility.gms_only(role, room.foundry)
    budget = p.MAX_MESSAGE - SLACK - size(view) - size(foundry)
    log_from, log = last_entries(room, role, budget)
    return outgoing(
        "state",
        battle=room.name,
        version=room.version,
        archived=room.archived,
        log_from=log_from,
        view={**view, "log": log},
        foundry=foundry,
    )


def catch_up(room: Room, role: Role, since: int) -> dict[str, Any] | None:
    """`events` with every entry after `since`, or None when they do not fit in one page."""
    missed = room.version - since
    if missed > p.LOG_PAGE:
        return None
    view = room.view_without_log(role)
    taken = entries(room, role, since, room.version, p.MAX_MESSAGE - SLACK - size(view))
    if len(taken) < missed:
        return None
    return outgoing(
        "events",
        battle=room.name,
        since_version=since,
        version=room.version,
        entries=taken,
        view=view,
    )


def log_page(room: Room, role: Role, since: int, until: int) -> dict[str, Any]:
    """Entries after `since` up to `until` (at most one page); `until_version` says how far."""
    taken = entries(room, role, since, until, p.MAX_MESSAGE - SLACK)
    return outgoing(
        "log_page",
        battle=room.name,
        since_version=since,
        until_version=since + len(taken),
        version=room.version,
        entries=taken,
    )
