"""Several actions of one input checked as a whole, without telling what they decide
(:func:`try_actions`: the web table's and the terminal's notation ``a; b; c``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import IllegalActionError
from .actions import Action, Event
from .protocol import Ruleset, State

__all__ = ["decides", "partly_played", "try_actions"]


def decides(kinds: Mapping[str, frozenset[str]], action: Action, events: Sequence[Event]) -> bool:
    """Whether ``action``, which caused ``events``, decided something: its kind may not
    be tried at all, or it caused an event its kind's trial does not allow (``kinds``:
    :meth:`Ruleset.preview_kinds`)."""
    quiet = kinds.get(action.kind)
    return quiet is None or any(e.kind not in quiet for e in events)


def partly_played(i: int, actions: Sequence[Action], error: IllegalActionError) -> str:
    """The refusal after :func:`try_actions` played the first ``i`` of ``actions``."""
    return (
        f"the first {i} of {len(actions)} actions were played (what they decided is in "
        f"the events); then {actions[i]}: {error.reason}"
    )


def try_actions(
    ruleset: Ruleset, state: State, actions: Sequence[Action]
) -> tuple[int, IllegalActionError] | None:
    """Try ``actions`` in order on a copy of ``state`` (which is not changed).

    An input is all or nothing only while it decides nothing: a refusal must not tell
    what an earlier action of the input decided unseen. "check S1 K1; check S1 K1",
    refused as a whole, said "gained already" when the first check's roll succeeded and
    "no Actions left" when it failed, so the roll could be read and declined. An action
    decides something when it causes an event its kind's trial does not allow
    (:meth:`Ruleset.preview_kinds`, the rule set's statement of what trying tells).

    Returns:
        None when every action is legal; ``(i, error)`` when action ``i`` is refused
        after an earlier one decided something: the caller plays the first ``i`` for
        real (the seat then learns what they decided as the game tells it) and reports
        ``error`` for the rest.

    Raises:
        IllegalActionError: an action refused while the actions before it decided
            nothing: the input is refused whole, and nothing is played.
    """
    trial = state.clone()
    kinds = ruleset.preview_kinds(trial.config)
    quiet_so_far = True
    for i, action in enumerate(actions):
        try:
            events = trial.apply(action)
        except IllegalActionError as exc:
            if quiet_so_far:
                raise
            return i, exc
        if decides(kinds, action, events):
            quiet_so_far = False
    return None
