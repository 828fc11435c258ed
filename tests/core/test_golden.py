"""The golden vectors: the core's replies must not drift (the web tests run them in Pyodide)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from background_battle.api import handle

VECTORS = json.loads(
    (Path(__file__).parents[1] / "golden" / "vectors.json").read_text(encoding="utf-8")
)


def test_there_are_vectors_for_every_op_and_every_seed_example() -> None:
    ops = {vector["request"]["op"] for vector in VECTORS}
    assert ops >= {"casualties", "leader_bonus", "last_stand", "apply", "view", "odds"}
    assert sum(vector["name"].startswith("seed") for vector in VECTORS) >= 5


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_reply_matches_the_golden_vector(vector: dict[str, Any]) -> None:
    assert handle(vector["request"]) == vector["response"]
