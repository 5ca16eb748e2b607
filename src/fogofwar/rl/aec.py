"""The PettingZoo AEC environment of any rule set: every seat an agent.

Agents are the seats of the configuration; the agent selected is the seat that acts
now (the first in sorted order when several seats choose at once: secret simultaneous
choices take AEC turns one after another, each seat on its own view, as the batch
runner plays them). See ``docs/rl.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.errors import RulesError
from ..core.game import ObservationEncoder, PlayerView, Ruleset, State
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

__all__ = ["FogOfWarAEC", "raw_env"]


class FogOfWarAEC(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type hints
    """One game of a rule set as a PettingZoo :class:`~pettingzoo.AECEnv`.

    * ``observation_space(seat)``: ``Dict(observation=Box(low, high, shape, float32),
      action_mask=Box(0, 1, (n,), int8))`` — the rule set's observation encoder
      (:meth:`~fogofwar.core.game.Ruleset.observation_encoder`) on ``state.view(seat)``
      and nothing else, and the legal actions' indices.
    * ``action_space(seat)``: ``Discrete(n)``, the rule set's action encoding.
    * Rewards come at the end: +1 to a seat among the winners, -1 to a seat that lost,
      0 to every seat when no side won.
    * A game that runs past ``max_cycles`` actions (every seat's counted; default the
      rule set's ``metadata.max_length``) is truncated for every seat, reward 0.
    * An illegal action raises (:class:`ValueError` for an index out of range, the
      rules' :class:`~fogofwar.core.errors.IllegalActionError`, with its reason and
      rule ID, for one they refuse) and changes nothing.

    Args:
        ruleset: a rule set, its id or alias, or a ``package.module:Attribute`` plug-in.
        config: the game's options (completed with defaults).
        render_mode: ``"ansi"`` makes :meth:`render` return the rule set's text drawing
            of a spectator's view (what every seat may know); ``"human"`` prints it after
            each reset and step (and at :meth:`render`); ``None`` renders nothing.
        max_cycles: the most actions of a game before it is truncated.
        encoder: the observations' encoder (default: the rule set's own,
            :meth:`~fogofwar.core.game.Ruleset.observation_encoder`); it is given the
            seat's view alone.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's API: a plain dict
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": "fogofwar_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str | Ruleset,
        *,
        config: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        encoder: ObservationEncoder | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {RENDER_MODES} or None, not {render_mode!r}")
        self.game = GameSpec(ruleset, config, encoder)
        rs = self.game.ruleset
        self.max_cycles = cycle_limit(max_cycles, rs.metadata.max_length)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"fogofwar_{rs.id.replace('-', '_')}_v0"}
        self.possible_agents: list[str] = list(self.game.seats)
        # PettingZoo's attributes beside its methods (classic environments set both).
        self.observation_spaces = dict.fromkeys(self.possible_agents, self.game.observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self.game.action_space)
        self._episodes = Episodes()
        self._state: State | None = None
        # Per seat this step: its view and its legal mask (the mask also lets step()
        # apply an allowed index without asking the rules again).
        self._observed: dict[str, tuple[PlayerView, npt.NDArray[np.int8]]] = {}
        self.num_steps = 0

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_known(agent)
        return self.game.observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_known(agent)
        return self.game.action_space

    def _seat_known(self, agent: str) -> None:
        if agent not in self.possible_agents:
            raise KeyError(f"no seat {agent!r} (seats: {', '.join(self.possible_agents)})")

    # ------------------------------------------------------------------ the game

    @property
    def game_state(self) -> State:
        """The game's true state: the umpire's secret. Never hand it to a learner; the
        observations are built from views only."""
        if self._state is None:
            raise RuntimeError("reset() the environment first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        secret, _ = self._episodes.next(seed)
        self._state = self.game.new_game(secret)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._observed = {}
        self.num_steps = 0
        if self._state.outcome() is not None:  # a game over before anyone acts
            self.agent_selection = self.agents[0]
            self._finish()
        else:
            self.agent_selection = self._acting()
        if self.render_mode == "human":
            self.render()

    def _acting(self) -> str:
        acting = self.game_state.to_act()
        if not acting:
            raise RulesError(f"{self.game.ruleset.id}: the game is not over but no seat may act")
        return min(acting)

    def observe(self, agent: str) -> ObsDict:
        # Views can be costly (sight, knowledge): one view and one mask per seat per step.
        # The observation is encoded from the view at each call: a new array, the
        # caller's to keep. PettingZoo's last() asks once a step, and a kept array
        # copied at every call (285 KB for Specter Ops' planes) cost more than it saved.
        cached = self._observed.get(agent)
        if cached is None:
            state = self.game_state
            cached = self._observed[agent] = (state.view(agent), self.game.mask(state, agent))
        view, mask = cached
        return {"observation": self.game.encode(view), "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        # Checked and applied first: an illegal action raises here and changes nothing.
        observed = self._observed.get(agent)
        mask = None if observed is None else observed[1]
        self.game.apply(self.game_state, agent, action, mask=mask)
        self.num_steps += 1
        self._observed = {}
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.game_state.outcome() is not None:
            self._finish()
        elif self.num_steps >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated_after": self.num_steps}
        else:
            self.agent_selection = self._acting()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        outcome = self.game_state.outcome()
        if outcome is None:  # pragma: no cover - called on finished games only
            return
        for a in self.agents:
            self.rewards[a] = seat_reward(outcome, a)
            self.terminations[a] = True
            self.infos[a] = {"outcome": outcome.to_json()}

    # ------------------------------------------------------------------ drawing

    def render(self) -> str | None:
        """The rule set's text drawing of a spectator's view: returned
        (``render_mode="ansi"``) or printed (``"human"``)."""
        if self.render_mode is None:
            return None
        view = self.game_state.view(None)
        text = render_text(self.game.ruleset, view, self.game.config)
        if self.render_mode == "human":
            print(text, flush=True)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in memory."""


def raw_env(
    ruleset: str | Ruleset,
    *,
    config: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    encoder: ObservationEncoder | None = None,
) -> FogOfWarAEC:
    """The environment without PettingZoo's order-enforcing wrapper."""
    return FogOfWarAEC(
        ruleset, config=config, render_mode=render_mode, max_cycles=max_cycles, encoder=encoder
    )
