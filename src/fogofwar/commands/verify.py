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
from dataclasses import dataclass

from rich.console import Console

from ..core.errors import BadDataError
from ..core.record import Record, RecordVersionError
from ..core.secret import matches

__all__ = ["Verdict", "verify", "verify_record"]


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found.

    Attributes:
        verified: every check passed.
        checks: one sentence per check, in order.
        problem: why it failed (``None`` when verified).
        actions: the record's number of actions.
        finished: whether the game is over.
    """

    verified: bool
    checks: tuple[str, ...]
    problem: str | None
    actions: int
    finished: bool


def verify_record(record: Record) -> Verdict:
    """Check a record's commitment, digest chain and outcome (see the module doc)."""
    n, finished = len(record.actions), record.outcome is not None
    checks: list[str] = []

    def failed(problem: str) -> Verdict:
        return Verdict(False, tuple(checks), problem, n, finished)

    committed = record.commitment
    if committed is None or not record.verifiable:
        return failed(
            f"a format {record.version} record has no commitment and no digest chain: "
            "it replays, but it cannot be verified"
        )
    if record.seeded:
        checks.append(
            "the game was seeded: its seed was chosen, not secret, so whoever knew it could "
            "know every hidden fact"
        )
    if not matches(record.seed, committed):
        return failed(f"the seed does not match the commitment {committed}")
    checks.append(f"the seed matches the commitment {committed}")
    try:
        record.check_ruleset()
        record.replay()
    except RecordVersionError:
        raise  # another fogofwar is needed: the record cannot be judged here
    except BadDataError as exc:
        return failed(str(exc))
    checks.append(
        f"all {n} actions replay from the seed to their recorded digests: every roll, draw "
        "and shuffle came from it"
    )
    if record.outcome is not None:
        checks.append(f"the outcome is the recorded one: {record.outcome.reason}")
    else:
        checks.append("the game is not over: it is verified as far as it was played")
    return Verdict(True, tuple(checks), None, n, finished)


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
            console.print(f"[green]✓[/] {line}", highlight=False)
        if verdict.verified:
            console.print(f"[bold green]verified:[/] {path}", highlight=False)
        else:
            console.print(f"[bold red]not verified:[/] {verdict.problem}", highlight=False)
    return 0 if verdict.verified else 1
