"""A game's secret and the commitment to it (commit and reveal).

Every hidden fact of a game follows from its seed through the keyed streams
(:mod:`fogofwar.core.rng`). A game that people play therefore gets a **secret**: 256 bits
from :mod:`secrets`, written as 64 lowercase hex digits, which nobody can guess or search
for. The umpire never shows it to a seat before the end.

To let a player check afterwards that the umpire did not change the secret (or the dice)
mid-game, every seat is shown a **commitment** at the start: a SHA-256 hash of the secret,
domain-separated so that it can be computed with any SHA-256 tool::

    printf 'fogofwar-commitment-v1\\0s:%s' SECRET | sha256sum      # a secret (text)
    printf 'fogofwar-commitment-v1\\0i:%s' 12345 | sha256sum       # an integer seed

At the end the secret is revealed; ``fogofwar verify RECORD`` checks the commitment,
replays the game from the secret and confirms that every roll, draw and shuffle (the
record's digest chain, :mod:`fogofwar.core.record`) came from it.

A seed that someone chose (``--seed``, studies, tests) is a small integer: reproducible, but
whoever knows it knows every secret of the game. Such a game is *seeded*, and says so.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from .rng import check_seed

__all__ = ["COMMITMENT_PREFIX", "SECRET_BITS", "commitment", "matches", "new_secret"]

#: The bits of a fresh secret.
SECRET_BITS: Final = 256
#: The domain separator hashed before the seed (with a NUL after it).
COMMITMENT_PREFIX: Final = b"fogofwar-commitment-v1\x00"


def new_secret() -> str:
    """A fresh game secret: :data:`SECRET_BITS` bits from :mod:`secrets`, as hex."""
    return secrets.token_hex(SECRET_BITS // 8)


def commitment(seed: int | str) -> str:
    """The commitment to a seed: 64 hex digits of SHA-256 (see the module documentation).

    Raises:
        TypeError, RulesError: ``seed`` is not a valid game seed (:func:`check_seed`).
    """
    seed = check_seed(seed)
    tag = b"i:" if isinstance(seed, int) else b"s:"
    return hashlib.sha256(COMMITMENT_PREFIX + tag + str(seed).encode("ascii")).hexdigest()


def matches(seed: int | str, committed: str) -> bool:
    """Whether ``seed`` is the seed that ``committed`` commits to."""
    return hmac.compare_digest(commitment(seed), committed)
