"""Readable text for the command line: compute first (the core), then format here."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

BAR_WIDTH = 20


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns, the first left-aligned and the rest right-aligned.

    >>> print(table(["unit", "n"], [["Dwarves", 10]]), end="")
    unit     n
    Dwarves 10
    """
    cells = [[str(h) for h in headers], *[[str(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append(" ".join(parts).rstrip())
    return "\n".join(lines) + "\n"


def fates_bar(killed: float, wounded: float, fit: float, width: int = BAR_WIDTH) -> str:
    """A stacked bar: killed ``█``, wounded ``▒``, fit ``░``.

    >>> fates_bar(2, 4, 4, 10)
    '██▒▒▒▒░░░░'
    """
    total = killed + wounded + fit
    if total <= 0:
        return ""
    dead = round(width * killed / total)
    hurt = round(width * (killed + wounded) / total) - dead
    return "█" * dead + "▒" * hurt + "░" * (width - dead - hurt)


def casualty_table(initial: Any, remaining: Any, reply: dict[str, Any]) -> str:
    """The casualties of one side, a row per unit, with a bar."""
    share = reply["lost_share"]
    head = f"Strength lost (потеряно ОС): {share:.0%} — S0 {initial}, left {remaining}\n\n"
    return head + fates_table("unit (отряд)", reply["units"])


def fates_table(title: str, units: Sequence[dict[str, Any]]) -> str:
    """A row per unit (``name``, ``fighters``, ``killed``, ``wounded``, ``fit``) and a bar.

    >>> print(fates_table("unit", [{"name": "Dwarves", "fighters": 10, "killed": 2,
    ...     "wounded": 4, "fit": 4}]), end="")
    unit    fighters killed wounded fit
    Dwarves       10      2       4   4 ████▒▒▒▒▒▒▒▒░░░░░░░░
    <BLANKLINE>
    █ killed (убиты)  ▒ wounded (ранены)  ░ fit (готовы к бою)
    """
    rows = [
        [
            u["name"],
            u["fighters"],
            u["killed"],
            u["wounded"],
            u["fit"],
            fates_bar(u["killed"], u["wounded"], u["fit"]),
        ]
        for u in units
    ]
    headers = [title, "fighters", "killed", "wounded", "fit", ""]
    return table(headers, rows) + "\n█ killed (убиты)  ▒ wounded (ранены)  ░ fit (готовы к бою)\n"


def leader_bonus_text(strength: Any, sl: Any, reply: dict[str, Any]) -> str:
    """The leader's command in one line."""
    return (
        f"Leader's command (командование): +{reply['bonus']} strength "
        f"(1 + {strength} // 10 + {sl} // 2); next opposed test at "
        f"{reply['strength_for_next_test']}\n"
    )


def last_stand_text(enemy_strength: Any, reply: dict[str, Any]) -> str:
    """The PCs' win: what the enemies who keep fighting do."""
    text = (
        f"Enemies still fighting: strength {reply['fighting_strength']} of {enemy_strength}\n"
        f"Their last blow: {reply['damage']} strength of damage to the allies\n"
    )
    if "allies_strength_after" in reply:
        text += f"Allies' strength after it: {reply['allies_strength_after']}\n"
    return text


def odds_table(reply: dict[str, Any]) -> str:
    """Chances and expected casualties from a simulation."""
    text = (
        f"{reply['runs']} simulated battles\n"
        f"allies win   {reply['allies_win']:7.1%}\n"
        f"enemies win  {reply['enemies_win']:7.1%}\n"
    )
    if reply["unfinished"]:
        text += f"unfinished   {reply['unfinished']:7.1%}\n"
    text += f"rounds, on average: {reply['expected_rounds']:.1f}\n\nExpected fates per unit:\n"
    rows = [
        [
            u["name"],
            u["side"],
            f"{u['killed']:.1f}",
            f"{u['wounded']:.1f}",
            f"{u['fit']:.1f}",
            fates_bar(u["killed"], u["wounded"], u["fit"]),
        ]
        for u in reply["units"]
    ]
    return text + table(["unit", "side", "killed", "wounded", "fit", ""], rows)
