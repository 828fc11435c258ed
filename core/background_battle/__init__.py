"""Background battle rules for Warhammer Fantasy Roleplay 4e: the one place every rule lives.

>>> from background_battle import casualties
>>> [(u.killed, u.wounded, u.fit) for u in casualties(30, 18, [10]).units]
[(2, 4, 4)]
"""

from .battle import Battle, Entry, SideState, new_battle
from .casualties import CasualtyReport, UnitCasualties, casualties, lost_share, unit_casualties
from .errors import BattleError
from .influence import InfluenceTable, default_table, influence_modifier, table_from_dict
from .last_stand import LastStand, last_stand
from .leader import leader_bonus
from .log import apply, evolve, rebuild
from .modifiers import Modifier, initial_strength
from .odds import Odds, odds
from .opposed import TestRoll, opposed, strength_lost, wfrp_test
from .rounding import round_half_down, strength_bonus
from .serialize import SCHEMA, from_json, restore, to_json
from .shapes import SHAPES, Field, Shape, normalise
from .units import SIZES, Unit, size_multiplier, unit_strength
from .view import redact_entry, state_view, views_by_role

__version__ = "0.1.0"

__all__ = [
    "SCHEMA",
    "SHAPES",
    "SIZES",
    "Battle",
    "BattleError",
    "CasualtyReport",
    "Entry",
    "Field",
    "InfluenceTable",
    "LastStand",
    "Modifier",
    "Odds",
    "Shape",
    "SideState",
    "TestRoll",
    "Unit",
    "UnitCasualties",
    "apply",
    "casualties",
    "default_table",
    "evolve",
    "from_json",
    "influence_modifier",
    "initial_strength",
    "last_stand",
    "leader_bonus",
    "lost_share",
    "new_battle",
    "normalise",
    "odds",
    "opposed",
    "rebuild",
    "redact_entry",
    "restore",
    "round_half_down",
    "size_multiplier",
    "state_view",
    "strength_bonus",
    "strength_lost",
    "table_from_dict",
    "to_json",
    "unit_casualties",
    "unit_strength",
    "views_by_role",
    "wfrp_test",
]
