"""``python -m fogofwar``: the same as the ``fogofwar`` command."""

import sys

from .cli import main

sys.exit(main())
