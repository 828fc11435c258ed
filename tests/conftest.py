"""Shared test settings: Hypothesis untimed (or `thorough`), tests/support on the path."""

import os
import sys
from pathlib import Path

from hypothesis import settings

# tests/support: helpers shared by the browser tests (Chromium, the bridge as a subprocess)
sys.path.insert(0, str(Path(__file__).parent / "support"))

# The bridge speaks the system's language (LANG...): every bridge a test starts speaks English
# unless the test asks for Russian (--lang ru, BB_LANG=ru), whatever the machine's locale.
os.environ["BB_LANG"] = "en"

# No test is timed (speed is measured in `make bench`): Hypothesis's per-example deadline is off
# everywhere, so a loaded machine never fails a property test for being slow.
settings.register_profile("untimed", deadline=None)
settings.register_profile("thorough", max_examples=3000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "untimed")

# Playwright's assertions wait 5 s by default; on a shared 2-core machine a page's Python or the
# bridge can take longer to answer. Waiting longer costs nothing when the answer is right.
try:
    from playwright.sync_api import expect
except ImportError:  # the core's tests run without Playwright too
    pass
else:
    expect.set_options(timeout=20_000)
