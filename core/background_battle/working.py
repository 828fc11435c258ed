"""The working of each computed number, as a GM would write it down (docs/rules.md §2–§8).

Each function gives the arithmetic of one rule as text (numbers and ``floor``, ``max``,
``min`` only, the same in every language); the shells word the rule's name. Nothing here
decides anything: the rules modules compute, these show how.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .rounding import per_two_sl, round_half_down, strength_bonus

Step = dict[str, Any]


def step(rule: str, text: str, side: str | None = None) -> Step:
    """One line of working: the rule's name (a key the shells word), its arithmetic, a side.

    >>> step("leader_bonus", "1 + 2 = 3", "enemies")
    {'rule': 'leader_bonus', 'text': '1 + 2 = 3', 'side': 'enemies'}
    """
    result: Step = {"rule": rule, "text": text}
    if side is not None:
        result["side"] = side
    return result


def number(value: Fraction | int) -> str:
    """A number as the working shows it: whole, a short decimal, or a fraction.

    >>> number(Fraction(105, 8)), number(Fraction(12, 1)), number(Fraction(40, 3)), number(-5)
    ('13.125', '12', '40/3', '-5')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator == 1 and value.denominator <= 10_000:
        return f"{float(value):.10g}"
    return f"{value.numerator}/{value.denominator}"


def term(value: int) -> str:
    """A number inside an expression: negative ones in brackets.

    >>> term(3), term(-2)
    ('3', '(-2)')
    """
    return f"({value})" if value < 0 else str(value)


def rounded(value: Fraction) -> str:
    """``= x → n`` when rounding (halves down) changes the value, ``= n`` when it is whole.

    >>> rounded(Fraction(105, 8)), rounded(Fraction(13, 2)), rounded(Fraction(4))
    ('= 13.125 → 13', '= 6.5 → 6', '= 4')
    """
    if value.denominator == 1:
        return f"= {value.numerator}"
    return f"= {number(value)} → {round_half_down(value)}"


def initial_strength_working(units: list[int], percent: int, flat: int, initial: int) -> str:
    """``S0 = round(sum × (1 + percents/100) + flats)``, halves down, never below 0.

    docs/rules.md §3.

    >>> initial_strength_working([20, 60], 25, 0, 100)
    '(20 + 60) × (1 + 25/100) = 100'
    >>> initial_strength_working([25], -10, 0, 22), initial_strength_working([20, 60], 0, 20, 100)
    ('25 × (1 - 10/100) = 22.5 → 22', '20 + 60 + 20 = 100')
    >>> initial_strength_working([30], 0, 0, 30)
    '30 = 30'
    """
    total = sum(units)
    text = " + ".join(map(str, units))
    if percent:
        sign = "-" if percent < 0 else "+"
        grouped = f"({text})" if len(units) > 1 else text
        text = f"{grouped} × (1 {sign} {abs(percent)}/100)"
    if flat:
        text += f" {'-' if flat < 0 else '+'} {abs(flat)}"
    value = total * (1 + Fraction(percent, 100)) + flat
    text = f"{text} {rounded(value)}"
    return text if round_half_down(value) == initial else f"{text} → {initial}"


def leader_bonus_working(strength: int, sl: int) -> str:
    """``1 + floor(S/10) + floor(SL/2)`` with the numbers in (docs/rules.md §4).

    >>> leader_bonus_working(45, 7)
    '1 + floor(45/10) + floor(7/2) = 1 + 4 + 3 = 8'
    """
    tens, halves = strength_bonus(strength), per_two_sl(sl)
    return f"1 + floor({strength}/10) + floor({sl}/2) = 1 + {tens} + {halves} = {1 + tens + halves}"


def sl_working(target: int, roll: int, sl: int) -> str:
    """``SL = floor(target/10) - floor(roll/10)`` (01-05 and 96-00 move it to 0, docs/rules.md §5).

    >>> sl_working(32, 14, 2)
    'floor(32/10) - floor(14/10) = 3 - 1 = 2'
    >>> sl_working(3, 4, 0)
    'floor(3/10) - floor(4/10) = 0 - 0 = 0'
    >>> sl_working(150, 97, 0)
    'floor(150/10) - floor(97/10) = 15 - 9 = 6 → 0 (96-00)'
    """
    raw = target // 10 - roll // 10
    text = f"floor({target}/10) - floor({roll}/10) = {target // 10} - {roll // 10} = {raw}"
    if raw != sl:
        text += f" → {sl} ({'01-05' if roll <= 5 else '96-00'})"
    return text


def loss_working(winner_sl: int, loser_sl: int, loss: int) -> str:
    """The loser loses ``max(1, winner SL - loser SL)`` (docs/rules.md §5).

    >>> loss_working(2, -1, 3)
    'max(1, 2 - (-1)) = 3'
    """
    return f"max(1, {winner_sl} - {term(loser_sl)}) = {loss}"


def signed_sl(sl: int, success: bool) -> str:
    """An SL as the table says it: its sign from the test's result, so a passed SL 0 is ``+0``
    and a failed one ``-0`` (docs/rules.md §5).

    >>> signed_sl(2, True), signed_sl(0, True), signed_sl(0, False), signed_sl(-3, False)
    ('+2', '+0', '-0', '-3')
    """
    if sl == 0:
        return "+0" if success else "-0"
    return f"+{sl}" if sl > 0 else str(sl)


def decided_working(reason: str, sls: tuple[str, str], targets: tuple[int, int]) -> str:
    """Why the opposed test went as it did, first side the winner's (a draw: both sides').

    >>> decided_working("sl", ("+2", "-1"), (35, 30))
    '+2 > -1'
    >>> decided_working("success", ("+0", "-0"), (30, 35))
    '+0 > -0'
    >>> decided_working("target", ("+1", "+1"), (38, 35))
    '+1 = +1; 38 > 35'
    >>> decided_working("draw", ("+0", "+0"), (30, 30))
    '+0 = +0; 30 = 30'
    """
    if reason in ("sl", "success"):
        return f"{sls[0]} > {sls[1]}"
    sign = ">" if reason == "target" else "="
    return f"{sls[0]} = {sls[1]}; {targets[0]} {sign} {targets[1]}"


def difference(before: int, minus: int, after: int) -> str:
    """A strength that drops (never below 0).

    >>> difference(30, 3, 27), difference(2, 5, 0)
    ('30 - 3 = 27', '2 - 5 = -3 → 0')
    """
    raw = before - minus
    return f"{before} - {minus} = {raw}" + ("" if raw == after else f" → {after}")


def lost_share_working(initial: int, remaining: int) -> str:
    """``f = (S0 - S) / S0`` (docs/rules.md §7; strength above S0 counts as S0).

    >>> lost_share_working(40, 19)
    '(40 - 19) / 40 = 21/40'
    """
    kept = min(remaining, initial)
    share = Fraction(initial - kept, initial)
    return f"({initial} - {kept}) / {initial} = {share}"


def casualty_steps(fighters: int, share: Fraction) -> list[Step]:
    """Killed ``round(N × f / 2)`` (halves down), wounded ``min(2 × killed, N - killed)``, fit.

    >>> [s["text"] for s in casualty_steps(50, Fraction(21, 40))]
    ['50 × 21/40 / 2 = 13.125 → 13', 'min(2 × 13, 50 - 13) = 26', '50 - 13 - 26 = 11']
    """
    killed = round_half_down(fighters * share / 2)
    wounded = min(2 * killed, fighters - killed)
    return [
        step("killed", f"{fighters} × {share} / 2 {rounded(fighters * share / 2)}"),
        step("wounded", f"min(2 × {killed}, {fighters} - {killed}) = {wounded}"),
        step("fit", f"{fighters} - {killed} - {wounded} = {fighters - killed - wounded}"),
    ]


def influence_modifier_working(own: int, other: int, battle_over: bool) -> str:
    """After the battle ``50 + S``; during it ``S - the other side's S`` (docs/rules.md §6).

    >>> influence_modifier_working(18, 0, True), influence_modifier_working(20, 25, False)
    ('50 + 18 = 68', '20 - 25 = -5')
    """
    if battle_over:
        return f"50 + {own} = {50 + own}"
    return f"{own} - {other} = {own - other}"


def sum_working(first: int, second: int) -> str:
    """A roll or a strength and what is added to it.

    >>> sum_working(40, -5), sum_working(26, 6)
    ('40 - 5 = 35', '26 + 6 = 32')
    """
    sign = "-" if second < 0 else "+"
    return f"{first} {sign} {abs(second)} = {first + second}"
