"""A newcomer finds a core module's tests by its name: ``tests/core/test_<module>.py``.

Scenario tests (a whole battle, the seed's examples, the rules document) stand beside these
under names of what a user does.
"""

from __future__ import annotations

from pathlib import Path

import background_battle

CORE = Path(background_battle.__file__).parent
TESTS = Path(__file__).parent


def test_every_core_module_has_a_test_file_named_after_it() -> None:
    modules = sorted(p.stem for p in CORE.glob("*.py") if not p.stem.startswith("_"))
    missing = [name for name in modules if not (TESTS / f"test_{name}.py").is_file()]
    assert missing == [], f"add tests/core/test_<module>.py for: {', '.join(missing)}"
