"""The Influence table (Влияние фонового боя): data, checks, modifier (docs/rules.md §6)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from typing import Any, Final

from .errors import BattleError
from .influence_effects import Effect, effects_from_list
from .influence_words import fill, placeholders, unknown_placeholders
from .validate import (
    Side,
    flag,
    mapping,
    no_control_character,
    only_known,
    safe_name,
    valid_unicode,
    whole,
)

MAX_BANDS: Final = 50
MAX_EFFECT: Final = 1000
LANGUAGES: Final = ("en", "ru")
LIMIT: Final = 10_000_000


@dataclass(frozen=True)
class Band:
    """A range of totals (``None`` for an open end), its effect in each language (the sentence)
    and, when the table carries them, its effects as data (``None``: text only, nothing is
    applied for the GM; an empty tuple: the band does nothing).
    """

    min: int | None
    max: int | None
    effect: tuple[tuple[str, str], ...]
    effects: tuple[Effect, ...] | None = None

    def contains(self, total: int) -> bool:
        """Whether ``total`` falls in this band."""
        return (self.min is None or total >= self.min) and (self.max is None or total <= self.max)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form (``effects`` only when the band carries them)."""
        data: dict[str, Any] = {"min": self.min, "max": self.max, "effect": dict(self.effect)}
        if self.effects is not None:
            data["effects"] = [effect.to_dict() for effect in self.effects]
        return data

    def for_side(self, side: Side) -> Band:
        """The band as read for a roll by ``side``: its placeholders filled in.

        >>> default_table().band_for(183).for_side("enemies").to_dict()["effect"]["en"][:40]
        'Help is coming: an enemy fighter joins t'
        >>> default_table().band_for(183).for_side("enemies").to_dict()["effects"][0]["side"]
        'enemies'
        """
        effect = tuple((language, fill(text, language, side)) for language, text in self.effect)
        effects = None if self.effects is None else tuple(e.for_side(side) for e in self.effects)
        return Band(self.min, self.max, effect, effects)


@dataclass(frozen=True)
class InfluenceTable:
    """Bands covering every total, from "below ..." to "... and more"."""

    name: tuple[tuple[str, str], ...]
    bands: tuple[Band, ...]
    house_default: bool = False

    def band_for(self, total: int) -> Band:
        """The band a total falls in.

        >>> default_table().band_for(-3).max, default_table().band_for(230).min
        (0, 200)
        """
        for band in self.bands:
            if band.contains(total):
                return band
        raise AssertionError("a validated table covers every total")  # pragma: no cover

    def for_side(self, side: Side) -> InfluenceTable:
        """The table as read for a roll by ``side`` (no placeholders left)."""
        bands = tuple(band.for_side(side) for band in self.bands)
        return InfluenceTable(self.name, bands, self.house_default)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form, the same shape ``table_from_dict`` reads."""
        return {
            "name": dict(self.name),
            "house_default": self.house_default,
            "bands": [band.to_dict() for band in self.bands],
        }


def influence_modifier(own_strength: int, other_strength: int, battle_over: bool) -> int:
    """The modifier to the d100 roll for one side.

    After the battle (seed): ``50 + the winner's remaining strength``. During it (house
    default): ``this side's strength - the other side's``.

    >>> influence_modifier(18, 0, battle_over=True)
    68
    >>> influence_modifier(20, 32, battle_over=False)
    -12
    """
    if battle_over:
        return 50 + own_strength
    return own_strength - other_strength


@cache
def default_table() -> InfluenceTable:
    """The project's own table, marked as a house default (the fragment names no rows).

    >>> len(default_table().bands), default_table().house_default
    (10, True)
    """
    raw = resources.files(__package__).joinpath("data/influence_default.json").read_text("utf-8")
    return table_from_dict(json.loads(raw))


def table_from_dict(data: Any) -> InfluenceTable:
    """Read and check a GM's own table: bands in order, no gaps, no overlaps, open at both ends.

    >>> table = table_from_dict({"bands": [
    ...     {"min": None, "max": 50, "effect": {"en": "Bad"}},
    ...     {"min": 51, "max": None, "effect": {"en": "Good", "ru": "Хорошо"}}]})
    >>> table.band_for(51).effect
    (('en', 'Good'), ('ru', 'Хорошо'))

    Raises:
        BattleError: ``bad_table`` naming the band and what is wrong with it.
    """
    data = mapping(data, "table")
    only_known(data, ("name", "house_default", "bands"), "table.", "table")
    raw_bands = data.get("bands")
    if not isinstance(raw_bands, list) or not 2 <= len(raw_bands) <= MAX_BANDS:
        raise BattleError(
            "bad_table",
            "table.bands",
            f"table.bands must be a list of 2 to {MAX_BANDS} bands",
            min=2,
            max=MAX_BANDS,
        )
    bands = tuple(_band(raw, i, len(raw_bands)) for i, raw in enumerate(raw_bands))
    for i, (before, after) in enumerate(pairwise(bands)):
        assert before.max is not None and after.min is not None  # checked by _band
        if after.min != before.max + 1:
            raise BattleError(
                "bad_table",
                f"table.bands[{i + 1}].min",
                f"table.bands[{i + 1}].min must be {before.max + 1}, right after the band "
                f"before it (no gaps, no overlaps), not {after.min}",
                expected=before.max + 1,
            )
    return InfluenceTable(
        _texts(data.get("name", {"en": "Influence table"}), "table.name"),
        bands,
        flag(data.get("house_default", False), "table.house_default"),
    )


def _band(raw: Any, index: int, count: int) -> Band:
    field = f"table.bands[{index}]"
    raw = mapping(raw, field)
    only_known(raw, ("min", "max", "effect", "effects"), f"{field}.", field)
    first, last = index == 0, index == count - 1
    low = raw.get("min")
    high = raw.get("max")
    if first != (low is None):
        where = "only the first band" if not first else "the first band"
        raise BattleError(
            "bad_table", f"{field}.min", f"{field}.min: {where} has an open lower end (null)"
        )
    if last != (high is None):
        where = "only the last band" if not last else "the last band"
        raise BattleError(
            "bad_table", f"{field}.max", f"{field}.max: {where} has an open upper end (null)"
        )
    if low is not None:
        low = whole(low, f"{field}.min", -LIMIT, LIMIT)
    if high is not None:
        high = whole(high, f"{field}.max", -LIMIT, LIMIT)
    if low is not None and high is not None and high < low:
        raise BattleError(
            "bad_table", f"{field}.max", f"{field}.max must be at least its min ({low})", min=low
        )
    effects = effects_from_list(raw["effects"], f"{field}.effects") if "effects" in raw else None
    return Band(low, high, _texts(raw.get("effect"), f"{field}.effect", effect=True), effects)


def _texts(raw: Any, field: str, effect: bool = False) -> tuple[tuple[str, str], ...]:
    if isinstance(raw, str) and raw.strip():
        raw = {"en": raw}
    if not isinstance(raw, dict) or not raw:
        raise BattleError(
            "bad_table", field, f"{field} must be a text or an object of texts by language (en, ru)"
        )
    texts = []
    for language, value in raw.items():
        if language not in LANGUAGES:
            raise BattleError(
                "bad_table",
                f"{field}.{safe_name(language)}",
                f"{field}: languages are {', '.join(LANGUAGES)}, not {language!r}",
                accepted=list(LANGUAGES),
            )
        if (
            not isinstance(value, str)
            or not value.strip()
            or len(value) > MAX_EFFECT
            or not valid_unicode(value)
        ):
            raise BattleError(
                "bad_table",
                f"{field}.{language}",
                f"{field}.{language} must be a non-empty, valid Unicode text of at most "
                f"{MAX_EFFECT} characters",
                max=MAX_EFFECT,
            )
        if not effect:  # a table's name; an effect is a description, and may hold line breaks
            no_control_character(value, f"{field}.{language}")
        unknown = unknown_placeholders(value, language) if effect else []
        if unknown:
            raise BattleError(
                "bad_table",
                f"{field}.{language}",
                f"{field}.{language}: {unknown[0]} is not a placeholder; in {language} they are "
                + ", ".join(f"{{{name}}}" for name in placeholders(language)),
                accepted=list(placeholders(language)),
            )
        texts.append((language, value.strip()))
    return tuple(sorted(texts))
