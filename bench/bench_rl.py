"""The RL environments' speed: AEC environment steps per second for every rule set,
beside PettingZoo's own classic environments (Connect Four, tic-tac-toe) in the same run.

Run: ``.venv/bin/python bench/bench_rl.py [seconds]`` (default 3 a row), or
``bench/bench_rl.py --parts [STEPS]`` for where a step's time goes. Each row plays
random legal actions, drawn under the action mask, through ``env.last()`` (the acting
seat's observation: its view encoded, and its mask) and ``env.step()``, restarting a
finished game with the next seed; dead steps (telling each seat the game is over) are
not counted. One core; the figures are this machine's, ±20% between runs.

``--parts`` plays the same random masked games through the environment's own pieces
(``fogofwar.rl.common.GameSpec``) for ``STEPS`` steps a row (default 4,000), and prints
the CPU microseconds of each part of a step: the acting seat's view, its encoding, the
legal mask, and applying the action (``time.process_time``, the same steps every run).
``--only ROW`` keeps one row (its name as printed: ``zero-dark``, ``specter-ops
players=3``).

Timings on a shared machine move by ±25% between runs of the same code. To compare two
versions of the code, count instructions instead, which are the same every run: the
same steps under valgrind's callgrind, ``PYTHONHASHSEED=0 PYTHONMALLOC=malloc valgrind
--tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/bench_rl.py
--parts N --only ROW`` ("Collected"), once with ``N`` steps and once with none (the
imports and the first game), the difference divided by ``N`` (docs/rl.md).

``--count N --only ROW`` plays exactly ``N`` steps of one row through the whole AEC loop
and prints nothing, PettingZoo's own rows too (``--only "pettingzoo connect_four_v3"``):
the same callgrind recipe then counts a whole environment step of ours and of the peer,
``--count N`` minus ``--count 0``, divided by ``N``.
"""

from __future__ import annotations

import importlib.util
import sys
import time
import types
from typing import Any

import numpy as np

from _args import check_argv
from fogofwar.rl import aec_env

ROWS: tuple[tuple[str, dict[str, Any] | None], ...] = (
    ("warfighter", None),
    ("rock-n-roll", None),
    ("zero-dark", None),
    ("specter-ops", {"players": 2}),
    ("specter-ops", {"players": 3}),
    ("specter-ops", {"players": 5}),
)


def steps_per_second(env: Any, seconds: float, count: int | None = None) -> tuple[int, int, float]:
    """Random masked play for about ``seconds`` (or exactly ``count`` steps): (steps,
    games finished, elapsed)."""
    rng = np.random.default_rng(0)
    steps = games = 0
    seed = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while (steps < count) if count is not None else (time.perf_counter() - start < seconds):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                games += 1
                seed += 1
                env.reset(seed=seed)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, games, time.perf_counter() - start


def classic_envs() -> list[tuple[str, Any]]:
    """PettingZoo's classic board games, as they ship. They import pygame for drawing
    only; without it a stand-in module lets them load (nothing here draws)."""
    if importlib.util.find_spec("pygame") is None:
        sys.modules.setdefault("pygame", types.ModuleType("pygame"))
    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    except ImportError as exc:  # pragma: no cover - an older PettingZoo
        print(f"(PettingZoo classic environments unavailable: {exc})")
        return []
    return [
        ("pettingzoo connect_four_v3", connect_four_v3.env()),
        ("pettingzoo tictactoe_v3", tictactoe_v3.env()),
    ]


def label(ruleset: str, config: dict[str, Any] | None) -> str:
    """A row's name: the rule set and its options."""
    return ruleset + "".join(f" {k}={v}" for k, v in (config or {}).items())


def parts(ruleset: str, config: dict[str, Any] | None, steps: int) -> tuple[float, ...]:
    """CPU microseconds per step of (view, encoding, mask, apply) over ``steps`` steps
    of random masked play, games restarted with the next seed."""
    from fogofwar.rl.common import GameSpec

    game = GameSpec(ruleset, config)
    rng = np.random.default_rng(0)
    clock = time.process_time
    spent = [0.0, 0.0, 0.0, 0.0]
    seed = done = 0
    state = game.new_game(f"{seed:032x}")
    while done < steps:
        if state.outcome() is not None:
            seed += 1
            state = game.new_game(f"{seed:032x}")
            continue
        seat = min(state.to_act())
        t0 = clock()
        view = state.view(seat)
        t1 = clock()
        game.encoder.encode(view)
        t2 = clock()
        mask = game.mask(state, seat)
        t3 = clock()
        game.apply(state, seat, int(rng.choice(np.flatnonzero(mask))), mask=mask)
        t4 = clock()
        for i, took in enumerate((t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            spent[i] += took
        done += 1
    return tuple(x / steps * 1e6 for x in spent)


def main() -> None:
    check_argv(__doc__, valued=("--only", "--count"), maybe_valued=("--parts",))
    rows = ROWS
    if "--only" in sys.argv:
        only = sys.argv[sys.argv.index("--only") + 1]
        rows = tuple(r for r in ROWS if label(*r) == only)
        if not rows and not only.startswith("pettingzoo "):
            sys.exit(f"no row {only!r}: one of {', '.join(label(*r) for r in ROWS)}")
    if "--parts" in sys.argv:
        at = sys.argv.index("--parts") + 1
        steps = int(sys.argv[at]) if at < len(sys.argv) and sys.argv[at].isdigit() else 4000
        print(f"CPU microseconds per step, {steps:,} steps a row")
        print(f"{'environment':<28} {'view':>7} {'encode':>7} {'mask':>7} {'apply':>7} {'all':>7}")
        for ruleset, config in rows:
            got = parts(ruleset, config, steps)
            cells = " ".join(f"{x:>7.0f}" for x in got)
            print(f"{label(ruleset, config):<28} {cells} {sum(got):>7.0f}")
        return
    if "--count" in sys.argv:
        # Exactly N steps of one row, the whole AEC loop (env.last() and env.step()),
        # printing nothing: for callgrind, where PettingZoo's own rows count too.
        at = sys.argv.index("--count") + 1
        count = int(sys.argv[at])
        only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
        classic = dict(classic_envs()) if only.startswith("pettingzoo ") else {}
        if only in classic:
            env = classic[only]
        elif len(rows) == 1:
            env = aec_env(rows[0][0], config=rows[0][1])
        else:
            sys.exit("--count plays one row: name it with --only")
        steps_per_second(env, 0.0, count)
        return
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "--only" else 3.0
    envs: list[tuple[str, Any]] = []
    for ruleset, config in rows:
        env = aec_env(ruleset, config=config)
        shape = env.observation_space(env.possible_agents[0])["observation"].shape
        n = env.action_space(env.possible_agents[0]).n
        envs.append((f"{label(ruleset, config)} (obs {shape}, {n} actions)", env))
    envs += classic_envs()
    print(f"{'environment':<60} {'steps/s':>10} {'games':>6}")
    for name, env in envs:
        steps, games, elapsed = steps_per_second(env, seconds)
        print(f"{name:<60} {steps / elapsed:>10,.0f} {games:>6}")


if __name__ == "__main__":
    main()
