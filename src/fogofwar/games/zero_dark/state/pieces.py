"""The typed values of Zero Dark's rules: the phases and the action kinds (their values
are the wire's and the views' words), the decisions a mission waits on — the CQB to
fight or persuade (ZD-C5, ZD-P1), the ally that must close on its hero (ZD-D2), where
play goes on after the CQBs —, each team's side (its Spook, hand and task), and the
mission report (ZD-C8).

Nothing here changes the state: the sections of the rules (``pings.py`` …
``game.py``) do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final, Literal, NamedTuple, TypedDict

from ....core.cards import PlayingCard
from ....core.grid import Board, Square
from ....core.sight import Facing

__all__ = [
    "TEAM",
    "Cqb",
    "Kind",
    "Phase",
    "Report",
    "Resume",
    "Reunite",
    "Side",
    "TaskReport",
    "XpReport",
    "short",
    "tier_of",
    "towards",
]

TEAM: Final = "team"
"""The seat of the heroes' player in solo and co-op play (ZD-C9)."""


class Phase(StrEnum):
    """Where the mission is (its value is what the view shows)."""

    #: Versus: each team records its Spook's task and buying time in secret (ZD-B4).
    PREPARE = "prepare"
    #: A hero or ally is chosen to activate (ZD-C9).
    CHOOSE = "choose"
    #: Its automatic action: a move, a facing, a door, the exit, a verification (ZD-C2).
    MOVE = "move"
    #: Its tested action (ZD-C2).
    TESTED = "tested"
    #: Its bonus actions, automatic actions again (ZD-C2).
    BONUS = "bonus"
    #: A hero in CQB with a susceptible bogey: fight or persuade (ZD-P1).
    CQB = "cqb"
    #: After an activation: flip the Control Deck or play a card from the hand (ZD-C7).
    RED = "red"
    #: The mission is over (ZD-C8).
    OVER = "over"


class Kind(StrEnum):
    """The action kinds (their values are the wire's)."""

    PREPARE = "prepare"
    ACTIVATE = "activate"
    STEP = "step"
    STOP = "stop"
    FACE = "face"
    DOOR = "door"
    EXIT = "exit"
    VERIFY = "verify"
    SHOOT = "shoot"
    DOTLIGHT = "dotlight"
    INTERACT = "interact"
    CAUTIOUS = "cautious"
    PASS = "pass"
    DONE = "done"
    FIGHT = "fight"
    PERSUADE = "persuade"
    FLIP = "flip"
    PLAY = "play"


#: The tested actions (ZD-C2): refused with the same words while the automatic action
#: is still to come.
TESTED_KINDS: Final = frozenset(
    {Kind.SHOOT, Kind.DOTLIGHT, Kind.INTERACT, Kind.CAUTIOUS, Kind.PASS}
)


class Resume(StrEnum):
    """Where play goes on once the CQBs waiting are resolved (ZD-C5)."""

    NOTHING = ""
    #: After a character's automatic (or bonus) action: its tested action or next bonus.
    AUTOMATIC = "automatic"
    #: After the Red Force's activation of a flip or a played card.
    FLIP = "flip"


@dataclass(frozen=True, slots=True)
class Cqb:
    """A CQB waiting to be resolved (ZD-C5): a character, the bogey (or, in Versus, the
    enemy character) it fights, and which side moved into engagement."""

    char: str
    bogey: str
    moved: Literal["hero", "bogey"]


class Reunite(NamedTuple):
    """ZD-D2: an ally more than 4 from its hero; one of the two acts next."""

    ally: str
    hero: str


@dataclass(slots=True)
class Side:
    """One team's seat and its Spook: the hand, buying time, the priority task and what
    the task has come to (ZD-C7, ZD-B*, ZD-T*). Solo play has one side, ``team``;
    Versus two, ``team1`` and ``team2`` (ZD-C9)."""

    seat: str
    heroes: list[str]
    spook: str | None = None
    task: str = "none"
    buying_time: bool = False
    hand: list[PlayingCard] = field(default_factory=list)
    double_agent: str | None = None  # a ping id, then its bogey id (ZD-T3)
    boss_target: str | None = None  # a ping id, then its bogey id (ZD-T4)
    observed: set[str] = field(default_factory=set)  # ZD-T5
    acquired: bool = False  # ZD-T6
    verified: bool = False  # ZD-T4
    rescued: str | None = None  # the ally the double agent became ("left": gone at once)
    prepared: bool = False  # Versus: its secret setup choice is in (ZD-B4)
    base_d: int = 0  # the Spook's D before the task's bonus (public: the roster's)
    played: int = 0  # the cards it has played from its hand (ZD-C7)


class XpReport(TypedDict):
    """A hero's XP in the mission report (ZD-C8, ZD-T2): what it gained, and why."""

    gained: list[tuple[str, int]]
    total: int


class TaskReport(TypedDict):
    """A side's priority task in the mission report (ZD-T7)."""

    task: str
    success: bool | None


class Report(TypedDict):
    """The mission report (ZD-C8), in the ``mission_end`` event and every view after it."""

    result: str
    reason: str
    objectives: dict[str, bool]
    objectives_by: dict[str, str]
    win: list[str]
    conditions: dict[str, dict[str, bool]]
    lost: list[str]
    exited: list[str]
    task: str | None
    task_success: bool | None
    tasks: dict[str, TaskReport]
    xp: dict[str, XpReport]
    flips: int
    cards_left: int


def short(text: str, limit: int = 40) -> str:
    """``text`` for an error message: at most ``limit`` characters, as ``repr`` shows it."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def towards(board: Board, square: Square) -> Facing:
    """The facing towards the map's centre (the heroes' deployment facing, ruling)."""
    north = square.row * 2 + 1 > board.height
    east = square.col * 2 + 1 < board.width
    return ("N" if north else "S") + ("E" if east else "W")  # type: ignore[return-value]


def tier_of(card: PlayingCard) -> str | None:
    """ZD-C6: 2–10 a Grunt, J/Q/K an Elite, an Ace a Boss; a Joker none."""
    if card.is_joker:
        return None
    if card.is_pip:
        return "grunt"
    return "boss" if card.is_ace else "elite"
