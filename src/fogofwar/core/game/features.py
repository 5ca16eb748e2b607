"""Flat feature vectors with named entries, for observation encoders of games without a
board (cards and counts): a :class:`FeatureLayout` lays named blocks end to end, once
per configuration, and :class:`FlatEncoder` fills and clips the vector."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence

import numpy as np

from .observation import Observation, ObservationEncoder
from .views import PlayerView

__all__ = ["FeatureLayout", "FlatEncoder", "index_of"]


class FeatureLayout:
    """Named blocks of a flat vector: :meth:`block` reserves one entry per label and
    returns the block's offset; :attr:`names` are ``"block.label"``."""

    def __init__(self) -> None:
        self._names: list[str] = []

    def block(self, name: str, labels: Iterable[str]) -> int:
        """Reserve one entry per label under ``name``; the block's first index."""
        offset = len(self._names)
        self._names += [f"{name}.{label}" for label in labels]
        return offset

    @property
    def size(self) -> int:
        """The number of entries so far."""
        return len(self._names)

    @property
    def names(self) -> tuple[str, ...]:
        """Every entry's name, in order."""
        return tuple(self._names)


def index_of(labels: Sequence[str]) -> dict[str, int]:
    """Each label's position (for one-hot blocks)."""
    return {label: i for i, label in enumerate(labels)}


class FlatEncoder(ObservationEncoder):
    """An encoder of a view as one flat vector of named features in ``[0, 1]``:
    subclasses lay out :attr:`layout` in ``__init__`` and write the features in
    :meth:`fill`; every entry is clipped into ``[0, 1]`` afterwards, so that a count
    past its scale saturates rather than leaves the bounds."""

    layout: FeatureLayout

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.layout.size,)

    @property
    def axes(self) -> tuple[str, ...]:
        return ("feature",)

    def describe(self) -> Sequence[str]:
        return self.layout.names

    def encode(self, view: PlayerView) -> Observation:
        x = np.zeros(self.layout.size, dtype=np.float32)
        self.fill(x, view)
        np.clip(x, 0.0, 1.0, out=x)
        return x

    @abstractmethod
    def fill(self, x: Observation, view: PlayerView) -> None:
        """Write the features of ``view`` (its seat and its data, nothing else) into
        the zeroed vector ``x``."""
