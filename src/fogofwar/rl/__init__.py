"""Reinforcement-learning environments for every rule set (``pip install 'fogofwar[rl]'``).

* :func:`aec_env` — a PettingZoo AEC environment: every seat an agent.
* :func:`single_seat_env` — a Gymnasium environment for one seat; bots play the others.

Observations are the rule set's observation encoder
(:meth:`~fogofwar.core.game.Ruleset.observation_encoder`) applied to the seat's view and
nothing else, with the legal-action mask of the rule set's action encoding; see
``docs/rl.md``. PettingZoo and Gymnasium are imported when an environment is made, so
the rest of fogofwar never needs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pettingzoo import AECEnv

    from ..core.game import ObservationEncoder, Ruleset
    from .single import SingleSeatEnv

__all__ = ["aec_env", "single_seat_env"]


def aec_env(
    ruleset: str | Ruleset,
    config: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    *,
    max_cycles: int | None = None,
    encoder: ObservationEncoder | None = None,
) -> AECEnv:
    """A PettingZoo AEC environment of ``ruleset`` (an id, alias, rule set or
    ``package.module:Attribute`` plug-in), wrapped in PettingZoo's order enforcing
    wrapper; see :class:`fogofwar.rl.aec.FogOfWarAEC`."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from .aec import raw_env

    # As PettingZoo's own environments are: no step, observation or drawing before reset.
    env = raw_env(
        ruleset, config=config, render_mode=render_mode, max_cycles=max_cycles, encoder=encoder
    )
    return OrderEnforcingWrapper(env)


def single_seat_env(
    ruleset: str | Ruleset,
    seat: str,
    opponents: Mapping[str, str] | None = None,
    *,
    config: Mapping[str, Any] | None = None,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    illegal: str = "lose",
    encoder: ObservationEncoder | None = None,
) -> SingleSeatEnv:
    """A Gymnasium environment of ``seat``; bots (``opponents``, by default the rule
    set's ``default_bots``) play the other seats. See
    :class:`fogofwar.rl.single.SingleSeatEnv`."""
    from .single import SingleSeatEnv

    return SingleSeatEnv(
        ruleset,
        seat,
        opponents=opponents,
        config=config,
        render_mode=render_mode,
        max_cycles=max_cycles,
        illegal=illegal,
        encoder=encoder,
    )
