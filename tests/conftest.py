"""Shared test settings: a `thorough` Hypothesis profile, and tests/support on the path."""

import os
import sys
from pathlib import Path

from hypothesis import settings

# tests/support: helpers shared by the browser tests (Chromium, the bridge as a subprocess)
sys.path.insert(0, str(Path(__file__).parent / "support"))

settings.register_profile("thorough", max_examples=3000, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
