"""The error family of fogofwar.

Every rules problem is a :class:`RulesError` (a :class:`ValueError`), so callers can
catch one type for "the input was wrong" while a genuine bug still surfaces as
something else. The subclasses carry the input and the reason as attributes, in the
style of python-chess's ``IllegalMoveError``, so that a front end can show them
without parsing the message.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BadDataError",
    "IllegalActionError",
    "InvalidNotationError",
    "MalformedActionError",
    "RulesError",
]


class RulesError(ValueError):
    """Base class: the input breaks the rules or the documented formats."""


class IllegalActionError(RulesError):
    """An action that the rules forbid in the current position.

    Attributes:
        action: the offending action (its JSON/notation form or the object itself).
        seat: the seat that tried it (``None`` when unknown).
        reason: a sentence saying why it is illegal.
        rule: the rule ID that forbids it (e.g. ``"SO-A1"``), or ``None`` for
            protocol errors that no numbered rule covers (e.g. "not your turn").
    """

    def __init__(
        self, action: Any, reason: str, *, seat: str | None = None, rule: str | None = None
    ) -> None:
        self.action = action
        self.seat = seat
        self.reason = reason
        self.rule = rule
        who = f" by {seat}" if seat is not None else ""
        tag = f" [{rule}]" if rule else ""
        super().__init__(f"illegal action {action!s}{who}: {reason}{tag}")

    def __reduce__(self) -> tuple[Any, ...]:
        # Keyword-only arguments defeat pickle's default; errors must cross process
        # boundaries intact (batch workers), notes (``__notes__``) included.
        return (_rebuild, (type(self), (self.action, self.reason), self._kwargs()), self.__dict__)

    def _kwargs(self) -> dict[str, Any]:
        return {"seat": self.seat, "rule": self.rule}


#: The most characters of an input that an error message quotes: a pasted page or a
#: 100,000-character line is refused in one readable line, not echoed whole.
QUOTED = 80


def quoted(text: str, position: int | None = None) -> str:
    """``text`` as an error message quotes it: whole (``repr``) up to :data:`QUOTED`
    characters; longer, the :data:`QUOTED` characters around ``position`` (else the
    first), with ``…`` where it is cut and the input's length."""
    if len(text) <= QUOTED:
        return repr(text)
    start = 0 if position is None else max(0, min(position - QUOTED // 2, len(text) - QUOTED))
    end = start + QUOTED
    before = "…" if start else ""
    after = "…" if end < len(text) else ""
    return f"{before}{text[start:end]!r}{after} ({len(text):,} characters)"


class InvalidNotationError(RulesError):
    """Text that does not parse in a documented notation (dice, squares, actions).

    Attributes:
        text: the whole input text.
        reason: what was expected.
        position: 0-based character offset of the problem, if known.
    """

    def __init__(self, text: str, reason: str, *, position: int | None = None) -> None:
        self.text = text
        self.reason = reason
        self.position = position
        where = f" at column {position + 1}" if position is not None else ""
        super().__init__(f"invalid notation {quoted(text, position)}{where}: {reason}")

    def __reduce__(self) -> tuple[Any, ...]:
        args = (self.text, self.reason)
        return (_rebuild, (type(self), args, {"position": self.position}), self.__dict__)


class MalformedActionError(IllegalActionError, InvalidNotationError):
    """An action no position of this game could ever allow: an unknown seat or kind, or
    arguments of the wrong number or shape (``stop A2``, ``step`` without a square).

    It is both an :class:`IllegalActionError` (it came through ``apply``, with the action,
    seat, reason and rule) and an :class:`InvalidNotationError` (the input is malformed,
    and the reason says what the action takes), so either ``except`` catches it.
    """

    def __init__(
        self, action: Any, reason: str, *, seat: str | None = None, rule: str | None = None
    ) -> None:
        self.action = action
        self.seat = seat
        self.reason = reason
        self.rule = rule
        self.text = str(action)
        self.position = None
        who = f" by {seat}" if seat is not None else ""
        tag = f" [{rule}]" if rule else ""
        RulesError.__init__(self, f"malformed action {action!s}{who}: {reason}{tag}")


class BadDataError(RulesError):
    """A data file (board, cards, mission, record) that fails validation.

    Attributes:
        file: the file's path or name (``"<string>"`` for in-memory text).
        line: 1-based line number, if known.
        column: 1-based column number, if known.
        expected: what was expected there.
        found: what was found instead, if useful.
    """

    def __init__(
        self,
        file: str,
        expected: str,
        *,
        line: int | None = None,
        column: int | None = None,
        found: str | None = None,
    ) -> None:
        self.file = file
        self.line = line
        self.column = column
        self.expected = expected
        self.found = found
        where = file
        if line is not None:
            where += f":{line}"
            if column is not None:
                where += f":{column}"
        tail = f", found {found!r}" if found is not None else ""
        super().__init__(f"{where}: expected {expected}{tail}")

    def __reduce__(self) -> tuple[Any, ...]:
        kwargs = {"line": self.line, "column": self.column, "found": self.found}
        return (_rebuild, (type(self), (self.file, self.expected), kwargs), self.__dict__)


def _rebuild(cls: type[RulesError], args: tuple[Any, ...], kwargs: dict[str, Any]) -> RulesError:
    """Re-create an error from its arguments (used by pickle)."""
    return cls(*args, **kwargs)
