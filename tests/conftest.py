"""Shared test settings: a `thorough` Hypothesis profile for long local runs."""

import os

from hypothesis import settings

settings.register_profile("thorough", max_examples=3000, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
