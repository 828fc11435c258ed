"""The Foundry module's bookkeeping: which tokens belong to which unit, and which casualty
results are on the tokens (applied once, taken back with Undo apply).

Each request is decided on the stored state (after the changes before it are stored), stored
as one record through the same pipeline as a command, acknowledged, then told to the GMs.
A request with an `id` is idempotent: repeated, it gets its first `ack` again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from background_battle.units import MAX_FIGHTERS

from . import protocol as p
from .battles import Battles
from .budget import foundry_within
from .messages import MAX_TOKEN_ID, MAX_TOKEN_IDS, outgoing
from .pipeline import Change, settled, store
from .protocol import ProtocolError
from .receipts import ack, digest, repeated
from .room import Room
from .stored import Record

Replies = list[dict[str, Any]]


async def tokens(battles: Battles, message: dict[str, Any]) -> Replies:
    """`tokens`: the scene tokens of one unit (an empty list forgets them) and the head count
    of each token that stands for more than one fighter (kept from players: GM-only)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    token_ids = p.field(message, "token_ids")
    fighters = head_counts(message, token_ids)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    told = outgoing("tokens", battle=room.name, unit=unit, token_ids=token_ids, fighters=fighters)
    record: Record = {"kind": "tokens", "unit": unit, "token_ids": token_ids}
    if fighters:
        record["fighters"] = fighters
    return await _store(battles, room, request_id, message, record, told)


def head_counts(message: dict[str, Any], token_ids: list[str]) -> dict[str, int]:
    """The optional `fighters` of a `tokens` message: {token id: head count}, each key one of
    `token_ids`, each count a whole number from 2 to MAX_FIGHTERS (a token absent: one fighter).

    >>> head_counts({"fighters": {"t1": 12}}, ["t1", "t2"])
    {'t1': 12}
    >>> head_counts({"fighters": {"t1": 1}}, ["t1"])
    Traceback (most recent call last):
    ...
    background_battle_bridge.protocol.ProtocolError: fighters of token 't1' must be from 2 to ...
    """
    given = message.get("fighters")
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise ProtocolError(
            "not_object", "fighters must be a JSON object {token id: head count}", field="fighters"
        )
    known = set(token_ids)
    counts: dict[str, int] = {}
    for token, count in given.items():
        if token not in known:
            raise ProtocolError(
                "unknown_token",
                f"fighters names token {token[:128]!r}, which is not one of token_ids",
                field="fighters",
            )
        if not isinstance(count, int) or isinstance(count, bool):
            raise ProtocolError(
                "not_integer",
                f"fighters of token {token!r} must be a whole number",
                field="fighters",
            )
        if not 2 <= count <= MAX_FIGHTERS:
            raise ProtocolError(
                "out_of_range",
                f"fighters of token {token!r} must be from 2 to {MAX_FIGHTERS} "
                "(a token of one fighter is left out)",
                field="fighters",
                params={"min": 2, "max": MAX_FIGHTERS},
            )
        counts[token] = count
    return counts


async def applied(battles: Battles, message: dict[str, Any]) -> Replies:
    """`applied`: the module put a unit's casualties on its tokens; one report per order."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    report: dict[str, Any] = {"version": p.field(message, "version", high=room.version)}
    # a second report for the same (or an older) order is refused; a newer order (sent again
    # with `force` after the battle changed) replaces it
    if unit in room.applied and room.applied[unit]["version"] >= report["version"]:
        raise already_applied(room, unit)
    for name in ("killed", "wounded", "fit"):
        report[name] = p.field(message, name)
    token_ids = message.get("token_ids")
    if token_ids is not None:
        if not isinstance(token_ids, dict):
            raise ProtocolError("not_object", "token_ids must be a JSON object", field="token_ids")
        report["token_ids"] = {
            fate: p.text_list(
                token_ids, fate, max_items=MAX_TOKEN_IDS, max_len=MAX_TOKEN_ID, prefix="token_ids."
            )
            for fate in ("killed", "wounded", "fit")
            if fate in token_ids
        }
    note = p.field(message, "note")
    if note is not None:
        report["note"] = note
    told = outgoing("applied", battle=room.name, unit=unit, report=report)
    record = {"kind": "applied", "unit": unit, "report": report}
    replies = await _store(battles, room, request_id, message, record, told)
    room.claims.pop(unit, None)  # the job is done (the record ended it)
    return replies


async def unapplied(battles: Battles, message: dict[str, Any]) -> Replies:
    """`unapplied`: the module put the unit's tokens back (Undo apply): its report is
    forgotten, so the unit is sent again without `force`."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    version = p.field(message, "version", high=room.version)
    report = room.applied.get(unit)
    if report is None:
        raise ProtocolError(
            "not_applied",
            f"the casualties of unit {unit!r} are not applied: there is no report to take back",
            field="unit",
        )
    if report["version"] != version:
        raise ProtocolError(
            "not_applied",
            f"the report of unit {unit!r} is of version {report['version']}, not {version}",
            field="version",
            params={"report": report},
        )
    told = outgoing("unapplied", battle=room.name, unit=unit)
    record = {"kind": "unapplied", "unit": unit, "version": version}
    return await _store(battles, room, request_id, message, record, told)


def already_applied(room: Room, unit: str) -> ProtocolError:
    return ProtocolError(
        "already_applied",
        f"the casualties of unit {unit!r} were already applied",
        field="unit",
        params={"report": room.applied[unit]},
    )


async def _settled_request(battles: Battles, message: dict[str, Any]) -> tuple[str | None, Room]:
    request_id = _request_id(message)
    room = battles.room(message, "gm")
    await settled(room)
    return request_id, room


async def _repeated(room: Room, request_id: str | None, message: dict[str, Any]) -> Replies | None:
    """The first `ack` again for a repeated request; None for a new one."""
    if request_id is None:
        return None
    version = await repeated(room, request_id, digest(message))
    return None if version is None else [ack(request_id, room, version, duplicate=True)]


async def _store(
    battles: Battles,
    room: Room,
    request_id: str | None,
    message: dict[str, Any],
    record: Record,
    told: dict[str, Any] | None,
    field: str = "token_ids",
) -> Replies:
    foundry_within(room, record, field)
    if request_id is not None:
        record = {**record, "id": request_id, "digest": digest(message)}
    tell: Callable[[Room], None] | None = None
    if told is not None:
        tell = lambda room: battles.audience.publish(room.name, told, players=False)  # noqa: E731
    change = Change(record, tell=tell)
    return [ack(request_id, room, await store(battles, room, change))]


def _request_id(message: dict[str, Any]) -> str | None:
    request_id: str | None = p.field(message, "id")
    return request_id


def _unit(room: Room, message: dict[str, Any]) -> str:
    unit = p.field(message, "unit")
    if unit not in room.unit_ids():
        raise ProtocolError(
            "unknown_unit", f"battle {room.name!r} has no unit {unit!r}", field="unit"
        )
    return str(unit)
