"""The bridge's own words, in English and Russian: what it prints for the GM, and its help.

The language is the system's (`LC_ALL`, `LC_MESSAGES`, `LANG`, as a POSIX program reads them;
on Windows the user's locale), or `--lang` (`BB_LANG`). Every sentence is a template filled
with values; columns.py fits it into 80 columns. Log lines (for developers) stay in English.
The care commands' and the data files' sentences are in care_words.py; where a message is made
far from the GM's language (a damaged record found in storage, a file that cannot be written),
it is a `Said`, said in the language where it is printed (`Words.render`).

>>> Words("ru").say("stopped")
'Мост Background Battle остановлен'
>>> language({"LANG": "ru_RU.UTF-8"}), language({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"})
('ru', 'en')
"""

from __future__ import annotations

import functools
import locale
import re
import string
import sys
from collections.abc import Mapping

from .care_words import CARE_TEXTS

LANGUAGES = ("en", "ru")

TEXTS: dict[str, tuple[str, str]] = {
    # start-up (greeting.py, server.py)
    "address": ("Background Battle bridge: {url}", "Мост Background Battle: {url}"),
    "local_network": ("on the local network: {url}", "в локальной сети: {url}"),
    "foundry": (
        'Foundry: Bridge connection (GM) -> "Connect to the bridge", then type the code shown '
        "here (bridge address {ws})",
        "Foundry: «Связь с мостом (ведущий)» -> «Подключиться к мосту», затем введите код, "
        "который появится здесь (адрес моста {ws})",
    ),
    "no_tokens": (
        "no tokens: everyone who can connect is GM (this computer only)",
        "без токенов: каждый, кто может подключиться, — ведущий (только этот компьютер)",
    ),
    "open": ("open: {url}", "открыть: {url}"),
    "open_gm": ("open as GM:     {url}", "открыть как ведущий: {url}"),
    "open_player": ("open as player: {url}", "открыть как игрок:   {url}"),
    "no_qr": (
        "(this terminal cannot draw the players' QR code: the GM's page shows it)",
        "(этот терминал не может нарисовать QR-код для игроков: его покажет страница ведущего)",
    ),
    "scan": (
        "players, scan to open {url} as a player:",
        "игроки, отсканируйте, чтобы открыть {url}:",
    ),
    "no_lan": (
        "no local-network address found for phones: join the network, then restart",
        "не найден адрес в локальной сети для телефонов: подключитесь к сети и перезапустите",
    ),
    "loopback": (
        "phones cannot open {host} (this computer only): to let them in, start with --host 0.0.0.0",
        "телефоны не откроют {host} (только этот компьютер): чтобы пустить их, запустите "
        "с --host 0.0.0.0",
    ),
    "origins": ("Foundry allowed at: {origins}", "Foundry разрешён по адресам: {origins}"),
    "data": (
        "data: {battles} and the tokens, kept for next time in {folder}",
        "данные: {battles} и токены, сохраняются до следующего раза в {folder}",
    ),
    "paste": (
        "tokens to paste by hand: background-battle-bridge tokens (new: tokens --new)",
        "токены вручную: background-battle-bridge tokens (новые: tokens --new)",
    ),
    "battles.one": ("{count} battle", "{count} бой"),
    "battles.few": ("{count} battles", "{count} боя"),
    "battles.many": ("{count} battles", "{count} боёв"),
    "not_built": (
        "the page is not built ({folder}): a fallback page says how",
        "страница не собрана ({folder}): запасная страница объясняет, как её собрать",
    ),
    "quarantined": (
        "battle {name!r} is damaged ({reason}) and was set aside, not served: "
        "`background-battle-bridge check --data {folder} --repair` brings back its good part",
        "бой {name!r} повреждён ({reason}) и отложен в сторону: "
        "`background-battle-bridge check --data {folder} --repair` вернёт его целую часть",
    ),
    "stopping": ("Background Battle bridge: stopping", "Мост Background Battle останавливается"),
    "stopped": ("Background Battle bridge: stopped", "Мост Background Battle остановлен"),
    # pairing (pair_handler.py)
    "pair_asked": (
        "Foundry at {origin} asks to connect. Code: {code} (type it in Foundry within "
        "{minutes} minutes; not you? type nothing)",
        "Foundry с адреса {origin} просит подключиться. Код: {code} (введите его в Foundry "
        "в течение {minutes} минут; если это не вы, ничего не вводите)",
    ),
    "pair_done": (
        "Foundry at {origin} is connected as GM and allowed from now on "
        "(to forget it: background-battle-bridge origins --remove {origin})",
        "Foundry с адреса {origin} подключён как ведущий и разрешён впредь "
        "(забыть его: background-battle-bridge origins --remove {origin})",
    ),
    "pair_not_kept": (
        "{origin} could not be written to the data folder ({why}): it is allowed until the "
        "bridge stops",
        "{origin} не удалось записать в папку данных ({why}): он разрешён, пока мост работает",
    ),
    "pair_wrong": (
        "a wrong code from {origin}: {left} tries left",
        "неверный код с адреса {origin}: осталось попыток: {left}",
    ),
    "pair_failed": (
        "the request from {origin} is refused: {why}",
        "запрос с адреса {origin} отклонён: {why}",
    ),
    "why.too_many_tries": ("a wrong code three times", "трижды неверный код"),
    "why.expired": ("its code expired", "срок кода истёк"),
    "why.busy": ("too many requests, try again in a minute", "слишком много запросов"),
    # start-up errors (server.py)
    "folder_busy": (
        "the data folder {folder} is in use by a bridge already running at {url} "
        "(pid {pid}): open that one, or stop it before starting another",
        "папку данных {folder} уже использует запущенный мост {url} (pid {pid}): откройте его "
        "или остановите, прежде чем запускать другой",
    ),
    "folder_busy_no_url": (
        "the data folder {folder} is in use by another bridge (pid {pid}), still starting or "
        "stopping: wait a moment, or stop it first",
        "папку данных {folder} использует другой мост (pid {pid}), который ещё запускается "
        "или останавливается: подождите или остановите его",
    ),
    "folder_unusable": (
        "cannot use the data folder {folder}: {why}; choose another with --data DIR",
        "не удаётся использовать папку данных {folder}: {why}; укажите другую: --data DIR",
    ),
    "port_in_use": (
        "port {port} on {host} is in use (a bridge running already?): try --port {other}",
        "порт {port} на {host} занят (мост уже запущен?): попробуйте --port {other}",
    ),
    "cannot_listen": (
        "cannot listen on {host}:{port}: {why}",
        "не удаётся слушать {host}:{port}: {why}",
    ),
    "no_tokens_refused": (
        "refusing to listen on {host} without tokens: --no-tokens is for loopback addresses "
        "(127.0.0.1) only",
        "без токенов мост слушает только локальный адрес (127.0.0.1), не {host}: уберите "
        "--no-tokens или --host",
    ),
    "token_in_argv": (
        "warning: {flag} on the command line is shown by ps to every user of this machine; "
        "set {variable} in the environment instead, or leave it out to use the token kept in "
        "the data folder's secrets file (mode 600)",
        "внимание: {flag} в командной строке видят все пользователи этого компьютера (ps); "
        "задайте {variable} в окружении или не указывайте его: мост возьмёт токен из файла "
        "secrets в папке данных (режим 600)",
    ),
    "cannot_set_up_tokens": (
        "cannot set up tokens: {why}",
        "не удаётся подготовить токены: {why}",
    ),
    "bad_flag": ("{prog}: {message} (see --help)", "{prog}: {message} (см. --help)"),
    "origin_note": (
        "--origin {given}: only the origin counts (a page's path is not part of it), "
        "using {origin}",
        "--origin {given}: важен только источник (путь страницы в него не входит), взят {origin}",
    ),
    "origin.no_scheme": (
        "--origin {given}: an origin starts with http:// or https://",
        "--origin {given}: источник начинается с http:// или https://",
    ),
    "origin.scheme": (
        "--origin {given}: only http:// and https:// pages can open the bridge",
        "--origin {given}: открыть мост могут только страницы http:// и https://",
    ),
    "origin.no_host": (
        "--origin {given}: no host after the scheme",
        "--origin {given}: нет имени хоста после схемы",
    ),
    "origin.user": (
        "--origin {given}: an origin holds no user name or password",
        "--origin {given}: в источнике не бывает имени пользователя или пароля",
    ),
    "origin.port": (
        "--origin {given}: the port must be a number from 1 to 65535",
        "--origin {given}: порт — число от 1 до 65535",
    ),
    "origin.space": (
        "--origin {given!r}: an origin holds no spaces",
        "--origin {given!r}: в источнике нет пробелов",
    ),
    "remembered_damaged": (
        "the remembered Foundry origins cannot be read ({why}): only the --origin ones are "
        "allowed; `background-battle-bridge origins` tells more",
        "запомненные адреса Foundry не читаются ({why}): разрешены только --origin; "
        "подробнее: `background-battle-bridge origins`",
    ),
    # why a file or folder cannot be used (an OSError in words)
    "errno.EACCES": ("permission denied", "нет прав доступа"),
    "errno.EROFS": ("the disk is read-only", "диск только для чтения"),
    "errno.ENOSPC": ("the disk is full", "диск заполнен"),
    "errno.ENOTDIR": ("a file is in the way of the folder", "на месте папки — файл"),
    "errno.EADDRNOTAVAIL": (
        "this computer has no such address",
        "у этого компьютера нет такого адреса",
    ),
    # the origins command (origins_command.py)
    "origins_none": (
        "no remembered Foundry origins in {folder} (pair one: Connect to the bridge)",
        "в {folder} нет запомненных адресов Foundry (добавить: «Подключиться к мосту»)",
    ),
    "origins_title": (
        "Foundry origins remembered in {folder}:",
        "адреса Foundry, запомненные в {folder}:",
    ),
    "origins_always": (
        "always allowed: {origins} and the bridge's own address",
        "разрешены всегда: {origins} и собственный адрес моста",
    ),
    "origins_removed": (
        "{origin} is forgotten: it can connect again only by a new code",
        "{origin} забыт: подключиться снова можно только по новому коду",
    ),
    "origins_unknown": (
        "{origin} is not remembered in {folder}",
        "{origin} не запомнен в {folder}",
    ),
    "origins_busy": (
        "another bridge ({where}) uses {folder}: stop it first (it would go on allowing {origin})",
        "другой мост ({where}) использует {folder}: сначала остановите его (он продолжил "
        "бы пускать {origin})",
    ),
    # the tokens command (tokens_command.py)
    "tokens_gm": ("GM token:     {token}", "токен ведущего: {token}"),
    "tokens_player": ("player token: {token}", "токен игроков:  {token}"),
    "tokens_new": (
        "new tokens: enter them again in Foundry (Player token; the GM token under Bridge "
        "connection (GM)), or pair it again by a code; the old links no longer open the bridge",
        "новые токены: введите их снова в Foundry (токен игроков; токен ведущего — в «Связь "
        "с мостом (ведущий)») или подключите его снова по коду; старые ссылки больше "
        "не открывают мост",
    ),
    "tokens_kept": (
        "kept in {path} for the next start; `tokens --new` replaces them",
        "хранятся в {path} для следующего запуска; `tokens --new` заменит их",
    ),
    "tokens_busy": (
        "another bridge ({where}) uses {folder}: the tokens change only while no bridge "
        "uses the folder; stop it first",
        "другой мост ({where}) использует {folder}: токены меняются, только пока мост "
        "не запущен; сначала остановите его",
    ),
    "tokens_unreadable": (
        "cannot read the tokens in {path}: {why}",
        "не удаётся прочитать токены в {path}: {why}",
    ),
    # the care commands' help (admin.py)
    "care.description": (
        "Look after the bridge's battles, tokens and Foundry origins (run without a command "
        "to serve).",
        "Уход за боями, токенами и адресами Foundry моста (без команды мост запускается).",
    ),
    "care.commands": ("commands", "команды"),
    "care.check": (
        "read, check and replay every record of every battle; --repair mends",
        "прочитать, проверить и воспроизвести каждую запись каждого боя; --repair чинит",
    ),
    "care.backup": (
        "copy the battles into one file, even while serving",
        "скопировать бои в один файл, даже пока мост работает",
    ),
    "care.restore": (
        "put a backup back (stop the bridge first)",
        "вернуть резервную копию (сначала остановите мост)",
    ),
    "care.tokens": (
        "show the GM and player tokens; --new replaces them (bridge stopped)",
        "показать токены ведущего и игроков; --new заменяет их (мост остановлен)",
    ),
    "care.origins": (
        "the Foundry origins paired by a code; --remove forgets one",
        "адреса Foundry, подключённые по коду; --remove забывает один",
    ),
    "care.data": (
        "data folder (BB_DATA; default: the user's data folder)",
        "папка данных (BB_DATA; по умолчанию папка данных пользователя)",
    ),
    "care.remove": (
        "forget this origin (bridge stopped): it can connect again only by a new code",
        "забыть этот адрес (мост остановлен): подключиться снова можно только по новому коду",
    ),
    "care.new": (
        "make new tokens: the old ones and their links stop working (default: show them)",
        "создать новые токены: старые и их ссылки перестанут работать (по умолчанию: показать)",
    ),
    "care.repair": (
        "keep the good part of each damaged battle (its whole history goes to quarantine), "
        "bring back the good part of battles in quarantine, set an unreadable file aside "
        "(default: only check)",
        "сохранить целую часть каждого повреждённого боя (вся его история уходит в карантин), "
        "вернуть целую часть боёв из карантина, отложить нечитаемый файл (по умолчанию: "
        "только проверить)",
    ),
    "care.to": ("the backup file to write (new)", "файл копии, который будет создан"),
    "care.from": ("a backup file", "файл резервной копии"),
    # the help of background-battle-bridge (server.py)
    "help.usage": ("usage: ", "запуск: "),
    "help.options": ("options", "флаги"),
    "help.help": ("show this help and exit", "показать эту справку и выйти"),
    "help.description": (
        "Serve Background Battle live on one port: the page for the GM and the players, and "
        "the connection for Foundry (the WebSocket at /ws).",
        "Background Battle вживую на одном порту: страница для ведущего и игроков и "
        "подключение для Foundry (WebSocket на /ws).",
    ),
    "help.epilog": (
        "examples:\n"
        "  background-battle-bridge                  this computer only\n"
        "  background-battle-bridge --host 0.0.0.0   phones on the same Wi-Fi can open it\n"
        "  background-battle-bridge --port 8766      when port 8765 is taken\n"
        "  background-battle-bridge --origin http://foundry.local:30000\n"
        "      allow a Foundry at that address (pairing by a code does it too)\n"
        "\n"
        "commands (each with --help):\n"
        "  tokens [--new]         show the tokens, or replace them\n"
        "  origins [--remove URL] the Foundry origins paired by a code\n"
        "  check [--repair]       check the battles on disk, mend a damaged one\n"
        "  backup --to FILE       copy the battles, even while serving\n"
        "  restore --from FILE    put a backup back (bridge stopped)",
        "примеры:\n"
        "  background-battle-bridge                  только этот компьютер\n"
        "  background-battle-bridge --host 0.0.0.0   откроют и телефоны в той же Wi-Fi\n"
        "  background-battle-bridge --port 8766      если порт 8765 занят\n"
        "  background-battle-bridge --origin http://foundry.local:30000\n"
        "      разрешить Foundry с этого адреса (подключение по коду делает то же)\n"
        "\n"
        "команды (у каждой есть --help):\n"
        "  tokens [--new]         показать токены или заменить их\n"
        "  origins [--remove URL] адреса Foundry, подключённые по коду\n"
        "  check [--repair]       проверить бои на диске, починить повреждённый\n"
        "  backup --to FILE       скопировать бои, даже пока мост работает\n"
        "  restore --from FILE    вернуть копию (мост остановлен)",
    ),
    "help.host": (
        "address to listen on; 0.0.0.0 lets phones on the same Wi-Fi in (BB_HOST; default "
        "127.0.0.1: this computer only)",
        "адрес, на котором слушать; 0.0.0.0 пускает телефоны из той же Wi-Fi (BB_HOST; "
        "по умолчанию 127.0.0.1: только этот компьютер)",
    ),
    "help.port": (
        "port from 0 to 65535, 0 for any free one (BB_PORT; default 8765)",
        "порт от 0 до 65535, 0 — любой свободный (BB_PORT; по умолчанию 8765)",
    ),
    "help.data": (
        "folder for the battles, the tokens and the paired Foundry origins (BB_DATA; "
        "default: the user's data folder, here {folder})",
        "папка для боёв, токенов и подключённых адресов Foundry (BB_DATA; по умолчанию "
        "папка данных пользователя, здесь {folder})",
    ),
    "help.web": (
        "the built page to serve (BB_WEB; default: the page in the installed package, "
        "else web/dist of the source tree)",
        "собранная страница (BB_WEB; по умолчанию страница из установленного пакета, "
        "иначе web/dist исходников)",
    ),
    "help.gm_token": (
        "the GM token, 8 characters or more (BB_GM_TOKEN; default: made on the first start "
        "and kept in the data folder); ps shows the command line to every user",
        "токен ведущего, от 8 символов (BB_GM_TOKEN; по умолчанию создаётся при первом "
        "запуске и хранится в папке данных); командную строку видят все (ps)",
    ),
    "help.player_token": (
        "the player token, likewise (BB_PLAYER_TOKEN; default: kept in the data folder)",
        "токен игроков, так же (BB_PLAYER_TOKEN; по умолчанию из папки данных)",
    ),
    "help.no_tokens": (
        "let everyone in as GM without a token; 127.0.0.1 only (BB_NO_TOKENS=1; default off)",
        "пускать всех как ведущего без токена; только 127.0.0.1 (BB_NO_TOKENS=1; "
        "по умолчанию выключено)",
    ),
    "help.origin": (
        "another page allowed to connect, e.g. your Foundry's http://foundry.local:30000; "
        "repeatable (BB_ORIGINS, comma-separated; default: http://localhost:30000 and "
        "http://127.0.0.1:30000, and the origins paired by a code)",
        "ещё одна страница, которой можно подключаться, например ваш Foundry "
        "http://foundry.local:30000; можно несколько раз (BB_ORIGINS через запятую; "
        "по умолчанию http://localhost:30000, http://127.0.0.1:30000 и адреса, "
        "подключённые по коду)",
    ),
    "help.allow_host": (
        "another name this bridge answers to in Host, e.g. gm-laptop.local; repeatable "
        "(BB_ALLOW_HOSTS; default: localhost, its own address and the --origin hosts)",
        "ещё одно имя этого моста в заголовке Host, например gm-laptop.local; можно "
        "несколько раз (BB_ALLOW_HOSTS; по умолчанию localhost, свой адрес и хосты --origin)",
    ),
    "help.sync": (
        "full: every change is on disk (fsync) before its ack; normal: survives a killed "
        "bridge but not a power cut, faster on slow disks (BB_SYNC; default full)",
        "full: каждое изменение на диске (fsync) до подтверждения; normal: переживёт "
        "убитый мост, но не отключение питания, быстрее на медленных дисках (BB_SYNC; "
        "по умолчанию full)",
    ),
    "help.rate": (
        "messages a second per connection (BB_RATE; default 30)",
        "сообщений в секунду на подключение (BB_RATE; по умолчанию 30)",
    ),
    "help.burst": (
        "messages at once per connection (BB_BURST; default 120)",
        "сообщений разом на подключение (BB_BURST; по умолчанию 120)",
    ),
    "help.lang": (
        "the bridge's language, en or ru (BB_LANG; default: the system's, here {lang})",
        "язык моста, en или ru (BB_LANG; по умолчанию язык системы, здесь {lang})",
    ),
}
TEXTS.update(CARE_TEXTS)  # the care commands' and the data files' words (care_words.py)


def language(env: Mapping[str, str], platform: str = sys.platform) -> str:
    """ "ru" or "en": the first of LC_ALL, LC_MESSAGES, LANG that is set (POSIX order); on
    Windows, where they are usually unset, the user's locale.

    >>> language({"LC_MESSAGES": "ru_UA"}), language({}, "linux"), language({"LANG": "de_DE"})
    ('ru', 'en', 'en')
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if env.get(name):
            return "ru" if env[name].lower().startswith("ru") else "en"
    if platform == "win32":
        found = locale.getlocale()[0] or ""
        return "ru" if found.lower().startswith(("ru", "russian")) else "en"
    return "en"


def chosen_language(argv: list[str], env: Mapping[str, str]) -> str:
    """`--lang` when given (read before argparse reads the rest: the help is in that language),
    else `BB_LANG`, else the system's.

    >>> chosen_language(["--port", "0", "--lang=ru"], {}), chosen_language(["--lang", "en"], {})
    ('ru', 'en')
    """
    for index, arg in enumerate(argv):
        value = None
        if arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
        elif arg == "--lang" and index + 1 < len(argv):
            value = argv[index + 1]
        if value in LANGUAGES:
            return value
    if env.get("BB_LANG") in LANGUAGES:
        return env["BB_LANG"]
    return language(env)


def without_lang(argv: list[str]) -> list[str]:
    """`argv` without `--lang X` / `--lang=X` (for a parser that has no `--lang` of its own).

    >>> without_lang(["tokens", "--lang", "ru", "--new"]), without_lang(["--lang=en"])
    (['tokens', '--new'], [])
    """
    kept, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif not arg.startswith("--lang="):
            kept.append(arg)
    return kept


class Said(str):
    """A sentence not yet in a language: its key in `TEXTS` and its values. As a `str` it is
    the English sentence (for logs, storage and exceptions); `Words.render` says it in the
    GM's language. A value that is a `Said` is said in the same language; a list of values is
    said joined by commas.

    >>> said = Said("folder_tightened", folder="/data", mode="755")
    >>> said[:64]
    'the data folder /data could be read by other users (mode 755); i'
    >>> Words("ru").render(said)[:45]
    'папку данных /data могли читать другие пользо'
    """

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, /, **values: object) -> Said:
        made = super().__new__(cls, ENGLISH_WORDS.say(key, **values))
        made.key, made.values = key, values
        return made


def said_error(error: BaseException) -> str:
    """Why an operation failed, as a `Said` where the words are known (an OSError's errno, an
    SQLite error's name, a `Said` raised), else the error's own text.

    >>> Words("ru").render(said_error(PermissionError(13, "Permission denied", "/x")))
    'нет прав доступа'
    """
    import errno

    if error.args and isinstance(error.args[0], Said):
        return error.args[0]
    if isinstance(error, OSError):
        key = f"errno.{errno.errorcode.get(error.errno or 0, '')}"
        if key in TEXTS:
            return Said(key)
        return (error.strerror or str(error)).lower()
    name = getattr(error, "sqlite_errorname", "")
    base = "_".join(name.split("_")[:2])  # SQLITE_CORRUPT_INDEX: SQLITE_CORRUPT's words
    for key in (f"sqlite.{name}", f"sqlite.{base}"):
        if key in TEXTS:
            return Said(key)
    return str(error)


class Words:
    """The templates of one language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGUAGES else "en"
        self.index = LANGUAGES.index(self.lang)

    def say(self, key: str, **values: object) -> str:
        """The sentence `key` with its values; a key with plural forms (`key.one`, `.few`,
        `.many`) takes the form its `count` needs in this language.

        >>> [Words("ru").say("battles", count=n) for n in (1, 3, 5, 11, 21)]
        ['1 бой', '3 боя', '5 боёв', '11 боёв', '21 бой']
        """
        if key not in TEXTS:
            key = f"{key}.{self._form(int(str(values['count'])))}"
        said = {name: self._value(value) for name, value in values.items()}
        return TEXTS[key][self.index].format(**said)

    def _value(self, value: object) -> object:
        if isinstance(value, Said):
            return self.render(value)
        if isinstance(value, list):
            return ", ".join(str(self._value(item)) for item in value)
        return value

    def _form(self, count: int) -> str:
        if self.lang == "ru":
            last, tens = count % 10, count % 100
            if last == 1 and tens != 11:
                return "one"
            return "few" if 2 <= last <= 4 and not 12 <= tens <= 14 else "many"
        return "one" if count == 1 else "many"

    def render(self, text: str) -> str:
        """A `Said` in this language; any other text as it is."""
        if isinstance(text, Said):
            return self.say(text.key, **text.values)
        return text

    def battles(self, count: int) -> str:
        """ "1 battle", "3 боя": the count in the language's plural form."""
        return self.say("battles", count=count)

    def oserror(self, error: OSError) -> str:
        """An OSError in words, without `[Errno 13]`."""
        return self.render(said_error(error))

    def stored(self, text: str, kinds: tuple[str, ...] = ("reason.", "changes.")) -> str:
        """English text that was written before it could be said (a reason read back from
        storage, by this bridge or an older one; argparse's message about a flag) in this
        language when it is one of the sentences of `kinds`, else as it is.

        >>> Words("ru").stored("record 4 does not match its checksum")
        'запись 4 не совпадает со своей контрольной суммой'
        """
        for key, pattern in _stored_patterns(kinds):
            found = pattern.fullmatch(text)
            if found:
                values = {k: self.stored(v, kinds) for k, v in found.groupdict().items()}
                stem, _, form = key.rpartition(".")
                if form in ("one", "few", "many"):  # the form this language needs
                    return self.say(stem, **values)
                return TEXTS[key][self.index].format(**values)
        return text


@functools.cache
def _stored_patterns(kinds: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    """Each English sentence of `kinds` as a pattern, its values captured (longest first)."""
    made = []
    for key, (english, _) in TEXTS.items():
        if key.startswith(kinds):
            regex, seen = "", set()
            for text, name, _, _ in string.Formatter().parse(english):
                regex += re.escape(text)
                if name:
                    regex += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
                    seen.add(name)
            made.append((key, re.compile(regex, re.DOTALL)))
    return sorted(made, key=lambda item: -len(item[1].pattern))


ENGLISH_WORDS = Words("en")
