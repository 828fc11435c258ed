"""What an Influence band does to the PCs' fight, as data (docs/rules.md §6, "Effects as data").

A band's sentence says it for the GM; its effects say it for a tool that applies it: Advantage
gained or lost, Damage to a random or chosen combatant, a modifier to tests, fighters joining the
PCs' fight, a test with a condition on failure, a condition. ``who`` is relative to the side that
rolled (``rolling`` or ``other``, ``any`` for a combatant of either side), as the sentence's
placeholders are; reading a band for a side adds ``side`` (``allies``, ``enemies``, or null for
``any``).

>>> effect = effect_from_dict({"kind": "damage", "who": "other", "target": "gm_choice",
...     "dice": "1d10+4"}, "effects[0]")
>>> effect.for_side("allies").to_dict()
{'kind': 'damage', 'who': 'other', 'target': 'gm_choice', 'dice': '1d10+4', 'side': 'enemies'}
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Final

from .errors import BattleError
from .validate import Side, mapping, one_of, only_known, other_side, show, whole

MAX_EFFECTS: Final = 10
WHO: Final = ("rolling", "other")
WHO_OR_ANY: Final = (*WHO, "any")
TARGETS: Final = ("random", "gm_choice")
# WFRP4e's difficulties by the system's own keys (moo-man/WFRP4e-FoundryVTT
# src/system/config-wfrp4e.js, WFRP4E.difficultyModifiers) and what each adds to the target.
DIFFICULTIES: Final[dict[str, int]] = {
    "veasy": 60,
    "easy": 40,
    "average": 20,
    "challenging": 0,
    "difficult": -10,
    "hard": -20,
    "vhard": -30,
}
# The characteristics by the system's keys (the same file, WFRP4E.characteristics).
CHARACTERISTICS: Final = ("ws", "bs", "s", "t", "i", "ag", "dex", "int", "wp", "fel")
# The basic skills a mass-battle effect may call for, each with its characteristic (WFRP 4th
# edition rulebook, chapter 4: a basic skill untrained is tested on its characteristic).
SKILLS: Final[dict[str, str]] = {
    "athletics": "ag",
    "cool": "wp",
    "dodge": "ag",
    "endurance": "t",
    "intimidate": "s",
    "leadership": "fel",
    "melee": "ws",
    "perception": "i",
}
# WFRP4e's conditions (src/system/config-wfrp4e.js, statusEffects ids), "dead" left out.
CONDITIONS: Final = (
    "ablaze",
    "bleeding",
    "blinded",
    "broken",
    "deafened",
    "engaged",
    "entangled",
    "fatigued",
    "grappling",
    "poisoned",
    "prone",
    "stunned",
    "surprised",
    "unconscious",
)
MAX_DICE: Final = 20
MAX_FACES: Final = 100
MAX_PLUS: Final = 100
DICE: Final = re.compile(r"(\d{1,3})d(\d{1,3})(?:([+-])(\d{1,3}))?")
MAX_ROUNDS: Final = 10
MAX_FIGHTERS: Final = 1000
MAX_ADVANTAGE: Final = 10
MAX_MODIFIER: Final = 60

# The fields of each kind, beside ``kind`` and ``who``, in the order an effect is written.
KINDS: Final[dict[str, tuple[str, ...]]] = {
    "advantage": ("gain", "lose"),
    "damage": ("target", "dice"),
    "test_modifier": ("amount", "rounds"),
    "reinforcements": ("fighters", "in_rounds"),
    "test": ("skill", "characteristic", "difficulty", "on_failure"),
    "condition": ("condition",),
}


@dataclass(frozen=True)
class Effect:
    """One effect: its ``kind``, ``who`` (relative to the side that rolled), its terms.

    Once read for a roll by a side (``read``), ``side`` names whose fighters it is about
    (None for ``who: any``).
    """

    kind: str
    who: str
    terms: tuple[tuple[str, int | str], ...]
    side: Side | None = None
    read: bool = False

    def for_side(self, side: Side) -> Effect:
        """The effect as read for a roll by ``side``: whose fighters it is about."""
        whose = None if self.who == "any" else side if self.who == "rolling" else other_side(side)
        return replace(self, side=whose, read=True)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form (``side`` only once read for a side)."""
        data: dict[str, Any] = {"kind": self.kind, "who": self.who, **dict(self.terms)}
        if self.read:
            data["side"] = self.side
        return data


def effects_from_list(raw: Any, field: str) -> tuple[Effect, ...]:
    """A band's effects: a list of at most ``MAX_EFFECTS`` (an empty list: "nothing happens").

    >>> [e.kind for e in effects_from_list([{"kind": "advantage", "who": "rolling",
    ...     "gain": 1}], "effects")]
    ['advantage']

    Raises:
        BattleError: ``bad_effect`` naming the effect's field.
    """
    if not isinstance(raw, list) or len(raw) > MAX_EFFECTS:
        raise BattleError(
            "bad_effect",
            field,
            f"{field} must be a list of at most {MAX_EFFECTS} effects, not {show(raw)}",
            max=MAX_EFFECTS,
        )
    return tuple(effect_from_dict(item, f"{field}[{i}]") for i, item in enumerate(raw))


def effect_from_dict(raw: Any, field: str) -> Effect:
    """One effect, checked by its kind; every term canonical.

    >>> effect_from_dict({"kind": "advantage", "who": "other", "lose": "all"}, "e").terms
    (('lose', 'all'),)
    >>> effect_from_dict({"kind": "advantage", "who": "other", "gain": 1, "lose": 1}, "e")
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: e: Advantage is either gained or lost: give gain or lose
    """
    raw = mapping(raw, field)
    kind = one_of(raw.get("kind"), f"{field}.kind", tuple(KINDS), "bad_effect")
    only_known(raw, ("kind", "who", *KINDS[kind]), f"{field}.", f"a {kind} effect")
    who_accepted = WHO_OR_ANY if kind == "damage" else WHO
    who = one_of(raw.get("who"), f"{field}.who", who_accepted, "bad_effect")
    terms = _TERMS[kind](raw, field)
    return Effect(kind, who, tuple((key, value) for key, value in terms if value is not None))


Terms = list[tuple[str, int | str | None]]


def _advantage(raw: Any, field: str) -> Terms:
    if ("gain" in raw) == ("lose" in raw):
        raise BattleError(
            "bad_effect", field, f"{field}: Advantage is either gained or lost: give gain or lose"
        )
    if "gain" in raw:
        return [("gain", whole(raw["gain"], f"{field}.gain", 1, MAX_ADVANTAGE))]
    lose = raw["lose"]
    if lose != "all":
        lose = _whole_or(lose, f"{field}.lose", 1, MAX_ADVANTAGE, "all")
    return [("lose", lose)]


def _damage(raw: Any, field: str) -> Terms:
    target = one_of(raw.get("target"), f"{field}.target", TARGETS, "bad_effect")
    return [("target", target), ("dice", dice_formula(raw.get("dice"), f"{field}.dice"))]


def _test_modifier(raw: Any, field: str) -> Terms:
    amount = whole(_needed(raw, "amount", field), f"{field}.amount", -MAX_MODIFIER, MAX_MODIFIER)
    if amount == 0:
        raise BattleError("bad_effect", f"{field}.amount", f"{field}.amount must not be 0")
    rounds = whole(_needed(raw, "rounds", field), f"{field}.rounds", 1, MAX_ROUNDS)
    return [("amount", amount), ("rounds", rounds)]


def _reinforcements(raw: Any, field: str) -> Terms:
    fighters = _whole_or(
        _needed(raw, "fighters", field), f"{field}.fighters", 1, MAX_FIGHTERS, "gm_choice"
    )
    in_rounds = whole(_needed(raw, "in_rounds", field), f"{field}.in_rounds", 1, MAX_ROUNDS)
    return [("fighters", fighters), ("in_rounds", in_rounds)]


def _test(raw: Any, field: str) -> Terms:
    if ("skill" in raw) == ("characteristic" in raw):
        raise BattleError(
            "bad_effect",
            field,
            f"{field}: a test is of a skill or of a characteristic: give skill or characteristic",
        )
    skill = characteristic = None
    if "skill" in raw:
        skill = one_of(raw["skill"], f"{field}.skill", tuple(SKILLS), "bad_effect")
    else:
        characteristic = one_of(
            raw["characteristic"], f"{field}.characteristic", CHARACTERISTICS, "bad_effect"
        )
    difficulty = one_of(
        _needed(raw, "difficulty", field), f"{field}.difficulty", tuple(DIFFICULTIES), "bad_effect"
    )
    failure = one_of(
        _needed(raw, "on_failure", field), f"{field}.on_failure", CONDITIONS, "bad_effect"
    )
    return [
        ("skill", skill),
        ("characteristic", characteristic),
        ("difficulty", difficulty),
        ("on_failure", failure),
    ]


def _condition(raw: Any, field: str) -> Terms:
    condition = one_of(
        _needed(raw, "condition", field), f"{field}.condition", CONDITIONS, "bad_effect"
    )
    return [("condition", condition)]


_TERMS: Final = {
    "advantage": _advantage,
    "damage": _damage,
    "test_modifier": _test_modifier,
    "reinforcements": _reinforcements,
    "test": _test,
    "condition": _condition,
}


def dice_formula(value: Any, field: str) -> str:
    """A dice formula ``NdF`` with an optional ``+K`` or ``-K``, canonical.

    >>> dice_formula("1d10+4", "dice"), dice_formula("2D6", "dice")
    ('1d10+4', '2d6')
    >>> dice_formula("1d10+x", "dice")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: dice must be a formula like 1d10+4 (1 to 20 dice ...
    """
    match = DICE.fullmatch(value.strip().lower()) if isinstance(value, str) else None
    message = (
        f"{field} must be a formula like 1d10+4 (1 to {MAX_DICE} dice of 2 to {MAX_FACES} "
        f"faces, plus or minus 0 to {MAX_PLUS}), not {show(value)}"
    )
    if match is None:
        raise BattleError("bad_effect", field, message, max=MAX_DICE)
    count, faces, sign, plus = match.groups()
    if not (1 <= int(count) <= MAX_DICE and 2 <= int(faces) <= MAX_FACES):
        raise BattleError("bad_effect", field, message, max=MAX_DICE)
    if plus is None or int(plus) == 0:
        return f"{int(count)}d{int(faces)}"
    if int(plus) > MAX_PLUS:
        raise BattleError("bad_effect", field, message, max=MAX_DICE)
    return f"{int(count)}d{int(faces)}{sign}{int(plus)}"


def _needed(raw: Any, key: str, field: str) -> Any:
    if key not in raw:
        raise BattleError("required", f"{field}.{key}", f"{field}.{key} is required")
    return raw[key]


def _whole_or(value: Any, field: str, low: int, high: int, word: str) -> int | str:
    if value == word:
        return word
    if isinstance(value, str):
        raise BattleError(
            "bad_effect",
            field,
            f"{field} must be a whole number from {low} to {high}, or {word!r}, not {show(value)}",
            min=low,
            max=high,
            accepted=[word],
        )
    return whole(value, field, low, high)
