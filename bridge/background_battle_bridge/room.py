"""One battle as the bridge holds it: the core's value plus what the bridge remembers about it.

The bridge remembers the accepted command ids (a retried id is applied once), whether the battle
is archived, and, for the Foundry module, which scene tokens belong to which unit, which of
them went into the PCs' fight, the Apply jobs under way (ordered, their journal once planned)
and which casualty results are on the tokens (applied and not taken back). Every change is a
record;
`absorb` replays one, the same way at start-up as live, so what is on disk is what is in memory.

Changes decided but not yet on disk form the room's `head` (see `pipeline.py`): the next
command is decided on the head, while readers and watchers only ever see what is stored.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from background_battle import (
    SCHEMA,
    Battle,
    evolve,
    from_json,
    new_battle,
    restore,
    to_json,
)
from background_battle.view import Role

from . import visibility
from .stored import Record

Receipt = tuple[int, str]
"""What an accepted request id answered: the version, and the digest of the request's body."""


@dataclass
class Head:
    """The room as it will be once the changes waiting for the disk are stored."""

    battle: Battle
    seq: int
    archived: bool
    last: asyncio.Future[int]  # the last change waiting: its version once stored
    waiting: dict[str, tuple[str, asyncio.Future[int]]] = field(default_factory=dict)


@dataclass(eq=False)
class Room:
    """A named battle, its bridge-side memory and its watchers' views (cached per version)."""

    name: str
    battle: Battle
    seq: int = 0
    archived: bool = False
    ids: dict[str, Receipt] = field(default_factory=dict)
    tokens: dict[str, list[str]] = field(default_factory=dict)
    fighters: dict[str, dict[str, int]] = field(default_factory=dict)
    applied: dict[str, dict[str, Any]] = field(default_factory=dict)
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)  # unit -> Apply job (jobs.py)
    detached: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # unit -> moves
    # Influence roll's version -> {effect index: mark} (influence_marks.py); keys are text (JSON)
    marks: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    claims: dict[str, tuple[Any, str]] = field(default_factory=dict)  # not stored: per connection
    since_snapshot: int = 0
    head: Head | None = None
    epoch: int = 0  # grows when waiting changes are dropped (a failed write)
    _views: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def created(cls, name: str, record: Record) -> Room:
        """The room a `created` record makes: a new empty battle."""
        room = cls(name=name, battle=new_battle(name), seq=1)
        room.ids[record["id"]] = (0, record.get("digest", ""))
        return room

    @classmethod
    def from_snapshot(cls, name: str, seq: int, data: dict[str, Any]) -> Room:
        """The room as a snapshot saved it.

        The bridge wrote the snapshot with the core's own `to_json`, so the core's `restore`
        folds the log once, as trusted (like the records after it are replayed with `evolve`);
        an older schema goes through `from_json`, which upgrades it and checks every entry.
        """
        saved = data["battle"]
        battle = restore(saved) if saved.get("schema") == SCHEMA else from_json(saved)
        return cls(
            name=name,
            battle=battle,
            seq=seq,
            archived=data["archived"],
            ids={key: _receipt(value) for key, value in data["ids"].items()},
            tokens={unit: list(ids) for unit, ids in data["tokens"].items()},
            fighters={unit: dict(n) for unit, n in data.get("fighters", {}).items()},
            applied=dict(data["applied"]),
            jobs={unit: dict(job) for unit, job in data.get("jobs", {}).items()},
            detached={unit: list(moves) for unit, moves in data.get("detached", {}).items()},
            marks={roll: dict(marks) for roll, marks in data.get("marks", {}).items()},
        )

    def snapshot_data(self) -> dict[str, Any]:
        """Everything `from_snapshot` needs."""
        return {
            "battle": to_json(self.battle),
            "archived": self.archived,
            "ids": {key: list(receipt) for key, receipt in self.ids.items()},
            "tokens": self.tokens,
            "fighters": self.fighters,
            "applied": self.applied,
            "jobs": self.jobs,
            "detached": self.detached,
            "marks": self.marks,
        }

    @property
    def version(self) -> int:
        return int(self.battle.version)

    def absorb(
        self,
        seq: int,
        record: Record,
        battle: Battle | None = None,
        views: dict[str, Any] | None = None,
    ) -> None:
        """Take one record into the room; `battle` is the already-computed result when live
        (and `views` its views, made when it was measured)."""
        kind = record["kind"]
        if kind == "entry":
            self.battle = battle if battle is not None else evolve(self.battle, record["entry"])
            self._views.clear()
            self._views.update(views or {})
        elif kind == "archived":
            self.archived = True
        elif kind == "tokens":
            self._tokens(record["unit"], record["token_ids"], record.get("fighters", {}))
        elif kind == "applied":
            self.applied[record["unit"]] = dict(record["report"])
            self.jobs.pop(record["unit"], None)
        elif kind == "unapplied":
            self.applied.pop(record["unit"], None)
        elif kind == "ordered":
            self.jobs.update({unit: dict(job) for unit, job in record["jobs"].items()})
        elif kind == "planned":
            self.jobs[record["unit"]] = {**self.jobs[record["unit"]], "plan": record["plan"]}
        elif kind == "cancelled":
            self.jobs.pop(record["unit"], None)
        elif kind == "detached":
            self.detached.setdefault(record["unit"], []).append(dict(record["move"]))
        elif kind == "marked":
            self._marked(str(record["version"]), record["marks"])
        else:
            raise ValueError(f"record {seq} of battle {self.name!r} has unknown kind {kind!r}")
        if record.get("id") is not None:
            self.ids[record["id"]] = (self.version, record.get("digest", ""))
        self.seq = seq
        self.since_snapshot += 1

    def _tokens(self, unit: str, token_ids: list[str], fighters: dict[str, int]) -> None:
        """A unit's tokens, and the head counts of those standing for many (replaced whole)."""
        if token_ids:
            self.tokens[unit] = list(token_ids)
        else:
            self.tokens.pop(unit, None)
        if fighters:
            self.fighters[unit] = dict(fighters)
        else:
            self.fighters.pop(unit, None)

    def _marked(self, roll: str, changes: dict[str, dict[str, Any] | None]) -> None:
        """Marks of an Influence roll's effects set (a mark) or taken back (None)."""
        marks = {**self.marks.get(roll, {}), **changes}
        kept = {effect: mark for effect, mark in marks.items() if mark is not None}
        if kept:
            self.marks[roll] = kept
        else:
            self.marks.pop(roll, None)

    def foundry(self) -> dict[str, Any]:
        """What the GMs' `state` carries for the Foundry module (never sent to players)."""
        return {
            "tokens": self.tokens,
            "fighters": self.fighters,
            "applied": self.applied,
            "jobs": {unit: self.job_view(unit) for unit in self.jobs},
            "detached": {unit: moves for unit in self.detached if (moves := self.moves(unit))},
            "marks": {
                roll: marks
                for roll, marks in self.marks.items()
                if int(roll) <= len(self.battle.log) and int(roll) - 1 not in self.battle.undone
            },
        }

    def moves(self, unit: str) -> list[dict[str, Any]]:
        """The unit's moves of tokens into the PCs' fight that still count: each made by a
        `detach_fighters` entry (its `version`) the battle has not undone."""
        undone = self.battle.undone
        return [
            move
            for move in self.detached.get(unit, [])
            if move["version"] <= len(self.battle.log) and move["version"] - 1 not in undone
        ]

    def fighting_tokens(self, unit: str) -> tuple[list[str], dict[str, int]]:
        """The unit's tokens still in the background battle and their head counts: those moved
        into the PCs' fight are out (a token standing for many loses the heads moved)."""
        moves = self.moves(unit)
        gone = {token for move in moves for token in move["token_ids"]}
        heads = dict(self.fighters.get(unit, {}))
        for move in moves:
            for token, n in move.get("fighters", {}).items():
                heads[token] = heads.get(token, 1) - n
        tokens = [t for t in self.tokens.get(unit, []) if t not in gone and heads.get(t, 1) > 0]
        return tokens, {t: n for t, n in heads.items() if t in tokens and n != 1}

    def job_view(self, unit: str) -> dict[str, Any] | None:
        """A unit's Apply job as the GMs are told of it: the order, its journal once planned,
        and who holds it now (`claimed_by`: a GM's name, while that browser is connected)."""
        job = self.jobs.get(unit)
        if job is None:
            return None
        claim = self.claims.get(unit)
        return {**job, **({"claimed_by": claim[1]} if claim else {})}

    def decided(self) -> Head:
        """The head, made from the stored state when nothing is waiting."""
        if self.head is None:
            done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            done.set_result(self.version)
            self.head = Head(self.battle, self.seq, self.archived, done)
        return self.head

    def view(self, role: Role) -> dict[str, Any]:
        """The core's `state_view` for a role, computed once per version."""
        cached = self._views.get(role)
        if cached is None:
            cached = self._views[role] = visibility.view(self.battle, role)
        return cached

    def view_without_log(self, role: Role) -> dict[str, Any]:
        """The view an `event` carries: `state_view` without its `log` (the client has it;
        copying and redacting the whole log on every event would cost O(version))."""
        key = role + "-nolog"
        cached = self._views.get(key)
        if cached is None:
            cached = self._views[key] = visibility.view(self.battle, role, log=False)
        return cached

    def summary(self) -> dict[str, Any]:
        """The battle as listed in `welcome` and `battles`."""
        return {
            "name": self.name,
            "version": self.version,
            "status": self.battle.status,
            "archived": self.archived,
        }

    def open_to(self, role: Role) -> bool:
        """Whether a role is told of this battle (visibility.told_of)."""
        return visibility.told_of(role, self.battle.status, self.archived)

    def unit_ids(self) -> list[str]:
        return [unit.id for unit in self.battle.units]


def _receipt(value: Any) -> Receipt:
    """A stored receipt; snapshots before digests kept the version alone."""
    if isinstance(value, int):
        return (value, "")
    return (int(value[0]), str(value[1]))
