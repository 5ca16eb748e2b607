"""The bench studies' command line: ``[games] [--workers W]``."""

from __future__ import annotations

import sys


def games_and_workers(default_games: int, default_workers: int) -> tuple[int, int]:
    """The games per row (the first plain argument) and ``--workers`` from ``sys.argv``;
    other plain arguments are left to the script (``extra_args``)."""
    workers = default_workers
    if "--workers" in sys.argv:
        workers = int(sys.argv[sys.argv.index("--workers") + 1])
    args = extra_args()
    return (int(args[0]) if args else default_games), workers


def extra_args() -> list[str]:
    """The plain arguments, without ``--workers`` and its value."""
    out: list[str] = []
    skip = False
    for a in sys.argv[1:]:
        if skip:
            skip = False
        elif a == "--workers":
            skip = True
        elif not a.startswith("--"):
            out.append(a)
    return out
