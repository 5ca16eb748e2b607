"""Specter Ops random play: actions per second and the slowest single ``apply``, on one
core, by player count, with characters (the default) and without (the base game).

Run: ``.venv/bin/python bench/bench_specter_ops.py [seconds]`` (default 30 s a row), or
``bench/bench_specter_ops.py --fixed GAMES`` for the same work every run.
Whole games (40 rounds, 5 players with the traitor) of random legal actions from a keyed
stream, every action checked by ``apply`` (the umpire's full work: legality, the
possibility map, events), views not built; games are played until ``seconds`` have
passed. ``bench/bench_openspiel_peer.py`` runs the same rows beside OpenSpiel's games.

``--fixed GAMES`` plays the games of seeds 0 to GAMES−1 at 4 and 5 players with
characters instead, and times them in CPU seconds (``time.process_time``): the same
actions every run, with a digest of them that a change to the map's speed must keep,
and a figure that another process on a shared machine moves far less than the wall
clock's. To compare two versions of the code on one machine, run the bench from each
checkout (``PYTHONPATH=OTHER/src .venv/bin/python bench/bench_specter_ops.py --fixed 6``).
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Iterator

from _args import check_argv
from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream


def game(
    config: dict[str, object], seed: int, clock: Callable[[], float]
) -> Iterator[tuple[str, float]]:
    """The game of ``seed`` played by random legal actions from its keyed stream: each
    action (as text) with the ``clock`` time its ``apply`` took."""
    state = get_ruleset("specter-ops").new_game(config, seed)
    rng = stream(seed, "bench")
    while not state.is_over:
        (seat,) = state.to_act()
        action = rng.choice(state.legal_actions(seat))
        t = clock()
        state.apply(action)
        yield str(action), clock() - t


def run(config: dict[str, object], seconds: float) -> tuple[int, int, float, float]:
    """(games, actions, elapsed seconds, slowest apply in seconds), playing whole games
    until ``seconds`` have passed."""
    games = actions = 0
    slowest = 0.0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        for _, took in game(config, games, clock):
            slowest = max(slowest, took)
            actions += 1
        games += 1
    return games, actions, clock() - start, slowest


def fixed(config: dict[str, object], games: int) -> tuple[int, float, float, str]:
    """(actions, CPU seconds in ``apply``, the slowest apply in CPU seconds, a digest of
    the actions) of the games of seeds 0 to ``games - 1``."""
    actions, spent, slowest = 0, 0.0, 0.0
    digest = hashlib.sha256()
    for seed in range(games):
        for action, took in game(config, seed, time.process_time):
            spent += took
            slowest = max(slowest, took)
            actions += 1
            digest.update(action.encode())
    return actions, spent, slowest, digest.hexdigest()[:12]


def main() -> None:
    check_argv(__doc__, maybe_valued=("--fixed",))
    if "--fixed" in sys.argv:
        at = sys.argv.index("--fixed") + 1
        games = int(sys.argv[at]) if at < len(sys.argv) else 6
        print(f"Specter Ops with characters, games of seeds 0-{games - 1}, CPU time in apply")
        print(
            f"{'players':>7} {'actions':>8} {'cpu s':>7} {'actions/s':>10} {'slowest':>10}  digest"
        )
        for players in (4, 5):
            actions, spent, slowest, digest = fixed({"players": players}, games)
            print(
                f"{players:>7} {actions:>8} {spent:>7.2f} {actions / spent:>10,.0f} "
                f"{slowest * 1000:>7.1f} ms  {digest}"
            )
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 30.0
    print(f"Specter Ops, random legal actions, whole games for about {seconds:g} s a row")
    head = f"{'players':>7} {'characters':>10} {'games':>5} {'actions':>8} {'seconds':>8}"
    print(f"{head} {'actions/s':>10} {'slowest apply':>14}")
    for characters in (True, False):
        for players in (2, 3, 4, 5):
            config = {"players": players, "characters": characters}
            games, actions, elapsed, slowest = run(config, seconds)
            print(
                f"{players:>7} {characters!s:>10} {games:>5} {actions:>8} {elapsed:>8.1f} "
                f"{actions / elapsed:>10,.0f} {slowest * 1000:>11.1f} ms"
            )


if __name__ == "__main__":
    main()
