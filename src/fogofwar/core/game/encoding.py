"""The action encoding: a fixed discrete index per action kind and target, with a legal
mask, for search and RL."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from ..errors import RulesError
from .actions import Action, ArgValue

if TYPE_CHECKING:
    from .protocol import State


# --------------------------------------------------------------------------- encoding


class ActionEncoding:
    """A fixed discrete index for every (kind, args) an action can have.

    The index does not include the seat: an RL agent or a search asks for the mask of
    the seat it plays. Built from the full, ordered list of templates a rule set can ever
    produce for a configuration, so the size is fixed for that configuration.
    """

    __slots__ = ("_index", "_templates")

    def __init__(self, templates: Iterable[tuple[str, tuple[ArgValue, ...]]]) -> None:
        self._templates: tuple[tuple[str, tuple[ArgValue, ...]], ...] = tuple(templates)
        self._index: dict[tuple[str, tuple[ArgValue, ...]], int] = {}
        for i, t in enumerate(self._templates):
            if t in self._index:
                raise TypeError(f"duplicate action template {t!r}")
            self._index[t] = i

    @property
    def size(self) -> int:
        """The number of indices."""
        return len(self._templates)

    def has(self, action: Action) -> bool:
        """Whether the action's kind and arguments have an index."""
        return (action.kind, action.args) in self._index

    def kinds(self) -> frozenset[str]:
        """Every action kind of the encoding."""
        return frozenset(kind for kind, _ in self._templates)

    def forms(self, kind: str) -> list[tuple[ArgValue, ...]]:
        """The argument tuples of ``kind``, in index order."""
        return [args for k, args in self._templates if k == kind]

    def encode(self, action: Action) -> int:
        """Return the index of an action (:class:`RulesError` if it has none)."""
        try:
            return self._index[(action.kind, action.args)]
        except KeyError:
            raise RulesError(f"action {action} has no index in this encoding") from None

    def indices(self, actions: Iterable[Action]) -> list[int]:
        """The index of each action, in order (:class:`RulesError` for one without)."""
        index = self._index
        out: list[int] = []
        for a in actions:
            i = index.get((a.kind, a.args))
            if i is None:
                raise RulesError(f"action {a} has no index in this encoding")
            out.append(i)
        return out

    def decode(self, index: int, seat: str) -> Action:
        """Return the action with this index, taken by ``seat``."""
        if not 0 <= index < len(self._templates):
            raise RulesError(f"action index {index} out of range 0..{len(self._templates) - 1}")
        kind, args = self._templates[index]
        return Action(seat, kind, args)

    def mask(self, actions: Iterable[Action]) -> npt.NDArray[np.bool_]:
        """Return a boolean mask with True at the index of every given action."""
        m = np.zeros(len(self._templates), dtype=np.bool_)
        m[self.indices(actions)] = True
        return m

    def legal_mask(self, state: State, seat: str) -> npt.NDArray[np.bool_]:
        """Return the legal-action mask of ``seat`` in ``state``."""
        return self.mask(state.legal_actions(seat))
