"""Where rolls come from: a passed-in generator, or the rolls recorded in a log entry."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from .errors import BattleError
from .opposed import d100


class Dice:
    """Rolls d100 with a ``random.Random`` the caller passes in (the core never seeds itself)."""

    def __init__(self, rng: random.Random | None) -> None:
        self._rng = rng

    def d100(self, field: str) -> int:
        """One roll; without a generator, the roll had to be entered as ``field``."""
        if self._rng is None:
            raise BattleError(
                "required",
                field,
                f"{field} is required (or a seed, so that the core can roll)",
                min=1,
                max=100,
            )
        return d100(self._rng)


class RecordedDice(Dice):
    """Gives back the rolls a log entry recorded, in order: a replay never re-rolls."""

    def __init__(self, rolls: Iterable[int]) -> None:
        super().__init__(None)
        self._rolls = list(rolls)

    def d100(self, field: str) -> int:
        """The next recorded roll."""
        if not self._rolls:
            raise BattleError("bad_battle", field, f"the log lacks the recorded roll for {field}")
        return self._rolls.pop(0)


def recorded_rolls(events: Iterable[dict[str, Any]]) -> list[int]:
    """The rolls the core made for an entry, in the order it made them."""
    rolls: list[int] = []
    for event in events:
        if not event.get("auto"):
            continue
        if event["type"] == "round_resolved":
            rolls += [event["rolls"]["allies"], event["rolls"]["enemies"]]
        else:
            rolls.append(event["roll"])
    return rolls
