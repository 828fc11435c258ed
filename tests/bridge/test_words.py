"""The bridge's own words in English and Russian, every printed line within 80 columns.

Long values (addresses with tokens, a data folder's path) go on a line of their own rather than
being broken by the terminal; the values here are as long as a GM's real ones (32-character
tokens, a local-network address of 15 characters, a five-digit port, a path under home).
"""

from __future__ import annotations

import json
import os
import string
import subprocess
from pathlib import Path

import pytest
from bridge_helpers import COMMAND
from websockets.sync.client import connect

from background_battle_bridge import greeting as g
from background_battle_bridge.columns import WIDTH, fit
from background_battle_bridge.guard import DEFAULT_ORIGINS, Tokens
from background_battle_bridge.words import LANGUAGES, TEXTS, Said, Words, language

ROOT = Path(__file__).resolve().parents[2]
TOKENS = Tokens("g" * 32, "p" * 32)
FOLDER = Path("/home/gamemaster/.local/share/background-battle")
ORIGINS = [*DEFAULT_ORIGINS, "https://mygame.forge-vtt.com"]
# a realistic value for each name the templates use
SAMPLES = {
    "url": "http://192.168.100.200:65535/#token=" + "t" * 32,
    "ws": "ws://127.0.0.1:65535/ws",
    "host": "192.168.100.200",
    "port": 65535,
    "other": 65534,
    "folder": FOLDER,
    "path": FOLDER / "secrets",
    "battles": "12 battles",
    "count": 12,
    "name": "The siege of Ubersreik",
    "reason": "record 4 does not match its checksum",
    "origin": "https://mygame.forge-vtt.com",
    "origins": ", ".join(ORIGINS),
    "code": "123 456",
    "minutes": 2,
    "left": 2,
    "why": "permission denied",
    "pid": 123456,
    "where": "http://192.168.100.200:65535/",
    "flag": "--player-token",
    "variable": "BB_PLAYER_TOKEN",
    "prog": "background-battle-bridge",
    "message": "argument --port: port must be from 0 to 65535, not 70000",
    "given": "http://foundry.local:30000/game",
    "token": "t" * 32,
    "lang": "ru",
    # the care commands' and the data files' (care_words.py)
    "seq": 123456,
    "expected": 123455,
    "first": 123450,
    "head": 123460,
    "mark": 123460,
    "stored": 123456,
    "lost": Said("changes", count=4),
    "mode": "755",
    "names": ["'The siege of Ubersreik'", "'ambush'", "'Ogres at the ford'", "…"],
    "old": FOLDER,
    "new": FOLDER,
    "source": FOLDER.parent / "backups" / "battles-2026-12-02.sqlite3",
    "records": 123456,
    "readings": [Said("reading.as_is", count=1200), Said("reading.pages", count=40)],
    "have": 123000,
    "last": 123456,
    "pages": 4096,
    "size": 65536,
    "battle": "'The siege of Ubersreik'",
    "problem": Said("reason.checksum", seq=123456),
    "upto": 123455,
    "version": 123454,
    "number": 12,
    "restored": 123455,
    "command": "restore",
    "short": "'The siege of Ubersreik': 123000 of its 123456 records were read",
    "unwritable": Said("unwritable", path=FOLDER / "battles.sqlite3", cause=Said("cause.EPERM")),
    "what": Said("care.only_backup"),
    "cause": Said("cause.EACCES"),
    "entry": "{'origin': 42}",
    "found": "*** in database main *** Page 5: btreeInitPage() returns error code 11",
    "args": "--bogus --also-bogus",
    "kind": "_port",
    "choices": "'check', 'backup', 'restore', 'tokens', 'origins'",
    "option": "--re",
    "matches": "--repair, --remove",
    "modes": "full, normal",
    "value": "'not-a-number-at-all'",
}
REACHES = [
    g.Reach("127.0.0.1", None, 65535),
    g.Reach("127.0.0.1", "192.168.100.200", 65535, everywhere=True),
    g.Reach("127.0.0.1", None, 65535, everywhere=True),
    g.Reach.of("192.168.100.200", 65535),
]


def too_long(lines: list[str]) -> list[str]:
    return [line for line in lines if len(line) > WIDTH]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_start_up_line_fits_80_columns(lang: str) -> None:
    for reach in REACHES:
        for tokens in (TOKENS, Tokens("", "", open=True)):
            for draws in (True, False):
                lines = g.greeting(reach, tokens, FOLDER, 12, draws, Words(lang), ORIGINS)
                assert too_long(lines) == [], (reach, draws)
                first = "Мост Background Battle" if lang == "ru" else "Background Battle bridge"
                assert lines[0] == f"{first}: {reach.url(reach.here)}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sentence_of_the_bridge_fits_80_columns_with_real_values(lang: str) -> None:
    words = Words(lang)
    for key in TEXTS:
        if key.startswith("help."):
            continue  # argparse lays the help out: checked below, as printed
        names = {name for _, name, _, _ in string.Formatter().parse(TEXTS[key][0]) if name}
        values = {name: SAMPLES[name] for name in names}
        if key.endswith((".one", ".few", ".many")):  # each plural form, with its own count
            key, form = key.rsplit(".", 1)
            values["count"] = {"one": 1, "few": 3, "many": 12}[form]
        said = words.say(key, **values)
        # a value longer than a line keeps a line of its own; nothing else may pass 80
        assert too_long(fit(said)) == [], key
        assert too_long(fit(said, 2)) == [], key


def test_every_sentence_has_its_russian_words() -> None:
    for key, (english, russian) in TEXTS.items():
        assert russian.strip(), key
        fields = {name for _, name, _, _ in string.Formatter().parse(english) if name}
        assert fields == {n for _, n, _, _ in string.Formatter().parse(russian) if n}, key
    assert Words("ru").battles(1) == "1 бой"
    assert [Words("ru").battles(n) for n in (2, 5, 11, 21, 22)] == [
        "2 боя",
        "5 боёв",
        "11 боёв",
        "21 бой",
        "22 боя",
    ]


def test_the_language_is_the_systems_unless_chosen() -> None:
    assert language({"LANG": "ru_RU.UTF-8"}) == "ru"
    assert language({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_GB.UTF-8"}) == "ru"
    assert language({"LC_ALL": "C.UTF-8", "LANG": "ru_RU.UTF-8"}) == "en"  # LC_ALL wins
    assert language({"LC_MESSAGES": "ru_RU", "LANG": "en_US"}) == "ru"
    assert language({}, "linux") == "en"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("BB_", "LC_", "LANG"))}
    return subprocess.run(
        [*COMMAND, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**clean, "COLUMNS": "200", **(env or {})},  # a wide terminal: still 80 columns
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_of_every_command_fits_80_columns(lang: str) -> None:
    for command in ([], ["tokens"], ["origins"], ["check"], ["backup"], ["restore"]):
        done = run(*command, "--help", env={"BB_LANG": lang})
        assert done.returncode == 0, done.stderr
        assert too_long(done.stdout.splitlines()) == [], command
    done = run("--help", env={"BB_LANG": lang})
    # every flag with its default, the phone hint and examples
    for flag in ("--host", "--port", "--data", "--web", "--gm-token", "--player-token"):
        assert flag in done.stdout
    assert "0.0.0.0" in done.stdout and "background-battle-bridge --host 0.0.0.0" in done.stdout
    assert done.stdout.count("BB_") >= 12
    default = "default" if lang == "en" else "по умолчанию"
    assert " ".join(done.stdout.split()).count(default) >= 12


def test_russian_help_is_chosen_by_the_systems_language() -> None:
    done = run("--help", env={"LANG": "ru_RU.UTF-8"})
    assert "флаги:" in done.stdout and "по умолчанию 8765" in " ".join(done.stdout.split())
    assert "options:" in run("--help", "--lang", "en", env={"LANG": "ru_RU.UTF-8"}).stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--bogus"], "background-battle-bridge: unrecognized arguments: --bogus"),
        (["--port", "70000"], "port must be from 0 to 65535, not 70000"),
        (["--origin", "foundry.local:30000"], "an origin starts with http:// or https://"),
        (["--origin", "ftp://x"], "only http:// and https:// pages can open the bridge"),
        (["--origin", "http://user@foundry.local"], "holds no user name or password"),
        (["--origin", "http://foundry.local:99999"], "the port must be a number"),
        (["--origin", "http://"], "no host after the scheme"),
        (["tokens", "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_a_mistake_is_one_message_without_the_usage_block(args: list[str], said: str) -> None:
    done = run(*args, env={"BB_DATA": "/nonexistent/never-made"})
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert "usage" not in done.stderr and "Traceback" not in done.stderr
    assert all(line.startswith("  ") for line in lines[1:])  # one message, wrapped at most
    assert too_long(lines) == []
    assert said in " ".join(done.stderr.split())
    if "--origin" in args or "--bogus" in args:
        assert len(lines) == 1, lines  # a typical mistake: one line


def test_a_pasted_page_address_is_reduced_to_its_origin_with_a_note(tmp_path: Path) -> None:
    from background_battle_bridge.server import parse_config

    config, _ = parse_config(
        ["--origin", "http://Foundry.local:30000/game", "--data", str(tmp_path)], {}
    )
    assert "http://foundry.local:30000" in config.origins
    assert not any("/game" in origin for origin in config.origins)


def test_a_data_folder_that_cannot_be_made_is_said_in_words_not_errno(tmp_path: Path) -> None:
    # a file in the way of the folder (ENOTDIR): a disk that refuses writes is exit 3 and
    # file_modes' words (tests/bridge/test_unwritable.py)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    for lang, words in (("en", "cannot use the data folder"), ("ru", "папку данных")):
        done = run("--data", str(blocked / "data"), "--port", "0", env={"BB_LANG": lang})
        assert done.returncode == 2
        said = " ".join(done.stderr.split())
        assert "Errno" not in said and words in said and "--data DIR" in said
        assert too_long(done.stderr.splitlines()) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_real_bridge_speaks_the_systems_language_within_80_columns(
    tmp_path: Path, lang: str
) -> None:
    system = {"LANG": "ru_RU.UTF-8" if lang == "ru" else "en_GB.UTF-8"}
    process = subprocess.Popen(
        [*COMMAND, "--port", "0", "--data", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        env={**{k: v for k, v in os.environ.items() if not k.startswith("BB_")}, **system},
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        while not lines or "--new)" not in lines[-1]:
            line = process.stdout.readline()
            assert line and len(lines) < 40, "\n".join(lines)
            lines.append(line.rstrip("\n"))
        # a Foundry asks to join: the lines that show its origin and the code fit too
        port = lines[0].rsplit(":", 1)[1].strip("/")
        with connect(f"ws://127.0.0.1:{port}/pair", origin=SAMPLES["origin"]) as foundry:  # type: ignore[arg-type]
            foundry.send(json.dumps({"type": "pair", "client": "foundry"}))
            assert json.loads(foundry.recv(timeout=30))["type"] == "pair_asked"
            asked = []
            while not asked or not asked[-1].rstrip().endswith(")"):
                asked.append(process.stdout.readline().rstrip("\n"))
                assert len(asked) < 10, asked
        assert too_long(asked) == [] and len(asked) > 1
        assert ("Код: " if lang == "ru" else "Code: ") in " ".join(asked)
    finally:
        process.terminate()
        out, _ = process.communicate(timeout=30)
    assert too_long(lines) == []
    said = "\n".join(lines)
    if lang == "ru":
        assert said.startswith("Мост Background Battle: http://127.0.0.1:")
        assert "«Подключиться к мосту»" in said and "открыть как ведущий" in said
        assert "Мост Background Battle остановлен" in out
    else:
        assert '"Connect to the bridge"' in said and "open as GM" in said
        assert "Background Battle bridge: stopped" in out


def test_a_russian_gm_finds_russian_from_the_readmes_first_line() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    first = next(line for line in readme[1:] if line.strip())
    assert "[README.ru.md](README.ru.md)" in first
    russian = (ROOT / "README.ru.md").read_text(encoding="utf-8")
    for said in ("pipx install background-battle", "background-battle-bridge --host 0.0.0.0"):
        assert said in russian
    assert "«Подключиться к мосту»" in russian and "docs/foundry.ru.md" in russian
    set_up = (ROOT / "docs" / "foundry.ru.md").read_text(encoding="utf-8")
    assert "## Установка" in set_up and "«Связь с мостом (ведущий)»" in set_up
    # the names the Russian documents give the module's buttons are the module's own
    import json

    ru = json.loads((ROOT / "foundry-module" / "lang" / "ru.json").read_text(encoding="utf-8"))
    menu = ru["BACKGROUND_BATTLE"]["GmMenu"]
    assert f"«{menu['Name']}»" in set_up and f"«{menu['Pair']}»" in set_up
    assert TEXTS["foundry"][1].count(menu["Name"]) == 1 and menu["Pair"] in TEXTS["foundry"][1]
