"""Memory freed by the bridge given back to the system.

CPython returns a large buffer it frees to the C allocator, and glibc's `free()` gives memory
back to the system only from the top of its heap: after a burst of evicted readers (each with
up to 1 MiB waiting to be sent) the process would keep its peak size, all of it free inside.
`malloc_trim(0)` returns every free page. Elsewhere than glibc this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim: Callable[[int], int] = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl has no malloc_trim)
        return None
    return trim


_TRIM = _malloc_trim()


def give_back() -> bool:
    """Return the allocator's free pages to the system; False where that cannot be done."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True
