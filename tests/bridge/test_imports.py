"""No import circle in the bridge: every module's imports of its siblings, the ones under
`if TYPE_CHECKING:` included (a circle hidden from the interpreter is still one to a reader)."""

from __future__ import annotations

import ast
from pathlib import Path

import background_battle_bridge

PACKAGE = Path(background_battle_bridge.__file__).parent
NAME = "background_battle_bridge"


def sibling_imports(path: Path, modules: set[str]) -> set[str]:
    """The bridge modules one file imports, wherever in the file the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:  # from . import a, b
                found.update(alias.name for alias in node.names)
            elif node.level == 1 and node.module is not None:  # from .a import b
                found.add(node.module.split(".")[0])
            elif node.level == 0 and node.module and node.module.startswith(NAME + "."):
                found.add(node.module.split(".")[1])
            elif node.level == 0 and node.module == NAME:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(NAME + "."):
                    found.add(alias.name.split(".")[1])
    return found & modules


def graph() -> dict[str, set[str]]:
    files = {path.stem: path for path in PACKAGE.glob("*.py")}
    return {name: sibling_imports(path, set(files)) - {name} for name, path in files.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each circle once, as the path that closes it (depth-first search, colours).

    >>> circles({"a": {"b"}, "b": {"a"}, "c": set()})
    [['a', 'b', 'a']]
    >>> circles({"a": {"b"}, "b": set()})
    []
    """
    found: list[list[str]] = []
    state: dict[str, str] = {}  # "open" while on the path, "done" once left
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_the_checker_sees_a_type_checking_import(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\n"
    )
    assert sibling_imports(tmp_path / "a.py", {"a", "b"}) == {"b"}


def test_the_bridge_has_no_import_circle() -> None:
    edges = graph()
    assert "hub" in edges and "pipeline" in edges["hub"]  # the graph is the real one
    assert circles(edges) == []
