"""docs/protocol.md is enough to write a client: one in Node's `ws` (tests/bridge/node-client)
plays a whole battle against the real bridge as GM, player and Foundry module, sending only the
document's example shapes and checking everything it receives against the document's examples."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from bridge_helpers import GM, PLAYER, serving

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "tests" / "bridge" / "node-client"
DOC = ROOT / "docs" / "protocol.md"


def play(port: int, doc: Path) -> subprocess.CompletedProcess[str]:
    assert (CLIENT / "node_modules" / "ws").is_dir(), (
        "the Node client's `ws` is not installed: `make test-bridge` installs it "
        "(npm ci in tests/bridge/node-client)"
    )
    url = f"ws://127.0.0.1:{port}/ws"
    return subprocess.run(
        ["node", "battle.mjs", url, GM, PLAYER, str(doc)],
        cwd=CLIENT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_client_written_from_the_document_alone_plays_a_whole_battle(tmp_path: Path) -> None:
    with serving(tmp_path) as port:
        done = play(port, DOC)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["version"] >= 7
    for report in summary["casualties"].values():
        assert report["killed"] + report["wounded"] + report["fit"] == report["fighters"]
    assert {"welcome", "state", "event", "events", "ack", "error", "apply_casualties"} <= set(
        summary["received"]
    )


def test_the_client_notices_when_the_document_and_the_bridge_differ(tmp_path: Path) -> None:
    """The check can fail: a field the bridge does not send, added to the document's welcome."""
    text = DOC.read_text(encoding="utf-8")
    shown = '{"type": "welcome", "role": "gm",'
    assert text.count(shown) == 1
    changed = tmp_path / "protocol.md"
    changed.write_text(text.replace(shown, shown + ' "motd": "hello",'), encoding="utf-8")
    with serving(tmp_path / "data") as port:
        done = play(port, changed)
    assert done.returncode != 0
    assert "welcome differs from the document: .motd is missing" in done.stderr
