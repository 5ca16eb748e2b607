"""The digest chain of a record: each action's link hashes everything the umpire
produced, so a changed record is refused at the first action where it diverges."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ..game import Action, Config, Event, Ruleset, State, canonical_json

__all__ = ["DIGEST_CHARS", "chain_start", "chain_step"]


#: Hex digits of each action's chain digest kept in a record (64 bits).
DIGEST_CHARS = 16
_CHAIN_PREFIX = b"fogofwar-chain-v1\x00"


def chain_start(
    ruleset: Ruleset, config: Config, committed: str, seeded: bool, state: State
) -> bytes:
    """The digest chain's start: the rule set, config, commitment, whether the game was
    seeded, and every opening view. (Not the rule set's version: a minor version promises
    the same rules, so its records replay.)"""
    seats: list[str | None] = [*ruleset.seats(config), None]
    views = {str(seat): state.view(seat).canonical() for seat in seats}
    payload = canonical_json(
        {
            "ruleset": ruleset.id,
            "config": config.to_json(),
            "commitment": committed,
            "seeded": seeded,
            "views": views,
        }
    )
    return hashlib.sha256(_CHAIN_PREFIX + payload.encode("utf-8")).digest()


def chain_step(previous: bytes, action: Action, events: Sequence[Event], state: State) -> bytes:
    """The next link: the action, every event it caused (with its audience), who acts
    next and the outcome, hashed onto ``previous``."""
    outcome = state.outcome()
    payload = canonical_json(
        {
            "action": action.to_json(),
            "events": [
                [e.kind, dict(e.data), None if e.to is None else sorted(e.to)] for e in events
            ],
            "to_act": sorted(state.to_act()),
            "outcome": None if outcome is None else outcome.to_json(),
        }
    )
    return hashlib.sha256(previous + payload.encode("utf-8")).digest()
