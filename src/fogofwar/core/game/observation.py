"""Observation encoders: a seat's view as a fixed-shape numpy array (for learning).

An encoder reads a :class:`~.views.PlayerView` and nothing else — no state, no seed —
so a policy trained on its arrays can never see what the seat may not know: two states
that give a seat the same view give it the same array. Each rule set offers its own
(:meth:`~.protocol.Ruleset.observation_encoder`): board planes for the grid games,
counts and one-hot cards for the card games. A rule set that offers none (a plug-in) is
encoded by :class:`HashedViewEncoder`, which hashes the view's fields into a fixed
number of buckets.

Axis order is stated by each encoder's :attr:`ObservationEncoder.axes`; values lie in
``[low, high]`` (0 to 1 unless an encoder says otherwise), dtype float32.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .views import PlayerView

__all__ = ["HashedViewEncoder", "Observation", "ObservationEncoder"]

Observation = npt.NDArray[np.float32]
"""One encoded observation: float32, of the encoder's :attr:`~ObservationEncoder.shape`."""


class ObservationEncoder(ABC):
    """A seat's view as a fixed-shape float32 array, for one configuration.

    Subclasses give :attr:`shape`, :attr:`axes`, :meth:`encode` and, where it helps,
    :meth:`describe` (what each channel or feature means) and other bounds.
    """

    #: The least and the greatest value an entry may take.
    low: float = 0.0
    high: float = 1.0

    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        """The shape of every array :meth:`encode` returns."""

    @property
    @abstractmethod
    def axes(self) -> tuple[str, ...]:
        """The name of each axis, in order (``("channel", "row", "col")``, ``("feature",)``)."""

    @abstractmethod
    def encode(self, view: PlayerView) -> Observation:
        """The array of ``view`` (float32, :attr:`shape`, every entry in ``[low, high]``);
        built from the view's data alone. A new array on every call: the caller owns it
        (an environment hands it out as it is)."""

    def describe(self) -> Sequence[str]:
        """What each entry of the first axis means (a plane, a feature); empty if the
        encoder does not say."""
        return ()


def _leaves(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """``(path, leaf)`` for every scalar in a JSON value; list items share their list's
    path (a set of values, whatever their order)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, f"{path}/{k}")
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _leaves(v, f"{path}[]")
    else:
        yield path, value


def _bucket(text: str, size: int) -> tuple[int, float]:
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    n = int.from_bytes(digest, "little")
    return n % size, 1.0 if (n >> 63) & 1 else -1.0


class HashedViewEncoder(ObservationEncoder):
    """Any rule set's views, without knowing the game: every field of the view's JSON
    data (its path and its value, numbers also by magnitude) hashed into ``size``
    buckets with a sign (the hashing trick), the sums squashed into ``[-1, 1]``.

    A learner can use it for a plug-in rule set that offers no encoder of its own; the
    built-in rule sets' own encoders keep the board's geometry and are better.
    """

    low = -1.0

    def __init__(self, *, size: int = 1024) -> None:
        if size < 1:
            raise ValueError(f"size is 1 or more, not {size}")
        self._size = size

    @property
    def shape(self) -> tuple[int, ...]:
        return (self._size,)

    @property
    def axes(self) -> tuple[str, ...]:
        return ("bucket",)

    def encode(self, view: PlayerView) -> Observation:
        out = np.zeros(self._size, dtype=np.float64)
        for path, leaf in _leaves(dict(view.data), ""):
            if isinstance(leaf, bool) or leaf is None or isinstance(leaf, str):
                i, sign = _bucket(f"{path}={leaf!r}", self._size)
                out[i] += sign
            elif isinstance(leaf, int | float):
                i, sign = _bucket(path, self._size)
                out[i] += sign * float(leaf)
        return np.tanh(out).astype(np.float32)
