"""Tokens moved into the PCs' fight (`detached`): which tokens a `detach_fighters` step took
out of a unit, kept with the step's version, so that an Apply leaves them to that fight while
the step counts (room.py `moves`, `fighting_tokens`)."""

from __future__ import annotations

from typing import Any

from background_battle.units import MAX_FIGHTERS

from . import protocol as p
from .battles import Battles
from .foundry import Replies, _repeated, _settled_request, _store, _unit
from .messages import MAX_TOKEN_ID, MAX_TOKEN_IDS, outgoing
from .protocol import ProtocolError
from .room import Room


async def detached(battles: Battles, message: dict[str, Any]) -> Replies:
    """`detached`: which tokens a `detach_fighters` step moved into the PCs' fight (whole
    tokens, and heads taken off tokens standing for many)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    version = p.field(message, "version", high=room.version)
    token_ids = p.field(message, "token_ids")
    heads = _heads(message)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    moved = _moved(room, unit, version)
    if sum(heads.values()) + len(token_ids) != moved:
        raise ProtocolError(
            "wrong_count",
            f"step {version} moved {moved} fighters of unit {unit!r} into the PCs' fight, "
            f"not {len(token_ids) + sum(heads.values())}",
            field="token_ids",
            params={"fighters": moved},
        )
    if any(move["version"] == version for move in room.detached.get(unit, [])):
        raise ProtocolError(
            "already_named", f"the tokens of step {version} are named already", field="version"
        )
    fighting, left = room.fighting_tokens(unit)
    for token in token_ids:
        if token not in fighting:
            raise ProtocolError(
                "unknown_token",
                f"token {token!r} is not a token of unit {unit!r} in the battle",
                field="token_ids",
            )
    for token, n in heads.items():
        if token not in fighting or n >= left.get(token, 1):
            raise ProtocolError(
                "out_of_range",
                f"token {token!r} stands for {left.get(token, 1)} fighters: move fewer, "
                "or the token itself",
                field="fighters",
                params={"max": left.get(token, 1) - 1},
            )
    move: dict[str, Any] = {"version": version, "token_ids": token_ids}
    if heads:
        move["fighters"] = heads
    record = {"kind": "detached", "unit": unit, "move": move}
    told = outgoing("detached", battle=room.name, unit=unit, moves=[*room.moves(unit), move])
    return await _store(battles, room, request_id, message, record, told)


def _heads(message: dict[str, Any]) -> dict[str, int]:
    given = message.get("fighters", {})
    if not isinstance(given, dict) or len(given) > MAX_TOKEN_IDS:
        raise ProtocolError("not_object", "fighters must be {token id: heads}", field="fighters")
    return {
        str(token)[:MAX_TOKEN_ID]: p.integer(given, token, low=1, high=MAX_FIGHTERS)
        for token in given
    }


def _moved(room: Room, unit: str, version: int) -> int:
    """The fighters the entry of `version` moved out of the unit (it must be a detach that
    counts)."""
    entry = room.battle.log[version - 1]
    moved = sum(
        event["fighters"]
        for event in entry.events
        if event["type"] == "fighters_detached" and event["unit"] == unit
    )
    if not moved or version - 1 in room.battle.undone:
        raise ProtocolError(
            "not_detached",
            f"step {version} moved no fighters of unit {unit!r} into the PCs' fight",
            field="version",
        )
    return int(moved)
