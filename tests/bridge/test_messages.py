"""messages.py: the protocol's one description; what it allows to be sent and how a request's
fields are read by it (protocol.field)."""

from __future__ import annotations

import pytest

from background_battle_bridge import messages, protocol, visibility
from background_battle_bridge.messages import IN, OUT, Undeclared, outgoing, with_fields
from background_battle_bridge.protocol import ProtocolError


def test_a_message_is_made_only_with_its_declared_fields() -> None:
    with pytest.raises(Undeclared, match="tokens has no field 'heads'"):
        outgoing("tokens", battle="a", unit="u1", token_ids=[], fighters={}, heads={})
    with pytest.raises(Undeclared, match="needs fighters"):
        outgoing("tokens", battle="a", unit="u1", token_ids=[])
    with pytest.raises(Undeclared, match="no message 'tokenz'"):
        outgoing("tokenz", battle="a")


def test_an_optional_field_given_as_none_is_left_out_unless_null_is_its_value() -> None:
    assert outgoing("pong", id=None) == {"type": "pong"}
    assert outgoing("pong", data=None) == {"type": "pong", "data": None}  # ping's null, echoed
    job = outgoing("apply_job", battle="a", unit="u1", job=None)
    assert job == {"type": "apply_job", "battle": "a", "unit": "u1", "job": None}
    refused = outgoing("error", code="internal", field=None, message="m", params={})
    assert refused["field"] is None and "version" not in refused


def test_with_fields_checks_the_fields_it_adds() -> None:
    ack = outgoing("ack", battle="a", version=2)
    assert with_fields(ack, sent=["u1"]) == {**ack, "sent": ["u1"]}
    with pytest.raises(Undeclared):
        with_fields(ack, unit="u1")


def test_who_may_send_a_request_is_visibilitys_answer() -> None:
    for kind, declared in IN.items():
        if declared.path != messages.WS:
            continue
        allowed = tuple(role for role in visibility.ROLES if visibility.may_send(role, kind))
        assert declared.roles == allowed, kind
    assert set(visibility.GM_ONLY_TYPES) <= set(protocol.CLIENT_TYPES)


def test_every_message_has_a_type_of_its_own_and_named_fields_once() -> None:
    for table in (IN, OUT):
        for kind, declared in table.items():
            assert declared.type == kind
            names = [field.name for field in declared.fields]
            assert len(names) == len(set(names)), kind
            assert "type" not in names, kind


@pytest.mark.parametrize(
    ("request_", "name", "high", "read"),
    [
        ({"type": "subscribe", "battle": "ambush"}, "since_version", None, None),
        ({"type": "subscribe", "battle": "ambush", "since_version": 4}, "since_version", None, 4),
        ({"type": "list_battles"}, "archived", None, False),
        ({"type": "detached", "version": 3}, "version", 3, 3),
        ({"type": "applied", "note": "done"}, "note", None, "done"),
    ],
)
def test_a_request_field_is_read_as_declared(
    request_: dict[str, object], name: str, high: int | None, read: object
) -> None:
    assert protocol.field(request_, name, high=high) == read


@pytest.mark.parametrize(
    ("request_", "name", "high", "code"),
    [
        ({"type": "subscribe"}, "battle", None, "required"),
        ({"type": "subscribe", "battle": "b" * 65}, "battle", None, "out_of_range"),
        ({"type": "detached", "version": 0}, "version", 3, "out_of_range"),  # a step is 1 or more
        ({"type": "detached", "version": 4}, "version", 3, "out_of_range"),
        ({"type": "applied", "killed": 1_000_001}, "killed", None, "out_of_range"),
        ({"type": "applied", "note": "n" * 501}, "note", None, "out_of_range"),
        ({"type": "tokens", "token_ids": ["t" * 129]}, "token_ids", None, "out_of_range"),
        ({"type": "tokens", "token_ids": ["t"] * 1001}, "token_ids", None, "out_of_range"),
        ({"type": "command", "expected_version": True}, "expected_version", None, "not_integer"),
        ({"type": "list_battles", "archived": "yes"}, "archived", None, "not_bool"),
        ({"type": "hello", "client": 7}, "client", None, "not_text"),
    ],
)
def test_a_request_field_out_of_its_declaration_is_refused_naming_it(
    request_: dict[str, object], name: str, high: int | None, code: str
) -> None:
    with pytest.raises(ProtocolError) as refused:
        protocol.field(request_, name, high=high)
    assert (refused.value.code, refused.value.field) == (code, name)
