"""The words of the care commands (`check`, `backup`, `restore`) and of what the data files
say about themselves (a damaged record, a folder that cannot be written, a mode tightened), in
English and Russian; words.py reads them with the rest (`TEXTS`).

A key with plural forms has `.one`, `.few` and `.many` (English uses `.one` and `.many`);
a `reason.` is stored in the data file in English when a battle is set aside, and read back
in the GM's language (`Words.stored`).
"""

from __future__ import annotations

RESTORE = "`restore --from FILE`"

CARE_TEXTS: dict[str, tuple[str, str]] = {
    # a battle's history that cannot be replayed (sqlite_storage.py, replay.py, acknowledged.py)
    "reason.record_missing": (
        "record {expected} is missing (the next one is {seq})",
        "нет записи {expected} (следующая — {seq})",
    ),
    "reason.checksum": (
        "record {seq} does not match its checksum",
        "запись {seq} не совпадает со своей контрольной суммой",
    ),
    "reason.not_json": (
        "record {seq} is not valid JSON ({why})",
        "запись {seq} — не правильный JSON ({why})",
    ),
    "reason.no_kind": (
        "record {seq} is not a JSON object with a kind",
        "запись {seq} — не объект JSON с полем kind",
    ),
    "reason.no_head": (
        "its head (the number of its last record) is missing",
        "нет его отметки конца (номера последней записи)",
    ),
    "reason.end_missing_one": (
        "record {head} is missing at its end (its head says it reached record {head}); "
        "only a backup can bring them back",
        "в конце нет записи {head} (по отметке конца бой дошёл до записи {head}); вернуть её "
        "может только резервная копия",
    ),
    "reason.end_missing": (
        "records {first}-{head} are missing at its end (its head says it reached record "
        "{head}); only a backup can bring them back",
        "в конце нет записей {first}-{head} (по отметке конца бой дошёл до записи {head}); "
        "вернуть их может только резервная копия",
    ),
    "reason.beyond_head": (
        "records {first}-{seq} go beyond its head (record {head})",
        "записи {first}-{seq} идут дальше его отметки конца (запись {head})",
    ),
    "reason.not_head": (
        "record {seq} is not the one its head names (the checksums differ)",
        "запись {seq} — не та, что названа в отметке конца (контрольные суммы различаются)",
    ),
    "reason.before_created": (
        "record {seq} comes before the battle was created",
        "запись {seq} идёт раньше создания боя",
    ),
    "reason.not_replayed": (
        "record {seq} cannot be replayed ({why})",
        "запись {seq} не воспроизводится ({why})",
    ),
    "reason.no_records": ("it has no records", "у него нет записей"),
    "reason.snapshot_unreadable": (
        "the snapshot at record {seq} cannot be read ({why})",
        "снимок на записи {seq} не читается ({why})",
    ),
    "reason.snapshot_damaged": (
        "the snapshot at record {seq} is damaged",
        "снимок на записи {seq} повреждён",
    ),
    "reason.missing": (
        "{lost} missing (the bridge stored and acknowledged record {mark}, the file ends at "
        "record {stored}): was the folder copied without its -wal file? Restore a backup "
        "(`background-battle-bridge restore --from FILE`), or let `check --repair` keep what "
        "is left",
        "{lost} (мост сохранил и подтвердил запись {mark}, а файл кончается записью "
        "{stored}): папку скопировали без её файла -wal? Верните резервную копию "
        "(`background-battle-bridge restore --from FILE`) или дайте `check --repair` "
        "сохранить оставшееся",
    ),
    "changes.one": (
        "{count} acknowledged change is",
        "пропало {count} подтверждённое изменение",
    ),
    "changes.few": (
        "{count} acknowledged changes are",
        "пропали {count} подтверждённых изменения",
    ),
    "changes.many": (
        "{count} acknowledged changes are",
        "пропали {count} подтверждённых изменений",
    ),
    # the data file itself (sqlite_storage.py, backup.py)
    "unreadable": ("{path} cannot be read: {why}", "{path} не читается: {why}"),
    "empty_file": (
        "{path} is empty (0 bytes): the battles it held are gone; restore a backup or let "
        "`check --repair` set it aside to start anew",
        "{path} пуст (0 байт): бои, что в нём были, пропали; верните резервную копию или "
        "дайте `check --repair` отложить его и начать заново",
    ),
    "wal_needs_shm": (
        "its -wal holds changes and SQLite needs to write a -shm to read them: use a copy of "
        "the folder on a writable disk",
        "в его -wal есть изменения, и чтобы их прочитать, SQLite должен записать -shm: "
        "возьмите копию папки на диске, доступном для записи",
    ),
    "quick_check": (
        "SQLite finds the file damaged: {found}",
        "SQLite находит файл повреждённым: {found}",
    ),
    "sqlite.SQLITE_NOTADB": ("file is not a database", "файл — не база данных"),
    "sqlite.SQLITE_CORRUPT": (
        "database disk image is malformed",
        "файл базы данных повреждён",
    ),
    "sqlite.SQLITE_CANTOPEN": (
        "unable to open database file",
        "не удаётся открыть файл базы данных",
    ),
    "sqlite.SQLITE_IOERR": ("disk I/O error", "ошибка ввода-вывода диска"),
    "sqlite.SQLITE_FULL": ("the disk is full", "диск заполнен"),
    "sqlite.SQLITE_READONLY": (
        "attempt to write a readonly database",
        "попытка записи в базу данных только для чтения",
    ),
    # a file or folder that cannot be written (unwritable.py, file_modes.py, lock.py)
    "unwritable": ("{path} cannot be written: {cause}", "{path} нельзя записать: {cause}"),
    "unnamed_folder": ("the data folder", "папку данных"),
    "cause.EROFS": ("it is on a read-only disk or mount", "диск или раздел только для чтения"),
    "cause.EPERM": (
        "the system forbids changing it (an immutable file: `lsattr` shows an i; "
        "`chattr -i` lifts it)",
        "система запрещает его менять (неизменяемый файл: `lsattr` показывает i; "
        "`chattr -i` снимает запрет)",
    ),
    "cause.EACCES": (
        "permission denied (the file or its folder is read-only, or another user's)",
        "нет прав доступа (файл или его папка только для чтения или чужие)",
    ),
    "cause.no_new_file": (
        "no new file can be made in it (read-only, immutable or another user's)",
        "в ней нельзя создать новый файл (только для чтения, неизменяемая или чужая)",
    ),
    "cause.sqlite": ("SQLite cannot write it ({why})", "SQLite не может его записать ({why})"),
    "cannot_store": (
        "cannot store the battles: {why}; the bridge writes every change before it answers, "
        "so it does not start (make it writable, or give another --data)",
        "негде хранить бои: {why}; мост записывает каждое изменение, прежде чем ответить, "
        "поэтому не запускается (разрешите запись или укажите другую --data)",
    ),
    "folder_open": (
        "the data folder {folder} could be read by other users (mode {mode}); it could not "
        "be changed: {why}",
        "папку данных {folder} могли читать другие пользователи (режим {mode}); изменить "
        "его не удалось: {why}",
    ),
    "folder_tightened": (
        "the data folder {folder} could be read by other users (mode {mode}); it is now 700: "
        "only you can read it",
        "папку данных {folder} могли читать другие пользователи (режим {mode}); теперь у "
        "неё режим 700: читать её можете только вы",
    ),
    "files_tightened.one": (
        "{count} file in {folder} could be read by other users ({names}); it is now 600",
        "{count} файл в {folder} могли читать другие пользователи ({names}); теперь у "
        "него режим 600",
    ),
    "files_tightened.few": (
        "{count} files in {folder} could be read by other users ({names}); they are now 600",
        "{count} файла в {folder} могли читать другие пользователи ({names}); теперь у "
        "них режим 600",
    ),
    "files_tightened.many": (
        "{count} files in {folder} could be read by other users ({names}); they are now 600",
        "{count} файлов в {folder} могли читать другие пользователи ({names}); теперь у "
        "них режим 600",
    ),
    "busy": (
        "another bridge (pid {pid}) is using the data folder {folder}; stop it first, or "
        "give this one another --data",
        "папку данных {folder} использует другой мост (pid {pid}); сначала остановите его "
        "или укажите этому другую --data",
    ),
    "busy_at": (
        "another bridge (pid {pid}) at {url} is using the data folder {folder}; stop it "
        "first, or give this one another --data",
        "папку данных {folder} использует другой мост (pid {pid}) по адресу {url}; сначала "
        "остановите его или укажите этому другую --data",
    ),
    "moved_folder": (
        "moved the data folder from {old} to {new}",
        "папка данных перенесена из {old} в {new}",
    ),
    "old_folder": (
        "using the data folder {old} (it could not be moved to {new}: {why})",
        "используется папка данных {old} (перенести её в {new} не удалось: {why})",
    ),
    # the tokens and the paired origins kept in the data folder (guard.py, origins.py)
    "not_json": ("{path} is not JSON (damaged?)", "{path} — не JSON (повреждён?)"),
    "token_short.gm": (
        "the gm token must be at least 8 characters long",
        "токен ведущего должен быть не короче 8 символов",
    ),
    "token_short.player": (
        "the player token must be at least 8 characters long",
        "токен игроков должен быть не короче 8 символов",
    ),
    "tokens_same": (
        "the gm token and the player token must differ",
        "токены ведущего и игроков должны различаться",
    ),
    "origins_not_list": (
        "{path} is not a list of origins",
        "{path} — не список адресов",
    ),
    "origins_bad_entry": (
        "{path} holds an entry that is not an origin: {entry}",
        "в {path} есть запись, которая не является адресом: {entry}",
    ),
    # start-up (server.py)
    "cannot_load": (
        "cannot load the battles: {why}. `background-battle-bridge check --data {folder}` "
        "tells more; with --repair it keeps what can be read.",
        "не удаётся загрузить бои: {why}. Подробнее: `background-battle-bridge check --data "
        "{folder}`; с --repair он сохранит то, что читается.",
    ),
    "kept_aside_start": (
        "a damaged data file is kept aside: {name} (`check --repair` took from it what it "
        "could); restore a backup if a battle is missing, delete it once none is",
        "повреждённый файл данных отложен: {name} (`check --repair` взял из него что смог); "
        "если какого-то боя нет, верните резервную копию, а когда все на месте, удалите его",
    ),
    # backup and restore (backup.py)
    "no_database": ("there is no database at {path}", "базы данных {path} нет"),
    "target_exists": (
        "{path} already exists; choose another name",
        "{path} уже существует; выберите другое имя",
    ),
    "copy_failed": ("the copy failed: {why}", "копирование не удалось: {why}"),
    "no_backup": ("there is no backup at {path}", "резервной копии {path} нет"),
    "not_a_backup": (
        "{path} is not a backup of the bridge (no records)",
        "{path} — не резервная копия моста (в нём нет записей)",
    ),
    # the rescue of a file SQLite cannot read (salvage.py)
    "rescue_failed": (
        "the rescue of {path} failed ({why}); the file is as it was",
        "спасти {path} не удалось ({why}); файл остался как был",
    ),
    "rescue_short_of_records": (
        "the new file does not hold every record read from the damaged one; nothing was changed",
        "в новом файле не все записи, прочитанные из повреждённого; ничего не изменено",
    ),
    "rescue_unreadable": (
        "the rescued file cannot be read either",
        "спасённый файл тоже не читается",
    ),
    "rescue_moved": (
        "the damaged file was moved to {path}",
        "повреждённый файл перенесён в {path}",
    ),
    "rescue_found": (
        "{records} records of {battles} battles were read from it ({readings}): {names}",
        "из него прочитано записей: {records}, боёв: {battles} ({readings}): {names}",
    ),
    "rescue_none": (
        "no record could be read from it: the new file starts with no battles",
        "из него не прочитано ни одной записи: новый файл начинается без боёв",
    ),
    "reading.as_is": ("as it is: {count}", "как есть: {count}"),
    "reading.whole": (
        "whole pages ({pages} pages): {count}",
        "целые страницы ({pages} стр.): {count}",
    ),
    "reading.whole_guessed": (
        "whole pages ({pages} pages, a header made for pages of {size} bytes): {count}",
        "целые страницы ({pages} стр., заголовок сделан для страниц по {size} байт): {count}",
    ),
    "reading.torn": (
        "torn page filled ({pages} pages): {count}",
        "оборванная страница дополнена ({pages} стр.): {count}",
    ),
    "reading.torn_guessed": (
        "torn page filled ({pages} pages, a header made for pages of {size} bytes): {count}",
        "оборванная страница дополнена ({pages} стр., заголовок сделан для страниц по "
        "{size} байт): {count}",
    ),
    "reading.pages": ("pages read directly: {count}", "прочитано прямо со страниц: {count}"),
    "rescue_short": (
        "{battle}: {have} of its {last} records were read",
        "{battle}: прочитано записей: {have} из {last}",
    ),
    "rescue_short_file": (
        "no record could be read from a file of {pages} pages",
        "из файла в {pages} стр. не прочитано ни одной записи",
    ),
    # what check finds and mends (checkup.py)
    "finding.sound.one": (
        "{battle}: sound, version {version} ({count} record)",
        "{battle}: цел, версия {version} (записей: {count})",
    ),
    "finding.sound.many": (
        "{battle}: sound, version {version} ({count} records)",
        "{battle}: цел, версия {version} (записей: {count})",
    ),
    "finding.damaged": (
        "{battle}: DAMAGED: {problem}; records 1-{upto} (version {version}) are good",
        "{battle}: ПОВРЕЖДЁН: {problem}; записи 1-{upto} (версия {version}) целы",
    ),
    "finding.damaged_all": (
        "{battle}: DAMAGED: {problem}; no record is good",
        "{battle}: ПОВРЕЖДЁН: {problem}; целых записей нет",
    ),
    "finding.restored": (
        "{battle}: in quarantine #{number} ({problem}); its records 1-{restored} were brought back",
        "{battle}: в карантине №{number} ({problem}); его записи 1-{restored} возвращены",
    ),
    "finding.can_restore": (
        "{battle}: in quarantine #{number} ({problem}); records 1-{upto} (version {version}) "
        "can be brought back",
        "{battle}: в карантине №{number} ({problem}); записи 1-{upto} (версия {version}) "
        "можно вернуть",
    ),
    "finding.lost": (
        "{battle}: in quarantine #{number} ({problem}); nothing in it can be brought back",
        "{battle}: в карантине №{number} ({problem}); из него ничего нельзя вернуть",
    ),
    "mend.brought_back": (
        "{battle}: records 1-{upto} (version {version}) brought back from quarantine "
        "#{number} as {name}",
        "{battle}: записи 1-{upto} (версия {version}) возвращены из карантина №{number} как {name}",
    ),
    "mend.snapshot": (
        "{battle}: the damaged snapshot was removed (the bridge replays the records)",
        "{battle}: повреждённый снимок удалён (мост воспроизводит записи)",
    ),
    "mend.nothing": (
        "{battle}: nothing good to keep; moved to quarantine #{number}",
        "{battle}: целого ничего нет; перенесён в карантин №{number}",
    ),
    "mend.kept": (
        "{battle}: kept records 1-{upto} (version {version}); its whole history is kept in "
        "quarantine #{number}",
        "{battle}: сохранены записи 1-{upto} (версия {version}); вся его история хранится "
        "в карантине №{number}",
    ),
    # a flag that cannot be read (argparse's own messages, and the bridge's flags' types)
    "argparse.unrecognized": ("unrecognized arguments: {args}", "неизвестные аргументы: {args}"),
    "argparse.required": (
        "the following arguments are required: {args}",
        "не хватает аргументов: {args}",
    ),
    "argparse.argument": ("argument {flag}: {message}", "аргумент {flag}: {message}"),
    "argparse.one": ("expected one argument", "нужно одно значение"),
    "argparse.choice": (
        "invalid choice: {value} (choose from {choices})",
        "недопустимое значение {value} (возможны: {choices})",
    ),
    "argparse.type": ("invalid {kind} value: {value}", "недопустимое значение ({kind}): {value}"),
    "argparse.ambiguous": (
        "ambiguous option: {option} could match {matches}",
        "неоднозначный флаг {option}: подходят {matches}",
    ),
    "argparse.not_allowed": ("not allowed with argument {flag}", "нельзя вместе с {flag}"),
    "argparse.explicit": ("ignored explicit argument {value}", "лишнее значение {value}"),
    "flag.port_whole": (
        "port must be a whole number, not {value}",
        "порт — целое число, а не {value}",
    ),
    "flag.port_range": (
        "port must be from 0 to 65535, not {value}",
        "порт — от 0 до 65535, а не {value}",
    ),
    "flag.number": ("must be a number, not {value}", "нужно число, а не {value}"),
    "flag.positive": (
        "must be above 0 and at most 1000000, not {value}",
        "нужно больше 0 и не больше 1000000, а не {value}",
    ),
    "flag.sync": (
        "BB_SYNC must be one of {modes}, not {value}",
        "BB_SYNC — одно из {modes}, а не {value}",
    ),
    # the care commands' report (admin.py)
    "care.title": ("{path}:", "{path}:"),
    "care.now": ("{path} now:", "{path} теперь:"),
    "care.read_only_title": ("{path} (read only):", "{path} (только чтение):"),
    "care.backed_up": ("backed up to {path}:", "скопировано в {path}:"),
    "care.restored": ("restored {source} into {path}:", "{source} восстановлен в {path}:"),
    "care.replaced_kept": (
        "the file it replaced was kept as {path}",
        "заменённый файл сохранён как {path}",
    ),
    "care.no_battles": ("no battles", "боёв нет"),
    "care.nothing": (
        "there is no database at {path}: nothing to check",
        "базы данных {path} нет: проверять нечего",
    ),
    "care.lost_database.one": (
        "there is no database at {path}, but the bridge acknowledged changes to {count} "
        f"battle there ({{names}}): restore a backup ({RESTORE}), or move the whole folder "
        "aside to start afresh",
        "базы данных {path} нет, но мост подтверждал изменения {count} боя в ней "
        f"({{names}}): верните резервную копию ({RESTORE}) или уберите всю папку, чтобы "
        "начать заново",
    ),
    "care.lost_database.few": (
        "there is no database at {path}, but the bridge acknowledged changes to {count} "
        f"battles there ({{names}}): restore a backup ({RESTORE}), or move the whole folder "
        "aside to start afresh",
        "базы данных {path} нет, но мост подтверждал изменения {count} боёв в ней "
        f"({{names}}): верните резервную копию ({RESTORE}) или уберите всю папку, чтобы "
        "начать заново",
    ),
    "care.run_repair": (
        "run `check --repair` to set it aside and keep what can be read",
        "запустите `check --repair`, чтобы отложить его и сохранить то, что читается",
    ),
    "care.kept_aside": (
        "a damaged file `check --repair` took what it could from is kept aside: {path}",
        "отложен повреждённый файл, из которого `check --repair` взял что смог: {path}",
    ),
    "care.repair_failed": (
        "check --repair could not finish: {why}",
        "check --repair не смог закончить: {why}",
    ),
    "care.repair_crashed": (
        "check --repair could not finish ({why}); what was not repaired is as it was",
        "check --repair не смог закончить ({why}); что не починено, осталось как было",
    ),
    "care.short": (
        "the rescue could not read every record the damaged file's heads and the bridge's "
        f"acknowledged marks name: {{short}}. Only a backup holds the rest ({RESTORE}); the "
        "damaged file is kept aside",
        "спасение прочитало не все записи, названные отметками конца повреждённого файла "
        f"и подтверждёнными отметками моста: {{short}}. Остальное есть только в резервной "
        f"копии ({RESTORE}); повреждённый файл отложен",
    ),
    "care.read_only_damaged": (
        "the file is damaged or cannot be read read-only: {path}: {why}",
        "файл повреждён или не читается без записи: {path}: {why}",
    ),
    "care.read_only_verdict": (
        "{unwritable}: the bridge does not start, and `--repair` cannot run, until it can be",
        "{unwritable}: пока это так, мост не запускается и `--repair` не работает",
    ),
    "care.unsettled.one": (
        "{count} battle is damaged or in quarantine: {what}",
        "{count} бой повреждён или в карантине: {what}",
    ),
    "care.unsettled.few": (
        "{count} battles are damaged or in quarantine: {what}",
        "{count} боя повреждены или в карантине: {what}",
    ),
    "care.unsettled.many": (
        "{count} battles are damaged or in quarantine: {what}",
        "{count} боёв повреждены или в карантине: {what}",
    ),
    "care.mend_them": (
        "run `check --repair` to mend them",
        "запустите `check --repair`, чтобы их починить",
    ),
    "care.only_backup": (
        "what is left in quarantine only a backup can bring back (`restore`)",
        "оставшееся в карантине вернёт только резервная копия (`restore`)",
    ),
    "care.damaged": ("the file is damaged: {why}", "файл повреждён: {why}"),
    "care.could_not_run": ("{command} could not run: {why}", "{command} не выполнен: {why}"),
}
CARE_TEXTS["care.lost_database.many"] = CARE_TEXTS["care.lost_database.few"]
CARE_TEXTS["finding.sound.few"] = CARE_TEXTS["finding.sound.many"]
