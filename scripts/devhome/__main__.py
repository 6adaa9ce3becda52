"""`python scripts/devhome [--port N] [--reset] …` (what scripts/develop runs), and
`python scripts/devhome --facts`, which another interpreter's Home Assistant is asked."""

import sys
from pathlib import Path

if not __package__:
    # Run as a folder: its parent (scripts/) makes the package importable as `devhome`.
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from devhome.cli import main

sys.exit(main())
