"""What a seat is told: its view, the outcome, and a sight explainer's answer.

* :class:`PlayerView` — what one seat (or a spectator, ``seat=None``) may know now, as
  JSON-ready data. Views are *built* from knowledge, never redacted from the full state.
* :class:`Outcome` — who won and why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .actions import JSON, canonical_json

# --------------------------------------------------------------------------- views & outcome


@dataclass(frozen=True, slots=True)
class PlayerView:
    """What one seat may know now, as JSON-ready data.

    A rule set builds ``data`` from the public projection of the state plus what was
    addressed to this seat; it never copies the whole state and deletes fields. Seeds,
    random-stream states and the record are never in a view.

    Attributes:
        ruleset: the rule set's id.
        seat: the seat this view belongs to, or ``None`` for a spectator.
        data: the view's content, documented per rule set.
    """

    ruleset: str
    seat: str | None
    data: Mapping[str, JSON]

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {"ruleset": self.ruleset, "seat": self.seat, "view": dict(self.data)}

    def canonical(self) -> str:
        """Canonical JSON text: two views are equal exactly when these strings are."""
        return canonical_json(self.to_json())


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game.

    Attributes:
        winners: the seats that won (empty for a draw or a game nobody won).
        sides: the sides that won (a side is a team of seats, see
            :attr:`GameMetadata.sides`); a seat may change side during a game (a traitor),
            so the rule set states the winning sides itself.
        reason: a sentence for people.
        rule: the rule ID that ended the game, if any.
    """

    winners: frozenset[str]
    sides: frozenset[str]
    reason: str
    rule: str | None = None

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.sides

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "winners": sorted(self.winners),
            "sides": sorted(self.sides),
            "reason": self.reason,
            "rule": self.rule,
        }


# --------------------------------------------------------------------------- explainer


@dataclass(frozen=True, slots=True)
class SightExplanation:
    """What a rule set's sight explainer found (see :meth:`Ruleset.explain_sight`).

    Attributes:
        report: the sight report (a :class:`~fogofwar.core.sight.SightReport`).
        facts: further JSON-ready answers (range, engagement, the two models...).
        marks: square -> text of at most 3 characters, to draw the pieces on the board.
    """

    report: Any
    facts: Mapping[str, JSON]
    marks: Mapping[Any, str]


@dataclass(frozen=True, slots=True)
class Screen:
    """A seat's drawing split for a terminal of any size (``fogofwar play``): the board,
    which may be shown through a window, and the facts, which are always shown whole.

    Attributes:
        board: the board as a ``rich.text.Text``, one line per text row, or ``None``
            for a rule set without one (then ``facts`` is the whole drawing).
        facts: what must stay in sight (the status, whose turn, the seat's own state):
            any rich renderable or text.
        header: lines at the top of ``board`` that stay when it is cut (column letters).
        margin: characters at the left of each line that stay (row numbers).
        focus: ``(line, character)`` in ``board`` to keep in the middle of the window
            (the seat's own figure), or ``None`` for the top left.
        legend: ``(symbol, meaning)`` for every symbol the drawing may show.
    """

    board: Any
    facts: Any
    header: int = 1
    margin: int = 3
    focus: tuple[int, int] | None = None
    legend: tuple[tuple[str, str], ...] = ()
