"""``fogofwar replay FILE [--seat S] [--step]``: a game record seen from one seat.

The record is replayed action by action through its rule set (every action checked, so
a damaged record stops with the index of its first illegal action) and drawn with the
rule set's :meth:`~fogofwar.core.game.Ruleset.render` from the chosen seat's **view**
only. Without ``--seat`` a finished game is shown whole: the spectator's final view,
which lists every secret once the game is over; an unfinished game's record shows only
a seat's view, since anything else would reveal what is still hidden.
"""

from __future__ import annotations

import sys

from rich.console import Console
from rich.rule import Rule

from ..core.errors import RulesError
from ..core.record import Record
from .play import drawing


def replay(
    path: str, *, seat: str | None, step: bool, console: Console, game: int | None = None
) -> None:
    """Draw ``path``'s game from ``seat``'s view: the end, or every action with ``step``.
    With ``game``, ``path`` is a study's ``games.jsonl`` and the game on that line is
    played again, exactly as the study played it (:func:`~fogofwar.sim.study.study_game`).

    Raises:
        RulesError: an unknown seat, or no seat for an unfinished game (and the record's
            own errors: a bad file, a version it cannot replay, an illegal action).
    """
    if game is not None:
        from ..sim.study import study_game

        played = study_game(path, game).record
        if played is None:  # pragma: no cover - study_game keeps the record
            raise RulesError(f"{path}: line {game} gave no record")
        record = played
    else:
        if str(path).endswith(".jsonl"):
            # A study's games.jsonl: a game a line, which --game chooses.
            raise RulesError(
                f"{path} holds a game a line (a study's games.jsonl): pass --game N for the "
                "game on line N"
            )
        record = Record.load(path)
    ruleset = record.check_ruleset()
    seats = ruleset.seats(record.config)
    if seat is not None and seat not in seats:
        raise RulesError(f"{path}: no seat {seat!r} in this game; seats: {', '.join(seats)}")
    if seat is None and record.outcome is None:
        raise RulesError(
            f"{path}: the game is not over, so only one seat's view may be shown: "
            f"pass --seat ({', '.join(seats)})"
        )
    who = seat or "everyone (the game is over)"
    interactive = step and sys.stdin.isatty()
    states = record.states(ruleset, clone=step)
    state = next(states)
    total = len(record.actions)
    if step:
        _frame(console, drawing(ruleset, state.view(seat), record.config), f"start — {who}")
    for index, state in enumerate(states, start=1):
        if not step:
            continue
        action = record.actions[index - 1]
        # The acting seat's action is public as an action only if the view shows it; the
        # title names the step, not the secret action.
        title = f"after action {index} of {total} — {who}"
        if seat is None or action.seat == seat:
            title += f" — {action.seat}: {action}"
        if interactive and console.input("[dim]Enter for the next action, q to stop[/] ") == "q":
            return
        _frame(console, drawing(ruleset, state.view(seat), record.config), title)
    if not step:
        title = f"{'end' if record.outcome is not None else 'last action'} of {total} — {who}"
        _frame(console, drawing(ruleset, state.view(seat), record.config), title)
    outcome = record.outcome
    if outcome is not None:
        # The result line ends a whole replay, stepped or not.
        won = ", ".join(sorted(outcome.sides)) or "nobody"
        tag = f" [{outcome.rule}]" if outcome.rule else ""
        console.print(f"Result: {won} won — {outcome.reason}{tag}", markup=False, highlight=False)
    else:
        console.print(f"The game is not over: {total} actions recorded.", highlight=False)


def _frame(console: Console, picture: object, title: str) -> None:
    console.print(Rule(title))
    console.print(picture, soft_wrap=True)
