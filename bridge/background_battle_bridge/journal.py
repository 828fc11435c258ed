"""The journal of an Apply (`plan`): which token gets which fate, as the Foundry module's
logic/fates.mjs `chooseFates` makes it, checked before the bridge keeps it."""

from __future__ import annotations

from typing import Any

from background_battle.units import MAX_FIGHTERS

from . import protocol as p
from .messages import MAX_COUNT, MAX_TOKEN_ID, MAX_TOKEN_IDS
from .protocol import ProtocolError

FATES = ("killed", "wounded", "fit")


def check_journal(message: dict[str, Any], unit_tokens: list[str]) -> dict[str, Any]:
    """The `plan` field of a `plan` message: {plan (id), tokens, fates, groups, already,
    beyond, unplaced}; every token one of the unit's."""
    journal = message.get("plan")
    if not isinstance(journal, dict):
        raise ProtocolError("not_object", "plan must be a JSON object", field="plan")
    plan_id = p.text(journal, "plan", max_len=p.MAX_ID)
    tokens = p.text_list(
        journal, "tokens", max_items=MAX_TOKEN_IDS, max_len=MAX_TOKEN_ID, prefix="plan."
    )
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
            already, fate, max_items=MAX_TOKEN_IDS, max_len=MAX_TOKEN_ID, prefix="plan.already."
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
        "unplaced": {f: p.integer(unplaced, f, low=0, high=MAX_COUNT) for f in FATES},
    }


def _object(message: dict[str, Any], name: str) -> dict[str, Any]:
    value = message.get(name)
    if not isinstance(value, dict):
        raise ProtocolError(
            "not_object", f"plan.{name} must be a JSON object", field=f"plan.{name}"
        )
    return value
