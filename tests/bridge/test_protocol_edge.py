"""The edge: hello first, tokens, malformed frames and fields; each refusal names its field."""

from __future__ import annotations

import pytest
from bridge_helpers import GM, ORCS, PLAYER, Running, started
from websockets.exceptions import ConnectionClosed


async def test_hello_gives_welcome_with_role_battles_and_limits(running: Running) -> None:
    gm = await running.gm()
    await started(gm, "ambush")
    await gm.create("prepared")  # in set-up: not told to players
    other = await running.peer()
    welcome = await other.hello(PLAYER, "web")
    assert welcome == {
        "type": "welcome",
        "role": "player",
        "client": "web",
        "protocol": 1,
        "battles": [{"name": "ambush", "version": 3, "status": "fighting", "archived": False}],
        "limits": {
            "max_frame": 65536,
            "max_message": 524288,
            "log_page": 500,
            "battles_page": 500,
            "rate": 30,
            "burst": 120,
        },
    }


async def test_only_the_gms_welcome_carries_the_player_token_for_the_player_link(
    running: Running,
) -> None:
    gm = await running.peer()
    assert (await gm.hello(GM, "web"))["player_token"] == PLAYER
    player = await running.peer()
    assert "player_token" not in await player.hello(PLAYER, "web")


async def test_hello_with_a_battle_sends_its_state(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.command("ambush", ORCS)
    late = await running.peer()
    await late.hello(GM, "web", battle="ambush")
    state = await late.recv()
    assert state["type"] == "state" and state["version"] == 1
    assert state["view"]["units"][0]["name"] == "Orcs"
    assert state["foundry"] == {
        "tokens": {},
        "fighters": {},
        "applied": {},
        "jobs": {},
        "detached": {},
        "marks": {},
    }


async def test_first_message_must_be_hello(running: Running) -> None:
    peer = await running.peer()
    error = await peer.ask({"type": "ping"})
    assert (error["type"], error["code"], error["field"]) == ("error", "hello_required", "type")
    assert (await peer.hello())["type"] == "welcome"


async def test_second_hello_is_refused(running: Running) -> None:
    gm = await running.gm()
    error = await gm.ask({"type": "hello", "token": GM, "client": "cli"})
    assert error["code"] == "already_welcomed"


async def test_wrong_token_is_refused_and_the_connection_closed(running: Running) -> None:
    peer = await running.peer()
    error = await peer.hello("not-a-token")
    assert (error["code"], error["field"]) == ("bad_token", "token")
    with pytest.raises(ConnectionClosed):
        await peer.recv()
    assert peer.ws.close_code == 1008


async def test_missing_token_is_a_wrong_token(running: Running) -> None:
    peer = await running.peer()
    error = await peer.ask({"type": "hello", "client": "web"})
    assert error["code"] == "bad_token"


@pytest.mark.parametrize(
    ("client", "code"), [(None, "not_null"), (7, "not_text"), ("phone", "unknown_client")]
)
async def test_hello_names_a_bad_client_kind(running: Running, client: object, code: str) -> None:
    peer = await running.peer()
    error = await peer.ask({"type": "hello", "token": GM, "client": client})
    assert (error["code"], error["field"]) == (code, "client")


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\x00\x01binary", "bad_frame"),
        ("{not json", "bad_json"),
        ("[" * 50 + "]" * 50, "bad_message"),
        ("[" * 5000 + "]" * 5000, "bad_json"),
        ("[" * 60000, "bad_json"),
        ('"just a string"', "bad_message"),
        ("{}", "bad_message"),
        ('{"type": 5}', "bad_message"),
        ('{"type": "explode"}', "unknown_type"),
    ],
)
async def test_malformed_frames_get_an_error_and_the_connection_goes_on(
    running: Running, frame: str | bytes, code: str
) -> None:
    gm = await running.gm()
    await gm.send(frame)
    error = await gm.recv()
    assert error["type"] == "error" and error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert (await gm.ask({"type": "ping"}))["type"] == "pong"


NOT_JSON_NUMBERS = [
    "1e400",
    "-1e400",
    "1E+999",
    "9" * 310,
    "-" + "9" * 400,
    "NaN",
    "Infinity",
    "-Infinity",
]


@pytest.mark.parametrize("number", NOT_JSON_NUMBERS)
@pytest.mark.parametrize(
    "frame",
    [
        '{"type":"ping","data":%s}',
        '{"type":"ping","data":{"deep":[1,2,{"n":%s}]}}',
        '{"type":"command","id":"c","battle":"ambush","command":{"type":"undo"},"x":%s}',
        '{"type":"command","id":"c","battle":"ambush","command":{"type":"undo","x":%s}}',
        '{"type":"tokens","battle":"ambush","unit":"u1","token_ids":[],"x":%s}',
        '{"type":"hello","token":"t","client":"cli","x":%s}',
    ],
)
async def test_a_number_json_cannot_carry_is_bad_json_wherever_it_is(
    running: Running, frame: str, number: str
) -> None:
    """`1e400` is beyond a double: JSON.parse reads Infinity, and echoing it is not JSON."""
    gm = await running.gm()
    await gm.create("ambush")
    await gm.send(frame % number)
    error = await gm.recv()
    assert (error["type"], error["code"]) == ("error", "bad_json"), error
    assert running.bridge.hub.rooms["ambush"].version == 0
    near = await gm.ask({"type": "ping", "data": [1.7e308, -1e-400, 10**300]})
    assert near == {"type": "pong", "data": [1.7e308, -0.0, 10**300]}


async def test_ping_is_answered_with_pong_echoing_data(running: Running) -> None:
    gm = await running.gm()
    assert await gm.ask({"type": "ping", "data": {"n": 1}}) == {"type": "pong", "data": {"n": 1}}
    assert await gm.ask({"type": "ping"}) == {"type": "pong"}


async def test_list_battles_hides_archived_unless_asked(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    await gm.create("siege")
    await gm.command("siege", {"type": "archive_battle"})
    listed = await gm.ask({"type": "list_battles"}, "battles")
    assert [b["name"] for b in listed["battles"]] == ["ambush"]
    everything = await gm.ask({"type": "list_battles", "archived": True}, "battles")
    assert [(b["name"], b["archived"]) for b in everything["battles"]] == [
        ("ambush", False),
        ("siege", True),
    ]
    error = await gm.ask({"type": "list_battles", "archived": "yes"})
    assert (error["code"], error["field"]) == ("not_bool", "archived")


async def test_subscribe_and_unsubscribe(running: Running) -> None:
    gm = await running.gm()
    await started(gm, "ambush")
    watcher = await running.player()
    state = await watcher.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert (state["battle"], state["version"]) == ("ambush", 3)
    assert "foundry" not in state
    gone = await watcher.ask({"type": "unsubscribe", "battle": "ambush"})
    assert gone == {"type": "unsubscribed", "battle": "ambush"}
    await gm.command("ambush", {"type": "rename", "name": "Ford"})
    # nothing about ambush reaches the watcher any more: the next thing it hears is its pong
    assert (await watcher.ask({"type": "ping"}))["type"] == "pong"


async def test_unknown_battle_is_named(running: Running) -> None:
    gm = await running.gm()
    error = await gm.ask({"type": "subscribe", "battle": "nowhere"})
    assert (error["code"], error["field"], error["battle"]) == (
        "unknown_battle",
        "battle",
        "nowhere",
    )
    error = await gm.command("nowhere", ORCS)
    assert error["code"] == "unknown_battle"


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"id": None}, "required", "id"),
        ({"id": 12}, "not_text", "id"),
        ({"id": "x" * 65}, "out_of_range", "id"),
        ({"battle": None}, "required", "battle"),
        ({"battle": ""}, "out_of_range", "battle"),
        ({"battle": "   "}, "out_of_range", "battle"),
        ({"battle": "a\nb"}, "bad_text", "battle"),
        ({"battle": "a\x00b"}, "bad_text", "battle"),
        ({"battle": "a\u2028b"}, "bad_text", "battle"),
        ({"id": "c\x7f"}, "bad_text", "id"),
        ({"battle": "b" * 65}, "out_of_range", "battle"),
        ({"expected_version": "3"}, "not_integer", "expected_version"),
        ({"expected_version": True}, "not_integer", "expected_version"),
        ({"expected_version": -1}, "out_of_range", "expected_version"),
        ({"command": None}, "required", "command"),
        ({"command": [1]}, "not_object", "command"),
        ({"command": {}}, "unknown_command", "type"),  # a field of the body: the core's name
        ({"command": {"type": 7}}, "unknown_command", "type"),
    ],
)
async def test_bad_command_fields_are_named_and_change_nothing(
    running: Running, change: dict[str, object], code: str, field: str
) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    message = {"type": "command", "id": "c", "battle": "ambush", "command": ORCS, **change}
    error = await gm.ask({k: v for k, v in message.items() if v is not None})
    assert (error["type"], error["code"], error["field"]) == ("error", code, field)
    assert running.bridge.hub.rooms["ambush"].version == 0
    if code == "out_of_range" and field != "battle":
        assert "min" in error["params"] and "max" in error["params"]


@pytest.mark.parametrize("field", ["id", "battle", "expected_version", "command", "unknown"])
async def test_a_null_field_is_refused_by_name_never_read_as_absent(
    running: Running, field: str
) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    message = {"type": "command", "id": "c", "battle": "ambush", "command": ORCS, field: None}
    error = await gm.ask(message)
    assert (error["type"], error["code"], error["field"]) == ("error", "not_null", field)
    assert running.bridge.hub.rooms["ambush"].version == 0


async def test_pcs_won_with_fleeing_null_is_refused(running: Running) -> None:
    """What a client sends when its own parsing failed (`JSON.stringify(NaN)`)."""
    gm = await running.gm()
    await started(gm)
    error = await gm.command("ambush", {"type": "pcs_won", "fleeing": None})
    assert (error["code"], error["field"]) == ("not_null", "fleeing")
    assert running.bridge.hub.rooms["ambush"].battle.status == "fighting"
    for message in (
        {"type": "subscribe", "battle": "ambush", "since_version": None},
        {"type": "list_battles", "archived": None},
        {"type": "log_page", "battle": "ambush", "since_version": 0, "until_version": None},
    ):
        error = await gm.ask(message)
        assert (error["code"], error["field"]) == ("not_null", list(message)[-1])
    assert (await gm.ask({"type": "ping", "data": None}))["type"] == "pong"


async def test_core_refusals_pass_through_with_the_field_named_as_the_core_does(
    running: Running,
) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    error = await gm.command("ambush", {**ORCS, "fighters": 0})
    assert (error["code"], error["field"]) == ("out_of_range", "fighters")
    assert error["params"]["min"] == 1
    error = await gm.command("ambush", {"type": "conjure"})
    assert error["code"] == "unknown_command"
    error = await gm.command("ambush", {"type": "undo"})
    assert error["code"] == "nothing_to_undo"
    error = await gm.command("ambush", {"type": "resolve_round", "mode": "auto"})
    assert error["code"] == "wrong_phase"
    assert running.bridge.hub.rooms["ambush"].version == 0


async def test_player_may_read_but_not_change(running: Running) -> None:
    gm = await running.gm()
    await gm.create("ambush")
    player = await running.player()
    for message in (
        {"type": "command", "id": "p1", "battle": "ambush", "command": ORCS},
        {"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": ["t"]},
        {"type": "request_casualties", "battle": "ambush"},
        {"type": "applied", "battle": "ambush", "unit": "u1"},
        {"type": "unapplied", "battle": "ambush", "unit": "u1", "version": 0},
    ):
        error = await player.ask(message)
        assert (error["code"], error["field"]) == ("forbidden", "type"), message
    assert running.bridge.hub.rooms["ambush"].version == 0


async def test_a_failure_inside_the_bridge_is_an_internal_error_not_a_crash(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    gm = await running.gm()

    async def broken(*args: object) -> list[dict[str, object]]:
        raise RuntimeError("simulated bug")

    monkeypatch.setitem(running.bridge.hub.handlers, "list_battles", broken)
    error = await gm.ask({"type": "list_battles", "id": "l1"})
    assert (error["type"], error["code"], error["id"]) == ("error", "internal", "l1")
    assert (await gm.ask({"type": "ping"}))["type"] == "pong"


async def test_no_hello_in_time_closes_the_connection(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("background_battle_bridge.server.HELLO_TIMEOUT", 0.2)
    peer = await running.peer()
    with pytest.raises(ConnectionClosed):
        await peer.recv()
    assert peer.ws.close_code == 1008


async def test_too_many_subscriptions(running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("background_battle_bridge.reading.MAX_WATCHED", 2)
    gm = await running.gm()
    for name in ("a", "b", "c"):
        await gm.create(name)
    await gm.ask({"type": "subscribe", "battle": "a"}, "state")
    await gm.ask({"type": "subscribe", "battle": "b"}, "state")
    error = await gm.ask({"type": "subscribe", "battle": "c"})
    assert (error["code"], error["params"]) == ("too_many", {"max": 2})
    # watching one again is not one more
    assert (await gm.ask({"type": "subscribe", "battle": "a"}))["type"] == "state"


async def test_too_many_battles(running: Running, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("background_battle_bridge.creating.MAX_BATTLES", 2)
    gm = await running.gm()
    await gm.create("a")
    await gm.create("b")
    error = await gm.create("c")
    assert (error["code"], error["field"]) == ("too_many", "battle")
    await gm.command("a", {"type": "archive_battle"})
    assert (await gm.create("c"))["type"] == "ack"


async def test_a_failure_while_welcoming_is_an_internal_error_too(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> list[dict[str, object]]:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(running.bridge.hub, "join", broken)
    peer = await running.peer()
    error = await peer.hello()
    assert (error["type"], error["code"]) == ("error", "internal")
    assert (await peer.ask({"type": "ping"}))["type"] == "pong"


async def test_hello_naming_a_missing_battle_still_welcomes(running: Running) -> None:
    peer = await running.peer()
    welcome = await peer.hello(GM, "web", battle="nowhere", since_version=3)
    assert welcome["type"] == "welcome"
    error = await peer.recv()
    assert (error["code"], error["field"], error["battle"]) == (
        "unknown_battle",
        "battle",
        "nowhere",
    )
    assert (await peer.ask({"type": "ping"}))["type"] == "pong"


@pytest.mark.parametrize("name", ["Orcs\x00", "Or\ncs", "\x1bOrcs", "Orcs\u2028"])
async def test_a_unit_name_holds_no_control_character_as_a_battle_name_does(
    running: Running, name: str
) -> None:
    """One rule for every name, the core's (`validate.control_character`)."""
    gm = await running.gm()
    await gm.create("ambush")
    error = await gm.command("ambush", {**ORCS, "name": name})
    assert (error["code"], error["field"]) == ("bad_text", "name")
    assert error["params"]["character"].startswith("U+")
    refused = await gm.create(f"ambush{name}")
    assert (refused["code"], refused["field"]) == ("bad_text", "battle")
    assert error["params"]["character"] == refused["params"]["character"]
    assert running.bridge.hub.rooms["ambush"].version == 0
