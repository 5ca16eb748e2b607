"""What a record that cannot be replayed, or was changed, raises."""

from __future__ import annotations

from typing import Any

from ..errors import BadDataError
from ..game import Action

__all__ = ["RecordVersionError", "ReplayError", "TamperedRecordError"]


class RecordVersionError(BadDataError):
    """A record this fogofwar cannot replay: a newer format, or other rules.

    Attributes:
        recorded: the version the record was made with.
        supported: the version this fogofwar has.
    """

    def __init__(self, file: str, what: str, recorded: str, supported: str, advice: str) -> None:
        super().__init__(file, f"{what} {supported}", found=recorded)
        self.recorded = recorded
        self.supported = supported
        self._parts = (file, what, recorded, supported, advice)
        # The generic "expected X, found Y" wording reads badly here; say it plainly.
        self.args = (
            f"{file}: recorded with {what} {recorded}; this fogofwar plays {supported} ({advice})",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuild from the constructor's arguments (args holds only the message).
        return type(self), self._parts, self.__dict__


class ReplayError(BadDataError):
    """A recorded action that is illegal when the record is replayed.

    The :class:`IllegalActionError` the state raised is the ``__cause__``.

    Attributes:
        index: the 0-based position of the action in the record's ``actions``.
        action: the action.
        reason: why it is illegal.
        rule: the rule ID that forbids it, if any.
    """

    def __init__(
        self, file: str, index: int, action: Action, reason: str, rule: str | None
    ) -> None:
        super().__init__(file, "a legal action", found=f"actions[{index}]: {action}")
        self.index = index
        self.action = action
        self.reason = reason
        self.rule = rule
        tag = f" [{rule}]" if rule else ""
        # Counted from 1 in the text, as `replay --step` and the web table count
        # actions; ``index`` stays the position in ``actions`` for programs.
        self.args = (
            f"{file}: action {index + 1} ({action.seat}: {action}) is illegal: {reason}{tag}",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        parts = (self.file, self.index, self.action, self.reason, self.rule)
        return type(self), parts, self.__dict__


class TamperedRecordError(BadDataError):
    """A record whose replay does not give what the record says it gave.

    Raised at the first action whose digest differs (the record was changed at or before
    it), or when the seed is not the one committed to.

    Attributes:
        index: the 0-based index of the first action that diverges (``None`` when the
            seed itself does not match the commitment).
    """

    def __init__(self, file: str, index: int | None, message: str) -> None:
        super().__init__(file, "an unchanged record", found=message)
        self.index = index
        self._parts = (file, index, message)
        self.args = (f"{file}: {message}",)

    @classmethod
    def at_action(cls, file: str, index: int, action: object, seat: str) -> TamperedRecordError:
        """The record's ``index``-th action (by ``seat``) gives another digest."""
        return cls(
            file,
            index,
            f"action {index + 1} ({seat}: {action}) does not give what the record says it gave: "
            "the record was changed at or before this action",
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), self._parts, self.__dict__
