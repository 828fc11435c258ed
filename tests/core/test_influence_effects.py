"""The Influence table's effects as data: they say what each band's sentence says, in both
languages, and a GM's own table is checked by field (docs/rules.md §6, "Effects as data")."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from background_battle import BattleError, apply, default_table, table_from_dict
from background_battle.influence_effects import KINDS, effect_from_dict

from .builders import dwarves_and_orcs

Fact = tuple[Any, ...]
NUMBER_WORDS = {"an": 1, "a": 1, "один": 1, "двое": 2, "": 1}
WORDS = {"Hard": "hard", "Трудную": "hard", "Cool": "cool", "Хладнокровия": "cool"}
WORDS |= {"Broken": "broken", "Сломлен": "broken"}


def _rounds(text: str) -> int:
    return 1 if text in ("next round", "в следующем раунде") else int(re.sub(r"\D", "", text))


def _amount(text: str) -> int:
    return int(text.replace("−", "-"))


def _russian_dice(text: str) -> str:
    """A formula as Russian writes it (1к10+4, as the page's к100) read as the data's 1d10+4;
    a Latin d in a Russian sentence is not read."""
    written = re.fullmatch(r"\d+к\d+([+-]\d+)?", text)
    return text.replace("к", "d") if written else f"{text} (not as Russian writes dice)"


# How each language's sentences say each kind of effect: a pattern and the fact it names.
SAYINGS: dict[str, list[tuple[str, Any]]] = {
    "en": [
        (
            r"\{(rolling|other)_one\} gains \+(\d+) Advantage",
            lambda w, n: ("advantage", w, "gain", int(n)),
        ),
        (
            r"\{(rolling|other)(?:_one)?\} loses? all Advantage",
            lambda w: ("advantage", w, "lose", "all"),
        ),
        (
            r"\{(rolling|other)\}[^;{]*?lose (\d+) Advantage each",
            lambda w, n: ("advantage", w, "lose", int(n)),
        ),
        (
            r"hits a random \{(rolling|other)_one\} for (\S+) Damage",
            lambda w, d: ("damage", w, "random", d),
        ),
        (
            r"hits a random combatant of the PCs' fight \(PC or foe alike\) for (\S+) Damage",
            lambda d: ("damage", "any", "random", d),
        ),
        (
            r"one \{(rolling|other)_one\} \(GM's choice\) takes (\S+) Damage",
            lambda w, d: ("damage", w, "gm_choice", d),
        ),
        (
            r"\{(rolling|other)\} take ([−-]\d+) to all tests this round",
            lambda w, a: ("test_modifier", w, _amount(a), 1),
        ),
        (
            r"(\d+|an?)(?: more)? \{(rolling|other)_fighters?\} joins? the PCs' fight "
            r"(next round|in \d+ rounds)",
            lambda n, w, r: ("reinforcements", w, NUMBER_WORDS.get(n) or int(n), _rounds(r)),
        ),
        (
            r"help for \{(rolling|other)\} arrives (next round)",
            lambda w, r: ("reinforcements", w, "gm_choice", _rounds(r)),
        ),
        (
            r"each \{(rolling|other)_one\} must pass a (Hard) \(−20\) (Cool) test or gain the "
            r"(Broken) condition",
            lambda w, d, s, c: ("test", w, WORDS[s], WORDS[d], WORDS[c]),
        ),
    ],
    "ru": [
        (
            r"\{(rolling|other)_one\} получает \+(\d+) Преимущество",
            lambda w, n: ("advantage", w, "gain", int(n)),
        ),
        (
            r"\{(rolling|other)(?:_one)?\} теря(?:ет|ют) всё Преимущество",
            lambda w: ("advantage", w, "lose", "all"),
        ),
        (
            r"\{(rolling|other)\}[^;{]*?теряют по (\d+) Преимуществу",
            lambda w, n: ("advantage", w, "lose", int(n)),
        ),
        (
            r"попадает в случайного \{(rolling|other)_one_acc\} \((\S+) Урона\)",
            lambda w, d: ("damage", w, "random", _russian_dice(d)),
        ),
        (
            r"попадает в случайного участника боя персонажей \(персонажа или врага\) и наносит "
            r"(\S+) Урона",
            lambda d: ("damage", "any", "random", _russian_dice(d)),
        ),
        (
            r"один \{(rolling|other)_one\} \(на выбор Мастера\) получает (\S+) Урона",
            lambda w, d: ("damage", w, "gm_choice", _russian_dice(d)),
        ),
        (
            r"\{(rolling|other)\} получают ([−-]\d+) ко всем проверкам в этом раунде",
            lambda w, a: ("test_modifier", w, _amount(a), 1),
        ),
        (
            r"(в следующем раунде|через \d+ раунда) к бою персонажей присоединя(?:ется|ются) "
            r"(?:ещё )?(один |двое )?\{(rolling|other)_fighters?(?:_gen)?\}",
            lambda r, n, w: ("reinforcements", w, NUMBER_WORDS[(n or "").strip()], _rounds(r)),
        ),
        (
            r"подмога для \{(rolling|other)_gen\} прибывает (в следующем раунде)",
            lambda w, r: ("reinforcements", w, "gm_choice", _rounds(r)),
        ),
        (
            r"каждый \{(rolling|other)_one\} должен пройти (Трудную) \(−20\) проверку "
            r"(Хладнокровия) или получить состояние «(Сломлен)»",
            lambda w, d, s, c: ("test", w, WORDS[s], WORDS[d], WORDS[c]),
        ),
    ],
}
# What must not be left in a sentence once its effects are read: a number, Advantage, Damage.
LEFT_OVER = re.compile(r"\d|Advantage|Damage|Преимуществ|Урон|test|проверк|join|присоедин")


def sentence_facts(text: str, language: str) -> tuple[Counter[Fact], str]:
    """The facts a sentence states, and the sentence with them taken out."""
    facts: Counter[Fact] = Counter()
    said = [False] * len(text)
    for pattern, fact in SAYINGS[language]:
        for match in re.finditer(pattern, text):
            facts[fact(*match.groups())] += 1
            said[match.start() : match.end()] = [True] * (match.end() - match.start())
    return facts, "".join(
        "·" if was_said else char for char, was_said in zip(text, said, strict=True)
    )


def effect_fact(effect: dict[str, Any]) -> Fact:
    """The same fact, from an effect as data."""
    kind, who = effect["kind"], effect["who"]
    if kind == "advantage":
        return (
            "advantage",
            who,
            *(("gain", effect["gain"]) if "gain" in effect else ("lose", effect["lose"])),
        )
    if kind == "damage":
        return ("damage", who, effect["target"], effect["dice"])
    if kind == "test_modifier":
        return ("test_modifier", who, effect["amount"], effect["rounds"])
    if kind == "reinforcements":
        return ("reinforcements", who, effect["fighters"], effect["in_rounds"])
    assert kind == "test"
    return ("test", who, effect["skill"], effect["difficulty"], effect["on_failure"])


@pytest.mark.parametrize("index", range(10))
@pytest.mark.parametrize("language", ["en", "ru"])
def test_each_default_band_carries_the_effects_its_sentence_says(index: int, language: str) -> None:
    band = default_table().bands[index].to_dict()

    said, rest = sentence_facts(band["effect"][language], language)
    carried = Counter(effect_fact(effect) for effect in band["effects"])

    assert said == carried, (band["min"], band["max"], language)
    assert not LEFT_OVER.search(rest), f"a fact the effects do not hold: {rest!r}"


def test_the_band_that_does_nothing_carries_an_empty_list_not_text_only() -> None:
    quiet = default_table().band_for(90).to_dict()

    assert quiet["effects"] == []


def test_effects_read_for_the_side_that_rolled_name_whose_fighters() -> None:
    volley = default_table().band_for(140)

    by_allies = [e.to_dict() for e in volley.for_side("allies").effects or ()]
    by_enemies = [e.to_dict() for e in volley.for_side("enemies").effects or ()]
    arrows = default_table().band_for(60).for_side("enemies").to_dict()["effects"]

    assert by_allies == [
        {
            "kind": "damage",
            "who": "other",
            "target": "gm_choice",
            "dice": "1d10+4",
            "side": "enemies",
        },
        {"kind": "advantage", "who": "rolling", "gain": 1, "side": "allies"},
    ]
    assert [e["side"] for e in by_enemies] == ["allies", "enemies"]
    assert arrows == [
        {"kind": "damage", "who": "any", "target": "random", "dice": "1d10", "side": None}
    ]


def test_the_influence_roll_carries_the_band_effects_read_for_its_side() -> None:
    battle, _ = apply(dwarves_and_orcs(), {"type": "end_battle", "winner": "allies"})

    _, events = apply(battle, {"type": "roll_influence", "side": "allies", "roll": 60})

    band = events[0]["band"]
    assert events[0]["total"] == 60 + 50 + 30  # after the battle: d100 + 50 + the winner's strength
    assert band["effects"] == [
        {
            "kind": "damage",
            "who": "other",
            "target": "gm_choice",
            "dice": "1d10+4",
            "side": "enemies",
        },
        {"kind": "advantage", "who": "rolling", "gain": 1, "side": "allies"},
    ]


def test_a_table_of_text_only_carries_no_effects_and_its_roll_says_so() -> None:
    table = {
        "bands": [
            {"min": None, "max": 50, "effect": "Bad"},
            {"min": 51, "max": None, "effect": "Good"},
        ]
    }
    battle, _ = apply(dwarves_and_orcs(), {"type": "set_influence_table", "table": table})

    _, events = apply(battle, {"type": "roll_influence", "side": "allies", "roll": 80})

    assert "effects" not in events[0]["band"]
    assert table_from_dict(table).bands[0].effects is None


def test_a_gm_table_with_effects_keeps_them_canonical() -> None:
    table = table_from_dict(
        {
            "bands": [
                {
                    "min": None,
                    "max": 0,
                    "effect": "Ouch",
                    "effects": [
                        {"kind": "damage", "who": "rolling", "target": "random", "dice": " 2D6+0 "}
                    ],
                },
                {
                    "min": 1,
                    "max": None,
                    "effect": "Fine",
                    "effects": [{"kind": "condition", "who": "other", "condition": "prone"}],
                },
            ]
        }
    )

    assert table.to_dict()["bands"][0]["effects"] == [
        {"kind": "damage", "who": "rolling", "target": "random", "dice": "2d6"}
    ]
    assert table_from_dict(table.to_dict()) == table


BAD_EFFECTS = [
    ({"kind": "weather", "who": "rolling"}, "effects[0].kind"),
    ({"kind": "advantage", "who": "rolling", "gain": 1, "dice": "1d6"}, "effects[0].dice"),
    ({"kind": "advantage", "who": "any", "gain": 1}, "effects[0].who"),
    ({"kind": "advantage", "who": "rolling"}, "effects[0]"),
    ({"kind": "advantage", "who": "rolling", "lose": "most"}, "effects[0].lose"),
    ({"kind": "advantage", "who": "rolling", "gain": 0}, "effects[0].gain"),
    ({"kind": "damage", "who": "other", "target": "random", "dice": "1d10+x"}, "effects[0].dice"),
    ({"kind": "damage", "who": "other", "target": "random", "dice": "99d6"}, "effects[0].dice"),
    ({"kind": "damage", "who": "other", "target": "nearest", "dice": "1d6"}, "effects[0].target"),
    ({"kind": "test_modifier", "who": "other", "amount": 0, "rounds": 1}, "effects[0].amount"),
    ({"kind": "test_modifier", "who": "other", "amount": -10}, "effects[0].rounds"),
    (
        {"kind": "reinforcements", "who": "other", "fighters": None, "in_rounds": 2},
        "effects[0].fighters",
    ),
    (
        {"kind": "reinforcements", "who": "other", "fighters": 2, "in_rounds": 0},
        "effects[0].in_rounds",
    ),
    (
        {
            "kind": "test",
            "who": "other",
            "skill": "cool",
            "difficulty": "deadly",
            "on_failure": "broken",
        },
        "effects[0].difficulty",
    ),
    (
        {
            "kind": "test",
            "who": "other",
            "skill": "swim",
            "difficulty": "hard",
            "on_failure": "broken",
        },
        "effects[0].skill",
    ),
    ({"kind": "test", "who": "other", "difficulty": "hard", "on_failure": "broken"}, "effects[0]"),
    ({"kind": "condition", "who": "other", "condition": "dead"}, "effects[0].condition"),
    ("advantage", "effects[0]"),
]


@pytest.mark.parametrize(("effect", "field"), BAD_EFFECTS)
def test_a_bad_effect_is_refused_naming_its_field(effect: Any, field: str) -> None:
    with pytest.raises(BattleError) as error:
        effect_from_dict(effect, "effects[0]")

    assert error.value.field == field


def test_a_bad_effect_in_a_gm_table_is_refused_by_its_full_field_and_changes_nothing() -> None:
    battle = dwarves_and_orcs()
    table = {
        "bands": [
            {
                "min": None,
                "max": 0,
                "effect": "x",
                "effects": [{"kind": "weather", "who": "rolling"}],
            },
            {"min": 1, "max": None, "effect": "y"},
        ]
    }

    with pytest.raises(BattleError) as error:
        apply(battle, {"type": "set_influence_table", "table": table})

    assert error.value.field == "table.bands[0].effects[0].kind"
    assert error.value.code == "bad_effect"
    assert "advantage" in error.value.params["accepted"]


@pytest.mark.parametrize("effects", [None, {}, "none", [{}] * 11])
def test_effects_must_be_a_short_list_and_null_is_not_text_only(effects: Any) -> None:
    with pytest.raises(BattleError) as error:
        table_from_dict(
            {
                "bands": [
                    {"min": None, "max": 0, "effect": "x", "effects": effects},
                    {"min": 1, "max": None, "effect": "y"},
                ]
            }
        )

    assert error.value.field == "table.bands[0].effects"


VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-100, 2000),
    st.floats(allow_nan=True),
    st.sampled_from(
        [
            "rolling",
            "other",
            "any",
            "all",
            "gm_choice",
            "random",
            "1d10+4",
            "2d6-1",
            "cool",
            "wp",
            "hard",
            "broken",
            "prone",
            "advantage",
            "damage",
            "test",
            "",
            "1d10+x",
        ]
    ),
    st.lists(st.integers(), max_size=2),
)
KEYS = st.sampled_from(
    [
        "kind",
        "who",
        "gain",
        "lose",
        "target",
        "dice",
        "amount",
        "rounds",
        "fighters",
        "in_rounds",
        "skill",
        "characteristic",
        "difficulty",
        "on_failure",
        "condition",
        "extra",
    ]
)


@given(st.dictionaries(KEYS, VALUES, max_size=6), st.sampled_from(sorted(KINDS)))
@settings(max_examples=300, deadline=None)
def test_any_effect_is_read_canonically_or_refused_by_field(raw: dict[str, Any], kind: str) -> None:
    raw = {"kind": kind, **raw} if "kind" not in raw else raw
    try:
        effect = effect_from_dict(raw, "effects[0]")
    except BattleError as error:
        assert error.field is not None and error.field.startswith("effects[0]")
        return
    again = effect_from_dict(effect.to_dict(), "effects[0]")
    assert again == effect
    assert set(effect.to_dict()) <= {"kind", "who", *KINDS[effect.kind]}
