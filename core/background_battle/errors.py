"""One exception family for every bad input and refused command."""

from __future__ import annotations

from typing import Any


class BattleError(ValueError):
    """A bad input or a refused command: a stable ``code``, the ``field`` at fault, a message.

    ``params`` carries what a shell needs to say it in its own language (for example the
    accepted range). Raising one never leaves anything half-changed: the core is pure.

    >>> err = BattleError("out_of_range", "fighters", "fighters must be 1 to 100000", min=1)
    >>> err.code, err.field, err.params
    ('out_of_range', 'fighters', {'min': 1})
    >>> err.to_dict()["message"]
    'fighters must be 1 to 100000'
    """

    def __init__(self, code: str, field: str | None, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.message = message
        self.params = params

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form shells send on."""
        return {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "params": dict(self.params),
        }
