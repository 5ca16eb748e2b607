"""A Gymnasium environment for one seat of any rule set; bots play the other seats.

Each bot sees only its own seat's view and draws from its own random stream, as in
the batch runner (:mod:`fogofwar.sim.runner`). See ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsFloat, cast

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core.errors import IllegalActionError, RulesError
from ..core.game import ObservationEncoder, Ruleset, State
from ..core.rng import Stream, stream
from .common import (
    RENDER_FPS,
    RENDER_MODES,
    Episodes,
    GameSpec,
    ObsDict,
    cycle_limit,
    render_text,
    seat_reward,
)

__all__ = ["ILLEGAL", "SingleSeatEnv"]

#: What an illegal action does: ``"lose"`` ends the episode as a loss (reward -1, the
#: game unchanged, the refusal under ``info["illegal"]``); ``"raise"`` raises the rules'
#: :class:`~fogofwar.core.errors.IllegalActionError` (or a :class:`ValueError` for an
#: index out of range) and changes nothing.
ILLEGAL = ("lose", "raise")

#: Episodes tried at a reset before giving up on a game in which the seat never acts.
_TRIES = 100


class SingleSeatEnv(gym.Env[ObsDict, np.int64]):
    """One seat of a rule set as a Gymnasium :class:`~gymnasium.Env`.

    The spaces and rewards are the AEC environment's
    (:class:`~fogofwar.rl.aec.FogOfWarAEC`) for this seat; ``info["action_mask"]``
    repeats the observation's mask. Between two of this seat's actions, the bots play
    the other seats until this seat acts again or the game ends.

    Args:
        ruleset: a rule set, its id or alias, or a ``package.module:Attribute`` plug-in.
        seat: the seat the learner plays.
        opponents: a bot name (``fogofwar bots``) for each other seat; a seat not named
            gets the rule set's default bot (``Ruleset.default_bots``), else ``random``.
        config: the game's options.
        render_mode: ``"ansi"``: :meth:`render` returns the rule set's text drawing of
            this seat's view; ``"human"`` prints it after each reset and step.
        max_cycles: the most actions of a game, every seat's counted, before it is
            truncated (default: the rule set's ``metadata.max_length``).
        illegal: what an illegal action does, one of :data:`ILLEGAL` (``"lose"`` by
            default: Gymnasium lets a caller step any element of the action space).
        encoder: the observations' encoder (default: the rule set's own); it is given
            the seat's view alone.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - gym's API
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        ruleset: str | Ruleset,
        seat: str,
        *,
        opponents: Mapping[str, str] | None = None,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        illegal: str = "lose",
        encoder: ObservationEncoder | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal is one of {ILLEGAL}, not {illegal!r}")
        self.game = GameSpec(ruleset, config, encoder)
        rs = self.game.ruleset
        seats = self.game.seats
        if seat not in seats:
            raise ValueError(f"no seat {seat!r} in this game (seats: {', '.join(seats)})")
        given = dict(opponents or {})
        unknown = sorted(set(given) - set(seats))
        if unknown or seat in given:
            others = ", ".join(s for s in seats if s != seat) or "none"
            raise ValueError(
                f"opponents are bots for the other seats ({others}), "
                f"not {', '.join(unknown or [seat])}"
            )
        self.seat = seat
        self.opponents: dict[str, str] = {
            s: given.get(s, rs.default_bots.get(s, "random")) for s in seats if s != seat
        }
        # Made now, so that an unknown bot name fails here rather than at reset.
        self._bots: dict[str, Bot] = {s: make_bot(n, rs.id, s) for s, n in self.opponents.items()}
        self.max_cycles = cycle_limit(max_cycles, rs.metadata.max_length)
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = cast(spaces.Space[ObsDict], self.game.observation_space)
        self.action_space = self.game.action_space
        self._episodes = Episodes()
        self._state: State | None = None
        self._streams: dict[str, Stream] = {}
        self._done = False
        # The mask of the observation last handed out (the state it was made of).
        self._mask: npt.NDArray[np.int8] | None = None
        self.num_steps = 0

    @property
    def game_state(self) -> State:
        """The game's true state: the umpire's secret, never part of an observation."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        out = self._reset(seed=seed)
        if self.render_mode == "human":
            self.render()
        return out

    def step(
        self, action: np.int64 | int
    ) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        out = self._step(action)
        if self.render_mode == "human":
            self.render()
        return out

    def _reset(self, *, seed: int | None) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        for _ in range(_TRIES):
            secret, bots_secret = self._episodes.next(seed)
            seed = None  # further tries go on along the same sequence
            self._state = self.game.new_game(secret)
            self._mask = None  # a new game: no observation of it yet
            self._streams = {s: stream(bots_secret, "bot", s) for s in self._bots}
            for s, bot in self._bots.items():
                bot.reset(s, self.game.ruleset.id, self.game.config)
            self.num_steps = 0
            self._done = False
            if not self._play_bots():
                return self._observe(), self._info()
            if self._state.outcome() is None:
                # Not over, yet ended: the other seats' opening used every cycle.
                raise ValueError(
                    f"max_cycles={self.max_cycles} ends the game before {self.seat} acts "
                    f"(the other seats' opening took {self.num_steps} actions): raise it"
                )
        raise RulesError(
            f"{self.game.ruleset.id}: seat {self.seat} never acted in {_TRIES} games in a row"
        )

    def _step(
        self, action: np.int64 | int
    ) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: reset() the environment")
        state = self.game_state
        try:
            self.game.apply(state, self.seat, action, mask=self._mask)
            # The state moved on: until the next observation, no mask vouches for it
            # (an opponent's error below leaves none that could be trusted).
            self._mask = None
        except IllegalActionError as exc:
            # An element of the action space that the rules refuse (what check_env may
            # step). What is not an element at all (a float, a shape-(1,) array, an
            # index out of range) is the caller's bug: its ValueError is raised, never
            # scored as a lost game that would hide it from the training.
            if self.illegal == "raise":
                raise
            self._done = True
            refusal = {"action": str(exc.action), "reason": exc.reason, "rule": exc.rule}
            return self._observe(), -1.0, True, False, self._info(illegal=refusal)
        self.num_steps += 1
        ended = self._play_bots()
        outcome = state.outcome()
        if outcome is not None:
            reward = seat_reward(outcome, self.seat)
            return self._observe(), reward, True, False, self._info(outcome=outcome.to_json())
        truncated = ended  # not over, yet ended: the game ran past max_cycles
        if not truncated and self.num_steps >= self.max_cycles:
            self._done = truncated = True
        if truncated:  # as the AEC environment tells it
            return self._observe(), 0.0, False, True, self._info(truncated_after=self.num_steps)
        return self._observe(), 0.0, False, False, self._info()

    def _play_bots(self) -> bool:
        """The other seats act, each on its own view, until this seat acts or the game
        ends or runs past ``max_cycles``; whether the episode ended."""
        state = self.game_state
        while state.outcome() is None:
            # At max_cycles the game is truncated, whoever is to act: the learner too
            # (it got one action past the limit), as in the AEC environment.
            if self.num_steps >= self.max_cycles:
                break
            acting = state.to_act()
            if self.seat in acting:
                return False
            if not acting:
                raise RulesError(
                    f"{self.game.ruleset.id}: the game is not over but no seat may act"
                )
            other = min(acting)
            bot = self._bots[other]
            legal = tuple(state.legal_actions(other))
            chosen = bot.choose(state.view(other), legal, self._streams[other])
            try:
                if chosen in legal:  # one of the legal list just made: no second check
                    state.apply_unchecked(chosen)
                else:
                    state.apply(chosen)
            except RulesError as exc:
                exc.add_note(f"chosen by bot {bot.name!r} at seat {other}")
                raise
            self.num_steps += 1
        self._done = True
        return True

    def _observe(self) -> ObsDict:
        """The seat's observation now; its mask is kept for the next step and the info
        (called first wherever both are handed out)."""
        obs = self.game.observe(self.game_state, self.seat)
        self._mask = obs["action_mask"].copy()
        return obs

    def _info(self, **more: Any) -> dict[str, Any]:
        mask = self._mask if self._mask is not None else self.game.mask(self.game_state, self.seat)
        return {"action_mask": mask.copy(), **more}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal-action mask as booleans (the method sb3-contrib's MaskablePPO asks)."""
        return self.game.mask(self.game_state, self.seat).astype(bool)

    def render(self) -> str | None:
        """The rule set's text drawing of this seat's view: returned
        (``render_mode="ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        view = self.game_state.view(self.seat)
        text = render_text(self.game.ruleset, view, self.game.config)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text
