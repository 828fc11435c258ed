"""plain.py: a dataclass of plain values as a dict, its fields in their order."""

from __future__ import annotations

import dataclasses

from background_battle.plain import plain


@dataclasses.dataclass(frozen=True)
class Fates:
    killed: int
    wounded: int
    fit: int


def test_the_fields_come_in_their_declared_order() -> None:
    assert list(plain(Fates(1, 2, 3))) == ["killed", "wounded", "fit"]
    assert plain(Fates(1, 2, 3)) == {"killed": 1, "wounded": 2, "fit": 3}


def test_a_new_dict_each_time() -> None:
    fates = Fates(1, 2, 3)
    first = plain(fates)
    first["killed"] = 9
    assert plain(fates)["killed"] == 1
