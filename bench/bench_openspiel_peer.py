"""Specter Ops random play against OpenSpiel's random rollouts, in the same run.

Run: ``.venv/bin/python bench/bench_openspiel_peer.py [seconds] [--frozen] [--map-cost]``
(default 5 s per row; ``--frozen`` first loads every rule set and sets what is loaded
aside from full collections, as ``fogofwar serve`` does: the slowest apply of a web
table's game; ``--map-cost`` adds the rows with characters played again without the
possibility maps, as a search's world plays them, and prints what the maps cost an
action and what they may cost for the row to match ``python_tic_tac_toe``).
Needs the benchmark-only extra: ``pip install -e '.[openspiel]'`` (``make bench``
installs it); without it only our rows are printed.

Actions per second on one core (this process), each row for about ``seconds``:

* fogofwar ``specter-ops``: random legal actions, every one checked by ``apply`` (the
  umpire's whole work: legality, the possibility map, events), 2–5 players (5 with the
  traitor), with characters (the default) and without, no views, whole 40-round games;
  the slowest single ``apply`` of each row too;
* OpenSpiel ``kriegspiel`` (C++ through pyspiel) and ``python_tic_tac_toe`` (a game
  written in Python): random rollouts, chance outcomes sampled, ``apply_action`` each,
  timed one by one as our ``apply`` is (the slowest is printed for them too), so that
  both loops do the same work around the games' own.

Each row also prints the longest full collection of Python's garbage collector during
it (timed with ``gc.callbacks``): where a row's slowest apply is about that long, a full
collection landed in it, not the rules' or the map's own work.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from _args import check_argv
from _full_collections import FullCollections
from fogofwar.core.collector import freeze_loaded
from fogofwar.core.game import get_ruleset, registered_rulesets


def rate(play_one: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    """Play games until ``seconds`` have passed: (games, actions, actions per second)."""
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions += play_one(games)
        games += 1
    elapsed = time.perf_counter() - start
    return games, actions, actions / elapsed


SLOWEST: dict[str, float] = {}
"""The slowest single ``apply`` of each of our rows, in seconds."""


def specter_ops(players: int, characters: bool, maps: bool = True) -> Callable[[int], int]:
    """Random play of whole games; ``maps=False`` plays the same rules without the
    possibility maps (``skip_views``: what only the views read), the rules' own cost."""
    rs = get_ruleset("specter-ops")
    label = f"fogofwar specter-ops {players}p{' chars' if characters else ''}"
    label += "" if maps else " no maps"
    clock = time.perf_counter

    def play_one(seed: int) -> int:
        state = rs.new_game({"players": players, "characters": characters}, seed)
        if not maps:
            state.skip_views()
        # The random player draws as the peer's does (``random.Random``): the two
        # loops differ only in the games they play.
        rng = random.Random(seed)
        n = 0
        while not state.is_over:
            (seat,) = state.to_act()
            action = rng.choice(state.legal_actions(seat))
            t = clock()
            state.apply(action)
            SLOWEST[label] = max(SLOWEST.get(label, 0.0), clock() - t)
            n += 1
        return n

    return play_one


def openspiel(name: str, label: str) -> Callable[[int], int] | None:
    """OpenSpiel's random rollouts of game ``name``; ``label``: its row (the slowest
    apply is kept under it)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    if name.startswith("python_"):
        import open_spiel.python.games  # type: ignore[import-not-found]  # noqa: F401
    game = pyspiel.load_game(name)
    clock = time.perf_counter

    def play_one(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = rng.choices(outcomes, probs)[0]
            else:
                action = rng.choice(state.legal_actions())
            # Timed as our rows time theirs: the two loops do the same work around the
            # games' own.
            t = clock()
            state.apply_action(action)
            SLOWEST[label] = max(SLOWEST.get(label, 0.0), clock() - t)
            n += 1
        return n

    return play_one


def main() -> None:
    check_argv(__doc__, flags=("--frozen", "--map-cost"))
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(args[0]) if args else 5.0
    if "--frozen" in sys.argv:
        # As ``fogofwar serve``: every rule set loaded first, then frozen.
        registered_rulesets()
        freeze_loaded()
    rows: list[tuple[str, Callable[[int], int] | None]] = [
        (f"fogofwar specter-ops {p}p{' chars' if c else ''}", specter_ops(p, c))
        for c in (True, False)
        for p in (2, 3, 4, 5)
    ]
    map_cost = "--map-cost" in sys.argv
    if map_cost:
        rows += [
            (f"fogofwar specter-ops {p}p chars no maps", specter_ops(p, True, maps=False))
            for p in (2, 3, 4, 5)
        ]
    rows += [
        (label, openspiel(name, label))
        for name, label in (
            ("kriegspiel", "OpenSpiel kriegspiel (C++)"),
            ("python_tic_tac_toe", "OpenSpiel python_tic_tac_toe"),
        )
    ]
    frozen = ", the loaded objects frozen" if "--frozen" in sys.argv else ""
    print(f"random play, one core, about {seconds:g} s a row{frozen}")
    print(
        f"{'game':<32} {'games':>6} {'actions':>9} {'actions/s':>11} {'slowest apply':>14}"
        f" {'longest full collection':>24}"
    )
    results: dict[str, float] = {}
    full = FullCollections()
    for label, play_one in rows:
        if play_one is None:
            print(f"{label:<32} (not installed: pip install -e '.[openspiel]')")
            continue
        full.reset()
        games, actions, per_second = rate(play_one, seconds)
        results[label] = per_second
        slowest = f"{SLOWEST[label] * 1000:>11.1f} ms" if label in SLOWEST else f"{'':>14}"
        collected = f"{full.longest * 1000:>21.1f} ms" if full.longest else f"{'none':>24}"
        print(f"{label:<32} {games:>6} {actions:>9} {per_second:>11,.0f} {slowest} {collected}")
    peers = {k: v for k, v in results.items() if k.startswith("OpenSpiel")}
    for label, ours in results.items():
        if label.startswith("fogofwar"):
            ratios = ", ".join(f"{ours / v:.2f}× {k.split()[1]}" for k, v in peers.items())
            if ratios:
                print(f"{label}: {ratios}")
    if map_cost:
        # An action's time with the maps minus without: the maps' share; and the most
        # they may take for the row to reach python_tic_tac_toe's rate (the rules' own
        # time left over from the peer's time an action).
        peer = results.get("OpenSpiel python_tic_tac_toe")
        print("the possibility maps' cost, µs an action (with maps − without)")
        for p in (2, 3, 4, 5):
            label = f"fogofwar specter-ops {p}p chars"
            with_maps, without = results[label], results[f"{label} no maps"]
            cost = 1e6 / with_maps - 1e6 / without
            # Without OpenSpiel there is no peer, and no room to print.
            room = (
                f", room to match python_tic_tac_toe {1e6 / peer - 1e6 / without:.1f}"
                if peer
                else ""
            )
            print(f"  {p} players: {cost:.1f}{room}")


if __name__ == "__main__":
    main()
