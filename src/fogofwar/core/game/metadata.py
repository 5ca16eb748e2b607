"""What a rule set declares about itself: its metadata (:class:`GameMetadata`) and the
kinds of data file it reads (:class:`DataFormat`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .actions import JSON

# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True, slots=True)
class GameMetadata:
    """Facts about a game, in the style of OpenSpiel's ``GameType``.

    Attributes:
        name: the game's name for people.
        seats: every seat name the game can have, in turn order where that applies.
        sides: each seat's starting side (team). A side wins or loses as one.
        min_players: fewest players.
        max_players: most players.
        information: ``"perfect"`` or ``"imperfect"``.
        chance: how chance enters, in OpenSpiel's terms: ``"deterministic"`` (never),
            ``"sampled"`` (an action's effect draws its rolls and shuffles from the
            game's keyed streams: no chance node is a decision of its own), or
            ``"explicit"`` (chance nodes whose outcomes and probabilities a runner can
            enumerate). Every shipped rule set is ``"sampled"``; the exact odds of each
            roll are the odds queries' (:meth:`Ruleset.odds_queries`).
        simultaneous: whether seats ever act at once (secret simultaneous choices).
        max_length: an upper bound on the number of actions in a game (for runners).
        description: a paragraph for people.
    """

    name: str
    seats: tuple[str, ...]
    sides: Mapping[str, str]
    min_players: int
    max_players: int
    information: str = "imperfect"
    chance: str = "sampled"
    simultaneous: bool = False
    max_length: int = 10_000
    description: str = ""

    def to_json(self) -> dict[str, JSON]:
        """Return the JSON form."""
        return {
            "name": self.name,
            "seats": list(self.seats),
            "sides": dict(self.sides),
            "min_players": self.min_players,
            "max_players": self.max_players,
            "information": self.information,
            "chance": self.chance,
            "simultaneous": self.simultaneous,
            "max_length": self.max_length,
            "description": self.description,
        }


# --------------------------------------------------------------------------- data files


@dataclass(frozen=True, slots=True)
class DataFormat:
    """A kind of data file a rule set reads (boards, cards, missions), for tools that
    check every format at once: the file fuzzer (``bench/fuzz.py``), validators.

    Attributes:
        name: what the files are, for people ("a Zero Dark mission file").
        samples: shipped examples, file name -> text.
        load: parse one file's text (``load(text, file_name)``), raising
            :class:`~fogofwar.core.errors.BadDataError` naming the file and line when it
            does not validate.
    """

    name: str
    samples: Mapping[str, str]
    load: Callable[[str, str], object]
