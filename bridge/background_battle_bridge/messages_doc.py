"""docs/protocol.md's tables of messages, written from ``messages.IN`` and ``OUT`` (never by hand).

``python -m background_battle_bridge.messages_doc`` prints them; docs/protocol.md holds each
between ``<!-- messages-in:begin -->`` and its ``end`` marker (``messages-out``,
``messages-pair``) and a test keeps them equal.

>>> print(row(IN["unsubscribe"]))
| `unsubscribe` | optional `id` (text 1..64; made by the client), `battle` (text 1..64; a \
battle's name) | gm, player | `unsubscribed {battle}` |
"""

from __future__ import annotations

import sys

from .messages import IN, OUT, PAIR, WS, Message

TABLES = ("messages-in", "messages-out", "messages-pair")


def fields(message: Message) -> str:
    """The fields' cell: each field, its kind and bounds, what it means."""
    return ", ".join(field.cell() for field in message.fields) or "—"


def row(message: Message) -> str:
    """One message's row in its table."""
    roles = ", ".join(message.roles) + (f" ({message.who})" if message.who else "")
    if message.path == PAIR:
        direction = "page → bridge" if message.type in IN else "bridge → page"
        return f"| `{message.type}` | {direction} | {fields(message)} | {message.summary} |"
    return f"| `{message.type}` | {fields(message)} | {roles} | {message.summary} |"


def table(name: str) -> str:
    """One table, its markers included."""
    if name == "messages-in":
        head = ["| type | fields | who | answer |", "| --- | --- | --- | --- |"]
        rows = [row(m) for m in IN.values() if m.path == WS]
    elif name == "messages-out":
        head = ["| type | fields | to | when |", "| --- | --- | --- | --- |"]
        rows = [row(m) for m in OUT.values() if m.path == WS]
    else:
        head = ["| type | direction | fields | when |", "| --- | --- | --- | --- |"]
        rows = [row(m) for m in (*IN.values(), *OUT.values()) if m.path == PAIR]
    return "\n".join([f"<!-- {name}:begin -->", *head, *rows, f"<!-- {name}:end -->"])


def main() -> None:
    sys.stdout.write("\n\n".join(table(name) for name in TABLES) + "\n")


if __name__ == "__main__":
    main()
