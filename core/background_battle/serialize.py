"""The JSON form of a battle: a ``schema`` version and the log; loading checks it by replay."""

from __future__ import annotations

from typing import Any, Final

from .battle import Battle, Entry, new_battle
from .dice import RecordedDice, recorded_rolls
from .errors import BattleError
from .log import MAX_LOG, apply, decide, evolve, rebuild
from .validate import mapping, text, whole

SCHEMA: Final = 1


def to_json(battle: Battle) -> dict[str, Any]:
    """The battle as JSON-friendly data; ``from_json`` gives the same battle back.

    >>> to_json(new_battle("ambush"))
    {'schema': 1, 'name': 'ambush', 'log': []}
    """
    return {
        "schema": SCHEMA,
        "name": battle.created_as,
        "log": [entry.to_dict() for entry in battle.log],
    }


def from_json(data: Any) -> Battle:
    """Load a battle, upgrading an older schema and checking every entry by replaying it.

    Each command is decided again with the rolls its events recorded, so a tampered or
    broken log is refused rather than loaded.

    Raises:
        BattleError: ``bad_battle`` naming the entry at fault, or ``schema_too_new``.
    """
    data = upgrade(mapping(data, "battle"))
    battle = new_battle(text(data.get("name"), "battle.name"))
    log = data.get("log", [])
    if not isinstance(log, list) or len(log) > MAX_LOG:
        raise BattleError(
            "bad_battle", "battle.log", f"battle.log must be a list of at most {MAX_LOG} entries"
        )
    for index, raw in enumerate(log):
        battle = evolve(battle, checked_entry(battle, raw, f"battle.log[{index}]"))
    return battle


def checked_entry(battle: Battle, raw: Any, field: str) -> Entry:
    """One log entry from outside, decided again on ``battle`` with the rolls it recorded.

    Raises:
        BattleError: ``bad_battle`` naming ``field`` when the command is refused on replay or
            its events are not the ones it gives.
    """
    raw = mapping(raw, field)
    events = raw.get("events")
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        raise BattleError("bad_battle", f"{field}.events", f"{field}.events must be a list")
    try:
        entry = decide(battle, raw.get("command"), RecordedDice(recorded_rolls(events)))
    except BattleError as error:
        raise BattleError(
            "bad_battle",
            f"{field}.command",
            f"{field} was refused on replay: {error.message}",
            reason=error.to_dict(),
        ) from None
    except (KeyError, TypeError) as error:
        raise BattleError(
            "bad_battle", f"{field}.events", f"{field}.events are malformed: {error}"
        ) from None
    if not same_events(list(entry.events), events):
        raise BattleError(
            "bad_battle",
            f"{field}.events",
            f"{field}.events do not match what its command gives on replay",
        )
    return entry


ADDED_LATER: Final = {"round_resolved": ("decided_by", "strength_before")}
"""Keys a newer core writes into an event that an older one did not: a saved battle without
them is the same battle (its replay gives them; it is loaded with them)."""


def same_events(replayed: list[dict[str, Any]], saved: list[dict[str, Any]]) -> bool:
    """Whether the saved events are what the replay gave, up to the keys ``ADDED_LATER``.

    >>> new = {"type": "round_resolved", "winner": "allies", "decided_by": "sl"}
    >>> same_events([new], [{"type": "round_resolved", "winner": "allies"}])
    True
    >>> same_events([new], [{**new, "decided_by": "target"}])
    False
    """
    if len(replayed) != len(saved):
        return False
    for made, kept in zip(replayed, saved, strict=True):
        later = [key for key in ADDED_LATER.get(made.get("type", ""), ()) if key not in kept]
        if {k: v for k, v in made.items() if k not in later} != kept:
            return False
    return True


def restore(data: dict[str, Any]) -> Battle:
    """Load a battle this program saved itself with ``to_json`` (trusted: one fold, no checks).

    For stores that wrote the JSON form themselves (the bridge's snapshots); anything from
    outside goes through ``from_json``. The undone entries are read from the undo entries.

    >>> from background_battle import apply
    >>> battle, _ = apply(new_battle("x"), {"type": "rename", "name": "y"})
    >>> battle, _ = apply(battle, {"type": "undo"})
    >>> restore(to_json(battle)) == battle
    True
    """
    log = tuple(Entry(dict(e["command"]), tuple(e["events"])) for e in data["log"])
    undone = frozenset(
        event["entry"] for entry in log for event in entry.events if event["type"] == "undone"
    )
    name = data["name"]
    return rebuild(Battle(name=name, created_as=name, log=log, undone=undone))


def upgrade(raw: Any) -> dict[str, Any]:
    """Bring an older JSON form up to the current ``schema``.

    Schema 0 is the hand-written form a GM can type (no log): a name, ``units``, optional
    ``modifiers`` by side, and optionally ``started: true`` with ``strength`` by side.

    >>> old = {"schema": 0, "name": "x", "units": [
    ...     {"name": "Dwarves", "side": "allies", "fighters": 10, "strength": 30}]}
    >>> [entry["command"]["type"] for entry in upgrade(old)["log"]]
    ['add_unit']
    """
    data: dict[str, Any] = dict(mapping(raw, "battle"))
    schema = whole(data.get("schema", 0), "battle.schema", 0)
    if schema > SCHEMA:
        raise BattleError(
            "schema_too_new",
            "battle.schema",
            f"battle.schema {schema} is newer than this version understands ({SCHEMA})",
            max=SCHEMA,
        )
    if schema == 0:
        data = _from_setup(data)
    return data


def _from_setup(data: dict[str, Any]) -> dict[str, Any]:
    """Schema 0 to 1: turn the hand-written set-up into the log that builds it."""
    battle = new_battle(str(data.get("name") or "battle"))
    commands: list[dict[str, Any]] = []
    units = data.get("units", [])
    if not isinstance(units, list):
        raise BattleError("bad_battle", "battle.units", "battle.units must be a list")
    for unit in units:
        commands.append({"type": "add_unit", **mapping(unit, "battle.units[]")})
    modifiers = mapping(data.get("modifiers") or {}, "battle.modifiers")
    for side, items in modifiers.items():
        commands.append({"type": "set_modifiers", "side": side, "modifiers": items})
    if data.get("started") or data.get("strength"):
        commands.append({"type": "start"})
        strength = mapping(data.get("strength") or {}, "battle.strength")
        for side, value in strength.items():
            commands.append({"type": "set_strength", "side": side, "strength": value})
    for command in commands:
        battle, _ = apply(battle, command)
    return to_json(battle)
