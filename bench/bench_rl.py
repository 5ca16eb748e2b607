"""The RL environments' speed: AEC environment steps per second for every rule set,
beside PettingZoo's own classic environments (Connect Four, tic-tac-toe) in the same run.

Run: ``.venv/bin/python bench/bench_rl.py [seconds]`` (default 3 a row). Each row plays
random legal actions, drawn under the action mask, through ``env.last()`` (the acting
seat's observation: its view encoded, and its mask) and ``env.step()``, restarting a
finished game with the next seed; dead steps (telling each seat the game is over) are
not counted. One core; the figures are this machine's, ±20% between runs.
"""

from __future__ import annotations

import importlib.util
import sys
import time
import types
from typing import Any

import numpy as np

from fogofwar.rl import aec_env

ROWS: tuple[tuple[str, dict[str, Any] | None], ...] = (
    ("warfighter", None),
    ("rock-n-roll", None),
    ("zero-dark", None),
    ("specter-ops", {"players": 2}),
    ("specter-ops", {"players": 3}),
    ("specter-ops", {"players": 5}),
)


def steps_per_second(env: Any, seconds: float) -> tuple[int, int, float]:
    """Random masked play for about ``seconds``: (steps, games finished, elapsed)."""
    rng = np.random.default_rng(0)
    steps = games = 0
    seed = 0
    env.reset(seed=seed)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
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


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    rows: list[tuple[str, Any]] = []
    for ruleset, config in ROWS:
        label = ruleset + "".join(f" {k}={v}" for k, v in (config or {}).items())
        env = aec_env(ruleset, config=config)
        shape = env.observation_space(env.possible_agents[0])["observation"].shape
        n = env.action_space(env.possible_agents[0]).n
        rows.append((f"{label} (obs {shape}, {n} actions)", env))
    rows += classic_envs()
    print(f"{'environment':<60} {'steps/s':>10} {'games':>6}")
    for label, env in rows:
        steps, games, elapsed = steps_per_second(env, seconds)
        print(f"{label:<60} {steps / elapsed:>10,.0f} {games:>6}")


if __name__ == "__main__":
    main()
