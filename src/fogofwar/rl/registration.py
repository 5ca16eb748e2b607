"""Gymnasium ids for the single-seat environments, one a rule set: ``fogofwar/<id>-v0``.

``gym.make("fogofwar.rl.registration:fogofwar/rock-n-roll-v0", seat="vpa")`` imports
this module and makes :class:`~fogofwar.rl.single.SingleSeatEnv` (after the import, the
id alone will do); every keyword of :func:`~fogofwar.rl.single_seat_env` is taken
(``opponents``, ``config``, ``render_mode``, ``max_cycles``, ``illegal``). A made
environment has its ``spec``, which Gymnasium's own checks ask for. Plug-ins registered
before :func:`register_envs` is called again get their ids too.
"""

from __future__ import annotations

import gymnasium as gym

from ..core.game import registered_rulesets

__all__ = ["ENTRY_POINT", "register_envs"]

#: What every id makes.
ENTRY_POINT = "fogofwar.rl.single:SingleSeatEnv"


def register_envs() -> list[str]:
    """Register ``fogofwar/<id>-v0`` for every registered rule set not yet registered
    with Gymnasium; returns every fogofwar id."""
    ids = []
    for rs in registered_rulesets().values():
        env_id = f"fogofwar/{rs.id}-v0"
        if env_id not in gym.registry:
            # No step limit of Gymnasium's: the environment truncates at max_cycles.
            gym.register(env_id, entry_point=ENTRY_POINT, kwargs={"ruleset": rs.id})
        ids.append(env_id)
    return ids


register_envs()
