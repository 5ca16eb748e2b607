"""Where Specter Ops' exact possibility map spends its time with characters (issue 20's
starting point): random play at 4 and 5 players with every card, the largest number of
parts the agent's map walks, its keys (role, kit class, hidden uses), kit classes and
possible kits then, and the slowest single ``apply``; ``--profile`` adds cProfile's top
functions.

Run: ``.venv/bin/python bench/profile_possibility_map.py [--actions 700] [--seconds 90]
[--profile]``.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.games.specter_ops.state import SpecterOpsState


def play(config: dict[str, object], actions: int, seconds: float) -> str:
    rs = get_ruleset("specter-ops")
    state = rs.new_game(config, 0)
    assert isinstance(state, SpecterOpsState)
    rng = stream(0, "bench")
    done, most, worst, keys, classes, kits = 0, 0, 0.0, 0, 0, 0
    start = time.perf_counter()
    while not state.is_over and done < actions and time.perf_counter() - start < seconds:
        (seat,) = state.to_act()
        action = rng.choice(state.legal_actions(seat))
        t = time.perf_counter()
        state.apply(action)
        worst = max(worst, time.perf_counter() - t)
        done += 1
        knowledge = state.agents[0].knowledge
        if knowledge.size > most:
            most = knowledge.size
            keys = len(knowledge.parts)
            classes = len(knowledge.classes)
            kits = len(knowledge.possible_kits())
    rate = done / (time.perf_counter() - start)
    return (
        f"{config['players']} players: {done} actions, {rate:.0f}/s, at most {most} parts "
        f"(then {keys} keys, {classes} kit classes, {kits} kits), slowest apply "
        f"{worst * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=700)
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    profile = cProfile.Profile() if args.profile else None
    if profile:
        profile.enable()
    for players in (4, 5):
        print(play({"players": players, "characters": True}, args.actions, args.seconds))
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
