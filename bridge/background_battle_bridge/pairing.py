"""Foundry joins by a code: the rules of one attempt, with the clock passed in.

A page that asks (its origin named) gets an attempt; the bridge shows the GM the origin and a
six-digit code; the GM types the code in that page. The code is good for two minutes and three
tries, for that attempt only (one connection: pair_handler.py); at most five attempts may start
in any minute, so guessing codes by opening attempts takes weeks and fills the GM's terminal.

>>> now = [0.0]
>>> pairing = Pairing(clock=lambda: now[0], make_code=lambda: "123456")
>>> attempt = pairing.ask("http://foundry.local:30000")
>>> pairing.answer(attempt, "000000"), attempt.tries_left
('wrong', 2)
>>> pairing.answer(attempt, "123 456")
'paired'
>>> late = pairing.ask("http://foundry.local:30000"); now[0] = 121.0
>>> pairing.answer(late, "123456")
'expired'
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

CODE_SECONDS = 120.0
TRIES = 3
ASKS_PER_MINUTE = 5
CODE_DIGITS = 6
MAX_TYPED = 32  # a typed code longer than this is not a code


def new_code() -> str:
    """Six digits from the system's secure generator."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def shown(code: str) -> str:
    """The code as the GM reads it: two groups of three.

    >>> shown("012345")
    '012 345'
    """
    return f"{code[:3]} {code[3:]}"


def typed_code(text: str) -> str:
    """What was typed without spaces and dashes ("123 456", "123-456")."""
    return "".join(ch for ch in text[:MAX_TYPED] if ch not in " -\u00a0\t")


@dataclass
class Attempt:
    """One page's request: its origin, its code, until when it is good, the tries left."""

    origin: str
    code: str
    expires: float
    tries_left: int = TRIES
    over: bool = False


class Pairing:
    """The attempts of one bridge; `clock` in seconds (monotonic), `make_code` for tests."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        make_code: Callable[[], str] = new_code,
    ) -> None:
        self.clock = clock
        self.make_code = make_code
        self.started: list[float] = []  # when the attempts of the last minute started

    def ask(self, origin: str) -> Attempt | None:
        """A new attempt for `origin`; None when five started within the last minute."""
        now = self.clock()
        self.started = [t for t in self.started if now - t < 60.0]
        if len(self.started) >= ASKS_PER_MINUTE:
            return None
        self.started.append(now)
        return Attempt(origin, self.make_code(), now + CODE_SECONDS)

    def answer(self, attempt: Attempt, typed: str) -> str:
        """ "paired", "wrong" (tries left), "too_many_tries", "expired" or "over" (ended before).

        A right code after the time or the tries ran out is refused all the same.
        """
        if attempt.over:
            return "over"
        if self.clock() >= attempt.expires:
            attempt.over = True
            return "expired"
        right = hmac.compare_digest(typed_code(typed).encode(), attempt.code.encode())
        if right:
            attempt.over = True
            return "paired"
        attempt.tries_left -= 1
        if attempt.tries_left <= 0:
            attempt.over = True
            return "too_many_tries"
        return "wrong"

    def seconds_left(self, attempt: Attempt) -> float:
        return max(0.0, attempt.expires - self.clock())
