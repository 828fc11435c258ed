"""Every command's fields, described once: the checks read it, the docs are made from it.

A command is accepted only in its known shape: no unknown field, each value of its kind and in
its range, text valid Unicode, numbers whole and finite, nesting bounded. ``normalise`` gives the
command as the log keeps it (known fields only, canonical values); the rules read that.

>>> normalise({"type": "set_strength", "side": "allies", "strength": 18.0})
{'type': 'set_strength', 'side': 'allies', 'strength': 18}
>>> normalise({"type": "start", "extra": 1})
Traceback (most recent call last):
...
background_battle.errors.BattleError: start has no field 'extra'; its fields: type

``python -m background_battle.shapes_doc --markdown`` prints the commands' reference in Markdown.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from .battle import HIDEABLE, Status
from .errors import BattleError
from .influence import LANGUAGES, LIMIT, MAX_BANDS, MAX_EFFECT, table_from_dict
from .influence_effects import KINDS, MAX_EFFECTS, WHO_OR_ANY
from .units import MAX_FIGHTERS, MAX_RATING, MAX_STRENGTH, SIZES
from .validate import (
    MAX_TEXT,
    SIDES,
    flag,
    mapping,
    one_of,
    only_known,
    range_text,
    share,
    text,
    whole,
)

Kind = Literal["integer", "text", "choice", "boolean", "share", "object", "list", "table"]
MAX_DEPTH: Final = 8
MAX_MODIFIERS: Final = 50
MAX_ID: Final = 40
ROUND_MODES: Final = ("auto", "rolls", "lost")
ANY_PHASE: Final[tuple[Status, ...]] = ("setup", "fighting", "ended")


@dataclass(frozen=True)
class Field:
    """One field of a command: its kind, whether it is needed, and what it accepts.

    ``nullable``: ``null`` is a value of its own (otherwise ``null`` means "not given").
    ``required_when``: needed when another field has this value (``("mode", "rolls")``).
    ``code``: the error code for a value outside ``accepted``.
    """

    name: str
    kind: Kind
    summary: str
    required: bool = False
    default: Any = None
    min: int | None = None
    max: int | None = None
    accepted: tuple[str, ...] = ()
    code: str = "out_of_range"
    nullable: bool = False
    required_when: tuple[str, str] | None = None
    fields: tuple[Field, ...] = ()
    item: Field | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly description (every key always present)."""
        return {
            "name": self.name,
            "kind": self.kind,
            "summary": self.summary,
            "required": self.required,
            "required_when": None if self.required_when is None else dict([self.required_when]),
            "default": self.default,
            "nullable": self.nullable,
            "min": self.min,
            "max": self.max,
            "accepted": list(self.accepted),
            "fields": [field.to_dict() for field in self.fields],
            "item": None if self.item is None else self.item.to_dict(),
        }


@dataclass(frozen=True)
class Shape:
    """A command: its ``type``, when it is allowed, its fields, and rules that join fields."""

    type: str
    summary: str
    phases: tuple[Status, ...]
    fields: tuple[Field, ...] = ()
    one_needed: tuple[str, ...] = ()
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON-friendly description."""
        return {
            "type": self.type,
            "summary": self.summary,
            "phases": list(self.phases),
            "fields": [field.to_dict() for field in self.fields],
            "one_needed": list(self.one_needed),
            "note": self.note,
        }


def _side(summary: str = "allies or enemies") -> Field:
    return Field("side", "choice", summary, required=True, accepted=SIDES, code="unknown_side")


def _per_side(name: str, summary: str, item: str, low: int, high: int) -> Field:
    fields = tuple(Field(s, "integer", item.format(side=s), True, min=low, max=high) for s in SIDES)
    return Field(name, "object", summary, fields=fields, required_when=("mode", name))


_UNIT = Field("unit", "text", "the unit's id", required=True, max=MAX_ID)
_NAME = Field("name", "text", "a name", required=True, max=MAX_TEXT)
_FIGHTERS = Field("fighters", "integer", "head count", min=1, max=MAX_FIGHTERS)
_STRENGTH = Field("strength", "integer", "strength typed in", min=0, max=MAX_STRENGTH)
_RATING = Field(
    "rating",
    "integer",
    "strength per fighter: strength = fighters x rating x size multiplier",
    min=0,
    max=MAX_RATING,
)
_SIZE = Field(
    "size", "choice", "size (multiplier 1/8 to 8)", accepted=tuple(SIZES), code="unknown_size"
)
_ROLL = Field(
    "roll", "integer", "d100 rolled at the table (without it the core rolls)", min=1, max=100
)
_MODIFIER = Field(
    "modifier",
    "object",
    "a named modifier",
    fields=(
        Field("name", "text", "its name", required=True, max=MAX_TEXT),
        Field("percent", "integer", "percent of the units' sum", default=0, min=-100, max=1000),
        Field("flat", "integer", "flat amount", default=0, min=-MAX_STRENGTH, max=MAX_STRENGTH),
    ),
)
_TEXTS = "a text (English), or texts by language: an object with en and/or ru"
_TABLE = Field(
    "table",
    "table",
    "the GM's own Influence table, or null for the house default",
    required=True,
    nullable=True,
    fields=(
        Field("name", "object", f"the table's name: {_TEXTS}", accepted=LANGUAGES),
        Field("house_default", "boolean", "marks the house default", default=False),
        Field(
            "bands",
            "list",
            "bands of the total in order, no gaps or overlaps",
            required=True,
            min=2,
            max=MAX_BANDS,
            item=Field(
                "band",
                "object",
                "a band of totals and its effect",
                fields=(
                    Field(
                        "min",
                        "integer",
                        "lowest total; null (open) in the first band only",
                        min=-LIMIT,
                        max=LIMIT,
                        nullable=True,
                    ),
                    Field(
                        "max",
                        "integer",
                        "highest total; null (open) in the last band only",
                        min=-LIMIT,
                        max=LIMIT,
                        nullable=True,
                    ),
                    Field(
                        "effect",
                        "object",
                        f"{_TEXTS}, each at most {MAX_EFFECT} characters",
                        required=True,
                        accepted=LANGUAGES,
                    ),
                    Field(
                        "effects",
                        "list",
                        "what the band does, as data (docs/rules.md §6); left out: text only, "
                        "nothing is applied for the GM; [] : nothing happens",
                        max=MAX_EFFECTS,
                        item=Field(
                            "effect",
                            "object",
                            "one effect, its fields by its kind (bad_effect names the field)",
                            fields=(
                                Field(
                                    "kind",
                                    "choice",
                                    "what it does",
                                    required=True,
                                    accepted=tuple(KINDS),
                                    code="bad_effect",
                                ),
                                Field(
                                    "who",
                                    "choice",
                                    "whose fighters, relative to the side that rolled "
                                    "(any: damage only)",
                                    required=True,
                                    accepted=WHO_OR_ANY,
                                    code="bad_effect",
                                ),
                            ),
                        ),
                    ),
                ),
            ),
        ),
    ),
)

SHAPES: Final[dict[str, Shape]] = {
    shape.type: shape
    for shape in (
        Shape(
            "add_unit",
            "a unit joins a side",
            ("setup",),
            (
                _NAME,
                _side(),
                Field("fighters", "integer", "head count", True, None, 1, MAX_FIGHTERS),
                _STRENGTH,
                _RATING,
                Field(
                    "size",
                    "choice",
                    "size, for the rating",
                    default="average",
                    accepted=tuple(SIZES),
                    code="unknown_size",
                ),
                Field("id", "text", "the unit's id (default: u1, u2, ...)", max=MAX_ID),
            ),
            one_needed=("strength", "rating"),
        ),
        Shape(
            "update_unit",
            "change a unit; fields left out keep their value",
            ("setup",),
            (
                _UNIT,
                Field("name", "text", "a new name", max=MAX_TEXT),
                Field("side", "choice", "a new side", accepted=SIDES, code="unknown_side"),
                _FIGHTERS,
                _STRENGTH,
                _RATING,
                _SIZE,
            ),
        ),
        Shape("remove_unit", "take a unit out", ("setup",), (_UNIT,)),
        Shape(
            "set_modifiers",
            "replace a side's modifiers",
            ("setup",),
            (
                _side(),
                Field(
                    "modifiers",
                    "list",
                    "the side's modifiers",
                    default=[],
                    max=MAX_MODIFIERS,
                    item=_MODIFIER,
                ),
            ),
            note="S0 = round(sum x (1 + percents / 100) + flats), halves down.",
        ),
        Shape(
            "start",
            "fix each side's S0; the fight begins",
            ("setup",),
            note=("Each side needs a unit and S0 of at least 1."),
        ),
        Shape(
            "leader_command",
            "a leader's Leadership test; on a success a bonus for the side's next round",
            ("fighting",),
            (
                _side(),
                Field(
                    "sl",
                    "integer",
                    "SL of the Leadership test taken at the table",
                    min=-100,
                    max=100,
                ),
                Field("success", "boolean", "whether that test passed", default=True),
                Field(
                    "leadership",
                    "integer",
                    "the leader's Leadership: the core tests",
                    min=1,
                    max=200,
                ),
                _ROLL,
            ),
            one_needed=("sl", "leadership", "success"),
            note="A passed test has sl 0 or more, a failed one 0 or less, or none at all "
            '(`"success": false` alone: a failure gives no bonus). With leadership the '
            "core makes the test (with roll, or rolling itself). A pending bonus does not stack.",
        ),
        Shape(
            "resolve_round",
            "one opposed test between the sides",
            ("fighting",),
            (
                Field(
                    "mode", "choice", "who decides the round", default="auto", accepted=ROUND_MODES
                ),
                _per_side("rolls", "both d100 rolled at the table", "the {side}' d100", 1, 100),
                _per_side(
                    "lost", "the strength each side lost", "what the {side} lost", 0, MAX_STRENGTH
                ),
            ),
            note="auto: the core rolls both d100; rolls: rolled at the table; lost: the strength "
            "lost typed in.",
        ),
        Shape(
            "set_strength",
            "set a side's current strength by hand",
            ("fighting", "ended"),
            (_side(), Field("strength", "integer", "strength", True, None, 0, MAX_STRENGTH)),
        ),
        Shape(
            "detach_fighters",
            "move fighters into the PCs' fight",
            ("fighting", "ended"),
            (_UNIT, Field("fighters", "integer", "how many", True, None, 1, MAX_FIGHTERS)),
            note="At most the fighters the unit still has in the background battle.",
        ),
        Shape(
            "pcs_won",
            "the PCs beat their foes: some enemies flee, the rest strike a last blow",
            ("fighting",),
            (
                Field(
                    "fleeing",
                    "share",
                    "share of the enemies' strength that flees (counts as lost)",
                    default=0,
                    min=0,
                    max=1,
                ),
            ),
        ),
        Shape(
            "end_battle",
            "the GM declares the background battle over",
            ("fighting",),
            (
                Field(
                    "winner",
                    "choice",
                    "allies, enemies or null (nobody); left out: the stronger side",
                    nullable=True,
                    accepted=SIDES,
                    code="unknown_side",
                ),
            ),
        ),
        Shape(
            "roll_influence",
            "a d100 on the Influence table for one side",
            ("fighting", "ended"),
            (_side("the side that rolls"), _ROLL),
            note="During the fight: modifier = own - other strength. After it only the winner "
            "rolls: modifier = 50 + its strength.",
        ),
        Shape(
            "set_influence_table",
            "use the GM's own Influence table",
            ANY_PHASE,
            (_TABLE,),
            note="An effect is read for the side that rolled: the core fills its placeholders "
            "for allies or enemies (the list: the influence_table op's placeholders, "
            "docs/core-api.md). Any other {...} is refused (bad_table).",
        ),
        Shape(
            "set_hidden",
            "choose what the player view hides",
            ANY_PHASE,
            (
                Field(
                    "hidden",
                    "list",
                    "the numbers players do not see",
                    required=True,
                    max=len(HIDEABLE),
                    item=Field("item", "choice", "a hideable number", accepted=HIDEABLE),
                ),
            ),
        ),
        Shape("rename", "give the battle another name", ANY_PHASE, (_NAME,)),
        Shape("undo", "take back the latest command that still counts", ANY_PHASE),
    )
}


def number_fields() -> dict[str, dict[str, Any]]:
    """Every number field of every command by its path, with its kind and range: what a shell
    may pre-check a typed number with (the Foundry module gets them in a generated file,
    ``shapes_doc --write-module``). A list's items are ``[]``.

    >>> number_fields()["resolve_round.rolls.allies"]
    {'kind': 'integer', 'min': 1, 'max': 100}
    >>> number_fields()["pcs_won.fleeing"]
    {'kind': 'share', 'min': 0, 'max': 1}
    """
    found: dict[str, dict[str, Any]] = {}

    def walk(field: Field, path: str) -> None:
        if field.kind in ("integer", "share"):
            found[path] = {"kind": field.kind, "min": field.min, "max": field.max}
        for inner in field.fields:
            walk(inner, f"{path}.{inner.name}")
        if field.item is not None:
            walk(field.item, path + "[]")

    for shape in SHAPES.values():
        for field in shape.fields:
            walk(field, f"{shape.type}.{field.name}")
    return found


def normalise(command: Any) -> dict[str, Any]:
    """The command as the log keeps it: its known fields only, each value checked and canonical.

    ``null`` is a value only for a nullable field; for any other it is refused (``not_null``):
    never read as "not given".

    >>> normalise({"type": "pcs_won", "fleeing": 0.5, "note": None})
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: pcs_won has no field 'note'; its fields: type, fleeing
    >>> normalise({"type": "pcs_won", "fleeing": None})
    Traceback (most recent call last):
    ...
    background_battle.errors.BattleError: fleeing is null; give a value, or leave it out

    Raises:
        BattleError: ``unknown_command``, ``unknown_field``, ``too_deep``, ``not_null`` or the
            code of the field's own check, naming the field.
    """
    kind = command_type(command)
    shape = SHAPES[kind]
    errors: list[BattleError] = []
    result: dict[str, Any] = {"type": kind}
    try:
        result.update(_fields(command, shape.fields, "", kind, skip=("type",)))
    except BattleError as error:
        errors.append(error)
    if shape.one_needed and all(command.get(name) is None for name in shape.one_needed):
        first, *rest = shape.one_needed
        errors.append(
            BattleError(
                "required",
                first,
                f"{first} (or {' or '.join(rest)}) is required",
                accepted=list(shape.one_needed),
            )
        )
    if errors:
        raise BattleError.together(errors)
    return result


def command_type(command: Any) -> str:
    """The ``type`` of a command that is an object no deeper than ``MAX_DEPTH``.

    >>> command_type({"type": "undo"})
    'undo'
    """
    _check_depth(command, "command")
    return one_of(mapping(command, "command").get("type"), "type", SHAPES, "unknown_command")


def _fields(
    data: Mapping[str, Any],
    fields: tuple[Field, ...],
    prefix: str,
    owner: str,
    skip: tuple[str, ...] = (),
) -> dict[str, Any]:
    """The fields of ``data`` checked; every bad one's error at once (``BattleError.others``)."""
    only_known(data, [*skip, *(field.name for field in fields)], prefix, owner)
    result: dict[str, Any] = {}
    errors: list[BattleError] = []
    for field in fields:
        value = data.get(field.name)
        path = prefix + field.name
        if value is None and field.name in data and not field.nullable:
            errors.append(
                BattleError("not_null", path, f"{path} is null; give a value, or leave it out")
            )
            continue
        if value is None and not (field.nullable and field.name in data):
            when = field.required_when
            if field.required or (when is not None and _given(data, fields, when[0]) == when[1]):
                errors.append(_missing(field, path))
            continue
        try:
            result[field.name] = None if value is None else _value(value, field, path)
        except BattleError as error:
            errors.append(error)
    if errors:
        raise BattleError.together(errors)
    return result


def _missing(field: Field, path: str) -> BattleError:
    """``required``, with the range of a whole number: the GM sees what to type."""
    if field.kind != "integer":
        return BattleError("required", path, f"{path} is required")
    wanted = f"a whole number{range_text(field.min, field.max)}"
    return BattleError(
        "required", path, f"{path} is required: {wanted}", min=field.min, max=field.max
    )


def _given(data: Mapping[str, Any], fields: tuple[Field, ...], name: str) -> Any:
    value = data.get(name)
    if value is not None:
        return value
    return next((field.default for field in fields if field.name == name), None)


def _value(value: Any, field: Field, path: str) -> Any:
    """One value checked against its field, in its canonical form."""
    if field.kind == "integer":
        return whole(value, path, field.min, field.max)
    if field.kind == "text":
        return text(value, path, field.max or MAX_TEXT)
    if field.kind == "choice":
        return one_of(value, path, field.accepted, field.code)
    if field.kind == "boolean":
        return flag(value, path)
    if field.kind == "share":
        return str(share(value, path))
    if field.kind == "table":
        return table_from_dict(value).to_dict()
    if field.kind == "list":
        assert field.item is not None
        if not isinstance(value, list) or len(value) > (field.max or 0):
            raise BattleError(
                "out_of_range",
                path,
                f"{path} must be a list of at most {field.max}",
                max=field.max,
            )
        items, errors = [], []
        for i, item in enumerate(value):
            try:
                items.append(_value(item, field.item, f"{path}[{i}]"))
            except BattleError as error:
                errors.append(error)
        if errors:
            raise BattleError.together(errors)
        return items
    return _fields(mapping(value, path), field.fields, f"{path}.", path)


def _check_depth(value: Any, field: str) -> None:
    """Refuse data nested deeper than ``MAX_DEPTH`` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = (
            item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        )
        if not children:
            continue
        if depth >= MAX_DEPTH:
            raise BattleError(
                "too_deep",
                field,
                f"{field} is nested more than {MAX_DEPTH} levels deep",
                max=MAX_DEPTH,
            )
        stack.extend((child, depth + 1) for child in children)
