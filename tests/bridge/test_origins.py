"""Origins: what `--origin` accepts, what pairing remembers, and the `origins` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bridge_helpers import TOKENS_ENV, run_bridge, serving, start_up_lines

from background_battle_bridge.origins import (
    ORIGINS_FILE,
    Allowed,
    BadOrigin,
    Remembered,
    checked_origin,
)


@pytest.mark.parametrize(
    ("given", "origin", "note"),
    [
        ("http://foundry.local:30000", "http://foundry.local:30000", None),
        ("http://foundry.local:30000/", "http://foundry.local:30000", None),
        ("HTTP://Foundry.Local:30000/game", "http://foundry.local:30000", "path"),
        ("https://mygame.forge-vtt.com/join?x=1#top", "https://mygame.forge-vtt.com", "path"),
        ("https://host:443", "https://host", None),  # a browser omits the default port
        ("http://host:80/", "http://host", None),
        ("http://[::1]:30000", "http://[::1]:30000", None),
        ("  http://192.168.1.5:30000  ", "http://192.168.1.5:30000", None),
    ],
)
def test_an_origin_is_scheme_host_and_port(given: str, origin: str, note: str | None) -> None:
    assert checked_origin(given) == (origin, note)


@pytest.mark.parametrize(
    ("given", "code"),
    [
        ("foundry.local:30000", "no_scheme"),
        ("ftp://x", "scheme"),
        ("file:///etc/passwd", "scheme"),
        ("http://", "no_host"),
        ("http://user:pw@foundry.local", "user"),
        ("http://foundry.local:99999", "port"),
        ("http://foundry.local:port", "port"),
        ("http://foundry local", "space"),
        ("", "space"),
        ("null", "no_scheme"),
        ("*", "no_scheme"),
    ],
)
def test_anything_else_is_refused_with_its_reason(given: str, code: str) -> None:
    with pytest.raises(BadOrigin) as refused:
        checked_origin(given)
    assert refused.value.code == code


def test_a_remembered_origin_survives_and_can_be_forgotten(tmp_path: Path) -> None:
    allowed = Allowed(frozenset({"http://localhost:30000"}), Remembered.load(tmp_path))
    assert allowed.remember("http://foundry.local:30000")
    assert not allowed.remember("http://foundry.local:30000")
    again = Remembered.load(tmp_path)
    assert set(again.origins) == {"http://foundry.local:30000"}
    assert again.remove("http://foundry.local:30000") and not again.remove("http://x")
    assert Remembered.load(tmp_path).origins == {}


def test_a_damaged_file_is_refused_not_half_read(tmp_path: Path) -> None:
    (tmp_path / ORIGINS_FILE).write_text(json.dumps({"origins": [{"origin": "ftp://x"}]}))
    with pytest.raises(ValueError):
        Remembered.load(tmp_path)
    (tmp_path / ORIGINS_FILE).write_text("[]")
    with pytest.raises(ValueError):
        Remembered.load(tmp_path)


def test_the_origins_command_lists_and_forgets_only_while_no_bridge_runs(tmp_path: Path) -> None:
    Remembered.load(tmp_path).add("http://foundry.local:30000")
    listed = run_bridge("origins", "--data", str(tmp_path))
    assert listed.returncode == 0
    assert "  http://foundry.local:30000" in listed.stdout.splitlines()
    with serving(tmp_path):
        busy = run_bridge(
            "origins", "--remove", "http://foundry.local:30000", "--data", str(tmp_path)
        )
        assert busy.returncode == 2 and "stop it first" in " ".join(busy.stderr.split())
    # the address copied from the browser names the same origin
    gone = run_bridge(
        "origins", "--remove", "http://foundry.local:30000/game", "--data", str(tmp_path)
    )
    assert gone.returncode == 0 and "is forgotten" in gone.stdout
    assert Remembered.load(tmp_path).origins == {}
    again = run_bridge("origins", "--remove", "http://foundry.local:30000", "--data", str(tmp_path))
    assert again.returncode == 1 and "is not remembered" in again.stderr
    bad = run_bridge("origins", "--remove", "foundry.local", "--data", str(tmp_path))
    assert bad.returncode == 2 and "--remove foundry.local" in bad.stderr


def test_remembered_origins_are_listed_at_start(tmp_path: Path) -> None:
    Remembered.load(tmp_path).add("https://mygame.forge-vtt.com")
    lines = start_up_lines("--port", "0", "--data", str(tmp_path), env=TOKENS_ENV)
    said = " ".join(" ".join(lines).split())
    assert (
        "Foundry allowed at: http://127.0.0.1:30000, http://localhost:30000, "
        "https://mygame.forge-vtt.com" in said
    )
