"""The Gymnasium single-seat environment: Gymnasium's checker, the bots, illegal
actions, truncation."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from fogofwar.core.errors import IllegalActionError
from fogofwar.rl import single_seat_env

from .helpers import masked_choice

SEATS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("warfighter", "squad", None),
    ("rock-n-roll", "vpa", None),
    ("zero-dark", "team", None),
    ("specter-ops", "agent", {"players": 2}),
    ("specter-ops", "hunter2", {"players": 3}),
]


@pytest.mark.parametrize(
    ("ruleset", "seat", "config"), SEATS, ids=[f"{r}-{s}" for r, s, _ in SEATS]
)
def test_check_env(ruleset: str, seat: str, config: dict[str, Any] | None) -> None:
    env = single_seat_env(ruleset, seat, config=config, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec": the environment is not registered
        check_env(env)
    obs, info = env.reset(seed=1)
    assert np.array_equal(obs["action_mask"], info["action_mask"])
    assert obs["action_mask"].any()
    assert isinstance(env.render(), str)


def test_default_opponents_are_the_rule_sets_bots() -> None:
    env = single_seat_env("specter-ops", "agent", config={"players": 3})
    assert env.opponents == {"hunter1": "so-hunter", "hunter2": "so-hunter"}
    env = single_seat_env("rock-n-roll", "vietnam", opponents={"vpa": "random"})
    assert env.opponents == {"vpa": "random"}
    with pytest.raises(ValueError, match="other seats"):
        single_seat_env("rock-n-roll", "vietnam", opponents={"vietnam": "random"})
    with pytest.raises(ValueError, match="no seat"):
        single_seat_env("rock-n-roll", "nobody")


def _episode(env: Any, seed: int, rng_seed: int) -> tuple[list[int], float, bool, bool]:
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    actions = []
    while True:
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        a = masked_choice(rng, obs["action_mask"])
        actions.append(a)
        obs, reward, term, trunc, info = env.step(a)
        if term or trunc:
            return actions, float(reward), term, trunc


def test_a_whole_game_against_bots_is_deterministic() -> None:
    env = single_seat_env("rock-n-roll", "vpa", config={"rounds": 1})
    first = _episode(env, 7, 0)
    assert first[2] and first[1] in (-1.0, 0.0, 1.0)
    assert _episode(env, 7, 0) == first
    outcome = env.game_state.outcome()
    assert outcome is not None
    want = 1.0 if "vpa" in outcome.winners else 0.0 if outcome.is_draw else -1.0
    assert first[1] == want


def test_illegal_action_lose_or_raise() -> None:
    env = single_seat_env("warfighter", "squad")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    after, reward, term, trunc, info = env.step(illegal)
    assert (reward, term, trunc) == (-1.0, True, False)
    assert info["illegal"]["reason"] and info["illegal"]["action"]
    assert np.array_equal(after["observation"], obs["observation"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)

    strict = single_seat_env("warfighter", "squad", illegal="raise")
    obs, _ = strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        strict.step(10**6)
    again, *_ = strict.step(masked_choice(np.random.default_rng(0), obs["action_mask"]))
    assert again["observation"].shape == obs["observation"].shape


def test_what_is_not_an_element_of_the_action_space_raises_in_either_mode() -> None:
    # QA: a shape-(1,) array (a batched policy's slip), a float or None was scored as a
    # lost game under illegal="lose", with only info["illegal"]["error"]: every episode
    # a one-step loss, and the bug hidden from the training.
    env = single_seat_env("rock-n-roll", "vpa")
    obs, _ = env.reset(seed=7)
    a = int(np.flatnonzero(obs["action_mask"])[0])
    for bad in (np.array([a]), float(a), None, "0", 10**6, -1):
        with pytest.raises(ValueError, match="action"):
            env.step(bad)  # type: ignore[arg-type]
    # ... and changed nothing: the legal index plays, in each form Gymnasium's Discrete
    # holds (an int, a numpy integer, a 0-d integer array).
    assert env.action_space.contains(np.array(a)) and env.action_space.contains(np.int64(a))
    _, reward, _, _, info = env.step(np.array(a))
    assert "illegal" not in info and reward in (0.0, 1.0, -1.0)


def test_max_cycles_truncates() -> None:
    env = single_seat_env("warfighter", "squad", max_cycles=3)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for i in range(3):
        obs, reward, term, trunc, _ = env.step(masked_choice(rng, obs["action_mask"]))
        if term:
            break
        assert trunc == (i == 2) and reward == 0.0


def test_max_cycles_counts_every_seat_and_stops_exactly_there() -> None:
    # docs/rl.md: truncated after exactly max_cycles actions, every seat's counted,
    # with info["truncated_after"] as in the AEC environment (the learner got one action
    # past the limit, and the info lacked it).
    probe = single_seat_env("specter-ops", "agent", config={"players": 2})
    probe.reset(seed=1)
    limit = probe.num_steps + 2  # the other seats' opening, then two more actions
    env = single_seat_env("specter-ops", "agent", config={"players": 2}, max_cycles=limit)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    trunc = term = False
    info: dict[str, Any] = {}
    while not (trunc or term):
        obs, _, term, trunc, info = env.step(masked_choice(rng, obs["action_mask"]))
    assert trunc and env.num_steps == limit and info["truncated_after"] == limit


def test_a_max_cycles_used_up_before_the_seat_acts_is_refused_at_reset() -> None:
    # The other seats' opening (here the hunters' characters and the first moves) took
    # every cycle: "never acted in 100 games" named no cause.
    env = single_seat_env("specter-ops", "agent", config={"players": 2}, max_cycles=1)
    with pytest.raises(ValueError, match="max_cycles=1 ends the game before agent acts"):
        env.reset(seed=1)


def test_a_mask_never_vouches_for_a_state_it_was_not_made_of() -> None:
    """A step the last observation's mask allows is applied without a second check; once
    the state has moved on (an opponent's bot failing mid-turn), that mask is no longer
    trusted and the rules refuse what they refuse."""
    env = single_seat_env("rock-n-roll", "vpa", illegal="raise")
    obs, _ = env.reset(seed=1)
    bot = env.unwrapped._bots["vietnam"]  # type: ignore[attr-defined]
    choose = bot.choose

    def crash(*_: Any) -> Any:
        raise RuntimeError("the bot crashed")

    bot.choose = crash
    rng = np.random.default_rng(0)
    with pytest.raises(RuntimeError, match="the bot crashed"):
        for _ in range(200):
            obs, *_ = env.step(masked_choice(rng, obs["action_mask"]))
    bot.choose = choose
    state = env.unwrapped.game_state  # type: ignore[attr-defined]
    assert "vpa" not in state.to_act()  # vietnam's turn, which its bot never took
    before = state.view(None).data
    with pytest.raises(IllegalActionError):
        env.step(masked_choice(rng, obs["action_mask"]))
    assert state.view(None).data == before


def test_the_docs_snippets_run_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    # QA: the single-seat snippet of docs/rl.md stepped an `action` it never defined.
    text = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), {})  # the docs' own code


def test_gymnasium_makes_every_rule_set_by_id(capsys: pytest.CaptureFixture[str]) -> None:
    # QA: nothing was registered with Gymnasium: no gym.make, and check_env warned that
    # the environment had no spec.
    import gymnasium as gym

    env = gym.make("fogofwar.rl.registration:fogofwar/rock-n-roll-v0", seat="vpa")
    assert env.spec is not None and env.spec.id == "fogofwar/rock-n-roll-v0"
    obs, _ = env.reset(seed=7)
    mine = single_seat_env("rock-n-roll", "vpa")
    same, _ = mine.reset(seed=7)
    assert np.array_equal(obs["observation"], same["observation"])
    for ruleset in ("specter-ops", "zero-dark", "warfighter"):
        assert f"fogofwar/{ruleset}-v0" in gym.registry
    made = gym.make("fogofwar/warfighter-v0", seat="squad", render_mode="ansi")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)
    assert not [w for w in caught if "spec" in str(w.message)]
