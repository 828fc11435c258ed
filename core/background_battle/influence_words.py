"""Influence effects read for the side that rolled: placeholders the core fills per side.

docs/rules.md §6: the higher the total, the better for the side that rolled. A table's effects are
written for "the side that rolled" (``{rolling...}``) and "the other side" (``{other...}``); the
core puts in the words for allies or enemies, in each language. A capital first letter
(``{Rolling}``) gives the words with a capital.

>>> fill("Each {rolling_one} gains +1 Advantage; {other} lose 1.", "en", "enemies")
'Each foe of the PCs gains +1 Advantage; the PCs lose 1.'
>>> fill("{Rolling} получают −10.", "ru", "allies")
'Персонажи получают −10.'
"""

from __future__ import annotations

import re
from typing import Final

from .validate import SIDES, Side, other_side

# Words for a side's fighters in the PCs' fight, by language and form: (allies, enemies).
FORMS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "en": {
        "": ("the PCs", "the PCs' foes"),
        "one": ("PC", "foe of the PCs"),
        "fighter": ("allied fighter", "enemy fighter"),
        "fighters": ("allied fighters", "enemy fighters"),
    },
    "ru": {
        "": ("персонажи", "противники персонажей"),
        "gen": ("персонажей", "противников персонажей"),
        "dat": ("персонажам", "противникам персонажей"),
        "one": ("персонаж", "противник персонажей"),
        "one_acc": ("персонажа", "противника персонажей"),
        "fighter": ("союзный боец", "вражеский боец"),
        "fighters_gen": ("союзных бойцов", "вражеских бойцов"),
    },
}
WHO: Final = ("rolling", "other")
PLACEHOLDER: Final = re.compile(r"\{([^{}]*)\}")


def placeholders(language: str) -> dict[str, dict[Side, str]]:
    """Every placeholder of a language and its words for a roll by allies and by enemies.

    >>> placeholders("en")["other_fighter"]
    {'allies': 'enemy fighter', 'enemies': 'allied fighter'}
    """
    result: dict[str, dict[Side, str]] = {}
    for who in WHO:
        for form, words in FORMS[language].items():
            name = f"{who}_{form}" if form else who
            result[name] = {side: words[SIDES.index(_whose(who, side))] for side in SIDES}
    return result


def unknown_placeholders(text: str, language: str) -> list[str]:
    """The ``{...}`` in ``text`` that are not placeholders of ``language``.

    >>> unknown_placeholders("{rolling} and {rolling_gen} and {Other}", "en")
    ['{rolling_gen}']
    """
    known = placeholders(language)
    return [
        match.group(0)
        for match in PLACEHOLDER.finditer(text)
        if _lowered(match.group(1)) not in known
    ]


def fill(text: str, language: str, side: Side) -> str:
    """``text`` with its placeholders put in for a roll by ``side`` (checked texts only)."""
    known = placeholders(language)

    def words(match: re.Match[str]) -> str:
        name = match.group(1)
        filled = known[_lowered(name)][side]
        return filled[0].upper() + filled[1:] if name[:1].isupper() else filled

    return PLACEHOLDER.sub(words, text)


def _whose(who: str, side: Side) -> Side:
    return side if who == "rolling" else other_side(side)


def _lowered(name: str) -> str:
    return name[:1].lower() + name[1:]
