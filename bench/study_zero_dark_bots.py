"""Zero Dark bots: the heuristic team (``zd-team``) against the random one, per mission.

Run: ``.venv/bin/python bench/study_zero_dark_bots.py [games] [--workers W]`` (defaults:
150 games per mission and bot, 2 workers; 3 missions, so 450 missions a bot). The same
batches as ``fogofwar sim zero-dark --set mission=NAME --seat team=BOT -n GAMES``:

* the solo missions (``the-spy``, ``the-boss``) once with each bot at ``team``;
* the Versus mission (``dead-drop``) with ``zd-team`` against ``random`` in both seatings
  (half the games each), each side's success counted.

It prints each mission's success rate per bot (95% Wilson interval), the rates per
priority task (the solo missions set it; in Versus each Spook's choice at the table,
read from the records), and the heuristic's advantage over all missions as a difference
with Newcombe's 95% interval. A mission succeeds for a side when all its win conditions
hold (ZD-C8, docs/missions.md): its seat is among the outcome's winners.

Batch seeds are fixed, so a run repeats exactly (any worker count).
"""

from __future__ import annotations

import time
from collections import Counter

from _args import games_and_workers
from fogofwar.core.game import get_ruleset
from fogofwar.sim.runner import BatchResult, run_batch
from fogofwar.sim.stats import difference, wilson_interval

BOTS = ("random", "zd-team")


def _batch(mission: str, seats: dict[str, str], games: int, workers: int) -> BatchResult:
    return run_batch(
        get_ruleset("zero-dark"),
        games=games,
        seed=f"zd-bots-{mission}",
        seats=seats,
        config_overrides={"mission": mission},
        workers=workers,
        records=True,
    )


def _tasks(result: BatchResult, game: int) -> dict[str, str]:
    """Each seat's priority task in one game: the mission's, or its ``prepare`` choice."""
    record = result.games[game].record
    chosen = {str(a.seat): str(a.args[0]) for a in record.actions if a.kind == "prepare"}
    task = str(result.config.get("task", "none"))
    return {seat: chosen.get(seat, task) for seat in result.seats}


def _rate(label: str, wins: int, games: int) -> str:
    ci = wilson_interval(wins, games)
    return f"{label}{wins / games:6.1%} [{ci.low:5.1%}, {ci.high:5.1%}]  ({wins}/{games})"


def main() -> None:
    games, workers = games_and_workers(150, 2)
    start = time.perf_counter()
    # (bot, mission) -> [successes, missions]; (bot, task) likewise.
    by_mission: dict[tuple[str, str], list[int]] = {}
    by_task: dict[tuple[str, str], list[int]] = {}

    def count(bot: str, mission: str, task: str, won: bool) -> None:
        for table, key in ((by_mission, (bot, mission)), (by_task, (bot, task))):
            cell = table.setdefault(key, [0, 0])
            cell[0] += won
            cell[1] += 1

    for mission in ("the-spy", "the-boss"):
        for bot in BOTS:
            result = _batch(mission, {"team": bot}, games, workers)
            for i, game in enumerate(result.games):
                count(bot, mission, _tasks(result, i)["team"], "team" in game.outcome.winners)
    half = games // 2
    for team1, team2 in (("zd-team", "random"), ("random", "zd-team")):
        result = _batch("dead-drop", {"team1": team1, "team2": team2}, half, workers)
        for i, game in enumerate(result.games):
            tasks = _tasks(result, i)
            for seat, bot in (("team1", team1), ("team2", team2)):
                count(bot, "dead-drop", tasks[seat], seat in game.outcome.winners)

    print(f"Zero Dark bots: {games} missions per mission and bot (Versus: sides in both seats)")
    print("success rate per mission (95% Wilson interval):")
    for mission in ("the-spy", "the-boss", "dead-drop"):
        for bot in BOTS:
            wins, n = by_mission[bot, mission]
            print(_rate(f"  {mission:<10} {bot:<8} ", wins, n))
    print("success rate per priority task:")
    tasks = sorted({task for _, task in by_task})
    for task in tasks:
        for bot in BOTS:
            if (bot, task) in by_task:
                wins, n = by_task[bot, task]
                print(_rate(f"  {task:<14} {bot:<8} ", wins, n))
    totals = Counter[str]()
    trials = Counter[str]()
    for (bot, _), (wins, n) in by_mission.items():
        totals[bot] += wins
        trials[bot] += n
    for bot in BOTS:
        print(_rate(f"all missions   {bot:<8} ", totals[bot], trials[bot]))
    d = difference(totals["zd-team"], trials["zd-team"], totals["random"], trials["random"])
    lo, hi = d.interval.low, d.interval.high
    print(f"zd-team − random, all missions: {d.estimate:+.1%} [{lo:+.1%}, {hi:+.1%}]")
    for mission in ("the-spy", "the-boss", "dead-drop"):
        (w1, n1), (w2, n2) = by_mission["zd-team", mission], by_mission["random", mission]
        d = difference(w1, n1, w2, n2)
        print(
            f"zd-team − random, {mission}: {d.estimate:+.1%} "
            f"[{d.interval.low:+.1%}, {d.interval.high:+.1%}]"
        )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
