"""Apply jobs (jobs.py): claimed by one Foundry browser, the journal stored before the writes,
finished or cancelled, kept across a restart; tokens moved into the PCs' fight."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bridge_helpers import DWARVES, ORCS, Peer, Running, StartBridge

from background_battle_bridge.storage import Storage

ENDED = [
    ORCS,
    DWARVES,
    {"type": "start"},
    {"type": "set_strength", "side": "allies", "strength": 18},
    {"type": "end_battle", "winner": "allies"},
]
DWARF_TOKENS = [f"d{i}" for i in range(1, 11)]


def journal(plan_id: str = "p1", tokens: list[str] | None = None) -> dict[str, Any]:
    """A journal as logic/fates.mjs chooseFates makes it (dwarves: 2 killed, 4 wounded, 4 fit)."""
    tokens = tokens or DWARF_TOKENS
    fates = {t: "killed" if i < 2 else "wounded" if i < 6 else "fit" for i, t in enumerate(tokens)}
    return {
        "plan": plan_id,
        "tokens": tokens,
        "fates": fates,
        "groups": {},
        "already": {"killed": [], "wounded": []},
        "beyond": {"killed": 0, "wounded": 0},
        "unplaced": {"killed": 0, "wounded": 0, "fit": 0},
    }


async def ended_with_tokens(gm: Peer, foundry: Peer) -> None:
    await gm.create("ambush")
    for command in ENDED:
        assert (await gm.command("ambush", command))["type"] == "ack"
    await foundry.ask(
        {"type": "tokens", "battle": "ambush", "unit": "u2", "token_ids": DWARF_TOKENS}, "ack"
    )


HEARD: dict[int, list[dict[str, Any]]] = {}


async def answer(peer: Peer, message: dict[str, Any]) -> dict[str, Any]:
    """The reply to a request with an id (what is heard on the way kept for `heard`)."""
    await peer.send(message)
    while True:
        reply = await peer.recv()
        if reply.get("id") == message["id"] and reply["type"] in ("ack", "error"):
            return reply
        HEARD.setdefault(id(peer), []).append(reply)


async def heard(peer: Peer, kind: str) -> dict[str, Any]:
    """The next message of a type, first among those heard while waiting for an answer."""
    kept = HEARD.get(id(peer), [])
    while kept:
        message = kept.pop(0)
        if message["type"] == kind:
            return message
    return await peer.until(kind)


def claim(unit: str = "u2", version: int = 5, by: str = "Gamemaster", **extra: Any) -> dict:
    return {
        "type": "claim",
        "battle": "ambush",
        "unit": unit,
        "version": version,
        "by": by,
        **extra,
    }


async def test_a_job_is_claimed_by_one_browser_and_every_gm_hears_who(running: Running) -> None:
    gm = await running.gm(client="web")
    first = await running.gm(client="foundry")
    second = await running.gm(client="foundry")
    await ended_with_tokens(gm, first)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    ack = await answer(
        gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"}
    )
    assert ack["sent"] == ["u2"]
    told = await heard(gm, "apply_job")
    assert told["job"] == {
        "version": 5,
        "order": {"name": "Dwarves", "fighters": 10, "killed": 2, "wounded": 4, "fit": 4},
    }
    offer = await heard(first, "apply_casualties")
    assert offer == await heard(second, "apply_casualties")
    assert offer["token_ids"] == DWARF_TOKENS and offer["heads"] == {}

    taken = await answer(first, claim(id="c1", by="Anna"))
    assert taken["type"] == "ack"
    # the holder is given what it needs: the order, the tokens, who holds it
    assert taken["job"]["token_ids"] == DWARF_TOKENS and taken["job"]["claimed_by"] == "Anna"
    assert (taken["job"]["killed"], taken["job"]["version"]) == (2, 5)
    refused = await answer(second, claim(id="c2", by="Boris"))
    assert (refused["code"], refused["params"]) == ("claimed", {"by": "Anna"})
    assert (await heard(gm, "apply_job"))["job"]["claimed_by"] == "Anna"
    # the holder's claim again is its own (idempotent)
    assert (await answer(first, claim(id="c3", by="Anna")))["type"] == "ack"
    # a web page cannot take it: it writes no tokens
    web = await answer(gm, claim(id="c4"))
    assert web["code"] == "not_foundry"
    # while it is held, the unit is not ordered again
    busy = await answer(
        gm, {"type": "request_casualties", "id": "r2", "battle": "ambush", "unit": "u2"}
    )
    assert (busy["code"], busy["params"]["job"]["claimed_by"]) == ("apply_under_way", "Anna")


async def test_a_holder_that_goes_away_before_planning_leaves_the_job_offered_again(
    running: Running,
) -> None:
    gm = await running.gm(client="web")
    first = await running.gm(client="foundry")
    second = await running.gm(client="foundry")
    await ended_with_tokens(gm, first)
    await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    await answer(gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"})
    await heard(second, "apply_casualties")
    assert (await answer(first, claim(id="c1", by="Anna")))["type"] == "ack"
    await first.ws.close()
    again = await heard(second, "apply_casualties")
    assert again["unit"] == "u2" and again["version"] == 5
    assert (await answer(second, claim(id="c2", by="Boris")))["type"] == "ack"
    planned = await answer(
        second,
        {
            "type": "plan",
            "id": "p",
            "battle": "ambush",
            "unit": "u2",
            "version": 5,
            "plan": journal(),
        },
    )
    assert planned["type"] == "ack"
    report = {"type": "applied", "id": "a", "battle": "ambush", "unit": "u2", "version": 5}
    done = await answer(second, {**report, "killed": 2, "wounded": 4, "fit": 4})
    assert done["type"] == "ack"
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["jobs"] == {} and state["foundry"]["applied"]["u2"]["killed"] == 2
    room = running.bridge.hub.rooms["ambush"]
    assert room.claims == {}


async def test_the_journal_is_kept_until_finished_and_survives_a_restart(
    start_bridge: StartBridge, storage_factory: Callable[[], Storage]
) -> None:
    first = await start_bridge(storage_factory())
    gm = await first.gm(client="web")
    foundry = await first.gm(client="foundry")
    await ended_with_tokens(gm, foundry)
    await answer(gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"})
    await answer(foundry, claim(id="c1", by="Anna"))
    plan = {"type": "plan", "id": "p", "battle": "ambush", "unit": "u2", "version": 5}
    assert (await answer(foundry, {**plan, "plan": journal()}))["type"] == "ack"
    # the same journal again is the same; another one is refused
    assert (await answer(foundry, {**plan, "id": "p2", "plan": journal()}))["type"] == "ack"
    other = await answer(foundry, {**plan, "id": "p3", "plan": journal("p9")})
    assert other["code"] == "planned"
    await first.stack.aclose()  # the tab and the bridge go away mid-Apply

    second = await start_bridge(storage_factory())
    gm = await second.gm(client="web")
    other_gm = await second.gm(client="foundry")
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    job = state["foundry"]["jobs"]["u2"]
    assert job["plan"] == journal() and "claimed_by" not in job
    # a new order does not replace an Apply planned and not finished
    busy = await answer(
        gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"}
    )
    assert busy["code"] == "apply_under_way"
    everything = await answer(gm, {"type": "request_casualties", "id": "r2", "battle": "ambush"})
    assert everything["sent"] == ["u1"]
    # Undo of the interrupted Apply: claimed first, then the job is cancelled
    cancel = {"type": "cancel_apply", "battle": "ambush", "unit": "u2", "version": 5}
    unclaimed = await answer(other_gm, {**cancel, "id": "x0"})
    assert unclaimed["code"] == "not_claimed"
    assert (await answer(other_gm, claim(id="c", by="Boris")))["type"] == "ack"
    assert (await answer(other_gm, {**cancel, "id": "x1"}))["type"] == "ack"
    told = await heard(gm, "apply_job")
    while told["unit"] != "u2" or told["job"] is not None:
        told = await heard(gm, "apply_job")
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert "u2" not in state["foundry"]["jobs"]
    # then the unit may be ordered again
    again = await answer(
        gm, {"type": "request_casualties", "id": "r3", "battle": "ambush", "unit": "u2"}
    )
    assert again["sent"] == ["u2"]


async def test_a_plan_needs_the_claim_and_names_only_the_units_tokens(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await ended_with_tokens(gm, foundry)
    await answer(gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"})
    plan = {"type": "plan", "battle": "ambush", "unit": "u2", "version": 5}
    unclaimed = await answer(foundry, {**plan, "id": "p0", "plan": journal()})
    assert unclaimed["code"] == "not_claimed"
    await answer(foundry, claim(id="c"))
    stranger = await answer(foundry, {**plan, "id": "p1", "plan": journal(tokens=["zz"])})
    assert (stranger["code"], stranger["field"]) == ("unknown_token", "plan")
    bad = journal()
    bad["fates"]["d1"] = "eaten"
    wrong = await answer(foundry, {**plan, "id": "p2", "plan": bad})
    assert (wrong["code"], wrong["field"]) == ("bad_plan", "plan.fates")
    old = await answer(foundry, {**plan, "id": "p3", "version": 4, "plan": journal()})
    assert (old["code"], old["field"]) == ("no_job", "version")
    assert "plan" not in running.bridge.hub.rooms["ambush"].jobs["u2"]


async def test_tokens_moved_into_the_pcs_fight_leave_the_apply_and_come_back_on_undo(
    running: Running,
) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await gm.create("ambush")
    for command in (ORCS, DWARVES):
        await gm.command("ambush", command)
    await foundry.ask(
        {
            "type": "tokens",
            "battle": "ambush",
            "unit": "u1",
            "token_ids": ["boss", "mob"],
            "fighters": {"mob": 11},
        },
        "ack",
    )
    await gm.command("ambush", {"type": "start"})
    detach = await gm.command("ambush", {"type": "detach_fighters", "unit": "u1", "fighters": 3})
    assert detach["version"] == 4
    moved = {"type": "detached", "battle": "ambush", "unit": "u1", "version": 4}
    wrong = await answer(foundry, {**moved, "id": "m0", "token_ids": ["boss"]})
    assert (wrong["code"], wrong["params"]) == ("wrong_count", {"fighters": 3})
    too_many = await answer(
        foundry, {**moved, "id": "m1", "token_ids": [], "fighters": {"boss": 3}}
    )
    assert too_many["code"] == "out_of_range"
    stranger = await answer(
        foundry, {**moved, "id": "m2", "token_ids": ["x"], "fighters": {"mob": 2}}
    )
    assert stranger["code"] == "unknown_token"
    not_a_move = await answer(foundry, {**moved, "id": "m3", "version": 3, "token_ids": ["boss"]})
    assert not_a_move["code"] == "not_detached"
    ok = await answer(foundry, {**moved, "id": "m4", "token_ids": ["boss"], "fighters": {"mob": 2}})
    assert ok["type"] == "ack"
    room = running.bridge.hub.rooms["ambush"]
    assert room.fighting_tokens("u1") == (["mob"], {"mob": 9})
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["detached"] == {
        "u1": [{"version": 4, "token_ids": ["boss"], "fighters": {"mob": 2}}]
    }
    again = await answer(
        foundry, {**moved, "id": "m5", "token_ids": ["boss"], "fighters": {"mob": 2}}
    )
    assert again["code"] == "already_named"
    # the GM takes the move back: the tokens are the unit's again
    await gm.command("ambush", {"type": "undo"})
    assert room.fighting_tokens("u1") == (["boss", "mob"], {"mob": 11})
    state = await gm.ask({"type": "subscribe", "battle": "ambush"}, "state")
    assert state["foundry"]["detached"] == {}


async def test_the_offer_leaves_out_the_tokens_in_the_pcs_fight(running: Running) -> None:
    gm = await running.gm(client="web")
    foundry = await running.gm(client="foundry")
    await gm.create("ambush")
    trolls = {
        "type": "add_unit",
        "name": "Trolls",
        "side": "enemies",
        "fighters": 3,
        "strength": 30,
    }
    for command in (trolls, DWARVES, {"type": "start"}):
        await gm.command("ambush", command)
    await foundry.ask(
        {"type": "tokens", "battle": "ambush", "unit": "u1", "token_ids": ["t1", "t2", "t3"]}, "ack"
    )
    await gm.command("ambush", {"type": "detach_fighters", "unit": "u1", "fighters": 2})
    await answer(
        foundry,
        {
            "type": "detached",
            "id": "m",
            "battle": "ambush",
            "unit": "u1",
            "version": 4,
            "token_ids": ["t2", "t3"],
        },
    )
    await gm.command("ambush", {"type": "end_battle", "winner": "allies"})
    await answer(gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u1"})
    offer = await heard(foundry, "apply_casualties")
    assert offer["token_ids"] == ["t1"]
    assert offer["killed"] + offer["wounded"] + offer["fit"] == 1


async def test_a_holder_lets_a_job_go_without_ending_it(running: Running) -> None:
    gm = await running.gm(client="web")
    first = await running.gm(client="foundry")
    second = await running.gm(client="foundry")
    await ended_with_tokens(gm, first)
    await answer(gm, {"type": "request_casualties", "id": "r", "battle": "ambush", "unit": "u2"})
    await answer(first, claim(id="c1", by="Anna"))
    job = {"battle": "ambush", "unit": "u2", "version": 5}
    await answer(first, {"type": "plan", "id": "p", **job, "plan": journal()})
    others = await answer(second, {"type": "unclaim", "id": "u0", **job})
    assert (others["code"], others["params"]) == ("not_claimed", {"by": "Anna"})
    assert (await answer(first, {"type": "unclaim", "id": "u1", **job}))["type"] == "ack"
    room = running.bridge.hub.rooms["ambush"]
    assert room.claims == {} and room.jobs["u2"]["plan"] == journal()
    # the planned job waits for a GM: another browser claims it and gets the journal
    taken = await answer(second, claim(id="c2", by="Boris"))
    assert taken["job"]["plan"] == journal() and taken["job"]["claimed_by"] == "Boris"
