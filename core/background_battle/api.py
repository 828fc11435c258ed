"""The JSON boundary: one function, plain dicts in and out, never raises (any shell calls it);
``handle_json`` is the same with JSON text in and out (the page's Pyodide worker calls it).

>>> handle({"op": "leader_bonus", "strength": 26, "sl": 7})
{'ok': True, 'bonus': 6, 'strength_for_next_test': 32}
>>> handle({"op": "casualties", "initial": 0, "remaining": 0, "units": []})["error"]["code"]
'out_of_range'
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, Final

from .battle import Battle, new_battle
from .casualties import casualties
from .errors import BattleError
from .explain import casualty_working, explain_entry
from .following import extended, working_of
from .influence import LANGUAGES, default_table
from .influence_words import placeholders
from .last_stand import last_stand
from .leader import leader_bonus
from .log import apply
from .odds import odds
from .serialize import SCHEMA, from_json, to_json
from .series import strength_series
from .setup_commands import planned_initial
from .shapes import MAX_DEPTH, SHAPES
from .units import SIZES, unit_strength
from .validate import MAX_TEXT, MAX_TYPED, SIDES, mapping, one_of, required, side, text, whole
from .view import state_view

Reply = dict[str, Any]


def handle(request: Any) -> Reply:
    """Answer one request ``{"op": ..., ...}``; a failure is ``{"ok": false, "error": {...}}``."""
    try:
        request = mapping(request, "request")
        op = one_of(request.get("op"), "op", OPS, "unknown_op")
        return {"ok": True, **OPS[op](request)}
    except BattleError as error:
        return {"ok": False, "error": error.to_dict()}
    except RecursionError:
        return {
            "ok": False,
            "error": BattleError("bad_input", None, "input nested too deeply").to_dict(),
        }


def handle_json(text: str) -> str:
    """``handle`` across a text boundary: the request as JSON text in, the reply as compact JSON
    text out (a page's worker passes one string each way; never raises).

    >>> handle_json('{"op": "leader_bonus", "strength": 26, "sl": 7}')
    '{"ok":true,"bonus":6,"strength_for_next_test":32}'
    >>> json.loads(handle_json("{"))["error"]["code"]
    'bad_input'
    """
    try:
        request = json.loads(text)
    except (TypeError, ValueError, RecursionError) as error:
        refused = BattleError("bad_input", "request", f"request is not JSON text: {error}")
        return json.dumps({"ok": False, "error": refused.to_dict()}, separators=(",", ":"))
    return json.dumps(handle(request), separators=(",", ":"))


# The last battle handed out, as JSON text and as a value: a page sends it straight back with
# its next command, and recognising it spares the replay that checks a battle from outside.
_last_handed_out: tuple[str, Battle] | None = None


# The battle kept for a page's worker, under a number (``"keep": true`` asks for it): the next
# request may name it (``"kept": n``) instead of sending the battle, so that an edit's cost does
# not grow with the log. One at a time: keeping another forgets it.
_kept: tuple[int, Battle] | None = None
_kept_count = 0


def _keep(battle: Battle) -> int:
    """Keep ``battle`` for the next request; its number."""
    global _kept, _kept_count
    _kept_count += 1
    _kept = (_kept_count, battle)
    return _kept_count


def _kept_battle(request: dict[str, Any]) -> Battle | None:
    """The battle the request names by ``kept``; None if it names none (or not the one kept,
    when it sends its battle as well); refused if it names another and sends no battle."""
    number = request.get("kept")
    if number is None:
        return None
    if _kept is not None and number == _kept[0] and not isinstance(number, bool):
        return _kept[1]
    if request.get("battle") is None and request.get("log") is None:
        raise BattleError("bad_input", "kept", "no battle is kept under this number: send it")
    return None


def _battle_in(request: dict[str, Any]) -> Battle:
    """The request's battle: the kept one it names, the one handed out last if it comes back
    unchanged, else checked.

    A live page holds a view, not the JSON form: it may send the view's ``log`` (and ``name``)
    instead of ``battle``, and the battle is replayed from that log.
    """
    kept = _kept_battle(request)
    if kept is not None:
        return kept
    if request.get("battle") is None and request.get("log") is not None:
        name = request.get("name") or "battle"
        return from_json({"schema": SCHEMA, "name": name, "log": request["log"]})
    data = required(request, "battle")
    if _last_handed_out is not None:
        try:
            text = json.dumps(data, sort_keys=True)
        except (TypeError, ValueError):
            text = None
        if text == _last_handed_out[0]:
            return _last_handed_out[1]
    return from_json(data)


def _battle_out(battle: Battle) -> dict[str, Any]:
    """The battle's JSON form for the reply, remembered for the next request."""
    global _last_handed_out
    data = to_json(battle)
    _last_handed_out = (json.dumps(data, sort_keys=True), battle)
    return data


def _kept_out(request: dict[str, Any], battle: Battle) -> Reply:
    """``{"kept": n}`` when the request asks for its battle to be kept (``"keep": true``)."""
    return {"kept": _keep(battle)} if request.get("keep") is True else {}


def _new_battle(request: dict[str, Any]) -> Reply:
    battle = new_battle(request.get("name") or "battle")
    return {"battle": _battle_out(battle), "view": state_view(battle), **_kept_out(request, battle)}


def _apply(request: dict[str, Any]) -> Reply:
    """The command applied. On a kept battle (``"kept": n``) the reply carries what changed: the
    new battle is kept under a new number, the view comes without its log and ``entries`` are
    the log's new entries (the battle's JSON form and the view's log, both, end with them).

    >>> n = handle({"op": "new_battle", "keep": True})["kept"]
    >>> command = {"type": "add_unit", "name": "Orcs", "side": "enemies", "fighters": 12,
    ...     "strength": 26}
    >>> reply = handle({"op": "apply", "kept": n, "command": command})
    >>> sorted(reply), reply["kept"] == n + 1, reply["entries"][0]["command"]["name"]
    (['entries', 'events', 'kept', 'ok', 'view'], True, 'Orcs')
    >>> handle({"op": "apply", "kept": n, "command": command})["error"]["field"]
    'kept'
    """
    kept = _kept_battle(request)
    battle = _battle_in(request) if kept is None else kept
    seed = request.get("seed")
    rng = None if seed is None else random.Random(whole(seed, "seed", 0, 2**63))
    after, events = apply(battle, required(request, "command"), rng)
    if kept is not None:
        return {
            "kept": _keep(after),
            "events": events,
            "view": state_view(after, log=False),
            "entries": [entry.to_dict() for entry in after.log[len(battle.log) :]],
        }
    reply = {"battle": _battle_out(after), "events": events, "view": state_view(after)}
    return {**reply, **_kept_out(request, after)}


def _view(request: dict[str, Any]) -> Reply:
    battle = _battle_in(request)
    return {"view": state_view(battle, request.get("role", "gm")), **_kept_out(request, battle)}


def _casualties(request: dict[str, Any]) -> Reply:
    units = required(request, "units")
    if not isinstance(units, list):
        raise BattleError("out_of_range", "units", "units must be a list of {name, fighters}")
    names = [
        text(required(mapping(u, f"units[{i}]"), "name", f"units[{i}].name"), f"units[{i}].name")
        for i, u in enumerate(units)
    ]
    # Every bad number in one check (casualties finds them all): a missing one is not a number.
    fighters = [u.get("fighters") for u in units]
    report = casualties(request.get("initial"), request.get("remaining"), fighters)
    return {
        "lost_share": float(report.lost_share),
        "units": [{"name": n, **u.to_dict()} for n, u in zip(names, report.units, strict=True)],
    }


def _leader_bonus(request: dict[str, Any]) -> Reply:
    strength = whole(required(request, "strength"), "strength", 0)
    bonus = leader_bonus(strength, required(request, "sl"))
    return {"bonus": bonus, "strength_for_next_test": strength + bonus}


def _last_stand(request: dict[str, Any]) -> Reply:
    result = last_stand(
        required(request, "enemy_strength"),
        request.get("fleeing") or 0,
        request.get("allies_strength"),
    )
    return result.to_dict()


def _unit_strength(request: dict[str, Any]) -> Reply:
    fighters = whole(required(request, "fighters"), "fighters", 1)
    rating = whole(required(request, "rating"), "rating", 0)
    return {"strength": unit_strength(fighters, rating, request.get("size") or "average")}


def _odds(request: dict[str, Any]) -> Reply:
    battle = _battle_in(request)
    return odds(battle, request.get("runs", 10_000), request.get("seed")).to_dict()


def _explain(request: dict[str, Any]) -> Reply:
    """The working of a log entry (the last that counts by default) and of each unit's casualties.

    >>> reply = handle({"op": "explain", "log": []})
    >>> reply["steps"], reply["casualties"]
    ([], {})
    """
    battle = _battle_in(request)
    active = battle.active_entries()
    entry = request.get("entry")
    if entry is None:
        entry = active[-1] if active else None
    steps = [] if entry is None else explain_entry(battle, entry)
    return {"entry": entry, "steps": steps, "casualties": casualty_working(battle)}


def _series(request: dict[str, Any]) -> Reply:
    return {"points": strength_series(_battle_in(request))}


def _working(request: dict[str, Any]) -> Reply:
    """What a page following a battle shows: the newest entry's working, the casualties', the
    chart's points (following.py); ``"keep": true`` keeps the battle for ``extend``."""
    battle = _battle_in(request)
    return {**working_of(battle), **_kept_out(request, battle)}


def _extend(request: dict[str, Any]) -> Reply:
    """The kept battle with the log's new ``entries``, kept under a new number, and what they
    bring to the working: its cost follows the entries sent, not the log's length.

    >>> n = handle({"op": "working", "log": [], "keep": True})["kept"]
    >>> entry = {"command": {"type": "rename", "name": "ford"}, "events": [
    ...     {"type": "renamed", "name": "ford"}]}
    >>> reply = handle({"op": "extend", "kept": n, "entries": [entry]})
    >>> reply["kept"] == n + 1, reply["entry"], reply["restart"]
    (True, 0, False)
    >>> handle({"op": "extend", "kept": n, "entries": [entry]})["error"]["field"]
    'kept'
    """
    battle = _kept_battle(request)
    if battle is None:
        raise BattleError("required", "kept", "kept is required: the battle to extend")
    entries = required(request, "entries")
    if not isinstance(entries, list):
        raise BattleError("bad_input", "entries", "entries must be a list of log entries")
    battle, working = extended(battle, entries)
    return {**working, "kept": _keep(battle)}


def _initial_strength(request: dict[str, Any]) -> Reply:
    """Each side's S0: fixed at the start, or, in set-up, what Start would fix now (null for a
    side without units).

    >>> handle({"op": "initial_strength", "log": []})["initial"]
    {'allies': None, 'enemies': None}
    """
    battle = _battle_in(request)
    initial: dict[str, int | None] = {}
    for each in SIDES:
        if battle.status != "setup":
            initial[each] = battle.side(each).initial
        else:
            initial[each] = planned_initial(battle, each) if battle.units_of(each) else None
    return {"initial": initial, **_kept_out(request, battle)}


def _influence_table(request: dict[str, Any]) -> Reply:
    table = default_table()
    if request.get("side") is not None:
        table = table.for_side(side(request["side"]))
    return {
        "table": table.to_dict(),
        "placeholders": {language: placeholders(language) for language in LANGUAGES},
    }


def _command_shapes(request: dict[str, Any]) -> Reply:
    return {
        "commands": [shape.to_dict() for shape in SHAPES.values()],
        "limits": {"max_depth": MAX_DEPTH, "max_text": MAX_TEXT, "max_typed": MAX_TYPED},
    }


def _sizes(request: dict[str, Any]) -> Reply:
    return {"sizes": [{"name": n, "multiplier": str(x)} for n, x in SIZES.items()]}


OPS: Final[dict[str, Callable[[dict[str, Any]], Reply]]] = {
    "new_battle": _new_battle,
    "apply": _apply,
    "view": _view,
    "casualties": _casualties,
    "leader_bonus": _leader_bonus,
    "last_stand": _last_stand,
    "unit_strength": _unit_strength,
    "odds": _odds,
    "influence_table": _influence_table,
    "explain": _explain,
    "series": _series,
    "working": _working,
    "extend": _extend,
    "initial_strength": _initial_strength,
    "sizes": _sizes,
    "command_shapes": _command_shapes,
}
