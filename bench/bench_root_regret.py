"""How well a searching seat picks its move: the regret of each bot's choice at fixed
decisions, against a long paired evaluation of every legal action (issue 23).

Run: ``.venv/bin/python bench/bench_root_regret.py [--games 12] [--every 25]
[--worlds 200] [--budget 60] [--ruleset specter-ops] [--players 3] [--seats hunter]``.

The decisions: the default bots play games of seeds 100 to 100+GAMES-1; every
EVERY-th decision of a seat whose name starts with ``--seats`` (with at least three
legal actions, one of them a step) is kept, with that seat's view and legal actions.

The reference: each legal action is played in the same ``--worlds`` sampled worlds, its
rollout cut at 20 actions and scored by the rule set's evaluation (the search's own
model of the position), as ``ismcts:root=paired`` does; an action's value ``Q`` is its
mean over those worlds. The regret of a choice is ``max Q - Q(choice)``: 0 for the best
action, the chance to win it gives away otherwise (as the model counts it).

Printed for each bot — the seat's heuristic, ``ismcts`` with its tree (``--budget``
iterations, heuristic rollouts cut at 20) and ``ismcts:root=paired`` at the same budget
and at a few times it — the mean regret over the decisions (two streams each), how often
it chose a best action, and its CPU seconds a decision; and how far apart the actions
are (the median range of ``Q`` at a decision) and how much common worlds narrow the
comparison of two actions (the variance of the difference of their values in one world,
drawn independently over drawn in common).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from fogofwar.bots import IsmctsBot, make_bot
from fogofwar.core.game import Action, PlayerView, get_ruleset
from fogofwar.core.rng import stream

Decision = tuple[int, int, str, PlayerView, tuple[Action, ...]]


def decisions(
    ruleset: str, config: dict[str, object], games: int, every: int, seats: str
) -> list[Decision]:
    """(seed, action number, seat, view, legal) of every EVERY-th kept decision."""
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(config)
    out: list[Decision] = []
    k = 0
    for seed in range(100, 100 + games):
        state = rs.new_game(cfg, seed)
        bots = {}
        for s in rs.seats(cfg):
            bots[s] = make_bot(rs.default_bots[s], rs.id)
            bots[s].reset(s, rs.id, cfg)
        rng = stream(seed, "bench-root-regret")
        n = 0
        while not state.is_over:
            seat = min(state.to_act())
            legal = tuple(state.legal_actions(seat))
            view = state.view(seat)
            if seat.startswith(seats) and len(legal) >= 3 and any(a.kind == "step" for a in legal):
                k += 1
                if k % every == 0:
                    out.append((seed, n, seat, view, legal))
            state.apply(bots[seat].choose(view, legal, rng.fork(n)))
            n += 1
    return out


def reference(
    ruleset: str, config: dict[str, object], d: Decision, worlds: int
) -> tuple[dict[Action, float], list[float]]:
    """Each action's mean value over ``worlds`` common worlds, and for each action but
    the best the ratio var(independent difference) / var(paired difference)."""
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(config)
    seed, n, seat, view, legal = d
    bot = IsmctsBot(iterations=1, rollout="heuristic", depth=20, root="paired")
    bot.reset(seat, rs.id, cfg)
    root = stream(seed, "bench-root-regret-reference", n)
    values: dict[Action, list[float]] = {a: [] for a in legal}
    for w in range(worlds):
        for a in legal:
            world = rs.sample_world(view, root.fork("world", w))
            values[a].append(bot._rollout(world, root.fork("play", w), a))
    q = {a: statistics.fmean(v) for a, v in values.items()}
    best = max(legal, key=q.__getitem__)
    ratios = []
    for a in legal:
        if a == best:
            continue
        paired = statistics.pvariance([x - y for x, y in zip(values[best], values[a], strict=True)])
        apart = statistics.pvariance(values[best]) + statistics.pvariance(values[a])
        if paired > 0:
            ratios.append(apart / paired)
    return q, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="specter-ops")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seats", default="hunter")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--budget", type=int, default=60)
    args = parser.parse_args()
    config: dict[str, object] = {"players": args.players} if args.ruleset == "specter-ops" else {}
    rs = get_ruleset(args.ruleset)
    cfg = rs.resolve_config(config)
    points = decisions(args.ruleset, config, args.games, args.every, args.seats)
    print(f"{len(points)} decisions of {args.seats}* seats, reference of {args.worlds} worlds")
    refs = [reference(args.ruleset, config, d, args.worlds) for d in points]
    ranges = [max(q.values()) - min(q.values()) for q, _ in refs]
    ratios = [r for _, rs_ in refs for r in rs_]
    print(f"the actions' values at a decision: median range {statistics.median(ranges):.4f}")
    print(
        "variance of a difference, independent worlds over common ones: median "
        f"{statistics.median(ratios):.1f}, quartiles "
        + ", ".join(f"{x:.1f}" for x in statistics.quantiles(ratios, n=4))
    )
    b = args.budget
    bots: dict[str, Callable[[], object]] = {
        "heuristic": lambda: make_bot(rs.default_bots[points[0][2]], rs.id),
        f"ismcts, tree, {b}": lambda: make_bot(
            f"ismcts:iterations={b},rollout=heuristic,depth=20", rs.id
        ),
        f"ismcts, paired, {b}": lambda: make_bot(
            f"ismcts:iterations={b},rollout=heuristic,depth=20,root=paired", rs.id
        ),
        f"ismcts, paired, {2 * b}": lambda: make_bot(
            f"ismcts:iterations={2 * b},rollout=heuristic,depth=20,root=paired", rs.id
        ),
    }
    print(f"{'bot':24} {'mean regret':>12} {'best chosen':>12} {'CPU s a decision':>17}")
    for name, new in bots.items():
        regrets: list[float] = []
        best = 0
        spent = 0.0
        for (seed, n, seat, view, legal), (q, _) in zip(points, refs, strict=True):
            for k in range(2):
                bot = new()
                bot.reset(seat, rs.id, cfg)  # type: ignore[attr-defined]
                t = time.process_time()
                choice = bot.choose(view, legal, stream(seed, "bench-root-regret", n, k))  # type: ignore[attr-defined]
                spent += time.process_time() - t
                regret = max(q.values()) - q[choice]
                regrets.append(regret)
                best += regret == 0
        print(
            f"{name:24} {statistics.fmean(regrets):12.4f} {best:6}/{len(regrets):<5} "
            f"{spent / len(regrets):17.3f}"
        )


if __name__ == "__main__":
    main()
