"""Rebuild a battle from what storage kept, or say exactly where its history breaks.

Start-up and `background-battle-bridge check` both go through `rebuild`: a battle either comes
back whole or raises `Damaged` naming the first record that cannot be replayed, and how many
records before it replayed cleanly (so that a repair may keep them).

>>> from .stored import StoredBattle
>>> rebuild("ambush", StoredBattle(records=[(1, {"kind": "created", "id": "a"})])).version
0
>>> rebuild("ambush", StoredBattle(records=[(1, {"kind": "created", "id": "a"}),
...                                         (2, {"kind": "entry"})]))
Traceback (most recent call last):
...
background_battle_bridge.replay.Damaged: record 2 cannot be replayed (KeyError: 'entry')
"""

from __future__ import annotations

from .room import Room
from .stored import StoredBattle
from .words import Said


class Damaged(Exception):
    """A battle whose stored history cannot be rebuilt.

    `good` is the number of records (from the first one loaded) that replayed cleanly.
    """

    def __init__(self, reason: str, good: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.good = good


def rebuild(name: str, stored: StoredBattle) -> Room:
    """The room the snapshot and records make.

    Raises:
        Damaged: a bad record found by storage, a snapshot or a record the room cannot take,
            a history that does not start with `created`.
    """
    room = _from_snapshot(name, stored)
    for good, (seq, record) in enumerate(stored.records):
        try:
            if record.get("kind") == "created" and seq == 1:
                room = Room.created(name, record)
            elif room is None or record.get("kind") == "created":
                raise Damaged(Said("reason.before_created", seq=seq), good)
            else:
                room.absorb(seq, record)
        except Damaged:
            raise
        except Exception as exc:  # any failure to replay stored data means the data is bad
            why = f"{type(exc).__name__}: {exc}"
            raise Damaged(Said("reason.not_replayed", seq=seq, why=why), good) from exc
    if stored.damage is not None:
        raise Damaged(stored.damage, len(stored.records))
    if room is None:
        raise Damaged(Said("reason.no_records"), 0)
    return room


def _from_snapshot(name: str, stored: StoredBattle) -> Room | None:
    if stored.snapshot is None:
        return None
    try:
        return Room.from_snapshot(name, stored.snapshot_seq, stored.snapshot)
    except Exception as exc:  # a snapshot that passed its checksum but does not load
        why = f"{type(exc).__name__}: {exc}"
        seq = stored.snapshot_seq
        raise Damaged(Said("reason.snapshot_unreadable", seq=seq, why=why), 0) from exc
