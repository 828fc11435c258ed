"""Every message of the protocol, described once: the bridge reads it, the docs are made from it.

``IN`` holds what a client may send (each field: its kind, whether it is needed, its bounds;
who may send it: ``visibility.may_send`` decides), ``OUT`` what the bridge sends (each field, and
who is sent it), with the limits both sides work within. The handlers read a request's fields
by this description (``protocol.field``), every answer and broadcast is made by ``outgoing``
(a field not declared, or a needed one missing, is a bug caught there), and docs/protocol.md's
message tables are written from it (``python -m background_battle_bridge.messages_doc``).

>>> outgoing("unsubscribed", battle="ambush")
{'type': 'unsubscribed', 'battle': 'ambush'}
>>> outgoing("ack", battle="ambush", version=3, id=None)
{'type': 'ack', 'battle': 'ambush', 'version': 3}
>>> outgoing("unsubscribed", battle="ambush", name="x")
Traceback (most recent call last):
...
background_battle_bridge.messages.Undeclared: unsubscribed has no field 'name'; its fields: \
id, battle
>>> IN["unsubscribe"].roles, IN["command"].roles
(('gm', 'player'), ('gm',))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, Literal

from background_battle.influence_effects import MAX_EFFECTS
from background_battle.units import MAX_FIGHTERS
from background_battle.view import Role

from .visibility import ROLES, may_send

PROTOCOL_VERSION: Final = 1
MAX_FRAME: Final = 64 * 1024  # the most a client may send in one frame (told in `welcome`)
MAX_MESSAGE: Final = 512 * 1024  # the most the bridge sends in one frame (told in `welcome`)
LOG_PAGE: Final = 500  # log entries per `state`, `events` or `log_page` at most (told in `welcome`)
BATTLES_PAGE: Final = 500  # battles per `list_battles` answer at most (told in `welcome`)
MAX_DEPTH: Final = 32  # nesting of objects and lists in one message
MAX_NAME: Final = 64  # a battle's name, a Foundry user's
MAX_ID: Final = 64  # a request's id, a journal's
MAX_UNIT: Final = 64  # a unit's id as the bridge reads it (the core makes them shorter)
MAX_TOKEN_IDS: Final = 1000  # token ids in one `tokens`, `detached`, `applied` or journal
MAX_TOKEN_ID: Final = 128  # characters of one Foundry token id
MAX_NOTE: Final = 500  # characters of an `applied` note
MAX_COUNT: Final = 1_000_000  # killed, wounded or fit in one `applied`
MAX_RESULT: Final = 200  # characters of a mark's `result` (`mark_effects`)
MAX_VERSION: Final = 2**31  # a version a client may name before the battle is read
CLIENT_KINDS: Final = ("web", "foundry", "cli")
WS: Final = "/ws"
PAIR: Final = "/pair"

Kind = Literal["text", "integer", "boolean", "choice", "object", "list", "any"]


class Undeclared(Exception):
    """A message built with a field its declaration does not have, or without a needed one:
    a bug in the bridge (answered as `error internal`), never the client's fault."""


@dataclass(frozen=True)
class Field:
    """One field of a message: its kind, whether it is needed, its bounds, what it means.

    ``min``/``max``: a number's range, a text's length, a list's items (``None``: open, or
    ``bound`` names the bound known only when the battle is read). ``nullable``: ``null`` is a
    value of its own (otherwise an optional field given as ``None`` is left out). ``body``: a
    core command, whose fields are named as the core names them (``fighters``, not
    ``command.fighters``), whoever refuses them.
    """

    name: str
    kind: Kind
    summary: str = ""
    required: bool = True
    min: int | None = None
    max: int | None = None
    bound: str = ""
    accepted: tuple[str, ...] = ()
    default: Any = None
    nullable: bool = False
    item_max: int | None = None
    body: bool = False

    def cell(self) -> str:
        """The field as docs/protocol.md's tables write it."""
        what = [part for part in (self._kind_words(), self.summary) if part]
        text = f"`{self.name}`" + (f" ({'; '.join(what)})" if what else "")
        return text if self.required else f"optional {text}"

    def _kind_words(self) -> str:
        if self.kind == "choice":
            return " / ".join(f'`"{value}"`' for value in self.accepted)
        if self.kind == "text":
            return "text" + (f" 1..{self.max}" if self.max else "")
        if self.kind == "integer":
            high = self.bound if self.max is None or self.max >= MAX_VERSION else self.max
            return f"int {_range(self.min, high)}".strip()
        if self.kind == "boolean":
            return "bool" + (
                "" if self.default is None else f", default {str(self.default).lower()}"
            )
        if self.kind == "list" and self.item_max is not None:
            return f"list of text, at most {self.max}, each 1..{self.item_max}"
        return ""


def _range(low: int | None, high: int | str | None) -> str:
    if low is None:
        return ""
    if high is None or high == "":
        return f"≥ {low}"
    return f"{low}..{high}"


@dataclass(frozen=True)
class Message:
    """One message: its ``type``, its fields, who sends it (in) or is sent it (out), when."""

    type: str
    summary: str
    fields: tuple[Field, ...]
    roles: tuple[Role, ...]
    who: str = ""
    path: str = WS
    names: frozenset[str] = field(init=False)
    needed: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", frozenset(f.name for f in self.fields))
        object.__setattr__(self, "needed", frozenset(f.name for f in self.fields if f.required))

    def field(self, name: str) -> Field:
        """The declared field ``name``.

        Raises:
            Undeclared: the message has no such field.
        """
        for declared in self.fields:
            if declared.name == name:
                return declared
        raise Undeclared(f"{self.type} has no field {name!r}")


def _in(type_: str, summary: str, *fields: Field, who: str = "", path: str = WS) -> Message:
    roles = tuple(role for role in ROLES if may_send(role, type_)) if path == WS else ()
    return Message(type_, summary, fields, roles, who, path)


def _out(
    type_: str, summary: str, *fields: Field, roles: tuple[Role, ...] = ROLES, path: str = WS
) -> Message:
    return Message(type_, summary, fields, roles if path == WS else (), "", path)


# -- the fields several messages share -----------------------------------------------------------

_ID = Field("id", "text", "made by the client", required=False, max=MAX_ID)
_BATTLE = Field("battle", "text", "a battle's name", max=MAX_NAME)
_UNIT = Field("unit", "text", "a unit's id", max=MAX_UNIT)
_SINCE = Field(
    "since_version",
    "integer",
    "the version the client holds",
    required=False,
    min=0,
    max=MAX_VERSION,
)
_JOB_VERSION = Field("version", "integer", "the job's", min=0, bound="version")
_TOKEN_IDS = Field("token_ids", "list", "", max=MAX_TOKEN_IDS, item_max=MAX_TOKEN_ID)
_ECHO = Field("id", "text", "the request's, when it had one", required=False)
_BATTLE_OUT = Field("battle", "text")
_UNIT_OUT = Field("unit", "text")
_VERSION_OUT = Field("version", "integer", "after this change")

# -- client -> bridge ----------------------------------------------------------------------------

IN: Final[dict[str, Message]] = {
    m.type: m
    for m in (
        _in(
            "hello",
            "`welcome` (+ `state` or `events` when `battle` is given)",
            _ID,
            Field("token", "text", "ignored with `--no-tokens`", nullable=True, required=False),
            Field("client", "choice", accepted=CLIENT_KINDS),
            Field("battle", "text", "a battle's name: watch it", required=False, max=MAX_NAME),
            _SINCE,
            who="anyone, first",
        ),
        _in(
            "subscribe",
            "`state`, or `events` with what was missed",
            _ID,
            _BATTLE,
            _SINCE,
        ),
        _in("unsubscribe", "`unsubscribed {battle}`", _ID, _BATTLE),
        _in(
            "list_battles",
            "`battles`: at most `limits.battles_page` (500) battles in order of name, after "
            "`after`, with `more` (true: ask again with `after` = the last name) (a player's: "
            "only the started, unarchived ones)",
            _ID,
            Field(
                "archived", "boolean", "include archived ones too", default=False, required=False
            ),
            Field(
                "after", "text", "a battle name: the page after it", required=False, max=MAX_NAME
            ),
        ),
        _in(
            "command",
            "`ack` or `error`",
            Field("id", "text", "made by the client", max=MAX_ID),
            _BATTLE,
            Field("expected_version", "integer", "", required=False, min=0, max=MAX_VERSION),
            Field(
                "command",
                "object",
                "with `type`: a core command, or the bridge's own; its fields are named as the "
                "core names them",
                body=True,
            ),
        ),
        _in(
            "tokens",
            "`ack` (and `tokens` to every GM watching the battle)",
            _ID,
            _BATTLE,
            _UNIT,
            _TOKEN_IDS,
            Field(
                "fighters",
                "object",
                "`{token id: head count}`: each key one of `token_ids`, each count an int "
                f"2..{MAX_FIGHTERS}, for a token standing for many fighters; a token left out "
                "is one fighter",
                required=False,
            ),
            who="Foundry module",
        ),
        _in(
            "detached",
            "`ack` (and `detached` to every GM watching)",
            _ID,
            _BATTLE,
            _UNIT,
            Field(
                "version",
                "integer",
                "the version of the `detach_fighters` step",
                min=1,
                bound="version",
            ),
            Field(
                "token_ids",
                "list",
                "the unit's tokens it moved into the PCs' fight, whole",
                max=MAX_TOKEN_IDS,
                item_max=MAX_TOKEN_ID,
            ),
            Field(
                "fighters",
                "object",
                "`{token id: heads}` taken off tokens standing for many, each 1..fewer than the "
                "token has left; whole tokens plus heads = the fighters the step moved",
                required=False,
            ),
            who="Foundry module",
        ),
        _in(
            "request_casualties",
            '`ack` with `sent` (the units ordered: a job stored for each, see "The Foundry '
            'flow"); the Foundry clients receive `apply_casualties`, the GMs `apply_job`',
            _ID,
            _BATTLE,
            Field(
                "unit", "text", "default: every unit not yet applied", required=False, max=MAX_UNIT
            ),
            Field(
                "force", "boolean", "send units already applied too", default=False, required=False
            ),
        ),
        _in(
            "claim",
            "`ack` with `job` (the job with what its offer carries: `battle`, `unit`, "
            "`version`, `order`, `plan?`, `claimed_by`, `name`, `fighters`, `killed`, "
            "`wounded`, `fit`, `token_ids`, `heads`): this connection holds the unit's job "
            "(not stored: until it closes or the job ends); the GMs receive `apply_job` with "
            "`claimed_by`",
            _ID,
            _BATTLE,
            _UNIT,
            _JOB_VERSION,
            Field("by", "text", "the Foundry user's name", max=MAX_NAME),
            who="Foundry module only",
        ),
        _in(
            "unclaim",
            "`ack`; the job stays and nobody holds it (a planned one waits for Finish or Undo; "
            "one not planned is offered again); the GMs receive `apply_job`",
            _ID,
            _BATTLE,
            _UNIT,
            _JOB_VERSION,
            who="the holder of the claim",
        ),
        _in(
            "plan",
            "`ack` once stored (the GMs receive `apply_job`)",
            _ID,
            _BATTLE,
            _UNIT,
            _JOB_VERSION,
            Field(
                "plan",
                "object",
                "the Apply's journal `{plan (id, text 1..64), tokens (the unit's token ids it "
                'covers), fates ({token id: "killed"/"wounded"/"fit"}), groups ({token id: '
                "{fighters, killed, wounded, fit}}), already ({killed: [ids], wounded: [ids]}), "
                "beyond ({killed, wounded}), unplaced ({killed, wounded, fit})}`",
            ),
            who="the browser holding the job's claim",
        ),
        _in(
            "cancel_apply",
            "`ack`; the job is dropped (GMs receive `apply_job` with `job: null`)",
            _ID,
            _BATTLE,
            _UNIT,
            _JOB_VERSION,
            who="the holder of the claim when the job is planned or held",
        ),
        _in(
            "applied",
            "`ack` (and `applied` to every GM watching)",
            _ID,
            _BATTLE,
            _UNIT,
            Field(
                "version",
                "integer",
                "the version of the `apply_casualties` it answers",
                min=0,
                bound="version",
            ),
            *(
                Field(fate, "integer", "as applied", min=0, max=MAX_COUNT)
                for fate in ("killed", "wounded", "fit")
            ),
            Field(
                "token_ids",
                "object",
                '`{"killed": [...], "wounded": [...], "fit": [...]}`',
                required=False,
                max=MAX_TOKEN_IDS,
                item_max=MAX_TOKEN_ID,
            ),
            Field("note", "text", "", required=False, max=MAX_NOTE),
            who="Foundry module",
        ),
        _in(
            "unapplied",
            "`ack` (and `unapplied` to every GM watching)",
            _ID,
            _BATTLE,
            _UNIT,
            Field(
                "version",
                "integer",
                "the `version` of the stored report it takes back",
                min=0,
                bound="version",
            ),
            who="Foundry module, after *Undo apply*",
        ),
        _in(
            "mark_effects",
            "`ack` once stored (and `effects_marked` to every GM watching); all marks or none "
            '(see "Influence effects done")',
            _ID,
            _BATTLE,
            Field(
                "version",
                "integer",
                "the log entry of an Influence roll that counts: the version its "
                "`roll_influence` made",
                min=1,
                bound="version",
            ),
            Field(
                "marks",
                "list",
                f"1..{MAX_EFFECTS} `{{effect (the index in the roll's `band.effects`, "
                f"0..{MAX_EFFECTS - 1}), kind (that effect's `kind`), done (bool), result? (text "
                f"1..{MAX_RESULT}, one line: what it gave, e.g. the dice rolled and whom they "
                "hit; only with done true)}`",
            ),
            who="Foundry module after *Apply to the fight* and its Undo; the page's tick-off list",
        ),
        _in(
            "log_page",
            "`log_page` with at most one page of entries",
            _ID,
            _BATTLE,
            Field("since_version", "integer", "", min=0, bound="version"),
            Field(
                "until_version",
                "integer",
                "default the current version",
                required=False,
                min=0,
                bound="version",
            ),
        ),
        _in(
            "ping",
            "`pong`",
            _ID,
            Field("data", "any", "any JSON, echoed", required=False, nullable=True),
            who="after `hello`",
        ),
        _in(
            "pair",
            "`pair_asked`, or `pair_refused`",
            Field("client", "choice", "first, within 10 s", accepted=("foundry",)),
            path=PAIR,
        ),
        _in(
            "pair_code",
            "`paired`, or `pair_refused`",
            Field("code", "text", "as typed: spaces and dashes are dropped"),
            path=PAIR,
        ),
    )
}

# The types a client may send on /ws: the one list the bridge accepts.
CLIENT_TYPES: Final = frozenset(m.type for m in IN.values() if m.path == WS)

# -- bridge -> client ----------------------------------------------------------------------------

_GM: Final[tuple[Role, ...]] = ("gm",)

OUT: Final[dict[str, Message]] = {
    m.type: m
    for m in (
        _out(
            "welcome",
            "after `hello`",
            Field("role", "choice", accepted=ROLES),
            Field("client", "choice", "as the `hello` said", accepted=CLIENT_KINDS),
            Field("protocol", "integer", f"{PROTOCOL_VERSION}"),
            Field(
                "battles",
                "list",
                "see `battles`; a player's holds only the battles the GM has started and not "
                "archived",
            ),
            Field(
                "limits",
                "object",
                "`{max_frame, max_message, log_page, battles_page, rate, burst}`: bytes a "
                "client may send in one frame, bytes the bridge sends at most in one frame, "
                "log entries per page, battles per `list_battles` answer, messages per second, "
                "burst",
            ),
            Field(
                "player_token",
                "text",
                "for the GM when the bridge has tokens, so the GM's page can show the player "
                "link as a QR code",
                required=False,
            ),
        ),
        _out(
            "battles",
            "on `list_battles`; to every GM when a battle is created, archived or changes "
            "`status`; to every player when a started battle changes `status` (`start` makes "
            "it appear, so a player hears of a battle first then) or is archived",
            _ECHO,
            Field(
                "battles",
                "list",
                "of `{name, version, status, archived}`, each role its own (a player's: only "
                "started, unarchived battles)",
            ),
            Field("more", "boolean", "the answer to `list_battles` only", required=False),
        ),
        _out(
            "state",
            "on join (hello with `battle`, subscribe) and on a gap",
            _ECHO,
            _BATTLE_OUT,
            Field("version", "integer"),
            Field("archived", "boolean"),
            Field("log_from", "integer"),
            Field(
                "view",
                "object",
                "the `state_view` for the role; its `log` holds the entries from `log_from` "
                "on: the whole log when `log_from` is 0, else its last page",
            ),
            Field(
                "foundry",
                "object",
                "for the GM: `{tokens: {unit: [token ids]}, fighters: {unit: {token id: head "
                "count}}, applied: {unit: report}, jobs: {unit: job}, detached: {unit: "
                "[move]}, marks: {roll version: {effect index: mark}}}` (a job: `{version, "
                "order: {name, fighters, killed, wounded, fit}, plan?, claimed_by?}`; a move: "
                "`{version, token_ids, fighters?}`, only those whose `detach_fighters` step is "
                'not undone; a mark: `{by: "foundry" / "web" / "cli", result?}`, only those of '
                "Influence rolls not undone; keys are text, as JSON's)",
                required=False,
            ),
        ),
        _out(
            "event",
            "to every watcher, after each accepted command",
            _BATTLE_OUT,
            _VERSION_OUT,
            Field("command", "object", "the log entry's, as this role may see it"),
            Field("events", "list", "the log entry's, as this role may see it (`redact_entry`)"),
            Field("view", "object", "`state_view` for the role **without** its `log`"),
        ),
        _out(
            "events",
            "answer to `since_version` when the missed entries fit in one page; otherwise a "
            "`state`",
            _ECHO,
            _BATTLE_OUT,
            Field("since_version", "integer"),
            Field("version", "integer"),
            Field(
                "entries",
                "list",
                "the missed log entries as this role may see them, oldest first, entry "
                "`since_version + 1` first",
            ),
            Field("view", "object", "without `log`"),
        ),
        _out(
            "log_page",
            "answer to `log_page`: at most `limits.log_page` entries and `limits.max_message` "
            "bytes",
            _ECHO,
            _BATTLE_OUT,
            Field("since_version", "integer"),
            Field("until_version", "integer"),
            Field("version", "integer", "the current one"),
            Field(
                "entries",
                "list",
                "entries `since_version + 1` .. `until_version`, as this role may see them",
            ),
        ),
        _out(
            "ack",
            "a `command`, `tokens`, `detached`, `request_casualties`, `claim`, `plan`, "
            "`cancel_apply`, `applied`, `unapplied` or `mark_effects` succeeded",
            _ECHO,
            _BATTLE_OUT,
            Field("version", "integer"),
            Field("duplicate", "boolean", "`true`: a request repeated by `id`", required=False),
            Field("sent", "list", "for `request_casualties`: unit ids", required=False),
            Field("job", "object", "for `claim`", required=False),
            roles=_GM,
        ),
        _out(
            "error",
            "a request failed; **nothing was changed**",
            Field("code", "text"),
            Field(
                "field",
                "text",
                "or null; a field of a `command`'s body is named as the core names it "
                "(`fighters`, `rolls.allies`)",
                nullable=True,
            ),
            Field("message", "text", "English"),
            Field("params", "object"),
            _ECHO,
            Field("battle", "text", "the request's, when it had one", required=False),
            Field("version", "integer", "the battle's, when it matters", required=False),
            Field(
                "others",
                "list",
                "for a refused `command` whose body has several bad fields: the other fields' "
                "errors found in the same check (`{code, field, message, params}` each, the "
                "first field's error being the message itself)",
                required=False,
            ),
        ),
        _out(
            "pong",
            "after `ping`",
            _ECHO,
            Field("data", "any", "echoed, when given", required=False, nullable=True),
        ),
        _out("unsubscribed", "after `unsubscribe`", _ECHO, _BATTLE_OUT),
        _out(
            "tokens",
            "to GMs watching, after a `tokens` message was stored",
            _BATTLE_OUT,
            _UNIT_OUT,
            Field("token_ids", "list"),
            Field("fighters", "object", "`{}` when every token is one fighter"),
            roles=_GM,
        ),
        _out(
            "detached",
            "to GMs watching, after a `detached` was stored",
            _BATTLE_OUT,
            _UNIT_OUT,
            Field(
                "moves",
                "list",
                "the unit's moves into the PCs' fight that count, as in `state.foundry.detached`",
            ),
            roles=_GM,
        ),
        _out(
            "apply_casualties",
            "to every Foundry client (GM role): an offer, after `request_casualties` and again "
            "when the browser holding an unplanned job goes away",
            _BATTLE_OUT,
            _UNIT_OUT,
            Field("name", "text"),
            Field("version", "integer"),
            *(Field(count, "integer") for count in ("fighters", "killed", "wounded", "fit")),
            Field(
                "token_ids",
                "list",
                "the unit's tokens still in the battle: those moved into the PCs' fight left out",
            ),
            Field(
                "heads",
                "object",
                "`{token id: head count}` of those standing for many, after the heads moved",
            ),
            roles=_GM,
        ),
        _out(
            "apply_job",
            "to GMs watching, when a job is ordered, claimed, planned, released or cancelled",
            _BATTLE_OUT,
            _UNIT_OUT,
            Field(
                "job",
                "object",
                "as in `state.foundry.jobs`, or `null`: no job any more",
                nullable=True,
            ),
            roles=_GM,
        ),
        _out(
            "applied",
            "to GMs watching, after the module's `applied` was stored",
            _BATTLE_OUT,
            _UNIT_OUT,
            Field(
                "report",
                "object",
                "what the module sent: `version`, `killed`, `wounded`, `fit`, `token_ids`, `note`",
            ),
            roles=_GM,
        ),
        _out(
            "unapplied",
            "to GMs watching, after the module's `unapplied` was stored: the unit has no report "
            "any more",
            _BATTLE_OUT,
            _UNIT_OUT,
            roles=_GM,
        ),
        _out(
            "effects_marked",
            "to GMs watching, after a `mark_effects` was stored",
            _BATTLE_OUT,
            Field("version", "integer", "the Influence roll's"),
            Field(
                "marks",
                "object",
                "every mark of that roll now, as in `state.foundry.marks`; `{}`: none left",
            ),
            roles=_GM,
        ),
        _out(
            "pairing",
            "to every GM connection when an attempt to join by a code starts: the GM's page "
            "shows who asks and the code",
            Field("origin", "text"),
            Field("code", "text", '`"482 913"`'),
            Field("expires_in", "integer", "seconds"),
            roles=_GM,
        ),
        _out(
            "pairing_over",
            "to every GM connection when that attempt ends",
            Field("origin", "text"),
            Field(
                "outcome",
                "choice",
                accepted=("paired", "too_many_tries", "expired", "bad_message", "gone"),
            ),
            roles=_GM,
        ),
        _out(
            "pair_asked",
            "the code is shown to the GM",
            Field("origin", "text", "the page's, as the GM is shown it"),
            Field("expires_in", "integer", "seconds (120)"),
            Field("tries", "integer", "3"),
            path=PAIR,
        ),
        _out(
            "pair_refused",
            "every refusal but `wrong_code` ends the attempt and closes the connection (1008)",
            Field(
                "reason",
                "choice",
                "`wrong_code`: the attempt goes on; `no_origin`: no `Origin`, a script has "
                "tokens to use",
                accepted=(
                    "wrong_code",
                    "too_many_tries",
                    "expired",
                    "busy",
                    "no_origin",
                    "bad_message",
                ),
            ),
            Field("tries_left", "integer"),
            path=PAIR,
        ),
        _out(
            "paired",
            "the right code in time; the connection then closes (1000)",
            Field("origin", "text"),
            Field("gm_token", "text"),
            Field("player_token", "text"),
            path=PAIR,
        ),
    )
}


def outgoing(kind: str, **fields: Any) -> dict[str, Any]:
    """The message ``kind`` the bridge sends, made of ``fields`` as its declaration has them.

    An optional field given as ``None`` is left out (unless ``null`` is a value of its own).

    Raises:
        Undeclared: ``kind`` is not declared, a field is not one of its fields, or a needed
            field is missing (a bug in the bridge).
    """
    declared = OUT.get(kind)
    if declared is None:
        raise Undeclared(f"the bridge sends no message {kind!r}")
    unknown = fields.keys() - declared.names
    if unknown:
        raise Undeclared(
            f"{kind} has no field {min(unknown)!r}; its fields: "
            + ", ".join(f.name for f in declared.fields)
        )
    missing = declared.needed - fields.keys()
    if missing:
        raise Undeclared(f"{kind} needs {', '.join(sorted(missing))}")
    built: dict[str, Any] = {"type": kind}
    for name, value in fields.items():
        if value is not None or name in declared.needed or declared.field(name).nullable:
            built[name] = value
    return built


def addressed(built: dict[str, Any], role: Role) -> dict[str, Any]:
    """``built``, a message the declaration says ``role`` is sent (a GM-only message framed
    for a player is a bug, caught here before it leaves).

    >>> addressed(outgoing("unapplied", battle="a", unit="u1"), "player")
    Traceback (most recent call last):
    ...
    background_battle_bridge.messages.Undeclared: unapplied is not sent to a player

    Raises:
        Undeclared: the role is not one the message is sent to.
    """
    if role not in OUT[built["type"]].roles:
        raise Undeclared(f"{built['type']} is not sent to a {role}")
    return built


def with_fields(built: dict[str, Any], /, **fields: Any) -> dict[str, Any]:
    """A message made by ``outgoing`` with more fields (an answer's `id`, an ack's `sent`).

    Raises:
        Undeclared: as ``outgoing``.
    """
    kept = {name: value for name, value in built.items() if name != "type"}
    return outgoing(built["type"], **{**kept, **fields})
