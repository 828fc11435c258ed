"""Apply jobs: casualties put on tokens by exactly one Foundry browser, as a transaction.

`request_casualties` stores one job per unit (the order: the core's numbers for it) and offers
it (`apply_casualties`) to every Foundry browser connected with the GM token. A browser that
can write takes it with `claim`: the bridge gives each job to one connection at a time (the
claim is that connection's while it stays open, never stored) and tells every GM who holds it
(`apply_job`). The holder stores its journal (`plan`: which token gets which fate) before its
first token write, then reports `applied`, which ends the job. A holder that goes away leaves
the job: offered again while nothing was planned, else an interrupted Apply that a GM finishes
(`claim`, then the same journal, then `applied`) or takes back (`claim`, Undo on the tokens,
then `cancel_apply`). The journal's shape is checked in journal.py; the tokens moved into the
PCs' fight, left out of an offer, in pcs_fight.py.
"""

from __future__ import annotations

from typing import Any

from websockets.asyncio.server import broadcast

from . import protocol as p
from .audience import Client
from .battles import Battles
from .foundry import (
    Replies,
    _repeated,
    _settled_request,
    _store,
    _unit,
    already_applied,
)
from .journal import FATES, check_journal
from .messages import outgoing, with_fields
from .protocol import ProtocolError
from .receipts import ack
from .room import Room


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
    return outgoing(
        "apply_casualties",
        battle=room.name,
        unit=unit,
        **job["order"],
        version=job["version"],
        token_ids=token_ids,
        heads=heads,
    )


def offer(battles: Battles, room: Room, unit: str) -> None:
    """Offer a unit's job to every Foundry browser connected with the GM token."""
    broadcast(battles.audience.foundry(), p.dumps(offer_of(room, unit)))


def tell_job(battles: Battles, room: Room, unit: str) -> None:
    """Tell the GMs watching the battle what the unit's job is now (null: none)."""
    told = outgoing("apply_job", battle=room.name, unit=unit, job=room.job_view(unit))
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
    again = p.field(message, "force")
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
        return [with_fields(duplicate[0], sent=[])]
    orders = {}
    for unit in view.get("units", []):
        unit_id = str(unit["id"])
        if (unit_id in room.applied and not again) or only not in (None, unit_id):
            continue
        if not busy(room, unit_id):
            orders[unit_id] = order_of(room, unit)
    if not orders:
        return [ack(request_id, room, room.version, sent=[])]
    record = {"kind": "ordered", "jobs": orders}
    replies = await _store(battles, room, request_id, message, record, None)
    for unit_id in orders:
        tell_job(battles, room, unit_id)
        offer(battles, room, unit_id)
    return [with_fields(reply, sent=list(orders)) for reply in replies]


async def claim(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`claim`: this Foundry browser takes a unit's job (to apply, finish or undo it)."""
    request_id, room = await _settled_request(battles, message)
    unit = _unit(room, message)
    by = p.field(message, "by")
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
    return [ack(request_id, room, room.version, job=job)]


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


def _job(room: Room, unit: str, message: dict[str, Any]) -> dict[str, Any]:
    """The unit's job, of the version the message names."""
    version = p.field(message, "version", high=room.version)
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
