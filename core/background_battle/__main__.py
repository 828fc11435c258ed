"""``python -m background_battle`` runs the calculator command line."""

import sys

from .cli import main

sys.exit(main())
