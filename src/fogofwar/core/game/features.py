"""Shared shapes of observation encoders.

* Games without a board (cards and counts): a :class:`FeatureLayout` lays named blocks
  end to end, once per configuration, and :class:`FlatEncoder` fills and clips the
  vector.
* Grid games: :class:`PlaneEncoder` holds named ``(channel, row, col)`` planes and a
  vector of scalar features, each scalar a constant plane or all of them folded
  row-major into as few extra channels as they need."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Sequence
from typing import Literal

import numpy as np

from .observation import Observation, ObservationEncoder
from .views import PlayerView

__all__ = ["FeatureLayout", "FlatEncoder", "PlaneEncoder", "frac", "index_of"]


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


def frac(value: float | None, scale: float) -> float:
    """``value / scale`` clipped to ``[0, 1]`` (0 for an unknown value)."""
    if value is None or scale <= 0:
        return 0.0
    x = float(value) / scale
    # Written out (not min/max, which cost more than the work); NaN and -0.0 give 0.
    return 1.0 if x > 1.0 else x if x > 0.0 else 0.0


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
        # The two ufuncs in place: np.clip's Python wrapper costs more than the work.
        np.minimum(x, 1.0, out=x)
        np.maximum(x, 0.0, out=x)
        return x

    @abstractmethod
    def fill(self, x: Observation, view: PlayerView) -> None:
        """Write the features of ``view`` (its seat and its data, nothing else) into
        the zeroed vector ``x``."""


class PlaneEncoder(ObservationEncoder):
    """An encoder of a view as named planes over a ``height`` × ``width`` board, then
    the scalar features: each a constant plane (``scalars="planes"``, the default) or
    written row-major into as few extra channels as they need (``"folded"``: a smaller
    array for a learner that reads it flat). Subclasses fill :meth:`blank`'s array and
    hand it to :meth:`finish` with the scalar vector.

    Args:
        planes: the name of each plane, in channel order.
        scalars_named: the name of each scalar feature, in order.
        height: the board's rows.
        width: the board's columns.
        scalars: ``"planes"`` or ``"folded"``.
    """

    def __init__(
        self,
        planes: Sequence[str],
        scalars_named: Sequence[str],
        height: int,
        width: int,
        *,
        scalars: Literal["planes", "folded"] = "planes",
    ) -> None:
        if scalars not in ("planes", "folded"):
            raise ValueError(f"scalars is 'planes' or 'folded', not {scalars!r}")
        self.scalars = scalars
        self._planes = tuple(planes)
        self._scalar_names = tuple(scalars_named)
        self._cells = height * width
        n = len(self._scalar_names)
        self._extra = n if scalars == "planes" else -(-n // self._cells)
        self._shape = (len(self._planes) + self._extra, height, width)

    @property
    def shape(self) -> tuple[int, ...]:
        return self._shape

    @property
    def axes(self) -> tuple[str, ...]:
        return ("channel", "row", "col")

    @property
    def scalar_names(self) -> tuple[str, ...]:
        """The scalar features, in order (their channels follow the planes)."""
        return self._scalar_names

    def describe(self) -> Sequence[str]:
        if self.scalars == "planes":
            return (*self._planes, *self._scalar_names)
        return (*self._planes, *(f"scalars_{k}" for k in range(self._extra)))

    def blank(self, static: Observation | None = None) -> Observation:
        """A new ``(channel, cell)`` array, the planes flat and cells row-major: the
        ``static`` planes first (those the same in every view, ``(k, cells)``), every
        other plane zero. With ``scalars="planes"`` the scalar channels are left for
        :meth:`finish` to write, which it must (each is written whole: zeroing them
        first was a third of the array written twice, for nothing)."""
        first = len(self._planes)
        k = 0 if static is None else len(static)
        if self.scalars == "planes":
            out = np.empty((self._shape[0], self._cells), dtype=np.float32)
            out[k:first] = 0
        else:
            out = np.zeros((self._shape[0], self._cells), dtype=np.float32)
        if static is not None:
            out[:k] = static
        return out

    def finish(self, out: Observation, scalars: Observation) -> Observation:
        """``out`` (from :meth:`blank`, its planes filled) with the scalar vector
        written after the planes, in the encoder's shape."""
        first = len(self._planes)
        if self.scalars == "planes":
            out[first:] = scalars[:, None]
        else:
            out[first:].reshape(-1)[: len(scalars)] = scalars
        return out.reshape(self._shape)
