"""The bench studies' command line: ``[games] [--workers W]``."""

from __future__ import annotations

import sys
from typing import NoReturn


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


def check_argv(
    doc: str | None,
    *,
    flags: tuple[str, ...] = (),
    valued: tuple[str, ...] = (),
    maybe_valued: tuple[str, ...] = (),
    plain: int = 1,
    numbers: bool = True,
) -> None:
    """Check ``sys.argv`` of a script that reads it by hand: ``-h``/``--help`` prints
    the script's docstring and exits; an option not in ``flags`` (no value),
    ``valued`` (one value) or ``maybe_valued`` (a number may follow), a missing value,
    more than ``plain`` plain arguments, or (with ``numbers``) a plain argument that is
    not a number exits with status 2 and a line saying what was expected."""
    args = sys.argv[1:]
    name = sys.argv[0].rsplit("/", 1)[-1]

    def refuse(message: str) -> NoReturn:
        print(f"{name}: {message}", file=sys.stderr)
        sys.exit(2)

    if "-h" in args or "--help" in args:
        print((doc or name).strip())
        sys.exit(0)
    known = sorted({*flags, *valued, *maybe_valued, "--help"})
    seen: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a.startswith("-") and not _number(a):
            if a not in known:
                refuse(f"unknown option {a!r} (options: {', '.join(known)})")
            if a in valued:
                if i + 1 >= len(args):
                    refuse(f"{a} needs a value")
                i += 1
            elif a in maybe_valued and i + 1 < len(args) and _number(args[i + 1]):
                i += 1
        else:
            seen.append(a)
        i += 1
    if len(seen) > plain:
        refuse(f"at most {plain} plain argument(s), got {' '.join(seen)} (--help)")
    for a in seen if numbers else ():
        if not _number(a):
            refuse(f"expected a number, not {a!r} (--help)")


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
