"""Train a policy for one seat of one rule set and show that it beats the random bot.

The seat is Rock-n-Roll's ``vpa`` in a one-round match (``rounds=1``) against a random
``vietnam``: short games (about 55 decisions of ours), and a random player wins
about half of them, so there is room to do better and a result within minutes.

The learner is plain numpy — a linear softmax policy over the legal actions (the mask):
each action's logit is a bias of its index plus a linear function of the observation
encoder's features shared by every action of its kind (``deploy``, ``attack``, ``end``…),
trained by REINFORCE with a running-mean baseline. Why not a deep RL framework: the
environment is the slow part (about 20 games a second on one core), a linear policy
learns what matters here (which kinds of action pay, in which situation) in a thousand
games or two, and numpy is already installed: no torch, no GPU, nothing to configure.
Anything that speaks Gymnasium (Stable-Baselines3's MaskablePPO via ``env.action_masks()``,
CleanRL) can take :func:`fogofwar.rl.single_seat_env` instead.

Run: ``.venv/bin/python examples/train_seat.py [training_seconds] [evaluation_games]``
(default 150 s and 400 games; about 3 minutes in all). It prints the learning
curve, then the trained policy's and the random bot's win rates on the same evaluation
games (seeds neither saw in training) with the difference and its 95% interval
(Newcombe, :func:`fogofwar.sim.stats.difference`).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from fogofwar.rl import single_seat_env
from fogofwar.rl.single import SingleSeatEnv
from fogofwar.sim.stats import difference, proportion

RULESET, SEAT, CONFIG, OPPONENTS = "rock-n-roll", "vpa", {"rounds": 1}, {"vietnam": "random"}
#: Training games use seeds from 0; evaluation games from here (never trained on).
EVAL_SEEDS = 1_000_000


class LinearPolicy:
    """``softmax(b[a] + c[k] + V[k] . x)`` over the legal actions ``a`` of observation
    ``x``, where ``k`` is the kind of action ``a`` (``deploy``, ``attack``, ``end``...):
    the kind's weights are shared by all its indices, so what is learnt of one attack
    carries to every other, and the bias per index tells them apart."""

    def __init__(self, features: int, kinds: np.ndarray, rng: np.random.Generator) -> None:
        self.kinds = kinds  # the kind number of each action index
        n_kinds = int(kinds.max()) + 1
        self.v = np.zeros((n_kinds, features), dtype=np.float32)
        self.c = np.zeros(n_kinds, dtype=np.float32)
        self.b = np.zeros(len(kinds), dtype=np.float32)
        self.rng = rng

    def probabilities(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        k = self.kinds[legal]
        logits = self.b[legal] + self.c[k] + (self.v @ x)[k]
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(
        self, x: np.ndarray, legal: np.ndarray, *, greedy: bool = False
    ) -> tuple[int, np.ndarray]:
        p = self.probabilities(x, legal)
        i = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        return i, p

    def update(
        self,
        steps: list[tuple[np.ndarray, np.ndarray, np.ndarray, int]],
        advantage: float,
        lr: float,
    ) -> None:
        """REINFORCE: raise the log-probability of every action taken, in proportion to
        how much better than usual the game went."""
        for x, legal, p, i in steps:
            g = -p * advantage
            g[i] += advantage
            k = self.kinds[legal]
            gk = np.bincount(k, weights=g, minlength=len(self.c)).astype(np.float32)
            self.b[legal] += lr * g
            self.c += lr * gk
            self.v += lr * gk[:, None] * x[None, :]


def features(obs: dict[str, np.ndarray]) -> np.ndarray:
    return obs["observation"].reshape(-1)


def play(
    env: SingleSeatEnv,
    policy: LinearPolicy | None,
    seed: int,
    rng: np.random.Generator,
    *,
    greedy: bool = False,
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, np.ndarray, int]]]:
    """One game: (reward, the policy's steps). ``policy=None`` plays uniformly at random."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        if policy is None:
            action = int(rng.choice(legal))
        else:
            x = features(obs)
            i, p = policy.act(x, legal, greedy=greedy)
            steps.append((x, legal, p, i))
            action = int(legal[i])
        obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return float(reward), steps


def arguments(argv: list[str]) -> tuple[float, int]:
    """(training seconds, evaluation games) from the command line; ``--help`` prints
    this script's docs, and anything else is refused in a line saying what is
    expected (exit 2)."""
    if "-h" in argv or "--help" in argv:
        print(__doc__)
        sys.exit(0)
    usage = "usage: train_seat.py [training_seconds] [evaluation_games] (--help)"
    try:
        if len(argv) > 2:
            raise ValueError
        seconds = float(argv[0]) if argv else 150.0
        games = int(argv[1]) if len(argv) > 1 else 400
        if not seconds > 0 or games < 1:
            raise ValueError
    except ValueError:
        print(f"{usage}: seconds above 0 and a whole number of games from 1, not "
              f"{' '.join(argv)!r}", file=sys.stderr)  # fmt: skip
        sys.exit(2)
    return seconds, games


def main() -> None:
    seconds, eval_games = arguments(sys.argv[1:])
    env = single_seat_env(RULESET, SEAT, opponents=OPPONENTS, config=CONFIG, illegal="raise")
    rng = np.random.default_rng(0)
    size = int(np.prod(env.observation_space["observation"].shape))
    encoding = env.game.encoding
    names = sorted(encoding.kinds())
    kinds = np.array([names.index(encoding.decode(i, SEAT).kind) for i in range(encoding.size)])
    policy = LinearPolicy(size, kinds, rng)
    print(f"{RULESET} seat {SEAT} {CONFIG} against {OPPONENTS}:", end=" ")
    print(f"{size} features, {env.action_space.n} actions")

    baseline, lr, games, recent = 0.0, 0.05, 0, []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        reward, steps = play(env, policy, games, rng)
        policy.update(steps, reward - baseline, lr / len(steps) ** 0.5)
        baseline += 0.02 * (reward - baseline)
        recent.append(reward > 0)
        games += 1
        if games % 250 == 0:
            took = time.perf_counter() - start
            print(f"  {games:5d} games, {took:5.0f} s: won {np.mean(recent):.0%} of the last 250")
            recent = []

    wins = {"trained": 0, "random": 0}
    for k in range(eval_games):
        seed = EVAL_SEEDS + k
        wins["trained"] += play(env, policy, seed, rng, greedy=True)[0] > 0
        wins["random"] += play(env, None, seed, rng)[0] > 0
    trained, random_ = (
        proportion(wins["trained"], eval_games),
        proportion(wins["random"], eval_games),
    )
    d = difference(wins["trained"], eval_games, wins["random"], eval_games)
    took = time.perf_counter() - start
    print(f"trained on {games} games; {took:.0f} s in all; evaluation on {eval_games} new games:")
    for label, p in (("trained policy (greedy)", trained), ("random bot", random_)):
        low, high = p.interval.low, p.interval.high
        print(f"  {label:<24} won {p.rate:6.1%}  95% CI [{low:.1%}, {high:.1%}]")
    verdict = "beats the random bot" if d.interval.low > 0 else "not shown better than random"
    low, high = d.interval.low, d.interval.high
    print(f"  difference {d.estimate:+.1%}, 95% CI [{low:+.1%}, {high:+.1%}]: {verdict}")


if __name__ == "__main__":
    main()
