"""The player link as a QR code in the terminal: players at the table scan it with their phones."""

from __future__ import annotations

import io

import segno


def qr_lines(link: str) -> list[str]:
    """The QR code of ``link`` (segno) in Unicode half blocks, two rows of modules a line.

    The quiet zone is two modules wide; light modules are drawn (a dark terminal's background is
    the code's dark colour), which phone cameras read as well as dark-on-light.

    >>> link = "http://192.168.1.5:8765/#token=abc"
    >>> lines = qr_lines(link)
    >>> width, height = segno.make(link, error="l").symbol_size(border=2)
    >>> len(lines) == (height + 1) // 2 and all(len(line) == width for line in lines)
    True
    >>> set("".join(lines)) <= {"█", "▀", "▄", " "}
    True
    """
    out = io.StringIO()
    segno.make(link, error="l").terminal(out=out, border=2, compact=True)
    return [line for line in out.getvalue().splitlines() if line]
