"""The game protocol every rule set implements (docs/protocol.md; docs/architecture.md).

The pieces, smallest first:

* :class:`Action` — one step of play, always carrying the seat that takes it. A move of
  several squares is several ``step`` actions closed by ``stop``; text notation such as
  ``move N1 N2 M3`` is shorthand that :meth:`Ruleset.parse_actions` expands.
* :class:`Event` — something that happened, addressed to everyone (``to=None``) or to
  some seats only. Seats learn hidden facts only through events addressed to them.
* :class:`PlayerView` — what one seat (or a spectator, ``seat=None``) may know now, as
  JSON-ready data. Views are *built* from knowledge, never redacted from the full state.
* :class:`Outcome` — who won and why.
* :class:`ConfigSchema` / :class:`Option` / :class:`Config` — every option and ruling
  switch of a rule set, typed, with defaults and help.
* :class:`ActionEncoding` — a fixed discrete index per action kind and target, with a
  legal mask, for search and RL.
* :class:`Ruleset` and :class:`State` — the game itself.
* :func:`register` / :func:`get_ruleset` — the registry by id and alias.

Imports point downwards only: this package knows no game.

The package, one concept a module (import from the package):

* :mod:`~fogofwar.core.game.actions` — :class:`Action`, :class:`Event`, JSON.
* :mod:`~fogofwar.core.game.views` — :class:`PlayerView`, :class:`Outcome`,
  :class:`SightExplanation`.
* :mod:`~fogofwar.core.game.config` — :class:`Option`, :class:`Config`,
  :class:`ConfigSchema`.
* :mod:`~fogofwar.core.game.metadata` — :class:`GameMetadata`, :class:`DataFormat`.
* :mod:`~fogofwar.core.game.encoding` — :class:`ActionEncoding`.
* :mod:`~fogofwar.core.game.observation` — :class:`ObservationEncoder` (views as arrays).
* :mod:`~fogofwar.core.game.evaluation` — :class:`Evaluation` (who is winning, for search).
* :mod:`~fogofwar.core.game.protocol` — :class:`Ruleset` and :class:`State`.
* :mod:`~fogofwar.core.game.registry` — :func:`register`, :func:`get_ruleset`,
  :func:`registered_ruleset` (importing nothing), :func:`ruleset_ref`.
* :mod:`~fogofwar.core.game.trial` — :func:`try_actions` (an input's actions checked as
  a whole, without telling what they decide).
"""

from __future__ import annotations

from .actions import (
    JSON,
    Action,
    Event,
    canonical_json,
    emit,
    fresh_json,
    plain_event,
    sentence,
)
from .actions import ArgValue as ArgValue
from .config import Config, ConfigSchema, Option
from .encoding import ActionEncoding
from .evaluation import Evaluation, LogisticModel
from .metadata import DataFormat, GameMetadata
from .observation import HashedViewEncoder, Observation, ObservationEncoder
from .protocol import KeptSampler, Ruleset, State, WorldSampler, kept_table
from .registry import (
    get_ruleset,
    register,
    registered_ruleset,
    registered_rulesets,
    ruleset_ref,
)
from .trial import decides, partly_played, try_actions
from .views import Outcome, PlayerView, Screen, SightExplanation

__all__ = [
    "JSON",
    "Action",
    "ActionEncoding",
    "Config",
    "ConfigSchema",
    "DataFormat",
    "Evaluation",
    "Event",
    "GameMetadata",
    "HashedViewEncoder",
    "KeptSampler",
    "LogisticModel",
    "Observation",
    "ObservationEncoder",
    "Option",
    "Outcome",
    "PlayerView",
    "Ruleset",
    "Screen",
    "SightExplanation",
    "State",
    "WorldSampler",
    "canonical_json",
    "decides",
    "emit",
    "fresh_json",
    "get_ruleset",
    "kept_table",
    "partly_played",
    "plain_event",
    "register",
    "registered_ruleset",
    "registered_rulesets",
    "ruleset_ref",
    "sentence",
    "try_actions",
]
