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
from collections.abc import Mapping

from rich.console import Console
from rich.rule import Rule

from ..core.errors import RulesError
from ..core.game import Event, PlayerView, Ruleset
from ..core.record import Record
from .play import drawing, result_line


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
    record.resolved_config(ruleset)  # a bad config named with the file, as verify does
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
    steps = record.steps(ruleset, clone=step)
    state, _ = next(steps)
    total = len(record.actions)
    if step:
        # The start's drawing lists the setup's events itself (its turn has not ended).
        _frame(console, drawing(ruleset, state.view(seat), record.config), f"start — {who}")
    for index, (state, events) in enumerate(steps, start=1):
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
        # As play: what the seat was told first, then the drawing.
        console.print(Rule(title))
        _told(console, ruleset, events, seat)
        console.print(_step_drawing(ruleset, state.view(seat), record.config), soft_wrap=True)
    if not step:
        title = f"{'end' if record.outcome is not None else 'last action'} of {total} — {who}"
        _frame(console, drawing(ruleset, state.view(seat), record.config), title)
    outcome = record.outcome
    if outcome is not None:
        # The result line ends a whole replay, stepped or not.
        console.print(result_line(outcome), markup=False, highlight=False)
    else:
        console.print(f"The game is not over: {total} actions recorded.", highlight=False)


def _frame(console: Console, picture: object, title: str) -> None:
    console.print(Rule(title))
    console.print(picture, soft_wrap=True)


def _step_drawing(ruleset: Ruleset, view: PlayerView, config: Mapping[str, object]) -> object:
    """A step's drawing without the view's own list of this turn's events: the step
    lists what the seat was told itself (:func:`_told`), as ``play`` does, so nothing is
    shown twice."""
    return drawing(
        ruleset, PlayerView(view.ruleset, view.seat, {**view.data, "events": []}), config
    )


def _told(console: Console, ruleset: Ruleset, events: list[Event], seat: str | None) -> None:
    """Every event of one action that ``seat`` was told, as the rule set words it.

    Taken from the action's own events, not from the view: a view lists only this turn's
    events, so an action that ends a turn (Warfighter's ``end``, Zero Dark's ``flip``)
    would lose its own results, the other side's turn and the new turn's start."""
    lines = [
        said
        for said in (ruleset.describe_event(e.to_json()) for e in events if e.visible_to(seat))
        if said
    ]
    if not lines:
        return
    console.print(f"What {seat or 'everyone'} was told:", markup=False, highlight=False)
    for line in lines:
        console.print(f"  {line}", markup=False, highlight=False)
