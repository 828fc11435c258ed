"""Apply jobs: casualties put on tokens by exactly one Foundry browser, as a transaction.

`request_casualties` stores one job per unit (the order: the core's numbers for it) and offers
it (`apply_casualties`) to every Foundry browser connected with the GM token. A browser that
can write takes it with `claim`: the bridge gives each job to one connection at a time (the
claim is that connection's while it stays open, never stored) and tells every GM who holds it
(`apply_job`). The holder stores its journal (`plan`: which token gets which fate) before its
first token write, then reports `applied`, which ends the job. A holder that goes away leaves
the job: offered again while nothing was planned, else an interrupted Apply that a GM finishes
(`claim`, then the same journal, then `applied`) or takes back (`claim`, Undo on the tokens,
then `cancel_apply`). Moves of tokens into the PCs' fight (`detached`) are kept beside.
"""

from __future__ import annotations

from typing import Any

from websockets.asyncio.server import broadcast

from background_battle.units import MAX_FIGHTERS

from . import protocol as p
from .audience import Client
from .battles import Battles
from .foundry import (
    MAX_TOKEN_IDS,
    Replies,
    _repeated,
    _settled_request,
    _store,
    _unit,
    already_applied,
)
from .protocol import ProtocolError
from .receipts import ack
from .room import Room

FATES = ("killed", "wounded", "fit")


def order_of(room: Room, unit: dict[str, Any]) -> dict[str, Any]:
    """A unit's job as `request_casualties` stores it: the core's numbers at this version."""
    casualties = unit.get("casualties") or {}
    return {
        "version": room.version,
        "order": {
            "name": unit.get("name"),
            "fighters": casualties.get("fighters"),
            **{fate: casualties.get(fate) for fate in FATES},
        },
    }


def offer_of(room: Room, unit: str) -> dict[str, Any]:
    """A unit's job as offered: its order, and the tokens still in the battle with their
    head counts (those in the PCs' fight left out)."""
    job = room.jobs[unit]
    token_ids, heads = room.fighting_tokens(unit)
    return {
        "type": "apply_casualties",
        "battle": room.name,
        "unit": unit,
        **job["order"],
        "version": job["version"],
        "token_ids": token_ids,
        "heads": heads,
    }


def offer(battles: Battles, room: Room, unit: str) -> None:
    """Offer a unit's job to every Foundry browser connected with the GM token."""
    broadcast(battles.audience.foundry(), p.dumps(offer_of(room, unit)))


def tell_job(battles: Battles, room: Room, unit: str) -> None:
    """Tell the GMs watching the battle what the unit's job is now (null: none)."""
    told = {"type": "apply_job", "battle": room.name, "unit": unit, "job": room.job_view(unit)}
    battles.audience.publish(room.name, told, players=False)


def busy(room: Room, unit: str) -> bool:
    """A job taken by a browser now, or whose journal is stored: not replaced by a new order."""
    job = room.jobs.get(unit)
    return job is not None and ("plan" in job or unit in room.claims)


def under_way(room: Room, unit: str) -> ProtocolError:
    job = room.job_view(unit) or {}
    return ProtocolError(
        "apply_under_way",
        f"the casualties of unit {unit!r} are being put on its tokens"
        + (
            f" by {job['claimed_by']}'s browser"
            if "claimed_by" in job
            else ": finish it or undo it"
        ),
        field="unit",
        params={"job": job},
    )


async def request_casualties(battles: Battles, message: dict[str, Any]) -> Replies:
    """`request_casualties`: store an Apply job per unit of the ended battle, with the core's
    numbers as its view has them (the bridge computes nothing), and offer each to the Foundry
    browsers (one of them claims it). A unit whose Apply is under way (held by a browser, or
    planned and not finished) is left as it is."""
    request_id, room = await _settled_request(battles, message)
    only = _unit(room, message) if message.get("unit") is not None else None
    again = p.boolean(message, "force", default=False)
    view = room.view_without_log("gm")
    if view.get("status") != "ended":
        raise ProtocolError(
            "not_ended",
            f"battle {room.name!r} has not ended: casualties are known at the end",
            field="battle",
        )
    if only is not None and only in room.applied and not again:
        raise already_applied(room, only)
    if only is not None and busy(room, only):
        raise under_way(room, only)
    if not battles.audience.foundry():
        raise ProtocolError(
            "no_foundry",
            "no Foundry browser is connected with the GM token to put the casualties on tokens:"
            " in the active GM's Foundry, enter the GM token under Configure Settings →"
            " Background Battle → Bridge connection (GM)",
        )
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return [{**duplicate[0], "sent": []}]
    orders = {}
    for unit in view.get("units", []):
        unit_id = str(unit["id"])
        if (unit_id in room.applied and not again) or only not in (None, unit_id):
            continue
        if not busy(room, unit_id):
            orders[unit_id] = order_of(room, unit)
    if not orders:
        return [{**ack(request_id, room, room.version), "sent": []}]
    record = {"kind": "ordered", "jobs": orders}
    replies = await _store(battles, room, request_id, message, record, None)
    for unit_id in orders:
        tell_job(battles, room, unit_id)
        offer(battles, room, unit_id)
    return [{**reply, "sent": list(orders)} for reply in replies]


async def claim(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`claim`: this Foundry browser takes a unit's job (to apply, finish or undo it)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    by = p.text(message, "by", max_len=p.MAX_NAME)
    if client.kind != "foundry":
        raise ProtocolError(
            "not_foundry", "only a Foundry browser puts casualties on tokens", field="type"
        )
    _job(room, unit, message)
    held = room.claims.get(unit)
    if held is not None and held[0] is not client:
        raise ProtocolError(
            "claimed",
            f"{held[1]}'s browser holds the casualties of unit {unit!r}",
            field="unit",
            params={"by": held[1]},
        )
    if held is None:
        room.claims[unit] = (client, by)
        tell_job(battles, room, unit)
    job = {**offer_of(room, unit), **(room.job_view(unit) or {})}
    del job["type"]
    return [{**ack(request_id, room, room.version), "job": job}]


def release(battles: Battles, rooms: list[Room], client: Client) -> None:
    """A connection closed: the jobs it held are free again; one not yet planned is offered
    again at once (to a browser that can take it)."""
    for room in rooms:
        for unit in [u for u, (holder, _) in room.claims.items() if holder is client]:
            _free(battles, room, unit)


def _free(battles: Battles, room: Room, unit: str) -> None:
    del room.claims[unit]
    if unit not in room.jobs:
        return
    tell_job(battles, room, unit)
    if "plan" not in room.jobs[unit]:
        offer(battles, room, unit)


async def unclaim(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`unclaim`: the holder lets a job go without ending it (its Apply failed half-way: the
    job waits for a GM's Finish or Undo; one not planned is offered again)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    _job(room, unit, message)
    _held(room, unit, client)
    _free(battles, room, unit)
    return [ack(request_id, room, room.version)]


async def plan(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`plan`: the journal of an Apply, stored before its first token write, by the browser
    holding the job."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    job = _job(room, unit, message)
    journal = check_journal(message, room.tokens.get(unit, []))
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    _held(room, unit, client)
    if "plan" in job:
        if job["plan"]["plan"] == journal["plan"]:
            return [ack(request_id, room, room.version)]
        raise ProtocolError(
            "planned",
            f"unit {unit!r} has an Apply planned already ({job['plan']['plan']}): "
            "finish it or undo it",
            field="plan",
        )
    record = {"kind": "planned", "unit": unit, "plan": journal}
    replies = await _store(battles, room, request_id, message, record, None)
    tell_job(battles, room, unit)
    return replies


async def cancel(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`cancel_apply`: the job is dropped — a pending order the GM takes back, or an
    interrupted Apply whose tokens the holder put back (Undo)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    job = _job(room, unit, message)
    if "plan" in job or unit in room.claims:
        _held(room, unit, client)
    record = {"kind": "cancelled", "unit": unit}
    replies = await _store(battles, room, request_id, message, record, None)
    room.claims.pop(unit, None)
    tell_job(battles, room, unit)
    return replies


async def detached(battles: Battles, message: dict[str, Any]) -> Replies:
    """`detached`: which tokens a `detach_fighters` step moved into the PCs' fight (whole
    tokens, and heads taken off tokens standing for many)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    version = p.integer(message, "version", low=1, high=room.version)
    token_ids = p.text_list(message, "token_ids", max_items=MAX_TOKEN_IDS, max_len=128)
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
    told = {
        "type": "detached",
        "battle": room.name,
        "unit": unit,
        "moves": [*room.moves(unit), move],
    }
    return await _store(battles, room, request_id, message, record, told)


def check_journal(message: dict[str, Any], unit_tokens: list[str]) -> dict[str, Any]:
    """The `plan` field of a `plan` message: {plan (id), tokens, fates, groups, already,
    beyond, unplaced}; every token one of the unit's."""
    journal = message.get("plan")
    if not isinstance(journal, dict):
        raise ProtocolError("not_object", "plan must be a JSON object", field="plan")
    plan_id = p.text(journal, "plan", max_len=p.MAX_ID)
    tokens = p.text_list(journal, "tokens", max_items=MAX_TOKEN_IDS, max_len=128, prefix="plan.")
    known = set(unit_tokens)
    for token in tokens:
        if token not in known:
            raise ProtocolError(
                "unknown_token", f"plan names token {token!r}, not one of the unit's", field="plan"
            )
    named = set(tokens)
    fates = _object(journal, "fates")
    for token, fate in fates.items():
        if token not in named or fate not in FATES:
            raise ProtocolError(
                "bad_plan", f"plan.fates: {token!r} -> {fate!r}", field="plan.fates"
            )
    groups = _object(journal, "groups")
    clean_groups = {}
    for token, counts in groups.items():
        if token not in named or not isinstance(counts, dict):
            raise ProtocolError("bad_plan", f"plan.groups: {token!r}", field="plan.groups")
        clean_groups[token] = {
            key: p.integer(counts, key, low=0, high=MAX_FIGHTERS) for key in ("fighters", *FATES)
        }
    already = _object(journal, "already")
    clean_already = {}
    for fate in ("killed", "wounded"):
        listed = p.text_list(
            already, fate, max_items=MAX_TOKEN_IDS, max_len=128, prefix="plan.already."
        )
        if not set(listed) <= named:
            raise ProtocolError("bad_plan", f"plan.already.{fate}", field="plan.already")
        clean_already[fate] = listed
    beyond = _object(journal, "beyond")
    unplaced = _object(journal, "unplaced")
    return {
        "plan": plan_id,
        "tokens": tokens,
        "fates": dict(fates),
        "groups": clean_groups,
        "already": clean_already,
        "beyond": {
            f: p.integer(beyond, f, low=0, high=MAX_FIGHTERS) for f in ("killed", "wounded")
        },
        "unplaced": {f: p.integer(unplaced, f, low=0, high=1_000_000) for f in FATES},
    }


def _object(message: dict[str, Any], name: str) -> dict[str, Any]:
    value = message.get(name)
    if not isinstance(value, dict):
        raise ProtocolError(
            "not_object", f"plan.{name} must be a JSON object", field=f"plan.{name}"
        )
    return value


def _heads(message: dict[str, Any]) -> dict[str, int]:
    given = message.get("fighters", {})
    if not isinstance(given, dict) or len(given) > MAX_TOKEN_IDS:
        raise ProtocolError("not_object", "fighters must be {token id: heads}", field="fighters")
    return {str(token)[:128]: p.integer(given, token, low=1, high=MAX_FIGHTERS) for token in given}


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


def _job(room: Room, unit: str, message: dict[str, Any]) -> dict[str, Any]:
    """The unit's job, of the version the message names."""
    version = p.integer(message, "version", low=0, high=room.version)
    job = room.jobs.get(unit)
    if job is None or job["version"] != version:
        raise ProtocolError(
            "no_job",
            f"unit {unit!r} has no Apply of version {version} waiting"
            + (f" (it has one of version {job['version']})" if job else ""),
            field="version",
            params={"job": room.job_view(unit)},
        )
    return job


def _held(room: Room, unit: str, client: Client) -> None:
    held = room.claims.get(unit)
    if held is None or held[0] is not client:
        raise ProtocolError(
            "not_claimed",
            f"claim unit {unit!r} first: "
            + (f"{held[1]}'s browser holds it" if held else "nobody holds it"),
            field="unit",
            params={"by": held[1]} if held else {},
        )
