"""Issue 29: every line the bridge prints, its care commands' too, is in the system's language
and within 80 columns (a value longer than a line, a deep path, on a line of its own).

Each command runs as a GM runs it (a real process, `LANG` its only setting: `ru_RU.UTF-8`, or
`C`) over real data folders: a healthy one, one with a damaged battle and files other users
could read, one SQLite cannot read, one the bridge cannot write, an empty one, a missing backup,
and a folder a running bridge holds. In Russian every line has Cyrillic (a line of values
alone, a path or an origin, needs none) and no English sentence is left (what remains once
the values are taken out: paths, addresses, quoted names, flags, `commands`, the program's
names); in English none has Cyrillic. The exit code is the language's business in neither.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest
from bridge_helpers import ADDRESS, COMMAND, bridge_running
from test_unwritable import one_battle, unwritable_file

from background_battle_bridge.columns import WIDTH

SYSTEMS = {"ru": "ru_RU.UTF-8", "en": "C"}
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
NAMES = ("Background Battle", "Foundry", "SQLite", "WebSocket", "JSON")
# values a sentence holds: `commands`, paths, addresses, 'names', flags and settings
VALUES = re.compile(
    r"`[^`]*`|\S*/\S*|'[^']*'|--[\w-]+|BB_\w+|pid \d+|-wal|-shm|\S+\.sqlite3\S*|"
    + "|".join(map(re.escape, NAMES)),
    re.DOTALL,
)
ENGLISH_WORDS = re.compile(r"\b[A-Za-z]{2,}\b[\s,:;()]+\b[A-Za-z]{2,}\b")

Scene = Callable[[Path], AbstractContextManager[list[list[str]]]]


def run(args: list[str], lang: str) -> subprocess.CompletedProcess[str]:
    """A care command as a GM runs it: no BB_ setting, the system's language alone."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("BB_", "LC_", "LANG"))}
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env={**clean, "LANG": SYSTEMS[lang], "PYTHONIOENCODING": "utf-8", "COLUMNS": "200"},
    )


def english_left(message: str) -> list[str]:
    """Two English words in a row, once the values are taken out of `message`."""
    return ENGLISH_WORDS.findall(VALUES.sub(" ", message))


@contextmanager
def healthy(data: Path) -> Iterator[list[list[str]]]:
    one_battle(data)
    copy = str(data.parent / "ambush.backup")
    yield [
        ["check", "--data", str(data)],
        ["check", "--data", str(data), "--repair"],
        ["backup", "--data", str(data), "--to", copy],
        ["backup", "--data", str(data), "--to", copy],  # it exists already
        ["restore", "--data", str(data), "--from", copy],
        ["tokens", "--data", str(data)],
        ["tokens", "--data", str(data), "--new"],
        ["origins", "--data", str(data)],
        ["origins", "--data", str(data), "--remove", "http://foundry.local:30000"],
        ["origins", "--data", str(data), "--remove", "foundry.local:30000"],
        ["restore", "--data", str(data), "--from", str(data.parent / "no-such.backup")],
        ["restore", "--data", str(data), "--from", str(data / "secrets")],  # not a backup
        ["check", "--data", str(data), "--bogus"],
        ["--data", str(data), "--port", "70000"],
    ]


@contextmanager
def damaged_battle(data: Path) -> Iterator[list[list[str]]]:
    path = one_battle(data)
    with sqlite3.connect(path) as db:
        db.execute('UPDATE records SET data = \'{"kind": "entry"}\' WHERE seq = 2')
    db.close()
    data.chmod(0o755)
    path.chmod(0o644)
    yield [
        ["check", "--data", str(data)],
        ["check", "--data", str(data), "--repair"],
        ["check", "--data", str(data)],  # in quarantine, nothing more to bring back
    ]


@contextmanager
def unreadable_file(data: Path) -> Iterator[list[list[str]]]:
    data.mkdir(mode=0o700)
    (data / "battles.sqlite3").write_bytes(b"not a database at all " * 2000)
    yield [
        ["check", "--data", str(data)],
        ["backup", "--data", str(data), "--to", str(data.parent / "copy")],
        ["--data", str(data), "--port", "0"],  # the bridge does not start
        ["check", "--data", str(data), "--repair"],  # nothing in it can be read
        ["check", "--data", str(data)],
    ]


@contextmanager
def unwritable(data: Path) -> Iterator[list[list[str]]]:
    path = one_battle(data)
    copy = str(data.parent / "ambush.backup")
    with unwritable_file(path):
        yield [
            ["--data", str(data), "--port", "0"],
            ["check", "--data", str(data)],
            ["check", "--data", str(data), "--repair"],
            ["backup", "--data", str(data), "--to", copy],
            ["restore", "--data", str(data), "--from", copy],
        ]


@contextmanager
def empty(data: Path) -> Iterator[list[list[str]]]:
    data.mkdir(mode=0o700)
    lost = data.parent / "lost"
    lost.mkdir(mode=0o700)
    (lost / "battles.sqlite3.acknowledged").write_text('["ambush", 9]\n["siege", 3]\n')
    zero = data.parent / "zero"
    zero.mkdir(mode=0o700)
    (zero / "battles.sqlite3").write_bytes(b"")
    yield [
        ["check", "--data", str(data)],
        ["backup", "--data", str(data), "--to", str(data.parent / "copy")],
        ["origins", "--data", str(data)],
        ["check", "--data", str(lost)],  # the database gone, its marks left
        ["check", "--data", str(zero)],  # a file of 0 bytes
        ["--data", str(zero), "--port", "0"],
    ]


@contextmanager
def held_by_a_running_bridge(data: Path) -> Iterator[list[list[str]]]:
    one_battle(data)
    with bridge_running(data) as process:
        assert process.stdout is not None
        assert ADDRESS.search(process.stdout.readline())
        yield [
            ["--data", str(data), "--port", "0"],
            ["check", "--data", str(data), "--repair"],
            ["restore", "--data", str(data), "--from", str(data / "battles.sqlite3")],
            ["tokens", "--data", str(data), "--new"],
            ["origins", "--data", str(data), "--remove", "http://foundry.local:30000"],
        ]


SCENES: dict[str, Scene] = {
    "healthy": healthy,
    "a damaged battle": damaged_battle,
    "a file SQLite cannot read": unreadable_file,
    "a file the bridge cannot write": unwritable,
    "empty": empty,
    "held by a running bridge": held_by_a_running_bridge,
}


def outputs(scene: Scene, data: Path, lang: str) -> list[tuple[list[str], int, str]]:
    data.parent.mkdir()
    with scene(data) as commands:
        ran = [run(args, lang) for args in commands]
    return [
        (args, done.returncode, done.stdout + done.stderr)
        for args, done in zip(commands, ran, strict=True)
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="chattr, modes and LANG are Linux's here")
@pytest.mark.parametrize("scene", SCENES)
def test_every_line_of_the_care_commands_is_in_the_systems_language_within_80_columns(
    tmp_path: Path, scene: str
) -> None:
    said = {lang: outputs(SCENES[scene], tmp_path / lang / "data", lang) for lang in SYSTEMS}
    for (args, ru_code, russian), (_, en_code, english) in zip(said["ru"], said["en"], strict=True):
        assert ru_code == en_code, (args, russian, english)
        assert "Traceback" not in russian + english, (args, russian + english)
        for text in (russian, english):
            assert text.strip(), args
            # a value longer than a line (a deep path) stands alone on its line, never broken
            too_long = [line for line in text.splitlines() if len(line) > WIDTH]
            assert [line for line in too_long if " " in line.strip()] == [], (args, text)
        assert not CYRILLIC.search(english), (args, english)
        assert english_left(" ".join(russian.split())) == [], (args, russian)
        # a `command` wrapped onto two lines is a value on both
        spans = re.sub(r"`[^`]*`", lambda m: re.sub(r"[^\n]", " ", m.group()), russian)
        for line in spans.splitlines():
            values_only = not re.search("[A-Za-z]", VALUES.sub(" ", line))
            assert CYRILLIC.search(line) or values_only, (args, line)
    codes = [code for _, code, _ in said["en"]]
    print(f"\n{scene}: {len(codes)} commands in each language, exit codes {codes}")


def test_an_english_sentence_is_found_among_the_values() -> None:
    assert english_left("запись 4 не читается: file is not a database")
    assert english_left("база `check --repair` в /tmp/x 'ambush' --data Foundry") == []
