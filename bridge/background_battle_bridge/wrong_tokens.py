"""Wrong tokens, slowed down: after `FREE` wrong tokens from one address, one more is checked
every `EVERY` seconds; a `hello` that comes sooner is refused (`error too_many_tries`) without
its token being looked at, so guessing is no faster than that. A connection has one try
already: a wrong token closes it (1008).

The bookkeeping is bounded: at most `ADDRESSES` addresses are remembered, the one longest
without a wrong token forgotten first (it had its tries back, or will have them soon).

>>> tries = WrongTokens(free=2, every=10.0, addresses=2)
>>> [tries.wait("10.0.0.7", 0.0), tries.wrong("10.0.0.7", 0.0), tries.wrong("10.0.0.7", 0.0)]
[0.0, None, None]
>>> tries.wait("10.0.0.7", 1.0), tries.wait("10.0.0.8", 1.0), tries.wait("10.0.0.7", 10.0)
(9.0, 0.0, 0.0)
"""

from __future__ import annotations

import collections

from .guard import RateLimit

FREE = 5  # wrong tokens from one address before the slowing starts
EVERY = 1.0  # seconds: then one more wrong token is checked this often
ADDRESSES = 4096  # addresses remembered at most (a few hundred kB)


class WrongTokens:
    """The wrong tokens of each address, as a bucket of tries that refills."""

    def __init__(self, free: int = FREE, every: float = EVERY, addresses: int = ADDRESSES) -> None:
        self.free = free
        self.every = every
        self.addresses = addresses
        self._tries: collections.OrderedDict[str, RateLimit] = collections.OrderedDict()

    def wait(self, address: str, now: float) -> float:
        """Seconds before a token from `address` is checked again (0.0: now)."""
        tries = self._tries.get(address)
        if tries is None:
            return 0.0
        level = min(tries.burst, tries.level + (now - tries.stamp) * tries.rate)
        return 0.0 if level >= 1 else (1 - level) / tries.rate

    def wrong(self, address: str, now: float) -> None:
        """Count a wrong token from `address` (checked, so it had a try left)."""
        tries = self._tries.pop(address, None) or RateLimit(1 / self.every, self.free, now)
        tries.take(now)
        self._tries[address] = tries
        while len(self._tries) > self.addresses:
            self._tries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._tries)
