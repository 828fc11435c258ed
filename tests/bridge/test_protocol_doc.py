"""docs/protocol.md stays true: its error codes and message types are the ones the bridge uses."""

from __future__ import annotations

import re
from pathlib import Path

from background_battle_bridge import protocol

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


def test_every_client_message_type_is_documented() -> None:
    assert first_column(section("## Client → bridge")) == set(protocol.CLIENT_TYPES)


def test_every_bridge_message_type_is_documented() -> None:
    sent = set(re.findall(r'"type": "([a-z_]+)"', SOURCE)) - {"created", "entry"}
    documented = first_column(section("## Bridge → client"))
    assert sent - {"hello", "ping"} <= documented, sent - documented
    assert documented <= sent, documented - sent
