"""demo.py: the seeded demonstration battle, told the same way for the same seed."""

from __future__ import annotations

from background_battle.demo import play, signed_sl


def test_the_same_seed_tells_the_same_battle() -> None:
    assert play(7) == play(7)
    assert play(7) != play(8)


def test_the_story_ends_with_the_casualties() -> None:
    story = play(7)
    assert "Casualties" in story
    assert story.index("Casualties") > story.index("Round 1")


def test_a_zero_sl_has_the_sign_of_its_success() -> None:
    assert (signed_sl(0, True), signed_sl(0, False)) == ("+0", "−0")
