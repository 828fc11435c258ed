"""One exception family for every bad input and refused command."""

from __future__ import annotations

from typing import Any


class BattleError(ValueError):
    """A bad input or a refused command: a stable ``code``, the ``field`` at fault, a message.

    ``params`` carries what a shell needs to say it in its own language (for example the
    accepted range). Raising one never leaves anything half-changed: the core is pure.
    ``others`` holds the errors of a command's other fields, found in the same check (a form
    shows them all at once); the error raised is the first field's.

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
        self.others: list[BattleError] = []

    @classmethod
    def together(cls, errors: list[BattleError]) -> BattleError:
        """One error standing for several: the first, with the rest as its ``others``.

        >>> name = BattleError("required", "name", "name is required")
        >>> count = BattleError("required", "fighters", "fighters is required")
        >>> both = BattleError.together([name, count])
        >>> [e.field for e in both.every()], both.to_dict()["others"][0]["field"]
        (['name', 'fighters'], 'fighters')
        """
        first, *rest = [each for error in errors for each in error.every()]
        first.others = rest
        return first

    def every(self) -> list[BattleError]:
        """This error and its ``others``, the first field's first."""
        return [self, *self.others]

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly form shells send on (``others`` only when there are any)."""
        out: dict[str, Any] = {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "params": dict(self.params),
        }
        if self.others:
            out["others"] = [other.to_dict() for other in self.others]
        return out
