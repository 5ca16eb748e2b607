"""``ismcts``: iterations per second and strength against the heuristic bots.

Run: ``.venv/bin/python bench/bench_ismcts.py [games] [--seconds S | --iterations N]
[--rollout random|heuristic] [--depth D] [--after N] [--only RULESET] [--seat SEAT]
[--set NAME=VALUE] [--strength-only | --speed-only]``
(default 40 games a pairing at S = 1.0 s a decision with heuristic rollouts;
``--iterations`` gives an iteration budget instead, the same moves on any machine;
``--depth`` cuts rollouts after D actions and scores the rule set's evaluation, and
adds rows with it to the speed table; ``--after N`` times the first decision with a
choice after N actions of the default bots instead of a new game's first, which in some
rule sets is a setup choice unlike the rest of the game).

* **Speed**: iterations per second of ``ismcts`` (random and heuristic rollouts) from the
  first decision of each rule set that samples worlds, in the same run as OpenSpiel's
  Python ISMCTS (``open_spiel.python.algorithms.ismcts``, random rollouts) on Leduc
  poker, when the ``openspiel`` extra is installed.
* **Fixed work** (``--fixed N``): ``N`` iterations (heuristic rollouts cut at 20 unless
  ``--rollout``/``--depth`` say otherwise) at the first decision with a choice after
  ``--after`` actions (default 60) of games 1-3 of each rule set, with the actions chosen
  and the CPU seconds: the same work every run, to compare two versions of the code (or,
  under valgrind's callgrind, their instructions: ``PYTHONHASHSEED=0 PYTHONMALLOC=malloc
  valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python
  bench/bench_ismcts.py --fixed N --only RULESET``, with ``N`` and with 1, the difference
  over ``3 (N - 1)`` an iteration's instructions).
* **Strength**: for every seat of every rule set that samples worlds, ``ismcts`` at the
  time budget against the rule set's heuristic bot on the same seat (the other seats
  keep their heuristic bots), the same game seeds for both: the seat's win rates and the
  difference with Newcombe's 95% interval.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

from fogofwar.core.game import get_ruleset
from fogofwar.core.rng import stream
from fogofwar.sim.runner import run_batch
from fogofwar.sim.stats import difference

RULESETS = ("specter-ops", "zero-dark", "rock-n-roll", "warfighter")


def decision(ruleset: str, seed: int, after: int) -> tuple[Any, str]:
    """The game of ``seed`` (default configuration) at its first decision with a choice
    after ``after`` actions of the rule set's default bots (a new game's first decision
    when ``after`` is 0): the state and the seat to choose."""
    from fogofwar.bots import make_bot

    rs = get_ruleset(ruleset)
    state = rs.new_game({}, seed)
    seat = min(state.to_act())
    if after:
        cfg = state.config
        bots = {}
        for s in rs.seats(cfg):
            bots[s] = make_bot(rs.default_bots.get(s, "random"), rs.id)
            bots[s].reset(s, rs.id, cfg)
        play = stream(seed, "bench", "before")
        done = 0
        # A game shorter than ``after`` (a Warfighter mission) times its last choice.
        last = state.clone(), seat
        while not state.is_over:
            seat = min(state.to_act())
            legal = tuple(state.legal_actions(seat))
            if len(legal) > 1:
                if done >= after:
                    break
                last = state.clone(), seat
            state.apply(bots[seat].choose(state.view(seat), legal, play))
            done += 1
        if state.is_over:
            state, seat = last
    return state, seat


def fixed(ruleset: str, iterations: int, rollout: str, depth: int, after: int) -> None:
    """The same search work every run: ``iterations`` iterations at the decision after
    ``after`` actions of games 1-3, printed with the actions chosen (which a change of
    speed must keep) and the CPU seconds (``time.process_time``)."""
    from fogofwar.bots import make_bot

    rs = get_ruleset(ruleset)
    chosen: list[str] = []
    spent = 0.0
    for seed in (1, 2, 3):
        state, seat = decision(ruleset, seed, after)
        bot = make_bot(f"ismcts:iterations={iterations},rollout={rollout},depth={depth}", rs.id)
        bot.reset(seat, rs.id, state.config)
        start = time.process_time()
        action = bot.choose(state.view(seat), tuple(state.legal_actions(seat)), stream(1, "bench"))
        spent += time.process_time() - start
        chosen.append(f"{seat}:{action}")
    print(
        f"  {ruleset:<12} {' '.join(chosen)}  {spent:.2f} CPU s, "
        f"{3 * iterations / spent:,.0f} iterations/s"
    )


def our_rate(ruleset: str, rollout: str, seconds: float, depth: int = 0, after: int = 0) -> float:
    """Iterations per second from a new game's first decision, or from the first decision
    with a choice after ``after`` actions of the rule set's default bots (searched for
    ``seconds``)."""
    from fogofwar.bots import make_bot
    from fogofwar.bots.ismcts import IsmctsBot

    rs = get_ruleset(ruleset)
    state, seat = decision(ruleset, 1, after)
    bot = make_bot(
        f"ismcts:iterations=1000000,seconds={seconds},rollout={rollout},depth={depth}", rs.id
    )
    assert isinstance(bot, IsmctsBot)
    bot.reset(seat, rs.id, state.config)
    start = time.perf_counter()
    bot.choose(state.view(seat), tuple(state.legal_actions(seat)), stream(1, "bench"))
    return bot.last_iterations / (time.perf_counter() - start)


def peer_rate(seconds: float) -> float | None:
    """OpenSpiel's Python ISMCTS on Leduc poker, iterations per second (None without
    OpenSpiel)."""
    try:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
    except ImportError:
        return None
    game = pyspiel.load_game("leduc_poker")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    sims = 200
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(2))
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        bot.step(state)
        done += sims
    return done / (time.perf_counter() - start)


def strength(
    ruleset: str,
    games: int,
    budget: str,
    rollout: str,
    *,
    sets: Sequence[str] = (),
    only_seat: str = "",
) -> None:
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(rs.config_schema.parse_sets(sets))
    here = rs.seats(cfg)
    base = {s: b for s, b in rs.default_bots.items() if s in here}
    sides = rs.metadata.sides
    for seat in here:
        if only_seat and seat != only_seat:
            continue
        side = sides.get(seat, seat)
        seats = {**base, seat: f"ismcts:{budget},rollout={rollout}"}
        start = time.perf_counter()
        searched = run_batch(
            rs, games=games, seed="ismcts-bench", seats=seats, workers=1, config_overrides=cfg
        )
        took = time.perf_counter() - start
        plain = run_batch(
            rs, games=games, seed="ismcts-bench", seats=base, workers=1, config_overrides=cfg
        )
        a = searched.stats().wins[side].successes
        b = plain.stats().wins[side].successes
        d = difference(a, games, b, games)
        print(
            f"  {ruleset} {seat:<8} ismcts {a / games:6.1%}  heuristic {b / games:6.1%}  "
            f"difference {d.estimate:+.1%} [{d.interval.low:+.1%}, {d.interval.high:+.1%}]"
            f"  ({took:.0f} s)"
        )


def arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line (see the module doc). An option's value is never read as the
    games: ``--only specter-ops --depth 20`` leaves the games at their default."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=40, help="games a pairing")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, default=1.0, help="a decision's time")
    budget.add_argument("--iterations", type=int, help="a decision's iterations instead")
    parser.add_argument("--rollout", choices=("random", "heuristic"), help="(heuristic)")
    parser.add_argument(
        "--depth", type=int, help="cut rollouts after D actions (0: none; --fixed: 20)"
    )
    parser.add_argument("--after", type=int, help="the decision after N actions (0; --fixed: 60)")
    parser.add_argument("--only", default="", metavar="RULESET")
    parser.add_argument("--seat", default="", help="the strength rows of one seat only")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--fixed", type=int, metavar="N", help="N iterations, the same work")
    rows = parser.add_mutually_exclusive_group()
    rows.add_argument("--strength-only", action="store_true")
    rows.add_argument("--speed-only", action="store_true")
    return parser.parse_args(argv)


def main() -> None:
    args = arguments()
    if args.only and args.only not in RULESETS:
        sys.exit(f"--only {args.only!r}: one of {', '.join(RULESETS)}")
    searchable = [
        r
        for r in RULESETS
        if get_ruleset(r).can_sample_worlds and (not args.only or r == args.only)
    ]
    if args.fixed is not None:
        # The same work every run: heuristic rollouts cut at 20, 60 actions in, unless
        # the options say otherwise.
        kind = args.rollout or "heuristic"
        cut = 20 if args.depth is None else args.depth
        start = 60 if args.after is None else args.after
        print(
            f"ismcts, {args.fixed} iterations, rollout={kind}, depth={cut}, after {start} actions:"
        )
        for r in searchable:
            fixed(r, args.fixed, kind, cut, start)
        return
    depth = args.depth or 0
    after = args.after or 0
    budget = f"iterations=1000000,seconds={args.seconds}"
    if args.iterations is not None:
        budget = f"iterations={args.iterations}"
    rollout = args.rollout or "heuristic"
    if depth:
        rollout += f",depth={depth}"
    if not args.strength_only:
        where = (
            f"the first decision after {after} actions" if after else "a new game's first decision"
        )
        print(f"ismcts iterations per second (one core, {where}, 3 s each):")
        for r in searchable:
            for kind in ("random", "heuristic"):
                print(f"  {r:<12} rollout={kind:<9} {our_rate(r, kind, 3.0, 0, after):>10,.0f}")
                if depth:
                    rate = our_rate(r, kind, 3.0, depth, after)
                    print(f"  {r:<12} rollout={kind:<9} depth={depth:<4} {rate:>10,.0f}")
        peer = peer_rate(3.0)
        if peer is None:
            print("  (OpenSpiel not installed: pip install -e '.[openspiel]' for the peer)")
        else:
            print(f"  OpenSpiel Python ISMCTS, leduc_poker, random rollouts {peer:>10,.0f}")
    if args.speed_only:
        return
    games = args.games
    print(f"strength: ismcts:{budget},rollout={rollout} against the heuristic, {games} games")
    for r in searchable:
        strength(r, games, budget, rollout, sets=args.set, only_seat=args.seat)


if __name__ == "__main__":
    main()
