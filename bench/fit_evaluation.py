"""Fit a rule set's position evaluation (``Ruleset.evaluation``) to the outcomes of games
between its heuristic bots, and say how good it is.

Run: ``.venv/bin/python bench/fit_evaluation.py RULESET [games] [--set NAME=VALUE ...]
[--every K]`` (default 200 games, a row every 5 actions).

The rule set's default bots play ``games`` games (seeds 0, 1, ...); every ``K``-th state
that is not over gives one row: the evaluation's features and the result of its side
(1 won, ½ a draw, 0 lost), so a long game gives more rows than a short one, as a
search meets long games' positions more often too. The games with seeds ≡ 4 (mod 5)
are held out whole (a game's rows are alike); a logistic
regression (Newton's method, a small ridge) is fitted to the rest. Printed: the weights
as a ``LogisticModel`` to paste into the rule set, then on the held-out rows the log loss
and Brier score of the fitted model, of the weights the rule set ships now, and of the
base rate (a constant), and the shipped model's calibration by decile.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from fogofwar.bots import make_bot
from fogofwar.core.game import Evaluation, LogisticModel, get_ruleset
from fogofwar.core.rng import stream

RIDGE = 1e-3


def play(
    ruleset: str, config: dict[str, object], games: int, every: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, Evaluation]:
    """(features, results, game index) rows of ``games`` heuristic games."""
    rs = get_ruleset(ruleset)
    cfg = rs.resolve_config(config)
    ev = rs.evaluation(cfg)
    if ev is None:
        raise SystemExit(f"{rs.id} has no evaluation")
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    index: list[int] = []
    for g in range(games):
        state = rs.new_game(cfg, g)
        bots = {}
        for seat in rs.seats(cfg):
            bot = make_bot(rs.default_bots.get(seat, "random"), rs.id)
            bot.reset(seat, rs.id, cfg)
            bots[seat] = bot
        rng = stream(g, "fit")
        got: list[tuple[float, ...]] = []
        n = 0
        while (outcome := state.outcome()) is None:
            if n % every == 0:
                got.append(ev.features(state))
            seat = min(state.to_act())
            legal = tuple(state.legal_actions(seat))
            state.apply_unchecked(bots[seat].choose(state.view(seat), legal, rng))
            n += 1
        side = [s for s in rs.seats(cfg) if ev.on_side(state, s)]
        won = bool(side) and side[0] in outcome.winners
        result = 0.5 if outcome.is_draw else float(won)
        rows += got
        results += [result] * len(got)
        index += [g] * len(got)
    return np.array(rows, dtype=float), np.array(results), np.array(index), ev


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Logistic regression with soft targets by Newton's method; [bias, weights...]."""
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    ridge = RIDGE * len(x) * np.eye(a.shape[1])
    ridge[0, 0] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(a @ w)))
        grad = a.T @ (p - y) + ridge @ w
        hess = (a * (p * (1 - p))[:, None]).T @ a + ridge + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return w


def scores(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = -np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))
    return float(loss), float(np.mean((p - y) ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ruleset")
    parser.add_argument("games", nargs="?", type=int, default=200)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--every", type=int, default=5)
    args = parser.parse_args()
    config = get_ruleset(args.ruleset).config_schema.parse_sets(args.set)
    start = time.perf_counter()
    x, y, g, ev = play(args.ruleset, config, args.games, args.every)
    held = g % 5 == 4
    print(
        f"{args.ruleset} {config or ''}: {args.games} games, {len(y)} rows "
        f"({held.sum()} held out), side {ev.side!r} won {np.mean(y[g % 5 != 4]):.3f} of "
        f"training rows, {time.perf_counter() - start:.0f} s of play"
    )
    w = fit(x[~held], y[~held])
    model = LogisticModel(
        tuple(ev.model.names), tuple(round(float(v), 4) for v in w[1:]), round(float(w[0]), 4)
    )
    print(f"fitted: {model!r}")
    base = np.full(held.sum(), np.mean(y[~held]))
    shipped = np.array([ev.model.chance(row) for row in x[held]])
    fitted = np.array([model.chance(row) for row in x[held]])
    for name, p in (("base rate", base), ("shipped", shipped), ("fitted", fitted)):
        loss, brier = scores(p, y[held])
        print(f"  held out, {name:9}: log loss {loss:.4f}, Brier {brier:.4f}")
    order = np.argsort(shipped)
    print("  shipped model by decile of its chance (mean chance → mean result):")
    for chunk in np.array_split(order, 10):
        if len(chunk):
            print(f"    {np.mean(shipped[chunk]):.3f} → {np.mean(y[held][chunk]):.3f}")


if __name__ == "__main__":
    main()
