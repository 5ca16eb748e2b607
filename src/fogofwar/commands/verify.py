"""``fogofwar verify RECORD``: check that a game was played fairly from its secret.

Three checks, each a line of the report:

1. **The commitment.** The record's seed hashes to the commitment every seat was shown at
   the start (:func:`fogofwar.core.secret.commitment`): the umpire did not change the
   secret during the game.
2. **The digest chain.** Replaying every action from that seed gives, action by action,
   the digests the record holds: every roll, draw and shuffle, every event each seat was
   told, came from the secret and the actions — nothing else.
3. **The outcome** of the replay is the recorded one.

A seeded game (someone chose its seed) verifies the same way, but the report says that
its seed was no secret. The exit status is 0 when the record verifies, 1 when it does not
(and the report says where it diverges), 2 when it cannot be read. An unfinished game
verifies so far, and its secret is not printed.
"""

from __future__ import annotations

import json

from rich.console import Console
from rich.markup import escape

from ..core.record import Record, verify_record
from ..core.record.verify import WARNINGS

__all__ = ["verify"]


def verify(path: str, *, json_out: bool, console: Console) -> int:
    """Verify the record at ``path`` and print the report; returns the exit status."""
    record = Record.load(path)
    verdict = verify_record(record)
    if json_out:
        out = {
            "record": path,
            "verified": verdict.verified,
            "seeded": record.seeded,
            "commitment": record.commitment,
            # The secret only once the game is over: an unfinished record keeps it.
            "seed": record.seed if verdict.finished else None,
            "actions": verdict.actions,
            "finished": verdict.finished,
            "checks": list(verdict.checks),
            "problem": verdict.problem,
        }
        console.print_json(json.dumps(out))
    else:
        for line in verdict.checks:
            # A chosen seed or a weak secret is a warning, not a check passed.
            mark = "[bold yellow]![/]" if line.startswith(WARNINGS) else "[green]✓[/]"
            console.print(f"{mark} {escape(line)}", highlight=False)
        if verdict.verified:
            console.print(f"[bold green]verified:[/] {escape(str(path))}", highlight=False)
        else:
            problem = escape(str(verdict.problem))
            console.print(f"[bold red]not verified:[/] {problem}", highlight=False)
    return 0 if verdict.verified else 1
