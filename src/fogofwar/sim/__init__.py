"""Batch play between bots and the statistics of the results.

:func:`run_batch` plays many games in local processes; :func:`play_game` plays one;
:mod:`fogofwar.sim.stats` has the Wilson and Newcombe intervals; :func:`sim_command` is
the ``fogofwar sim`` command (import it from :mod:`fogofwar.sim.command`, which pulls in
typer and rich).
"""

from __future__ import annotations

from .runner import (
    BatchResult,
    GameLengthError,
    GameResult,
    bot_seed,
    bot_stream,
    game_seed,
    play_game,
    resolve_seats,
    run_batch,
)
from .stats import (
    Z95,
    BatchStats,
    Difference,
    Interval,
    Proportion,
    difference,
    proportion,
    summarize,
    wilson_interval,
)

__all__ = [
    "Z95",
    "BatchResult",
    "BatchStats",
    "Difference",
    "GameLengthError",
    "GameResult",
    "Interval",
    "Proportion",
    "bot_seed",
    "bot_stream",
    "difference",
    "game_seed",
    "play_game",
    "proportion",
    "resolve_seats",
    "run_batch",
    "summarize",
    "wilson_interval",
]
