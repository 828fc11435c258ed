"""docs/protocol.md stays true: its error codes and message tables are the bridge's own, and
the bridge's messages are the ones messages.py declares (read by the handlers, made by
`outgoing`, never a literal of its own)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from background_battle_bridge import hub, messages, messages_doc, protocol

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SOURCE = "\n".join(
    path.read_text(encoding="utf-8")
    for path in (ROOT / "bridge" / "background_battle_bridge").glob("*.py")
)


def section(title: str) -> str:
    start = DOC.index(title)
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else None]


def first_column(text: str) -> set[str]:
    return set(re.findall(r"^\| `([a-z_]+)`", text, flags=re.MULTILINE))


def test_every_error_code_the_bridge_raises_is_documented_and_no_other() -> None:
    raised = set(re.findall(r'ProtocolError\(\s*"([a-z_]+)"', SOURCE))
    table = section("## Error codes").split("Every error code of the core")[0]
    documented = first_column(table) | set(re.findall(r"`(not_[a-z]+)`", table))
    assert raised == documented


@pytest.mark.parametrize("name", messages_doc.TABLES)
def test_the_message_tables_are_the_declarations(name: str) -> None:
    """A message or a field missing from the doc, or one the declaration does not have: the
    difference names it (regenerate: python -m background_battle_bridge.messages_doc)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    assert begin in DOC and end in DOC, f"docs/protocol.md has no {begin} ... {end}"
    written = DOC[DOC.index(begin) : DOC.index(end) + len(end)].splitlines()
    generated = messages_doc.table(name).splitlines()
    extra = [line for line in written if line not in generated]
    missing = [line for line in generated if line not in written]
    assert (extra, missing) == ([], []), "docs/protocol.md's rows differ from messages.py"


def test_every_client_message_type_is_documented() -> None:
    assert first_column(section("## Client → bridge")) == set(protocol.CLIENT_TYPES)


def test_every_declared_request_has_its_one_handler() -> None:
    """The hub dispatches every type a client may send after `hello`, and no other."""
    assert set(hub.HANDLERS) == set(protocol.CLIENT_TYPES) - {"hello"}


def test_every_message_the_bridge_sends_is_made_by_its_declaration() -> None:
    """No module writes a message literal of its own (`{"type": ...}`): `outgoing` makes each,
    so a field cannot be added in one place and missed in the docs; and every declared message
    is sent somewhere."""
    literals = [
        f"{path.name}:{node.lineno}"
        for path in BRIDGE.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Dict)
        and any(isinstance(k, ast.Constant) and k.value == "type" for k in node.keys)
        and path.name not in LITERALS_ALLOWED
    ]
    assert literals == [], "make them with messages.outgoing"
    made = set(re.findall(r'outgoing\(\s*"([a-z_]+)"', SOURCE))
    assert made == set(messages.OUT), set(messages.OUT) ^ made


BRIDGE = ROOT / "bridge" / "background_battle_bridge"
# where a dict with a `type` is not a message the bridge sends: a core command it makes
# (`create_battle` is the bridge's own), a request read in /pair
LITERALS_ALLOWED = {"messages.py"}


def test_every_declared_request_field_is_read_by_its_declaration() -> None:
    """The handlers read no request field with bounds written beside them (`p.text(message,
    "battle", max_len=64)`): `p.field` reads it as declared."""
    found = re.findall(r"p\.(?:text|integer|boolean|obj|text_list)\(message,", SOURCE)
    assert found == []


def test_every_type_the_javascript_client_dispatches_is_one_the_bridge_sends() -> None:
    """The shared client's bookkeeping (`KEEPING`) and the shells' `handle(type, …)` name only
    types messages.py declares: a renamed message cannot be handled under its old name."""
    client = (ROOT / "foundry-module" / "client" / "bridge-client.mjs").read_text(encoding="utf-8")
    table = client[
        client.index("const KEEPING = {") : client.index("\n};", client.index("const KEEPING"))
    ]
    kept = set(re.findall(r"^  ([a-z_]+)\(message\) \{", table, flags=re.MULTILINE))
    shells = [
        *(ROOT / "web").glob("*.js"),
        *(ROOT / "foundry-module" / "scripts").glob("*.mjs"),
    ]
    handled = {
        kind
        for path in shells
        for kind in re.findall(r'\.handle\("([a-z_]+)"', path.read_text(encoding="utf-8"))
    }
    for path in shells:
        text = path.read_text(encoding="utf-8")
        for listed in re.findall(r"for \(const type of \[([^\]]+)\]\)", text):
            handled |= set(re.findall(r'"([a-z_]+)"', listed))
    assert len(kept) >= 10 and {"state", "event", "pairing"} <= handled | kept
    assert (kept | handled) - set(messages.OUT) == set()
