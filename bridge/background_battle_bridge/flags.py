"""The command line's own habits: an error in one line (no usage block), help within 80 columns,
and `--origin` values read as origins.

>>> origins, notes = origins_of(["http://foundry.local:30000/game"], Words("en"))
>>> origins, notes[0][:57]
(['http://foundry.local:30000'], '--origin http://foundry.local:30000/game: only the origin')
"""

from __future__ import annotations

import argparse
import functools
import shutil
import textwrap
from collections.abc import Iterable
from typing import Any, NoReturn

from .columns import fit
from .origins import BadOrigin, checked_origin
from .words import Words

HELP_WIDTH = 80


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a mistake is one line on stderr (exit code 2) naming `--help`."""

    def __init__(self, *args: object, words: Words | None = None, **kwargs: object) -> None:
        self.words = words or Words("en")
        kwargs.setdefault("formatter_class", functools.partial(_formatter, words=self.words))
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._optionals.title = self.words.say("help.options")
        self.add_argument("-h", "--help", action="help", help=self.words.say("help.help"))

    def error(self, message: str) -> NoReturn:
        """argparse's message (English, from its own words or a flag's type) in the
        parser's language."""
        said = self.words.stored(message, ("argparse.", "flag."))
        line = self.words.say("bad_flag", prog=self.prog, message=said)
        self.exit(2, "\n".join(fit(line)) + "\n")


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Flags' help wrapped without breaking a name at its hyphen (gm-laptop.local); "usage:"
    in the parser's language."""

    usage_prefix = "usage: "

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        # argparse asks with prefix "" for a subcommand's prog: only None means "usage: "
        super().add_usage(usage, actions, groups, self.usage_prefix if prefix is None else prefix)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(
            " ".join(text.split()), width, break_on_hyphens=False, break_long_words=False
        )


def _formatter(prog: str, words: Words) -> argparse.HelpFormatter:
    """Help in at most 80 columns (fewer in a narrower terminal); the description and the
    epilog as written (`described` wraps the description)."""
    width = min(HELP_WIDTH, shutil.get_terminal_size((HELP_WIDTH, 24)).columns)
    formatter = _Formatter(prog, width=width, max_help_position=30)
    formatter.usage_prefix = words.say("help.usage")
    return formatter


def described(text: str) -> str:
    """A description wrapped for the help's 80 columns."""
    return textwrap.fill(text, HELP_WIDTH - 2, break_on_hyphens=False)


class FlagError(ValueError):
    """A flag's value that cannot be used: the line to print."""


def origins_of(given: Iterable[str], words: Words) -> tuple[list[str], list[str]]:
    """Each `--origin` value as an origin, and the notes for values reduced to one.

    Raises:
        FlagError: a value that is not an origin (the line says why and shows one).
    """
    origins, notes = [], []
    for value in given:
        if not value.strip():
            continue
        try:
            origin, extra = checked_origin(value)
        except BadOrigin as bad:
            raise FlagError(words.say(f"origin.{bad.code}", given=value.strip())) from None
        if extra:
            notes.append(words.say("origin_note", given=value.strip(), origin=origin))
        origins.append(origin)
    return origins, notes
