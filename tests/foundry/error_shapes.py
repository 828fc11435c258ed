"""Every refusal the core and the bridge can send, as JSON on stdout: its code and the names of
the params it carries (read from the source, never imported): each `BattleError("code", field,
message, **params)` and `ProtocolError("code", message, params={...})` with a literal code.

A refusal that passes on another's params (`**error.params`) carries whatever that one did, and
one whose params are not literal is marked `"open": true`. `errors-filled.test.mjs` renders each
in both languages and looks for a placeholder left unfilled.
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [ROOT / "core" / "background_battle", ROOT / "bridge" / "background_battle_bridge"]


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _shape(call: ast.Call) -> dict[str, Any] | None:
    kind = _name(call.func)
    if kind not in ("BattleError", "ProtocolError") or not call.args:
        return None
    code = _literal(call.args[0])
    if code is None:
        return None
    params: set[str] = set()
    open_ = False
    for keyword in call.keywords:
        if kind == "BattleError":
            if keyword.arg is None:
                open_ = True  # **params: another refusal's
            else:
                params.add(keyword.arg)
        elif keyword.arg == "params":
            value = keyword.value
            if isinstance(value, ast.Dict) and all(_literal(k) for k in value.keys if k):
                params.update(_literal(k) or "" for k in value.keys if k)
                open_ = open_ or any(k is None for k in value.keys)
            else:
                open_ = True
    return {"code": code, "params": sorted(params), "open": open_}


def shapes() -> list[dict[str, Any]]:
    found: dict[tuple[str, tuple[str, ...], bool], dict[str, Any]] = {}
    for folder in SOURCES:
        for path in sorted(folder.rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and (shape := _shape(node)):
                    key = (shape["code"], tuple(shape["params"]), shape["open"])
                    where = f"{path.relative_to(ROOT)}:{node.lineno}"
                    found.setdefault(key, {**shape, "where": where})
    return sorted(found.values(), key=lambda s: (s["code"], s["params"]))


if __name__ == "__main__":
    json.dump(shapes(), sys.stdout, indent=1)
