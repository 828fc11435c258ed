"""Which effects of an Influence roll are done in the PCs' fight (`mark_effects`): applied by
Foundry's *Apply to the fight* (with the dice it rolled and whom they hit) or ticked off on the
GM's page, so that neither does one twice; kept per battle and roll (the log entry's `version`)
and told to the GMs alone (`effects_marked`; visibility.py).

A mark belongs to the kind of client that made it (`by`: "foundry", "web", "cli"): Foundry's
Undo takes back its own marks, the page unticks its own; one made elsewhere stays. The bridge
checks every index against the roll's own effects (the core's band, read for the side that
rolled) and computes nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from background_battle.influence_effects import MAX_EFFECTS

from . import protocol as p
from .audience import Client
from .battles import Battles
from .foundry import Replies, _repeated, _settled_request, _store
from .messages import MAX_RESULT, outgoing
from .protocol import ProtocolError
from .room import Room


async def mark_effects(battles: Battles, client: Client, message: dict[str, Any]) -> Replies:
    """`mark_effects`: effects of one Influence roll marked done (with what they gave) or
    unmarked; all or nothing."""
    request_id, room = await _settled_request(battles, message)
    version = p.field(message, "version", high=room.version)
    effects = _effects_of_roll(room, version)
    duplicate = await _repeated(room, request_id, message)
    if duplicate is not None:
        return duplicate
    stored = room.marks.get(str(version), {})
    changes: dict[str, dict[str, Any] | None] = {}
    for index, raw in enumerate(_mark_list(message)):
        where = f"marks[{index}]"
        effect, change = _inside(where, _change, raw, effects, stored, client.kind)
        if str(effect) in changes:
            raise ProtocolError(
                "unknown_effect", f"effect {effect} is named twice", field=f"{where}.effect"
            )
        changes[str(effect)] = change
    record = {"kind": "marked", "version": version, "marks": changes}
    after = {**stored, **changes}
    told = outgoing(
        "effects_marked",
        battle=room.name,
        version=version,
        marks={key: mark for key, mark in after.items() if mark is not None},
    )
    return await _store(battles, room, request_id, message, record, told, field="marks")


def _change(
    raw: Any, effects: list[dict[str, Any]], stored: dict[str, Any], by: str
) -> tuple[int, dict[str, Any] | None]:
    """One mark of the message: (the effect's index, its new mark or None to take it back)."""
    if not isinstance(raw, dict):
        raise ProtocolError("not_object", "a mark must be a JSON object", field="")
    unknown = set(raw) - {"effect", "kind", "done", "result"}
    if unknown:
        raise ProtocolError("bad_mark", f"a mark has no field {min(unknown)!r}", field="")
    effect = p.integer(raw, "effect", low=0, high=MAX_EFFECTS - 1)
    kind = p.text(raw, "kind", max_len=32)
    if effect >= len(effects) or kind != effects[effect]["kind"]:
        raise ProtocolError(
            "unknown_effect",
            f"the Influence roll has no effect {effect} of kind {kind!r}",
            field="effect",
            params={"effects": [e["kind"] for e in effects]},
        )
    done = raw.get("done")
    if not isinstance(done, bool):
        raise ProtocolError("not_bool", "done must be true or false", field="done")
    mark = stored.get(str(effect))
    if done:
        if mark is not None:
            raise ProtocolError(
                "already_marked",
                f"effect {effect} of that roll is done already ({mark['by']})",
                field="effect",
                params={"mark": mark},
            )
        result = p.text(raw, "result", max_len=MAX_RESULT, optional=True)
        return effect, {"by": by, **({"result": result} if result is not None else {})}
    if "result" in raw:
        raise ProtocolError("bad_mark", "a result goes with done: true", field="result")
    if mark is None or mark["by"] != by:
        raise ProtocolError(
            "not_marked",
            f"effect {effect} of that roll is not marked done"
            + (f" by a {by} client: {mark['by']} marked it" if mark else ""),
            field="effect",
            params={"mark": mark} if mark else {},
        )
    return effect, None


T = TypeVar("T")


def _inside(where: str, check: Callable[..., T], *args: Any) -> T:
    """A check of one mark, its refusal's field named inside the list (`marks[1].effect`)."""
    try:
        return check(*args)
    except ProtocolError as exc:
        exc.field = f"{where}.{exc.field}" if exc.field else where
        raise


def _mark_list(message: dict[str, Any]) -> list[Any]:
    marks = message.get("marks")
    if not isinstance(marks, list) or not 1 <= len(marks) <= MAX_EFFECTS:
        raise ProtocolError(
            "not_list",
            f"marks must be a list of 1 to {MAX_EFFECTS} marks",
            field="marks",
            params={"min": 1, "max": MAX_EFFECTS},
        )
    return marks


def _effects_of_roll(room: Room, version: int) -> list[dict[str, Any]]:
    """The effects of the Influence roll the log entry of `version` made (one that counts)."""
    entry = room.battle.log[version - 1]
    rolled = [e for e in entry.events if e["type"] == "influence_rolled"]
    if not rolled or version - 1 in room.battle.undone:
        raise ProtocolError(
            "unknown_roll",
            f"step {version} of battle {room.name!r} is not an Influence roll that counts",
            field="version",
        )
    effects = (rolled[0].get("band") or {}).get("effects") or []
    return list(effects)
